#![no_main]
//! The five Hub files of a tiny llama, each possibly damaged or replaced.
libfuzzer_sys::fuzz_target!(|hub: sampling_lab_fuzz::TinyHub| {
    if let Some(files) = hub.files() {
        let _ = sampling_lab::untrusted::hub(&files);
    }
});
