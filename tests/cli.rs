//! The `keepout` binary, run as a user would: against a local file and local
//! HTTP servers (wiremock). Verdicts, deciding lines, exit codes, JSON shape,
//! stdin batches, bad input, and `show`'s lints.
#![cfg(feature = "cli")]

use std::process::Stdio;

use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

mod common;

/// The example file (see `tests/data/cli/robots.txt` for its line numbers).
const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/cli/robots.txt");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// The warnings section of `show`'s text: its `warnings: N` line and
    /// those after it.
    fn warning_lines(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .skip_while(|l| !l.starts_with("warnings:"))
            .collect()
    }

    fn json(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }

    /// Exit code 2 and a single `keepout: error:` line mentioning `needle`.
    fn assert_bad_input(&self, needle: &str) {
        assert_eq!(self.code, 2, "stderr: {}", self.stderr);
        assert_eq!(self.stdout, "");
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {}", self.stderr);
        assert!(lines[0].starts_with("keepout: error: "), "{}", lines[0]);
        assert!(lines[0].contains(needle), "{:?} in {}", needle, lines[0]);
    }
}

/// Starts the binary with `args`, its stdin, stdout and stderr piped.
fn spawn(args: &[impl AsRef<std::ffi::OsStr>]) -> tokio::process::Child {
    Command::new(env!("CARGO_BIN_EXE_keepout"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A test giving up on a run (a timeout) ends it.
        .kill_on_drop(true)
        .spawn()
        .expect("the keepout binary runs")
}

/// Runs the binary with `args`, feeding it `stdin`.
async fn keepout(args: &[impl AsRef<std::ffi::OsStr>], stdin: impl AsRef<[u8]>) -> Run {
    let mut child = spawn(args);
    let mut input = child.stdin.take().unwrap();
    // The binary may exit without reading stdin (bad input found first).
    match input.write_all(stdin.as_ref()).await {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    drop(input);
    let out = child.wait_with_output().await.unwrap();
    Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// The line and kind of each warning of one robots.txt `show --json` printed.
fn warning_kinds(file: &Value) -> Vec<(u64, &str)> {
    file["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["line"].as_u64().unwrap(), w["kind"].as_str().unwrap()))
        .collect()
}

/// A server answering `/robots.txt` with `response`, expected `times` times.
async fn serve(response: ResponseTemplate, times: u64) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(response)
        .expect(times)
        .mount(&server)
        .await;
    server
}

/// Waits for the `n`th request `requests` reports, for at most 20 s.
async fn nth_request(
    requests: &mut tokio::sync::mpsc::UnboundedReceiver<()>,
    n: usize,
    what: &str,
) {
    let all = async {
        for _ in 0..n {
            requests.recv().await.expect("the server is up");
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(20), all)
        .await
        .unwrap_or_else(|_| panic!("{what}"));
}

// --- check against a local file: verdicts, deciding lines, exit codes ---

#[tokio::test]
async fn check_file_verdicts_and_deciding_lines() {
    let run = keepout(
        &[
            "check",
            "--agent",
            "SomeBot",
            "--robots",
            FILE,
            "https://example.com/private/x",
            "https://example.com/private/press/1",
            "https://example.com/search?q=1",
            "https://example.com/about",
            "https://example.com/robots.txt",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1, "a URL is disallowed: {}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            format!("{FILE}: local file, 455 bytes").as_str(),
            "DISALLOWED https://example.com/private/x  line 6: Disallow: /private  (group at line 5: User-agent: *)",
            "ALLOWED    https://example.com/private/press/1  line 7: Allow: /private/press  (group at line 5: User-agent: *)",
            "ALLOWED    https://example.com/search?q=1  line 11: Allow: /search*  (group at line 5: User-agent: *)",
            "ALLOWED    https://example.com/about  no rule matches  (group at line 5: User-agent: *)",
            "ALLOWED    https://example.com/robots.txt  /robots.txt is always allowed",
        ]
    );
    assert_eq!(run.stderr, "");
}

/// Of many merged groups, a verdict line names the first four.
#[tokio::test]
async fn check_names_the_first_four_of_many_merged_groups() {
    let run = keepout(
        &["check", "-a", "bot", "-r", "-", "https://example.com/z"],
        "User-agent: *\nDisallow: /x\n".repeat(6),
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.lines()[1],
        "ALLOWED    https://example.com/z  no rule matches  (group at line 1: User-agent: *; \
         group at line 3: User-agent: *; group at line 5: User-agent: *; \
         group at line 7: User-agent: *; and 2 more groups)"
    );
}

/// A `--json` line lists the first 16 groups, and the first 16 values of
/// each, with their counts: it stays small however many groups a file
/// merges. (Each line listed them all: 387 KB a line for a hostile file.)
#[tokio::test]
async fn check_json_lists_the_first_sixteen_groups_and_agents() {
    let agents: String = (0..20).map(|i| format!("User-agent: a{i}\n")).collect();
    let file = format!("{agents}User-agent: *\nDisallow: /x\n").repeat(30);
    let run = keepout(
        &[
            "check",
            "--json",
            "-a",
            "bot",
            "-r",
            "-",
            "https://example.com/z",
        ],
        file,
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line: Value = serde_json::from_str(run.lines()[0]).unwrap();
    assert_eq!(line["groups_total"], 30);
    let groups = line["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 16);
    assert_eq!(groups[1]["line"], 23);
    assert_eq!(groups[1]["agents_total"], 21);
    let names: Vec<_> = groups[1]["agents"].as_array().unwrap().iter().collect();
    assert_eq!(names.len(), 16);
    assert_eq!(
        (names[0], names[15]),
        (&Value::from("a0"), &Value::from("a15"))
    );
}

/// Of a group's many user-agent values, a verdict line names the first
/// eight and counts the rest.
#[tokio::test]
async fn check_names_the_first_eight_of_a_groups_agents() {
    let agents: String = (0..20).map(|i| format!("User-agent: bot{i}\n")).collect();
    let run = keepout(
        &["check", "-a", "bot3", "-r", "-", "https://example.com/x"],
        format!("{agents}Disallow: /x\n"),
    )
    .await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines()[1],
        "DISALLOWED https://example.com/x  line 21: Disallow: /x  (group at line 1: User-agent: \
         bot0, bot1, bot2, bot3, bot4, bot5, bot6, bot7, and 12 more)"
    );
}

#[tokio::test]
async fn the_url_checked_is_the_url_a_client_sends() {
    // `..` is resolved, as a client would before the request: `/public/a`
    // is what the server is asked for, and no rule matches it. The line
    // shows the path checked when it is not the one written.
    let run = keepout(
        &[
            "check",
            "-a",
            "SomeBot",
            "-r",
            FILE,
            "https://example.com/private/../public/a",
            "https://example.com/priv%61te/x#frag",
            "https://example.com/about?q=1#frag",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert_eq!(
        run.lines()[1..],
        [
            "ALLOWED    https://example.com/private/../public/a  (as /public/a)  no rule matches  (group at line 5: User-agent: *)",
            "DISALLOWED https://example.com/priv%61te/x#frag  (as /private/x)  line 6: Disallow: /private  (group at line 5: User-agent: *)",
            "ALLOWED    https://example.com/about?q=1#frag  no rule matches  (group at line 5: User-agent: *)",
        ],
    );
}

#[tokio::test]
async fn any_user_agent_header_will_do() {
    // No product token can be read from it; `--agent` chooses the groups.
    let run = keepout(
        &[
            "check",
            "-a",
            "SomeBot",
            "-r",
            FILE,
            "--user-agent",
            "bot.v2/1",
            "https://example.com/about",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = keepout(&["show", "--user-agent", "", FILE], "").await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--user-agent \"\""), "{}", run.stderr);
}

/// An empty directory of the test's own under the target directory: each
/// test names its own, as tests run side by side and each removes its
/// directory when done (a failed test leaves it for the next run to clear).
fn scratch_dir(test: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("keepout-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test]
async fn control_characters_from_a_file_are_escaped() {
    // A robots.txt must not be able to drive the terminal.
    let dir = scratch_dir("escapes");
    // Nor its name.
    let file = dir.join("robots\x1b[31m\n.txt");
    std::fs::write(
        &file,
        "User-agent: a\x1b[31mred\nDisallow: /x\nSitemap: https://e.com/\x1b]0;title\x07\nX-key: \x1b[2J\nX-other: \u{202e}txt.exe\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let run = keepout(&["show", file], "").await;
    let run_check = keepout(&["check", "-a", "a", "-r", file, "https://e.com/x"], "").await;
    std::fs::remove_dir_all(&dir).unwrap();
    for out in [&run.stdout, &run_check.stdout] {
        assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
        assert!(out.contains("\\u{1b}"), "{out}");
    }
    // Nor reorder what it shows (a right-to-left override).
    assert!(!run.stdout.contains('\u{202e}'), "{:?}", run.stdout);
    assert!(run.stdout.contains("\\u{202e}txt.exe"), "{}", run.stdout);
}

/// A file whose path is not UTF-8 is read (Linux: paths are octets; macOS
/// refuses to create such a file).
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_path_that_is_not_utf8_is_read() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = scratch_dir("not-utf8");
    let file = dir.join(OsStr::from_bytes(b"robots-\xff.txt"));
    std::fs::copy(FILE, &file).unwrap();
    let run = keepout(
        &[
            OsStr::new("check"),
            OsStr::new("-a"),
            OsStr::new("ExampleBot"),
            OsStr::new("--robots"),
            file.as_os_str(),
            OsStr::new("https://example.com/public/x"),
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("robots-\u{FFFD}.txt: local file"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("ALLOWED    https://example.com/public/x  line 17"),
        "{}",
        run.stdout
    );
    let run = keepout(&[OsStr::new("show"), file.as_os_str()], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Shown with the octet that is not UTF-8 replaced.
    assert!(
        run.stdout.contains("robots-\u{FFFD}.txt: local file"),
        "{}",
        run.stdout
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn exit_0_when_all_allowed() {
    let run = keepout(
        &[
            "check",
            "-a",
            "SomeBot",
            "-r",
            FILE,
            "https://example.com/",
            "https://example.com/private/press",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.lines()
            .iter()
            .skip(1)
            .all(|l| l.starts_with("ALLOWED "))
    );
}

#[tokio::test]
async fn named_group_and_user_agent_header_value() {
    // The whole User-Agent header is accepted; its product token names the
    // group at line 14 (which lists two agents).
    let run = keepout(
        &[
            "check",
            "-a",
            "ExampleBot/2.1 (+https://example.com/bot)",
            "-r",
            FILE,
            "https://example.com/private/press",
            "https://example.com/public/page",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1);
    assert_eq!(
        &run.lines()[1..],
        [
            "DISALLOWED https://example.com/private/press  line 16: Disallow: /  (group at line 14: User-agent: ExampleBot, OtherBot/2.0)",
            "ALLOWED    https://example.com/public/page  line 17: Allow: /public/  (group at line 14: User-agent: ExampleBot, OtherBot/2.0)",
        ]
    );
}

#[tokio::test]
async fn a_user_agent_header_is_matched_by_the_token_the_note_names() {
    // Which token of a header is matched is not always its first word: a
    // note says which, and a verdict without a group names it.
    let evergreen = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; \
                     bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36";
    let robots = "User-agent: bingbot\nDisallow: /x\n";
    let url = "https://example.com/x";
    let browser = "Mozilla/5.0 (X11; Linux x86_64)";
    for (agent, code, token) in [(evergreen, 1, "bingbot"), (browser, 0, "Mozilla")] {
        let run = keepout(&["check", "-a", agent, "-r", "-", url], robots).await;
        assert_eq!(run.code, code, "{}", run.stderr);
        assert_eq!(
            run.stderr,
            format!("keepout: note: --agent is matched against user-agent lines as {token}\n")
        );
        if agent == browser {
            assert_eq!(
                run.lines()[1],
                "ALLOWED    https://example.com/x  no group for Mozilla and no '*' group"
            );
        }
    }
    let run = keepout(&["check", "--json", "-a", browser, "-r", "-", url], robots).await;
    let object = &run.json()[0];
    assert_eq!(
        (&object["agent"], &object["product_token"]),
        (&Value::from(browser), &Value::from("Mozilla"))
    );
    assert_eq!(object["cause"], "no_group");
    // A token ends at the first character one cannot hold: said too.
    let run = keepout(&["check", "-a", "Example.Bot", "-r", "-", url], robots).await;
    assert_eq!(
        run.stderr,
        "keepout: note: --agent is matched against user-agent lines as Example\n"
    );
    // A token alone, or with its version, needs no note.
    for agent in ["bingbot", "bingbot/2.0"] {
        let run = keepout(&["check", "-a", agent, "-r", "-", url], robots).await;
        assert_eq!((run.code, run.stderr.as_str()), (1, ""));
    }
    let run = keepout(&["check", "-a", "*", "-r", "-", url], robots).await;
    assert_eq!(
        run.lines()[1],
        "ALLOWED    https://example.com/x  no '*' group"
    );
}

/// `--agent` is trimmed as the library trims a crawler's name: of C0
/// controls and spaces, not of a no-break space, which starts no token (it
/// was trimmed, and the `*` group answered without a word).
#[tokio::test]
async fn an_agent_is_trimmed_as_the_library_trims_it() {
    let robots = "User-agent: examplebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n";
    let url = "https://example.com/x";
    for agent in ["\x01ExampleBot", " ExampleBot\t", "\x1bExampleBot"] {
        let run = keepout(&["check", "-a", agent, "-r", "-", url], robots).await;
        assert_eq!((run.code, run.stderr.as_str()), (1, ""), "{agent:?}");
    }
    keepout(&["check", "-a", "\u{a0}ExampleBot", "-r", "-", url], robots)
        .await
        .assert_bad_input("does not start with a product token");
}

// --- JSON ---

#[tokio::test]
async fn check_json_lines_shape() {
    let run = keepout(
        &[
            "check",
            "--json",
            "-a",
            "SomeBot",
            "-r",
            FILE,
            "https://example.com/private/x",
            "https://example.com/about/caf\u{e9}/../%7eteam?q=%e9#top",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1);
    let objects = run.json();
    assert_eq!(objects.len(), 2, "one object per URL, no header line");
    let robots = serde_json::json!({
        "source": FILE, "status": null, "final_url": null, "proxy": null, "redirects": 0,
        "result": "file", "reason": null, "truncated_at_cap": false,
    });
    assert_eq!(
        objects[0],
        serde_json::json!({
            "url": "https://example.com/private/x",
            "path": "/private/x",
            "allowed": false,
            "cause": "rule",
            "agent": "SomeBot",
            "product_token": "SomeBot",
            "agent_match": "star",
            "rule": {"line": 6, "kind": "disallow", "pattern": "/private", "normalized": "/private"},
            "groups": [{"line": 5, "agents": ["*"], "agents_total": 1}],
            "groups_total": 1,
            "robots": robots,
        })
    );
    // The path as matched: dot segment resolved, `~` decoded, the rest
    // percent-encoded in upper case, the fragment dropped.
    assert_eq!(objects[1]["path"], "/about/~team?q=%E9");
    assert_eq!(objects[1]["allowed"], true);
    assert_eq!(objects[1]["cause"], "no_matching_rule");
    assert_eq!(objects[1]["rule"], Value::Null);
}

// --- stdin batches ---

#[tokio::test]
async fn stdin_batch_keeps_order_and_skips_comments() {
    let stdin = "# a batch\nhttps://example.com/private/1\n\n  https://example.com/open  \nhttps://example.com/private/press/2\n";
    let run = keepout(
        &[
            "check",
            "-a",
            "SomeBot",
            "-r",
            FILE,
            "https://example.com/first",
            "-",
        ],
        stdin,
    )
    .await;
    assert_eq!(run.code, 1);
    let verdicts: Vec<(&str, &str)> = run.lines()[1..]
        .iter()
        .map(|l| {
            let mut words = l.split_whitespace();
            (words.next().unwrap(), words.next().unwrap())
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("ALLOWED", "https://example.com/first"),
            ("DISALLOWED", "https://example.com/private/1"),
            ("ALLOWED", "https://example.com/open"),
            ("ALLOWED", "https://example.com/private/press/2"),
        ]
    );
}

/// The verdicts on `https://example.com/private/1` then
/// `https://example.com/open` against [`FILE`], for `SomeBot`.
const PRIVATE_1_THEN_OPEN: [&str; 2] = [
    "DISALLOWED https://example.com/private/1  line 6: Disallow: /private  (group at line 5: User-agent: *)",
    "ALLOWED    https://example.com/open  no rule matches  (group at line 5: User-agent: *)",
];

/// A line starting with `#` is skipped whatever else it holds: a tab
/// (`#\tsection`), octets that are not UTF-8 (a Latin-1 note), also on a
/// first line after a byte order mark. (Such a comment used to stop the
/// run as a bad URL line.) A comment holding a lone CR is
/// still bad input: lines ended by CR alone read as one line, whose URLs
/// after the first would be lost.
#[tokio::test]
async fn a_comment_line_is_skipped_whatever_it_holds() {
    let stdin: &[u8] = b"\xef\xbb\xbf#\tURLs\nhttps://example.com/private/1\n  # caf\xe9\n#\tnote\tmore\r\nhttps://example.com/open\n";
    let run = keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], stdin).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.lines()[1..], PRIVATE_1_THEN_OPEN);
    assert_eq!(run.stderr, "");
    let run = keepout(
        &["check", "-a", "SomeBot", "-r", FILE, "-"],
        "# URLs\rhttps://example.com/private/1\r",
    )
    .await;
    run.assert_bad_input("stdin line 1: a carriage return inside the URL");
}

#[tokio::test]
async fn a_byte_order_mark_starting_stdin_is_not_part_of_the_first_url() {
    // As an editor on Windows saves a list (Notepad, PowerShell 5's
    // Out-File): a UTF-8 BOM, then CRLF lines.
    let stdin = "\u{feff}https://example.com/private/1\r\nhttps://example.com/open\r\n";
    let run = keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], stdin).await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.lines()[1..], PRIVATE_1_THEN_OPEN);
    // Only at the start of stdin: later, it is not white space.
    let run = keepout(
        &["check", "-a", "SomeBot", "-r", FILE, "-"],
        "https://example.com/\n\u{feff}https://example.com/b\n",
    )
    .await;
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("keepout: error: stdin line 2: invalid URL"),
        "{}",
        run.stderr
    );
}

/// A URL from stdin is the URL given as an argument: trimmed as a URL
/// parser trims it (C0 controls and space), not of Unicode white space,
/// which is part of the URL (`/private/1\u{a0}` is requested as
/// `/private/1%C2%A0`). Once trimmed as `str::trim` trims, so that stdin
/// checked another URL than the argument.
#[tokio::test]
async fn a_url_from_stdin_is_trimmed_as_a_url_parser_trims_it() {
    for url in [
        "https://example.com/private/1\u{a0}",
        "https://example.com/open\u{3000}",
    ] {
        let args = ["check", "-a", "SomeBot", "-r", FILE, "--json"];
        let from_arg = keepout(&[&args[..], &[url]].concat(), "").await;
        let from_stdin = keepout(&[&args[..], &["-"]].concat(), format!(" {url}\t\r\n")).await;
        assert_eq!(from_stdin.code, from_arg.code, "{}", from_stdin.stderr);
        assert_eq!(from_stdin.stdout, from_arg.stdout, "{url}");
        assert!(from_arg.stdout.contains("%C2%A0") || from_arg.stdout.contains("%E3%80%80"));
    }
    // Before the scheme, it is no URL either way.
    keepout(
        &["check", "-a", "SomeBot", "-r", FILE, "-"],
        "\u{a0}https://example.com/\n",
    )
    .await
    .assert_bad_input(
        "stdin line 1: invalid URL \"\\u{a0}https://example.com/\": text before the scheme",
    );
}

// --- bad input: exit 2 and one line naming what was wrong ---

#[tokio::test]
async fn bad_input_exits_2_with_one_line() {
    let check = |robots: &'static str, url: &'static str| async move {
        keepout(&["check", "-a", "SomeBot", "-r", robots, url], "").await
    };
    check("/no/such/robots.txt", "https://example.com/")
        .await
        .assert_bad_input("cannot read robots.txt file \"/no/such/robots.txt\"");
    check(FILE, "example.com/x")
        .await
        .assert_bad_input(
            "invalid URL \"example.com/x\": no scheme: an absolute http or https URL is needed, such as \"https://example.com/x\"",
        );
    // Nothing of the input reaches the terminal raw (an escape sequence
    // could retitle the window), suggestion included.
    let run = check(FILE, "example.com/\u{1b}]0;t\u{7}\u{202e}").await;
    run.assert_bad_input("such as \"https://example.com/\\u{1b}]0;t\\u{7}\\u{202e}\"");
    assert!(
        !run.stderr.contains(['\u{1b}', '\u{7}', '\u{202e}']),
        "{}",
        run.stderr
    );
    // A URL parser would drop a tab, CR or LF: another URL would be checked.
    check(FILE, "https://example.com/pri\tvate")
        .await
        .assert_bad_input("URL \"https://example.com/pri\\tvate\": a tab inside it");
    check(FILE, "https://example.com/pri\nvate")
        .await
        .assert_bad_input("a line feed inside it");
    check(FILE, "https://example.com/pri\rvate")
        .await
        .assert_bad_input("a carriage return inside it");
    check(FILE, "ftp://example.com/x")
        .await
        .assert_bad_input("unsupported scheme \"ftp\"");
    check("ftp://example.com/robots.txt", "https://example.com/")
        .await
        .assert_bad_input("unsupported scheme \"ftp\"");
    // A line past 64 KiB is not read whole: it is bad input.
    let long = format!("https://example.com/{}\n", "a".repeat(70_000));
    keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], &long)
        .await
        .assert_bad_input("stdin line 1: longer than 65536 octets");
    // The limit is on the line, not its end: CRLF, LF or none at all.
    let longest = format!("https://example.com/{}", "a".repeat(65_536 - 20));
    for stdin in [
        format!("{longest}\nhttps://example.com/b\n"),
        format!("{longest}\r\nhttps://example.com/b\r\n"),
        longest.clone(),
    ] {
        let run = keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], &stdin).await;
        assert_eq!(run.code, 0, "{:?}: {}", &stdin[65_530..], run.stderr);
        assert_eq!(run.lines().len(), stdin.lines().count() + 1);
    }
    keepout(
        &["check", "-a", "SomeBot", "-r", FILE, "-"],
        format!("{longest}a\r\n"),
    )
    .await
    .assert_bad_input("stdin line 1: longer than 65536 octets");
    // A comment is skipped however long, whatever its end, and the line
    // numbers after it still count it as one line.
    let comment = format!("# {}", "a".repeat(200_000));
    for end in ["\n", "\r\n", ""] {
        let stdin = format!("{comment}{end}https://example.com/b\n\nnot a url\n");
        let stdin = if end.is_empty() {
            comment.clone()
        } else {
            stdin
        };
        let run = keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], &stdin).await;
        assert_eq!(run.code, 2, "{}", run.stderr);
        if end.is_empty() {
            assert!(run.stderr.contains("no URLs"), "{}", run.stderr);
        } else {
            assert_eq!(
                run.lines()[1..],
                [
                    "ALLOWED    https://example.com/b  no rule matches  (group at line 5: User-agent: *)"
                ]
            );
            assert!(
                run.stderr
                    .starts_with("keepout: error: stdin line 4: invalid URL \"not a url\""),
                "{}",
                run.stderr
            );
        }
    }
    // One holding a lone CR is not a comment (lines ended by CR alone
    // would hide the URLs after the first), whichever side of 64 KiB.
    for at in [100, 100_000] {
        let mut stdin = format!("# {}\n", "a".repeat(200_000));
        stdin.insert(at, '\r');
        keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], &stdin)
            .await
            .assert_bad_input("stdin line 1: longer than 65536 octets");
    }
    // A bad line in a batch names its line, and stops the run there: the
    // lines before it have their verdicts, the lines after it none.
    for (stdin, error) in [
        (
            &b"https://example.com/\nnot a url\nhttps://example.com/b\n"[..],
            "stdin line 2: invalid URL \"not a url\"",
        ),
        (
            b"https://example.com/\r\n\nhttps://example.com/caf\xe9\nhttps://example.com/b\n",
            "stdin line 3: not UTF-8",
        ),
        // Two things run together, which a URL parser would join into one
        // URL: a tab-separated list, lines ended by CR alone.
        (
            b"https://example.com/\nhttps://example.com/a\tnote\n",
            "stdin line 2: a tab inside the URL",
        ),
        (
            b"https://example.com/\nhttps://example.com/a\rhttps://example.com/b\r\n",
            "stdin line 2: a carriage return inside the URL",
        ),
    ] {
        let run = keepout(&["check", "-a", "SomeBot", "-r", FILE, "-"], stdin).await;
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert_eq!(
            run.lines()[1..],
            ["ALLOWED    https://example.com/  no rule matches  (group at line 5: User-agent: *)"]
        );
        assert!(
            run.stderr.starts_with(&format!("keepout: error: {error}"))
                && run.stderr.lines().count() == 1,
            "{}",
            run.stderr
        );
    }
    keepout(
        &["check", "-a", "SomeBot", "-r", FILE, "-"],
        "\n# nothing\n",
    )
    .await
    .assert_bad_input("no URLs to check");
    keepout(
        &["check", "-a", "!", "-r", FILE, "https://example.com/"],
        "",
    )
    .await
    .assert_bad_input("--agent \"!\"");
    // Quoted as given, not as trimmed.
    keepout(
        &["check", "-a", " ", "-r", FILE, "https://example.com/"],
        "",
    )
    .await
    .assert_bad_input("--agent \" \" does not start");
    keepout(&["show", "/no/such/file"], "")
        .await
        .assert_bad_input("/no/such/file");
    keepout(&["show", "https://"], "")
        .await
        .assert_bad_input("has no host");
    // A bad --robots value is named as such.
    keepout(
        &["check", "-a", "SomeBot", "-r", "http://", "https://e.com/"],
        "",
    )
    .await
    .assert_bad_input("--robots");
    // No fetch can take no time.
    let run = keepout(&["show", "--timeout", "0", FILE], "").await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--timeout"), "{}", run.stderr);

    // Stdin holds one thing.
    keepout(
        &["check", "-a", "SomeBot", "-r", "-", "-"],
        "User-agent: *\n",
    )
    .await
    .assert_bad_input("stdin cannot hold both");
    keepout(&["show", "-", "-"], "")
        .await
        .assert_bad_input("stdin (-) can be read only once");

    // Usage errors come from clap, also with exit code 2.
    let run = keepout(&["check", "https://example.com/"], "").await;
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--agent"), "{}", run.stderr);
}

/// A URL typed without its `//`, or its scheme, is read as a local path:
/// when no such file is there, the error says how to fetch it instead. A
/// missing path that reads as no URL (a file name such as `robots.txt`
/// among them) gets the error alone.
#[tokio::test]
async fn a_missing_file_that_reads_as_a_url_says_how_to_fetch_it() {
    // Relative paths, from the package root, where none of them is.
    let show = |path: &'static str| vec!["show", path];
    let check = |path: &'static str| vec!["check", "-a", "SomeBot", "-r", path, "https://e.com/"];
    for (args, path, hint) in [
        (show("example.com"), "example.com", "https://example.com/"),
        (
            show("https:example.com/robots.txt"),
            "https:example.com/robots.txt",
            "https://example.com/robots.txt",
        ),
        (
            show("HTTP:/example.com"),
            "HTTP:/example.com",
            "http://example.com",
        ),
        (
            show("example.com:8080/robots.txt"),
            "example.com:8080/robots.txt",
            "https://example.com:8080/robots.txt",
        ),
        (check("https:/e.com"), "https:/e.com", "https://e.com"),
    ] {
        let run = keepout(&args, "").await;
        run.assert_bad_input(&format!("cannot read robots.txt file {path:?}: "));
        // After the system's words for a missing file.
        let hint = format!(" (to fetch it, give a URL: {hint})");
        assert!(run.stderr.trim_end().ends_with(&hint), "{}", run.stderr);
    }
    for path in [
        "no/such/file.txt",
        "robots.txt",
        "./example.com",
        "/no/such/example.com",
        "https:",
    ] {
        let run = keepout(&show(path), "").await;
        run.assert_bad_input(&format!("cannot read robots.txt file {path:?}"));
        assert!(!run.stderr.contains("to fetch it"), "{}", run.stderr);
    }
}

// --- fetching each origin's robots.txt ---

#[tokio::test]
async fn fetches_each_origin_once_and_keeps_input_order() {
    let a = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /private\n"),
        1,
    )
    .await;
    let b = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: examplebot\nDisallow: /\n"),
        1,
    )
    .await;
    let (a, b) = (a.uri(), b.uri());
    let urls = [
        format!("{a}/private/x"),
        format!("{b}/anything"),
        format!("{a}/public"),
        format!("{b}/more"),
    ];
    let mut args = vec!["check", "--agent", "ExampleBot"];
    args.extend(urls.iter().map(String::as_str));
    let run = keepout(&args, "").await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            format!("{a}/robots.txt: 200 OK, 33 bytes"),
            format!(
                "DISALLOWED {a}/private/x  line 2: Disallow: /private  (group at line 1: User-agent: *)"
            ),
            format!("{b}/robots.txt: 200 OK, 35 bytes"),
            format!(
                "DISALLOWED {b}/anything  line 2: Disallow: /  (group at line 1: User-agent: examplebot)"
            ),
            format!("ALLOWED    {a}/public  no rule matches  (group at line 1: User-agent: *)"),
            format!(
                "DISALLOWED {b}/more  line 2: Disallow: /  (group at line 1: User-agent: examplebot)"
            ),
        ]
    );
}

