//! Extensions crawlers use (Crawl-delay, Request-rate, Sitemap, Host, other
//! records), MK1996 matching, the per-agent handle and the explain API.

use std::time::Duration;

use keepout::{AgentMatch, Cause, Directive, ParseOptions, Robots, RuleKind, WarningKind};
use proptest::prelude::*;

const SITE: &str = "\
Sitemap: https://example.com/one.xml
User-agent: *
Crawl-delay: 2.5
Request-rate: 1/10s
Disallow: /private
Noindex: /drafts

User-agent: SlowBot
User-agent: OtherBot
Crawl-delay: 30
Crawl-delay: 40
Disallow: /

User-agent: FastBot
Allow: /
Host: www.example.com
Sitemap: https://example.com/two.xml
Clean-param: ref /articles/
";

#[test]
fn crawl_delay_comes_from_the_agents_own_group_else_star() {
    let robots = Robots::parse(SITE);
    assert_eq!(robots.crawl_delay("SlowBot"), Some(Duration::from_secs(30)));
    assert_eq!(
        robots.crawl_delay("otherbot/1.0"),
        Some(Duration::from_secs(30))
    );
    assert_eq!(
        robots.crawl_delay("Stranger"),
        Some(Duration::from_millis(2500))
    );
    // FastBot has its own group without a delay: the `*` group does not apply.
    assert_eq!(robots.crawl_delay("FastBot"), None);
    // The second Crawl-delay of a group is reported, not used.
    assert!(robots.warnings().iter().any(|w| w.line == 11));
}

/// A crawl-delay line between user-agent lines does not end the group
/// (RFC 9309 section 2.2.4), but each run of user-agent lines keeps the
/// value written under it; a warning says the runs share their rules.
#[test]
fn extension_lines_between_user_agent_lines_belong_to_the_lines_above() {
    let secs = |robots: &Robots, agent: &str| {
        let delay = robots.crawl_delay(agent).map(|d| d.as_secs());
        // The handle answers the same.
        assert_eq!(
            robots.agent(agent).crawl_delay().map(|d| d.as_secs()),
            delay,
            "{agent}"
        );
        delay
    };
    let robots = Robots::parse(
        "User-agent: usasearch\nCrawl-delay: 2\nRequest-rate: 1/5\n\n\
         User-agent: *\nCrawl-delay: 10\nDisallow: /includes/\n",
    );
    assert_eq!(secs(&robots, "usasearch"), Some(2));
    assert_eq!(secs(&robots, "OtherBot"), Some(10));
    // Request-rate likewise; `*` has none of its own, so the group's first.
    assert_eq!(
        robots.request_rate("usasearch").map(|r| r.per.as_secs()),
        Some(5)
    );
    assert_eq!(
        robots.request_rate("OtherBot").map(|r| r.per.as_secs()),
        Some(5)
    );
    // One group: usasearch has the `*` rules too, and the warning says so.
    assert_eq!(robots.groups().len(), 1);
    assert!(!robots.is_allowed("usasearch", "/includes/x"));
    let warnings: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "line 5: user-agent line after a Request-rate line joins the group above (only a rule line ends a group): the crawlers named above it obey the rules below it too"
        ]
    );
    // The group's own value is its first.
    assert_eq!(
        robots.groups().next().unwrap().crawl_delay(),
        Some(Duration::from_secs(2))
    );

    // A run with no value of its own gets the group's first, not a later
    // one: `z` shares the group of `x` (1 s) and `y` (2 s).
    let robots = Robots::parse(
        "User-agent: x\nCrawl-delay: 1\nUser-agent: y\nCrawl-delay: 2\nRequest-rate: 1/5\n\
         User-agent: z\nDisallow: /\n",
    );
    assert_eq!(
        ["x", "y", "z"].map(|agent| secs(&robots, agent)),
        [Some(1), Some(2), Some(1)]
    );

    // After an empty user-agent line, which names no crawler, there are no
    // crawlers above to share the rules below: no warning says so. (The
    // empty line is only an empty value; the group is `b`'s, from line 5.)
    let robots = Robots::parse(
        "User-agent: a\nDisallow: /x\nUser-agent:\nCrawl-delay: 5\nUser-agent: b\nDisallow: /y\n",
    );
    let warnings: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(warnings, ["line 3: empty User-agent value; ignored"]);
    assert!(robots.is_allowed("a", "/y"));
    assert!(!robots.is_allowed("b", "/y"));

    // A crawler named after the group's last value has the group's first;
    // one named twice has the value after its first naming.
    let robots = Robots::parse(
        "User-agent: a\nCrawl-delay: 1\nUser-agent: b\nUser-agent: c/2.0\nCrawl-delay: 7\n\
         User-agent: c\nUser-agent: d\nDisallow: /\n",
    );
    assert_eq!(
        ["a", "b", "c", "d"].map(|agent| secs(&robots, agent)),
        [Some(1), Some(7), Some(7), Some(1)]
    );
    // Two warnings (lines 3 and 6), and no duplicate: each value has its run.
    let lines: Vec<u32> = robots.warnings().iter().map(|w| w.line).collect();
    assert_eq!(lines, [3, 6]);

    // Values after the same run are duplicates: the first one counts.
    let robots = Robots::parse("User-agent: a\nCrawl-delay: 3\nDisallow: /x\nCrawl-delay: 9\n");
    assert_eq!(secs(&robots, "a"), Some(3));
    assert_eq!(
        robots.warnings()[0].to_string(),
        "line 4: repeated Crawl-delay for the same user-agent lines; the first one is used"
    );

    // Merged groups: the first group, in file order, with a value for the
    // crawler.
    let robots = Robots::parse(
        "User-agent: a\nUser-agent: b\nCrawl-delay: 4\nDisallow: /x\n\n\
         User-agent: a\nCrawl-delay: 6\nUser-agent: c\nCrawl-delay: 8\nDisallow: /y\n",
    );
    assert_eq!(
        ["a", "b", "c"].map(|agent| secs(&robots, agent)),
        [Some(4), Some(4), Some(8)]
    );

    // A value written under the crawler's own lines, in a later group,
    // wins over the first value of an earlier group that has none for it.
    let robots = Robots::parse(
        "User-agent: x\nCrawl-delay: 1\nUser-agent: a\nDisallow: /\n\n\
         User-agent: a\nCrawl-delay: 6\nDisallow: /y\n",
    );
    assert_eq!(
        ["x", "a"].map(|agent| secs(&robots, agent)),
        [Some(1), Some(6)]
    );

    // Each value belongs to the run right above it: b's run has a
    // request-rate and no delay, so b has the group's first delay, not c's.
    let robots = Robots::parse(
        "User-agent: a\nCrawl-delay: 2\nUser-agent: b\nRequest-rate: 1/5\n\
         User-agent: c\nCrawl-delay: 10\nDisallow: /\n",
    );
    assert_eq!(
        ["a", "b", "c"].map(|agent| secs(&robots, agent)),
        [Some(2), Some(2), Some(10)]
    );
    assert_eq!(robots.request_rate("b").map(|r| r.per.as_secs()), Some(5));
    assert_eq!(robots.request_rate("c").map(|r| r.per.as_secs()), Some(5));
}

