//! Weight matrices kept in the file's quantization blocks and multiplied in f32.
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

use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{CpuStorage, CustomOp1, Device, Layout, Shape, Tensor};
use half::f16;

use super::pool;

/// Values per block in both formats.
const BLOCK: usize = 32;

/// Rows per panel of [`BlockMatrix::matmul`]: two f32x4 vectors of outputs.
const PANEL: usize = 8;

/// Up to this many activation rows a matrix is applied row by row on its blocks; more (a
/// prompt) go through dequantized panels, which amortise the dequantization over the rows.
pub const DIRECT_ROWS: usize = 4;

/// Matrix rows per range when a few activation rows are split over threads: 16 outputs fill a
/// 64-byte cache line, so two threads never write the same line.
const ROW_ALIGN: usize = 16;

/// Whether a prompt goes through [`BlockMatrix::matmul`]'s panels: where the explicit simd128
/// kernel exists, they beat dequantizing whole matrices for candle's matmul; natively (portable
/// lanes 0.70 s against 0.45 s for the reference prompt) they do not.
const PANELS: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockFormat {
    /// `w = d·q + m`, q in 0..16; stored as `d: f16, m: f16, 16 bytes` (low nibbles are values
    /// 0..16 of the block, high nibbles 16..32).
    Q4_1,
    /// `w = d·q`, q an i8; stored as `d: f16, 32 bytes`.
    Q8_0,
}

impl BlockFormat {
    fn of(dtype: GgmlDType) -> Option<Self> {
        match dtype {
            GgmlDType::Q4_1 => Some(BlockFormat::Q4_1),
            GgmlDType::Q8_0 => Some(BlockFormat::Q8_0),
            _ => None,
        }
    }

    /// f16 factors at the start of each stored block.
    fn factors(self) -> usize {
        match self {
            BlockFormat::Q4_1 => 2,
            BlockFormat::Q8_0 => 1,
        }
    }

