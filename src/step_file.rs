//! One step of a model as a file a writer puts beside their post: the next-token logits of a
//! chat, the model that computed them, and the characters its byte tokens begin — so that an
//! embed of the writer's own chat draws its figures from the sampling core alone, before (or
//! without) the 98 MB model. The page reads it from anywhere its links may point (the Hub, its
//! own origin), so everything in it is checked before anything is drawn: the format, the size,
//! the model it came from, the chat it is for, the logits' length and values.
//!
//! ```json
//! {"format": "sampling-lab step", "version": 1,
//!  "model": {"sha256": "b179…", "name": "SmolLM2-135M-Instruct"},
//!  "chat": {"system": null, "messages": [{"role": "user", "content": "…"}], "answer_prefix": "…"},
//!  "context_ids": [1, 9690, …], "logits": "<base64 of little-endian float32>",
//!  "completions": [{"token": 177, "text": "谢", "probability": 0.93, "continuation": [234, 120]}]}
//! ```

use crate::text::Explain;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// What the `format` field says.
pub const FORMAT: &str = "sampling-lab step";
/// The version this build reads and writes.
pub const VERSION: u32 = 1;
/// The largest file read: a 49152-token vocabulary's logits take 262 KB in base64, a long
/// context's ids and the completions a few KB more.
pub const MAX_BYTES: usize = 1 << 20;

/// The chat a step follows, as the page and the template take it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepChat {
    pub system: Option<String>,
    pub messages: Vec<StepMessage>,
    #[serde(default)]
    pub answer_prefix: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepMessage {
    pub role: String,
    pub content: String,
}

/// The model a step came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepModel {
    /// The model file's sha256, lower-case hex.
    pub sha256: String,
    /// Its name, for readers.
    pub name: String,
}

/// A character a byte token begins, as the model completes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepCompletion {
    pub token: u32,
    pub text: String,
    pub probability: f64,
    pub continuation: Vec<u32>,
}

/// A step, read and checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepFile {
    pub model: StepModel,
    pub chat: StepChat,
    pub context_ids: Vec<u32>,
    pub logits: Vec<f32>,
    pub completions: Vec<StepCompletion>,
}

/// The file as written: the logits as base64 text.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    format: String,
    version: u32,
    model: StepModel,
    chat: StepChat,
    context_ids: Vec<u32>,
    logits: String,
    #[serde(default)]
    completions: Vec<StepCompletion>,
}

/// Why a step file cannot be used, each a sentence in the page's catalog (`step-file-<kind>`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StepFileError {
    #[error("the step file has {bytes} bytes; a step takes at most {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the step file is not a sampling-lab step: {0}")]
    NotAStep(String),
    #[error("the step file is version {0}; this page reads version 1")]
    Version(u32),
    #[error("the step file's logits are not base64 text of float32 values")]
    Logits,
    #[error("the step file has {got} logits; the model has a vocabulary of {expected}")]
    Length { got: usize, expected: usize },
    #[error("the step file's logits cannot be inspected: {0}")]
    Values(sampling_lab_core::SamplingError),
    #[error("the step file's context ids do not fit a vocabulary of {0}")]
    Ids(usize),
    #[error("the step file was made with another model (sha256 {file}), not this site's ({site})")]
    OtherModel { file: String, site: String },
    #[error("the step file is for another chat than the link's")]
    OtherChat,
}

impl StepFileError {
    /// The page's catalog id for this error, and its arguments.
    pub fn message(&self) -> (&'static str, serde_json::Value) {
        use serde_json::json;
        match self {
            StepFileError::TooLarge { bytes, limit } => {
                ("step-file-too-large", json!({"bytes": bytes, "limit": limit}))
            }
            StepFileError::NotAStep(detail) => ("step-file-not-a-step", json!({"detail": detail})),
            StepFileError::Version(v) => ("step-file-version", json!({"version": v})),
            StepFileError::Logits => ("step-file-logits", json!({})),
            StepFileError::Length { got, expected } => ("step-file-length", json!({"got": got, "expected": expected})),
            // The core's sentence in every language, for the page to pick the reader's.
            StepFileError::Values(e) => {
                let texts: serde_json::Map<_, _> = sampling_lab_core::Lang::ALL
                    .iter()
                    .map(|lang| (lang.tag().to_string(), json!(e.explain(*lang))))
                    .collect();
                ("step-file-values", json!({"detail": {"texts": texts}}))
            }
            StepFileError::Ids(vocab) => ("step-file-ids", json!({"vocab": vocab})),
            StepFileError::OtherModel { file, site } => ("step-file-other-model", json!({"file": file, "site": site})),
            StepFileError::OtherChat => ("step-file-other-chat", json!({})),
        }
    }
}

