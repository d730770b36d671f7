//! Percent-encoding normalisation of paths and patterns, RFC 9309 section 2.2.2.
//!
//! Both sides of every comparison go through the same normal form, so
//! `/foo/ツ`, `/foo/%E3%83%84` and `/foo/%e3%83%84` compare equal while `%2F`
//! stays distinct from `/`:
//!
//! 1. `%HH` of an *unreserved* character (RFC 3986 section 2.3: `A-Z a-z 0-9
//!    - . _ ~`) is decoded: `%7E` becomes `~`.
//! 2. Any other `%HH` is kept encoded, hex upper-cased: `%2f` becomes `%2F`.
//! 3. A `%` not followed by two hex digits is itself encoded: `%25`.
//! 4. Octets outside printable US-ASCII, and the ASCII characters that may not
//!    appear in a URI (space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`,
//!    `}`), are encoded byte by byte: `ツ` becomes `%E3%83%84`. Bytes that are
//!    not UTF-8 are encoded the same way, never dropped.
//! 5. `*` and `$` are operators in patterns (section 2.2.3). In a *path* they
//!    are data, so a path's literal `*` and `$` become `%2A` and `%24`; a
//!    pattern can match them by spelling them that way. In a pattern, a `$`
//!    that is not the last octet is data too and becomes `%24`.
//!
//! The normal form is pure ASCII. [`path`] borrows its input when it is already
//! normal, which is the common case, so checking such a URL allocates nothing.

use std::borrow::Cow;

/// What to do with an input octet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Emitted as is.
    Keep,
    /// Emitted as `%HH`.
    Encode,
    /// Starts a percent-escape (or is encoded as `%25` when it does not).
    Percent,
    /// `*`: wildcard in a pattern, `%2A` in a path.
    Star,
    /// `$`: end anchor as a pattern's last octet, `%24` elsewhere.
    Dollar,
}

const fn class_table() -> [Class; 256] {
    let mut t = [Class::Encode; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let keep = c.is_ascii_alphanumeric()
            // RFC 3986 section 2.3 unreserved
            || matches!(c, b'-' | b'.' | b'_' | b'~')
            // RFC 3986 section 2.2 reserved (gen-delims and sub-delims),
            // less `*` and `$` which are handled apart
            || matches!(
                c,
                b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@' | b'!' | b'&' | b'\'' | b'('
                    | b')' | b'+' | b',' | b';' | b'='
            );
        t[b] = if keep {
            Class::Keep
        } else if c == b'%' {
            Class::Percent
        } else if c == b'*' {
            Class::Star
        } else if c == b'$' {
            Class::Dollar
        } else {
            Class::Encode
        };
        b += 1;
    }
    t
}

static CLASS: [Class; 256] = class_table();

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Which side of the comparison is being normalised.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A URL path (and query): `*` and `$` are data.
    Path,
    /// A rule pattern: `*` is a wildcard and a final `$` an anchor.
    Pattern,
    /// A pattern under MK1996 literal matching: `*` and `$` are data.
    LiteralPattern,
}

/// What the normaliser does at `input[i]`: `None` when the octet is already in
/// normal form, otherwise the replacement and how many input octets it eats.
#[inline]
fn step(input: &[u8], i: usize, mode: Mode) -> Option<(Replacement, usize)> {
    let b = input[i];
    match CLASS[b as usize] {
        Class::Keep => None,
        Class::Encode => Some((Replacement::Escape(b), 1)),
        Class::Star => match mode {
            Mode::Pattern => None,
            Mode::Path | Mode::LiteralPattern => Some((Replacement::Escape(b), 1)),
        },
        Class::Dollar => match mode {
            Mode::Pattern if i + 1 == input.len() => None,
            _ => Some((Replacement::Escape(b), 1)),
        },
        Class::Percent => {
            let hi = input.get(i + 1).copied().and_then(hex_value);
            let lo = input.get(i + 2).copied().and_then(hex_value);
            match (hi, lo) {
                (Some(hi), Some(lo)) => {
                    let v = hi << 4 | lo;
                    if is_unreserved(v) {
                        Some((Replacement::Byte(v), 3))
                    } else if input[i + 1].is_ascii_lowercase() || input[i + 2].is_ascii_lowercase()
                    {
                        Some((Replacement::Escape(v), 3))
                    } else {
                        None // already `%HH`, upper-case, reserved: normal
                    }
                }
                _ => Some((Replacement::Escape(b'%'), 1)),
            }
        }
    }
}

