//! Helpers shared by the fuzz targets: splitting an input into a robots.txt
//! body, crawler names and URLs, and the invariants every parse must keep.
#![allow(dead_code)]

use keepout::{AgentMatch, Cause, Decision, Robots, RuleKind, limits::MAX_LINE_LEN};

/// Separates the body, the crawler name and the URLs in an input
/// (ASCII "unit separator": rare in real robots.txt files, so a corpus file
/// is read whole as a body).
pub const SEP: u8 = 0x1F;

/// An input split into what the API is asked.
pub struct Input<'a> {
    pub body: &'a [u8],
    pub agents: Vec<String>,
    pub urls: Vec<String>,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `body SEP agent SEP url SEP url ...`; without a separator the whole input
/// is the body and the names and URLs come from [`probes`].
pub fn split(data: &[u8]) -> Input<'_> {
    let mut parts = data.split(|&b| b == SEP);
    let body = parts.next().unwrap_or_default();
    let agents = parts.next().map(lossy).into_iter().collect();
    let urls = parts.take(8).map(lossy).collect();
    Input { body, agents, urls }
}

/// Crawler names and URLs worth asking about `robots`: the fixed ones, the
/// file's own agents, and URLs made from the file's own patterns (so that
/// rules match and decide).
pub fn probes(robots: &Robots, input: &Input<'_>) -> (Vec<String>, Vec<String>) {
    let mut agents = input.agents.clone();
    if let Some(g) = robots.groups().next() {
        agents.extend(g.agents().take(1).map(String::from));
    }
    agents.extend(["Googlebot/2.1 (+http://www.google.com/bot.html)", "*"].map(String::from));
    agents.truncate(3);
    let mut urls = input.urls.clone();
    urls.extend(
        [
            "/",
            "https://example.com/a/b?c=d#frag",
            "%/%zz/%e3%83%84/ツ/%7e",
        ]
        .map(String::from),
    );
    for rule in robots.groups().flat_map(|g| g.rules()).take(4) {
        urls.extend(urls_for_pattern(rule.normalized()));
    }
    urls.truncate(10);
    (agents, urls)
}

/// URLs that a normalised pattern matches: `*` dropped or replaced by text,
/// a final `$` removed. Prefixed with an origin so that a pattern starting
/// with `//` is not read as an authority.
pub fn urls_for_pattern(normalized: &str) -> Vec<String> {
    let p = normalized.strip_suffix('$').unwrap_or(normalized);
    let mut v = vec![
        format!("https://example.com{}", p.replace('*', "")),
        format!("https://example.com{}", p.replace('*', "x/y")),
    ];
    if !normalized.ends_with('$') {
        v.push(format!("https://example.com{}/more?q", p.replace('*', "")));
    }
    v
}

/// The text the parser reads: UTF-16 with a byte order mark, or without
/// one by its shape (the parser's own test of the shape), is transcoded;
/// anything else is read as bytes. A UTF-16 mark before text whose first
/// 512 octets hold no zero octet and are UTF-8 is a stray one: bytes.
pub fn text_of(body: &[u8]) -> Vec<u8> {
    let stray = |rest: &[u8]| {
        let head = &rest[..rest.len().min(512)];
        let utf8 = std::str::from_utf8(head).map_or_else(|e| e.error_len().is_none(), |_| true);
        !head.is_empty() && !head.contains(&0) && utf8
    };
    let utf16 = match encoding_rs::Encoding::for_bom(body) {
        Some((enc, _)) if enc == encoding_rs::UTF_8 => None,
        Some((_, len)) if stray(&body[len..]) => keepout::__fuzz::utf16_by_shape(body),
        Some((enc, _)) => Some(enc),
        None => keepout::__fuzz::utf16_by_shape(body),
    };
    match utf16 {
        Some(enc) => enc
            .decode_with_bom_removal(body)
            .0
            .into_owned()
            .into_bytes(),
        None => body.to_vec(),
    }
}

