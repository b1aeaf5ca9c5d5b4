//! Which rule makes the literal port differ from transformers for one step, in plain words, so
//! that the page can say *why* next to *how much*.

use super::columns::{Columns, Inspection, EXACT_TOLERANCE};
use super::distribution::{Comparison, Distribution};
use super::hf::Processor;
use super::literal::REPEAT_LAST_N;
use super::params::{Field, Source};
use super::port::PenaltyWindow;
use super::steps::ProbStep;
use super::{SamplingError, Semantics};
use candle_transformers::generation::Sampling;
use serde::Serialize;

/// Every reason the page can name, with a stable `snake_case` name (exercise sets refer to it)
/// and the column it explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    ImplicitTopK,
    GenerationConfig,
    Ties,
    Dropped,
    PenaltyWindow,
    Refused,
    TopPSkipped,
    TopPNotRenormalised,
    DflashRefused,
    DflashRefusedByHf,
    DflashThreshold,
    DflashNoDoSample,
    DflashTemperatureOnly,
    TransformersJsRefused,
    TransformersJsAccepts,
    TransformersJsTopPIgnored,
    TransformersJsExactlyK,
    TransformersJsArithmetic,
}

impl Rule {
    pub const ALL: [Rule; 18] = [
        Rule::ImplicitTopK,
        Rule::GenerationConfig,
        Rule::Ties,
        Rule::Dropped,
        Rule::PenaltyWindow,
        Rule::Refused,
        Rule::TopPSkipped,
        Rule::TopPNotRenormalised,
        Rule::DflashRefused,
        Rule::DflashRefusedByHf,
        Rule::DflashThreshold,
        Rule::DflashNoDoSample,
        Rule::DflashTemperatureOnly,
        Rule::TransformersJsRefused,
        Rule::TransformersJsAccepts,
        Rule::TransformersJsTopPIgnored,
        Rule::TransformersJsExactlyK,
        Rule::TransformersJsArithmetic,
    ];

    /// The name the report and exercise sets use.
    pub fn name(self) -> &'static str {
        match self {
            Rule::ImplicitTopK => "implicit_top_k",
            Rule::GenerationConfig => "generation_config",
            Rule::Ties => "ties",
            Rule::Dropped => "dropped",
            Rule::PenaltyWindow => "penalty_window",
            Rule::Refused => "refused",
            Rule::TopPSkipped => "top_p_skipped",
            Rule::TopPNotRenormalised => "top_p_not_renormalised",
            Rule::DflashRefused => "dflash_refused",
            Rule::DflashRefusedByHf => "dflash_refused_by_hf",
            Rule::DflashThreshold => "dflash_threshold",
            Rule::DflashNoDoSample => "dflash_no_do_sample",
            Rule::DflashTemperatureOnly => "dflash_temperature_only",
            Rule::TransformersJsRefused => "transformers_js_refused",
            Rule::TransformersJsAccepts => "transformers_js_accepts",
            Rule::TransformersJsTopPIgnored => "transformers_js_top_p_ignored",
            Rule::TransformersJsExactlyK => "transformers_js_exactly_k",
            Rule::TransformersJsArithmetic => "transformers_js_arithmetic",
        }
    }

    /// The column whose difference from hf this rule explains.
    pub fn column(self) -> Semantics {
        let name = self.name();
        if name.starts_with("dflash_") {
            Semantics::Dflash
        } else if name.starts_with("transformers_js_") {
            Semantics::TransformersJs
        } else {
            Semantics::Literal
        }
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One reason for a difference: the column that departs from hf, its rule and a sentence for
/// readers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    pub column: Semantics,
    pub rule: Rule,
    pub text: String,
}

fn cause(rule: Rule, text: String) -> Cause {
    Cause {
        column: rule.column(),
        rule,
        text,
    }
}

/// Every column's causes: the literal port's, then DFlash's and transformers.js' where their
/// distribution departs from hf's.
pub fn causes(input: &Inspection, analysis: &Columns) -> Vec<Cause> {
    let mut out = literal_causes(input, analysis);
    out.extend(dflash::causes(analysis));
    out.extend(transformers_js::causes(analysis));
    out
}

