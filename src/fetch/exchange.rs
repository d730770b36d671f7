//! One fetch of robots.txt: requests, redirects, status policy, body, and
//! the resulting [`Robots`] with its [`FetchOutcome`].

use std::error::Error as StdError;
use std::io;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::time::SystemTime;

use http::header::{
    ACCEPT, ACCEPT_ENCODING, CONTENT_TYPE, ETAG, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED,
    USER_AGENT,
};
use http::{HeaderMap, HeaderValue, StatusCode};
use url::Url;

use super::body::{self, BodyError, CappedBody};
use super::client::{Config, Fetcher};
use super::expiry;
use super::outcome::{FetchOutcome, FetchResult, UnavailableReason, UnreachableReason};
use super::redirect;
use super::tls;
use crate::charset::{self, Label};
use crate::{Error, ParseOptions, Robots, parse};

/// What is known about the exchange so far; kept outside the timed future so
/// a timeout still reports where it got to.
struct Progress {
    /// The URL being (or last) requested.
    url: Url,
    redirects: u8,
    /// The status and headers of the response to `url`, once it arrived.
    status: Option<StatusCode>,
    headers: HeaderMap,
    /// The proxy the request for `url` went through, when known.
    proxy: Option<String>,
}

/// How the exchange ended.
enum Ending {
    Body(CappedBody),
    NotModified,
    Failed(FetchResult),
    /// A request could not be made for want of a resource on this machine
    /// (what ran out, and the system's error): no outcome of the server's.
    Local(String),
}

impl Fetcher {
    /// Fetches `robots_url`, conditionally if `previous` has validators.
    /// Fails only when this machine could not make a request
    /// ([`Error::LocalResources`]).
    pub(crate) async fn fetch_from(
        &self,
        robots_url: Url,
        previous: Option<&Robots>,
    ) -> Result<Robots, Error> {
        let config = &*self.config;
        // Its turn first, when fetches are bounded: the deadline starts
        // after. (The semaphore is never closed.)
        let _turn = match &config.slots {
            Some((slots, _)) => slots.acquire().await.ok(),
            None => None,
        };
        let validators = previous
            .and_then(Robots::fetch_outcome)
            .filter(|o| o.etag.is_some() || o.last_modified.is_some());
        let mut progress = Progress {
            url: robots_url.clone(),
            redirects: 0,
            status: None,
            headers: HeaderMap::new(),
            proxy: None,
        };
        // One deadline for everything, so a stalled or dribbling server ends
        // on time whatever client is in use. (The body reader sees it too,
        // taken a moment earlier, so that it can end first: `read_capped`.)
        let deadline = tokio::time::Instant::now().checked_add(config.timeout);
        let exchange = exchange(config, &mut progress, validators, deadline);
        let ending = tokio::time::timeout(config.timeout, exchange)
            .await
            .unwrap_or(Ending::Failed(FetchResult::Unreachable(
                UnreachableReason::Timeout,
            )));
        let now = SystemTime::now();
        let headers = &progress.headers;
        let mut outcome = FetchOutcome {
            robots_url,
            final_url: progress.url.clone(),
            proxy: progress.proxy.clone(),
            redirects: progress.redirects,
            status: progress.status,
            result: FetchResult::Fetched,
            fetched_at: now,
            expires_at: expiry::expiry_from_headers(headers, now),
            etag: None,
            last_modified: None,
            body_bytes: 0,
            truncated_at_cap: false,
            retry_after: None,
        };
        let robots = match ending {
            Ending::Local(reason) => {
                return Err(Error::LocalResources {
                    url: progress.url.to_string(),
                    reason,
                });
            }
            // RFC 9309 section 2.3.1.1: parse what a 2xx returned.
            Ending::Body(body) => {
                outcome.body_bytes = body.bytes.len();
                outcome.truncated_at_cap = body.truncated;
                outcome.etag = etag_text(headers);
                outcome.last_modified = header_text(headers, &LAST_MODIFIED);
                let label = headers
                    .get(CONTENT_TYPE)
                    .and_then(|value| Label::of_content_type(value.as_bytes()));
                let from = charset::detect(&body.bytes, label, body.truncated);
                // Section 2.5: of a body cut at the limit, the complete
                // lines within it.
                let options = ParseOptions::new();
                Robots::from_parsed(parse::parse_in(&body.bytes, from, body.truncated, &options))
            }
            Ending::NotModified => {
                // Only reached when `previous` had validators.
                let (previous, old) = previous.zip(validators).expect("conditional request");
                outcome.result = FetchResult::NotModified;
                outcome.body_bytes = old.body_bytes;
                outcome.truncated_at_cap = old.truncated_at_cap;
                outcome.etag = etag_text(headers).or_else(|| old.etag.clone());
                outcome.last_modified =
                    header_text(headers, &LAST_MODIFIED).or_else(|| old.last_modified.clone());
                // RFC 9111 section 4.3.4: a 304's headers update the stored
                // response's; one that says nothing of freshness leaves the
                // stored lifetime as it was.
                if !expiry::has_freshness_headers(headers) {
                    let lifetime = old.expires_at.duration_since(old.fetched_at);
                    outcome.expires_at =
                        now + lifetime.unwrap_or_default().min(expiry::MAX_FRESHNESS);
                }
                previous.clone()
            }
            Ending::Failed(result) => {
                let robots = match result {
                    FetchResult::Unreachable(_) => {
                        // RFC 9110 section 10.2.3: `Retry-After` is a server
                        // asking for a pause, as a 5xx or 429 does. A 2xx
                        // whose body then failed to arrive asked for none.
                        outcome.retry_after = match progress.status {
                            Some(status) if status.is_success() => None,
                            _ => expiry::retry_after(headers, now),
                        };
                        outcome.expires_at = expiry::unreachable_expiry(
                            headers,
                            outcome.retry_after,
                            now,
                            config.unreachable_ttl,
                        );
                        Robots::disallow_all()
                    }
                    _ => Robots::allow_all(),
                };
                outcome.result = result;
                robots
            }
        };
        Ok(robots.with_fetch_outcome(outcome))
    }
}

