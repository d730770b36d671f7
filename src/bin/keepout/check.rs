//! `keepout check`: may this crawler fetch these URLs, and which line says so?

use std::collections::{HashMap, VecDeque};
use std::io::{BufWriter, IsTerminal, Write};
use std::process::ExitCode;

use keepout::{Cause, Decision, Fetcher, Robots};
use serde::Serialize;
use tokio::task::JoinSet;

use crate::output::{GroupRefJson, JSON_GROUPS, RobotsJson, RuleJson, clean, source_summary};
use crate::progress::Progress;
use crate::source::{Extent, Loaded, Source};
use crate::urls::{Next, Urls};
use crate::{Failure, FetchArgs};

pub const AFTER_HELP: &str = "\
Each URL is checked as an HTTP client requests it (`/a/../b` is `/b`), its
path percent-encoded as RFC 9309 section 2.2.2 compares paths; when that is
not the path written, the line shows it after the URL: `(as /b)`.

Without --robots, the robots.txt of each URL's origin (scheme, host, port) is
fetched once (again only after --keep-origins let it go), following
redirects; a 4xx means everything is allowed, but a 407 (a proxy's), a 429
(as Google treats it), a 5xx or a network failure that everything is
disallowed (RFC 9309 section 2.3.1). Fetches go through the proxy
HTTP_PROXY, HTTPS_PROXY or ALL_PROXY names, except to hosts NO_PROXY lists.
Certificates are checked against the system's authorities, or on Linux those
SSL_CERT_FILE or SSL_CERT_DIR name, when set.

URLs from stdin (`-`) are checked as they are read, their verdicts written in
input order as each origin's robots.txt arrives: a long or endless list
streams, in bounded memory (see --keep-origins).

Exit status: 0 if every URL is allowed, 1 if any is disallowed, 2 on bad input
(unreadable file, invalid or non-http(s) URL, no URLs) or a fetch this machine
could not make (out of file descriptors, local ports or memory). A bad line on
stdin (not a URL, not UTF-8, a URL past 64 KiB, or a tab or carriage return
inside one) stops the run there, after the verdicts of the lines before it.

Examples:
  keepout check --agent ExampleBot https://example.com/ https://example.com/private/x
  keepout check -a ExampleBot --robots robots.txt https://example.com/private/x
  cat urls.txt | keepout check -a ExampleBot --json -";

/// Arguments of `keepout check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The crawler: a product token (ExampleBot) or a whole User-Agent
    /// value, whose leading product token is used, or in the
    /// browser-compatible form the one after `compatible;` in a comment
    /// (`Mozilla/5.0 (compatible; ExampleBot/2.1)` and `Mozilla/5.0 (KHTML,
    /// like Gecko; compatible; ExampleBot/2.1)` are ExampleBot; when it is
    /// more than a token and its version, a note on stderr names the token
    /// used). Required: there is no default crawler name; pass `*` to see
    /// what the `*` group says.
    #[arg(short, long, value_name = "AGENT")]
    agent: String,

    /// Check against this robots.txt instead of fetching each URL's own: a
    /// local file (`-` for stdin), or an http(s) URL whose origin's
    /// /robots.txt is fetched (its path does not matter). Of a file over
    /// 500 KiB, the complete lines within 500 KiB are read, as a fetch
    /// reads them (and no more than 64 MiB of it is read at all).
    #[arg(short, long, value_name = "FILE|URL")]
    robots: Option<std::ffi::OsString>,

    /// Read a --robots file or stdin as a server sending this Content-Type
    /// would have it read: `--content-type 'text/plain; charset=iso-8859-1'`
    /// for a saved copy of a Latin-1 file, whose rules then match as they
    /// do when it is fetched. (A fetched robots.txt is read in the charset
    /// its server names: with no file or stdin to read, the option is
    /// refused, as is a value naming no charset keepout reads.)
    #[arg(long, value_name = "VALUE", value_parser = crate::source::content_type)]
    content_type: Option<String>,

    /// One JSON object per URL, one per line (JSON Lines).
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    fetch: FetchArgs,

    /// How many sites' robots.txt to keep at once, at most: past that, the
    /// ones used longest ago are let go (fetched again if a URL of one
    /// comes later), and reading waits while that many are still needed,
    /// so that a list of many sites runs in bounded memory.
    #[arg(long, value_name = "N", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(1..))]
    keep_origins: u32,

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

impl Input {
    /// The octets it holds.
    fn bytes(&self) -> usize {
        self.url.len() + self.target.len()
    }
}

/// URLs read ahead of the first verdict not yet written, at most. While
/// the oldest URL's robots.txt is still being fetched, reading waits past
/// this many, so memory stays bounded however long the list; the fetches
/// of the origins already seen go on meanwhile.
const READ_AHEAD: usize = 16_384;

/// And at most this many octets of them (URLs and their parsed forms).
const READ_AHEAD_BYTES: usize = 64 << 20;

/// URLs taken at once when they are at hand, at most, before the verdicts
/// ready are written.
const BATCH: usize = 1024;

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
    if args.content_type.is_some()
        && !matches!(robots_source, Some(Source::File(_) | Source::Stdin))
    {
        return Err(Failure::Input(String::from(
            crate::source::CONTENT_TYPE_UNUSED,
        )));
    }
    if matches!(robots_source, Some(Source::Stdin)) && args.urls.iter().any(|u| u == "-") {
        return Err(Failure::Input(String::from(
            "stdin cannot hold both the robots.txt (--robots -) and URLs (-)",
        )));
    }
    // The URLs given as arguments are all checked before anything is
    // fetched; those from stdin as they come.
    for url in args.urls.iter().filter(|u| *u != "-") {
        keepout::fetch::origin_key(url).map_err(|e| bad_url(&e, None))?;
        // A URL parser drops a tab, CR or LF inside a URL, so another URL
        // than the one printed would be checked; refused, as on stdin.
        if let Some(what) = crate::urls::dropped_inside(url) {
            return Err(Failure::Input(format!(
                "URL {url:?}: {what} inside it (a URL parser would drop it, and check another URL)"
            )));
        }
    }
    let fetcher = args.fetch.fetcher()?;
    // With `--robots URL`: its origin, and how many URLs are elsewhere.
    let robots_origin = match &robots_source {
        Some(Source::Url(url)) => keepout::fetch::origin_key(url).ok(),
        _ => None,
    };
    let mut run = Run {
        printer: Printer {
            out: BufWriter::new(std::io::stdout().lock()),
            agent: &args.agent,
            token: Robots::agent_token(&args.agent),
            json: args.json,
            waiting: VecDeque::new(),
            waiting_bytes: 0,
            slots: Vec::new(),
            idle: VecDeque::new(),
            any_disallowed: false,
        },
        urls: Urls::new(args.urls),
        origins: HashMap::new(),
        free: Vec::new(),
        keep: args.keep_origins as usize,
        read: 0,
        fetches: JoinSet::new(),
        concurrency: args.fetch.concurrency.into(),
        queued: VecDeque::new(),
        // Verdict lines on a terminal would break the bar: it shows only
        // when they go elsewhere.
        progress: Progress::new("fetching robots.txt", !std::io::stdout().is_terminal()),
        robots_origin,
        elsewhere: 0,
        stopped: None,
    };
    // The first URL before anything is fetched: a list with none, or whose
    // first line is bad, ends the run without a request.
    let first = run
        .urls
        .next()
        .await
        .ok_or_else(|| Failure::Input(String::from("no URLs to check")))??;
    keepout::fetch::origin_key(&first.0).map_err(|e| bad_url(&e, first.1))?;
    if let Some(note) = agent_note(&args.agent) {
        // Not `eprintln!`, which panics when stderr is closed.
        let _ = writeln!(std::io::stderr(), "keepout: note: {note}");
    }
    let result = match &robots_source {
        Some(source) => match source
            .load(&fetcher, Extent::Fetched, args.content_type.as_deref())
            .await
        {
            Ok(loaded) => {
                run.printer.slots.push(Slot {
                    origin: Some(Origin::new(loaded, args.json)),
                    ..Slot::default()
                });
                run.stream(&fetcher, first, true).await
            }
            Err(e) => return Err(e),
        },
        None => run.stream(&fetcher, first, false).await,
    };
    run.progress.finish();
    let result = result.and_then(|()| Ok(run.printer.out.flush()?));
    // Bad input is reported in one line, the error alone.
    let bad_input = matches!(result, Err(Failure::Input(_)));
    if let (Some(origin), 1.., false) = (&run.robots_origin, run.elsewhere, bad_input) {
        // Asked for, so done; but a robots.txt governs its own origin only
        // (RFC 9309 section 2.3). Not `eprintln!`, which panics when
        // stderr is closed.
        let (count, are) = match run.elsewhere {
            1 => (String::from("1 of the URLs is"), "it"),
            n => (format!("{n} of the URLs are"), "them"),
        };
        let _ = writeln!(
            std::io::stderr(),
            "keepout: note: {count} not on {origin}, whose robots.txt is applied to {are} as asked but does not govern {are}"
        );
    }
    match result {
        Ok(()) => {}
        // `keepout check ... | head`: the reader has all it wants; the
        // status still tells of the verdicts reached.
        Err(Failure::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(e),
    }
    Ok(if run.printer.any_disallowed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One run of `check`: URLs read in order, each origin's robots.txt
/// fetched once (a bounded number at a time) as its first URL comes, and
/// the verdicts written in input order.
struct Run<'a, W: Write> {
    printer: Printer<'a, W>,
    urls: Urls,
    /// Each origin kept, by key: its slot in `printer.slots`.
    origins: HashMap<String, usize>,
    /// Slots let go, for reuse.
    free: Vec<usize>,
    /// `--keep-origins`.
    keep: usize,
    /// URLs read: the clock of `Slot::used`.
    read: u64,
    fetches: JoinSet<(usize, Result<Robots, keepout::Error>)>,
    /// `--concurrency`: fetches under way at once, at most.
    concurrency: usize,
    /// Origins (slots) whose fetch waits for one under way to end: only
    /// those are spawned, so a list of many sites holds a slot for each
    /// waiting site, not a fetch. (A slot queued is needed by the URL that
    /// opened it, so it is not let go, and its key stays.)
    queued: VecDeque<usize>,
    progress: Progress,
    robots_origin: Option<String>,
    /// URLs not on `robots_origin`.
    elsewhere: usize,
    /// Why reading stopped early: a bad URL.
    stopped: Option<Failure>,
}

impl<W: Write> Run<'_, W> {
    /// Reads, fetches and writes until every URL has its verdict, from
    /// `first` (read already) on. With `one_robots`, the rules of
    /// `--robots`, already loaded in slot 0, answer every URL. A bad URL on
    /// stdin stops the reading: the URLs before it get their verdicts,
    /// then the error is returned.
    async fn stream(
        &mut self,
        fetcher: &Fetcher,
        first: (String, Option<usize>),
        one_robots: bool,
    ) -> Result<(), Failure> {
        let mut reading = self.take(fetcher, Some(Ok(first)), one_robots);
        self.printer.write_ready()?;
        self.printer.out.flush()?;
        loop {
            let room = self.room();
            tokio::select! {
                // Fetches first: they free room and write verdicts.
                biased;
                Some(joined) = self.fetches.join_next() => {
                    let (i, result) = joined
                        .map_err(|e| Failure::Input(format!("robots.txt fetch failed: {e}")))?;
                    let robots = result.map_err(|e| Failure::Input(e.to_string()))?;
                    self.progress.inc();
                    let json = self.printer.json;
                    self.printer.slots[i].origin = Some(Origin::new(Loaded::fetched(robots), json));
                    self.start_fetches(fetcher);
                }
                next = self.urls.next(), if reading && room => {
                    reading = self.take(fetcher, next, one_robots);
                    // And what else is at hand, up to a batch: a long list
                    // is written a buffer at a time, a slow one line by line.
                    let mut batch = 1;
                    while reading && batch < BATCH && self.room() {
                        let Some(next) = self.urls.try_next() else {
                            break;
                        };
                        reading = self.take(fetcher, next, one_robots);
                        batch += 1;
                    }
                }
                else => break,
            }
            self.printer.write_ready()?;
            self.printer.out.flush()?;
        }
        self.stopped.take().map_or(Ok(()), Err)
    }

    /// Whether to read another URL: not while `READ_AHEAD` URLs (or
    /// `READ_AHEAD_BYTES` of them) wait, nor while `keep` origins are kept
    /// and all needed by URLs waiting (the next may be of a new origin; an
    /// origin no URL needs would be let go for it, in `open`).
    fn room(&mut self) -> bool {
        let printer = &mut self.printer;
        // Entries of origins needed again since are stale: drop them from
        // the front, so that a front entry is one that can be let go.
        while let Some(&(i, used)) = printer.idle.front() {
            if printer.slots[i].is_idle_since(used) {
                break;
            }
            printer.idle.pop_front();
        }
        printer.waiting.len() < READ_AHEAD
            && printer.waiting_bytes < READ_AHEAD_BYTES
            && (self.origins.len() < self.keep || !printer.idle.is_empty())
    }

    /// Takes what [`Urls`] gave: whether to read on (not at the end, nor
    /// at a bad URL, kept in `stopped`).
    fn take(&mut self, fetcher: &Fetcher, next: Next, one_robots: bool) -> bool {
        let taken = match next {
            None => return false,
            Some(next) => next.and_then(|(url, line)| self.add(fetcher, url, line, one_robots)),
        };
        taken.map_err(|e| self.stopped = Some(e)).is_ok()
    }

    /// Takes `url` (from stdin line `line`, if it came from there) to be
    /// checked, starting the fetch of its origin's robots.txt if it is the
    /// origin's first.
    fn add(
        &mut self,
        fetcher: &Fetcher,
        url: String,
        line: Option<usize>,
        one_robots: bool,
    ) -> Result<(), Failure> {
        let key = keepout::fetch::origin_key(&url).map_err(|e| bad_url(&e, line))?;
        if self.robots_origin.as_ref().is_some_and(|o| *o != key) {
            self.elsewhere += 1;
        }
        let origin = if one_robots {
            0
        } else if let Some(&origin) = self.origins.get(&key) {
            origin
        } else {
            self.open(fetcher, key)
        };
        self.read += 1;
        let slot = &mut self.printer.slots[origin];
        slot.waiting += 1;
        slot.used = self.read;
        // `origin_key` accepted it, so it parses.
        let target = url::Url::parse(&url).map_or_else(|_| url.clone(), String::from);
        let input = Input {
            url,
            target,
            origin,
        };
        self.printer.waiting_bytes += input.bytes();
        self.printer.waiting.push_back(input);
        Ok(())
    }

    /// A slot for origin `key`, seen for the first time (or again since it
    /// was let go), and the fetch of its robots.txt started.
    fn open(&mut self, fetcher: &Fetcher, key: String) -> usize {
        self.let_go(self.keep - 1);
        let slots = &mut self.printer.slots;
        let origin = self.free.pop().unwrap_or_else(|| {
            slots.push(Slot::default());
            slots.len() - 1
        });
        slots[origin].key.clone_from(&key);
        self.queued.push_back(origin);
        self.origins.insert(key, origin);
        self.progress.grow();
        self.start_fetches(fetcher);
        origin
    }

    /// Starts queued fetches while fewer than `concurrency` are under way.
    fn start_fetches(&mut self, fetcher: &Fetcher) {
        while self.fetches.len() < self.concurrency {
            let Some(origin) = self.queued.pop_front() else {
                break;
            };
            let fetch = fetcher.fetch(&self.printer.slots[origin].key);
            self.fetches.spawn(async move { (origin, fetch.await) });
        }
    }

    /// Lets go of the rules of the origins that no URL waiting to be
    /// written needs, in the order they came to be so (about the order of
    /// their last use), until `most` are kept or none such is left.
    fn let_go(&mut self, most: usize) {
        let slots = &mut self.printer.slots;
        while self.origins.len() > most {
            let Some((i, used)) = self.printer.idle.pop_front() else {
                break;
            };
            // Not if it has been needed again since (or let go already).
            if slots[i].is_idle_since(used) {
                let slot = std::mem::take(&mut slots[i]);
                self.origins.remove(&slot.key);
                self.free.push(i);
            }
        }
    }
}

/// A URL that can have no robots.txt, from stdin line `line` if it came
/// from there.
fn bad_url(e: &keepout::Error, line: Option<usize>) -> Failure {
    Failure::Input(match line {
        Some(n) => format!("stdin line {n}: {e}"),
        None => e.to_string(),
    })
}

/// An origin's place in a run.
#[derive(Default)]
struct Slot {
    /// Its rules: `None` while they are being fetched.
    origin: Option<Origin>,
    /// URLs read and not written yet that it answers.
    waiting: usize,
    /// When a URL of it was last read (counted in URLs read).
    used: u64,
    /// Its key in `Run::origins` (none for the rules of `--robots`).
    key: String,
}

impl Slot {
    /// Whether no URL has needed it since it was last used at `used`, its
    /// rules loaded.
    fn is_idle_since(&self, used: u64) -> bool {
        self.used == used && self.waiting == 0 && self.origin.is_some()
    }
}

/// An origin's rules once loaded, with their JSON description.
struct Origin {
    loaded: Loaded,
    json: Option<RobotsJson>,
    /// Whether its summary line is written (before its first URL).
    announced: bool,
}

impl Origin {
    fn new(loaded: Loaded, json: bool) -> Origin {
        Origin {
            json: json.then(|| RobotsJson::new(&loaded)),
            loaded,
            announced: false,
        }
    }
}

/// Writes the verdicts in input order, each as soon as its origin's
/// robots.txt (and every earlier URL's) is loaded, so a long batch streams.
struct Printer<'a, W: Write> {
    out: W,
    agent: &'a str,
    /// The product token the groups are chosen by (`Robots::agent_token`).
    token: &'a str,
    json: bool,
    /// The URLs read and not written yet, in input order.
    waiting: VecDeque<Input>,
    /// Their octets (`Input::bytes`).
    waiting_bytes: usize,
    /// The origins, by slot (`Input::origin`).
    slots: Vec<Slot>,
    /// Origins that no URL waiting needs any more (slot, `Slot::used` then),
    /// oldest first; some may have been needed again since.
    idle: VecDeque<(usize, u64)>,
    any_disallowed: bool,
}