/// Reads `bytes` as a step of the model with sha256 `model_sha256` and a vocabulary of `vocab`
/// tokens, for `chat` (none: any chat).
pub fn read(
    bytes: &[u8],
    model_sha256: &str,
    vocab: usize,
    chat: Option<&StepChat>,
) -> Result<StepFile, StepFileError> {
    if bytes.len() > MAX_BYTES {
        return Err(StepFileError::TooLarge {
            bytes: bytes.len(),
            limit: MAX_BYTES,
        });
    }
    let written: Written = serde_json::from_slice(bytes).map_err(|e| StepFileError::NotAStep(e.to_string()))?;
    if written.format != FORMAT {
        return Err(StepFileError::NotAStep(format!("its format is “{}”", written.format)));
    }
    if written.version != VERSION {
        return Err(StepFileError::Version(written.version));
    }
    if !written.model.sha256.eq_ignore_ascii_case(model_sha256) {
        return Err(StepFileError::OtherModel {
            file: written.model.sha256,
            site: model_sha256.to_string(),
        });
    }
    if chat.is_some_and(|chat| *chat != written.chat) {
        return Err(StepFileError::OtherChat);
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(written.logits.as_bytes())
        .map_err(|_| StepFileError::Logits)?;
    if raw.len() % 4 != 0 {
        return Err(StepFileError::Logits);
    }
    let logits: Vec<f32> = raw
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if logits.len() != vocab {
        return Err(StepFileError::Length {
            got: logits.len(),
            expected: vocab,
        });
    }
    sampling_lab_core::check_logits(&logits).map_err(StepFileError::Values)?;
    let in_vocabulary = |id: &u32| (*id as usize) < vocab;
    let completions_fit = written.completions.iter().all(|c| {
        in_vocabulary(&c.token) && c.continuation.iter().all(in_vocabulary) && (0.0..=1.0).contains(&c.probability)
    });
    if !written.context_ids.iter().all(in_vocabulary) || !completions_fit {
        return Err(StepFileError::Ids(vocab));
    }
    Ok(StepFile {
        model: written.model,
        chat: written.chat,
        context_ids: written.context_ids,
        logits,
        completions: written.completions,
    })
}

/// The step as a file: what [`read`] reads back, bit for bit.
pub fn write(step: &StepFile) -> String {
    let raw: Vec<u8> = step.logits.iter().flat_map(|v| v.to_le_bytes()).collect();
    let written = Written {
        format: FORMAT.into(),
        version: VERSION,
        model: step.model.clone(),
        chat: step.chat.clone(),
        context_ids: step.context_ids.clone(),
        logits: base64::engine::general_purpose::STANDARD.encode(raw),
        completions: step.completions.clone(),
    };
    serde_json::to_string(&written).expect("a step serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step() -> StepFile {
        StepFile {
            model: StepModel {
                sha256: "ab".repeat(32),
                name: "model".into(),
            },
            chat: StepChat {
                system: None,
                messages: vec![StepMessage {
                    role: "user".into(),
                    content: "你好".into(),
                }],
                answer_prefix: String::new(),
            },
            context_ids: vec![1, 2],
            logits: vec![0.5, -1.25, f32::NEG_INFINITY, 3.0],
            completions: vec![StepCompletion {
                token: 3,
                text: "谢".into(),
                probability: 0.5,
                continuation: vec![2],
            }],
        }
    }

    #[test]
    fn a_written_step_reads_back_bit_for_bit() {
        let s = step();
        let read = read(write(&s).as_bytes(), &s.model.sha256, 4, Some(&s.chat)).unwrap();
        assert_eq!(read, s);
    }

    #[test]
    fn another_model_or_another_chat_is_refused_by_name() {
        let s = step();
        let text = write(&s);
        let other = read(text.as_bytes(), &"cd".repeat(32), 4, None).unwrap_err();
        assert!(matches!(other, StepFileError::OtherModel { .. }), "{other}");
        let mut chat = s.chat.clone();
        chat.answer_prefix = "x".into();
        assert_eq!(
            read(text.as_bytes(), &s.model.sha256, 4, Some(&chat)),
            Err(StepFileError::OtherChat)
        );
    }

    #[test]
    fn a_truncated_or_oversized_file_or_a_wrong_length_is_refused() {
        let s = step();
        let text = write(&s);
        let truncated = read(&text.as_bytes()[..text.len() / 2], &s.model.sha256, 4, None).unwrap_err();
        assert!(matches!(truncated, StepFileError::NotAStep(_)), "{truncated}");
        let big = vec![b' '; MAX_BYTES + 1];
        assert!(matches!(
            read(&big, &s.model.sha256, 4, None),
            Err(StepFileError::TooLarge { .. })
        ));
        assert_eq!(
            read(text.as_bytes(), &s.model.sha256, 5, None),
            Err(StepFileError::Length { got: 4, expected: 5 })
        );
    }

    #[test]
    fn a_nan_among_the_logits_is_refused() {
        let mut s = step();
        s.logits[1] = f32::NAN;
        assert!(matches!(
            read(write(&s).as_bytes(), &s.model.sha256, 4, None),
            Err(StepFileError::Values(_))
        ));
    }
}