enum Replacement {
    /// Emit this octet as is.
    Byte(u8),
    /// Emit `%HH` for this octet.
    Escape(u8),
}

/// Normalises `input` for `mode`, borrowing it when it is already normal.
pub(crate) fn normalize(input: &[u8], mode: Mode) -> Cow<'_, [u8]> {
    let mut i = 0;
    // Fast scan: most paths and patterns are plain ASCII and already normal.
    let first = loop {
        if i == input.len() {
            return Cow::Borrowed(input);
        }
        if CLASS[input[i] as usize] != Class::Keep {
            if let Some(r) = step(input, i, mode) {
                break r;
            }
            // `%HH` already normal, or an operator in a pattern: skip it whole
            // so that its hex digits are not re-examined.
            i += if input[i] == b'%' { 3 } else { 1 };
            continue;
        }
        i += 1;
    };
    let mut out = Vec::with_capacity(input.len() + 16);
    out.extend_from_slice(&input[..i]);
    let mut pending = Some(first);
    loop {
        let (rep, eat) = match pending.take() {
            Some(r) => r,
            None => {
                if i == input.len() {
                    break;
                }
                match step(input, i, mode) {
                    Some(r) => r,
                    None => {
                        let n = if input[i] == b'%' { 3 } else { 1 };
                        out.extend_from_slice(&input[i..i + n]);
                        i += n;
                        continue;
                    }
                }
            }
        };
        match rep {
            Replacement::Byte(v) => out.push(v),
            Replacement::Escape(v) => {
                out.extend_from_slice(&[b'%', HEX[(v >> 4) as usize], HEX[(v & 15) as usize]])
            }
        }
        i += eat;
    }
    Cow::Owned(out)
}

/// Normalises a URL path (with its query) for matching.
pub(crate) fn path(input: &[u8]) -> Cow<'_, [u8]> {
    normalize(input, Mode::Path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        String::from_utf8(path(s.as_bytes()).into_owned()).unwrap()
    }
    fn pat(s: &str) -> String {
        String::from_utf8(normalize(s.as_bytes(), Mode::Pattern).into_owned()).unwrap()
    }

    #[test]
    fn plain_paths_are_borrowed() {
        for s in [
            "/",
            "/a/b?c=d&e=f",
            "/%2F/%E3%83%84",
            "/~user/x.html;p=1",
            "",
        ] {
            assert!(matches!(path(s.as_bytes()), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn non_ascii_is_encoded_byte_by_byte() {
        assert_eq!(p("/foo/ツ"), "/foo/%E3%83%84");
        assert_eq!(path(b"/caf\xe9"), Cow::<[u8]>::Owned(b"/caf%E9".to_vec()));
        assert_eq!(p("/a b"), "/a%20b");
        assert_eq!(p("/a\"<>\\^`{|}"), "/a%22%3C%3E%5C%5E%60%7B%7C%7D");
    }

    #[test]
    fn unreserved_escapes_are_decoded_and_others_upper_cased() {
        assert_eq!(p("/foo/bar/%62%61%7A"), "/foo/bar/baz");
        assert_eq!(p("/%7e%2d%2E%5f"), "/~-._");
        assert_eq!(p("/foo/%e3%83%84"), "/foo/%E3%83%84");
        assert_eq!(p("/a%2fb"), "/a%2Fb");
        assert_eq!(p("/a%2Fb"), "/a%2Fb");
    }

    #[test]
    fn stray_percent_is_encoded() {
        assert_eq!(p("/100%"), "/100%25");
        assert_eq!(p("/%zz"), "/%25zz");
        assert_eq!(p("/%4"), "/%254");
    }

    #[test]
    fn operators_are_data_in_paths() {
        assert_eq!(p("/a*b$"), "/a%2Ab%24");
        assert_eq!(pat("/a*b$"), "/a*b$");
        assert_eq!(pat("/a$b"), "/a%24b");
        assert_eq!(pat("/a$$"), "/a%24$");
        assert_eq!(
            String::from_utf8(normalize(b"/a*$", Mode::LiteralPattern).into_owned()).unwrap(),
            "/a%2A%24"
        );
    }
}
