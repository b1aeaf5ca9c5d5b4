//! transformers' truncation rules, and the f32 helpers a candle `sample_f` closure calls.
//!
//! Its warpers (top-k, top-p, min-p, typical, ε, η) as [`Warper`], and its n-gram ban
//! ([`ban_ngrams`]). One file per rule holds all of it: the argument's check (transformers' condition
//! and `ValueError`, word for word), what it keeps as transformers evaluates it on normalised
//! probabilities (f64, with the decisions float noise could flip), and the dependency-free helper
//! the corrected port calls in candle's `sample_f` closure on f32 probabilities — the very source
//! the page offers to paste (`CandlePort::program` writes them out).
//!
//! Adding a rule: a file like `top_p.rs`, one line in the `warpers!` list below (in
//! `_get_logits_processor`'s order), and its argument in [`Field`] if it is a new one.

mod closure;
pub mod epsilon;
pub mod eta;
mod kept;
pub mod min_p;
mod ngram;
pub mod top_k;
pub mod top_p;
pub mod typical;

pub(crate) use closure::helpers_source;
pub(crate) use kept::Kept;
pub use ngram::ban_ngrams;

use crate::arguments::{float_repr, rust_f64, Field, PyValue};
use crate::SamplingError;
use serde::Serialize;

/// A rule's argument as transformers prints it and as Rust source writes it.
trait Argument: Copy {
    fn python(self) -> String;
    fn rust(self) -> String;
}

impl Argument for usize {
    fn python(self) -> String {
        self.to_string()
    }
    fn rust(self) -> String {
        self.to_string()
    }
}

impl Argument for f64 {
    fn python(self) -> String {
        float_repr(self)
    }
    fn rust(self) -> String {
        rust_f64(self)
    }
}

