//! The benchmark inputs, shared by the bench targets and by
//! `tests/alloc.rs` and `tests/peers.rs`: the real corpus and the (file, URL)
//! pairs every library is checked on.

#![allow(dead_code)]

use std::path::PathBuf;

/// The agent every check uses. No corpus file names it, so each library
/// falls back to the `*` group(s).
pub const AGENT: &str = "keepoutbench";

/// The file that dominates every total; reported apart from the rest.
pub const ORACLE: &str = "001_docs.oracle.com.txt";

/// Files in the corpus that are not robots.txt (an icon and two HTML pages).
pub const NOT_ROBOTS: [&str; 3] = [
    "301_www.pch.com.txt",
    "302_www.regmovies.com.txt",
    "303_www.efirstbank.com.txt",
];

/// At most this many rules per file become URLs (evenly spaced over the
/// file), so the list stays small enough for a peer that re-parses the whole
/// file per check.
pub const RULES_PER_FILE: usize = 64;

/// Paths a crawler meets everywhere, checked against every file.
pub const COMMON_PATHS: [&str; 14] = [
    "/",
    "/index.html",
    "/search?q=x",
    "/admin/",
    "/wp-admin/admin-ajax.php",
    "/wp-login.php?redirect_to=%2F",
    "/cgi-bin/test.cgi",
    "/images/logo.png",
    "/products/123?ref=home&utm_source=news",
    "/user/login",
    "/api/v1/items?page=2",
    "/blog/2024/01/some-post-title/",
    "/static/app.js?v=3",
    "/tag/rust/feed/",
];

/// One corpus file.
pub struct File {
    pub name: String,
    pub body: Vec<u8>,
    /// The body as text for peers that take `&str` (lossy for the few files
    /// that are not UTF-8; converted once, outside any timing).
    pub text: String,
}

pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus")
}

/// Every robots.txt of the corpus (not the three non-robots files), sorted
/// by name.
pub fn load() -> Vec<File> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("tests/data/corpus")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt") && !NOT_ROBOTS.contains(&n.as_str()))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let body = std::fs::read(corpus_dir().join(&name)).unwrap();
            let text = String::from_utf8_lossy(&body).into_owned();
            File { name, body, text }
        })
        .collect()
}

/// The `Allow`/`Disallow` values of a body, read simply (no library's
/// parser): `key: value` lines, comment removed, value trimmed.
pub fn patterns(body: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    for line in body.split(|&b| b == b'\n' || b == b'\r') {
        let line = &line[..line.iter().position(|&b| b == b'#').unwrap_or(line.len())];
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let key = String::from_utf8_lossy(&line[..colon])
            .trim()
            .to_ascii_lowercase();
        if key != "allow" && key != "disallow" {
            continue;
        }
        let value = String::from_utf8_lossy(&line[colon + 1..])
            .trim()
            .to_string();
        if !value.is_empty() {
            out.push(value);
        }
    }
    out
}

/// URLs for one file: up to [`RULES_PER_FILE`] of its patterns (each `*`
/// replaced by `ab`, a final `$` dropped, prefixed with
/// `https://example.com`), each also with an appended segment, then the
/// common paths.
pub fn urls_for(body: &[u8]) -> Vec<String> {
    let pats = patterns(body);
    let step = pats.len().div_ceil(RULES_PER_FILE).max(1);
    let mut urls = Vec::new();
    for p in pats.iter().step_by(step) {
        let mut path = p.replace('*', "ab");
        if path.ends_with('$') {
            path.pop();
        }
        if !path.starts_with('/') {
            path.insert(0, '/');
        }
        let sep = if path.ends_with('/') { "" } else { "/" };
        urls.push(format!("https://example.com{path}"));
        urls.push(format!("https://example.com{path}{sep}page-2.html"));
    }
    for c in COMMON_PATHS {
        urls.push(format!("https://example.com{c}"));
    }
    urls
}

/// (file index, URL) pairs for `files`, shuffled with a fixed seed so that
/// consecutive checks hit different hosts, as they do in a crawler.
pub fn pairs(files: &[File]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, f)| urls_for(&f.body).into_iter().map(move |u| (i, u)))
        .collect();
    // Fisher-Yates with a fixed xorshift generator.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..out.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.swap(i, (x % (i as u64 + 1)) as usize);
    }
    // Copy the URLs in check order, so that they lie in memory in the order
    // they are read, as a crawler's freshly extracted batch would: the
    // benchmark then measures the libraries, not cache misses on the input.
    // (Each file's parsed rules are still visited in random order.)
    // (All copies are made before the originals are freed, so that they do
    // not reuse the originals' scattered memory.)
    let copy = out.iter().map(|(i, u)| (*i, u.clone())).collect();
    drop(out);
    copy
}

