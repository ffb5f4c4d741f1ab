//! What the end-to-end tests share: running the `octal` binary and reading its JSON, reading
//! `tests/data`, and a scratch folder of the test process. Each test binary uses part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the `octal` binary with `args`.
pub fn octal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_octal"))
        .args(args)
        .output()
        .expect("the octal binary runs")
}

/// The rows of a `tests/data` table (comments and the header left out), split at tabs.
pub fn data(name: &str) -> Vec<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .skip(1) // the header
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// `name` in the scratch folder of this test process.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("octal-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `name` in the scratch folder, removed first (a folder or a file of that name).
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = tmp(name);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&dir);
    dir
}

/// The one JSON object a successful `octal` printed (failing with its stderr otherwise).
pub fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
