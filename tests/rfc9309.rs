//! RFC 9309 semantics: groups, agent matching, longest match, special
//! characters and percent-encoding. One test per rule of the spec, each with
//! a file written for it.

use keepout::{AgentMatch, Cause, Robots};

fn allowed(robots: &str, agent: &str, url: &str) -> bool {
    Robots::parse(robots).is_allowed(agent, url)
}

// Section 2.1: a group is one or more user-agent lines followed by rules.
#[test]
fn consecutive_user_agent_lines_share_one_group() {
    let txt = "User-agent: alpha\nUser-agent: beta\nDisallow: /shared\n\nUser-agent: gamma\nDisallow: /g\n";
    assert!(!allowed(txt, "alpha", "/shared/x"));
    assert!(!allowed(txt, "beta", "/shared/x"));
    assert!(allowed(txt, "beta", "/g"));
    assert!(allowed(txt, "gamma", "/shared/x"));
    assert!(!allowed(txt, "gamma", "/g"));
}

// Section 2.1: a user-agent line after a rule starts a new group, even when
// the rule is empty.
#[test]
fn a_rule_line_closes_the_user_agent_run() {
    let txt = "User-agent: alpha\nDisallow:\nUser-agent: beta\nDisallow: /\n";
    assert!(allowed(txt, "alpha", "/x"));
    assert!(!allowed(txt, "beta", "/x"));
}

// Section 2.2.1: several groups for one agent are merged.
#[test]
fn groups_naming_the_same_agent_are_merged() {
    let txt = "User-agent: alpha\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\nUser-agent: ALPHA\nDisallow: /b\nAllow: /a/open\n";
    assert!(!allowed(txt, "alpha", "/a/x"));
    assert!(!allowed(txt, "alpha", "/b/x"));
    assert!(allowed(txt, "alpha", "/a/open/1"));
    assert!(allowed(txt, "alpha", "/c"));
}

// Section 2.2.1: without a group of its own, the crawler obeys the `*`
// groups, merged; a named group replaces `*` entirely.
#[test]
fn star_groups_are_the_fallback_and_are_merged() {
    let txt = "User-agent: *\nDisallow: /one\n\nUser-agent: named\nDisallow: /named-only\n\nUser-agent: *\nDisallow: /two\n";
    assert!(!allowed(txt, "stranger", "/one"));
    assert!(!allowed(txt, "stranger", "/two"));
    assert!(allowed(txt, "stranger", "/named-only"));
    assert!(allowed(txt, "named", "/one"));
    assert!(!allowed(txt, "named", "/named-only"));
}

// Section 2.2.1: no matching group and no `*` group: no rules apply.
#[test]
fn no_group_allows_everything() {
    let txt = "User-agent: alpha\nDisallow: /\n";
    let robots = Robots::parse(txt);
    assert!(robots.is_allowed("beta", "/anything"));
    assert_eq!(robots.explain("beta", "/anything").cause(), Cause::NoGroup);
    assert!(allowed("", "bot", "/"));
}

// A group that names the agent but has no rules still replaces `*`.
#[test]
fn an_empty_named_group_still_wins_over_star() {
    let txt = "User-agent: *\nDisallow: /\n\nUser-agent: quiet\n";
    assert!(allowed(txt, "quiet", "/x"));
    let robots = Robots::parse(txt);
    let d = robots.explain("quiet", "/x");
    assert_eq!(
        (d.cause(), d.agent_match()),
        (Cause::NoMatchingRule, AgentMatch::Named)
    );
}

// Section 2.1: rules before the first user-agent line belong to no group.
#[test]
fn rules_before_any_user_agent_are_ignored() {
    let txt = "Disallow: /early\n\nUser-agent: *\nDisallow: /late\n";
    assert!(allowed(txt, "bot", "/early"));
    assert!(!allowed(txt, "bot", "/late"));
}

// Sitemap, crawl-delay and unknown records do not end a group.
#[test]
fn other_records_do_not_end_a_group() {
    for middle in [
        "Sitemap: https://example.com/s.xml",
        "Crawl-delay: 3",
        "Noindex: /x",
    ] {
        let txt = format!("User-agent: alpha\n{middle}\nUser-agent: beta\nDisallow: /private\n");
        assert!(!allowed(&txt, "alpha", "/private"), "{middle}");
        assert!(!allowed(&txt, "beta", "/private"), "{middle}");
    }
}

