//! The `sampling-lab` binary, run as a user runs it.

use std::process::{Command, Output};

/// `sampling-lab <command> <args…>`, waited for.
pub fn run(command: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sampling-lab"))
        .arg(command)
        .args(args)
        .output()
        .expect("the binary runs")
}