/// The lines of a text as RFC 9309 section 2.2 splits them (CR, LF or CRLF
/// end a line); a final line end does not start another line.
pub fn lines(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'\n' => {
                out.push(&text[start..i]);
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(&text[start..i]);
                i += if text.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// A line as text when it is short enough to have been read whole and is
/// UTF-8, so values read from it must appear in it verbatim.
fn whole_line<'a>(lines: &[&'a [u8]], number: u32) -> Option<&'a str> {
    let line = lines.get((number as usize).checked_sub(1)?)?;
    if line.len() > MAX_LINE_LEN {
        return None;
    }
    std::str::from_utf8(line).ok()
}

/// Invariants of the parsed structure: line numbers, groups, rules, views,
/// and that every Display and Debug implementation runs.
pub fn check_structure(robots: &Robots, body: &[u8]) {
    let text = text_of(body);
    let lines = lines(&text);
    let count = lines.len() as u32;
    let mut out = String::new();
    use std::fmt::Write;

    let mut last_group_line = 0;
    let mut last_rule_line = 0;
    for (gi, g) in robots.groups().enumerate() {
        assert_eq!(g.index(), gi);
        assert!(
            g.line() >= 1 && g.line() <= count,
            "group line {} of {count}",
            g.line()
        );
        assert!(g.line() > last_group_line, "groups out of order");
        last_group_line = g.line();
        if let Some(line) = whole_line(&lines, g.line()) {
            // An empty user-agent line after rules starts a group too: its
            // agents, if any, are on the lines after it. (A NUL, like `#`,
            // ends what the parser reads of a line.)
            let value = line.split_once(':').map_or("", |(_, v)| v);
            let empty = value
                .split(['#', '\0'])
                .next()
                .unwrap_or("")
                .trim_matches([' ', '\t', '\x0b', '\x0c'])
                .is_empty();
            match g.agents().next() {
                Some(first) if !empty => {
                    assert!(line.contains(first), "line {line:?} lacks agent {first:?}")
                }
                Some(_) => {}
                None => assert!(empty, "group without user-agent at {line:?}"),
            }
        }
        let star = |a: &str| {
            let b = a.as_bytes();
            b.first() == Some(&b'*')
                && b.get(1)
                    .is_none_or(|c| matches!(c, b' ' | b'\t' | 0x0B | 0x0C))
        };
        assert_eq!(g.is_global(), g.agents().any(star), "is_global");
        let _ = (
            g.crawl_delay(),
            g.request_rate().map(|r| (r.delay(), r.to_string())),
        );
        write!(out, "{g} {g:?}").unwrap();
        for r in g.rules() {
            assert!(
                r.line() > g.line(),
                "rule line {} before its group's {}",
                r.line(),
                g.line()
            );
            assert!(r.line() <= count, "rule line {} of {count}", r.line());
            assert!(r.line() > last_rule_line, "rules out of order");
            last_rule_line = r.line();
            assert_eq!(r.group().index(), gi, "rule's group");
            let n = r.normalized();
            assert!(!n.is_empty(), "empty pattern stored");
            assert!(n.is_ascii(), "normal form not ASCII: {n:?}");
            assert_eq!(r.priority(), n.len());
            if let Some(line) = whole_line(&lines, r.line()) {
                assert!(
                    line.contains(r.pattern()),
                    "line {line:?} lacks pattern {:?}",
                    r.pattern()
                );
            }
            write!(out, "{r} {r:?} {}", r.kind()).unwrap();
        }
    }
    let mut last = 0;
    for w in robots.warnings() {
        assert!(w.line >= last, "warnings out of order");
        assert!(
            w.line >= 1 && w.line <= count.max(1),
            "warning line {} of {count}",
            w.line
        );
        last = w.line;
        write!(out, "{w} {:?}", w.kind).unwrap();
    }
    let mut last = 0;
    for rec in robots.records() {
        assert!(rec.line > last, "records out of order");
        assert!(rec.line >= 1 && rec.line <= count);
        last = rec.line;
        write!(out, "{rec:?}").unwrap();
    }
    for s in robots.sitemaps() {
        assert!(!s.is_empty());
    }
    // A parsed file has no base: only absolute http(s) URLs, each once.
    let urls = robots.sitemap_urls();
    assert!(urls.len() <= robots.sitemaps().len());
    assert!(urls.iter().all(|u| matches!(u.scheme(), "http" | "https")));
    let _ = (
        robots.host(),
        robots.heap_bytes(),
        robots.body_len(),
        robots.access(),
    );
    write!(out, "{robots:?}").unwrap();
    std::hint::black_box(out);
}

