//! The report's first sentence: for the call on screen, the largest departure from transformers
//! in plain words, with its number — what a reader should take away before reading the figures.

use super::analysis::{Analysis, Computed};
use crate::columns::causes::count;
use crate::columns::{corrected, hf};
use crate::distribution::EXACT_TOLERANCE;

impl Analysis {
    /// One sentence: which column departs most from transformers here (the largest total
    /// variation), how many tokens each keeps, and how often the column draws a token
    /// transformers never picks; or that every column samples what transformers samples; or, when
    /// transformers refuses the call, which columns sample anyway.
    ///
    /// ```
    /// use sampling_lab_core::{Analysis, GenerateArgs, Inspection};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 2}"#)?;
    /// let analysis = Analysis::run(&Inspection::new(vec![3.0, 2.0, 2.0, 1.0], args, None, vec![])?);
    /// assert!(analysis.finding().starts_with("transformers keeps 3 tokens here; "), "{}", analysis.finding());
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn finding(&self) -> String {
        let others = self.computed.iter().filter(|c| c.name != hf::NAME);
        let Some(hf) = self.hf_distribution() else {
            let sampling: Vec<String> = others
                .filter(|c| c.name != corrected::NAME)
                .filter_map(|c| c.distribution.as_ref().ok().map(|d| (c, d)))
                .map(|(c, d)| format!("{} from {}", c.name.column().in_a_sentence, count(d.kept(), "token")))
                .collect();
            return match sampling.as_slice() {
                [] => "transformers refuses these arguments, and so does every other column.".into(),
                [one] => format!(
                    "transformers refuses these arguments; {} anyway.",
                    one.replacen(" from ", " samples from ", 1)
                ),
                [first, rest @ .., last] => {
                    let mut listed = vec![first.replacen(" from ", " still samples from ", 1)];
                    listed.extend(rest.iter().cloned());
                    format!(
                        "transformers refuses these arguments; {} and {last}.",
                        listed.join(", ")
                    )
                }
            };
        };
        let hf_kept = if self.hf.as_ref().is_ok_and(|(sampling, _)| !sampling.do_sample) {
            "decodes greedily here (1 token)".to_string()
        } else {
            format!("keeps {} here", count(hf.kept(), "token"))
        };
        let departing = others
            .filter_map(|c| Some((c, c.compare.as_ref()?)))
            .filter(|(_, comparison)| !comparison.agrees_within(EXACT_TOLERANCE))
            .max_by(|a, b| a.1.tv.total_cmp(&b.1.tv).then(std::cmp::Ordering::Greater));
        let Some((column, comparison)) = departing else {
            return self.agreement(hf.kept());
        };
        let who = column.name.column().in_a_sentence;
        let kept = kept_of(column);
        if comparison.mass_outside_hf >= 5e-4 {
            format!(
                "transformers {hf_kept}; {who} keeps {kept} and draws {} of the time from tokens transformers never picks.",
                percent(comparison.mass_outside_hf)
            )
        } else if comparison.only_hf.count > comparison.vanishing {
            format!(
                "transformers {hf_kept}; {who} keeps {kept}, never drawing {} transformers can draw (total variation {:.3}).",
                count(comparison.only_hf.count, "token"),
                comparison.tv
            )
        } else {
            format!(
                "transformers {hf_kept}; {who} keeps {kept} with other probabilities (total variation {:.3}).",
                comparison.tv
            )
        }
    }

    /// Every column that can sample agrees with transformers (within [`EXACT_TOLERANCE`]).
    fn agreement(&self, kept: usize) -> String {
        let refusing: Vec<&str> = self
            .computed
            .iter()
            .filter(|c| c.distribution.is_err())
            .map(|c| c.name.column().in_a_sentence)
            .collect();
        let tokens = count(kept, "token");
        match refusing.as_slice() {
            [] => format!("Every column samples what transformers samples here: the same {tokens}."),
            [one] => format!(
                "Every column but {one}, which refuses the call, samples what transformers samples here: {tokens}."
            ),
            many => format!(
                "Every column that accepts the call samples what transformers samples here ({tokens}); {} refuse it.",
                many.join(", ")
            ),
        }
    }
}

fn kept_of(column: &Computed) -> String {
    column
        .distribution
        .as_ref()
        .map_or_else(|_| "no token".into(), |d| count(d.kept(), "token"))
}

/// `9.6 %`, `0.24 %`, `31 %`: two significant figures, as a reader compares them.
fn percent(share: f64) -> String {
    let pct = share * 100.0;
    if pct >= 10.0 {
        format!("{pct:.0} %")
    } else if pct >= 1.0 {
        format!("{pct:.1} %")
    } else {
        format!("{pct:.2} %")
    }
}

#[cfg(test)]
mod tests {
    use crate::{Analysis, GenerateArgs, Inspection};

    fn finding(logits: Vec<f32>, kwargs: &str) -> String {
        Analysis::run(&Inspection::new(logits, GenerateArgs::from_json_str(kwargs).unwrap(), None, vec![]).unwrap())
            .finding()
    }

    fn spread(n: usize) -> Vec<f32> {
        (0..n).map(|i| -(i as f32) * 0.05).collect()
    }

    #[test]
    fn the_largest_departure_is_named_with_how_often_it_draws_outside_transformers() {
        // top_k 40, top_p 0.9 on a flat tail: the literal port skips its nucleus and keeps 40,
        // transformers cuts the renormalised top 40; DFlash keeps every token and departs most.
        let text = finding(
            spread(400),
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        );
        assert!(text.starts_with("transformers keeps "), "{text}");
        assert!(
            text.contains("; DFlash's sample() keeps 400 tokens and draws "),
            "{text}"
        );
        assert!(
            text.ends_with(" % of the time from tokens transformers never picks."),
            "{text}"
        );
    }

    #[test]
    fn a_column_that_only_drops_tokens_is_said_to_never_draw_them() {
        // llama.cpp's default top_k 40 keeps fewer than transformers' implicit 50; the 5 tokens
        // past the 50th have no drawable f32 probability, so every other column keeps the 50.
        let logits: Vec<f32> = (0..55)
            .map(|i| if i < 50 { -(i as f32) * 0.01 } else { -200.0 })
            .collect();
        let text = finding(logits, r#"{"do_sample": true, "temperature": 1.0, "top_p": 1.0}"#);
        assert!(text.contains("never drawing"), "{text}");
    }

    #[test]
    fn agreement_is_said_when_no_column_departs() {
        // One token takes all the drawable mass: the others' probabilities vanish below f32's.
        let text = finding(vec![200.0, 0.0, 0.0, 0.0], r#"{"do_sample": true}"#);
        assert!(text.starts_with("Every column"), "{text}");
    }

    #[test]
    fn a_refused_call_names_who_samples_anyway() {
        let text = finding(spread(10), r#"{"do_sample": true, "temperature": 0.0}"#);
        assert!(
            text.starts_with(
                "transformers refuses these arguments; a literal candle port still samples from 1 token, "
            ),
            "{text}"
        );
    }

    #[test]
    fn percentages_keep_two_significant_figures() {
        assert_eq!(
            [super::percent(0.096), super::percent(0.0024), super::percent(0.31)],
            ["9.6 %", "0.24 %", "31 %"]
        );
    }
}
