//! Where a generation starts and where it forks: a branch (another token chosen at a step, the
//! cache cut back to it) and the branch left behind restored, and the prompt cache the page
//! inspects from — every step's logits equal a fresh forward over its context.

use super::*;
use sampling_lab::generation::{Sampler, Session, Step};
use sampling_lab_core::columns::hf;
use sampling_lab_core::GenerateArgs;

/// A seeded sampled answer of `n` tokens under transformers' defaults (top_k=50).
fn sampled(model: Arc<Model>, n: usize) -> Session {
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true}"#).unwrap();
    let sampler = Sampler::new(hf::NAME, &args, None, 0).unwrap();
    let mut session = Session::start(model, reference_ids(), sampler, n).unwrap();
    while session.step().unwrap().is_some() {}
    session
}

fn reference_ids() -> Vec<u32> {
    reference_logits().0
}

/// The most probable token at generated step `index` other than the one drawn there.
fn another_choice(session: &Session, index: usize) -> u32 {
    let (logits, _) = session.at(index).unwrap();
    let drawn = session.generated()[index] as usize;
    let best = (0..logits.len())
        .filter(|t| *t != drawn)
        .max_by(|a, b| logits[*a].total_cmp(&logits[*b]));
    best.unwrap() as u32
}

/// A sampled answer of `n` tokens, then branched at step `at`: the answer before the branch and
/// the token chosen there.
fn branched(n: usize, at: usize) -> (Arc<Model>, Session, Vec<u32>, Step) {
    let model = model(Precision::Exact);
    let mut session = sampled(model.clone(), n);
    let original = session.generated().to_vec();
    let forced = session.branch(at, another_choice(&session, at)).unwrap();
    (model, session, original, forced)
}

#[test]
fn a_branch_goes_on_from_the_chosen_token_with_the_logits_of_a_fresh_forward() {
    let (model, mut session, original, forced) = branched(8, 3);
    let other = forced.token;
    assert_eq!(forced.index, 3);
    assert_ne!(other, original[3]);
    assert!(
        forced.probability > 0.0 && forced.probability < 1.0,
        "{}",
        forced.probability
    );
    while session.step().unwrap().is_some() {}
    assert_eq!(&session.generated()[..3], &original[..3]);
    assert_eq!(session.generated()[3], other);
    assert_eq!(session.steps(), 8);
    assert_every_step_equals_a_fresh_forward(&model, &session);
    let left = session.branches();
    assert_eq!(left.len(), 1);
    assert_eq!((left[0].fork, left[0].tokens.as_slice()), (3, &original[3..]));
}

#[test]
fn going_back_restores_the_earlier_branch_and_keeps_the_later_one() {
    let (model, mut session, original, _) = branched(10, 2);
    for _ in 0..3 {
        session.step().unwrap();
    }
    let branched = session.generated().to_vec();
    let restored: Vec<u32> = session.restore(0).unwrap().iter().map(|s| s.token).collect();
    assert_eq!(restored, &original[2..]);
    assert_eq!(session.generated(), original.as_slice());
    assert_eq!(session.branches()[0].tokens, &branched[2..]);
    // The cache holds the restored tokens: a branch taken later in them runs on it.
    let later = another_choice(&session, 7);
    session.branch(7, later).unwrap();
    session.step().unwrap();
    assert_every_step_equals_a_fresh_forward(&model, &session);
}

#[test]
fn a_branch_at_a_step_not_generated_or_a_token_outside_the_vocabulary_is_refused() {
    let mut session = sampled(model(Precision::Exact), 3);
    assert!(session
        .branch(3, 0)
        .unwrap_err()
        .to_string()
        .contains("step 3 does not exist"));
    assert!(session
        .branch(0, 1 << 30)
        .unwrap_err()
        .to_string()
        .contains("outside the vocabulary"));
    assert!(session
        .restore(0)
        .unwrap_err()
        .to_string()
        .contains("branch 0 does not exist"));
    assert_eq!(session.steps(), 3);
}

#[test]
fn fast_precision_refuses_to_branch_by_name() {
    let mut session = sampled(model(Precision::Fast), 3);
    let err = session.branch(1, 0).unwrap_err().to_string();
    assert!(err.contains("exact"), "{err}");
    assert_eq!(session.steps(), 3);
}

/// The page inspects a prompt, then generates from it: the generation takes over that prefill's
/// cache (no second prefill) and decodes exactly what a fresh prefill would.
#[test]
fn a_generation_after_an_inspect_of_its_prompt_takes_over_the_prefill() {
    use sampling_lab::generation::PromptCache;
    let model = model(Precision::Exact);
    let mut prompts = PromptCache::default();
    let inspected = prompts.logits_after(&model, &reference_ids()).unwrap();
    let taken = prompts.prefill(&model, reference_ids()).unwrap();
    assert_eq!(taken.logits, inspected);
    let run = |prefill| {
        let args = GenerateArgs::from_json_str(r#"{"do_sample": true}"#).unwrap();
        let sampler = Sampler::new(hf::NAME, &args, None, 3).unwrap();
        let mut session = Session::resume(model.clone(), prefill, sampler, 6);
        while session.step().unwrap().is_some() {}
        (0..6).map(|i| session.at(i).unwrap().0.to_vec()).collect::<Vec<_>>()
    };
    let fresh = prompts.prefill(&model, reference_ids()).unwrap(); // the cache was handed out once
    assert_eq!(run(taken), run(fresh));
}
