//! mlx-lm 0.32.2 on mlx 0.32.4 (PyPI, the CPU backend): what `make_sampler` and
//! `make_logits_processors` (`mlx_lm/sample_utils.py`) sample from when a port of a `generate()`
//! call passes them what it passes every runtime (`columns::port_request`; `temperature` is
//! called `temp`), checked live against mlx-lm's own code by `make test`
//! (`reference/runtimes/mlx_lm_oracle.py`, `tests/mlx_lm.rs`).
//!
//! - **Defaults** (`make_sampler`, `:13-22`): temp 0.0, so a call that passes no temperature
//!   decodes **greedily**, before any filter runs (and before any filter checks its value);
//!   top_p, min_p and top_k off. Only `eos_token_id` is read from `generation_config.json`.
//! - **Order**: the filters see log-probabilities at temperature 1 — top_p → min_p → top_k
//!   (exactly k) — and the temperature divides last, in the categorical draw.
//!   top_p 0 or ≥ 1 is skipped (transformers reads top_p=0 as top-1).
//! - **No checks up front**: a negative temperature samples the inverted distribution; min_p
//!   outside [0, 1] or a top_k that is not an integer below the vocabulary raise `ValueError` when
//!   the sampler first runs; a negative repetition penalty raises at once; the penalty covers the
//!   last 20 tokens.
//!
//! ```text
//! generate(do_sample=True, top_p=0.9)                  # mlx-lm: greedy (no temperature sent)
//! generate(do_sample=True, temperature=0.7, top_p=0.9) # mlx-lm: top_p 0.9 at T 1, then T 0.7
//! ```