/// Requests `progress.url`, following redirects, until a final response.
async fn exchange(
    config: &Config,
    progress: &mut Progress,
    validators: Option<&FetchOutcome>,
    deadline: Option<tokio::time::Instant>,
) -> Ending {
    let mut visited = vec![progress.url.clone()];
    loop {
        progress.proxy = config.proxy_for(&progress.url);
        let mut request = config
            .client
            .get(progress.url.clone())
            .header(USER_AGENT, config.user_agent.clone())
            .header(ACCEPT, "text/plain")
            // `body` decodes these, within the body limit. (A client that
            // decodes them itself, not built from `client_builder`, still
            // does: reqwest decodes what it is configured to, whoever asked.)
            .header(ACCEPT_ENCODING, body::ACCEPTED_CODINGS);
        // Validators belong to the URL that served the stored rules.
        let conditional = validators.filter(|v| v.final_url == progress.url);
        if let Some(stored) = conditional {
            if let Some(etag) = stored.etag.as_deref().and_then(etag_value) {
                request = request.header(IF_NONE_MATCH, etag);
            }
            if let Some(date) = &stored.last_modified {
                request = request.header(IF_MODIFIED_SINCE, date);
            }
        }
        let response = match request.send().await {
            Ok(response) => response,
            // A user-supplied client that follows redirects itself gave
            // up on them: as when the fetcher does (section 2.3.1.2),
            // unavailable, with the URL it got to.
            Err(error) if error.is_redirect() => {
                if let Some(url) = error.url().filter(|&url| url != &progress.url) {
                    progress.url = url.clone();
                    progress.redirects = progress.redirects.saturating_add(1);
                }
                let looped = describe(&error).contains("loop");
                return unavailable(if looped {
                    UnavailableReason::RedirectLoop
                } else {
                    UnavailableReason::TooManyRedirects
                });
            }
            Err(error) => {
                // This machine's shortage is not the server's doing, nor
                // the network's (section 2.3.1.4 speaks of those): the
                // request was never sent.
                if let Some(reason) = local_shortage(&error) {
                    return Ending::Local(reason);
                }
                // A user-supplied client that follows redirects itself
                // refused a non-http(s) target, naming it: unavailable, as
                // when the fetcher refuses one (`redirect::target`).
                if let Some(url) = error
                    .url()
                    .filter(|url| !matches!(url.scheme(), "http" | "https"))
                {
                    let scheme = url.scheme().to_owned();
                    return unavailable(UnavailableReason::UnsupportedRedirectScheme(scheme));
                }
                return Ending::Failed(FetchResult::Unreachable(classify(&error, &progress.url)));
            }
        };
        if response.url() != &progress.url {
            // A user-supplied client followed redirects itself.
            progress.url = response.url().clone();
            progress.redirects = progress.redirects.saturating_add(1);
        }
        let status = response.status();
        progress.status = Some(status);
        progress.headers = response.headers().clone();

        // Section 2.3.1.2: follow redirects, up to the limit.
        if redirect::is_followed(status) {
            if progress.redirects >= config.max_redirects {
                return unavailable(UnavailableReason::TooManyRedirects);
            }
            let next = match redirect::target(&progress.url, response.headers()) {
                Ok(next) => next,
                Err(reason) => return unavailable(reason),
            };
            if visited.contains(&next) {
                return unavailable(UnavailableReason::RedirectLoop);
            }
            drop(response);
            visited.push(next.clone());
            progress.url = next;
            progress.redirects += 1;
            progress.status = None;
            progress.headers = HeaderMap::new();
            continue;
        }
        if status == StatusCode::NOT_MODIFIED && conditional.is_some() {
            return Ending::NotModified;
        }
        if status.is_success() {
            let expected = response.content_length();
            return match body::read_capped(response, config.body_limit, deadline).await {
                Ok(body) => Ending::Body(body),
                Err(error) => {
                    Ending::Failed(FetchResult::Unreachable(body_failure(error, expected)))
                }
            };
        }
        return Ending::Failed(status_result(config, status));
    }
}

