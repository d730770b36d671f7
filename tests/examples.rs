//! The example programs under `examples/`: a bad argument is refused with a
//! usage line and exit status 2, promptly, never a panic.

use std::ffi::OsStr;
use std::fmt::Debug;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Builds the example `name` as `cargo test` does (same features, so it
/// is fresh after a full test build) and returns its executable.
fn example(name: &str) -> PathBuf {
    let mut features = Vec::new();
    if cfg!(feature = "cli") {
        features.push("cli");
    }
    if cfg!(feature = "__fuzz") {
        features.push("__fuzz");
    }
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "--message-format=json", "--example", name]);
    if !features.is_empty() {
        cargo.args(["--features", &features.join(",")]);
    }
    let out = cargo
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(Stdio::inherit())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo build --example {name} failed");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let key = "\"executable\":\"";
    stdout
        .lines()
        .filter(|line| line.contains(&format!("\"name\":\"{name}\"")))
        .find_map(|line| {
            let at = line.find(key)? + key.len();
            let end = at + line[at..].find('"')?;
            Some(PathBuf::from(&line[at..end]))
        })
        .unwrap_or_else(|| panic!("no executable for example {name}"))
}

/// Runs `program` with `args`: its exit code and stderr, or a failure if
/// it takes more than ten seconds (it is then killed).
fn run<S: AsRef<OsStr> + Debug>(program: &PathBuf, args: &[S]) -> (Option<i32>, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?}: still running after 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn stream_memory_refuses_an_unknown_mode() {
    let program = example("stream_memory");
    let (code, stderr) = run(&program, &["bogus"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("unknown mode \"bogus\""), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn many_fetches_refuses_bad_arguments() {
    let program = example("many_fetches");
    for (args, says) in [
        (&["many"][..], "fetches"),
        (&["-5"], "fetches"),
        (&["0"], "fetches"),
        (&["10", "x"], "concurrency"),
        // No permit ever: every fetch would wait out the deadline.
        (&["10", "0"], "concurrency"),
        // More than a Tokio semaphore holds.
        (&["10", "4611686018427387904"], "concurrency"),
        // Near or past the fetch timeout: fetches would time out.
        (&["10", "10", "29999"], "delay_ms"),
        (&["10", "10", "40000"], "delay_ms"),
    ] {
        let (code, stderr) = run(&program, args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(stderr.contains("usage"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// An argument that is not UTF-8, on which `std::env::args` panics, is
/// refused with status 2, or by the crawler skipped (and by the memory
/// report ignored, as any argument but `--all` is).
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"\xff");
    for (name, want, says) in [
        ("fetch", 2, "not UTF-8"),
        ("crawler", 0, "not UTF-8"),
        ("memory", 0, ""),
        ("stream_memory", 2, "unknown mode"),
        ("many_fetches", 2, "fetches"),
    ] {
        let (code, stderr) = run(&example(name), &[bad]);
        assert_eq!(code, Some(want), "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
}
