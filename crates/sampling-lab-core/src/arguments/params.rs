//! `generate()` sampling arguments and how transformers resolves them.
//!
//! Three states matter per argument: not passed (the model's `generation_config.json`, then the
//! global default fills it), passed as `None` (kept as None: `top_k=None` removes top-k), and a
//! value. transformers' priority is kwargs > generation_config.json > global defaults, where the
//! lower layers only fill fields that are still None.

use super::pyvalue::PyValue;
use crate::text::Message;
use crate::SamplingError;
use serde::Serialize;
use serde_json::{Map, Value};

/// A `generate()` argument sampling-lab models, in the order transformers' processors use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `do_sample`: whether the warpers run at all; off, `generate()` takes the argmax.
    DoSample,
    /// `temperature`: divides the scores before the truncations see them.
    Temperature,
    /// `top_k`: keeps the k highest scores, and every score tied with the k-th.
    TopK,
    /// `top_p`: keeps the most probable tokens until their mass reaches p.
    TopP,
    /// `min_p`: drops tokens below `min_p` times the top probability.
    MinP,
    /// `typical_p`: keeps the tokens whose surprise is closest to the entropy, until their mass
    /// reaches `typical_p`.
    TypicalP,
    /// `epsilon_cutoff`: drops tokens below a fixed probability.
    EpsilonCutoff,
    /// `eta_cutoff`: drops tokens below a cut that falls as the entropy rises.
    EtaCutoff,
    /// `repetition_penalty`: rescales the score of every token already in the context (a penalty
    /// above 1 lowers it).
    RepetitionPenalty,
    /// `no_repeat_ngram_size`: bans tokens that would repeat an n-gram of the context.
    NoRepeatNgramSize,
}

impl Field {
    /// Every field; the truncations in the order `_get_logits_processor` adds their warpers.
    pub const ALL: [Field; 10] = [
        Field::DoSample,
        Field::Temperature,
        Field::TopK,
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::EpsilonCutoff,
        Field::EtaCutoff,
        Field::RepetitionPenalty,
        Field::NoRepeatNgramSize,
    ];

    /// The keyword as Python spells it.
    pub fn name(self) -> &'static str {
        match self {
            Field::DoSample => "do_sample",
            Field::Temperature => "temperature",
            Field::TopK => "top_k",
            Field::TopP => "top_p",
            Field::MinP => "min_p",
            Field::TypicalP => "typical_p",
            Field::EpsilonCutoff => "epsilon_cutoff",
            Field::EtaCutoff => "eta_cutoff",
            Field::RepetitionPenalty => "repetition_penalty",
            Field::NoRepeatNgramSize => "no_repeat_ngram_size",
        }
    }

    /// The field a keyword names, if sampling-lab models it.
    fn from_name(name: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.name() == name)
    }

    /// `GenerationConfig._get_default_generation_params()`; min_p has no default.
    pub fn global_default(self) -> PyValue {
        match self {
            Field::DoSample => PyValue::Bool(false),
            Field::Temperature | Field::TopP | Field::TypicalP | Field::RepetitionPenalty => PyValue::Float(1.0),
            Field::TopK => PyValue::Int(50),
            Field::EpsilonCutoff | Field::EtaCutoff => PyValue::Float(0.0),
            Field::NoRepeatNgramSize => PyValue::Int(0),
            Field::MinP => PyValue::None,
        }
    }

    /// The value at which the warper is skipped, for transformers' "only used when sampling" notes.
    fn neutral(self) -> Option<f64> {
        match self {
            Field::Temperature | Field::TopP | Field::TypicalP => Some(1.0),
            Field::TopK => Some(50.0),
            Field::EpsilonCutoff | Field::EtaCutoff => Some(0.0),
            _ => None,
        }
    }

    /// Flags `GenerationConfig.validate` names when `do_sample` is off.
    const SAMPLING_ONLY: [Field; 7] = [
        Field::Temperature,
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::TopK,
        Field::EpsilonCutoff,
        Field::EtaCutoff,
    ];
}

fn supported_names() -> String {
    Field::ALL.map(Field::name).join(", ")
}

/// Keys a `generate()` call may carry that do not change the next-token distribution.
const ACCEPTED_EXTRA: [&str; 2] = ["max_new_tokens", "seed"];

