## 模型文件、logits 文件或请求为什么不能用：本 crate 自己的句子（核心的句子在
## crates/sampling-lab-core/locales）。库的原话（$detail）、名字、形状和文件里写的值都是参数，保持原样。

## GGUF 文件。
model-file-empty = 模型文件是空的
model-not-gguf = 不是 GGUF 文件：它以字节 { $head } 开头，GGUF 以 `GGUF` 开头
model-not-gguf-safetensors = 这是 safetensors 文件，不是 GGUF：请连同它的 config.json 和 tokenizer.json 一起载入
model-gguf-header-unreadable = 无法读取 GGUF 的文件头（文件损坏或不完整）：“{ $detail }”
model-gguf-alignment-zero = GGUF 元数据 `general.alignment` 是 0；张量数据无法按 0 字节对齐
model-gguf-architecture = 这个 GGUF 里是 `{ $arch }` 模型；sampling-lab 只运行 llama 架构的模型，比如 SmolLM2
model-gguf-metadata-missing = GGUF 元数据里没有 `{ $key }`
model-gguf-metadata-not-number = GGUF 元数据 `{ $key }` 不是数字
model-gguf-metadata-not-strings = GGUF 元数据 `{ $key }` 不是字符串列表
model-gguf-tensor-truncated = GGUF 文件不完整：张量 `{ $name }` 结束于第 { $end } 字节，而文件只有 { $size } 字节
model-gguf-tensor-impossible = GGUF 张量 `{ $name }` 声称形状为 { $shape }、类型为 { $dtype }，没有文件放得下
model-gguf-too-few-tensors = 这个 GGUF 声称有 { $layers } 层，却只有 { $tensors } 个张量
model-gguf-tensor-missing = 这个 GGUF 缺少 llama 模型需要的张量 `{ $name }`
model-gguf-tensor-shape = GGUF 张量 `{ $name }` 的形状是 { $shape }，按元数据应为 { $implied }
model-gguf-no-chat-template = 这个 GGUF 没有 `tokenizer.chat_template`
model-gguf-tokenizer-model = tokenizer.ggml.model 是 `{ $model }`；只支持字节级 BPE（`gpt2`）分词器
model-gguf-tokenizer = GGUF 分词器：“{ $detail }”
model-gguf-merge = GGUF 合并规则 `{ $merge }` 不是两段

## Hub 文件夹：config.json、tokenizer.json、tokenizer_config.json 和 safetensors 权重。
model-config-not-llama = config.json 不是 llama 配置：第 { $line } 行第 { $column } 列，“{ $detail }”
model-config-architecture = config.json 描述的是 `{ $kind }` 模型；sampling-lab 只运行 llama 架构的模型，比如 SmolLM2
model-config-rope-scaling = config.json 设置了 rope_scaling，sampling-lab 没有实现它
model-safetensors-is-gguf = 这是 GGUF 文件，不是 safetensors：请把它当作 GGUF 模型载入
model-not-safetensors = 不是 safetensors 文件（8 字节长度之后没有 JSON 文件头）
model-safetensors-truncated = safetensors 文件不完整：光文件头就需要 { $needs } 字节，文件只有 { $size } 字节
model-safetensors-unreadable = 无法读取 safetensors 文件（损坏或不完整）：“{ $detail }”
model-weights-tensor-missing = 权重里缺少 llama 模型需要的张量 `{ $name }`
model-weights-tensor-shape = 张量 `{ $name }` 的形状是 { $shape }，按配置应为 { $implied }
model-tokenizer-json = tokenizer.json 不是 JSON：第 { $line } 行第 { $column } 列，“{ $detail }”
model-tokenizer-precompiled = tokenizer.json 有 Precompiled（SentencePiece）规范化器；sampling-lab 只读字节级 BPE 分词器
model-tokenizer = tokenizer.json：“{ $detail }”
model-tokenizer-config-json = tokenizer_config.json 不是 JSON：第 { $line } 行第 { $column } 列，“{ $detail }”
model-no-chat-template = 没有对话模板：tokenizer_config.json 里没有 `chat_template`
model-generation-config-utf8 = generation_config.json 不是 UTF-8 文本
model-generation-config = generation_config.json：{ $problem }

## 模型的形状，无论来自哪种文件。
model-hyper-inconsistent = llama 超参数互相矛盾：{ $detail }
model-hyper-too-large-hidden = 模型声称隐藏层大小为 { $n }，超过 sampling-lab 接受的 { $max }
model-hyper-too-large-intermediate = 模型声称中间层大小为 { $n }，超过 sampling-lab 接受的 { $max }
model-hyper-too-large-layers = 模型声称有 { $n } 层，超过 sampling-lab 接受的 { $max }
model-hyper-too-large-vocab = 模型声称词表大小为 { $n }，超过 sampling-lab 接受的 { $max }
model-head-size-odd = 注意力头的大小必须是偶数，才能做旋转位置编码
model-precision = 精度只能是 `exact` 或 `fast`，不能是 `{ $precision }`

