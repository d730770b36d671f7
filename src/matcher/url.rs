//! Taking the path and query from whatever a caller passes as a URL, and
//! putting them in `percent`'s normal form ([`normal_path`]) for the
//! matcher.

use std::borrow::Cow;

use url::Url;

use crate::lanes::{self, Lanes, Marks, lanes_or, lanes_where};
use crate::percent::{self, Mode};

/// The path and query of `url`, which may be absolute (`https://h/p?q#f`),
/// scheme-relative (`//h/p`) or a path (`/p?q`), as a client requests them
/// ([`client_url`]). The fragment is dropped; an empty path is `/`. Never
/// fails: for text that is no URL it returns what follows the first `/` or
/// `?`, else `/`. (Checks use [`normal_path`]; this is for tests and
/// fuzzing.)
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn path_and_query(url: &str) -> Cow<'_, [u8]> {
    match client_url(url) {
        Some(read) => Cow::Owned(rooted(path_query(&read)).into_owned()),
        None => rooted(raw_path(url)),
    }
}

/// A path and query as [`raw_path`] gives them, with the `/` an empty path
/// stands for.
fn rooted(rest: &[u8]) -> Cow<'_, [u8]> {
    match rest.first() {
        None => Cow::Borrowed(b"/"),
        Some(b'?') => Cow::Owned([b"/", rest].concat()),
        Some(_) => Cow::Borrowed(rest),
    }
}

/// The path and query of `url` as a client requests them ([`client_url`]),
/// in percent-encoded normal form ([`percent::path`]). Borrows from `url`
/// when it is already normal and a client reads it as written; otherwise
/// allocates once for the normal form, and, where a client reads it
/// otherwise, once more for the URL so read.
#[inline]
pub(crate) fn normal_path(url: &str) -> Cow<'_, [u8]> {
    // The common case in one pass: `http(s)://host/path` or `/path`,
    // nothing to trim, a path already in normal form up to its end or its
    // fragment, and nothing a client reads otherwise (the scan stops at a
    // dot segment and at an `'` in the query).
    let bytes = url.as_bytes();
    if let Some(from) = plain_rest(bytes) {
        let stop = percent::normal_until_fragment(bytes, from);
        if bytes.get(stop).is_none_or(|&b| b == b'#') {
            match bytes[from..stop].first() {
                Some(b'/') => return Cow::Borrowed(&bytes[from..stop]),
                None => return Cow::Borrowed(b"/"),
                // `?q` needs a `/` in front: the general path below.
                _ => {}
            }
        }
    }
    match client_url(url) {
        Some(read) => Cow::Owned(normal_form(path_query(&read)).into_owned()),
        None => normal_form(raw_path(url)),
    }
}

/// A path and query as [`raw_path`] gives them, in normal form.
fn normal_form(rest: &[u8]) -> Cow<'_, [u8]> {
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

/// Where the path and query of `s` start when they start where they are
/// written: after the authority of `http(s)://host...` (as
/// [`after_http_authority`] takes it), or at 0 when `s` is a path starting
/// with a single `/`, with no control or space to trim at its end.
#[inline]
fn plain_rest(s: &[u8]) -> Option<usize> {
    match s {
        [b'/', second, ..] if *second != b'/' && s[s.len() - 1] > b' ' => Some(0),
        [b'/'] => Some(0),
        _ => after_http_authority(s),
    }
}

/// The path and query of a URL, as written in its serialisation.
fn path_query(url: &Url) -> &[u8] {
    url[url::Position::BeforePath..url::Position::AfterQuery].as_bytes()
}

