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

const USE: &str = "use candle_transformers::generation::{LogitsProcessor, Sampling};\n";

/// The program for `port`, ready to paste around a model's forward pass.
pub(crate) fn port_program(port: &CandlePort) -> String {
    let mut code = format!("{USE}\n");
    code += &set_up_lines(port);
    code += "\n";
    code += &step_lines(port);
    code += &helpers(port);
    code
}

/// The same code as a whole program (the crate's `examples/corrected_port.rs` for `call`): it
/// reads one step's logits from a 1-D f32 `.npy` and prints the token drawn for each seed from 0
/// to N−1, one per line, so that its draws can be held to the column's.
#[cfg(test)]
pub(crate) fn example_program(port: &CandlePort, call: &str) -> String {
    let indent = |lines: String| -> String {
        lines
            .lines()
            .map(|l| {
                if l.is_empty() {
                    "\n".to_string()
                } else {
                    format!("        {l}\n")
                }
            })
            .collect()
    };
    format!(
        "//! Written by `example_program` (`src/columns/rust_code.rs`): the corrected candle port\n\
         //! of transformers'\n\
         //! `{call}`,\n\
         //! exactly the code the page offers to copy (a test keeps the two the same), as a program. It\n\
         //! reads one step's logits (a 1-D f32 `.npy`) and prints the token drawn for each seed from 0\n\
         //! to N−1, one per line.\n\
         //!\n\
         //! `cargo run -p sampling-lab-core --example corrected_port -- LOGITS.npy [N]`\n\n\
         // The helpers below are pasted whole; a call uses only some of them.\n\
         #![allow(dead_code)]\n\n\
         {USE}\n\
         // As the page shows it, line for line: rustfmt leaves it alone.\n\
         #[rustfmt::skip]\n\
         fn main() -> candle_core::Result<()> {{\n\
         \x20   let mut args = std::env::args().skip(1);\n\
         \x20   let path = args.next().expect(\"usage: corrected_port LOGITS.npy [N]\");\n\
         \x20   let draws: u64 = args.next().map_or(10, |n| n.parse().expect(\"N is a number of draws\"));\n\
         \x20   let logits = candle_core::Tensor::read_npy(path)?;\n\
         {}\
         \x20   for seed in 0..draws {{\n\
         {}\n\
         {}\
         \x20       println!(\"{{next_token}}\");\n\
         \x20   }}\n\
         \x20   Ok(())\n\
         }}\n{}",
        if port.penalty.is_some() || port.ban_ngrams.is_some() {
            "    let tokens: Vec<u32> = Vec::new(); // every id so far: none before the first token\n"
        } else {
            ""
        },
        indent(set_up_lines(port)).trim_end_matches('\n'),
        indent(step_lines(port)),
        helpers(port),
    )
}

fn set_up_lines(port: &CandlePort) -> String {
    format!(
        "// Once, before generating.\nlet mut processor = LogitsProcessor::from_sampling(seed, {});\n",
        sampling_text(&port.sampling)
    )
}

fn step_lines(port: &CandlePort) -> String {
    let mut code = String::from(
        "// Each step: `logits` holds the last position's logits (a 1-D f32 Tensor), `tokens` every id so far.\n",
    );
    code += &penalty_lines(port);
    if let Some(n) = port.ban_ngrams {
        code += &format!(
            "let mut scores = logits.to_vec1::<f32>()?;\nban_ngrams(&mut scores, &tokens, {n});\nlet logits = candle_core::Tensor::new(scores, logits.device())?;\n"
        );
    }
    code + &draw_lines(&port.steps)
}

/// The helpers the closure calls, as the page offers them (none for a plain `sample()`).
fn helpers(port: &CandlePort) -> String {
    if port.steps.is_empty() && port.ban_ngrams.is_none() {
        return String::new();
    }
    format!("\n{}", helpers_source())
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

/// A port's candle set-up on one line: its `Sampling`, then the `sample_f` closure's calls.
pub(crate) fn port_text(port: &CandlePort) -> String {
    let mut text = sampling_text(&port.sampling);
    if !port.steps.is_empty() {
        let calls: Vec<String> = port.steps.iter().map(Warper::rust_call).collect();
        text.push_str(&format!(" + sample_f(|prs| {{ {} }})", calls.join("; ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GenerateArgs;

    /// The example the crate ships is the code the page offers for transformers' reference call,
    /// as a program; `SAMPLING_LAB_BLESS=1 cargo test -p sampling-lab-core` writes it anew after a
    /// change to the code it is made of.
    #[test]
    fn the_shipped_example_is_the_code_the_page_offers_for_the_reference_call() {
        let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#)
            .unwrap();
        let port = CandlePort::corrected(&args, None).unwrap();
        let expected = example_program(&port, "generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)");
        // Every line the page offers is in the program, in the same order.
        let mut rest = expected.as_str();
        for line in port_program(&port).lines().map(str::trim).filter(|l| !l.is_empty()) {
            let at = rest.find(line).unwrap_or_else(|| panic!("the program lacks `{line}`"));
            rest = &rest[at + line.len()..];
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/corrected_port.rs");
        if std::env::var_os("SAMPLING_LAB_BLESS").is_some() {
            std::fs::write(path, &expected).unwrap();
        }
        let shipped = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            shipped == expected,
            "{path} is not the code the page offers: run the tests with SAMPLING_LAB_BLESS=1"
        );
    }
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