## 运行模型。
model-chat-empty = 对话至少要有一条消息
model-template-parse = 对话模板无法解析：“{ $detail }”
model-template-failed = 对话模板执行失败：“{ $detail }”
model-template-fuel = 对话模板执行超过了 { $fuel } 条指令（是不是死循环？），已中止
model-template-too-long = 对话模板生成了 { $bytes } 字节，超过一个提示最多允许的 { $max } 字节
model-cannot-tokenize = 无法分词：“{ $detail }”
model-cannot-decode = 无法解码：“{ $detail }”
model-context-empty = 上下文是空的
model-token-outside = token id { $id } 超出了大小为 { $vocab } 的词表
model-context-too-long = 上下文有 { $tokens } 个 token，最多只能放 { $limit } 个（{ $why }）
model-limit-context = 模型的上下文长度
model-limit-exact = 精确运行器只预先算好了 32,768 个位置的旋转位置编码
model-limit-quantized = candle 的量化 llama 只有 4,096 个位置的旋转位置编码；精确精度能用到模型的全部上下文
model-rotary-past = 位置 { $from }..{ $to } 超出了旋转位置编码表
model-cache-other-model = 用了另一个模型的缓存
model-cut-needs-exact = 投机解码需要精确精度：candle 的量化 llama（fast）无法截短它的 KV 缓存
model-candle = 模型出错：“{ $detail }”

## 写出 Hub 文件夹。
model-export-dtype = 权重只能写成 f32、bf16 或 f16，不能是 { $dtype }
model-writing-safetensors = 写 safetensors 时出错：“{ $detail }”
model-writing-tokenizer = 写 tokenizer.json 时出错：“{ $detail }”

## 生成的请求。
generation-token-outside = token { $token } 超出了大小为 { $vocab } 的词表
generation-branch-missing = 分支 { $number } 不存在：一共只有 { $count } 个
generation-step-missing = 步骤 { $index } 不存在：只生成了 { $count } 个 token
generation-draft = --draft 只能是 greedy、prompt-lookup 或 sampled，不能是 `{ $draft }`
generation-block-size = 块大小至少是 1（锚点）
generation-max-new-tokens = max_new_tokens 至少是 1

## logits 文件（.npy 或 JSON 数组）。
logits-file-neither = logits 既不是 .npy 文件，也不是由数字组成的 JSON 数组：第 { $line } 行第 { $column } 列，“{ $detail }”
logits-file-npy-truncated = .npy 文件不完整
logits-file-npy-version = 不支持的 .npy 版本 { $version }
logits-file-npy-header-text = .npy 的文件头不是文本
logits-file-npy-no-descr = .npy 的文件头里没有 descr
logits-file-npy-dtype = logits 必须是 float32（'<f4'），这个 .npy 里是 { $descr }
logits-file-npy-fortran = 不支持 Fortran 顺序的 .npy 文件
logits-file-npy-no-shape = .npy 的文件头里没有 shape
logits-file-npy-shape = .npy 的形状 { $shape } 不对
logits-file-npy-not-1d = logits 必须是一维的（一步在整个词表上的 logits），这个 .npy 的形状是 { $shape }
logits-file-npy-size = .npy 的数据有 { $bytes } 字节，形状 { $shape } 需要 { $len } × 4 字节

## sampling-lab 命令：用法、命令行哪里不对，以及它运行中（在 stderr 上）和结束时说的话。
cli-usage = 用法：
cli-usage-path = PATH 是一个 .gguf 文件，或一个 Hugging Face 布局的目录（config.json、model.safetensors、tokenizer.json 等）。
cli-usage-lang = --lang：命令说话用的语言，包括报告的句子、进度和错误（默认英文）。--compare：结论拿来和 transformers 比较的列（默认 literal,corrected；`none` 表示差得最远的一列）。
cli-usage-columns = COLUMN 是报告里的一列：{ $columns }（generate 默认 hf；speculate 默认 dflash）。
cli-unknown-command = 没有 `{ $command }` 这个命令
cli-command-missing = 先写命令，再写它的参数
cli-unexpected-argument = 多出的参数 `{ $argument }`：参数应写成 `--名字 值` 的形式
cli-unknown-flag = 这个命令没有 `--{ $flag }` 参数
cli-flag-needs-value = `--{ $flag }` 后面要跟一个值
cli-flag-missing = 这个命令需要 `--{ $flag }`
cli-flag-not-integer = `--{ $flag }` 必须是非负整数
cli-cannot-read = 无法读取 { $path }：{ $detail }
cli-cannot-write = 无法写入 { $path }：{ $detail }
cli-not-utf8 = { $path } 不是 UTF-8 文本
cli-context-ids = --context-ids 必须是 token id 组成的 JSON 数组：{ $detail }
cli-format = --format 只能是 text 或 json，不能是 `{ $value }`
cli-dtype = --dtype 只能是 f32、bf16 或 f16，不能是 `{ $value }`
cli-output = 无法写出结果：{ $detail }
cli-port-fixed = 固定的请求
cli-port-this-step = 只对这一步
cli-loaded = 已载入 { $path }（{ $precision ->
    [exact] 精确
    [fast] 快速
   *[other] { $precision }
}），用时 { $seconds } 秒
cli-context-run = { $count } 个上下文 token，用时 { $seconds } 秒
cli-generated = 预填充 { $prompt } 个 token 用时 { $prefill } 秒；生成 { $steps } 个 token 用时 { $seconds } 秒（{ $rate } tok/s）；结束方式：{ $finish }；ids: { $ids }
cli-answered = 预填充之后，生成 { $steps } 个 token 用时 { $seconds } 秒；{ $figures } 秒后，每一步在每一列下的指标都已算好
cli-wrote-logits = 已把 { $count } 个上下文 token 之后的 logits 写入 { $path }
cli-wrote-hub = 已把 Hugging Face 布局写入 { $path }
