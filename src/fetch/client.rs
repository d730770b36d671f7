//! The configured fetcher and its builder. [`Fetcher::fetch`] finds the
//! robots.txt URL (`target`) and leaves the request to `exchange`.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use http::HeaderValue;
use hyper_util::client::proxy::matcher::Matcher;
use url::Url;

use super::target;
use crate::{Error, Robots};

/// The `User-Agent` a fetcher sends unless told otherwise: the crate name and
/// version, and where to read about it.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "keepout/",
    env!("CARGO_PKG_VERSION"),
    " (+",
    env!("CARGO_PKG_REPOSITORY"),
    ")"
);

pub use crate::limits::MIN_BODY_LIMIT;

/// The default total time for one fetch, redirects and body included.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The default number of consecutive redirects followed (RFC 9309 section 2.3.1.2).
pub const DEFAULT_MAX_REDIRECTS: u8 = 5;

/// The default longest time an unreachable result (disallow all) is kept
/// before a re-fetch is due.
pub const DEFAULT_UNREACHABLE_TTL: Duration = Duration::from_secs(60 * 60);

/// Fetches robots.txt files: configure once with [`Fetcher::builder`], then
/// share it; clones are cheap and share one HTTP client (whose default
/// keeps no idle connection, see [`FetcherBuilder::client`]).
///
/// ```no_run
/// use std::time::Duration;
///
/// # async fn run() -> Result<(), keepout::Error> {
/// let fetcher = keepout::Fetcher::builder()
///     .user_agent("ExampleBot/1.2 (+https://example.com/bot)")
///     .timeout(Duration::from_secs(5))
///     .build()?;
/// let robots = fetcher.fetch("https://example.com/some/page").await?;
/// let allowed = robots.is_allowed(fetcher.product_token(), "https://example.com/some/page");
/// # let _ = allowed;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Fetcher {
    pub(crate) config: Arc<Config>,
}

/// A fetcher's settings, shared by its clones.
#[derive(Debug)]
pub(crate) struct Config {
    pub(crate) client: reqwest::Client,
    pub(crate) user_agent: HeaderValue,
    pub(crate) product_token: String,
    pub(crate) timeout: Duration,
    pub(crate) max_redirects: u8,
    pub(crate) body_limit: usize,
    pub(crate) too_many_requests_as_unavailable: bool,
    pub(crate) auth_errors_disallow: bool,
    pub(crate) unreachable_ttl: Duration,
    /// How the fetcher's own client picks a proxy for a URL: reqwest's own
    /// matcher, built from the same settings, so that an outcome can name
    /// the proxy a request went through. `None` for direct requests, and
    /// for a client of the caller's, whose proxies are not known.
    pub(crate) proxies: Option<Matcher>,
    /// The fetches allowed to run at once
    /// ([`FetcherBuilder::max_concurrent_fetches`]), one permit each, and
    /// how many. `None`: no bound.
    pub(crate) slots: Option<(tokio::sync::Semaphore, usize)>,
}

impl Config {
    /// The proxy a request for `url` goes through, as `scheme://host:port`
    /// (credentials left out), when one does and it is known.
    pub(crate) fn proxy_for(&self, url: &Url) -> Option<String> {
        let proxies = self.proxies.as_ref()?;
        let uri: http::Uri = url.as_str().parse().ok()?;
        let proxy = proxies.intercept(&uri)?;
        let uri = proxy.uri();
        Some(format!("{}://{}", uri.scheme_str()?, uri.authority()?))
    }
}

/// Where [`FetcherBuilder::proxy`] and [`no_proxy`](FetcherBuilder::no_proxy)
/// send the fetcher's own client's requests.
#[derive(Debug, Clone)]
enum ProxyChoice {
    Given(String),
    Direct,
}

impl fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &*self.config;
        f.debug_struct("Fetcher")
            .field("user_agent", &c.user_agent)
            .field("product_token", &c.product_token)
            .field("timeout", &c.timeout)
            .field("max_redirects", &c.max_redirects)
            .field("body_limit", &c.body_limit)
            .field(
                "too_many_requests_as_unavailable",
                &c.too_many_requests_as_unavailable,
            )
            .field("auth_errors_disallow", &c.auth_errors_disallow)
            .field("unreachable_ttl", &c.unreachable_ttl)
            .field("max_concurrent_fetches", &self.max_concurrent_fetches())
            .finish_non_exhaustive()
    }
}

impl Default for Fetcher {
    fn default() -> Self {
        Fetcher::new()
    }
}

/// What an HTTP/2 server may send of a response ahead of what the fetcher
/// reads (RFC 9113 section 6.9.2, the stream's initial window), buffered
/// in the client meanwhile: a body takes at most two round trips a
/// window, and a fetch stopped at the body limit leaves at most this much
/// unread.
const HTTP2_STREAM_WINDOW: u32 = 256 * 1024;

impl Fetcher {
    /// A fetcher with the default settings (see [`FetcherBuilder`]).
    ///
    /// # Panics
    ///
    /// If the HTTP client cannot be created, as [`reqwest::Client::new`]
    /// does; use [`Fetcher::builder`] to get an error instead.
    pub fn new() -> Fetcher {
        match FetcherBuilder::new().build() {
            Ok(fetcher) => fetcher,
            Err(error) => panic!("keepout: default fetcher: {error}"),
        }
    }