use super::causes::{Cause, Rule};
use super::port_request::PortRequest;
use super::thresholds::{Behaviour, Threshold};
use super::{BlockDraws, Column, ColumnName, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::pyvalue::PyValue;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::{Field, GenerateArgs, SamplingError};
use rand::rngs::StdRng;
use rand::SeedableRng;
use request::Params;
use serde_json::{json, Map, Value};

mod causes;
mod request;
mod sampler;

/// mlx-lm's column.
pub const NAME: ColumnName = ColumnName::new("mlx_lm");

/// The mlx-lm release this column reproduces (on mlx 0.32.4).
pub const VERSION: &str = "0.32.2";

const REFUSED: Rule = Rule::new("mlx_lm_refused", NAME);
const ACCEPTS: Rule = Rule::new("mlx_lm_accepts", NAME);
/// No temperature passed: mlx-lm's default temp 0 decodes greedily where transformers samples.
pub(crate) const GREEDY_DEFAULT: Rule = Rule::new("mlx_lm_greedy_default", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("mlx_lm_no_do_sample", NAME);
/// mlx-lm filters at temperature 1 and applies the temperature last, where transformers divides
/// first.
pub(crate) const ORDER: Rule = Rule::new("mlx_lm_order", NAME);
const NO_TOP_K: Rule = Rule::new("mlx_lm_no_top_k", NAME);
const TOP_P_SKIPPED: Rule = Rule::new("mlx_lm_top_p_skipped", NAME);
const EXACTLY_K: Rule = Rule::new("mlx_lm_exactly_k", NAME);
const INVERTED: Rule = Rule::new("mlx_lm_inverted", NAME);
const PENALTY_WINDOW: Rule = Rule::new("mlx_lm_penalty_window", NAME);
const IGNORED: Rule = Rule::new("mlx_lm_ignored", NAME);
const ARITHMETIC: Rule = Rule::new("mlx_lm_arithmetic", NAME);

/// mlx-lm's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("mlx_lm"),
    name: NAME,
    code: Some("Python"),
    draws: true,
    from_call: |call| Box::new(MlxLm::new(call.args)),
    thresholds,
    rules: &[
        REFUSED,
        ACCEPTS,
        GREEDY_DEFAULT,
        NO_DO_SAMPLE,
        ORDER,
        NO_TOP_K,
        TOP_P_SKIPPED,
        EXACTLY_K,
        INVERTED,
        PENALTY_WINDOW,
        IGNORED,
        ARITHMETIC,
    ],
};

/// mlx-lm's sampler for the arguments a port of one call passes.
struct MlxLm {
    request: PortRequest,
    /// How each argument carried over, for the notes.
    carried: Vec<Message>,
    /// The sampler built, or what building it raises.
    params: Result<Params, SamplingError>,
}

impl MlxLm {
    fn new(args: &GenerateArgs) -> Self {
        let request = PortRequest::new(args, request::names());
        MlxLm {
            carried: request.notes(args, "mlx-lm"),
            params: request::params(&request),
            request,
        }
    }
}

impl Params {
    /// The processors and filters that act, in order, with their values.
    fn chain(&self) -> Vec<(&'static str, Value)> {
        let mut chain = Vec::new();
        if let Some(r) = self.repetition_penalty {
            chain.push((
                "repetition_penalty",
                json!({"penalty": r, "context_size": request::PENALTY_WINDOW}),
            ));
        }
        if self.is_greedy() {
            chain.push(("greedy_sampler", json!("mx.argmax")));
            return chain;
        }
        if self.top_p_applies() {
            chain.push(("apply_top_p", json!(self.top_p)));
        }
        if self.min_p_applies() {
            chain.push(("apply_min_p", self.min_p.to_json()));
        }
        if self.top_k_applies() {
            chain.push(("apply_top_k", self.top_k.to_json()));
        }
        chain.push(("categorical_sampling", json!(self.temp)));
        chain
    }
}

impl Engine for MlxLm {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self
            .params
            .as_ref()
            .map_err(Clone::clone)?
            .step(logits, context)?
            .distribution())
    }

    fn describe(&self) -> String {
        match &self.params {
            Ok(p) => super::port_request::describe_chain(p.chain()),
            Err(_) => "make_logits_processors raises".into(),
        }
    }

    fn notes(&self, step: &StepView) -> Vec<Message> {
        let mut notes = self.carried.clone();
        if let Ok(p) = &self.params {
            if p.temp_by_default {
                notes.push(Message::new("note-mlx_lm-greedy-default"));
            }
            if p.temp < 0.0 {
                notes.push(Message::new("note-mlx_lm-negative-temp"));
            }
            if let Ok(s) = p.step(&step.input.logits, &step.input.context_ids) {
                notes.extend(s.notes);
            }
        }
        notes
    }

    /// The version, the arguments a port passes in mlx-lm's names, the chain that acts and the
    /// arguments it has no parameter for.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let chain = self.params.as_ref().map(|p| p.chain()).unwrap_or_default();
        self.request.details(VERSION, chain)
    }

    /// The sampler (and the penalty's processor) as an mlx-lm user makes them.
    fn code(&self) -> Option<String> {
        let penalty = self.request.get(Field::RepetitionPenalty);
        let mut sampler = self.request.clone();
        sampler.sent.retain(|(_, field, _)| *field != Field::RepetitionPenalty);
        let imports = if penalty.is_some() {
            "make_logits_processors, make_sampler"
        } else {
            "make_sampler"
        };
        let mut code = format!(
            "from mlx_lm.sample_utils import {imports}\n\nsampler = make_sampler({})\n",
            sampler.python_kwargs()
        );
        if let Some(r) = penalty {
            code += &format!(
                "logits_processors = make_logits_processors(repetition_penalty={})\n",
                r.repr()
            );
        }
        code += &self.request.ignored_comment("mlx-lm", "#");
        Some(code)
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes::causes(self, step)
    }

    /// Each block of draws adds its own seeded Gumbel noise, as `mx.random.categorical` does.
    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        let step = self.params.as_ref().ok()?.step(logits, context).ok()?;
        let categorical = step.categorical();
        Some(Ok(Drawing {
            exact: step.distribution(),
            source: Box::new(BlockDraws::new(move |rng: &mut StdRng| categorical.draw(rng), seed)),
        }))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(Box::new(MlxSampler {
            params: self.params.clone()?,
            rng: StdRng::seed_from_u64(seed),
        }))
    }
}