#[tokio::test]
async fn fetched_json_names_the_robots_fetch() {
    let server = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /private\n"),
        1,
    )
    .await;
    let base = server.uri();
    let run = keepout(
        &[
            "check",
            "--json",
            "-a",
            "ExampleBot",
            &format!("{base}/private/x"),
            &format!("{base}/ok"),
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1);
    let objects = run.json();
    assert_eq!(objects.len(), 2);
    assert_eq!(
        objects[0]["robots"],
        serde_json::json!({
            "source": format!("{base}/robots.txt"),
            "status": 200,
            "final_url": format!("{base}/robots.txt"),
            "proxy": null,
            "redirects": 0,
            "result": "fetched",
            "reason": null,
            "truncated_at_cap": false,
        })
    );
    assert_eq!(objects[0]["rule"]["line"], 2);
    assert_eq!(objects[1]["allowed"], true);
}

#[tokio::test]
async fn unreachable_origin_disallows_everything() {
    let server = serve(ResponseTemplate::new(503), 1).await;
    let base = server.uri();
    let run = keepout(&["check", "-a", "ExampleBot", &format!("{base}/")], "").await;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.lines(),
        [
            format!(
                "{base}/robots.txt: 503 Service Unavailable: unreachable, everything disallowed"
            ),
            format!("DISALLOWED {base}/  robots.txt unreachable, everything disallowed"),
        ]
    );

    let server = serve(ResponseTemplate::new(503), 1).await;
    let base = server.uri();
    let run = keepout(
        &["check", "--json", "-a", "ExampleBot", &format!("{base}/")],
        "",
    )
    .await;
    let object = &run.json()[0];
    assert_eq!(object["allowed"], false);
    assert_eq!(object["cause"], "unreachable");
    assert_eq!(object["robots"]["status"], 503);
    assert_eq!(object["robots"]["result"], "unreachable");
    assert_eq!(object["robots"]["reason"], "HTTP 503 Service Unavailable");
}

