## transformers_js 列：名字、定义、原因和“温度为零”表里的行。

column-transformers_js-label = transformers.js 4.3.2
column-transformers_js-short = transformers.js
column-transformers_js-in-sentence = transformers.js
column-transformers_js-definition = transformers.js 4.3.2（npm 上的 @huggingface/transformers），JavaScript 写的 generate()：它的 top-p warper 被注释掉了，top_k 只留恰好 k 个，温度为 0 时贪心解码。

cause-transformers_js-refused = transformers.js { $version } 抛出异常：{ $error }
cause-transformers_js-accepts = transformers 拒绝这组参数（“{ $error }”）；transformers.js { $version } 照样运行。
cause-transformers_js-accepts-greedy = transformers 拒绝这组参数（“{ $error }”）；transformers.js { $version } 给出一条警告，然后贪心解码。
cause-transformers_js-top-p-ignored = transformers.js { $version } 从不执行 { $ignored }：它的 top-p 等 warper 被注释掉了，所以它留下 { $kept } 个候选，而 transformers 留下 { $hf_kept } 个。
cause-transformers_js-exactly-k = 第 { $k } 名有并列的分数：transformers 把并列的 token 全部留下，一共 { $hf_kept } 个；transformers.js 的 ONNX TopK 只留恰好 { $k } 个，id 小的优先。
cause-transformers_js-arithmetic = transformers.js { $version } 用 JavaScript 的算术执行同样的规则；两个分布相差超过 1e-6。

note-transformers_js-switched-to-greedy = `temperature: 0` 意味着贪心取样：transformers.js 把 do_sample 改成 false（一条警告）

threshold-transformers_js-greedy = 一条警告，然后把 do_sample 设为 false
threshold-transformers_js-inverted = 不加检查就除以 { $temperature }：分布被倒了过来
threshold-transformers_js-samples = TemperatureLogitsWarper({ $temperature })，没传 top_k 时再加 top_k=50