/// The [`Warper`] over the rules' modules (declared above, each a plain `mod`), in the order
/// transformers adds them.
macro_rules! warpers {
    ($($(#[$doc:meta])* $variant:ident($ty:ty) = $module:ident,)*) => {
        /// One of transformers' truncating warpers with its argument. In the report (the
        /// corrected port's `closure`) it reads `{"step": "top_k", "value": 40}`.
        #[derive(Clone, Copy, Debug, PartialEq, Serialize)]
        #[serde(tag = "step", content = "value", rename_all = "snake_case")]
        pub enum Warper {
            $($(#[$doc])* $variant($ty),)*
        }

        impl Warper {
            /// The warper `field = value` adds under `do_sample`, with the condition
            /// `_get_logits_processor` puts on it (`None`: no warper, also for every field that
            /// is not a truncation) and the `ValueError` its constructor raises, word for word.
            ///
            /// ```
            /// use sampling_lab_core::truncation::Warper;
            /// use sampling_lab_core::{Field, PyValue, SamplingError};
            ///
            /// assert_eq!(Warper::from_argument(Field::TopK, PyValue::Int(40)), Ok(Some(Warper::TopK(40))));
            /// assert_eq!(Warper::from_argument(Field::TopK, PyValue::Int(0)), Ok(None)); // 0: no top-k
            /// assert_eq!(
            ///     Warper::from_argument(Field::TopK, PyValue::Int(-1)),
            ///     Err(SamplingError::Refused("`top_k` has to be a strictly positive integer, but is -1".into()))
            /// );
            /// ```
            pub fn from_argument(field: Field, value: PyValue) -> Result<Option<Warper>, SamplingError> {
                $(if field == $module::FIELD {
                    return Ok($module::from_argument(value)?.map(Warper::$variant));
                })*
                Ok(None)
            }

            /// transformers' class for this warper.
            pub fn class_name(&self) -> &'static str {
                match self { $(Warper::$variant(_) => $module::CLASS,)* }
            }

            /// The `generate()` argument it comes from.
            pub fn field(&self) -> Field {
                match self { $(Warper::$variant(_) => $module::FIELD,)* }
            }

            /// The argument as transformers prints it.
            pub fn argument(&self) -> String {
                match *self { $(Warper::$variant(x) => x.python(),)* }
            }

            /// What it keeps of normalised probabilities, as transformers evaluates it.
            pub(crate) fn keep(&self, probs: &[f64]) -> Kept {
                match *self { $(Warper::$variant(x) => $module::keep(probs, x),)* }
            }

            /// Its helper applied to candle's probabilities (one step of the `sample_f` closure).
            pub fn apply(&self, prs: &mut [f32]) {
                match *self { $(Warper::$variant(x) => $module::apply(prs, x),)* }
            }

            /// The helper's call as it reads in the closure's Rust code.
            pub(crate) fn rust_call(&self) -> String {
                match *self { $(Warper::$variant(x) => format!("{}(prs, {})", $module::HELPER, x.rust()),)* }
            }
        }
    };
}

warpers! {
    /// `TopKLogitsWarper(top_k)`: keeps every token at least as probable as the k-th.
    TopK(usize) = top_k,
    /// `TopPLogitsWarper(top_p)`: keeps tokens while the mass ranked above them is below p.
    TopP(f64) = top_p,
    /// `MinPLogitsWarper(min_p)`: drops tokens below `min_p` times the top probability.
    MinP(f64) = min_p,
    /// `TypicalLogitsWarper(typical_p)`: keeps the most typical tokens until their mass reaches
    /// `typical_p`.
    Typical(f64) = typical,
    /// `EpsilonLogitsWarper(epsilon_cutoff)`: drops tokens below ε, never the top one.
    Epsilon(f64) = epsilon,
    /// `EtaLogitsWarper(eta_cutoff)`: drops tokens below `min(η, √η·e^(−H))`, never the top one.
    Eta(f64) = eta,
}

/// Applies the warpers in order to `prs` (which sums to 1), renormalising after each: the body of
/// the corrected port's `sample_f` closure.
pub fn apply_all(warpers: &[Warper], prs: &mut [f32]) {
    for warper in warpers {
        warper.apply(prs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_argument_adds_no_warper_where_transformers_compares_it_and_raises_where_it_validates() {
        let nan = PyValue::Float(f64::NAN);
        assert_eq!(Warper::from_argument(Field::TopP, nan), Ok(None));
        assert_eq!(Warper::from_argument(Field::TypicalP, nan), Ok(None));
        assert_eq!(Warper::from_argument(Field::EpsilonCutoff, nan), Ok(None));
        for field in [Field::TopK, Field::MinP] {
            assert!(
                matches!(Warper::from_argument(field, nan), Err(SamplingError::Refused(_))),
                "{field:?}"
            );
        }
    }

    #[test]
    fn top_p_after_top_k_measures_the_renormalised_mass() {
        // Top-2 renormalised is [0.625, 0.375]: the mass above the second token, 0.625, reaches
        // top_p = 0.6, so it goes (on the absolute mass, 0.5, it would stay).
        let mut prs = vec![0.5f32, 0.3, 0.1, 0.1];
        apply_all(&[Warper::TopK(2), Warper::TopP(0.6)], &mut prs);
        assert_eq!(prs, vec![1.0, 0.0, 0.0, 0.0]);
    }

    /// The f32 helper and the f64 rule keep the same tokens, away from float noise, for every
    /// rule: two homes of one definition that cannot drift apart.
    #[test]
    fn each_helper_keeps_what_its_rule_keeps() {
        let probs: Vec<f64> = {
            let raw: Vec<f64> = (0..64).map(|i| ((i * 37 % 64) as f64 / 9.0).exp()).collect();
            let total: f64 = raw.iter().sum();
            raw.iter().map(|p| p / total).collect()
        };
        let warpers = [
            Warper::TopK(7),
            Warper::TopP(0.8),
            Warper::MinP(0.05),
            Warper::Typical(0.7),
            Warper::Epsilon(0.002),
            Warper::Eta(0.01),
        ];
        for warper in warpers {
            let mut prs: Vec<f32> = probs.iter().map(|p| *p as f32).collect();
            warper.apply(&mut prs);
            let kept = warper.keep(&probs);
            assert!(
                kept.notes.is_empty(),
                "{warper:?} decides within float noise: {:?}",
                kept.notes
            );
            let helper: Vec<bool> = prs.iter().map(|p| *p > 0.0).collect();
            assert_eq!(helper, kept.mask, "{warper:?}");
            assert!(
                kept.mask.iter().any(|k| !k) && kept.mask.iter().any(|k| *k),
                "{warper:?} cuts somewhere"
            );
        }
    }

    #[test]
    fn the_pasted_helpers_hold_every_rules_helper_and_no_module_wiring() {
        let source = helpers_source();
        for name in [
            "top_k_keeping_ties",
            "top_p",
            "min_p",
            "typical",
            "epsilon_cutoff",
            "eta_cutoff",
            "ban_ngrams",
        ] {
            assert!(source.contains(&format!("pub fn {name}(")), "{name}");
        }
        assert!(!source.contains("use super") && !source.contains("crate::"), "{source}");
    }
}
