## 页面自己的句子。核心的句子（报告的第一句、原因、温度表、各列的名字和定义、“移植这个调用”的
## 结论）由 wasm 给出，已经是读者的语言。代码、列名和产品名，以及库自己的原话，都是参数。

## 页头和标题栏。
page-title = sampling-lab — generate() 从什么分布里取样，{ $columns } 对同一个调用又从什么里取样
page-description = 同一组下一个 token 的 logits（SmolLM2-135M，在浏览器里运行）：transformers 的 generate() 从什么分布里取样，照字面搬的 candle 移植和修正后的移植从什么里取样，{ $others } 对同样的参数又抽到什么——以及它们为什么不一样。
skip-link = 跳到“查看”和“生成”
open-full-page = 在 sampling-lab 里打开 ↗
nav-page =
    .aria-label = 页面
exercises-link = 练习
copy-link = 复制链接
embed-this = 嵌入
language-label = 语言
purpose = transformers 的 { $generate } 从什么分布里取样，其他库对同一个调用、在同样的 logits 上又抽到什么——用的是 SmolLM2-135M，就在你的浏览器里运行——以及它们为什么不一样。
share-link-label = 指向当前状态的链接
share-link =
    .placeholder = 一个能原样恢复这个页面的链接
model-download-progress =
    .aria-label = 模型下载
load-model = 加载模型

## 模型的状态行。
status-starting = 正在启动
status-no-model = 没有加载模型
status-ready = 就绪
status-loading = 正在加载模型
status-downloading = 正在下载 { $done }{ $total ->
    [none] {""}
   *[other] { " " }/ { $total }（{ $percent }%）
}
status-downloading-elsewhere = 本站的另一个页面正在下载它：{ $done }{ $total ->
    [none] {""}
   *[other] { " " }/ { $total }（{ $percent }%）
}
status-parsing = 正在解析
status-failed = 失败

## 控件。
controls-region =
    .aria-label = 提示词和参数
synthetic-note = 没有用到对话：logits 是“generation_config.json 和合成 logits”里的合成 logits。把它们清空，就能重新看到模型的 logits。
user-message = 用户消息
assistant-prefix = 助手回复的开头
system-message-summary = 系统消息
system-message = 系统消息（可选）
inspect = 查看
generate = 生成
cancel = 取消
semantics = 取样语义
max-new-tokens = 最多生成的 token 数
seed = 种子
presets = 预设
arguments-legend = generate() 参数：勾选的是传了的（一个值，或 None），没勾选的是没传
params-label = generate() 的关键字参数（JSON；缺少的键就是“没传”，{ $none } 就是 None）
tokens-summary = token（{ $count }）和模板
prompt-tokens =
    .aria-label = 提示词的 token
json-summary = generation_config.json 和合成 logits
generation-config-label = 模型的 generation_config.json（可选）
logits-label = 合成 logits（可选：用它代替模型的 logits 来查看，例如 { $example }）
model-summary = 模型和文件
precision = 精度
precision-exact = 精确（f32，与 transformers 一致）
precision-fast = 快速（量化矩阵乘法）
model-file = 打开一个 .gguf 文件（或把它拖到页面上）
hub-label = Hugging Face 或本站上的模型
hub-input =
    .placeholder = Org/Repo、Org/Repo/file.gguf 或一个 URL
hub-help = safetensors 布局的仓库（{ $safetensors }）、仓库里的 GGUF（{ $gguf }）、huggingface.co 的 URL，或本站的文件（{ $local }）。
hub-load = 加载
default-model = 默认模型

## 叙述：第一句结论、原因、数字和图表。
figures-hidden = 答对这道题之前，或按下“看答案”之前，相关的数字都不显示。
why-title = 为什么不一样
causes-waiting = 取样核心就绪后，这里会显示各个分布。
figures-waiting = 这里会并排列出每一列给下一个 token 的概率。
figures-stale-refused = 这些图仍是上一次可用参数的结果：框里的参数没有被接受（红色那一行说明了原因）。
figures-stale-edited = 框里的参数改过了：按“查看”看它们的结果。
figures-stale-chat = 这些指标属于上一个对话：这个对话的指标要按“查看”才会出现（本站没有随页面发布的对话，要等模型加载完）。
noscript-note = 这些指标是建站时为这里写明的调用和对话算好的。要改调用或对话、给回答着色、加载模型以及使用这个页面上的其他功能，都需要 JavaScript。
causes-none = 在这组设置下，每一列都从 transformers 的分布里取样。
cause-lead = { $column }：
causes-more = 再显示 { $count } 条原因
causes-fewer = 少显示一些
distributions-region =
    .aria-label = 分布
view-legend = 视图
view-compare = 对比
view-panels = 分栏
log-scale = 对数刻度
export = 导出
export-png = { $chart } 图表 PNG
glossary-summary = 各列和各项数字是什么意思
figures-title = 各列的数字
figures-table =
    .aria-label = 主要数字
figures-column = 列
compare-toggle =
    .aria-label = 把 { $column } 和 transformers 画在一起对比
figures-error = 错误
chart-legend =
    .aria-label = 图例
