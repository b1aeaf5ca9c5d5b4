//! What the sampling-lab application — its command line, its WebAssembly API, its tests and
//! fuzzers — and this crate's own tests reach beyond the stable surface. **Not stable**: any
//! release may change or remove it. A program that needs one of these should ask for it to
//! become part of the stable surface.

pub use crate::columns::torch_f32::torch_argmax;
pub use crate::distribution::log_softmax_f64;
pub use crate::inspection::check_logits;
pub use crate::output::finding::DEFAULT_PAIR;
pub use crate::output::monte_carlo::draws::Part;
pub use crate::output::monte_carlo::run::{draws_of, MonteCarloRun};

use crate::columns::dflash::DflashSampling;
use crate::{CandlePort, Distribution, GenerateArgs, SamplingError};

/// What DFlash's `sample()` draws from for the call's temperature, and its candle port: the two
/// a test holds to each other.
pub fn dflash(args: &GenerateArgs, logits: &[f32]) -> Result<(Distribution, CandlePort), SamplingError> {
    let dflash = DflashSampling::from_args(args)?;
    Ok((dflash.distribution(logits)?, dflash.candle_port()))
}
