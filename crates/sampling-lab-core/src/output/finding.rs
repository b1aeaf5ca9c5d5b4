//! The report's first sentence: for the comparison on screen — transformers against the columns
//! a reader chose, the literal and the corrected candle port unless told — what each does here,
//! with its numbers; with no columns chosen, the largest departure from transformers.

use super::analysis::{Analysis, Computed};
use crate::columns::{corrected, hf, literal, ColumnName};
use crate::distribution::EXACT_TOLERANCE;
use crate::text::{list, Message};

/// The comparison the page opens on: the literal candle port and the corrected one, against hf.
pub const DEFAULT_PAIR: [ColumnName; 2] = [literal::NAME, corrected::NAME];

/// How many columns one sentence compares with transformers.
pub(crate) const MOST_COMPARED: usize = 3;

impl Analysis {
    /// One sentence for the columns in `compared` (hf itself and columns past the third are left
    /// out): how many tokens transformers keeps here and, for each
    /// column, whether it samples the same, how often it draws a token transformers never picks,
    /// or how far apart it is. With no column to compare, the largest departure from
    /// transformers, or that every column agrees. When transformers refuses the call, which
    /// columns sample anyway.
    ///
    /// ```
    /// use sampling_lab_core::columns::{corrected, literal};
    /// use sampling_lab_core::{Analysis, GenerateArgs, Inspection, Lang, Render};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 2}"#)?;
    /// let analysis = Analysis::run(&Inspection::new(vec![3.0, 2.0, 2.0, 1.0], args, None, vec![])?);
    /// let finding = analysis.finding(&[literal::NAME, corrected::NAME]).render(Lang::En);
    /// assert!(finding.starts_with("transformers keeps 3 tokens here; "), "{finding}");
    /// assert!(finding.ends_with("the corrected candle port samples what transformers samples."), "{finding}");
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn finding(&self, compared: &[ColumnName]) -> Message {
        let Some(hf_distribution) = self.hf_distribution() else {
            return self.refused();
        };
        let greedy = self.hf.as_ref().is_ok_and(|(sampling, _)| !sampling.do_sample);
        let hf_clause = if greedy {
            Message::new("finding-hf-greedy")
        } else {
            Message::new("finding-hf-keeps").count("count", hf_distribution.kept())
        };
        let compared: Vec<&Computed> = compared
            .iter()
            .filter(|name| **name != hf::NAME)
            .take(MOST_COMPARED)
            .map(|name| self.get(*name))
            .collect();
        if compared.len() > 1 && compared.iter().all(|c| agrees(c)) {
            // One clause for them all, not the same clause once per column.
            let names = compared
                .iter()
                .map(|c| Message::new("finding-column-name").arg("column", c.name))
                .collect();
            return Message::new("finding-compare-agree")
                .arg("hf", hf_clause)
                .arg("columns", list(names))
                .verbatim("mode", if greedy { "greedy" } else { "sample" });
        }
        if !compared.is_empty() {
            let id = ["finding-compare-1", "finding-compare-2", "finding-compare-3"][compared.len() - 1];
            let clauses = ["first", "second", "third"];
            return compared
                .iter()
                .zip(clauses)
                .fold(Message::new(id).arg("hf", hf_clause), |message, (column, clause)| {
                    message.arg(clause, column_clause(column))
                });
        }
        let departing = self
            .computed
            .iter()
            .filter(|c| c.name != hf::NAME)
            .filter_map(|c| Some((c, c.compare.as_ref()?)))
            .filter(|(_, comparison)| !comparison.agrees_within(EXACT_TOLERANCE))
            .max_by(|a, b| a.1.tv.total_cmp(&b.1.tv).then(std::cmp::Ordering::Greater));
        match departing {
            Some((column, _)) => Message::new("finding-compare-1")
                .arg("hf", hf_clause)
                .arg("first", column_clause(column)),
            None => self.agreement(hf_distribution.kept()),
        }
    }

