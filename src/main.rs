//! `sampling-lab inspect --logits FILE --params JSON [--generation-config FILE]
//!  [--context-ids JSON] [--draws N --seed S] [--lang en|zh-Hans] [--compare COLUMNS]`
//! `sampling-lab inspect --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  --params JSON [--precision exact|fast] ...`
//! `sampling-lab generate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  [--params JSON] [--precision exact|fast] [--semantics COLUMN] [--max-new-tokens N] [--seed S]`
//! `sampling-lab speculate --model PATH --prompt TEXT [--params JSON] [--semantics S]
//!  [--draft greedy|prompt-lookup|sampled] [--block N] [--max-new-tokens N] [--seed S]`
//! `sampling-lab logits --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
//!  [--precision exact|fast] --out FILE.npy`
//! `sampling-lab export-hub --model FILE.gguf --out DIR [--dtype f32|bf16|f16]`
//! `sampling-lab port (--logits FILE | --model PATH --prompt TEXT ...) --params JSON [--format text|json]
//!  [--lang en|zh-Hans]`
//! `sampling-lab rules`
//!
//! `inspect` prints one JSON report on stdout (its sentences in `--lang`, their ids and arguments
//! the same in every language; its finding compares `--compare` with hf, the literal and the
//! corrected port by default); `generate` streams the answer's text; `logits`
//! writes the next-token logits after a chat as `.npy` (exact precision gives the page's bits on
//! any CPU, so the file is a witness of what the page computes); `export-hub`
//! writes the GGUF's model in the Hugging Face layout; `port` prints, for each column, the request
//! that makes that runtime sample from transformers' distribution at this step, checked; `rules` lists the causes a report can name
//! (the names exercise sets use), one per line with its column. The exit status is non-zero only for unusable input
//! (unreadable file, malformed JSON, wrong shape), with a one-line message on stderr; parameters
//! transformers rejects are part of the report, not a failure.

use sampling_lab::generation::speculative::{self, DraftSource, Speculative, DEFAULT_BLOCK};
use sampling_lab::generation::{Decoding, Session, StepLogits};
use sampling_lab::logits_file::parse_logits;
use sampling_lab::model::{export, Chat, Model, Precision};
use sampling_lab_core::columns::causes::Rule;
use sampling_lab_core::columns::{dflash, hf};
use sampling_lab_core::{
    Analysis, ColumnName, GenerateArgs, GenerationConfig, Inspection, Lang, MonteCarlo, Port, ReportOptions,
};
use serde::Serialize;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

const USAGE: &str = "usage:
  sampling-lab inspect --logits FILE --params JSON [--generation-config FILE] [--context-ids JSON] [--draws N --seed S]
                       [--lang en|zh-Hans] [--compare COLUMN,...]
  sampling-lab inspect --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] --params JSON
                       [--precision exact|fast] [--generation-config FILE] [--draws N --seed S]
                       [--lang en|zh-Hans] [--compare COLUMN,...]
  sampling-lab generate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] [--params JSON]
                        [--precision exact|fast] [--semantics COLUMN] [--max-new-tokens N] [--seed S]
  sampling-lab speculate --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT] [--params JSON]
                         [--semantics COLUMN] [--draft greedy|prompt-lookup|sampled]
                         [--block N] [--max-new-tokens N] [--seed S] [--precision exact]
  sampling-lab logits --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT]
                      [--precision exact|fast] --out FILE.npy
  sampling-lab export-hub --model FILE.gguf --out DIR [--dtype f32|bf16|f16]
  sampling-lab port (--logits FILE | --model PATH --prompt TEXT [--system TEXT] [--answer-prefix TEXT])
                    --params JSON [--generation-config FILE] [--context-ids JSON] [--format text|json]
                    [--lang en|zh-Hans]
  sampling-lab rules
PATH is a .gguf file or a directory in the Hugging Face layout (config.json, model.safetensors, tokenizer.json, ...).
--lang: the language of the report's sentences (English by default). --compare: the columns the finding compares
with transformers (literal,corrected by default; `none` for the largest departure).
COLUMN is one of the columns of the report:";

/// The usage, with the columns the registry lists.
fn usage() -> String {
    let columns: Vec<&str> = ColumnName::all().map(ColumnName::name).collect();
    format!(
        "{USAGE} {} (generate: hf by default; speculate: dflash).",
        columns.join(", ")
    )
}

