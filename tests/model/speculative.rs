//! DFlash's decode loop on the real model (exact precision): lossless at temperature zero for
//! every draft source, lossless above it (the emitted tokens' joint frequencies are the model's
//! exact probabilities), and a cache cut back after a rejection that equals a fresh forward.

use super::model;
use sampling_lab::generation::speculative::{speculate, DraftSource, ModelTarget, Speculation, Speculative, Target};
use sampling_lab::generation::{Decoding, GenerationError, Sampler, Session};
use sampling_lab::model::Model;
use sampling_lab::model::{Chat, Precision};
use sampling_lab_core::columns::{dflash, hf};
use sampling_lab_core::GenerateArgs;
use std::collections::HashMap;
use std::sync::Arc;

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

/// DFlash's loop under its own sampler at its default temperature 0, seed 0.
fn at_temperature_zero(
    precision: Precision,
    prompt: &[u32],
    draft: DraftSource,
    block_size: usize,
    max_new_tokens: usize,
) -> Result<Speculation, GenerationError> {
    let settings = Speculative {
        block_size,
        draft,
        max_new_tokens,
    };
    let model = model(precision);
    let call = Decoding::on(&model, dflash::NAME, GenerateArgs::default(), None, None);
    speculate(model, prompt, &call, settings)
}

/// Plain greedy decoding, and each step's logits.
fn greedy(prompt: &[u32], n: usize) -> (Vec<u32>, Vec<Vec<f32>>) {
    let sampler = Sampler::new(dflash::NAME, &GenerateArgs::default(), None, 0).unwrap();
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
        let (plain, _) = greedy(&prompt, 64);
        for draft in [DraftSource::Greedy, DraftSource::PromptLookup, DraftSource::Sampled] {
            let s = at_temperature_zero(Precision::Exact, &prompt, draft, 16, 64).unwrap();
            // A batched forward's logits are one-token steps' bit for bit: not one token may differ.
            assert_eq!(s.ids, plain, "{user:?} {draft:?}");
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
    let mut sampler = Sampler::new(dflash::NAME, &args, None, 5).unwrap();
    let mut drafter = Sampler::new(dflash::NAME, &args, None, 6).unwrap();
    let s = settings
        .run(&mut target, &prompt, &logits, dflash::NAME, &mut sampler, &mut drafter)
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
    assert!(
        super::bits(&cached) == super::bits(&fresh),
        "max |Δlogit| {}",
        super::max_abs_diff(&cached, &fresh)
    );
}

#[test]
fn fast_precision_refuses_speculation_by_name() {
    let prompt = prompt_ids(PROMPTS[0].0, PROMPTS[0].1);
    let err = at_temperature_zero(Precision::Fast, &prompt, DraftSource::Greedy, 4, 4)
        .unwrap_err()
        .to_string();
    assert!(err.contains("exact precision"), "{err}");
}

/// The real model as a target whose logits are remembered by context: thousands of seeded runs
/// then cost the few forwards their distinct contexts need.
struct Remembered {
    model: Arc<Model>,
    cached: Vec<u32>,
    seen: HashMap<Vec<u32>, Vec<f32>>,
}

impl Remembered {
    fn logits(&mut self, context: &[u32]) -> Vec<f32> {
        let model = &self.model;
        self.seen
            .entry(context.to_vec())
            .or_insert_with(|| model.next_logits(context).unwrap())
            .clone()
    }
}

impl Target for Remembered {
    fn extend(&mut self, ids: &[u32]) -> Result<Vec<Vec<f32>>, GenerationError> {
        let mut out = Vec::new();
        for &id in ids {
            self.cached.push(id);
            let context = self.cached.clone();
            out.push(self.logits(&context));
        }
        Ok(out)
    }
    fn truncate(&mut self, len: usize) -> Result<(), GenerationError> {
        self.cached.truncate(len);
        Ok(())
    }
    fn is_eos(&self, id: u32) -> bool {
        self.model.is_eos(id)
    }
}

/// On SmolLM2 at temperature 0.9 (top_k 3, so that every triple of tokens is counted often), the
/// first three emitted tokens over 2000 seeded runs against the model's exact joint
/// probabilities, with a greedy draft of two tokens after the first: the second and third come
/// from verifying that draft (accepted, or the target's own draw at a rejection).
/// TV under ½ Σ √(p(1−p)/N) + √(ln(1/δ)/2N), δ = 1e-9.
#[test]
fn above_zero_the_emitted_tokens_are_exact_draws_from_the_model() {
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.9, "top_k": 3}"#).unwrap();
    let prompt = prompt_ids(PROMPTS[1].0, PROMPTS[1].1);
    let mut target = Remembered {
        model: model(Precision::Exact),
        cached: prompt.clone(),
        seen: HashMap::new(),
    };
    let probe = Sampler::new(hf::NAME, &args, None, 0).unwrap();
    let prefill = target.logits(&prompt);
    let first = probe.distribution(&prefill, &prompt).unwrap();
    let mut exact: HashMap<Vec<u32>, f64> = first.support().iter().map(|&(a, p)| (vec![a], p)).collect();
    for _ in 0..2 {
        let mut longer = HashMap::new();
        for (start, p) in exact {
            let context = [&prompt[..], &start].concat();
            let next = probe.distribution(&target.logits(&context), &context).unwrap();
            longer.extend(
                next.support()
                    .iter()
                    .map(|&(b, pb)| ([&start[..], &[b]].concat(), p * pb)),
            );
        }
        exact = longer;
    }
    let n = 2000;
    // The first token is drawn from the prefill; the first round then drafts two.
    let settings = |draft| Speculative {
        block_size: 3,
        draft,
        max_new_tokens: 4,
    };
    // DFlash's draft: greedy (the synthetic target's test covers the other sources).
    for draft in [DraftSource::Greedy] {
        let mut counts: HashMap<Vec<u32>, u64> = HashMap::new();
        let mut drafted = 0;
        for seed in 0..n {
            let mut sampler = Sampler::new(hf::NAME, &args, None, seed).unwrap();
            let mut drafter = Sampler::new(hf::NAME, &args, None, seed ^ 0xD4AF7).unwrap();
            target.truncate(prompt.len()).unwrap();
            let s = settings(draft)
                .run(&mut target, &prompt, &prefill, hf::NAME, &mut sampler, &mut drafter)
                .unwrap();
            drafted += s.rounds[0].draft.len();
            *counts.entry(s.ids[..3].to_vec()).or_default() += 1;
        }
        assert_eq!(
            drafted,
            2 * n as usize,
            "{draft:?}: every first round drafts two tokens"
        );
        assert!(
            counts.keys().all(|t| exact.contains_key(t)),
            "{draft:?}: a triple outside the support"
        );
        let tv = 0.5
            * exact
                .iter()
                .map(|(t, p)| (*counts.get(t).unwrap_or(&0) as f64 / n as f64 - p).abs())
                .sum::<f64>();
        let bound = 0.5 * exact.values().map(|p| (p * (1.0 - p) / n as f64).sqrt()).sum::<f64>()
            + ((1.0f64 / 1e-9).ln() / (2.0 * n as f64)).sqrt();
        eprintln!(
            "{draft:?}: TV {tv:.4} (bound {bound:.4}) over {} triples, {} contexts run",
            exact.len(),
            target.seen.len()
        );
        assert!(tv <= bound, "{draft:?}: TV {tv} above {bound}");
    }
}
