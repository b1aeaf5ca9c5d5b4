## dflash 列：名字、定义、原因和“温度为零”表里的行。

column-dflash-label = DFlash 的 sample()
column-dflash-short = DFlash
column-dflash-in-sentence = DFlash 的 sample()
column-dflash-definition = DFlash 的 sample()（z-lab/dflash，dflash/model.py @ 44947fb）：温度低于 1e-5 时取 argmax，否则在整个词表上做 softmax(logits / temperature)；别的参数一概不读。

cause-dflash-refused = DFlash 的 sample() 无法运行：{ $error }
cause-dflash-refused-by-hf-argmax = transformers 拒绝这组参数（“{ $error }”）；DFlash 的 sample() 只读温度，取 argmax。
cause-dflash-refused-by-hf-samples = transformers 拒绝这组参数（“{ $error }”）；DFlash 的 sample() 只读温度，照样取样。
cause-dflash-threshold = DFlash 的温度 { $dflash_temperature } 低于 1e-5，所以 sample() 取 argmax；transformers 以 temperature={ $temperature } 取样。
cause-dflash-no-do-sample = DFlash 没有 do_sample：温度为 { $temperature } 时它照样取样，而不带 do_sample=True 的 generate() 是贪心解码。
cause-dflash-temperature-only = DFlash 的 sample() 只有温度：transformers 还会执行 { $lacked }；DFlash 留下 { $kept } 个候选，transformers 留下 { $hf_kept } 个。

threshold-dflash-argmax = { $temperature } < 1e-5：torch.argmax
threshold-dflash-samples = 在整个词表上做 softmax(logits / { $temperature })
