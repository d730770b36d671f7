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
//! | body | [`MAX_BODY_LEN`] = 1 GiB (after transcoding a UTF-16 body, too) | the rest is ignored, and the line it cuts: the parsed form uses 32-bit offsets |
//! | body, when asked | [`ParseOptions::body_limit`](crate::ParseOptions::body_limit): none by default; [`MIN_BODY_LIMIT`] (500 KiB) is what RFC 9309 section 2.5 asks crawlers to parse at least | the complete lines within the limit are parsed, as the fetcher parses a body cut at its limit; a line cut short is dropped |
//! | line length | [`MAX_LINE_LEN`] = 16,663 octets | the rest of the line is ignored, as in Google's parser; a [`WarningKind::LineTooLong`](crate::WarningKind::LineTooLong) warning, unless the rest is whitespace or comment |
//! | a NUL octet in a line | | the rest of the line is ignored; a [`WarningKind::NulByte`](crate::WarningKind::NulByte) warning |
//! | rules, groups, user-agents, sitemaps per file | none | memory and parse time grow linearly with the body: at most about 3 octets of patterns per body octet, plus 4 to 5 octets per rule (8 more for a rule written other than in its normal form, or 15 lines or more after the rule before it); and each line keepout warns about or keeps as a [`Record`](crate::Record) takes about 32 octets, so a body of nothing but short such lines (`x`, `a:`, `a b`) takes about 16 to 20 heap octets per body octet, and up to about 47 once [`warnings`](crate::Robots::warnings) or [`records`](crate::Robots::records) has made their text ([`Robots::heap_bytes`](crate::Robots::heap_bytes) counts both; the cache weighs an entry when it is stored) |
//! | `Crawl-delay`, `Request-rate` | [`MAX_CRAWL_DELAY`] = 1 day | a longer delay (`Crawl-delay: 1e19`, `Request-rate: 1/99999999`) is read as 1 day, so that a crawler adding it to an `Instant` cannot overflow; [`RequestRate::per`](crate::RequestRate::per) keeps the value as written, up to `u64::MAX` seconds |
//! | parse time | one pass, bounded work per octet (linear in the body, but for a binary search per group that repeats the one before), then one sort of the named user-agents (O(a log a)) | no backtracking or regex while parsing |
//!
//! # Matching ([`Robots::is_allowed`](crate::Robots::is_allowed), [`Robots::explain`](crate::Robots::explain))
//!
//! | limit | value | past it |
//! |---|---|---|
//! | URL length | none | a check costs O(URL) per rule considered: it never backtracks, whatever the pattern (`/*a*a*a…`, `/********/`) |
//! | one rule | O(pattern + URL) | each `*`-separated piece is found by one forward substring search |
//! | wildcard rules one check searches the URL for | 63; from the 64th on they are answered from one scan of a normalised path of up to 24 KiB, O(log) per piece (see below) | the index keeps an automaton over its wildcard patterns (built by the first such check; at most 13 bytes an octet of them, normalised, and 8 a piece), and the thread keeps the scan's buffers for its next check up to 2 MiB: 8 bytes × (log2 of the automaton's states + 1) per path octet, freed after the check when more |
//! | a group of more than 8 rules | a prefix index, built once scans of the group have cost about as much, or for a handle (24 octets per indexed rule) | only rules whose literal prefix is a prefix of the path are tried |
//! | prefix indexes, all crawlers' together | a crawler's checks build one index (its group's, the one over its groups when several name it, or the one over the `*` groups), at most 28 octets a rule of those groups (plus the automaton of the next row), and names in the same groups share theirs; but checks under many names, each named in a different set of large groups, build one each | memory grows with the names asked about: a crawler asks under one name |
//!
//! The worst case is many wildcard rules that all share the path's prefix
//! and pass the index's cheap tests, so that each would search the whole
//! URL: O(rules × URL). A check whose 64th wildcard rule reaches the
//! matcher answers it and the rest from one scan of the URL instead (an
//! Aho-Corasick automaton over the index's pieces, built once per index,
//! and a persistent segment tree of where they occur, built per check in
//! buffers kept per thread: `src/matcher/pieces.rs`): O(URL × log states)
//! to set up, then O(log states) per piece searched, so a check costs
//! O((URL + pieces) × log) whatever the rules, for normalised paths up to
//! 24 KiB (longer ones still search rule by rule). The test
//! `pathological_wildcard_files_answer_fast` in `tests/corpus.rs`
//! measures 500 KiB files of `Disallow: /*a*a*a…` lines (and one 500 KiB
//! pattern line) against URLs up to 8 KiB, and
//! `hostile_wildcard_files_answer_in_bounded_time` the worst files known,
//! 19,000-odd short rules whose pieces each cost a search of the URL's text
//! over two letters (`short_pieces` and `late_pieces` in
//! `benches/matching.rs`): 1.1 to 4.1 ms per check of an 8 KiB URL, where
//! searching took 36 to 62 ms; the worst file found since, one-letter
//! pieces a few octets apart, 6.6 ms. The first such check of a file
//! builds the automaton: 10 to 15 ms for those files, 190 ms for the
//! worst found (500 KiB of distinct non-ASCII pieces, 1.3 million states
//! once percent-encoded), and up to 13 bytes per normalised octet of
//! their wildcard patterns, which a cache weighs in ahead of time for
//! every index of 64 wildcard rules or more.
//!
//! # Fetching ([`Fetcher`](crate::Fetcher), [`Robots::fetch`](crate::Robots::fetch))
//!
//! The [`fetch`](crate::fetch) module docs give the status table these
//! outcomes come from. Whatever the server does, a fetch ends within its
//! total timeout with a [`FetchResult`](crate::fetch::FetchResult): past
//! any limit below it is one of [`Fetched`](crate::fetch::FetchResult::Fetched)
//! (truncated), [`Unavailable`](crate::fetch::FetchResult::Unavailable)
//! (allow all) or [`Unreachable`](crate::fetch::FetchResult::Unreachable)
//! (disallow all), never an error or a panic. `tests/adversarial.rs` has a
//! hostile server for each row.
//!
//! | limit | value | past it |
//! |---|---|---|
//! | body | [`body_limit`](crate::fetch::FetcherBuilder::body_limit): [`MIN_BODY_LIMIT`] = 512,000 bytes (500 KiB, RFC 9309 section 2.5) by default, and the least [`build`](crate::fetch::FetcherBuilder::build) accepts ([`Error::InvalidConfig`](crate::Error::InvalidConfig) below it) | counted both as octets arrive and once decoded from gzip, deflate or brotli (which the fetcher does not ask for, and decodes only within [`MAX_BROTLI_WINDOW`]), as a content coding or a transfer coding besides chunked (each of the two decoded up to the limit), so a bomb is inflated only up to the limit and a stream that inflates to nothing is downloaded only up to it; reading stops at either and the connection is dropped, so the rest is neither downloaded nor inflated; the last partial line is dropped and the complete lines are parsed: [`Fetched`](crate::fetch::FetchResult::Fetched) with [`truncated_at_cap`](crate::FetchOutcome::truncated_at_cap). A body in a single-byte charset or UTF-16 is transcoded to UTF-8 after the cut, which can at most triple it. A `Content-Length` is never trusted for an allocation beyond the limit, nor beyond 500 KiB when the limit is raised: past that the body grows as bytes arrive |
//! | brotli window | [`MAX_BROTLI_WINDOW`] = 1 MiB (WBITS 20, RFC 7932 section 9.1); the fetcher asks for `Accept-Encoding: gzip, deflate`, without `br` | a `br` body declaring a larger window (up to 16 MiB, or Large Window Brotli's escape) is not decoded, so its window is never allocated: [`Body`](crate::fetch::UnreachableReason::Body) naming the window and the limit (disallow all) |
//! | gzip members | [`MAX_GZIP_MEMBERS`] = 256 in a body (in each coding, content and transfer) | [`Body`](crate::fetch::UnreachableReason::Body) naming the limit (disallow all): each member costs a new decoder, so a body of empty members would cost a hundred times the CPU of a plain one |
//! | HTTP/2 data ahead of the reader | 256 KiB, the stream's flow control window (RFC 9113 section 6.9.2), for clients from [`Fetcher::client_builder`](crate::fetch::Fetcher::client_builder), the fetcher's own included (hyper's default is 2 MiB) | a server sends no more than that ahead of what the fetcher has read; a fetch stopped at the body limit leaves at most that much unread, dropped with the response (`tests/fetch_socket.rs` counts what an endless HTTP/2 body gets sent: 2 MiB with hyper's window, at most the limit, a frame and the window with this one) |
//! | bodies of other responses | not read | the body of a redirect, 4xx, 5xx or other non-2xx response is dropped unread, however long it is |
//! | redirect hops | [`max_redirects`](crate::fetch::FetcherBuilder::max_redirects): [`DEFAULT_MAX_REDIRECTS`](crate::fetch::DEFAULT_MAX_REDIRECTS) = 5 in a row (RFC 9309 section 2.3.1.2) | one more is [`TooManyRedirects`](crate::fetch::UnavailableReason::TooManyRedirects); a redirect back to a URL already requested is [`RedirectLoop`](crate::fetch::UnavailableReason::RedirectLoop) at once; a missing, empty or unparsable `Location` or one to another scheme (`ftp:`, `file:`, `data:`, ...) is unavailable without a request: all allow all |
//! | total time | [`timeout`](crate::fetch::FetcherBuilder::timeout): [`DEFAULT_TIMEOUT`](crate::fetch::DEFAULT_TIMEOUT) = 10 s; must be above zero | one deadline for the whole fetch: DNS, connecting, TLS, every redirect, 1xx responses, the head and the body. A server that stalls, dribbles (one byte per second), or sends `102 Processing` forever ends as [`Timeout`](crate::fetch::UnreachableReason::Timeout) (disallow all), keeping the status if the head had arrived |
//! | DNS lookups | the system resolver (`getaddrinfo`, through reqwest's default resolver) on Tokio's blocking threads, 512 at most unless the runtime sets otherwise | the fetch ends at its total timeout as [`Timeout`](crate::fetch::UnreachableReason::Timeout), but `getaddrinfo` cannot be stopped: its thread stays busy until the system resolver gives up (its own timeout, often 5 to 10 s). A crawler resolving many hosts whose DNS does not answer can use up the blocking threads, so that other lookups wait; a client with an asynchronous resolver (reqwest's `hickory-dns` feature), given to [`client`](crate::fetch::FetcherBuilder::client), avoids that |
//! | connecting | [`connect_timeout`](crate::fetch::FetcherBuilder::connect_timeout): none of its own by default; must be above zero | bounds each connection attempt, for the fetcher's own client only (refused with a client of your own, whose own setting applies); past it: [`Timeout`](crate::fetch::UnreachableReason::Timeout), disallow all. The total timeout bounds connecting anyway |
//! | response head | hyper's HTTP/1 limits, for the fetcher's own client: status line and headers within hyper's read buffer (408 KiB: 8 KiB + 100 × 4 KiB), at most 100 header fields; HTTP/2 header lists up to 16 KiB | the response is refused as soon as the limit is passed: [`Unreachable`](crate::fetch::FetchResult::Unreachable) (disallow all), well before the timeout, having read no more than the limit |
//! | chunked framing | hyper's limits: 16 KiB of chunk extensions per body, 16 KiB of trailers; chunk sizes must fit 64 bits | [`Body`](crate::fetch::UnreachableReason::Body) (disallow all) |
//! | invalid HTTP | no leniency beyond hyper's (bare LF line ends, HTTP/1.0 bodies read to the close) | a garbage or HTTP/0.9 status line, a status outside 100–999, an invalid or conflicting `Content-Length`, control bytes in a header: [`Unreachable`](crate::fetch::FetchResult::Unreachable) (disallow all). A three-digit status in no defined class (`999`) or an unasked-for `101` counts as a server error: unreachable |
//! | body shorter than `Content-Length` | — | [`TruncatedBody`](crate::fetch::UnreachableReason::TruncatedBody) (disallow all); bytes past a `Content-Length` are ignored, and the connection is not reused for them |
//! | freshness of rules | at most 24 hours (RFC 9309 section 2.4); `Cache-Control: max-age`, `Expires` and `Age` shorten it | [`is_expired`](crate::FetchOutcome::is_expired) turns true: a re-fetch is due. Values past the clock's range are capped, never overflow |
//! | freshness of unreachable results | [`unreachable_ttl`](crate::fetch::FetcherBuilder::unreachable_ttl): [`DEFAULT_UNREACHABLE_TTL`](crate::fetch::DEFAULT_UNREACHABLE_TTL) = 1 hour, never more than 24 hours whatever is configured; `Retry-After` sets it directly (up to 24 hours) | a re-fetch is due |
//! | concurrency | no bound by default, or [`max_concurrent_fetches`](crate::fetch::FetcherBuilder::max_concurrent_fetches) fetches at once per fetcher (and the cache using it), the others waiting their turn (untimed); one fetch is one request at a time, on one connection, which the fetcher's own client closes when the fetch ends (it keeps no idle connections: see [`FetcherBuilder`](crate::fetch::FetcherBuilder)), so the sockets open are those of the fetches in progress | set that bound, or limit fetches in the crawler (e.g. with a [`tokio::sync::Semaphore`]): a fetch this machine has no descriptor, local port or memory for fails with [`Error::LocalResources`](crate::Error::LocalResources), not as an unreachable server (whose rules would be disallow all), and a cache keeps nothing of it. `examples/many_fetches.rs` measured 10,000 spawned fetches, 256 at a time against slow servers (debug build): about 2.5 KiB per waiting fetch and 20 to 40 KiB per fetch in progress (varying from run to run), server side included; `examples/stream_memory.rs` measured the peak of one fetch of an endless body or 1 GiB gzip bomb at under 2 MiB above the baseline, and of a brotli bomb declaring a 1 MiB window (the most decoded) at 2.4 MiB; one declaring 16 MiB cost 17.3 MiB before such windows were refused, and costs 0.3 MiB now |
//!
//! A client given to [`client`](crate::fetch::FetcherBuilder::client) brings
//! its own connect timeout, decompression, connection pool and HTTP
//! limits; the body limit,
//! redirect counting (with redirects off in that client) and total timeout
//! still apply.

