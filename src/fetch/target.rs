//! Where a site's robots.txt lives (RFC 9309 section 2.3): the URL's scheme
//! and authority with the path `/robots.txt`.

use std::borrow::Cow;

use url::Url;

use crate::Error;
use crate::matcher::url::trim_controls_str;

/// The robots.txt URL governing `url`: `scheme://host[:port]/robots.txt`.
///
/// The scheme, host and port are kept (a default port is dropped, as the
/// `url` crate normalises it); user info, path, query and fragment are
/// dropped. Only `http` and `https` URLs with a host have a robots.txt.
///
/// # Errors
///
/// [`Error::InvalidUrl`] for a string that is not an absolute URL (a host
/// and port alone, `localhost:8080`, among them), whose host cannot be
/// sent in a request, or whose port is 0; [`Error::UnsupportedScheme`]
/// for a scheme but `http` and `https`; [`Error::NoHost`] for a URL
/// without a host.
///
/// ```
/// let url = keepout::fetch::robots_url("https://user:pw@Example.com:8443/a/b?q#f")?;
/// assert_eq!(url.as_str(), "https://example.com:8443/robots.txt");
/// # Ok::<(), keepout::Error>(())
/// ```
pub fn robots_url(url: impl AsRef<str>) -> Result<Url, Error> {
    let parsed = parse_site_url(url.as_ref())?;
    Ok(robots_url_of(&parsed))
}

/// A key naming the origin (scheme, host, port) whose robots.txt governs
/// `url`, e.g. `https://example.com` or `http://example.com:8080`; handy as a
/// cache key, since all URLs with one key share one robots.txt.
///
/// # Errors
///
/// As [`robots_url`]: for input that can have no robots.txt.
///
/// ```
/// assert_eq!(
///     keepout::fetch::origin_key("HTTPS://example.com:443/x")?,
///     "https://example.com"
/// );
/// # Ok::<(), keepout::Error>(())
/// ```
pub fn origin_key(url: impl AsRef<str>) -> Result<String, Error> {
    origin_key_ref(url.as_ref()).map(Cow::into_owned)
}

/// [`origin_key`], borrowed from `url` when the URL is of the common shape
/// [`simple_origin`] reads without parsing (a cache lookup then neither
/// parses nor allocates).
pub(crate) fn origin_key_ref(url: &str) -> Result<Cow<'_, str>, Error> {
    match simple_origin(url) {
        Some(key) => Ok(Cow::Borrowed(key)),
        None => Ok(Cow::Owned(
            parse_site_url(url)?.origin().ascii_serialization(),
        )),
    }
}

/// The origin key of `url` when it is `http://` or `https://` followed by a
/// host name the URL standard keeps as written: lower-case ASCII letters,
/// digits, `-` and `.`, in non-empty labels, the last starting with a
/// letter (so it is not read as an IPv4 address), none starting `xn--`
/// (which would need punycode checks), 253 octets at most; no user info;
/// no port or one that is not the scheme's default, without leading zeros;
/// then the end or `/`, `?`, `#`. That key is the input's own prefix.
/// `None` for any other input, which [`origin_key`] parses in full. A
/// property test checks this against the `url` crate.
fn simple_origin(url: &str) -> Option<&str> {
    let b = url.as_bytes();
    let start = if b.starts_with(b"https://") {
        8
    } else if b.starts_with(b"http://") {
        7
    } else {
        return None;
    };
    let end = b[start..]
        .iter()
        .position(|&c| matches!(c, b'/' | b'?' | b'#'))
        .map_or(b.len(), |i| start + i);
    let mut host = &b[start..end];
    // A port is kept unless it is the scheme's default (which the key
    // drops, as the `url` crate does): 1 to 65535 without leading zeros.
    if let Some(colon) = host.iter().position(|&c| c == b':') {
        let port = &host[colon + 1..];
        let default: &[u8] = if start == 8 { b"443" } else { b"80" };
        if port.is_empty()
            || port.len() > 5
            || port[0] == b'0'
            || port == default
            || !port.iter().all(u8::is_ascii_digit)
            || std::str::from_utf8(port).ok()?.parse::<u32>().ok()? > 65535
        {
            return None;
        }
        host = &host[..colon];
    }
    // No longer than a DNS name (RFC 1035 section 2.3.4): a host too long
    // to send in a request (`is_sendable`) is refused by the full parse.
    if host.len() > 253 {
        return None;
    }
    let mut labels = host.split(|&c| c == b'.');
    let ok_label = |l: &[u8]| {
        !l.is_empty()
            && !l.starts_with(b"xn--")
            && l.iter()
                .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    };
    let last = labels.next_back()?;
    (ok_label(last) && last[0].is_ascii_lowercase() && labels.all(ok_label)).then(|| &url[..end])
}