/// The corpus files that split their user-agent lines so: each crawler has
/// the delay written under its name, not the first of the group.
#[test]
fn crawl_delays_in_real_files_with_split_user_agent_lines() {
    let read = |name: &str| {
        let path = format!("{}/tests/data/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
        Robots::parse(std::fs::read(path).unwrap())
    };
    let secs = |robots: &Robots, agent: &str| robots.crawl_delay(agent).map(|d| d.as_secs());
    let justice = read("150_www.justice.gov.txt");
    assert_eq!(secs(&justice, "usasearch"), Some(2));
    assert_eq!(secs(&justice, "ExampleBot"), Some(10));
    let herald = read("248_www.miamiherald.com.txt");
    assert_eq!(
        ["Yandex", "Baiduspider", "bingbot", "Slurp"].map(|agent| secs(&herald, agent)),
        [Some(3), Some(3), Some(2), Some(2)]
    );
}

/// A delay too long for an `f64` (`1e400`, or 400 digits) is a long
/// delay, read as a day like `1e300` (`limits::MAX_CRAWL_DELAY`), not an
/// invalid value that leaves the crawler with no delay at all. The words
/// `inf` and `NaN` are still no number.
#[test]
fn a_crawl_delay_past_what_a_float_holds_is_a_day() {
    let day = Some(keepout::limits::MAX_CRAWL_DELAY);
    let digits = format!("1{}", "0".repeat(400));
    for long in [
        "1e300",
        "1e400",
        "1E999",
        "+1e400",
        &digits,
        &format!("{digits}.5"),
    ] {
        let robots = Robots::parse(format!("User-agent: *\nCrawl-delay: {long}\n"));
        assert_eq!(robots.crawl_delay("bot"), day, "{long}");
        assert_eq!(robots.agent("bot").crawl_delay(), day, "{long}");
        assert_eq!(robots.groups().next().unwrap().crawl_delay(), day, "{long}");
        assert!(robots.warnings().is_empty(), "{long}");
    }
    for bad in ["inf", "+inf", "Infinity", "-1e400", "NaN"] {
        let robots = Robots::parse(format!("User-agent: *\nCrawl-delay: {bad}\n"));
        assert_eq!(robots.crawl_delay("bot"), None, "{bad}");
        assert_eq!(robots.warnings().len(), 1, "{bad}");
    }
}

#[test]
fn request_rate() {
    let robots = Robots::parse(SITE);
    let rate = robots.request_rate("Stranger").unwrap();
    assert_eq!(
        (rate.requests, rate.per, rate.delay()),
        (1, Duration::from_secs(10), Duration::from_secs(10))
    );
    assert_eq!(robots.request_rate("SlowBot"), None);
}

/// A period too long for a `Duration` of whole seconds (`u64::MAX`) is a
/// long period: kept at the longest, its delay a day
/// (`limits::MAX_CRAWL_DELAY`), not an invalid value that leaves the
/// crawler with no rate at all.
#[test]
fn a_request_rate_period_past_u64_seconds_is_the_longest() {
    let day = keepout::limits::MAX_CRAWL_DELAY;
    for long in [
        "1/18446744073709551616",
        "1/99999999999999999999",
        "3/99999999999999999999d 0600-0845",
        "1/18446744073709551615m",
    ] {
        let robots = Robots::parse(format!("User-agent: *\nRequest-rate: {long}\n"));
        let rate = robots.request_rate("bot");
        assert_eq!(
            rate.map(|r| r.per),
            Some(Duration::from_secs(u64::MAX)),
            "{long}"
        );
        assert_eq!(rate.map(|r| r.delay()), Some(day), "{long}");
        assert_eq!(robots.agent("bot").request_rate(), rate, "{long}");
        assert!(robots.warnings().is_empty(), "{long}");
    }
}

#[test]
fn sitemaps_are_global_and_in_file_order() {
    let robots = Robots::parse(SITE);
    let sitemaps: Vec<String> = robots.sitemaps().map(|s| s.to_string()).collect();
    assert_eq!(
        sitemaps,
        ["https://example.com/one.xml", "https://example.com/two.xml"]
    );
}

#[test]
fn a_sitemap_neither_url_nor_path_is_kept_and_flagged() {
    let body = "Sitemap: sitemap.xml\nSitemap: /a.xml\nSitemap: HTTPS://example.com/b.xml\n\
                sitemap: http:c.xml\nSitemap: ftp://example.com/d.xml\nSitemap: caf\u{e9}.xml\n\
                Sitemap :  https://example.com/e.xml\n\
                Sitemap: https://example.com/f.xml more\nSitemap: /g.xml\tmore\n";
    let robots = Robots::parse(body);
    assert_eq!(robots.sitemaps().count(), 9);
    let flagged: Vec<(u32, String)> = robots
        .warnings()
        .iter()
        .map(|w| (w.line, w.kind.to_string()))
        .collect();
    let why =
        "sitemap value is not an http(s) URL or a path, or holds a space; it is no URL to fetch";
    let lines: Vec<u32> = flagged.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [1, 5, 6, 8, 9]);
    assert!(flagged.iter().all(|(_, text)| text == why), "{flagged:?}");
    // What `sitemap_urls` keeps of a parsed file: the absolute http(s) URLs.
    let urls: Vec<String> = robots
        .sitemap_urls()
        .iter()
        .map(|u| u.to_string())
        .collect();
    assert_eq!(
        urls,
        [
            "https://example.com/b.xml",
            "http://c.xml/",
            "https://example.com/e.xml"
        ]
    );
    // Given the URL it came from, its path too (but not the one holding a
    // tab).
    let base = url::Url::parse("https://example.net/robots.txt").unwrap();
    let urls: Vec<String> = robots
        .sitemap_urls_relative_to(&base)
        .iter()
        .map(|u| u.to_string())
        .collect();
    assert_eq!(
        urls,
        [
            "https://example.net/a.xml",
            "https://example.com/b.xml",
            "http://c.xml/",
            "https://example.com/e.xml"
        ]
    );
}

