## The sglang column: its names, definition, causes and "temperature zero" rows.

column-sglang-label = SGLang 0.5.23 (/generate)
column-sglang-short = SGLang
column-sglang-in-sentence = SGLang
column-sglang-definition = SGLang 0.5.23's /generate with the pytorch sampling backend, sent what a generate() port sends: the whole vocabulary unless top_k is sent, top_k (exactly k) and top_p measured together on the whole distribution, then min_p; top_k=1 or a temperature below 1e-6 is greedy; top_k=0 refused.

note-sglang-top-k-ties = top_k: tokens with equal probabilities straddle the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place; torch's sort (or torch.topk, which the server's call uses) decides which SGLang keeps
note-sglang-top-p-near = top_p: the mass { $mass } before a token is within float noise of top_p = { $top_p }: torch's own f32 sums may keep one token more or less
note-sglang-past-one = top_p=1.0: torch's f32 softmax sums to more than 1, so SGLang's (cum − p) > top_p still cuts the least likely of the { $count ->
    [one] { $count } token
   *[other] { $count } tokens
} kept after a mass within float noise of 1 (how many depends on the CPU); this port keeps them
sglang-refuses = SGLang { $version } refuses the request a port sends (“{ $error }”)
cause-sglang-greedy-temperature = SGLang takes the argmax here (its temperature { $temperature } is below 1e-6, which SGLang turns into top_k 1); transformers samples from { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.
cause-sglang-greedy-top-k = SGLang takes the argmax here (SGLang treats any request with top_k 1 as greedy); transformers samples from { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.
cause-sglang-no-top-k = top_k was not passed: transformers fills in top_k=50, SGLang's default is the whole vocabulary, so it keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
} where transformers keeps { $hf_kept }.
cause-sglang-joint-top-p = SGLang measures top_p { $top_p } on the whole distribution, not on the { $top_k } tokens top_k left, so it cuts later: it keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}, transformers (top_p on the renormalised top_k) { $hf_kept }.
cause-sglang-exactly-k = scores tie at the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place: transformers keeps every tied token, SGLang exactly { $k } (torch's sort decides which).
cause-sglang-output-penalty = transformers' repetition penalty covers the prompt; SGLang's only the tokens it generated, so at the step after the prompt repetition_penalty={ $penalty } changes nothing.
cause-sglang-no-field = SGLang has no field for { $ignored } (/generate refuses unknown fields): a port cannot send it.
note-sglang-greedy-temperature = temperature { $temperature } is below 1e-6: SamplingParams sets temperature 1 and top_k 1, i.e. greedy
note-sglang-output-penalty = SGLang's repetition penalty scales only tokens it generated: at the step after the prompt it changes nothing
threshold-sglang-argmax = { $temperature } < 1e-6: temperature 1 and top_k 1, i.e. torch.argmax
threshold-sglang-samples = logits / { $temperature } in f32, then top_k, top_p and min_p; a request with top_k=1 is greedy at any temperature