fn unavailable(reason: UnavailableReason) -> Ending {
    Ending::Failed(FetchResult::Unavailable(reason))
}

/// What a final non-2xx, non-redirect status means (RFC 9309 sections
/// 2.3.1.3 and 2.3.1.4, with the fetcher's policy options).
pub(crate) fn status_result(config: &Config, status: StatusCode) -> FetchResult {
    let unreachable = FetchResult::Unreachable(UnreachableReason::Status(status));
    let unavailable = FetchResult::Unavailable(UnavailableReason::Status(status));
    match status.as_u16() {
        429 if config.too_many_requests_as_unavailable => unavailable,
        // Google handles 429 like a server error: back off, crawl nothing.
        429 => unreachable,
        401 | 403 if config.auth_errors_disallow => unreachable,
        // A proxy asking for credentials (RFC 9110 section 15.5.8), one
        // set or one intercepting on the way (a site has no use for the
        // status): the request never reached the site, so nothing is known
        // of its robots.txt, as when a connection fails. (Section
        // 2.3.1.3's "unavailable" is the site's own 4xx.)
        407 => unreachable,
        300..=499 => unavailable,
        // 5xx, and anything that is no final status: an unasked-for 101
        // (hyper gives it back as the response), a status past 599.
        _ => unreachable,
    }
}

/// Why a body could not be read.
fn body_failure(failure: BodyError, expected: Option<u64>) -> UnreachableReason {
    let (error, received) = match failure {
        BodyError::Decode(why) => return UnreachableReason::Body(why),
        BodyError::Transport { error, received } => (error, received),
    };
    if error.is_timeout() {
        return UnreachableReason::Timeout;
    }
    match expected {
        Some(expected) if received < expected => {
            UnreachableReason::TruncatedBody { expected, received }
        }
        _ => UnreachableReason::Body(describe(&error)),
    }
}

/// Sorts a request failure into timeout, DNS, TLS, connection or other.
fn classify(error: &reqwest::Error, url: &Url) -> UnreachableReason {
    let text = describe(error);
    if error.is_timeout() {
        UnreachableReason::Timeout
    } else if error.is_dns() {
        UnreachableReason::Dns(text)
    } else if url.scheme() == "https" && looks_like_tls(error) {
        UnreachableReason::Tls(tls::in_words(error).unwrap_or(text))
    } else if error.is_connect() {
        UnreachableReason::Connect(text)
    } else if error.is_body() || error.is_decode() {
        UnreachableReason::Body(text)
    } else {
        UnreachableReason::Other(text)
    }
}

/// Whether a failure on an https request came from the TLS layer: rustls
/// reports handshake and certificate failures as `InvalidData` I/O errors
/// (wrapping its own error), and a server that closes the connection
/// mid-handshake as `UnexpectedEof` while connecting (the TCP connection
/// was made by then: its own failures have kinds of their own, such as
/// `ConnectionRefused`).
fn looks_like_tls(error: &reqwest::Error) -> bool {
    tls::rustls_error(error).is_some()
        || io_causes(error).any(|io| {
            io.kind() == io::ErrorKind::InvalidData
                || (io.kind() == io::ErrorKind::UnexpectedEof && error.is_connect())
        })
}

