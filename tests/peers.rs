//! keepout against the two peers of the benchmarks, on the real corpus: every
//! check on which keepout and `robotstxt` (a port of Google's C++ library) or
//! `texting_robots` disagree must be explained by a known difference, each
//! one a place where keepout follows RFC 9309 or Google's C++ library and the
//! peer does not (or one of the departures the README lists).
//!
//! A disagreement is explained when the URL or the rule that decided it is
//! one the README's departures cover and an independent decision in
//! percent-encoded normal form (`decide`, below) gives keepout's answer,
//! when a peer that is given the same
//! file with one known trap removed agrees with keepout, or when the peer
//! misses a wildcard rule that an independent matcher (`matches`, below)
//! says matches. Anything else fails the test, with the checks listed.
//!
//! Counts per kind are printed: `cargo test --test peers -- --nocapture`.

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::collections::BTreeMap;

use keepout::{Cause, Robots, RuleKind};

/// A crawler that many corpus files name (the benchmarks' own,
/// [`corpus::AGENT`], is named by none, so it reads the `*` groups).
const NAMED: &str = "Googlebot";

/// The two peers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Peer {
    Robotstxt,
    TextingRobots,
}

impl Peer {
    /// The peer's answer, or `None` when it rejects the file.
    fn allowed(self, body: &str, agent: &str, url: &str) -> Option<bool> {
        match self {
            Peer::Robotstxt => Some(
                robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(body, agent, url),
            ),
            Peer::TextingRobots => texting_robots::Robot::new(agent, body.as_bytes())
                .ok()
                .map(|r| r.allowed(url)),
        }
    }
}

/// Why keepout and a peer disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Why {
    /// `/robots.txt` is always allowed (RFC 9309 section 2.2.2).
    RobotsTxtAlwaysAllowed,
    /// The README's departure: URLs and patterns are compared in
    /// percent-encoded normal form (section 2.2.2), non-ASCII and `%XX`
    /// alike. Counted only when [`decide`], with its own normal form,
    /// agrees with keepout.
    Normalisation,
    /// The peer keeps a UTF-8 byte order mark as part of the first line.
    ByteOrderMark,
    /// Records other than user-agent, allow and disallow (sitemap,
    /// crawl-delay and the others of [`OTHER_RECORDS`]) do not end a group
    /// (as Google's test `ID_LineSyntax_Groups_OtherRules` has it); the
    /// peer ends it there.
    OtherRecordsInGroup,
    /// Rules before any user-agent line belong to no group (section 2.1;
    /// Google ignores them); the peer applies them.
    RulesOutsideGroups,
    /// Only space and tab are whitespace around a value (section 2.2's
    /// `WS`); the peer also trims U+00A0, so `Disallow: /a\u{A0}` becomes
    /// `/a`.
    NoBreakSpaceTrimmed,
    /// The peer misses a match: keepout's deciding rule, a disallow rule,
    /// matches the path by [`matches`], but alone in a file it does not
    /// for the peer (`robotstxt` gives up on a piece after a false start,
    /// `/*after=` against `/abafter=`; `texting_robots` reads `$` inside a
    /// pattern as an anchor and `{` as regex syntax).
    PeerMissesMatch,
}

/// An independent matcher for one pattern (section 2.2.3): `*` is any run
/// of octets, a final `$` anchors the end, everything else is literal. The
/// set of pattern prefixes matching each path prefix, O(pattern × path).
fn matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let path = path.as_bytes();
    // `reach[j]`: the pattern read so far matches `path[..j]`.
    let mut reach = vec![false; path.len() + 1];
    reach[0] = true;
    for &c in pattern.as_bytes() {
        let mut next = vec![false; path.len() + 1];
        if c == b'*' {
            let mut any = false;
            for (n, r) in next.iter_mut().zip(&reach) {
                any |= *r;
                *n = any;
            }
        } else {
            for j in 0..path.len() {
                next[j + 1] = reach[j] && path[j] == c;
            }
        }
        reach = next;
    }
    match anchored {
        true => reach[path.len()],
        false => reach.contains(&true),
    }
}

/// An independent percent-encoded normal form (RFC 9309 section 2.2.2,
/// RFC 3986 section 6.2.2): `%XX` of an unreserved character decoded, every
/// other escape in upper case, a `%` that starts none encoded, and octets
/// outside printable ASCII (space, controls, non-ASCII) encoded.
fn normal(s: &str) -> String {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let escape = (b[i] == b'%')
            .then(|| Some(hex(*b.get(i + 1)?)? * 16 + hex(*b.get(i + 2)?)?))
            .flatten();
        let (octet, escaped) = match escape {
            Some(v) => (v as u8, true),
            None => (b[i], false),
        };
        let unreserved = octet.is_ascii_alphanumeric() || b"-._~".contains(&octet);
        if (escaped && !unreserved) || octet == b'%' || !octet.is_ascii_graphic() {
            out.push_str(&format!("%{octet:02X}"));
        } else {
            out.push(octet as char);
        }
        i += if escaped { 3 } else { 1 };
    }
    out
}

