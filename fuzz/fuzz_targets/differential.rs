//! The parser and the fast matcher (linear scan, prefix index for groups of
//! more than 8 rules, linear-time wildcards) against an oracle built from
//! the generated robots.txt itself, on files generated from the input over
//! a small alphabet, so that patterns overlap, share prefixes, repeat and
//! collide often.
//!
//! The oracle never reads the parse: it knows which groups the generator
//! wrote (their lines and user-agent values) and which rules (kind, text,
//! line), normalises each pattern's text with the naive normaliser of
//! `naive.rs`, selects groups by product token (case aside; those naming
//! the crawler, merged, else the `*` ones) and decides with RFC 9309
//! semantics written apart from the crate: the longest matching pattern in
//! octets after normalisation (`*` and a final `$` counted), `Allow`
//! winning a tie, the earliest line winning a full tie. Under MK1996 (the
//! top bit of the first octet) `*` and `$` are data and a pattern matches
//! the paths it is a prefix of, still by longest match.
//!
//! Checked: that the parse reads back every group (line, user-agent values)
//! and every rule (kind, text as written, normal form, line); and, for
//! several crawler names and each generated URL and URLs derived from each
//! applicable pattern (`*` replaced, `$` dropped, a suffix added, or the
//! last octet cut off), the groups that apply, the decision and the
//! deciding rule, through an `Agent` handle (indexes built at once), an
//! owned handle, and `Robots::is_allowed` on a parse of its own (large
//! groups scanned until their index pays).
//!
//! Input: a flags octet (bit 7 MK1996, bits 1-2 the number of groups less
//! one, bit 3 a wider alphabet, bits 4-6 a second crawler name); per group
//! a shape octet (bit 0 a second user-agent line, bits 1-2 and 3-4 the
//! agents, bit 7 a wider table of them), a rule count and, per rule, a kind
//! octet (bit 0 `Allow`; bits 1-3 all set: the pattern of an earlier rule
//! again, chosen by the next octet) and a pattern, or, with bits 6 and 7
//! of the shape set, no count and the rules of the group before, again
//! (a repeated block; with bit 5, its last octet changed); then up to 16 URLs, each
//! text and an octet (bit 0 a leading `/`; bits 1-3 all set: an earlier URL
//! again).
#![no_main]

use keepout::{ParseOptions, Robots, RuleKind};
use libfuzzer_sys::fuzz_target;

mod naive;

/// Pattern and path characters: operators, escapes and a few letters.
const ALPHABET: &[&str] = &[
    "/", "a", "b", "*", "$", "%", "4", "A", "1", "?", ".", "=", "~", "c", "Z", "%", "/", "a", "*",
    "2", "f",
];
/// The same, with characters the normaliser escapes, an `'` (escaped in a
/// pattern's query), inner spaces and a non-ASCII letter.
const WIDE: &[&str] = &[
    "/", "a", "b", "*", "$", "%", "4", "A", "1", "?", ".", "=", "~", "c", "Z", "%", "/", "a", "*",
    "2", "f", "'", " ", "\"", "é", "&", "%2a", "%24", "%7E", "%3f", "$/",
];
const AGENTS: [&str; 4] = ["bot", "*", "other", "BOT/2.0"];
const AGENTS_WIDE: [&str; 4] = ["bots", "* x", "Bot_x/1", "bOt ish"];
/// Crawler names a second pass asks with (the first asks for `bot`).
const CRAWLERS: [&str; 8] = [
    "bot", "BOT/2.0", "other", "*", "nobody", "bots", "Bot_x/9", "bo",
];

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn text(&mut self, max: u8, alphabet: &[&str]) -> String {
        let n = self.byte() % max;
        (0..n)
            .map(|_| alphabet[self.byte() as usize % alphabet.len()])
            .collect()
    }
}

/// A rule as the generator wrote it.
struct GenRule {
    allow: bool,
    /// The value after `Allow: ` or `Disallow: `, trimmed.
    text: String,
    /// Its normal form, by the naive normaliser.
    normal: Vec<u8>,
    line: u32,
}

/// A group as the generator wrote it.
struct GenGroup {
    line: u32,
    agents: Vec<&'static str>,
    rules: Vec<GenRule>,
}

/// Spaces and tabs, which the parser trims from a value.
fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// The groups that apply to `crawler`, by index.
fn applicable(groups: &[GenGroup], crawler: &str) -> Vec<usize> {
    let token = naive::product_token(crawler);
    let named: Vec<usize> = if token.is_empty() || naive::is_star(crawler) {
        Vec::new()
    } else {
        (0..groups.len())
            .filter(|&g| {
                groups[g].agents.iter().any(|a| {
                    !naive::is_star(a) && naive::product_token(a).eq_ignore_ascii_case(token)
                })
            })
            .collect()
    };
    if !named.is_empty() {
        return named;
    }
    (0..groups.len())
        .filter(|&g| groups[g].agents.iter().any(|a| naive::is_star(a)))
        .collect()
}

