//! `keepout show`: what a robots.txt says, how it was fetched, and what is
//! wrong with it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use keepout::RuleKind;
use keepout::fetch::MIN_BODY_LIMIT;
use serde::Serialize;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::output::{
    FetchJson, RateJson, RuleJson, clean, fetch_summary, group_label, rfc3339, seconds, until,
    warning_name,
};
use crate::source::{Extent, Loaded, Source};
use crate::{Failure, FetchArgs};

pub const AFTER_HELP: &str = "\
A URL (http:// or https://) fetches the robots.txt of its origin, whatever its
path (another scheme, file:// included, is refused); `-` reads stdin; anything
else is read as a local file (whole: lines past 500 KiB are shown, and flagged;
a file over 64 MiB is refused). A fetch goes through the proxy HTTP_PROXY,
HTTPS_PROXY or ALL_PROXY names, except to hosts NO_PROXY lists. Certificates
are checked against the system's authorities, or on Linux those
SSL_CERT_FILE or SSL_CERT_DIR name, when set.

Warnings cover misspelled keys that were accepted, unknown keys, rules outside
groups, patterns starting with neither '/' nor a wildcard (full URLs among
them), patterns holding a space (read as %20, where Google's parser keeps
it), user-agent lines that join the group above (after a crawl-delay or
request-rate line), empty user-agent lines that end a group, crawlers named
in more than one group (whose rules are merged, when the groups differ),
values holding a key such as 'Disallow:' (a missing line break), rules
shadowed by another rule of their group (they never decide), a last group
with no rules (a crawler only it names skips the '*' group's), values
holding U+00A0 or another space or invisible character no parser trims
(shown escaped, as '\\u{a0}'), sitemaps that are neither URLs nor paths (or
hold a space), or are paths rather than full URLs, lines over the line
limit, files over the 500 KiB a crawler must read (RFC 9309 section 2.5),
and HTML pages (once, not a warning a line).

Exit status: 0, or 2 on bad input (unreadable file, invalid URL) or a fetch
this machine could not make (out of file descriptors, local ports or memory).";

/// Arguments of `keepout show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// One JSON object per robots.txt, one per line (JSON Lines).
    #[arg(long)]
    json: bool,

    /// List each group's rules (line, kind, pattern as written), not only
    /// how many there are.
    #[arg(long)]
    rules: bool,

    /// Read the files and stdin as a server sending this Content-Type would
    /// have them read: `--content-type 'text/plain; charset=iso-8859-1'`
    /// for a saved copy of a Latin-1 file. (A fetched robots.txt is read in
    /// the charset its server names: with no file or stdin among the
    /// sources, the option is refused, as is a value naming no charset
    /// keepout reads.)
    #[arg(long, value_name = "VALUE", value_parser = crate::source::content_type)]
    content_type: Option<String>,

    #[command(flatten)]
    fetch: FetchArgs,

    /// robots.txt files (`-` for stdin), or http(s) URLs whose origin's
    /// robots.txt is fetched.
    #[arg(required = true, value_name = "FILE|URL")]
    sources: Vec<std::ffi::OsString>,
}

pub async fn run(args: Args) -> Result<ExitCode, Failure> {
    let sources = args
        .sources
        .iter()
        .map(|s| Source::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    if sources
        .iter()
        .filter(|s| matches!(s, Source::Stdin))
        .count()
        > 1
    {
        return Err(Failure::Input(String::from(
            "stdin (-) can be read only once",
        )));
    }
    if args.content_type.is_some() && sources.iter().all(|s| matches!(s, Source::Url(_))) {
        return Err(Failure::Input(String::from(
            crate::source::CONTENT_TYPE_UNUSED,
        )));
    }
    let fetcher = args.fetch.fetcher()?;
    // Up to `--concurrency` at once; shown in the order given.
    let permits = Arc::new(Semaphore::new(args.fetch.concurrency.into()));
    // The local sources not yet read. A fetch fails only on a bad URL,
    // which `Source::parse` turned away, or for want of this machine's
    // resources (then a bad file after it may be reported first).
    let mut unread: BTreeSet<usize> = (sources.iter().enumerate())
        .filter(|(_, s)| !matches!(s, Source::Url(_)))
        .map(|(i, _)| i)
        .collect();
    let mut tasks = JoinSet::new();
    for (i, source) in sources.into_iter().enumerate() {
        let (fetcher, permits) = (fetcher.clone(), Arc::clone(&permits));
        let content_type = args.content_type.clone();
        tasks.spawn(async move {
            let _permit = permits.acquire_owned().await;
            let loaded = source.load(&fetcher, Extent::Whole, content_type.as_deref());
            (i, loaded.await)
        });
    }
    let mut slots: Vec<Option<Result<Loaded, Failure>>> = (0..tasks.len()).map(|_| None).collect();
    let mut first_bad = None;
    while let Some(joined) = tasks.join_next().await {
        let (i, result) =
            joined.map_err(|e| Failure::Input(format!("robots.txt fetch failed: {e}")))?;
        unread.remove(&i);
        if result.is_err() {
            first_bad = Some(first_bad.map_or(i, |bad: usize| bad.min(i)));
        }
        slots[i] = Some(result);
        // The first bad source as given is the one reported, as soon as
        // no file before it is left to read: not after the fetches still
        // under way (dropping `tasks` ends them).
        if let Some(bad) = first_bad
            && unread.range(..bad).next().is_none()
            && let Some(Err(e)) = slots[bad].take()
        {
            return Err(e);
        }
    }
    let loaded = slots
        .into_iter()
        .flatten()
        .collect::<Result<Vec<Loaded>, _>>()?;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (i, l) in loaded.iter().enumerate() {
        if args.json {
            serde_json::to_writer(&mut out, &ShowJson::new(l, args.rules))
                .map_err(std::io::Error::from)?;
            writeln!(out)?;
        } else {
            if i > 0 {
                writeln!(out)?;
            }
            text(&mut out, l, args.rules)?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A lint warning: the parser's, or one found here.
struct Lint {
    line: Option<u32>,
    kind: &'static str,
    message: String,
}

/// Every warning, in line order (whole-file ones last).
fn lints(l: &Loaded) -> Vec<Lint> {
    let robots = &l.robots;
    // Patterns that are full URLs, by line, to say so where the parser
    // says only that they are not rooted.
    let urls: HashMap<u32, (RuleKind, String)> = robots
        .groups()
        .flat_map(|g| g.rules())
        .filter_map(|r| Some((r.line(), (r.kind(), url_path(r.pattern())?))))
        .collect();
    let mut lints: Vec<Lint> = robots
        .warnings()
        .iter()
        .map(|w| Lint {
            line: Some(w.line),
            kind: warning_name(&w.kind),
            message: match (&w.kind, urls.get(&w.line)) {
                (keepout::WarningKind::PatternNotRooted, Some((kind, path))) => format!(
                    "pattern is a full URL, but a rule matches paths only, so it matches none: write '{kind}: {}'",
                    clean(path)
                ),
                _ => w.kind.to_string(),
            },
        })
        .collect();
    lints.extend(robots.shadowed_rules().iter().map(|s| Lint {
        line: Some(s.line()),
        kind: "shadowed_rule",
        message: s.to_string(),
    }));
    lints.extend(named_again(robots));
    lints.extend(run_together(robots));
    lints.extend(spaces_in_patterns(robots));
    lints.extend(relative_sitemaps(robots));
    if let Some(line) = l.file.as_ref().and_then(|f| f.cap_line) {
        let len = l.file.as_ref().map_or(0, |f| f.len);
        lints.push(Lint {
            line: Some(line),
            kind: "file_too_large",
            message: format!(
                "file is {len} bytes; crawlers need read only the first {MIN_BODY_LIMIT} (500 KiB, RFC 9309 section 2.5), so this line and the rest may be ignored (keepout's fetcher ignores them)"
            ),
        });
    }
    if let Some(o) = robots.fetch_outcome().filter(|o| o.truncated_at_cap()) {
        lints.push(Lint {
            line: None,
            kind: "file_too_large",
            message: format!(
                "body longer than the fetch limit; only the complete lines in the first {} bytes were read (RFC 9309 section 2.5)",
                o.body_bytes()
            ),
        });
    }
    if let Some(html) = html_page(robots) {
        // One warning for the page, not one for each of its lines.
        let before = lints.len();
        lints.retain(|w| !matches!(w.kind, "unknown_key" | "unparsable" | "missing_colon"));
        lints.push(Lint {
            line: None,
            kind: "html_page",
            message: format!(
                "an HTML page, not a robots.txt (line {} begins '{}'): it has no rules, so crawlers take everything as allowed; {} about its lines left out",
                html.line,
                clean(&match html.key.char_indices().nth(40) {
                    Some((cut, _)) => format!("{}…", &html.key[..cut]),
                    None => html.key.to_string(),
                }),
                match before - lints.len() {
                    1 => String::from("1 warning"),
                    n => format!("{n} warnings"),
                }
            ),
        });
    }
    lints.sort_by_key(|w| w.line.unwrap_or(u32::MAX));
    lints
}

/// The first record of a body that is an HTML page (a server's error or
/// home page sent for /robots.txt with a 2xx status): no group, no
/// sitemap, and a record whose key is a tag (`<html lang="en">` holds no
/// colon, but `<meta content="x:y">` is read as key `<meta content="x`).
fn html_page(robots: &keepout::Robots) -> Option<&keepout::Record> {
    if robots.groups().len() > 0 || robots.sitemaps().len() > 0 {
        return None;
    }
    robots.records().iter().find(|r| {
        r.key
            .strip_prefix('<')
            .is_some_and(|tag| tag.starts_with(|c: char| c.is_ascii_alphabetic() || c == '!'))
    })
}

/// Groups naming a crawler an earlier group names too, one lint each at
/// the later group's line. Legal, and common (a tenth of the corpus's
/// files, mostly blocklists pasted twice), but easy to miss: such a crawler
/// obeys the rules of all those groups merged (RFC 9309 section 2.2.1),
/// where an author may expect the first or the last to win. Left out when
/// the merge changes nothing: the later group has the same rules, crawl
/// delay and request rate as the first group naming the crawler (nine in
/// ten such groups in the corpus, blocklists of `Disallow: /`).
fn named_again(robots: &keepout::Robots) -> Vec<Lint> {
    let groups: Vec<_> = robots.groups().collect();
    // What each group says, as an id shared by the groups that say the
    // same, found when the group is first compared, and only then (most
    // groups never are): once a group, so that comparing two groups is
    // comparing two numbers, however many rules they hold. A group naming
    // thousands of crawlers, each named first by a group of its own, is
    // compared with each of those groups; comparing their rules each time
    // made such a file take time super-linear in its size.
    let mut class: Vec<Option<usize>> = vec![None; groups.len()];
    let mut classes: HashMap<Says, usize> = HashMap::new();
    // Lower-cased token -> index of the first group naming it.
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut lints = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        // The tokens named before by a group that says something else
        // (once each, as first written here), and those groups' lines:
        // sets, as a group can name thousands.
        let mut again: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut earlier: BTreeSet<u32> = BTreeSet::new();
        for (written, token) in g.agents().zip(g.product_tokens()) {
            if token.is_empty() {
                continue;
            }
            let key = token.to_ascii_lowercase();
            match first.get(&key) {
                Some(&j) if j != i => {
                    let [ci, cj] = [i, j].map(|k| {
                        *class[k].get_or_insert_with(|| {
                            let next = classes.len();
                            *classes.entry(Says::of(&groups[k])).or_insert(next)
                        })
                    });
                    if ci != cj && seen.insert(key) {
                        earlier.insert(groups[j].line());
                        again.push(token_as_read(written, token));
                    }
                }
                Some(_) => {}
                None => {
                    first.insert(key, i);
                }
            }
        }
        if again.is_empty() {
            continue;
        }
        let by = match earlier.len() {
            1 => "the group at line",
            _ => "the groups at lines",
        };
        lints.push(Lint {
            line: Some(g.line()),
            kind: "named_again",
            message: format!(
                "{} also named by {by} {}: a crawler named in several groups obeys all their rules merged (RFC 9309 section 2.2.1)",
                first_few(again.iter()),
                first_few(earlier.iter())
            ),
        });
    }
    lints
}

/// What a group tells its crawlers: its rules as matched (a set, as merging
/// takes their union), crawl delay and request rate.
#[derive(PartialEq, Eq)]
struct Says {
    rules: BTreeSet<(bool, String)>,
    crawl_delay: Option<std::time::Duration>,
    request_rate: Option<keepout::RequestRate>,
}

/// By hand, as `RequestRate` has no `Hash`: its parts are hashed instead
/// (all integers; a field it gains is compared by `Eq` still, so equal
/// values keep equal hashes).
impl std::hash::Hash for Says {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.rules.hash(state);
        self.crawl_delay.hash(state);
        self.request_rate
            .map(|r| (r.requests, r.per, r.window))
            .hash(state);
    }
}

impl Says {
    /// What `g` says (its rules' patterns normalized, as they are matched).
    fn of(g: &keepout::GroupView<'_>) -> Says {
        Says {
            rules: g
                .rules()
                .map(|r| (r.kind() == RuleKind::Allow, r.normalized().to_owned()))
                .collect(),
            crawl_delay: g.crawl_delay(),
            request_rate: g.request_rate(),
        }
    }
}

/// `token`, and the value it was read from when that goes on past it with
/// neither a version (`/`) nor a comment: `Y (read from 'Y!J-MBS/1.0')`,
/// since two such values name the same crawler.
fn token_as_read(written: &str, token: &str) -> String {
    match written
        .get(token.len()..)
        .and_then(|rest| rest.chars().next())
    {
        Some(c) if c != '/' && !c.is_whitespace() && token != "*" => {
            format!("{token} (read from '{}')", clean(written))
        }
        _ => token.to_owned(),
    }
}

/// Values that hold a key and its colon (`User-agent: * Disallow: /`,
/// `Disallow: /User-agent: X`), most likely two lines run together: the
/// second directive is read as part of the first one's value, so a rule
/// or a group goes missing without a word.
fn run_together(robots: &keepout::Robots) -> Vec<Lint> {
    let mut lints = Vec::new();
    for g in robots.groups() {
        for agent in g.agents() {
            if let Some(key) = key_inside(agent) {
                lints.push(Lint {
                    line: Some(g.line()),
                    kind: "run_together",
                    message: format!(
                        "user-agent value '{}' (in the group at this line) holds '{key}:': a missing line break? It is read as one user-agent value",
                        clean(agent)
                    ),
                });
            }
        }
        for rule in g.rules() {
            if let Some(key) = key_inside(rule.pattern()) {
                lints.push(Lint {
                    line: Some(rule.line()),
                    kind: "run_together",
                    message: format!(
                        "pattern '{}' holds '{key}:': a missing line break? It is read as one pattern",
                        clean(rule.pattern())
                    ),
                });
            }
        }
    }
    lints
}

/// The path (and query) of a pattern written as an absolute http(s) URL
/// (`https://example.com/private` gives `/private`), which as a pattern
/// matches nothing.
fn url_path(pattern: &str) -> Option<String> {
    let scheme = pattern.split_once("://")?.0;
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return None;
    }
    let url = url::Url::parse(pattern).ok()?;
    Some(match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    })
}

/// Patterns holding a space or tab inside (the ends are trimmed): a path
/// with a space (`/Arts and Crafts`), or two paths on one line
/// (`Disallow: /a /b`). keepout reads one pattern, the space
/// percent-encoded (RFC 9309 section 2.2.2), as a crawler sends it; Google's
/// parser keeps the space, which no URL's path holds, so the rule matches
/// nothing there.
fn spaces_in_patterns(robots: &keepout::Robots) -> Vec<Lint> {
    robots
        .groups()
        .flat_map(|g| g.rules())
        // A key inside is `run_together`'s, which says more.
        .filter(|r| r.pattern().contains([' ', '\t']) && key_inside(r.pattern()).is_none())
        .map(|r| {
            let pattern = r.pattern();
            let two = pattern
                .split([' ', '\t'])
                .skip(1)
                .any(|word| word.starts_with(['/', '*']));
            Lint {
                line: Some(r.line()),
                kind: "space_in_pattern",
                message: format!(
                    "pattern '{}' holds a space: keepout reads it as '{}' (RFC 9309 section 2.2.2), but Google's parser keeps the space, and matches no URL with it; write %20 for a space{}",
                    clean(pattern),
                    clean(r.normalized()),
                    if two {
                        ", or put each path on a line of its own"
                    } else {
                        ""
                    }
                ),
            }
        })
        .collect()
}

/// Sitemap values that are paths (`/sitemap.xml`): keepout resolves them
/// against the robots.txt URL, but the Sitemaps protocol asks for full
/// URLs, and other crawlers may skip them.
fn relative_sitemaps(robots: &keepout::Robots) -> Vec<Lint> {
    robots
        .sitemaps()
        .filter(|s| s.starts_with('/') && !s.contains([' ', '\t']))
        .map(|s| Lint {
            line: None,
            kind: "sitemap_not_absolute",
            message: format!(
                "sitemap '{}' is {}: keepout resolves it against the robots.txt URL, but the Sitemaps protocol asks for a full URL (https://...), and other crawlers may skip it",
                clean(s),
                // `//host/path`: scheme-relative.
                if s.starts_with("//") { "a URL without a scheme" } else { "a path" }
            ),
        })
        .collect()
}

/// The key (as usually written) that `value` holds with its colon, case
/// aside: anywhere (`/clsHTTPDisallow: /`), but `Allow` only at the start
/// or after a space, tab or `/`, as words end in "allow".
fn key_inside(value: &str) -> Option<&'static str> {
    const KEYS: [&str; 5] = ["User-agent", "Disallow", "Crawl-delay", "Sitemap", "Allow"];
    let bytes = value.as_bytes();
    for (colon, _) in value.match_indices(':') {
        for key in KEYS {
            let Some(start) = colon.checked_sub(key.len()) else {
                continue;
            };
            let at_boundary =
                key != "Allow" || start == 0 || matches!(bytes[start - 1], b' ' | b'\t' | b'/');
            if at_boundary && bytes[start..colon].eq_ignore_ascii_case(key.as_bytes()) {
                return Some(key);
            }
        }
    }
    None
}

