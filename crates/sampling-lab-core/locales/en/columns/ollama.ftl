## The ollama column: its names, definition, causes and "temperature zero" rows.

column-ollama-label = Ollama 0.32 (/api/generate)
column-ollama-short = Ollama
column-ollama-in-sentence = Ollama
column-ollama-definition = Ollama 0.32.15's /api/generate, sent the options a generate() port sends: llama.cpp's chain (llama-server) with Ollama's values in every field — top_k 40, top_p 0.9, min_p 0 at temperature 1, then temperature 0.8 — unless sent; a None is not sent.

threshold-ollama-argmax = temperature ≤ 0: the first maximum, silently (Ollama checks no range; llama-server clamps a negative one to 0)
threshold-ollama-samples = logits / { $temperature } in f32 after top_k 40, top_p 0.9 (unless sent) at temperature 1; no threshold
