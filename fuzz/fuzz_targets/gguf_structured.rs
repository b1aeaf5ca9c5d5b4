#![no_main]
//! A tiny llama GGUF written by candle's writer from the fuzzer's bytes, then damaged: most inputs
//! reach the tokenizer, the chat template, the tensor table and a forward pass.
libfuzzer_sys::fuzz_target!(|model: sampling_lab_fuzz::TinyLlama| {
    let _ = sampling_lab::untrusted::gguf(&model.to_bytes());
});
