//! The model's own chat template (`tokenizer.chat_template`), rendered by a Jinja engine the way
//! transformers' `apply_chat_template` renders it.

use super::error::{ModelError, Result};
use minijinja::{Environment, Error, ErrorKind};
use sampling_lab_core::Message as Sentence;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub role: String,
    pub content: String,
}

impl Message {
    pub fn new(role: &str, content: &str) -> Self {
        Message {
            role: role.into(),
            content: content.into(),
        }
    }
}

/// A conversation as the page and the CLI describe it: optional system message, turns, and text
/// the assistant's answer is forced to start with.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Chat {
    #[serde(default)]
    pub system: Option<String>,
    pub messages: Vec<Message>,
    #[serde(default)]
    pub answer_prefix: String,
}

impl Chat {
    pub fn single(system: Option<&str>, user: &str, answer_prefix: &str) -> Self {
        Chat {
            system: system.filter(|s| !s.is_empty()).map(str::to_string),
            messages: vec![Message::new("user", user)],
            answer_prefix: answer_prefix.to_string(),
        }
    }

    fn all_messages(&self) -> Vec<Message> {
        let system = self.system.iter().map(|s| Message::new("system", s));
        system.chain(self.messages.iter().cloned()).collect()
    }
}

pub struct ChatTemplate {
    env: Environment<'static>,
    bos_token: String,
    eos_token: String,
}

const NAME: &str = "chat_template";

/// A template comes from the model file, and Jinja can loop: a render may take this many
/// instructions (SmolLM2's takes a few hundred per message) and produce this many bytes.
const FUEL: u64 = 2_000_000;
const MAX_RENDERED: usize = 4 << 20;
/// Nested calls and includes a template may make.
const RECURSION: usize = 64;

impl ChatTemplate {
    pub fn new(source: &str, bos_token: &str, eos_token: &str) -> Result<Self> {
        let mut env = Environment::new();
        // transformers renders with trim_blocks and lstrip_blocks, and Python string methods.
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.set_fuel(Some(FUEL));
        env.set_recursion_limit(RECURSION);
        env.add_function(
            "raise_exception",
            |message: String| -> std::result::Result<String, Error> {
                Err(Error::new(ErrorKind::InvalidOperation, message))
            },
        );
        env.add_template_owned(NAME, source.to_string()).map_err(|e| {
            ModelError::Invalid(Sentence::new("model-template-parse").verbatim("detail", e.to_string()))
        })?;
        Ok(ChatTemplate {
            env,
            bos_token: bos_token.into(),
            eos_token: eos_token.into(),
        })
    }

    /// `apply_chat_template(messages, add_generation_prompt=..., tokenize=False)`.
    pub fn render(&self, messages: &[Message], add_generation_prompt: bool) -> Result<String> {
        let template = self.env.get_template(NAME).expect("added in new");
        template
            .render(minijinja::context! {
                messages => messages,
                add_generation_prompt => add_generation_prompt,
                bos_token => &self.bos_token,
                eos_token => &self.eos_token,
            })
            .map_err(|e| match e.kind() {
                ErrorKind::OutOfFuel => {
                    ModelError::Invalid(Sentence::new("model-template-fuel").count("fuel", FUEL as usize))
                }
                _ => ModelError::Invalid(Sentence::new("model-template-failed").verbatim("detail", e.to_string())),
            })
            .and_then(|text| match text.len() {
                n if n > MAX_RENDERED => Err(ModelError::Invalid(
                    Sentence::new("model-template-too-long")
                        .count("bytes", n)
                        .count("max", MAX_RENDERED),
                )),
                _ => Ok(text),
            })
    }

    /// A chat's messages rendered with the generation prompt; the answer prefix is not included.
    pub fn conversation(&self, chat: &Chat) -> Result<String> {
        if chat.messages.is_empty() {
            return Err(ModelError::Invalid(Sentence::new("model-chat-empty")));
        }
        self.render(&chat.all_messages(), true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(source: &str) -> Result<String> {
        ChatTemplate::new(source, "<s>", "</s>")?.render(&[Message::new("user", "hi")], true)
    }

    #[test]
    fn a_template_that_loops_is_stopped_by_name() {
        let err =
            render("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}").unwrap_err();
        assert!(err.to_string().contains("instructions"), "{err}");
    }

    #[test]
    fn a_template_that_recurses_without_end_is_stopped() {
        let err = render("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}").unwrap_err();
        assert!(err.to_string().contains("chat template"), "{err}");
    }

    #[test]
    fn a_template_that_writes_megabytes_is_refused() {
        let err = render("{{ 'x' * 5000000 }}").unwrap_err();
        assert!(err.to_string().contains("bytes"), "{err}");
    }

    #[test]
    fn an_ordinary_template_renders() {
        assert_eq!(
            render("{% for m in messages %}{{ m.role }}: {{ m.content }}{% endfor %}").unwrap(),
            "user: hi"
        );
    }
}
