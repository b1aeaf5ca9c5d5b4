#![no_main]
//! `generate()` arguments, a generation_config.json and logits (NaN and ±inf included) through
//! the whole analysis.
libfuzzer_sys::fuzz_target!(|call: sampling_lab_fuzz::Call| {
    let (params, config) = call.texts();
    let _ = sampling_lab::untrusted::generate_call(&params, &config, call.logits(), call.context.clone());
});
