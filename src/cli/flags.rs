//! The command line: `--name value` pairs, the language they ask for, and the files they name.

use crate::failure::Failure;
use sampling_lab_core::{Lang, Message};

/// `--name value` pairs, and `--lang`: the language the command speaks in.
pub struct Flags {
    pairs: Vec<(String, String)>,
    pub lang: Lang,
}

/// The language `args` ask for, before anything else is read: a failure to read them is said
/// in it. English where `--lang` is missing or not a language (which the command then reports).
pub fn lang_of(args: &[String]) -> Lang {
    args.windows(2)
        .find(|pair| pair[0] == "--lang")
        .and_then(|pair| pair[1].parse().ok())
        .unwrap_or_default()
}

impl Flags {
    /// The flags after a command, `lang` being the language `lang_of` found in the whole line.
    pub fn parse(args: &[String], lang: Lang) -> Result<Self, Failure> {
        let mut pairs = Vec::new();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let name = flag.strip_prefix("--").ok_or_else(|| {
                Failure::usage(
                    Some(Message::new("cli-unexpected-argument").verbatim("argument", flag.as_str())),
                    lang,
                )
            })?;
            let value = it
                .next()
                .ok_or_else(|| Failure::said(Message::new("cli-flag-needs-value").verbatim("flag", name)))?;
            pairs.push((name.to_string(), value.clone()));
        }
        let flags = Flags { pairs, lang };
        if let Some(tag) = flags.get("lang") {
            // Not a language (`lang_of` fell back to English): the core names the ones there are.
            tag.parse::<Lang>()?;
        }
        Ok(flags)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// A flag the command cannot go without.
    pub fn required(&self, name: &'static str) -> Result<&str, Failure> {
        self.get(name)
            .ok_or_else(|| Failure::usage(Some(Message::new("cli-flag-missing").verbatim("flag", name)), self.lang))
    }

    pub fn number<T: std::str::FromStr>(&self, name: &'static str) -> Result<Option<T>, Failure> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| Failure::said(Message::new("cli-flag-not-integer").verbatim("flag", name)))
            })
            .transpose()
    }

    /// Refuses a flag the command does not take (`--lang` every command takes).
    pub fn check(&self, known: &[&str]) -> Result<(), Failure> {
        match self
            .pairs
            .iter()
            .find(|(n, _)| n != "lang" && !known.contains(&n.as_str()))
        {
            Some((name, _)) => Err(Failure::usage(
                Some(Message::new("cli-unknown-flag").verbatim("flag", name.as_str())),
                self.lang,
            )),
            None => Ok(()),
        }
    }
}

pub fn read(path: &str) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::file("cli-cannot-read", path, e))
}