    /// transformers refuses the call: which columns sample anyway, and from how many tokens.
    fn refused(&self) -> Message {
        let sampling: Vec<Message> = self
            .computed
            .iter()
            .filter(|c| c.name != hf::NAME && c.name != corrected::NAME)
            .filter_map(|c| {
                let kept = c.distribution.as_ref().ok()?.kept();
                Some(
                    Message::new("finding-sampler")
                        .arg("column", c.name)
                        .count("count", kept),
                )
            })
            .collect();
        match sampling.len() {
            0 => Message::new("finding-refused-by-all"),
            n => Message::new("finding-refused-but")
                .arg("samplers", list(sampling))
                .count("count", n),
        }
    }

    /// Every column that can sample agrees with transformers (within [`EXACT_TOLERANCE`]).
    fn agreement(&self, kept: usize) -> Message {
        let refusing: Vec<Message> = self
            .computed
            .iter()
            .filter(|c| c.distribution.is_err())
            .map(|c| Message::new("finding-column-name").arg("column", c.name))
            .collect();
        match refusing.len() {
            0 => Message::new("finding-all-agree").count("count", kept),
            n => Message::new("finding-all-but-refusing-agree")
                .count("count", kept)
                .arg("refusing", list(refusing))
                .count("refusing_count", n),
        }
    }
}

/// Whether `column` samples what transformers samples (within [`EXACT_TOLERANCE`]).
fn agrees(column: &Computed) -> bool {
    column.distribution.is_ok()
        && column
            .compare
            .as_ref()
            .is_none_or(|comparison| comparison.agrees_within(EXACT_TOLERANCE))
}

/// What one column does here, against transformers.
fn column_clause(column: &Computed) -> Message {
    let Ok(distribution) = &column.distribution else {
        return Message::new("finding-column-refuses").arg("column", column.name);
    };
    let message = |id| {
        Message::new(id)
            .arg("column", column.name)
            .count("count", distribution.kept())
    };
    if agrees(column) {
        return message("finding-column-agrees");
    }
    let comparison = column.compare.as_ref().expect("a column that departs was compared");
    if comparison.mass_outside_hf >= 5e-4 {
        message("finding-column-outside").number("share", comparison.mass_outside_hf)
    } else if comparison.only_hf.count > comparison.vanishing {
        message("finding-column-never-draws")
            .count("never", comparison.only_hf.count)
            .number("tv", comparison.tv)
    } else {
        message("finding-column-other-probabilities").number("tv", comparison.tv)
    }
}

#[cfg(test)]
mod tests {
    use super::DEFAULT_PAIR;
    use crate::columns::dflash;
    use crate::output::catalog::Render;
    use crate::text::{Arg, Lang};
    use crate::{Analysis, GenerateArgs, Inspection};

    fn analysis(logits: Vec<f32>, kwargs: &str) -> Analysis {
        Analysis::run(&Inspection::new(logits, GenerateArgs::from_json_str(kwargs).unwrap(), None, vec![]).unwrap())
    }

    fn spread(n: usize) -> Vec<f32> {
        (0..n).map(|i| -(i as f32) * 0.05).collect()
    }