// Section 2.2.1: product tokens match case-insensitively, exactly.
#[test]
fn agent_matching_is_case_insensitive_and_exact() {
    let txt = "User-agent: ExampleBot\nDisallow: /\n";
    assert!(!allowed(txt, "examplebot", "/x"));
    assert!(!allowed(txt, "EXAMPLEBOT", "/x"));
    assert!(allowed(txt, "Example", "/x"));
    assert!(allowed(txt, "ExampleBotPlus", "/x"));
    let txt = "User-agent: bot\nDisallow: /\n";
    assert!(allowed(txt, "mybot", "/x"));
    assert!(!allowed(txt, "bot", "/x"));
    // `_` and `-` belong to the token (section 2.2.1), on both sides.
    let txt = "User-agent: my_bot\nDisallow: /\n\nUser-agent: ia-archiver\nDisallow: /\n";
    assert!(!allowed(txt, "my_bot/1.0", "/x"));
    assert!(allowed(txt, "my", "/x"));
    assert!(allowed(txt, "my_crawler", "/x"));
    assert!(!allowed(txt, "IA-Archiver (+http://x)", "/x"));
    assert!(allowed(txt, "ia", "/x"));
}

// A robots.txt value with more than a product token counts as its leading token.
#[test]
fn robots_txt_values_count_as_their_leading_token() {
    let txt = "User-agent: Googlebot/2.1\nDisallow: /g\n\nUser-agent: Foo Bar\nDisallow: /f\n";
    assert!(!allowed(txt, "googlebot", "/g"));
    assert!(!allowed(txt, "foo", "/f"));
    assert!(allowed(txt, "bar", "/f"));
}

// The caller may pass a whole User-Agent header.
#[test]
fn callers_may_pass_a_user_agent_header() {
    let txt = "User-agent: ExampleBot\nDisallow: /private\n";
    assert!(!allowed(
        txt,
        "ExampleBot/2.1 (+https://example.com/bot)",
        "/private"
    ));
    assert!(!allowed(txt, "  ExampleBot", "/private"));
    // Line ends and other control characters around the name, as a name
    // read from a file brings them, are no part of it.
    for name in [
        "\nExampleBot\r\n",
        "\r\n\x00 ExampleBot/2.1\n",
        "\x1bExampleBot",
    ] {
        assert!(!allowed(txt, name, "/private"), "{name:?}");
        assert_eq!(keepout::Robots::agent_token(name), "ExampleBot", "{name:?}");
    }
    // The browser-compatible form names the crawler in a comment, in any
    // case and in any of its comments, opening it or after a `;` in it (as
    // the evergreen Googlebot, bingbot and GPTBot send it); a browser's
    // names none.
    let txt = "User-agent: ExampleBot\nDisallow: /private\n\nUser-agent: Mozilla\nDisallow: /m\n";
    for header in [
        "Mozilla/5.0 (compatible; ExampleBot/1.2; +https://example.com/bot)",
        "mozilla/5.0 (Compatible;ExampleBot)",
        "Mozilla/5.0 (Linux; Android 6.0.1) Safari/537.36 (compatible; examplebot/2.1)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ExampleBot/2.0; \
         +https://example.com/bot) Chrome/116.0.1938.76 Safari/537.36",
        "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X) AppleWebKit/537.36 (KHTML, like Gecko) \
         Chrome/120.0 Mobile Safari/537.36 (compatible ;\tcompatible;  ExampleBot/2.1)",
    ] {
        assert!(!allowed(txt, header, "/private"), "{header}");
        assert!(allowed(txt, header, "/m"), "{header}");
    }
    for header in [
        "Mozilla/5.0 (X11; Linux x86_64)",
        "Mozilla/4.0 (compatible; MSIE 9.0; Windows NT 6.1)",
        "Mozilla/5.0 (compatible; )",
        // The mark only as part of a word, or outside a comment.
        "Mozilla/5.0 (X11; incompatible; ExampleBot)",
        "Mozilla/5.0 (KHTML, like Gecko) compatible; ExampleBot",
        "Mozilla/5.0 (X11) Compatible; ExampleBot",
        "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/115.0; compatible; ExampleBot",
        "Mozilla/5.0 (X11; (nested)) x; compatible; ExampleBot",
    ] {
        assert!(allowed(txt, header, "/private"), "{header}");
        assert!(!allowed(txt, header, "/m"), "{header}");
    }
    // A header with no product token gets the `*` group.
    let txt = "User-agent: *\nDisallow: /\n";
    assert!(!allowed(txt, "(compatible; odd)", "/x"));
    assert!(!allowed(txt, "", "/x"));
    assert!(!allowed(txt, "*", "/x"));
}

// Section 2.2.2: the most specific (longest) match wins.
#[test]
fn longest_match_wins_in_either_order() {
    for txt in [
        "User-agent: *\nDisallow: /folder/\nAllow: /folder/page\n",
        "User-agent: *\nAllow: /folder/page\nDisallow: /folder/\n",
    ] {
        assert!(allowed(txt, "bot", "/folder/page.html"));
        assert!(!allowed(txt, "bot", "/folder/other"));
    }
    // Length counts octets of the pattern, wildcards included.
    let txt = "User-agent: *\nAllow: /page\nDisallow: /*.htm\n";
    assert!(!allowed(txt, "bot", "/page.htm"));
}

