//! Where a site's robots.txt lives (RFC 9309 section 2.3): the URL's scheme
//! and authority with the path `/robots.txt`.

use url::Url;

use crate::Error;

/// The robots.txt URL governing `url`: `scheme://host[:port]/robots.txt`.
///
/// The scheme, host and port are kept (a default port is dropped, as the
/// `url` crate normalises it); user info, path, query and fragment are
/// dropped. Only `http` and `https` URLs with a host have a robots.txt.
///
/// ```
/// let url = keepout::fetch::robots_url("https://user:pw@Example.com:8443/a/b?q#f")?;
/// assert_eq!(url.as_str(), "https://example.com:8443/robots.txt");
/// # Ok::<(), keepout::Error>(())
/// ```
pub fn robots_url(url: &str) -> Result<Url, Error> {
    let parsed = parse_site_url(url)?;
    Ok(robots_url_of(&parsed))
}

/// A key naming the origin (scheme, host, port) whose robots.txt governs
/// `url`, e.g. `https://example.com` or `http://example.com:8080`; handy as a
/// cache key, since all URLs with one key share one robots.txt.
///
/// ```
/// assert_eq!(
///     keepout::fetch::origin_key("HTTPS://example.com:443/x")?,
///     "https://example.com"
/// );
/// # Ok::<(), keepout::Error>(())
/// ```
pub fn origin_key(url: &str) -> Result<String, Error> {
    let parsed = parse_site_url(url)?;
    Ok(parsed.origin().ascii_serialization())
}

/// Parses `input` and checks that it can have a robots.txt.
pub(crate) fn parse_site_url(input: &str) -> Result<Url, Error> {
    let url = Url::parse(input).map_err(|e| Error::InvalidUrl {
        input: input.to_owned(),
        reason: e.to_string(),
    })?;
    if !matches!(url.scheme(), "http" | "https") {
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
    Ok(url)
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
        assert!(matches!(
            robots_url("http://"),
            Err(Error::InvalidUrl { .. })
        ));
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
