//! The exact model's kernels and their contract (`src/model/kernels/mod.rs`): natively the
//! portable kernels, in the browser the simd128 kernels the page runs — and there the portable
//! ones too, which must give the same bits. Dequantization is candle's bit for bit; every output
//! of a product is its row's dot product in the contract's order, however many activation rows
//! come with it; and a whole forward pass of a small llama gives the same bits on either kernel
//! set and for a prompt as for cached decoding.

// The sampling core's parity tests run in the browser the same way.
#[macro_use]
#[path = "../crates/sampling-lab-core/tests/both/mod.rs"]
mod both;

use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use sampling_lab::model::blocks::BlockMatrix;
use sampling_lab::model::exact::{ExactLlama, Weight};
use sampling_lab::model::hyper::HF_LAYER_TENSORS;
use sampling_lab::model::kernels;
use sampling_lab::model::Hyper;
use std::collections::HashMap;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

const FORMATS: [GgmlDType; 3] = [GgmlDType::Q4_1, GgmlDType::Q8_0, GgmlDType::F32];

/// Values with every sign and many magnitudes, reproducible.
fn values(n: usize, salt: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i + salt) * 7919 % 1000) as f32 / 500.0 - 1.0) * (1.0 + ((i + salt) % 13) as f32))
        .collect()
}

/// A `[rows, cols]` matrix in `format` (quantized by candle, or dense), the bytes of its blocks
/// as a GGUF stores them (none for dense), and its f32 values.
struct Case {
    format: GgmlDType,
    m: BlockMatrix,
    bytes: Vec<u8>,
    dense: Vec<Vec<f32>>,
}

fn case(format: GgmlDType, rows: usize, cols: usize) -> Case {
    let t = Tensor::from_vec(values(rows * cols, rows + cols), (rows, cols), &Device::Cpu).unwrap();
    if format == GgmlDType::F32 {
        let dense = t.to_vec2().unwrap();
        return Case {
            format,
            m: BlockMatrix::dense(&t).unwrap(),
            bytes: Vec::new(),
            dense,
        };
    }
    let q = QTensor::quantize(&t, format).unwrap();
    Case {
        format,
        m: BlockMatrix::from_qtensor(&q).unwrap().unwrap(),
        bytes: q.data().unwrap().into_owned(),
        dense: q.dequantize(&Device::Cpu).unwrap().to_vec2().unwrap(),
    }
}

fn activations(n: usize, cols: usize) -> Vec<f32> {
    (0..n * cols).map(|i| ((i * 31 % 17) as f32 - 8.0) / 3.0).collect()
}

/// Row `r` times `x` in the contract's order, spelled out with scalars from the file's bytes:
/// groups of 16 as four lanes of `(g0 + g1) + (g2 + g3)`; a block's two groups added lane by lane
/// and scaled by its `d` into four running lanes; the lanes summed left to right; then Q4_1's `m`
/// terms, block by block. A dense row adds its groups unscaled and its tail one by one.
fn contract_dot(c: &Case, r: usize, x: &[f32]) -> f32 {
    let group = |w: &[f32], x: &[f32]| -> [f32; 4] {
        let g = |i: usize, l: usize| w[4 * i + l] * x[4 * i + l];
        [0, 1, 2, 3].map(|l| (g(0, l) + g(1, l)) + (g(2, l) + g(3, l)))
    };
    let sum = |lanes: [f32; 4]| lanes[0] + lanes[1] + lanes[2] + lanes[3];
    let mut lanes = [0f32; 4];
    if c.format == GgmlDType::F32 {
        let w = &c.dense[r];
        let whole = w.len() / 16 * 16;
        for at in (0..whole).step_by(16) {
            let g = group(&w[at..], &x[at..]);
            lanes = [0, 1, 2, 3].map(|l| lanes[l] + g[l]);
        }
        return sum(lanes) + w[whole..].iter().zip(&x[whole..]).fold(0f32, |s, (w, x)| s + w * x);
    }
    let f16 = |b: &[u8]| half::f16::from_le_bytes([b[0], b[1]]).to_f32();
    let stored = if c.format == GgmlDType::Q4_1 { 20 } else { 34 };
    let per_row = c.dense[r].len() / 32;
    let mut offset = 0f32;
    for (b, block) in c.bytes[r * per_row * stored..][..per_row * stored]
        .chunks_exact(stored)
        .enumerate()
    {
        let xb = &x[32 * b..32 * b + 32];
        let (d, m, ints): (f32, f32, Vec<f32>) = if c.format == GgmlDType::Q4_1 {
            let q = &block[4..];
            let ints = (0..32).map(|j| {
                if j < 16 {
                    (q[j] & 0x0F) as f32
                } else {
                    (q[j - 16] >> 4) as f32
                }
            });
            (f16(block), f16(&block[2..]), ints.collect())
        } else {
            (f16(block), 0.0, block[2..].iter().map(|&q| (q as i8) as f32).collect())
        };
        let (a, b2) = (group(&ints, xb), group(&ints[16..], &xb[16..]));
        lanes = [0, 1, 2, 3].map(|l| lanes[l] + d * (a[l] + b2[l]));
        offset += m * xb.iter().sum::<f32>();
    }
    sum(lanes) + offset
}

