//! The request a `generate()` port sends a serving runtime (vLLM, SGLang, mlx-lm), and what those
//! columns share around it (their report fields, the opening of their causes): one rule for
//! every runtime, written apart from any of them (`reference/runtimes/port_request.py` is the
//! same rule in Python, which the fixtures and the mlx-lm oracle use).
//!
//! - `temperature`, `top_k`, `top_p`, `min_p` and `repetition_penalty` carry over by name (each
//!   runtime may spell one differently: mlx-lm's `temp`), exactly as passed: an int stays an int,
//!   and a value transformers would refuse is sent all the same, for the runtime to judge.
//! - `do_sample=False` sends `temperature: 0` (greedy in every runtime, whatever temperature was
//!   passed); `do_sample=True` sends nothing, as no runtime has the flag.
//! - An argument passed as None is not sent, so the runtime's own default applies.
//! - An argument the runtime has no field for is listed as ignored; what is not sent takes the
//!   runtime's default, never transformers'.

use super::causes::{Cause, Rule};
use super::hf::HfSampling;
use super::StepView;
use crate::arguments::params::{Field, GenerateArgs};
use crate::arguments::pyvalue::PyValue;
use crate::distribution::Distribution;
use crate::text::Message;
use serde_json::{json, Map, Value};

/// The arguments that carry over, and how a runtime spells each.
pub(crate) type Names = [(Field, &'static str)];

/// The same names as `generate()`'s.
pub(crate) const SAME_NAMES: [(Field, &str); 5] = [
    (Field::Temperature, "temperature"),
    (Field::TopK, "top_k"),
    (Field::TopP, "top_p"),
    (Field::MinP, "min_p"),
    (Field::RepetitionPenalty, "repetition_penalty"),
];

/// What a port of one call sends, and what it cannot.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PortRequest {
    /// The fields sent, in the call's order: the runtime's key, the argument, the value as passed.
    pub(crate) sent: Vec<(&'static str, Field, PyValue)>,
    /// Arguments passed that the runtime has no field for, as `name=value`.
    pub(crate) ignored: Vec<String>,
    /// `do_sample=False` became `temperature: 0`.
    pub(crate) greedy_by_do_sample: bool,
}

impl PortRequest {
    /// The request for `args` to a runtime whose fields are `names`.
    pub(crate) fn new(args: &GenerateArgs, names: &Names) -> Self {
        let mut request = PortRequest {
            sent: Vec::new(),
            ignored: Vec::new(),
            greedy_by_do_sample: false,
        };
        for (field, value) in args.passed() {
            if field == Field::DoSample {
                continue;
            }
            match names.iter().find(|(f, _)| *f == field) {
                Some((_, key)) if !value.is_none() => request.sent.push((key, field, value)),
                Some(_) => {}
                None => request.ignored.push(format!("{}={}", field.name(), value.repr())),
            }
        }
        if args.get(Field::DoSample) == Some(PyValue::Bool(false)) {
            let key = names
                .iter()
                .find(|(f, _)| *f == Field::Temperature)
                .map_or("temperature", |(_, k)| k);
            match request.sent.iter_mut().find(|(_, f, _)| *f == Field::Temperature) {
                Some(entry) => entry.2 = PyValue::Int(0),
                None => request.sent.push((key, Field::Temperature, PyValue::Int(0))),
            }
            request.greedy_by_do_sample = true;
        }
        request
    }

    /// The value sent for `field`, if any.
    pub(crate) fn get(&self, field: Field) -> Option<PyValue> {
        self.sent.iter().find(|(_, f, _)| *f == field).map(|(_, _, v)| *v)
    }

    /// The request's fields as JSON, in the runtime's names.
    pub(crate) fn json(&self) -> Map<String, Value> {
        self.sent
            .iter()
            .map(|(key, _, v)| ((*key).to_string(), v.to_json()))
            .collect()
    }

    /// The fields sent as Python keyword arguments, in the runtime's names: `temp=0.7, top_k=50`.
    pub(crate) fn python_kwargs(&self) -> String {
        let kwargs: Vec<String> = self
            .sent
            .iter()
            .map(|(key, _, v)| format!("{key}={}", v.repr()))
            .collect();
        kwargs.join(", ")
    }

    /// The fields sent as a Python dict (also the JSON body's fields): `{"top_k": 50}`.
    pub(crate) fn python_dict(&self) -> String {
        let fields: Vec<String> = self
            .sent
            .iter()
            .map(|(key, _, v)| format!("\"{key}\": {}", v.repr()))
            .collect();
        format!("{{{}}}", fields.join(", "))
    }

    /// A closing comment for the code a user copies: what the runtime has no field for.
    pub(crate) fn ignored_comment(&self, runtime: &str, comment: &str) -> String {
        if self.ignored.is_empty() {
            String::new()
        } else {
            format!("{comment} {runtime} has no field for {}.\n", self.ignored.join(", "))
        }
    }

    /// A serving runtime's own report fields: its version, the request in its names, the chain
    /// that acts and the arguments it has no field for.
    pub(crate) fn details(&self, version: &str, chain: Vec<(&'static str, Value)>) -> Map<String, Value> {
        let chain: Vec<Value> = chain
            .into_iter()
            .map(|(name, value)| json!({"sampler": name, "value": value}))
            .collect();
        let mut details = Map::new();
        details.insert("version".into(), json!(version));
        details.insert("request".into(), Value::Object(self.json()));
        details.insert("chain".into(), json!(chain));
        details.insert("ignored".into(), json!(self.ignored));
        details
    }

    /// How each argument of the call carried over, for the report's notes.
    pub(crate) fn notes(&self, args: &GenerateArgs, runtime: &'static str) -> Vec<Message> {
        let mut notes = vec![Message::new("note-port-request").verbatim("runtime", runtime)];
        for (field, value) in args.passed() {
            let python = format!("{}={}", field.name(), value.repr());
            let note = if field == Field::DoSample {
                if self.greedy_by_do_sample {
                    Message::new("note-port-do-sample-greedy")
                } else {
                    Message::new("note-port-do-sample-nothing")
                }
            } else if let Some((key, _, sent)) = self.sent.iter().find(|(_, f, _)| *f == field) {
                if self.greedy_by_do_sample && field == Field::Temperature {
                    Message::new("note-port-temperature-replaced")
                } else {
                    Message::new("note-port-sent")
                        .verbatim("key", *key)
                        .verbatim("value", sent.to_json().to_string())
                }
            } else if value.is_none() {
                Message::new("note-port-none")
            } else {
                continue; // listed among the ignored
            };
            notes.push(note.verbatim("python", python).verbatim("runtime", runtime));
        }
        notes
    }
}

/// A serving runtime's chain in one line, for its report entry's `sampling`: `temperature(0.7) → top_k(40)`.
pub(crate) fn describe_chain(chain: Vec<(&'static str, Value)>) -> String {
    let steps: Vec<String> = chain
        .into_iter()
        .map(|(name, value)| match value {
            Value::String(s) => format!("{name} ({s})"),
            v => format!("{name}({v})"),
        })
        .collect();
    steps.join(" → ")
}

/// Where a serving runtime's causes start when both it and transformers run the call.
pub(crate) struct Opening<'a> {
    /// What the runtime does here: "decodes greedily", "samples at temperature 0.7 from 40 tokens".
    pub(crate) what: Message,
    /// transformers' set-up for the call.
    pub(crate) hf: &'a HfSampling,
    /// Tokens the runtime keeps, and transformers.
    pub(crate) kept: usize,
    pub(crate) hf_kept: usize,
}

/// The one cause when the runtime refuses the request: its words (`refusal`), then what
/// transformers does.
pub(crate) fn refused(step: &StepView, rule: Rule, refusal: Message) -> Vec<Cause> {
    let message = match step.hf_distribution() {
        Some(d) => Message::new("cause-runtime-refused-hf-samples").count("hf_kept", d.kept()),
        None => Message::new("cause-runtime-refused-hf-refuses"),
    };
    vec![rule.says(message.arg("refusal", refusal))]
}

/// The one cause when transformers refuses the call (`accepts`: the runtime runs it anyway), else
/// what every other cause of the runtime builds on. `sampling` names the temperature in the
/// runtime's words ("temperature 0.7", "temp 0.7"), or is None when it decodes greedily.
pub(crate) fn opening<'a>(
    step: &'a StepView,
    runtime: &'static str,
    sampling: Option<String>,
    accepts: Rule,
) -> Result<Opening<'a>, Vec<Cause>> {
    let kept = step.distribution.as_ref().map_or(0, Distribution::kept);
    let what = match sampling {
        None => Message::new("runtime-greedy"),
        Some(temperature) => Message::new("runtime-samples")
            .verbatim("temperature", temperature)
            .count("kept", kept),
    };
    match step.hf {
        Ok((hf, _)) => Ok(Opening {
            what,
            hf,
            kept,
            hf_kept: step.hf_distribution().map_or(0, Distribution::kept),
        }),
        Err(message) => Err(vec![accepts.says(
            Message::new("cause-runtime-accepts")
                .verbatim("error", message.to_string())
                .verbatim("runtime", runtime)
                .arg("what", what),
        )]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(kwargs: &str) -> PortRequest {
        PortRequest::new(&GenerateArgs::from_json_str(kwargs).unwrap(), &SAME_NAMES)
    }

    #[test]
    fn values_carry_over_as_passed_and_none_is_not_sent() {
        let r = request(r#"{"do_sample": true, "temperature": 2, "top_k": null, "top_p": 1.5}"#);
        assert_eq!(
            serde_json::Value::Object(r.json()),
            serde_json::json!({"temperature": 2, "top_p": 1.5})
        );
        assert!(r.ignored.is_empty());
    }

    #[test]
    fn do_sample_false_sends_temperature_zero_over_any_temperature() {
        let r = request(r#"{"do_sample": false, "temperature": 0.7}"#);
        assert_eq!(r.get(Field::Temperature), Some(PyValue::Int(0)));
        assert!(r.greedy_by_do_sample);
    }

    #[test]
    fn the_request_reads_as_python_keywords_and_as_a_dict() {
        let r = request(r#"{"do_sample": true, "temperature": 0.7, "top_k": 50, "typical_p": 0.9}"#);
        assert_eq!(r.python_kwargs(), "temperature=0.7, top_k=50");
        assert_eq!(r.python_dict(), r#"{"temperature": 0.7, "top_k": 50}"#);
        assert_eq!(
            r.ignored_comment("vLLM", "#"),
            "# vLLM has no field for typical_p=0.9.\n"
        );
    }

    #[test]
    fn arguments_without_a_field_are_listed_as_ignored() {
        let r = request(r#"{"typical_p": 0.9, "no_repeat_ngram_size": 3}"#);
        assert_eq!(r.ignored, ["typical_p=0.9", "no_repeat_ngram_size=3"]);
        assert!(r.sent.is_empty());
    }
}