/// Why the URL parser refused `input`, in words: the parser's own, but
/// for a host holding a space, a control or one of `<>^|`, which it
/// reports as an invalid international domain name (its IDNA step is
/// the one that refuses them) though nothing in it need be international.
pub(crate) fn url_fault(input: &str, e: url::ParseError) -> String {
    let host_char = || {
        let (_, rest) = trim_controls_str(input).split_once("://")?;
        crate::matcher::url::host_and_port_text(rest)
            .chars()
            .find(|&c| c == ' ' || c.is_ascii_control() || matches!(c, '<' | '>' | '^' | '|'))
    };
    match e {
        url::ParseError::IdnaError => match host_char() {
            Some(c) => format!("the host holds {c:?}, which no host name can"),
            None => e.to_string(),
        },
        e => e.to_string(),
    }
}

/// Why `input`, which the URL standard reads as relative, can have no
/// robots.txt, in words that say what to give instead (rather than the
/// `url` crate's "relative URL without a base").
fn relative_reason(input: &str) -> String {
    // As the URL parser trims: C0 controls and space, not a no-break space.
    let trimmed = trim_controls_str(input);
    if trimmed.is_empty() {
        return "empty: an absolute http or https URL is needed".to_owned();
    }
    // `//host/path`, scheme-relative, names a host: only the scheme is
    // missing.
    let host_and_path = match trimmed.strip_prefix("//") {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') => rest,
        _ if trimmed.starts_with('/') => {
            return "a path, with no scheme or host: an absolute http or https URL is needed"
                .to_owned();
        }
        _ => trimmed,
    };
    // Text before a scheme (a no-break space, a byte order mark, a quote):
    // name it, rather than suggest a second scheme.
    if let Some(colon) = host_and_path.find("://") {
        let scheme = host_and_path[..colon]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |i| {
                i + host_and_path[i..].chars().next().map_or(1, char::len_utf8)
            });
        let before = &host_and_path[..scheme];
        // (Not a host and path whose query holds a URL.)
        if scheme > 0 && scheme < colon && !before.contains(|c: char| c.is_ascii_alphanumeric()) {
            return format!(
                "text before the scheme ({before:?}): an absolute http or https URL starts with its scheme"
            );
        }
    }
    // `http//host`: the scheme's colon left out.
    for scheme in ["http", "https"] {
        let with_slashes = host_and_path.get(..scheme.len() + 2);
        if with_slashes.is_some_and(|s| s.eq_ignore_ascii_case(&format!("{scheme}//"))) {
            let (scheme, rest) = host_and_path.split_at(scheme.len());
            let fixed = format!("{scheme}:{rest}");
            if Url::parse(&fixed).is_ok() {
                return format!(
                    "no ':' after the scheme: an absolute http or https URL is needed, such as {fixed:?}"
                );
            }
        }
    }
    let reason = "no scheme: an absolute http or https URL is needed";
    // A host and path written without the scheme: say how to write it.
    let with_scheme = format!("https://{host_and_path}");
    match Url::parse(&with_scheme) {
        // Quoted and escaped, as the input is in the error's message: it
        // may hold control characters, which a terminal must not act on.
        Ok(_) => format!("{reason}, such as {with_scheme:?}"),
        Err(_) => reason.to_owned(),
    }
}

