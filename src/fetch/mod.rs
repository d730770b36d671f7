//! Fetching robots.txt over HTTP, per RFC 9309 section 2.3.
//!
//! Without the `fetch` feature (on by default), this module holds only
//! [`robots_url`] and [`origin_key`]: the URL a crawler fetching for
//! itself requests, and the key it keeps the rules under.
//!
//! [`Robots::fetch`] fetches with a shared default [`Fetcher`]; crawlers that
//! set their own User-Agent, timeouts or limits build one with
//! [`Fetcher::builder`] and share it across tasks. The request goes to
//! `scheme://authority/robots.txt` of the URL given (port kept; user info,
//! path, query and fragment dropped) with `Accept: text/plain`, accepting
//! gzip and deflate, which the fetcher decodes itself (coding names in any
//! case, `x-gzip`, and raw deflate too). It also decodes brotli sent
//! unasked, if the stream declares a window of at most
//! [`MAX_BROTLI_WINDOW`](crate::limits::MAX_BROTLI_WINDOW) (1 MiB); a body
//! in another coding (`compress`, `zstd`), a brotli stream declaring a
//! larger window, or a body that does not decode, is unreachable. A name
//! that is no coding at all (`Content-Encoding: utf-8`, which some servers
//! send on plain text) is ignored, as browsers ignore it, when the body's
//! first KiB holds no control character but white space (or it opens with
//! a UTF-16 byte order mark) and no transfer coding besides `chunked` is
//! named; on any other body it is unreachable too. A transfer coding besides
//! `chunked` (`Transfer-Encoding: gzip, chunked`) is undone as these are,
//! before the content coding (RFC 9112 section 6.1), and is unreachable
//! when it is not one of them. An empty body is an empty
//! file whatever its coding, and octets after the end of the coded data
//! (a line end, zero padding) are ignored.
//!
//! Fetching only fails for input that can have no robots.txt (not a URL, not
//! http/https, no host, port 0, a host no request can carry: see
//! [`robots_url`]), or when this machine cannot make the request, out of
//! descriptors, local ports or memory ([`Error::LocalResources`]: the server
//! was never asked). Whatever the server or network does, the result is a
//! [`Robots`] whose [`fetch_outcome`](Robots::fetch_outcome) says what
//! happened, and whose rules follow this table:
//!
//! | response | result | rules |
//! |---|---|---|
//! | 2xx | [`Fetched`](FetchResult::Fetched) | the body, parsed (section 2.3.1.1) |
//! | 301, 302, 303, 307, 308 | followed, up to 5 in a row, across hosts and between http and https (section 2.3.1.2) | those of the final response |
//! | a 6th redirect, a loop, a missing or invalid `Location`, a non-http(s) target | [`Unavailable`](FetchResult::Unavailable) | allow all |
//! | 304 on [`Fetcher::refresh`] | [`NotModified`](FetchResult::NotModified) | the previous rules |
//! | other 3xx (300, 304 unasked, 305, ...), 4xx | [`Unavailable`](FetchResult::Unavailable) (section 2.3.1.3) | allow all |
//! | 401, 403 | unavailable; with [`auth_errors_disallow`](FetcherBuilder::auth_errors_disallow): unreachable | allow all; option: disallow all |
//! | 407 (a proxy asking for credentials: the site was never reached) | [`Unreachable`](FetchResult::Unreachable) | disallow all |
//! | 429 | [`Unreachable`](FetchResult::Unreachable), as Google treats it like a server error; with [`too_many_requests_as_unavailable`](FetcherBuilder::too_many_requests_as_unavailable): unavailable | disallow all; option: allow all |
//! | 5xx | [`Unreachable`](FetchResult::Unreachable) (section 2.3.1.4) | disallow all |
//! | a final 1xx (an unasked-for 101), a status past 599: no class HTTP defines for a final response | [`Unreachable`](FetchResult::Unreachable) | disallow all |
//! | timeout, connection, DNS or TLS failure, body cut short | [`Unreachable`](FetchResult::Unreachable) | disallow all |
//!
//! Redirected or not, the rules apply to the authority of the URL asked
//! about: [`FetchOutcome::robots_url`] and [`FetchOutcome::final_url`] keep
//! both ends.
//!
//! The body is read as a stream up to the [body
//! limit](FetcherBuilder::body_limit) (500 KiB by default, the RFC 9309
//! section 2.5 minimum), counted twice: in octets as they arrive, and in
//! octets once decoded. Reading stops at either; the rest is never
//! downloaded or inflated, and the last partial line is dropped, so an
//! endless body, a gzip bomb, or a compressed stream that inflates to
//! nothing costs at most the limit. A server that stalls once the limit's
//! worth has arrived, without saying whether more follows, has its body
//! cut there at the timeout, not failed; one that closes or resets the
//! connection then has it cut there at once. A `charset` in `Content-Type` other than UTF-8
//! (ISO-8859-1, Windows-1252, UTF-16, ...), a UTF-16 BOM, or a body whose
//! every other octet is zero (UTF-16 without a BOM, whatever its label) is
//! transcoded to UTF-8 before parsing, with a
//! [`NotUtf8`](crate::WarningKind::NotUtf8) warning; a label that cannot fit the body (UTF-16 on a body
//! with no zero octet, or one of the labels the Encoding Standard decodes
//! to a single U+FFFD, such as `iso-2022-kr`) is ignored, so a mislabelled
//! `Disallow: /` still disallows. A body that is valid UTF-8 is read as
//! UTF-8 under any other label (servers often label everything
//! ISO-8859-1, or GBK, or Shift_JIS) but ISO-2022-JP where its escape
//! sequences decode, and a BOM-less body under a `utf-16` label that
//! names no byte order is read in the order its line ends show.
//!
//! [`limits`](crate::limits) lists every limit the fetcher applies (body,
//! redirects, timeouts, response heads, expiry, concurrency) and what
//! happens past each.
//!
//! Rules expire (section 2.4) per `Cache-Control: max-age` or `Expires`,
//! capped at 24 hours, 24 hours by default, less the response's `Age`;
//! `no-store`, `no-cache` (not its qualified form, `no-cache="Set-Cookie"`)
//! and `max-age=0` mean re-fetch next time. Unreachable results expire after
//! `Retry-After`, or at most [`unreachable_ttl`](FetcherBuilder::unreachable_ttl)
//! (1 hour). [`Fetcher::refresh`] re-fetches with the stored `ETag` and
//! `Last-Modified`.
//!
//! ```no_run
//! # #[cfg(feature = "fetch")]
//! # async fn run() -> Result<(), keepout::Error> {
//! use keepout::Robots;
//!
//! let robots = Robots::fetch("https://example.com/some/page").await?;
//! for url in ["https://example.com/", "https://example.com/private/x"] {
//!     println!("{url}: {}", robots.is_allowed("ExampleBot", url));
//! }
//! if let Some(outcome) = robots.fetch_outcome() {
//!     println!("{outcome}");
//! }
//! # Ok(())
//! # }
//! ```

