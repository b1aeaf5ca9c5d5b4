## The hf column: its names, definition, causes and "temperature zero" rows.

column-hf-label = transformers (hf)
column-hf-short = hf
column-hf-in-sentence = transformers
column-hf-definition = What transformers' generate() samples from: its logits processors and warpers in its order, then softmax and torch.multinomial (transformers 5.23.0, checked against it by fixtures).

cause-hf-undrawable = transformers keeps { $count ->
    [one] { $count } token
   *[other] { $count } tokens
} (their scores are finite), but gives { $undrawable } of them a probability too small for a float (below 1e-45): no draw can reach them, so a column that leaves them out and keeps { $drawable ->
    [one] { $drawable } token
   *[other] { $drawable } tokens
} samples from the same distribution.

threshold-hf-samples = TemperatureLogitsWarper, then top_k=50 unless passed
threshold-hf-greedy = greedy; the temperature is not used
threshold-hf-greedy-warned = greedy; temperature={ $temperature } is only warned about