/// The deciding rule for `path` (its normal form) among `rules`: the
/// longest match, `Allow` winning a tie, then the earliest line.
fn deciding<'r>(rules: &[&'r GenRule], path: &[u8], mk1996: bool) -> Option<&'r GenRule> {
    rules
        .iter()
        .copied()
        .filter(|r| {
            if mk1996 {
                naive::prefix(&r.normal, path)
            } else {
                naive::glob(&r.normal, path)
            }
        })
        .max_by_key(|r| (r.normal.len(), r.allow, std::cmp::Reverse(r.line)))
}

/// URLs derived from a normal form: `*` replaced, a final `$` dropped, and
/// a suffix; and the same cut by its last octet, which a rule must not
/// match on its own.
fn derived(normal: &[u8], salt: usize, out: &mut Vec<String>) {
    const FILL: [&str; 4] = ["", "x", "/a?b", "%2A"];
    const SUFFIX: [&str; 7] = ["", "/", "?q=1", "a", "$", "%", "%41"];
    let text = String::from_utf8_lossy(normal);
    let core = text.strip_suffix('$').unwrap_or(&text);
    let origin = |p: &str| {
        if p.starts_with('/') {
            format!("https://example.com{p}")
        } else {
            format!("https://example.com/{p}")
        }
    };
    let filled = core.replace('*', FILL[salt % FILL.len()]);
    out.push(origin(&format!("{filled}{}", SUFFIX[salt % SUFFIX.len()])));
    let plain = core.replace('*', FILL[(salt + 1) % FILL.len()]);
    out.push(origin(&plain));
    if plain.len() > 1 {
        out.push(origin(&plain[..plain.len() - 1]));
    }
}

