//! The block kernels of exact precision: natively the portable lanes, in the browser the simd128
//! kernels the page runs. Dequantization is candle's bit for bit; a prompt's panels are plain
//! column-order sums bit for bit; a single row's block dot product is the dequantized product up to
//! rounding order.

#[macro_use]
mod both;

use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use sampling_lab::model::blocks::{BlockMatrix, DIRECT_ROWS};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const FORMATS: [GgmlDType; 2] = [GgmlDType::Q4_1, GgmlDType::Q8_0];

/// A `[rows, cols]` matrix quantized by candle, and candle's dequantization of it.
fn quantized(format: GgmlDType, rows: usize, cols: usize) -> (BlockMatrix, Tensor) {
    let values: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 7919 % 1000) as f32 / 500.0 - 1.0) * (1.0 + (i % 13) as f32))
        .collect();
    let t = Tensor::from_vec(values, (rows, cols), &Device::Cpu).unwrap();
    let q = QTensor::quantize(&t, format).unwrap();
    let dense = q.dequantize(&Device::Cpu).unwrap();
    (BlockMatrix::from_qtensor(&q).unwrap().unwrap(), dense)
}

fn activations(n: usize, cols: usize) -> Tensor {
    let values: Vec<f32> = (0..n * cols).map(|i| ((i * 31 % 17) as f32 - 8.0) / 3.0).collect();
    Tensor::from_vec(values, (1, n, cols), &Device::Cpu).unwrap()
}

both! {
    fn blocks_dequantize_to_candles_values_bit_for_bit() {
        for format in FORMATS {
            let (m, dense) = quantized(format, 6, 64);
            assert_eq!(m.dequantize().unwrap().to_vec2::<f32>().unwrap(), dense.to_vec2::<f32>().unwrap(), "{format:?}");
        }
    }

    fn a_few_rows_on_the_blocks_equal_the_dequantized_matmul_up_to_rounding() {
        for format in FORMATS {
            let (m, dense) = quantized(format, 40, 96);
            let x = activations(DIRECT_ROWS, 96);
            let ours = m.apply(&x).unwrap();
            let reference = x.broadcast_matmul(&dense.t().unwrap()).unwrap();
            assert_eq!(ours.dims(), &[1, DIRECT_ROWS, 40]);
            let diff = (ours - reference).unwrap().abs().unwrap().max_all().unwrap();
            assert!(diff.to_scalar::<f32>().unwrap() < 1e-4, "{format:?}: {diff}");
        }
    }

    fn a_prompts_panels_sum_dequantized_weight_times_activation_in_column_order() {
        // 44 rows: five full panels and a partial one; 5 to 11 activation rows: tiles of four and
        // every tail.
        for format in FORMATS {
            let (m, dense) = quantized(format, 44, 96);
            let w: Vec<Vec<f32>> = dense.to_vec2().unwrap();
            for n in [5, 6, 7, 11] {
                let xs: Vec<f32> = activations(n, 96).flatten_all().unwrap().to_vec1().unwrap();
                let mut ours = vec![0f32; n * 44];
                m.matmul(&xs, &mut ours);
                for (t, (x, ours)) in xs.chunks_exact(96).zip(ours.chunks_exact(44)).enumerate() {
                    let plain: Vec<f32> = w.iter().map(|row| row.iter().zip(x).fold(0.0, |s, (w, x)| s + w * x)).collect();
                    assert_eq!(ours, plain, "{format:?}, {n} activation rows, row {t}");
                }
            }
        }
    }

    fn reordered_rows_move_whole_rows() {
        let (m, dense) = quantized(GgmlDType::Q4_1, 4, 32);
        let rows = dense.to_vec2::<f32>().unwrap();
        let got = m.reorder_rows(&[2, 0, 3, 1]).dequantize().unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(got, vec![rows[2].clone(), rows[0].clone(), rows[3].clone(), rows[1].clone()]);
    }

    fn formats_without_a_kernel_are_left_to_dequantization() {
        let t = Tensor::zeros((2, 32), candle_core::DType::F32, &Device::Cpu).unwrap();
        let q = QTensor::quantize(&t, GgmlDType::Q4_0).unwrap();
        assert!(BlockMatrix::from_qtensor(&q).unwrap().is_none());
    }
}

/// Splitting a product's rows over threads changes no bit: every output is one row's sum, by the
/// same kernel in the same order, whichever thread computes it. Awkward shapes (a partial panel,
/// rows not a multiple of the split) for decode (1 and 3 activation rows) and prompts' panels (5
/// and 39 rows).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_row_split_product_is_bit_equal_for_1_2_3_4_and_7_threads() {
    use sampling_lab::model::pool;
    pool::start(7);
    for format in FORMATS {
        for (rows, cols) in [(1003, 576), (4099, 1536), (44, 96)] {
            let (m, _) = quantized(format, rows, cols);
            for n in [1, 3, 5, 39] {
                let x = activations(n, cols);
                let xs: Vec<f32> = x.flatten_all().unwrap().to_vec1().unwrap();
                // Natively a prompt would go to candle's matmul: the panels are called directly.
                let product = |threads: usize| {
                    pool::set_limit(threads);
                    let mut y = vec![0f32; n * rows];
                    if n <= DIRECT_ROWS {
                        m.matvecs(&xs, &mut y);
                    } else {
                        m.matmul(&xs, &mut y);
                    }
                    y.iter().map(|v| v.to_bits()).collect::<Vec<u32>>()
                };
                let one = product(1);
                for threads in [2, 3, 4, 7] {
                    assert!(
                        product(threads) == one,
                        "{format:?} {rows}×{cols}, {n} rows: {threads} threads differ from 1"
                    );
                }
            }
        }
    }
    pool::set_limit(pool::MAX_THREADS);
    let done = pool::rows_done();
    assert_eq!(done.len(), 7);
    assert!(
        done.iter().all(|&rows| rows > 0),
        "every thread computed rows: {done:?}"
    );
}
