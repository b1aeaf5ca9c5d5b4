//! "Port this call": for each column, the request that makes that runtime sample from
//! transformers' distribution at this step, in the runtime's own form (the language
//! [`Column::code`](crate::Column::code) names), and checked here — the column set up with it
//! must agree with hf within [`EXACT_TOLERANCE`].
//!
//! Two kinds of request are tried, each a `generate()` call the column reads as it reads any:
//! - **fixed**: the call's own values spelled out — transformers' implicit ones made explicit
//!   (`top_k=50`, `top_p=1.0`, then `min_p=0.0` for a runtime whose default filters), so that
//!   the runtime's own defaults never act. Where that disagrees, the same values with some
//!   filters left out are tried too, and the nearest is kept: a runtime that filters before the
//!   temperature (llama.cpp, Ollama, mlx-lm) or measures top-p on the whole distribution (SGLang)
//!   cannot follow transformers' rules with these values.
//! - **this step only**: the temperature with `top_k` = the tokens hf keeps here and no other
//!   filter. Every truncation keeps a prefix of the tokens sorted by score, so this reproduces hf
//!   at this step in any runtime that applies the temperature and keeps exactly k — but the count
//!   changes from step to step.
//!
//! ```
//! use sampling_lab_core::{GenerateArgs, Inspection, Lang, Port};
//!
//! let logits = vec![4.0, 3.0, 2.5, 1.0, 0.5, 0.0];
//! let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 4, "top_p": 0.9}"#)?;
//! let ports = Port::all(&Inspection::new(logits, args, None, Vec::new())?, Lang::En)?;
//! let vllm = ports.iter().find(|p| p.column.name() == "vllm").unwrap();
//! assert!(vllm.fixed.agrees); // vLLM renormalises before top-p, as transformers does
//! assert!(vllm.fixed.code.as_deref().unwrap().contains("SamplingParams(temperature=0.7, top_k=4, top_p=0.9)"));
//! # Ok::<(), sampling_lab_core::SamplingError>(())
//! ```

use super::catalog::Render;
use crate::arguments::params::{EffectiveParams, Field, GenerateArgs};
use crate::arguments::pyvalue::PyValue;
use crate::columns::{hf, ColumnName, REGISTRY};
use crate::distribution::{compare, Distribution, EXACT_TOLERANCE};
use crate::inspection::Inspection;
use crate::text::{Lang, Message, Text};
use crate::SamplingError;
use serde::Serialize;

/// One request for one column, and how the column set up with it compares with hf here.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Request {
    /// The `generate()` call the column reads, as Python writes it.
    pub call: String,
    /// The arguments of that call, as JSON (what the page's arguments box takes).
    pub params: serde_json::Value,
    /// The request in the runtime's own form, to copy (none for a column without code).
    pub code: Option<String>,
    /// Total variation to hf's distribution at this step (1 when the runtime refuses it).
    pub tv: f64,
    /// The largest difference in one token's probability.
    pub max_abs_diff: f64,
    /// Whether it samples from hf's distribution here ([`EXACT_TOLERANCE`]).
    pub agrees: bool,
    /// The runtime's refusal of the request, word for word.
    pub error: Option<String>,
}

/// What ports the call to one column: the fixed request nearest to hf, and, when that does not
/// agree, the one that agrees at this step only.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct Port {
    /// The column (a registered one other than hf).
    pub column: ColumnName,
    /// The call's own values spelled out (or the nearest request made of them).
    pub fixed: Request,
    /// `top_k` = hf's kept count at the temperature, when the fixed request does not agree and
    /// this one does (where none agrees, the nearest fixed request is all there is to copy).
    pub this_step: Option<Request>,
    /// The verdict in a sentence, for the page and the command line.
    pub verdict: Text,
}

