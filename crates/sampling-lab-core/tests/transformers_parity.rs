//! The sampling core against real transformers and DFlash (the fixtures their own code wrote:
//! `tests/common/mod.rs`) and against the real candle `LogitsProcessor`. Compiled natively by
//! `cargo test` and to wasm32 for headless Chromium by wasm-bindgen-test (`make test-wasm`).

mod common;
#[macro_use]
mod both;

use common::{case, cases, file, npy_f32, Case};
use sampling_lab_core::columns::{self, corrected, dflash, hf, literal, llama_cpp};
use sampling_lab_core::output::monte_carlo::{draws_of, MonteCarloRun, Part};
use sampling_lab_core::DEFAULT_PAIR;
use sampling_lab_core::{Analysis, Distribution, Field, GenerateArgs, Inspection, Lang, PyValue, EXACT_TOLERANCE};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn hf_dist(case: &Case) -> Distribution {
    let analysis = Analysis::run(&case.input);
    analysis
        .distribution(hf::NAME)
        .unwrap_or_else(|e| panic!("{}: unexpected error {e}", case.name))
        .clone()
}

fn assert_close(name: &str, ours: &Distribution, theirs: &[(u32, f64)]) {
    let mut ours_ids: Vec<u32> = ours.support().iter().map(|(i, _)| *i).collect();
    let mut their_ids: Vec<u32> = theirs.iter().map(|(i, _)| *i).collect();
    ours_ids.sort_unstable();
    their_ids.sort_unstable();
    assert_eq!(ours_ids, their_ids, "{name}: kept tokens differ from transformers'");
    let dense = ours.dense();
    for &(id, p) in theirs {
        let diff = (dense[id as usize] - p).abs();
        assert!(
            diff <= EXACT_TOLERANCE,
            "{name}: token {id}: {} vs transformers {p} (|Δ| = {diff:e})",
            dense[id as usize]
        );
    }
}