#[test]
fn host_and_unknown_records_are_kept() {
    let robots = Robots::parse(SITE);
    assert_eq!(robots.host(), Some("www.example.com"));
    let records: Vec<(u32, &str, &str)> = robots
        .records()
        .iter()
        .map(|r| (r.line, &*r.key, &*r.value))
        .collect();
    assert_eq!(
        records,
        [
            (6, "Noindex", "/drafts"),
            (18, "Clean-param", "ref /articles/")
        ]
    );
}

/// The first `Host` is used; a later one naming another host is reported
/// as a duplicate, the same host again (in each group, say) is not (until
/// session 60 neither was).
#[test]
fn a_second_host_naming_another_is_a_duplicate() {
    let body = "User-agent: Yandex\nDisallow: /a\nHost: www.example.com\n\n\
                User-agent: *\nDisallow: /b\nHost: WWW.Example.com\nHost: example.org\n";
    let robots = Robots::parse(body);
    assert_eq!(robots.host(), Some("www.example.com"));
    let warnings: Vec<(u32, String)> = robots
        .warnings()
        .iter()
        .map(|w| (w.line, w.to_string()))
        .collect();
    assert_eq!(
        warnings,
        [(
            8,
            String::from("line 8: another Host than the file's first; the first one is used")
        )]
    );
    assert_eq!(
        robots.warnings()[0].kind,
        WarningKind::Duplicate {
            directive: Directive::Host
        }
    );
}