impl Port {
    /// Every column's port of the step's call, in the registry's order (hf's own excluded), the
    /// verdicts in `lang`. Fails with transformers' refusal when transformers refuses the call:
    /// nothing to port.
    pub fn all(step: &Inspection, lang: Lang) -> Result<Vec<Port>, SamplingError> {
        let config = step.generation_config.as_ref();
        let target = hf::COLUMN
            .set_up(&step.args, config)
            .distribution(&step.logits, &step.context_ids)?;
        let effective = EffectiveParams::resolve(&step.args, config);
        let fixed = fixed_calls(&step.args, &effective);
        let this_step = this_step_calls(&step.args, &effective, &target);
        Ok(REGISTRY
            .iter()
            .filter(|c| c.name != hf::NAME)
            .map(|column| {
                // The code is written only for the request kept: a candle port's is a whole program.
                let attempt = |args: &GenerateArgs| {
                    let engine = column.set_up(args, config);
                    let (tv, max_abs_diff, agrees, error) = match engine.distribution(&step.logits, &step.context_ids) {
                        Ok(d) => {
                            let c = compare(&target, &d);
                            (c.tv, c.max_abs_diff, c.agrees_within(EXACT_TOLERANCE), None)
                        }
                        Err(e) => (1.0, 1.0, false, Some(e.to_string())),
                    };
                    Request {
                        call: args.python_call(),
                        params: args.to_json(),
                        code: None,
                        tv,
                        max_abs_diff,
                        agrees,
                        error,
                    }
                };
                let with_code = |mut request: Request, args: &GenerateArgs| {
                    request.code = column.set_up(args, config).code();
                    request
                };
                let (fixed, args) =
                    best(fixed.iter().map(|a| (attempt(a), a))).expect("the call's own values are always tried");
                let fixed = with_code(fixed, args);
                let this_step = if fixed.agrees {
                    None
                } else {
                    best(this_step.iter().map(|a| (attempt(a), a)))
                        .filter(|(r, _)| r.agrees)
                        .map(|(r, a)| with_code(r, a))
                };
                let verdict = verdict(column.name, &fixed, this_step.is_some()).in_lang(lang);
                Port {
                    column: column.name,
                    fixed,
                    this_step,
                    verdict,
                }
            })
            .collect())
    }
}

/// The filters a fixed request may leave out to come nearer hf.
const FILTERS: [Field; 4] = [Field::TopK, Field::TopP, Field::MinP, Field::TypicalP];

/// The call's values spelled out; then with `min_p=0.0` added (llama.cpp's default is 0.05,
/// transformers has none); then the same with each subset of its active filters off.
fn fixed_calls(args: &GenerateArgs, effective: &EffectiveParams) -> Vec<GenerateArgs> {
    let sampling = effective.get(Field::DoSample).truthy();
    let mut spelled = args.clone();
    spelled.set(Field::DoSample, PyValue::Bool(sampling));
    if !sampling {
        return vec![spelled];
    }
    for field in [Field::Temperature, Field::TopK, Field::TopP] {
        spelled.set(field, effective.get(field));
    }
    let mut calls = vec![spelled.clone()];
    if effective.get(Field::MinP).is_none() {
        spelled.set(Field::MinP, PyValue::Float(0.0));
        calls.push(spelled.clone());
    }
    let active: Vec<Field> = FILTERS
        .into_iter()
        .filter(|f| {
            let value = spelled.get(*f).unwrap_or(PyValue::None);
            match (f, value.number()) {
                (_, None) => false,
                (Field::TopK, Some(k)) => k > 0.0,
                (Field::TopP | Field::TypicalP, Some(p)) => p < 1.0,
                (_, Some(p)) => p > 0.0,
            }
        })
        .collect();
    calls.extend((1..1u32 << active.len()).map(|off| {
        let mut call = spelled.clone();
        for (i, field) in active.iter().enumerate() {
            if off & (1 << i) != 0 {
                call.set(*field, off_value(*field));
            }
        }
        call
    }));
    calls
}

/// The value that turns a filter off in every runtime that has it.
fn off_value(field: Field) -> PyValue {
    match field {
        Field::TopK => PyValue::Int(0),
        Field::MinP => PyValue::Float(0.0),
        _ => PyValue::Float(1.0),
    }
}

/// The temperature and `top_k` = what hf keeps here; then with `top_p=1.0, min_p=0.0` too, for
/// the servers whose defaults filter (llama.cpp, Ollama). None when hf decodes greedily (the
/// fixed request already says temperature 0).
fn this_step_calls(args: &GenerateArgs, effective: &EffectiveParams, target: &Distribution) -> Vec<GenerateArgs> {
    if !effective.get(Field::DoSample).truthy() {
        return Vec::new();
    }
    let mut call = GenerateArgs::default();
    call.set(Field::DoSample, PyValue::Bool(true));
    call.set(Field::Temperature, effective.get(Field::Temperature));
    call.set(Field::TopK, PyValue::Int(target.kept() as i64));
    for field in [Field::RepetitionPenalty, Field::NoRepeatNgramSize] {
        if let Some(v) = args.get(field) {
            call.set(field, v);
        }
    }
    let mut off = call.clone();
    off.set(Field::TopP, PyValue::Float(1.0));
    off.set(Field::MinP, PyValue::Float(0.0));
    vec![call, off]
}

