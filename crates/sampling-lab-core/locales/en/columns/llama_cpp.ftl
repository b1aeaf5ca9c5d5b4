## The llama_cpp column: its names, definition, causes and "temperature zero" rows.

column-llama_cpp-label = llama.cpp (wllama 3.13)
column-llama_cpp-short = llama.cpp
column-llama_cpp-in-sentence = llama.cpp
column-llama_cpp-definition = llama.cpp's sampler chain as wllama 3.13.0 runs it (libllama b12211): top_k 40, top_p 0.95 and min_p 0.05 unless sent, all at temperature 1, then the temperature, then a std::mt19937 draw.

# How a generate() argument carried over into the request (llama.cpp and the servers in front of it).
carried-greedy = { $server } has no do_sample: greedy is temperature 0
carried-llama_cpp-do-sample = nothing to send: { $server } samples unless the temperature is 0 or less
carried-default = not passed: { $server }'s default { $key } { $value }
carried-none-not-sent = not sent, so { $server }'s default { $key } { $value } applies
carried-llama_cpp-none-off = None means off: sent as llama.cpp's off value (JSON null would give its default)
carried-clamped = clamped to { $value }
carried-same-name = same name
carried-renamed = renamed, over the last { $last } tokens

note-carried-sent = { $python } → { $sent } ({ $how })
note-carried-not-sent = { $python }: { $how }
note-llama_cpp-fills-every-field = { $server } puts a value in every field before llama-server reads the request (the report lists them under llama_server): its own defaults where the port sent nothing
note-llama_cpp-clamped = { $argument } clamped to { $became }, where transformers raises “{ $error }”
note-llama_cpp-sorted-ties = tokens with equal logits were ordered by libc++'s std::sort, which this port does not reproduce: which of them a given seed draws may differ (their probabilities do not)
note-llama_cpp-typical-near = typical: the mass { $mass } at the cut is within float noise of typical_p = { $typical_p }
note-llama_cpp-typical-ties = typical: tokens with equal scores straddle the cut; libc++'s std::sort decides which survive
note-llama_cpp-top-p-near = top_p: the mass { $mass } at the cut is within float noise of top_p = { $top_p }
note-llama_cpp-top-p-ties = top_p: tokens with equal logits straddle the cut; their order decides which survive
note-llama_cpp-min-p-near = min_p: a logit is within float noise of the cut { $cut }

llama_cpp-clamp = { $argument } to { $became }
cause-llama_cpp-accepts-greedy = transformers refuses these arguments (“{ $error }”); { $server } decodes greedily.
cause-llama_cpp-accepts-samples = transformers refuses these arguments (“{ $error }”); { $server } samples from { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}.
cause-llama_cpp-accepts-clamps-greedy = transformers refuses these arguments (“{ $error }”); { $server } clamps { $clamps } and decodes greedily.
cause-llama_cpp-accepts-clamps-samples = transformers refuses these arguments (“{ $error }”); { $server } clamps { $clamps } and samples from { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}.
cause-llama_cpp-no-do-sample = generate() without do_sample=True decodes greedily; { $server } has no do_sample and samples at temperature { $temperature } from { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}.
cause-llama_cpp-defaults = what is not passed takes { $server }'s defaults, not transformers': { $filled } (transformers: temperature 1.0, top_k 50, no top_p, no min_p).
cause-llama_cpp-order = { $server } cuts with { $filters } at temperature 1, where { $passed ->
    [one] { $passed } token
   *[other] { $passed } tokens
} pass, and divides by the temperature { $temperature } only then; transformers divides first, and { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
} pass its cuts.
cause-llama_cpp-exactly-k = scores tie at the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place: transformers keeps every tied token, { $server } keeps exactly { $k } (libc++'s heap decides which).
cause-llama_cpp-penalty-window = transformers' repetition penalty covers all { $context } tokens of the context; { $server }'s repeat_penalty only the last { $last }.
cause-llama_cpp-ignored = { $server } never reads { $ignored }.
cause-llama_cpp-arithmetic = { $server } runs the same rules in f32 (keeping { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}); the distributions differ by more than 1e-6.

threshold-llama_cpp-argmax = temperature ≤ 0: the first maximum, silently (a negative one is clamped to 0)
threshold-llama_cpp-samples = logits / { $temperature } in f32 after top_k, top_p and min_p at temperature 1; no threshold
