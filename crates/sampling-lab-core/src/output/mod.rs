//! One step under every column: the analysis, its report, Monte Carlo draws and ports.
//!
//! Every column computed and compared with hf ([`analysis`]),
//! its first sentence ([`Analysis::finding`](analysis::Analysis::finding)), the JSON report the
//! command line prints and the page shows ([`report`]), Monte Carlo draws with each column's own
//! generator, checked against its exact distribution ([`monte_carlo`]), and the request that
//! ports the call to each runtime ([`port`]); a whole answer's steps under every column and what
//! they add up to ([`answer`]); a column's names and definition in a language ([`ColumnInfo`]),
//! and any message's sentence ([`Render`]).

pub mod analysis;
pub mod answer;
pub(crate) mod catalog;
pub(crate) mod finding;
pub mod monte_carlo;
pub mod port;
pub mod report;
pub(crate) mod write_up;

pub use catalog::{Catalog, ColumnInfo, Render};