impl<W: Write> Printer<'_, W> {
    /// Writes every waiting URL whose origin and predecessors are loaded
    /// (into the buffer: the caller flushes).
    fn write_ready(&mut self) -> Result<(), Failure> {
        while let Some(input) = self.waiting.front() {
            let Some(origin) = &mut self.slots[input.origin].origin else {
                break;
            };
            let decision = origin.loaded.robots.explain(self.agent, &input.target);
            self.any_disallowed |= !decision.allowed();
            match &origin.json {
                Some(robots) => {
                    let line = CheckJson {
                        url: &input.url,
                        path: Robots::normalized_path(&input.target),
                        allowed: decision.allowed(),
                        cause: cause_name(decision.cause()),
                        agent: self.agent,
                        product_token: self.token,
                        agent_match: match decision.agent_match() {
                            keepout::AgentMatch::Named => "named",
                            keepout::AgentMatch::Star => "star",
                            keepout::AgentMatch::None => "none",
                        },
                        rule: decision.rule().map(RuleJson::new),
                        groups: decision
                            .groups()
                            .take(JSON_GROUPS)
                            .map(GroupRefJson::new)
                            .collect(),
                        groups_total: decision.groups().len(),
                        robots,
                    };
                    serde_json::to_writer(&mut self.out, &line).map_err(std::io::Error::from)?;
                    writeln!(self.out)?;
                }
                None => {
                    if !origin.announced {
                        origin.announced = true;
                        writeln!(self.out, "{}", source_summary(&origin.loaded))?;
                    }
                    let verdict = if decision.allowed() {
                        "ALLOWED"
                    } else {
                        "DISALLOWED"
                    };
                    let why = why(&decision, self.token);
                    // The path matched, when it is not the one written: a
                    // rule that seems not to apply usually differs from
                    // the URL by a dot segment or a percent-encoding.
                    let path = Robots::normalized_path(&input.target);
                    let written = written_path(&input.url);
                    let checked_as = if path == written {
                        String::new()
                    } else {
                        format!("  (as {})", clean(&path))
                    };
                    writeln!(
                        self.out,
                        "{verdict:<10} {}{checked_as}  {}",
                        clean(&input.url),
                        clean(&why)
                    )?;
                }
            }
            let slot = &mut self.slots[input.origin];
            slot.waiting -= 1;
            // (The rules of `--robots`, keyless, are never let go.)
            if slot.waiting == 0 && !slot.key.is_empty() {
                self.idle.push_back((input.origin, slot.used));
                if self.idle.len() > 2 * self.slots.len() + 64 {
                    // An origin needed again leaves its entry stale: keep
                    // the entries of those still idle (one each at most).
                    let slots = &self.slots;
                    self.idle.retain(|&(i, used)| slots[i].is_idle_since(used));
                }
            }
            if let Some(input) = self.waiting.pop_front() {
                self.waiting_bytes -= input.bytes();
            }
        }
        Ok(())
    }
}

