## vllm 列：名字、定义、原因和“温度为零”表里的行。

column-vllm-label = vLLM 0.33（OpenAI 服务端）
column-vllm-short = vLLM
column-vllm-in-sentence = vLLM
column-vllm-definition = vLLM 0.33.0 的 OpenAI 兼容服务端，收到的是 generate() 移植发出的请求：没发 top_k 时为 0（整个词表），(0, 0.01) 之间的温度被提高到 0.01，然后依次用 min_p、top_k（保留并列）和 top_p 截断剩下的 token；top_p=0 和高于 2 的温度会被拒绝。

note-vllm-top-p-near = top_p：累计质量 { $mass } 与 1 − top_p = { $threshold } 只差浮点误差：torch 自己的 f32 求和可能多截或少截一个 token
vllm-refuses = vLLM { $version } 拒绝移植发出的请求（“{ $error }”）
cause-vllm-floor = vLLM 把 temperature={ $temperature } 提高到 0.01，在这个温度下从 { $kept } 个候选里取样；transformers 则除以 { $temperature }，留下 { $hf_kept } 个候选。
cause-vllm-no-top-k = 没有传 top_k：transformers 补上 top_k=50，vLLM 服务端的默认值是 0（整个词表），所以它留下 { $kept } 个候选，而 transformers 留下 { $hf_kept } 个。
cause-vllm-min-p-first = vLLM 在 top_p 之前先用 min_p { $min_p } 截断，top_p 衡量的是 min_p 剩下的部分；transformers 最后才执行 min_p：vLLM 留下 { $kept } 个候选，transformers 留下 { $hf_kept } 个。
cause-vllm-generation-config = vLLM 服务端从模型的 generation_config.json 里取 { $fields }，但从不取其中的 do_sample。
note-vllm-raised = 温度 { $temperature } 低于 0.01：SamplingParams 把它提高到 0.01（服务端日志里有一条警告）
note-vllm-generation-config = 没有发送，于是从模型的 generation_config.json 里取（--generation-config auto）：{ $fields }
threshold-vllm-argmax = 温度 0（低于 1e-5）：贪心；top_k、top_p 和 min_p 被重置
threshold-vllm-raised = { $temperature } 被提高到 0.01（一条警告）：在 0.01 下取样，从不贪心
threshold-vllm-samples = 以 f32 计算 logits / { $temperature }，然后依次是 min_p、top_k 和 top_p