/// What this machine ran out of, with the system's error, if that is why a
/// request failed: descriptors, local ports, buffer space or memory, which
/// end a request before anything is sent.
pub(crate) fn local_shortage(error: &(dyn StdError + 'static)) -> Option<String> {
    shortage_in(error, local_port_free)
}

/// [`local_shortage`], with `port_free` telling whether a local port is
/// free (a test's stand-in for [`local_port_free`]).
fn shortage_in(error: &(dyn StdError + 'static), port_free: impl Fn() -> bool) -> Option<String> {
    io_causes(error).find_map(|io| Some(format!("{}: {io}", shortage(io, &port_free)?)))
}

/// The resource an I/O error says ran out, if it is one of this machine's.
fn shortage(io: &io::Error, port_free: impl Fn() -> bool) -> Option<&'static str> {
    match io.kind() {
        io::ErrorKind::OutOfMemory => return Some("memory"),
        // EADDRNOTAVAIL on `connect`: no free local (ephemeral) port, or
        // an address no local one can reach (`::1` with IPv6 off, `0.0.0.0`
        // on some systems), which a server can name in a redirect or a DNS
        // answer: that server is unreachable, and a cache records it so.
        // Only a shortage leaves no port to bind.
        io::ErrorKind::AddrNotAvailable => return (!port_free()).then_some("local ports"),
        _ => {}
    }
    // Those with no `ErrorKind` of their own.
    let code = io.raw_os_error()?;
    #[cfg(unix)]
    let what = match code {
        libc::EMFILE => Some("file descriptors"),
        libc::ENFILE => Some("file descriptors (the system's)"),
        libc::ENOBUFS => Some("socket buffer space"),
        _ => None,
    };
    #[cfg(windows)]
    let what = match code {
        10024 => Some("sockets"),             // WSAEMFILE
        10055 => Some("socket buffer space"), // WSAENOBUFS
        _ => None,
    };
    #[cfg(not(any(unix, windows)))]
    let what = {
        let _ = code;
        None
    };
    what
}

/// Whether this machine has a local port free: one that a socket bound to
/// every address of the machine (`0.0.0.0`) may take. Such a socket
/// conflicts with every connection holding its port, so once connections
/// hold the whole ephemeral range, as when `connect` fails for want of a
/// port, binding fails too. (A machine without IPv4 is asked about
/// `[::]`.)
fn local_port_free() -> bool {
    use tokio::net::TcpSocket;
    match TcpSocket::new_v4() {
        Ok(v4) => v4.bind((Ipv4Addr::UNSPECIFIED, 0).into()).is_ok(),
        Err(_) => TcpSocket::new_v6()
            .and_then(|v6| v6.bind((Ipv6Addr::UNSPECIFIED, 0).into()))
            .is_ok(),
    }
}

/// `error` and its causes. (An I/O error wrapping another error has a
/// `source` that skips the one it wraps: that one is taken instead.)
pub(crate) fn causes<'a>(
    error: &'a (dyn StdError + 'static),
) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    std::iter::successors(Some(error), |&err| {
        match err.downcast_ref::<io::Error>().and_then(io::Error::get_ref) {
            Some(inner) => Some(inner as &(dyn StdError + 'static)),
            None => err.source(),
        }
    })
}

/// The I/O errors among `error` and its causes.
fn io_causes<'a>(error: &'a (dyn StdError + 'static)) -> impl Iterator<Item = &'a io::Error> {
    causes(error).filter_map(|err| err.downcast_ref::<io::Error>())
}

/// An error and its causes on one line, without repeating text.
fn describe(error: &(dyn StdError + 'static)) -> String {
    // reqwest's own message only restates the request ("error sending
    // request for url (...)"), which the outcome already names: start from
    // its cause when it has one.
    let error = match error.source() {
        Some(cause) if error.is::<reqwest::Error>() => cause,
        _ => error,
    };
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(err) = source {
        let part = err.to_string();
        if !text.contains(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = err.source();
    }
    // hyper's client puts every cause after `client error (Connect): ` or
    // `(SendRequest): `, which says only which step failed: the reason's
    // kind says that already.
    match text
        .strip_prefix("client error (")
        .and_then(|rest| rest.split_once("): "))
    {
        Some((_, cause)) => cause.to_owned(),
        None => text,
    }
}

/// A header's value as text, if present and visible ASCII.
fn header_text(headers: &HeaderMap, name: &http::HeaderName) -> Option<String> {
    headers.get(name)?.to_str().ok().map(str::to_owned)
}

/// The `ETag` as text, its octets read as Latin-1: an entity tag may hold
/// octets past ASCII (`obs-text`, RFC 9110 section 8.8.3), and one that
/// does must still make the refresh conditional. [`etag_value`] gives the
/// octets back.
pub(crate) fn etag_text(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(ETAG)?;
    Some(match value.to_str() {
        Ok(text) => text.to_owned(),
        Err(_) => value.as_bytes().iter().map(|&b| char::from(b)).collect(),
    })
}

/// The octets of an `ETag` that [`etag_text`] made text, to send back in
/// `If-None-Match` exactly as the server sent them.
pub(crate) fn etag_value(etag: &str) -> Option<HeaderValue> {
    let octets: Option<Vec<u8>> = etag.chars().map(|c| u8::try_from(c).ok()).collect();
    HeaderValue::from_bytes(&octets?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(fetcher: &Fetcher, code: u16) -> FetchResult {
        status_result(&fetcher.config, StatusCode::from_u16(code).unwrap())
    }

    /// This machine's shortages are told from the server's and the
    /// network's failures, however deep in the causes they lie.
    #[test]
    fn local_shortages_are_told_apart() {
        let wrapped = |io: io::Error| io::Error::other(io);
        let local = |io: io::Error| shortage_in(&io, || false);
        assert_eq!(
            local(io::ErrorKind::OutOfMemory.into()).as_deref(),
            Some("memory: out of memory")
        );
        // EADDRNOTAVAIL: this machine's ports when none is free, else the
        // address the server named.
        assert!(
            local(io::ErrorKind::AddrNotAvailable.into())
                .is_some_and(|r| r.starts_with("local ports: "))
        );
        let addr_not_available = wrapped(io::ErrorKind::AddrNotAvailable.into());
        assert_eq!(shortage_in(&addr_not_available, || true), None);
        // This machine, running tests, has ports free.
        assert!(local_port_free());
        #[cfg(unix)]
        for (code, what) in [
            (libc::EMFILE, "file descriptors: "),
            (libc::ENFILE, "file descriptors (the system's): "),
            (libc::ENOBUFS, "socket buffer space: "),
        ] {
            let error = io::Error::from_raw_os_error(code);
            assert!(local(wrapped(wrapped(error))).is_some_and(|r| r.starts_with(what)));
        }
        for kind in [
            io::ErrorKind::ConnectionRefused,
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::TimedOut,
            io::ErrorKind::InvalidData,
        ] {
            assert_eq!(local(wrapped(kind.into())), None);
        }
        #[cfg(unix)]
        for code in [libc::ECONNREFUSED, libc::ENETUNREACH, libc::EHOSTUNREACH] {
            assert_eq!(local(io::Error::from_raw_os_error(code)), None);
        }
    }

    /// An entity tag with octets past ASCII is kept, and sent back as the
    /// same octets.
    #[test]
    fn etags_round_trip_whatever_their_octets() {
        for octets in [
            &b"\"v1\""[..],
            b"W/\"caf\xe9\"",
            b"\"\x80\xff\"",
            b"\"a b\tc\"",
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(ETAG, HeaderValue::from_bytes(octets).unwrap());
            let text = etag_text(&headers).unwrap();
            assert_eq!(etag_value(&text).unwrap().as_bytes(), octets);
        }
        assert_eq!(
            etag_text(&HeaderMap::from_iter([(
                ETAG,
                HeaderValue::from_bytes(b"\"caf\xe9\"").unwrap()
            )])),
            Some("\"café\"".to_owned())
        );
        assert_eq!(etag_text(&HeaderMap::new()), None);
        // Not from `etag_text`: nothing to send.
        assert_eq!(etag_value("\"ツ\""), None);
    }

    #[test]
    fn status_policy() {
        let default = Fetcher::new();
        for code in [300, 304, 305, 400, 401, 403, 404, 406, 408, 410, 451, 499] {
            assert!(result(&default, code).is_unavailable(), "{code}");
        }
        for code in [101, 103, 407, 429, 500, 502, 503, 599, 600, 999] {
            assert!(result(&default, code).is_unreachable(), "{code}");
        }
        let other = Fetcher::builder()
            .too_many_requests_as_unavailable(true)
            .auth_errors_disallow(true)
            .build()
            .unwrap();
        assert!(result(&other, 429).is_unavailable());
        assert!(result(&other, 401).is_unreachable());
        assert!(result(&other, 403).is_unreachable());
        assert!(result(&other, 404).is_unavailable());
    }
}