    /// A builder to configure a fetcher.
    pub fn builder() -> FetcherBuilder {
        FetcherBuilder::new()
    }

    /// The reqwest client builder that the fetcher's own client starts
    /// from, for a client of your own to give to
    /// [`FetcherBuilder::client`]: redirects are left to the fetcher (so it
    /// counts hops, catches loops and refuses other schemes), content
    /// codings too (so the body limit bounds the download as well as the
    /// inflated text), no `Referer` is sent, and over HTTP/2 a server may
    /// send no more than 256 KiB ahead of the reader (the stream's flow
    /// control window; hyper's default is 2 MiB, which the client buffers
    /// whatever the body limit). Unlike the fetcher's own
    /// client it keeps idle connections, as reqwest does by default; add
    /// what else you need (pool size, a proxy, certificate authorities:
    /// `tls_certs_merge` to trust a private one besides the system's, as
    /// the README's Fetching section shows).
    ///
    /// ```
    /// use keepout::Fetcher;
    ///
    /// let client = Fetcher::client_builder()
    ///     .pool_max_idle_per_host(1)
    ///     .build()
    ///     .expect("a TLS backend");
    /// let fetcher = Fetcher::builder().client(client).build()?;
    /// # let _ = fetcher;
    /// # Ok::<(), keepout::Error>(())
    /// ```
    pub fn client_builder() -> reqwest::ClientBuilder {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .gzip(false)
            .deflate(false)
            .brotli(false)
            .http2_initial_stream_window_size(HTTP2_STREAM_WINDOW)
    }

    /// Fetches the robots.txt governing `url` (any URL of the site: a
    /// `&str`, `String` or [`Url`]). The rules apply to `url`'s authority
    /// even when the file was served after a redirect to another host. The
    /// future owns what it needs, so it can be spawned.
    ///
    /// # Errors
    ///
    /// Only for input that can have no robots.txt (see
    /// [`robots_url`](Self::robots_url)), or when this machine cannot make
    /// the request, out of descriptors, local ports or memory
    /// ([`Error::LocalResources`]); every server or network outcome is an
    /// `Ok(Robots)` carrying a [`FetchOutcome`](crate::FetchOutcome).
    ///
    /// # Panics
    ///
    /// When polled outside a Tokio runtime, or in one built without its
    /// I/O or time drivers (`enable_all()`; `#[tokio::main]` and
    /// `#[tokio::test]` enable both): the request needs the first, the
    /// [timeout](FetcherBuilder::timeout) the second.
    pub fn fetch(
        &self,
        url: impl AsRef<str>,
    ) -> impl Future<Output = Result<Robots, Error>> + Send + Sync + 'static {
        let fetcher = self.clone();
        let robots_url = self.robots_url(url);
        async move { fetcher.fetch_from(robots_url?, None).await }
    }

    /// Re-fetches the robots.txt that `previous` was fetched from, sending
    /// its validators (`If-None-Match`, `If-Modified-Since`) when it has any.
    ///
    /// A `304 Not Modified` keeps `previous`'s rules with a new outcome
    /// ([`FetchResult::NotModified`](crate::fetch::FetchResult::NotModified))
    /// and a new expiry; any other response is handled as by
    /// [`fetch`](Self::fetch).
    ///
    /// # Errors
    ///
    /// [`Error::NotFetched`] when `previous` was parsed locally rather than
    /// fetched; otherwise only as `fetch` fails, when this machine cannot
    /// make the request ([`Error::LocalResources`]).
    ///
    /// # Panics
    ///
    /// As [`fetch`](Self::fetch) does, outside a Tokio runtime with its I/O
    /// and time drivers.
    pub fn refresh(
        &self,
        previous: &Robots,
    ) -> impl Future<Output = Result<Robots, Error>> + Send + Sync + 'static {
        let fetcher = self.clone();
        let previous = previous.clone();
        async move {
            let robots_url = previous
                .fetch_outcome()
                .ok_or(Error::NotFetched)?
                .robots_url
                .clone();
            fetcher.fetch_from(robots_url, Some(&previous)).await
        }
    }

    /// The robots.txt URL governing `url`: `scheme://authority/robots.txt`
    /// (see [`robots_url`](crate::fetch::robots_url)).
    ///
    /// # Errors
    ///
    /// As [`robots_url`](crate::fetch::robots_url): for input that can
    /// have no robots.txt.
    pub fn robots_url(&self, url: impl AsRef<str>) -> Result<Url, Error> {
        target::robots_url(url.as_ref())
    }

    /// The `User-Agent` header this fetcher sends.
    pub fn user_agent(&self) -> &str {
        // Built from a `&str`, so always visible ASCII.
        self.config.user_agent.to_str().unwrap_or_default()
    }

    /// The product token to match robots.txt groups against, e.g. in
    /// [`Robots::is_allowed`](crate::Robots::is_allowed).
    pub fn product_token(&self) -> &str {
        &self.config.product_token
    }

    /// The total time allowed for one fetch.
    pub fn timeout(&self) -> Duration {
        self.config.timeout
    }

    /// The number of consecutive redirects followed.
    pub fn max_redirects(&self) -> u8 {
        self.config.max_redirects
    }

    /// The body limit: the most body bytes read per fetch, as sent and as
    /// decoded (see [`FetcherBuilder::body_limit`]).
    pub fn body_limit(&self) -> usize {
        self.config.body_limit
    }

    /// The most fetches that run at once, if bounded (see
    /// [`FetcherBuilder::max_concurrent_fetches`]).
    pub fn max_concurrent_fetches(&self) -> Option<usize> {
        self.config.slots.as_ref().map(|&(_, most)| most)
    }
}

