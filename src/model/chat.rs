//! The model's own chat template (`tokenizer.chat_template`), rendered by a Jinja engine the way
//! transformers' `apply_chat_template` renders it.

use super::error::{ModelError, Result};
use minijinja::{Environment, Error, ErrorKind};
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

impl ChatTemplate {
    pub fn new(source: &str, bos_token: &str, eos_token: &str) -> Result<Self> {
        let mut env = Environment::new();
        // transformers renders with trim_blocks and lstrip_blocks, and Python string methods.
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
        env.add_function(
            "raise_exception",
            |message: String| -> std::result::Result<String, Error> {
                Err(Error::new(ErrorKind::InvalidOperation, message))
            },
        );
        env.add_template_owned(NAME, source.to_string())
            .map_err(|e| ModelError::Invalid(format!("the chat template does not parse: {e}")))?;
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
            .map_err(|e| ModelError::Invalid(format!("the chat template failed: {e}")))
    }

    /// A chat's messages rendered with the generation prompt; the answer prefix is not included.
    pub fn conversation(&self, chat: &Chat) -> Result<String> {
        if chat.messages.is_empty() {
            return Err(ModelError::Invalid("a chat needs at least one message".into()));
        }
        self.render(&chat.all_messages(), true)
    }
}