/// Runs `check -a ExampleBot url` with the proxy environment set to
/// `proxy` (HTTP_PROXY) and `exempt` (NO_PROXY), the lowercase forms unset.
async fn check_through_proxy(proxy: &str, exempt: &str, url: &str) -> Run {
    check_with_proxy_env(&[("HTTP_PROXY", proxy), ("NO_PROXY", exempt)], url).await
}

/// Runs `check -a ExampleBot url` with only the proxy variables in `set`
/// among those reqwest reads.
async fn check_with_proxy_env(set: &[(&str, &str)], url: &str) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_keepout"));
    command.args(["check", "-a", "ExampleBot", url]);
    for name in ["HTTP", "HTTPS", "ALL", "NO"] {
        command.env_remove(format!("{name}_PROXY"));
        command.env_remove(format!("{}_proxy", name.to_lowercase()));
    }
    let out = command
        .envs(set.iter().copied())
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .expect("the keepout binary runs");
    Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

#[tokio::test]
async fn the_proxy_environment_is_obeyed() {
    // HTTP_PROXY names a server that answers as the proxy: the request for
    // an origin that does not resolve reaches it, in absolute form.
    let proxy = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /private\n"),
        1,
    )
    .await;
    let run = check_through_proxy(&proxy.uri(), "", "http://robots.invalid/private/x").await;
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        run.lines()[0],
        format!(
            "http://robots.invalid/robots.txt: 200 OK via proxy {}, 33 bytes",
            proxy.uri()
        )
    );
    assert_eq!(
        run.lines()[1],
        "DISALLOWED http://robots.invalid/private/x  line 2: Disallow: /private  (group at line 1: User-agent: *)"
    );
    let asked = proxy.received_requests().await.unwrap();
    assert_eq!(asked[0].url.as_str(), "http://robots.invalid/robots.txt");

    // NO_PROXY exempts a host: the origin is fetched directly, and the
    // proxy (a closed port) is not tried.
    let origin = serve(ResponseTemplate::new(404), 1).await;
    let run = check_through_proxy(
        "http://127.0.0.1:9",
        "127.0.0.1",
        &format!("{}/x", origin.uri()),
    )
    .await;
    assert_eq!(run.code, 0, "stdout: {}", run.stdout);
    assert!(!run.stdout.contains("proxy"), "{}", run.stdout);

    // A proxy that is down: the line says the request went to it.
    let run = check_through_proxy("http://127.0.0.1:9", "", "http://robots.invalid/x").await;
    assert_eq!(run.code, 1);
    assert!(
        run.lines()[0].starts_with(
            "http://robots.invalid/robots.txt: no response via proxy http://127.0.0.1:9: unreachable ("
        ),
        "{}",
        run.stdout
    );
}

