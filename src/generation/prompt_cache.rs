//! The last prompt run through the model, kept: the page inspects one prompt under many argument
//! settings and then generates from it, all on one prefill.

use super::session::Prefill;
use super::GenerationError;
use crate::model::{KvCache, Model};

#[derive(Default)]
pub struct PromptCache {
    last: Option<LastPrompt>,
}

struct LastPrompt {
    ids: Vec<u32>,
    logits: Vec<f32>,
    /// Until a generation of this prompt takes it over: that generation skips the prefill.
    cache: Option<KvCache>,
}

impl PromptCache {
    /// The next-token logits after `ids`: the last prompt's when it is this one, else a new
    /// prefill's (which becomes the last prompt).
    pub fn logits_after(&mut self, model: &Model, ids: &[u32]) -> Result<Vec<f32>, GenerationError> {
        if let Some(last) = self.last.as_ref().filter(|last| last.ids == ids) {
            return Ok(last.logits.clone());
        }
        let Prefill { ids, cache, logits } = Prefill::run(model, ids.to_vec())?;
        self.last = Some(LastPrompt {
            ids,
            logits: logits.clone(),
            cache: Some(cache),
        });
        Ok(logits)
    }

    /// Whether [`Self::prefill`] of `prompt` would hand out the last prompt's cache (no forward
    /// pass to run: the page then says the prompt was already run, rather than a prefill of 0 s).
    pub fn holds_prefill_of(&self, prompt: &[u32]) -> bool {
        self.last
            .as_ref()
            .is_some_and(|last| last.ids == prompt && last.cache.is_some())
    }

    /// A generation's prefill of `prompt`: the last prompt's cache when it is this prompt's and
    /// still unused (the same computation, already done), else a new one. A cache is handed out
    /// once: the generation extends it.
    pub fn prefill(&mut self, model: &Model, prompt: Vec<u32>) -> Result<Prefill, GenerationError> {
        if let Some(last) = self.last.as_mut().filter(|last| last.ids == prompt) {
            if let Some(cache) = last.cache.take() {
                let logits = last.logits.clone();
                return Ok(Prefill {
                    ids: prompt,
                    cache,
                    logits,
                });
            }
        }
        let prefill = Prefill::run(model, prompt)?;
        self.last = Some(LastPrompt {
            ids: prefill.ids.clone(),
            logits: prefill.logits.clone(),
            cache: None,
        });
        Ok(prefill)
    }
}