/// The one place the crate's typed errors become text: the message on stderr.
type CliResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Default answer length of `generate`.
const MAX_NEW_TOKENS: usize = 256;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(output) => {
            if !output.is_empty() {
                println!("{output}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("sampling-lab: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> CliResult<String> {
    match args.first().map(String::as_str) {
        Some("inspect") => inspect(&Flags::parse(&args[1..])?),
        Some("generate") => generate(&Flags::parse(&args[1..])?).map(|()| String::new()),
        Some("speculate") => speculate(&Flags::parse(&args[1..])?),
        Some("logits") => logits(&Flags::parse(&args[1..])?),
        Some("export-hub") => export_hub(&Flags::parse(&args[1..])?),
        Some("port") => port(&Flags::parse(&args[1..])?),
        Some("rules") => Ok(rules()),
        Some("-h" | "--help") | None => Err(usage().into()),
        Some(other) => Err(format!("unknown command `{other}`; {}", usage()).into()),
    }
}

/// Every cause rule a report can name, with the column it explains: `name<TAB>column` lines.
fn rules() -> String {
    let lines: Vec<String> = Rule::all()
        .map(|rule| format!("{}\t{}", rule.name(), rule.column().name()))
        .collect();
    lines.join("\n")
}

/// `--name value` pairs.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn parse(args: &[String]) -> CliResult<Self> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let name = flag
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument `{flag}`; {}", usage()))?;
            let value = it.next().ok_or_else(|| format!("`--{name}` needs a value"))?;
            pairs.push((name.to_string(), value.clone()));
        }
        Ok(Flags(pairs))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> CliResult<Option<T>> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("`--{name}` must be a non-negative integer").into())
            })
            .transpose()
    }
}

fn read(path: &str) -> CliResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}").into())
}

fn check_flags(flags: &Flags, known: &[&str]) -> CliResult<()> {
    match flags.0.iter().find(|(n, _)| !known.contains(&n.as_str())) {
        Some((name, _)) => Err(format!("unknown flag `--{name}`\n{}", usage()).into()),
        None => Ok(()),
    }
}

fn generation_config(flags: &Flags) -> CliResult<Option<GenerationConfig>> {
    flags
        .get("generation-config")
        .map(|path| {
            let text = String::from_utf8(read(path)?).map_err(|_| format!("{path} is not UTF-8 text"))?;
            Ok(GenerationConfig::from_json_str(&text)?)
        })
        .transpose()
}

