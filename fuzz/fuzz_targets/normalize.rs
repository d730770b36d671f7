//! Percent-encoding normalisation (RFC 9309 section 2.2.2).
//!
//! 1. The crate's normaliser agrees with a naive one written here from the
//!    rules in `src/percent.rs`, for paths, patterns and MK1996 patterns, and
//!    its output is a fixed point.
//! 2. Round trips through the public API: for a path P (made one line, no
//!    `#`, `*` or `$`, starting with `/`), `Disallow: P` disallows P; spelling
//!    unreserved characters or non-ASCII octets as `%HH` (upper or lower hex)
//!    on either side changes nothing; and `Allow` of one spelling ties with
//!    `Disallow` of another, so the URL is allowed.
#![no_main]

use keepout::{ParseOptions, Robots};
use libfuzzer_sys::fuzz_target;

mod naive;

use naive::{Mode, hex, naive, unreserved};

/// Makes a path usable both as a URL and as a rule value.
fn sanitize(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data);
    let mut p: String = text
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '#' | '*' | '$'))
        .collect();
    p.insert(0, '/');
    p.truncate(p.trim_end_matches(|c: char| c.is_whitespace()).len());
    p
}

/// Positions of P that are part of a valid `%HH` escape: re-encoding those
/// would change the escape's meaning.
fn in_escape(p: &[u8]) -> Vec<bool> {
    let mut v = vec![false; p.len()];
    let mut i = 0;
    while i < p.len() {
        if p[i] == b'%' && i + 2 < p.len() && hex(p[i + 1]).is_some() && hex(p[i + 2]).is_some() {
            v[i..i + 3].fill(true);
            i += 3;
        } else {
            i += 1;
        }
    }
    v
}

/// P with some unreserved ASCII characters (`ascii`) or all non-ASCII octets
/// (`!ascii`) spelt `%HH`; `bits` chooses which and the hex case.
fn encode(p: &str, bits: &[u8], ascii: bool) -> String {
    let bytes = p.as_bytes();
    let protected = in_escape(bytes);
    let mut out = String::new();
    for (i, &b) in bytes.iter().enumerate() {
        let bit = |k: usize| {
            bits.get((i * 2 + k) / 8)
                .is_some_and(|x| x >> ((i * 2 + k) % 8) & 1 == 1)
        };
        let change = if ascii {
            unreserved(b) && !protected[i] && i > 0 && bit(0)
        } else {
            !b.is_ascii()
        };
        if change {
            if bit(1) {
                out.push_str(&format!("%{b:02x}"));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        } else if b.is_ascii() {
            out.push(b as char);
        } else {
            // Keep whole UTF-8 sequences: copy the char starting here.
            if p.is_char_boundary(i) {
                out.push(p[i..].chars().next().unwrap());
            }
        }
    }
    out
}

fn url(p: &str) -> String {
    format!("https://example.com{p}")
}

fuzz_target!(|data: &[u8]| {
    // 1. Against the naive normaliser.
    let path = keepout::__fuzz::normalize_path(data);
    assert_eq!(
        path,
        naive(data, Mode::Path),
        "path {:?}",
        String::from_utf8_lossy(data)
    );
    let pattern = keepout::__fuzz::normalize_pattern(data, false);
    assert_eq!(pattern, naive(data, Mode::Pattern), "pattern");
    let literal = keepout::__fuzz::normalize_pattern(data, true);
    assert_eq!(literal, naive(data, Mode::Literal), "literal pattern");
    assert!(path.is_ascii() && pattern.is_ascii());
    assert_eq!(
        keepout::__fuzz::normalize_path(&path),
        path,
        "path not a fixed point"
    );
    assert_eq!(keepout::__fuzz::normalize_pattern(&pattern, false), pattern);
    assert_eq!(keepout::__fuzz::normalize_pattern(&literal, true), literal);
    // A path never contains operators; a literal pattern is a path, but
    // for a final `%`, which it keeps, and an `'` in its query, which it
    // writes as a client sends it.
    assert!(!path.contains(&b'*') && !path.contains(&b'$'));
    let sent = match path.iter().position(|&b| b == b'?') {
        Some(q) => {
            let mut sent = path[..q].to_vec();
            for &b in &path[q..] {
                match b {
                    b'\'' => sent.extend_from_slice(b"%27"),
                    _ => sent.push(b),
                }
            }
            sent
        }
        None => path.clone(),
    };
    if data.last() == Some(&b'%') {
        assert_eq!([&literal[..], b"25"].concat(), sent);
    } else {
        assert_eq!(literal, sent);
    }

    // 2. Round trips through the public API.
    let (head, bits) = data.split_at(data.len() / 2);
    let p = sanitize(head);
    if keepout::__fuzz::normalize_path(p.split('?').next().unwrap().as_bytes()) == b"/robots.txt" {
        return;
    }
    let ascii = encode(&p, bits, true);
    let non_ascii = encode(&p, bits, false);
    let both = encode(&ascii, bits, false);
    let spellings = [&p, &ascii, &non_ascii, &both];
    // The round trips are about spellings of one path. A path that a
    // client requests otherwise than as written (a dot segment, `%2e`
    // included, a `\`, an `'` in the query) is checked as it is
    // requested, which a rule written as that path need not match: such
    // inputs are left to the differential target.
    let as_written = |u: &str| {
        Robots::normalized_path(&url(u)).as_bytes() == keepout::__fuzz::normalize_path(u.as_bytes())
    };
    if !spellings.iter().all(|u| as_written(u) && as_written(&format!("{u}/x"))) {
        return;
    }
    for rule in spellings {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: {rule}\n"));
        let mk1996 = ParseOptions::new()
            .mk1996(true)
            .parse(format!("User-agent: *\nDisallow: {rule}\n"));
        assert_eq!(robots.groups().next().unwrap().rules().len(), 1, "{rule:?}");
        for u in spellings {
            assert!(
                !robots.is_allowed("bot", &url(u)),
                "Disallow: {rule:?} allows {u:?}"
            );
            assert!(
                !mk1996.is_allowed("bot", &url(u)),
                "MK1996 Disallow: {rule:?} allows {u:?}"
            );
            // Below the path, still disallowed.
            assert!(
                !robots.is_allowed("bot", &url(&format!("{u}/x"))),
                "{rule:?} allows {u:?}/x"
            );
        }
        for other in spellings {
            let robots =
                Robots::parse(format!("User-agent: *\nDisallow: {rule}\nAllow: {other}\n"));
            let d = robots.explain("bot", &url(&p));
            assert!(
                d.allowed(),
                "Allow: {other:?} does not tie with Disallow: {rule:?}: {d}"
            );
        }
    }
});
