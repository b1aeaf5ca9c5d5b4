//! Ollama v0.32.15 (`ollama/ollama`): what `/api/generate` samples from for the options a
//! `generate()` port sends. Since v0.30.0 (commit `9db4bdb`) Ollama runs GGUF models with
//! llama-server (llama.cpp `b10488`, its `LLAMA_CPP_VERSION`), so the sampler is llama.cpp's chain
//! ([`super::llama_cpp`], reused as it is) with Ollama's values; the chain's math is checked on
//! wllama's libllama b12211 with those values sent (`tests/llama_cpp/`).
//!
//! - **Defaults** (`api/types.go:1096-1122` `DefaultOptions`): temperature 0.8, top_k 40, top_p
//!   0.9, min_p 0, typical_p 1, repeat_penalty 1.0 (1.1 before v0.32.10, ollama/ollama#17679),
//!   repeat_last_n 64. Ollama sends **every** field to llama-server explicitly
//!   (`llm/llama_server.go:1393-1414`), so llama-server's own defaults (top_p 0.95, min_p 0.05)
//!   never apply. `generation_config.json` is never read.
//! - **The options a port sends**: `temperature`, `top_k`, `top_p`, `min_p`, `typical_p` by name,
//!   `repetition_penalty` as `repeat_penalty`; `do_sample=False` as `temperature: 0`; a None not
//!   sent, so Ollama's default applies.
//! - **No range checks** (`api/types.go` `FromMap` checks types only; an int option's float is
//!   truncated): llama-server clamps (a negative temperature to greedy, top_p above 1 to off).
//! - **The chain**: top_k → typical → top_p → min_p, all at temperature 1, then the temperature,
//!   then one `std::mt19937` draw ([`super::llama_cpp`]'s notes and draws).
//!
//! ```text
//! generate(do_sample=True)                  # Ollama: top_k 40 → top_p 0.9 → T 0.8
//! generate(do_sample=True, top_k=None)      # Ollama: top_k 40 still (None is not sent)
//! ```

use super::causes::Rule;
use super::llama_cpp::{Defaults, LlamaCpp, Rules, Server};
use super::thresholds::{Behaviour, Threshold};
use super::{Column, ColumnName};
use crate::arguments::pyvalue::PyValue;
use crate::text::Message;

/// Ollama's column.
pub const NAME: ColumnName = ColumnName::new("ollama");

/// The Ollama release whose options this column sends.
pub const VERSION: &str = "0.32.15";

