//! What the command's JSON says apart from its language.

use serde_json::Value;

/// Every `text` and `lang` taken out: what must not depend on the language.
pub fn without_texts(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("text");
            map.remove("lang");
            map.values_mut().for_each(without_texts);
        }
        Value::Array(items) => items.iter_mut().for_each(without_texts),
        _ => {}
    }
}
