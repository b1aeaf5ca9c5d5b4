//! The `both!` macro: each test runs natively (`cargo test`) and compiled to wasm32 in headless
//! Chromium (`wasm-bindgen-test`), where the page's simd128 code paths are the ones that run.

/// Runs a test natively (`#[test]`) and in the browser (`#[wasm_bindgen_test]`). In the browser
/// each test first lets the page's event loop turn: wasm-bindgen-test runs synchronous tests back
/// to back in one task, and ChromeDriver gives up on a page it cannot reach for 30 s ("Timed out
/// receiving message from renderer") — which a whole file of tests on a busy machine can take.
macro_rules! both {
    ($(fn $name:ident() $body:block)*) => {$(
        #[cfg(target_arch = "wasm32")]
        #[wasm_bindgen_test::wasm_bindgen_test]
        async fn $name() {
            $crate::both::next_task().await;
            $body
        }
        #[cfg(not(target_arch = "wasm32"))]
        #[test]
        fn $name() $body
    )*};
}

/// Resolves in a later task of the page's event loop (a zero-delay timer), so that whatever is
/// queued before it — a WebDriver's script reading the test output — runs first.
#[cfg(target_arch = "wasm32")]
pub async fn next_task() {
    use wasm_bindgen::prelude::*;
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = setTimeout)]
        fn set_timeout(callback: &js_sys::Function, delay: i32);
    }
    let timer = js_sys::Promise::new(&mut |resolve, _| set_timeout(&resolve, 0));
    wasm_bindgen_futures::JsFuture::from(timer)
        .await
        .expect("a timer's promise resolves");
}
