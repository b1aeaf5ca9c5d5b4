//! The reference chat's numbers against the write-up's. The candle/transformers comparison this
//! lab reproduces was written on SmolLM2-135M-Instruct's original f32 weights, for
//! `generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)` after "How do you say thank
//! you in Chinese?": there the top 40 tokens held 0.9208 of the mass, more than top_p, so candle's
//! `TopKThenTopP` cut at 0.9 of the whole and kept 31 where transformers kept 14. A quantized
//! model's flatter distribution can hold less than 0.9 in its top 40, and then the literal port
//! takes the other branch: it skips the nucleus and keeps all 40. A reader who comes from the
//! write-up is told which branch this model takes, with this step's numbers.

use super::analysis::Analysis;
use crate::columns::literal::top_k_mass;
use crate::columns::{hf, literal};
use crate::inspection::Inspection;
use crate::text::Message;
use crate::GenerateArgs;

/// The write-up's call.
pub const CALL: &str = r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#;

/// What the write-up measured on the original f32 weights.
pub struct WriteUp {
    /// The mass of the 40 most probable tokens at temperature 0.7.
    pub top_k_mass: f64,
    /// Tokens transformers keeps.
    pub hf_kept: usize,
    /// Tokens the literal port keeps.
    pub literal_kept: usize,
}

/// The published figures (the f32 weights' column of the reference tables).
pub const PUBLISHED: WriteUp = WriteUp {
    top_k_mass: 0.9208,
    hf_kept: 14,
    literal_kept: 31,
};

/// For the reference chat's next-token logits: the write-up's figures beside this model's, and
/// which of candle's two branches the literal port takes here.
pub fn note(logits: &[f32], context_ids: Vec<u32>) -> Result<Message, crate::SamplingError> {
    let args = GenerateArgs::from_json_str(CALL).expect("the write-up's call parses");
    let analysis = Analysis::run(&Inspection::new(logits.to_vec(), args, None, context_ids)?);
    let kept = |name| analysis.distribution(name).map_or(0, |d| d.kept());
    let mass = top_k_mass(logits, 40, 0.7);
    let id = if mass < 0.9 {
        "write-up-other-branch"
    } else {
        "write-up-same-branch"
    };
    Ok(Message::new(id)
        .number("published_mass", PUBLISHED.top_k_mass)
        .count("published_hf", PUBLISHED.hf_kept)
        .count("published_literal", PUBLISHED.literal_kept)
        .number("mass", mass)
        .count("hf", kept(hf::NAME))
        .count("literal", kept(literal::NAME)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_tail_takes_the_other_branch_than_the_write_up_s() {
        // The top 40 hold less than 0.9, so the literal port keeps all 40.
        let logits: Vec<f32> = (0..400).map(|i| -(i as f32) * 0.01).collect();
        assert_eq!(note(&logits, vec![]).unwrap().id(), "write-up-other-branch");
    }
}
