## mlx_lm 列：名字、定义、原因和“温度为零”表里的行。

column-mlx_lm-label = mlx-lm 0.32 (make_sampler)
column-mlx_lm-short = mlx-lm
column-mlx_lm-in-sentence = mlx-lm
column-mlx_lm-definition = mlx-lm 0.32.2 的 make_sampler，传入的是 generate() 移植传的参数：没传温度时 temp 为 0（贪心）；top_p、min_p 和 top_k（恰好 k 个）在温度 1 下作用于对数概率，然后才是温度，最后用 Gumbel-max 做 categorical 抽样。

note-mlx_lm-top-p-near = top_p：排在某个 token 前面的质量 { $mass } 与 top_p × 总和 = { $cut } 只差浮点误差：mlx 自己的 f32 求和可能多留或少留一个 token
note-mlx_lm-min-p-near = min_p：有一个对数概率与截断点 { $cut } 只差浮点误差：mlx 自己的 f32 logsumexp 可能做出不同决定
note-mlx_lm-top-k-ties = top_k：对数概率相等的 token 分在第 { $k } 名两边；哪个留下由 mlx 的 argpartition 决定
mlx_lm-raises = mlx-lm { $version } 报错“{ $error }”
cause-mlx_lm-greedy-default = 没有传温度：make_sampler 的默认 temp 是 0，所以 mlx-lm 贪心解码，而 transformers 从 { $hf_kept } 个候选里取样。
cause-mlx_lm-inverted = mlx-lm 不检查温度：乘以 1 / { $temperature } 把顺序倒了过来，最不可能的 token 反而被抽到得最多。
cause-mlx_lm-order = mlx-lm 在温度 1 下用 { $filters } 截断对数概率，到抽样时才除以温度 { $temperature }；transformers 先除以温度：mlx-lm 留下 { $kept } 个候选，transformers 留下 { $hf_kept } 个。
cause-mlx_lm-no-top-k = 没有传 top_k：transformers 补上 top_k=50，mlx-lm 没有这个默认值，所以它留下 { $kept } 个候选，而 transformers 留下 { $hf_kept } 个。
cause-mlx_lm-top-p-zero = make_sampler 只在 0 < top_p < 1 时才执行 top_p：transformers 把 top_p=0 理解为只留概率最高的 token，在这里却完全不过滤。
cause-mlx_lm-exactly-k = 第 { $k } 名有并列的分数：transformers 把并列的 token 全部留下，mlx-lm 的 argpartition 只留恰好 { $k } 个。
cause-mlx_lm-penalty-window = transformers 的 repetition penalty 作用于上下文的全部 { $context } 个 token；mlx-lm 的只作用于最后 { $last } 个。
cause-mlx_lm-no-parameter = make_sampler 没有 { $ignored } 对应的参数：移植无法传它。
note-mlx_lm-greedy-default = 没有发送温度：make_sampler 的默认 temp 0.0 是贪心解码
note-mlx_lm-negative-temp = 负的 temp 把对数概率乘以一个负数：最不可能的 token 变成最可能的，被过滤掉的 token 全都变成 +inf（mlx 于是在这些同值的 token 里抽样）
threshold-mlx_lm-argmax = temp == 0：mx.argmax，在所有过滤之前（没传温度时也是这样）
threshold-mlx_lm-inverted = 不加检查地计算 categorical(logprobs * (1 / { $temperature }))：分布被倒了过来
threshold-mlx_lm-samples = 先在温度 1 下过滤，再计算 categorical(logprobs * (1 / { $temperature }))；只有恰好为 0 才是贪心