/// `url` as a client parsing URLs by the URL standard (the `url` crate,
/// and so reqwest; browsers) reads it, where that may differ from reading
/// it as written (RFC 3986, and Google's library): dot segments (`.`,
/// `..`, `%2e`, ...) resolved (RFC 3986 section 5.2.4, as servers also
/// resolve them), `\` read as `/` in an http(s) URL, tabs and newlines
/// dropped, the host found after any number of slashes (`http:/h/p`,
/// `http:///h/p`), an `'` in the query sent as `%27`. So
/// `https://example.com/a/../private` is checked as `/private`, the path
/// it fetches. `None` where none of these can apply (the octets and forms
/// that call for them are absent).
///
/// An absolute URL is read as a whole; anything else (a path, `//host/p`,
/// `host/p`, text the `url` crate refuses, such as a port over 65535) by
/// its path and query as written ([`raw_path`]), read as an http URL's
/// would be.
pub(crate) fn client_url(url: &str) -> Option<Url> {
    if !may_read_otherwise(url.as_bytes()) {
        return None;
    }
    match Url::parse(url) {
        Ok(parsed) if !parsed.cannot_be_a_base() => Some(parsed),
        _ => {
            // Tabs and newlines are dropped before anything is read (URL
            // standard, basic URL parser, step 3): `/\t/h/p` is `//h/p`.
            let url = if url.contains(['\t', '\n', '\r']) {
                Cow::Owned(url.replace(['\t', '\n', '\r'], ""))
            } else {
                Cow::Borrowed(url)
            };
            let rest = std::str::from_utf8(raw_path(&url)).ok()?;
            // With its fragment cut off, the rest may end in a space or
            // control that the URL parser would trim as the URL's end, not
            // encode as the path's (`/./b #x` requests `/b%20`): an empty
            // fragment keeps the rest's end inside.
            Url::parse(&format!("http://h{rest}#")).ok()
        }
    }
}

/// Whether a client may read `url`'s path and query otherwise than as
/// written ([`client_url`]): it holds a `\`, tab, CR, LF or `'`, or
/// `/.` or `/%2e`, or it names a scheme not followed by `//` and a host.
/// May be true where the readings agree, never false where they differ.
fn may_read_otherwise(s: &[u8]) -> bool {
    let s = trim_controls(s);
    let odd_start = match scheme_colon(s) {
        Some(colon) => !s[colon..].starts_with(b"://") || s.get(colon + 3) == Some(&b'/'),
        None => false,
    };
    if odd_start {
        return true;
    }
    // Sixteen octets a step: `\`, tab, CR, LF, `'`, and `/` followed by
    // `.` or `%` (the last lane's next octet is unknown: a `/` there is
    // looked at).
    let marks = |v: &Lanes| {
        let slash = lanes::pair(v, |b| b == b'/', |b| (b == b'.') | (b == b'%'));
        let others = lanes_or(
            lanes_where(v, |b| b == b'\\'),
            lanes_or(
                lanes_where(v, |b| matches!(b, b'\t' | b'\n' | b'\r')),
                lanes_where(v, |b| b == b'\''),
            ),
        );
        Marks::of(others).or(slash)
    };
    let mut i = lanes::find_marks(s, 0, marks, &READ_OTHERWISE);
    loop {
        match s.get(i) {
            None => return false,
            Some(b'/') => match &s[i + 1..] {
                [b'.', ..] | [b'%', b'2', b'e' | b'E', ..] => return true,
                _ => i = lanes::find_marks(s, i + 1, marks, &READ_OTHERWISE),
            },
            Some(_) => return true,
        }
    }
}

/// 1 for the octets [`may_read_otherwise`] stops at in fewer than sixteen.
static READ_OTHERWISE: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = 1;
    t[b'\\' as usize] = 1;
    t[b'\t' as usize] = 1;
    t[b'\n' as usize] = 1;
    t[b'\r' as usize] = 1;
    t[b'\'' as usize] = 1;
    t
};

/// The offset just past the authority of a URL that starts with `http://`
/// or `https://` (in any case) and needs no trimming: what follows is
/// empty, or starts with `/`, `?` or `#`. `None` for anything else.
#[inline]
fn after_http_authority(s: &[u8]) -> Option<usize> {
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
    // An empty host (`http:///h/p`, which the URL standard reads as host
    // `h`), a `\` (which ends the host there), or a tab or newline (which
    // it drops, `http://\t/h/p` being `http:///h/p`): [`client_url`]'s.
    match http_authority_end(s, after) {
        end if end == after => None,
        end if s.get(end).is_some_and(|&b| b == b'\\' || b <= b' ') => None,
        end => Some(end),
    }
}