    fn quant_bytes(self) -> usize {
        match self {
            BlockFormat::Q4_1 => BLOCK / 2,
            BlockFormat::Q8_0 => BLOCK,
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
    /// Per block: `d` (Q8_0) or `d, m` (Q4_1).
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
        let format = BlockFormat::of(dtype).filter(|_| cols % BLOCK == 0)?;
        let stored = 2 * format.factors() + format.quant_bytes();
        (data.len() == rows * cols / BLOCK * stored).then(|| Self::from_stored(format, rows, cols, data))
    }

    /// Splits the file's blocks into widened factors and integers.
    fn from_stored(format: BlockFormat, rows: usize, cols: usize, data: &[u8]) -> Self {
        let (nf, nq) = (format.factors(), format.quant_bytes());
        let blocks = rows * cols / BLOCK;
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
            q.copy_from_slice(&block[2 * nf..]);
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

    /// Row `r`'s factors and integers.
    fn row(&self, r: usize) -> (&[f32], &[u8]) {
        let blocks = self.cols / BLOCK;
        let (f, q) = (blocks * self.format.factors(), blocks * self.format.quant_bytes());
        (&self.factors[r * f..(r + 1) * f], &self.quants[r * q..(r + 1) * q])
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
        let blocks = factors
            .chunks_exact(self.format.factors())
            .zip(quants.chunks_exact(self.format.quant_bytes()));
        for ((f, q), ys) in blocks.zip(values.chunks_exact_mut(BLOCK)) {
            dequantize_block(self.format, f, q, ys);
        }
    }

    pub fn dequantize(&self) -> candle_core::Result<Tensor> {
        let rows: Vec<usize> = (0..self.rows).collect();
        Tensor::from_vec(self.dequantize_rows(&rows), (self.rows, self.cols), &Device::Cpu)
    }

    /// `out[t·rows + r] = Σ_j w[r][j] · xs[t·cols + j]` for a few activation rows (a decoded
    /// token, a drafted block), each output one row's dot product on the blocks. The matrix rows
    /// are split over the pool's threads.
    pub fn matvecs(&self, xs: &[f32], out: &mut [f32]) {
        let n = xs.len() / self.cols;
        debug_assert_eq!((xs.len(), out.len()), (n * self.cols, n * self.rows));
        // Q4_1's per-block sums of x, once per activation row, before the rows are split.
        let sums: Vec<Vec<f32>> = match self.format {
            BlockFormat::Q4_1 => xs
                .chunks_exact(self.cols)
                .map(|x| x.chunks_exact(BLOCK).map(|b| b.iter().sum()).collect())
                .collect(),
            BlockFormat::Q8_0 => Vec::new(),
        };
        let out = DisjointRows::new(out);
        pool::for_rows(self.rows, ROW_ALIGN, &|rows| {
            for (t, x) in xs.chunks_exact(self.cols).enumerate() {
                // SAFETY: the pool's ranges are disjoint, so each call writes its own outputs.
                let y = unsafe { out.slice(t * self.rows + rows.start, rows.len()) };
                for (r, y) in rows.clone().zip(y) {
                    let (f, q) = self.row(r);
                    *y = match self.format {
                        BlockFormat::Q8_0 => kernels::q8_0_row_dot(f, q, x),
                        BlockFormat::Q4_1 => kernels::q4_1_row_dot(f, q, x, &sums[t]),
                    };
                }
            }
        });
    }

    /// `out[t][r] = Σ_j w[r][j] · xs[t][j]` for every activation row `t` of `xs` (a prompt).
    ///
    /// Eight matrix rows at a time are dequantized into a panel that holds column `j` of the eight
    /// side by side; every activation row then goes past the panel while it sits in cache, eight
    /// outputs per multiply-add. The dequantized matrix is never written out whole (4 bytes per
    /// weight, more than the arithmetic costs to read back), and each output is a plain sum over
    /// `j` of dequantized weight times activation. Whole panels are split over the pool's threads;
    /// each writes its outputs into a buffer of its own, then into its rows of `out`.
    pub fn matmul(&self, xs: &[f32], out: &mut [f32]) {
        let n = xs.len() / self.cols;
        debug_assert_eq!(n * self.rows, out.len());
        let out = DisjointRows::new(out);
        pool::for_rows(self.rows, PANEL, &|range| {
            let width = range.len();
            let mut rows = vec![0f32; PANEL * self.cols];
            let mut panel = vec![0f32; PANEL * self.cols];
            let mut own = vec![0f32; n * width];
            for first in range.clone().step_by(PANEL) {
                let count = PANEL.min(range.end - first);
                if count < PANEL {
                    rows.fill(0.0);
                }
                for (r, values) in rows.chunks_exact_mut(self.cols).take(count).enumerate() {
                    self.dequantize_row(first + r, values);
                }
                kernels::interleave(&rows, self.cols, &mut panel);
                let at = first - range.start;
                kernels::panel_product(&panel, xs, &mut own, width, at..at + count);
            }
            for (t, values) in own.chunks_exact(width).enumerate() {
                // SAFETY: the pool's ranges are disjoint, so each call writes its own outputs.
                unsafe { out.slice(t * self.rows + range.start, width) }.copy_from_slice(values);
            }
        });
    }

    /// `x · wᵀ` over the last dimension of `x`. A few activation rows go row by row on the
    /// blocks; a prompt goes through dequantized panels where the explicit simd128 kernel exists
    /// (the page), and elsewhere through candle's matmul on the dequantized matrix, which candle's
    /// AVX / NEON kernels make faster than portable lanes.
    pub fn apply(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        if x.elem_count() / self.cols > DIRECT_ROWS && !PANELS {
            return x.broadcast_matmul(&self.dequantize()?.t()?);
        }
        x.contiguous()?.apply_op1_no_bwd(self)
    }
}

impl CustomOp1 for BlockMatrix {
    fn name(&self) -> &'static str {
        "block-matmul"
    }

    fn cpu_fwd(&self, storage: &CpuStorage, layout: &Layout) -> candle_core::Result<(CpuStorage, Shape)> {
        let CpuStorage::F32(data) = storage else {
            candle_core::bail!("block-matmul takes f32 activations")
        };
        let Some((start, end)) = layout.contiguous_offsets() else {
            candle_core::bail!("block-matmul takes contiguous activations")
        };
        let dims = layout.shape().dims();
        if dims.last() != Some(&self.cols) {
            candle_core::bail!(
                "block-matmul: activations {dims:?} against a [{}, {}] matrix",
                self.rows,
                self.cols
            )
        }
        let xs = &data[start..end];
        let mut out = vec![0f32; xs.len() / self.cols * self.rows];
        if xs.len() / self.cols <= DIRECT_ROWS {
            self.matvecs(xs, &mut out);
        } else {
            self.matmul(xs, &mut out);
        }
        let mut shape = dims.to_vec();
        *shape.last_mut().unwrap() = self.rows;
        Ok((CpuStorage::F32(out), Shape::from(shape)))
    }
}

/// An output buffer the pool's threads write in disjoint parts.
struct DisjointRows {
    ptr: *mut f32,
    len: usize,
}

// SAFETY: threads only write through `slice`, whose callers take disjoint parts.
unsafe impl Sync for DisjointRows {}

impl DisjointRows {
    fn new(out: &mut [f32]) -> Self {
        DisjointRows {
            ptr: out.as_mut_ptr(),
            len: out.len(),
        }
    }

