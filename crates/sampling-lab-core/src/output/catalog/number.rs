//! Numbers as the page's `Intl.NumberFormat` writes them, so that a catalog's `NUMBER(…)` reads
//! the same from the core as from the page: fluent-bundle leaves formatting to its user, and its
//! own fallback prints every digit of an f64.
//!
//! Both catalogs' languages write numbers alike (`49,152`, `0.118`, `9.6%`), so one formatter
//! serves them. Options follow ECMA-402: at most 3 fraction digits unless told (0 for a percent),
//! significant digits over fraction digits when given, grouping unless `useGrouping: "false"`.

use fluent_bundle::types::FluentNumberStyle;
use fluent_bundle::FluentValue;

/// A `FluentValue::Number` as text; `None` (fluent's own formatting) for anything else.
pub(super) fn format_number<M>(value: &FluentValue, _memoizer: &M) -> Option<String> {
    let FluentValue::Number(number) = value else {
        return None;
    };
    let options = &number.options;
    let percent = options.style == FluentNumberStyle::Percent;
    let x = if percent { number.value * 100.0 } else { number.value };
    let digits = match options.maximum_significant_digits {
        Some(significant) => significant_digits(x, significant, options.minimum_significant_digits.unwrap_or(1)),
        None => {
            let min = options.minimum_fraction_digits.unwrap_or(0);
            let default_max = if percent { 0 } else { 3 };
            fraction_digits(x, min, options.maximum_fraction_digits.unwrap_or(default_max).max(min))
        }
    };
    let mut text = if options.use_grouping { grouped(&digits) } else { digits };
    if percent {
        text.push('%');
    }
    Some(text)
}

/// `x` rounded to `max` fraction digits, trailing zeros dropped down to `min`.
fn fraction_digits(x: f64, min: usize, max: usize) -> String {
    trim_zeros(format!("{x:.max$}"), min)
}

/// `x` rounded to `significant` digits (at least `min` shown).
fn significant_digits(x: f64, significant: usize, min: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return fraction_digits(x, min.saturating_sub(1), min.saturating_sub(1));
    }
    let shift = |x: f64| significant as i32 - 1 - x.abs().log10().floor() as i32;
    // Fewer significant digits than whole digits: round to tens, hundreds, … (1234 → 1,200).
    let x = match shift(x) {
        s if s < 0 => (x / 10f64.powi(-s)).round() * 10f64.powi(-s),
        _ => x,
    };
    let mut places = shift(x).max(0) as usize;
    let mut text = format!("{x:.places$}");
    // Rounding can carry into a new digit (9.96 → 10.0): count again on the rounded value.
    let rounded: f64 = text.parse().unwrap_or(x);
    if (shift(rounded).max(0) as usize) < places {
        places = shift(rounded).max(0) as usize;
        text = format!("{x:.places$}");
    }
    let min_places = (min as i32 - 1 - x.abs().log10().floor() as i32).max(0) as usize;
    trim_zeros(text, min_places.min(places))
}

fn trim_zeros(mut text: String, keep: usize) -> String {
    if let Some(point) = text.find('.') {
        while text.len() > point + 1 + keep && text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            text.pop();
        }
    }
    if text == "-0" {
        text = "0".into();
    }
    text
}

/// Thousands separated by commas: `49152` → `49,152`.
fn grouped(digits: &str) -> String {
    let (sign, rest) = digits.strip_prefix('-').map_or(("", digits), |r| ("-", r));
    let (whole, fraction) = rest.split_once('.').map_or((rest, None), |(w, f)| (w, Some(f)));
    let mut out = String::from(sign);
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_bundle::types::{FluentNumber, FluentNumberOptions};

    fn format(x: f64, options: FluentNumberOptions) -> String {
        format_number(&FluentValue::Number(FluentNumber::new(x, options)), &()).unwrap()
    }

    #[test]
    fn plain_numbers_read_as_intl_writes_them() {
        let plain = FluentNumberOptions::default();
        assert_eq!(format(49152.0, plain.clone()), "49,152");
        assert_eq!(format(0.11849, plain.clone()), "0.118");
        assert_eq!(format(40.0, plain.clone()), "40");
        assert_eq!(format(-0.0001, plain), "0");
    }

    #[test]
    fn fraction_and_significant_digits_follow_their_options() {
        let fixed = FluentNumberOptions {
            minimum_fraction_digits: Some(4),
            maximum_fraction_digits: Some(4),
            ..Default::default()
        };
        assert_eq!(format(0.2, fixed), "0.2000");
        let two = FluentNumberOptions {
            maximum_significant_digits: Some(2),
            ..Default::default()
        };
        assert_eq!(format(0.0962, two.clone()), "0.096");
        assert_eq!(format(9.96, two.clone()), "10");
        assert_eq!(format(1234.0, two), "1,200");
    }

    #[test]
    fn a_percent_is_a_hundredth_without_a_space() {
        let percent = FluentNumberOptions {
            style: FluentNumberStyle::Percent,
            maximum_significant_digits: Some(2),
            ..Default::default()
        };
        assert_eq!(format(0.096, percent.clone()), "9.6%");
        assert_eq!(format(0.0024, percent.clone()), "0.24%");
        assert_eq!(format(0.31, percent), "31%");
    }
}
