//! What a fetch of robots.txt ended with, as carried by the returned
//! [`Robots`](crate::Robots) value.

use std::fmt;
use std::time::{Duration, SystemTime};

use http::StatusCode;
use url::Url;

/// What happened when robots.txt was fetched, attached to the returned
/// [`Robots`](crate::Robots) (see [`Robots::fetch_outcome`](crate::Robots::fetch_outcome)).
///
/// The rules always apply to the authority of [`robots_url`](Self::robots_url),
/// even when the file was served from another host after redirects
/// ([`final_url`](Self::final_url)).
///
/// ```no_run
/// # async fn run() -> Result<(), keepout::Error> {
/// let robots = keepout::Robots::fetch("https://example.com/page").await?;
/// let outcome = robots.fetch_outcome().expect("fetched, not parsed");
/// // e.g. "https://example.com/robots.txt: fetched (HTTP 200)"
/// println!("{outcome}");
/// println!("{} redirects, status {:?}, final URL {}", outcome.redirects(), outcome.status(), outcome.final_url());
/// if outcome.truncated_at_cap() {
///     eprintln!("only the first {} bytes were read", outcome.body_bytes());
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOutcome {
    pub(crate) robots_url: Url,
    pub(crate) final_url: Url,
    pub(crate) proxy: Option<String>,
    pub(crate) redirects: u8,
    pub(crate) status: Option<StatusCode>,
    pub(crate) result: FetchResult,
    pub(crate) fetched_at: SystemTime,
    pub(crate) expires_at: SystemTime,
    pub(crate) retry_after: Option<Duration>,
    pub(crate) etag: Option<String>,
    pub(crate) last_modified: Option<String>,
    pub(crate) body_bytes: usize,
    pub(crate) truncated_at_cap: bool,
}

impl FetchOutcome {
    /// Heap bytes this outcome keeps in its `Arc`: itself, its URLs, its
    /// validators and the texts of its reason, all of which a server
    /// controls (an `ETag` may be hundreds of KiB).
    pub(crate) fn heap_bytes(&self) -> usize {
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        2 * size_of::<usize>()
            + size_of::<FetchOutcome>()
            + self.robots_url.as_str().len()
            + self.final_url.as_str().len()
            + text(&self.proxy)
            + text(&self.etag)
            + text(&self.last_modified)
            + self.result.text_len()
    }

    /// The URL requested first: `scheme://authority/robots.txt` of the site.
    /// The rules apply to this authority.
    pub fn robots_url(&self) -> &Url {
        &self.robots_url
    }

    /// The last URL requested (differs from [`robots_url`](Self::robots_url)
    /// after redirects).
    pub fn final_url(&self) -> &Url {
        &self.final_url
    }

    /// The proxy the last request went through, as `scheme://host:port`
    /// (credentials left out): one the environment named (`HTTP_PROXY`,
    /// ...) or [`FetcherBuilder::proxy`](crate::FetcherBuilder::proxy)
    /// gave. `None` for a direct request, and for a client given to
    /// [`FetcherBuilder::client`](crate::FetcherBuilder::client), whose
    /// proxies the fetcher cannot see. A failure at the proxy reads as the
    /// connection's, so this says where to look.
    pub fn proxy(&self) -> Option<&str> {
        self.proxy.as_deref()
    }

    /// How many redirects were followed.
    pub fn redirects(&self) -> u8 {
        self.redirects
    }

    /// The status of the response to [`final_url`](Self::final_url), if
    /// one arrived: `None` when that request failed or timed out before
    /// the head came, even after redirects whose responses did arrive.
    pub fn status(&self) -> Option<StatusCode> {
        self.status
    }

    /// How the fetch ended, and so which rules apply.
    pub fn result(&self) -> &FetchResult {
        &self.result
    }

    /// When the fetch finished.
    pub fn fetched_at(&self) -> SystemTime {
        self.fetched_at
    }