const ACCEPTS: Rule = Rule::new("ollama_accepts", NAME);
const DEFAULTS: Rule = Rule::new("ollama_defaults", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("ollama_no_do_sample", NAME);
/// Ollama, as llama.cpp, truncates at temperature 1 and divides by the temperature last.
pub(crate) const ORDER: Rule = Rule::new("ollama_order", NAME);
const EXACTLY_K: Rule = Rule::new("ollama_exactly_k", NAME);
const PENALTY_WINDOW: Rule = Rule::new("ollama_penalty_window", NAME);
const IGNORED: Rule = Rule::new("ollama_ignored", NAME);
const ARITHMETIC: Rule = Rule::new("ollama_arithmetic", NAME);

/// Ollama in front of llama-server: its `DefaultOptions` in every field.
static OLLAMA: Server = Server {
    name: "Ollama",
    version: VERSION,
    defaults: Defaults {
        temperature: 0.8,
        top_k: 40,
        top_p: 0.9,
        min_p: 0.0,
    },
    fills_every_field: true,
    code: ollama_code,
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

/// Ollama's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("ollama"),
    name: NAME,
    code: Some("Python"),
    draws: true,
    from_call: |call| Box::new(LlamaCpp::from_call_for(call, &OLLAMA)),
    thresholds,
    rules: &[
        ACCEPTS,
        DEFAULTS,
        NO_DO_SAMPLE,
        ORDER,
        EXACTLY_K,
        PENALTY_WINDOW,
        IGNORED,
        ARITHMETIC,
    ],
};

/// Options the port sends, as Ollama (then llama-server) reads them.
#[cfg(test)]
fn from_args(args: &crate::GenerateArgs, generation_config: Option<&crate::GenerationConfig>) -> LlamaCpp {
    LlamaCpp::from_call_for(&super::Call::new(args, generation_config), &OLLAMA)
}

/// The options a port sends, as an Ollama user writes them with the `ollama` Python client.
fn ollama_code(chain: &LlamaCpp) -> String {
    let options: Vec<String> = chain
        .request
        .iter()
        .map(|(key, value)| match value {
            serde_json::Value::Bool(b) => format!("\"{key}\": {}", if *b { "True" } else { "False" }),
            v => format!("\"{key}\": {v}"),
        })
        .collect();
    let mut code = format!(
        "import ollama\n\nprompt = \"Your prompt\"  # the text the model continues\nollama.generate(model=\"smollm2:135m\", prompt=prompt, options={{{}}})\n",
        options.join(", ")
    );
    if !chain.ignored.is_empty() {
        code += &format!("# Nothing in Ollama reads {}.\n", chain.ignored.join(", "));
    }
    code
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "Ollama 0.32 (llama-server) temperature";
    vec![if t <= 0.0 {
        Threshold::new(system, Behaviour::Argmax, Message::new("threshold-ollama-argmax"))
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-ollama-samples").verbatim("temperature", temperature.repr()),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::Engine;
    use crate::GenerateArgs;

    fn ollama(kwargs: &str) -> LlamaCpp {
        from_args(&GenerateArgs::from_json_str(kwargs).unwrap(), None)
    }

    #[test]
    fn nothing_passed_is_top_k_40_top_p_0_9_no_min_p_at_temperature_0_8() {
        let o = ollama("{}");
        assert_eq!((o.temperature, o.top_k, o.top_p, o.min_p), (0.8, 40, 0.9, 0.0));
        let names: Vec<&str> = o.chain().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["top_k", "top_p", "temperature", "dist"]);
    }

    #[test]
    fn a_none_is_not_sent_so_ollama_s_default_applies() {
        let o = ollama(r#"{"do_sample": true, "top_k": null, "top_p": null}"#);
        assert_eq!((o.top_k, o.top_p), (40, 0.9));
        assert!(o.request.is_empty());
    }

    #[test]
    fn typical_p_and_the_penalty_carry_over() {
        let o = ollama(r#"{"typical_p": 0.5, "repetition_penalty": 1.3}"#);
        assert_eq!((o.typical_p, o.repeat_penalty), (0.5, 1.3));
        assert_eq!(o.request["repeat_penalty"], serde_json::json!(1.3));
    }

    #[test]
    fn its_draws_are_llama_cpp_s_mt19937_and_converge_to_the_exact_distribution() {
        let o = ollama(r#"{"temperature": 1.2, "top_k": 3, "top_p": 1.0}"#);
        let logits = [1.0f32, 0.5, 0.0, -3.0];
        let drawing = o.draws(&logits, &[], 7).unwrap().unwrap();
        let mut draws = crate::output::monte_carlo::draws::ColumnDraws::new(drawing.source, 4, 0..30_000);
        draws.advance(usize::MAX).unwrap();
        let checked = crate::output::monte_carlo::draws::summarize(draws.counts(), &drawing.exact, None, 7);
        assert!(checked.consistent, "tv {} > {}", checked.tv_to_exact, checked.bound);
        assert_eq!(draws.counts()[3], 0, "top_k 3 never draws the fourth");
    }

    #[test]
    fn its_code_sends_the_options_a_port_sends_and_names_what_ollama_does_not_read() {
        let code = ollama(r#"{"do_sample": true, "temperature": 0.7, "top_k": null, "epsilon_cutoff": 0.001}"#)
            .code()
            .unwrap();
        assert!(code.contains(r#"options={"temperature": 0.7})"#), "{code}");
        assert!(
            code.contains("# Nothing in Ollama reads epsilon_cutoff=0.001."),
            "{code}"
        );
    }

    #[test]
    fn the_column_names_the_release_it_reproduces_in_every_language() {
        for lang in crate::Lang::ALL {
            let definition = COLUMN.info(lang).definition;
            assert!(
                definition.contains(&format!("Ollama {}", OLLAMA.version)),
                "{lang}: {definition}"
            );
        }
    }
}