both! {
    fn hf_keeps_what_transformers_keeps_with_its_probabilities() {
        let mut checked = 0;
        for case in cases().iter().filter(|c| c.error().is_none()) {
            let analysis = Analysis::run(&case.input);
            let distribution = analysis.distribution(hf::NAME).unwrap_or_else(|e| panic!("{}: unexpected error {e}", case.name));
            let report = analysis.report(Lang::En, &DEFAULT_PAIR);
            let hf_entry = &report.entry(hf::NAME).details;
            assert_eq!(hf_entry["processors"], case.hf["processors"], "{}: processor list", case.name);
            // transformers' own decisions that its float arithmetic or sort order could take
            // otherwise, as the corrected port's entry lists them.
            let ambiguities = &report.entry(corrected::NAME).details["ambiguities"];
            let greedy_token = hf_entry["greedy_token"].as_u64();
            if let Some(token) = greedy_token {
                assert_eq!(token, case.hf["token"].as_u64().unwrap(), "{}: greedy token", case.name);
            } else if ambiguities.as_array().is_some_and(|a| !a.is_empty()) {
                // torch's sort order decides these: the same number of tokens, not the same ones.
                assert_eq!(distribution.kept(), case.hf_support().len(), "{}: {ambiguities}", case.name);
            } else {
                assert_close(&case.name, distribution, &case.hf_support());
            }
            checked += 1;
        }
        assert!(checked >= 60, "only {checked} cases checked");
    }

    fn effective_params_resolve_as_transformers_resolves_them() {
        for case in cases() {
            let analysis = Analysis::run(&case.input);
            let ours = serde_json::Value::Object(analysis.effective().values_json());
            assert_eq!(ours, case.hf["effective_params"], "{}: effective parameters", case.name);
        }
    }

    fn invalid_parameters_raise_transformers_errors_word_for_word() {
        let mut checked = 0;
        for case in cases() {
            if let Some(expected) = case.error() {
                let analysis = Analysis::run(&case.input);
                let err = analysis.distribution(hf::NAME).err().map(|e| e.to_string());
                assert_eq!(err.as_deref(), Some(expected), "{}", case.name);
                checked += 1;
            }
        }
        assert!(checked >= 14, "only {checked} error cases");
    }

    fn corrected_port_draws_from_the_hf_distribution_unless_exactness_is_impossible_by_nature() {
        let mut by_nature = Vec::new();
        for case in cases().iter().filter(|c| c.error().is_none()) {
            let report = Analysis::run(&case.input).report(Lang::En, &DEFAULT_PAIR);
            match report.entry(corrected::NAME).details["exactness"].as_str() {
                Some("exact") => {}
                Some("inexact_by_nature") => by_nature.push(case.name.clone()),
                other => panic!("{}: corrected port is {other:?}: {:?}", case.name, report.compare(corrected::NAME)),
            }
        }
        // Ties straddling a top-p cut are detected, not hidden: the tied synthetic cases have some.
        assert!(by_nature.len() < 10, "too many inexact cases: {by_nature:?}");
    }

    fn reference_context_keeps_50_49152_40_58_24_tokens() {
        let kept: Vec<usize> =
            ["t07_default", "t07", "k40", "p09", "k40p09"].iter().map(|n| hf_dist(&case(n)).kept()).collect();
        assert_eq!(kept, vec![50, 49152, 40, 58, 24]);
    }

    fn literal_top_k_then_top_p_skips_the_nucleus_when_the_top_k_mass_is_below_p() {
        // On the Q4_1 model the top-40 hold less than 0.9 of the mass, so candle ignores top_p.
        let report = Analysis::run(&case("k40p09").input).report(Lang::En, &DEFAULT_PAIR);
        let top40_mass: f64 = Analysis::run(&case("t07").input).report(Lang::En, &DEFAULT_PAIR).entry(hf::NAME).support[..40].iter().map(|(_, p)| p).sum();
        assert!(top40_mass < 0.9, "{top40_mass}");
        assert_eq!((report.entry(hf::NAME).kept, report.entry(literal::NAME).kept), (24, 40));
    }

    fn literal_port_of_temperature_alone_keeps_the_whole_vocabulary() {
        assert_eq!(Analysis::run(&case("t07_default").input).report(Lang::En, &DEFAULT_PAIR).entry(literal::NAME).kept, 49152);
    }

    fn ties_3221_with_top_k_2_keep_3_for_hf_and_2_for_literal() {
        let report = Analysis::run(&case("ties_3221_k2").input).report(Lang::En, &DEFAULT_PAIR);
        let kept = |s| report.entry(s).kept;
        assert_eq!((kept(hf::NAME), kept(literal::NAME), kept(corrected::NAME)), (3, 2, 3));
    }

    fn temperature_zero_with_sampling_is_an_error_for_hf_and_silently_greedy_for_literal() {
        let report = Analysis::run(&case("err_temperature_zero").input).report(Lang::En, &DEFAULT_PAIR);
        assert!(report.entry(hf::NAME).error.as_deref().unwrap().starts_with("`temperature` (=0.0) has to be"));
        assert_eq!(report.entry(literal::NAME).sampling, "Sampling::ArgMax");
        assert_eq!(report.entry(literal::NAME).kept, 1);
    }

    fn implicit_top_k_is_reported_as_a_default_that_took_effect() {
        let report = Analysis::run(&case("t07_default").input).report(Lang::En, &DEFAULT_PAIR);
        assert_eq!(report.effective.implicit, vec!["top_k=50".to_string()]);
        assert!(report.compare(literal::NAME).unwrap().mass_outside_hf > 0.01);
    }

    fn literal_exact_distributions_match_real_logits_processor_draws() {
        for name in ["ties_3221_k2", "small_k_then_p", "small_p_above_topk_mass", "tied_1000_k50_p09", "bf16_1000_k40_p09", "small_penalty_prompt"] {
            let c = case(name);
            let analysis = Analysis::run(&c.input);
            let mc = analysis.monte_carlo(20_000, 7).unwrap();
            let v = serde_json::to_value(&mc).unwrap();
            for port in ["literal", "corrected"] {
                assert_eq!(v[port]["consistent"], json!(true), "{name} {port}: {}", v[port]);
            }
        }
    }

    fn monte_carlo_on_the_full_vocabulary_stays_inside_the_exact_support() {
        let c = case("k40p09");
        let mc = serde_json::to_value(Analysis::run(&c.input).monte_carlo(2_000, 3).unwrap()).unwrap();
        for port in ["literal", "corrected"] {
            assert_eq!(mc[port]["consistent"], json!(true), "{port}: {}", mc[port]["tv_to_exact"]);
        }
        assert_eq!(mc["corrected"]["outside_hf"], json!(0.0));
    }

    fn a_run_drawn_in_parts_gives_the_result_of_a_run_drawn_at_once() {
        let c = case("small_k_then_p");
        let analysis = Analysis::run(&c.input);
        let whole = analysis.monte_carlo(3_500, 11).unwrap();
        let part = |index| {
            let mut run = MonteCarloRun::new(&analysis, 3_500, 11, Part::new(index, 2).unwrap());
            run.advance(usize::MAX).unwrap();
            run
        };
        let (mut first, second) = (part(0), part(1));
        // Whole blocks of 1000: the first part draws two of the four, the second the rest.
        let drawing = columns::REGISTRY.iter().filter(|c| c.draws).count();
        assert_eq!((first.total(), second.total()), (drawing * 2000, drawing * 1500));
        first.absorb(&second.counts()).unwrap();
        assert_eq!(serde_json::to_value(first.finish()).unwrap(), serde_json::to_value(whole).unwrap());
    }

    fn dflash_draws_from_what_torch_samples_at_every_temperature() {
        let fixture: Value = serde_json::from_slice(file("dflash.json")).unwrap();
        let mut checked = 0;
        for case in fixture["cases"].as_array().unwrap() {
            let name = format!("{} at T={}", case["logits"], case["temperature"]);
            let args = dflash_call(case["temperature"].as_f64().unwrap());
            let logits = dflash_logits(&fixture, case["logits"].as_str().unwrap());
            let ours = dflash::COLUMN.distribution(&args, None, &logits, &[]).unwrap();
            if let Some(argmax) = case["argmax"].as_u64() {
                assert_eq!(ours.support(), [(argmax as u32, 1.0)], "{name}: argmax");
            } else {
                assert_dflash_support(&name, &ours, case);
            }
            checked += 1;
        }
        assert_eq!(checked, 48);
    }

    fn dflash_s_candle_port_draws_from_dflash_s_distribution() {
        let fixture: Value = serde_json::from_slice(file("dflash.json")).unwrap();
        for t in [9.9e-6, 1e-5, 0.3, 0.6, 1.0, 1.7] {
            for logits in ["reference", "near_tie_at_threshold"] {
                let logits = dflash_logits(&fixture, logits);
                let call = dflash_call(t);
                let exact = dflash::NAME.column().distribution(&call, None, &logits, &[]).unwrap();
                let port = dflash::candle_port(&call).unwrap();
                let c = sampling_lab_core::compare(&exact, &port.distribution(&logits, &[]).unwrap());
                assert!(c.max_abs_diff <= EXACT_TOLERANCE, "T={t}: max |Δp| {}", c.max_abs_diff);
            }
        }
    }

    fn dflash_s_candle_port_passes_monte_carlo_with_the_real_logits_processor() {
        let c = case("t07_default");
        let mc = serde_json::to_value(Analysis::run(&c.input).monte_carlo(2_000, 5).unwrap()).unwrap();
        assert_eq!(mc["dflash"]["consistent"], json!(true), "{}", mc["dflash"]);
    }

    fn at_temperature_1e_5_transformers_keeps_50_draws_1_and_says_so_while_only_vllm_s_floor_departs() {
        let mut args = GenerateArgs::default();
        args.set(Field::DoSample, PyValue::Bool(true));
        args.set(Field::Temperature, PyValue::Float(1e-5));
        let input = Inspection { args, ..case("t07").input };
        let report = Analysis::run(&input).report(Lang::En, &DEFAULT_PAIR);
        assert_eq!((report.entry(hf::NAME).kept, report.entry(corrected::NAME).kept), (50, 1));
        let rules: Vec<&str> = report.causes.iter().map(|c| c.rule.name()).collect();
        // vLLM raises any temperature below 0.01 to 0.01: the one column that draws elsewhere.
        assert_eq!(rules, ["hf_undrawable", "vllm_temperature_floor"], "{:?}", report.causes);
        assert_eq!(report.entry(corrected::NAME).details["exactness"], "exact");
    }

    fn llama_cpp_s_draws_pass_monte_carlo_on_the_reference_context() {
        // Only llama.cpp's chain draws here: the candle ports' full-vocabulary draws would hold a
        // browser's main thread for half a minute, and other tests check them.
        for name in ["t07_default", "k40p09", "ties_3221_k2", "greedy"] {
            let analysis = Analysis::run(&case(name).input);
            let checked = draws_of(&analysis, llama_cpp::NAME, 5_000, 9).expect("llama.cpp draws").unwrap();
            assert!(checked.consistent, "{name}: tv {} > bound {}, {} outside", checked.tv_to_exact, checked.bound, checked.outside_exact);
        }
    }

    fn llama_cpp_keeps_fewer_tokens_than_transformers_when_the_call_is_hot() {
        // temperature=1.5 alone: transformers keeps its implicit top 50; llama.cpp cuts with its
        // default top_p and min_p at temperature 1, then divides.
        let mut args = GenerateArgs::default();
        args.set(Field::DoSample, PyValue::Bool(true));
        args.set(Field::Temperature, PyValue::Float(1.5));
        let input = Inspection { args, ..case("t07").input };
        let report = Analysis::run(&input).report(Lang::En, &DEFAULT_PAIR);
        assert_eq!(report.entry(hf::NAME).kept, 50);
        assert!(report.entry(llama_cpp::NAME).kept < 50, "{}", report.entry(llama_cpp::NAME).kept);
        assert!(report.causes.iter().any(|c| c.rule.name() == "llama_cpp_order"), "{:?}", report.causes);
    }

    fn dflash_at_temperature_0_6_is_not_generate_at_temperature_0_6() {
        let report = Analysis::run(&case("t07_default").input).report(Lang::En, &DEFAULT_PAIR);
        assert_eq!((report.entry(hf::NAME).kept, report.entry(dflash::NAME).kept), (50, 49152));
        assert!(report.causes.iter().any(|c| c.rule.name() == "dflash_temperature_only"), "{:?}", report.causes);
    }
}

