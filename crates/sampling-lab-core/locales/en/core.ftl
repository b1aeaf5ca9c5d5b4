## What every column shares: words the causes use, the report's first sentence, "port this call"'s
## verdicts. Code, parameter names and a library's own words are arguments: they stay as they are.


## Lists, as a sentence writes them.
list-pair = { $first } and { $second }
list-more = { $first }, { $rest }
list-nothing = nothing

## The report's first sentence.
finding-hf-keeps = keeps { $count ->
    [one] { $count } token
   *[other] { $count } tokens
} here
finding-hf-greedy = decodes greedily here (1 token)
finding-compare-1 = transformers { $hf }; { $first }.
finding-compare-2 = transformers { $hf }; { $first }; { $second }.
finding-compare-3 = transformers { $hf }; { $first }; { $second }; { $third }.
finding-compare-agree = transformers { $hf }; { $columns } { $mode ->
    [greedy] pick the token transformers picks
   *[sample] sample what transformers samples
}.
finding-column-agrees = { $column } samples what transformers samples
finding-column-refuses = { $column } refuses the call
finding-column-outside = { $column } keeps { $count ->
    [one] { $count } token
   *[other] { $count } tokens
} and draws { NUMBER($share, style: "percent", maximumSignificantDigits: 2) } of the time from tokens transformers never picks
finding-column-never-draws = { $column } keeps { $count ->
    [one] { $count } token
   *[other] { $count } tokens
}, never drawing { $never ->
    [one] { $never } token
   *[other] { $never } tokens
} transformers can draw (total variation { NUMBER($tv, maximumFractionDigits: 3) })
finding-column-other-probabilities = { $column } keeps { $count ->
    [one] { $count } token
   *[other] { $count } tokens
} with other probabilities (total variation { NUMBER($tv, maximumFractionDigits: 3) })
finding-column-name = { $column }
finding-sampler = { $column } ({ $count ->
    [one] { $count } token
   *[other] { $count } tokens
})
finding-refused-by-all = transformers refuses these arguments, and so does every other column.
finding-refused-but = transformers refuses these arguments, but { $samplers } { $count ->
    [one] samples
   *[other] sample
} anyway.
finding-all-agree = Every column samples what transformers samples here: the same { $count ->
    [one] { $count } token
   *[other] { $count } tokens
}.
finding-all-but-refusing-agree = Every column that accepts the call samples what transformers samples here ({ $count ->
    [one] { $count } token
   *[other] { $count } tokens
}); { $refusing } { $refusing_count ->
    [one] refuses
   *[other] refuse
} it.

## "Port this call": the verdict on each runtime's request.
port-agrees = { $runtime } samples from transformers' distribution here with this request.
port-refused-this-step = { $runtime } refuses the nearest request ({ $error }). At this step only, top_k = transformers' kept count agrees.
port-refused-none = { $runtime } refuses the nearest request ({ $error }), and no request agrees at this step either.
port-apart-this-step = The call's values do not make { $runtime } sample from transformers' distribution; the nearest request made of them is { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } apart (TV). At this step only, top_k = transformers' kept count agrees.
port-apart-none = The call's values do not make { $runtime } sample from transformers' distribution; the nearest request made of them is { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } apart (TV), and no request agrees at this step either.

## The "temperature zero" table, where a library raises.
threshold-value-error = ValueError: { $error }

## Decisions torch's float arithmetic or sort order may take otherwise (the hf column's ambiguities).
ambiguity-near-cut = token { $token }: probability { $probability } is within float noise of the cut { $threshold }
ambiguity-tie-split = tied tokens with probability { $probability } straddle the cut; torch's sort order decides which survive
ambiguity-near-top-p = token { $token }: the mass above it, { $above }, is within float noise of top_p = { $p }
ambiguity-near-typical-p = token { $token }: cumulative mass { $cumulative } is within float noise of typical_p = { $mass }
threshold-library-error = { $error }

## An argument as code, marked when transformers filled it in.
argument = { $argument }
argument-implicit = { $argument } (implicit)

