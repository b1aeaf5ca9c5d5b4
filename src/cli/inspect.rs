//! `inspect` and `port`: a step's logits (from a file or the model) and a `generate()` call, as a
//! report of every column or as each column's request that samples what transformers does.

use crate::failure::Failure;
use crate::flags::{read, Flags};
use crate::{load_model, say, CliResult, MODEL_FLAGS};
use sampling_lab::generation::StepLogits;
use sampling_lab::logits_file::parse_logits;
use sampling_lab::text::render;
use sampling_lab_core::{
    Analysis, ColumnName, GenerateArgs, GenerationConfig, Inspection, Message, MonteCarlo, Port, ReportOptions,
};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

pub(crate) fn generation_config(flags: &Flags) -> CliResult<Option<GenerationConfig>> {
    flags
        .get("generation-config")
        .map(|path| {
            let text = String::from_utf8(read(path)?)
                .map_err(|_| Failure::said(Message::new("cli-not-utf8").verbatim("path", path)))?;
            Ok(GenerationConfig::from_json_str(&text)?)
        })
        .transpose()
}

pub fn inspect(flags: &Flags) -> CliResult<String> {
    if flags.get("model").is_some() {
        return inspect_model(flags);
    }
    flags.check(&[
        "logits",
        "params",
        "generation-config",
        "context-ids",
        "draws",
        "seed",
        "compare",
    ])?;
    let options = report_options(flags)?;
    let input = logits_inspection(flags)?;
    let analysis = Analysis::run(&input);
    printed(
        flags,
        &input,
        &analysis,
        analysis.report(options.lang, &options.compared),
    )
}

/// `--lang` and `--compare`: how the report is written.
pub(crate) fn report_options(flags: &Flags) -> CliResult<ReportOptions> {
    let mut options = ReportOptions::default();
    options.lang = flags.lang;
    match flags.get("compare") {
        None => {}
        Some("none") => options.compared.clear(),
        Some(list) => {
            options.compared = list
                .split(',')
                .map(|name| name.trim().parse::<ColumnName>())
                .collect::<Result<_, _>>()?
        }
    }
    Ok(options)
}

/// The step `--logits`, `--params`, `--generation-config` and `--context-ids` name.
fn logits_inspection(flags: &Flags) -> CliResult<Inspection> {
    let logits = parse_logits(&read(flags.required("logits")?)?)?;
    let context_ids: Vec<u32> = match flags.get("context-ids") {
        Some(text) => serde_json::from_str(text)
            .map_err(|e| Failure::said(Message::new("cli-context-ids").verbatim("detail", e.to_string())))?,
        None => Vec::new(),
    };
    let args = GenerateArgs::from_json_str(flags.required("params")?)?;
    Ok(Inspection::new(logits, args, generation_config(flags)?, context_ids)?)
}

/// Each column's request that samples from transformers' distribution at the step, checked.
pub fn port(flags: &Flags) -> CliResult<String> {
    let json = match flags.get("format").unwrap_or("text") {
        "text" => false,
        "json" => true,
        other => return Err(Failure::said(Message::new("cli-format").verbatim("value", other))),
    };
    let input = if flags.get("model").is_some() {
        flags.check(&[&MODEL_FLAGS[..], &["generation-config", "format"]].concat())?;
        let (model, ids) = load_model(flags)?;
        let logits = model.next_logits(&ids)?;
        let args = GenerateArgs::from_json_str(flags.required("params")?)?;
        StepLogits::new(Arc::new(model), logits, ids).inspection(args, generation_config(flags)?)?
    } else {
        flags.check(&["logits", "params", "generation-config", "context-ids", "format"])?;
        logits_inspection(flags)?
    };
    let lang = flags.lang;
    let ports = Port::all(&input, lang)?;
    if json {
        return serde_json::to_string(&ports).map_err(Failure::output);
    }
    let mut text = format!("{}\n", input.args.python_call());
    for port in &ports {
        text += &format!("\n== {}: {}\n", port.column, port.verdict);
        let requests = [
            ("cli-port-fixed", Some(&port.fixed)),
            ("cli-port-this-step", port.this_step.as_ref()),
        ];
        for (kind, request) in requests {
            let Some(r) = request else { continue };
            let kind = render(&Message::new(kind), lang);
            text += &format!("-- {kind}: {} (TV {:.4})\n", r.call, r.tv);
            if let Some(code) = &r.code {
                text += code.trim_end();
                text += "\n";
            }
        }
    }
    Ok(text.trim_end().to_string())
}

/// What `inspect` prints: the report, and `monte_carlo` when `--draws` asks for it.
#[derive(Serialize)]
struct Printed<R> {
    #[serde(flatten)]
    report: R,
    #[serde(skip_serializing_if = "Option::is_none")]
    monte_carlo: Option<MonteCarlo>,
}

/// One analysis serves the report and the draws.
fn printed(flags: &Flags, input: &Inspection, analysis: &Analysis, report: impl Serialize) -> CliResult<String> {
    let monte_carlo = match flags.number::<usize>("draws")? {
        Some(draws) => {
            let seed = input.args.seed_or(flags.number::<u64>("seed")?);
            Some(analysis.monte_carlo(draws, seed)?)
        }
        None => None,
    };
    serde_json::to_string(&Printed { report, monte_carlo }).map_err(Failure::output)
}

fn inspect_model(flags: &Flags) -> CliResult<String> {
    flags.check(&[&MODEL_FLAGS[..], &["generation-config", "draws", "seed", "compare"]].concat())?;
    let options = report_options(flags)?;
    let (model, ids) = load_model(flags)?;
    let started = Instant::now();
    let logits = model.next_logits(&ids)?;
    say(
        flags,
        Message::new("cli-context-run")
            .count("count", ids.len())
            .verbatim("seconds", format!("{:.2}", started.elapsed().as_secs_f64())),
    );
    let args = GenerateArgs::from_json_str(flags.required("params")?)?;
    let gc = generation_config(flags)?;
    let step = StepLogits::new(Arc::new(model), logits, ids);
    let input = step.inspection(args, gc)?;
    let analysis = Analysis::run(&input);
    printed(flags, &input, &analysis, step.report(&analysis, &options))
}