/// A small llama (two layers, grouped-query attention) with weights of `format`.
fn small_llama(format: GgmlDType) -> ExactLlama {
    let hp = Hyper {
        hidden: 64,
        intermediate: 96,
        layers: 2,
        heads: 4,
        kv_heads: 2,
        rms_norm_eps: 1e-5,
        rope_theta: 10000.0,
        context_length: 64,
        vocab: 160,
        tied_embeddings: true,
    };
    let mut weights = HashMap::new();
    let mut put = |name: String, shape: &[usize], salt: usize| {
        let n: usize = shape.iter().product();
        let t = Tensor::from_vec(
            values(n, salt).iter().map(|v| v / 8.0).collect::<Vec<_>>(),
            shape,
            &Device::Cpu,
        )
        .unwrap();
        let weight = match shape {
            [rows, cols] if format != GgmlDType::F32 => {
                let q = QTensor::quantize(&t, format).unwrap();
                Weight::Blocks(
                    BlockMatrix::from_qtensor(&q)
                        .unwrap()
                        .unwrap_or_else(|| panic!("{rows}×{cols}")),
                )
            }
            _ => Weight::Dense(t),
        };
        weights.insert(name, weight);
    };
    put("model.embed_tokens.weight".into(), &[hp.vocab, hp.hidden], 1);
    put("model.norm.weight".into(), &[hp.hidden], 2);
    for layer in 0..hp.layers {
        for (i, (name, shape)) in HF_LAYER_TENSORS.iter().zip(hp.layer_shapes()).enumerate() {
            put(
                format!("model.layers.{layer}.{name}.weight"),
                &shape,
                10 * layer + i + 3,
            );
        }
    }
    ExactLlama::new(weights, &hp).unwrap()
}

const PROMPT: [u32; 9] = [3, 141, 59, 26, 5, 35, 89, 79, 32];

/// The logits after the prompt, then after each of three more tokens decoded one at a time.
fn decoded(llama: &ExactLlama) -> Vec<Vec<u32>> {
    let mut cache = llama.new_cache();
    let mut steps = vec![llama.forward(&mut cache, &PROMPT, 0).unwrap()];
    for (i, next) in [7u32, 150, 7].into_iter().enumerate() {
        steps.push(llama.forward(&mut cache, &[next], PROMPT.len() + i).unwrap());
    }
    steps
        .into_iter()
        .map(|l| l.iter().map(|v| v.to_bits()).collect())
        .collect()
}

