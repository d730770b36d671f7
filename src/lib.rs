//! keepout: robots.txt for async crawlers. It fetches, parses and caches
//! robots.txt, and answers "may I fetch this URL?" exactly as
//! [RFC 9309](https://www.rfc-editor.org/rfc/rfc9309) says, fast.
//!
//! # Quick start
//!
//! ```no_run
//! # #[cfg(feature = "fetch")]
//! # async fn run() -> Result<(), keepout::Error> {
//! let robots = keepout::Robots::fetch("https://example.com/some/page").await?;
//! if robots.is_allowed("ExampleBot", "https://example.com/private/x") {
//!     // crawl
//! }
//! # Ok(()) }
//! ```
//!
//! Parsing needs no network:
//!
//! ```
//! use keepout::Robots;
//!
//! let robots = Robots::parse("User-agent: *\nDisallow: /private\nCrawl-delay: 2\n");
//! assert!(!robots.is_allowed("ExampleBot/1.0", "https://example.com/private/x"));
//! assert!(robots.is_allowed("ExampleBot/1.0", "https://example.com/public"));
//! assert_eq!(robots.crawl_delay("ExampleBot").map(|d| d.as_secs()), Some(2));
//!
//! // Which line decided, and in which group:
//! let why = robots.explain("ExampleBot", "/private/x");
//! assert_eq!(why.rule().map(|r| r.line()), Some(2));
//! ```
//!
//! A crawler with many tasks shares one [`RobotsCache`]: one fetch per
//! origin, conditional refreshes, and the last good copy served while a
//! server is down (RFC 9309 section 2.4).
//!
//! ```no_run
//! # #[cfg(feature = "fetch")]
//! # async fn run(urls: Vec<String>) -> Result<(), keepout::Error> {
//! use keepout::{Fetcher, RobotsCache};
//!
//! let fetcher = Fetcher::builder().user_agent("ExampleBot/1.0 (+https://example.com/bot)").build()?;
//! let cache = RobotsCache::builder().fetcher(fetcher).max_entries(100_000).build()?;
//! let mut tasks = tokio::task::JoinSet::new();
//! for url in urls {
//!     let cache = cache.clone(); // cheap: one cache for every task
//!     tasks.spawn(async move {
//!         if cache.is_allowed("ExampleBot", &url).await.unwrap_or(false) {
//!             // fetch `url`, then wait `cache.crawl_delay(..)` before the next request to this host
//!         }
//!     });
//! }
//! tasks.join_all().await;
//! # Ok(()) }
//! ```
//!
//! The `keepout` command-line tool (cargo feature `cli`) answers the same
//! questions from a shell: `keepout check --agent ExampleBot URL...` and
//! `keepout show FILE|URL`.
//!
//! # Cargo features
//!
//! - `fetch` (on by default): the fetcher ([`fetch`]) and the [`cache`],
//!   on reqwest, tokio and rustls.
//! - `cli`: the `keepout` command; implies `fetch`.
//!
//! A crawler with an HTTP client of its own can leave `fetch` off
//! (`default-features = false`). Parsing, matching, [`Robots::explain`],
//! the lints, [`fetch::robots_url`] and [`fetch::origin_key`] remain, on a
//! few small crates (url, percent-encoding, http, memchr, encoding_rs,
//! thiserror, and safe_arch on x86-64), with no TLS library and no C code.
//! Fetching is then the crawler's, and RFC 9309 section 2.3 asks it to:
//!
//! - request [`fetch::robots_url`], following at least five consecutive
//!   redirects (section 2.3.1.2; the fetcher follows five); the rules
//!   still apply to the site asked about;
//! - parse a 2xx body. To bound what is read, read at most
//!   [`MIN_BODY_LIMIT`](limits::MIN_BODY_LIMIT) octets and one more and
//!   parse with [`ParseOptions::body_limit`], which drops a line cut short
//!   (section 2.5), and with [`ParseOptions::content_type`] given the
//!   response's `Content-Type`, which reads a body in the charset it names
//!   (Latin-1, Windows-1252, ...) where the body does not show it wrong;
//!   without it, only a UTF-16 body is recognised and transcoded;
//! - allow all after a 4xx ([`Robots::allow_all`]), and disallow all after
//!   a 5xx or no answer ([`Robots::disallow_all`]); the fetcher, like
//!   Google, also takes a 429 as a 5xx;
//! - resolve sitemap paths against the URL the body came from, after
//!   redirects ([`Robots::sitemap_urls_relative_to`]);
//! - keep the rules up to 24 hours (section 2.4), per
//!   [`fetch::origin_key`].
//!
//! # Architecture
//!
//! | module | concern |
//! |---|---|
//! | `parse` | bytes to rules, one pass, lenient ([`Robots::parse`], [`ParseOptions`]) |
//! | `model` | the parsed form: normalised patterns in one arena, 4-byte rules, and one table of groups, agents and the name lookup |
//! | `lint`, `record` | warnings about lines ([`Warning`]) and rules that never decide ([`Shadowed`]); the records and extensions ([`Record`], [`RequestRate`]) |
//! | `percent` | percent-encoding normal form of paths and patterns (RFC 9309 section 2.2.2) |
//! | `lanes` | sixteen octets at a time: the SIMD scans of the parser and of URL paths |
//! | `matcher` | longest match over the applicable groups: linear scan, or a sorted prefix index for large groups; linear-time wildcards, and for hostile files one scan of the path answering every rule's pieces |
//! | `agent` | choosing the groups for a crawler's product token |
//! | `robots`, `explain` | the questions a crawler asks ([`Robots`], [`Agent`], [`OwnedAgent`]), and why the answer ([`Decision`]) |
//! | `view` | read-only views of groups and rules ([`GroupView`], [`RuleView`]) |
//! | [`fetch`] | HTTP fetching per RFC 9309 section 2.3 |
//! | [`cache`] | one fetch per origin for all of a crawler's tasks ([`RobotsCache`]), RFC 9309 section 2.4 |
//! | [`limits`] | every limit, and what happens past it |
//! | `error` | [`Error`]: input that can have no robots.txt, and the few failures no server outcome covers |
//! | `src/bin/keepout/` | the command-line tool (feature `cli`) |
//!
//! [`Robots::parse`] runs `parse`, which stores each pattern in `percent`'s
//! normal form in the `model`. [`Robots::is_allowed`] picks the crawler's
//! groups (`agent`), puts the URL's path in the same normal form
//! (`matcher::url`) and asks `matcher` for the longest match; an [`Agent`]
//! handle picks the groups once and indexes its large ones at once.
//! [`Robots::fetch`] and [`Fetcher::fetch`] go through `fetch`: the
//! robots.txt URL, the request and its redirects, the body up to its
//! limit, its charset, then [`Robots::parse`], with a [`FetchOutcome`]
//! attached. [`RobotsCache::get`] keys by origin and calls its
//! [`Fetcher`] on a miss, or [`Fetcher::refresh`] when an entry is due.
//!
//! # Where keepout departs from Google's library
//!
//! RFC 9309 decides. Where it is silent, keepout does what Google's reference
//! parser does (missing colons, misspelled keys, `*` followed by text as the
//! global agent, the 16,663-byte line limit, an empty URL read as `/`), with
//! these deliberate exceptions:
//!
//! - URLs are normalised as RFC 9309 section 2.2.2 says (`%62` matches `b`,
//!   `ツ` matches `%E3%83%84`). Google expects callers to percent-encode URLs
//!   themselves and does not decode `%XX` of unreserved characters.
//! - The crawler's name may be a whole User-Agent header; its leading
//!   product token is used, so `Foo Bar` is the crawler `Foo`, or in the
//!   browser-compatible form the one after `compatible;` in a comment:
//!   `Mozilla/5.0 (compatible; Foo/1.0)` and `Mozilla/5.0 (KHTML, like
//!   Gecko; compatible; Foo/1.0)` are `Foo`.
//! - Product tokens may contain digits (`MJ12bot`).
//! - `/robots.txt` is always allowed, as RFC 9309 section 2.2.2 says;
//!   Google's library leaves that to its caller, and applies the rules.
//! - `Allow: /dir/index.html` does not also allow `/dir/`.
//! - A rule's length, which decides the longest match, is counted in normal
//!   form: an ASCII character that form percent-encodes (`|`, space, `$`
//!   inside a pattern) counts three octets, where Google counts one.
//! - A few misspelled keys seen in real files are read that Google's parser
//!   ignores (`Dis-allow`, `User_agent`, `Site map`); like Google's parser,
//!   keepout also reads a key by its start (`Disallowed` is `Disallow`).
//! - A UTF-16 body (known by its byte order mark, or by every other octet
//!   being zero) is transcoded and read. Google's parser reads octets as
//!   UTF-8 and cuts each line at its first NUL, so it finds no rules there;
//!   a [`WarningKind::NotUtf8`] warning says so.
//! - A user-agent line with no product token (`User-agent: *bot`) names no
//!   crawler, not even one asked about by an empty name, which Google's
//!   library (called outside its contract) matches to it.
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

