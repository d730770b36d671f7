//! A naive percent-encoding normaliser, written for clarity, not speed,
//! from the rules in `src/percent.rs` (RFC 9309 section 2.2.2): the
//! `normalize` target checks the crate's against it, and other targets use
//! it as an oracle that shares no code with the crate.
#![allow(dead_code)]

pub fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|v| v as u8)
}

pub fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~".contains(&b)
}

/// Octets kept as they are (RFC 3986 unreserved and reserved, less `*`, `$`
/// and `%`, which have their own rules).
fn kept(b: u8) -> bool {
    unreserved(b) || b":/?#[]@!&'()+,;=".contains(&b)
}

#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    Path,
    Pattern,
    Literal,
}

/// The normal form, written for clarity, not speed.
pub fn naive(input: &[u8], mode: Mode) -> Vec<u8> {
    let mut out = Vec::new();
    let escape = |out: &mut Vec<u8>, v: u8| out.extend(format!("%{v:02X}").bytes());
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' {
            let digits = (
                input.get(i + 1).and_then(|&c| hex(c)),
                input.get(i + 2).and_then(|&c| hex(c)),
            );
            if let (Some(h), Some(l)) = digits {
                let v = h * 16 + l;
                if unreserved(v) {
                    out.push(v);
                } else {
                    escape(&mut out, v);
                }
                i += 3;
                continue;
            }
            // A `%` that ends a pattern's text is kept; otherwise it is data.
            let ends = i + 1 == input.len() || (mode == Mode::Pattern && input[i + 1] == b'*');
            if mode != Mode::Path && ends {
                out.push(b'%');
            } else {
                escape(&mut out, b'%');
            }
        } else if b == b'*' && mode == Mode::Pattern {
            out.push(b'*');
        } else if b == b'$' && mode == Mode::Pattern && i + 1 == input.len() {
            out.push(b'$');
        } else if b == b'\'' && mode != Mode::Path && input[..i].contains(&b'?') {
            // In a pattern's query, as a client sends it.
            escape(&mut out, b);
        } else if kept(b) {
            out.push(b);
        } else {
            escape(&mut out, b);
        }
        i += 1;
    }
    out
}

/// Does a normalised RFC 9309 pattern (`*` any run of octets, a final `$`
/// the end of the path) match `path` from its start? Written apart from the
/// crate's matchers: the pattern's literal pieces between `*`s are found
/// left to right, each as early as it can be (the earliest fit leaves the
/// most room for the rest), the first at the start of the path, and the
/// last, if the pattern is anchored, at its end.
pub fn glob(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    let pieces: Vec<&[u8]> = pattern.split(|&b| b == b'*').collect();
    let last = pieces.len() - 1;
    let Some(rest) = path.strip_prefix(pieces[0]) else {
        return false;
    };
    if last == 0 {
        return !anchored || rest.is_empty();
    }
    let mut at = path.len() - rest.len();
    for piece in &pieces[1..last] {
        match find(&path[at..], piece) {
            Some(i) => at += i + piece.len(),
            None => return false,
        }
    }
    let tail = pieces[last];
    if anchored {
        path.len() - at >= tail.len() && path.ends_with(tail)
    } else {
        find(&path[at..], tail).is_some()
    }
}

/// The first offset of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    (0..=hay.len().checked_sub(needle.len())?).find(|&i| &hay[i..i + needle.len()] == needle)
}

/// An MK1996 pattern (normalised literally: `*` and `$` are `%2A` and
/// `%24`) matches a path it is a prefix of.
pub fn prefix(pattern: &[u8], path: &[u8]) -> bool {
    path.starts_with(pattern)
}

/// The product token a user-agent value or crawler name starts with
/// (RFC 9309 section 2.2.1: `[A-Za-z_-]`, and digits, as the crate reads
/// `Foo2Bot`).
pub fn product_token(value: &str) -> &str {
    let end = value
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(value.len());
    &value[..end]
}

/// A user-agent value naming the global group: `*`, alone or followed by
/// whitespace.
pub fn is_star(value: &str) -> bool {
    let b = value.as_bytes();
    b.first() == Some(&b'*') && b.get(1).is_none_or(|c| matches!(c, b' ' | b'\t'))
}