/// Keyword arguments of one `generate()` call: a field absent from the map was not passed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerateArgs {
    passed: Vec<(Field, PyValue)>,
    /// The call's `seed`, if it has one. It does not change a step's distribution, only which
    /// token a seeded run draws from it ([`GenerateArgs::seed_or`] picks the seed a run uses).
    pub seed: Option<u64>,
    /// The call's `max_new_tokens`, if it has one: accepted so that a whole call reads without
    /// error, though it does not change a step's distribution.
    pub max_new_tokens: Option<usize>,
}

impl GenerateArgs {
    /// Parses the JSON of keyword arguments as a Python user writes them.
    pub fn from_json(value: &Value) -> Result<Self, SamplingError> {
        let map = value
            .as_object()
            .ok_or_else(|| SamplingError::invalid(Message::new("invalid-params-not-object")))?;
        let mut args = GenerateArgs::default();
        for (key, value) in map {
            if let Some(field) = Field::from_name(key) {
                args.passed.push((field, PyValue::from_json(key, value)?));
            } else if key == "seed" {
                args.seed = Some(
                    value
                        .as_u64()
                        .ok_or_else(|| SamplingError::invalid(Message::new("invalid-seed")))?,
                );
            } else if key == "max_new_tokens" {
                args.max_new_tokens = Some(
                    value
                        .as_u64()
                        .ok_or_else(|| SamplingError::invalid(Message::new("invalid-max-new-tokens")))?
                        as usize,
                );
            } else {
                return Err(SamplingError::invalid(
                    Message::new("invalid-argument-unknown")
                        .verbatim("key", key.as_str())
                        .verbatim(
                            "supported",
                            format!("{}, {}", supported_names(), ACCEPTED_EXTRA.join(", ")),
                        ),
                ));
            }
        }
        Ok(args)
    }

    /// [`GenerateArgs::from_json`] of JSON text, as the command line and the page receive it.
    ///
    /// A key left out was not passed (transformers fills it in); a `null` was passed as `None`
    /// (it switches the rule off); `2` is a Python int and `2.0` a float, which transformers'
    /// checks tell apart.
    ///
    /// ```
    /// use sampling_lab_core::{Field, GenerateArgs, PyValue};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": null, "temperature": 2}"#)?;
    /// assert_eq!(args.get(Field::TopK), Some(PyValue::None));
    /// assert_eq!(args.get(Field::Temperature), Some(PyValue::Int(2)));
    /// assert_eq!(args.get(Field::TopP), None); // not passed
    ///
    /// let err = GenerateArgs::from_json_str(r#"{"topk": 5}"#).unwrap_err();
    /// assert!(err.to_string().starts_with("unknown generate() argument `topk`"));
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn from_json_str(text: &str) -> Result<Self, SamplingError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| SamplingError::invalid(Message::json("invalid-params-json", &e)))?;
        Self::from_json(&value)
    }

    /// The seed a run uses: the caller's (a flag, an option), else the call's `seed`, else 0.
    pub fn seed_or(&self, caller: Option<u64>) -> u64 {
        caller.or(self.seed).unwrap_or(0)
    }

    /// `Some(value)` if passed (possibly `PyValue::None`), `None` if not passed.
    pub fn get(&self, field: Field) -> Option<PyValue> {
        self.passed.iter().find(|(f, _)| *f == field).map(|(_, v)| *v)
    }

    /// The arguments passed, in the order the call gave them.
    pub fn passed(&self) -> impl Iterator<Item = (Field, PyValue)> + '_ {
        self.passed.iter().copied()
    }

    /// The call as Python source, its arguments in the order given:
    /// `generate(do_sample=True, temperature=0.7, top_k=None)`.
    ///
    /// ```
    /// use sampling_lab_core::GenerateArgs;
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 1e-5, "top_k": null}"#)?;
    /// assert_eq!(args.python_call(), "generate(do_sample=True, temperature=1e-05, top_k=None)");
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn python_call(&self) -> String {
        let mut parts: Vec<String> = self
            .passed
            .iter()
            .map(|(f, v)| format!("{}={}", f.name(), v.repr()))
            .collect();
        if let Some(n) = self.max_new_tokens {
            parts.push(format!("max_new_tokens={n}"));
        }
        format!("generate({})", parts.join(", "))
    }

    /// Passes `field = value`, replacing an earlier value: for calls built in code rather than
    /// read from JSON.
    pub fn set(&mut self, field: Field, value: PyValue) {
        match self.passed.iter_mut().find(|(f, _)| *f == field) {
            Some(entry) => entry.1 = value,
            None => self.passed.push((field, value)),
        }
    }

    /// The arguments passed, as the JSON object [`GenerateArgs::from_json`] reads.
    pub fn to_json(&self) -> Value {
        Value::Object(
            self.passed
                .iter()
                .map(|(f, v)| (f.name().to_string(), v.to_json()))
                .collect(),
        )
    }
}

