//! Whether a `Sitemap` value is a URL to fetch: [`sitemap_url`], which
//! [`Robots::sitemap_urls`](crate::Robots::sitemap_urls) reads each value
//! with, and [`is_fetchable`], the same answer told while parsing for the
//! [`SitemapNotUrl`](crate::WarningKind::SitemapNotUrl) warning without
//! running a URL parser on each of the thousands of values some files hold.

use url::Url;

/// The most characters a non-ASCII label of a host may hold as written: its
/// ASCII form has at most 63 octets (RFC 1035 section 2.3.4), and each
/// character is at least one of them (RFC 3492 section 6.3: punycode
/// writes each non-ASCII character with at least one digit), unless IDNA
/// drops it (a soft hyphen) or joins it to the one before (a combining
/// accent): a label that would shrink to fit only so is refused all the
/// same, as no sitemap host is written so.
const MAX_LABEL_CHARS: usize = 63;

/// The http(s) URL a `Sitemap` value names: an absolute URL, or a path
/// (starting with `/`) joined to `base`, the URL the file came from;
/// `None` for anything else, for a path without a base, and for a host
/// with a non-ASCII label longer than a name in the DNS can have
/// ([`has_overlong_label`]).
pub(crate) fn sitemap_url(value: &str, base: Option<&Url>) -> Option<Url> {
    if value.contains([' ', '\t']) {
        // No URL holds one (RFC 3986 section 2); a URL parser would
        // percent-encode it into a URL nobody wrote.
        return None;
    }
    if has_overlong_label(value) {
        return None;
    }
    let url = match (value.starts_with('/'), base) {
        // (Joined, not parsed as the base's scheme and the value: `////h`
        // joins to an empty host, an error, where `http:////h` is `h`.)
        (true, Some(base)) => base.join(value).ok(),
        (true, None) => None,
        // Another scheme is refused before the URL parser reads its host
        // (`ftp://` has one, which IDNA maps).
        (false, _) if !http_scheme(value) => None,
        (false, _) => Url::parse(value).ok(),
    }?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

/// Whether `value` starts with the scheme `http:` or `https:`, in any
/// case, after the C0 controls and spaces the URL parser drops.
fn http_scheme(value: &str) -> bool {
    let value = crate::matcher::url::trim_controls_str(value);
    let scheme = &value[..value.find(':').unwrap_or(0)];
    scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
}

/// Whether the host `value` names, read as the WHATWG URL parser reads an
/// http(s) URL or a path joined to one, has a label holding a non-ASCII
/// character and more than [`MAX_LABEL_CHARS`] characters, after
/// percent-decoding, between dots (`.`, or one of the three that IDNA
/// maps to it). No name in the DNS has one, so no URL to fetch does; and
/// the URL parser's IDNA step writes such a label in punycode, which costs
/// the square of its length (up to 1,000 characters): a 500 KiB file of
/// such sitemap lines took 200-375 ms to parse, against 2 ms for plain
/// ones. An ASCII label is left to the URL parser, which reads it in
/// linear time, and keeps a long one (`http://0x000...0/` is an IPv4
/// address). One pass over the authority.
fn has_overlong_label(value: &str) -> bool {
    let rest = if http_scheme(value) {
        &value[value.find(':').map_or(0, |i| i + 1)..]
    } else if value.starts_with('/') && value[1..].starts_with(['/', '\\']) {
        // A path whose host follows `//` (or `/\`: an http URL reads a
        // backslash as a slash).
        value
    } else {
        return false;
    };
    // Any slashes, then the authority, up to the path, query or fragment;
    // the host follows its last `@` and ends at a port's `:`.
    let host = crate::matcher::url::host_and_port_text(rest);
    if host.starts_with('[') {
        // An IPv6 address: no labels.
        return false;
    }
    let host = host.split(':').next().unwrap_or(host);
    // The host is percent-decoded before IDNA maps it.
    let host = percent_encoding::percent_decode_str(host).decode_utf8_lossy();
    host.split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])
        .any(|label| !label.is_ascii() && label.chars().nth(MAX_LABEL_CHARS).is_some())
}

