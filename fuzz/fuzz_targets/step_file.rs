#![no_main]
//! A step file a link names: read and checked before any model, then inspected.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = sampling_lab::untrusted::step_file(data);
});