    /// When these rules should be fetched again (RFC 9309 section 2.4: at
    /// most 24 hours after [`fetched_at`](Self::fetched_at)), by this
    /// fetch's response. A [`RobotsCache`](crate::RobotsCache) keeps a
    /// schedule of its own (its `min_ttl`, its backoff for unreachable
    /// origins): [`RobotsCache::due_at`](crate::RobotsCache::due_at) tells
    /// it.
    pub fn expires_at(&self) -> SystemTime {
        self.expires_at
    }

    /// The delay the server asked for with `Retry-After` (capped at 24
    /// hours) on a result unreachable by its status (the table in
    /// [`fetch`](crate::fetch)): 5xx, 407, 429 unless the fetcher treats it
    /// as unavailable, 401 and 403 under
    /// [`auth_errors_disallow`](crate::FetcherBuilder::auth_errors_disallow),
    /// a final 1xx (an unasked-for 101), a status past 599.
    /// [`expires_at`](Self::expires_at) already
    /// follows it; a [`RobotsCache`](crate::RobotsCache) backing off from
    /// failures retries no sooner. On a
    /// [`StaleCopy`](FetchResult::StaleCopy), the delay the failed fetch
    /// was given (the rest of the outcome is the copy's).
    pub fn retry_after(&self) -> Option<Duration> {
        self.retry_after
    }

    /// Whether the rules are due for a re-fetch now.
    pub fn is_expired(&self) -> bool {
        self.is_expired_at(SystemTime::now())
    }

    /// Whether the rules are due for a re-fetch at `now` (for an injected
    /// clock). Also when `now` is before [`fetched_at`](Self::fetched_at):
    /// the clock has stepped back since, by an unknown amount, and
    /// waiting for [`expires_at`](Self::expires_at) could keep the rules
    /// for as long as the step.
    pub fn is_expired_at(&self, now: SystemTime) -> bool {
        now < self.fetched_at || now >= self.expires_at
    }

    /// The `ETag` validator of the rules, for a conditional re-fetch. Octets
    /// past ASCII, which an entity tag may hold (`obs-text`, RFC 9110
    /// section 8.8.3), are read as Latin-1 (`0xE9` is `é`); a refresh sends
    /// them back as they came.
    pub fn etag(&self) -> Option<&str> {
        self.etag.as_deref()
    }

    /// The `Last-Modified` validator of the rules, for a conditional re-fetch.
    pub fn last_modified(&self) -> Option<&str> {
        self.last_modified.as_deref()
    }

    /// How many body bytes were read for the rules: after content decoding
    /// (gzip, ...), before a body in UTF-16 or a legacy charset is
    /// transcoded to UTF-8. The body limit counts these (and the octets as
    /// sent, before decoding), so a body cut there has at most the limit's
    /// number of bytes (a UTF-16 body then gives about half as many octets
    /// of text).
    pub fn body_bytes(&self) -> usize {
        self.body_bytes
    }

    /// Whether the body was longer than the fetcher's body limit, so only
    /// the complete lines within the limit were parsed (RFC 9309 section
    /// 2.5). A body that reached the limit and then neither ended nor went
    /// on before the fetch's timeout, or whose connection then failed, is
    /// taken as longer: what would be read was all in.
    pub fn truncated_at_cap(&self) -> bool {
        self.truncated_at_cap
    }
}