/// DFlash's `sample(logits, t)`: the temperature is all it reads of a call.
fn dflash_call(t: f64) -> GenerateArgs {
    let mut args = GenerateArgs::default();
    args.set(Field::Temperature, PyValue::Float(t));
    args
}

fn dflash_logits(fixture: &Value, name: &str) -> Vec<f32> {
    match fixture["synthetic"].get(name) {
        Some(values) => values
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap() as f32)
            .collect(),
        None => npy_f32(file(&format!("logits/{name}.npy"))),
    }
}

/// The kept set exactly; listed probabilities within 1e-6; unlisted ones below the listing cut.
fn assert_dflash_support(name: &str, ours: &Distribution, case: &Value) {
    let ids = |key: &str| {
        case.get(key).map(|v| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|i| i.as_u64().unwrap() as u32)
                .collect::<Vec<_>>()
        })
    };
    let mut kept: Vec<u32> = ours.support().iter().map(|(i, _)| *i).collect();
    kept.sort_unstable();
    assert_eq!(kept.len() as u64, case["kept"].as_u64().unwrap(), "{name}: kept count");
    if let Some(expected) = ids("kept_ids") {
        assert_eq!(kept, expected, "{name}: kept ids");
    }
    if let Some(zero) = ids("zero_ids") {
        assert!(
            zero.iter().all(|z| kept.binary_search(z).is_err()),
            "{name}: a token torch cannot draw is kept"
        );
    }
    let dense = ours.dense();
    let mut listed = vec![false; dense.len()];
    for pair in case["probs"].as_array().unwrap() {
        let (id, p) = (pair[0].as_u64().unwrap() as usize, pair[1].as_f64().unwrap());
        listed[id] = true;
        assert!(
            (dense[id] - p).abs() <= EXACT_TOLERANCE,
            "{name}: token {id}: {} vs torch {p}",
            dense[id]
        );
    }
    let unlisted_max = dense
        .iter()
        .zip(&listed)
        .filter(|(_, l)| !**l)
        .map(|(p, _)| *p)
        .fold(0.0, f64::max);
    assert!(
        unlisted_max <= 1e-5 + EXACT_TOLERANCE,
        "{name}: an unlisted token has p = {unlisted_max}"
    );
}

/// `make fixtures` may add a file: the tests only see it once `tests/common/mod.rs` embeds it.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_fixture_file_is_embedded() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    for folder in common::FIXTURE_FOLDERS {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let name = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
                assert!(
                    common::FIXTURE_FILES.iter().any(|(n, _)| *n == name),
                    "{name} is not embedded"
                );
            }
        }
    }
}
