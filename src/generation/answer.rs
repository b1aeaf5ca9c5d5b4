//! A generated answer under every column: each step's figures for the call the answer was written
//! under, from the logits its session kept (the very logits a one-step inspection of that context
//! reads), kept in step with the session as it grows, branches and goes back.

use super::{GenerationError, Session, Step};
use sampling_lab_core::{Answer, AnswerStep, ColumnName, GenerateArgs, GenerationConfig, Inspection, Lang};
use serde::Serialize;

/// The call an answer's figures are for, and the figures so far.
pub struct AnswerFigures {
    args: GenerateArgs,
    generation_config: Option<GenerationConfig>,
    answer: Answer,
}

impl AnswerFigures {
    /// No steps yet, for the call `args` with `generation_config` (the model's own, where the
    /// caller gives none, as [`super::Decoding::on`] settles it).
    pub fn new(args: GenerateArgs, generation_config: Option<GenerationConfig>) -> Self {
        AnswerFigures {
            args,
            generation_config,
            answer: Answer::default(),
        }
    }

    /// Brings the figures in step with `session` from generated step `from` on: the steps before
    /// it are the session's as they were, those from it on are computed again (a branch or a way
    /// back replaced them). Returns the steps computed.
    pub fn follow(&mut self, session: &Session, from: usize) -> Result<&[AnswerStep], GenerationError> {
        let from = from.min(self.answer.steps().len());
        self.answer.truncate(from);
        for index in from..session.steps() {
            let (logits, context) = session.at(index).expect("a step of the session");
            self.push(logits.to_vec(), context.to_vec(), session.generated()[index])?;
        }
        Ok(&self.answer.steps()[from..])
    }

    /// Reads one more step — its logits, the ids before them, the token written after them —
    /// under every column.
    pub fn push(&mut self, logits: Vec<f32>, context: Vec<u32>, token: u32) -> Result<&AnswerStep, GenerationError> {
        let inspection = Inspection::new(logits, self.args.clone(), self.generation_config.clone(), context)?;
        Ok(self.answer.push_step(&inspection, token))
    }

    /// Runs `session` to its end, reading each new step under every column as it comes: on a
    /// second thread where there are threads, so that on a machine with a spare core the figures
    /// cost little beyond the generation itself (`make bench` measures both); one step after the
    /// other where there are none (wasm32 without threads: the page reads them in a worker).
    /// `on_step` sees each step as it is generated.
    pub fn generate_beside(
        &mut self,
        session: &mut Session,
        mut on_step: impl FnMut(&Step),
    ) -> Result<(), GenerationError> {
        let from = self.answer.steps().len();
        if cfg!(target_arch = "wasm32") {
            while let Some(step) = session.step()? {
                on_step(&step);
            }
            return self.follow(session, from).map(|_| ());
        }
        let (send, steps) = std::sync::mpsc::channel::<(Vec<f32>, Vec<u32>, u32)>();
        std::thread::scope(|scope| {
            let reader = scope.spawn(move || -> Result<(), GenerationError> {
                for (logits, context, token) in steps {
                    self.push(logits, context, token)?;
                }
                Ok(())
            });
            let generated = (|| {
                for index in from..session.steps() {
                    let (logits, context) = session.at(index).expect("a step of the session");
                    let _ = send.send((logits.to_vec(), context.to_vec(), session.generated()[index]));
                }
                while let Some(step) = session.step()? {
                    let (logits, context) = session.at(step.index).expect("the step just taken");
                    // A reader that stopped has said why: its error is the one returned below.
                    let _ = send.send((logits.to_vec(), context.to_vec(), step.token));
                    on_step(&step);
                }
                Ok(())
            })();
            drop(send);
            let read = reader.join().expect("the figures' thread does not panic");
            generated.and(read)
        })
    }

    /// The figures so far.
    pub fn answer(&self) -> &Answer {
        &self.answer
    }
}

/// One token of an answer: its id, its display text and the text it completed (a character split
/// over several tokens is written with its last).
#[derive(Clone, Debug, Serialize)]
pub struct AnswerToken {
    pub id: u32,
    pub token_text: String,
    pub text: String,
}

impl From<&Step> for AnswerToken {
    fn from(step: &Step) -> Self {
        AnswerToken {
            id: step.token,
            token_text: step.token_text.clone(),
            text: step.text.clone(),
        }
    }
}

/// What `sampling-lab answer` prints: the answer's tokens, the semantics and seed it was drawn
/// with, and the core's report of it (steps, summary, sentences).
#[derive(Serialize)]
pub struct AnswerOutput {
    pub semantics: ColumnName,
    pub seed: u64,
    pub call: String,
    pub finish: Option<super::Finish>,
    pub tokens: Vec<AnswerToken>,
    #[serde(flatten)]
    pub report: sampling_lab_core::output::answer::AnswerReport,
}

impl AnswerOutput {
    /// The answer `session` wrote under `semantics`, with `figures` in step with it, said in
    /// `lang` with the columns of `first` first.
    pub fn of(
        session: &Session,
        figures: &AnswerFigures,
        semantics: ColumnName,
        seed: u64,
        lang: Lang,
        first: &[ColumnName],
    ) -> Self {
        AnswerOutput {
            semantics,
            seed,
            call: figures.args.python_call(),
            finish: session.finish(),
            tokens: session.generated_steps().iter().map(AnswerToken::from).collect(),
            report: figures.answer.report(lang, first),
        }
    }
}