token-detail-region =
    .aria-label = 在图上选中的 token
compare-region =
    .aria-label = 各列给这一步最可能的几个 token 的概率
compare-table-label = 每个 token 在各列下的概率，{ $columns } 在前
compare-start = 把 { $column } 和 transformers 对比
compare-stop = 不再把 { $column } 和 transformers 对比
table-token = token
table-id = id
figure-kept = 候选数
figure-tv = 与 hf 的 TV
figure-only-here = 只在这一列
figure-cut-here = 这一列截掉的
only-here = +{ $count } · { $mass }
only-here-short = +{ $count }
cut-here = −{ $count }
cell-cut = { $column } 截掉了这个 token
cell-outside = { $column } 留下了这个 token，而 transformers 从不抽到它
rank-of = p { $p }，在 { $kept } 个中排第 { $rank }
rank-not-kept = 没留下
rank-refused = 拒绝
close = 关闭
legend-bar = 概率（每一列用同一个刻度）
legend-cut = 这一列截掉的 token
legend-outside = transformers 从不抽到的 token：
write-up-load = 从 Hub 加载原始权重
effective = 实际生效：{ $values }
effective-implicit = { " · " }隐含：{ $implicit }
entropy-nats = { $value } nats
code-refused = // 调用被拒绝：没有可移植的东西。
copy-code = 复制代码
copied = 已复制
copy-code-select = 选中代码来复制
copy-select = 选中上面的文字并复制。
link-copied = 链接已复制。
link-copied-file-left-out = 链接已复制；它打开的是本站的默认模型：你电脑上的文件没法放进链接里。
embed-copied = 嵌入代码已复制。
embed-copied-file-left-out = 嵌入代码已复制；它打开的是本站的默认模型：你电脑上的文件没法放进链接里。
embed-title = sampling-lab：每个取样器从什么分布里抽样
panel-table = 用表格列出最可能的 token
panel-code = 这个移植的 { $language } 代码
chart-empty = { $column }：还没有分布
chart-describe = { $column }：{ $tokens }…
chart-click = 点击查看它在每一列下的排名
axis-p-log = p（对数）
megabytes = { NUMBER($value, minimumFractionDigits: 1, maximumFractionDigits: 1) } MB
megabytes-whole = { NUMBER($value, maximumFractionDigits: 0) } MB
the-model-files = 它的文件
load-model-size = 加载模型（{ $size }）
load-model-embed = 加载模型：可以生成回答，也能看任何对话
load-model-embed-size = 加载模型（{ $size }）：可以生成回答，也能看任何对话
needs-model-after-load = { $label }（模型加载之后）
needs-model-loads = { $label }（需要加载 { $size }）
needs-model-loads-model = { $label }（需要加载模型）
needs-model-loading = 这个对话的下一个 token 需要模型（{ $size }）：正在加载，数字随后就到。
needs-model-embed = 这个对话的下一个 token 需要模型（{ $size }），这个页面只在你要求时才加载它。
model-own-name = 文件自己的名字：{ $name }
model-info = { $weights } · { $precision ->
    [exact] 精确
    [fast] 快速
   *[other] { $precision }
} · { $threads } 个线程 · { $simd ->
    [on] 启用 SIMD
   *[other] 未启用 SIMD
} · 加载用时 { NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } 秒
model-info-cached = { $weights } · { $precision ->
    [exact] 精确
    [fast] 快速
   *[other] { $precision }
} · { $threads } 个线程 · { $simd ->
    [on] 启用 SIMD
   *[other] 未启用 SIMD
} · 从浏览器缓存加载，用时 { NUMBER($seconds, minimumFractionDigits: 1, maximumFractionDigits: 1) } 秒
context-synthetic = 在合成 logits { $logits } 上
context-generated = 在生成的 token { $step } 处
context-after = → “{ $content }”之后的 token
context-after-prefix = → “{ $content }”和“{ $prefix }”之后的 token
behaviour-argmax = argmax
behaviour-sample = 取样
behaviour-error = 报错

## 字节 token：开始一个字符的 token 写出的是什么。
byte-place = { $at }/{ $of }
byte-place-range = { $from }–{ $to }/{ $of }
byte-middle = …
byte-note-open = { $bytes }：一个 UTF-8 字符的字节 { $place }；后面的 token 补完这个字符（模型加载后会显示是哪个字符）。
byte-note-completed = { $bytes }：一个 UTF-8 字符的字节 { $place }；模型把它补成“{ $character }”（补完其余字节的 p 为 { NUMBER($probability, maximumSignificantDigits: 2) }）。
byte-note-middle = { $bytes }：一个 UTF-8 字符中间的字节，补完前面的 token 开了头的字符。

