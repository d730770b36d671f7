//! `keepout check`: may this crawler fetch these URLs, and which line says so?

use std::collections::HashMap;
use std::io::{BufRead, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;

use keepout::{Cause, Decision, Fetcher, Robots};
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::output::{GroupRefJson, RobotsJson, RuleJson, clean, group_label, source_summary};
use crate::progress::Progress;
use crate::source::{Extent, Loaded, Source};
use crate::{Failure, FetchArgs};

pub const AFTER_HELP: &str = "\
Without --robots, the robots.txt of each URL's origin (scheme, host, port) is
fetched once, following redirects; a 4xx means everything is allowed, a 5xx or
a network failure that everything is disallowed (RFC 9309 section 2.3.1).

Exit status: 0 if every URL is allowed, 1 if any is disallowed, 2 on bad input
(unreadable file, invalid or non-http(s) URL, no URLs).

Examples:
  keepout check --agent ExampleBot https://example.com/ https://example.com/private/x
  keepout check -a ExampleBot --robots robots.txt https://example.com/private/x
  cat urls.txt | keepout check -a ExampleBot --json -";

/// Arguments of `keepout check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The crawler: a product token (ExampleBot) or a whole User-Agent
    /// value, whose leading product token is used. Required: there is no
    /// default crawler name; pass `*` to see what the `*` group says.
    #[arg(short, long, value_name = "AGENT")]
    agent: String,

    /// Check against this robots.txt instead of fetching each URL's own: a
    /// local file (`-` for stdin), or an http(s) URL whose origin's
    /// /robots.txt is fetched (its path does not matter). Of a file over
    /// 500 KiB, the complete lines within 500 KiB are read, as a fetch
    /// reads them (and no more than 64 MiB of it is read at all).
    #[arg(short, long, value_name = "FILE|URL")]
    robots: Option<std::ffi::OsString>,

    /// One JSON object per URL, one per line (JSON Lines).
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    fetch: FetchArgs,

    /// Absolute http(s) URLs to check. `-` reads more from stdin, one per
    /// line; blank lines and lines starting with `#` are skipped.
    #[arg(required = true, value_name = "URL")]
    urls: Vec<String>,
}

/// A URL to check, and where it was given (for error messages).
struct Input {
    /// The URL as given (printed).
    url: String,
    /// The URL as a client will send it (parsed: `http:///private` is
    /// `http://private/`, `/a/../b` is `/b`): what is checked.
    target: String,
    origin: usize,
}

