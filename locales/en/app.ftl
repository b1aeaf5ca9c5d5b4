## Why a model file, a logits file or a request cannot be used: the crate's own sentences (the
## core's are in crates/sampling-lab-core/locales). A library's words ($detail), names, shapes
## and values as a file writes them are arguments: they stay as they are.

## A GGUF file.
model-file-empty = the model file is empty
model-not-gguf = not a GGUF file: it starts with bytes { $head }, a GGUF starts with `GGUF`
model-not-gguf-safetensors = this is a safetensors file, not a GGUF: load it with its config.json and tokenizer.json
model-gguf-header-unreadable = the GGUF header cannot be read (damaged or truncated file): { $detail }
model-gguf-alignment-zero = GGUF metadata `general.alignment` is 0; tensor data cannot be aligned to 0 bytes
model-gguf-architecture = the GGUF holds a `{ $arch }` model; sampling-lab runs llama-architecture models such as SmolLM2
model-gguf-metadata-missing = GGUF metadata has no `{ $key }`
model-gguf-metadata-not-number = GGUF metadata `{ $key }` is not a number
model-gguf-metadata-not-strings = GGUF metadata `{ $key }` is not a list of strings
model-gguf-tensor-truncated = the GGUF file is truncated: tensor `{ $name }` ends at byte { $end } but the file has { $size } bytes
model-gguf-tensor-impossible = GGUF tensor `{ $name }` claims shape { $shape } of { $dtype }, which no file can hold
model-gguf-too-few-tensors = the GGUF claims { $layers } layers but holds only { $tensors } tensors
model-gguf-tensor-missing = the GGUF has no tensor `{ $name }`, which a llama model needs
model-gguf-tensor-shape = GGUF tensor `{ $name }` has shape { $shape }; the metadata implies { $implied }
model-gguf-no-chat-template = the GGUF has no `tokenizer.chat_template`
model-gguf-tokenizer-model = tokenizer.ggml.model is `{ $model }`; only byte-level BPE (`gpt2`) tokenizers are supported
model-gguf-tokenizer = GGUF tokenizer: { $detail }
model-gguf-merge = GGUF merge `{ $merge }` is not two pieces

## A Hub folder: config.json, tokenizer.json, tokenizer_config.json, safetensors weights.
model-config-not-llama = config.json is not a llama configuration: { $detail } at line { $line }, column { $column }
model-config-architecture = config.json describes a `{ $kind }` model; sampling-lab runs llama-architecture models such as SmolLM2
model-config-rope-scaling = config.json sets rope_scaling, which sampling-lab does not implement
model-safetensors-is-gguf = this is a GGUF file, not safetensors: load it as a GGUF model
model-not-safetensors = not a safetensors file (no JSON header after the 8-byte length)
model-safetensors-truncated = the safetensors file is truncated: its header alone needs { $needs } bytes, the file has { $size }
model-safetensors-unreadable = the safetensors file cannot be read (damaged or truncated): { $detail }
model-weights-tensor-missing = the weights have no tensor `{ $name }`, which a llama model needs
model-weights-tensor-shape = tensor `{ $name }` has shape { $shape }; the configuration implies { $implied }
model-tokenizer-json = tokenizer.json is not JSON: { $detail } at line { $line }, column { $column }
model-tokenizer-precompiled = tokenizer.json has a Precompiled (SentencePiece) normalizer; sampling-lab reads byte-level BPE tokenizers
model-tokenizer = tokenizer.json: { $detail }
model-tokenizer-config-json = tokenizer_config.json is not JSON: { $detail } at line { $line }, column { $column }
model-no-chat-template = no chat template: tokenizer_config.json has no `chat_template`
model-generation-config-utf8 = generation_config.json is not UTF-8
model-generation-config = generation_config.json: { $problem }

## The model's shape, whatever file it came from.
model-hyper-inconsistent = inconsistent llama hyper-parameters: { $detail }
model-hyper-too-large-hidden = the model claims a hidden size of { $n }, more than the { $max } sampling-lab accepts
model-hyper-too-large-intermediate = the model claims an intermediate size of { $n }, more than the { $max } sampling-lab accepts
model-hyper-too-large-layers = the model claims { $n } layers, more than the { $max } sampling-lab accepts
model-hyper-too-large-vocab = the model claims a vocabulary of { $n }, more than the { $max } sampling-lab accepts
model-head-size-odd = the attention head size must be even for rotary embeddings
model-precision = precision must be `exact` or `fast`, not `{ $precision }`

