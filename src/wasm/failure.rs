//! What the worker catches when a call fails: a JS `Error` whose `message` is the English text
//! and, when it is a sentence of the catalogs, whose `texts` holds it in every language
//! (`{en, "zh-Hans"}`), so that the page says it in the reader's language and again in another.
//! A library's words (transformers' refusal, candle's error) have no `texts`: they are quoted as
//! they are.

use crate::text::{render, Explain, Said};
use sampling_lab_core::Lang;
use wasm_bindgen::prelude::*;

/// A failed call, as JavaScript receives it (see the module).
pub struct Failure(JsValue);

impl Failure {
    /// Words no catalog has: a library's, or a request the page should never send (its own bug).
    pub(super) fn verbatim(text: impl std::fmt::Display) -> Self {
        Failure(js_sys::Error::new(&text.to_string()).into())
    }

    /// What the page itself threw (an `onToken` callback), passed back as it was.
    #[cfg(feature = "model")]
    pub(super) fn thrown(value: JsValue) -> Self {
        Failure(value)
    }

    fn explained(e: &impl Explain) -> Self {
        let error = js_sys::Error::new(&e.explain(Lang::En));
        if let Said::Message(message) = e.said() {
            let texts = js_sys::Object::new();
            for lang in Lang::ALL {
                js_sys::Reflect::set(&texts, &lang.tag().into(), &render(&message, lang).into())
                    .expect("a plain object takes a property");
            }
            js_sys::Reflect::set(&error, &"texts".into(), &texts).expect("an Error takes a property");
        }
        Failure(error.into())
    }
}

impl From<Failure> for JsValue {
    fn from(failure: Failure) -> JsValue {
        failure.0
    }
}

/// Every error the crate explains: the core's, the model's, a generation's, a logits file's.
impl<E: Explain> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::explained(&e)
    }
}

impl From<serde_wasm_bindgen::Error> for Failure {
    fn from(e: serde_wasm_bindgen::Error) -> Self {
        Failure::verbatim(e)
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure::verbatim(e)
    }
}
