## The transformers_js column: its names, definition, causes and "temperature zero" rows.

column-transformers_js-label = transformers.js 4.3.2
column-transformers_js-short = transformers.js
column-transformers_js-in-sentence = transformers.js
column-transformers_js-definition = transformers.js 4.3.2 (@huggingface/transformers on npm), generate() in JavaScript: its top-p warper is commented out, top_k keeps exactly k, temperature 0 decodes greedily.

cause-transformers_js-refused = transformers.js { $version } throws: { $error }
cause-transformers_js-accepts = transformers refuses these arguments (“{ $error }”); transformers.js { $version } runs them.
cause-transformers_js-accepts-greedy = transformers refuses these arguments (“{ $error }”); transformers.js { $version } warns and decodes greedily.
cause-transformers_js-top-p-ignored = transformers.js { $version } never applies { $ignored }: its top-p and other warpers are commented out, so it keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
} where transformers keeps { $hf_kept }.
cause-transformers_js-exactly-k = scores tie at the { NUMBER($k, type: "ordinal") ->
    [one] { $k }st
    [two] { $k }nd
    [few] { $k }rd
   *[other] { $k }th
} place: transformers keeps every tied token ({ $hf_kept } in all), transformers.js' ONNX TopK keeps exactly { $k }, the lower ids first.
cause-transformers_js-arithmetic = transformers.js { $version } runs the same rules in JavaScript's arithmetic; the distributions differ by more than 1e-6.

note-transformers_js-switched-to-greedy = `temperature: 0` implies greedy sampling: transformers.js sets do_sample to false (a warning)

threshold-transformers_js-greedy = a warning, then do_sample is set to false
threshold-transformers_js-inverted = divides by { $temperature } without a check: the distribution is inverted
threshold-transformers_js-samples = TemperatureLogitsWarper({ $temperature }), then top_k=50 unless passed
