## hf 列：名字、定义、原因和“温度为零”表里的行。

column-hf-label = transformers (hf)
column-hf-short = hf
column-hf-in-sentence = transformers
column-hf-definition = transformers 的 generate() 取样的分布：按它自己的顺序执行 logits processor 和 warper，再做 softmax 和 torch.multinomial（transformers 5.23.0，用 fixtures 逐一对照过）。

cause-hf-undrawable = transformers 留下 { $count } 个候选（它们的分数都是有限值），但其中 { $undrawable } 个的概率小到浮点数表示不了（低于 1e-45）：哪次抽样都抽不到它们，所以一列去掉它们、只留下 { $drawable } 个候选，取样的分布仍然相同。

threshold-hf-samples = TemperatureLogitsWarper，没传 top_k 时再加 top_k=50
threshold-hf-greedy = 贪心；不使用温度
threshold-hf-greedy-warned = 贪心；temperature={ $temperature } 只引出一条警告