    /// `out[start..start + len]`.
    ///
    /// # Safety
    /// No two live slices may overlap.
    #[allow(clippy::mut_from_ref)]
    unsafe fn slice(&self, start: usize, len: usize) -> &mut [f32] {
        assert!(start + len <= self.len, "rows {start}..{} of {}", start + len, self.len);
        // SAFETY: in bounds (checked); disjoint from every other live slice (the caller's promise).
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(start), len) }
    }
}

/// Every f16 widened to f32, built once: wasm converts f16 in software, which costs more per
/// call than a table lookup, and a model has millions of factors.
fn widened_f16() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..=u16::MAX).map(|bits| f16::from_bits(bits).to_f32()).collect())
}

/// The dequantization formulas, in candle's order of operations (a multiply, then an add:
/// never fused, so every value is bit for bit candle's).
fn dequantize_block(format: BlockFormat, factors: &[f32], quants: &[u8], out: &mut [f32]) {
    match format {
        BlockFormat::Q8_0 => kernels::dequantize_q8_0(factors[0], quants, out),
        BlockFormat::Q4_1 => kernels::dequantize_q4_1(factors[0], factors[1], quants, out),
    }
}

/// One row's dot product with an activation row, block by block on the stored integers.
/// wasm gets explicit simd128 (the page's build enables it); elsewhere four independent lanes
/// let the compiler pick the vector unit.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod kernels {
    use super::{BLOCK, PANEL};
    use std::ops::Range;

    /// `panel[j·PANEL + r] = rows[r·cols + j]`: column `j` of the panel's rows side by side.
    pub fn interleave(rows: &[f32], cols: usize, panel: &mut [f32]) {
        for (r, row) in rows.chunks_exact(cols).enumerate() {
            for (j, &w) in row.iter().enumerate() {
                panel[j * PANEL + r] = w;
            }
        }
    }

    /// `out[t·out_cols + r] = Σ_j panel[j·PANEL + r − rows.start] · xs[t·cols + j]` for `r` in `rows`.
    pub fn panel_product(panel: &[f32], xs: &[f32], out: &mut [f32], out_cols: usize, rows: Range<usize>) {
        let cols = panel.len() / PANEL;
        for (x, y) in xs.chunks_exact(cols).zip(out.chunks_exact_mut(out_cols)) {
            let mut acc = [0f32; PANEL];
            for (w, &xj) in panel.chunks_exact(PANEL).zip(x) {
                for r in 0..PANEL {
                    acc[r] += w[r] * xj;
                }
            }
            y[rows.clone()].copy_from_slice(&acc[..rows.len()]);
        }
    }

    type Lanes = [f32; 4];

    #[inline(always)]
    fn fold(acc: &mut Lanes, d: f32, block: Lanes) {
        for l in 0..4 {
            acc[l] += d * block[l];
        }
    }

    pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
        for (y, &q) in out.iter_mut().zip(quants) {
            *y = (q as i8) as f32 * d;
        }
    }

    pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
        for (j, &q) in quants.iter().enumerate() {
            out[j] = (q & 0x0F) as f32 * d + m;
            out[j + BLOCK / 2] = (q >> 4) as f32 * d + m;
        }
    }

    pub fn q8_0_row_dot(d: &[f32], quants: &[u8], x: &[f32]) -> f32 {
        let mut acc = [0f32; 4];
        for ((&d, q), xb) in d.iter().zip(quants.chunks_exact(BLOCK)).zip(x.chunks_exact(BLOCK)) {
            let mut s = [0f32; 4];
            for j in (0..BLOCK).step_by(4) {
                for l in 0..4 {
                    s[l] += (q[j + l] as i8) as f32 * xb[j + l];
                }
            }
            fold(&mut acc, d, s);
        }
        acc.iter().sum()
    }

    pub fn q4_1_row_dot(dm: &[f32], quants: &[u8], x: &[f32], sums: &[f32]) -> f32 {
        let mut acc = [0f32; 4];
        let mut offset = 0f32;
        let blocks = dm.chunks_exact(2).zip(quants.chunks_exact(BLOCK / 2));
        for (((dm, q), xb), &sum) in blocks.zip(x.chunks_exact(BLOCK)).zip(sums) {
            let (lo, hi) = xb.split_at(BLOCK / 2);
            let mut s = [0f32; 4];
            for j in (0..BLOCK / 2).step_by(4) {
                for l in 0..4 {
                    let b = q[j + l];
                    s[l] += (b & 0x0F) as f32 * lo[j + l] + (b >> 4) as f32 * hi[j + l];
                }
            }
            fold(&mut acc, dm[0], s);
            offset += dm[1] * sum;
        }
        acc.iter().sum::<f32>() + offset
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod kernels {
    use super::{BLOCK, PANEL};
    use core::arch::wasm32::*;
    use std::ops::Range;

    /// `out[t·out_cols + r] = Σ_j panel[j·PANEL + r − rows.start] · xs[t·cols + j]` for `r` in
    /// `rows`: four activation rows at a time, so that each panel load feeds four multiply-adds
    /// and each broadcast activation two.
    pub fn panel_product(panel: &[f32], xs: &[f32], out: &mut [f32], out_cols: usize, rows: Range<usize>) {
        let cols = panel.len() / PANEL;
        let n = xs.len() / cols;
        assert!(panel.len() == cols * PANEL && xs.len() == n * cols && out.len() == n * out_cols);
        assert!(rows.start < rows.end && rows.end <= out_cols && rows.len() <= PANEL);
        let mut t = 0;
        while t + 4 <= n {
            tile::<4>(panel, &xs[t * cols..], &mut out[t * out_cols..], out_cols, rows.clone());
            t += 4;
        }
        match n - t {
            3 => tile::<3>(panel, &xs[t * cols..], &mut out[t * out_cols..], out_cols, rows),
            2 => tile::<2>(panel, &xs[t * cols..], &mut out[t * out_cols..], out_cols, rows),
            1 => tile::<1>(panel, &xs[t * cols..], &mut out[t * out_cols..], out_cols, rows),
            _ => {}
        }
    }

    /// `panel[j·PANEL + r] = rows[r·cols + j]`, by 4×4 transposes: four values of four rows at a
    /// time become four columns of those rows.
    pub fn interleave(rows: &[f32], cols: usize, panel: &mut [f32]) {
        assert!(cols % 4 == 0 && rows.len() == PANEL * cols && panel.len() == PANEL * cols);
        for half in 0..PANEL / 4 {
            let rows = &rows[4 * half * cols..];
            for j in (0..cols).step_by(4) {
                let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|r| load(rows, r * cols + j));
                let (t0, t1) = (i32x4_shuffle::<0, 4, 1, 5>(a0, a1), i32x4_shuffle::<0, 4, 1, 5>(a2, a3));
                let (t2, t3) = (i32x4_shuffle::<2, 6, 3, 7>(a0, a1), i32x4_shuffle::<2, 6, 3, 7>(a2, a3));
                let columns = [
                    i32x4_shuffle::<0, 1, 4, 5>(t0, t1),
                    i32x4_shuffle::<2, 3, 6, 7>(t0, t1),
                    i32x4_shuffle::<0, 1, 4, 5>(t2, t3),
                    i32x4_shuffle::<2, 3, 6, 7>(t2, t3),
                ];
                for (c, column) in columns.into_iter().enumerate() {
                    store(panel, (j + c) * PANEL + 4 * half, column);
                }
            }
        }
    }

    /// `T` activation rows (the first `T` of `xs`) against the panel.
    #[inline(always)]
    fn tile<const T: usize>(panel: &[f32], xs: &[f32], out: &mut [f32], out_cols: usize, rows: Range<usize>) {
        let cols = panel.len() / PANEL;
        assert!(xs.len() >= T * cols && out.len() >= (T - 1) * out_cols + rows.end);
        let mut acc = [[f32x4_splat(0.0); 2]; T];
        let (w, x) = (panel.as_ptr(), xs.as_ptr());
        for j in 0..cols {
            // SAFETY: j < cols, so the panel's 8 values at j·PANEL and activation t's value at
            // t·cols + j (t < T) are in bounds (checked above); loads are unaligned.
            unsafe {
                let w0 = v128_load(w.add(j * PANEL) as *const v128);
                let w1 = v128_load(w.add(j * PANEL + 4) as *const v128);
                for (t, acc) in acc.iter_mut().enumerate() {
                    let s = v128_load32_splat(x.add(t * cols + j) as *const u32);
                    acc[0] = f32x4_add(acc[0], f32x4_mul(w0, s));
                    acc[1] = f32x4_add(acc[1], f32x4_mul(w1, s));
                }
            }
        }
        for (t, acc) in acc.iter().enumerate() {
            let mut lanes = [0f32; PANEL];
            store(&mut lanes, 0, acc[0]);
            store(&mut lanes, 4, acc[1]);
            let y = &mut out[t * out_cols..];
            y[rows.clone()].copy_from_slice(&lanes[..rows.len()]);
        }
    }

    #[inline(always)]
    fn load(x: &[f32], at: usize) -> v128 {
        assert!(at + 4 <= x.len());
        // SAFETY: in bounds (checked above); v128_load has no alignment requirement.
        unsafe { v128_load(x.as_ptr().add(at) as *const v128) }
    }

    #[inline(always)]
    fn load_bytes(q: &[u8]) -> v128 {
        assert!(q.len() >= 16);
        // SAFETY: 16 bytes in bounds (checked above), unaligned load.
        unsafe { v128_load(q.as_ptr() as *const v128) }
    }

    /// `Σ_l ints[l] · x[at + l]` lane-wise for four i32 lanes.
    #[inline(always)]
    fn mul_ints(ints: v128, x: &[f32], at: usize) -> v128 {
        f32x4_mul(f32x4_convert_i32x4(ints), load(x, at))
    }

    /// 16 unsigned bytes as four vectors of i32 lanes, in order.
    #[inline(always)]
    fn widen_u8(bytes: v128) -> [v128; 4] {
        let (a, b) = (u16x8_extend_low_u8x16(bytes), u16x8_extend_high_u8x16(bytes));
        [
            u32x4_extend_low_u16x8(a),
            u32x4_extend_high_u16x8(a),
            u32x4_extend_low_u16x8(b),
            u32x4_extend_high_u16x8(b),
        ]
    }

    /// 16 signed bytes as four vectors of i32 lanes, in order.
    #[inline(always)]
    fn widen_i8(bytes: v128) -> [v128; 4] {
        let (a, b) = (i16x8_extend_low_i8x16(bytes), i16x8_extend_high_i8x16(bytes));
        [
            i32x4_extend_low_i16x8(a),
            i32x4_extend_high_i16x8(a),
            i32x4_extend_low_i16x8(b),
            i32x4_extend_high_i16x8(b),
        ]
    }

    /// 16 widened integers times `x[at..at + 16]`, as four lanes.
    #[inline(always)]
    fn dot16(ints: [v128; 4], x: &[f32], at: usize) -> v128 {
        let s0 = f32x4_add(mul_ints(ints[0], x, at), mul_ints(ints[1], x, at + 4));
        let s1 = f32x4_add(mul_ints(ints[2], x, at + 8), mul_ints(ints[3], x, at + 12));
        f32x4_add(s0, s1)
    }

    #[inline(always)]
    fn store(out: &mut [f32], at: usize, v: v128) {
        assert!(at + 4 <= out.len());
        // SAFETY: in bounds (checked above); v128_store has no alignment requirement.
        unsafe { v128_store(out.as_mut_ptr().add(at) as *mut v128, v) }
    }

    /// Four integer lanes as `q·d (+ m)`, multiply then add as the scalar formula rounds.
    #[inline(always)]
    fn scaled(ints: v128, d: v128, m: Option<v128>) -> v128 {
        let y = f32x4_mul(f32x4_convert_i32x4(ints), d);
        m.map_or(y, |m| f32x4_add(y, m))
    }

    /// 16 widened integers as `q·d (+ m)` into `out[at..at + 16]`.
    #[inline(always)]
    fn store16(ints: [v128; 4], d: v128, m: Option<v128>, out: &mut [f32], at: usize) {
        for (i, lanes) in ints.into_iter().enumerate() {
            store(out, at + 4 * i, scaled(lanes, d, m));
        }
    }

    pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
        let d = f32x4_splat(d);
        store16(widen_i8(load_bytes(quants)), d, None, out, 0);
        store16(widen_i8(load_bytes(&quants[16..])), d, None, out, 16);
    }

    pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
        let bytes = load_bytes(quants);
        let (d, m) = (f32x4_splat(d), f32x4_splat(m));
        store16(widen_u8(v128_and(bytes, u8x16_splat(0x0F))), d, Some(m), out, 0);
        store16(widen_u8(u8x16_shr(bytes, 4)), d, Some(m), out, 16);
    }

    #[inline(always)]
    fn sum_lanes(v: v128) -> f32 {
        f32x4_extract_lane::<0>(v)
            + f32x4_extract_lane::<1>(v)
            + f32x4_extract_lane::<2>(v)
            + f32x4_extract_lane::<3>(v)
    }

    pub fn q8_0_row_dot(d: &[f32], quants: &[u8], x: &[f32]) -> f32 {
        let mut acc = f32x4_splat(0.0);
        for ((&d, q), xb) in d.iter().zip(quants.chunks_exact(BLOCK)).zip(x.chunks_exact(BLOCK)) {
            let s = f32x4_add(
                dot16(widen_i8(load_bytes(q)), xb, 0),
                dot16(widen_i8(load_bytes(&q[16..])), xb, 16),
            );
            acc = f32x4_add(acc, f32x4_mul(f32x4_splat(d), s));
        }
        sum_lanes(acc)
    }

    pub fn q4_1_row_dot(dm: &[f32], quants: &[u8], x: &[f32], sums: &[f32]) -> f32 {
        let mut acc = f32x4_splat(0.0);
        let mut offset = 0f32;
        let low = u8x16_splat(0x0F);
        let blocks = dm.chunks_exact(2).zip(quants.chunks_exact(BLOCK / 2));
        for (((dm, q), xb), &sum) in blocks.zip(x.chunks_exact(BLOCK)).zip(sums) {
            let bytes = load_bytes(q);
            let s = f32x4_add(
                dot16(widen_u8(v128_and(bytes, low)), xb, 0),
                dot16(widen_u8(u8x16_shr(bytes, 4)), xb, 16),
            );
            acc = f32x4_add(acc, f32x4_mul(f32x4_splat(dm[0]), s));
            offset += dm[1] * sum;
        }
        sum_lanes(acc) + offset
    }
}