#[cfg(feature = "fetch")]
mod body;
#[cfg(feature = "fetch")]
mod client;
#[cfg(feature = "fetch")]
mod exchange;
#[cfg(feature = "fetch")]
mod expiry;
#[cfg(feature = "__fuzz")]
pub(crate) mod fuzz;
#[cfg(feature = "fetch")]
mod outcome;
#[cfg(feature = "fetch")]
mod redirect;
mod target;
#[cfg(feature = "fetch")]
mod tls;

#[cfg(feature = "fetch")]
use std::future::Future;
#[cfg(feature = "fetch")]
use std::sync::LazyLock;

#[cfg(feature = "fetch")]
pub(crate) use expiry::MAX_FRESHNESS;

#[cfg(feature = "fetch")]
pub use client::{
    DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT, DEFAULT_UNREACHABLE_TTL, DEFAULT_USER_AGENT, Fetcher,
    FetcherBuilder, MIN_BODY_LIMIT,
};
#[cfg(feature = "fetch")]
pub use outcome::{FetchOutcome, FetchResult, UnavailableReason, UnreachableReason};
/// The reqwest crate, whose `ClientBuilder` and `Client`
/// [`Fetcher::client_builder`] and [`FetcherBuilder::client`] take:
/// re-exported, so that configuring a client of your own (a certificate
/// authority, a proxy) needs no dependency of your own on a matching
/// version (`keepout::fetch::reqwest::Certificate`).
#[cfg(feature = "fetch")]
pub use reqwest;
#[cfg(feature = "fetch")]
pub(crate) use target::origin_key_ref;
pub use target::{origin_key, robots_url};

#[cfg(feature = "fetch")]
use crate::{Error, Robots};

/// The fetcher behind [`Robots::fetch`], created on first use.
#[cfg(feature = "fetch")]
static SHARED: LazyLock<Fetcher> = LazyLock::new(Fetcher::new);

#[cfg(feature = "fetch")]
impl Robots {
    /// Fetches the robots.txt governing `url` (any URL of the site: a `&str`,
    /// `String` or [`url::Url`]) with a shared default [`Fetcher`].
    ///
    /// # Errors
    ///
    /// Only for input that can have no robots.txt, or when this machine
    /// cannot make the request ([`Error::LocalResources`]); every server or
    /// network outcome is an `Ok` carrying a [`FetchOutcome`] (see the
    /// [module docs](crate::fetch) for the status table).
    ///
    /// # Panics
    ///
    /// As [`Fetcher::fetch`] does outside a Tokio runtime with I/O and time
    /// enabled; and on first use if the default HTTP client cannot be
    /// created, as [`Fetcher::new`] does (build a [`Fetcher`] with
    /// [`Fetcher::builder`] to get an error instead).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), keepout::Error> {
    /// let robots = keepout::Robots::fetch("https://example.com/page").await?;
    /// if robots.is_allowed("ExampleBot", "https://example.com/page") {
    ///     // crawl it
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn fetch(
        url: impl AsRef<str>,
    ) -> impl Future<Output = Result<Robots, Error>> + Send + Sync + 'static {
        SHARED.fetch(url)
    }
}
