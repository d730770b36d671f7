//! Every limit keepout applies, and what happens past it.
//!
//! Nothing in keepout panics, hangs, or grows without bound on hostile
//! input: parsing is one pass, matching never backtracks, and the fetcher
//! caps what it reads and how long it waits. The fuzz targets under `fuzz/`
//! and the tests `tests/corpus.rs` and `tests/regressions.rs` check this.
//!
//! # Parsing ([`Robots::parse`](crate::Robots::parse), [`ParseOptions`](crate::ParseOptions))
//!
//! | limit | value | past it |
//! |---|---|---|
//! | body | [`MAX_BODY_LEN`] = 1 GiB (after transcoding a UTF-16 body, too) | the rest is ignored: the parsed form uses 32-bit offsets |
//! | line length | [`MAX_LINE_LEN`] = 16,663 octets | the rest of the line is ignored, as in Google's parser; a [`WarningKind::LineTooLong`](crate::WarningKind::LineTooLong) warning |
//! | a NUL octet in a line | | the rest of the line is ignored; a [`WarningKind::NulByte`](crate::WarningKind::NulByte) warning |
//! | rules, groups, user-agents, sitemaps per file | none | memory and parse time grow linearly with the body: at most about 3 octets of patterns per body octet, plus 12 octets per rule |
//! | parse time | one pass, O(1) work per line plus O(n) per octet | no backtracking, regex or sort while parsing |
//!
//! # Matching ([`Robots::is_allowed`](crate::Robots::is_allowed), [`Robots::explain`](crate::Robots::explain))
//!
//! | limit | value | past it |
//! |---|---|---|
//! | URL length | none | a check costs O(URL) per rule considered: it never backtracks, whatever the pattern (`/*a*a*a…`, `/********/`) |
//! | one rule | O(pattern + URL) | each `*`-separated piece is found by one forward substring search |
//! | a group of more than 24 rules | a prefix index, built on first use (about 10 octets per rule) | only rules whose literal prefix is a prefix of the path are tried |
//!
//! The worst case is many wildcard rules that all share the path's prefix
//! and must each scan the whole URL: a check then costs O(rules × URL). The
//! test `pathological_wildcard_files_answer_fast` in `tests/corpus.rs`
//! measures it on 500 KiB files of `Disallow: /*a*a*a…` lines (and one
//! 500 KiB pattern line) against URLs up to 8 KiB: the worst shape, 20,480
//! short `/*a*…*b` rules, answers in milliseconds per URL in a release build.
//!
//! # Fetching ([`Fetcher`](crate::Fetcher), [`Robots::fetch`](crate::Robots::fetch))
//!
//! | limit | default | past it |
//! |---|---|---|
//! | body | [`MIN_BODY_LIMIT`](crate::fetch::MIN_BODY_LIMIT) = 500 KiB, after content decoding ([`FetcherBuilder::body_limit`](crate::FetcherBuilder::body_limit); no smaller value accepted) | the rest is never downloaded or inflated; the last partial line is dropped and the rest parsed (a gzip bomb costs at most the limit) |
//! | redirects | [`DEFAULT_MAX_REDIRECTS`](crate::fetch::DEFAULT_MAX_REDIRECTS) = 5 in a row ([`FetcherBuilder::max_redirects`](crate::FetcherBuilder::max_redirects)) | unavailable: allow all (RFC 9309 section 2.3.1.2); a loop likewise |
//! | time for one fetch, redirects and body included | [`DEFAULT_TIMEOUT`](crate::fetch::DEFAULT_TIMEOUT) = 10 s ([`FetcherBuilder::timeout`](crate::FetcherBuilder::timeout)) | unreachable: disallow all (section 2.3.1.4) |
//! | cached rules | 24 hours, or less per `Cache-Control` / `Expires` (section 2.4) | re-fetched |
//! | cached unreachable result | `Retry-After`, at most [`DEFAULT_UNREACHABLE_TTL`](crate::fetch::DEFAULT_UNREACHABLE_TTL) = 1 hour | re-fetched |
//!
//! See [`fetch`](crate::fetch) for how each response status is read.

/// The longest line read, in octets: 2083 × 8 − 1, the limit of Google's
/// parser. RFC 9309 sets none.
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// The most octets of a body parsed: 1 GiB, far beyond any fetcher's body
/// limit. The parsed form keeps 32-bit offsets into a store of patterns that
/// can be up to 3 times the body (percent-encoding), so this keeps every
/// offset exact; the rest of a longer body is ignored.
pub const MAX_BODY_LEN: usize = 1 << 30;
