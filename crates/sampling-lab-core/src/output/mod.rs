//! What the lab says about a step: every column computed and compared with hf ([`analysis`]),
//! its first sentence ([`Analysis::finding`]), the JSON report the command line prints and the
//! page shows ([`report`]), and Monte Carlo
//! draws with each engine's own generator, checked against its exact distribution
//! ([`monte_carlo`]), and the request that ports the call to each runtime ([`port`]).

pub mod analysis;
mod finding;
pub mod monte_carlo;
pub mod port;
pub mod report;
