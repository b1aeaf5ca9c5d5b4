## 所有列共用的话：原因里的词、报告的第一句、“移植这个调用”的结论。
## 代码、参数名和库自己的原话都是参数，保持原样。


## 句子里的列举。
list-pair = { $first } 和 { $second }
list-more = { $first }、{ $rest }
list-nothing = 无

## 报告的第一句。
finding-hf-keeps = 这里留下 { $count } 个候选
finding-hf-greedy = 这里是贪心解码（1 个 token）
finding-compare-1 = transformers { $hf }；{ $first }。
finding-compare-2 = transformers { $hf }；{ $first }；{ $second }。
finding-compare-3 = transformers { $hf }；{ $first }；{ $second }；{ $third }。
finding-compare-agree = transformers { $hf }；{ $columns } { $mode ->
    [greedy] 选的 token 都和 transformers 一样
   *[sample] 的取样都和 transformers 一样
}。
finding-column-agrees = { $column } 的取样和 transformers 一样
finding-column-refuses = { $column } 拒绝这个调用
finding-column-outside = { $column } 留下 { $count } 个候选，有 { NUMBER($share, style: "percent", maximumSignificantDigits: 2) } 的抽样落在 transformers 删掉的 token 上
finding-column-never-draws = { $column } 留下 { $count } 个候选，从不抽到 transformers 能抽到的 { $never } 个候选（总变差距离 { NUMBER($tv, maximumFractionDigits: 3) }）
finding-column-other-probabilities = { $column } 留下 { $count } 个候选，但概率不同（总变差距离 { NUMBER($tv, maximumFractionDigits: 3) }）
finding-column-name = { $column }
finding-sampler = { $column }（{ $count } 个候选）
finding-refused-by-all = transformers 拒绝这组参数，其他列也都拒绝。
finding-refused-but = transformers 拒绝这组参数，但有 { $count } 列照样取样：{ $samplers }。
finding-all-agree = 每一列的取样都和 transformers 一样：同样的 { $count } 个候选。
finding-all-but-refusing-agree = 接受这个调用的列，取样都和 transformers 一样（{ $count } 个候选）；{ $refusing } 拒绝它（共 { $refusing_count } 列）。

## “移植这个调用”：每个运行时的请求的结论。
port-agrees = 用这个请求，{ $runtime } 在这一步从 transformers 的分布里取样。
port-refused-this-step = { $runtime } 拒绝最接近的请求（{ $error }）。只在这一步：top_k = transformers 留下的候选数，分布一致。
port-refused-none = { $runtime } 拒绝最接近的请求（{ $error }），在这一步也没有一致的请求。
port-apart-this-step = 照调用里的值，{ $runtime } 不会从 transformers 的分布里取样；用这些值能做到的最接近的请求相差 { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) }（总变差距离）。只在这一步：top_k = transformers 留下的候选数，分布一致。
port-apart-none = 照调用里的值，{ $runtime } 不会从 transformers 的分布里取样；用这些值能做到的最接近的请求相差 { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) }（总变差距离），在这一步也没有一致的请求。

## “温度为零”表里，库报错的地方。
threshold-value-error = ValueError: { $error }

## torch 的浮点运算或排序可能做出不同决定的地方（hf 列的歧义）。
ambiguity-near-cut = token { $token }：概率 { $probability } 与截断点 { $threshold } 只差浮点误差
ambiguity-tie-split = 概率为 { $probability } 的并列 token 分在截断点两边；哪个留下由 torch 的排序决定
ambiguity-near-top-p = token { $token }：排在它前面的质量 { $above } 与 top_p = { $p } 只差浮点误差
ambiguity-near-typical-p = token { $token }：累计质量 { $cumulative } 与 typical_p = { $mass } 只差浮点误差
threshold-library-error = { $error }

## 参数的代码写法；transformers 自己补上的会标出来。
argument = { $argument }
argument-implicit = { $argument }（隐含）

## 服务端运行时（vLLM、SGLang、mlx-lm）：移植发出的请求，和它们的原因的开头。
note-port-request = generate() 的移植发给 { $runtime } 的请求：每个参数按名字原样发送，do_sample=False 发成 temperature 0；do_sample=True 和 None 什么都不发，于是用 { $runtime } 的默认值（这是一个取舍：移植也可以填上 transformers 的默认值）
note-port-do-sample-greedy = { $python } → temperature: 0（{ $runtime } 没有 do_sample：贪心就是温度 0）
note-port-do-sample-nothing = { $python }：没有可发的（{ $runtime } 没有 do_sample）
note-port-temperature-replaced = { $python }：被 temperature 0 取代（do_sample=False）
note-port-sent = { $python } → { $key }: { $value }
note-port-none = { $python }：不发送，于是用 { $runtime } 的默认值
runtime-greedy = 贪心解码
runtime-samples = 以 { $temperature } 从 { $kept } 个候选里取样
cause-runtime-accepts = transformers 拒绝这组参数（“{ $error }”）；{ $runtime } { $what }。
cause-runtime-refused-hf-samples = { $refusal }；transformers 从 { $hf_kept } 个候选里取样。
cause-runtime-refused-hf-refuses = { $refusal }；transformers 也拒绝。
# 运行时的取样器碰到浮点误差的地方（报告里的备注）。
note-subnormal = 有 { $count } 个留下的 token 的 f32 概率低于 1.2e-38（次正规数）：在 CPU 上能抽到，在把次正规数刷成零的设备上永远抽不到
note-torch-min-p-near = min_p：有 { $count } 个 token 的概率与截断点 { $cut } 只差浮点误差，torch 自己的 f32 softmax 可能做出不同决定
note-torch-top-p-ties = top_p：logits 相等的 token 分在截断点两边；哪个留下由 torch 的排序决定
cause-runtime-no-do-sample = 不带 do_sample=True 的 generate() 是贪心解码；{ $runtime } 没有 do_sample，它{ $what }。
cause-runtime-no-field = { $runtime } 没有 { $ignored } 对应的字段：移植无法发送它。
cause-runtime-arithmetic = { $runtime } 用 f32 执行同样的规则（留下 { $kept } 个候选）；两个分布相差超过 1e-6。