/// The offset of the first `/`, `?`, `#`, `\`, control or space in `s` at
/// or after `from`, or its length: where an authority starting at `from`
/// ends (or, for the last three, where its reading by the URL standard may
/// differ). Sixteen octets a step, which covers most host names at once (a
/// `memchr3` call costs more to set up than such a host takes); a short
/// host is read in the last sixteen octets of `s`, those before it left
/// out, rather than an octet at a time.
#[inline]
fn http_authority_end(s: &[u8], from: usize) -> usize {
    let ends = |v: &Lanes| {
        lanes_or(
            lanes_or(lanes_where(v, |b| b == b'/'), lanes_where(v, |b| b == b'?')),
            lanes_or(
                lanes_where(v, |b| b == b'#'),
                lanes_or(
                    lanes_where(v, |b| b == b'\\'),
                    lanes_where(v, |b| b <= b' '),
                ),
            ),
        )
    };
    lanes::find(s, from, ends, &AUTHORITY_END)
}

/// 1 for the octets [`http_authority_end`] stops at.
static AUTHORITY_END: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b <= b' ' {
        t[b as usize] = 1;
        b += 1;
    }
    t[b'/' as usize] = 1;
    t[b'?' as usize] = 1;
    t[b'#' as usize] = 1;
    t[b'\\' as usize] = 1;
    t
};