#[test]
fn records_keep_text_that_is_not_utf8_with_replacement_characters() {
    // Key and value with a Latin-1 octet each; the text around them stays.
    let robots = Robots::parse(b"User-agent: *\nNo\xefndex: /caf\xe9/menu\nTag: caf\xc3\xa9\n");
    let records: Vec<(&str, &str)> = robots
        .records()
        .iter()
        .map(|r| (&*r.key, &*r.value))
        .collect();
    assert_eq!(
        records,
        [
            ("No\u{FFFD}ndex", "/caf\u{FFFD}/menu"),
            ("Tag", "caf\u{e9}")
        ]
    );
    let unknown: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert!(unknown[0].contains("No\u{FFFD}ndex"), "{unknown:?}");
}

#[test]
fn mk1996_takes_operators_literally() {
    let body = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /a*b\n";
    let modern = Robots::parse(body);
    assert!(!modern.is_allowed("bot", "/x.pdf"));
    let old = ParseOptions::new().mk1996(true).parse(body);
    assert!(old.is_allowed("bot", "/x.pdf"));
    assert!(old.is_allowed("bot", "/aXb"));
    assert!(!old.is_allowed("bot", "/*.pdf$"));
    assert!(!old.is_allowed("bot", "/a*b/c"));
}

#[test]
fn the_agent_handle_answers_like_robots() {
    let robots = Robots::parse(SITE);
    for agent in ["SlowBot", "FastBot", "Stranger", ""] {
        let handle = robots.agent(agent);
        for url in ["/", "/private/x", "/public", "/robots.txt"] {
            assert_eq!(
                handle.is_allowed(url),
                robots.is_allowed(agent, url),
                "{agent} {url}"
            );
            assert_eq!(handle.explain(url).allowed(), handle.is_allowed(url));
        }
        assert_eq!(handle.crawl_delay(), robots.crawl_delay(agent));
    }
    assert_eq!(robots.agent("SlowBot").agent_match(), AgentMatch::Named);
    assert_eq!(robots.agent("Stranger").agent_match(), AgentMatch::Star);
    assert_eq!(
        Robots::parse("User-agent: a\nDisallow: /\n")
            .agent("b")
            .agent_match(),
        AgentMatch::None
    );
}

/// An owned handle answers as the borrowing one does, for a named crawler,
/// the `*` groups and no group; its groups merged with or without an index;
/// and under a fetch's allow-all and disallow-all. It needs no borrow: it
/// outlives the `Robots` it came from and moves to another thread.
#[test]
fn the_owned_handle_answers_like_the_borrowing_one() {
    fn owned<T: Send + Sync + 'static>(t: T) -> T {
        t
    }
    // `a` in two small groups (merged, scanned), `b` in two groups of 12
    // rules between them (merged, one index), `*` in one.
    let mut body = String::from("User-agent: a\nDisallow: /a1\n\nUser-agent: b\n");
    for i in 0..6 {
        body.push_str(&format!("Disallow: /b{i}\nAllow: /b{i}/open\n"));
    }
    body.push_str("\nUser-agent: a\nAllow: /a1/open\n\nUser-agent: b\n");
    for i in 6..12 {
        body.push_str(&format!("Disallow: /b{i}\nAllow: /b{i}/open\n"));
    }
    for sample in [SITE, body.as_str()] {
        let robots = Robots::parse(sample);
        for agent in ["a", "B/1.0", "SlowBot", "FastBot", "Stranger", ""] {
            let handle = robots.agent(agent);
            let owned = owned(robots.owned_agent(agent));
            let lines = |it: &mut dyn Iterator<Item = keepout::GroupView<'_>>| {
                it.map(|g| g.line()).collect::<Vec<_>>()
            };
            assert_eq!(
                lines(&mut owned.agent().groups()),
                lines(&mut handle.groups())
            );
            assert_eq!(owned.agent_match(), handle.agent_match());
            assert_eq!(owned.crawl_delay(), handle.crawl_delay());
            assert_eq!(owned.request_rate(), handle.request_rate());
            for url in [
                "/",
                "/a1",
                "/a1/open",
                "/b3/x",
                "/b3/open",
                "/b9",
                "/b11/open",
                "/private/x",
                "/robots.txt",
            ] {
                let ctx = format!("{agent} {url}");
                assert_eq!(owned.is_allowed(url), handle.is_allowed(url), "{ctx}");
                let (mine, theirs) = (owned.explain(url), handle.explain(url));
                assert_eq!(mine.cause(), theirs.cause(), "{ctx}");
                assert_eq!(
                    mine.rule().map(|r| r.line()),
                    theirs.rule().map(|r| r.line()),
                    "{ctx}"
                );
            }
        }
    }
    let robots = Robots::parse(&body);
    let (a, b) = (robots.owned_agent("a"), robots.owned_agent("b"));
    drop(robots);
    let (a, b) = std::thread::spawn(move || (a, b)).join().unwrap();
    assert!(!a.is_allowed("/a1/x") && a.is_allowed("/a1/open"));
    assert!(!b.is_allowed("/b7/x") && b.is_allowed("/b7/open/x") && b.is_allowed("/c"));
    assert_eq!(b.clone().explain("/b11").rule().map(|r| r.line()), Some(32));
    assert!(!Robots::disallow_all().owned_agent("a").is_allowed("/x"));
    assert!(
        Robots::disallow_all()
            .owned_agent("a")
            .is_allowed("/robots.txt")
    );
    assert!(Robots::allow_all().owned_agent("a").is_allowed("/x"));
}

