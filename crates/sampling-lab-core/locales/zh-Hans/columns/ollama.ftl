## ollama 列：名字、定义、原因和“温度为零”表里的行。

column-ollama-label = Ollama 0.32 (/api/generate)
column-ollama-short = Ollama
column-ollama-in-sentence = Ollama
column-ollama-definition = Ollama 0.32.15 的 /api/generate，收到的是 generate() 移植发出的 options：llama.cpp 的取样链（llama-server），没发的字段都填上 Ollama 的值——top_k 40、top_p 0.9、min_p 0，在温度 1 下执行，然后是温度 0.8；None 不发送。

threshold-ollama-argmax = 温度 ≤ 0：取第一个最大值，不给任何提示（Ollama 不检查范围；llama-server 把负的温度限制为 0）
threshold-ollama-samples = 在温度 1 下做完 top_k 40、top_p 0.9（除非另行发送）之后，以 f32 计算 logits / { $temperature }；没有阈值
