//! The request a `generate()` port sends a server that runs llama.cpp's chain, as llama.cpp's
//! schema reads it: each argument carried over by name (`repetition_penalty` as
//! `repeat_penalty`), `do_sample=False` as `temperature: 0`, a None as the "off" value (or, for a
//! server that fills every field itself, not sent); what is not sent keeps the server's defaults
//! ([`Server`]), never transformers'; out-of-range values are clamped where transformers raises.

use super::server::{Server, LLAMA_CPP};
use super::{LlamaCpp, REPEAT_LAST_N};
use crate::arguments::params::{EffectiveParams, Field, GenerateArgs, Source};
use crate::arguments::pyvalue::PyValue;
use crate::columns::hf::HfSampling;
use crate::columns::Call;
use crate::text::Message;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// A request's argument as llama.cpp reads it, and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Carried {
    /// The `generate()` argument as the call wrote it (`None` when not passed).
    pub python: Option<String>,
    /// The key and value sent (`None`: nothing sent, the server's default applies).
    pub sent: Option<String>,
    /// How it carried over.
    pub how: Message,
    /// For an argument not passed: the server's default that applies, as `key value`.
    pub default: Option<(String, String)>,
}

/// A value llama.cpp clamped instead of refusing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Clamped {
    /// The argument as the call wrote it, `name=value`.
    pub argument: String,
    /// The key and value llama.cpp runs with instead (marked when that is the off value).
    pub became: String,
    /// transformers' `ValueError` for the same value, if it raises one.
    pub transformers: Option<String>,
}

impl LlamaCpp {
    /// The request a port of `args` sends, as llama.cpp's schema reads it.
    #[cfg(test)]
    pub(crate) fn from_args(args: &GenerateArgs, generation_config: Option<&crate::GenerationConfig>) -> Self {
        Self::from_call(&Call::new(args, generation_config))
    }

    pub(super) fn from_call(call: &Call) -> Self {
        Self::from_call_for(call, &LLAMA_CPP)
    }

    /// The request a port of the call sends `server`, as the chain runs it.
    pub(crate) fn from_call_for(call: &Call, server: &'static Server) -> Self {
        let mut request = Request {
            server,
            sent: Map::new(),
            carried: Vec::new(),
            ignored: Vec::new(),
            clamped: Vec::new(),
        };
        let defaults = &server.defaults;
        let greedy = call
            .args
            .get(Field::DoSample)
            .is_some_and(|v| !v.is_none() && !v.truthy());
        let temperature = if greedy {
            request.carry(
                Field::DoSample,
                call,
                Some(("temperature", json!(0))),
                Message::new("carried-greedy").verbatim("server", server.name),
            );
            0.0
        } else {
            if let Some(v) = call.args.get(Field::DoSample) {
                request.note(
                    Field::DoSample,
                    v,
                    Message::new("carried-llama_cpp-do-sample").verbatim("server", server.name),
                );
            }
            request.number(
                Field::Temperature,
                call,
                "temperature",
                defaults.temperature,
                1.0,
                0.0,
                f32::INFINITY,
            )
        };
        let top_k = request.number(
            Field::TopK,
            call,
            "top_k",
            defaults.top_k as f32,
            0.0,
            0.0,
            i32::MAX as f32,
        ) as i32;
        let typical_p = request.number(
            Field::TypicalP,
            call,
            "typical_p",
            1.0,
            1.0,
            f32::NEG_INFINITY,
            f32::INFINITY,
        );
        let top_p = request.number(Field::TopP, call, "top_p", defaults.top_p, 1.0, 0.0, 1.0);
        let min_p = request.number(Field::MinP, call, "min_p", defaults.min_p, 0.0, 0.0, 1.0);
        let repeat_penalty = request.number(
            Field::RepetitionPenalty,
            call,
            "repeat_penalty",
            1.0,
            1.0,
            f32::NEG_INFINITY,
            f32::INFINITY,
        );
        for field in [Field::NoRepeatNgramSize, Field::EpsilonCutoff, Field::EtaCutoff] {
            if let Some(v) = call.args.get(field).filter(|v| v.number().is_some_and(|x| x != 0.0)) {
                request.ignored.push(format!("{}={}", field.name(), v.repr()));
            }
        }
        let unread: Vec<String> = Field::ALL
            .into_iter()
            .filter(|f| call.effective.source(*f) == Source::GenerationConfig)
            .map(|f| format!("{}={}", f.name(), call.effective.get(f).repr()))
            .collect();
        if !unread.is_empty() {
            request
                .ignored
                .push(format!("generation_config.json ({})", unread.join(", ")));
        }
        LlamaCpp {
            server,
            temperature,
            top_k,
            top_p,
            min_p,
            typical_p,
            repeat_penalty,
            carried: request.carried,
            ignored: request.ignored,
            clamped: request.clamped,
            request: request.sent,
        }
    }
}

