//! Taking the path and query from whatever a caller passes as a URL, and
//! putting them in `percent`'s normal form ([`normal_path`]) for the
//! matcher.

use std::borrow::Cow;

use crate::lanes::{self, Lanes, lanes_or, lanes_where};
use crate::percent::{self, Mode};

/// The path and query of `url`, which may be absolute (`https://h/p?q#f`),
/// scheme-relative (`//h/p`) or a path (`/p?q`). The fragment is dropped; an
/// empty path is `/`. Never fails: for text that is no URL it returns what
/// follows the first `/` or `?`, else `/`. (Checks use [`normal_path`];
/// this is for tests and fuzzing.)
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn path_and_query(url: &str) -> Cow<'_, [u8]> {
    let rest = raw_path(url);
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

/// The path and query of `url` as [`path_and_query`] reads them, in
/// percent-encoded normal form ([`percent::path`]). Borrows from `url` when
/// it is already normal; otherwise allocates once, for the normal form.
#[inline]
pub(crate) fn normal_path(url: &str) -> Cow<'_, [u8]> {
    // The common case in one pass: `http(s)://host/path`, nothing to trim,
    // a path already in normal form up to its end or its fragment.
    if let Some(rest) = after_http_authority(url.as_bytes()) {
        let stop = percent::normal_until_fragment(rest);
        if rest.get(stop).is_none_or(|&b| b == b'#') {
            match rest[..stop].first() {
                Some(b'/') => return Cow::Borrowed(&rest[..stop]),
                None => return Cow::Borrowed(b"/"),
                // `?q` needs a `/` in front: the general path below.
                _ => {}
            }
        }
    }
    let rest = raw_path(url);
    match rest.first() {
        None => Cow::Borrowed(b"/"),
        Some(b'?') => {
            let mut v = Vec::with_capacity(1 + 3 * rest.len());
            v.push(b'/');
            percent::normalize_into(rest, Mode::Path, &mut v);
            Cow::Owned(v)
        }
        Some(_) => percent::path(rest),
    }
}

/// What follows the authority of a URL that starts with `http://` or
/// `https://` (in any case) and needs no trimming: empty, or starting with
/// `/`, `?` or `#`. `None` for anything else.
#[inline]
fn after_http_authority(s: &[u8]) -> Option<&[u8]> {
    let word = u64::from_le_bytes(s.get(..8)?.try_into().ok()?);
    // Or-ing 0x20 lower-cases the letters of the scheme only.
    let after = if word | 0x20_2020_2020 == u64::from_le_bytes(*b"https://") {
        8
    } else if word & 0xFF_FFFF_FFFF_FFFF | 0x2020_2020 == u64::from_le_bytes(*b"http://\0") {
        7
    } else {
        return None;
    };
    let last = *s.last()?;
    if last <= b' ' {
        return None;
    }
    let rest = &s[after..];
    Some(&rest[authority_len(rest)..])
}

/// The offset of the first `/`, `?` or `#` in `s`, or its length: where an
/// authority ends. Sixteen octets a step, which covers most host names at
/// once (a `memchr3` call costs more to set up than such a host takes).
#[inline]
fn authority_len(s: &[u8]) -> usize {
    let ends = |v: &Lanes| {
        lanes_or(
            lanes_or(lanes_where(v, |b| b == b'/'), lanes_where(v, |b| b == b'?')),
            lanes_where(v, |b| b == b'#'),
        )
    };
    lanes::find(s, 0, ends, &AUTHORITY_END)
}

/// 1 for the octets that end an authority: `/`, `?`, `#`.
static AUTHORITY_END: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = 1;
    t[b'?' as usize] = 1;
    t[b'#' as usize] = 1;
    t
};

/// The path and query of `url` as written, possibly empty or starting
/// with `?`.
#[inline]
fn raw_path(url: &str) -> &[u8] {
    let s = trim_controls(url.as_bytes());
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
    &s[start..]
}

/// Removes C0 controls and spaces at both ends, as the URL standard's
/// parser does (a DEL stays, and is encoded, as that parser would: `%7F`).
/// (A UTF-8 string's other characters have no octet below 0x80, so
/// trimming octets is trimming characters.) Crawler names are trimmed so
/// too (`agent::select_names`).
#[inline]
pub(crate) fn trim_controls(mut s: &[u8]) -> &[u8] {
    let cut = |b: u8| b <= b' ';
    while let [first, rest @ ..] = s
        && cut(*first)
    {
        s = rest;
    }
    while let [rest @ .., last] = s
        && cut(*last)
    {
        s = rest;
    }
    s
}

/// With `s` = `scheme://...`, the offset just past `//`.
fn scheme_end(s: &[u8]) -> Option<usize> {
    let colon = s
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (colon > 0 && s[0].is_ascii_alphabetic() && s[colon..].starts_with(b"://")).then_some(colon + 3)
}

