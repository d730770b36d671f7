//! Taking the path and query from whatever a caller passes as a URL.

use std::borrow::Cow;

/// The path and query of `url`, which may be absolute (`https://h/p?q#f`),
/// scheme-relative (`//h/p`) or a path (`/p?q`). The fragment is dropped; an
/// empty path is `/`. Never fails: for text that is no URL it returns what
/// follows the first `/` or `?`, else `/`.
pub(crate) fn path_and_query(url: &str) -> Cow<'_, [u8]> {
    let s = url
        .trim_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control())
        .as_bytes();
    let s = &s[..memchr::memchr(b'#', s).unwrap_or(s.len())];
    let start = if s.starts_with(b"//") {
        authority_end(s, 2)
    } else if s.first() == Some(&b'/') {
        0
    } else {
        match scheme_end(s) {
            Some(after) => authority_end(s, after),
            None => authority_end(s, 0),
        }
    };
    let rest = &s[start..];
    match rest.first() {
        None => Cow::Borrowed(b"/"),
        Some(b'?') => {
            let mut v = Vec::with_capacity(rest.len() + 1);
            v.push(b'/');
            v.extend_from_slice(rest);
            Cow::Owned(v)
        }
        Some(_) => Cow::Borrowed(rest),
    }
}

/// With `s` = `scheme://...`, the offset just past `//`.
fn scheme_end(s: &[u8]) -> Option<usize> {
    let colon = s
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (colon > 0 && s[0].is_ascii_alphabetic() && s[colon..].starts_with(b"://")).then_some(colon + 3)
}

/// The offset of the first `/` or `?` at or after `from` (the path's start).
fn authority_end(s: &[u8], from: usize) -> usize {
    s[from..]
        .iter()
        .position(|&b| b == b'/' || b == b'?')
        .map_or(s.len(), |i| from + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(u: &str) -> String {
        String::from_utf8(path_and_query(u).into_owned()).unwrap()
    }

    #[test]
    fn paths() {
        assert_eq!(p("https://h.example:8080/a/b?c=1#frag"), "/a/b?c=1");
        assert_eq!(p("http://user:pw@h/x"), "/x");
        assert_eq!(p("HTTP://h"), "/");
        assert_eq!(p("http://h?q"), "/?q");
        assert_eq!(p("//h/p"), "/p");
        assert_eq!(p("/p?q#f"), "/p?q");
        assert_eq!(p(""), "/");
        assert_eq!(p("#f"), "/");
        assert_eq!(p("  /p  "), "/p");
        assert_eq!(p("example.com/x"), "/x");
        assert_eq!(p("mailto:a@b"), "/");
        assert_eq!(p("http://h/a//b/../c"), "/a//b/../c");
    }
}