/// The causes that make the literal port differ, most fundamental first; empty when it agrees.
pub fn literal_causes(input: &Inspection, analysis: &Columns) -> Vec<Cause> {
    let mut out = Vec::new();
    let (hf, outcome) = match &analysis.hf {
        Ok(pair) => pair,
        Err(message) => {
            out.push(refused(&message.to_string(), &analysis.literal.port.sampling));
            return out;
        }
    };
    let e = &analysis.effective;
    let sampling = &analysis.literal.port.sampling;
    let literal_has_k = matches!(sampling, Sampling::TopK { .. } | Sampling::TopKThenTopP { .. });
    let hf_k = hf.processors.iter().find_map(|p| match p {
        Processor::Truncate(ProbStep::TopK(k)) => Some(*k),
        _ => None,
    });
    if let (Some(k), false, true) = (hf_k, literal_has_k, hf.do_sample) {
        if e.source(Field::TopK) != Source::Passed {
            out.push(cause(Rule::ImplicitTopK, format!(
                "top_k was not passed, so transformers uses top_k={k} (from {}); the literal port has no top_k and keeps {} tokens.",
                source_name(e.source(Field::TopK)), kept(&analysis.literal_dist))));
        }
    }
    let from_gc: Vec<&str> = [
        Field::DoSample,
        Field::Temperature,
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::RepetitionPenalty,
    ]
    .into_iter()
    .filter(|f| e.source(*f) == Source::GenerationConfig)
    .map(Field::name)
    .collect();
    if !from_gc.is_empty() {
        out.push(cause(
            Rule::GenerationConfig,
            format!(
                "transformers takes {} from the model's generation_config.json; a candle port never reads that file.",
                from_gc.join(", ")
            ),
        ));
    }
    if let Sampling::TopKThenTopP { k, p, temperature } = sampling {
        out.push(top_k_then_top_p(input, *k, *p, *temperature, &outcome.distribution));
    }
    if let Some(k) = hf_k.filter(|_| literal_has_k) {
        if let Some(tied) = ties_at_k(&input.logits, k) {
            out.push(cause(Rule::Ties, format!(
                "{tied} tokens share the {k}-th highest score: transformers' top-k keeps every one of them ({}), candle keeps exactly {k}.",
                k - 1 + tied)));
        }
    }
    if !analysis.literal.dropped.is_empty() {
        out.push(cause(
            Rule::Dropped,
            format!(
                "candle has no counterpart for {}: the literal port drops it.",
                analysis.literal.dropped.join(", ")
            ),
        ));
    }
    if let Some((_, PenaltyWindow::Last(n))) = analysis.literal.port.penalty {
        if input.context_ids.len() > n {
            out.push(cause(Rule::PenaltyWindow, format!(
                "transformers' repetition penalty covers all {} tokens of the context; candle's examples pass only the last {REPEAT_LAST_N}.",
                input.context_ids.len())));
        }
    }
    out
}

fn refused(message: &str, sampling: &Sampling) -> Cause {
    let candle = match sampling {
        Sampling::ArgMax => "silently decodes greedily (Sampling::ArgMax)".to_string(),
        _ => format!("samples with {}", super::port::sampling_text(sampling)),
    };
    cause(
        Rule::Refused,
        format!("transformers refuses these arguments (“{message}”); the literal port {candle}."),
    )
}

fn top_k_then_top_p(input: &Inspection, k: usize, p: f64, temperature: f64, hf: &Distribution) -> Cause {
    let mass = top_k_mass(&input.logits, k, temperature);
    if mass < p {
        cause(Rule::TopPSkipped, format!(
            "the top {k} tokens hold {mass:.3} of the mass, less than top_p={p}: candle's TopKThenTopP then skips the nucleus and keeps all {k}; transformers renormalises the top {k} and cuts at {p} of that, keeping {}.",
            hf.kept()))
    } else {
        cause(Rule::TopPNotRenormalised, format!(
            "candle's TopKThenTopP measures top_p={p} against the whole mass; transformers renormalises the top {k} first and measures against that, keeping {}.",
            hf.kept()))
    }
}

