//! `answer`: generate an answer to a chat under one column, then read every step of it under every
//! column — what each would draw there, and how often it would leave transformers' support along
//! the whole answer — as one JSON object.

use crate::failure::Failure;
use crate::flags::Flags;
use crate::inspect::{generation_config, report_options};
use crate::{load_model, say, CliResult, MODEL_FLAGS};
use sampling_lab::generation::{AnswerFigures, AnswerOutput, Decoding, Session};
use sampling_lab_core::columns::hf;
use sampling_lab_core::{ColumnName, GenerateArgs, Message};
use std::sync::Arc;
use std::time::Instant;

/// Default answer length of `answer`: the page's.
const MAX_NEW_TOKENS: usize = 64;

pub fn answer(flags: &Flags) -> CliResult<String> {
    flags.check(
        &[
            &MODEL_FLAGS[..],
            &["generation-config", "semantics", "max-new-tokens", "seed", "compare"],
        ]
        .concat(),
    )?;
    let options = report_options(flags)?;
    let (model, ids) = load_model(flags)?;
    let args = GenerateArgs::from_json_str(flags.get("params").unwrap_or("{}"))?;
    let semantics: ColumnName = flags.get("semantics").unwrap_or(hf::NAME.name()).parse()?;
    let call = Decoding::on(
        &model,
        semantics,
        args,
        generation_config(flags)?,
        flags.number("seed")?,
    );
    let max_new_tokens = flags.number("max-new-tokens")?.unwrap_or(MAX_NEW_TOKENS);
    let mut session = Session::start(Arc::new(model), ids, call.sampler(0)?, max_new_tokens)?;
    let mut figures = AnswerFigures::new(call.args.clone(), call.generation_config.clone());
    // Timed as `generate` times its decoding, from the end of the prefill, so that the two compare.
    let started = Instant::now();
    let mut generated = started.elapsed();
    figures.generate_beside(&mut session, |_| generated = started.elapsed())?;
    say(
        flags,
        Message::new("cli-answered")
            .count("steps", session.steps())
            .verbatim("seconds", format!("{:.2}", generated.as_secs_f64()))
            .verbatim("figures", format!("{:.2}", started.elapsed().as_secs_f64())),
    );
    let output = AnswerOutput::of(
        &session,
        &figures,
        semantics,
        call.seed,
        options.lang,
        &options.compared,
    );
    serde_json::to_string(&output).map_err(Failure::output)
}