/// One `check --json` line.
#[derive(Serialize)]
struct CheckJson<'a> {
    url: &'a str,
    /// The path and query the rules were matched against, in normal form.
    path: std::borrow::Cow<'a, str>,
    allowed: bool,
    cause: &'static str,
    agent: &'a str,
    product_token: &'a str,
    agent_match: &'static str,
    rule: Option<RuleJson<'a>>,
    /// The first [`JSON_GROUPS`] groups that applied.
    groups: Vec<GroupRefJson<'a>>,
    groups_total: usize,
    robots: &'a RobotsJson,
}

/// The path and query of `url`, an absolute URL, as written: from the
/// end of its authority to its fragment, `/` when it has no path (as a
/// client requests it). Compared with the path checked, so that a path
/// checked as written is not shown twice.
fn written_path(url: &str) -> std::borrow::Cow<'_, str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest
        .find(['/', '?', '#', '\\'])
        .map_or("", |at| &rest[at..]);
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    if rest.starts_with('/') {
        rest.into()
    } else {
        format!("/{rest}").into()
    }
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

/// The reason after the verdict in text output; `token` is the crawler's
/// product token.
fn why(d: &Decision<'_>, token: &str) -> String {
    match d.cause() {
        Cause::Rule => match d.rule() {
            // A group's Display names its first eight user-agent values
            // and counts the rest: a file can give one group thousands, and
            // this is one line a URL.
            Some(rule) => format!("line {}: {rule}  ({})", rule.line(), rule.group()),
            None => d.to_string(),
        },
        Cause::NoMatchingRule => {
            // A file can merge thousands of groups: the first few name them
            // well enough on a line (JSON lists the first `JSON_GROUPS`).
            const SHOWN: usize = 4;
            let mut groups: Vec<String> = d.groups().take(SHOWN).map(|g| g.to_string()).collect();
            match d.groups().len().saturating_sub(SHOWN) {
                0 => {}
                1 => groups.push(String::from("and 1 more group")),
                more => groups.push(format!("and {more} more groups")),
            }
            if d.star_rules_skipped() {
                groups.push(format!(
                    "the '*' group's rules do not apply: a group names {token}"
                ));
            }
            format!("no rule matches  ({})", groups.join("; "))
        }
        // Named: an agent given as a whole header is read by one token of
        // it, and which one is what a reader needs to see here.
        Cause::NoGroup if token.is_empty() => String::from("no '*' group"),
        Cause::NoGroup => format!("no group for {token} and no '*' group"),
        Cause::RobotsTxt => String::from("/robots.txt is always allowed"),
        Cause::Unavailable => String::from("robots.txt unavailable, everything allowed"),
        Cause::Unreachable => String::from("robots.txt unreachable, everything disallowed"),
        _ => d.to_string(),
    }
}

