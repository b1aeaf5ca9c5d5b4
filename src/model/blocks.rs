//! Weight matrices kept in the file's quantization blocks (or as f32, for dense weights) and
//! multiplied in f32 by the [`kernels`], whose order of operations is fixed.
//!
//! Exact precision means f32 arithmetic on the weights the file describes — the values
//! `dequantize` yields. Holding those values as f32 costs 4 bytes per weight (540 MB for
//! SmolLM2-135M) and every decoded token reads all of them; the blocks hold the same values in
//! 0.6–1.1 bytes. A row's dot product is taken block by block on the stored integers, scale
//! factored out:
//!
//! - `Q8_0`: `w_j = d·q_j`, so `Σ w_j x_j = d · Σ q_j x_j`;
//! - `Q4_1`: `w_j = d·q_j + m`, so `Σ w_j x_j = d · Σ q_j x_j + m · Σ x_j`.
//!
//! Only the rounding order differs from multiplying the dequantized matrix (relative 1e-7 per
//! term); activations stay f32, unlike candle's quantized matmul, which rounds them to 8 bits.
//! Weights of other formats (and a Hub checkpoint's) are held dequantized, as f32 rows.

use super::kernels::{self, BLOCK};
use super::pool::{self, DisjointRows};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{DType, Device, Tensor};
use half::f16;

/// Matrix rows per range when the rows are split over threads: 16 outputs fill a 64-byte cache
/// line, so two threads never write the same line.
const ROW_ALIGN: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockFormat {
    /// `w = d·q + m`, q in 0..16; stored as `d: f16, m: f16, 16 bytes` (in the file, low nibbles
    /// are values 0..16 of the block, high nibbles 16..32; here as [`kernels::store_q4_1`] keeps
    /// them).
    Q4_1,
    /// `w = d·q`, q an i8; stored as `d: f16, 32 bytes`.
    Q8_0,
    /// Plain f32 values, any width: weights without a block kernel, dequantized once.
    F32,
}

impl BlockFormat {
    fn of(dtype: GgmlDType) -> Option<Self> {
        match dtype {
            GgmlDType::Q4_1 => Some(BlockFormat::Q4_1),
            GgmlDType::Q8_0 => Some(BlockFormat::Q8_0),
            _ => None,
        }
    }

    /// f32 values per row held in `factors`: the blocks' widened f16 factors, or every value.
    fn factors_per_row(self, cols: usize) -> usize {
        match self {
            BlockFormat::Q4_1 => 2 * cols / BLOCK,
            BlockFormat::Q8_0 => cols / BLOCK,
            BlockFormat::F32 => cols,
        }
    }

    /// Bytes of integers per row.
    fn quants_per_row(self, cols: usize) -> usize {
        match self {
            BlockFormat::Q4_1 => cols / 2,
            BlockFormat::Q8_0 => cols,
            BlockFormat::F32 => 0,
        }
    }
}

/// A `[rows, cols]` matrix as the file stores it, with each block's f16 factors widened to f32
/// once (exactly) and kept apart from its integers, so that the kernels read aligned runs of both.
#[derive(Clone, Debug)]
pub struct BlockMatrix {
    rows: usize,
    cols: usize,
    format: BlockFormat,
    /// Per block: `d` (Q8_0) or `d, m` (Q4_1); every value for F32.
    factors: Vec<f32>,
    quants: Vec<u8>,
}

impl BlockMatrix {
    /// `None` for formats without a kernel here (they are dequantized instead).
    pub fn from_qtensor(q: &QTensor) -> candle_core::Result<Option<Self>> {
        let (rows, cols) = q.shape().dims2()?;
        Ok(Self::from_bytes(q.dtype(), rows, cols, &q.data()?))
    }