#[tokio::test]
async fn socks_proxies_and_no_proxy_star_in_the_environment() {
    // ALL_PROXY names a SOCKS proxy, which carries the request.
    let origin = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /private\n"),
        1,
    )
    .await;
    let (proxy, asked) = common::socks5_proxy(*origin.address()).await;
    let socks = format!("socks5h://{proxy}");
    let run =
        check_with_proxy_env(&[("ALL_PROXY", &socks)], "http://robots.invalid/private/x").await;
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        run.lines()[0],
        format!("http://robots.invalid/robots.txt: 200 OK via proxy {socks}, 33 bytes")
    );
    assert_eq!(*asked.lock().unwrap(), ["robots.invalid:80"]);

    // NO_PROXY=* exempts every host, an IP address too: the origin is
    // fetched directly, and the proxy (a closed port) is not tried.
    let origin = serve(ResponseTemplate::new(404), 2).await;
    for exempt in ["*", "example.com, *"] {
        let run = check_with_proxy_env(
            &[("HTTP_PROXY", "http://127.0.0.1:9"), ("no_proxy", exempt)],
            &format!("{}/x", origin.uri()),
        )
        .await;
        assert_eq!(run.code, 0, "{exempt}: {}", run.stdout);
        assert!(!run.stdout.contains("proxy"), "{}", run.stdout);
    }
}

#[tokio::test]
async fn unavailable_origin_allows_everything() {
    let server = serve(ResponseTemplate::new(404), 1).await;
    let base = server.uri();
    let run = keepout(
        &["check", "-a", "ExampleBot", &format!("{base}/private")],
        "",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(
        run.lines(),
        [
            format!("{base}/robots.txt: 404 Not Found: unavailable, everything allowed"),
            format!("ALLOWED    {base}/private  robots.txt unavailable, everything allowed"),
        ]
    );
}

/// `--content-type` reads a saved copy of a Latin-1 file as its server's
/// label has the fetcher read it: the verdicts of `-r FILE` and `-r URL`
/// agree. (Without it, the file's `é` stays the octet E9.)
#[tokio::test]
async fn content_type_reads_a_file_in_the_charset_it_names() {
    let body = b"User-agent: *\nDisallow: /caf\xE9\n";
    let dir = scratch_dir("content_type");
    let file = dir.join("robots.txt");
    std::fs::write(&file, body).unwrap();
    let file = file.to_str().unwrap();
    let urls = [
        "https://example.com/caf%C3%A9",
        "https://example.com/caf%E9",
    ];
    let verdicts = |run: &Run| -> Vec<String> {
        run.lines()[1..]
            .iter()
            .map(|line| line.split(' ').next().unwrap().to_owned())
            .collect()
    };
    let latin1 = ["--content-type", "text/plain; charset=iso-8859-1"];
    let labelled = keepout(
        &[&["check", "-a", "bot", "-r", file], &latin1[..], &urls[..]].concat(),
        "",
    )
    .await;
    assert_eq!(
        verdicts(&labelled),
        ["DISALLOWED", "ALLOWED"],
        "{}",
        labelled.stdout
    );
    let piped = keepout(
        &[&["check", "-a", "bot", "-r", "-"], &latin1[..], &urls[..]].concat(),
        body,
    )
    .await;
    assert_eq!(
        verdicts(&piped),
        ["DISALLOWED", "ALLOWED"],
        "{}",
        piped.stdout
    );
    let unlabelled = keepout(
        &[&["check", "-a", "bot", "-r", file], &urls[..]].concat(),
        "",
    )
    .await;
    assert_eq!(
        verdicts(&unlabelled),
        ["ALLOWED", "DISALLOWED"],
        "{}",
        unlabelled.stdout
    );
    // `show` reads it so too: a file in windows-1252 (what the label
    // means), not a UTF-8 file with a stray octet in its pattern.
    let show = keepout(
        &[&["show", "--json"], &latin1[..], &[file][..]].concat(),
        "",
    )
    .await;
    let shown: Value = serde_json::from_str(show.lines()[0]).unwrap();
    assert_eq!(warning_kinds(&shown), [(1, "not_utf8")], "{}", show.stdout);
    let plain = keepout(&["show", "--json", file], "").await;
    let shown: Value = serde_json::from_str(plain.lines()[0]).unwrap();
    assert_eq!(
        warning_kinds(&shown),
        [(2, "invalid_utf8")],
        "{}",
        plain.stdout
    );
}

/// `--content-type` with no file or stdin to read is refused, naming the
/// option, before anything is fetched: ignoring it would leave the user
/// believing a fetched file was read in the charset given.
#[tokio::test]
async fn content_type_with_nothing_local_is_refused() {
    let latin1 = ["--content-type", "text/plain; charset=iso-8859-1"];
    let url = "http://127.0.0.1:9/x";
    for args in [
        &[&["check", "-a", "bot"], &latin1[..], &[url][..]].concat(),
        &[&["check", "-a", "bot", "-r", url], &latin1[..], &[url][..]].concat(),
        &[&["show"], &latin1[..], &[url][..]].concat(),
    ] {
        keepout(args, "")
            .await
            .assert_bad_input("--content-type applies to a robots.txt read from a file or stdin");
    }
    // A file is read so (`show FILE URL` too, the URL as fetched).
    let dir = scratch_dir("content_type_mixed");
    let file = dir.join("robots.txt");
    std::fs::write(&file, "User-agent: *\nDisallow: /x\n").unwrap();
    let file = file.to_str().unwrap();
    let run = keepout(
        &[&["show", "--json"], &latin1[..], &[file][..]].concat(),
        "",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// A `--content-type` naming no charset keepout reads is refused, naming
/// the option and the form expected: ignored, it would read a Latin-1 file
/// as UTF-8 while the user believes otherwise (until session 60).
#[tokio::test]
async fn content_type_naming_no_charset_is_refused() {
    let dir = scratch_dir("content_type_no_charset");
    let file = dir.join("robots.txt");
    std::fs::write(&file, b"User-agent: *\nDisallow: /caf\xE9\n").unwrap();
    let file = file.to_str().unwrap();
    for (value, problem) in [
        ("iso-8859-1", "no charset parameter"),
        ("text/plain", "no charset parameter"),
        ("text/plain; charset=latin-one", "not a label"),
        ("text/plain; charset = latin-one", "not a label"),
        ("text/plain; xcharset=latin1", "no charset parameter"),
        // A label the Encoding Standard knows, but no media type before it.
        ("charset=utf-8", "follows a media type"),
        // The Encoding Standard decodes it to one U+FFFD.
        ("text/plain; charset=iso-2022-kr", "not a label"),
    ] {
        for args in [
            vec!["show", "--content-type", value, file],
            vec![
                "check",
                "-a",
                "bot",
                "-r",
                file,
                "--content-type",
                value,
                "/x",
            ],
        ] {
            let run = keepout(&args, "").await;
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            assert_eq!(run.stdout, "");
            for needle in ["--content-type", problem, "charset=iso-8859-1"] {
                assert!(run.stderr.contains(needle), "{needle:?} in {}", run.stderr);
            }
        }
    }
    // A charset label as the Encoding Standard spells it, in any case: the
    // file is read in it.
    let latin1 = "text/plain; Charset=\"Latin1\"";
    let run = keepout(&["show", "--content-type", latin1, file], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let url = "https://example.com/caf%C3%A9";
    let args = [
        "check",
        "-a",
        "bot",
        "-r",
        file,
        "--content-type",
        latin1,
        url,
    ];
    assert_eq!(keepout(&args, "").await.code, 1);
}

/// A status HTTP names no reason for is shown as its number alone, not as
/// the http crate's `299 <unknown status code>` (until session 58).
#[tokio::test]
async fn a_status_with_no_reason_is_shown_as_its_number() {
    let server = serve(
        ResponseTemplate::new(299).set_body_string("Disallow: /x\n"),
        1,
    )
    .await;
    let base = server.uri();
    let run = keepout(&["check", "-a", "ExampleBot", &format!("{base}/y")], "").await;
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.lines()[0], format!("{base}/robots.txt: 299, 13 bytes"),);
}

/// 429 is the 4xx that disallows everything (as Google treats it), and
/// `check --help`, which says what each status means, says so.
#[tokio::test]
async fn too_many_requests_disallows_everything_as_the_help_says() {
    let server = serve(ResponseTemplate::new(429), 1).await;
    let base = server.uri();
    let run = keepout(&["check", "-a", "ExampleBot", &format!("{base}/")], "").await;
    assert_eq!(run.code, 1);
    assert_eq!(
        run.lines()[1],
        format!("DISALLOWED {base}/  robots.txt unreachable, everything disallowed")
    );
    let help = keepout(&["check", "--help"], "").await;
    let help = help.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        !help.contains("a 4xx means everything is allowed, a 5xx"),
        "{help}"
    );
    assert!(help.contains("429"), "{help}");
}

#[tokio::test]
async fn user_agent_option_is_the_fetch_header() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .and(wiremock::matchers::header(
            "user-agent",
            "MyCrawler/2.0 (+https://example.com/bot)",
        ))
        .respond_with(ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n"))
        .expect(1)
        .mount(&server)
        .await;
    let base = server.uri();
    let run = keepout(
        &[
            "check",
            "--user-agent",
            "MyCrawler/2.0 (+https://example.com/bot)",
            "-a",
            "MyCrawler",
            &format!("{base}/x"),
        ],
        "",
    )
    .await;
    // Any other User-Agent gets wiremock's 404, which would allow `/x`.
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("DISALLOWED"), "{}", run.stdout);

    let bad = keepout(
        &["check", "--user-agent", "bad\u{1}agent", "-a", "x", &base],
        "",
    )
    .await;
    bad.assert_bad_input("not a valid header value");
}

#[tokio::test]
async fn verdicts_stream_while_a_later_origin_is_still_fetching() {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
    let fast = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n"),
        1,
    )
    .await;
    // A server that answers only when told to.
    let slow = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let slow_base = format!("http://{}", slow.local_addr().unwrap());
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(async move {
        let (mut socket, _) = slow.accept().await.unwrap();
        let mut request = [0u8; 1024];
        let _ = socket.read(&mut request).await.unwrap();
        released.await.unwrap();
        let body = "User-agent: *\nDisallow: /\n";
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        socket.write_all(response.as_bytes()).await.unwrap();
    });
    let fast_base = fast.uri();
    let mut child = Command::new(env!("CARGO_BIN_EXE_keepout"))
        .args(["check", "--timeout", "120", "-a", "bot"])
        .args([format!("{fast_base}/x"), format!("{slow_base}/y")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the keepout binary runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // The first origin's lines arrive while the second is held back (a
    // binary that waited for every fetch would time out here, well before
    // its own fetch timeout).
    let early = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        let summary = lines.next_line().await.unwrap().unwrap();
        let verdict = lines.next_line().await.unwrap().unwrap();
        (summary, verdict)
    })
    .await
    .expect("the first URL's verdict streams before the slow origin answers");
    assert!(
        early.0.starts_with(&format!("{fast_base}/robots.txt: ")),
        "{early:?}"
    );
    assert!(early.1.starts_with("DISALLOWED"), "{early:?}");
    release.send(()).unwrap();
    let mut rest = Vec::new();
    while let Some(line) = lines.next_line().await.unwrap() {
        rest.push(line);
    }
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert!(
        rest[1].starts_with(&format!("DISALLOWED {slow_base}/y")),
        "{rest:?}"
    );
    assert_eq!(child.wait().await.unwrap().code(), Some(1));
    server.await.unwrap();
}

