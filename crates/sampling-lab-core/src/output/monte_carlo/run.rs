//! A Monte Carlo run in progress: made in chunks (a page reports progress between them and lets
//! a cancel through) and shared out between threads by whole blocks of seeded draws.

use super::draws::{summarize, ColumnDraws, Draws, Part, DELTA};
use super::{DrawsOrError, MonteCarlo};
use crate::columns::{ColumnName, REGISTRY};
use crate::distribution::Distribution;
use crate::output::analysis::Analysis;
use crate::text::Message;
use crate::SamplingError;

type Side = Result<(ColumnDraws, Distribution), SamplingError>;

/// Monte Carlo draws in progress, of every column Monte Carlo draws (`None`: a column that
/// cannot be set up for this call).
pub struct MonteCarloRun {
    draws: usize,
    seed: u64,
    hf: Option<Distribution>,
    sides: Vec<(ColumnName, Option<Side>)>,
}

impl MonteCarloRun {
    /// `part` of `n` seeded draws of every drawing column of `analysis`, to be made in chunks.
    pub fn new(analysis: &Analysis, n: usize, seed: u64, part: Part) -> MonteCarloRun {
        let input = &analysis.input;
        let sides = REGISTRY
            .iter()
            .filter(|registered| registered.draws)
            .map(|registered| {
                let column = &analysis.get(registered.name).engine;
                let side = column.draws(&input.logits, &input.context_ids, seed).map(|drawing| {
                    let drawing = drawing?;
                    let counts = ColumnDraws::new(drawing.source, input.logits.len(), part.draws(n));
                    Ok((counts, drawing.exact))
                });
                (registered.name, side)
            })
            .collect();
        MonteCarloRun {
            draws: n,
            seed,
            hf: analysis.hf_distribution().cloned(),
            sides,
        }
    }

    /// The columns that draw, in the registry's order.
    fn sides(&mut self) -> impl Iterator<Item = &mut ColumnDraws> {
        self.sides
            .iter_mut()
            .filter_map(|(_, side)| side.as_mut()?.as_mut().ok())
            .map(|(draws, _)| draws)
    }

    fn drawn(&self) -> impl Iterator<Item = &ColumnDraws> {
        self.sides
            .iter()
            .filter_map(|(_, side)| side.as_ref()?.as_ref().ok())
            .map(|(draws, _)| draws)
    }

    /// Makes up to `max` more draws in all; the draws done so far.
    pub fn advance(&mut self, max: usize) -> Result<usize, SamplingError> {
        let mut left = max;
        for side in self.sides() {
            left -= side.advance(left)?;
        }
        Ok(self.done())
    }

    /// Draws this part has made so far, every column together.
    pub fn done(&self) -> usize {
        self.drawn().map(ColumnDraws::done).sum()
    }

    /// Draws this part makes, every column together.
    pub fn total(&self) -> usize {
        self.drawn().map(ColumnDraws::target).sum()
    }

    /// Every column's counts, one vocabulary after the other, for [`MonteCarloRun::absorb`].
    pub fn counts(&self) -> Vec<u64> {
        self.drawn().flat_map(|side| side.counts().iter().copied()).collect()
    }

    /// Adds the counts of the other parts of the same run (same input, draws and seed).
    pub fn absorb(&mut self, counts: &[u64]) -> Result<(), SamplingError> {
        let sides: Vec<&mut ColumnDraws> = self.sides().collect();
        if counts.len() != sides.iter().map(|s| s.counts().len()).sum::<usize>() {
            return Err(SamplingError::invalid(
                Message::new("invalid-counts-columns").count("count", counts.len()),
            ));
        }
        let mut rest = counts;
        for side in sides {
            let (theirs, more) = rest.split_at(side.counts().len());
            side.absorb(theirs)?;
            rest = more;
        }
        Ok(())
    }

    /// The result, once no more draws will be made.
    pub fn finish(self) -> MonteCarlo {
        self.snapshot()
    }

    /// The result of the draws made so far.
    pub fn snapshot(&self) -> MonteCarlo {
        let summary = |side: &Side| -> DrawsOrError {
            side.as_ref()
                .map(|(draws, exact)| summarize(draws.counts(), exact, self.hf.as_ref(), self.seed))
                .map_err(Clone::clone)
                .into()
        };
        MonteCarlo {
            draws: self.draws,
            seed: self.seed,
            delta: DELTA,
            columns: self
                .sides
                .iter()
                .map(|(name, side)| (*name, side.as_ref().map(summary)))
                .collect(),
        }
    }

    /// How far each column's draws so far are from its exact distribution, and the check's
    /// bound at that many draws: `(column, draws, tv_to_exact, bound)`, for a convergence picture.
    pub fn convergence(&self) -> Vec<(ColumnName, usize, f64, f64)> {
        self.sides
            .iter()
            .filter_map(|(name, side)| {
                let (draws, exact) = side.as_ref()?.as_ref().ok()?;
                let d = summarize(draws.counts(), exact, None, self.seed);
                (d.draws > 0).then_some((*name, d.draws, d.tv_to_exact, d.bound))
            })
            .collect()
    }
}

/// `n` seeded draws of one column alone, checked against its exact distribution: `None` when the
/// column does not draw, or cannot be set up for this call.
pub fn draws_of(analysis: &Analysis, column: ColumnName, n: usize, seed: u64) -> Option<Result<Draws, SamplingError>> {
    let input = &analysis.input;
    let drawing = analysis
        .get(column)
        .engine
        .draws(&input.logits, &input.context_ids, seed)?;
    Some(drawing.and_then(|drawing| {
        let mut draws = ColumnDraws::new(drawing.source, input.logits.len(), 0..n);
        draws.advance(usize::MAX)?;
        Ok(summarize(
            draws.counts(),
            &drawing.exact,
            analysis.hf_distribution(),
            seed,
        ))
    }))
}
