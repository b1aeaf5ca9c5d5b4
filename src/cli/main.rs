//! `sampling-lab inspect --logits FILE --params JSON [--generation-config FILE]
//!  [--context-ids JSON] [--draws N --seed S] [--compare COLUMNS]`
//! `sampling-lab inspect --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  --params JSON [--precision exact|fast] ...`
//! `sampling-lab generate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  [--params JSON] [--precision exact|fast] [--semantics COLUMN] [--max-new-tokens N] [--seed S]`
//! `sampling-lab speculate --model PATH --prompt TEXT [--params JSON] [--semantics S]
//!  [--draft greedy|prompt-lookup|sampled] [--block N] [--max-new-tokens N] [--seed S]`
//! `sampling-lab answer --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  [--params JSON] [--semantics COLUMN] [--max-new-tokens N] [--seed S] [--compare COLUMNS]`
//! `sampling-lab logits --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  [--precision exact|fast] --out FILE.npy`
//! `sampling-lab export-hub --model FILE.gguf --out DIR [--dtype f32|bf16|f16]`
//! `sampling-lab port (--logits FILE | --model PATH --prompt TEXT ...) --params JSON [--format text|json]`
//! `sampling-lab rules`
//!
//! Every command takes `--lang en|zh-Hans`, the language of what it says: a report's sentences,
//! its progress and its errors (English by default).
//!
//! `inspect` prints one JSON report on stdout (its sentences in `--lang`, their ids and arguments
//! the same in every language; its finding compares `--compare` with hf, the literal and the
//! corrected port by default); `generate` streams the answer's text; `answer` generates one and
//! prints, for every token of it, every column's figures there and what they add up to; `logits`
//! writes the next-token logits after a chat as `.npy` (exact precision gives the page's bits on
//! any CPU, so the file is a witness of what the page computes); `export-hub`
//! writes the GGUF's model in the Hugging Face layout; `port` prints, for each column, the request
//! that makes that runtime sample from transformers' distribution at this step, checked; `rules` lists the causes a report can name
//! (the names exercise sets use), one per line with its column. The exit status is non-zero only for unusable input
//! (unreadable file, malformed JSON, wrong shape), with a one-line message on stderr; parameters
//! transformers rejects are part of the report, not a failure.

mod answer;
mod failure;
mod flags;
mod inspect;

use failure::Failure;
use flags::{read, Flags};
use sampling_lab::generation::speculative::{self, DraftSource, Speculative, DEFAULT_BLOCK};
use sampling_lab::generation::{Decoding, Session};
use sampling_lab::model::{export, Chat, Model, Precision};
use sampling_lab::text::render;
use sampling_lab_core::columns::causes::Rule;
use sampling_lab_core::columns::{dflash, hf};
use sampling_lab_core::{ColumnName, GenerateArgs, Lang, Message};
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The commands and their flags (the usage's sentences are the catalog's).
const SYNOPSIS: &str = "
  sampling-lab inspect --logits FILE --params JSON [--generation-config FILE] [--context-ids JSON] [--draws N --seed S]
                       [--compare COLUMN,...]
  sampling-lab inspect --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] --params JSON
                       [--precision exact|fast] [--generation-config FILE] [--draws N --seed S]
                       [--compare COLUMN,...]
  sampling-lab generate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] [--params JSON]
                        [--precision exact|fast] [--semantics COLUMN] [--max-new-tokens N] [--seed S]
  sampling-lab answer --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] [--params JSON]
                      [--precision exact|fast] [--generation-config FILE] [--semantics COLUMN]
                      [--max-new-tokens N] [--seed S] [--compare COLUMN,...]
  sampling-lab speculate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] [--params JSON]
                         [--semantics COLUMN] [--draft greedy|prompt-lookup|sampled]
                         [--block N] [--max-new-tokens N] [--seed S] [--precision exact]
  sampling-lab logits --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
                      [--precision exact|fast] --out FILE.npy
  sampling-lab export-hub --model FILE.gguf --out DIR [--dtype f32|bf16|f16]
  sampling-lab port (--logits FILE | --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT])
                    --params JSON [--generation-config FILE] [--context-ids JSON] [--format text|json]
  sampling-lab rules
  sampling-lab COMMAND ... [--lang en|zh-Hans]";

/// The usage in `lang`, with the columns the registry lists.
fn usage(lang: Lang) -> String {
    let columns: Vec<&str> = ColumnName::all().map(ColumnName::name).collect();
    let say = |id| render(&Message::new(id), lang);
    format!(
        "{}{SYNOPSIS}\n{}\n{}\n{}",
        say("cli-usage"),
        say("cli-usage-path"),
        say("cli-usage-lang"),
        render(
            &Message::new("cli-usage-columns").verbatim("columns", columns.join(", ")),
            lang
        ),
    )
}