both! {
    fn blocks_dequantize_to_candles_values_bit_for_bit() {
        for format in [GgmlDType::Q4_1, GgmlDType::Q8_0] {
            let c = case(format, 6, 64);
            assert_eq!(c.m.dequantize().unwrap().to_vec2::<f32>().unwrap(), c.dense, "{format:?}");
        }
    }

    fn a_stored_q4_1_block_reads_back_every_value_of_the_files_block() {
        // The file's order: value j is byte j's low nibble below 16, byte j − 16's high nibble above.
        for salt in 0..64u64 {
            let (file, _) = raw(16, salt);
            let mut stored = [0u8; 16];
            kernels::store_q4_1(&file, &mut stored);
            let nibble = |j: usize| (file[j % 16] >> (4 * (j / 16))) & 0x0F;
            for j in 0..32 {
                assert_eq!(kernels::q4_1_value(&stored, j), nibble(j), "value {j} of {file:?}");
            }
        }
    }

    fn every_output_is_its_rows_dot_product_in_the_contracts_order() {
        // Widths with and without a dense tail; 1 activation row (a decoded token) up to 11 (a prompt).
        for format in FORMATS {
            for (rows, cols) in [(40, 96), (17, 64)] {
                let c = case(format, rows, cols);
                for n in [1, 2, 5, 11] {
                    let xs = activations(n, cols);
                    let ours = c.m.product(&xs);
                    for (t, x) in xs.chunks_exact(cols).enumerate() {
                        for r in 0..rows {
                            assert_eq!(
                                ours[t * rows + r].to_bits(),
                                contract_dot(&c, r, x).to_bits(),
                                "{format:?} {rows}×{cols}, {n} activation rows: output ({t}, {r}) on {}",
                                kernels::active()
                            );
                        }
                    }
                }
            }
        }
        let c = case(GgmlDType::F32, 5, 37);
        let x = activations(1, 37);
        assert_eq!(c.m.product(&x)[3].to_bits(), contract_dot(&c, 3, &x).to_bits(), "a dense row with a tail of 5");
    }

    fn a_product_is_the_dequantized_matmul_up_to_rounding() {
        for format in FORMATS {
            let c = case(format, 40, 96);
            let xs = activations(3, 96);
            let ours = c.m.product(&xs);
            for (t, x) in xs.chunks_exact(96).enumerate() {
                for (r, w) in c.dense.iter().enumerate() {
                    let plain: f64 = w.iter().zip(x).map(|(w, x)| f64::from(*w) * f64::from(*x)).sum();
                    let got = f64::from(ours[t * 40 + r]);
                    assert!((got - plain).abs() < 1e-4 * (1.0 + plain.abs()), "{format:?} ({t}, {r}): {got} against {plain}");
                }
            }
        }
    }

    fn reordered_rows_move_whole_rows() {
        let c = case(GgmlDType::Q4_1, 4, 32);
        let got = c.m.reorder_rows(&[2, 0, 3, 1]).dequantize().unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(got, vec![c.dense[2].clone(), c.dense[0].clone(), c.dense[3].clone(), c.dense[1].clone()]);
    }

    fn formats_without_a_kernel_are_left_to_dequantization() {
        let t = Tensor::zeros((2, 32), candle_core::DType::F32, &Device::Cpu).unwrap();
        let q = QTensor::quantize(&t, GgmlDType::Q4_0).unwrap();
        assert!(BlockMatrix::from_qtensor(&q).unwrap().is_none());
    }

    fn cached_decoding_gives_the_bits_of_a_full_forward_pass() {
        for format in FORMATS {
            let llama = small_llama(format);
            let steps = decoded(&llama);
            let mut ids = PROMPT.to_vec();
            for (i, next) in [7u32, 150, 7].into_iter().enumerate() {
                ids.push(next);
                let fresh = llama.forward(&mut llama.new_cache(), &ids, 0).unwrap();
                let fresh: Vec<u32> = fresh.iter().map(|v| v.to_bits()).collect();
                assert!(fresh == steps[i + 1], "{format:?}: decoded token {i} differs from a full forward");
            }
        }
    }

    fn a_forward_pass_on_the_portable_kernels_gives_the_bits_of_the_pages_kernels() {
        // In the browser the page's simd128 kernels run first; natively both runs are portable.
        for format in FORMATS {
            let llama = small_llama(format);
            let active = decoded(&llama);
            kernels::force_portable(true);
            let portable = decoded(&llama);
            kernels::force_portable(false);
            assert!(active == portable, "{format:?}: simd128 and portable kernels differ");
        }
    }
}