/// Configures a [`Fetcher`]. Every option has a default:
///
/// | option | default |
/// |---|---|
/// | [`user_agent`](Self::user_agent) | [`DEFAULT_USER_AGENT`] (`keepout/VERSION (+repository)`) |
/// | [`product_token`](Self::product_token) | the User-Agent's leading token (`keepout`), or the one after `compatible;` in `Mozilla/5.0 (compatible; ExampleBot/1.2; ...)` |
/// | [`timeout`](Self::timeout) | 10 s for the whole fetch |
/// | [`connect_timeout`](Self::connect_timeout) | none of its own (the total timeout bounds it) |
/// | [`max_redirects`](Self::max_redirects) | 5 |
/// | [`body_limit`](Self::body_limit) | 500 KiB, the minimum |
/// | [`too_many_requests_as_unavailable`](Self::too_many_requests_as_unavailable) | `false`: 429 disallows all |
/// | [`auth_errors_disallow`](Self::auth_errors_disallow) | `false`: 401/403 allow all |
/// | [`unreachable_ttl`](Self::unreachable_ttl) | 1 hour |
/// | [`max_concurrent_fetches`](Self::max_concurrent_fetches) | no bound |
/// | [`client`](Self::client) | a client built from these options, which keeps no idle connections (see below) |
/// | [`proxy`](Self::proxy), [`no_proxy`](Self::no_proxy) | the proxy the environment names, if any (see below) |
///
/// The client the fetcher builds closes each connection once its fetch
/// ends. A crawler fetches an origin's robots.txt about once a day, so a
/// kept connection would hardly ever be used again, and one kept per
/// origin fetched in the last 90 s (reqwest's default) can use up the
/// process's file descriptors. A connection kept is also tied to the Tokio
/// runtime that opened it, so this lets one fetcher (and
/// [`Robots::fetch`](crate::Robots::fetch)'s shared one) serve several
/// runtimes. To keep connections, give a client of your own.
///
/// That client sends requests through the proxy the environment names, as
/// reqwest's clients do: `HTTP_PROXY`, `HTTPS_PROXY` or `ALL_PROXY` (or
/// their lowercase forms; HTTP or SOCKS), except to the hosts `NO_PROXY`
/// lists (`*` for all, IP addresses included); or
/// through the one [`proxy`](Self::proxy) gives, or none after
/// [`no_proxy`](Self::no_proxy). Each outcome names the proxy its request
/// went through ([`FetchOutcome::proxy`](crate::FetchOutcome::proxy)).
///
/// [`build`](Self::build) names the option it refuses:
///
/// ```
/// use keepout::{Error, Fetcher};
///
/// let fetcher = Fetcher::builder()
///     .user_agent("ExampleBot/1.2 (+https://example.com/bot)")
///     .max_redirects(3)
///     .build()?;
/// assert_eq!((fetcher.product_token(), fetcher.max_redirects()), ("ExampleBot", 3));
///
/// let err = Fetcher::builder().body_limit(1024).build().unwrap_err();
/// assert!(matches!(err, Error::InvalidConfig { option: "body_limit", .. }));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct FetcherBuilder {
    user_agent: Option<String>,
    product_token: Option<String>,
    timeout: Duration,
    connect_timeout: Option<Duration>,
    max_redirects: u8,
    body_limit: usize,
    client: Option<reqwest::Client>,
    too_many_requests_as_unavailable: bool,
    auth_errors_disallow: bool,
    unreachable_ttl: Duration,
    /// `None`: the environment's proxy settings.
    proxy: Option<ProxyChoice>,
    max_concurrent_fetches: Option<usize>,
}

impl Default for FetcherBuilder {
    fn default() -> Self {
        FetcherBuilder::new()
    }
}

impl FetcherBuilder {
    /// A builder with the default settings.
    pub fn new() -> FetcherBuilder {
        FetcherBuilder {
            user_agent: None,
            product_token: None,
            timeout: DEFAULT_TIMEOUT,
            connect_timeout: None,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            body_limit: MIN_BODY_LIMIT,
            client: None,
            too_many_requests_as_unavailable: false,
            auth_errors_disallow: false,
            unreachable_ttl: DEFAULT_UNREACHABLE_TTL,
            proxy: None,
            max_concurrent_fetches: None,
        }
    }

