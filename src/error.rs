//! Errors: only for input that can have no robots.txt at all.

/// Why no robots.txt can exist for a URL.
///
/// Every server or network outcome is *not* an error: it is an `Ok(Robots)`
/// carrying the outcome (see [`FetchOutcome`](crate::FetchOutcome)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The string is not an absolute URL.
    #[error("invalid URL {input:?}: {reason}")]
    InvalidUrl {
        /// The input as given.
        input: String,
        /// What the URL parser objected to.
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
}