## 参考对话和它所出自的文章（文章用的是原始 f32 权重）。
write-up-other-branch = 这个对话出自的文章用的是原始 f32 权重：那里前 40 个 token 占了 { NUMBER($published_mass, minimumFractionDigits: 4) } 的质量，超过 top_p=0.9，所以 candle 的 TopKThenTopP 在整体质量的 0.9 处截断，照字面搬的移植留下 { $published_literal } 个候选，transformers 留下 { $published_hf } 个。这个模型的前 40 个 token 只占 { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) }，不到 0.9，所以照字面搬的移植走了另一条分支：它跳过 top-p 这一步（nucleus），40 个全部留下（transformers：{ $hf } 个）。
write-up-same-branch = 这个对话出自的文章用的是原始 f32 权重：那里前 40 个 token 占了 { NUMBER($published_mass, minimumFractionDigits: 4) } 的质量，照字面搬的移植留下 { $published_literal } 个候选，transformers 留下 { $published_hf } 个。这个模型的前 40 个 token 占 { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) }，同样超过 top_p=0.9：走的是同一条分支，照字面搬的移植留下 { $literal } 个，transformers 留下 { $hf } 个。

## 核心拒绝读取的输入。JSON 解析器的原话（$detail）和输入里写的值保持原样。
invalid-language = 语言只能是 `en` 或 `zh-Hans`，不能是 `{ $tag }`
invalid-params-json = 参数不是有效的 JSON：第 { $line } 行第 { $column } 列，“{ $detail }”
invalid-params-not-object = 参数必须是由 generate() 关键字参数组成的 JSON 对象
invalid-argument-unknown = generate() 没有参数 `{ $key }`；支持的有：{ $supported }
invalid-seed = `seed` 必须是非负整数
invalid-max-new-tokens = `max_new_tokens` 必须是正整数
invalid-value-too-large = `{ $key }` 太大：{ $value }
invalid-value-type = `{ $key }` 必须是数字、布尔值或 null，不能是 { $value }
invalid-generation-config-json = generation_config.json 不是有效的 JSON：第 { $line } 行第 { $column } 列，“{ $detail }”
invalid-generation-config-not-object = generation_config.json 必须是一个 JSON 对象
invalid-report-options-json = 报告的选项不是有效的 JSON：第 { $line } 行第 { $column } 列，“{ $detail }”
invalid-report-options = 报告的选项无法使用：“{ $detail }”
invalid-semantics = 取样语义（semantics）只能是 { $names } 之一，不能是 `{ $name }`
invalid-logits-empty = logits 是空的
invalid-logit-not-finite = logits[{ $index }] 是 { $value }：{ $why }
invalid-logits-all-masked = 所有 logit 都是 -inf：{ $why }
invalid-logits-torch = transformers 的 softmax 会把每个概率都变成 NaN，torch.multinomial 会抛出 RuntimeError（“probability tensor contains either `inf`, `nan` or element < 0”）；logits 必须是有限值或 -inf
invalid-ngram-not-whole = no_repeat_ngram_size={ $n }：transformers.js 只按整数个 token 构造 n-gram
invalid-gumbel-no-distribution = GumbelSoftmax 没有精确的分布
invalid-weights = 无法从留下的 token 的概率中抽取：“{ $detail }”
invalid-part = 第 { $index } 部分（共 { $of } 部分）不存在
invalid-counts-vocabulary = { $count } 个计数对不上大小为 { $vocab } 的词表
invalid-counts-columns = { $count } 个计数对不上这次运行的各列

## 整个回答在每一列下的情况（`sampling-lab answer`、页面上的回答视图）：先一句引语，再每列一句。
answer-lead = 沿着这个回答的 { $steps } 个 token（以它实际走过的路径为条件）：
answer-column-outside-first = 在这 { $steps } 步中，{ $column } 平均会在 { NUMBER($expected, maximumSignificantDigits: 2) } 步抽到 transformers 永远不会抽的 token，第 { $first } 个 token 处首次超过 1%；一次都不抽到的概率是 { NUMBER($never, style: "percent", maximumSignificantDigits: 2) }。
answer-column-outside-small = 在这 { $steps } 步中，{ $column } 平均会在 { NUMBER($expected, maximumSignificantDigits: 2) } 步抽到 transformers 永远不会抽的 token，但每一步都不超过 1%；一次都不抽到的概率是 { NUMBER($never, style: "percent", maximumSignificantDigits: 2) }。
answer-column-outside-rare = 在这 { $steps } 步中，{ $column } 平均不到 0.01 步抽到 transformers 永远不会抽的 token；一次都不抽到的概率是 { NUMBER($never, style: "percent", maximumSignificantDigits: 3) }。
answer-columns-never = { $columns }：一次也不会，每次抽到的都是 transformers 也可能抽到的 token。
answer-column-refuses = { $column } 拒绝这次调用。
answer-hf-refuses = transformers 拒绝这些参数：沿着这个回答没有可以对比的分布。
invalid-answer-json = 回答的各步数据不是 `answer` 写出的格式：第 { $line } 行第 { $column } 列，“{ $detail }”