/// What to say of an `--agent` that is more than a product token: the
/// token that user-agent lines are matched against, which is not always
/// its first word (`Mozilla/5.0 (compatible; ExampleBot/2.1)` is
/// ExampleBot, `Mozilla/5.0 (X11; Linux)` is Mozilla) and stops at the
/// first character a token cannot hold (`Example.Bot` is Example). Nothing
/// for a token alone or with its version (`ExampleBot/2.1`).
fn agent_note(given: &str) -> Option<String> {
    let agent = trim_agent(given);
    let token = Robots::agent_token(agent);
    let version = |rest: &str| {
        rest.strip_prefix('/')
            .is_some_and(|v| !v.contains(|c: char| c.is_whitespace() || c == '('))
    };
    let plain = agent
        .strip_prefix(token)
        .is_some_and(|rest| rest.is_empty() || version(rest));
    (!token.is_empty() && !plain)
        .then(|| format!("--agent is matched against user-agent lines as {token}"))
}

/// An `--agent` as the library reads it: without C0 controls and spaces
/// at either end, where other white space (a no-break space pasted from a
/// page) is kept, and names no crawler.
fn trim_agent(given: &str) -> &str {
    given.trim_matches(|c: char| c <= ' ')
}

/// Refuses an agent no robots.txt group can name.
fn check_agent(given: &str) -> Result<(), Failure> {
    let agent = trim_agent(given);
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