/// The first request that agrees, else the nearest (the first of equals), with its call.
fn best<'a>(tried: impl Iterator<Item = (Request, &'a GenerateArgs)>) -> Option<(Request, &'a GenerateArgs)> {
    let mut nearest: Option<(Request, &GenerateArgs)> = None;
    for (request, args) in tried {
        if request.agrees {
            return Some((request, args));
        }
        if nearest.as_ref().is_none_or(|(n, _)| request.tv < n.tv) {
            nearest = Some((request, args));
        }
    }
    nearest
}

fn verdict(runtime: ColumnName, fixed: &Request, agrees_at_this_step: bool) -> Message {
    if fixed.agrees {
        return Message::new("port-agrees").arg("runtime", runtime);
    }
    let id = match (&fixed.error, agrees_at_this_step) {
        (Some(_), true) => "port-refused-this-step",
        (Some(_), false) => "port-refused-none",
        (None, true) => "port-apart-this-step",
        (None, false) => "port-apart-none",
    };
    let message = Message::new(id).arg("runtime", runtime).number("tv", fixed.tv);
    match &fixed.error {
        Some(e) => message.verbatim("error", e.clone()),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ports(kwargs: &str) -> Vec<Port> {
        let logits: Vec<f32> = (0..200).map(|i| ((i * 37 % 101) as f32) / 9.0).collect();
        let step = Inspection::new(logits, GenerateArgs::from_json_str(kwargs).unwrap(), None, Vec::new()).unwrap();
        Port::all(&step, Lang::En).unwrap()
    }

    fn port<'a>(ports: &'a [Port], name: &str) -> &'a Port {
        ports.iter().find(|p| p.column.name() == name).unwrap()
    }

    #[test]
    fn the_corrected_port_and_vllm_agree_with_the_call_s_own_values() {
        let all = ports(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#);
        for name in ["corrected", "vllm"] {
            let p = port(&all, name);
            assert!(p.fixed.agrees, "{name}: {}", p.verdict);
            assert!(p.this_step.is_none());
        }
    }

    #[test]
    fn runtimes_that_filter_before_the_temperature_agree_only_at_this_step() {
        let all = ports(r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9}"#);
        for name in ["mlx_lm", "llama_cpp", "ollama"] {
            let p = port(&all, name);
            assert!(!p.fixed.agrees, "{name}");
            assert!(p.fixed.tv > 0.0);
            let step = p.this_step.as_ref().unwrap();
            assert!(step.agrees, "{name}: {}", step.call);
            assert_eq!(p.verdict.message.id(), "port-apart-this-step", "{}", p.verdict);
        }
    }

    #[test]
    fn the_implicit_top_k_is_spelled_out_so_a_server_s_default_never_acts() {
        let all = ports(r#"{"do_sample": true}"#);
        let vllm = port(&all, "vllm");
        assert!(vllm.fixed.agrees);
        assert!(vllm.fixed.call.contains("top_k=50"), "{}", vllm.fixed.call);
    }

    #[test]
    fn dflash_has_only_a_temperature_so_nothing_agrees_when_hf_truncates() {
        let all = ports(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#);
        let p = port(&all, "dflash");
        assert!(!p.fixed.agrees && p.fixed.tv > 0.0);
        // No "at this step only" request to copy: it would repeat the nearest one's code.
        assert!(p.this_step.is_none());
        assert_eq!(p.verdict.message.id(), "port-apart-none", "{}", p.verdict);
    }

    #[test]
    fn greedy_ports_as_temperature_zero_everywhere() {
        let all = ports("{}");
        for p in &all {
            assert!(p.fixed.agrees, "{}: {}", p.column, p.verdict);
        }
    }

    #[test]
    fn a_call_transformers_refuses_has_nothing_to_port() {
        let logits = vec![1.0, 0.0];
        let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_p": -0.5}"#).unwrap();
        assert!(Port::all(&Inspection::new(logits, args, None, Vec::new()).unwrap(), Lang::En).is_err());
    }
}
