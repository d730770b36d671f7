//! `explain` and the Display/Debug of every public type, on arbitrary bytes.
//!
//! Besides agreeing with `is_allowed`, an explanation must be at least as
//! strong as any rule known to match: for each rule of the crawler's groups a
//! URL is made from the rule's own pattern, and the deciding rule must have
//! the same or a higher priority (an `Allow` winning a tie).
//!
//! Input: as for `parse_check`.
#![no_main]

use keepout::{Cause, Directive, ParseOptions, Robots, RuleKind};
use libfuzzer_sys::fuzz_target;

mod common;

fn strength(priority: usize, kind: RuleKind) -> (usize, bool) {
    (priority, kind == RuleKind::Allow)
}

fn check(robots: &Robots, input: &common::Input<'_>) {
    let (agents, urls) = common::probes(robots, input);
    for agent in agents.iter().take(2) {
        let bot = robots.agent(agent);
        let groups: Vec<_> = bot.groups().collect();
        for rule in groups.iter().flat_map(|g| g.rules()).take(16) {
            let normal = rule.normalized();
            let urls = common::urls_for_pattern(normal);
            for (i, url) in urls.iter().enumerate() {
                let allowed = bot.is_allowed(url);
                let d = bot.explain(url);
                common::check_decision(&d, allowed);
                if i > 0 || !normal.starts_with('/') || d.cause() == Cause::RobotsTxt {
                    continue;
                }
                // Only when the URL keeps the pattern's pieces: a `%` kept
                // before a `*` (`/a%*fb`) meets the text after the `*` as
                // an escape (`/a%fb` is `/a%FB`), which the pattern's
                // pieces then no longer match.
                let path = keepout::__fuzz::normalize_path(&keepout::__fuzz::path_and_query(url));
                if path != normal.strip_suffix('$').unwrap_or(normal).replace('*', "").as_bytes() {
                    continue;
                }
                // The URL made from the pattern matches the rule, so some
                // rule decides, and it is no weaker.
                let Some(won) = d.rule() else {
                    panic!("{url:?} matches {rule:?} but {d}");
                };
                assert!(
                    strength(won.priority(), won.kind()) >= strength(rule.priority(), rule.kind()),
                    "{url:?}: {rule:?} matches and beats the decision {d}"
                );
            }
        }
        for url in &urls {
            let d = bot.explain(url);
            common::check_decision(&d, bot.is_allowed(url));
            std::hint::black_box(format!("{d} {d:?} {bot:?} {:?}", bot.agent_match()));
        }
    }
    // A shadowed rule never decides, wherever it matches.
    for s in robots.shadowed_rules().iter().take(8) {
        let (rule, by) = (s.rule(), s.by());
        assert_eq!(rule.group().index(), by.group().index());
        assert!(strength(by.priority(), by.kind()) >= strength(rule.priority(), rule.kind()));
        std::hint::black_box(format!("{s} {s:?}"));
        let Some(agent) = rule.group().agents().next() else {
            continue;
        };
        let bot = robots.agent(agent);
        if !bot.groups().any(|g| g.index() == rule.group().index()) {
            continue;
        }
        for url in common::urls_for_pattern(rule.normalized()) {
            let d = bot.explain(&url);
            assert_ne!(
                d.rule().map(|r| r.line()),
                Some(rule.line()),
                "{s} but it decides {url:?}"
            );
        }
    }
    for w in robots.warnings() {
        std::hint::black_box(format!("{w} {} {w:?}", w.kind));
    }
    for r in robots.records() {
        std::hint::black_box(format!("{r:?} {} {}", r.key, r.value));
    }
    for g in robots.groups() {
        if let Some(rate) = g.request_rate() {
            assert!(rate.requests >= 1 && !rate.per.is_zero());
            std::hint::black_box(format!("{rate} {rate:?} {:?}", rate.delay()));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let input = common::split(data);
    let robots = Robots::parse(input.body);
    check(&robots, &input);
    check(&ParseOptions::new().mk1996(true).parse(input.body), &input);

    // The values that stand for a robots.txt that could not be fetched.
    let url = input.urls.first().map_or("/x", |s| s.as_str());
    for (r, allowed) in [(Robots::allow_all(), true), (Robots::disallow_all(), false)] {
        let d = r.explain("bot", url);
        let allowed = allowed || d.cause() == Cause::RobotsTxt;
        assert_eq!(r.is_allowed("bot", url), allowed);
        common::check_decision(&d, allowed);
    }
    for d in [
        Directive::UserAgent,
        Directive::Allow,
        Directive::Disallow,
        Directive::Sitemap,
        Directive::CrawlDelay,
        Directive::RequestRate,
        Directive::Host,
    ] {
        assert_eq!(d.to_string(), d.as_str());
    }
});