pub async fn run(args: Args) -> Result<ExitCode, Failure> {
    check_agent(&args.agent)?;
    let robots_source = args
        .robots
        .as_deref()
        .map(Source::parse)
        .transpose()
        .map_err(|e| match e {
            Failure::Input(message) => Failure::Input(format!("--robots: {message}")),
            e => e,
        })?;
    if matches!(robots_source, Some(Source::Stdin)) && args.urls.iter().any(|u| u == "-") {
        return Err(Failure::Input(String::from(
            "stdin cannot hold both the robots.txt (--robots -) and URLs (-)",
        )));
    }
    let urls = read_urls(&args.urls)?;
    let fetcher = args.fetch.fetcher()?;

    // Each URL's origin, in order of first appearance.
    let mut origins: Vec<String> = Vec::new();
    let mut inputs = Vec::with_capacity(urls.len());
    // With `--robots URL`: its origin, and how many URLs are elsewhere.
    let robots_origin = match &robots_source {
        Some(Source::Url(url)) => keepout::fetch::origin_key(url).ok(),
        _ => None,
    };
    let mut elsewhere = 0usize;
    {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (url, stdin_line) in urls {
            let key = keepout::fetch::origin_key(&url).map_err(|e| {
                Failure::Input(match stdin_line {
                    Some(n) => format!("stdin line {n}: {e}"),
                    None => e.to_string(),
                })
            })?;
            if robots_origin.as_ref().is_some_and(|o| *o != key) {
                elsewhere += 1;
            }
            let origin = if robots_source.is_some() {
                0
            } else {
                *seen.entry(key.clone()).or_insert_with(|| {
                    origins.push(key);
                    origins.len() - 1
                })
            };
            // `origin_key` accepted it, so it parses.
            let target = url::Url::parse(&url).map_or_else(|_| url.clone(), String::from);
            inputs.push(Input {
                url,
                target,
                origin,
            });
        }
    }

    if let (Some(origin), 1..) = (&robots_origin, elsewhere) {
        // Asked for, so done; but a robots.txt governs its own origin only
        // (RFC 9309 section 2.3).
        eprintln!(
            "keepout: note: {elsewhere} of the URLs are not on {origin}, whose robots.txt is applied to them as asked but does not govern them"
        );
    }
    let mut printer = Printer {
        out: BufWriter::new(std::io::stdout().lock()),
        agent: &args.agent,
        json: args.json,
        inputs: &inputs,
        loaded: (0..origins.len().max(1)).map(|_| None).collect(),
        announced: vec![false; origins.len().max(1)],
        next: 0,
        any_disallowed: false,
    };
    let printed = match &robots_source {
        Some(source) => {
            let loaded = source.load(&fetcher, Extent::Fetched).await?;
            printer.loaded(0, loaded)
        }
        None => {
            let wanted = origins.len() > 1 || inputs.len() >= 100;
            fetch_all(
                &fetcher,
                &origins,
                args.fetch.concurrency.into(),
                wanted,
                &mut printer,
            )
            .await
        }
    };
    match printed.and_then(|()| Ok(printer.out.flush()?)) {
        Ok(()) => {}
        // `keepout check ... | head`: the reader has all it wants; the
        // status still tells of the verdicts reached.
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e),
    }
    Ok(if printer.any_disallowed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the verdicts in input order, each as soon as its origin's
/// robots.txt (and every earlier URL's) is loaded, so a long batch streams.
struct Printer<'a, W: Write> {
    out: W,
    agent: &'a str,
    json: bool,
    inputs: &'a [Input],
    /// Each origin's rules once loaded, with its JSON description.
    loaded: Vec<Option<(Loaded, Option<RobotsJson>)>>,
    /// Whether each origin's summary line is written (before its first URL).
    announced: Vec<bool>,
    /// The first input not written yet.
    next: usize,
    any_disallowed: bool,
}

impl<W: Write> Printer<'_, W> {
    /// Origin `origin` is loaded: write every input now ready.
    fn loaded(&mut self, origin: usize, loaded: Loaded) -> Result<(), Failure> {
        let json = self.json.then(|| RobotsJson::new(&loaded));
        self.loaded[origin] = Some((loaded, json));
        while let Some(input) = self.inputs.get(self.next) {
            let Some((loaded, robots_json)) = &self.loaded[input.origin] else {
                break;
            };
            let decision = loaded.robots.explain(self.agent, &input.target);
            self.any_disallowed |= !decision.allowed();
            match robots_json {
                Some(robots) => {
                    let line = CheckJson {
                        url: &input.url,
                        allowed: decision.allowed(),
                        cause: cause_name(decision.cause()),
                        agent: self.agent,
                        agent_match: match decision.agent_match() {
                            keepout::AgentMatch::Named => "named",
                            keepout::AgentMatch::Star => "star",
                            keepout::AgentMatch::None => "none",
                        },
                        rule: decision.rule().map(RuleJson::new),
                        groups: decision.groups().map(GroupRefJson::new).collect(),
                        robots,
                    };
                    serde_json::to_writer(&mut self.out, &line).map_err(std::io::Error::from)?;
                    writeln!(self.out)?;
                }
                None => {
                    if !self.announced[input.origin] {
                        self.announced[input.origin] = true;
                        writeln!(self.out, "{}", source_summary(loaded))?;
                    }
                    let verdict = if decision.allowed() {
                        "ALLOWED"
                    } else {
                        "DISALLOWED"
                    };
                    let why = why(&decision);
                    writeln!(
                        self.out,
                        "{verdict:<10} {}  {}",
                        clean(&input.url),
                        clean(&why)
                    )?;
                }
            }
            self.next += 1;
        }
        self.out.flush()?;
        Ok(())
    }
}

/// One `check --json` line.
#[derive(Serialize)]
struct CheckJson<'a> {
    url: &'a str,
    allowed: bool,
    cause: &'static str,
    agent: &'a str,
    agent_match: &'static str,
    rule: Option<RuleJson<'a>>,
    groups: Vec<GroupRefJson<'a>>,
    robots: &'a RobotsJson,
}

fn cause_name(cause: Cause) -> &'static str {
    match cause {
        Cause::Rule => "rule",
        Cause::NoMatchingRule => "no_matching_rule",
        Cause::NoGroup => "no_group",
        Cause::RobotsTxt => "robots_txt",
        Cause::Unavailable => "unavailable",
        Cause::Unreachable => "unreachable",
        _ => "other",
    }
}

