//! What a byte token writes: SmolLM2 spells a Chinese character in two or three byte tokens, so
//! the next token's top candidates are often `⟨E8⟩` or `⟨E5⟩⟨B8⟩` — the first bytes of many
//! characters. A reader wants the character, so each such token is completed as the model itself
//! would continue it: the most probable token that carries the character on, step after step,
//! until the character is whole. The completion's probability is the product of those steps'
//! (the model's own softmax of its raw logits, nothing truncated).

use super::GenerationError;
use crate::model::Model;
use serde::{Deserialize, Serialize};

/// Steps a completion may take: a UTF-8 character has at most four bytes, one per token.
const MAX_STEPS: usize = 3;

/// One token's completion to whole characters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    /// The token completed.
    pub token: u32,
    /// The text it begins, once its last character is whole (`谢`, or `好感` for a token that
    /// writes `好` and the first byte of `感`).
    pub text: String,
    /// The probability of the continuation, given the token: the product of each step's.
    pub probability: f64,
    /// The tokens that complete it, in order.
    pub continuation: Vec<u32>,
}

/// How many bytes the character a token leaves open still needs (0: the token ends on a whole
/// character, or is not byte-level).
pub fn pending_bytes(bytes: &[u8]) -> usize {
    // Walk back over trailing continuation bytes to the lead byte of the last character.
    let tail = bytes.iter().rev().take_while(|b| (0x80..0xC0).contains(*b)).count();
    let Some(&lead) = bytes.len().checked_sub(tail + 1).map(|i| &bytes[i]) else {
        return 0;
    };
    let length: usize = match lead {
        0xF0.. => 4,
        0xE0.. => 3,
        0xC0.. => 2,
        _ => return 0,
    };
    length.saturating_sub(tail + 1)
}

/// The completions of every token of `tokens` that leaves a character open, after `context`:
/// the context is run once, then each token and its continuation on a copy of its cache.
pub fn complete(model: &Model, context: &[u32], tokens: &[u32]) -> Result<Vec<Completion>, GenerationError> {
    let open: Vec<u32> = tokens
        .iter()
        .copied()
        .filter(|t| model.tokenizer.token_bytes(*t).is_some_and(|b| pending_bytes(b) > 0))
        .collect();
    if open.is_empty() {
        return Ok(Vec::new());
    }
    model.check_ids(context)?;
    let mut cache = model.new_cache()?;
    model.forward(&mut cache, context, 0)?;
    let mut out = Vec::new();
    for token in open {
        cache.truncate(context.len())?;
        let mut bytes = model.tokenizer.token_bytes(token).expect("filtered").to_vec();
        let mut needed = pending_bytes(&bytes);
        let (mut probability, mut continuation, mut next) = (1.0, Vec::new(), token);
        for _ in 0..MAX_STEPS {
            if needed == 0 {
                break;
            }
            let position = context.len() + continuation.len();
            let logits = model.forward(&mut cache, &[next], position)?;
            let Some((best, p)) = best_continuation(model, &logits, needed) else {
                break;
            };
            let added = model.tokenizer.token_bytes(best).expect("a continuation is byte-level");
            needed -= needed.min(added.len());
            bytes.extend_from_slice(added);
            probability *= p;
            continuation.push(best);
            next = best;
        }
        if needed == 0 {
            // The text up to the last whole character (a continuation may open another).
            let whole = match std::str::from_utf8(&bytes) {
                Ok(text) => text,
                Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("valid up to there"),
            };
            let text = whole.to_string();
            out.push(Completion {
                token,
                text,
                probability,
                continuation,
            });
        }
    }
    Ok(out)
}

/// The most probable token that carries the open character on — its first bytes (up to `needed`)
/// continuation bytes — and its probability under the softmax of the raw logits.
fn best_continuation(model: &Model, logits: &[f32], needed: usize) -> Option<(u32, f64)> {
    let logp = sampling_lab_core::log_softmax_f64(logits);
    let continues = |b: &[u8]| !b.is_empty() && b.iter().take(needed).all(|x| (0x80..0xC0).contains(x));
    (0..logits.len() as u32)
        .filter(|t| model.tokenizer.token_bytes(*t).is_some_and(continues))
        .max_by(|a, b| logp[*a as usize].total_cmp(&logp[*b as usize]))
        .map(|t| (t, logp[t as usize].exp()))
}

#[cfg(test)]
mod tests {
    use super::pending_bytes;

    #[test]
    fn a_lead_byte_leaves_its_character_open_by_the_bytes_it_lacks() {
        assert_eq!(pending_bytes(&[0xE8]), 2);
        assert_eq!(pending_bytes(&[0xE5, 0xB8]), 1);
        assert_eq!(pending_bytes(&[0xE8, 0xB0, 0xA2]), 0);
        // "好" then the first byte of the next character.
        assert_eq!(pending_bytes(&[0xE5, 0xA5, 0xBD, 0xE6]), 2);
        assert_eq!(pending_bytes(b"thank"), 0);
        assert_eq!(pending_bytes(&[0xF0, 0x9F]), 2);
    }

    #[test]
    fn continuation_bytes_alone_open_nothing() {
        assert_eq!(pending_bytes(&[0x84]), 0);
        assert_eq!(pending_bytes(&[]), 0);
    }
}