/// A pattern in [`normal`] form, but for a `%` that ends its text (at its
/// end or before a `*`): kept, a prefix of any escape, as Google's library
/// reads `Disallow: /itm/*/%`.
fn normal_pattern(s: &str) -> String {
    let piece = |p: &str| match p.strip_suffix('%') {
        Some(p) => normal(p) + "%",
        None => normal(p),
    };
    s.split('*').map(piece).collect::<Vec<_>>().join("*")
}

/// Section 2.2.2, independently: is `path` allowed for `agent` by the
/// groups keepout found for it? The longest matching rule in [`normal`]
/// form decides, allow winning a tie; no match allows.
fn decide(robots: &Robots, agent: &str, path: &str) -> bool {
    let path = normal(path);
    let mut best: Option<(usize, bool)> = None;
    for group in robots.agent(agent).groups() {
        for rule in group.rules() {
            let pattern = normal_pattern(rule.pattern());
            if !matches(&pattern, &path) {
                continue;
            }
            let hit = (pattern.len(), rule.kind() == RuleKind::Allow);
            best = best.max(Some(hit));
        }
    }
    best.is_none_or(|(_, allow)| allow)
}

/// Records the corpus holds inside groups, other than user-agent, allow
/// and disallow.
const OTHER_RECORDS: [&str; 7] = [
    "sitemap",
    "crawl-delay",
    "request-rate",
    "host",
    "noindex",
    "clean-param",
    "visit-time",
];

/// The body without its [`OTHER_RECORDS`] lines: what a peer that ends
/// groups at them is given.
fn without_other_records(body: &str) -> String {
    body.lines()
        .filter(|line| {
            let line = line.trim_start().to_ascii_lowercase();
            !OTHER_RECORDS.iter().any(|k| line.starts_with(k))
        })
        .flat_map(|line| [line, "\n"])
        .collect()
}

/// The body from its first user-agent line on.
fn from_first_group(body: &str) -> String {
    let lower = body.to_ascii_lowercase();
    lower
        .find("user-agent")
        .map_or_else(String::new, |at| body[at..].to_string())
}

/// Why keepout's answer `allowed` for `agent` and `url` differs from
/// `peer`'s on `body`; `None` if none of the known reasons holds.
fn why(peer: Peer, robots: &Robots, body: &str, agent: &str, url: &str) -> Option<Why> {
    let decision = robots.explain(agent, url);
    let allowed = decision.allowed();
    let path = &url[url.find("://").map_or(0, |i| i + 3)..];
    let path = &path[path.find('/').unwrap_or(path.len())..];
    if decision.cause() == Cause::RobotsTxt {
        return Some(Why::RobotsTxtAlwaysAllowed);
    }
    let rule = decision.rule();
    let unusual = |s: &str| !s.is_ascii() || s.contains(['%', ' ']);
    if unusual(path) || rule.as_ref().is_some_and(|r| unusual(r.pattern())) {
        return (decide(robots, agent, path) == allowed).then_some(Why::Normalisation);
    }
    let agrees = |body: &str| peer.allowed(body, agent, url) == Some(allowed);
    if let Some(rest) = body.strip_prefix('\u{FEFF}')
        && agrees(rest)
    {
        return Some(Why::ByteOrderMark);
    }
    if agrees(&without_other_records(body)) {
        return Some(Why::OtherRecordsInGroup);
    }
    if agrees(&from_first_group(body)) {
        return Some(Why::RulesOutsideGroups);
    }
    if body.contains('\u{A0}') && agrees(&body.replace('\u{A0}', "%C2%A0")) {
        return Some(Why::NoBreakSpaceTrimmed);
    }
    let rule = rule.filter(|r| r.kind() == RuleKind::Disallow && matches(r.pattern(), path))?;
    let alone = format!("User-agent: *\nDisallow: {}\n", rule.pattern());
    (peer.allowed(&alone, agent, url) == Some(true)).then_some(Why::PeerMissesMatch)
}

