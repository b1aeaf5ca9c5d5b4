## corrected 列：名字、定义、原因和“温度为零”表里的行。

column-corrected-label = 修正后的 candle 移植
column-corrected-short = corrected
column-corrected-in-sentence = 修正后的 candle 移植
column-corrected-definition = 一个真正的 candle 0.11.1 LogitsProcessor，设置成从 transformers 取样的分布里抽样：惩罚项作用在 logits 上，transformers 的各个 warper 放进 sample_f 闭包，每一步之后都重新归一化。