/// `a, b, c, d and 3 more`: the first four items, and how many others.
fn first_few<T: std::fmt::Display>(items: impl ExactSizeIterator<Item = T>) -> String {
    const SHOWN: usize = 4;
    let more = items.len().saturating_sub(SHOWN);
    let mut text = items
        .take(SHOWN)
        .map(|item| item.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        text.push_str(&format!(" and {more} more"));
    }
    text
}

fn text(out: &mut impl Write, l: &Loaded, rules: bool) -> std::io::Result<()> {
    let robots = &l.robots;
    match (&l.file, robots.fetch_outcome()) {
        (Some(file), _) => writeln!(
            out,
            "{}: {}, {}",
            clean(&file.path),
            file.kind(),
            file.size()
        )?,
        (None, Some(o)) => {
            writeln!(out, "{}", fetch_summary(o))?;
            writeln!(
                out,
                "  fetched {}, expires {} ({})",
                rfc3339(o.fetched_at()),
                rfc3339(o.expires_at()),
                until(o.expires_at())
            )?;
            if let Some(etag) = o.etag() {
                writeln!(out, "  etag {}", clean(etag))?;
            }
            if let Some(modified) = o.last_modified() {
                writeln!(out, "  last-modified {}", clean(modified))?;
            }
        }
        (None, None) => {}
    }

    writeln!(out, "groups: {}", robots.groups().len())?;
    let (mut delays, mut rates) = (HashMap::new(), HashMap::new());
    for g in robots.groups() {
        writeln!(out, "  {}", group_label(g))?;
        let allow = g.rules().filter(|r| r.kind() == RuleKind::Allow).count();
        let total = g.rules().len();
        let mut details = format!(
            "{total} {} ({allow} allow, {} disallow)",
            if total == 1 { "rule" } else { "rules" },
            total - allow
        );
        if let Some(d) = g.crawl_delay() {
            let each = per_agent(
                g,
                d,
                &mut delays,
                |a| robots.crawl_delay(a),
                |d| seconds(*d),
            );
            details.push_str(&format!(", crawl-delay {each}"));
        }
        if let Some(r) = g.request_rate() {
            let each = per_agent(
                g,
                r,
                &mut rates,
                |a| robots.request_rate(a),
                |r| r.to_string(),
            );
            details.push_str(&format!(", request-rate {each}"));
        }
        writeln!(out, "    {details}")?;
        if rules {
            for r in g.rules() {
                writeln!(out, "      line {}: {}", r.line(), clean(&r.to_string()))?;
            }
        }
    }
    writeln!(out, "sitemaps: {}", robots.sitemaps().len())?;
    for s in robots.sitemaps() {
        writeln!(out, "  {}", clean(s))?;
    }
    if let Some(host) = robots.host() {
        writeln!(out, "host: {}", clean(host))?;
    }
    if !robots.records().is_empty() {
        writeln!(out, "other records: {}", robots.records().len())?;
        for r in robots.records() {
            writeln!(
                out,
                "  line {}: {}: {}",
                r.line,
                clean(&r.key),
                clean(&r.value)
            )?;
        }
    }
    let lints = lints(l);
    writeln!(out, "warnings: {}", lints.len())?;
    for w in &lints {
        match w.line {
            Some(line) => writeln!(out, "  line {line}: {}", clean(&w.message))?,
            None => writeln!(out, "  {}", clean(&w.message))?,
        }
    }
    Ok(())
}