/// The one place the crate's typed errors become text: the line on stderr, in `--lang`.
pub(crate) type CliResult<T> = Result<T, Failure>;

/// Default answer length of `generate`.
const MAX_NEW_TOKENS: usize = 256;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lang = flags::lang_of(&args);
    match run(&args, lang) {
        Ok(output) => {
            if !output.is_empty() {
                println!("{output}");
            }
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("sampling-lab: {}", failure.explain(lang));
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String], lang: Lang) -> CliResult<String> {
    match args.first().map(String::as_str) {
        Some("inspect") => inspect::inspect(&Flags::parse(&args[1..], lang)?),
        Some("generate") => generate(&Flags::parse(&args[1..], lang)?).map(|()| String::new()),
        Some("answer") => answer::answer(&Flags::parse(&args[1..], lang)?),
        Some("speculate") => speculate(&Flags::parse(&args[1..], lang)?),
        Some("logits") => logits(&Flags::parse(&args[1..], lang)?),
        Some("export-hub") => export_hub(&Flags::parse(&args[1..], lang)?),
        Some("port") => inspect::port(&Flags::parse(&args[1..], lang)?),
        Some("rules") => Ok(rules()),
        Some("-h" | "--help") | None => Err(Failure::usage(None, lang)),
        // `sampling-lab --lang zh-Hans` asks for the usage in that language.
        Some("--lang") if args.len() == 2 => Err(Failure::usage(None, lang)),
        Some(flag) if flag.starts_with('-') => Err(Failure::usage(Some(Message::new("cli-command-missing")), lang)),
        Some(other) => Err(Failure::usage(
            Some(Message::new("cli-unknown-command").verbatim("command", other)),
            lang,
        )),
    }
}

/// Every cause rule a report can name, with the column it explains: `name<TAB>column` lines.
fn rules() -> String {
    let lines: Vec<String> = Rule::all()
        .map(|rule| format!("{}\t{}", rule.name(), rule.column().name()))
        .collect();
    lines.join("\n")
}

pub(crate) const MODEL_FLAGS: [&str; 6] = ["model", "prompt", "system", "answer-prefix", "precision", "params"];

pub(crate) fn load_model(flags: &Flags) -> CliResult<(Model, Vec<u32>)> {
    let path = flags.required("model")?;
    let precision_flag = flags.get("precision").unwrap_or("exact");
    let precision: Precision = precision_flag.parse()?;
    let started = Instant::now();
    let model = load_model_path(std::path::Path::new(path), precision)?;
    say(
        flags,
        Message::new("cli-loaded")
            .verbatim("path", path)
            .verbatim("precision", precision_flag)
            .verbatim("seconds", format!("{:.2}", started.elapsed().as_secs_f64())),
    );
    let chat = Chat::single(
        flags.get("system"),
        flags.required("prompt")?,
        flags.get("answer-prefix").unwrap_or(""),
    );
    let ids = model.chat_ids(&chat)?;
    Ok((model, ids))
}

/// A `.gguf` file, or a directory in the Hub layout.
fn load_model_path(path: &std::path::Path, precision: Precision) -> CliResult<Model> {
    if path.is_dir() {
        let file = |name: &str| read(&path.join(name).to_string_lossy());
        let optional = |name: &str| path.join(name).is_file().then(|| file(name)).transpose();
        let files = sampling_lab::model::hub::HubFiles {
            config: file("config.json")?,
            weights: file("model.safetensors")?,
            tokenizer: file("tokenizer.json")?,
            tokenizer_config: optional("tokenizer_config.json")?,
            generation_config: optional("generation_config.json")?,
        };
        Ok(Model::from_hub(&files)?)
    } else {
        Ok(Model::from_gguf(&read(&path.to_string_lossy())?, precision)?)
    }
}

/// The next-token logits after the chat, as a float32 `.npy` at `--out`.
fn logits(flags: &Flags) -> CliResult<String> {
    flags.check(&[&MODEL_FLAGS[..5], &["out"]].concat())?;
    let out = flags.required("out")?;
    let (model, ids) = load_model(flags)?;
    let logits = model.next_logits(&ids)?;
    std::fs::write(out, sampling_lab::logits_file::to_npy(&logits))
        .map_err(|e| Failure::file("cli-cannot-write", out, e))?;
    let wrote = Message::new("cli-wrote-logits")
        .count("count", ids.len())
        .verbatim("path", out);
    Ok(render(&wrote, flags.lang))
}

