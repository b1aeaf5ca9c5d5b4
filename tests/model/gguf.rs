//! The model from the default GGUF: tokenizer ids, chat template text, exact-mode logits,
//! KV-cached decoding, generation, and bad files.

use super::*;
use sampling_lab::generation::{GenerationError, Sampler, Session};
use sampling_lab::model::{Chat, Message, ModelError};
use sampling_lab::text::Explain;
use sampling_lab_core::columns::{hf, literal};
use sampling_lab_core::{ColumnName, GenerateArgs, SamplingError};

#[test]
fn tokenizer_ids_equal_transformers_on_the_corpus() {
    let model = model(Precision::Exact);
    let corpus = fixture("tokenizer_corpus.json");
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 300, "corpus has {} strings", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let got = model.tokenizer.encode(text).unwrap();
        if got != ids(&case["ids"]) {
            failures.push(format!("{text:?}: got {got:?}, transformers {:?}", ids(&case["ids"])));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn decoding_equals_transformers_on_the_corpus() {
    let model = model(Precision::Exact);
    for case in fixture("tokenizer_corpus.json")["cases"].as_array().unwrap() {
        let decoded = model.tokenizer.decode(&ids(&case["ids"])).unwrap();
        assert_eq!(decoded, case["decoded"].as_str().unwrap(), "{:?}", case["text"]);
    }
}

#[test]
fn chat_template_renders_as_transformers_apply_chat_template() {
    let model = model(Precision::Exact);
    for case in fixture("chat.json")["cases"].as_array().unwrap() {
        let messages: Vec<Message> = serde_json::from_value(case["messages"].clone()).unwrap();
        let add = case["add_generation_prompt"].as_bool().unwrap();
        let text = model.chat.render(&messages, add).unwrap();
        assert_eq!(text, case["text"].as_str().unwrap(), "{}", case["name"]);
        assert_eq!(
            model.tokenizer.encode(&text).unwrap(),
            ids(&case["ids"]),
            "{}",
            case["name"]
        );
    }
}

#[test]
fn reference_chat_with_answer_prefix_gives_the_46_reference_ids() {
    let model = model(Precision::Exact);
    let chat = Chat::single(
        None,
        "How do you say thank you in Chinese?",
        "In Chinese, you can say \"",
    );
    let expected = ids(&fixture("logits.json")["contexts"]["reference"]["ids"]);
    assert_eq!(expected.len(), 46);
    assert_eq!(model.chat_ids(&chat).unwrap(), expected);
}

fn reference_ids() -> Vec<u32> {
    reference_logits().0
}

/// Exact mode runs f32 matmuls over the dequantized weights: transformers' own logits.
#[test]
fn exact_logits_equal_transformers_on_every_fixture_context() {
    let model = model(Precision::Exact);
    let names: Vec<String> = fixture("logits.json")["contexts"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert!(names.len() >= 4);
    assert!(names.iter().any(|name| logits_fixture(name).0.len() > 500));
    for name in names {
        let (ids, expected) = logits_fixture(&name);
        let diff = max_abs_diff(&model.next_logits(&ids).unwrap(), &expected);
        eprintln!("{name}: max |Δlogit| = {diff:.2e}");
        assert!(
            diff <= LOGITS_TOLERANCE,
            "{name}: max |Δlogit| {diff} > {LOGITS_TOLERANCE}"
        );
    }
}

/// Fast mode quantizes activations as llama.cpp does: its deviation is measured, not bounded tightly.
#[test]
fn fast_logits_stay_near_transformers_and_keep_the_top_token() {
    let (got, expected, diff) = reference_deviation(&model(Precision::Fast), "fast");
    assert!(diff < FAST_TOLERANCE, "fast logits deviate by {diff}");
    assert_eq!(argmax(&got), argmax(&expected));
}

/// Runs a greedy generation of at most `n` tokens to its end.
fn greedy(model: Arc<Model>, prompt: Vec<u32>, n: usize) -> Session {
    let mut session = greedy_session(model, prompt, n);
    while session.step().unwrap().is_some() {}
    session
}

#[test]
fn exact_greedy_continuation_equals_transformers_generate() {
    let expected = ids(&fixture("logits.json")["greedy_reference"]);
    let session = greedy(model(Precision::Exact), reference_ids(), expected.len());
    assert_eq!(session.generated(), expected.as_slice());
}

/// Every cached step's logits equal a full forward over the same ids, in both precisions.
#[test]
fn kv_cached_decoding_equals_a_full_forward_at_every_step() {
    let model = model(Precision::Exact);
    let session = greedy(model.clone(), reference_ids(), 12);
    assert_every_step_equals_a_fresh_forward(&model, &session);
}

/// Quantized matmuls round every activation row to 8 bits, a step function: an f32 sum taken in
/// another order (one cached row against a full prefill) can flip a rounding and move the logits
/// by as much as quantization itself does. The cached path is held to the bound fast mode keeps
/// against transformers, and to the same choice of token. Twelve steps are decoded from the
/// cache and every fourth, and the last, checked against a full forward (each costs a prefill in
/// this precision): a later step's logits carry every cached row before them.
#[test]
fn fast_kv_cached_decoding_stays_within_quantization_noise() {
    let model = model(Precision::Fast);
    let session = greedy(model.clone(), reference_ids(), 12);
    assert_eq!(session.steps(), 12, "the greedy answer runs past twelve tokens");
    let checked = [0, 4, 8, 11];
    let mut worst = 0f32;
    for step in checked {
        let (cached, context) = session.at(step).unwrap();
        let full = model.next_logits(context).unwrap();
        worst = worst.max(max_abs_diff(cached, &full));
        assert_eq!(argmax(cached), argmax(&full), "step {step}");
    }
    eprintln!("fast: cached vs full forward, max |Δlogit| at steps {checked:?} = {worst:.3}");
    assert!(worst < FAST_TOLERANCE, "{worst}");
}

#[test]
fn generation_stops_at_im_end_and_streams_the_decoded_text() {
    let model = model(Precision::Exact);
    let chat = Chat::single(None, "What is the capital of France?", "");
    let mut session = greedy_session(model.clone(), model.chat_ids(&chat).unwrap(), 64);
    let mut text = String::new();
    while let Some(step) = session.step().unwrap() {
        text.push_str(&step.text);
    }
    assert_eq!(session.finish(), Some(sampling_lab::generation::Finish::Eos));
    assert_eq!(*session.generated().last().unwrap(), 2);
    assert_eq!(text, model.tokenizer.decode(session.generated()).unwrap());
    assert!(text.starts_with("The capital of France is Paris."), "{text:?}");
}

fn greedy_session(model: Arc<Model>, prompt: Vec<u32>, n: usize) -> Session {
    let sampler = Sampler::new(hf::NAME, &GenerateArgs::default(), None, 0).unwrap();
    Session::start(model, prompt, sampler, n).unwrap()
}

/// Every column's sampler on the exact model, and one on candle's own quantized matmuls (fast
/// precision, whose prefill costs seconds here).
#[test]
fn seeded_sampling_is_reproducible_for_every_semantics() {
    let args =
        GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#).unwrap();
    let run = |model: &Arc<Model>, semantics, seed| {
        let sampler = Sampler::new(semantics, &args, None, seed).unwrap();
        let mut session = Session::start(model.clone(), reference_ids(), sampler, 8).unwrap();
        while session.step().unwrap().is_some() {}
        session.generated().to_vec()
    };
    let exact = model(Precision::Exact);
    for semantics in ColumnName::all() {
        assert_eq!(run(&exact, semantics, 7), run(&exact, semantics, 7), "{semantics:?}");
    }
    let fast = model(Precision::Fast);
    assert_eq!(run(&fast, hf::NAME, 7), run(&fast, hf::NAME, 7), "fast precision");
}

#[test]
fn invalid_parameters_are_refused_before_generation_for_hf_semantics() {
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.0}"#).unwrap();
    let err = Sampler::new(hf::NAME, &args, None, 0).err().unwrap();
    assert!(
        matches!(err, GenerationError::Sampling(SamplingError::Refused(_))),
        "{err:?}"
    );
    assert!(err.to_string().contains("strictly positive float"), "{err}");
    assert!(
        Sampler::new(literal::NAME, &args, None, 0).is_ok(),
        "the literal port accepts it silently"
    );
}

fn load_err(bytes: &[u8]) -> ModelError {
    Model::from_gguf(bytes, Precision::Exact).err().expect("must not load")
}

#[test]
fn a_file_that_is_not_a_model_is_named() {
    let err = load_err(b"<!DOCTYPE html><html>not found</html>");
    assert!(matches!(err, ModelError::NotAModel(_)), "{err}");
    assert!(err.to_string().contains("not a GGUF file"), "{err}");
}

#[test]
fn a_truncated_gguf_is_reported_as_truncated() {
    let bytes = gguf_bytes();
    for len in [20, bytes.len() / 100, bytes.len() - 1000] {
        let err = load_err(&bytes[..len]);
        assert!(matches!(err, ModelError::Truncated(_)), "{len}: {err}");
        assert!(err.to_string().contains("truncated"), "{err}");
    }
}

/// Rewrites one metadata string value in place (same length), keeping the file well-formed.
fn patched(find: &[u8], replace: &[u8]) -> Vec<u8> {
    assert_eq!(find.len(), replace.len());
    let mut bytes = gguf_bytes().to_vec();
    let at = bytes.windows(find.len()).position(|w| w == find).expect("present");
    bytes[at..at + find.len()].copy_from_slice(replace);
    bytes
}

#[test]
fn a_gguf_of_another_architecture_is_refused() {
    // general.architecture = "llama" → "gemma" (same length, so the header stays valid).
    let mut key_and_value = b"general.architecture".to_vec();
    key_and_value.extend_from_slice(&[8, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]);
    let mut find = key_and_value.clone();
    find.extend_from_slice(b"llama");
    let mut replace = key_and_value;
    replace.extend_from_slice(b"gemma");
    let err = load_err(&patched(&find, &replace));
    assert!(matches!(err, ModelError::WrongArchitecture(_)), "{err}");
    assert!(err.to_string().contains("`gemma`"), "{err}");
}

#[test]
fn a_gguf_with_a_missing_tensor_is_refused_by_name() {
    // Renaming blk.7.ffn_up.weight leaves layer 7 without it.
    let err = load_err(&patched(b"blk.7.ffn_up.weight", b"blk.7.ffn_XX.weight"));
    assert!(matches!(err, ModelError::Missing(_)), "{err}");
    assert!(err.to_string().contains("blk.7.ffn_up.weight"), "{err}");
}

#[test]
fn a_context_past_the_model_length_is_an_error_and_the_model_stays_usable() {
    let model = model(Precision::Exact);
    let too_long = vec![198u32; model.info.max_positions + 1];
    let err = model.next_logits(&too_long).err().unwrap();
    assert!(matches!(err, ModelError::ContextTooLong { limit: 8192, .. }), "{err}");
    assert!(err.to_string().contains("8,193 tokens"), "{err}");
    let chinese = err.explain(sampling_lab_core::Lang::ZhHans);
    assert!(
        chinese.starts_with("上下文有 8,193 个 token，最多只能放 8,192 个（模型的上下文长度）"),
        "{chinese}"
    );
    assert!(model.next_logits(&reference_ids()).is_ok());
}

#[test]
fn fast_precision_names_its_shorter_position_limit() {
    let model = model(Precision::Fast);
    let err = model.next_logits(&vec![198u32; 5000]).err().unwrap();
    assert!(err.to_string().contains("at most 4,096 fit"), "{err}");
}
