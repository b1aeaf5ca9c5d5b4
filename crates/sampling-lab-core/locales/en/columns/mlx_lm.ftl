## The mlx_lm column: its names, definition, causes and "temperature zero" rows.

column-mlx_lm-label = mlx-lm 0.32 (make_sampler)
column-mlx_lm-short = mlx-lm
column-mlx_lm-in-sentence = mlx-lm
column-mlx_lm-definition = mlx-lm 0.32.2's make_sampler, passed what a generate() port passes: temp 0 (greedy) unless a temperature is passed; top_p, min_p and top_k (exactly k) on log-probabilities at temperature 1, then the temperature, then a Gumbel-max categorical draw.

note-mlx_lm-top-p-near = top_p: the mass { $mass } above a token is within float noise of top_p × total = { $cut }: mlx's own f32 sums may keep one token more or less
note-mlx_lm-min-p-near = min_p: a log-probability is within float noise of the cut { $cut }: mlx's own f32 logsumexp may decide otherwise
note-mlx_lm-top-k-ties = top_k: tokens with equal log-probabilities straddle the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place; mlx's argpartition decides which survive
mlx_lm-raises = mlx-lm { $version } raises “{ $error }”
cause-mlx_lm-greedy-default = no temperature was passed: make_sampler's default temp is 0, so mlx-lm decodes greedily where transformers samples from { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.
cause-mlx_lm-inverted = mlx-lm does not check the temperature: multiplying by 1 / { $temperature } inverts the order, so the least likely tokens are drawn most.
cause-mlx_lm-order = mlx-lm cuts with { $filters } on log-probabilities at temperature 1 and divides by the temperature { $temperature } only in the draw; transformers divides first: mlx-lm keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}, transformers { $hf_kept }.
cause-mlx_lm-no-top-k = top_k was not passed: transformers fills in top_k=50, mlx-lm has no such default, so it keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
} where transformers keeps { $hf_kept }.
cause-mlx_lm-top-p-zero = make_sampler applies top_p only when 0 < top_p < 1: top_p=0, which transformers reads as the top token alone, is no filter at all.
cause-mlx_lm-exactly-k = scores tie at the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place: transformers keeps every tied token, mlx-lm's argpartition exactly { $k }.
cause-mlx_lm-penalty-window = transformers' repetition penalty covers all { $context } tokens of the context; mlx-lm's only the last { $last }.
cause-mlx_lm-no-parameter = make_sampler has no parameter for { $ignored }: a port cannot pass it.
note-mlx_lm-greedy-default = no temperature sent: make_sampler's default temp 0.0 decodes greedily
note-mlx_lm-negative-temp = a negative temp multiplies the log-probabilities by a negative number: the least likely token becomes the most likely, and any token a filter cut becomes +inf (mlx then draws among those alike)
threshold-mlx_lm-argmax = temp == 0: mx.argmax, before any filter (also when no temperature is passed)
threshold-mlx_lm-inverted = categorical(logprobs * (1 / { $temperature })) without a check: the distribution is inverted
threshold-mlx_lm-samples = filters at temperature 1, then categorical(logprobs * (1 / { $temperature })); only exactly 0 is greedy