/// Invariants of one question: every way of asking gives the same answer, and
/// the explanation is consistent with it.
pub fn check_question(robots: &Robots, agent: &str, url: &str) {
    let allowed = robots.is_allowed(agent, url);
    let handle = robots.agent(agent);
    assert_eq!(
        handle.is_allowed(url),
        allowed,
        "agent().is_allowed != is_allowed"
    );
    let d = robots.explain(agent, url);
    check_decision(&d, allowed);
    let d2 = handle.explain(url);
    assert_eq!(d2.allowed(), allowed);
    assert_eq!(d2.cause(), d.cause());
    assert_eq!(d2.rule().map(|r| r.line()), d.rule().map(|r| r.line()));
    assert_eq!(handle.agent_match(), d.agent_match());
    assert_eq!(
        handle.groups().map(|g| g.index()).collect::<Vec<_>>(),
        d.groups().map(|g| g.index()).collect::<Vec<_>>()
    );
    assert_eq!(robots.crawl_delay(agent), handle.crawl_delay());
    let owned = robots.owned_agent(agent);
    assert_eq!(owned.is_allowed(url), allowed, "owned_agent().is_allowed != is_allowed");
    let d3 = owned.explain(url);
    assert_eq!(d3.rule().map(|r| r.line()), d.rule().map(|r| r.line()));
    assert_eq!(owned.crawl_delay(), handle.crawl_delay());
    assert_eq!(robots.request_rate(agent), handle.request_rate());

    // The normal form of the URL's path is a fixed point: asking with it
    // gives the same answer.
    let raw = keepout::__fuzz::path_and_query(url);
    let normal = keepout::__fuzz::normalize_path(&raw);
    assert_eq!(
        keepout::__fuzz::normalize_path(&normal),
        normal,
        "normalisation not idempotent"
    );
    let normal = String::from_utf8(normal).expect("normal form is ASCII");
    // The one-pass reading of a check (`Robots::normalized_path`, what
    // `is_allowed` matches) is the two steps above.
    assert_eq!(
        keepout::Robots::normalized_path(url),
        normal.as_str(),
        "one pass vs two steps: {url:?}"
    );
    let again = format!("https://example.com{normal}");
    assert_eq!(
        robots.is_allowed(agent, &again),
        allowed,
        "{url:?} vs {again:?}"
    );

    // /robots.txt is always allowed.
    assert!(robots.is_allowed(agent, "/robots.txt"));
    assert!(handle.is_allowed("https://example.com/robots.txt?x"));
}

/// A decision agrees with `allowed` and explains itself coherently.
pub fn check_decision(d: &Decision<'_>, allowed: bool) {
    assert_eq!(d.allowed(), allowed, "explain().allowed() != is_allowed()");
    match d.cause() {
        Cause::Rule => {
            let r = d.rule().expect("Cause::Rule without a rule");
            let want = if allowed {
                RuleKind::Allow
            } else {
                RuleKind::Disallow
            };
            assert_eq!(
                r.kind(),
                want,
                "deciding rule's kind disagrees with the decision"
            );
            let g = r.group().index();
            assert!(
                d.groups().any(|x| x.index() == g),
                "deciding rule outside the applicable groups"
            );
            assert!(r.group().rules().any(|x| x.line() == r.line()));
        }
        Cause::NoGroup => {
            assert!(allowed && d.rule().is_none());
            assert_eq!(d.groups().len(), 0);
            assert_eq!(d.agent_match(), AgentMatch::None);
        }
        Cause::NoMatchingRule => {
            assert!(allowed && d.rule().is_none());
            assert!(d.groups().len() > 0);
        }
        Cause::RobotsTxt | Cause::Unavailable => assert!(allowed && d.rule().is_none()),
        Cause::Unreachable => assert!(!allowed && d.rule().is_none()),
        _ => {}
    }
    let s = d.to_string();
    assert!(
        s.starts_with(if allowed { "allowed" } else { "disallowed" }),
        "{s}"
    );
    if let Some(r) = d.rule() {
        assert!(s.contains(&format!("line {}", r.line())), "{s}");
    }
    std::hint::black_box(format!("{d:?} {:?}", d.cause()));
}
