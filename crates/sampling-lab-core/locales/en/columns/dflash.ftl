## The dflash column: its names, definition, causes and "temperature zero" rows.

column-dflash-label = DFlash sample()
column-dflash-short = DFlash
column-dflash-in-sentence = DFlash's sample()
column-dflash-definition = DFlash's sample() (z-lab/dflash, dflash/model.py @ 44947fb): the argmax below a temperature of 1e-5, else softmax(logits / temperature) over the whole vocabulary; it reads nothing else.

cause-dflash-refused = DFlash's sample() cannot run: { $error }
cause-dflash-refused-by-hf-argmax = transformers refuses these arguments (“{ $error }”); DFlash's sample() reads only the temperature and takes the argmax.
cause-dflash-refused-by-hf-samples = transformers refuses these arguments (“{ $error }”); DFlash's sample() reads only the temperature and samples.
cause-dflash-threshold = DFlash's temperature { $dflash_temperature } is below 1e-5, so sample() takes the argmax; transformers samples at temperature={ $temperature }.
cause-dflash-no-do-sample = DFlash has no do_sample: at temperature { $temperature } it samples, where generate() without do_sample=True decodes greedily.
cause-dflash-temperature-only = DFlash's sample() is temperature alone: transformers also applies { $lacked }; DFlash keeps { $kept ->
    [one] { $kept } token
   *[other] { $kept } tokens
}, transformers { $hf_kept ->
    [one] { $hf_kept } token
   *[other] { $hf_kept } tokens
}.

threshold-dflash-argmax = { $temperature } < 1e-5: torch.argmax
threshold-dflash-samples = softmax(logits / { $temperature }) over the whole vocabulary
