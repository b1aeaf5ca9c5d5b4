//! The corrected port as the page offers it, compiled and run: `examples/corrected_port.rs` (the
//! page's code for transformers' reference call, kept identical by a unit test) draws, seed by
//! seed, exactly the tokens the corrected column's own sampler draws. `cargo test` builds the
//! example before running this.

use sampling_lab_core::{CandlePort, GenerateArgs};
use std::path::PathBuf;
use std::process::Command;

/// The example's binary, built beside this test's (`target/<profile>/examples/`).
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().unwrap().parent().unwrap();
    let path = profile
        .join("examples")
        .join(format!("corrected_port{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is not built: `cargo test -p sampling-lab-core` builds the examples",
        path.display()
    );
    path
}

/// Logits with a long tail and exact ties at the 40th place, so that the closure's top-k has
/// ties to keep and top-p cuts inside them.
fn logits() -> Vec<f32> {
    (0..4096)
        .map(|i| match i {
            0..=35 => 9.0 - i as f32 * 0.125,
            36..=43 => 4.5,
            _ => -((i % 97) as f32) * 0.25,
        })
        .collect()
}

fn npy(values: &[f32]) -> Vec<u8> {
    let header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    let header = format!("{header:<117}\n");
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    bytes
}

#[test]
fn the_offered_program_draws_what_the_corrected_column_draws() {
    const DRAWS: u64 = 400;
    let logits = logits();
    let path = std::env::temp_dir().join(format!("sampling-lab-example-{}.npy", std::process::id()));
    std::fs::write(&path, npy(&logits)).unwrap();
    let out = Command::new(example())
        .arg(&path)
        .arg(DRAWS.to_string())
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed: Vec<u32> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();

    let args =
        GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#).unwrap();
    let port = CandlePort::corrected(&args, None).unwrap();
    let column: Vec<u32> = (0..DRAWS)
        .map(|seed| port.sampler(seed).next(&logits, &[]).unwrap())
        .collect();
    assert_eq!(printed, column);
    let distinct: std::collections::BTreeSet<u32> = column.iter().copied().collect();
    assert!(
        distinct.len() > 5,
        "the draws spread over the kept tokens: {distinct:?}"
    );
}