/// Whether [`sitemap_url`] gives a URL for `value` (a stored value: UTF-8,
/// escaped where the body was not), a path counting as one (it is joined
/// to the URL the file came from).
///
/// Most values are plain (`https://www.example.com/sitemap.xml`) and are
/// told by [`plain_http_url`], or are paths, which are all URLs; the rest
/// go through [`sitemap_url`] itself, so that a value the URL parser
/// refuses (`https://`, `https://ex<ample.com/`, `http://[::1/`, a port
/// past 65535) gets the warning too.
pub(crate) fn is_fetchable(value: &[u8]) -> bool {
    if memchr::memchr2(b' ', b'\t', value).is_none() {
        match value {
            // A path, not `//host` or `/\host`: joined to a base, it parses
            // whatever it holds (the URL parser percent-encodes a path,
            // and refuses none).
            [b'/', second, ..] if !matches!(second, b'/' | b'\\') => return true,
            [b'/'] => return true,
            _ if plain_http_url(value) => return true,
            _ => {}
        }
    }
    // Joined to an http base, as a path is to the file's URL (http or
    // https alike: they join a path the same way).
    let base = Url::parse("http://h/").ok();
    std::str::from_utf8(value).is_ok_and(|text| sitemap_url(text, base.as_ref()).is_some())
}

