## The vllm column: its names, definition, causes and "temperature zero" rows.

column-vllm-label = vLLM 0.33 (OpenAI server)
column-vllm-short = vLLM
column-vllm-in-sentence = vLLM
column-vllm-definition = vLLM 0.33.0's OpenAI-compatible server, sent what a generate() port sends: top_k 0 (the whole vocabulary) unless sent, a temperature in (0, 0.01) raised to 0.01, then min_p, top_k (ties kept) and top_p on what is left; top_p=0 and temperatures above 2 refused.

note-vllm-top-p-near = top_p: the cumulative mass { $mass } is within float noise of 1 − top_p = { $threshold }: torch's own f32 sums may cut one token more or less
vllm-refuses = vLLM { $version } refuses the request a port sends (“{ $error }”)
cause-vllm-floor = vLLM raises temperature={ $temperature } to 0.01 and samples there from { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}, where transformers divides by { $temperature } and keeps { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.
cause-vllm-no-top-k = top_k was not passed: transformers fills in top_k=50, vLLM's server default is 0 (the whole vocabulary), so it keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
} where transformers keeps { $hf_kept }.
cause-vllm-min-p-first = vLLM cuts with min_p { $min_p } before top_p, which then measures what min_p left; transformers applies min_p last: vLLM keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}, transformers { $hf_kept }.
cause-vllm-generation-config = vLLM's server takes { $fields } from the model's generation_config.json but never its do_sample.
note-vllm-raised = temperature { $temperature } is below 0.01: SamplingParams raises it to 0.01 (a warning in the server's log)
note-vllm-generation-config = not sent, so taken from the model's generation_config.json (--generation-config auto): { $fields }
threshold-vllm-argmax = temperature 0 (below 1e-5): greedy; top_k, top_p and min_p reset
threshold-vllm-raised = { $temperature } is raised to 0.01 (a warning): it samples at 0.01, never greedy
threshold-vllm-samples = logits / { $temperature } in f32, then min_p, top_k and top_p