    /// The `User-Agent` header sent with every request (also with a client
    /// given to [`client`](Self::client)). Must be visible ASCII, and not
    /// blank.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = Some(user_agent.into());
        self
    }

    /// The product token matched against `User-agent` lines: letters, `_`
    /// and `-` (RFC 9309 section 2.2.1), digits accepted too. Defaults to
    /// the User-Agent's leading token: `ExampleBot` for
    /// `ExampleBot/1.2 (+https://...)`; for the browser-compatible forms
    /// Googlebot, bingbot and others send, the token after `compatible;`
    /// (opening a comment or after a `;` in one): `ExampleBot` for
    /// `Mozilla/5.0 (compatible; ExampleBot/1.2; ...)` and for `Mozilla/5.0
    /// AppleWebKit/537.36 (KHTML, like Gecko; compatible; ExampleBot/1.2;
    /// ...) Chrome/...`
    /// (a `Mozilla/...` header without one is refused: set the token).
    /// Set it when the crawler's name is elsewhere in the header.
    pub fn product_token(mut self, token: impl Into<String>) -> Self {
        self.product_token = Some(token.into());
        self
    }

    /// The total time for one fetch: connecting, every redirect, headers and
    /// body. A server that stalls or dribbles ends as unreachable when it
    /// runs out. Applies to a client given to [`client`](Self::client) too.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The time allowed to open each connection (only for the client the
    /// fetcher builds itself: [`build`](Self::build) refuses it together
    /// with [`client`](Self::client), whose own connect timeout applies).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How many consecutive redirects to follow; one more makes robots.txt
    /// unavailable. RFC 9309 section 2.3.1.2 says a crawler SHOULD follow
    /// at least five, the default; fewer are accepted (0: follow none), as
    /// the RFC does not require them.
    pub fn max_redirects(mut self, max: u8) -> Self {
        self.max_redirects = max;
        self
    }

    /// The most body bytes read: reading stops when this many octets have
    /// arrived, or have been decoded from a compressed body (so a
    /// compressed body is limited by both its sizes), and the last partial
    /// line is dropped. [`build`](Self::build)
    /// refuses a value below [`MIN_BODY_LIMIT`] (500 KiB).
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Uses this client for requests, e.g. to share a connection pool or
    /// to trust other certificate authorities; build it from
    /// [`Fetcher::client_builder`]. Requests ask for gzip and deflate, as
    /// the fetcher's own do, and the fetcher decodes them within the body
    /// limit. Its pool is used as it is configured:
    /// reqwest keeps every idle connection for 90 s by default, a socket for
    /// each origin fetched in that time (see above for why the fetcher's
    /// own client keeps none; `pool_max_idle_per_host(0)` does the same).
    /// Its own timeouts, proxies and TLS settings apply
    /// ([`build`](Self::build) refuses
    /// [`connect_timeout`](Self::connect_timeout), [`proxy`](Self::proxy)
    /// and [`no_proxy`](Self::no_proxy) with it); the fetcher's
    /// `User-Agent` and total timeout are applied on top.
    ///
    /// A client built otherwise, e.g. by `reqwest::Client::new()`, follows
    /// redirects and decodes bodies itself. The fetcher then sees only
    /// where the client got to: [`max_redirects`](Self::max_redirects) is
    /// not applied (the client's own limit is, 10 by default), the hops are
    /// counted as one, a hop that fails (unreachable) is reported at the
    /// URL first requested, as reqwest's error names no other, and a loop
    /// is reported as
    /// [`TooManyRedirects`](crate::UnavailableReason::TooManyRedirects)
    /// (allow all, as when the fetcher gives up); a compressed body is
    /// limited by its decoded size only, and brotli windows by nothing
    /// ([`MAX_BROTLI_WINDOW`](crate::limits::MAX_BROTLI_WINDOW) is the
    /// fetcher's own decoder's).
    pub fn client(mut self, client: reqwest::Client) -> Self {
        self.client = Some(client);
        self
    }

    /// Sends every request through the proxy at `url`, whatever the
    /// environment says: an HTTP proxy (`http://` or `https://`, assumed
    /// `http://` when it has no scheme) or a SOCKS proxy (`socks4://`,
    /// `socks4a://`, `socks5://`, or `socks5h://` to have the proxy resolve
    /// host names), with `user:password@` for authentication.
    /// [`build`](Self::build) refuses another scheme, a host holding
    /// characters no HTTP client can send (`{`, `"`, ...: the URL standard
    /// keeps them), or this together with [`client`](Self::client), whose
    /// own proxy settings apply.
    ///
    /// ```
    /// let fetcher = keepout::Fetcher::builder()
    ///     .proxy("http://proxy.internal:3128")
    ///     .build()?;
    /// # let _ = fetcher;
    /// # Ok::<(), keepout::Error>(())
    /// ```
    pub fn proxy(mut self, url: impl Into<String>) -> Self {
        self.proxy = Some(ProxyChoice::Given(url.into()));
        self
    }

    /// Sends every request directly, whatever proxy the environment names.
    /// [`build`](Self::build) refuses this together with
    /// [`client`](Self::client).
    pub fn no_proxy(mut self) -> Self {
        self.proxy = Some(ProxyChoice::Direct);
        self
    }

    /// Treat `429 Too Many Requests` as unavailable (allow all) like other
    /// 4xx, instead of unreachable (disallow all). The default follows
    /// Google, which handles 429 as a server error.
    pub fn too_many_requests_as_unavailable(mut self, yes: bool) -> Self {
        self.too_many_requests_as_unavailable = yes;
        self
    }

    /// Treat `401 Unauthorized` and `403 Forbidden` as disallow-all
    /// (reported as unreachable), as Python's `urllib.robotparser` does,
    /// instead of unavailable (allow all) as RFC 9309 section 2.3.1.3 says.
    pub fn auth_errors_disallow(mut self, yes: bool) -> Self {
        self.auth_errors_disallow = yes;
        self
    }

    /// The longest an unreachable result (disallow all) stays fresh, so a
    /// passing outage is retried soon; caching headers or `Retry-After` may
    /// shorten it (or, for `Retry-After`, extend it up to 24 hours). Values
    /// above 24 hours act as 24 hours (RFC 9309 section 2.4).
    pub fn unreachable_ttl(mut self, ttl: Duration) -> Self {
        self.unreachable_ttl = ttl;
        self
    }

    /// At most this many fetches of the fetcher (its clones, and a
    /// [`RobotsCache`](crate::RobotsCache) using it, included) run at
    /// once; the others wait their turn, first come first served, and
    /// their [timeout](Self::timeout) starts only when it comes (a wait is
    /// no sign of an unreachable server). Each fetch in progress holds a
    /// connection, so a file descriptor, and up to the body limit in
    /// memory: a crawler discovering many origins at once stays within its
    /// descriptors, where past them a fetch fails with
    /// [`Error::LocalResources`]. Must be more than zero; a number past
    /// what a Tokio semaphore can count (`usize::MAX >> 3` permits) is no
    /// bound, and [`Fetcher::max_concurrent_fetches`] then reports `None`.
    /// Default: no bound (bound the fetches where they start, or here).
    ///
    /// ```
    /// # async fn run() -> Result<(), keepout::Error> {
    /// let fetcher = keepout::Fetcher::builder().max_concurrent_fetches(256).build()?;
    /// let cache = keepout::RobotsCache::builder().fetcher(fetcher).build()?;
    /// // However many tasks ask at once, at most 256 robots.txt fetches
    /// // are in progress.
    /// let allowed = cache.is_allowed("ExampleBot", "https://example.com/page").await?;
    /// # let _ = allowed;
    /// # Ok(())
    /// # }
    /// ```
    pub fn max_concurrent_fetches(mut self, fetches: usize) -> Self {
        self.max_concurrent_fetches = Some(fetches);
        self
    }

    /// Checks the options and creates the fetcher.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidConfig`], naming the option, for a user agent that
    /// is no header value, a product token that is none (or none derived
    /// from the user agent), a zero timeout, connect timeout or
    /// [`max_concurrent_fetches`](Self::max_concurrent_fetches), a body
    /// limit below 500 KiB, a proxy that is no proxy URL, or a connect
    /// timeout or proxy set beside a [`client`](Self::client) of one's
    /// own; [`Error::Client`] if the HTTP client cannot be created.
    pub fn build(self) -> Result<Fetcher, Error> {
        let invalid = |option, reason: String| Error::InvalidConfig { option, reason };
        let ua_text = self.user_agent.as_deref().unwrap_or(DEFAULT_USER_AGENT);
        // Spaces and tabs alone are no value: a receiver trims them away
        // (RFC 9110 section 5.5).
        let blank = ua_text.trim_matches([' ', '\t']).is_empty();
        let user_agent = HeaderValue::from_str(ua_text)
            .ok()
            .filter(|v| !blank && v.to_str().is_ok())
            .ok_or_else(|| {
                let problem = match ua_text
                    .char_indices()
                    .find(|&(_, c)| !(c.is_ascii_graphic() || c == ' ' || c == '\t'))
                {
                    Some((at, c)) => format!(
                        "{c:?} at byte {at} is not visible ASCII (spaces and tabs are allowed)"
                    ),
                    None => "it is empty or blank".to_owned(),
                };
                invalid(
                    "user_agent",
                    format!("{ua_text:?} is not a valid header value: {problem}"),
                )
            })?;
        let product_token = match self.product_token {
            Some(token) if is_product_token(&token) => token,
            Some(token) => {
                return Err(invalid(
                    "product_token",
                    format!("{token:?} must be letters, digits, '_' and '-' only"),
                ));
            }
            None => leading_token(ua_text).ok_or_else(|| {
                invalid(
                    "product_token",
                    format!("none can be derived from user agent {ua_text:?}; set it explicitly"),
                )
            })?,
        };
        if self.timeout.is_zero() {
            return Err(invalid("timeout", "must be more than zero".into()));
        }
        if self.connect_timeout.is_some_and(|t| t.is_zero()) {
            return Err(invalid("connect_timeout", "must be more than zero".into()));
        }
        if self.max_concurrent_fetches == Some(0) {
            return Err(invalid(
                "max_concurrent_fetches",
                "must be more than zero (no fetch could ever run)".into(),
            ));
        }
        if self.body_limit < MIN_BODY_LIMIT {
            return Err(invalid(
                "body_limit",
                format!(
                    "{} bytes is below the minimum of {MIN_BODY_LIMIT} bytes (500 KiB, RFC 9309 section 2.5)",
                    self.body_limit
                ),
            ));
        }
        if self.client.is_some() && self.connect_timeout.is_some() {
            return Err(invalid(
                "connect_timeout",
                "a client given with `client` uses its own connect timeout: set it on it".into(),
            ));
        }
        if self.client.is_some() && self.proxy.is_some() {
            return Err(invalid(
                "proxy",
                "a client given with `client` uses its own proxy settings: set the proxy on it"
                    .into(),
            ));
        }
        // The client's proxies, and reqwest's matcher for them (see
        // `Config::proxies`).
        let (proxy, proxies) = match &self.proxy {
            _ if self.client.is_some() => (None, None),
            // `NO_PROXY=*` exempts every host, IP addresses too, as curl
            // reads it; reqwest applies `*` to host names only.
            None if environment_exempts_all() => (None, None),
            None => (None, Some(Matcher::from_system())),
            Some(ProxyChoice::Direct) => (None, None),
            Some(ProxyChoice::Given(url)) => {
                let given = proxy_url(url).map_err(|reason| invalid("proxy", reason))?;
                let proxy = reqwest::Proxy::all(given.as_str())
                    .map_err(|e| invalid("proxy", format!("{}: {e}", redacted(&given))))?;
                let matcher = Matcher::builder().all(given.to_string()).build();
                (Some(proxy), Some(matcher))
            }
        };
        let client = match self.client {
            Some(client) => client,
            None => {
                // No decoding in the client: the fetcher decodes bodies
                // itself, so that the body limit counts the octets
                // downloaded as well as those inflated.
                //
                // No idle connections kept: a crawler fetches each origin's
                // robots.txt about once a day, so a kept connection is
                // hardly ever used again, while reqwest's default (every
                // one, for 90 s) holds a socket per origin fetched: a
                // crawl of 1,500 origins a minute ran out of a 1,024
                // descriptor limit, and the fetches past it were
                // unreachable (disallow all). A kept connection also
                // belongs to the runtime that opened it: fetched from
                // another runtime while that one was idle, it hung until
                // the timeout.
                let mut builder = Fetcher::client_builder()
                    .pool_max_idle_per_host(0)
                    .user_agent(user_agent.clone());
                if let Some(timeout) = self.connect_timeout {
                    builder = builder.connect_timeout(timeout);
                }
                builder = match proxy {
                    Some(proxy) => builder.proxy(proxy),
                    None if proxies.is_none() => builder.no_proxy(),
                    // The environment's, as reqwest reads it by default.
                    None => builder,
                };
                builder.build().map_err(|e| Error::Client(e.to_string()))?
            }
        };
        Ok(Fetcher {
            config: Arc::new(Config {
                client,
                user_agent,
                product_token,
                timeout: self.timeout,
                max_redirects: self.max_redirects,
                body_limit: self.body_limit,
                too_many_requests_as_unavailable: self.too_many_requests_as_unavailable,
                auth_errors_disallow: self.auth_errors_disallow,
                unreachable_ttl: self.unreachable_ttl,
                proxies,
                // (A bound past what a semaphore holds is no bound.)
                slots: self
                    .max_concurrent_fetches
                    .filter(|&n| n <= tokio::sync::Semaphore::MAX_PERMITS)
                    .map(|n| (tokio::sync::Semaphore::new(n), n)),
            }),
        })
    }
}