    #[test]
    fn columns_that_all_agree_share_one_clause_which_says_pick_when_greedy() {
        let greedy = analysis(spread(100), r#"{"do_sample": false}"#).finding(&DEFAULT_PAIR);
        assert_eq!(greedy.id(), "finding-compare-agree");
        assert_eq!(
            greedy.render(Lang::En),
            "transformers decodes greedily here (1 token); a literal candle port and the corrected \
             candle port pick the token transformers picks."
        );
        assert!(greedy
            .render(Lang::ZhHans)
            .ends_with("选的 token 都和 transformers 一样。"));
        let sampled = analysis(spread(100), r#"{"do_sample": true, "top_k": 5, "top_p": 1.0}"#).finding(&DEFAULT_PAIR);
        assert_eq!(sampled.id(), "finding-compare-agree", "{}", sampled.render(Lang::En));
        assert!(sampled.render(Lang::En).ends_with("sample what transformers samples."));
    }

    #[test]
    fn the_default_pair_says_what_the_literal_port_and_the_corrected_port_do_here() {
        // top_k 40, top_p 0.9 on a flat tail: the literal port measures top_p on the whole mass
        // and keeps more than transformers, which cuts the renormalised top 40; the corrected
        // port samples what transformers samples.
        let a = analysis(
            spread(400),
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        );
        let finding = a.finding(&DEFAULT_PAIR);
        assert_eq!(finding.id(), "finding-compare-2");
        let text = finding.render(Lang::En);
        assert!(text.starts_with("transformers keeps "), "{text}");
        assert!(
            text.contains("; a literal candle port keeps 33 tokens and draws "),
            "{text}"
        );
        assert!(
            text.ends_with("of the time from tokens transformers never picks; the corrected candle port samples what transformers samples."),
            "{text}"
        );
    }

    #[test]
    fn another_pair_gets_its_own_sentence() {
        let a = analysis(
            spread(400),
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        );
        let text = a.finding(&[dflash::NAME]).render(Lang::En);
        assert!(
            text.contains("; DFlash's sample() keeps 400 tokens and draws "),
            "{text}"
        );
    }

    #[test]
    fn without_a_pair_the_largest_departure_is_named() {
        let a = analysis(
            spread(400),
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        );
        let finding = a.finding(&[]);
        let Some(Arg::Message(first)) = finding.get("first") else {
            panic!("{finding:?}")
        };
        assert_eq!(first.get("column"), Some(&Arg::Column(dflash::NAME.name())));
    }

    #[test]
    fn a_column_that_only_drops_tokens_is_said_to_never_draw_them() {
        // llama.cpp's default top_k 40 keeps fewer than transformers' implicit 50; the 5 tokens
        // past the 50th have no drawable f32 probability, so every other column keeps the 50.
        let logits: Vec<f32> = (0..55)
            .map(|i| if i < 50 { -(i as f32) * 0.01 } else { -200.0 })
            .collect();
        let a = analysis(logits, r#"{"do_sample": true, "temperature": 1.0, "top_p": 1.0}"#);
        let text = a.finding(&[crate::columns::llama_cpp::NAME]).render(Lang::En);
        assert!(text.contains("never drawing"), "{text}");
    }

    #[test]
    fn agreement_is_said_when_no_column_departs() {
        // One token takes all the drawable mass: the others' probabilities vanish below f32's.
        let a = analysis(vec![200.0, 0.0, 0.0, 0.0], r#"{"do_sample": true}"#);
        assert_eq!(a.finding(&[]).id(), "finding-all-agree");
        assert!(a.finding(&[]).render(Lang::En).starts_with("Every column"));
    }

    #[test]
    fn a_refused_call_names_who_samples_anyway() {
        let a = analysis(spread(10), r#"{"do_sample": true, "temperature": 0.0}"#);
        let text = a.finding(&DEFAULT_PAIR).render(Lang::En);
        assert!(
            text.starts_with("transformers refuses these arguments, but a literal candle port (1 token), "),
            "{text}"
        );
    }

    #[test]
    fn shares_keep_two_significant_figures_in_both_languages() {
        let a = analysis(
            spread(400),
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        );
        let finding = a.finding(&[dflash::NAME]);
        for lang in Lang::ALL {
            let text = finding.render(lang);
            assert!(regex_like_percent(&text), "{lang}: {text}");
        }
    }

    /// A percentage with at most two significant digits and no space before the sign.
    fn regex_like_percent(text: &str) -> bool {
        let Some(end) = text.find('%') else { return false };
        let digits: String = text[..end]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let significant = digits.chars().filter(|c| c.is_ascii_digit()).collect::<String>();
        !digits.is_empty() && significant.trim_end_matches('0').len() <= 2
    }
}