/// A file that cannot be read is reported as soon as it is found, not
/// after a fetch given before it answers.
#[tokio::test]
async fn show_reports_a_missing_file_without_waiting_for_a_fetch() {
    // A server that takes the request and never answers.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", silent.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let (socket, _) = silent.accept().await.unwrap();
        std::future::pending::<()>().await;
        drop(socket);
    });
    // (The fetch alone would take 120 s.)
    let run = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        keepout(
            &["show", "--timeout", "120", &base, "/no/such/robots.txt"],
            "",
        ),
    )
    .await
    .expect("the missing file is reported before the fetch ends");
    run.assert_bad_input("cannot read robots.txt file \"/no/such/robots.txt\"");
    server.abort();
}

/// A server that redirects its one request to `location` half a second
/// after it is in: its base URL, word of the request's arrival, and the
/// server's task.
async fn redirect_later(
    location: String,
) -> (
    String,
    tokio::sync::oneshot::Receiver<()>,
    tokio::task::JoinHandle<()>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (arrived, arrival) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = [0u8; 1024];
        let _ = socket.read(&mut request).await.unwrap();
        let _ = arrived.send(());
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let response = format!(
            "HTTP/1.1 301 Moved\r\nlocation: {location}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        );
        socket.write_all(response.as_bytes()).await.unwrap();
    });
    (base, arrival, server)
}

/// A server answering each request with a 200 and `body`, one at a time,
/// its first answer held until `gate` opens: its base URL, and a receiver
/// told of each request as it comes in (tests wait on that, not on sleeps).
async fn gated(
    body: &'static str,
    gate: tokio::sync::oneshot::Receiver<()>,
) -> (String, tokio::sync::mpsc::UnboundedReceiver<()>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (arrived, requests) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut gate = Some(gate);
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 1024];
            let _ = socket.read(&mut request).await.unwrap();
            let _ = arrived.send(());
            if let Some(gate) = gate.take() {
                let _ = gate.await;
            }
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(response.as_bytes()).await.unwrap();
        }
    });
    (base, requests)
}

/// A reader slower than the fetch timeout (`check ... | less`) does not
/// turn a fetch under way into a timeout: fetches go on while the output
/// waits. (Until session 33 a full pipe stalled them, and the redirect
/// below was followed only once the reader caught up, past the deadline.)
#[tokio::test]
async fn a_slow_reader_does_not_time_fetches_out() {
    let (open, gate) = tokio::sync::oneshot::channel();
    let (fast, mut requests) = gated("User-agent: *\nDisallow: /x\n", gate).await;
    let (slow_base, slow_in, server) = redirect_later(format!("{fast}/robots.txt")).await;
    // The fast origin answers once the slow origin's fetch is under way.
    tokio::spawn(async move {
        if slow_in.await.is_ok() {
            let _ = open.send(());
        }
    });
    let mut child = spawn(&["check", "--timeout", "2", "-a", "bot", "-"]);
    // Far more verdicts than a pipe holds before the slow origin's URL.
    let mut urls = format!("{fast}/x\n").repeat(5_000);
    urls.push_str(&format!("{slow_base}/y\n"));
    // Written beside the reading: verdicts stream while stdin is read.
    let mut input = child.stdin.take().unwrap();
    let writer = tokio::spawn(async move { input.write_all(urls.as_bytes()).await });
    // Those verdicts fill the pipe, left unread until the slow origin's
    // redirect has been followed (the fast origin's second request). With
    // fetches stalled behind a full pipe, it never was.
    nth_request(
        &mut requests,
        2,
        "the redirect is followed with output unread",
    )
    .await;
    let out = child.wait_with_output().await.unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last: Vec<_> = stdout.lines().rev().take(2).collect();
    assert!(
        last[0].starts_with(&format!("ALLOWED    {slow_base}/y")),
        "{last:?}"
    );
    assert!(last[1].contains("200 OK"), "{last:?}");
    assert_eq!(out.status.code(), Some(1));
    writer.await.unwrap().unwrap();
    server.await.unwrap();
}

/// Nor does a slow stdin (`curl ... | keepout show URL -`) hold up the
/// fetch of a URL beside it.
#[tokio::test]
async fn a_slow_stdin_does_not_time_fetches_out() {
    let (open, gate) = tokio::sync::oneshot::channel();
    open.send(()).unwrap();
    let (fast, mut requests) = gated("User-agent: *\nDisallow: /x\n", gate).await;
    let (slow_base, _, server) = redirect_later(format!("{fast}/robots.txt")).await;
    let mut child = spawn(&["show", "--timeout", "2", &format!("{slow_base}/"), "-"]);
    let mut input = child.stdin.take().unwrap();
    // Stdin stays silent until the redirect has been followed. With the
    // fetch stalled while stdin was read, it never was.
    nth_request(
        &mut requests,
        1,
        "the redirect is followed with stdin silent",
    )
    .await;
    input
        .write_all(b"User-agent: *\nDisallow: /\n")
        .await
        .unwrap();
    drop(input);
    let out = child.wait_with_output().await.unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let first = stdout.lines().next().unwrap_or_default();
    assert!(first.contains("200 OK"), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    server.await.unwrap();
}

#[tokio::test]
async fn robots_url_option_fetches_that_origin_once() {
    let server = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n"),
        1,
    )
    .await;
    let robots = format!("{}/some/page", server.uri());
    let run = keepout(
        &[
            "check",
            "-a",
            "ExampleBot",
            "--robots",
            &robots,
            "https://elsewhere.example/x",
            "https://elsewhere.example/y",
        ],
        "",
    )
    .await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        &run.lines()[1..],
        [
            "DISALLOWED https://elsewhere.example/x  line 2: Disallow: /x  (group at line 1: User-agent: *)",
            "ALLOWED    https://elsewhere.example/y  no rule matches  (group at line 1: User-agent: *)",
        ]
    );
    // Done as asked, with a note that those rules do not govern them.
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "keepout: note: 2 of the URLs are not on {}, whose robots.txt is applied to them as asked but does not govern them",
            server.uri()
        )
    );
    // The runs below each fetch a robots.txt of their own, once: `{own}`
    // in a URL is that server's address.
    let on_own = |urls: &'static [&'static str], stdin: &'static str| async move {
        let own = serve(
            ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n"),
            1,
        )
        .await;
        let robots = format!("{}/robots.txt", own.uri());
        let urls: Vec<String> = urls
            .iter()
            .map(|u| u.replace("{own}", &own.uri()))
            .collect();
        let mut args = vec!["check", "-a", "ExampleBot", "--robots", &robots];
        args.extend(urls.iter().map(String::as_str));
        (keepout(&args, stdin).await, own.uri())
    };
    // None for URLs on the origin itself.
    let (run, _) = on_own(&["{own}/x"], "").await;
    assert_eq!((run.code, run.stderr.as_str()), (1, ""));
    // One URL elsewhere: the note says so in the singular.
    let (run, own) = on_own(&["{own}/x", "https://elsewhere.example/y"], "").await;
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "keepout: note: 1 of the URLs is not on {own}, whose robots.txt is applied to it as asked but does not govern it"
        )
    );
    // A bad line after such a URL: the error is the one line on stderr.
    let (run, _) = on_own(&["-"], "https://elsewhere.example/y\nnot a url\n").await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(run.lines().len(), 2, "the summary and one verdict");
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(stderr.len(), 1, "{}", run.stderr);
    assert!(stderr[0].starts_with("keepout: error: stdin line 2: invalid URL"));
}

/// With no URL on stdin, or a bad first line, nothing is fetched, not even
/// the `--robots` URL. (Between two commits of session 35, reading stdin as
/// it came fetched the `--robots` URL first.)
#[tokio::test]
async fn no_urls_on_stdin_fetches_nothing() {
    let server = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\n"),
        0,
    )
    .await;
    let robots = format!("{}/robots.txt", server.uri());
    keepout(&["check", "-a", "bot", "-r", &robots, "-"], "\n# none\n")
        .await
        .assert_bad_input("no URLs to check");
    keepout(
        &["check", "-a", "bot", "-r", &robots, "-"],
        "ftp://example.com/\n",
    )
    .await
    .assert_bad_input("stdin line 1: unsupported scheme");
    // `expect(0)`, checked as the server drops.
    server.verify().await;
}

/// URLs on stdin are checked as they come: each verdict is written while
/// stdin is still open (`tail -f urls.log | keepout check -a bot -`).
/// (Until session 35 the whole list was read first, and nothing was
/// written before stdin ended.)
#[tokio::test]
async fn stdin_verdicts_stream_before_the_input_ends() {
    use tokio::io::AsyncBufReadExt;
    let mut child = spawn(&["check", "-a", "SomeBot", "-r", FILE, "-"]);
    let mut input = child.stdin.take().unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    for (url, verdict) in [
        ("https://example.com/private/x", "DISALLOWED"),
        ("https://example.com/open", "ALLOWED"),
    ] {
        input
            .write_all(format!("{url}\n").as_bytes())
            .await
            .unwrap();
        input.flush().await.unwrap();
        let line = tokio::time::timeout(std::time::Duration::from_secs(20), async {
            loop {
                let line = lines.next_line().await.unwrap().unwrap();
                if line.contains(url) {
                    return line;
                }
            }
        })
        .await
        .expect("the verdict is written before stdin ends");
        assert!(line.starts_with(verdict), "{line}");
    }
    drop(input);
    assert_eq!(lines.next_line().await.unwrap(), None);
    assert_eq!(child.wait().await.unwrap().code(), Some(1));
}

