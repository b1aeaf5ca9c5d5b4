//! `sampling-lab inspect --logits FILE --params JSON [--generation-config FILE]
//!  [--context-ids JSON] [--draws N --seed S]`
//!
//! Prints one JSON report on stdout. The exit status is non-zero only for unusable input
//! (unreadable file, malformed JSON, wrong shape), with a one-line message on stderr; parameters
//! transformers rejects are part of the report, not a failure.

use sampling_lab::logits_file::parse_logits;
use sampling_lab::sampling::{Analysis, GenerateArgs, GenerationConfig, Inspection};
use std::process::ExitCode;

const USAGE: &str = "usage: sampling-lab inspect --logits FILE --params JSON [--generation-config FILE] \
[--context-ids JSON] [--draws N --seed S]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("sampling-lab: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        Some("inspect") => inspect(&Flags::parse(&args[1..])?),
        Some("-h" | "--help") | None => Err(USAGE.into()),
        Some(other) => Err(format!("unknown command `{other}`; {USAGE}")),
    }
}

/// `--name value` pairs.
struct Flags(Vec<(String, String)>);

impl Flags {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let name = flag
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument `{flag}`; {USAGE}"))?;
            let value = it.next().ok_or_else(|| format!("`--{name}` needs a value"))?;
            pairs.push((name.to_string(), value.clone()));
        }
        Ok(Flags(pairs))
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("`--{name}` must be a non-negative integer"))
            })
            .transpose()
    }
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn inspect(flags: &Flags) -> Result<String, String> {
    const KNOWN: [&str; 6] = ["logits", "params", "generation-config", "context-ids", "draws", "seed"];
    if let Some((name, _)) = flags.0.iter().find(|(n, _)| !KNOWN.contains(&n.as_str())) {
        return Err(format!("unknown flag `--{name}`; {USAGE}"));
    }
    let logits = parse_logits(&read(flags.get("logits").ok_or(USAGE)?)?)?;
    let args = GenerateArgs::from_json_str(flags.get("params").ok_or(USAGE)?)?;
    let generation_config = match flags.get("generation-config") {
        Some(path) => {
            let text = String::from_utf8(read(path)?).map_err(|_| format!("{path} is not UTF-8 text"))?;
            Some(GenerationConfig::from_json_str(&text)?)
        }
        None => None,
    };
    let context_ids: Vec<u32> = match flags.get("context-ids") {
        Some(text) => {
            serde_json::from_str(text).map_err(|e| format!("--context-ids must be a JSON array of token ids: {e}"))?
        }
        None => Vec::new(),
    };
    let seed = flags.number::<u64>("seed")?.or(args.seed).unwrap_or(0);
    let input = Inspection {
        logits,
        args,
        generation_config,
        context_ids,
    };
    let analysis = Analysis::run(&input);
    let mut report = serde_json::to_value(analysis.report()).map_err(|e| e.to_string())?;
    if let Some(draws) = flags.number::<usize>("draws")? {
        let monte_carlo = analysis.monte_carlo(&input, draws, seed)?;
        report["monte_carlo"] = serde_json::to_value(monte_carlo).map_err(|e| e.to_string())?;
    }
    serde_json::to_string(&report).map_err(|e| e.to_string())
}