/// The longest line read, in octets: 2083 × 8 − 1, the limit of Google's
/// parser. RFC 9309 sets none.
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;

/// The longest [`crawl_delay`](crate::Robots::crawl_delay) or
/// [`RequestRate::delay`](crate::RequestRate::delay) returned: 1 day. A file
/// asking for more (`Crawl-delay: 1e19` is a valid number of seconds) is
/// read as asking for a day: at a crawler's scale that is no crawling
/// either, and adding it to an `Instant` cannot overflow.
pub const MAX_CRAWL_DELAY: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// The least of a robots.txt RFC 9309 section 2.5 lets a crawler parse:
/// 500 KiB (512,000 bytes). The fetcher's default body limit, and the least
/// it accepts; for a body fetched by a client of your own,
/// [`ParseOptions::body_limit`](crate::ParseOptions::body_limit) cuts it
/// there as the fetcher does.
pub const MIN_BODY_LIMIT: usize = 500 * 1024;

/// The most octets of a body parsed: 1 GiB, far beyond any fetcher's body
/// limit. The parsed form keeps 32-bit offsets into a store of patterns that
/// can be up to 3 times the body (percent-encoding), so this keeps every
/// offset exact; the rest of a longer body is ignored, and the line the
/// cap falls in (as [`ParseOptions::body_limit`](crate::ParseOptions::body_limit)
/// cuts).
pub const MAX_BODY_LEN: usize = 1 << 30;

/// The largest window a brotli body may declare: 1 MiB (WBITS 20). A brotli
/// decoder keeps the last window's worth of output to copy from, and the
/// stream's first bits declare how large it is (RFC 7932 section 9.1): up
/// to 16 MiB, or 1 GiB in Large Window Brotli, allocated however little of
/// the body is read. The fetcher's own client does not ask for brotli; a
/// `br` body sent anyway, or through a client given to
/// [`client`](crate::fetch::FetcherBuilder::client) that leaves it coded, is
/// decoded only if it declares at most this window, and is otherwise
/// [`Unreachable`](crate::fetch::FetchResult::Unreachable) (disallow all).
pub const MAX_BROTLI_WINDOW: usize = 1 << 20;

/// The most members a gzip body may hold (RFC 1952 section 2.2 lets
/// members follow one another), as a content or transfer coding: more
/// than any server sends. Each costs the fetcher a new decoder, some 75
/// KiB allocated and zeroed, so 500 KiB of empty 20-octet members cost
/// about 150 ms of CPU where a plain body costs one or two; past this many,
/// the body is [`Body`](crate::fetch::UnreachableReason::Body) (disallow
/// all).
pub const MAX_GZIP_MEMBERS: usize = 256;