/// The sampling fields of a model's `generation_config.json`; other keys are ignored, and a
/// `null` is the same as an absent key, as in `GenerationConfig.from_dict`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerationConfig {
    values: Vec<(Field, PyValue)>,
}

impl GenerationConfig {
    /// Reads the sampling fields of a parsed `generation_config.json`, with the same value types
    /// as the call's arguments (an int stays an int).
    pub fn from_json(value: &Value) -> Result<Self, SamplingError> {
        let map = value
            .as_object()
            .ok_or_else(|| SamplingError::invalid(Message::new("invalid-generation-config-not-object")))?;
        let mut values = Vec::new();
        for field in Field::ALL {
            if let Some(v) = map.get(field.name()) {
                values.push((field, PyValue::from_json(field.name(), v)?));
            }
        }
        Ok(GenerationConfig { values })
    }

    /// [`GenerationConfig::from_json`] of the file's text.
    pub fn from_json_str(text: &str) -> Result<Self, SamplingError> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| SamplingError::invalid(Message::json("invalid-generation-config-json", &e)))?;
        Self::from_json(&value)
    }

    /// The fields as `generation_config.json` text; `from_json_str` reads it back unchanged.
    pub fn to_json_string(&self) -> String {
        let map: Map<String, Value> = self
            .values
            .iter()
            .map(|(f, v)| (f.name().to_string(), v.to_json()))
            .collect();
        Value::Object(map).to_string()
    }

    fn get(&self, field: Field) -> PyValue {
        self.value(field).unwrap_or(PyValue::None)
    }

    /// The field as the file has it: `Some(PyValue::None)` for an explicit `null`, which
    /// transformers reads as absent and a JavaScript `Object.assign` copies.
    pub fn value(&self, field: Field) -> Option<PyValue> {
        self.values.iter().find(|(f, _)| *f == field).map(|(_, v)| *v)
    }
}

/// Where an effective value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The call passed it (possibly as `None`).
    Passed,
    /// The model's `generation_config.json` filled it: a value a port that only copies the
    /// call's arguments never sees.
    GenerationConfig,
    /// transformers' global default filled it, such as the implicit `top_k=50`.
    Default,
}

/// The parameters `generate()` actually runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectiveParams {
    values: Vec<(Field, PyValue, Source)>,
}

impl EffectiveParams {
    /// transformers' `_prepare_generation_config`: the model config fills fields still None, then
    /// the global defaults do, then the kwargs overwrite (a passed None stays None).
    ///
    /// ```
    /// use sampling_lab_core::{EffectiveParams, Field, GenerateArgs, GenerationConfig, PyValue, Source};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_p": null}"#)?;
    /// let config = GenerationConfig::from_json_str(r#"{"temperature": 0.6, "top_p": 0.9}"#)?;
    /// let effective = EffectiveParams::resolve(&args, Some(&config));
    /// // Not passed: the model's file fills it, else transformers' default (the implicit top_k=50).
    /// assert_eq!(effective.get(Field::Temperature), PyValue::Float(0.6));
    /// assert_eq!(effective.source(Field::Temperature), Source::GenerationConfig);
    /// assert_eq!(effective.get(Field::TopK), PyValue::Int(50));
    /// assert_eq!(effective.source(Field::TopK), Source::Default);
    /// // Passed as None: it stays None, whatever the model's file says.
    /// assert_eq!(effective.get(Field::TopP), PyValue::None);
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn resolve(args: &GenerateArgs, config: Option<&GenerationConfig>) -> Self {
        let values = Field::ALL
            .into_iter()
            .map(|field| {
                if let Some(v) = args.get(field) {
                    return (field, v, Source::Passed);
                }
                let from_config = config.map_or(PyValue::None, |c| c.get(field));
                if !from_config.is_none() {
                    (field, from_config, Source::GenerationConfig)
                } else {
                    (field, field.global_default(), Source::Default)
                }
            })
            .collect();
        EffectiveParams { values }
    }

    /// The value `generate()` runs with (`PyValue::None`: the rule is off).
    pub fn get(&self, field: Field) -> PyValue {
        self.entry(field).1
    }

    /// Where [`EffectiveParams::get`]'s value came from: what tells a default that took effect
    /// from a value the caller chose.
    pub fn source(&self, field: Field) -> Source {
        self.entry(field).2
    }

