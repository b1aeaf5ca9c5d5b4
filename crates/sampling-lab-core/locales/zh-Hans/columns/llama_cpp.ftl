## llama_cpp 列：名字、定义、原因和“温度为零”表里的行。

column-llama_cpp-label = llama.cpp (wllama 3.13)
column-llama_cpp-short = llama.cpp
column-llama_cpp-in-sentence = llama.cpp
column-llama_cpp-definition = wllama 3.13.0 运行的 llama.cpp 取样链（libllama b12211）：没发送时用 top_k 40、top_p 0.95 和 min_p 0.05，都在温度 1 下执行，然后才是温度，最后用 std::mt19937 抽样。

# generate() 的参数是怎样带进请求的（llama.cpp 和它前面的服务端）。
carried-greedy = { $server } 没有 do_sample：贪心就是温度 0
carried-llama_cpp-do-sample = 没有可发的：只要温度大于 0，{ $server } 就取样
carried-default = 没传：{ $server } 的默认值 { $key } { $value }
carried-none-not-sent = 不发送，于是用 { $server } 的默认值 { $key } { $value }
carried-llama_cpp-none-off = None 表示关闭：发送 llama.cpp 表示关闭的值（发 JSON null 会得到它的默认值）
carried-clamped = 被限制为 { $value }
carried-same-name = 同名
carried-renamed = 改了名字，只作用于最后 { $last } 个 token

note-carried-sent = { $python } → { $sent }（{ $how }）
note-carried-not-sent = { $python }：{ $how }
note-llama_cpp-fills-every-field = { $server } 在 llama-server 读取请求之前给每个字段都填上值（报告在 llama_server 下列出）：移植没发的字段用它自己的默认值
note-llama_cpp-clamped = { $argument } 被限制为 { $became }，而 transformers 会报错“{ $error }”
note-llama_cpp-sorted-ties = logits 相等的 token 由 libc++ 的 std::sort 排序，这个移植没有复现这个顺序：同一个种子抽到其中哪一个可能不同（它们的概率不会不同）
note-llama_cpp-typical-near = typical：截断点处的质量 { $mass } 与 typical_p = { $typical_p } 只差浮点误差
note-llama_cpp-typical-ties = typical：分数相等的 token 分在截断点两边；哪个留下由 libc++ 的 std::sort 决定
note-llama_cpp-top-p-near = top_p：截断点处的质量 { $mass } 与 top_p = { $top_p } 只差浮点误差
note-llama_cpp-top-p-ties = top_p：logits 相等的 token 分在截断点两边；哪个留下由它们的顺序决定
note-llama_cpp-min-p-near = min_p：有一个 logit 与截断点 { $cut } 只差浮点误差

llama_cpp-clamp = { $argument } 限制为 { $became }
cause-llama_cpp-accepts-greedy = transformers 拒绝这组参数（“{ $error }”）；{ $server } 贪心解码。
cause-llama_cpp-accepts-samples = transformers 拒绝这组参数（“{ $error }”）；{ $server } 从 { $kept } 个候选里取样。
cause-llama_cpp-accepts-clamps-greedy = transformers 拒绝这组参数（“{ $error }”）；{ $server } 把 { $clamps }，然后贪心解码。
cause-llama_cpp-accepts-clamps-samples = transformers 拒绝这组参数（“{ $error }”）；{ $server } 把 { $clamps }，然后从 { $kept } 个候选里取样。
cause-llama_cpp-no-do-sample = 不带 do_sample=True 的 generate() 是贪心解码；{ $server } 没有 do_sample，以温度 { $temperature } 从 { $kept } 个候选里取样。
cause-llama_cpp-defaults = 没传的参数用的是 { $server } 的默认值，而不是 transformers 的：{ $filled }（transformers：温度 1.0、top_k 50、不做 top_p、不做 min_p）。
cause-llama_cpp-order = { $server } 在温度 1 下用 { $filters } 截断，这时有 { $passed } 个候选通过，之后才除以温度 { $temperature }；transformers 先除以温度，通过它的截断的有 { $hf_kept } 个候选。
cause-llama_cpp-exactly-k = 第 { $k } 名有并列的分数：transformers 把并列的 token 全部留下，{ $server } 只留恰好 { $k } 个（留哪几个由 libc++ 的堆决定）。
cause-llama_cpp-penalty-window = transformers 的 repetition penalty 作用于上下文的全部 { $context } 个 token；{ $server } 的 repeat_penalty 只作用于最后 { $last } 个。
cause-llama_cpp-ignored = { $server } 从不读 { $ignored }。
cause-llama_cpp-arithmetic = { $server } 用 f32 执行同样的规则（留下 { $kept } 个候选）；两个分布相差超过 1e-6。

threshold-llama_cpp-argmax = 温度 ≤ 0：取第一个最大值，不给任何提示（负的温度被限制为 0）
threshold-llama_cpp-samples = 在温度 1 下做完 top_k、top_p 和 min_p 之后，以 f32 计算 logits / { $temperature }；没有阈值