impl fmt::Display for FetchOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.robots_url, self.result)?;
        if let (Some(status), false) = (self.status, self.result.shows_status()) {
            write!(f, " (HTTP {})", status.as_u16())?;
        }
        // A stale copy's redirects and body are the copy's, not the failed
        // fetch's: said so.
        if self.result.is_stale_copy() && (self.redirects > 0 || self.truncated_at_cap) {
            f.write_str("; the copy was fetched")?;
        }
        if self.redirects > 0 {
            let hops = if self.redirects == 1 {
                "redirect"
            } else {
                "redirects"
            };
            // After a reason's own text (`TLS failed: ...`), a `;` keeps
            // the redirect from reading as part of it.
            let sep = match self.result {
                FetchResult::Fetched | FetchResult::NotModified | FetchResult::StaleCopy(_) => " ",
                _ => "; ",
            };
            write!(
                f,
                "{sep}after {} {hops} to {}",
                self.redirects, self.final_url
            )?;
        }
        if self.truncated_at_cap {
            write!(f, ", truncated at {} bytes", self.body_bytes)?;
        }
        if let Some(proxy) = &self.proxy {
            write!(f, ", via proxy {proxy}")?;
        }
        Ok(())
    }
}

/// How a fetch ended, which decides the rules (RFC 9309 section 2.3.1).
///
/// ```no_run
/// use keepout::{FetchResult, StatusCode, UnreachableReason};
///
/// # async fn run() -> Result<(), keepout::Error> {
/// let robots = keepout::Robots::fetch("https://example.com/").await?;
/// let outcome = robots.fetch_outcome().expect("fetched, not parsed");
/// match outcome.result() {
///     FetchResult::Fetched | FetchResult::NotModified => {}
///     FetchResult::Unavailable(why) => eprintln!("no robots.txt ({why}): allow all"),
///     FetchResult::Unreachable(UnreachableReason::Status(StatusCode::TOO_MANY_REQUESTS)) => {
///         eprintln!("asked to slow down; retry after {:?}", outcome.retry_after());
///     }
///     FetchResult::Unreachable(why) => eprintln!("unreachable ({why}): disallow all"),
///     other => eprintln!("{other}"), // a cache's stale copy, or a result added later
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FetchResult {
    /// A 2xx response: the body was parsed (section 2.3.1.1).
    Fetched,
    /// A 304 on a conditional re-fetch: the earlier rules still apply.
    NotModified,
    /// robots.txt is unavailable: everything is allowed (section 2.3.1.3).
    Unavailable(UnavailableReason),
    /// robots.txt is unreachable: everything is disallowed (section 2.3.1.4).
    Unreachable(UnreachableReason),
    /// robots.txt is unreachable (why the last fetch failed), and a
    /// [`RobotsCache`](crate::RobotsCache) serves its last good copy
    /// meanwhile, as section 2.4 allows, up to its
    /// [`stale_limit`](crate::RobotsCacheBuilder::stale_limit). The rest
    /// of the outcome is the copy's, so that a refresh stays conditional:
    /// its status, URLs, validators and body facts;
    /// [`fetched_at`](FetchOutcome::fetched_at) tells how old it is, and
    /// its [`expires_at`](FetchOutcome::expires_at) has passed. The copy
    /// may be a 4xx's allow-all: [`Robots::access`](crate::Robots::access)
    /// tells. Neither [`is_fetched`](FetchResult::is_fetched) nor
    /// [`is_unreachable`](FetchResult::is_unreachable) holds. Only a cache
    /// gives this result.
    StaleCopy(UnreachableReason),
}

impl FetchResult {
    /// The length of the texts this result holds (a location, an error).
    fn text_len(&self) -> usize {
        match self {
            FetchResult::Fetched | FetchResult::NotModified => 0,
            FetchResult::Unavailable(why) => why.text_len(),
            FetchResult::Unreachable(why) | FetchResult::StaleCopy(why) => why.text_len(),
        }
    }

    /// Whether the rules come from the server's file (fetched or confirmed
    /// unchanged).
    pub fn is_fetched(&self) -> bool {
        matches!(self, FetchResult::Fetched | FetchResult::NotModified)
    }

    /// Whether robots.txt was unavailable (allow all).
    pub fn is_unavailable(&self) -> bool {
        matches!(self, FetchResult::Unavailable(_))
    }

    /// Whether robots.txt was unreachable (disallow all).
    pub fn is_unreachable(&self) -> bool {
        matches!(self, FetchResult::Unreachable(_))
    }

