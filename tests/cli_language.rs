//! `sampling-lab --lang zh-Hans` says everything in Chinese, not only its report: why input is
//! unusable (the crate's, the core's and the command line's own sentences), the usage after a
//! mistake on the command line, its progress and what it wrote. A library's words stay as they
//! are. The model commands need the default GGUF in models/ (`make model`).

#[path = "support/command.rs"]
mod command;
use command::run;
use std::process::Output;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logits/reference.npy");
const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/SmolLM2-135M-Instruct.Q4_1.gguf");

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn is_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn unusable_input_is_one_line_in_the_language_asked() {
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["--logits", "/nonexistent.npy", "--params", "{}"],
            "cannot read /nonexistent.npy",
            "无法读取 /nonexistent.npy",
        ),
        (
            &["--logits", REFERENCE, "--params", r#"{"topk": 3}"#],
            "unknown generate() argument `topk`",
            "没有参数 `topk`",
        ),
        (
            &["--logits", REFERENCE, "--params", "{}", "--draws", "many"],
            "`--draws` must be a non-negative integer",
            "`--draws` 必须是非负整数",
        ),
        (
            &[
                "--model",
                env!("CARGO_MANIFEST_DIR"),
                "--prompt",
                "hi",
                "--params",
                "{}",
            ],
            "cannot read",
            "无法读取",
        ),
    ];
    for (args, english, chinese) in cases {
        for (lang, expected) in [("en", english), ("zh-Hans", chinese)] {
            let out = run("inspect", &[args, &["--lang", lang]].concat());
            let said = stderr(&out);
            assert!(!out.status.success(), "{args:?} should fail");
            assert_eq!(said.trim_end().lines().count(), 1, "{args:?}: {said}");
            assert!(said.contains(expected), "{lang}, {args:?}: {said}");
            assert_eq!(is_chinese(&said), lang == "zh-Hans", "{lang}: {said}");
        }
    }
}

#[test]
fn a_model_file_that_is_not_one_is_named_in_chinese() {
    let readme = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    let out = run(
        "inspect",
        &[
            "--model", readme, "--prompt", "hi", "--params", "{}", "--lang", "zh-Hans",
        ],
    );
    assert!(stderr(&out).contains("不是 GGUF 文件"), "{}", stderr(&out));
}

#[test]
fn a_command_line_mistake_is_named_then_the_usage_follows_in_that_language() {
    let unknown = run("port", &["--logits", REFERENCE, "--lang", "zh-Hans", "--bogus", "1"]);
    let said = stderr(&unknown);
    assert!(!unknown.status.success());
    let mut lines = said.lines();
    assert_eq!(
        lines.next(),
        Some("sampling-lab: 这个命令没有 `--bogus` 参数"),
        "{said}"
    );
    assert_eq!(lines.next(), Some("用法："), "{said}");
    assert!(said.contains("sampling-lab inspect --logits FILE") && said.contains("COLUMN 是报告里的一列"));
    let help = run("--lang", &["zh-Hans"]);
    assert!(stderr(&help).starts_with("sampling-lab: 用法：\n"), "{}", stderr(&help));
    let flag_first = run("--params", &["{}", "--lang", "zh-Hans"]);
    assert!(stderr(&flag_first).starts_with("sampling-lab: 先写命令，再写它的参数\n用法："));
    let missing = run("inspect", &["--params", "{}"]);
    let said = stderr(&missing);
    assert!(
        said.starts_with("sampling-lab: this command needs `--logits`\nusage:"),
        "{said}"
    );
    assert!(!is_chinese(&said), "{said}");
}

#[test]
fn a_language_that_is_not_one_is_refused_in_english() {
    let out = run("inspect", &["--logits", REFERENCE, "--params", "{}", "--lang", "fr"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("the language must be `en` or `zh-Hans`, not `fr`"));
}

#[test]
fn the_logits_command_says_its_progress_and_what_it_wrote_in_chinese() {
    let path = std::env::temp_dir().join(format!("sampling-lab-cli-zh-{}.npy", std::process::id()));
    let out = run(
        "logits",
        &[
            "--model",
            MODEL,
            "--prompt",
            "你好",
            "--out",
            path.to_str().unwrap(),
            "--lang",
            "zh-Hans",
        ],
    );
    std::fs::remove_file(&path).ok();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("已载入 ") && stderr(&out).contains("（精确），用时 "),
        "{}",
        stderr(&out)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("已把 ") && stdout.contains("logits 写入"),
        "{stdout}"
    );
}