fn generate(flags: &Flags) -> CliResult<()> {
    flags.check(&[&MODEL_FLAGS[..], &["semantics", "max-new-tokens", "seed"]].concat())?;
    let (model, ids) = load_model(flags)?;
    let args = GenerateArgs::from_json_str(flags.get("params").unwrap_or("{}"))?;
    let semantics: ColumnName = flags.get("semantics").unwrap_or(hf::NAME.name()).parse()?;
    let call = Decoding::on(&model, semantics, args, None, flags.number("seed")?);
    let max_new_tokens = flags.number("max-new-tokens")?.unwrap_or(MAX_NEW_TOKENS);
    let started = Instant::now();
    let mut session = Session::start(Arc::new(model), ids, call.sampler(0)?, max_new_tokens)?;
    let prefill = started.elapsed();
    let mut out = std::io::stdout().lock();
    while let Some(step) = session.step()? {
        write!(out, "{}", step.text)
            .and_then(|()| out.flush())
            .map_err(Failure::output)?;
    }
    writeln!(out).map_err(Failure::output)?;
    let decode = started.elapsed() - prefill;
    say(
        flags,
        Message::new("cli-generated")
            .count("prompt", session.prompt().len())
            .verbatim("prefill", format!("{:.2}", prefill.as_secs_f64()))
            .count("steps", session.steps())
            .verbatim("seconds", format!("{:.2}", decode.as_secs_f64()))
            .verbatim("rate", format!("{:.1}", session.steps() as f64 / decode.as_secs_f64()))
            .verbatim("finish", format!("{:?}", session.finish()))
            .verbatim("ids", format!("{:?}", session.generated())),
    );
    Ok(())
}

/// DFlash's decode loop on the model: one JSON object with every round.
fn speculate(flags: &Flags) -> CliResult<String> {
    flags.check(
        &[
            &MODEL_FLAGS[..],
            &["semantics", "draft", "block", "max-new-tokens", "seed"],
        ]
        .concat(),
    )?;
    let (model, ids) = load_model(flags)?;
    let args = GenerateArgs::from_json_str(flags.get("params").unwrap_or("{}"))?;
    let semantics: ColumnName = flags.get("semantics").unwrap_or(dflash::NAME.name()).parse()?;
    let settings = Speculative {
        block_size: flags.number("block")?.unwrap_or(DEFAULT_BLOCK),
        draft: flags.get("draft").unwrap_or("greedy").parse::<DraftSource>()?,
        max_new_tokens: flags.number("max-new-tokens")?.unwrap_or(MAX_NEW_TOKENS),
    };
    let call = Decoding::on(&model, semantics, args, None, flags.number("seed")?);
    let started = Instant::now();
    let result = speculative::speculate(Arc::new(model), &ids, &call, settings)?;
    let mut value = serde_json::to_value(result).map_err(Failure::output)?;
    value["ms"] = serde_json::json!(started.elapsed().as_secs_f64() * 1000.0);
    serde_json::to_string(&value).map_err(Failure::output)
}

/// Writes config.json, model.safetensors, tokenizer.json and tokenizer_config.json to `--out`.
fn export_hub(flags: &Flags) -> CliResult<String> {
    flags.check(&["model", "out", "dtype"])?;
    let dtype = match flags.get("dtype").unwrap_or("f32") {
        "f32" => candle_core::DType::F32,
        "bf16" => candle_core::DType::BF16,
        "f16" => candle_core::DType::F16,
        other => return Err(Failure::said(Message::new("cli-dtype").verbatim("value", other))),
    };
    let files = export::hub_files_from_gguf(&read(flags.required("model")?)?, dtype)?;
    let out = std::path::Path::new(flags.required("out")?);
    std::fs::create_dir_all(out).map_err(|e| Failure::file("cli-cannot-write", out.display(), e))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = out.join(name);
        std::fs::write(&path, bytes).map_err(|e| Failure::file("cli-cannot-write", path.display(), e))
    };
    write("config.json", &files.config)?;
    write("model.safetensors", &files.weights)?;
    write("tokenizer.json", &files.tokenizer)?;
    write(
        "tokenizer_config.json",
        files.tokenizer_config.as_deref().unwrap_or(b"{}"),
    )?;
    let wrote = Message::new("cli-wrote-hub").verbatim("path", out.display().to_string());
    Ok(render(&wrote, flags.lang))
}

/// A line of progress on stderr, in `--lang`.
pub(crate) fn say(flags: &Flags, message: Message) {
    eprintln!("{}", render(&message, flags.lang));
}
