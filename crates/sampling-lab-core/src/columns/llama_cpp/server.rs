//! Who runs llama.cpp's chain for a request: llama.cpp's own server schema (as wllama runs it),
//! or a server that puts its own values in every field before llama-server sees the request
//! (Ollama). The chain is the same; what differs is what a request's missing fields take, what a
//! None means, and what the reader is told.

use super::{ACCEPTS, ARITHMETIC, DEFAULTS, EXACTLY_K, IGNORED, NO_DO_SAMPLE, ORDER, PENALTY_WINDOW, VERSION};
use crate::columns::causes::Rule;

/// A server in front of llama.cpp's chain.
#[derive(Debug)]
pub(crate) struct Server {
    /// How a sentence names it: "llama.cpp", "Ollama".
    pub(crate) name: &'static str,
    /// The version the column reproduces.
    pub(crate) version: &'static str,
    /// What a field the request leaves out takes.
    pub(crate) defaults: Defaults,
    /// Whether the server puts its own value in every field before llama-server reads the
    /// request (Ollama): a port then leaves a None out, as it does for every serving runtime.
    /// Otherwise (llama.cpp's own schema, where JSON null would give the default) a port sends a
    /// None as the off value.
    pub(crate) fills_every_field: bool,
    /// The request as the server's users write it (wllama's JavaScript call, Ollama's Python).
    pub(crate) code: fn(&super::LlamaCpp) -> String,
    /// The causes it names, each under its own column.
    pub(crate) rules: Rules,
}

/// The values a request's missing fields take (`repeat_penalty` 1 and `typical_p` 1 for both).
#[derive(Debug)]
pub(crate) struct Defaults {
    pub(crate) temperature: f32,
    pub(crate) top_k: i32,
    pub(crate) top_p: f32,
    pub(crate) min_p: f32,
}

/// One server's rules for the same reasons to depart from transformers.
#[derive(Debug)]
pub(crate) struct Rules {
    pub(crate) accepts: Rule,
    pub(crate) defaults: Rule,
    pub(crate) no_do_sample: Rule,
    pub(crate) order: Rule,
    pub(crate) exactly_k: Rule,
    pub(crate) penalty_window: Rule,
    pub(crate) ignored: Rule,
    pub(crate) arithmetic: Rule,
}

impl PartialEq for Server {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// llama.cpp's own: `common_params_sampling`'s defaults (temperature 0.8, top_k 40, top_p 0.95,
/// min_p 0.05), which the server schema leaves in place for a missing key.
pub(crate) static LLAMA_CPP: Server = Server {
    name: "llama.cpp",
    version: VERSION,
    defaults: Defaults {
        temperature: 0.8,
        top_k: 40,
        top_p: 0.95,
        min_p: 0.05,
    },
    fills_every_field: false,
    code: request_code,
    rules: Rules {
        accepts: ACCEPTS,
        defaults: DEFAULTS,
        no_do_sample: NO_DO_SAMPLE,
        order: ORDER,
        exactly_k: EXACTLY_K,
        penalty_window: PENALTY_WINDOW,
        ignored: IGNORED,
        arithmetic: ARITHMETIC,
    },
};

/// The wllama call a port of these arguments makes.
fn request_code(chain: &super::LlamaCpp) -> String {
    let mut code = String::from(
        "// wllama 3.13.0: the request a port of these generate() arguments sends (the server's key names).\n",
    );
    code += "const completion = await wllama.createChatCompletion({\n  messages,\n";
    for (key, value) in &chain.request {
        code += &format!("  {key}: {value},\n");
    }
    code += "  seed,\n});\n";
    let defaults: Vec<String> = chain
        .carried
        .iter()
        .filter_map(|c| c.default.as_ref())
        .map(|(key, value)| format!("{key} {value}"))
        .collect();
    if !defaults.is_empty() {
        code += &format!("// Not sent, so llama.cpp's defaults apply: {}.\n", defaults.join(", "));
    }
    if !chain.ignored.is_empty() {
        code += &format!("// Nothing in llama.cpp reads {}.\n", chain.ignored.join(", "));
    }
    code
}