## 术语表。
term-kept = 候选数
term-kept-definition = 一次抽样可能落到的 token：这一列的支撑集有多大。
term-tv = 与 hf 的 TV
term-tv-definition = 与 transformers 的分布之间的总变差距离，½ Σ |p − p_hf|：要让两者一致，需要改变的抽样所占的比例。
term-maxdp = max |Δp|
term-maxdp-definition = 这一列给某个 token 的概率与 transformers 给的概率之间的最大差值（“一致”指不超过 1e-6）。
term-outside = hf 之外的质量
term-outside-definition = 这一列放在 transformers 从不抽到的 token 上的概率：图上带斜线的柱子。
term-entropy = 熵
term-entropy-definition = 分布有多分散，单位是 nats：只有一个确定的 token 时为 0，所有 token 一样可能时为 ln 49152 ≈ 10.8。
term-bytes = 字节 token ⟨E6⟩
term-bytes-definition = 只是一个 UTF-8 字符中一个字节的 token：SmolLM2 用两三个这样的 token 拼出一个汉字。表格用模型把它补成的字符来称呼它，旁边注明是哪几个字节（1/3：三个字节中的第一个）。

## 温度表。
thresholds-title = “温度为零”从哪里开始（当前温度 { $temperature }）
thresholds-system = 系统
thresholds-does = 行为
thresholds-why = 原因

## “移植这个调用”。
port-title = 移植这个调用
port-summary = 在这里让每个运行时都从 transformers 的分布里取样的请求
port-explanation = 每个请求都由核心检验：用它设置的列在这一步必须从 hf 的分布里抽样（每个概率的差都不超过 1e-6）。如果调用里的值怎么组合都做不到——运行时在温度之前就过滤，或者在整个分布上衡量 top-p——就给出最接近的请求和它的距离，以及只在这一步一致的请求：top_k = transformers 在这里留下的 token 数。
port-checking = 正在检验每个运行时的请求…
port-nothing = 没有可移植的：{ $problem }
port-item-summary = { $column }——{ $verdict }
port-caption = { $title }：{ $call }——{ $verdict }
cell-probability = { $column }：{ $p }
port-agrees = 一致
port-this-step = 只在这一步
port-nearest = 最接近
port-request = 请求
port-request-nearest = 用调用里的值能做到的最接近的请求
port-request-this-step = 只在这一步
port-agrees-note = 一致：每个概率与 hf 的都相差不超过 1e-6
port-tv = 与 hf 的 TV 为 { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) }
port-refused = 被拒绝：{ $error }

## 预设和参数。
preset-temp-0-7 = 温度 0.7
preset-top-k-0 = 温度 0.7，top_k 0
preset-top-k-40 = top_k 40
preset-top-p-0-9 = top_k 0，top_p 0.9
preset-top-k-40-top-p-0-9 = top_k 40，top_p 0.9
preset-smollm2 = SmolLM2 推荐的设置
preset-dflash-0-6 = DFlash 的温度 0.6
preset-dflash-benchmark = DFlash 在 vLLM/SGLang 上的基准测试
preset-server-defaults = 交给服务端决定
preset-greedy = 贪心
preset-temperature-0 = temperature=0，开启取样
preset-ties = 并列实验
preset-group-zero = 接近零的温度：
preset-zero = { $temperature }
    .aria-label = 开启取样，温度 { $temperature }
param-value =
    .aria-label = { $name } 的值（数字、true、false 或 None）
param-not-literal = { $name }：“{ $raw }”不是数字、true、false 或 None
param-effective = → { $value }（{ $source ->
    [passed] 传入
    [generation_config] 来自 generation_config.json
   *[default] 默认值
}）
param-effective-implicit = → { $value }（{ $source ->
    [passed] 传入
    [generation_config] 来自 generation_config.json
   *[default] 默认值
} · 隐含）

## 链接里用不上的部分。
link-not-used = 这个链接没有被完整使用：{ $problems }。
link-unknown-field = 未知的链接字段“{ $field }”
link-field-default = 链接字段“{ $field }”{ $problem }；改用默认值
link-model-default = 链接字段“model”：{ $problem }；改用默认模型
link-no-such-semantics = 链接字段“semantics”没有指向任何列（“{ $name }”；列有 { $columns }）；改用默认值
link-no-such-columns = 链接字段“cols”里的 { $names } 不是列名；列有 { $columns }
link-wrong-logits = 必须是用逗号分隔的数字
link-wrong-model = 不是模型的名字、路径或 URL
link-wrong-preset = 不是预设的名字
link-wrong-exercises = 必须是“default”、“link”（链接本身带着的练习集）、本站一个 .json 文件的路径，或 Hub 上某个文件的 resolve/ URL
link-wrong-column = 不是列名
link-wrong-columns = 必须是用逗号分隔的列名
link-wrong-choice = 必须是 { $choices } 之一
link-wrong-flag = 必须是 1 或 0
link-wrong-length = 有 { $length } 个字符；链接里最多放得下 { $most } 个
link-wrong-json = 不是有效的 JSON
link-wrong-object = 必须是一个 JSON 对象
link-wrong-integer = 必须是 { $min } 到 { $max } 之间的整数