/// A generation under mlx-lm: one seeded generator for the whole answer, as `mx.random.seed`.
struct MlxSampler {
    params: Params,
    rng: StdRng,
}

impl TokenSampler for MlxSampler {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self.params.step(logits, context)?.distribution())
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        Ok(self.params.step(logits, context)?.categorical().draw(&mut self.rng))
    }
}

/// `make_sampler(temp)`: exactly 0 is greedy; anything else is a categorical draw at that
/// temperature, a negative one inverting the order.
fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "mlx-lm make_sampler(temp)";
    let repr = temperature.repr();
    vec![if t == 0.0 {
        Threshold::new(system, Behaviour::Argmax, Message::new("threshold-mlx_lm-argmax"))
    } else if t < 0.0 {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-mlx_lm-inverted").verbatim("temperature", repr),
        )
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-mlx_lm-samples").verbatim("temperature", repr),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mlx(kwargs: &str) -> MlxLm {
        MlxLm::new(&GenerateArgs::from_json_str(kwargs).unwrap())
    }

    #[test]
    fn a_call_without_a_temperature_decodes_greedily() {
        let d = mlx(r#"{"do_sample": true, "top_p": 0.9}"#)
            .distribution(&[1.0, 4.0, 4.0], &[])
            .unwrap();
        assert_eq!(d.support(), [(1, 1.0)]);
    }

    #[test]
    fn the_filters_run_at_temperature_one_and_the_temperature_divides_last() {
        // p ≈ .64, .24, .09, .03: top_p 0.8 at T 1 keeps 2 (the mass above the second is .64);
        // transformers at T 3 would flatten them first and keep 3.
        let d = mlx(r#"{"temperature": 3.0, "top_p": 0.8}"#)
            .distribution(&[2.0, 1.0, 0.0, -1.0], &[])
            .unwrap();
        assert_eq!(d.kept(), 2);
    }

    #[test]
    fn top_p_zero_is_no_filter() {
        let d = mlx(r#"{"temperature": 1.0, "top_p": 0.0}"#)
            .distribution(&[2.0, 1.0, 0.0], &[])
            .unwrap();
        assert_eq!(d.kept(), 3);
    }

    #[test]
    fn a_negative_temperature_with_a_filter_draws_among_the_cut_tokens_alike() {
        let d = mlx(r#"{"temperature": -0.5, "top_k": 3}"#)
            .distribution(&[3.0, 2.0, 1.0, 1.0, 0.5, -1.0], &[])
            .unwrap();
        let ids: Vec<u32> = d.support().iter().map(|(i, _)| *i).collect();
        assert_eq!(ids, [3, 4, 5]);
    }

    #[test]
    fn the_gumbel_draws_converge_to_the_exact_distribution() {
        let m = mlx(r#"{"temperature": 0.8, "top_k": 3}"#);
        let logits = [1.0f32, 0.5, 0.0, -3.0];
        let drawing = m.draws(&logits, &[], 4).unwrap().unwrap();
        let mut draws = crate::output::monte_carlo::draws::ColumnDraws::new(drawing.source, 4, 0..30_000);
        draws.advance(usize::MAX).unwrap();
        let checked = crate::output::monte_carlo::draws::summarize(draws.counts(), &drawing.exact, None, 4);
        assert!(checked.consistent, "tv {} > {}", checked.tv_to_exact, checked.bound);
    }

    #[test]
    fn only_exactly_zero_is_greedy() {
        let row = |t| thresholds(PyValue::Float(t), &[]).remove(0).behaviour;
        assert_eq!((row(0.0), row(1e-8)), (Behaviour::Argmax, Behaviour::Sample));
    }
}