/// Checks every corpus file with its benchmark URLs for `agent`, and
/// asserts that each disagreement with `peer` is explained.
fn every_disagreement_is_explained(peer: Peer, agent: &str) {
    let files = corpus::load();
    let mut checks = 0usize;
    let mut counts: BTreeMap<Option<Why>, usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for file in &files {
        let robots = Robots::parse(&file.body);
        // `texting_robots` compiles a pattern per rule: parsed once per
        // file. (`robotstxt` has no parsed form; it reads the whole file
        // for every check.)
        let texting = (peer == Peer::TextingRobots)
            .then(|| texting_robots::Robot::new(agent, file.text.as_bytes()).ok())
            .flatten();
        for url in corpus::urls_for(&file.body) {
            let theirs = match peer {
                Peer::Robotstxt => peer.allowed(&file.text, agent, &url),
                Peer::TextingRobots => texting.as_ref().map(|r| r.allowed(&url)),
            };
            let Some(theirs) = theirs else {
                continue;
            };
            checks += 1;
            let allowed = robots.is_allowed(agent, &url);
            if theirs == allowed {
                continue;
            }
            let why = why(peer, &robots, &file.text, agent, &url);
            *counts.entry(why).or_default() += 1;
            if why.is_none() {
                unexplained.push(format!(
                    "{} {url}: keepout {allowed}, {:?}",
                    file.name,
                    robots.explain(agent, &url)
                ));
            }
        }
    }
    println!(
        "{peer:?}, {agent}: {checks} checks of {} files",
        files.len()
    );
    for (why, n) in &counts {
        match why {
            Some(why) => println!("  {n:5} {why:?}"),
            None => println!("  {n:5} unexplained"),
        }
    }
    assert!(checks > 25_000, "{checks} checks");
    assert!(
        unexplained.is_empty(),
        "{} unexplained disagreements with {peer:?} for {agent}:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

// One test per peer and crawler, so that they run side by side.

#[test]
fn disagreements_with_robotstxt_in_star_groups_are_explained() {
    every_disagreement_is_explained(Peer::Robotstxt, corpus::AGENT);
}

#[test]
fn disagreements_with_robotstxt_for_a_named_crawler_are_explained() {
    every_disagreement_is_explained(Peer::Robotstxt, NAMED);
}

#[test]
fn disagreements_with_texting_robots_are_explained() {
    every_disagreement_is_explained(Peer::TextingRobots, corpus::AGENT);
    every_disagreement_is_explained(Peer::TextingRobots, NAMED);
}

#[test]
fn the_independent_matcher_reads_patterns_as_section_2_2_3_says() {
    assert!(matches("/", "/a"));
    assert!(matches("/a*b", "/axxb"));
    assert!(matches("/*after=", "/abafter="));
    assert!(matches("*/p/", "/ab/p/x"));
    assert!(matches("/a$", "/a"));
    assert!(!matches("/a$", "/ab"));
    assert!(matches("/*.html$", "/x.html"));
    assert!(!matches("/*.html$", "/x.html/y"));
    assert!(!matches("/b", "/a"));
    assert!(matches("/a**", "/a"));
}

#[test]
fn the_independent_normal_form_is_that_of_section_2_2_2() {
    assert_eq!(normal("/a%62c"), "/abc");
    assert_eq!(normal("/%e3%83%84"), "/%E3%83%84");
    assert_eq!(normal("/ツ"), "/%E3%83%84");
    assert_eq!(normal("/a b"), "/a%20b");
    assert_eq!(normal("/%2f%7e%"), "/%2F~%25");
    assert_eq!(normal("/*.php$"), "/*.php$");
    assert_eq!(normal_pattern("/itm/*/%"), "/itm/*/%");
    assert_eq!(normal_pattern("/a%*%2f%$"), "/a%*%2F%25$");
}

/// What the `NotUtf8` warning says of a UTF-16 file: keepout reads its
/// rules, and crawlers that read it as UTF-8, Google's parser among them,
/// find none. (Two corpus files are UTF-16; their rules decide none of the
/// common paths, so the tests above do not meet them.)
#[test]
fn a_utf16_file_gives_the_peers_no_rules() {
    let files = corpus::load();
    let usps = files.iter().find(|f| f.name.starts_with("299_")).unwrap();
    let url = "https://store.usps.com/store/cart/x";

    let robots = Robots::parse(&usps.body);

    assert!(!robots.is_allowed("AnyBot", url));
    assert_eq!(
        robots.warnings()[0].kind,
        keepout::WarningKind::NotUtf8 {
            encoding: "UTF-16LE"
        }
    );
    for peer in [Peer::Robotstxt, Peer::TextingRobots] {
        assert_eq!(
            peer.allowed(&usps.text, "AnyBot", url),
            Some(true),
            "{peer:?}"
        );
    }
}