/// The reason after the verdict in text output.
fn why(d: &Decision<'_>) -> String {
    match d.cause() {
        Cause::Rule => match d.rule() {
            Some(rule) => format!(
                "line {}: {rule}  ({})",
                rule.line(),
                group_label(rule.group())
            ),
            None => d.to_string(),
        },
        Cause::NoMatchingRule => {
            // A file can merge thousands of groups: the first few name them
            // well enough on a line (JSON lists them all).
            const SHOWN: usize = 4;
            let mut groups: Vec<String> = d.groups().take(SHOWN).map(group_label).collect();
            match d.groups().len().saturating_sub(SHOWN) {
                0 => {}
                1 => groups.push(String::from("and 1 more group")),
                more => groups.push(format!("and {more} more groups")),
            }
            format!("no rule matches  ({})", groups.join("; "))
        }
        Cause::NoGroup => String::from("no group for this user-agent and no '*' group"),
        Cause::RobotsTxt => String::from("/robots.txt is always allowed"),
        Cause::Unavailable => String::from("robots.txt unavailable, everything allowed"),
        Cause::Unreachable => String::from("robots.txt unreachable, everything disallowed"),
        _ => d.to_string(),
    }
}

/// Refuses an agent no robots.txt group can name.
fn check_agent(given: &str) -> Result<(), Failure> {
    let agent = given.trim();
    let star = agent.starts_with('*') && agent[1..].chars().next().is_none_or(char::is_whitespace);
    let token = agent.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if star || token {
        Ok(())
    } else {
        Err(Failure::Input(format!(
            "--agent {given:?} does not start with a product token (letters, digits, '_', '-'), e.g. ExampleBot"
        )))
    }
}

/// The URLs from the arguments, with `-` expanded from stdin, each with its
/// stdin line number if it came from there.
fn read_urls(args: &[String]) -> Result<Vec<(String, Option<usize>)>, Failure> {
    let mut urls = Vec::new();
    let mut stdin_read = false;
    for arg in args {
        if arg != "-" {
            urls.push((arg.clone(), None));
            continue;
        }
        if stdin_read {
            continue;
        }
        stdin_read = true;
        // Lines as octets, so that one that is not UTF-8 can be named.
        for (n, line) in std::io::stdin().lock().split(b'\n').enumerate() {
            let line = line.map_err(|e| Failure::Input(format!("cannot read stdin: {e}")))?;
            let line = std::str::from_utf8(&line).map_err(|_| {
                Failure::Input(format!(
                    "stdin line {}: not UTF-8 (a URL to check is text; percent-encode other octets)",
                    n + 1
                ))
            })?;
            let url = line.trim();
            if url.is_empty() || url.starts_with('#') {
                continue;
            }
            urls.push((url.to_owned(), Some(n + 1)));
        }
    }
    if urls.is_empty() {
        return Err(Failure::Input(String::from("no URLs to check")));
    }
    Ok(urls)
}

/// Fetches each origin's robots.txt once, a bounded number at a time,
/// handing each to `printer` as it arrives.
async fn fetch_all<W: Write>(
    fetcher: &Fetcher,
    origins: &[String],
    concurrency: usize,
    show_progress: bool,
    printer: &mut Printer<'_, W>,
) -> Result<(), Failure> {
    let permits = Arc::new(Semaphore::new(concurrency));
    let mut tasks = JoinSet::new();
    for (i, origin) in origins.iter().enumerate() {
        let fetch = fetcher.fetch(origin);
        let permits = Arc::clone(&permits);
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (i, fetch.await)
        });
    }
    // Verdict lines on a terminal would break the bar: it shows only when
    // they go elsewhere.
    let show_progress = show_progress && !std::io::stdout().is_terminal();
    let mut progress = Progress::new("fetching robots.txt", origins.len(), show_progress);
    while let Some(joined) = tasks.join_next().await {
        let (i, result) =
            joined.map_err(|e| Failure::Input(format!("robots.txt fetch failed: {e}")))?;
        let robots: Robots = result.map_err(|e| Failure::Input(e.to_string()))?;
        progress.inc();
        printer.loaded(i, Loaded::fetched(robots))?;
    }
    progress.finish();
    Ok(())
}