/// The adversarial URL's path cycles through this de Bruijn sequence: it
/// holds every octet pair over `a`, `b` (so no pair filter rejects a piece
/// made of them) and every three-octet string, but only half of the
/// four-octet ones.
const CYCLE: &str = "aaababbb";

/// Four-octet strings over `a`, `b` that the cycle never holds: pieces
/// containing one are absent from the URL, and finding that out takes a
/// search of the whole path (periodic text, where a substring search has
/// the most candidates to reject).
const ABSENT: [&str; 8] = [
    "aaaa", "aabb", "abaa", "abba", "baab", "baba", "bbab", "bbbb",
];

/// A ~500 KiB robots.txt built to make every rule work hard against
/// [`adversarial_url`]: 3,916 wildcard rules in one group, whose
/// literal prefixes are prefixes of the URL (so none can be skipped by
/// prefix), with long runs of `*`, many short pieces found at once, and a
/// piece (of octet pairs the URL holds) that the URL does not hold, so no
/// rule matches and nothing can be pruned. Families of rules share pieces;
/// one family has a distinct absent piece per rule.
pub fn adversarial_body() -> String {
    let path = adversarial_path();
    let mut s = String::from("User-agent: *\n");
    let mut k = 0usize;
    while s.len() < 500 * 1024 {
        k += 1;
        let absent = ABSENT[k % ABSENT.len()];
        let n = 1 + k % 40;
        match k % 5 {
            // `/aaab*a*b*a*b*...*aabb`: each short piece is found at once,
            // the last one nowhere.
            0 => s.push_str(&format!(
                "Disallow: {}{}*{absent}\n",
                &path[..2 + k % 30],
                "*a*b".repeat(n * 2)
            )),
            // A long run of `*`, then absent pieces.
            1 => s.push_str(&format!(
                "Disallow: /{}{absent}{}*{absent}\n",
                "*".repeat(64 + k % 200),
                "*".repeat(1 + k % 9)
            )),
            // Anchored: the tail matches the URL's end, the middle is absent.
            2 => s.push_str(&format!(
                "Allow: {}*{}*{absent}*bbb/z$\n",
                &path[..1 + k % 120],
                "ab*".repeat(n)
            )),
            // Long pieces made of the URL's own text, then an absent one.
            3 => s.push_str(&format!(
                "Disallow: /*{}*{}*{absent}\n",
                &path[1 + k % 8..1 + k % 8 + 16 + k % 48],
                &path[9..9 + 8 + k % 32]
            )),
            // A distinct absent piece per rule: no search can be shared.
            _ => s.push_str(&format!(
                "Disallow: {}*{}{absent}{}\n",
                &path[..1 + k % 60],
                &CYCLE[..1 + k % 7],
                binary(k)
            )),
        }
    }
    s
}

/// A ~500 KiB robots.txt of short wildcard rules with a distinct piece each
/// (`Allow:/*<15 octets of a, b>aaaa`, 18,000-odd rules, found in session
/// 60's review): every octet pair of each piece is in [`adversarial_url`],
/// `aaaa` never is, and no literal prefix tells them apart, so each rule
/// cost a search of the whole path (36-54 ms a check in session 60, before
/// the matcher answered such rules from one scan of the path).
/// [`adversarial_body`]'s long rules are fewer (3,916).
pub fn short_pieces_body() -> String {
    let mut s = String::from("User-agent: *\n");
    // The last 15 binary digits of 2^15, 2^15 + 1, ...: all distinct.
    let mut k = 1usize << 15;
    while s.len() < 500 * 1024 {
        s.push_str(&format!("Allow:/*{}aaaa\n", &binary(k)[1..]));
        k += 1;
    }
    s
}

/// A 199-byte URL of the same text as [`adversarial_url`], about as long
/// as an ordinary one: a search of its path is cheap, but one per rule is
/// not.
pub fn short_adversarial_url() -> String {
    let url = adversarial_url();
    format!("{}/z", &url[..197])
}

/// Octets `a` and `b` drawn from a xorshift sequence: text where a
/// substring search has no rare octet to look for.
fn random_ab(state: &mut u64, n: usize) -> String {
    (0..n)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            if *state >> 63 == 1 { 'b' } else { 'a' }
        })
        .collect()
}