## 模型从哪里来。
model-source-what-to-type = 请输入 Hugging Face 仓库 id（HuggingFaceTB/SmolLM2-135M-Instruct）、仓库里的 GGUF（Org/Repo/file.gguf）、huggingface.co 的 URL，或本站上某个文件的路径（models/file.gguf）
model-source-empty = 没有给出模型：{ model-source-what-to-type }
model-source-spaces = “{ $text }”里有空格：{ model-source-what-to-type }
model-source-not-repo = “{ $text }”不是 Hub 仓库 id（Org/Repo）：{ model-source-what-to-type }
model-source-not-gguf = { $text }：Hub 仓库里的文件必须是 .gguf（safetensors 布局的话，只给仓库，或给以 / 结尾的文件夹）
model-source-not-url = “{ $text }”不是 URL：{ model-source-what-to-type }
model-source-other-host = 模型只能从 huggingface.co 或本站加载，不能从 { $host } 加载（页面的 Content-Security-Policy 不允许其他主机）：{ model-source-what-to-type }
model-source-no-repo = { $text } 没有指明仓库：{ model-source-what-to-type }
model-source-not-hub-path = { $text } 不是 Hub 上的仓库、文件或文件夹：{ model-source-what-to-type }
model-source-other-site = { $text } 不在本站：{ model-source-what-to-type }
model-source-not-file = { $text } 既不是 .gguf 文件，也不是文件夹（文件夹要以 / 结尾）：{ model-source-what-to-type }

## 页面和它的 worker 遇到的错误，用它们自己的话说。
error-worker = worker 出错：{ $detail }
error-worker-start = 页面的 worker 未能启动——请重新加载页面再试
error-restarting = { $problem }——正在重启
error-restarting-model = { $problem }——正在重启模型
error-restarted = { $problem }——已重启：对话、参数和视图都保持原样
error-crashed = wasm 实例崩溃了：{ $detail }
error-model-source-unknown = 未知的模型来源 { $kind }
error-hub-folder = { $detail }：Hugging Face 布局的文件夹里有 config.json、model.safetensors 和 tokenizer.json；如果是 GGUF，请给出它的文件（Org/Repo/file.gguf）
error-unreachable = 连不上 { $host }，无法获取 { $url }：请检查网络连接（{ $detail }）
error-http = { $url }：HTTP { $status } { $statusText }{ $why ->
    [gated] ——这个仓库受限或是私有的，页面无法登录：请下载文件，再用“打开一个 .gguf 文件”打开
    [missing] ——没有这个文件：请检查仓库 id 和文件名
   *[other] {""}
}
error-model-sha256 = { $url } 的 sha256 是 { $actual }，不是本站期望的模型的 { $expected }：这个文件没有被使用，也没有被保存
error-shipped-sha256 = 随站发布的 logits { $file } 的 sha256 是 { $actual }，不是 { $expected }
error-draw-worker = 一个抽样 worker 出错：{ $detail }
error-unknown-request = 未知的请求类型 { $type }
error-no-model = 没有加载模型
error-no-generation = 没有可以查看或分叉的生成结果
error-hf-refuses = transformers 拒绝这组参数：{ $error }

## 生成的回答、它的备选和分支。
answer-region =
    .aria-label = 逐个 token 看整个回答
answer-title = 逐个 token 看整个回答
answer-help = 悬停或聚焦在一个 token 上，可以看它的指标和备选；点击它可以看那一步每一列的分布，并从那里分叉。
completion =
    .aria-label = 生成的回答：只占一个 Tab 停靠点，用方向键在 token 之间移动