    /// Whether robots.txt is unreachable and a cache serves its last good
    /// copy ([`StaleCopy`](FetchResult::StaleCopy)).
    pub fn is_stale_copy(&self) -> bool {
        matches!(self, FetchResult::StaleCopy(_))
    }

    /// Whether the Display of the outcome should leave out its status: the
    /// result names it, or (a stale copy) the status is the copy's, not
    /// the failure's.
    fn shows_status(&self) -> bool {
        matches!(
            self,
            FetchResult::Unavailable(
                UnavailableReason::Status(_)
                    | UnavailableReason::UnreachableTooLong(UnreachableReason::Status(_))
            ) | FetchResult::Unreachable(UnreachableReason::Status(_))
                | FetchResult::StaleCopy(_)
        )
    }
}

impl fmt::Display for FetchResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchResult::Fetched => f.write_str("fetched"),
            FetchResult::NotModified => f.write_str("not modified"),
            FetchResult::Unavailable(why) => write!(f, "unavailable, allow all: {why}"),
            FetchResult::Unreachable(why) => write!(f, "unreachable, disallow all: {why}"),
            FetchResult::StaleCopy(why) => {
                write!(f, "unreachable, serving the last good copy: {why}")
            }
        }
    }
}

/// Why robots.txt counts as unavailable (allow all).
///
/// ```
/// use keepout::{StatusCode, UnavailableReason};
///
/// assert_eq!(UnavailableReason::Status(StatusCode::NOT_FOUND).to_string(), "HTTP 404 Not Found");
/// assert_eq!(UnavailableReason::TooManyRedirects.to_string(), "too many redirects");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnavailableReason {
    /// A 4xx status, or a 3xx that is not a followed redirect.
    Status(StatusCode),
    /// More consecutive redirects than the fetcher's limit (RFC 9309
    /// section 2.3.1.2: at least five are followed).
    TooManyRedirects,
    /// A redirect back to a URL already requested.
    RedirectLoop,
    /// A redirect without a `Location` header, or with an empty one.
    MissingLocation,
    /// A `Location` header that is not a URL, or names one no HTTP request
    /// can carry or reach, such as one with port 0 (the header as received,
    /// trimmed).
    InvalidLocation(String),
    /// A redirect to a scheme other than http or https (the scheme).
    UnsupportedRedirectScheme(String),
    /// Unreachable for longer than a [`RobotsCache`](crate::RobotsCache)'s
    /// [`stale_limit`](crate::RobotsCacheBuilder::stale_limit) (30 days by
    /// default), after which RFC 9309 section 2.3.1.4 lets a crawler take
    /// robots.txt as unavailable; why the last fetch failed. Only a cache
    /// gives this reason, and only with
    /// [`AfterStaleLimit::AllowAll`](crate::cache::AfterStaleLimit::AllowAll).
    UnreachableTooLong(UnreachableReason),
}

impl UnavailableReason {
    fn text_len(&self) -> usize {
        match self {
            UnavailableReason::InvalidLocation(text)
            | UnavailableReason::UnsupportedRedirectScheme(text) => text.len(),
            UnavailableReason::UnreachableTooLong(why) => why.text_len(),
            UnavailableReason::Status(_)
            | UnavailableReason::TooManyRedirects
            | UnavailableReason::RedirectLoop
            | UnavailableReason::MissingLocation => 0,
        }
    }
}

/// `HTTP 503 Service Unavailable`, or `HTTP 520` for a code HTTP names no
/// reason for (rather than the `http` crate's `520 <unknown status code>`,
/// which reads as if the code itself were not known).
fn write_status(f: &mut fmt::Formatter<'_>, status: StatusCode) -> fmt::Result {
    match status.canonical_reason() {
        Some(reason) => write!(f, "HTTP {} {reason}", status.as_u16()),
        None => write!(f, "HTTP {}", status.as_u16()),
    }
}