    fn entry(&self, field: Field) -> &(Field, PyValue, Source) {
        // `resolve` gives every field a value.
        &self.values[Field::ALL.iter().position(|f| *f == field).expect("a modelled field")]
    }

    /// Every field's value by its Python name: the report's `effective_params`, in the form the
    /// fixtures record transformers' own.
    pub fn values_json(&self) -> Map<String, Value> {
        self.values
            .iter()
            .map(|(f, v, _)| (f.name().to_string(), v.to_json()))
            .collect()
    }

    /// Every field's [`Source`] by its Python name, for the report.
    pub(crate) fn sources_json(&self) -> Map<String, Value> {
        self.values
            .iter()
            .map(|(f, _, s)| {
                (
                    f.name().to_string(),
                    serde_json::to_value(s).expect("Source serializes"),
                )
            })
            .collect()
    }

    /// transformers' `GenerationConfig.validate` notes for flags greedy decoding ignores: they are
    /// logged, not raised.
    pub fn warnings(&self) -> Vec<String> {
        if self.get(Field::DoSample) == PyValue::Bool(true) {
            return Vec::new();
        }
        let ignored = |field: Field| {
            let v = self.get(field);
            let set = match field.neutral() {
                Some(n) => v.number().is_some_and(|x| x != n),
                None => !v.is_none(),
            };
            // `_should_warn`: an explicit do_sample=False silences flags the caller did not pass.
            let silenced = self.source(Field::DoSample) == Source::Passed && self.source(field) != Source::Passed;
            set && self.source(field) != Source::Default && !silenced
        };
        Field::SAMPLING_ONLY
            .into_iter()
            .filter(|field| ignored(*field))
            .map(|field| {
                let name = field.name();
                format!(
                    "`do_sample` is not set to `True`. However, `{name}` is set to `{}` -- this flag is only used in \
                     sample-based generation modes. You should set `do_sample=True` or unset `{name}`.",
                    self.get(field).repr()
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn resolve(kwargs: Value, config: Option<Value>) -> EffectiveParams {
        let args = GenerateArgs::from_json(&kwargs).unwrap();
        let config = config.map(|c| GenerationConfig::from_json(&c).unwrap());
        EffectiveParams::resolve(&args, config.as_ref())
    }

    #[test]
    fn absent_top_k_becomes_the_implicit_fifty() {
        let p = resolve(json!({"do_sample": true, "temperature": 0.7}), None);
        assert_eq!(p.get(Field::TopK), PyValue::Int(50));
        assert_eq!(p.source(Field::TopK), Source::Default);
    }

    #[test]
    fn top_k_passed_as_none_stays_none_even_over_a_model_config() {
        let p = resolve(json!({"top_k": null}), Some(json!({"top_k": 20})));
        assert_eq!(p.get(Field::TopK), PyValue::None);
        assert_eq!(p.source(Field::TopK), Source::Passed);
    }

    #[test]
    fn model_config_fills_what_kwargs_leave_out() {
        let p = resolve(
            json!({"temperature": 0.9}),
            Some(json!({"temperature": 0.6, "top_p": 0.95})),
        );
        assert_eq!(p.get(Field::Temperature), PyValue::Float(0.9));
        assert_eq!(
            (p.get(Field::TopP), p.source(Field::TopP)),
            (PyValue::Float(0.95), Source::GenerationConfig)
        );
    }

    #[test]
    fn unknown_arguments_are_refused_by_name() {
        let err = GenerateArgs::from_json(&json!({"topk": 5})).unwrap_err();
        assert!(err.to_string().contains("`topk`"), "{err}");
    }

    #[test]
    fn an_explicit_greedy_call_does_not_warn_about_the_model_configs_temperature() {
        let p = resolve(json!({"do_sample": false}), Some(json!({"temperature": 0.6})));
        assert!(p.warnings().is_empty());
    }

    #[test]
    fn greedy_with_a_temperature_warns_like_transformers() {
        let p = resolve(json!({"temperature": 0.7}), None);
        assert_eq!(p.warnings().len(), 1);
        assert!(p.warnings()[0].contains("`temperature` is set to `0.7`"));
    }

    #[test]
    fn a_generation_config_read_back_from_its_own_text_is_unchanged() {
        let config = GenerationConfig::from_json(
            &json!({"temperature": 0.2, "top_p": 0.9, "top_k": null, "do_sample": true, "max_length": 8192}),
        )
        .unwrap();
        assert_eq!(
            GenerationConfig::from_json_str(&config.to_json_string()).unwrap(),
            config
        );
    }
}