// Section 2.2.2: when allow and disallow tie, allow wins.
#[test]
fn allow_wins_a_tie() {
    let txt = "User-agent: *\nDisallow: /same\nAllow: /same\n";
    assert!(allowed(txt, "bot", "/same/x"));
    let txt = "User-agent: *\nDisallow: /*.gif\nAllow: /a.gif\n";
    assert!(allowed(txt, "bot", "/a.gif"));
}

// Section 2.2.2: an empty pattern is no rule.
#[test]
fn empty_disallow_is_no_rule() {
    let txt = "User-agent: *\nDisallow:\n";
    assert!(allowed(txt, "bot", "/anything"));
    let robots = Robots::parse(txt);
    let d = robots.explain("bot", "/anything");
    assert_eq!(d.cause(), Cause::NoMatchingRule);
}

// Section 2.2.2: paths are matched from their start, case-sensitively.
#[test]
fn patterns_match_path_prefixes_case_sensitively() {
    let txt = "User-agent: *\nDisallow: /fish\n";
    assert!(!allowed(txt, "bot", "/fish"));
    assert!(!allowed(txt, "bot", "/fish.html"));
    assert!(!allowed(txt, "bot", "/fishheads/x"));
    assert!(allowed(txt, "bot", "/Fish"));
    assert!(allowed(txt, "bot", "/catfish"));
    assert!(allowed(txt, "bot", "/?id=fish"));
}

// Section 2.2.3: `*` matches any run of octets, `$` anchors at the end.
#[test]
fn wildcard_and_end_anchor() {
    let txt = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/cache\nAllow: /$\nDisallow: /\n";
    let robots = Robots::parse(txt);
    assert!(robots.is_allowed("bot", "/"));
    assert!(!robots.is_allowed("bot", "/index.html"));
    let txt = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /tmp*/cache\n";
    let robots = Robots::parse(txt);
    assert!(!robots.is_allowed("bot", "/docs/a.pdf"));
    assert!(robots.is_allowed("bot", "/docs/a.pdf?download=1"));
    assert!(robots.is_allowed("bot", "/docs/a.pdfx"));
    assert!(!robots.is_allowed("bot", "/tmp/cache"));
    assert!(!robots.is_allowed("bot", "/tmp123/x/cache/y"));
    assert!(robots.is_allowed("bot", "/tmp/cach"));
    // A `$` that is not last is an ordinary character.
    let robots = Robots::parse("User-agent: *\nDisallow: /a$b\n");
    assert!(!robots.is_allowed("bot", "/a$b"));
    assert!(robots.is_allowed("bot", "/a"));
}

// Section 2.2.2: /robots.txt is implicitly allowed.
#[test]
fn robots_txt_is_always_allowed() {
    let robots = Robots::parse("User-agent: *\nDisallow: /\n");
    assert!(robots.is_allowed("bot", "https://example.com/robots.txt"));
    assert_eq!(
        robots.explain("bot", "/robots.txt").cause(),
        Cause::RobotsTxt
    );
    assert!(!robots.is_allowed("bot", "/robots.txt.bak"));
    assert!(Robots::disallow_all().is_allowed("bot", "/robots.txt"));
    // With a query too, the same resource; not another path that begins
    // so. Through every way a check is asked.
    let handle = robots.agent("bot");
    let owned = robots.owned_agent("bot");
    for (url, allowed) in [
        ("https://example.com/robots.txt?x=1", true),
        ("/robots.txt?", true),
        ("/robots.txtx", false),
        ("/robots.txt/", false),
    ] {
        assert_eq!(robots.is_allowed("bot", url), allowed, "{url}");
        assert_eq!(robots.explain("bot", url).allowed(), allowed, "{url}");
        assert_eq!(handle.is_allowed(url), allowed, "{url}");
        assert_eq!(owned.is_allowed(url), allowed, "{url}");
    }
}

// Section 2.2.2: "the most octets", counted in the normal form both sides
// are compared in; a departure from Google's library, which counts an
// ASCII character the normal form encodes as one octet (README).
#[test]
fn rule_length_is_counted_in_normal_form() {
    for (disallow, url) in [("/x|y", "/x|yz"), ("/x$y", "/x$yz"), ("/x y", "/x%20yz")] {
        let robots = Robots::parse(format!(
            "User-agent: *\nAllow: /x*yz\nDisallow: {disallow}\n"
        ));
        let why = robots.explain("bot", url);
        let rule = why.rule().unwrap();
        assert_eq!((rule.line(), rule.priority()), (3, 6), "{disallow}");
        assert!(!why.allowed());
    }
}

