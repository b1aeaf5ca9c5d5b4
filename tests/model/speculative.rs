//! DFlash's decode loop on the real model (exact precision): lossless at temperature zero for
//! every draft source, and a cache cut back after a rejection that equals a fresh forward.

use super::{model, LOGITS_TOLERANCE};
use sampling_lab::generation::speculative::{speculate, DraftSource, ModelTarget, Speculative, Target};
use sampling_lab::generation::{Sampler, Semantics, Session};
use sampling_lab::model::{Chat, Precision};
use sampling_lab::sampling::GenerateArgs;

const PROMPTS: [(&str, &str); 3] = [
    ("How do you say thank you in Chinese?", "In Chinese, you can say \""),
    ("List the days of the week, one per line.", ""),
    (
        "Repeat after me: the quick brown fox jumps over the lazy dog. The quick brown fox",
        "",
    ),
];

fn prompt_ids(user: &str, prefix: &str) -> Vec<u32> {
    model(Precision::Exact)
        .chat_ids(&Chat::single(None, user, prefix))
        .unwrap()
}

/// Plain greedy decoding, and each step's logits.
fn greedy(prompt: &[u32], n: usize) -> (Vec<u32>, Vec<Vec<f32>>) {
    let sampler = Sampler::new(Semantics::Dflash, &GenerateArgs::default(), None, 0).unwrap();
    let mut session = Session::start(model(Precision::Exact), prompt.to_vec(), sampler, n).unwrap();
    while session.step().unwrap().is_some() {}
    let logits = (0..session.steps())
        .map(|i| session.at(i).unwrap().0.to_vec())
        .collect();
    (session.generated().to_vec(), logits)
}

#[test]
fn at_temperature_zero_speculation_is_greedy_decoding_for_every_draft_source() {
    for (user, prefix) in PROMPTS {
        let prompt = prompt_ids(user, prefix);
        let (plain, logits) = greedy(&prompt, 64);
        for draft in [DraftSource::Greedy, DraftSource::PromptLookup, DraftSource::Sampled] {
            let settings = Speculative {
                block_size: 16,
                draft,
                max_new_tokens: 64,
            };
            let s = speculate(
                model(Precision::Exact),
                &prompt,
                &GenerateArgs::default(),
                None,
                Semantics::Dflash,
                &settings,
                0,
            )
            .unwrap();
            if let Some(i) = s.ids.iter().zip(&plain).position(|(a, b)| a != b) {
                // A batched forward rounds differently from one-token steps: a difference is
                // only acceptable where the two best logits were within that rounding.
                let mut top = logits[i].clone();
                top.sort_by(|a, b| b.total_cmp(a));
                assert!(
                    top[0] - top[1] < LOGITS_TOLERANCE,
                    "{user:?} {draft:?}: token {i} differs with a top-2 gap of {}",
                    top[0] - top[1]
                );
                eprintln!(
                    "{user:?} {draft:?}: token {i} flips between two logits {} apart",
                    top[0] - top[1]
                );
            } else {
                assert_eq!(s.ids, plain, "{user:?} {draft:?}");
            }
            if draft == DraftSource::Greedy {
                assert!(
                    s.mean_acceptance_length > 8.0,
                    "{user:?}: a greedy draft at temperature zero is kept nearly whole ({})",
                    s.mean_acceptance_length
                );
            }
        }
    }
}

#[test]
fn after_a_rejection_the_cut_back_cache_gives_a_fresh_forward_s_logits() {
    let model = model(Precision::Exact);
    let prompt = prompt_ids(PROMPTS[0].0, PROMPTS[0].1);
    let args = GenerateArgs::from_json_str(r#"{"temperature": 1.0}"#).unwrap();
    let settings = Speculative {
        block_size: 6,
        draft: DraftSource::Sampled,
        max_new_tokens: 12,
    };
    let (mut target, logits) = ModelTarget::prefill(model.clone(), &prompt).unwrap();
    let mut sampler = Sampler::new(Semantics::Dflash, &args, None, 5).unwrap();
    let mut drafter = Sampler::new(Semantics::Dflash, &args, None, 6).unwrap();
    let s = settings
        .run(
            &mut target,
            &prompt,
            &logits,
            Semantics::Dflash,
            &mut sampler,
            &mut drafter,
        )
        .unwrap();
    assert!(
        s.rounds.iter().any(|r| r.acceptance_length <= r.draft.len()),
        "some drafted token was rejected: {:?}",
        s.rounds
    );
    // The loop left the cache at every committed id but the last; the next forward continues it.
    let committed = [&prompt[..], &s.ids].concat();
    target.truncate(committed.len() - 1).unwrap();
    let cached = target.extend(&committed[committed.len() - 1..]).unwrap().remove(0);
    let fresh = model.next_logits(&committed).unwrap();
    let diff = super::max_abs_diff(&cached, &fresh);
    assert!(diff <= LOGITS_TOLERANCE, "max |Δlogit| {diff}");
}

#[test]
fn fast_precision_refuses_speculation_by_name() {
    let prompt = prompt_ids(PROMPTS[0].0, PROMPTS[0].1);
    let settings = Speculative {
        block_size: 4,
        draft: DraftSource::Greedy,
        max_new_tokens: 4,
    };
    let err = speculate(
        model(Precision::Fast),
        &prompt,
        &GenerateArgs::default(),
        None,
        Semantics::Dflash,
        &settings,
        0,
    )
    .unwrap_err();
    assert!(err.contains("exact precision"), "{err}");
}
