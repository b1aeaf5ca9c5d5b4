//! The loop on a small deterministic target: lossless at every temperature, greedy at zero.

use super::draft::prompt_lookup;
use super::*;
use sampling_lab_core::columns::dflash;
use sampling_lab_core::columns::torch_argmax;
use sampling_lab_core::GenerateArgs;

const V: usize = 5;
const EOS: u32 = 4;

/// A small deterministic target: each position's logits are a function of the ids before it.
struct Toy {
    cached: Vec<u32>,
}

/// The end of sequence becomes certain once the context reaches 30 ids.
fn toy_logits(context: &[u32]) -> Vec<f32> {
    let h = context
        .iter()
        .fold(17u64, |h, &t| h.wrapping_mul(31).wrapping_add(u64::from(t) + 1));
    let eos = if context.len() >= 30 { 90.0 } else { -30.0 };
    (0..V)
        .map(|j| {
            if j as u32 == EOS {
                eos
            } else {
                ((h.wrapping_mul(j as u64 + 7) % 97) as f32) / 40.0
            }
        })
        .collect()
}

impl Target for Toy {
    fn extend(&mut self, ids: &[u32]) -> Result<Vec<Vec<f32>>, GenerationError> {
        Ok(ids
            .iter()
            .map(|&id| {
                self.cached.push(id);
                toy_logits(&self.cached)
            })
            .collect())
    }
    fn truncate(&mut self, len: usize) -> Result<(), GenerationError> {
        self.cached.truncate(len);
        Ok(())
    }
    fn is_eos(&self, id: u32) -> bool {
        id == EOS
    }
}

fn sampler(kwargs: &str, seed: u64) -> Sampler {
    Sampler::new(dflash::NAME, &GenerateArgs::from_json_str(kwargs).unwrap(), None, seed).unwrap()
}

fn speculate(kwargs: &str, draft: DraftSource, block: usize, max: usize, seed: u64) -> Speculation {
    let prompt = [0, 1, 2, 3, 1, 2];
    let mut toy = Toy {
        cached: prompt.to_vec(),
    };
    let logits = toy_logits(&prompt);
    let settings = Speculative {
        block_size: block,
        draft,
        max_new_tokens: max,
    };
    let (mut s, mut d) = (sampler(kwargs, seed), sampler(kwargs, seed ^ 0xD4AF7));
    settings
        .run(&mut toy, &prompt, &logits, dflash::NAME, &mut s, &mut d)
        .unwrap()
}

fn greedy(max: usize) -> Vec<u32> {
    let mut ids = vec![0, 1, 2, 3, 1, 2];
    let mut out = Vec::new();
    while out.len() < max {
        let t = torch_argmax(&toy_logits(&ids)) as u32;
        ids.push(t);
        out.push(t);
        if t == EOS {
            break;
        }
    }
    out
}

#[test]
fn the_rounds_emit_the_answer_and_nothing_matched_after_its_end() {
    // The toy's end of sequence is certain from 30 ids on: a greedy block of 16 drafts
    // past it, and the target matches those drafts too.
    let s = speculate("{}", DraftSource::Greedy, 16, 100, 1);
    assert_eq!(s.finish, Finish::Eos);
    let emitted: usize = s.rounds.iter().map(|r| r.emitted).sum();
    assert_eq!(emitted + 1, s.ids.len(), "the first token comes from the prefill");
    let last = s.rounds.last().unwrap();
    assert!(last.emitted < last.acceptance_length, "{last:?}");
}

#[test]
fn at_temperature_zero_every_draft_source_gives_the_greedy_answer() {
    for draft in [DraftSource::Greedy, DraftSource::PromptLookup, DraftSource::Sampled] {
        for block in [1, 4, 16] {
            let s = speculate("{}", draft, block, 40, 1);
            assert_eq!(
                (s.ids.clone(), s.finish),
                (greedy(40), Finish::Eos),
                "{draft:?}, B={block}"
            );
            assert_eq!(
                speculate("{}", draft, block, 9, 1).ids,
                greedy(9),
                "{draft:?}, B={block}, 9 tokens"
            );
        }
    }
}

#[test]
fn a_greedy_draft_at_temperature_zero_is_accepted_whole() {
    let s = speculate("{}", DraftSource::Greedy, 8, 33, 1);
    assert!(
        s.rounds.iter().all(|r| r.acceptance_length == r.draft.len() + 1),
        "{:?}",
        s.rounds
    );
    assert!(s
        .rounds
        .iter()
        .all(|r| (r.expected_acceptance_length - (r.draft.len() + 1) as f64).abs() < 1e-12));
}