/// The probability mass of the `k` highest logits under `temperature`.
fn top_k_mass(logits: &[f32], k: usize, temperature: f64) -> f64 {
    let scaled: Vec<f64> = logits.iter().map(|&l| f64::from(l) / temperature).collect();
    let max = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut weights: Vec<f64> = scaled.iter().map(|s| (s - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.sort_by(|a, b| b.total_cmp(a));
    weights.iter().take(k).sum::<f64>() / total
}

/// How many tokens tie with the k-th highest score when some of them fall past k.
fn ties_at_k(logits: &[f32], k: usize) -> Option<usize> {
    if k == 0 || k >= logits.len() {
        return None;
    }
    let mut sorted = logits.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let kth = sorted[k - 1];
    let tied = sorted.iter().filter(|&&s| s == kth).count();
    let above = sorted.iter().filter(|&&s| s > kth).count();
    (above + tied > k).then_some(tied)
}

fn kept(dist: &Result<Distribution, SamplingError>) -> String {
    dist.as_ref().map_or_else(|_| "no".into(), |d| d.kept().to_string())
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::GenerationConfig => "the model's generation_config.json",
        _ => "transformers' default",
    }
}

/// Whether a column's distribution is not hf's (or cannot be compared with it).
fn departs(comparison: Option<&Comparison>) -> bool {
    !comparison.is_some_and(|c| c.agrees_within(EXACT_TOLERANCE))
}

/// hf's warpers and processors as `name=value`, the ones another engine lacks marked by `lacks`.
fn hf_steps(analysis: &Columns, lacks: impl Fn(&Processor) -> bool) -> Vec<String> {
    let Ok((hf, _)) = &analysis.hf else { return Vec::new() };
    hf.processors
        .iter()
        .filter(|p| lacks(p))
        .map(|p| {
            let field = p.field();
            let implicit = if analysis.effective.source(field) == Source::Default {
                " (implicit)"
            } else {
                ""
            };
            format!("{}={}{implicit}", field.name(), analysis.effective.get(field).repr())
        })
        .collect()
}

mod dflash {
    use super::*;

    pub fn causes(analysis: &Columns) -> Vec<Cause> {
        let (dflash, dist) = match &analysis.dflash {
            Ok(column) => column,
            Err(e) => return vec![cause(Rule::DflashRefused, format!("DFlash's sample() cannot run: {e}"))],
        };
        if !departs(analysis.compare.dflash.as_ref()) {
            return Vec::new();
        }
        let t = analysis.effective.get(Field::Temperature).repr();
        let hf = match &analysis.hf {
            Ok((hf, _)) => hf,
            Err(message) => {
                let what = if dflash.is_greedy() {
                    "takes the argmax"
                } else {
                    "samples"
                };
                return vec![cause(Rule::DflashRefusedByHf, format!(
                    "transformers refuses these arguments (“{message}”); DFlash's sample() reads only the temperature and {what}."))];
            }
        };
        let mut out = Vec::new();
        if dflash.is_greedy() && hf.do_sample {
            out.push(cause(Rule::DflashThreshold, format!(
                "DFlash's temperature {} is below 1e-5, so sample() takes the argmax; transformers samples at temperature={t}.",
                super::super::pyvalue::float_repr(dflash.temperature))));
        } else if !dflash.is_greedy() && !hf.do_sample {
            out.push(cause(Rule::DflashNoDoSample, format!(
                "DFlash has no do_sample: at temperature {} it samples, where generate() without do_sample=True decodes greedily.",
                super::super::pyvalue::float_repr(dflash.temperature))));
        }
        let lacked = hf_steps(analysis, |p| !matches!(p, Processor::Temperature(_)));
        if !dflash.is_greedy() && hf.do_sample && !lacked.is_empty() {
            out.push(cause(Rule::DflashTemperatureOnly, format!(
                "DFlash's sample() is temperature alone: transformers also applies {}; DFlash keeps {} tokens, transformers {}.",
                lacked.join(", "), dist.kept(), analysis.hf_distribution().map_or(0, Distribution::kept))));
        }
        out
    }
}

mod transformers_js {
    use super::*;
    use crate::sampling::transformers_js::VERSION;

    pub fn causes(analysis: &Columns) -> Vec<Cause> {
        let (tjs, dist) = match &analysis.transformers_js {
            Ok(column) => column,
            Err(e) => {
                return vec![cause(
                    Rule::TransformersJsRefused,
                    format!("transformers.js {VERSION} throws: {e}"),
                )]
            }
        };
        if !departs(analysis.compare.transformers_js.as_ref()) {
            return Vec::new();
        }
        if let Err(message) = &analysis.hf {
            let what = if tjs.switched_to_greedy {
                "warns and decodes greedily"
            } else {
                "runs them"
            };
            return vec![cause(
                Rule::TransformersJsAccepts,
                format!("transformers refuses these arguments (“{message}”); transformers.js {VERSION} {what}."),
            )];
        }
        let mut out = Vec::new();
        if !tjs.ignored.is_empty() {
            out.push(cause(Rule::TransformersJsTopPIgnored, format!(
                "transformers.js {VERSION} never applies {}: its top-p and other warpers are commented out, so it keeps {} tokens where transformers keeps {}.",
                tjs.ignored.join(", "), dist.kept(), analysis.hf_distribution().map_or(0, Distribution::kept))));
        }
        if let Some(k) = tjs.top_k.filter(|_| tjs.do_sample) {
            let hf_kept = analysis.hf_distribution().map_or(0, Distribution::kept);
            if tjs.ignored.is_empty() && hf_kept > k {
                out.push(cause(Rule::TransformersJsExactlyK, format!(
                    "scores tie at the {k}-th place: transformers keeps all {hf_kept} tied tokens, transformers.js' ONNX TopK keeps exactly {k}, the lower ids first.")));
            }
        }
        if out.is_empty() {
            out.push(cause(Rule::TransformersJsArithmetic, format!(
                "transformers.js {VERSION} runs the same rules in JavaScript's arithmetic; the distributions differ by more than 1e-6.")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampling::GenerateArgs;

    fn rules_for(logits: Vec<f32>, kwargs: &str) -> Vec<&'static str> {
        let input = Inspection {
            logits,
            args: GenerateArgs::from_json_str(kwargs).unwrap(),
            ..Default::default()
        };
        literal_causes(&input, &Columns::compute(&input))
            .iter()
            .map(|c| c.rule.name())
            .collect()
    }

    fn spread(n: usize) -> Vec<f32> {
        (0..n).map(|i| -(i as f32) * 0.01).collect()
    }

    #[test]
    fn an_unpassed_top_k_is_named_as_implicit() {
        assert_eq!(
            rules_for(spread(100), r#"{"do_sample": true, "temperature": 0.7}"#),
            ["implicit_top_k"]
        );
    }

    #[test]
    fn top_k_then_top_p_names_the_skip_when_the_top_k_mass_is_below_p() {
        let rules = rules_for(spread(100), r#"{"do_sample": true, "top_k": 10, "top_p": 0.9}"#);
        assert_eq!(rules, ["top_p_skipped"]);
    }

    #[test]
    fn top_k_then_top_p_names_the_missing_renormalisation_otherwise() {
        let mut logits = vec![-20.0f32; 100];
        logits[..5].copy_from_slice(&[5.0, 4.0, 3.0, 2.0, 1.0]);
        let rules = rules_for(logits, r#"{"do_sample": true, "top_k": 3, "top_p": 0.5}"#);
        assert_eq!(rules, ["top_p_not_renormalised"]);
    }

    #[test]
    fn ties_at_the_k_th_score_are_named() {
        assert_eq!(
            rules_for(vec![3.0, 2.0, 2.0, 1.0], r#"{"do_sample": true, "top_k": 2}"#),
            ["ties"]
        );
    }

    #[test]
    fn refused_arguments_say_what_candle_does_instead() {
        assert_eq!(
            rules_for(spread(10), r#"{"do_sample": true, "temperature": 0.0}"#),
            ["refused"]
        );
    }

    #[test]
    fn agreeing_settings_have_no_cause() {
        assert!(rules_for(spread(100), r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#).is_empty());
    }
}