/// Several groups of one crawler, or several `*` groups, with enough rules
/// between them share one index (RFC 9309 section 2.2.1 merges them): the
/// deciding rule, its line and its group are those of the groups read one
/// by one, ties included.
#[test]
fn merged_groups_decide_and_explain_like_separate_groups() {
    // The `*` groups, which crawlers without a group of their own read, and
    // the groups of one named crawler: both are merged (section 2.2.1) and
    // get one index over all their rules.
    for (value, crawler) in [("*", "Stranger"), ("Named", "named/2.0")] {
        let mut body = format!("User-agent: {value}\nDisallow: /shop/\nAllow: /shop/public\n");
        for i in 0..6 {
            body.push_str(&format!("Disallow: /filler{i}/\n"));
        }
        body.push_str("\nUser-agent: other\nDisallow: /\n");
        body.push_str(&format!(
            "\nUser-agent: {value}\nAllow: /shop/\nDisallow: /*.pdf$\nDisallow: /shop/public\n"
        ));
        let robots = Robots::parse(&body);
        let handle = robots.agent(crawler);
        assert_eq!(
            handle.groups().map(|g| g.line()).collect::<Vec<_>>(),
            [1, 14]
        );
        // (url, allowed, deciding line, its group's line)
        let cases = [
            // `Disallow: /shop/` (line 2) and `Allow: /shop/` (line 15) tie
            // on length: allow wins (section 2.2.2).
            ("/shop/cart", true, 15, 14),
            // `Allow: /shop/public` (line 3) and `Disallow: /shop/public`
            // (line 17): allow wins again, from the first group.
            ("/shop/public/x", true, 3, 1),
            // `/*.pdf$` (7 octets) beats `/shop/` (6).
            ("/shop/a.pdf", false, 16, 14),
            ("/filler3/x", false, 7, 1),
        ];
        for (url, allowed, line, group) in cases {
            for d in [robots.explain(crawler, url), handle.explain(url)] {
                assert_eq!(d.allowed(), allowed, "{value} {url}");
                let rule = d.rule().expect("a rule decides");
                assert_eq!(
                    (rule.line(), rule.group().line()),
                    (line, group),
                    "{value} {url}"
                );
            }
            assert_eq!(robots.is_allowed(crawler, url), allowed, "{value} {url}");
            assert_eq!(handle.is_allowed(url), allowed, "{value} {url}");
        }
        assert!(!robots.is_allowed("other", "/shop/public/x"));
    }
}

#[test]
fn explain_names_the_deciding_line_pattern_and_group() {
    let robots = Robots::parse(SITE);
    let d = robots.explain("OtherBot", "https://example.com/page");
    assert!(!d.allowed());
    assert_eq!(d.cause(), Cause::Rule);
    let rule = d.rule().unwrap();
    assert_eq!(
        (rule.line(), rule.kind(), rule.pattern()),
        (12, RuleKind::Disallow, "/")
    );
    let group = rule.group();
    assert_eq!(group.line(), 8);
    assert_eq!(group.agents().collect::<Vec<_>>(), ["SlowBot", "OtherBot"]);
    assert_eq!(
        d.to_string(),
        "disallowed by line 12 'Disallow: /' (group at line 8: User-agent: SlowBot, OtherBot)"
    );

    let d = robots.explain("Stranger", "/public");
    assert_eq!(
        (d.allowed(), d.cause(), d.agent_match()),
        (true, Cause::NoMatchingRule, AgentMatch::Star)
    );
    assert_eq!(d.groups().map(|g| g.line()).collect::<Vec<_>>(), [2]);
}

