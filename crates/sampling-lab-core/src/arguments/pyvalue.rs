//! Python scalars as transformers receives them.
//!
//! transformers' checks look at Python types (`temperature=2` fails where `2.0` passes) and its
//! messages print Python reprs (`1e-07`, `2.0`, `None`), so the values keep both. Numbers as
//! Rust source writes them (`0.7`, `1.0`) are here too, for the ports' code.

use crate::text::Message;
use crate::SamplingError;
use serde_json::Value;

/// A keyword-argument value: `None`, a bool, an int or a float, as Python would hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PyValue {
    /// `None`: passed, but switching its rule off.
    None,
    /// `True` or `False`; Python counts it as an int too.
    Bool(bool),
    /// An int, which transformers refuses where it checks for a float (`temperature=2`).
    Int(i64),
    /// A float.
    Float(f64),
}

impl PyValue {
    /// JSON as Python's `json.loads` reads it: `2` is an int, `2.0` a float, `null` is None.
    pub fn from_json(key: &str, value: &Value) -> Result<Self, SamplingError> {
        match value {
            Value::Null => Ok(PyValue::None),
            Value::Bool(b) => Ok(PyValue::Bool(*b)),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Ok(PyValue::Int(i))
                } else if n.is_u64() {
                    Err(SamplingError::invalid(
                        Message::new("invalid-value-too-large")
                            .verbatim("key", key)
                            .verbatim("value", n.to_string()),
                    ))
                } else {
                    Ok(PyValue::Float(n.as_f64().unwrap_or(f64::NAN)))
                }
            }
            other => Err(SamplingError::invalid(
                Message::new("invalid-value-type")
                    .verbatim("key", key)
                    .verbatim("value", other.to_string()),
            )),
        }
    }

    /// The value as JSON (`None` as `null`, an int without a decimal point).
    pub(crate) fn to_json(self) -> Value {
        match self {
            PyValue::None => Value::Null,
            PyValue::Bool(b) => Value::Bool(b),
            PyValue::Int(i) => Value::from(i),
            PyValue::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }

    /// Whether it is Python's `None`.
    pub(crate) fn is_none(self) -> bool {
        matches!(self, PyValue::None)
    }

    /// Python's `isinstance(x, int)`: bools are ints too.
    pub fn is_int(self) -> bool {
        matches!(self, PyValue::Int(_) | PyValue::Bool(_))
    }

    /// Python's `isinstance(x, float)`.
    pub(crate) fn is_float(self) -> bool {
        matches!(self, PyValue::Float(_))
    }

    /// The numeric value Python compares with, or `None` for `None`.
    pub fn number(self) -> Option<f64> {
        match self {
            PyValue::None => None,
            PyValue::Bool(b) => Some(f64::from(u8::from(b))),
            PyValue::Int(i) => Some(i as f64),
            PyValue::Float(f) => Some(f),
        }
    }

    /// Python truthiness, as in `if generation_config.do_sample:`.
    pub fn truthy(self) -> bool {
        self.number().is_some_and(|x| x != 0.0)
    }

    /// `repr(x)`, which is what f-strings print for these types.
    pub fn repr(self) -> String {
        match self {
            PyValue::None => "None".into(),
            PyValue::Bool(true) => "True".into(),
            PyValue::Bool(false) => "False".into(),
            PyValue::Int(i) => i.to_string(),
            PyValue::Float(f) => float_repr(f),
        }
    }

    /// `repr(float(x))`, for the checks that convert before they format.
    pub(crate) fn float_repr(self) -> String {
        float_repr(self.number().unwrap_or(f64::NAN))
    }
}

/// An f64 literal as Rust source (always with a decimal point).
pub(crate) fn rust_f64(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains(['.', 'e', 'N', 'i']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// Python's `repr(float)`: the shortest round-trip digits, positional for exponents in [-4, 16),
/// scientific with a two-digit exponent otherwise.
pub fn float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sci = format!("{x:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` always has an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` exponent is an integer");
    if (-4..16).contains(&exp) {
        let plain = format!("{x}");
        if plain.contains('.') {
            plain
        } else {
            format!("{plain}.0")
        }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_repr_matches_python() {
        for (x, want) in [
            (0.7, "0.7"),
            (2.0, "2.0"),
            (-0.5, "-0.5"),
            (1e-7, "1e-07"),
            (3e-4, "0.0003"),
            (1e16, "1e+16"),
            (123456789.0, "123456789.0"),
            (1.5e-5, "1.5e-05"),
            (0.0, "0.0"),
        ] {
            assert_eq!(float_repr(x), want, "{x}");
        }
    }

    #[test]
    fn json_keeps_int_and_float_apart() {
        let int = PyValue::from_json("t", &serde_json::json!(2)).unwrap();
        let float = PyValue::from_json("t", &serde_json::json!(2.0)).unwrap();
        assert_eq!((int.repr(), float.repr()), ("2".to_string(), "2.0".to_string()));
        assert!(int.is_int() && float.is_float());
    }
}