/// Whether the environment's `NO_PROXY` (or, when that is unset,
/// `no_proxy`: the first set, as reqwest reads them) has the entry `*`, no
/// proxy for any host.
fn environment_exempts_all() -> bool {
    let list = std::env::var("NO_PROXY").or_else(|_| std::env::var("no_proxy"));
    list.is_ok_and(|list| list.split(',').any(|entry| entry.trim() == "*"))
}

/// The URL of a proxy given to [`FetcherBuilder::proxy`], or why it is
/// refused (never showing its password).
fn proxy_url(text: &str) -> Result<Url, String> {
    // `host:port` alone is an http proxy, as in `HTTP_PROXY`.
    let text = text.trim();
    let text = match text.contains("://") {
        true => text.to_owned(),
        false => format!("http://{text}"),
    };
    let url =
        Url::parse(&text).map_err(|e| format!("not a URL: {}", target::url_fault(&text, e)))?;
    if !matches!(
        url.scheme(),
        "http" | "https" | "socks4" | "socks4a" | "socks5" | "socks5h"
    ) {
        return Err(format!(
            "{}: the scheme must be http, https, socks4, socks4a, socks5 or socks5h",
            redacted(&url)
        ));
    }
    if url.host().is_none() {
        return Err(format!("{}: no host", redacted(&url)));
    }
    if !super::target::is_sendable(&url) {
        // The URL standard keeps `{`, `"`, ... in a host; the HTTP client's
        // proxy matcher cannot read such a URL, and would then send every
        // request straight to the site.
        return Err(format!(
            "{}: the host holds characters no HTTP client can send",
            redacted(&url)
        ));
    }
    Ok(url)
}