inspecting-prompt = 正在显示：提示词之后的 token
inspecting-generated = 正在显示：生成的 token { $index }
to-figures = 看它的数字 ↑
branch-label = 分叉：从生成的 token { $step } 处改用下面的 token 继续（每个都附有模型自己的 p：原始 logits 的 softmax，不受任何参数影响）
branch-go = 分叉
branches-title = 留下的分支
branch-back = 回到这里
branch-from = 从 token { $fork } 起：
branch-choice = { $token }——模型自己的 p { NUMBER($p, minimumFractionDigits: 3, maximumFractionDigits: 3) }
token-aria = { $text }：第 { $step } 步，概率 { NUMBER($probability, minimumFractionDigits: 3, maximumFractionDigits: 3) }
alternatives-looking = 第 { $step } 步：{ $token }——正在找它的备选…
alternatives-head = 第 { $step } 步：{ $token } 是在 { $column } 下以 p = { NUMBER($probability, minimumFractionDigits: 3, maximumFractionDigits: 3) } 抽到的。它的 p 为
alternatives-chosen = hf { NUMBER($hf, minimumFractionDigits: 3, maximumFractionDigits: 3) } · literal { NUMBER($literal, minimumFractionDigits: 3, maximumFractionDigits: 3) } · 模型自己的（原始 logits 的 softmax）{ NUMBER($model, minimumFractionDigits: 3, maximumFractionDigits: 3) }
gen-stats = { $steps } 个 token · { $finish } · 预填充 { NUMBER($prefill, minimumFractionDigits: 2, maximumFractionDigits: 2) } 秒
gen-stats-rate = { $steps } 个 token · { $finish } · 预填充 { NUMBER($prefill, minimumFractionDigits: 2, maximumFractionDigits: 2) } 秒 · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s
gen-stats-reused = { $steps } 个 token · { $finish } · 提示词已经算过
gen-stats-rate-reused = { $steps } 个 token · { $finish } · 提示词已经算过 · { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s
gen-stats-branch = { $steps } 个 token · { $finish } · 分叉之后解码了 { $decoded } 个
error-link-step = 链接指向第 { $step } 步，但它没有生成出来（回答只有 { $steps } 个 token）

## 推测解码。
spec-title = 推测解码：DFlash 的循环跑在这个对话上
spec-help = 一个 block 是最后一个 token 加上若干草稿 token（点击被拒绝的那个，可以看目标模型在那里的分布）；目标模型用一次前向验证整个 block，在每个位置按这里选的取样语义（精确精度）抽出自己的 token，留下与之一致的草稿 token，并在第一个不一致处加上自己抽到的 token。
spec-draft = 草稿
spec-draft-prompt-lookup = 提示词查找
spec-draft-sampled = 按温度取样
spec-draft-greedy = 贪心（目标模型自己起草：用来检验正确性）
spec-semantics = 取样语义
spec-block = block
spec-run = 推测解码
spec-cancel = 停止
spec-progress =
    .aria-label = 已生成的 token
spec-terms = { $tau }：一轮的接受长度，即留下的草稿 token 加上目标模型自己的 token（1 到 block 大小）；{ $expected }：给定草稿时它的精确期望，1 + Σₖ Πᵢ≤ₖ p(dᵢ)。
spec-legend =
    .aria-label = 各轮里的标记是什么意思
spec-legend-accepted = { $mark } 目标模型留下的草稿 token
spec-legend-rejected = { $mark } 目标模型第一个没有抽到的草稿 token（可点击）
spec-legend-unverified = { $mark } 在被拒绝之后起草的
spec-legend-past-end = { $mark } 在回答结束之后才一致的
spec-legend-bonus = { $mark } 目标模型自己的 token
spec-mark-accepted = 留下
spec-mark-rejected = 拒绝
spec-mark-unverified = 未验证
spec-mark-past-end = 超出结尾
spec-mark-bonus = 自己的
spec-mark-draft = 草稿
spec-mark-drawn = 抽到的
spec-rejection-caption = 目标模型在那里的分布，按上面选的取样语义
spec-acceptance-caption = 这次运行的接受长度
spec-acceptance-empty =
    .aria-label = 接受长度：还没有
spec-tau-caption = 一个贪心草稿的期望接受长度随温度的变化（精确值）
spec-tau-empty =
    .aria-label = 期望接受长度随温度的变化：还没有
spec-prefilling = 正在预填充提示词…
spec-round-status = 第 { $round } 轮 · { $done } / 最多 { $total } 个 token
spec-done = { $rounds } 轮生成 { $tokens } 个 token · 平均 τ { NUMBER($tau, minimumFractionDigits: 2, maximumFractionDigits: 2) } · 目标模型前向 { $target } 次（起草另用 { $draft } 次）· { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · { $finish }
spec-done-against = { $rounds } 轮生成 { $tokens } 个 token · 平均 τ { NUMBER($tau, minimumFractionDigits: 2, maximumFractionDigits: 2) } · 目标模型前向 { $target } 次（起草另用 { $draft } 次）· { NUMBER($rate, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · 普通解码 { NUMBER($plain, minimumFractionDigits: 1, maximumFractionDigits: 1) } tok/s · { $finish }
spec-failed = 失败
spec-draft-note-prompt-lookup = 提示词查找：在对话前文里找到最后几个 token 出现过的地方，把跟在后面的 token 当作草稿。起草不花成本，回答重复提示词的地方就能被留下——这正是推测解码的用处。
spec-draft-note-sampled = 草稿由目标模型自己按调用的温度取样得到：看的是同一个分布的两次抽样有多常一致。
spec-draft-note-greedy = 目标模型自己贪心地起草：温度为 0 时每个草稿都会被留下。这是在演示验证不改变任何结果，不是加速：每个草稿 token 都要多花一次前向。
spec-tau = τ { $tau }（E { NUMBER($expected, minimumFractionDigits: 2, maximumFractionDigits: 2) }）
spec-chip = { $kind ->
    [accepted] 目标模型留下的草稿 token
    [unverified] 在被拒绝之后起草的：未验证
    [past-end] 起草后在回答结束之后才一致：不在回答里
   *[bonus] 目标模型自己的 token，在被拒绝处或最后一个留下的草稿之后
} · id { $id }
spec-chip-rejected = 目标模型第一个没有抽到的草稿 token（点击：看它在那里的分布）· id { $id } · 目标模型抽到的是 { $drawn }（{ $text }）
spec-rejected-aria = 第 { $round } 轮被拒绝的草稿 { $token }：显示目标模型在那里的分布
spec-rejection-head = 第 { $round } 轮：草稿提出 { $draft }（p = { NUMBER($draftP, minimumFractionDigits: 4, maximumFractionDigits: 4) }）；目标模型抽到的是 { $drawn }（p = { NUMBER($drawnP, minimumFractionDigits: 4, maximumFractionDigits: 4) }）。
spec-acceptance-aria = 接受长度：{ $counts }
spec-tau-aria = 期望接受长度：{ $points }
spec-axis-rounds = 轮数

## 蒙特卡洛。
mc-title = 蒙特卡洛：{ $columns } 的真实抽样，各用自己的随机数生成器
mc-draws = 每个移植的抽样次数
mc-run = 抽样
mc-cancel = 停止抽样
mc-progress =
    .aria-label = 已完成的抽样
mc-convergence-caption = 抽样结果与精确分布之间的总变差距离随抽样次数的变化，以及检验用的上界（虚线）：抽样进行中取的是页面 worker 那一半；最后一个点是整次运行
mc-convergence-empty =
    .aria-label = 收敛：还没有抽样
mc-drawing = 正在抽样…
mc-estimate = 一共 { $total } 次抽样：在这里大约要 { $unit ->
    [min] { $seconds } 分钟
   *[s] { $seconds } 秒
}
mc-estimate-unknown = 一共 { $total } 次抽样：正在测量这个浏览器的速度…
mc-progress-status = { $done } / { $total } 次抽样 · 每秒 { $rate } 次 · 大约还要 { $unit ->
    [min] { $seconds } 分钟
   *[s] { $seconds } 秒
}
mc-stopped = 每列抽了 { $draws } 次后停止
mc-done = 完成
mc-series-tv = { $column }：TV
mc-series-bound = { $column }：上界
mc-convergence-point = { $column }：抽样 { $draws } 次后，TV { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) } ≤ 上界 { NUMBER($bound, minimumFractionDigits: 4, maximumFractionDigits: 4) }
mc-convergence-aria = 收敛：{ $points }
mc-convergence-none = 收敛：还没有抽样
mc-axis-draws = 抽样次数
mc-axis-tv = 与精确分布的 TV
mc-observed-aria = { $column }：抽到的 / 精确的：{ $tokens }
mc-chart-empty = { $column }：没有抽样
mc-exact-p = 精确 p
mc-drawn = 抽到的
mc-not-drawn = 没抽到
mc-outside = { NUMBER($percent, minimumFractionDigits: 2, maximumFractionDigits: 2) } %
mc-tv = { NUMBER($tv, minimumFractionDigits: 4, maximumFractionDigits: 4) }（{ NUMBER($bound, minimumFractionDigits: 4, maximumFractionDigits: 4) }）
mc-consistent = 一致
mc-inconsistent = 不一致
mc-table = 用表格列出抽样结果
mc-figure-draws = 抽样次数
mc-figure-distinct = 不同的 token 数
mc-figure-outside = 落在 hf 的支撑集之外
mc-figure-tv = 与精确分布的 TV（上界）
mc-figure-check = 检验

## 练习。
ex-teacher-mark = { " " }· 教师视图：显示每道题的答案
ex-check = 核对
ex-show = 看答案
ex-prev = 上一题
ex-next = 下一题
ex-for-teachers = 给老师
ex-teacher-help = 把这个链接发给学生：{ $student-link }。他们的答案和结果只保存在自己的浏览器里，每套练习分开保存；“重新开始”会清除它们。{ $teacher-link }会显示每道题的答案和相关数字。想自己写一套练习，请看{ $guide-link }。
ex-student-help = 把这个链接发给学生：{ $student-link }。他们的答案和结果只保存在自己的浏览器里，每套练习分开保存；“重新开始”会清除它们。想自己写一套练习，请看{ $guide-link }。
ex-teacher-view = 教师视图
ex-guide = 怎样写一套练习
ex-no-site = 不需要网站：链接本身就能带上整套练习。
ex-copy-set = 复制这套练习的链接
ex-set-file = 从你的电脑打开一套练习
ex-reset = 重新开始
ex-set-link =
    .aria-label = 带着这套练习的链接
ex-hint = 提示：{ $hint }
ex-hint-default = 再看看这一列是怎样使用这些参数的（术语表里它的条目有说明），然后再试一次——或者按“看答案”。
ex-not-opened = 无法打开练习：{ $problem }。
ex-progress = 第 { $at } 题，共 { $of } 题
ex-right-after = { $tries ->
    [1] 一次就答对了。
   *[other] 试了 { $tries } 次后答对。
}
ex-shown = 已显示答案。
ex-not-yet = 还没答对（已试 { $tries } 次）。
ex-answer-tokens = 你的答案（token 个数）
ex-answer-number = 你的答案（一个数）
ex-answer-token-or-none = 你的答案（生成的 token 的编号，或“none”）
ex-answer-answer-token = 你的答案（回答里 token 的序号，从 1 开始；或者“无”）
ex-no-shipped-answer = 本站没有为这道题的对话发布回答：这道题在这里无法检查。
ex-answer-arguments = 你的 generate() 参数（JSON）
ex-checking = 正在核对…
ex-checking-generation = 正在核对：核心在运行这道题的生成…
ex-right = 答对了：{ $says }
ex-with-these = 用这组参数：{ $says }
ex-not-quite = 还不对（第 { $tries } 次尝试）。{ $detail ->
    [none] {""}
   *[other] { $detail }
}
ex-key = 答案：{ $says }
ex-key-cause = 答案：{ $options }——{ $says }
ex-key-no-option = 所有选项都不对
ex-key-find = 答案：任何让核心给出“{ $rule }”的参数。{ $says }
ex-key-find-example = 答案：任何让核心给出“{ $rule }”的参数，例如 { $example }。{ $says }
ex-set-copied = 已复制：一个 { $length } 个字符长、带着整套练习的链接。
ex-set-file-wrong = 无法使用 { $file }：{ $problem }。
set-file-not-json = 它不是有效的 JSON
ex-summary = { $done ->
    [yes] 全部完成：
   *[no] {""}
}答对 { $right } / { $of } 题，其中 { $firstTry } 题一次答对{ $shown ->
    [0] {""}
   *[other] { " · " }{ $shown } 题看了答案
}
answer-missing = 请先给出答案。
answer-number = 答案是一个数。
answer-token-or-none = 答案是一个 token 的编号，或“none”。
answer-tokens = 答案是 token 的个数。
key-kept = { $column } 留下 { $kept } 个候选。
key-number = 在 { $column } 下，{ $figure ->
    [tv] 与 transformers 的分布之间的总变差距离
    [max_abs_diff] 单个 token 的概率与 transformers 的最大差值
    [mass_outside_hf] 放在 transformers 从不抽到的 token 上的概率
    [entropy] 熵（nats）
   *[probability] token #{ $token } 的概率
}为 { NUMBER($value, minimumFractionDigits: 4, maximumFractionDigits: 4) }。
key-agree = 在这组参数下各列一致。
key-choice = “{ $option }”。
key-generate-tokens = 在 { $column } 下用种子 { $seed }，回答长 { $tokens } 个 token（以 { $finish } 结束）。
key-generate-none-outside = 在 { $column } 下用种子 { $seed }，每个 token 都是 transformers 能抽到的。
key-generate-outside = 在 { $column } 下用种子 { $seed }，生成的 token { $step } 是第一个 transformers 不可能抽到的。
key-answer-first-over = 沿着本站发布的回答，{ $column } 落在 transformers 删掉的 token 上的概率质量在第 { $token } 个 token 处首次超过 1%。
key-answer-never-over = 沿着本站发布的回答，{ $column } 落在 transformers 删掉的 token 上的概率质量在任何一个 token 处都不超过 1%。
key-answer-expected = 沿着本站发布的回答的 { $steps } 个 token，{ $column } 平均会在其中 { NUMBER($value, maximumFractionDigits: 2) } 步抽到 transformers 永远不会抽的 token。
set-other-site = 练习集只能从本站、Hub 上的文件（它的 resolve/ URL）或链接本身加载
set-unreachable = 连不上{ $host ->
    [this-site] 本站
   *[other] { " " }{ $host }
}，无法获取练习集 { $path }：请检查网络连接
set-not-found = 没有找到练习集 { $path }（HTTP { $status }）：{ $where ->
    [hub] 请检查链接里的仓库、revision 和文件名，并确认仓库是公开的
   *[site] 请检查链接里文件的路径，并确认文件在网站的 exercises/ 文件夹里（make site 会复制 www/exercises/）
}
set-not-json = 练习集 { $path } 不是有效的 JSON
set-wrong = 练习集：{ $problem }
set-schema = { $place }：{ $message }{ $detail }
set-exercise = 第 { $at } 题
set-the-set = 练习集本身
set-column = 第 { $at } 题：answer.column 必须是 { $columns } 之一
set-rule = 第 { $at } 题：answer.rule 必须是 { $rules } 之一
set-option-rule = 第 { $at } 题：选项“{ $option }”指定的规则是“{ $rule }”；规则必须是 { $rules } 之一
set-correct = 第 { $at } 题：answer.correct 必须是它的 { $options } 个选项之一的下标（从 0 开始）
set-hf-figure = 第 { $at } 题：{ $figure } 比较的是一列和 hf；这一列不能是 hf
set-unknown-kind = 未知的答案类型 { $kind }
set-link-missing = 这个链接应该在“#set=”后面带着练习集，但没有：请重新复制整个链接
set-link-not-base64 = 这个链接里的练习集不是 base64url 文本：链接被截断或改动过；请重新复制整个链接
set-link-not-gzip = 这个链接里的练习集无法解压：链接被截断或改动过；请重新复制整个链接
set-link-not-json = 这个链接里的练习集不是有效的 JSON

## 一个对话的 step 存成文件，供嵌入作者自己的对话。
step-export-save = 保存这个对话的 step
step-export-where = 你把它放在哪里（Hub 的 resolve/ URL，或本站的路径）：
step-export-url =
    .placeholder = https://huggingface.co/datasets/you/posts/resolve/main/step.json
step-export-intro = 这个对话没有随本站一起提供：嵌入它会先下载模型（{ $size }）才显示数字。保存它的 step，放在你的文章旁边，再填上它的地址：代码片段里的链接就会指向它，读者不用模型就能看到数字。
step-export-needs-model = 这个对话没有随本站一起提供：嵌入它会先下载模型（{ $size }）才显示数字。先加载模型（“查看”，或“加载模型”），才能为嵌入保存它的 step。
step-export-saved = 已保存 step（{ $kilobytes } KB）：把它放在读者的浏览器能取到的地方（Hub 的 dataset 仓库，或本站的文件夹），再在这里填上它的地址。
link-wrong-step-file = 必须是 Hub 上某个 .json 文件的 resolve/ URL，或本站的 .json 路径
source-file = 这些数字来自一个 step 文件（{ $url }），已核对过本站的模型和这个对话：没有为它们加载模型。
source-kept = 这些数字来自这个浏览器上次访问时保存的、模型为这个对话算出的 step：没有为它们加载模型。
source-file-checked = step 文件（{ $url }）里正是模型为这个对话算出的 logits，逐位相同。
source-file-differs = step 文件（{ $url }）里不是模型为这个对话算出的 logits：现在显示的是模型自己的数字。
step-file-refused = 这个 step 文件不能用：{ $problem }。
step-file-no-site-model = 本站没有提供任何模型的 step，step 文件无从核对
step-file-not-site-model = 只有本站自己的模型（exact 精度）才能为嵌入写出 step
step-file-too-large = { $url } 比一个 step 能有的大小还大（最多 { $limit } 字节）
step-file-not-a-step = { $url } 不是 sampling-lab 的 step（{ $detail }）
step-file-version = { $url } 是第 { $version } 版的 step；这个页面读第 1 版
step-file-logits = { $url }：它的 logits 不是 float32 数值的 base64 文本
step-file-length = { $url } 有 { $got } 个 logits；模型的词表有 { $expected } 个 token
step-file-values = { $url }：它的 logits 无法检查（{ $detail }）
step-file-ids = { $url }：它的 token id 超出了 { $vocab } 个 token 的词表
step-file-other-model = { $url } 是用另一个模型（sha256 { $file }）算的，不是本站的模型（{ $site }）
step-file-other-chat = { $url } 对应的对话和链接里的不一样

## 当前这一步，每一列的抽样落在哪里（在对比表上方）。
mass-legend = 每一列抽到哪里：{ $inside } 落在 transformers 留下的 token 上，{ $outside } 落在 transformers 删掉的 token 上
mass-refuses = 拒绝这次调用
mass-title-outside = { $column }：有 { $share } 的抽样落在 transformers 删掉的 token 上
mass-title-inside = { $column }：每次抽到的都是 transformers 也可能抽到的 token

## 回答视图：每个 token 按某一列在那一步的某个指标着色。
answer-colour-by = 着色依据
answer-figure-outside = hf 之外的概率质量
answer-figure-p-token = 写下的 token 的概率
answer-figure-tv = 与 hf 的总变差距离
answer-figure-entropy = hf 的熵
answer-colour-column = 列
answer-more-columns = 另外 { $count } 列
answer-reread = 用上面的参数重新读这个回答
answer-source-shipped = 这是本站随页面发布的一个回答，由 { $column } 以 seed { $seed } 按 { $call } 抽出，它的指标在建站时就已算好，不需要模型。每一步都接在这个回答此前写下的 token 之后来读，所以每个指标都以它实际走过的路径为条件。
answer-source-generated = 由 { $column } 以 seed { $seed } 按 { $call } 抽出。每一步都接在这个回答此前写下的 token 之后来读，所以每个指标都以它实际走过的路径为条件。
answer-end-mark = 结束
unit-nats = { NUMBER($value, maximumFractionDigits: 2) } 奈特
answer-token-outside = 第 { $step } 个 token：{ $column } 落在 transformers 删掉的 token 上的概率是 { $value }
answer-token-p-token = 第 { $step } 个 token：{ $column } 给它的概率是 { $value }
answer-token-tv = 第 { $step } 个 token：{ $column } 与 transformers 的总变差距离是 { $value }
answer-token-entropy = 第 { $step } 个 token：transformers 的熵是 { $value }
answer-token-refused = { $column } 在这里拒绝这次调用
answer-legend-outside = 每个 token 处 { $column } 在 hf 之外的概率质量：
answer-legend-p-token = { $column } 给每个写下的 token 的概率（颜色越深越不可能）：
answer-legend-tv = 每个 token 处 { $column } 与 hf 的总变差距离：
answer-legend-entropy = 每个 token 处 transformers 的熵：
answer-legend-at-least = ≥ { $value }
answer-strip-axis = token
answer-strip-outside = 每个 token 处落在 transformers 删掉的 token 上的概率质量：{ $columns }
answer-strip-p-token = 每个写下的 token 的概率：{ $columns }
answer-strip-tv = 每个 token 处与 transformers 的总变差距离：{ $columns }
answer-strip-entropy = 每个 token 处 transformers 的熵
answer-step-figures = { $column }：p { NUMBER($p, minimumFractionDigits: 3, maximumFractionDigits: 3) }，hf 之外 { $outside }
answer-step-refused = { $column } 拒绝这次调用
answer-step-needs-model = 要看这一步的完整对比需要模型；模型加载后会把这个回答重新读一遍。
panes =
    .aria-label = 嵌入页显示的内容
pane-step = 这一个 token
pane-answer = 整个回答
