//! Errors: for input that can have no robots.txt at all, and for the few
//! things no server outcome covers.

/// Why no robots.txt can exist for a URL (or, rarely, why none could be
/// had: a builder option refused, this machine out of descriptors, a
/// runtime shutting down).
///
/// Every server or network outcome is *not* an error: it is an `Ok(Robots)`
/// carrying the outcome (see [`FetchOutcome`](crate::FetchOutcome)).
///
/// ```
/// use keepout::{Error, fetch::robots_url};
///
/// let err = robots_url("ftp://example.com/file").unwrap_err();
/// assert!(matches!(err, Error::UnsupportedScheme { ref scheme, .. } if scheme == "ftp"));
/// assert_eq!(
///     err.to_string(),
///     "unsupported scheme \"ftp\" in \"ftp://example.com/file\": robots.txt applies to http and https only",
/// );
/// assert!(matches!(robots_url("/relative/path"), Err(Error::InvalidUrl { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The string is not an absolute URL, or its host cannot be sent in an
    /// HTTP request.
    #[error("invalid URL {input:?}: {reason}")]
    InvalidUrl {
        /// The input as given.
        input: String,
        /// What is wrong with it: the URL parser's objection, or what
        /// to give instead.
        reason: String,
    },
    /// robots.txt exists only for `http` and `https` URLs.
    #[error(
        "unsupported scheme {scheme:?} in {input:?}: robots.txt applies to http and https only"
    )]
    UnsupportedScheme {
        /// The input as given.
        input: String,
        /// The scheme found.
        scheme: String,
    },
    /// The URL has no host, so it has no origin to fetch robots.txt from.
    #[error("URL {input:?} has no host")]
    NoHost {
        /// The input as given.
        input: String,
    },
    /// A [`FetcherBuilder`](crate::fetch::FetcherBuilder) or
    /// [`RobotsCacheBuilder`](crate::RobotsCacheBuilder) option has a value
    /// that cannot be used.
    #[error("invalid option `{option}`: {reason}")]
    InvalidConfig {
        /// The builder method whose value was refused.
        option: &'static str,
        /// What was wrong with it.
        reason: String,
    },
    /// The HTTP client could not be created (e.g. the TLS backend failed to
    /// initialise).
    #[error("could not build the HTTP client: {0}")]
    Client(String),
    /// [`Fetcher::refresh`](crate::fetch::Fetcher::refresh) was given rules
    /// that were parsed locally, not fetched, so there is no URL to re-fetch.
    #[error("cannot refresh robots.txt rules that were not fetched")]
    NotFetched,
    /// A fetch could not be made for want of a resource on this machine:
    /// file descriptors (too many open files), local ports, buffer space or
    /// memory. The server was never asked, so nothing is known of its
    /// robots.txt: this is not an unreachable server, whose rules would be
    /// disallow all (RFC 9309 section 2.3.1.4) and which a
    /// [`RobotsCache`](crate::RobotsCache) would back off from, but a
    /// failure of the caller's, which nothing caches. Retry later, or with
    /// fewer fetches (or other open sockets and files) at once.
    #[error(
        "could not request {url}: this machine is out of {reason}; the server was not asked (retry later, or with fewer fetches at once)"
    )]
    LocalResources {
        /// The URL whose request could not be made: the robots.txt URL, or
        /// a redirect's target.
        url: String,
        /// The resource that ran out, with the system's error.
        reason: String,
    },
    /// A [`RobotsCache`](crate::RobotsCache) fetch, which runs in a task of
    /// its own, was cancelled before it ended: its Tokio runtime is
    /// shutting down.
    #[error("the robots.txt fetch was cancelled: its runtime is shutting down")]
    Cancelled,
}
