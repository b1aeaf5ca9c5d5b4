//! What the lab says about a step: every column computed and compared with hf ([`analysis`]),
//! its first sentence ([`Analysis::finding`]), the JSON report the command line prints and the
//! page shows ([`report`]), and Monte Carlo
//! draws with each engine's own generator, checked against its exact distribution
//! ([`monte_carlo`]), the request that ports the call to each runtime ([`port`]), and the
//! reference chat's numbers beside the write-up's ([`write_up`]).

pub mod analysis;
pub mod catalog;
pub mod finding;
pub mod monte_carlo;
pub mod port;
pub mod report;
pub mod write_up;