/// The path and query of `url` as written, after its authority as an http
/// URL's is found (past `\` as well as `/`): possibly empty, or starting
/// with `?` or a `\` that [`client_url`] reads as a `/`.
#[inline]
fn raw_path(url: &str) -> &[u8] {
    let s = trim_controls(url.as_bytes());
    let s = &s[..memchr::memchr(b'#', s).unwrap_or(s.len())];
    // In an http URL, as in the `url` crate and browsers, a `\` is read
    // as a `/` (URL standard, "special relative or authority state" and
    // the states after it), and the host follows any number of slashes
    // ("special authority ignore slashes state"): `/\h/p` and `///h/p`
    // are scheme-relative URLs of host `h`, `\p` a path.
    let slash = |b: &u8| matches!(b, b'/' | b'\\');
    let start = match s {
        [first, second, ..] if slash(first) && slash(second) => {
            let host = s.iter().position(|b| !slash(b)).unwrap_or(s.len());
            authority_end(s, host)
        }
        [first, ..] if slash(first) => 0,
        _ => match scheme_end(s) {
            Some(after) => authority_end(s, after),
            None => authority_end(s, 0),
        },
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

/// [`trim_controls`] of a string: a URL (or a `Location`, a `Sitemap`
/// value) as the URL standard's parser reads it.
#[inline]
pub(crate) fn trim_controls_str(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// The host and port in `rest`, the text of a URL after its scheme's `:`
/// (or a scheme-relative `//host/...`), delimited as the URL standard's
/// parser does: past the slashes and backslashes before it, up to the
/// first `/`, `\`, `?` or `#`, after the userinfo's last `@`. Text only:
/// nothing is checked or decoded.
pub(crate) fn host_and_port_text(rest: &str) -> &str {
    let authority = rest.trim_start_matches(['/', '\\']);
    let end = authority
        .find(['/', '\\', '?', '#'])
        .unwrap_or(authority.len());
    let authority = &authority[..end];
    authority.rsplit('@').next().unwrap_or(authority)
}

/// With `s` = `scheme://...`, the offset just past `//`.
fn scheme_end(s: &[u8]) -> Option<usize> {
    let colon = scheme_colon(s)?;
    s[colon..].starts_with(b"://").then_some(colon + 3)
}

/// With `s` = `scheme:...`, the offset of the colon (RFC 3986 section
/// 3.1: a letter, then letters, digits, `+`, `-` and `.`).
fn scheme_colon(s: &[u8]) -> Option<usize> {
    let colon = s
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (colon > 0 && s[0].is_ascii_alphabetic() && s[colon] == b':').then_some(colon)
}

/// The offset of the first `/`, `?` or `\` at or after `from` (the
/// path's start; a `\` is read as a `/`, as in an http URL).
#[inline]
fn authority_end(s: &[u8], from: usize) -> usize {
    memchr::memchr3(b'/', b'?', b'\\', &s[from..]).map_or(s.len(), |i| from + i)
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
        // As a client requests it (`client_urls` below).
        assert_eq!(p("http://h/a//b/../c"), "/a//c");
        assert_eq!(p("\t\x7f /p \x0b\r\n"), "/p");
        // As `url::Url` reads it: a DEL is not trimmed.
        assert_eq!(p("https://h/a\x7f"), "/a\x7f");
        assert_eq!(&*normal_path("https://h/a\x7f"), b"/a%7F");
        assert_eq!(&*normal_path("/a\x7f\n"), b"/a%7F");
        // Inside, a tab or newline is dropped, as a client drops it.
        assert_eq!(&*normal_path("https://h/a\tb\nc"), b"/abc");
        assert_eq!(p(" ツ/p"), "/p");
        // A scheme-relative URL as a client resolving a link reads it: a
        // `\` is a `/`, the host follows any number of slashes, and a tab
        // among them is dropped first (until session 59, `//a\b/c` was
        // checked as `/c` and `///h/p` as `/h/p`).
        assert_eq!(p("//a\\b/c"), "/b/c");
        assert_eq!(p("/\\h/c"), "/c");
        assert_eq!(p("\\\\h/c?q"), "/c?q");
        assert_eq!(p("///h/p"), "/p");
        assert_eq!(p("/\t/h/p"), "/p");
        assert_eq!(p("\\p"), "/p");
        assert_eq!(p("/\\"), "/");
    }

    /// `http_authority_end` finds the first `/`, `?` or `#` wherever it falls
    /// relative to its 16-octet steps, and the end when there is none.
    #[test]
    fn http_authority_end_at_every_offset() {
        for len in 0..40 {
            let host = vec![b'h'; len];
            assert_eq!(http_authority_end(&host, 0), len);
            for at in 0..len {
                for stop in [b'/', b'?', b'#', b'\\', b'\t', b' ', 0] {
                    let mut s = host.clone();
                    s[at] = stop;
                    // A later stop octet does not matter.
                    s.push(b'/');
                    assert_eq!(http_authority_end(&s, 0), at, "{len} {at} {stop}");
                    // From further on, within a longer text.
                    let mut t = b"https://".to_vec();
                    t.extend_from_slice(&s);
                    assert_eq!(http_authority_end(&t, 8), 8 + at, "{len} {at} {stop}");
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
                    "~", "!", "~user/abcdefghijklm!", ".", "..", "%2e", "\\", "'", "http:",
                ][..]),
                0..12,
            ),
        ) {
            let url = pieces.concat();
            let want = percent::path(&path_and_query(&url)).into_owned();
            proptest::prop_assert_eq!(&*normal_path(&url), &want[..], "{:?}", url);
        }
    }

    proptest::proptest! {
        /// Every URL is checked for the path and query the `url` crate
        /// reads from it, which reqwest requests; and where the fast path
        /// keeps the text as written, that is what the crate reads.
        #[test]
        fn paths_are_read_as_the_url_crate_reads_them(
            scheme in proptest::sample::select(&["http://", "HTTPS://", "http:/", "http:///", "http:", "//", "/\\", "\\\\", "\\/", ""][..]),
            host in proptest::sample::select(&["h", "h:8080", "u@h", "h\\x", "h:99999", ""][..]),
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "/", "a", ".", "..", "%2e", "%2E", ".%2e", "%2f", "\\", "\t", "\n", "?", "#", "'",
                    ".well-known", "a.html", "%41", "é",
                ][..]),
                0..10,
            ),
        ) {
            let url = format!("{scheme}{host}{}", pieces.concat());
            let checked = normal_path(&url);
            if let Ok(parsed) = Url::parse(&format!("http://h{}", &url[scheme.len() + host.len()..]))
                && scheme.starts_with("http")
                && host == "h"
            {
                let read = format!("{}{}", parsed.path(), parsed.query().map(|q| format!("?{q}")).unwrap_or_default());
                proptest::prop_assert_eq!(&*checked, &*percent::path(read.as_bytes()), "{:?}", url);
            }
            // A scheme-relative URL is read as a client resolving a link
            // reads it (a `\\` in it as a `/`).
            if matches!(scheme, "//" | "/\\" | "\\\\" | "\\/")
                && let Ok(joined) = Url::parse("http://base.example/x").and_then(|b| b.join(&url))
                && joined.host_str().is_some_and(|h| !h.is_empty())
            {
                let read = format!("{}{}", joined.path(), joined.query().map(|q| format!("?{q}")).unwrap_or_default());
                proptest::prop_assert_eq!(&*checked, &*percent::path(read.as_bytes()), "{:?}", url);
            }
            if let Cow::Borrowed(kept) = checked
                && let Ok(parsed) = Url::parse(&url)
            {
                let read = &parsed[url::Position::BeforePath..url::Position::AfterQuery];
                let read = if read.is_empty() { "/" } else { read };
                proptest::prop_assert_eq!(kept, read.as_bytes(), "{:?}", url);
            }
        }
    }

    #[test]
    fn client_urls() {
        let c = |u: &str| {
            client_url(u)
                .map(|read| String::from_utf8(rooted(path_query(&read)).into_owned()).unwrap())
        };
        // Nothing a client reads otherwise: no reading of its own.
        for url in [
            "https://h/a/b?c#d",
            "https://h",
            "https://h/a.b/c.d",
            "https://h/%2f",
            "/a/b?c",
            "//h/a",
            "h/a",
        ] {
            assert_eq!(c(url), None, "{url}");
        }
        for (url, read) in [
            ("https://h/a/../b", "/b"),
            ("https://h/a/./b/.", "/a/b/"),
            ("https://h/a/%2E%2e/b", "/b"),
            ("https://h/a/.%2e/b?c/../d", "/b?c/../d"),
            ("https://h\\a\\b", "/a/b"),
            ("https://h/a\tb\n", "/ab"),
            ("https://h/it's?q='", "/it's?q=%27"),
            // The host after one slash, three, or none.
            ("http:/h/a/../b", "/b"),
            ("HTTPS:///h/a?b", "/a?b"),
            ("http:h/a", "/a"),
            // Not a URL the `url` crate takes: the path as written,
            // resolved.
            ("https://h:99999/a/../b", "/b"),
            ("/a/../b", "/b"),
            ("/a/b/..", "/a/"),
            ("//h/../b", "/b"),
            ("?q/../", "/?q/../"),
            ("/../../b", "/b"),
            // A space or control before the fragment is the path's, as in
            // an absolute URL: encoded, not trimmed as the URL's end.
            ("/./b #x", "/b%20"),
            ("//h/a/../b\x01#x", "/b%01"),
            ("https://h:99999/./b?q #x", "/b?q%20"),
            ("https://h/./b #x", "/b%20"),
        ] {
            assert_eq!(c(url).as_deref(), Some(read), "{url}");
            assert_eq!(path_and_query(url), read.as_bytes(), "{url}");
        }
        // A segment that only starts with a dot is no dot segment: the
        // checks' fast path keeps it as written.
        for url in [
            "https://h/.well-known/x",
            "/a/.b/..c/c.",
            "https://h/a?x=/./",
        ] {
            let kept = normal_path(url);
            assert_eq!(c(url).as_deref().map(str::as_bytes), Some(&*kept), "{url}");
        }
        assert!(matches!(
            normal_path("https://h/.well-known/x"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(normal_path("/a/.b/..c/c."), Cow::Borrowed(_)));
        // Long runs cost linear time (the `url` crate's parser is linear).
        let long = format!("https://h{}", "/..".repeat(100_000));
        assert_eq!(c(&long).as_deref(), Some("/"));
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
