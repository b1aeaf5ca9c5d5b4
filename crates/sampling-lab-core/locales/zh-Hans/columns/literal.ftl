## literal 列：名字、定义、原因和“温度为零”表里的行。

column-literal-label = 照字面搬的 candle 移植
column-literal-short = literal
column-literal-in-sentence = 照字面搬的 candle 移植
column-literal-definition = 把参数逐个照搬到 candle 0.11.1 的 Sampling 上（candle 的示例就是这样接命令行参数的），用它真正的 LogitsProcessor 抽样：没有隐含的 top_k，也不读 generation_config.json。

cause-literal-implicit-top-k = 没有传 top_k，所以 transformers 用 top_k={ $k }（来自{ $source ->
    [generation_config] 模型的 generation_config.json
   *[default] { "" } transformers 的默认值
}）；照字面搬的移植没有 top_k，留下 { $kept } 个候选。
cause-literal-generation-config = transformers 从模型的 generation_config.json 里取 { $fields }；candle 移植从来不读这个文件。
cause-literal-ties = 有 { $tied } 个 token 并列第 { $k } 高的分数：transformers 的 top-k 把它们全部留下（一共留下 { $kept } 个），candle 只留恰好 { $k } 个。
cause-literal-dropped = candle 里没有 { $dropped } 的对应项：照字面搬的移植{ $count ->
    [1] 把它丢掉了
   *[other] 把这 { $count } 个参数都丢掉了
}。
cause-literal-penalty-window = transformers 的 repetition penalty 作用于上下文的全部 { $context } 个 token；candle 的示例只传最后 { $last } 个。
cause-literal-refused = transformers 拒绝这组参数（“{ $error }”）；照字面搬的移植却{ $candle }。
cause-literal-refused-argmax = 悄悄地改成贪心解码（Sampling::ArgMax）
cause-literal-refused-samples = 用 { $sampling } 取样
cause-literal-top-p-skipped = 前 { $k } 个 token 只占 { NUMBER($mass, minimumFractionDigits: 3, maximumFractionDigits: 3) } 的质量，不到 top_p={ $p }：于是 candle 的 TopKThenTopP 跳过 top-p 这一步（nucleus），{ $k } 个全部留下；transformers 先把前 { $k } 个重新归一化，再在其中 { $p } 处截断，留下 { $hf_kept } 个。
cause-literal-top-p-not-renormalised = candle 的 TopKThenTopP 拿 top_p={ $p } 和整体质量比；transformers 先把前 { $k } 个重新归一化，再拿重新归一化后的质量比，留下 { $hf_kept } 个。

note-literal-dropped = { $argument } 在 candle 里没有对应项，被丢掉了
note-literal-penalty-window = repetition penalty 只作用于最后 { $last } 个 token，和 candle 的示例一样

threshold-candle-new-samples = 在这个温度下构造 Sampling::All
threshold-candle-new-argmax = 低于 1e-7 时构造 Sampling::ArgMax
threshold-candle-all-err = sample() 返回 Err：{ $error }
threshold-candle-all-one = 取样，但只有 token { $token } 的 f32 权重不为零
threshold-candle-all-samples = 从 { $count } 个候选里取样