mod agent;
#[cfg(feature = "fetch")]
pub mod cache;
mod charset;
mod error;
mod explain;
pub mod fetch;
mod lanes;
pub mod limits;
mod lint;
mod matcher;
mod model;
mod parse;
mod percent;
mod record;
mod robots;
mod view;

pub use agent::AgentMatch;
#[cfg(feature = "fetch")]
pub use cache::{CacheStats, RobotsCache, RobotsCacheBuilder};
pub use error::Error;
pub use explain::{Cause, Decision};
#[cfg(feature = "fetch")]
pub use fetch::{
    FetchOutcome, FetchResult, Fetcher, FetcherBuilder, UnavailableReason, UnreachableReason,
};
pub use lint::{Shadowed, Warning, WarningKind};
pub use parse::{Directive, ParseOptions};
pub use record::{Record, RequestRate};
pub use robots::{Access, Agent, OwnedAgent, Robots};
pub use view::{GroupView, RuleKind, RuleView};

/// The `http` crate's status code, which [`FetchOutcome::status`] and
/// [`UnreachableReason::Status`] carry: re-exported, so that matching on
/// one needs no dependency of your own, nor one of a matching version.
#[cfg(feature = "fetch")]
pub use http::StatusCode;
/// The `url` crate's URL, which [`FetchOutcome::robots_url`] and
/// [`fetch::robots_url`] return and every check accepts (as `&url`):
/// re-exported like [`StatusCode`].
pub use url::Url;

