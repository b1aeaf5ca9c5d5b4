## sglang 列：名字、定义、原因和“温度为零”表里的行。

column-sglang-label = SGLang 0.5.23 (/generate)
column-sglang-short = SGLang
column-sglang-in-sentence = SGLang
column-sglang-definition = SGLang 0.5.23 的 /generate，用 pytorch 取样后端，收到的是 generate() 移植发出的请求：没发 top_k 时用整个词表；top_k（恰好 k 个）和 top_p 一起在整个分布上衡量，然后是 min_p；top_k=1 或低于 1e-6 的温度是贪心；top_k=0 会被拒绝。

note-sglang-top-k-ties = top_k：概率相等的 token 分在第 { $k } 名两边；SGLang 留下哪个由 torch 的排序（或服务端调用的 torch.topk）决定
note-sglang-top-p-near = top_p：某个 token 之前的质量 { $mass } 与 top_p = { $top_p } 只差浮点误差：torch 自己的 f32 求和可能多留或少留一个 token
note-sglang-past-one = top_p=1.0：torch 的 f32 softmax 加起来超过 1，所以在质量已与 1 只差浮点误差之后还留着的 { $count } 个候选里，SGLang 的 (cum − p) > top_p 仍会截掉最不可能的几个（截掉几个取决于 CPU）；这个移植把它们留下
sglang-refuses = SGLang { $version } 拒绝移植发出的请求（“{ $error }”）
cause-sglang-greedy-temperature = SGLang 在这里取 argmax（它的温度 { $temperature } 低于 1e-6，SGLang 把它变成 top_k 1）；transformers 从 { $hf_kept } 个候选里取样。
cause-sglang-greedy-top-k = SGLang 在这里取 argmax（SGLang 把任何 top_k 为 1 的请求都当作贪心）；transformers 从 { $hf_kept } 个候选里取样。
cause-sglang-no-top-k = 没有传 top_k：transformers 补上 top_k=50，SGLang 的默认值是整个词表，所以它留下 { $kept } 个候选，而 transformers 留下 { $hf_kept } 个。
cause-sglang-joint-top-p = SGLang 在整个分布上衡量 top_p { $top_p }，而不是在 top_k 留下的 { $top_k } 个 token 上，所以截得更晚：它留下 { $kept } 个候选，transformers（在重新归一化后的 top_k 上做 top_p）留下 { $hf_kept } 个。
cause-sglang-exactly-k = 第 { $k } 名有并列的分数：transformers 把并列的 token 全部留下，SGLang 只留恰好 { $k } 个（留哪几个由 torch 的排序决定）。
cause-sglang-output-penalty = transformers 的 repetition penalty 覆盖提示词；SGLang 的只覆盖它自己生成的 token，所以在提示词之后的第一步，repetition_penalty={ $penalty } 什么也不改变。
cause-sglang-no-field = SGLang 没有 { $ignored } 对应的字段（/generate 拒绝不认识的字段）：移植无法发送它。
note-sglang-greedy-temperature = 温度 { $temperature } 低于 1e-6：SamplingParams 设成温度 1、top_k 1，也就是贪心
note-sglang-output-penalty = SGLang 的 repetition penalty 只作用于它自己生成的 token：在提示词之后的第一步什么也不改变
threshold-sglang-argmax = { $temperature } < 1e-6：温度 1、top_k 1，也就是 torch.argmax
threshold-sglang-samples = 以 f32 计算 logits / { $temperature }，然后依次是 top_k、top_p 和 min_p；top_k=1 的请求在任何温度下都是贪心
