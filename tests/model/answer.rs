//! A whole answer under every column: each step's figures are the one-step report of that step's
//! context, inspected alone (the model run afresh over it), bit for bit; a branch, a way back and
//! an answer read again keep them so.

use super::*;
use sampling_lab::generation::{AnswerFigures, Decoding, Session};
use sampling_lab_core::columns::{corrected, hf, literal};
use sampling_lab_core::{Analysis, AnswerStep, GenerateArgs, Inspection, Lang};

/// The write-up's call: transformers keeps a few dozen tokens, a literal candle port many more.
const CALL: &str = r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#;

fn decoding(model: &Model) -> Decoding {
    Decoding::on(
        model,
        hf::NAME,
        GenerateArgs::from_json_str(CALL).unwrap(),
        None,
        Some(0),
    )
}

/// An answer of `n` tokens under hf with the figures of every step.
fn answered(n: usize) -> (Arc<Model>, Session, AnswerFigures, Decoding) {
    let model = model(Precision::Exact);
    let call = decoding(&model);
    let mut session = Session::start(model.clone(), reference_logits().0, call.sampler(0).unwrap(), n).unwrap();
    while session.step().unwrap().is_some() {}
    let mut figures = AnswerFigures::new(call.args.clone(), call.generation_config.clone());
    figures.follow(&session, 0).unwrap();
    (model, session, figures, call)
}

/// Step `index` of the answer inspected alone: the model run over its context from scratch, the
/// core's report of those logits, every figure compared bit for bit with the answer's.
fn assert_step_is_its_own_report(model: &Model, session: &Session, call: &Decoding, step: &AnswerStep, index: usize) {
    let context = [session.prompt(), &session.generated()[..index]].concat();
    let logits = model.next_logits(&context).unwrap();
    let inspection = Inspection::new(logits, call.args.clone(), call.generation_config.clone(), context).unwrap();
    let report = Analysis::run(&inspection).report(Lang::En, &[]);
    assert_eq!(step.token, session.generated()[index]);
    assert_eq!(
        step.hf_entropy.map(f64::to_bits),
        report.entry(hf::NAME).entropy.map(f64::to_bits)
    );
    for (name, figures) in &step.columns {
        let entry = report.entry(*name);
        assert_eq!(figures.kept, entry.kept, "step {index}, {name}");
        let p = entry
            .support
            .iter()
            .find(|(id, _)| *id == step.token)
            .map_or(0.0, |s| s.1);
        assert_eq!(
            figures.p_token.map(f64::to_bits),
            Some(p.to_bits()),
            "step {index}, {name}"
        );
        let (tv, outside) = report.compare(*name).map_or((0.0, 0.0), |c| (c.tv, c.mass_outside_hf));
        assert_eq!(figures.tv.map(f64::to_bits), Some(tv.to_bits()), "step {index}, {name}");
        assert_eq!(
            figures.mass_outside_hf.map(f64::to_bits),
            Some(outside.to_bits()),
            "step {index}, {name}"
        );
    }
}

/// Steps picked from `0..n` by a fixed xorshift, step 0 (the token after the chat) always first.
fn picked_steps(n: usize, count: usize) -> Vec<usize> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut picks = vec![0];
    while picks.len() < count.min(n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let step = (state % n as u64) as usize;
        if !picks.contains(&step) {
            picks.push(step);
        }
    }
    picks
}

#[test]
fn every_figure_of_an_answer_is_the_report_of_its_step_inspected_alone() {
    let (model, session, figures, call) = answered(20);
    let steps = figures.answer().steps();
    assert_eq!(steps.len(), session.steps());
    let picks = picked_steps(steps.len(), 4);
    eprintln!("steps inspected alone: {picks:?}");
    for index in picks {
        assert_step_is_its_own_report(&model, &session, &call, &steps[index], index);
    }
}

#[test]
fn transformers_and_the_corrected_port_never_draw_outside_transformers_support_along_an_answer() {
    let (_, _, figures, _) = answered(20);
    for step in figures.answer().steps() {
        assert_eq!(step.figures(hf::NAME).mass_outside_hf, Some(0.0));
        assert_eq!(step.figures(corrected::NAME).mass_outside_hf, Some(0.0));
    }
    let literal = figures.answer().summary(literal::NAME);
    // The write-up's chat: the literal port keeps 40 tokens where transformers keeps 24.
    assert!(literal.expected_outside.unwrap() > 0.0, "{literal:?}");
    assert_eq!(literal.first_over_1pct, Some(0));
}

#[test]
fn a_branch_and_a_way_back_recompute_the_figures_from_the_fork() {
    let (model, mut session, mut figures, call) = answered(10);
    let before: Vec<AnswerStep> = figures.answer().steps().to_vec();
    let (logits, _) = session.at(4).unwrap();
    let drawn = session.generated()[4];
    let other = (0..logits.len() as u32)
        .filter(|t| *t != drawn)
        .max_by(|a, b| logits[*a as usize].total_cmp(&logits[*b as usize]))
        .unwrap();
    session.branch(4, other).unwrap();
    while session.step().unwrap().is_some() {}
    figures.follow(&session, 4).unwrap();
    let after = figures.answer().steps();
    assert_eq!(after[..4], before[..4]);
    assert_eq!(after[4].token, other);
    assert_step_is_its_own_report(&model, &session, &call, &after[4], 4);
    let last = session.steps() - 1;
    assert_step_is_its_own_report(&model, &session, &call, &after[last], last);
    let fork = session.restore(0).unwrap()[0].index;
    figures.follow(&session, fork).unwrap();
    assert_eq!(figures.answer().steps(), &before[..]);
}

#[test]
fn an_answer_read_again_with_its_tokens_forced_has_the_same_figures() {
    let (model, session, figures, call) = answered(12);
    // Another seed would draw another answer: the forced tokens are what make it the same.
    let other_seed = Decoding::on(&model, hf::NAME, call.args.clone(), None, Some(99));
    let mut again = Session::start(
        model.clone(),
        session.prompt().to_vec(),
        other_seed.sampler(0).unwrap(),
        12,
    )
    .unwrap();
    again.force(session.generated()).unwrap();
    while again.step().unwrap().is_some() {}
    assert_eq!(again.generated(), session.generated());
    let mut read = AnswerFigures::new(call.args.clone(), call.generation_config.clone());
    read.follow(&again, 0).unwrap();
    assert_eq!(read.answer(), figures.answer());
}
