//! The `both!` macro: each test runs natively (`cargo test`) and compiled to wasm32 in headless
//! Chromium (`wasm-bindgen-test`), where the page's simd128 code paths are the ones that run.

/// Runs a test natively (`#[test]`) and in the browser (`#[wasm_bindgen_test]`).
macro_rules! both {
    ($(fn $name:ident() $body:block)*) => {$(
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        fn $name() $body
    )*};
}