// Section 2.2.2: percent-encoding normal form, on both sides.
#[test]
fn percent_encoding_is_normalised_on_both_sides() {
    for pattern in ["/foo/ツ", "/foo/%E3%83%84", "/foo/%e3%83%84"] {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: {pattern}\n"));
        for url in [
            "/foo/ツ",
            "/foo/%E3%83%84",
            "/foo/%e3%83%84",
            "https://h/foo/ツ/x",
        ] {
            assert!(
                !robots.is_allowed("bot", url),
                "{pattern} should block {url}"
            );
        }
        assert!(robots.is_allowed("bot", "/foo/"));
    }
    // Unreserved characters are decoded ...
    let robots = Robots::parse("User-agent: *\nDisallow: /%7Euser/%62az\n");
    assert!(!robots.is_allowed("bot", "/~user/baz"));
    assert!(!robots.is_allowed("bot", "/%7euser/b%61z"));
    // ... reserved ones are not: %2F stays distinct from /.
    let robots = Robots::parse("User-agent: *\nDisallow: /a%2Fb\n");
    assert!(!robots.is_allowed("bot", "/a%2fb"));
    assert!(robots.is_allowed("bot", "/a/b"));
    let robots = Robots::parse("User-agent: *\nDisallow: /a/b\n");
    assert!(robots.is_allowed("bot", "/a%2Fb"));
}

// A literal `*` or `$` in a URL is data: it matches `%2A` / `%24` in a pattern.
#[test]
fn literal_operators_in_urls_match_their_escapes() {
    let robots = Robots::parse("User-agent: *\nDisallow: /a%2Ab\nDisallow: /price%24\n");
    assert!(!robots.is_allowed("bot", "/a*b"));
    assert!(!robots.is_allowed("bot", "/price$"));
    assert!(robots.is_allowed("bot", "/aXb"));
    assert!(robots.is_allowed("bot", "/price"));
}

// Scheme, authority and fragment are ignored; the query takes part.
#[test]
fn url_forms() {
    let robots = Robots::parse("User-agent: *\nDisallow: /search?q=\nDisallow: /x\n");
    assert!(!robots.is_allowed("bot", "https://user:pw@example.com:8443/search?q=a#frag"));
    assert!(robots.is_allowed("bot", "https://example.com/search"));
    assert!(!robots.is_allowed("bot", "//example.com/x"));
    assert!(!robots.is_allowed("bot", "/x#top"));
    assert!(robots.is_allowed("bot", "https://example.com"));
    assert!(robots.is_allowed("bot", "https://example.com/#/x"));
}

// The path checked is the one a client requests (RFC 9309 section 2.2.2
// matches "the URI path"): dot segments resolved (RFC 3986 section 5.2.4,
// as clients and servers resolve them), and what the URL standard's parser
// (reqwest's, through the `url` crate) changes besides. Google's library
// reads the text as written, which would let `/x/../private` through.
#[test]
fn paths_are_read_as_a_client_requests_them() {
    let robots = Robots::parse("User-agent: *\nDisallow: /private\nDisallow: /*'\n");
    let owned = robots.owned_agent("bot");
    for (url, allowed) in [
        ("https://example.com/x/../private", false),
        ("https://example.com/x/%2E%2e/private", false),
        ("https://example.com/./private/x", false),
        ("https://example.com/private/../x", true),
        ("https://example.com\\private", false),
        ("https://example.com/pri\tvate", false),
        ("http:/example.com/private", false),
        ("/x/../private", false),
        ("/private/..", true),
        // A segment that only starts with a dot is no dot segment.
        ("https://example.com/.private", true),
        ("https://example.com/.well-known/../private", false),
        // A query is not resolved; its `'` is sent as `%27`, its path's as
        // written.
        ("https://example.com/q?/../private", true),
        ("https://example.com/q?it's", true),
        ("https://example.com/it's", false),
    ] {
        assert_eq!(robots.is_allowed("bot", url), allowed, "{url}");
        assert_eq!(robots.agent("bot").is_allowed(url), allowed, "{url}");
        assert_eq!(owned.is_allowed(url), allowed, "{url}");
        assert_eq!(robots.explain("bot", url).allowed(), allowed, "{url}");
        // As the `url` crate reads it, where it takes the text.
        if let Ok(read) = url::Url::parse(url) {
            assert_eq!(robots.is_allowed("bot", &read), allowed, "{url} as {read}");
        }
    }
}

// Unavailable means allow all; unreachable means disallow all (section 2.3.1).
#[test]
fn access_policies() {
    let d = Robots::allow_all();
    assert!(d.is_allowed("bot", "/x"));
    assert_eq!(d.explain("bot", "/x").cause(), Cause::Unavailable);
    let d = Robots::disallow_all();
    assert!(!d.is_allowed("bot", "/x"));
    assert_eq!(d.explain("bot", "/x").cause(), Cause::Unreachable);
}
