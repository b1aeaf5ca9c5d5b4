## The corrected column: its names, definition, causes and "temperature zero" rows.

column-corrected-label = corrected candle port
column-corrected-short = corrected
column-corrected-in-sentence = the corrected candle port
column-corrected-definition = A real candle 0.11.1 LogitsProcessor set up to draw from what transformers samples from: penalties on the logits, its warpers in a sample_f closure, each renormalised.