/// Whether `input` reads as a host and port with no scheme: a "scheme"
/// that is a host name (`localhost`, or holding a `.`, which `tel:1234`
/// does not), then `:`, then one to five digits, then the end, `/`, `?`
/// or `#`.
fn host_and_port(input: &str) -> bool {
    let trimmed = trim_controls_str(input);
    let Some((host, rest)) = trimmed.split_once(':') else {
        return false;
    };
    if !(host.contains('.') || host.eq_ignore_ascii_case("localhost")) {
        return false;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (1..=5).contains(&digits)
        && matches!(rest.as_bytes().get(digits), None | Some(b'/' | b'?' | b'#'))
}

/// Parses `input` and checks that it can have a robots.txt.
pub(crate) fn parse_site_url(input: &str) -> Result<Url, Error> {
    let url = Url::parse(input).map_err(|e| match e {
        url::ParseError::EmptyHost => Error::NoHost {
            input: input.to_owned(),
        },
        url::ParseError::RelativeUrlWithoutBase => Error::InvalidUrl {
            input: input.to_owned(),
            reason: relative_reason(input),
        },
        e => Error::InvalidUrl {
            input: input.to_owned(),
            reason: url_fault(input, e),
        },
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        if host_and_port(input) {
            // `localhost:8080`, `example.com:80/a`: the URL standard reads
            // the host as a scheme, but the input names a host and port.
            return Err(Error::InvalidUrl {
                input: input.to_owned(),
                reason: relative_reason(input),
            });
        }
        return Err(Error::UnsupportedScheme {
            input: input.to_owned(),
            scheme: url.scheme().to_owned(),
        });
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(Error::NoHost {
            input: input.to_owned(),
        });
    }
    if url.port() == Some(0) {
        // No server listens there: not a site to fetch, nor to keep the
        // failure of (disallow all) for the origin.
        return Err(Error::InvalidUrl {
            input: input.to_owned(),
            reason: "port 0, which no server can listen on".to_owned(),
        });
    }
    // Only the robots.txt URL is requested: a path, query or fragment too
    // long for an HTTP request (65,535 octets and more) does not matter.
    if !is_sendable(&robots_url_of(&url)) {
        return Err(Error::InvalidUrl {
            input: input.to_owned(),
            reason: "the host cannot be sent in an HTTP request".to_owned(),
        });
    }
    Ok(url)
}

/// Whether an HTTP client can request `url`. The URL standard keeps some
/// octets in a host (`{`, `"`, `` ` ``, ...) that an HTTP request target
/// may not hold, so such a URL parses yet cannot be fetched.
pub(crate) fn is_sendable(url: &Url) -> bool {
    url.as_str().parse::<http::Uri>().is_ok()
}

/// The robots.txt URL of an http(s) URL that has a host.
pub(crate) fn robots_url_of(url: &Url) -> Url {
    let mut robots = url.clone();
    // Neither call can fail on an http(s) URL with a host.
    let _ = robots.set_username("");
    let _ = robots.set_password(None);
    robots.set_path("/robots.txt");
    robots.set_query(None);
    robots.set_fragment(None);
    robots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_scheme_host_port_drops_the_rest() {
        let cases = [
            ("http://example.com", "http://example.com/robots.txt"),
            ("http://example.com:80/x", "http://example.com/robots.txt"),
            (
                "https://EXAMPLE.com/a/b/c?x=1#top",
                "https://example.com/robots.txt",
            ),
            (
                "https://u:p@example.com:8443/",
                "https://example.com:8443/robots.txt",
            ),
            ("http://[::1]:8080/p", "http://[::1]:8080/robots.txt"),
            (
                "http://127.0.0.1:3000/robots.txt?x",
                "http://127.0.0.1:3000/robots.txt",
            ),
            (
                "https://bücher.example/",
                "https://xn--bcher-kva.example/robots.txt",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(robots_url(input).unwrap().as_str(), want, "{input}");
        }
    }

    /// A URL without a scheme gets an error that says what to give.
    #[test]
    fn relative_input_is_refused_in_plain_words() {
        let reason = |input: &str| match robots_url(input) {
            Err(Error::InvalidUrl { reason, .. }) => reason,
            other => panic!("{input:?}: {other:?}"),
        };
        assert_eq!(
            reason("example.com/about"),
            "no scheme: an absolute http or https URL is needed, such as \"https://example.com/about\""
        );
        // The suggestion is escaped, as the input is in the message.
        assert_eq!(
            reason("example.com/\u{1b}]0;t\u{7}\u{202e}"),
            "no scheme: an absolute http or https URL is needed, such as \"https://example.com/\\u{1b}]0;t\\u{7}\\u{202e}\""
        );
        assert_eq!(
            reason("not a url"),
            "no scheme: an absolute http or https URL is needed"
        );
        assert_eq!(
            reason("example.com/a?u=https://b.example/"),
            "no scheme: an absolute http or https URL is needed, such as \"https://example.com/a?u=https://b.example/\""
        );
        // Text before a scheme is named, not given a second scheme.
        assert_eq!(
            reason("\u{a0}https://example.com/"),
            "text before the scheme (\"\\u{a0}\"): an absolute http or https URL starts with its scheme"
        );
        assert_eq!(
            reason("\u{feff}\"https://example.com/\""),
            "text before the scheme (\"\\u{feff}\\\"\"): an absolute http or https URL starts with its scheme"
        );
        assert_eq!(
            reason(" \t"),
            "empty: an absolute http or https URL is needed"
        );
        assert!(reason("/private").starts_with("a path, with no scheme or host"));
        // A scheme-relative URL has a host, but no scheme.
        assert_eq!(
            reason("//example.com/x"),
            "no scheme: an absolute http or https URL is needed, such as \"https://example.com/x\""
        );
        assert!(reason("///x").starts_with("a path, with no scheme or host"));
        // A host and port, which the URL standard reads as a scheme and a
        // path (it was refused as the scheme "localhost").
        for (input, fixed) in [
            ("localhost:8080", "https://localhost:8080"),
            ("example.com:80/about", "https://example.com:80/about"),
            ("127.0.0.1:3000?x", "https://127.0.0.1:3000?x"),
        ] {
            let want =
                format!("no scheme: an absolute http or https URL is needed, such as {fixed:?}");
            assert_eq!(reason(input), want);
        }
        // The scheme's colon left out (it was given a second scheme:
        // "https://http//example.com/x").
        assert_eq!(
            reason("http//example.com/x"),
            "no ':' after the scheme: an absolute http or https URL is needed, such as \"http://example.com/x\""
        );
        assert_eq!(
            reason("HTTPS//example.com"),
            "no ':' after the scheme: an absolute http or https URL is needed, such as \"HTTPS://example.com\""
        );
        // Port 0, where no server listens.
        assert_eq!(
            reason("http://example.com:0/a"),
            "port 0, which no server can listen on"
        );
        assert!(origin_key("http://127.0.0.1:0/").is_err());
        // A plain ASCII mistake in a host is named, not called an
        // international domain name.
        for (input, c) in [
            ("https://exa mple.com/", "' '"),
            ("https://user@a|b.example:8080/x", "'|'"),
            ("http://a<b>/", "'<'"),
            ("https://a\u{1}b/", "'\\u{1}'"),
        ] {
            assert_eq!(
                reason(input),
                format!("the host holds {c}, which no host name can"),
                "{input:?}"
            );
        }
        // Where no such character is found, the URL parser's own words.
        assert_eq!(
            reason("https://a\u{fffd}b/"),
            "invalid international domain name"
        );
        // Schemes stay schemes.
        for input in ["mailto:a@example.com", "tel:1234", "urn:isbn:0451450523"] {
            assert!(
                matches!(robots_url(input), Err(Error::UnsupportedScheme { .. })),
                "{input}"
            );
        }
    }

    #[test]
    fn rejects_what_can_have_no_robots_txt() {
        assert!(matches!(
            robots_url("example.com/x"),
            Err(Error::InvalidUrl { .. })
        ));
        assert!(matches!(robots_url(""), Err(Error::InvalidUrl { .. })));
        assert!(matches!(
            robots_url("ftp://example.com/"),
            Err(Error::UnsupportedScheme { scheme, .. }) if scheme == "ftp"
        ));
        assert!(matches!(
            robots_url("mailto:a@b.c"),
            Err(Error::UnsupportedScheme { .. })
        ));
        for input in ["http://", "http:///", "https://@/", "http://:80/"] {
            let err = robots_url(input).unwrap_err();
            assert!(matches!(&err, Error::NoHost { .. }), "{input}: {err}");
        }
        // Hosts the URL standard keeps but an HTTP request cannot carry.
        for input in [
            "http://a{b}.example/",
            "http://a\"b.example/",
            "http://a`b.example/",
        ] {
            let err = robots_url(input).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidUrl { reason, .. } if reason.contains("host")),
                "{input}: {err}"
            );
        }
    }

    #[test]
    fn a_long_path_query_or_fragment_does_not_matter() {
        for host in ["example.com", "Example.com"] {
            for rest in ["/", "/s?q=", "/p#"] {
                let url = format!("https://{host}{rest}{}", "x".repeat(70_000));
                assert_eq!(
                    robots_url(&url).unwrap().as_str(),
                    "https://example.com/robots.txt"
                );
                assert_eq!(origin_key(&url).unwrap(), "https://example.com");
            }
        }
    }

    proptest::proptest! {
        /// The shortcut agrees with the `url` crate wherever it answers.
        #[test]
        fn simple_origins_agree_with_the_url_crate(
            scheme in proptest::sample::select(&["http://", "https://", "HTTP://", "ftp://", "http:/", ""][..]),
            host in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "example", "x1", "1", "0x1", "-", ".", "..", "xn--", "xn--mnchen-3ya",
                    "B", "é", "%41", "@", ":", ":80", ":443", ":8080", ":0", ":08", ":65535", ":65536", ":99999", "[::1]", " ", "\\", "\t",
                ][..]),
                0..6,
            ),
            rest in proptest::sample::select(&["", "/", "/x?y", "?q", "#f", "/a b", "\\x"][..]),
        ) {
            let url = format!("{scheme}{}{rest}", host.concat());
            if let Some(key) = simple_origin(&url) {
                let full = parse_site_url(&url).ok().map(|u| u.origin().ascii_serialization());
                proptest::prop_assert_eq!(Some(key.to_owned()), full, "{}", url);
            }
        }
    }

    #[test]
    fn simple_origins() {
        assert_eq!(
            simple_origin("https://a.example/x?y"),
            Some("https://a.example")
        );
        assert_eq!(
            simple_origin("http://a-1.example"),
            Some("http://a-1.example")
        );
        assert_eq!(
            simple_origin("http://localhost:8080/x"),
            Some("http://localhost:8080")
        );
        assert_eq!(
            simple_origin("https://a.example:80/"),
            Some("https://a.example:80")
        );
        for other in [
            "https://A.example/",
            "https://a.example:443/",
            "http://a.example:80/",
            "http://a.example:080/",
            "http://a.example:65536/",
            "http://a.example:/",
            "https://u@a.example/",
            "https://127.0.0.1/",
            "https://a.1/",
            "https://xn--mnchen-3ya.de/",
            "https://a..b/",
            &format!("https://{}.example/", "a".repeat(250)),
            "https:///x",
            "ftp://a.example/",
        ] {
            assert_eq!(simple_origin(other), None, "{other}");
        }
    }

    /// A host too long for any request has no key, whichever path reads it.
    #[test]
    fn a_host_too_long_to_send_has_no_key() {
        for label in ["a", "A"] {
            let url = format!("http://{}.example/", label.repeat(70_000));
            let err = origin_key(&url).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidUrl { reason, .. } if reason.contains("host")),
                "{label}"
            );
            assert!(matches!(robots_url(&url), Err(Error::InvalidUrl { .. })));
        }
    }

    #[test]
    fn origin_keys() {
        assert_eq!(
            origin_key("http://a.example:8080/x").unwrap(),
            "http://a.example:8080"
        );
        assert_eq!(
            origin_key("https://a.example/x").unwrap(),
            "https://a.example"
        );
        assert_ne!(
            origin_key("http://a.example/").unwrap(),
            origin_key("https://a.example/").unwrap()
        );
    }
}