/// Splitting a product's rows over threads changes no bit: every output is one row's sum, by the
/// same kernel in the same order, whichever thread computes it. Awkward shapes (rows not a
/// multiple of the split) for decoding (1 and 3 activation rows) and prompts (5 and 39 rows).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_row_split_product_is_bit_equal_for_1_2_3_4_and_7_threads() {
    use sampling_lab::model::pool;
    pool::start(7);
    for format in FORMATS {
        for (rows, cols) in [(1003, 576), (4099, 1536), (44, 96)] {
            let c = case(format, rows, cols);
            for n in [1, 3, 5, 39] {
                let xs = activations(n, cols);
                let product = |threads: usize| {
                    pool::set_limit(threads);
                    c.m.product(&xs).iter().map(|v| v.to_bits()).collect::<Vec<u32>>()
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

/// Reproducible bytes and factors for raw kernel calls: every byte value, factors of both signs,
/// zero and magnitudes from 1e-3 to 1e3.
fn raw(len: usize, salt: u64) -> (Vec<u8>, Vec<f32>) {
    let mut state = salt.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let bytes = (0..len).map(|_| next() as u8).collect();
    let floats = (0..len)
        .map(|_| {
            let r = next();
            // Now and then a subnormal: no implementation may flush it to zero.
            let scale = if r % 61 == 0 {
                1e-39
            } else {
                10f32.powi((r % 7) as i32 - 3)
            };
            let magnitude = scale * ((r >> 8) % 1000) as f32 / 1000.0;
            if r >> 20 & 1 == 1 {
                -magnitude
            } else {
                magnitude
            }
        })
        .collect();
    (bytes, floats)
}

/// Every implementation of the contract this machine runs, each product's bits against
/// `portable`'s: decoding (one activation row) and prompts (up to past a tile of tokens), row
/// counts that leave a partial group of rows for two- and four-row vectors, dense widths with and
/// without a tail. Those this CPU or build lacks are named as skipped.
fn every_supported_implementation_against_portable(shapes: &[(usize, usize, usize)]) {
    use kernels::Kernels;
    let (skipped, run): (Vec<Kernels>, Vec<Kernels>) = Kernels::ALL.into_iter().skip(1).partition(|k| !k.supported());
    println!("kernels against portable: {run:?}; skipped (not on this CPU or build): {skipped:?}");
    for (salt, &(rows, cols, n)) in shapes.iter().enumerate() {
        let (bytes, floats) = raw(rows * cols + n * cols, salt as u64);
        let xs: Vec<f32> = floats[rows * cols..].iter().map(|v| v * 3.0).collect();
        let blocks = cols / 32;
        let sums: Vec<f32> = xs.chunks_exact(32).map(|b| b.iter().sum()).collect();
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        let products = |k: Kernels| {
            let mut outs = Vec::new();
            if cols % 32 == 0 {
                let mut out = vec![0f32; n * rows];
                k.q4_1_product(
                    &floats[..rows * 2 * blocks],
                    &bytes[..rows * cols / 2],
                    cols,
                    &xs,
                    &sums,
                    &mut out,
                );
                outs.push(("Q4_1", bits(&out)));
                k.q8_0_product(&floats[..rows * blocks], &bytes[..rows * cols], cols, &xs, &mut out);
                outs.push(("Q8_0", bits(&out)));
            }
            let mut out = vec![0f32; n * rows];
            k.f32_product(&floats[..rows * cols], cols, &xs, &mut out);
            outs.push(("F32", bits(&out)));
            outs
        };
        let reference = products(Kernels::Portable);
        for &k in &run {
            for ((format, got), (_, want)) in products(k).iter().zip(&reference) {
                assert!(
                    got == want,
                    "{k}: {format} {rows}×{cols}, {n} activation rows differ from portable"
                );
            }
        }
    }
}

both! {
    fn every_implementation_this_machine_runs_gives_portables_bits_for_every_shape() {
        every_supported_implementation_against_portable(&[
            (1, 32, 1), (2, 64, 1), (3, 96, 1), (5, 576, 1), (17, 64, 1), (33, 1536, 1),
            (611, 64, 1), (7, 37, 1), (3, 100, 1), (9, 16, 1),
            (1, 32, 2), (3, 64, 3), (5, 96, 4), (17, 576, 5), (6, 64, 7), (7, 96, 8), (9, 32, 9),
            (4, 1536, 13), (18, 576, 39), (7, 37, 5), (3, 100, 11), (5, 16, 9),
        ]);
    }

    fn a_prompt_longer_than_a_tile_of_tokens_gives_portables_bits() {
        // Past one tile of activations (192 KiB: 32 tokens of 1536 values, 85 of 576).
        every_supported_implementation_against_portable(&[(6, 1536, 70), (5, 576, 100), (3, 37, 90)]);
    }

    fn a_prompt_longer_than_a_tile_sums_each_output_in_the_contracts_order() {
        for format in FORMATS {
            let c = case(format, 6, 1536);
            let xs = activations(70, 1536);
            let ours = c.m.product(&xs);
            for (t, x) in xs.chunks_exact(1536).enumerate() {
                for r in 0..6 {
                    assert_eq!(ours[t * 6 + r].to_bits(), contract_dot(&c, r, x).to_bits(), "{format:?}: output ({t}, {r}) on {}", kernels::active());
                }
            }
        }
    }
}

both! {
    fn swiglus_products_are_libms_bits_on_every_implementation_whatever_the_values() {
        use kernels::Kernels;
        // Every threshold of libm's expf (2^-14, 0.5 ln 2, 1.5 ln 2, the overflow and underflow
        // bounds) give or take a few ulps, NaN, infinities, zeros and subnormals, then a sweep of
        // magnitudes from 5e-10 to 104, as −g with both signs; 4 000 values leave a tail after
        // every vector width but four.
        let edges = [0x3900_0000u32, 0x3eb1_7218, 0x3f85_1592, 0x42ae_ac50, 0x42b1_7218, 0x42cf_f1b5];
        let mut g: Vec<f32> = edges.iter().flat_map(|&e| e - 3..e + 3).map(f32::from_bits).collect();
        g.extend([f32::NAN, f32::INFINITY, 0.0, f32::from_bits(1), f32::MIN_POSITIVE, 1e-30]);
        let sweep = 4001 / 2 - g.len();
        // In u64: on wasm32 a usize would wrap.
        let step = |i: usize| (i as u64 * (0x42d0_0000 - 0x3000_0000) / sweep as u64) as u32;
        g.extend((0..sweep).map(|i| f32::from_bits(0x3000_0000 + step(i))));
        let g: Vec<f32> = g.iter().flat_map(|&x| [x, -x]).collect();
        let u: Vec<f32> = (0..g.len()).map(|i| 0.75 - (i % 7) as f32 * 0.375).collect();
        let bits = |k: Kernels, len: usize| {
            let mut out = vec![0f32; len];
            k.silu_mul(&g[..len], &u[..len], &mut out);
            out.iter().map(|y| y.to_bits()).collect::<Vec<u32>>()
        };
        let want: Vec<u32> = g.iter().zip(&u).map(|(g, u)| (g / (libm::expf(-g) + 1.0) * u).to_bits()).collect();
        // Portable is held to libm's bits whatever the machine; the vector sets it has, too.
        println!("SwiGLU against libm: {:?}", Kernels::ALL.into_iter().filter(|k| k.supported()).collect::<Vec<_>>());
        for k in Kernels::ALL.into_iter().filter(|k| k.supported()) {
            for len in [g.len(), g.len() - 1, 15, 3] {
                assert!(bits(k, len) == want[..len], "{k}: {len} values differ from libm's");
            }
        }
    }
}

both! {
    fn the_attentions_weighted_sums_are_portables_bits_on_every_implementation() {
        use kernels::Kernels;
        // Heads of whole vectors and with a tail for every width; one key to past a vector's.
        for (salt, (head, keys)) in [(64, 1), (64, 40), (37, 7), (16, 33), (5, 3), (96, 18)].into_iter().enumerate() {
            let (_, floats) = raw(keys * head + keys + head, salt as u64);
            let (values, rest) = floats.split_at(keys * head);
            let (p, start) = rest.split_at(keys);
            let run = |k: Kernels, width: usize| {
                let mut y = start[..width].to_vec();
                k.weighted_sum(p, values, head, &mut y);
                y.iter().map(|v| v.to_bits()).collect::<Vec<u32>>()
            };
            for width in [head, head - 1] {
                // Portable's sums, in the contract's order: each output its keys' products added
                // one after the other. A machine with no vector set still checks this.
                let want = run(Kernels::Portable, width);
                let contract: Vec<u32> = (0..width)
                    .map(|d| (0..keys).fold(start[d], |y, j| y + p[j] * values[j * head + d]).to_bits())
                    .collect();
                assert_eq!(want, contract, "portable: head {head}, {keys} keys, {width} values are not the contract's sums");
                for k in Kernels::ALL.into_iter().skip(1).filter(|k| k.supported()) {
                    assert!(run(k, width) == want, "{k}: head {head}, {keys} keys, {width} values differ from portable");
                }
            }
        }
    }
}