fuzz_target!(|data: &[u8]| {
    // Every check that tries a wildcard rule of an index answers it from
    // a scan of the path (`src/matcher/pieces.rs`), not only hostile ones.
    keepout::__fuzz::engage_scan_after(1);
    let mut input = Bytes(data);
    let flags = input.byte();
    // The top bit, so that seeds of ASCII text run in RFC 9309 mode.
    let mk1996 = flags & 0x80 != 0;
    let count = 1 + (flags >> 1) % 4;
    let alphabet = if flags & 0x08 != 0 { WIDE } else { ALPHABET };
    let mode = if mk1996 {
        naive::Mode::Literal
    } else {
        naive::Mode::Pattern
    };
    let mut body = String::new();
    let mut groups: Vec<GenGroup> = Vec::new();
    let mut written: Vec<String> = Vec::new();
    let mut line = 0u32;
    for _ in 0..count {
        let shape = input.byte();
        let table = if shape & 0x80 != 0 {
            AGENTS_WIDE
        } else {
            AGENTS
        };
        let mut group = GenGroup {
            line: line + 1,
            agents: Vec::new(),
            rules: Vec::new(),
        };
        for k in 0..1 + (shape & 1) {
            let agent = table[(shape >> (1 + 2 * k)) as usize % 4];
            body.push_str(&format!("User-agent: {agent}\n"));
            group.agents.push(agent);
            line += 1;
        }
        // Bits 6 and 7 both set: the rules of the group before, again
        // (which the parser stores once for both groups).
        // With bit 5 too, the last pattern's last character changed (to
        // `a`, or `b` for an `a`): same length, other text.
        let mut again: Vec<(bool, String)> = match groups.last() {
            Some(before) if shape & 0xC0 == 0xC0 => before
                .rules
                .iter()
                .map(|r| (r.allow, r.text.clone()))
                .collect(),
            _ => Vec::new(),
        };
        if let Some((_, text)) = again.last_mut()
            && shape & 0x20 != 0
            && let Some(c) = text.pop()
        {
            text.push(if c == 'a' { 'b' } else { 'a' });
        }
        let rules = if again.is_empty() {
            input.byte() % 64
        } else {
            again.len() as u8
        };
        for k in 0..rules as usize {
            let kind = if again.is_empty() { input.byte() } else { 0 };
            let allow = again.get(k).map_or(kind & 1 == 1, |r| r.0);
            let mut pattern = if let Some((_, text)) = again.get(k) {
                text.clone()
            } else if (kind >> 1) & 7 == 7 && !written.is_empty() {
                written[input.byte() as usize % written.len()].clone()
            } else {
                input.text(12, alphabet)
            };
            if !pattern.starts_with(['/', '*']) && pattern.len() > 1 {
                let first = pattern.chars().next().map_or(0, char::len_utf8);
                pattern.replace_range(0..first, "/");
            }
            let word = if allow { "Allow" } else { "Disallow" };
            body.push_str(&format!("{word}: {pattern}\n"));
            line += 1;
            let text = trim(&pattern).to_string();
            if !text.is_empty() {
                written.push(text.clone());
                let normal = naive::naive(text.as_bytes(), mode);
                group.rules.push(GenRule {
                    allow,
                    text,
                    normal,
                    line,
                });
            }
        }
        // An empty rule line closes the group even when it has no rules.
        body.push_str("Disallow:\n");
        line += 1;
        groups.push(group);
    }
    let options = ParseOptions::new().mk1996(mk1996);
    let robots: Robots = options.parse(&body);
    // A second parse that no handle touches: its `is_allowed` scans large
    // groups until their checks have paid for an index (then builds it),
    // where the handles below build every index at once.
    let scanned: Robots = options.parse(&body);

    // The parse reads back what was written.
    assert_eq!(robots.groups().len(), groups.len(), "groups in\n{body}");
    for (g, want) in robots.groups().zip(&groups) {
        assert_eq!(g.line(), want.line, "group line in\n{body}");
        let agents: Vec<&str> = g.agents().collect();
        assert_eq!(
            agents, want.agents,
            "agents of line {} in\n{body}",
            want.line
        );
        let got: Vec<(RuleKind, &str, &str, u32)> = g
            .rules()
            .map(|r| (r.kind(), r.pattern(), r.normalized(), r.line()))
            .collect();
        let expected: Vec<(RuleKind, &str, &str, u32)> = want
            .rules
            .iter()
            .map(|r| {
                let kind = if r.allow {
                    RuleKind::Allow
                } else {
                    RuleKind::Disallow
                };
                let normal = std::str::from_utf8(&r.normal).expect("normal form is ASCII");
                (kind, r.text.as_str(), normal, r.line)
            })
            .collect();
        assert_eq!(got, expected, "rules of group {} in\n{body}", want.line);
        for r in g.rules() {
            assert_eq!(r.priority(), r.normalized().len());
        }
    }

    // The URLs asked: the generated ones (some repeated), then those
    // derived from each pattern.
    let mut urls: Vec<String> = Vec::new();
    for _ in 0..16 {
        if input.0.is_empty() {
            break;
        }
        let mut url = input.text(24, alphabet);
        let b = input.byte();
        if b & 1 == 1 {
            url.insert(0, '/');
        }
        if (b >> 1) & 7 == 7 && !urls.is_empty() {
            url = urls[(b >> 4) as usize % urls.len()].clone();
        }
        urls.push(url);
    }
    let asked = urls.len();
    let all: Vec<&GenRule> = groups.iter().flat_map(|g| &g.rules).collect();
    // At most 48 patterns, spread over the file.
    let step = all.len().div_ceil(48).max(1);
    for (i, r) in all.iter().step_by(step).enumerate() {
        derived(&r.normal, i + flags as usize, &mut urls);
    }

    let second = CRAWLERS[(flags >> 4) as usize % 8];
    for crawler in ["bot", second]
        .into_iter()
        .take(if second == "bot" { 1 } else { 2 })
    {
        let want: Vec<usize> = applicable(&groups, crawler);
        let rules: Vec<&GenRule> = want.iter().flat_map(|&g| &groups[g].rules).collect();
        let handle = robots.agent(crawler);
        let owned = robots.owned_agent(crawler);
        let got: Vec<u32> = handle.groups().map(|g| g.line()).collect();
        let lines: Vec<u32> = want.iter().map(|&g| groups[g].line).collect();
        assert_eq!(got, lines, "groups for {crawler:?} in\n{body}");

        for (i, url) in urls.iter().enumerate() {
            let allowed = handle.is_allowed(url);
            let d = handle.explain(url);
            assert_eq!(d.allowed(), allowed, "explain {url:?}");
            assert_eq!(
                scanned.is_allowed(crawler, url),
                allowed,
                "scanned {crawler:?} {url:?} in\n{body}"
            );
            assert_eq!(owned.is_allowed(url), allowed, "owned {url:?} in\n{body}");
            let raw = keepout::__fuzz::path_and_query(url);
            let path = naive::naive(&raw, naive::Mode::Path);
            let from = if i < asked { "generated" } else { "derived" };
            let shown = String::from_utf8_lossy(&path);
            if path.split(|&b| b == b'?').next() == Some(b"/robots.txt") {
                assert!(allowed);
                continue;
            }
            let best = deciding(&rules, &path, mk1996);
            assert_eq!(
                allowed,
                best.is_none_or(|r| r.allow),
                "{crawler:?}, {from} {url:?} (path {shown:?}): reference rule {:?} in\n{body}",
                best.map(|r| (r.line, &r.text)),
            );
            let rule = d.rule().map(|r| (r.line(), r.kind() == RuleKind::Allow));
            assert_eq!(
                rule,
                best.map(|r| (r.line, r.allow)),
                "deciding rule for {crawler:?}, {from} {url:?} (path {shown:?}) in\n{body}"
            );
        }
    }
});
