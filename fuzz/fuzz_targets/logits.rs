#![no_main]
//! A pasted or dropped logits file: `.npy` or JSON, then the analysis over it.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = sampling_lab::untrusted::logits(data);
});
