//! transformers' truncation rules (top-k, top-p, min-p, typical, ε, η): each as a mask over
//! probabilities the way hf evaluates it ([`masks`]), as one step of the corrected port's
//! `sample_f` closure that validates itself against transformers' conditions ([`steps`]), and as
//! the dependency-free helpers the closure calls and users copy ([`closure`]).

pub mod closure;
pub mod masks;
pub mod steps;