/// Whether `value` is an http(s) URL that a URL parser certainly takes:
/// `http://` or `https://`, a host of ASCII letters, digits, `-` and `.`
/// whose last label starts with a letter (else the WHATWG URL parser reads
/// it as an IPv4 address, which can fail) and no label of which starts
/// with `xn--` (punycode, which can fail to decode), an optional port up
/// to 65535, then a path, query or fragment, which parse whatever they
/// hold. `false` says nothing: the URL parser then decides. One pass over
/// the authority, as files can hold thousands of sitemap lines.
fn plain_http_url(value: &[u8]) -> bool {
    let scheme = |name: &[u8]| {
        value
            .get(..name.len())
            .is_some_and(|v| v.eq_ignore_ascii_case(name))
    };
    let rest = match () {
        () if scheme(b"https://") => &value[8..],
        () if scheme(b"http://") => &value[7..],
        () => return false,
    };
    let mut label = 0;
    let mut i = 0;
    while let Some(&b) = rest.get(i) {
        match b {
            b'.' => label = i + 1,
            // `xn--` starting a label.
            b'-' if i == label + 3
                && rest[label + 2] == b'-'
                && rest[label..label + 2].eq_ignore_ascii_case(b"xn") =>
            {
                return false;
            }
            b'-' | b'0'..=b'9' => {}
            _ if b.is_ascii_alphabetic() => {}
            _ => break,
        }
        i += 1;
    }
    if !rest.get(label).is_some_and(u8::is_ascii_alphabetic) || label >= i {
        return false;
    }
    let after = &rest[i..];
    let port = match after.first() {
        None | Some(b'/' | b'?' | b'#') => return true,
        Some(b':') => &after[1..],
        Some(_) => return false,
    };
    let digits = port.iter().take_while(|b| b.is_ascii_digit()).count();
    let number = port[..digits.min(6)]
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    digits <= 5 && number <= 65535 && matches!(port.get(digits), None | Some(b'/' | b'?' | b'#'))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::Robots;

    /// What `sitemap_urls` does with a file holding only `value`.
    fn kept(value: &str) -> bool {
        let robots = Robots::parse(format!("Sitemap: {value}\n"));
        let base = url::Url::parse("https://example.com/robots.txt").unwrap();
        !robots.sitemap_urls_relative_to(&base).is_empty()
    }

    /// Whether the parser warns of `value`.
    fn warned(value: &str) -> bool {
        let robots = Robots::parse(format!("Sitemap: {value}\n"));
        let kinds: Vec<_> = robots.warnings().iter().map(|w| &w.kind).collect();
        match kinds[..] {
            [] => false,
            [crate::WarningKind::SitemapNotUrl] => true,
            _ => panic!("{value}: {kinds:?}"),
        }
    }

    #[test]
    fn values_a_url_parser_refuses_are_not_fetchable() {
        for value in [
            "https://",
            "https://ex<ample.com/s.xml",
            "http://[::1/s.xml",
            "https://example.com:99999/s.xml",
            "http://1.2.3.4.5/s.xml",
            "http://xn--a/s.xml",
            "ftp://example.com/s.xml",
            "sitemap.xml",
            "https://example.com/a.xml more",
            "//[::1/s.xml",
        ] {
            assert!(!is_fetchable(value.as_bytes()), "{value}");
            assert!(!kept(value), "{value}");
            assert!(warned(value), "{value}");
        }
        for value in [
            "https://www.example.com/sitemap.xml",
            "HTTP://EXAMPLE.com:8080/a.xml?x#y",
            "https://example.com",
            "http:example.com/b.xml",
            "https://user@example.com/s.xml",
            "https://[::1]/s.xml",
            "https://1.2.3.4/s.xml",
            "https://bücher.example/s.xml",
            "/sitemap.xml",
            "//cdn.example.com/s.xml",
        ] {
            assert!(is_fetchable(value.as_bytes()), "{value}");
            assert!(kept(value), "{value}");
            assert!(!warned(value), "{value}");
        }
    }

    /// A host with a non-ASCII label longer than any in the DNS is no URL
    /// to fetch, however it is written; a label of 63 characters is one,
    /// and so are a long user name, path or query, and a long ASCII label,
    /// which the URL parser keeps.
    #[test]
    fn hosts_with_labels_longer_than_the_dns_allows_are_not_fetchable() {
        let a64 = "a".repeat(64);
        let (cjk63, cjk64) = ("一".repeat(63), "一".repeat(64));
        let escaped64 = "%E4%B8%80".repeat(64);
        for value in [
            format!("https://{cjk64}.example/s.xml"),
            format!("HTTP://www.{cjk64}:8080/s.xml"),
            format!("https://user@{escaped64}.example/s.xml"),
            format!("https://a。{cjk64}/s.xml"),
            format!("https://{a64}é/s.xml"),
            format!("http:\\\\{cjk64}/s.xml"),
            format!("//{cjk64}/s.xml"),
            format!("/\\{cjk64}/s.xml"),
        ] {
            assert!(!is_fetchable(value.as_bytes()), "{value}");
            assert!(!kept(&value), "{value}");
            assert!(warned(&value), "{value}");
        }
        let long = "x".repeat(300);
        let zeros = "0".repeat(70);
        for value in [
            format!("https://{cjk63}.example/s.xml"),
            format!("https://{cjk63}%2E{cjk63}/s.xml"),
            format!("https://{cjk63}。{cjk63}/s.xml"),
            format!("https://{a64}.example/s.xml"),
            format!("http://0x{zeros}/s.xml"),
            format!("http://1.2.3.{zeros}4/s.xml"),
            format!("https://{long}:pw@example.com/{long}?{long}#{long}"),
            format!("https://[::1]/{cjk64}"),
            format!("/{cjk64}/s.xml"),
            format!("//example.com/{a64}"),
        ] {
            assert!(is_fetchable(value.as_bytes()), "{value}");
            assert!(kept(&value), "{value}");
            assert!(!warned(&value), "{value}");
        }
    }

    /// Values at the edges of the scan agree with the URL parser, however
    /// it reads them.
    #[test]
    fn edges_of_the_scan_agree_with_the_url_parser() {
        for value in [
            "http://xn--nxasmq6b.example/s.xml",
            "http://a.XN--b/s.xml",
            "http://a.xn-b/s.xml",
            "http://axn--b/s.xml",
            "http://xn-/",
            "http://.a/",
            "http://a./",
            "http://a..b/",
            "http://-a/",
            "http://a:/",
            "http://a:0/",
            "http://a:65535/",
            "http://a:65536/",
            "http://a:000080/",
            "http://a:8x/",
            "http://a:8:8/",
            "http://1a/",
            "http://a.1/",
            "http://a.0x1/",
            "http://a_b/",
            "http://a%2eb/",
            "https://a?x",
            "https://a#x",
            "http://",
            "http:///a",
        ] {
            assert_eq!(is_fetchable(value.as_bytes()), kept(value), "{value}");
            if plain_http_url(value.as_bytes()) {
                assert!(url::Url::parse(value).is_ok(), "{value}");
            }
        }
    }

    proptest! {
        /// The shortcut never takes a value the URL parser refuses.
        #[test]
        fn plain_urls_parse(value in "(?i)https?://[a-z0-9.:x-]{0,12}([/?#][a-z%<> ]{0,4})?") {
            if plain_http_url(value.as_bytes()) {
                prop_assert!(url::Url::parse(&value).is_ok(), "{}", value);
            }
        }

        /// The warning is given exactly for the values `sitemap_urls`
        /// leaves out.
        #[test]
        fn fetchable_is_what_sitemap_urls_keeps(
            value in "(?i)(https?:|ftp:|/)?/{0,2}[a-z0-9.:\\[\\]@<x-]{0,10}(/[a-z%é]{0,3})?",
        ) {
            let value = value.trim();
            prop_assume!(!value.is_empty());
            prop_assert_eq!(is_fetchable(value.as_bytes()), kept(value), "{}", value);
        }

        /// A value starting with `/`, of any characters, is told a URL as
        /// `sitemap_urls` reads it (but those a line cannot hold within a
        /// value: line ends, a NUL or `#`, which end it, or a space or tab,
        /// which make it no URL).
        #[test]
        fn paths_are_what_sitemap_urls_keeps(value in "/[^ \t\r\n\x00#]{0,12}") {
            // As the parser stores it (trimmed of the spaces it trims).
            let robots = Robots::parse(format!("Sitemap: {value}\n"));
            let stored = robots.sitemaps().next().unwrap_or_default();
            prop_assert_eq!(is_fetchable(stored.as_bytes()), kept(&value), "{}", value);
        }
    }
}