/// Crate internals for the fuzz targets under `fuzz/` (the `__fuzz` feature).
/// Not public API: hidden, unstable, and absent from normal builds.
#[cfg(feature = "__fuzz")]
#[doc(hidden)]
pub mod __fuzz {
    /// The percent-encoding normal form of a URL path (with query).
    pub fn normalize_path(input: &[u8]) -> Vec<u8> {
        crate::percent::normalize(input, crate::percent::Mode::Path).into_owned()
    }

    /// The normal form of a rule pattern: `*` a wildcard, a final `$` an
    /// anchor (`literal` = MK1996: both are data).
    pub fn normalize_pattern(input: &[u8], literal: bool) -> Vec<u8> {
        let mode = if literal {
            crate::percent::Mode::LiteralPattern
        } else {
            crate::percent::Mode::Pattern
        };
        crate::percent::normalize(input, mode).into_owned()
    }

    /// The path and query the matcher sees for `url`, before normalisation.
    pub fn path_and_query(url: &str) -> Vec<u8> {
        crate::matcher::url::path_and_query(url).into_owned()
    }

    /// Everything parsed from `body` (as `Debug` text), with the parser's
    /// fast paths on and then off: equal for every input.
    pub fn parsed_both_ways(body: &[u8], mk1996: bool) -> (String, String) {
        crate::parse::parsed_both_ways(body, mk1996)
    }

    /// The byte order of a UTF-16 body without a byte order mark, told by
    /// its shape, as the parser tells it (`None`: not UTF-16 by shape).
    pub fn utf16_by_shape(body: &[u8]) -> Option<&'static encoding_rs::Encoding> {
        crate::charset::utf16_by_shape(body)
    }

    /// What a fetch reads of a response (body codings, charset, timing
    /// headers, redirects, `ETag`), without the network.
    pub use crate::fetch::fuzz::{
        codings, etag_round_trip, read_body, redirect_target, timing, to_utf8,
    };

    /// Makes a check answer wildcard rules from one scan of the path after
    /// searching for `tries` of them (0: the default, 64), so that the
    /// small files a fuzz target makes exercise the scan.
    pub fn engage_scan_after(tries: u32) {
        crate::matcher::pieces::set_engage_tries(tries);
    }

    pub use crate::matcher::reference::{
        RefRule, allowed as reference_allowed, glob as reference_glob,
    };
}

/// The README's Rust examples, compiled (and those not marked `no_run` run)
/// as doctests, so that they stay true.
#[cfg(all(doctest, feature = "fetch"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