#[test]
fn explain_of_merged_groups_tells_the_groups_apart() {
    let robots = Robots::parse(
        "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\n",
    );
    let d = robots.explain("a", "/z");
    assert_eq!(
        d.to_string(),
        "allowed: no rule matches in group at line 1: User-agent: a, b; \
         group at line 5: User-agent: a"
    );
}

#[test]
fn explain_names_the_first_four_of_many_merged_groups() {
    let body = "User-agent: *\nDisallow: /x\n\n".repeat(2_000);
    let robots = Robots::parse(&body);
    let d = robots.explain("bot", "/z");
    assert_eq!(d.groups().len(), 2_000);
    assert_eq!(
        d.to_string(),
        "allowed: no rule matches in group at line 1: User-agent: *; \
         group at line 4: User-agent: *; group at line 7: User-agent: *; \
         group at line 10: User-agent: *; and 1996 more groups"
    );
    let five = Robots::parse("User-agent: *\nDisallow: /x\n\n".repeat(5));
    assert!(
        five.explain("bot", "/z")
            .to_string()
            .ends_with("; and 1 more group")
    );
}

/// What Display shows of a file's text cannot drive a terminal or reorder
/// the line: control and bidirectional formatting characters are escaped.
/// The views themselves keep the text as written.
#[test]
fn explain_display_escapes_control_and_bidi_characters() {
    let robots = Robots::parse(
        "User-agent: bot\x1b]0;title\x07\nDisallow: /a\x1b[2Jb\nDisallow: /r\u{202e}txt.exe\nDisallow: /t\tab\n",
    );
    let shown = |url: &str| robots.explain("bot", url).to_string();
    assert_eq!(
        shown("/a%1B[2Jb"),
        "disallowed by line 2 'Disallow: /a\\u{1b}[2Jb' \
         (group at line 1: User-agent: bot\\u{1b}]0;title\\u{7})"
    );
    assert!(
        shown("/r%E2%80%AEtxt.exe").contains("'Disallow: /r\\u{202e}txt.exe'"),
        "{}",
        shown("/r%E2%80%AEtxt.exe")
    );
    assert!(shown("/t%09ab").contains("'Disallow: /t\tab'"), "tabs stay");
    assert!(shown("/z").ends_with("User-agent: bot\\u{1b}]0;title\\u{7}"));
    let rule = robots.explain("bot", "/a%1B[2Jb").rule().unwrap();
    assert_eq!(rule.pattern(), "/a\x1b[2Jb");
    assert_eq!(rule.to_string(), "Disallow: /a\\u{1b}[2Jb");
}

#[test]
fn explain_shows_the_pattern_as_written_and_normalised() {
    let robots = Robots::parse("User-agent: *\nDisallow: /caf%c3%a9/ツ\n");
    let d = robots.explain("bot", "/café/%E3%83%84/menu");
    let rule = d.rule().unwrap();
    assert_eq!(rule.pattern(), "/caf%c3%a9/ツ");
    assert_eq!(rule.normalized(), "/caf%C3%A9/%E3%83%84");
}

