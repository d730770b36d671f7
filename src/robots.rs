//! [`Robots`]: a parsed robots.txt and the questions a crawler asks of it.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::agent::{self, AgentMatch};
use crate::explain::{Cause, Decision};
#[cfg(feature = "fetch")]
use crate::fetch::FetchOutcome;
use crate::lint::Warning;
use crate::matcher::{self, url::normal_path};
use crate::model::Parsed;
use crate::parse::{self, ParseOptions};
use crate::record::{Record, RequestRate};
use crate::view::{FirstFew, GroupView};

/// Which rules govern a [`Robots`] value.
///
/// Exhaustive by design: RFC 9309 section 2.3.1 gives a fetch exactly
/// these three outcomes, so a `match` need not have a catch-all arm.
///
/// ```
/// use keepout::{Access, Robots};
///
/// assert_eq!(Robots::parse("User-agent: *\nDisallow: /\n").access(), Access::Rules);
/// let down = Robots::disallow_all(); // what a 503 leaves
/// assert_eq!(down.access(), Access::DisallowAll);
/// assert!(!down.is_allowed("ExampleBot", "/page"));
/// assert!(down.is_allowed("ExampleBot", "/robots.txt")); // always allowed
/// assert!(Robots::allow_all().is_allowed("ExampleBot", "/page")); // what a 404 leaves
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// The parsed rules decide.
    Rules,
    /// Everything is allowed: robots.txt is unavailable (e.g. 404), RFC 9309
    /// section 2.3.1.3.
    AllowAll,
    /// Everything but `/robots.txt` is disallowed: robots.txt is unreachable
    /// (e.g. 503, timeout), RFC 9309 section 2.3.1.4.
    DisallowAll,
}

/// `rules`, `allow all`, `disallow all`.
impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Access::Rules => "rules",
            Access::AllowAll => "allow all",
            Access::DisallowAll => "disallow all",
        })
    }
}

/// A parsed robots.txt: the rules, the extensions, and (when fetched) how it
/// was fetched.
///
/// Cheap to clone (the parsed data is shared), `Send` and `Sync`.
///
/// ```
/// use keepout::Robots;
/// let robots = Robots::parse(
///     "User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\n",
/// );
/// assert!(!robots.is_allowed("OtherBot", "https://example.com/private/x"));
/// assert!(robots.is_allowed("OtherBot", "https://example.com/drafts/x"));
/// // ExampleBot has its own group, so the `*` group does not apply to it.
/// assert!(robots.is_allowed("ExampleBot/2.1 (+https://example.com/bot)", "/private/x"));
/// assert!(!robots.is_allowed("examplebot", "/drafts/x"));
/// ```
#[derive(Clone)]
pub struct Robots {
    parsed: Arc<Parsed>,
    access: Access,
    #[cfg(feature = "fetch")]
    fetch: Option<Arc<FetchOutcome>>,
}

impl Robots {
    /// Parses robots.txt bytes per RFC 9309. Never fails and never panics,
    /// whatever the bytes: lines it cannot read are skipped and reported in
    /// [`warnings`](Robots::warnings). A body in UTF-16 is transcoded
    /// first, known by its byte order mark or, without one, by its every
    /// other octet being zero, and warned of
    /// ([`WarningKind::NotUtf8`](crate::WarningKind::NotUtf8)).
    ///
    /// For other options (MK1996 literal matching) see [`ParseOptions`].
    #[must_use]
    pub fn parse(body: impl AsRef<[u8]>) -> Robots {
        Robots::from_parsed(parse::parse(body.as_ref(), &ParseOptions::new()))
    }

    pub(crate) fn from_parsed(parsed: Parsed) -> Robots {
        Robots {
            parsed: Arc::new(parsed),
            access: Access::Rules,
            #[cfg(feature = "fetch")]
            fetch: None,
        }
    }

    /// A value that allows everything: what an unavailable robots.txt means.
    #[must_use]
    pub fn allow_all() -> Robots {
        Robots {
            access: Access::AllowAll,
            ..Robots::from_parsed(Parsed::default())
        }
    }

    /// A value that disallows everything but `/robots.txt`: what an
    /// unreachable robots.txt means.
    #[must_use]
    pub fn disallow_all() -> Robots {
        Robots {
            access: Access::DisallowAll,
            ..Robots::from_parsed(Parsed::default())
        }
    }

    /// Which rules govern this value.
    pub fn access(&self) -> Access {
        self.access
    }