#[test]
fn a_rejection_gives_the_target_distribution_at_the_first_mismatch() {
    let prompt = [0u32, 1, 2, 3, 1, 2];
    let s = speculate(r#"{"temperature": 1.0}"#, DraftSource::Greedy, 6, 40, 3);
    let probe = sampler(r#"{"temperature": 1.0}"#, 0);
    // The first token is drawn from the prefill, before any round.
    let mut context = [&prompt[..], &s.ids[..1]].concat();
    let mut rejections = 0;
    for round in &s.rounds {
        let kept = round.acceptance_length - 1;
        match &round.rejection {
            Some(r) => {
                rejections += 1;
                let at = [&context[..], &round.draft[..kept]].concat();
                let there = probe.distribution(&toy_logits(&at), &at).unwrap();
                assert_eq!(r.draft, (round.draft[kept], there.prob(round.draft[kept])));
                assert_eq!(r.drawn, (round.posterior[kept], there.prob(round.posterior[kept])));
                assert!(r.drawn.1 > 0.0 && r.drawn.0 != r.draft.0);
                assert_eq!(r.top, there.support()[..r.top.len()]);
            }
            None => assert_eq!(kept, round.draft.len(), "no rejection: the whole draft was kept"),
        }
        context.extend(&round.draft[..kept]);
        context.push(round.posterior[kept]);
    }
    assert!(rejections > 0, "at temperature 1 some greedy drafts are rejected");
}

#[test]
fn an_empty_block_or_answer_is_refused_by_name() {
    let prompt = [0u32, 1, 2];
    let run = |block, max| {
        let settings = Speculative {
            block_size: block,
            draft: DraftSource::Greedy,
            max_new_tokens: max,
        };
        let (mut s, mut d) = (sampler("{}", 0), sampler("{}", 1));
        settings.run(
            &mut Toy {
                cached: prompt.to_vec(),
            },
            &prompt,
            &toy_logits(&prompt),
            dflash::NAME,
            &mut s,
            &mut d,
        )
    };
    assert!(run(0, 4).unwrap_err().to_string().contains("block size"));
    assert!(run(4, 0).unwrap_err().to_string().contains("max_new_tokens"));
    assert_eq!(run(4, 1).unwrap().ids.len(), 1);
}

#[test]
fn prompt_lookup_proposes_what_followed_the_last_bigram() {
    assert_eq!(prompt_lookup(&[5, 6, 7, 8, 9, 5, 6], 10, |_| false), [7, 8, 9, 5, 6]);
    assert_eq!(
        prompt_lookup(&[5, 6, 7, 8, 6], 2, |_| false),
        [7, 8],
        "falls back to the last token"
    );
    assert_eq!(
        prompt_lookup(&[5, 6, 7, 2, 5, 6], 10, |t| t == 2),
        [7],
        "cut before an end of sequence"
    );
    assert!(prompt_lookup(&[1, 2, 3], 10, |_| false).is_empty());
}

/// The first two emitted tokens over many seeded runs against the target's exact joint
/// probabilities: TV under ½ Σ √(p(1−p)/N) + √(ln(1/δ)/2N), δ = 1e-9.
#[test]
fn above_zero_the_emitted_tokens_are_exact_draws_from_the_target() {
    let kwargs = r#"{"temperature": 0.9}"#;
    let probe = sampler(kwargs, 0);
    let prompt = [0u32, 1, 2, 3, 1, 2];
    let first = probe.distribution(&toy_logits(&prompt), &prompt).unwrap().dense();
    let exact: Vec<f64> = (0..V * V)
        .map(|k| {
            let (a, b) = (k / V, k % V);
            let context = [&prompt[..], &[a as u32]].concat();
            first[a] * probe.distribution(&toy_logits(&context), &context).unwrap().dense()[b]
        })
        .collect();
    let n = 20_000;
    for draft in [DraftSource::Greedy, DraftSource::Sampled, DraftSource::PromptLookup] {
        let mut counts = [0u64; V * V];
        let (mut observed_tau, mut expected_tau) = (0.0, 0.0);
        for seed in 0..n as u64 {
            let s = speculate(kwargs, draft, 4, 6, seed);
            counts[s.ids[0] as usize * V + s.ids[1] as usize] += 1;
            observed_tau += s.rounds[0].acceptance_length as f64;
            expected_tau += s.rounds[0].expected_acceptance_length;
        }
        let tv = 0.5
            * counts
                .iter()
                .zip(&exact)
                .map(|(&c, p)| (c as f64 / n as f64 - p).abs())
                .sum::<f64>();
        let bound = 0.5 * exact.iter().map(|p| (p * (1.0 - p) / n as f64).sqrt()).sum::<f64>()
            + ((1.0f64 / 1e-9).ln() / (2.0 * n as f64)).sqrt();
        assert!(tv <= bound, "{draft:?}: TV {tv} above {bound}");
        // Hoeffding on the per-run difference, which lies in [−(B−1), B−1].
        let gap = (observed_tau - expected_tau).abs() / n as f64;
        let allowed = 2.0 * 3.0 * ((2.0f64 / 1e-9).ln() / (2.0 * n as f64)).sqrt();
        assert!(
            gap <= allowed,
            "{draft:?}: mean τ {} vs expected {}",
            observed_tau / n as f64,
            expected_tau / n as f64
        );
    }
}

#[test]
fn a_higher_temperature_lowers_the_expected_acceptance_of_one_greedy_draft() {
    let prompt = vec![0u32, 1, 2, 3, 1, 2];
    let draft = greedy(7);
    let logits: Vec<Vec<f32>> = (0..draft.len())
        .map(|i| toy_logits(&[&prompt[..], &draft[..i]].concat()))
        .collect();
    let tau = |t: f64| {
        expected_acceptance(
            &sampler(&format!(r#"{{"temperature": {t}}}"#), 0),
            &logits,
            &prompt,
            &draft,
        )
        .unwrap()
    };
    assert_eq!(tau(0.0), 8.0, "a greedy draft is accepted whole at temperature zero");
    assert!(
        tau(0.3) > tau(0.8) && tau(0.8) > tau(1.5),
        "{} {} {}",
        tau(0.3),
        tau(0.8),
        tau(1.5)
    );
}
