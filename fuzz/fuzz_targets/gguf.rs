#![no_main]
//! Raw bytes as a dropped GGUF file (the seed corpus holds the real model's header and tiny models).
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = sampling_lab::untrusted::gguf(data);
});