/// Past `--keep-origins`, the sites used longest ago are let go, and one
/// seen again is fetched again (with its summary line again): memory stays
/// bounded on a list of many sites. Up to the limit, each site is fetched
/// once. (Between two commits of session 35, the site just used was let go
/// before every read: `--keep-origins N` kept N - 1.)
#[tokio::test]
async fn sites_past_keep_origins_are_let_go_and_fetched_again() {
    use tokio::io::AsyncBufReadExt;
    let rules = ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n");
    // (keep, the sites' order, each site's fetches)
    for (keep, order, fetches) in [("1", [0, 0, 1, 0], [2, 1]), ("2", [0, 1, 0, 1], [1, 1])] {
        let sites = [
            serve(rules.clone(), fetches[0]).await,
            serve(rules.clone(), fetches[1]).await,
        ];
        let mut child = spawn(&["check", "-a", "bot", "--keep-origins", keep, "-"]);
        let mut input = child.stdin.take().unwrap();
        let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let mut summaries = 0;
        // One URL at a time, each written before the next is read, so
        // that the site before is idle when the next comes.
        for site in order {
            let url = format!("{}/x", sites[site].uri());
            input
                .write_all(format!("{url}\n").as_bytes())
                .await
                .unwrap();
            input.flush().await.unwrap();
            loop {
                let line = lines.next_line().await.unwrap().unwrap();
                if line.starts_with("DISALLOWED") {
                    assert!(line.contains(&url), "{line}");
                    break;
                }
                summaries += 1;
            }
        }
        drop(input);
        assert_eq!(lines.next_line().await.unwrap(), None);
        assert_eq!(child.wait().await.unwrap().code(), Some(1));
        assert_eq!(summaries, fetches[0] + fetches[1], "keep {keep}");
        for site in &sites {
            site.verify().await;
        }
    }
}

