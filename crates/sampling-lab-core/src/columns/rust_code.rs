//! A port as the Rust a candle user writes: the `LogitsProcessor` set-up, what each step does to
//! the logits, and the helpers it calls (the same source the corrected port runs).

use super::candle_port::{sampling_text, CandlePort, PenaltyWindow, REPEAT_LAST_N};
use crate::truncation::{helpers_source, Warper};

impl CandlePort {
    /// The set-up as the Rust a user pastes around a model's forward pass: the
    /// `LogitsProcessor`, each step's penalty and draw, and the helpers its closure calls.
    pub fn program(&self) -> String {
        port_program(self)
    }
}

/// The set-up on one line: its `Sampling`, then the `sample_f` closure's calls.
impl std::fmt::Display for CandlePort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&port_text(self))
    }
}

/// The program for `port`, ready to paste around a model's forward pass.
pub fn port_program(port: &CandlePort) -> String {
    let mut code = String::from("use candle_transformers::generation::{LogitsProcessor, Sampling};\n\n");
    code += &format!(
        "// Once, before generating.\nlet mut processor = LogitsProcessor::from_sampling(seed, {});\n\n",
        sampling_text(&port.sampling)
    );
    code += "// Each step: `logits` holds the last position's logits (a 1-D f32 Tensor), `tokens` every id so far.\n";
    code += &penalty_lines(port);
    if let Some(n) = port.ban_ngrams {
        code += &format!(
            "let mut scores = logits.to_vec1::<f32>()?;\nban_ngrams(&mut scores, &tokens, {n});\nlet logits = candle_core::Tensor::new(scores, logits.device())?;\n"
        );
    }
    code += &draw_lines(&port.steps);
    if !port.steps.is_empty() || port.ban_ngrams.is_some() {
        code += "\n";
        code += &helpers_source();
    }
    code
}

fn penalty_lines(port: &CandlePort) -> String {
    match port.penalty {
        None => String::new(),
        Some((penalty, PenaltyWindow::Last(n))) => format!(
            "// candle's examples penalise the last {REPEAT_LAST_N} tokens only.\nlet logits = candle_transformers::utils::apply_repeat_penalty(&logits, {}, &tokens[tokens.len().saturating_sub({n})..])?;\n",
            rust_f32(penalty)
        ),
        Some((penalty, PenaltyWindow::Whole)) => format!(
            "// transformers penalises every token of the context, prompt included.\nlet logits = candle_transformers::utils::apply_repeat_penalty(&logits, {}, &tokens)?;\n",
            rust_f32(penalty)
        ),
    }
}

fn draw_lines(steps: &[Warper]) -> String {
    if steps.is_empty() {
        return "let next_token = processor.sample(&logits)?;\n".into();
    }
    let calls: String = steps.iter().map(|s| format!("    {};\n", s.rust_call())).collect();
    format!("let next_token = processor.sample_f(&logits, |prs| {{\n{calls}}})?;\n")
}

/// An f32 literal: its shortest decimal form, as the user typed it.
fn rust_f32(x: f32) -> String {
    let s = format!("{x:?}");
    if s.contains(['.', 'e']) {
        s
    } else {
        format!("{s}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_transformers::generation::Sampling;

    #[test]
    fn the_corrected_port_for_top_k_then_top_p_is_top_p_with_a_top_k_closure_and_its_helpers() {
        let port = CandlePort {
            steps: vec![Warper::TopK(40)],
            ..CandlePort::plain(Sampling::TopP {
                p: 0.9,
                temperature: 0.7,
            })
        };
        let code = port_program(&port);
        assert!(code.contains("LogitsProcessor::from_sampling(seed, Sampling::TopP { p: 0.9, temperature: 0.7 })"));
        assert!(code.contains("processor.sample_f(&logits, |prs| {\n    top_k_keeping_ties(prs, 40);\n})?;"));
        assert!(code.contains("pub fn top_k_keeping_ties(prs: &mut [f32], k: usize)"));
    }

    #[test]
    fn a_plain_port_samples_without_a_closure_or_helpers() {
        let code = port_program(&CandlePort::plain(Sampling::All { temperature: 0.7 }));
        assert!(code.contains("processor.sample(&logits)?"));
        assert!(!code.contains("fn top_p"));
    }

    /// Every call the closure can make names a helper the pasted source defines.
    #[test]
    fn every_closure_call_has_its_helper() {
        let steps = [
            Warper::TopK(1),
            Warper::TopP(0.5),
            Warper::MinP(0.1),
            Warper::Typical(0.9),
            Warper::Epsilon(0.1),
            Warper::Eta(0.1),
        ];
        for step in steps {
            let name = step.rust_call().split('(').next().unwrap().to_string();
            assert!(
                helpers_source().contains(&format!("pub fn {name}(prs: &mut [f32]")),
                "{name}"
            );
        }
    }
}

/// A port's candle set-up on one line: its `Sampling`, then the `sample_f` closure's calls.
pub fn port_text(port: &CandlePort) -> String {
    let mut text = sampling_text(&port.sampling);
    if !port.steps.is_empty() {
        let calls: Vec<String> = port.steps.iter().map(Warper::rust_call).collect();
        text.push_str(&format!(" + sample_f(|prs| {{ {} }})", calls.join("; ")));
    }
    text
}