/// A group's extension value (its first, `first`, as in JSON) as text; where
/// a crawler it names uses another (`Robots::crawl_delay`: user-agent lines
/// split by extension lines, or an earlier group of the crawler's), each
/// crawler's: `2s (in effect: 2s for usasearch, 10s for *)`. A line's
/// crawlers are those of the product token it names
/// (`GroupView::product_tokens`: `Mozilla/5.0 (compatible; bot)` in a file
/// names `Mozilla`, where a crawler sending that header is `bot`), asked
/// once a token (`known`, lower-cased): a crawler in thousands of groups,
/// under one name or many (`bot/1`, `bot/2`, ...), is read once, not once
/// a group.
fn per_agent<T: PartialEq + Clone>(
    group: keepout::GroupView<'_>,
    first: T,
    known: &mut HashMap<String, Option<T>>,
    value: impl Fn(&str) -> Option<T>,
    show: impl Fn(&T) -> String,
) -> String {
    // One entry a crawler: a group that names it twice (`a`, `A`, `a/2`)
    // lists it once, under its first name.
    let mut seen = HashSet::new();
    let each: Vec<(&str, Option<T>)> = group
        .agents()
        .zip(group.product_tokens())
        .filter_map(|(name, token)| {
            // A value that starts with no token (`*bot`) names no crawler:
            // no value is in effect through it.
            if token.is_empty() {
                return None;
            }
            let key = token.to_ascii_lowercase();
            if !seen.insert(key.clone()) {
                return None;
            }
            let v = known.entry(key).or_insert_with(|| value(token));
            Some((name, v.clone()))
        })
        .collect();
    if each.iter().all(|(_, v)| v.as_ref() == Some(&first)) {
        return show(&first);
    }
    let each = each
        .iter()
        .map(|(name, v)| {
            let v = v.as_ref().map_or_else(|| String::from("none"), &show);
            format!("{v} for {}", clean(name))
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!("{} (in effect: {each})", show(&first))
}

/// One `show --json` line.
#[derive(Serialize)]
struct ShowJson<'a> {
    source: String,
    fetch: Option<FetchJson>,
    body_bytes: usize,
    groups: Vec<GroupJson<'a>>,
    sitemaps: Vec<&'a str>,
    host: Option<&'a str>,
    warnings: Vec<WarningJson>,
    records: Vec<RecordJson<'a>>,
}

#[derive(Serialize)]
struct GroupJson<'a> {
    line: u32,
    agents: Vec<&'a str>,
    rules: usize,
    allow: usize,
    disallow: usize,
    crawl_delay_secs: Option<f64>,
    request_rate: Option<RateJson>,
    /// With `--rules` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_list: Option<Vec<RuleJson<'a>>>,
}