/// Output closed early (`| head -1`): the run ends quietly, and its exit
/// status still says a URL was disallowed. (Until session 32 it was 0.)
#[tokio::test]
async fn output_closed_early_keeps_the_exit_status() {
    use tokio::io::AsyncBufReadExt;
    let mut child = spawn(&["check", "-a", "SomeBot", "-r", FILE, "-"]);
    // Far more verdicts than a pipe holds, all disallowed.
    let urls = "https://example.com/private/x\n".repeat(50_000);
    let mut input = child.stdin.take().unwrap();
    // Written beside the reading (verdicts stream while stdin is read);
    // the run may end before it has all been read.
    let _writer = tokio::spawn(async move { input.write_all(urls.as_bytes()).await });
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next_line().await.unwrap().unwrap();
    assert_eq!(first, format!("{FILE}: local file, 455 bytes"));
    drop(lines);
    let out = child.wait_with_output().await.unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Stderr closed early too (`2>&1 | head -1`): the error or note that
/// cannot be written is dropped, and the exit status is the run's, not a
/// panic's 101.
#[tokio::test]
async fn stderr_closed_early_keeps_the_exit_status() {
    let server = serve(
        ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /x\n"),
        1,
    )
    .await;
    let robots = server.uri();
    for (args, code) in [
        // An error: exit status 2.
        (
            &["check", "-a", "SomeBot", "-r", FILE, "example.com/x"][..],
            2,
        ),
        // A note, on a run with every URL allowed: 0.
        (
            &["check", "-a", "SomeBot", "-r", &robots, "https://e.com/y"],
            0,
        ),
    ] {
        let mut child = spawn(args);
        drop(child.stderr.take());
        drop(child.stdin.take());
        let out = child.wait_with_output().await.unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

// --- show ---

#[tokio::test]
async fn show_file_groups_sitemaps_and_warnings() {
    let run = keepout(&["show", FILE], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = format!(
        "\
{FILE}: local file, 455 bytes
groups: 2
  group at line 5: User-agent: *
    6 rules (2 allow, 4 disallow), crawl-delay 2s
  group at line 14: User-agent: ExampleBot, OtherBot/2.0
    3 rules (1 allow, 2 disallow), request-rate 1/5s
sitemaps: 2
  https://example.com/sitemap.xml
  https://example.com/news.xml
host: example.com
other records: 1
  line 19: Noindex: /drafts/
warnings: 6
  line 3: in no group (no user-agent line naming a crawler before it); ignored
  line 8: misspelled key \"Disalow\" read as Disallow
  line 10: 'Disallow: /private' never decides: it repeats line 6 'Disallow: /private'
  line 12: 'Disallow: /search' never decides: line 11 'Allow: /search*' matches the same paths and is longer
  line 19: unknown key \"Noindex\" (kept as a record): no robots.txt rule, which crawlers ignore (Google since 2019); noindex belongs in a page's robots meta tag or X-Robots-Tag header
  line 20: pattern starts with neither '/' nor a wildcard; it matches no path
"
    );
    assert_eq!(run.stdout, want);
}

#[tokio::test]
async fn show_json_shape() {
    let run = keepout(&["show", "--json", FILE], "").await;
    assert_eq!(run.code, 0);
    let objects = run.json();
    assert_eq!(objects.len(), 1);
    let o = &objects[0];
    assert_eq!(o["source"], FILE);
    assert_eq!(o["fetch"], Value::Null);
    assert_eq!(o["body_bytes"], 455);
    assert_eq!(
        o["groups"],
        serde_json::json!([
            {"line": 5, "agents": ["*"], "rules": 6, "allow": 2, "disallow": 4,
             "crawl_delay_secs": 2.0, "request_rate": null},
            {"line": 14, "agents": ["ExampleBot", "OtherBot/2.0"], "rules": 3, "allow": 1,
             "disallow": 2, "crawl_delay_secs": null,
             "request_rate": {"requests": 1, "per_secs": 5, "window": null}},
        ])
    );
    assert_eq!(
        o["sitemaps"],
        serde_json::json!([
            "https://example.com/sitemap.xml",
            "https://example.com/news.xml"
        ])
    );
    assert_eq!(o["host"], "example.com");
    assert_eq!(
        o["records"],
        serde_json::json!([{"line": 19, "key": "Noindex", "value": "/drafts/"}])
    );
    let warnings: Vec<(u64, &str)> = o["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            assert!(w["message"].is_string());
            (w["line"].as_u64().unwrap(), w["kind"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        warnings,
        [
            (3, "rule_outside_group"),
            (8, "misspelled"),
            (10, "shadowed_rule"),
            (12, "shadowed_rule"),
            (19, "unknown_key"),
            (20, "pattern_not_rooted"),
        ]
    );
}

/// How `show` words the `named_again` lint.
const MERGED: &str =
    "a crawler named in several groups obeys all their rules merged (RFC 9309 section 2.2.1)";

/// A crawler named by two groups obeys both merged (RFC 9309 section
/// 2.2.1): legal, but often not what the author meant, so it is flagged
/// once per later group, whatever the case or version written.
#[tokio::test]
async fn show_flags_a_crawler_named_by_more_than_one_group() {
    let body = "User-agent: a\nUser-agent: A\nDisallow: /x\n\n\
                User-agent: *\nDisallow: /y\n\n\
                User-agent: b\nUser-agent: a/2.0\nDisallow: /z\n\n\
                User-agent: *\nUser-agent: B\nAllow: /\n\n\
                User-agent: c\nUser-agent: d\nDisallow: /w\n\n\
                User-agent: Y!J-MBS/1.0\nDisallow: /q\n\n\
                User-agent: Y!J-SRD/1.0\nDisallow: /r\n\n\
                User-agent: d\nDisallow: /w\nDisallow: /w\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings = run.warning_lines();
    // The last group says what the one at line 16 says (its rules are a
    // set): merging changes nothing, so it is not flagged.
    assert_eq!(
        warnings,
        [
            "warnings: 4".to_string(),
            format!("  line 8: a also named by the group at line 1: {MERGED}"),
            format!("  line 12: *, B also named by the groups at lines 5, 8: {MERGED}"),
            format!(
                "  line 23: Y (read from 'Y!J-SRD/1.0') also named by the group at line 20: {MERGED}"
            ),
            "  line 28: 'Disallow: /w' never decides: it repeats line 27 'Disallow: /w'"
                .to_string(),
        ]
    );
    let run = keepout(&["show", "--json", "-"], body).await;
    let objects = run.json();
    let kinds = warning_kinds(&objects[0]);
    assert_eq!(
        kinds,
        [
            (8, "named_again"),
            (12, "named_again"),
            (23, "named_again"),
            (28, "shadowed_rule")
        ]
    );
    // Many tokens, from many groups: the first four of each are named.
    let mut body: String = (1..=6)
        .map(|i| format!("User-agent: p{i}\nDisallow: /{i}\n"))
        .collect();
    body.push_str("User-agent: P6\nUser-agent: p5\n");
    body.extend((1..=4).map(|i| format!("User-agent: p{i}\n")));
    body.push_str("Allow: /\n");
    let run = keepout(&["show", "-"], body).await;
    let last = run.lines().last().unwrap().to_string();
    assert_eq!(
        last,
        format!(
            "  line 13: P6, p5, p1, p2 and 2 more also named by the groups at lines 1, 3, 5, 7 and 2 more: {MERGED}"
        )
    );
}

/// Whether a later group says what an earlier one says, and so is left
/// out of `named_again`, is decided on the rules as matched (a set:
/// order, repeats and percent-encoding of unreserved characters aside),
/// the crawl delay as read (`1` and `1.0` alike) and the request rate as
/// written (`2/10s` is not `1/5s`, nor is a rate with a window one without).
/// Each group is told apart from each earlier group naming its crawlers,
/// including when it says what some of them say and not the others.
#[tokio::test]
async fn show_tells_groups_apart_by_what_they_say() {
    let body = "User-agent: a\nDisallow: /x\nAllow: /y\nCrawl-delay: 1\n\n\
                User-agent: b\nDisallow: /x\nCrawl-delay: 1\n\n\
                User-agent: a\nUser-agent: b\nAllow: /y\nDisallow: /x\nDisallow: /x\nCrawl-delay: 1.0\n\n\
                User-agent: b\nUser-agent: a\nDisallow: /x\nCrawl-delay: 1\n\n\
                User-agent: A\nUser-agent: B\nDisallow: /x\nAllow: /y\nCrawl-delay: 2\n\n\
                User-agent: c\nDisallow: /%61\nRequest-rate: 1/5s\n\n\
                User-agent: c\nDisallow: /a\nRequest-rate: 1/5s\n\n\
                User-agent: c\nDisallow: /a\nRequest-rate: 2/10s\n\n\
                User-agent: c\nDisallow: /a\nRequest-rate: 1/5s 0600-0845\n\n\
                User-agent: d\nUser-agent: d\nDisallow: /\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings = run.warning_lines();
    // Line 10 says what line 1 says, not what line 6 says; line 17 the
    // reverse. Line 32 says what line 28 says; the two after it do not.
    assert_eq!(
        warnings,
        [
            "warnings: 6".to_string(),
            format!("  line 10: b also named by the group at line 6: {MERGED}"),
            "  line 14: 'Disallow: /x' never decides: it repeats line 13 'Disallow: /x'"
                .to_string(),
            format!("  line 17: a also named by the group at line 1: {MERGED}"),
            format!("  line 22: A, B also named by the groups at lines 1, 6: {MERGED}"),
            format!("  line 36: c also named by the group at line 28: {MERGED}"),
            format!("  line 40: c also named by the group at line 28: {MERGED}"),
        ]
    );

    // Groups naming each of the crawlers that groups of their own named
    // first, with those groups' rules but another crawl delay: each is
    // told apart from all of them, and the later ones, alike, from none
    // of one another. (Each group is summed up once, however many groups
    // it is compared with: a large file of this shape took seconds.)
    let n = 5;
    let rules: String = (0..n).map(|r| format!("Disallow: /r{r}\n")).collect();
    let mut body: String = (0..n)
        .map(|k| format!("User-agent: t{k}\n{rules}Crawl-delay: 1\n\n"))
        .collect();
    let agents: String = (0..n).map(|k| format!("User-agent: t{k}\n")).collect();
    body.push_str(&format!("{agents}{rules}Crawl-delay: 2\n\n").repeat(n));
    let run = keepout(&["show", "--json", "-"], body).await;
    let warnings: Vec<(u64, String)> = run.json()[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["line"].as_u64().unwrap(),
                w["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(u64, String)> = (0..n as u64)
        .map(|m| {
            (
                41 + 12 * m,
                format!(
                    "t0, t1, t2, t3 and 1 more also named by the groups at lines 1, 9, 17, 25 and 1 more: {MERGED}"
                ),
            )
        })
        .collect();
    assert_eq!(warnings, expected);
}

/// A key and its colon inside a value: two lines run together, so that a
/// rule or a group went missing.
#[tokio::test]
async fn show_flags_lines_run_together() {
    let body = "User-agent: * Disallow: /\n\
                User-agent: libWeb/clsHTTPDisallow: /\n\
                Disallow:/User-agent: Keyword Density/0.9\n\
                Disallow: /search?allow:x\n\
                Disallow: /a allow: b\n\
                Disallow: /swallow:\n";
    let run = keepout(&["show", "--json", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found: Vec<(u64, String)> = run.json()[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["kind"] == "run_together")
        .map(|w| {
            (
                w["line"].as_u64().unwrap(),
                w["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let again = "a missing line break? It is read as one";
    assert_eq!(
        found,
        [
            (
                1,
                format!(
                    "user-agent value '* Disallow: /' (in the group at this line) holds 'Disallow:': {again} user-agent value"
                )
            ),
            (
                1,
                format!(
                    "user-agent value 'libWeb/clsHTTPDisallow: /' (in the group at this line) holds 'Disallow:': {again} user-agent value"
                )
            ),
            (
                3,
                format!(
                    "pattern '/User-agent: Keyword Density/0.9' holds 'User-agent:': {again} pattern"
                )
            ),
            (
                5,
                format!("pattern '/a allow: b' holds 'Allow:': {again} pattern")
            ),
        ]
    );
    // Those patterns hold spaces too, but one lint says it.
    assert!(
        !run.json()[0]["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["kind"] == "space_in_pattern"),
        "{}",
        run.stdout
    );
}

/// An HTML page served as robots.txt gets one warning, not one a line; a
/// robots.txt with a stray tag in it is no page.
#[tokio::test]
async fn show_names_an_html_page_once() {
    let page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\">\n\
                <title>Not found</title></head>\n<body><p>Sorry: no such page.</p>\n\
                <a href=\"https://example.com/\">Home</a></body>\n</html>\n";
    let run = keepout(&["show", "--json", "-"], page).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings = run.json()[0]["warnings"].clone();
    assert_eq!(warnings.as_array().unwrap().len(), 1, "{warnings}");
    assert_eq!(warnings[0]["kind"], "html_page");
    assert_eq!(warnings[0]["line"], serde_json::Value::Null);
    assert_eq!(
        warnings[0]["message"],
        "an HTML page, not a robots.txt (line 1 begins '<!DOCTYPE'): it has no rules, so crawlers take everything as allowed; 11 warnings about its lines left out"
    );

    let file = "User-agent: *\nDisallow: /x\n<b>oops</b>: here\n";
    let run = keepout(&["show", "--json", "-"], file).await;
    let kinds: Vec<String> = run.json()[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds, ["unknown_key"]);
}

/// A UTF-16 file is read, and `show` says that crawlers reading it as
/// UTF-8 find no rules in it.
#[tokio::test]
async fn show_says_a_utf16_file_is_not_utf8() {
    let body: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain(
            "User-agent: *\nDisallow: /private\n"
                .encode_utf16()
                .flat_map(u16::to_be_bytes),
        )
        .collect();
    let run = keepout(&["show", "--json", "-"], &body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    assert_eq!(json[0]["groups"][0]["disallow"], 1);
    let warnings = json[0]["warnings"].as_array().unwrap().clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["kind"], "not_utf8");
    assert_eq!(warnings[0]["line"], 1);
    let message = warnings[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("file in UTF-16BE, not UTF-8 (RFC 9309 section 2.2)")
            && message.contains("Google's parser among them, find no rules in it"),
        "{message}"
    );
}

/// A Latin-1 octet in a pattern of a file read as UTF-8 is warned of by
/// name.
#[tokio::test]
async fn show_names_a_value_that_is_not_utf8() {
    let run = keepout(
        &["show", "--json", "-"],
        b"User-agent: *\nDisallow: /caf\xE9\n",
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings = run.json()[0]["warnings"].as_array().unwrap().clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["kind"], "invalid_utf8");
    assert_eq!(warnings[0]["line"], 2);
}

/// A last group without rules, a Unicode space in a value, a byte order
/// mark inside the file: warned by name in JSON, and the invisible
/// characters escaped wherever `show` and `check` print the file's text.
#[tokio::test]
async fn show_and_check_flag_a_group_without_rules_and_unicode_spaces() {
    let body = "User-agent: *\nDisallow: /library\u{a0}\nDisallow: /search\n\
                Sitemap: https://example.com/s.xml\u{200b}\n\u{feff}X-joined: yes\n\n\
                User-agent: bingbot\nCrawl-delay: 1\n";
    let run = keepout(&["show", "--json", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    let kinds = warning_kinds(&json[0]);
    assert_eq!(
        kinds,
        [
            (2, "unicode_space"),
            (4, "unicode_space"),
            (5, "unknown_key"),
            (7, "group_without_rules"),
        ]
    );
    let run = keepout(&["show", "--rules", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    for shown in [
        "line 2: Disallow: /library\\u{a0}\n",
        "  https://example.com/s.xml\\u{200b}\n",
        "line 5: \\u{feff}X-joined: yes\n",
    ] {
        assert!(run.stdout.contains(shown), "{shown:?} in {}", run.stdout);
    }
    for invisible in ['\u{a0}', '\u{200b}', '\u{feff}'] {
        assert!(!run.stdout.contains(invisible), "{:?}", run.stdout);
    }
    let run = keepout(
        &[
            "check",
            "-a",
            "bingbot",
            "-r",
            "-",
            "https://example.com/search",
        ],
        body,
    )
    .await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "ALLOWED    https://example.com/search  no rule matches  (group at line 7: User-agent: bingbot; the '*' group's rules do not apply: a group names bingbot)"
        ),
        "{}",
        run.stdout
    );
}

/// Patterns that match nothing, or not everywhere, as their author meant:
/// a full URL, a space; and a sitemap given as a path.
#[tokio::test]
async fn show_flags_url_patterns_spaces_and_sitemap_paths() {
    let body = "User-agent: *\n\
                Disallow: https://example.com/private?x=1\n\
                Disallow: private\n\
                Disallow: /Arts and Crafts\n\
                Disallow: /one /two\n\
                Disallow: /%20ok\n\
                Sitemap: /sitemap.xml\n\
                Sitemap: //cdn.example.com/s.xml\n\
                Sitemap: https://example.com/full.xml\n";
    let run = keepout(&["show", "--json", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found: Vec<(Option<u64>, String, String)> = run.json()[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["line"].as_u64(),
                w["kind"].as_str().unwrap().to_owned(),
                w["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let google =
        "but Google's parser keeps the space, and matches no URL with it; write %20 for a space";
    assert_eq!(
        found,
        [
            (
                Some(2),
                "pattern_not_rooted".into(),
                "pattern is a full URL, but a rule matches paths only, so it matches none: write 'Disallow: /private?x=1'".into()
            ),
            (
                Some(3),
                "pattern_not_rooted".into(),
                "pattern starts with neither '/' nor a wildcard; it matches no path".into()
            ),
            (
                Some(4),
                "space_in_pattern".into(),
                format!("pattern '/Arts and Crafts' holds a space: keepout reads it as '/Arts%20and%20Crafts' (RFC 9309 section 2.2.2), {google}")
            ),
            (
                Some(5),
                "space_in_pattern".into(),
                format!("pattern '/one /two' holds a space: keepout reads it as '/one%20/two' (RFC 9309 section 2.2.2), {google}, or put each path on a line of its own")
            ),
            (
                None,
                "sitemap_not_absolute".into(),
                "sitemap '/sitemap.xml' is a path: keepout resolves it against the robots.txt URL, but the Sitemaps protocol asks for a full URL (https://...), and other crawlers may skip it".into()
            ),
            // Not a path (until session 60 it was called one).
            (
                None,
                "sitemap_not_absolute".into(),
                "sitemap '//cdn.example.com/s.xml' is a URL without a scheme: keepout resolves it against the robots.txt URL, but the Sitemaps protocol asks for a full URL (https://...), and other crawlers may skip it".into()
            ),
        ]
    );
}

/// `--rules` lists each group's rules, as written and, in JSON, as matched.
#[tokio::test]
async fn show_rules_lists_each_rule() {
    let body =
        "User-agent: *\nDisallow: /caf\u{e9}\nallow: /%7Ea/$\n\nUser-agent: a\nUser-agent: b\n";
    let run = keepout(&["show", "--rules", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        &run.lines()[1..7],
        [
            "groups: 2",
            "  group at line 1: User-agent: *",
            "    2 rules (1 allow, 1 disallow)",
            "      line 2: Disallow: /caf\u{e9}",
            "      line 3: Allow: /%7Ea/$",
            "  group at line 5: User-agent: a, b",
        ]
    );
    assert_eq!(run.lines()[7], "    0 rules (0 allow, 0 disallow)");

    let run = keepout(&["show", "--json", "--rules", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let groups = &run.json()[0]["groups"];
    assert_eq!(
        groups[0]["rule_list"],
        serde_json::json!([
            {"line": 2, "kind": "disallow", "pattern": "/caf\u{e9}", "normalized": "/caf%C3%A9"},
            {"line": 3, "kind": "allow", "pattern": "/%7Ea/$", "normalized": "/~a/$"},
        ])
    );
    assert_eq!(groups[1]["rule_list"], serde_json::json!([]));

    // Without `--rules`, the counts alone, as before.
    let run = keepout(&["show", "--json", "-"], body).await;
    assert_eq!(run.json()[0]["groups"][0].get("rule_list"), None);
}

/// Where an extension line splits a group's user-agent lines, each crawler
/// has the value written under its own line (`Robots::crawl_delay`), and
/// `show` lists them.
#[tokio::test]
async fn show_lists_each_crawlers_delay_in_a_joined_group() {
    let body = "User-agent: usasearch\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 10\nRequest-rate: 1/5s\nDisallow: /x\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        &run.lines()[2..4],
        [
            "  group at line 1: User-agent: usasearch, *",
            "    1 rule (0 allow, 1 disallow), crawl-delay 2s (in effect: 2s for usasearch, 10s for *), request-rate 1/5s",
        ]
    );
    assert!(
        run.lines()[6].starts_with(
            "  line 4: user-agent line after a Crawl-delay line joins the group above"
        )
    );
    // JSON keeps the group's first value; the warning has its kind.
    let run = keepout(&["show", "--json", "-"], body).await;
    let o = &run.json()[0];
    assert_eq!(o["groups"][0]["crawl_delay_secs"], 2.0);
    assert_eq!(o["warnings"][0]["kind"], "joins_group");
    // A crawler's second group shows its own value as written, and the
    // one the crawler uses, from its first group.
    let body = "User-agent: a\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: a\nCrawl-delay: 9\nDisallow: /y\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(
        run.lines()[5],
        "    1 rule (0 allow, 1 disallow), crawl-delay 9s (in effect: 5s for a)"
    );
    let run = keepout(&["show", "--json", "-"], body).await;
    assert_eq!(run.json()[0]["groups"][1]["crawl_delay_secs"], 9.0);
    // A group naming that crawler twice (in any case, any version) lists
    // it once in effect, under the first name.
    let body = "User-agent: a\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: a\nUser-agent: A/2\nCrawl-delay: 9\nDisallow: /y\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(
        run.lines()[5],
        "    1 rule (0 allow, 1 disallow), crawl-delay 9s (in effect: 5s for a)"
    );
}

/// An empty `User-agent:` line after rules forms a group of its own
/// (naming no crawler); `show` names its value `(empty)` rather than
/// print nothing.
#[tokio::test]
async fn an_empty_user_agent_value_is_shown_as_empty() {
    let body = "User-agent: a\nDisallow: /x\n\nUser-agent:\nDisallow: /y\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.lines()[4], "  group at line 4: User-agent: (empty)");
}

/// A user-agent line names a product token, not a crawler's header: the
/// line `Mozilla/5.0 (compatible; bot/1)` names the crawler `Mozilla`, so
/// `show` gives the value in effect for `Mozilla` (its group's), not the
/// one of `bot`, which a crawler sending that header would be read as.
#[tokio::test]
async fn show_gives_the_delay_of_the_token_a_line_names() {
    let body = "User-agent: bot\nCrawl-delay: 5\nDisallow: /a\n\n\
                User-agent: Mozilla/5.0 (compatible; bot/1)\nUser-agent: other\nCrawl-delay: 2\nDisallow: /b\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        &run.lines()[4..6],
        [
            "  group at line 5: User-agent: Mozilla/5.0 (compatible; bot/1), other",
            "    1 rule (0 allow, 1 disallow), crawl-delay 2s",
        ]
    );
}

/// A value that names no crawler (`*bot`) has no value in effect: it was
/// given the `*` group's, as if a crawler were named so.
#[tokio::test]
async fn show_gives_no_delay_in_effect_for_a_value_naming_no_crawler() {
    let body = "User-agent: *bot\nUser-agent: fastbot\nCrawl-delay: 5\nDisallow: /x\n\n\
                User-agent: *\nCrawl-delay: 10\nDisallow: /y\n";
    let run = keepout(&["show", "-"], body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        &run.lines()[2..4],
        [
            "  group at line 1: User-agent: *bot, fastbot",
            "    1 rule (0 allow, 1 disallow), crawl-delay 5s",
        ]
    );
}

#[tokio::test]
async fn show_fetched_after_a_redirect() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", "/real-robots.txt"))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/real-robots.txt"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("etag", "\"v1\"")
                .set_body_string(
                    "User-agent: *\nDisallow: /a\nSitemap: https://example.com/s.xml\n",
                ),
        )
        .mount(&server)
        .await;
    let base = server.uri();

    let run = keepout(&["show", &format!("{base}/any/page")], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(
        lines[0],
        format!("{base}/robots.txt: 200 OK, 1 redirect to {base}/real-robots.txt, 62 bytes")
    );
    assert!(
        lines[1].starts_with("  fetched ") && lines[1].contains(", expires "),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "  etag \"v1\"");
    assert!(
        run.stdout
            .contains("\nsitemaps: 1\n  https://example.com/s.xml\n")
    );

    let run = keepout(&["show", "--json", &base], "").await;
    let fetch = &run.json()[0]["fetch"];
    assert_eq!(fetch["robots_url"], format!("{base}/robots.txt"));
    assert_eq!(fetch["final_url"], format!("{base}/real-robots.txt"));
    assert_eq!(fetch["status"], 200);
    assert_eq!(fetch["redirects"], 1);
    assert_eq!(fetch["result"], "fetched");
    assert_eq!(fetch["etag"], "\"v1\"");
    assert_eq!(fetch["truncated_at_cap"], false);
    assert!(fetch["expires_at"].as_str().unwrap().ends_with('Z'));
}

#[tokio::test]
async fn robots_txt_from_stdin() {
    let rules = std::fs::read_to_string(FILE).unwrap();
    let run = keepout(
        &[
            "check",
            "-a",
            "SomeBot",
            "-r",
            "-",
            "https://example.com/private/x",
        ],
        &rules,
    )
    .await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.lines()[0],
        format!("<stdin>: standard input, {} bytes", rules.len())
    );
    assert!(run.lines()[1].starts_with("DISALLOWED https://example.com/private/x  line 6:"));
    let run = keepout(&["show", "-"], &rules).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.lines()[0],
        format!("<stdin>: standard input, {} bytes", rules.len())
    );
    let run = keepout(&["show", "--json", "-"], &rules).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let shown = &run.json()[0];
    assert_eq!(shown["source"], "<stdin>");
    assert_eq!(shown["groups"].as_array().unwrap().len(), 2);
}

/// `check` decides as a crawler's fetch would: of a file over 500 KiB, on
/// the complete lines within 500 KiB (RFC 9309 section 2.5); `show` shows
/// it all and flags the rest.
#[tokio::test]
async fn check_reads_a_large_file_as_a_fetch_would() {
    let mut body = String::from("User-agent: *\n");
    while body.len() < 511_990 {
        body.push_str("Disallow: /some/long/path/to/keep/out/of/the/index\n");
    }
    // Straddles byte 512,000: a fetch drops it, partial; and past it.
    body.push_str("Disallow: /straddling-the-limit\n");
    body.push_str("Disallow: /past-the-limit\n");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("keepout-cli-cut-robots.txt");
    std::fs::write(&file, &body).unwrap();
    let file = file.to_str().unwrap();
    let urls = [
        "https://example.com/straddling-the-limit",
        "https://example.com/past-the-limit",
        "https://example.com/some/long/path/to/keep/out/of/the/index/x",
    ];
    let mut args = vec!["check", "--json", "-a", "SomeBot", "-r", file];
    args.extend(urls);
    let run = keepout(&args, "").await;
    assert_eq!(run.code, 1, "{}", run.stderr);
    let verdicts: Vec<bool> = run
        .json()
        .iter()
        .map(|o| o["allowed"].as_bool().unwrap())
        .collect();
    assert_eq!(verdicts, [true, true, false]);
    assert_eq!(run.json()[0]["robots"]["truncated_at_cap"], true);
    // The text form says so on its first line.
    let run = keepout(&["check", "-a", "SomeBot", "-r", file, urls[1]], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.lines()[0].contains("complete lines in the first 512000"),
        "{}",
        run.lines()[0]
    );
    // The same from stdin.
    let run = keepout(&["check", "-a", "SomeBot", "-r", "-", urls[1]], &body).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    // `show` parses it all.
    let run = keepout(&["show", "--json", file], "").await;
    let rules = run.json()[0]["groups"][0]["rules"].as_u64().unwrap();
    assert_eq!(rules as usize, body.lines().count() - 1);
}

/// The same of a file in UTF-16: its line ends are code units, not octets.
#[tokio::test]
async fn check_reads_a_large_utf16_file_as_a_fetch_would() {
    let mut text = String::from("User-agent: *\n");
    let last = "Disallow: /last-complete-line\n";
    let filler = "Disallow: /some/long/path/to/keep/out/of/the/index\n";
    // With the BOM, two octets a character: the last line ends within
    // 512,000 octets.
    while 2 + 2 * (text.len() + filler.len() + last.len()) < 512_000 {
        text.push_str(filler);
    }
    text.push_str(last);
    text.push_str("Disallow: /straddling-the-limit/with/a/long/enough/path\n");
    for big_endian in [false, true] {
        let mut body: Vec<u8> = if big_endian {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for unit in text.encode_utf16() {
            body.extend(if big_endian {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            });
        }
        assert!(body.len() > 512_000);
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
        let file = dir.join(format!("keepout-cli-cut-utf16-{big_endian}.txt"));
        std::fs::write(&file, &body).unwrap();
        let file = file.to_str().unwrap();
        let urls = [
            "https://example.com/last-complete-line",
            "https://example.com/straddling-the-limit/with",
        ];
        let run = keepout(
            &[
                "check", "--json", "-a", "SomeBot", "-r", file, urls[0], urls[1],
            ],
            "",
        )
        .await;
        let verdicts: Vec<bool> = run
            .json()
            .iter()
            .map(|o| o["allowed"].as_bool().unwrap())
            .collect();
        assert_eq!(verdicts, [false, true], "big-endian: {big_endian}");
    }
}

/// An endless stream ends: `check` counts no more than 64 MiB of it,
/// `show` refuses it there.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn an_endless_robots_txt_ends() {
    // Were the cap gone, the run would not end: a failure, not a hang.
    let run = |args: &'static [&'static str]| async move {
        let within = std::time::Duration::from_secs(60);
        tokio::time::timeout(within, keepout(args, ""))
            .await
            .expect("the run ends")
    };
    let args = &[
        "check",
        "-a",
        "SomeBot",
        "-r",
        "/dev/zero",
        "https://example.com/x",
    ];
    let checked = run(args).await;
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert!(
        checked.lines()[0].starts_with("/dev/zero: local file, more than 67108864 bytes, of which"),
        "{}",
        checked.lines()[0]
    );
    run(&["show", "/dev/zero"])
        .await
        .assert_bad_input("\"/dev/zero\": over 67108864 bytes, the most `show` reads");
}

#[tokio::test]
async fn show_flags_files_over_the_size_limit() {
    // 600 KB of rules: the line holding byte 512,001 is flagged.
    let line = "Disallow: /some/long/path/to/keep/out/of/the/index\n";
    let mut body = String::from("User-agent: *\n");
    while body.len() <= 600_000 {
        body.push_str(line);
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("keepout-cli-large-robots.txt");
    std::fs::write(&file, &body).unwrap();
    let run = keepout(&["show", "--json", file.to_str().unwrap()], "").await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings = run.json()[0]["warnings"].as_array().unwrap().clone();
    let big: Vec<&Value> = warnings
        .iter()
        .filter(|w| w["kind"] == "file_too_large")
        .collect();
    assert_eq!(big.len(), 1);
    let want_line = 1 + body.as_bytes()[..512_000]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    assert_eq!(big[0]["line"], want_line);
    // The same rule repeated is reported as shadowed, every time.
    let shadowed = warnings
        .iter()
        .filter(|w| w["kind"] == "shadowed_rule")
        .count();
    assert_eq!(shadowed, body.lines().count() - 2);
}