impl fmt::Display for UnavailableReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnavailableReason::Status(status) => write_status(f, *status),
            UnavailableReason::TooManyRedirects => f.write_str("too many redirects"),
            UnavailableReason::RedirectLoop => f.write_str("redirect loop"),
            UnavailableReason::MissingLocation => f.write_str("redirect without Location"),
            UnavailableReason::InvalidLocation(location) => {
                write!(f, "redirect to an invalid Location {location:?}")
            }
            UnavailableReason::UnsupportedRedirectScheme(scheme) => {
                write!(f, "redirect to unsupported scheme {scheme:?}")
            }
            UnavailableReason::UnreachableTooLong(why) => {
                write!(f, "unreachable past the cache's stale limit, last: {why}")
            }
        }
    }
}

/// Why robots.txt counts as unreachable (disallow all).
///
/// ```
/// use keepout::{StatusCode, UnreachableReason};
///
/// let why = UnreachableReason::Status(StatusCode::SERVICE_UNAVAILABLE);
/// assert_eq!(why.to_string(), "HTTP 503 Service Unavailable");
/// assert_eq!(UnreachableReason::Timeout.to_string(), "timed out");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnreachableReason {
    /// A 5xx status; also 407 Proxy Authentication Required (the proxy
    /// refused: the site was never asked), 429 Too Many Requests, 401/403 when the
    /// fetcher is configured to treat them as disallow-all, and a final
    /// status in no class HTTP defines for one (an unasked-for 101, 600
    /// to 999), as [`limits`](crate::limits) says.
    Status(StatusCode),
    /// The fetch did not finish within the fetcher's timeout.
    Timeout,
    /// The connection could not be made (refused, reset, ...).
    Connect(String),
    /// The host name did not resolve.
    Dns(String),
    /// The TLS handshake failed: the server's certificate was not trusted,
    /// had expired or was for another name (each said in words), the
    /// server did not speak TLS, or the handshake was cut short.
    Tls(String),
    /// The connection ended before `Content-Length` bytes arrived.
    TruncatedBody {
        /// Bytes announced by `Content-Length`.
        expected: u64,
        /// Bytes received before the connection ended.
        received: u64,
    },
    /// The body could not be read to its end: a coding that is not
    /// supported or data it cannot decode, or a transport failure mid-body
    /// when no `Content-Length` was sent (with one, it is
    /// [`TruncatedBody`](UnreachableReason::TruncatedBody)).
    Body(String),
    /// Any other transport failure.
    Other(String),
}

impl UnreachableReason {
    fn text_len(&self) -> usize {
        match self {
            UnreachableReason::Connect(text)
            | UnreachableReason::Dns(text)
            | UnreachableReason::Tls(text)
            | UnreachableReason::Body(text)
            | UnreachableReason::Other(text) => text.len(),
            UnreachableReason::Status(_)
            | UnreachableReason::Timeout
            | UnreachableReason::TruncatedBody { .. } => 0,
        }
    }
}