/// `url` with its password, if any, shown as `***`.
fn redacted(url: &Url) -> String {
    let mut shown = url.clone();
    if shown.password().is_some() {
        let _ = shown.set_password(Some("***"));
    }
    shown.to_string()
}

/// Whether `token` is a product token: `[a-zA-Z_-]+` (RFC 9309 section
/// 2.2.1), plus digits, which the matcher accepts too (`MJ12bot`).
fn is_product_token(token: &str) -> bool {
    !token.is_empty()
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The crawler's product name in a User-Agent, if it is a valid product
/// token: the one it starts with (`ExampleBot` in `ExampleBot/1.2 (...)`),
/// or in the browser-compatible forms that Googlebot, bingbot and others
/// send, the one after `compatible;` in a comment (see
/// `agent::compatible_comment`): `Mozilla/5.0 (compatible; ExampleBot/1.2;
/// +https://...)`. `Mozilla` and a browser's `MSIE` name no crawler.
fn leading_token(user_agent: &str) -> Option<String> {
    let first_word = |text: &str| {
        // Spaces and tabs, the only white space a header value holds, as
        // the matcher skips them (`parse::trim`).
        let token = text
            .trim_start_matches([' ', '\t'])
            .split(|c: char| matches!(c, '/' | ';' | ')') || c.is_whitespace())
            .next()?;
        is_product_token(token).then(|| token.to_owned())
    };
    let token = first_word(user_agent)?;
    if !token.eq_ignore_ascii_case("Mozilla") {
        return Some(token);
    }
    // As `Robots::is_allowed` reads such a header (`agent::select_names`).
    let comment = crate::agent::compatible_comment(user_agent.as_bytes())?;
    // The mark is ASCII, so the comment starts at a character boundary.
    let comment = &user_agent[user_agent.len() - comment.len()..];
    first_word(comment).filter(|t| crate::agent::is_crawler(t.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let fetcher = Fetcher::new();
        assert!(fetcher.user_agent().starts_with("keepout/"));
        assert_eq!(fetcher.product_token(), "keepout");
        assert_eq!(fetcher.timeout(), Duration::from_secs(10));
        assert_eq!(fetcher.max_redirects(), 5);
        assert_eq!(fetcher.body_limit(), 512_000);
    }

    #[test]
    fn product_token_from_user_agent() {
        let fetcher = Fetcher::builder()
            .user_agent("Example-Bot/2.0 (+https://example.com/bot)")
            .build()
            .unwrap();
        assert_eq!(fetcher.product_token(), "Example-Bot");
        let fetcher = Fetcher::builder()
            .user_agent("MJ12bot/v1.4")
            .build()
            .unwrap();
        assert_eq!(fetcher.product_token(), "MJ12bot");
        let err = Fetcher::builder()
            .user_agent("bot.v2/1")
            .build()
            .unwrap_err();
        assert!(matches!(
            err,
            Error::InvalidConfig {
                option: "product_token",
                ..
            }
        ));
        let fetcher = Fetcher::builder()
            .user_agent("bot.v2/1")
            .product_token("botv")
            .build()
            .unwrap();
        assert_eq!(fetcher.product_token(), "botv");
    }

    /// The token derived from a header is the one `Robots::is_allowed`
    /// matches the same header by, where there is one: a no-break space
    /// after `compatible;` is part of no token for either.
    #[test]
    fn the_token_derived_is_the_one_checks_read() {
        for ua in [
            "ExampleBot/1.0",
            "Mozilla/5.0 (compatible; ExampleBot/1.0)",
            "Mozilla/5.0 (compatible;\tExampleBot/1.0)",
            "Mozilla/5.0 (compatible;\u{a0}ExampleBot/1.0)",
            "\u{a0}ExampleBot/1.0",
        ] {
            if let Some(token) = leading_token(ua) {
                assert_eq!(token, crate::Robots::agent_token(ua), "{ua:?}");
            }
        }
        assert_eq!(leading_token("\u{a0}ExampleBot/1.0"), None);
        assert_eq!(
            leading_token("Mozilla/5.0 (compatible;\u{a0}ExampleBot/1.0)"),
            None
        );
    }

    /// The browser-compatible form names the crawler after `compatible;`;
    /// `Mozilla` itself names none.
    #[test]
    fn product_token_from_a_browser_compatible_user_agent() {
        let token = |ua: &str| leading_token(ua);
        assert_eq!(
            token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            Some("Googlebot".into())
        );
        assert_eq!(
            token("Mozilla/5.0 (compatible;bingbot/2.0; +http://www.bing.com/bingbot.htm)"),
            Some("bingbot".into())
        );
        assert_eq!(
            token("Mozilla/5.0 (compatible; ExampleBot)"),
            Some("ExampleBot".into())
        );
        assert_eq!(
            token("mozilla/5.0 (compatible; a-b; x)"),
            Some("a-b".into())
        );
        // No crawler named: refused, asking for the token.
        assert_eq!(token("Mozilla/5.0 (X11; Linux x86_64)"), None);
        assert_eq!(token("Mozilla/5.0"), None);
        assert_eq!(token("Mozilla/5.0 (compatible; )"), None);
        assert_eq!(token("Mozilla/5.0 (compatible)"), None);
        assert_eq!(token("Mozilla/5.0 (Compatible; X)"), Some("X".into()));
        // Googlebot's smartphone header: the mark in its last comment.
        assert_eq!(
            token(
                "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 \
                 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 \
                 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            ),
            Some("Googlebot".into())
        );
        // bingbot's evergreen header: the mark within a comment.
        assert_eq!(
            token(
                "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; \
                 +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
            ),
            Some("bingbot".into())
        );
        assert_eq!(token("Mozilla/5.0 (X11; incompatible; X)"), None);
        // A browser's header names no crawler.
        assert_eq!(
            token("Mozilla/4.0 (compatible; MSIE 9.0; Windows NT 6.1)"),
            None
        );
        assert_eq!(token("Mozilla/5.0 (compatible; Mozilla/5.0)"), None);
        // Not a product token: refused, asking for one.
        assert_eq!(token("Mozilla/5.0 (compatible; Yahoo! Slurp)"), None);
        let err = Fetcher::builder()
            .user_agent("Bötchen/1")
            .build()
            .unwrap_err();
        assert!(
            err.to_string()
                .ends_with("\"Bötchen/1\" is not a valid header value: 'ö' at byte 1 is not visible ASCII (spaces and tabs are allowed)"),
            "{err}"
        );
        for (value, problem) in [
            ("Bot\u{1}/1", "'\\u{1}' at byte 3 is not visible ASCII"),
            ("Bot/1\r\n", "'\\r' at byte 5 is not visible ASCII"),
            (" \t", "it is empty or blank"),
            ("", "it is empty or blank"),
        ] {
            let err = Fetcher::builder().user_agent(value).build().unwrap_err();
            assert!(err.to_string().contains(problem), "{value:?}: {err}");
        }
        let err = Fetcher::builder()
            .user_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64)")
            .build()
            .unwrap_err();
        assert!(err.to_string().contains("set it explicitly"), "{err}");
        let fetcher = Fetcher::builder()
            .user_agent("Mozilla/5.0 (compatible; ReviewBot/1.0; +https://e.example/bot)")
            .build()
            .unwrap();
        assert_eq!(fetcher.product_token(), "ReviewBot");
        // Other leading tokens as before.
        assert_eq!(
            token("ExampleBot/1.2 (+https://e.example)"),
            Some("ExampleBot".into())
        );
        assert_eq!(token("ExampleBot"), Some("ExampleBot".into()));
    }

    #[test]
    fn bad_options_are_refused_naming_the_option() {
        let cases = [
            (Fetcher::builder().body_limit(1000), "body_limit"),
            (Fetcher::builder().user_agent("bot\n1"), "user_agent"),
            // Blank: no User-Agent at all once the receiver trims it.
            (Fetcher::builder().user_agent(" \t "), "user_agent"),
            (
                Fetcher::builder().user_agent("  ").product_token("bot"),
                "user_agent",
            ),
            (Fetcher::builder().product_token("bot/1"), "product_token"),
            (Fetcher::builder().timeout(Duration::ZERO), "timeout"),
            (
                Fetcher::builder().connect_timeout(Duration::ZERO),
                "connect_timeout",
            ),
        ];
        for (builder, option) in cases {
            let err = builder.build().unwrap_err();
            assert!(
                matches!(err, Error::InvalidConfig { option: o, .. } if o == option),
                "{err}"
            );
            assert!(err.to_string().contains(option), "{err}");
        }
        let fetcher = Fetcher::builder().body_limit(4 << 20).build().unwrap();
        assert_eq!(fetcher.body_limit(), 4 << 20);
    }

    #[test]
    fn bad_proxies_are_refused_without_showing_a_password() {
        let cases = [
            (
                Fetcher::builder().proxy("ftp://proxy.internal"),
                "the scheme must be http, https, socks4",
            ),
            (
                Fetcher::builder().proxy("not a url"),
                "not a URL: the host holds ' ', which no host name can",
            ),
            (Fetcher::builder().proxy("http://:secret@/"), "not a URL"),
            // Kept by the URL parser, unreadable to reqwest's proxy matcher,
            // which then sent requests straight to the site.
            (
                Fetcher::builder().proxy("http://user:secret@a{b}.internal:3128"),
                "user:***@a{b}.internal:3128/: the host holds characters",
            ),
            (
                Fetcher::builder().proxy("socks5h://a`b:1080"),
                "the host holds characters",
            ),
            (
                Fetcher::builder().proxy("ftp://user:secret@proxy.internal:1080"),
                "ftp://user:***@proxy.internal:1080",
            ),
            (
                Fetcher::builder()
                    .client(reqwest::Client::new())
                    .proxy("http://proxy.internal:3128"),
                "set the proxy on it",
            ),
            (
                Fetcher::builder().client(reqwest::Client::new()).no_proxy(),
                "set the proxy on it",
            ),
        ];
        for (builder, needle) in cases {
            let err = builder.build().unwrap_err();
            assert!(
                matches!(
                    err,
                    Error::InvalidConfig {
                        option: "proxy",
                        ..
                    }
                ),
                "{err}"
            );
            let shown = err.to_string();
            assert!(shown.contains(needle), "{needle:?} in {shown}");
            assert!(!shown.contains("secret"), "{shown}");
        }
        let fetcher = Fetcher::builder().proxy("https://user:secret@proxy.internal");
        let config = fetcher.build().unwrap().config;
        let url = Url::parse("http://example.com/robots.txt").unwrap();
        // The credentials are not shown.
        assert_eq!(
            config.proxy_for(&url).as_deref(),
            Some("https://proxy.internal")
        );
        // `host:port` alone is an http proxy.
        let bare = Fetcher::builder().proxy("proxy.internal:3128").build();
        assert_eq!(
            bare.unwrap().config.proxy_for(&url).as_deref(),
            Some("http://proxy.internal:3128")
        );
        let direct = Fetcher::builder().no_proxy().build().unwrap().config;
        assert_eq!(direct.proxy_for(&url), None);
    }

    #[test]
    fn fetcher_and_futures_are_send_sync() {
        fn send_sync<T: Send + Sync + 'static>(_: &T) {}
        let fetcher = Fetcher::new();
        send_sync(&fetcher);
        send_sync(&fetcher.fetch("http://127.0.0.1:9/"));
        send_sync(&fetcher.refresh(&Robots::allow_all()));
    }
}