#[test]
fn groups_are_listed_for_tooling() {
    let robots = Robots::parse(SITE);
    let summary: Vec<(u32, Vec<&str>, usize, Option<Duration>)> = robots
        .groups()
        .map(|g| {
            (
                g.line(),
                g.agents().collect(),
                g.rules().len(),
                g.crawl_delay(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (2, vec!["*"], 1, Some(Duration::from_millis(2500))),
            (
                8,
                vec!["SlowBot", "OtherBot"],
                1,
                Some(Duration::from_secs(30))
            ),
            (14, vec!["FastBot"], 1, None),
        ]
    );
}

#[test]
fn robots_is_send_sync_and_cheap_to_clone() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Robots>();
    let robots = Robots::parse(SITE);
    let copy = robots.clone();
    assert_eq!(copy.heap_bytes(), robots.heap_bytes());
    assert!(robots.heap_bytes() > 0);
}

#[test]
fn warnings_quote_their_keys_in_line_order_among_the_others() {
    use keepout::WarningKind::{InvalidValue, Misspelled, RuleOutsideGroup, UnknownKey};
    let body = "Disallow: /early\nUser-agent: *\nDisalow: /a\nNoindex: /b\n\
                Crawl-delay: soon\nUser agent: x\nFoo: bar\n";
    let robots = Robots::parse(body);
    let before = robots.heap_bytes();
    // The keys are made text on first use, from any thread.
    let other = robots.clone();
    let there = std::thread::spawn(move || other.warnings().to_vec());
    let here = robots.warnings().to_vec();
    assert_eq!(here, there.join().unwrap());
    let got: Vec<(u32, String)> = here
        .iter()
        .map(|w| {
            let what = match &w.kind {
                Misspelled { written, .. } => format!("misspelled {written}"),
                UnknownKey { key } => format!("unknown {key}"),
                RuleOutsideGroup => "outside".to_string(),
                InvalidValue { .. } => "invalid".to_string(),
                other => format!("{other:?}"),
            };
            (w.line, what)
        })
        .collect();
    let want = [
        (1, "outside"),
        (3, "misspelled Disalow"),
        (4, "unknown Noindex"),
        (5, "invalid"),
        (6, "misspelled User agent"),
        // Found once the file is read: the group at line 6 has no rule.
        (6, "GroupWithoutRules"),
        (7, "unknown Foo"),
    ];
    let want: Vec<(u32, String)> = want.iter().map(|&(l, s)| (l, s.to_string())).collect();
    assert_eq!(got, want);
    let records: Vec<(u32, &str, &str)> = robots
        .records()
        .iter()
        .map(|r| (r.line, &*r.key, &*r.value))
        .collect();
    assert_eq!(records, [(4, "Noindex", "/b"), (7, "Foo", "bar")]);
    // The text made is counted from then on.
    assert!(robots.heap_bytes() > before);
    // Warnings that quote nothing are kept whole, and read as they are.
    let plain = Robots::parse("Disallow: /early\nUser-agent: *\nCrawl-delay: soon\n");
    let kinds: Vec<_> = plain.warnings().iter().map(|w| (w.line, &w.kind)).collect();
    assert!(matches!(
        kinds[..],
        [(1, RuleOutsideGroup), (3, InvalidValue { .. })]
    ));
    assert!(plain.records().is_empty());
}

/// A URL to check may be given as a `&str`, a `String` or a `url::Url`,
/// to the checks and to the helpers that find its robots.txt.
#[test]
fn urls_are_taken_as_str_string_or_url() {
    let robots = Robots::parse("User-agent: *\nDisallow: /private\n");
    let url = url::Url::parse("https://example.com/private/x").unwrap();
    let owned = String::from(url.as_str());
    assert!(!robots.is_allowed("bot", &url));
    assert!(!robots.is_allowed("bot", &owned));
    assert!(!robots.is_allowed("bot", owned.clone()));
    assert!(!robots.is_allowed("bot", "https://example.com/private/x"));
    let bot = robots.agent("bot");
    assert!(!bot.is_allowed(&url));
    assert_eq!(bot.explain(&url).rule().unwrap().line(), 2);
    assert_eq!(robots.explain("bot", &owned).rule().unwrap().line(), 2);
    assert_eq!(
        keepout::fetch::robots_url(&url).unwrap().as_str(),
        "https://example.com/robots.txt"
    );
    assert_eq!(
        keepout::fetch::origin_key(&url).unwrap(),
        "https://example.com"
    );
}

/// `StatusCode` and `Url` come with the crate: no dependency of one's own
/// is needed to match on an outcome's status or to hold a URL.
#[test]
#[cfg(feature = "fetch")]
fn status_code_and_url_are_reexported() {
    let url = keepout::Url::parse("https://example.com/a").unwrap();
    let robots = Robots::parse("User-agent: *\nDisallow: /a\n");
    assert!(!robots.is_allowed("bot", &url));
    // Parsed, not fetched: no outcome, so no status.
    let status: Option<keepout::StatusCode> = robots.fetch_outcome().and_then(|o| o.status());
    assert_eq!(status, None);
    assert_eq!(keepout::StatusCode::NOT_FOUND.as_u16(), 404);
}

/// The small enums print for logs.
#[test]
fn access_cause_and_agent_match_display() {
    use keepout::Access;
    let robots = Robots::parse("User-agent: a\nDisallow: /x\n");
    let d = robots.explain("a", "/x");
    assert_eq!(
        format!("{} {} {}", robots.access(), d.cause(), d.agent_match()),
        "rules rule named"
    );
    let d = robots.explain("b", "/robots.txt");
    assert_eq!(
        format!("{} {}", d.cause(), d.agent_match()),
        "robots.txt none"
    );
    assert_eq!(
        format!("{} {}", Access::AllowAll, Access::DisallowAll),
        "allow all disallow all"
    );
    assert_eq!(
        format!("{} {}", Cause::NoMatchingRule, AgentMatch::Star),
        "no matching rule star"
    );
}

/// A line of the files [`extension_choice_follows_the_docs`] builds.
#[derive(Debug, Clone, Copy)]
enum Line {
    Agent(&'static str),
    Delay(Option<u8>),
    Rate(u8),
    Rule,
}

impl Line {
    fn text(self) -> String {
        match self {
            Line::Agent(name) => format!("User-agent: {name}"),
            Line::Delay(Some(secs)) => format!("Crawl-delay: {secs}"),
            Line::Delay(None) => "Crawl-delay: soon".to_owned(),
            Line::Rate(per) => format!("Request-rate: 1/{per}"),
            Line::Rule => "Disallow: /x".to_owned(),
        }
    }
}

/// A group as the docs describe it: runs of user-agent lines, each with the
/// extension lines after it (before the next user-agent line).
type Runs = Vec<(Vec<&'static str>, Vec<Line>)>;

/// The crawl delay (seconds) and request-rate period (seconds) of crawler
/// `agent` in `lines`, worked out from `Robots::crawl_delay`'s docs: of the
/// crawler's groups (its own, else the `*` ones), the first with a valid
/// value under the run naming the crawler (its first); failing that, the
/// first valid value of the first group that has any.
fn chosen(lines: &[Line], agent: &str) -> (Option<u64>, Option<u64>) {
    // Groups: a user-agent line after a rule starts one (RFC 9309 section
    // 2.2); one after extension lines starts a run of the same group.
    let mut groups: Vec<Runs> = Vec::new();
    let mut after_rule = true;
    for &line in lines {
        match line {
            Line::Agent(name) => {
                if after_rule {
                    groups.push(Vec::new());
                    after_rule = false;
                }
                let runs = groups.last_mut().unwrap();
                match runs.last_mut() {
                    Some((names, extensions)) if extensions.is_empty() => names.push(name),
                    _ => runs.push((vec![name], Vec::new())),
                }
            }
            Line::Rule => after_rule = true,
            _ => {
                if let Some((_, extensions)) = groups.last_mut().and_then(|runs| runs.last_mut()) {
                    extensions.push(line);
                }
            }
        }
    }
    let names = |runs: &Runs, name: &str| {
        runs.iter()
            .position(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name)))
    };
    let mut own: Vec<(&Runs, usize)> = groups
        .iter()
        .filter_map(|runs| Some((runs, names(runs, agent)?)))
        .collect();
    if own.is_empty() {
        own = groups
            .iter()
            .filter_map(|runs| Some((runs, names(runs, "*")?)))
            .collect();
    }
    let delay = |line: &Line| match line {
        Line::Delay(secs) => secs.map(u64::from),
        _ => None,
    };
    let rate = |line: &Line| match line {
        Line::Rate(per) => Some(u64::from(*per)),
        _ => None,
    };
    let pick = |value: &dyn Fn(&Line) -> Option<u64>| {
        own.iter()
            .find_map(|(runs, run)| runs[*run].1.iter().find_map(value))
            .or_else(|| {
                own.iter()
                    .find_map(|(runs, _)| runs.iter().flat_map(|(_, e)| e).find_map(value))
            })
    };
    (pick(&delay), pick(&rate))
}

proptest! {
    /// `crawl_delay` and `request_rate`, through `Robots` and a handle,
    /// asked twice, are those the docs describe, in files of up to about 20
    /// groups, so that a crawler is often in more than the eight groups
    /// past which its answers are kept rather than walked for.
    #[test]
    fn extension_choice_follows_the_docs(
        lines in prop::collection::vec(
            prop_oneof![
                2 => prop::sample::select(vec!["a", "B", "*"]).prop_map(Line::Agent),
                4 => Just(Line::Rule),
                1 => prop::option::of(1u8..10).prop_map(Line::Delay),
                1 => (1u8..10).prop_map(Line::Rate),
            ],
            0..150,
        ),
    ) {
        let body: String = lines.iter().map(|l| l.text() + "\n").collect();
        let robots = Robots::parse(&body);
        for agent in ["a", "b", "c"] {
            let want = chosen(&lines, agent);
            let handle = robots.agent(agent);
            for _ in 0..2 {
                let got = (
                    robots.crawl_delay(agent).map(|d| d.as_secs()),
                    robots.request_rate(agent).map(|r| r.per.as_secs()),
                );
                prop_assert_eq!(got, want, "{}\n{}", agent, body);
                let by_handle = (
                    handle.crawl_delay().map(|d| d.as_secs()),
                    handle.request_rate().map(|r| r.per.as_secs()),
                );
                prop_assert_eq!(by_handle, want, "{}\n{}", agent, body);
            }
        }
    }
}
