//! Fetching robots.txt over HTTP (RFC 9309 section 2.3). Owned by the fetcher work.

/// What happened when robots.txt was fetched (placeholder; the fetcher fills it in).
#[derive(Debug, Clone)]
pub struct FetchOutcome {}
