use super::*;
use crate::columns::{corrected, literal, vllm};
use crate::{GenerateArgs, Render};

/// temperature 0.7 alone: transformers adds top_k=50, so a literal port over 80 tokens draws
/// outside transformers' support at every step, by an amount that depends on the logits.
fn answer_over(rows: &[Vec<f32>], tokens: &[u32]) -> Answer {
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7}"#).unwrap();
    let mut answer = Answer::default();
    for (logits, token) in rows.iter().zip(tokens) {
        answer.push_step(
            &Inspection::new(logits.clone(), args.clone(), None, vec![]).unwrap(),
            *token,
        );
    }
    answer
}

fn row(slope: f32) -> Vec<f32> {
    (0..80).map(|i| -(i as f32) * slope).collect()
}

#[test]
fn every_step_holds_the_figures_of_its_own_report() {
    let rows = [row(0.01), row(0.2), row(0.05)];
    let answer = answer_over(&rows, &[0, 60, 7]);
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7}"#).unwrap();
    for (step, logits) in answer.steps().iter().zip(&rows) {
        let analysis = Analysis::run(&Inspection::new(logits.clone(), args.clone(), None, vec![]).unwrap());
        let report = analysis.report(Lang::En, &[]);
        for (name, figures) in &step.columns {
            assert_eq!(figures.kept, report.entry(*name).kept, "{name}");
            let p = report
                .entry(*name)
                .support
                .iter()
                .find(|(id, _)| *id == step.token)
                .map_or(0.0, |s| s.1);
            assert_eq!(figures.p_token.map(f64::to_bits), Some(p.to_bits()), "{name}");
            match report.compare(*name) {
                Some(c) => {
                    assert_eq!(figures.tv.map(f64::to_bits), Some(c.tv.to_bits()), "{name}");
                    assert_eq!(
                        figures.mass_outside_hf.map(f64::to_bits),
                        Some(c.mass_outside_hf.to_bits()),
                        "{name}"
                    );
                }
                // hf against itself.
                None => assert_eq!((figures.tv, figures.mass_outside_hf), (Some(0.0), Some(0.0)), "{name}"),
            }
        }
        assert_eq!(step.hf_entropy, report.entry(hf::NAME).entropy);
    }
}

#[test]
fn the_summary_is_the_sum_and_the_product_of_the_masses_outside() {
    let answer = answer_over(&[row(0.01), row(0.3), row(0.05)], &[0, 1, 2]);
    let masses: Vec<f64> = answer
        .steps()
        .iter()
        .map(|s| s.figures(literal::NAME).mass_outside_hf.unwrap())
        .collect();
    // The steep row leaves little past the 50th token; the flat ones a lot.
    assert!(masses[1] < VISIBLE_OUTSIDE && masses[0] > VISIBLE_OUTSIDE, "{masses:?}");
    let summary = answer.summary(literal::NAME);
    assert_eq!(summary.expected_outside, Some(masses[0] + masses[1] + masses[2]));
    assert_eq!(
        summary.p_never_outside,
        Some((1.0 - masses[0]) * (1.0 - masses[1]) * (1.0 - masses[2]))
    );
    assert_eq!(summary.first_over_1pct, Some(0));
    let corrected = answer.summary(corrected::NAME);
    assert_eq!(
        (corrected.expected_outside, corrected.p_never_outside),
        (Some(0.0), Some(1.0))
    );
    assert_eq!(corrected.first_over_1pct, None);
}

#[test]
fn a_first_step_over_one_percent_is_found_after_quiet_ones() {
    let answer = answer_over(&[row(0.3), row(0.3), row(0.01)], &[0, 0, 0]);
    assert_eq!(answer.summary(literal::NAME).first_over_1pct, Some(2));
}

#[test]
fn a_refusing_column_has_no_sums_and_says_where() {
    // Sampling at temperature 0: transformers refuses it, so no column has anything to compare with.
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.0}"#).unwrap();
    let mut answer = Answer::default();
    answer.push_step(&Inspection::new(row(0.01), args, None, vec![]).unwrap(), 3);
    let summary = answer.summary(literal::NAME);
    assert_eq!(summary.refused_at, Some(0));
    assert_eq!(summary.expected_outside, None);
    let sentences = answer.sentences(&[]);
    assert_eq!(sentences.len(), 1);
    assert_eq!(sentences[0].id(), "answer-hf-refuses");
}

#[test]
fn the_sentences_lead_then_name_each_departing_column_and_group_the_rest() {
    let answer = answer_over(&[row(0.01), row(0.02)], &[0, 1]);
    let sentences = answer.sentences(&[literal::NAME, corrected::NAME]);
    assert_eq!(sentences[0].id(), "answer-lead");
    assert_eq!(sentences[1].id(), "answer-column-outside-first");
    assert_eq!(sentences[1].get("column"), Some(&crate::text::Arg::Column("literal")));
    let never = sentences.last().unwrap();
    assert_eq!(never.id(), "answer-columns-never");
    let text = never.render(Lang::En);
    assert!(text.starts_with("the corrected candle port, "), "{text}");
    // vLLM's server has no implicit top_k either: a clause of its own.
    assert!(sentences
        .iter()
        .any(|s| s.get("column") == Some(&crate::text::Arg::Column(vllm::NAME.name()))));
    let english = sentences[1].render(Lang::En);
    assert!(english.contains("of 2 steps on average"), "{english}");
    assert!(english.contains("first at token 1"), "{english}");
    let chinese = sentences[1].render(Lang::ZhHans);
    assert!(chinese.contains("第 1 个 token"), "{chinese}");
}

#[test]
fn steps_read_back_from_json_are_the_same_bits() {
    let answer = answer_over(&[row(0.013), row(0.021), row(0.3)], &[5, 1, 70]);
    let text = serde_json::to_string(&answer.report(Lang::En, &[]).steps).unwrap();
    let read = Answer::from_json_str(&text).unwrap();
    assert_eq!(read, answer);
    assert_eq!(read.summaries(), answer.summaries());
}

#[test]
fn steps_naming_an_unknown_or_missing_column_are_refused_by_name() {
    let answer = answer_over(&[row(0.01)], &[0]);
    let mut value = serde_json::to_value(&answer.report(Lang::En, &[]).steps).unwrap();
    let figures = value[0]["columns"]["literal"].clone();
    value[0]["columns"]["nonesuch"] = figures;
    let err = Answer::from_json_str(&value.to_string()).unwrap_err().to_string();
    assert!(err.contains("no column is named `nonesuch`"), "{err}");
    value[0]["columns"].as_object_mut().unwrap().remove("nonesuch");
    value[0]["columns"].as_object_mut().unwrap().remove("vllm");
    let err = Answer::from_json_str(&value.to_string()).unwrap_err().to_string();
    assert!(err.contains("no figures for the column `vllm`"), "{err}");
}
