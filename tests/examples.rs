//! The example programs under `examples/`: a bad argument is refused with a
//! usage line and exit status 2, promptly, never a panic; and the two that
//! check URLs do so as a crawler needs, against a local server.
#![cfg(feature = "fetch")]

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
    let (code, _, stderr) = run_for_output(program, args);
    (code, stderr)
}

/// Runs `program` with `args`: its exit code, stdout and stderr, or a
/// failure if it takes more than ten seconds (it is then killed).
fn run_for_output<S: AsRef<OsStr> + Debug>(
    program: &PathBuf,
    args: &[S],
) -> (Option<i32>, String, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read as it comes, so that a full pipe cannot stall the program.
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).map(|_| text)
    });
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
        reader.join().unwrap().unwrap(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Serves `body` as robots.txt on a local server, and runs the example
/// `name` with `args` (`{site}` in them replaced by the server's origin):
/// its exit code, stdout and stderr.
async fn against_a_site(name: &str, body: &str, args: &[&str]) -> (Option<i32>, String, String) {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(ResponseTemplate::new(200).set_body_string(body))
        .expect(1)
        .mount(&server)
        .await;
    let site = server.uri();
    let args: Vec<String> = args.iter().map(|a| a.replace("{site}", &site)).collect();
    let program = example(name);
    tokio::task::spawn_blocking(move || run_for_output(&program, &args))
        .await
        .unwrap()
}

/// The examples check a URL as the HTTP client will request it
/// (`/a/../private` is `/private`), say which URL they refuse, and check
/// no URL of another origin against the site's rules.
#[tokio::test(flavor = "multi_thread")]
async fn fetch_and_crawler_check_urls_as_the_client_sends_them() {
    let body = "User-agent: *\nDisallow: /private\n";
    let (code, stdout, stderr) = against_a_site(
        "fetch",
        body,
        &[
            "{site}/",
            "bot",
            "/open",
            "{site}/private/a",
            "{site}/a/../private/b",
            "http://other.example/private",
        ],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().map(str::trim).collect();
    assert!(lines[0].ends_with("fetched (HTTP 200)"), "{stdout}");
    // A path is taken on the site, and each URL is shown as checked.
    let verdicts = [
        ("allowed", "/open"),
        ("disallowed", "/private/a"),
        ("disallowed", "/private/b"),
    ];
    for (line, (verdict, path)) in lines[1..].iter().zip(verdicts) {
        assert!(
            line.starts_with(&format!("{verdict}  bot  http://127.0.0.1:")) && line.ends_with(path),
            "{stdout}"
        );
    }
    assert_eq!(
        lines[4],
        "skipped  http://other.example/private: http://other.example has its own robots.txt"
    );
    assert_eq!(lines.len(), 5, "{stdout}");

    let (code, stdout, stderr) = against_a_site(
        "crawler",
        body,
        &["{site}/open", "{site}/private/x", "{site}/b/../private/y"],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].ends_with("/open"), "{stdout}");
    for (line, path) in [(lines[1], "/private/x"), (lines[2], "/private/y")] {
        assert!(
            line.contains("skip http")
                && line.contains(&format!(
                    "{path}: disallowed by line 2 'Disallow: /private'"
                )),
            "{stdout}"
        );
    }
    // The cache's report counts the one origin it holds.
    assert!(lines[3].contains("entries: 1,"), "{stdout}");
    assert_eq!(lines.len(), 4, "{stdout}");
}

/// `fetch --help` prints the usage, rather than an error about a URL
/// named `--help`.
#[test]
fn fetch_help_prints_the_usage() {
    for flag in ["--help", "-h"] {
        let (code, stderr) = run(&example("fetch"), &[flag]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.starts_with("usage: fetch URL"), "{stderr}");
    }
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
        // Past the largest bound (`Semaphore::MAX_PERMITS`): the fetcher
        // would set none.
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
    // What stderr says (nothing, for the memory report).
    for (name, want, says) in [
        ("fetch", 2, Some("not UTF-8")),
        ("crawler", 0, Some("not UTF-8")),
        ("memory", 0, None),
        ("stream_memory", 2, Some("unknown mode")),
        ("many_fetches", 2, Some("fetches")),
    ] {
        let (code, stderr) = run(&example(name), &[bad]);
        assert_eq!(code, Some(want), "{name}: {stderr}");
        match says {
            Some(says) => assert!(stderr.contains(says), "{name}: {stderr}"),
            None => assert_eq!(stderr, "", "{name}"),
        }
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
}