/// The offset of the first `/` or `?` at or after `from` (the path's start).
#[inline]
fn authority_end(s: &[u8], from: usize) -> usize {
    memchr::memchr2(b'/', b'?', &s[from..]).map_or(s.len(), |i| from + i)
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
        assert_eq!(p("\t\x7f /p \x0b\r\n"), "/p");
        // As `url::Url` reads it: a DEL is not trimmed.
        assert_eq!(p("https://h/a\x7f"), "/a\x7f");
        assert_eq!(&*normal_path("https://h/a\x7f"), b"/a%7F");
        assert_eq!(&*normal_path("/a\x7f\n"), b"/a%7F");
        // Inside, a tab or newline is data (`Robots::is_allowed`'s docs).
        assert_eq!(&*normal_path("https://h/a\tb\nc"), b"/a%09b%0Ac");
        assert_eq!(p(" ツ/p"), "/p");
    }

    /// `authority_len` finds the first `/`, `?` or `#` wherever it falls
    /// relative to its 16-octet steps, and the end when there is none.
    #[test]
    fn authority_len_at_every_offset() {
        for len in 0..40 {
            let host = vec![b'h'; len];
            assert_eq!(authority_len(&host), len);
            for at in 0..len {
                for stop in [b'/', b'?', b'#'] {
                    let mut s = host.clone();
                    s[at] = stop;
                    // A later stop octet does not matter.
                    s.push(b'/');
                    assert_eq!(authority_len(&s), at, "{len} {at} {stop}");
                }
            }
        }
    }

    proptest::proptest! {
        /// The one-pass path agrees with extracting, then normalising.
        #[test]
        fn normal_path_agrees_with_two_steps(
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "http://", "HTTPS://", "https://", "h", "/", "//", "?", "#", " ", "\t", "%7e",
                    "%2F", "é", "*", "$", ":", "@", "abcdefghijklmnop", "\u{7f}", "%E0%B9%81", "%e0",
                    "~", "!", "~user/abcdefghijklm!",
                ][..]),
                0..12,
            ),
        ) {
            let url = pieces.concat();
            let want = percent::path(&path_and_query(&url)).into_owned();
            proptest::prop_assert_eq!(&*normal_path(&url), &want[..], "{:?}", url);
        }
    }

    #[test]
    fn normal_paths() {
        let n = |u: &str| {
            let v = normal_path(u);
            let borrowed = matches!(v, Cow::Borrowed(_));
            (String::from_utf8(v.into_owned()).unwrap(), borrowed)
        };
        assert_eq!(n("https://h/a/b?c"), ("/a/b?c".into(), true));
        assert_eq!(n("HTTP://h/a#b"), ("/a".into(), true));
        assert_eq!(n("Https://h:8/a?b#c"), ("/a?b".into(), true));
        assert_eq!(n("https://h#c/d"), ("/".into(), true));
        assert_eq!(n("https://u@h"), ("/".into(), true));
        assert_eq!(n("https://h/a b#c d"), ("/a%20b".into(), false));
        assert_eq!(n("https://h/a#b c"), ("/a".into(), true));
        // `~` and `!`, where the scan stops and steps over, borrow too.
        assert_eq!(n("https://h/~u/a!b~c"), ("/~u/a!b~c".into(), true));
        assert_eq!(
            n("https://h/~user/abcdefghijklmnopqrstuvwxyz!~/x"),
            ("/~user/abcdefghijklmnopqrstuvwxyz!~/x".into(), true)
        );
        assert_eq!(n("https://h"), ("/".into(), true));
        // Escapes already in normal form are crossed, not rewritten.
        assert_eq!(
            n("https://h/%E0%B9%81%2F?q=%25#x"),
            ("/%E0%B9%81%2F?q=%25".into(), true)
        );
        assert_eq!(n("https://h/%E0%b9"), ("/%E0%B9".into(), false));
        assert_eq!(n("https://h/%E0%7E"), ("/%E0~".into(), false));
        assert_eq!(
            n("https://h/caf%c3%a9?x=é"),
            ("/caf%C3%A9?x=%C3%A9".into(), false)
        );
        assert_eq!(n("https://h?q"), ("/?q".into(), false));
        assert_eq!(n("https://h?q=é"), ("/?q=%C3%A9".into(), false));
        for u in [
            "https://h/a b",
            "//h?x*",
            "/%7e",
            "?",
            "http://h/x#%zz",
            "https://h ",
            "httpx://h/a",
            "http:/h/a",
            "https://h/%7e#x",
            "https://h?a#b",
            "https:",
        ] {
            assert_eq!(&*normal_path(u), &*percent::path(&path_and_query(u)), "{u}");
        }
    }
}