#[derive(Serialize)]
struct WarningJson {
    line: Option<u32>,
    kind: &'static str,
    message: String,
}

#[derive(Serialize)]
struct RecordJson<'a> {
    line: u32,
    key: &'a str,
    value: &'a str,
}

impl<'a> ShowJson<'a> {
    fn new(l: &'a Loaded, rules: bool) -> ShowJson<'a> {
        let robots = &l.robots;
        ShowJson {
            source: l.source(),
            fetch: robots.fetch_outcome().map(FetchJson::new),
            body_bytes: robots.body_len(),
            groups: robots
                .groups()
                .map(|g| {
                    let allow = g.rules().filter(|r| r.kind() == RuleKind::Allow).count();
                    GroupJson {
                        line: g.line(),
                        agents: g.agents().collect(),
                        rules: g.rules().len(),
                        allow,
                        disallow: g.rules().len() - allow,
                        crawl_delay_secs: g.crawl_delay().map(|d| d.as_secs_f64()),
                        request_rate: g.request_rate().map(RateJson::new),
                        rule_list: rules.then(|| g.rules().map(RuleJson::new).collect()),
                    }
                })
                .collect(),
            sitemaps: robots.sitemaps().collect(),
            host: robots.host(),
            warnings: lints(l)
                .into_iter()
                .map(|w| WarningJson {
                    line: w.line,
                    kind: w.kind,
                    message: w.message,
                })
                .collect(),
            records: robots
                .records()
                .iter()
                .map(|r| RecordJson {
                    line: r.line,
                    key: &r.key,
                    value: &r.value,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    /// Lines whose product tokens are equal, case aside, get one answer
    /// from the library, whatever else they differ in, so `show` asks
    /// once a token; and that answer is the one for the crawlers the line
    /// names (here each token's own group's value).
    #[test]
    fn lines_with_one_token_get_one_answer() {
        let names = [
            "bot",
            "Bot/1.0",
            "BOT (+https://x)",
            "bot.x",
            "bot_x",
            "bot-x",
            "bot_x/3",
            "botx",
            "Mozilla/5.0 (compatible; bot/1)",
            "mozilla/5.0 (compatible; other/2)",
            "Mozilla",
            "*",
            "*bot",
            "other",
            "1bot",
            "-bot",
        ];
        // Each line in a group of its own with a distinct crawl-delay, so
        // that two tokens with different groups get different answers.
        let body: String = names
            .iter()
            .enumerate()
            .map(|(i, n)| format!("User-agent: {n}\nCrawl-delay: {}\n\n", i + 1))
            .collect();
        let robots = keepout::Robots::parse(&body);
        let lines: Vec<(String, Option<std::time::Duration>, u32)> = robots
            .groups()
            .map(|g| {
                let token = g.product_tokens().next().expect("one line");
                (
                    token.to_ascii_lowercase(),
                    robots.crawl_delay(token),
                    g.line(),
                )
            })
            .collect();
        for (key, delay, line) in &lines {
            for (other_key, other_delay, _) in &lines {
                if key == other_key {
                    assert_eq!(delay, other_delay, "{key:?}");
                }
            }
            // A token's answer is the first of its groups' (an empty token,
            // naming no crawler, is asked as the `*` crawlers).
            let first = lines
                .iter()
                .find(|(k, ..)| k == key || (key.is_empty() && k == "*"));
            let first_line = first.map(|(_, _, l)| *l).unwrap_or(*line);
            let secs = (first_line as u64 - 1) / 3 + 1;
            assert_eq!(
                *delay,
                Some(std::time::Duration::from_secs(secs)),
                "{key:?}"
            );
        }
    }
}
