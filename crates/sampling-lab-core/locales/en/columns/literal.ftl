## The literal column: its names, definition, causes and "temperature zero" rows.

column-literal-label = literal candle port
column-literal-short = literal
column-literal-in-sentence = a literal candle port
column-literal-definition = The arguments copied one by one onto candle 0.11.1's Sampling, as candle's examples wire their flags, drawn by its real LogitsProcessor: no implicit top_k, no generation_config.json.

cause-literal-implicit-top-k = top_k was not passed, so transformers uses top_k={ $k } (from { $source ->
    [generation_config] the model's generation_config.json
   *[default] transformers' default
}); the literal port has no top_k and keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}.
cause-literal-generation-config = transformers takes { $fields } from the model's generation_config.json; a candle port never reads that file.
cause-literal-ties = { $tied } tokens share the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} highest score: transformers' top-k keeps every one of them ({ $kept }), candle keeps exactly { $k }.
cause-literal-dropped = candle has no counterpart for { $dropped }: the literal port drops { $count ->
    [one] it
   *[other] them
}.
cause-literal-penalty-window = transformers' repetition penalty covers all { $context } tokens of the context; candle's examples pass only the last { $last }.
cause-literal-refused = transformers refuses these arguments (“{ $error }”); the literal port { $candle }.
cause-literal-refused-argmax = silently decodes greedily (Sampling::ArgMax)
cause-literal-refused-samples = samples with { $sampling }
cause-literal-top-p-skipped = the top { $k } tokens hold { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) } of the mass, less than top_p={ $p }: candle's TopKThenTopP then skips the nucleus and keeps all { $k }; transformers renormalises the top { $k } and cuts at { $p } of that, keeping { $hf_kept }.
cause-literal-top-p-not-renormalised = candle's TopKThenTopP measures top_p={ $p } against the whole mass; transformers renormalises the top { $k } first and measures against that, keeping { $hf_kept }.

note-literal-dropped = { $argument } has no candle counterpart and is dropped
note-literal-penalty-window = repetition penalty over the last { $last } tokens, as candle's examples apply it

threshold-candle-new-samples = Sampling::All at this temperature
threshold-candle-new-argmax = below 1e-7 it builds Sampling::ArgMax
threshold-candle-all-err = sample() returns Err: { $error }
threshold-candle-all-one = samples, but only token { $token } has a nonzero f32 weight
threshold-candle-all-samples = samples from { $count ->
    [one] { $count } token
   *[other] { $count } tokens
}