fn inspect(flags: &Flags) -> CliResult<String> {
    if flags.get("model").is_some() {
        return inspect_model(flags);
    }
    check_flags(
        flags,
        &[
            "logits",
            "params",
            "generation-config",
            "context-ids",
            "draws",
            "seed",
            "lang",
            "compare",
        ],
    )?;
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
fn report_options(flags: &Flags) -> CliResult<ReportOptions> {
    let mut options = ReportOptions::default();
    if let Some(lang) = flags.get("lang") {
        options.lang = lang.parse()?;
    }
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
    let logits = parse_logits(&read(flags.get("logits").ok_or_else(usage)?)?)?;
    let context_ids: Vec<u32> = match flags.get("context-ids") {
        Some(text) => {
            serde_json::from_str(text).map_err(|e| format!("--context-ids must be a JSON array of token ids: {e}"))?
        }
        None => Vec::new(),
    };
    let args = GenerateArgs::from_json_str(flags.get("params").ok_or_else(usage)?)?;
    Ok(Inspection::new(logits, args, generation_config(flags)?, context_ids)?)
}

/// Each column's request that samples from transformers' distribution at the step, checked.
fn port(flags: &Flags) -> CliResult<String> {
    let json = match flags.get("format").unwrap_or("text") {
        "text" => false,
        "json" => true,
        other => return Err(format!("--format must be text or json, not `{other}`").into()),
    };
    let input = if flags.get("model").is_some() {
        check_flags(
            flags,
            &[&MODEL_FLAGS[..], &["generation-config", "format", "lang"]].concat(),
        )?;
        let (model, ids) = load_model(flags)?;
        let logits = model.next_logits(&ids)?;
        let args = GenerateArgs::from_json_str(flags.get("params").ok_or_else(usage)?)?;
        StepLogits::new(Arc::new(model), logits, ids).inspection(args, generation_config(flags)?)?
    } else {
        check_flags(
            flags,
            &["logits", "params", "generation-config", "context-ids", "format", "lang"],
        )?;
        logits_inspection(flags)?
    };
    let lang: Lang = flags.get("lang").unwrap_or("en").parse()?;
    let ports = Port::all(&input, lang)?;
    if json {
        return Ok(serde_json::to_string(&ports)?);
    }
    let mut text = format!("{}\n", input.args.python_call());
    for port in &ports {
        text += &format!("\n== {}: {}\n", port.column, port.verdict);
        let requests = [
            ("fixed request", Some(&port.fixed)),
            ("this step only", port.this_step.as_ref()),
        ];
        for (kind, request) in requests {
            let Some(r) = request else { continue };
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
    Ok(serde_json::to_string(&Printed { report, monte_carlo })?)
}

const MODEL_FLAGS: [&str; 6] = ["model", "prompt", "system", "answer-prefix", "precision", "params"];

fn load_model(flags: &Flags) -> CliResult<(Model, Vec<u32>)> {
    let path = flags.get("model").ok_or_else(usage)?;
    let precision: Precision = flags.get("precision").unwrap_or("exact").parse()?;
    let started = Instant::now();
    let model = load_model_path(std::path::Path::new(path), precision)?;
    eprintln!(
        "loaded {path} ({:?}) in {:.2} s",
        precision,
        started.elapsed().as_secs_f64()
    );
    let chat = Chat::single(
        flags.get("system"),
        flags.get("prompt").ok_or_else(usage)?,
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

fn inspect_model(flags: &Flags) -> CliResult<String> {
    check_flags(
        flags,
        &[
            &MODEL_FLAGS[..],
            &["generation-config", "draws", "seed", "lang", "compare"],
        ]
        .concat(),
    )?;
    let options = report_options(flags)?;
    let (model, ids) = load_model(flags)?;
    let started = Instant::now();
    let logits = model.next_logits(&ids)?;
    eprintln!(
        "{} context tokens in {:.2} s",
        ids.len(),
        started.elapsed().as_secs_f64()
    );
    let args = GenerateArgs::from_json_str(flags.get("params").ok_or_else(usage)?)?;
    let gc = generation_config(flags)?;
    let step = StepLogits::new(Arc::new(model), logits, ids);
    let input = step.inspection(args, gc)?;
    let analysis = Analysis::run(&input);
    printed(flags, &input, &analysis, step.report(&analysis, &options))
}

/// The next-token logits after the chat, as a float32 `.npy` at `--out`.
fn logits(flags: &Flags) -> CliResult<String> {
    check_flags(flags, &[&MODEL_FLAGS[..5], &["out"]].concat())?;
    let out = flags.get("out").ok_or_else(usage)?;
    let (model, ids) = load_model(flags)?;
    let logits = model.next_logits(&ids)?;
    std::fs::write(out, sampling_lab::logits_file::to_npy(&logits)).map_err(|e| format!("{out}: {e}"))?;
    Ok(format!("wrote the logits after {} context tokens to {out}", ids.len()))
}

fn generate(flags: &Flags) -> CliResult<()> {
    check_flags(
        flags,
        &[&MODEL_FLAGS[..], &["semantics", "max-new-tokens", "seed"]].concat(),
    )?;
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
        write!(out, "{}", step.text).and_then(|()| out.flush())?;
    }
    writeln!(out)?;
    let decode = started.elapsed() - prefill;
    eprintln!(
        "prefill {} tokens {:.2} s; {} tokens in {:.2} s ({:.1} tok/s); finished: {:?}; ids: {:?}",
        session.prompt().len(),
        prefill.as_secs_f64(),
        session.steps(),
        decode.as_secs_f64(),
        session.steps() as f64 / decode.as_secs_f64(),
        session.finish(),
        session.generated()
    );
    Ok(())
}

/// DFlash's decode loop on the model: one JSON object with every round.
fn speculate(flags: &Flags) -> CliResult<String> {
    check_flags(
        flags,
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
    let mut value = serde_json::to_value(result)?;
    value["ms"] = serde_json::json!(started.elapsed().as_secs_f64() * 1000.0);
    Ok(serde_json::to_string(&value)?)
}

/// Writes config.json, model.safetensors, tokenizer.json and tokenizer_config.json to `--out`.
fn export_hub(flags: &Flags) -> CliResult<String> {
    check_flags(flags, &["model", "out", "dtype"])?;
    let dtype = match flags.get("dtype").unwrap_or("f32") {
        "f32" => candle_core::DType::F32,
        "bf16" => candle_core::DType::BF16,
        "f16" => candle_core::DType::F16,
        other => return Err(format!("--dtype must be f32, bf16 or f16, not `{other}`").into()),
    };
    let files = export::hub_files_from_gguf(&read(flags.get("model").ok_or_else(usage)?)?, dtype)?;
    let out = std::path::Path::new(flags.get("out").ok_or_else(usage)?);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let write = |name: &str, bytes: &[u8]| std::fs::write(out.join(name), bytes).map_err(|e| format!("{name}: {e}"));
    write("config.json", &files.config)?;
    write("model.safetensors", &files.weights)?;
    write("tokenizer.json", &files.tokenizer)?;
    write(
        "tokenizer_config.json",
        files.tokenizer_config.as_deref().unwrap_or(b"{}"),
    )?;
    Ok(format!("wrote the Hugging Face layout to {}", out.display()))
}