## The serving runtimes (vLLM, SGLang, mlx-lm): the request a port sends, and the opening of their causes.
note-port-request = the request a generate() port sends { $runtime }: each argument by name as passed, do_sample=False as temperature 0; do_sample=True and a None send nothing, so { $runtime }'s defaults apply (a judgement call: a port could fill in transformers' defaults instead)
note-port-do-sample-greedy = { $python } → temperature: 0 ({ $runtime } has no do_sample: greedy is temperature 0)
note-port-do-sample-nothing = { $python }: nothing to send ({ $runtime } has no do_sample)
note-port-temperature-replaced = { $python }: replaced by temperature 0 (do_sample=False)
note-port-sent = { $python } → { $key }: { $value }
note-port-none = { $python }: not sent, so { $runtime }'s default applies
runtime-greedy = decodes greedily
runtime-samples = samples at { $temperature } from { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}
cause-runtime-accepts = transformers refuses these arguments (“{ $error }”); { $runtime } { $what }.
cause-runtime-refused-hf-samples = { $refusal }; transformers samples from { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.
cause-runtime-refused-hf-refuses = { $refusal }; transformers refuses them too.
# Where a runtime's sampler meets float noise (the report's notes).
note-subnormal = { $count } kept { $count ->
    [one] token has
   *[other] tokens have
} an f32 probability below 1.2e-38 (subnormal): drawn on a CPU, never on a device that flushes subnormals to zero
note-torch-min-p-near = min_p: { $count ->
    [one] a token has
   *[other] { $count } tokens have
} a probability within float noise of the cut { $cut }: torch's own f32 softmax may decide otherwise
note-torch-top-p-ties = top_p: tokens with equal logits straddle the cut; torch's sort decides which survive
cause-runtime-no-do-sample = generate() without do_sample=True decodes greedily; { $runtime } has no do_sample and { $what }.
cause-runtime-no-field = { $runtime } has no field for { $ignored }: a port cannot send it.
cause-runtime-arithmetic = { $runtime } runs these rules in f32 (keeping { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}); the distributions differ by more than 1e-6.

## The reference chat beside the write-up it comes from (its original f32 weights).
write-up-other-branch = The write-up this chat comes from ran the original f32 weights: there the top 40 tokens held { NUMBER($published_mass, minimumFractionDigits: 4) } of the mass, more than top_p=0.9, so candle's TopKThenTopP cut at 0.9 of the whole and the literal port kept { $published_literal } where transformers kept { $published_hf }. With this model the top 40 hold { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) }, less than 0.9, so the literal port takes the other branch: it skips the nucleus and keeps all 40 (transformers: { $hf }).
write-up-same-branch = The write-up this chat comes from ran the original f32 weights: there the top 40 tokens held { NUMBER($published_mass, minimumFractionDigits: 4) } of the mass and the literal port kept { $published_literal } where transformers kept { $published_hf }. With this model the top 40 hold { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) }, also more than top_p=0.9: the same branch, the literal port keeping { $literal } and transformers { $hf }.

## What the core refuses to read. A JSON parser's words ($detail) and a value as the input wrote
## it stay as they are.
invalid-language = the language must be `en` or `zh-Hans`, not `{ $tag }`
invalid-params-json = params are not valid JSON: { $detail } at line { $line }, column { $column }
invalid-params-not-object = params must be a JSON object of generate() keyword arguments
invalid-argument-unknown = unknown generate() argument `{ $key }`; supported: { $supported }
invalid-seed = `seed` must be a non-negative integer
invalid-max-new-tokens = `max_new_tokens` must be a positive integer
invalid-value-too-large = `{ $key }` is too large: { $value }
invalid-value-type = `{ $key }` must be a number, a bool or null, not { $value }
invalid-generation-config-json = generation_config.json is not valid JSON: { $detail } at line { $line }, column { $column }
invalid-generation-config-not-object = generation_config.json must be a JSON object
invalid-report-options-json = the report's options are not valid JSON: { $detail } at line { $line }, column { $column }
invalid-report-options = the report's options cannot be used: { $detail }
invalid-semantics = semantics must be one of { $names }, not `{ $name }`
invalid-logits-empty = logits are empty
invalid-logit-not-finite = logits[{ $index }] is { $value }: { $why }
invalid-logits-all-masked = every logit is -inf: { $why }
invalid-logits-torch = transformers' softmax turns every probability into NaN and torch.multinomial raises RuntimeError (probability tensor contains either `inf`, `nan` or element < 0); logits must be finite or -inf
invalid-ngram-not-whole = no_repeat_ngram_size={ $n }: transformers.js builds n-grams of whole tokens only
invalid-gumbel-no-distribution = GumbelSoftmax has no exact distribution
invalid-weights = the kept tokens' probabilities cannot be drawn from: { $detail }
invalid-part = part { $index } of { $of } does not exist
invalid-counts-vocabulary = { $count } counts for a vocabulary of { $vocab }
invalid-counts-columns = { $count } counts do not fit this run's columns

## A whole answer under every column (`sampling-lab answer`, the page's answer view): a lead, then
## a clause per column.
answer-lead = Along these { $steps ->
    [one] { $steps } token
   *[other] { $steps } tokens
}, given the path this answer took:
answer-column-outside-first = { $column } would draw a token transformers never draws at { NUMBER($expected, maximumSignificantDigits: 2) } of { $steps } steps on average, more than 1% of the time first at token { $first }; the chance it never does is { NUMBER($never, style: "percent", maximumSignificantDigits: 2) }.
answer-column-outside-small = { $column } would draw a token transformers never draws at { NUMBER($expected, maximumSignificantDigits: 2) } of { $steps } steps on average, never more than 1% of the time at one step; the chance it never does is { NUMBER($never, style: "percent", maximumSignificantDigits: 2) }.
answer-column-outside-rare = { $column } would draw a token transformers never draws at fewer than 0.01 of { $steps } steps on average; the chance it never does is { NUMBER($never, style: "percent", maximumSignificantDigits: 3) }.
answer-columns-never = { $columns }: never — every draw is a token transformers can draw.
answer-column-refuses = { $column } refuses the call.
answer-hf-refuses = transformers refuses these arguments: along the answer there is nothing to compare with.
invalid-answer-json = the answer's steps are not what `answer` writes: { $detail } at line { $line }, column { $column }