impl LlamaCpp {
    /// What a server that fills every field (Ollama) sends llama-server: the port's values as
    /// sent, the server's defaults in every other field.
    pub(super) fn forwarded(&self) -> Option<Map<String, Value>> {
        let server = self.server;
        if !server.fills_every_field {
            return None;
        }
        let d = &server.defaults;
        let fields = [
            ("temperature", number(d.temperature)),
            ("top_k", json!(d.top_k)),
            ("top_p", number(d.top_p)),
            ("min_p", number(d.min_p)),
            ("typical_p", json!(1.0)),
            ("repeat_penalty", json!(1.0)),
            ("repeat_last_n", json!(REPEAT_LAST_N)),
        ];
        Some(
            fields
                .into_iter()
                .map(|(key, default)| (key.to_string(), self.request.get(key).cloned().unwrap_or(default)))
                .collect(),
        )
    }
}

/// The request being built from a call: what is sent, and how each argument carried over.
struct Request {
    server: &'static Server,
    sent: Map<String, Value>,
    carried: Vec<Carried>,
    ignored: Vec<String>,
    clamped: Vec<Clamped>,
}

impl Request {
    /// A numeric parameter: passed (clamped to `[low, high]` as the schema does), passed as
    /// None (`off`, or not sent, as the server's port does), or not passed (the server's
    /// `default`).
    #[allow(clippy::too_many_arguments)] // one parameter's whole description, read in one place
    fn number(&mut self, field: Field, call: &Call, key: &str, default: f32, off: f32, low: f32, high: f32) -> f32 {
        let Some(value) = call.args.get(field) else {
            // A default that is the off value changes nothing worth listing.
            if default != off {
                self.carried.push(Carried {
                    python: None,
                    sent: None,
                    how: Message::new("carried-default")
                        .verbatim("server", self.server.name)
                        .verbatim("key", key)
                        .verbatim("value", short(default)),
                    default: Some((key.to_string(), short(default))),
                });
            }
            return default;
        };
        let Some(x) = value.number() else {
            if self.server.fills_every_field {
                let how = Message::new("carried-none-not-sent")
                    .verbatim("server", self.server.name)
                    .verbatim("key", key)
                    .verbatim("value", short(default));
                self.note(field, value, how);
                return default;
            }
            self.carry(
                field,
                call,
                Some((key, json!(off))),
                Message::new("carried-llama_cpp-none-off"),
            );
            return off;
        };
        let sent = if value.is_int() { json!(x as i64) } else { json!(x) };
        let clamped = (x as f32).clamp(low, high);
        if clamped != x as f32 {
            self.clamped.push(Clamped {
                argument: format!("{}={}", field.name(), value.repr()),
                became: format!(
                    "{key} {}{}",
                    short(clamped),
                    if is_off(key, clamped) { " (off)" } else { "" }
                ),
                transformers: transformers_refusal(field, value),
            });
            self.carry(
                field,
                call,
                Some((key, sent)),
                Message::new("carried-clamped").verbatim("value", short(clamped)),
            );
        } else if key == field.name() {
            self.carry(field, call, Some((key, sent)), Message::new("carried-same-name"));
        } else {
            self.carry(
                field,
                call,
                Some((key, sent)),
                Message::new("carried-renamed").count("last", REPEAT_LAST_N),
            );
        }
        clamped
    }

    fn carry(&mut self, field: Field, call: &Call, sent: Option<(&str, Value)>, how: Message) {
        let python = call.args.get(field).map(|v| format!("{}={}", field.name(), v.repr()));
        let sent = sent.map(|(key, value)| {
            self.sent.insert(key.into(), value.clone());
            format!("{key}: {value}")
        });
        self.carried.push(Carried {
            python,
            sent,
            how,
            default: None,
        });
    }

    fn note(&mut self, field: Field, value: PyValue, how: Message) {
        self.carried.push(Carried {
            python: Some(format!("{}={}", field.name(), value.repr())),
            sent: None,
            how,
            default: None,
        });
    }
}

pub(super) fn is_off(key: &str, value: f32) -> bool {
    match key {
        "top_k" | "min_p" => value <= 0.0,
        "top_p" | "typical_p" => value >= 1.0,
        _ => false,
    }
}

/// An f32 as JSON, in its shortest decimal form (`0.95`, not `0.949999988079071`).
pub(super) fn number(x: f32) -> Value {
    short(x).parse::<f64>().map_or(Value::Null, |v| json!(v))
}

/// An f32 as a person writes it (`0.95`, not `0.949999988079071`).
pub(super) fn short(x: f32) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{x}")
}

/// The `ValueError` transformers raises for this one argument when sampling, if any.
pub(super) fn transformers_refusal(field: Field, value: PyValue) -> Option<String> {
    let mut args = GenerateArgs::default();
    args.set(Field::DoSample, PyValue::Bool(true));
    args.set(field, value);
    HfSampling::from_params(&EffectiveParams::resolve(&args, None))
        .err()
        .map(|e| e.to_string())
}
