//! What the end-to-end tests share: running the `octal` binary and reading its JSON, reading
//! `tests/data`, and a scratch folder of the test process. Each test binary uses part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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

/// A small xorshift generator, seeded from the clock (tests print the seed on failure).
pub struct Rng(u64);

impl Rng {
    pub fn from_clock() -> Rng {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        Rng(nanos.as_nanos() as u64 | 1)
    }

    /// The seed, for a message (before the first draw).
    pub fn seed(&self) -> u64 {
        self.0
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Runs `octal` with `args` and SIGKILLs it `after` its start.
pub fn run_and_kill(args: &[&str], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_octal"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
}
