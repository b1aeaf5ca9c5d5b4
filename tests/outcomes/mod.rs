//! A runtime's outcome for one case — its refusal, its argmax, or the tokens its draw can return
//! with their probabilities, in the format of tests/fixtures/runtimes/*.json (whose header
//! documents the fields) — held against a column's report entry.

use sampling_lab_core::output::report::Entry;
use sampling_lab_core::text::Text;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

pub const TOLERANCE: f64 = 1e-6;

/// What was checked, by kind.
#[derive(Debug, Default)]
pub struct Checked {
    pub refusals: usize,
    pub argmax: usize,
    pub exact: usize,
    pub flagged: usize,
}

impl Checked {
    pub fn total(&self) -> usize {
        self.refusals + self.argmax + self.exact + self.flagged
    }
}

fn ids(v: &Value) -> BTreeSet<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Whether one of the column's notes says the decision is float noise or a tie its sort settles
/// (by the notes' stable ids, not their words).
fn flags_it(notes: &[Text]) -> bool {
    notes
        .iter()
        .map(|n| n.message.id())
        .any(|id| id.ends_with("-near") || id.ends_with("-ties") || id == "note-sglang-past-one")
}

/// Holds `entry` to `outcome` on a vocabulary of `vocab`, and counts the case.
///
/// Unflagged: the same tokens, every listed probability within 1e-6, every unlisted one below
/// the listing's 1e-5. Flagged (a decision f32 arithmetic settles): the column must flag it too;
/// it keeps all but the tokens SGLang's f32 sum cuts with top_p=1 (`cut_by_top_p_1`), a count
/// between the f32 and the f64 runs' (`f64`), or as many tokens (ties); and the probabilities of
/// the tokens both keep, each side renormalised there, agree within 1e-6.
pub fn check(name: &str, entry: &Entry, outcome: &Value, vocab: usize, checked: &mut Checked) {
    if let Some(error) = outcome["error"].as_str() {
        assert_eq!(
            entry.error.as_deref(),
            Some(error),
            "{name}: the refusal, word for word"
        );
        checked.refusals += 1;
        return;
    }
    assert_eq!(entry.error, None, "{name}: refused where the runtime accepts");
    if let Some(argmax) = outcome["argmax"].as_u64() {
        assert_eq!(entry.support, [(argmax as u32, 1.0)], "{name}: greedy");
        checked.argmax += 1;
        return;
    }
    let ours: BTreeSet<u32> = entry.support.iter().map(|(i, _)| *i).collect();
    let theirs: BTreeSet<u32> = match outcome.get("kept_ids") {
        Some(kept) => ids(kept),
        None => {
            let zero = ids(&outcome["zero_ids"]);
            (0..vocab as u32).filter(|i| !zero.contains(i)).collect()
        }
    };
    assert_eq!(
        theirs.len() as u64,
        outcome["kept"].as_u64().unwrap(),
        "{name}: the outcome's own count"
    );
    let listed: Vec<(u32, f64)> = outcome["probs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_f64().unwrap()))
        .collect();
    if outcome.get("subnormal").is_some() {
        assert!(
            entry.notes.iter().any(|n| n.message.id() == "note-subnormal"),
            "{name}: subnormal probabilities unflagged: {:?}",
            entry.notes
        );
    }
    let flagged: Vec<&str> = ["f64", "ties_at_cut", "cut_by_top_p_1", "topk_top_k_ids"]
        .into_iter()
        .filter(|f| outcome.get(*f).is_some())
        .collect();
    let dense: HashMap<u32, f64> = entry.support.iter().copied().collect();
    if flagged.is_empty() {
        let only_ours: Vec<&u32> = ours.difference(&theirs).take(10).collect();
        let only_theirs: Vec<&u32> = theirs.difference(&ours).take(10).collect();
        assert!(
            ours == theirs,
            "{name}: the column keeps {}, the runtime {}; only the column: {only_ours:?}…, only the runtime: {only_theirs:?}…",
            ours.len(),
            theirs.len()
        );
        for &(id, p) in &listed {
            let q = dense.get(&id).copied().unwrap_or(0.0);
            assert!(
                (q - p).abs() <= TOLERANCE,
                "{name}: token {id}: {q} vs the runtime's {p}"
            );
        }
        for (id, q) in &entry.support {
            if !listed.iter().any(|(i, _)| i == id) {
                assert!(
                    *q < 1e-5 + TOLERANCE,
                    "{name}: token {id} has {q}, unlisted by the runtime"
                );
            }
        }
        checked.exact += 1;
        return;
    }
    assert!(
        flags_it(&entry.notes),
        "{name}: the runtime's outcome flags {flagged:?}, the column says nothing: {:?}",
        entry.notes
    );
    if let Some(cut) = outcome["cut_by_top_p_1"].as_u64() {
        assert_eq!(
            ours.len() as u64,
            theirs.len() as u64 + cut,
            "{name}: all but the tokens f32 cut with top_p=1"
        );
        assert!(theirs.is_subset(&ours), "{name}");
    } else if let Some(f64_run) = outcome.get("f64") {
        let (a, b) = (theirs.len() as u64, f64_run["kept"].as_u64().unwrap());
        let kept = ours.len() as u64;
        assert!(
            a.min(b) <= kept && kept <= a.max(b),
            "{name}: {kept} kept, the runtime keeps {a} in f32 and {b} in f64"
        );
    } else {
        assert_eq!(
            ours.len(),
            theirs.len(),
            "{name}: as many tokens, whichever of the tied ones"
        );
    }
    let common: Vec<(f64, f64)> = listed
        .iter()
        .filter_map(|(id, p)| dense.get(id).map(|q| (*q, *p)))
        .collect();
    assert!(!common.is_empty(), "{name}: no token in common");
    let (mine, their) = common.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    for (x, y) in &common {
        assert!(
            (x / mine - y / their).abs() <= TOLERANCE,
            "{name}: {} vs {} renormalised",
            x / mine,
            y / their
        );
    }
    checked.flagged += 1;
}