    /// From a tensor's bytes as a GGUF stores them; `None` for formats without a kernel here.
    pub fn from_bytes(dtype: GgmlDType, rows: usize, cols: usize, data: &[u8]) -> Option<Self> {
        let format = BlockFormat::of(dtype).filter(|_| cols.is_multiple_of(BLOCK))?;
        let (nf, nq) = (
            format.factors_per_row(cols) / (cols / BLOCK),
            format.quants_per_row(cols) / (cols / BLOCK),
        );
        (data.len() == rows * cols / BLOCK * (2 * nf + nq)).then(|| Self::from_stored(format, rows, cols, data))
    }

    /// A dense matrix (any float type, widened exactly to f32) as f32 rows.
    pub fn dense(t: &Tensor) -> candle_core::Result<Self> {
        let (rows, cols) = t.dims2()?;
        Ok(BlockMatrix {
            rows,
            cols,
            format: BlockFormat::F32,
            factors: t.to_dtype(DType::F32)?.flatten_all()?.to_vec1()?,
            quants: Vec::new(),
        })
    }

    /// Splits the file's blocks into widened factors and integers.
    fn from_stored(format: BlockFormat, rows: usize, cols: usize, data: &[u8]) -> Self {
        let blocks = rows * cols / BLOCK;
        let (nf, nq) = (format.factors_per_row(BLOCK), format.quants_per_row(BLOCK));
        let mut factors = vec![0f32; blocks * nf];
        let mut quants = vec![0u8; blocks * nq];
        let widened = widened_f16();
        let stored = data.chunks_exact(2 * nf + nq);
        for ((block, f), q) in stored
            .zip(factors.chunks_exact_mut(nf))
            .zip(quants.chunks_exact_mut(nq))
        {
            for (i, f) in f.iter_mut().enumerate() {
                *f = widened[u16::from_le_bytes([block[2 * i], block[2 * i + 1]]) as usize];
            }
            match format {
                BlockFormat::Q4_1 => kernels::store_q4_1(&block[2 * nf..], q),
                _ => q.copy_from_slice(&block[2 * nf..]),
            }
        }
        BlockMatrix {
            rows,
            cols,
            format,
            factors,
            quants,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn format(&self) -> BlockFormat {
        self.format
    }

    /// Row `r`'s factors (values, for F32) and integers.
    fn row(&self, r: usize) -> (&[f32], &[u8]) {
        self.rows_of(r..r + 1)
    }

    /// The factors and integers of consecutive rows.
    fn rows_of(&self, rows: std::ops::Range<usize>) -> (&[f32], &[u8]) {
        let (f, q) = (
            self.format.factors_per_row(self.cols),
            self.format.quants_per_row(self.cols),
        );
        (
            &self.factors[rows.start * f..rows.end * f],
            &self.quants[rows.start * q..rows.end * q],
        )
    }

    /// The rows of every part, one part after another: products that read the same input become
    /// one product (one split over the threads instead of several). `None` unless the parts share
    /// a format and a width.
    pub fn stack(parts: &[&BlockMatrix]) -> Option<Self> {
        let first = parts.first()?;
        if parts.iter().any(|p| p.format != first.format || p.cols != first.cols) {
            return None;
        }
        Some(BlockMatrix {
            rows: parts.iter().map(|p| p.rows).sum(),
            cols: first.cols,
            format: first.format,
            factors: parts.iter().flat_map(|p| p.factors.iter().copied()).collect(),
            quants: parts.iter().flat_map(|p| p.quants.iter().copied()).collect(),
        })
    }

    /// Row `i` of the result is row `order[i]` of `self`.
    pub fn reorder_rows(&self, order: &[u32]) -> Self {
        let mut factors = Vec::with_capacity(self.factors.len());
        let mut quants = Vec::with_capacity(self.quants.len());
        for &r in order {
            let (f, q) = self.row(r as usize);
            factors.extend_from_slice(f);
            quants.extend_from_slice(q);
        }
        BlockMatrix {
            rows: self.rows,
            cols: self.cols,
            format: self.format,
            factors,
            quants,
        }
    }

    /// Rows as f32, bit for bit what candle's `dequantize` gives.
    pub fn dequantize_rows(&self, rows: &[usize]) -> Vec<f32> {
        let mut out = vec![0f32; rows.len() * self.cols];
        for (&r, values) in rows.iter().zip(out.chunks_exact_mut(self.cols)) {
            self.dequantize_row(r, values);
        }
        out
    }

    fn dequantize_row(&self, r: usize, values: &mut [f32]) {
        let (factors, quants) = self.row(r);
        let (nf, nq) = match self.format {
            BlockFormat::F32 => return values.copy_from_slice(factors),
            format => (format.factors_per_row(BLOCK), format.quants_per_row(BLOCK)),
        };
        let blocks = factors.chunks_exact(nf).zip(quants.chunks_exact(nq));
        for ((f, q), ys) in blocks.zip(values.chunks_exact_mut(BLOCK)) {
            match self.format {
                BlockFormat::Q8_0 => kernels::dequantize_q8_0(f[0], q, ys),
                BlockFormat::Q4_1 => kernels::dequantize_q4_1(f[0], f[1], q, ys),
                BlockFormat::F32 => unreachable!("copied above"),
            }
        }
    }

    pub fn dequantize(&self) -> candle_core::Result<Tensor> {
        let rows: Vec<usize> = (0..self.rows).collect();
        Tensor::from_vec(self.dequantize_rows(&rows), (self.rows, self.cols), &Device::Cpu)
    }

    /// `x · wᵀ` for activation rows `xs` (`n × cols`, row-major): `n × rows` outputs, each one
    /// row's dot product on its blocks in the kernels' order, whatever `n` (so a decoded token's
    /// outputs are bit for bit those of the same token in a prompt). The matrix rows are split
    /// over the pool's threads; with several activation rows each writes its outputs into a buffer of
    /// its own, then into its columns of the result (one range, or one activation row, writes the
    /// result itself).
    pub fn product(&self, xs: &[f32]) -> Vec<f32> {
        let n = xs.len() / self.cols;
        assert_eq!(xs.len(), n * self.cols);
        // Q4_1's per-block sums of x, once per activation row, before the rows are split.
        let sums: Vec<f32> = match self.format {
            BlockFormat::Q4_1 => xs.chunks_exact(BLOCK).map(|b| b.iter().sum()).collect(),
            _ => Vec::new(),
        };
        let mut out = vec![0f32; n * self.rows];
        let writer = DisjointRows::new(&mut out);
        pool::for_rows(self.rows, ROW_ALIGN, &|range| {
            let width = range.len();
            let (f, q) = self.rows_of(range.clone());
            let product = |own: &mut [f32]| match self.format {
                BlockFormat::Q8_0 => kernels::q8_0_product(f, q, self.cols, xs, own),
                BlockFormat::Q4_1 => kernels::q4_1_product(f, q, self.cols, xs, &sums, own),
                BlockFormat::F32 => kernels::f32_product(f, self.cols, xs, own),
            };
            if n == 1 || width == self.rows {
                // The range's outputs are consecutive in the result (one activation row, as in
                // decoding, or one range of every row): written in place.
                // SAFETY: the pool's ranges are disjoint, and with one activation row so are
                // their outputs; a range of every row is the only one.
                return product(unsafe { writer.slice(range.start, n * width) });
            }
            let mut own = vec![0f32; n * width];
            product(&mut own);
            for (t, values) in own.chunks_exact(width).enumerate() {
                // SAFETY: the pool's ranges are disjoint, so each call writes its own outputs.
                unsafe { writer.slice(t * self.rows + range.start, width) }.copy_from_slice(values);
            }
        });
        out
    }
}

/// Every f16 widened to f32, built once: wasm converts f16 in software, which costs more per
/// call than a table lookup, and a model has millions of factors.
fn widened_f16() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..=u16::MAX).map(|bits| f16::from_bits(bits).to_f32()).collect())
}
