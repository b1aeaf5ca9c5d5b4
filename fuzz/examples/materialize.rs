//! `cargo run --example materialize -- gguf_structured|hub|generate_call INPUT OUT`: the file(s)
//! a structured fuzz input stands for, so that `tests/untrusted.rs` replays a crash without the
//! generator: a GGUF, a directory of Hub files, or a call as JSON (logits as f32 bit patterns,
//! since JSON has no NaN).
use arbitrary::{Arbitrary, Unstructured};
use sampling_lab_fuzz::{Call, TinyHub, TinyLlama};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [target, input, out] = &args[..] else {
        eprintln!("usage: materialize gguf_structured|hub|generate_call INPUT OUT");
        std::process::exit(2);
    };
    let data = std::fs::read(input).expect("readable input");
    let u = Unstructured::new(&data);
    match target.as_str() {
        "gguf_structured" => {
            let model = TinyLlama::arbitrary_take_rest(u).expect("an input the target accepted");
            std::fs::write(out, model.to_bytes()).expect("writable output");
        }
        "hub" => {
            let hub = TinyHub::arbitrary_take_rest(u).expect("an input the target accepted");
            let files = hub.files().expect("a model the exporter wrote");
            std::fs::create_dir_all(out).expect("writable output");
            let write = |name: &str, bytes: &[u8]| std::fs::write(format!("{out}/{name}"), bytes).expect("writable");
            write("config.json", &files.config);
            write("model.safetensors", &files.weights);
            write("tokenizer.json", &files.tokenizer);
            files
                .tokenizer_config
                .as_deref()
                .map(|b| write("tokenizer_config.json", b));
            files
                .generation_config
                .as_deref()
                .map(|b| write("generation_config.json", b));
        }
        "generate_call" => {
            let call = Call::arbitrary_take_rest(u).expect("an input the target accepted");
            let (params, config) = call.texts();
            let bits: Vec<u32> = call.logits().iter().map(|f| f.to_bits()).collect();
            let json = serde_json::json!({
                "params": params,
                "generation_config": config,
                "logit_bits": bits,
                "context_ids": call.context,
            });
            std::fs::write(out, json.to_string()).expect("writable output");
        }
        other => panic!("no structured target {other}"),
    }
}