## Running it.
model-chat-empty = a chat needs at least one message
model-template-parse = the chat template does not parse: { $detail }
model-template-failed = the chat template failed: { $detail }
model-template-fuel = the chat template ran past { $fuel } instructions (does it loop?); it was stopped
model-template-too-long = the chat template rendered { $bytes } bytes, more than the { $max } a prompt may have
model-cannot-tokenize = cannot tokenize: { $detail }
model-cannot-decode = cannot decode: { $detail }
model-context-empty = the context is empty
model-token-outside = token id { $id } is outside the vocabulary of { $vocab }
model-context-too-long = the context has { $tokens } tokens but at most { $limit } fit ({ $why })
model-limit-context = the model's context length
model-limit-exact = the exact runner precomputes rotary embeddings for 32,768 positions
model-limit-quantized = candle's quantized llama has rotary embeddings for 4,096 positions; exact precision reaches the model's full context
model-rotary-past = positions { $from }..{ $to } are past the rotary tables
model-cache-other-model = a cache from another model was used
model-cut-needs-exact = speculative decoding needs exact precision: candle's quantized llama (fast) cannot cut its KV cache back
model-candle = model error: { $detail }

## Writing a Hub folder.
model-export-dtype = weights can be written as f32, bf16 or f16, not { $dtype }
model-writing-safetensors = writing safetensors: { $detail }
model-writing-tokenizer = writing tokenizer.json: { $detail }

## A generation's requests.
generation-token-outside = token { $token } is outside the vocabulary of { $vocab }
generation-branch-missing = branch { $number } does not exist: there are { $count }
generation-step-missing = step { $index } does not exist: { $count ->
    [one] { $count } token was generated
   *[other] { $count } tokens were generated
}
generation-draft = --draft must be greedy, prompt-lookup or sampled, not `{ $draft }`
generation-block-size = the block size must be at least 1 (the anchor)
generation-max-new-tokens = max_new_tokens must be at least 1

## A logits file (.npy or a JSON array).
logits-file-neither = logits are neither a .npy file nor a JSON array of numbers: { $detail } at line { $line }, column { $column }
logits-file-npy-truncated = truncated .npy file
logits-file-npy-version = unsupported .npy version { $version }
logits-file-npy-header-text = the .npy header is not text
logits-file-npy-no-descr = the .npy header has no descr
logits-file-npy-dtype = logits must be float32 ('<f4'), this .npy holds { $descr }
logits-file-npy-fortran = Fortran-ordered .npy files are not supported
logits-file-npy-no-shape = the .npy header has no shape
logits-file-npy-shape = bad .npy shape { $shape }
logits-file-npy-not-1d = logits must be 1-D (one step over the vocabulary), this .npy has shape { $shape }
logits-file-npy-size = the .npy data holds { $bytes } bytes, shape { $shape } needs { $len } × 4

## The sampling-lab command: its usage, what was wrong with a command line, and what it says as
## it goes (on stderr) or when it is done.
cli-usage = usage:
cli-usage-path = PATH is a .gguf file or a directory in the Hugging Face layout (config.json, model.safetensors, tokenizer.json, ...).
cli-usage-lang = --lang: the language of what the command says, its report's sentences, its progress and its errors (English by default). --compare: the columns the finding compares with transformers (literal,corrected by default; `none` for the largest departure).
cli-usage-columns = COLUMN is one of the columns of the report: { $columns } (generate: hf by default; speculate: dflash).
cli-unknown-command = unknown command `{ $command }`
cli-command-missing = a command comes first, then its flags
cli-unexpected-argument = unexpected argument `{ $argument }`: flags are `--name value` pairs
cli-unknown-flag = this command has no flag `--{ $flag }`
cli-flag-needs-value = `--{ $flag }` needs a value
cli-flag-missing = this command needs `--{ $flag }`
cli-flag-not-integer = `--{ $flag }` must be a non-negative integer
cli-cannot-read = cannot read { $path }: { $detail }
cli-cannot-write = cannot write { $path }: { $detail }
cli-not-utf8 = { $path } is not UTF-8 text
cli-context-ids = --context-ids must be a JSON array of token ids: { $detail }
cli-format = --format must be text or json, not `{ $value }`
cli-dtype = --dtype must be f32, bf16 or f16, not `{ $value }`
cli-output = cannot write the output: { $detail }
cli-port-fixed = fixed request
cli-port-this-step = this step only
cli-loaded = loaded { $path } ({ $precision }) in { $seconds } s
cli-context-run = { $count } context tokens in { $seconds } s
cli-generated = prefill { $prompt } tokens { $prefill } s; { $steps } tokens in { $seconds } s ({ $rate } tok/s); finished: { $finish }; ids: { $ids }
cli-answered = { $steps } tokens in { $seconds } s after the prefill; every step's figures under every column { $figures } s after it
cli-wrote-logits = wrote the logits after { $count } context tokens to { $path }
cli-wrote-hub = wrote the Hugging Face layout to { $path }