/// A ~500 KiB robots.txt and an 8 KiB URL whose pieces are all in the
/// path, but only before where each rule's search for them starts: the
/// path is `/` + 4,000 random octets of `a`, `b` + `c` + 4,171 more, and
/// each rule is `Allow:/*c*Y` with `Y` a distinct 12- to 18-octet
/// substring of the first part that the second does not hold. Knowing which
/// pieces occur in the path is not enough: each of the 19,000-odd rules
/// must learn whether its piece occurs after `c` (found in session 60 by
/// the prototype of such a filter; 60-62 ms a check then, when each rule
/// searched the 4,171 octets after `c`).
pub fn late_pieces() -> (String, String) {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let head = random_ab(&mut state, 4000);
    let url_len = 8 * 1024;
    let prefix = "https://example.com/";
    let tail = random_ab(&mut state, url_len - prefix.len() - head.len() - 1);
    let url = format!("{prefix}{head}c{tail}");
    let mut body = String::from("User-agent: *\n");
    let mut seen = std::collections::HashSet::new();
    'lengths: for len in [14, 13, 15, 16, 12, 17, 18] {
        for start in 0..head.len() - len {
            let piece = &head[start..start + len];
            if tail.contains(piece) || !seen.insert(piece) {
                continue;
            }
            body.push_str(&format!("Allow:/*c*{piece}\n"));
            if body.len() >= 500 * 1024 {
                break 'lengths;
            }
        }
    }
    (body, url)
}

/// `k` in binary with `a` for 0 and `b` for 1.
fn binary(k: usize) -> String {
    format!("{k:b}").replace('0', "a").replace('1', "b")
}

/// `/` + [`CYCLE`] repeated + `/z`: 8 KiB less the length of
/// `https://example.com`.
fn adversarial_path() -> String {
    let len = 8 * 1024 - "https://example.com".len();
    let mut path = String::from("/");
    while path.len() < len - 2 {
        path.push_str(CYCLE);
    }
    path.truncate(len - 2);
    path.push_str("/z");
    path
}

/// An 8 KiB URL that starts with every rule's literal prefix and holds the
/// octet pairs of every piece, but matches no rule.
pub fn adversarial_url() -> String {
    format!("https://example.com{}", adversarial_path())
}

/// Lines of each kind in a [`line_kinds`] body.
pub const KIND_LINES: usize = 1000;

/// Bodies of [`KIND_LINES`] lines of one kind each (names drawn from a
/// fixed sequence), to see what each kind of line costs a parser: the
/// corpus's total hides that its rule lines parse much faster, relative to
/// other parsers, than its user-agent or sitemap lines.
pub fn line_kinds() -> Vec<(&'static str, String)> {
    // A linear congruential sequence: names of 5 to 12 letters.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut name = move || {
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        let len = 5 + next() % 8;
        (0..len)
            .map(|_| (b'a' + (next() % 26) as u8) as char)
            .collect::<String>()
    };
    // (label, the lines before, one line from a name and its number, the
    // lines after)
    type Line = fn(&str, usize) -> String;
    let kinds: [(&str, &str, Line, &str); 7] = [
        (
            "Disallow: /path",
            "User-agent: *\n",
            |n, i| format!("Disallow: /{n}/page-{i}.html\n"),
            "",
        ),
        (
            "Disallow: /*?q=*",
            "User-agent: *\n",
            |n, _| format!("Disallow: /*?{n}=*\n"),
            "",
        ),
        (
            "User-agent, one group",
            "",
            |n, _| format!("User-agent: {n}Bot\n"),
            "Disallow: /\n",
        ),
        (
            "groups of 2 lines",
            "",
            |n, _| format!("User-agent: {n}Bot\nDisallow: /\n"),
            "",
        ),
        (
            "Sitemap",
            "User-agent: *\nDisallow: /x\n",
            |n, i| format!("Sitemap: https://www.example.com/maps/{n}-{i}.xml.gz\n"),
            "",
        ),
        (
            "unknown key",
            "User-agent: *\n",
            |n, i| format!("Noindex: /{n}/page-{i}.html\n"),
            "",
        ),
        (
            "comment",
            "User-agent: *\nDisallow: /x\n",
            |n, _| format!("# {n} is a crawler we would rather not see here\n"),
            "",
        ),
    ];
    kinds
        .into_iter()
        .map(|(label, head, line, tail)| {
            let mut s = String::from(head);
            for i in 0..KIND_LINES {
                s.push_str(&line(&name(), i));
            }
            s.push_str(tail);
            (label, s)
        })
        .collect()
}