impl fmt::Display for UnreachableReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnreachableReason::Status(status) => write_status(f, *status),
            UnreachableReason::Timeout => f.write_str("timed out"),
            UnreachableReason::Connect(why) => write!(f, "connection failed: {why}"),
            UnreachableReason::Dns(why) => write!(f, "DNS lookup failed: {why}"),
            UnreachableReason::Tls(why) => write!(f, "TLS failed: {why}"),
            UnreachableReason::TruncatedBody { expected, received } => {
                write!(f, "body cut short: {received} of {expected} bytes")
            }
            UnreachableReason::Body(why) => write!(f, "body read failed: {why}"),
            UnreachableReason::Other(why) => write!(f, "request failed: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(result: FetchResult, redirects: u8, truncated_at_cap: bool) -> FetchOutcome {
        let at = SystemTime::UNIX_EPOCH;
        FetchOutcome {
            robots_url: Url::parse("https://e.example/robots.txt").unwrap(),
            final_url: Url::parse("https://www.e.example/robots.txt").unwrap(),
            proxy: None,
            redirects,
            status: Some(StatusCode::OK),
            result,
            fetched_at: at,
            expires_at: at,
            retry_after: None,
            etag: None,
            last_modified: None,
            body_bytes: 512_000,
            truncated_at_cap,
        }
    }

    #[test]
    fn expired_after_its_expiry_and_before_its_fetch() {
        let hour = Duration::from_secs(3600);
        let fetched = SystemTime::UNIX_EPOCH + 1000 * hour;
        let mut o = outcome(FetchResult::Fetched, 0, false);
        o.fetched_at = fetched;
        o.expires_at = fetched + hour;
        assert!(!o.is_expired_at(fetched));
        assert!(!o.is_expired_at(fetched + hour / 2));
        assert!(o.is_expired_at(fetched + hour));
        // The clock stepped back: due, not fresh for the step and an hour.
        assert!(o.is_expired_at(fetched - Duration::from_secs(1)));
        assert!(o.is_expired_at(fetched - 365 * 24 * hour));
    }

    #[test]
    fn display_names_redirects_and_truncation() {
        assert_eq!(
            outcome(FetchResult::Fetched, 1, true).to_string(),
            "https://e.example/robots.txt: fetched (HTTP 200) after 1 redirect to \
             https://www.e.example/robots.txt, truncated at 512000 bytes"
        );
        assert_eq!(
            outcome(FetchResult::Fetched, 0, false).to_string(),
            "https://e.example/robots.txt: fetched (HTTP 200)"
        );
        // After a reason's text, set apart from it.
        let tls = UnreachableReason::Tls(String::from("invalid peer certificate: UnknownIssuer"));
        let failed = FetchOutcome {
            status: None,
            ..outcome(FetchResult::Unreachable(tls), 1, false)
        };
        assert_eq!(
            failed.to_string(),
            "https://e.example/robots.txt: unreachable, disallow all: TLS failed: \
             invalid peer certificate: UnknownIssuer; after 1 redirect to \
             https://www.e.example/robots.txt"
        );
    }

    /// A status code HTTP names no reason for is shown as its number (it
    /// was `HTTP 520 <unknown status code>`, as if the code were unknown).
    #[test]
    fn display_of_a_status_without_a_reason_is_its_number() {
        let status = |code| StatusCode::from_u16(code).unwrap();
        for (code, shown) in [
            (503, "HTTP 503 Service Unavailable"),
            (407, "HTTP 407 Proxy Authentication Required"),
            (520, "HTTP 520"),
            (999, "HTTP 999"),
        ] {
            let why = UnreachableReason::Status(status(code));
            assert_eq!(why.to_string(), shown);
        }
        let why = UnavailableReason::Status(status(420));
        assert_eq!(why.to_string(), "HTTP 420");
    }

    /// Of a stale copy, the redirects and truncation are the copy's: they
    /// must not read as the failed fetch's.
    #[test]
    fn display_of_a_stale_copy_says_whose_details_follow() {
        let stale = |redirects, truncated| {
            outcome(
                FetchResult::StaleCopy(UnreachableReason::Timeout),
                redirects,
                truncated,
            )
            .to_string()
        };
        assert_eq!(
            stale(2, true),
            "https://e.example/robots.txt: unreachable, serving the last good copy: \
             timed out; the copy was fetched after 2 redirects to \
             https://www.e.example/robots.txt, truncated at 512000 bytes"
        );
        assert_eq!(
            stale(0, true),
            "https://e.example/robots.txt: unreachable, serving the last good copy: \
             timed out; the copy was fetched, truncated at 512000 bytes"
        );
        assert_eq!(
            stale(0, false),
            "https://e.example/robots.txt: unreachable, serving the last good copy: timed out"
        );
    }
}