    /// May `agent` fetch `url`?
    ///
    /// `agent` is a product token (`ExampleBot`) or a whole User-Agent header
    /// value (`ExampleBot/2.1 (+https://example.com/bot)`), whose leading
    /// product token is used; matching is case-insensitive. A name that
    /// does not start with a product token, leading spaces and C0 control
    /// characters aside (`""`,
    /// `*bot`, `/2.1`), matches no named group, so the `*` groups apply to
    /// it, as to any crawler no group names. A browser-compatible header,
    /// as Googlebot, bingbot and others send, names the crawler after
    /// `compatible;` in a comment, opening it or after a `;`:
    /// `Mozilla/5.0 (compatible; ExampleBot/1.2; +https://...)` and
    /// `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible;
    /// ExampleBot/1.2; +https://...) Chrome/...` are `ExampleBot`, as
    /// [`Fetcher::product_token`](crate::Fetcher::product_token) reads it
    /// (one without a crawler there, a browser's, is `Mozilla`). `url` is an
    /// absolute URL or a path with optional query; scheme, authority and
    /// fragment are ignored. Both the URL and the patterns are compared in
    /// percent-encoded normal form (RFC 9309 section 2.2.2).
    ///
    /// The path checked is the one an HTTP client requests for `url`: dot
    /// segments are resolved (RFC 3986 section 5.2.4), so
    /// `https://example.com/a/../private` is checked as `/private`, the
    /// path it fetches, and the URL is read as the URL standard's parser
    /// (reqwest's, through the `url` crate) reads it: a `\` in an http(s)
    /// URL is a `/`, tabs and newlines are dropped, an `'` in the query is
    /// `%27` (and so is one in a pattern's query, so `Disallow: /s?q='`
    /// names the URL `/s?q='x`). (Google's library reads the path as
    /// written, and would let `/a/../private` through.) A URL that needs
    /// none of this costs nothing more; one that does is parsed by the
    /// `url` crate.
    /// [`normalized_path`](Robots::normalized_path) shows the path and
    /// query a URL is checked as.
    ///
    /// A path must start with a single `/`. As RFC 3986 reads references,
    /// `//x/y` is scheme-relative (host `x`, path `/y`), and so, as the URL
    /// standard (browsers) reads a link, are `/\x/y`, `\\x/y` and `///x/y`;
    /// `\y` is the path `/y`. Text with neither a scheme nor a leading `/` or
    /// `\` (`example.com/y`) is read as host and path. So pass the whole
    /// URL when its path may start with `//`: `Url::path()` of
    /// `https://h//private` is `//private`, which would be checked as `/`.
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nDisallow: /*private\n");
    /// assert!(!robots.is_allowed("bot", "https://example.com//private"));
    /// assert!(robots.is_allowed("bot", "//private")); // host `private`, path `/`
    /// ```
    ///
    /// To check many URLs for one crawler, [`agent`](Robots::agent) finds the
    /// crawler's groups once.
    ///
    /// `url` is any string: a `&str`, a `String`, a `&url::Url`.
    #[inline]
    #[must_use]
    pub fn is_allowed(&self, agent: &str, url: impl AsRef<str>) -> bool {
        self.is_allowed_str(agent, url.as_ref())
    }

    /// [`is_allowed`](Robots::is_allowed), not generic (one copy of the
    /// code, whatever the caller passes).
    fn is_allowed_str(&self, agent: &str, url: &str) -> bool {
        let (groups, _) = agent::select(&self.parsed, agent);
        self.allowed_in(groups, url)
    }

    #[inline]
    fn allowed_in(&self, groups: &[u32], url: &str) -> bool {
        let path = normal_path(url);
        if matcher::is_robots_txt(&path) {
            return true;
        }
        match self.access {
            Access::AllowAll => true,
            Access::DisallowAll => false,
            Access::Rules => matcher::best(&self.parsed, groups, &path).is_none_or(|hit| hit.allow),
        }
    }

    /// Like [`is_allowed`](Robots::is_allowed), with the reason: the deciding
    /// line, its group, or why no rule applied.
    ///
    /// ```
    /// use keepout::{AgentMatch, Cause, Robots};
    ///
    /// let robots = Robots::parse("User-agent: ExampleBot\nDisallow: /tmp/\n");
    /// let d = robots.explain("ExampleBot/1.0", "https://example.com/tmp/a");
    /// assert_eq!((d.allowed(), d.cause(), d.agent_match()), (false, Cause::Rule, AgentMatch::Named));
    /// assert_eq!(d.rule().map(|r| r.line()), Some(2));
    /// // No group names OtherBot and there is no `*` group: allowed.
    /// let d = robots.explain("OtherBot", "/tmp/a");
    /// assert_eq!((d.allowed(), d.cause(), d.groups().len()), (true, Cause::NoGroup, 0));
    /// ```
    #[must_use]
    pub fn explain(&self, agent: &str, url: impl AsRef<str>) -> Decision<'_> {
        let (groups, agent_match) = agent::select(&self.parsed, agent);
        self.explain_in(groups, agent_match, url.as_ref())
    }

    fn explain_in<'a>(
        &'a self,
        groups: &'a [u32],
        agent_match: AgentMatch,
        url: &str,
    ) -> Decision<'a> {
        let path = normal_path(url);
        let mut d = Decision {
            parsed: &self.parsed,
            allowed: true,
            cause: Cause::NoGroup,
            rule: None,
            groups,
            agent_match,
        };
        if matcher::is_robots_txt(&path) {
            d.cause = Cause::RobotsTxt;
            return d;
        }
        match self.access {
            Access::AllowAll => d.cause = Cause::Unavailable,
            Access::DisallowAll => {
                d.allowed = false;
                d.cause = Cause::Unreachable;
            }
            Access::Rules => match matcher::best(&self.parsed, groups, &path) {
                Some(hit) => {
                    d.allowed = hit.allow;
                    d.cause = Cause::Rule;
                    d.rule = matcher::rule_index(&self.parsed, groups, hit).map(|i| (i, hit.at));
                    debug_assert!(d.rule.is_some(), "no rule for {hit:?}");
                }
                None if groups.is_empty() => d.cause = Cause::NoGroup,
                None => d.cause = Cause::NoMatchingRule,
            },
        }
        d
    }

    /// A handle for one crawler that finds its groups once, for checking
    /// many URLs. `agent` is read as in [`is_allowed`](Robots::is_allowed).
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: examplebot\nDisallow: /tmp/\n");
    /// let bot = robots.agent("ExampleBot/1.0");
    /// let urls = ["https://example.com/", "https://example.com/tmp/a"];
    /// let allowed: Vec<bool> = urls.iter().map(|u| bot.is_allowed(u)).collect();
    /// assert_eq!(allowed, [true, false]);
    /// ```
    #[must_use]
    pub fn agent(&self, agent: &str) -> Agent<'_> {
        let (groups, names, agent_match) = agent::select_names(&self.parsed, agent);
        Agent {
            robots: self,
            groups,
            names,
            agent_match,
            prepared: matcher::prepare(&self.parsed, groups, self.access),
        }
    }

    /// The product token that [`is_allowed`](Robots::is_allowed) and the
    /// other questions match the crawler `agent` by, case aside: its
    /// leading token, or for a browser-compatible header the crawler's
    /// after `compatible;` in a comment (see
    /// [`is_allowed`](Robots::is_allowed)). Empty when `agent` starts with
    /// none (`*`, `""`, `/2.1`): such a crawler reads the `*` groups. Names
    /// with the same token (in any case) get the same answers.
    ///
    /// ```
    /// use keepout::Robots;
    ///
    /// assert_eq!(Robots::agent_token("ExampleBot/2.1 (+https://example.com/bot)"), "ExampleBot");
    /// assert_eq!(Robots::agent_token("Mozilla/5.0 (compatible; ExampleBot/1.2)"), "ExampleBot");
    /// let evergreen = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; \
    ///                  ExampleBot/1.2; +https://example.com/bot) Chrome/120.0 Safari/537.36";
    /// assert_eq!(Robots::agent_token(evergreen), "ExampleBot");
    /// assert_eq!(Robots::agent_token("Mozilla/5.0 (X11; Linux x86_64)"), "Mozilla");
    /// assert_eq!(Robots::agent_token("*"), "");
    /// ```
    pub fn agent_token(agent: &str) -> &str {
        let token = agent::crawler_token(crate::matcher::url::trim_controls(agent.as_bytes()));
        // A run of ASCII octets within `agent`, so on character boundaries.
        let start = token.as_ptr() as usize - agent.as_ptr() as usize;
        &agent[start..start + token.len()]
    }

    /// The path and query that [`is_allowed`](Robots::is_allowed) and
    /// [`explain`](Robots::explain) match the rules against for `url`: as
    /// an HTTP client requests them (dot segments resolved, a `\` read as
    /// `/`, the fragment dropped; see [`is_allowed`](Robots::is_allowed)),
    /// in the percent-encoded normal form of RFC 9309 section 2.2.2 (ASCII:
    /// an escape of an unreserved character decoded, other escapes in upper
    /// case, octets a URL cannot hold encoded), which
    /// [`RuleView::normalized`](crate::RuleView::normalized)
    /// gives for a rule. Compare the two to see why a rule did or did not
    /// match. Borrows from `url` when it is already in that form.
    ///
    /// ```
    /// use keepout::Robots;
    ///
    /// assert_eq!(Robots::normalized_path("https://example.com/caf\u{e9}?q=%7e#top"), "/caf%C3%A9?q=~");
    /// assert_eq!(Robots::normalized_path("https://example.com/a/../private"), "/private");
    /// assert_eq!(Robots::normalized_path("https://example.com"), "/");
    /// // Already normal: borrowed.
    /// let path = Robots::normalized_path("https://example.com/a?b=1");
    /// assert!(matches!(path, std::borrow::Cow::Borrowed("/a?b=1")));
    /// let robots = Robots::parse("User-agent: *\nDisallow: /caf\u{e9}\n");
    /// let rule = robots.groups().next().unwrap().rules().next().unwrap();
    /// assert_eq!(rule.normalized(), "/caf%C3%A9");
    /// // Latin-1 octets percent-encoded are another path: no match.
    /// assert_eq!(Robots::normalized_path("/caf%e9"), "/caf%E9");
    /// assert!(robots.is_allowed("ExampleBot", "/caf%e9"));
    /// ```
    pub fn normalized_path(url: &str) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        // The normal form is ASCII (see `percent`), so neither conversion
        // below replaces anything.
        match normal_path(url) {
            Cow::Borrowed(path) => String::from_utf8_lossy(path),
            Cow::Owned(path) => Cow::Owned(
                String::from_utf8(path)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
        }
    }

    /// A handle like [`agent`](Robots::agent)'s that holds a clone of this
    /// `Robots` (reference counts, no copy) rather than borrowing it, so it can
    /// be kept where a borrow cannot: in a per-host worker's state beside
    /// the `Arc<Robots>` a [`RobotsCache`](crate::RobotsCache) returned, or
    /// moved into a task. It keeps the rules it was made from, so a
    /// long-lived worker makes a new one from what
    /// [`RobotsCache::get`](crate::RobotsCache::get) returns once the cache
    /// may have refreshed them ([`RobotsCache::due_at`](crate::RobotsCache::due_at)
    /// says when it will next fetch the site).
    ///
    /// ```
    /// use keepout::{OwnedAgent, Robots};
    ///
    /// struct Host {
    ///     rules: OwnedAgent,
    /// }
    ///
    /// let robots = Robots::parse("User-agent: examplebot\nDisallow: /tmp/\n");
    /// let host = Host { rules: robots.owned_agent("ExampleBot/1.0") };
    /// drop(robots);
    /// assert!(!host.rules.is_allowed("https://example.com/tmp/a"));
    /// ```
    #[must_use]
    pub fn owned_agent(&self, agent: &str) -> OwnedAgent {
        let (groups, _, agent_match) = agent::select_names(&self.parsed, agent);
        OwnedAgent {
            run: self.parsed.lookup_run(groups),
            agent_match,
            resolved: matcher::resolve(&self.parsed, groups, self.access).map(Arc::clone),
            robots: self.clone(),
        }
    }

    /// The `Crawl-delay` for `agent`, at most
    /// [`MAX_CRAWL_DELAY`](crate::limits::MAX_CRAWL_DELAY) (1 day), from
    /// the groups that apply to it (its own, else `*`), in file order: the
    /// first valid value written under the run of user-agent lines naming
    /// it (before the next user-agent line; a group that names it in two
    /// runs counts the first); failing that, the first valid value of any
    /// of its groups. Neither RFC 9309 nor Google defines
    /// Crawl-delay; this keeps each run of user-agent lines with the value
    /// written under it where a crawl-delay line splits a group's
    /// user-agent lines (which does not end the group, RFC 9309 section
    /// 2.2.4):
    ///
    /// ```
    /// let robots = keepout::Robots::parse(
    ///     "User-agent: fastbot\nCrawl-delay: 2\n\nUser-agent: *\nCrawl-delay: 10\nDisallow: /x\n",
    /// );
    /// assert_eq!(robots.crawl_delay("fastbot").map(|d| d.as_secs()), Some(2));
    /// assert_eq!(robots.crawl_delay("OtherBot").map(|d| d.as_secs()), Some(10));
    /// // One group, though: both crawlers have `Disallow: /x` (and a warning says so).
    /// assert!(!robots.is_allowed("fastbot", "/x"));
    /// ```
    ///
    /// The first question for a crawler walks its groups; for a crawler in
    /// more than 8 groups, the answer (and the request-rate's) is kept, so
    /// that later questions cost a lookup whatever the file.
    pub fn crawl_delay(&self, agent: &str) -> Option<Duration> {
        let (groups, names, _) = agent::select_names(&self.parsed, agent);
        self.parsed.crawl_delay(groups, names)
    }

    /// The `Request-rate` for `agent`, chosen like
    /// [`crawl_delay`](Robots::crawl_delay).
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nRequest-rate: 1/10s 0600-0845\n");
    /// let rate = robots.request_rate("ExampleBot").unwrap();
    /// assert_eq!((rate.requests, rate.per.as_secs(), rate.window), (1, 10, Some((600, 845))));
    /// assert_eq!(rate.to_string(), "1/10s 0600-0845");
    /// ```
    pub fn request_rate(&self, agent: &str) -> Option<RequestRate> {
        let (groups, names, _) = agent::select_names(&self.parsed, agent);
        self.parsed.request_rate(groups, names)
    }

    /// The `Sitemap` URLs, in file order, as written (but a value that is
    /// not UTF-8 has its octets past ASCII percent-encoded, as a URL
    /// carries them). Sitemap records belong to no group (RFC 9309 section
    /// 2.2.4).
    ///
    /// ```
    /// let robots = keepout::Robots::parse("Sitemap: https://example.com/a.xml\nUser-agent: *\nSitemap: https://example.com/b.xml\n");
    /// let sitemaps: Vec<&str> = robots.sitemaps().collect();
    /// assert_eq!(sitemaps, ["https://example.com/a.xml", "https://example.com/b.xml"]);
    /// ```
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + Clone {
        self.parsed.sitemaps()
    }

    /// The `Sitemap` URLs ready to fetch: each value parsed as a URL, in
    /// file order, without repeats. A value is an absolute http(s) URL, or
    /// a path (`/sitemap.xml`: starting with `/`), which is resolved
    /// against the URL this file was fetched from (after redirects, as a
    /// browser resolves a page's links). Anything else (`not a url`,
    /// `sitemap.xml`, `ftp://...`, a value holding a space or tab, as in
    /// `https://example.com/a.xml more`, a host with a non-ASCII label of
    /// more than 63 characters, which no name in the DNS has) is left out, with a
    /// [`SitemapNotUrl`](crate::WarningKind::SitemapNotUrl) warning; so are
    /// paths in a file that was parsed rather than fetched, which have
    /// nothing to be resolved against (without a warning: the file is not
    /// at fault; see [`sitemap_urls_relative_to`](Robots::sitemap_urls_relative_to)).
    /// [`sitemaps`](Robots::sitemaps) has every value as written.
    ///
    /// ```
    /// let robots = keepout::Robots::parse(
    ///     "Sitemap: https://example.com/a.xml\nSitemap: not a url\nSitemap: https://example.com/a.xml\n",
    /// );
    /// let urls: Vec<String> = robots.sitemap_urls().iter().map(|u| u.to_string()).collect();
    /// assert_eq!(urls, ["https://example.com/a.xml"]);
    /// ```
    pub fn sitemap_urls(&self) -> Vec<url::Url> {
        #[cfg(feature = "fetch")]
        let base = self.fetch_outcome().map(FetchOutcome::final_url);
        #[cfg(not(feature = "fetch"))]
        let base = None;
        self.sitemap_urls_from(base)
    }

    /// [`sitemap_urls`](Robots::sitemap_urls) with paths resolved against
    /// `base`, the URL the file was fetched from (after redirects), for a
    /// file fetched by another HTTP client and given to
    /// [`parse`](Robots::parse). `base` is used even when this value was
    /// fetched.
    ///
    /// ```
    /// let robots = keepout::Robots::parse("Sitemap: /a.xml\nSitemap: https://example.org/b.xml\n");
    /// let base = keepout::Url::parse("https://example.com/robots.txt").unwrap();
    /// let urls: Vec<String> =
    ///     robots.sitemap_urls_relative_to(&base).iter().map(|u| u.to_string()).collect();
    /// assert_eq!(urls, ["https://example.com/a.xml", "https://example.org/b.xml"]);
    /// ```
    pub fn sitemap_urls_relative_to(&self, base: &url::Url) -> Vec<url::Url> {
        self.sitemap_urls_from(Some(base))
    }

    fn sitemap_urls_from(&self, base: Option<&url::Url>) -> Vec<url::Url> {
        let mut seen = std::collections::HashSet::new();
        self.sitemaps()
            .filter_map(|value| parse::sitemap_url(value, base))
            .filter(|url| seen.insert(url.clone()))
            .collect()
    }

    /// The first `Host` value (a Yandex extension naming the preferred host).
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nDisallow:\nHost: www.example.com\n");
    /// assert_eq!(robots.host(), Some("www.example.com"));
    /// ```
    pub fn host(&self) -> Option<&str> {
        self.parsed.host()
    }

    /// The groups, in file order.
    ///
    /// ```
    /// let robots = keepout::Robots::parse(
    ///     "User-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n\nUser-agent: *\nAllow: /\n",
    /// );
    /// let groups: Vec<(u32, Vec<&str>, usize)> =
    ///     robots.groups().map(|g| (g.line(), g.agents().collect(), g.rules().len())).collect();
    /// assert_eq!(groups, [(1, vec!["a", "b"], 2), (6, vec!["*"], 1)]);
    /// ```
    pub fn groups(&self) -> impl ExactSizeIterator<Item = GroupView<'_>> {
        let parsed = &*self.parsed;
        (0..parsed.group_count() as u32).map(move |index| GroupView { parsed, index })
    }

    /// Records with keys keepout does not interpret, in file order.
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nClean-param: ref /articles/\n");
    /// let record = &robots.records()[0];
    /// assert_eq!((record.line, &*record.key, &*record.value), (2, "Clean-param", "ref /articles/"));
    /// ```
    pub fn records(&self) -> &[Record] {
        self.parsed.records()
    }

    /// Lint-style warnings, in line order: misspellings accepted, unknown
    /// keys, rules outside groups, and so on.
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nDisallow private\n");
    /// let w = &robots.warnings()[0];
    /// assert_eq!((w.line, w.kind.to_string()), (2, "missing ':' after the key".to_string()));
    /// ```
    pub fn warnings(&self) -> &[Warning] {
        self.parsed.warnings()
    }

    /// How this value was fetched, when it came from
    /// [`Robots::fetch`](crate::Robots::fetch) or a
    /// [`Fetcher`](crate::fetch::Fetcher); `None` for a parsed one.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), keepout::Error> {
    /// let robots = keepout::Robots::fetch("https://example.com/").await?;
    /// if let Some(outcome) = robots.fetch_outcome() {
    ///     println!("{}: {:?}, {}", outcome.final_url(), outcome.status(), outcome.result());
    /// }
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "fetch")]
    pub fn fetch_outcome(&self) -> Option<&FetchOutcome> {
        self.fetch.as_deref()
    }

    /// Attaches a fetch outcome (used by the fetcher).
    #[cfg(feature = "fetch")]
    pub(crate) fn with_fetch_outcome(mut self, outcome: FetchOutcome) -> Robots {
        self.fetch = Some(Arc::new(outcome));
        self
    }

    /// Octets of input parsed (after any transcoding).
    ///
    /// ```
    /// let robots = keepout::Robots::parse("User-agent: *\nDisallow: /\n");
    /// assert_eq!(robots.body_len(), 26);
    /// ```
    pub fn body_len(&self) -> usize {
        self.parsed.body_len as usize
    }

    /// Heap bytes this value keeps: patterns, agents, records, warnings,
    /// bookkeeping, and the [fetch outcome](Robots::fetch_outcome) with its
    /// URLs and header texts, not counting the prefix indexes that checks or
    /// [`agent`](Robots::agent) handles build for large groups (24 bytes
    /// per rule of such a group, about 260 bytes per index, and 516 more
    /// for an index of 32 prefix rules or more; and, once a check has
    /// tried 64 of an index's wildcard rules, an automaton of up to 13
    /// bytes a normalised octet of their patterns; see
    /// [`limits`](crate::limits)). Records and the keys that warnings
    /// quote are kept as written until the first call of
    /// [`records`](Robots::records) or [`warnings`](Robots::warnings)
    /// makes them text, which is counted from then on. A
    /// [`RobotsCache`](crate::RobotsCache) bounded in bytes weighs in the
    /// largest index one crawler's checks could build.
    ///
    /// ```
    /// let body = format!("User-agent: *\n{}", "Disallow: /private/\n".repeat(100));
    /// let robots = keepout::Robots::parse(&body);
    /// assert!(robots.heap_bytes() < body.len()); // 2,014 octets of body
    /// ```
    pub fn heap_bytes(&self) -> usize {
        #[cfg(feature = "fetch")]
        let fetch = self.fetch.as_deref().map_or(0, FetchOutcome::heap_bytes);
        #[cfg(not(feature = "fetch"))]
        let fetch = 0;
        self.parsed.heap_bytes() + fetch
    }

    /// The most heap bytes the prefix index one crawler's checks build
    /// could add to [`heap_bytes`](Robots::heap_bytes): what a
    /// [`RobotsCache`](crate::RobotsCache) weighs in.
    #[cfg(feature = "fetch")]
    pub(crate) fn index_bytes_bound(&self) -> usize {
        self.parsed.index_bytes_bound()
    }
}

impl fmt::Debug for Robots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = f.debug_struct("Robots");
        out.field("access", &self.access)
            .field("groups", &self.parsed.group_count())
            .field("rules", &self.parsed.rules.len())
            .field("sitemaps", &FirstFew::of(self.parsed.sitemaps()))
            .field("warnings", &self.parsed.warning_count());
        #[cfg(feature = "fetch")]
        out.field("fetch", &self.fetch);
        out.finish()
    }
}

/// The rules of a [`Robots`] for one crawler, found once: see
/// [`Robots::agent`]. It borrows the `Robots`; [`OwnedAgent`] holds one.
///
/// ```
/// use keepout::{AgentMatch, Robots};
///
/// let robots = Robots::parse("User-agent: *\nCrawl-delay: 5\nDisallow: /search\n");
/// let bot = robots.agent("ExampleBot/1.0");
/// assert_eq!(bot.agent_match(), AgentMatch::Star);
/// assert_eq!(bot.crawl_delay().map(|d| d.as_secs()), Some(5));
/// assert!(!bot.is_allowed("https://example.com/search?q=x"));
/// assert_eq!(bot.explain("/search").rule().map(|r| r.line()), Some(3));
/// ```
#[derive(Clone, Copy)]
pub struct Agent<'a> {
    robots: &'a Robots,
    groups: &'a [u32],
    /// For named groups, the user-agent value in each naming the crawler
    /// (`agent::select_names`).
    names: &'a [u32],
    agent_match: AgentMatch,
    /// The groups resolved down to their rules, under `robots.access`: a
    /// check through the handle reads nothing else.
    prepared: matcher::Prepared<'a>,
}

impl<'a> Agent<'a> {
    /// May this crawler fetch `url`? See [`Robots::is_allowed`].
    #[inline]
    #[must_use]
    pub fn is_allowed(&self, url: impl AsRef<str>) -> bool {
        allows(self.prepared, url.as_ref())
    }

    /// Like [`is_allowed`](Agent::is_allowed), with the reason.
    #[must_use]
    pub fn explain(&self, url: impl AsRef<str>) -> Decision<'a> {
        self.robots
            .explain_in(self.groups, self.agent_match, url.as_ref())
    }

    /// The crawler's `Crawl-delay`; see [`Robots::crawl_delay`].
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.robots.parsed.crawl_delay(self.groups, self.names)
    }

    /// The crawler's `Request-rate`; see [`Robots::request_rate`].
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.robots.parsed.request_rate(self.groups, self.names)
    }

    /// The groups that apply to the crawler, in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = GroupView<'a>> + use<'a> {
        let parsed = &*self.robots.parsed;
        self.groups
            .iter()
            .map(move |&index| GroupView { parsed, index })
    }

    /// How the groups were chosen: by the crawler's name, by `*`, or none.
    pub fn agent_match(&self) -> AgentMatch {
        self.agent_match
    }
}

impl fmt::Debug for Agent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The groups by their lines, as the file numbers them.
        f.debug_struct("Agent")
            .field(
                "group_lines",
                &FirstFew::of(self.groups().map(|g| g.line())),
            )
            .field("agent_match", &self.agent_match)
            .finish()
    }
}

/// A check through a handle's resolved groups: `/robots.txt` is always
/// allowed (RFC 9309 section 2.2.2), any other path as the rules say.
#[inline]
fn allows(prepared: matcher::Prepared<'_>, url: &str) -> bool {
    let path = normal_path(url);
    if matcher::is_robots_txt(&path) {
        return true;
    }
    prepared.allows(&path)
}

/// The rules of a [`Robots`] for one crawler, found once, like an
/// [`Agent`], but owning a clone of the `Robots` rather than borrowing it:
/// see [`Robots::owned_agent`]. Cloning it is cheap (reference counts).
///
/// A check through it costs about what one through an `Agent` does (it
/// reads the parsed file's own struct and the index's header before the
/// search, where an `Agent` has what it needs of them at hand; 1% slower
/// in `cargo bench --bench ratios`), and less than
/// [`Robots::is_allowed`], which finds the crawler's groups on every call.
/// [`agent`](OwnedAgent::agent) lends an `Agent` for its other questions,
/// without searching for the crawler's groups again.
///
/// ```
/// let robots = keepout::Robots::parse("User-agent: *\nDisallow: /tmp/\n");
/// let bot = robots.owned_agent("ExampleBot");
/// // `'static`, `Send` and `Sync`: it can move into a thread or a task.
/// let worker = std::thread::spawn(move || bot.is_allowed("https://example.com/tmp/a"));
/// assert!(!worker.join().unwrap());
/// ```
#[derive(Clone)]
pub struct OwnedAgent {
    robots: Robots,
    /// The crawler's groups and names in `Parsed::lookup_groups` and
    /// `Parsed::lookup` when a group names it; `None` for the `*` groups
    /// (`agent::star`: none, if there are none).
    run: Option<(u32, u32)>,
    agent_match: AgentMatch,
    /// The groups resolved down to their rules, under `robots.access`.
    resolved: matcher::Resolved<Arc<matcher::index::Index>>,
}

impl OwnedAgent {
    /// May this crawler fetch `url`? See [`Robots::is_allowed`].
    #[inline]
    #[must_use]
    pub fn is_allowed(&self, url: impl AsRef<str>) -> bool {
        let prepared = self
            .resolved
            .as_ref()
            .prepared(&self.robots.parsed, || self.groups_and_names().0);
        allows(prepared, url.as_ref())
    }

    /// Like [`is_allowed`](OwnedAgent::is_allowed), with the reason.
    #[must_use]
    pub fn explain(&self, url: impl AsRef<str>) -> Decision<'_> {
        self.agent().explain(url)
    }

    /// The crawler's `Crawl-delay`; see [`Robots::crawl_delay`].
    pub fn crawl_delay(&self) -> Option<Duration> {
        self.agent().crawl_delay()
    }

    /// The crawler's `Request-rate`; see [`Robots::request_rate`].
    pub fn request_rate(&self) -> Option<RequestRate> {
        self.agent().request_rate()
    }

    /// How the groups were chosen: by the crawler's name, by `*`, or none.
    pub fn agent_match(&self) -> AgentMatch {
        self.agent_match
    }

    /// The borrowing handle for the same crawler, made without searching
    /// for its groups again: for [`groups`](Agent::groups), or for checks
    /// in a loop that can hold the borrow.
    #[must_use]
    pub fn agent(&self) -> Agent<'_> {
        let (groups, names) = self.groups_and_names();
        Agent {
            robots: &self.robots,
            groups,
            names,
            agent_match: self.agent_match,
            prepared: self
                .resolved
                .as_ref()
                .prepared(&self.robots.parsed, || groups),
        }
    }

    /// The `Robots` the handle holds.
    pub fn robots(&self) -> &Robots {
        &self.robots
    }

    /// The crawler's groups and, for named groups, the user-agent value in
    /// each naming it, as `agent::select_names` gave them.
    fn groups_and_names(&self) -> (&[u32], &[u32]) {
        let parsed = &*self.robots.parsed;
        match self.run {
            Some((start, end)) => {
                let run = start as usize..end as usize;
                (&parsed.lookup_groups()[run.clone()], &parsed.lookup()[run])
            }
            None => {
                let (groups, names, _) = agent::star(parsed);
                (groups, names)
            }
        }
    }
}

impl fmt::Debug for OwnedAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parsed = &*self.robots.parsed;
        let lines = self
            .groups_and_names()
            .0
            .iter()
            .map(|&index| GroupView { parsed, index }.line());
        f.debug_struct("OwnedAgent")
            .field("group_lines", &FirstFew::of(lines))
            .field("agent_match", &self.agent_match)
            .finish()
    }
}
