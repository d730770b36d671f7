//! Following redirects by hand (RFC 9309 section 2.3.1.2), so hops are
//! counted, loops and non-http(s) targets are caught, and the final URL is
//! known.

use std::borrow::Cow;

use http::header::LOCATION;
use http::{HeaderMap, StatusCode};
use percent_encoding::{AsciiSet, CONTROLS, percent_encode};
use url::Url;

use super::outcome::UnavailableReason;

/// Whether `status` is a redirect the fetcher follows.
pub(crate) fn is_followed(status: StatusCode) -> bool {
    matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308)
}

/// The URL a redirect from `current` with `headers` points to.
pub(crate) fn target(current: &Url, headers: &HeaderMap) -> Result<Url, UnavailableReason> {
    let raw = headers
        .get(LOCATION)
        .ok_or(UnavailableReason::MissingLocation)?
        .as_bytes();
    // Some servers send octets past ASCII in Location, where RFC 9110
    // section 10.2.2 allows only a URI reference. They are requested as
    // sent, percent-encoded octet by octet: `Url::join` does that to UTF-8,
    // and any other octets (Latin-1, say) are encoded here the same way,
    // as curl does.
    let location = match std::str::from_utf8(raw) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(percent_encode(raw, PAST_ASCII).to_string()),
    };
    // Trimmed as the URL parser trims: C0 controls and space. A no-break
    // space (`str::trim` would take it) is part of the reference.
    let location = crate::matcher::url::trim_controls_str(&location);
    if location.is_empty() {
        return Err(UnavailableReason::MissingLocation);
    }
    let mut next = current
        .join(location)
        .map_err(|_| UnavailableReason::InvalidLocation(location.to_owned()))?;
    if !matches!(next.scheme(), "http" | "https") {
        return Err(UnavailableReason::UnsupportedRedirectScheme(
            next.scheme().to_owned(),
        ));
    }
    // User info in a Location is dropped, as in a URL a caller gives
    // (`robots_url_of`): a server naming credentials gets none sent, and
    // the client sees the hop as the URL it asked for. Neither it nor the
    // fragment is sent, so either may be of any length.
    let _ = next.set_username("");
    let _ = next.set_password(None);
    next.set_fragment(None);
    // Port 0, which no server can listen on, is refused as it is in a
    // URL a caller gives (`target::parse_site_url`).
    if next.port() == Some(0) || !super::target::is_sendable(&next) {
        return Err(UnavailableReason::InvalidLocation(location.to_owned()));
    }
    Ok(next)
}

/// What is percent-encoded of a `Location` that is not UTF-8: the octets
/// past ASCII (`percent_encode` always encodes those). A header value holds
/// no control octet but tab, which stays, as it does in UTF-8.
const PAST_ASCII: &AsciiSet = &CONTROLS.remove(b'\t');

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn location(value: &[u8]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(LOCATION, HeaderValue::from_bytes(value).unwrap());
        headers
    }

    fn from(value: &[u8]) -> Result<String, UnavailableReason> {
        let current = Url::parse("http://a.example:8080/robots.txt").unwrap();
        target(&current, &location(value)).map(String::from)
    }

    #[test]
    fn drops_user_info() {
        assert_eq!(
            from(b"http://user:secret@b.example/r").unwrap(),
            "http://b.example/r"
        );
        assert_eq!(from(b"//user@b.example/r").unwrap(), "http://b.example/r");
        // User info is never sent, so it may be of any length, as a
        // fragment may.
        let long = format!("http://{}@b.example/r", "u".repeat(70_000));
        assert_eq!(from(long.as_bytes()).unwrap(), "http://b.example/r");
    }

    #[test]
    fn resolves_relative_and_absolute() {
        assert_eq!(from(b"/new.txt").unwrap(), "http://a.example:8080/new.txt");
        assert_eq!(
            from(b"other.txt?x=1#f").unwrap(),
            "http://a.example:8080/other.txt?x=1"
        );
        assert_eq!(from(b"//b.example/r").unwrap(), "http://b.example/r");
        assert_eq!(
            from(b"https://b.example/robots.txt").unwrap(),
            "https://b.example/robots.txt"
        );
        assert_eq!(
            from("/caf\u{e9}".as_bytes()).unwrap(),
            "http://a.example:8080/caf%C3%A9"
        );
    }

    /// Octets past ASCII that are not UTF-8 are requested as sent, as
    /// UTF-8 is: percent-encoded one by one.
    #[test]
    fn requests_octets_past_ascii_as_sent() {
        assert_eq!(
            from(b"/caf\xe9/robots.txt?q=\xff").unwrap(),
            "http://a.example:8080/caf%E9/robots.txt?q=%FF"
        );
        assert_eq!(from(b"\xff\xfe").unwrap(), "http://a.example:8080/%FF%FE");
        assert_eq!(
            from(b"//b.example/\x80 x").unwrap(),
            "http://b.example/%80%20x"
        );
        // A no-break space is an octet sent, in UTF-8 as in Latin-1; only
        // spaces and tabs around the value are dropped.
        assert_eq!(
            from("/robots.txt\u{a0}".as_bytes()).unwrap(),
            "http://a.example:8080/robots.txt%C2%A0"
        );
        assert_eq!(
            from(b"/robots.txt\xa0").unwrap(),
            "http://a.example:8080/robots.txt%A0"
        );
        assert_eq!(
            from(" \t/new.txt\t ".as_bytes()).unwrap(),
            "http://a.example:8080/new.txt"
        );
    }

    #[test]
    fn rejects_bad_targets() {
        assert_eq!(
            from(b"ftp://a.example/robots.txt"),
            Err(UnavailableReason::UnsupportedRedirectScheme("ftp".into()))
        );
        assert_eq!(from(b"   "), Err(UnavailableReason::MissingLocation));
        assert!(matches!(
            from(b"http://[::1"),
            Err(UnavailableReason::InvalidLocation(_))
        ));
        // Octets that are not UTF-8 in the host: no host a request can name.
        assert!(matches!(
            from(b"http://\xff\xfe.example/"),
            Err(UnavailableReason::InvalidLocation(_))
        ));
        // A host the URL standard keeps but no request can carry.
        assert!(matches!(
            from(b"http://a{b}.example/robots.txt"),
            Err(UnavailableReason::InvalidLocation(_))
        ));
        assert_eq!(
            from(b"//a.example:0/robots.txt"),
            Err(UnavailableReason::InvalidLocation(
                "//a.example:0/robots.txt".into()
            ))
        );
        let current = Url::parse("http://a.example/robots.txt").unwrap();
        assert_eq!(
            target(&current, &HeaderMap::new()),
            Err(UnavailableReason::MissingLocation)
        );
    }
}
