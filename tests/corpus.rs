//! Every file of the real corpus (`tests/data/corpus`) parses without panic,
//! under both parse options, and answers questions about URLs made from its
//! own rules consistently; a pathological file answers in bounded time.
//!
//! The corpus run does a fixed amount of work per file (at most
//! `MAX_RULE_URLS` rule-derived URLs, a fixed list of hostile ones, a fixed
//! list of crawler names), which the test counts and bounds; per-file times
//! are only printed (`cargo test --test corpus -- --nocapture`), never
//! asserted, so a loaded machine cannot make it fail.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "../benches/corpus/mod.rs"]
mod inputs;

use keepout::{AgentMatch, Cause, Decision, ParseOptions, Robots, RuleKind, WarningKind};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus");

/// Rule-derived URLs checked per file and crawler (rules sampled evenly).
const MAX_RULE_URLS: usize = 150;

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .expect("tests/data/corpus")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn file(prefix: &str) -> Vec<u8> {
    let path = corpus_files()
        .into_iter()
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("no corpus file {prefix}*"));
    std::fs::read(path).unwrap()
}

/// CPU time of the current thread: unlike wall-clock time, it does not grow
/// when other processes load the machine. `None` off Linux.
fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// URLs a normalised pattern is known to match: `*` dropped (or replaced by
/// text), a final `$` dropped; behind an origin, so `//x` stays a path.
fn urls_for(normalized: &str) -> [String; 2] {
    let p = normalized.strip_suffix('$').unwrap_or(normalized);
    [
        format!("https://example.com{}", p.replace('*', "")),
        format!("https://example.com{}", p.replace('*', "x/y.z")),
    ]
}

/// URLs no real robots.txt anticipates.
fn hostile_urls() -> Vec<String> {
    vec![
        String::new(),
        "/".into(),
        "?".into(),
        "#".into(),
        "%".into(),
        "%%%%%".into(),
        "/%zz%4%%41%e3%83%84%ZZ".into(),
        "/ツ/日本語/ü?q=ö#frag".into(),
        "\u{0}\u{7f}/\u{1b}[31m".into(),
        "//".into(),
        "///a".into(),
        "http://".into(),
        "mailto:x@y".into(),
        "https://user:pw@h:99999/a/../b/./c".into(),
        format!("/{}", "a".repeat(8191)),
        format!("/{}", "%".repeat(8191)),
        format!("/{}", "%2".repeat(2730)),
        format!("/{}", "%e3%83%84".repeat(910)),
        format!("/{}", "*$".repeat(4095)),
        format!("/{}", "ツ".repeat(2730)),
        format!(
            "https://example.com/{}?{}",
            "x/".repeat(2048),
            "q=1&".repeat(1024)
        ),
    ]
}

/// The decision agrees with `allowed` and explains itself coherently.
fn check_decision(d: &Decision<'_>, allowed: bool, ctx: &dyn Fn() -> String) {
    assert_eq!(d.allowed(), allowed, "explain != is_allowed: {}", ctx());
    match d.cause() {
        Cause::Rule => {
            let r = d.rule().unwrap_or_else(|| panic!("no rule: {}", ctx()));
            let kind = if allowed {
                RuleKind::Allow
            } else {
                RuleKind::Disallow
            };
            assert_eq!(r.kind(), kind, "{}", ctx());
            assert!(
                d.groups().any(|g| g.index() == r.group().index()),
                "{}",
                ctx()
            );
        }
        Cause::NoGroup => {
            assert!(allowed && d.groups().len() == 0 && d.agent_match() == AgentMatch::None)
        }
        Cause::NoMatchingRule | Cause::RobotsTxt => assert!(allowed && d.rule().is_none()),
        other => panic!("unexpected cause {other:?} for parsed rules: {}", ctx()),
    }
    let text = d.to_string();
    assert!(text.starts_with(if allowed { "allowed" } else { "disallowed" }));
}

/// Parses one body with one option set and checks it; returns the number of
/// questions asked.
fn check_body(name: &str, body: &[u8], robots: &Robots) -> usize {
    let lines = body.iter().filter(|&&b| b == b'\n' || b == b'\r').count() as u32 + 1;
    let mut asked = 0;
    // Views and Display run on everything.
    for g in robots.groups() {
        assert!(g.agents().len() > 0, "{name}: group without agents");
        let _ = (
            g.to_string(),
            format!("{g:?}"),
            g.crawl_delay(),
            g.request_rate(),
        );
        for r in g.rules() {
            assert!(
                r.line() > g.line() && r.line() <= lines,
                "{name}: rule line {}",
                r.line()
            );
            assert_eq!(r.group().index(), g.index());
            assert!(r.normalized().is_ascii() && !r.normalized().is_empty());
            let _ = (r.to_string(), format!("{r:?}"));
        }
    }
    for w in robots.warnings() {
        assert!(
            w.line >= 1 && w.line <= lines,
            "{name}: warning line {}",
            w.line
        );
        let _ = w.to_string();
    }
    let _ = (
        robots.sitemaps().count(),
        robots.records().len(),
        robots.heap_bytes(),
    );

    // Crawler names: a stranger, a common crawler, and the file's own.
    let mut agents = vec![
        "SomeNewBot/0.1".to_string(),
        "Googlebot/2.1 (+http://www.google.com/bot.html)".to_string(),
    ];
    agents.extend(
        robots
            .groups()
            .flat_map(|g| g.agents())
            .take(2)
            .map(String::from),
    );
    for (k, agent) in agents.iter().enumerate() {
        let bot = robots.agent(agent);
        let owned = robots.owned_agent(agent);
        let rules: Vec<_> = bot.groups().flat_map(|g| g.rules()).collect();
        let step = rules.len().div_ceil(MAX_RULE_URLS).max(1);
        for rule in rules.iter().step_by(step) {
            for (i, url) in urls_for(rule.normalized()).iter().enumerate() {
                let allowed = robots.is_allowed(agent, url);
                assert_eq!(bot.is_allowed(url), allowed, "{name}: {agent} {url}");
                assert_eq!(
                    owned.is_allowed(url),
                    allowed,
                    "{name}: owned {agent} {url}"
                );
                let d = bot.explain(url);
                assert_eq!(
                    owned.explain(url).rule().map(|r| r.line()),
                    d.rule().map(|r| r.line()),
                    "{name}: owned {agent} {url}"
                );
                let ctx = || format!("{name}: {agent:?} {url:?} ({rule:?})");
                check_decision(&d, allowed, &ctx);
                asked += 1;
                // The URL made from the rule's own pattern matches the rule,
                // so the decision is that rule or a stronger one (unless a
                // client reads it as another path: `/*.$` makes `/.`).
                if i == 0
                    && rule.normalized().starts_with('/')
                    && d.cause() != Cause::RobotsTxt
                    && !has_dot_segment(url)
                {
                    let won = d.rule().unwrap_or_else(|| panic!("no match: {}", ctx()));
                    let strength =
                        |r: &keepout::RuleView<'_>| (r.priority(), r.kind() == RuleKind::Allow);
                    assert!(strength(&won) >= strength(rule), "{} won by {won:?}", ctx());
                }
            }
        }
        // The 8 KiB URLs cost most in debug builds: one crawler is enough.
        for url in hostile_urls()
            .into_iter()
            .filter(|u| k == 0 || u.len() < 1000)
        {
            let allowed = robots.is_allowed(agent, &url);
            let ctx = || format!("{name}: {agent:?} {url:?}");
            check_decision(&bot.explain(&url), allowed, &ctx);
            asked += 1;
        }
        assert!(
            bot.is_allowed("/robots.txt"),
            "{name}: /robots.txt disallowed"
        );
        assert_eq!(robots.crawl_delay(agent), bot.crawl_delay());
        assert_eq!(owned.crawl_delay(), bot.crawl_delay());
        assert_eq!(owned.agent_match(), bot.agent_match());
    }
    // A rule reported as shadowed never decides, even for URLs made from
    // its own pattern.
    for s in robots.shadowed_rules() {
        let rule = s.rule();
        assert_eq!(rule.group().index(), s.by().group().index(), "{name}: {s}");
        let agent = rule.group().agents().next().unwrap_or_default();
        let bot = robots.agent(agent);
        if !bot.groups().any(|g| g.index() == rule.group().index()) {
            continue;
        }
        for url in urls_for(rule.normalized()) {
            let d = bot.explain(&url);
            assert_ne!(
                d.rule().map(|r| r.line()),
                Some(rule.line()),
                "{name}: {s}: {url}"
            );
            asked += 1;
        }
    }
    asked
}

#[test]
fn every_corpus_file_parses_and_answers_consistently() {
    let files = corpus_files();
    assert_eq!(files.len(), 349, "the corpus has 349 files");
    let mut asked = 0;
    let mut slowest = (Duration::ZERO, String::new());
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let body = std::fs::read(path).unwrap();
        let start = Instant::now();
        for robots in [
            Robots::parse(&body),
            ParseOptions::new().mk1996(true).parse(&body),
        ] {
            asked += check_body(&name, &body, &robots);
        }
        let took = start.elapsed();
        if took > slowest.0 {
            slowest = (took, name.clone());
        }
        eprintln!("{name}: {took:?}");
    }
    // Bounded work: per file and option, at most 4 crawlers x
    // (2 URLs x MAX_RULE_URLS rules + the hostile URLs), and 2 URLs per
    // shadowed rule.
    let shadowed: usize = files
        .iter()
        .map(|p| {
            let body = std::fs::read(p).unwrap();
            let mk1996 = ParseOptions::new().mk1996(true).parse(&body);
            Robots::parse(&body).shadowed_rules().len() + mk1996.shadowed_rules().len()
        })
        .sum();
    let bound = files.len() * 2 * 4 * (2 * MAX_RULE_URLS + hostile_urls().len()) + 2 * shadowed;
    assert!(
        asked > 10_000 && asked <= bound,
        "{asked} questions, bound {bound}"
    );
    eprintln!(
        "{asked} questions; slowest file {} ({:?})",
        slowest.1, slowest.0
    );
}

#[test]
fn utf16_files_yield_their_rules() {
    // UTF-16LE with a byte order mark: transcoded, then parsed as usual.
    let usps = Robots::parse(file("299_"));
    assert_eq!(usps.groups().map(|g| g.rules().len()).sum::<usize>(), 10);
    assert!(!usps.is_allowed("AnyBot", "https://store.usps.com/store/cart/x"));
    assert!(usps.is_allowed("AnyBot", "https://store.usps.com/store/product/x"));
    assert_eq!(
        usps.sitemaps().collect::<Vec<_>>(),
        ["https://store.usps.com/store/siteindex.xml"]
    );
    let vue = Robots::parse(file("300_"));
    assert_eq!(vue.groups().map(|g| g.rules().len()).sum::<usize>(), 2);
    assert!(!vue.is_allowed("AnyBot", "/login.aspx"));
    assert!(!vue.is_allowed("AnyBot", "/book-tickets/summary/1"));
    assert!(vue.is_allowed("AnyBot", "/films"));
    assert_eq!(vue.sitemaps().len(), 1);
    for robots in [&usps, &vue] {
        let first = &robots.warnings()[0];
        assert_eq!(
            (first.line, &first.kind),
            (
                1,
                &WarningKind::NotUtf8 {
                    encoding: "UTF-16LE"
                }
            )
        );
    }
}

#[test]
fn nul_byte_file_keeps_its_rules() {
    let body = file("310_");
    assert!(body.contains(&0));
    let robots = Robots::parse(&body);
    let n: usize = robots.groups().map(|g| g.rules().len()).sum();
    assert!(n >= 250, "{n} rules");
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| w.kind == keepout::WarningKind::NulByte)
    );
}

#[test]
fn one_line_group_is_a_star_group() {
    // `User-agent: * Disallow: /` on one line: Google reads the agent as `*`
    // (a `*` followed by whitespace), and the rest is part of the value.
    let robots = Robots::parse(file("284_"));
    let groups: Vec<_> = robots.groups().collect();
    assert_eq!(groups.len(), 1);
    assert!(groups[0].is_global());
    assert_eq!(groups[0].rules().len(), 0);
    assert!(robots.is_allowed("AnyBot", "/anything"));
}

#[test]
fn files_that_are_not_robots_txt_yield_no_rules() {
    for prefix in ["301_", "302_", "303_"] {
        let body = file(prefix);
        for robots in [
            Robots::parse(&body),
            ParseOptions::new().mk1996(true).parse(&body),
        ] {
            assert_eq!(robots.groups().len(), 0, "{prefix}");
            assert!(robots.is_allowed("AnyBot", "/private/x"), "{prefix}");
            assert_eq!(robots.explain("AnyBot", "/x").cause(), Cause::NoGroup);
        }
    }
}

/// Asked of the pathological files below.
fn long_urls() -> Vec<String> {
    let mut urls = vec!["/".to_string(), "/a".to_string(), "/b".to_string()];
    for n in [1024, 8191] {
        urls.push(format!("/{}", "a".repeat(n)));
        urls.push(format!("/{}b", "a".repeat(n - 1)));
        urls.push(format!("/{}", "ab".repeat(n / 2)));
        urls.push(format!("/{}", "ba".repeat(n / 2)));
        urls.push(format!("/{}", "b".repeat(n)));
        urls.push(format!("/{}", "*a".repeat(n / 2)));
        urls.push(format!("/{}", "%61".repeat(n / 3)));
    }
    urls
}

/// The pathological bodies: 500 KiB of wildcard-heavy rules in several
/// shapes, and one 500 KiB pattern line.
fn pathological_bodies() -> Vec<(&'static str, String)> {
    const SIZE: usize = 500 * 1024;
    let mut out = Vec::new();
    let mut lines = |name: &'static str, line: &dyn Fn(usize) -> String| {
        let mut body = String::from("User-agent: *\n");
        let mut i = 0;
        while body.len() < SIZE {
            body.push_str(&line(i));
            body.push('\n');
            i += 1;
        }
        out.push((name, body));
    };
    // Short rules, each needing a scan of the whole URL: many of them.
    lines("short `/*a*a*a*b` rules", &|i| {
        format!("Disallow: /*a*a*a{}b", "*a".repeat(i % 7))
    });
    // Medium rules with a long run of `*a`, ending in a miss.
    lines("200-octet `*a` rules", &|_| {
        format!("Disallow: /{}b$", "*a".repeat(100))
    });
    // Lines at the line-length limit.
    lines("16 KiB `*a` rules", &|_| {
        format!("Disallow: /{}", "*a".repeat(8320))
    });
    // Rules that differ, so the prefix index has many entries.
    lines("indexed `/x{i}*a*b` rules", &|i| {
        format!("Allow: /{}*a*a*b$", i % 5000)
    });
    // Runs of spaces inside a value (data, each escaped as `%20`), after
    // a `$` or a `%` that starts no escape too: once scanned again from
    // each space, quadratic (80 s for one 500 KiB line in release).
    for (name, before) in [
        ("500 KiB of spaces in a pattern", "/"),
        ("500 KiB of spaces after `$`", "/a$"),
        ("500 KiB of spaces after `%`", "/a%"),
    ] {
        out.push((
            name,
            format!(
                "User-agent: *\nDisallow: {before}{}x\n",
                " \t".repeat(SIZE / 2)
            ),
        ));
    }
    out.push((
        "one 500 KiB pattern line",
        format!("User-agent: *\nDisallow: /{}\n", "*a".repeat(SIZE / 2)),
    ));
    out
}

#[test]
fn pathological_wildcard_files_answer_fast() {
    // Bound on this thread's CPU time (not wall-clock time, which a loaded
    // machine stretches), per file: parse plus 17 URLs asked twice. Measured
    // on a 2-core machine: at most about 0.1 s in release builds, 8.5 s in
    // debug builds (memchr's SIMD search unoptimised is some 80x slower).
    // A quadratic matcher would take minutes even in release.
    let bound = if cfg!(debug_assertions) {
        Duration::from_secs(40)
    } else {
        Duration::from_secs(1)
    };
    let urls = long_urls();
    for (name, body) in pathological_bodies() {
        let start = Instant::now();
        let cpu = thread_cpu_time();
        let robots = Robots::parse(&body);
        let parsed = start.elapsed();
        let rules: usize = robots.groups().map(|g| g.rules().len()).sum();
        assert!(rules >= 1, "{name}");
        let bot = robots.agent("bot");
        let mut decisions = 0;
        for url in &urls {
            let allowed = bot.is_allowed(url);
            assert_eq!(bot.explain(url).allowed(), allowed);
            decisions += 1;
        }
        let wall = start.elapsed();
        let cpu = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a);
        eprintln!(
            "{name}: {} KiB, {rules} rules, parse {parsed:?}, {decisions} URLs x2 in {wall:?} \
             wall, {cpu:?} CPU",
            body.len() / 1024
        );
        if let Some(cpu) = cpu {
            assert!(cpu < bound, "{name}: {cpu:?} CPU, bound {bound:?}");
        }
    }
}

#[test]
fn hostile_wildcard_files_answer_in_bounded_time() {
    // The files of `benches/matching.rs` whose 18,000-odd rules each pass
    // every cheap test and then cost a search of the URL: 36 to 62 ms a
    // check when each rule searched (0.7 to 1.3 s for the 21 checks below),
    // under 5 ms once a check answers from one scan of the URL for all the
    // rules (see `src/matcher/pieces.rs`). Bound on this thread's CPU time
    // per file, parse and the automaton's build included. Measured on a
    // 2-core machine: 20 to 100 ms in release builds, 0.18 to 0.42 s in
    // debug builds; searching each rule, 0.74 s and more in release.
    let bound = if cfg!(debug_assertions) {
        Duration::from_secs(8)
    } else {
        Duration::from_millis(400)
    };
    let (late, late_url) = inputs::late_pieces();
    let files = [
        (
            "short_pieces",
            inputs::short_pieces_body(),
            inputs::adversarial_url(),
        ),
        (
            "short_pieces, short URL",
            inputs::short_pieces_body(),
            inputs::short_adversarial_url(),
        ),
        ("late_pieces", late, late_url),
    ];
    for (name, body, url) in files {
        let cpu = thread_cpu_time();
        let start = Instant::now();
        let robots = Robots::parse(&body);
        let bot = robots.agent("bot");
        let parsed = start.elapsed();
        let allowed = bot.is_allowed(&url);
        let first = start.elapsed() - parsed;
        for _ in 0..9 {
            assert_eq!(bot.is_allowed(&url), allowed, "{name}");
        }
        for _ in 0..5 {
            assert_eq!(robots.is_allowed("bot", &url), allowed, "{name}");
            assert_eq!(bot.explain(&url).allowed(), allowed, "{name}");
        }
        // Every rule is an `Allow` that no URL here matches.
        assert!(allowed);
        assert_eq!(bot.explain(&url).cause(), Cause::NoMatchingRule, "{name}");
        let cpu = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a);
        let checks = start.elapsed() - parsed;
        // A rule the URL does match, after the thousands that pass every
        // cheap test, decides through the scan as it would by searching.
        let c = url.rfind('c').unwrap_or(url.len() - 40);
        let piece = &url[c + 10..c + 26];
        let decided = Robots::parse(format!("{body}Disallow: /*{piece}\n"));
        let bot = decided.agent("bot");
        assert!(!bot.is_allowed(&url), "{name}");
        let rule = bot.explain(&url).rule().expect("a rule decides");
        assert_eq!(rule.pattern(), format!("/*{piece}"), "{name}");
        eprintln!(
            "{name}: parse and handle {parsed:?}, first check {first:?}, all 21 checks of a \
             {}-byte URL {checks:?} wall, {cpu:?} CPU",
            url.len(),
        );
        if let Some(cpu) = cpu {
            assert!(cpu < bound, "{name}: {cpu:?} CPU, bound {bound:?}");
        }
    }
}

/// Asking each of a group's crawlers for its crawl-delay, in a group of
/// many runs of user-agent lines each with its own value (`keepout show`
/// asks every crawler of every group): each answer is found by binary
/// search, where it was once found by walking the group's runs, quadratic
/// over the crawlers (100,000 of them: 18 s of CPU in a debug build).
#[test]
fn each_crawlers_delay_in_a_group_of_many_runs_is_found_fast() {
    const CRAWLERS: usize = 100_000;
    let body: String = (0..CRAWLERS)
        .map(|i| format!("User-agent: a{i}\nCrawl-delay: {}\n", i % 50 + 1))
        .collect();
    let robots = Robots::parse(&body);
    let cpu = thread_cpu_time();
    for i in 0..CRAWLERS {
        let delay = robots.crawl_delay(&format!("a{i}"));
        assert_eq!(delay, Some(Duration::from_secs(i as u64 % 50 + 1)), "a{i}");
    }
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured: 0.3 s in a debug build.
        assert!(cpu < Duration::from_secs(3), "{cpu:?}");
    }
}

/// URLs of 1 MiB (128 KiB in a debug build) made of the octets the URL
/// reader stops at: each is read once. A path of `'` was once searched for
/// a `?` again from its start at each `'`, quadratic (1.7 s for 512 KiB in
/// release; found by review).
#[test]
fn hostile_urls_are_read_in_linear_time() {
    // Less in a debug build, where a stop at each `'` costs some 2 µs.
    let (len, bound) = if cfg!(debug_assertions) {
        (128 << 10, Duration::from_secs(30))
    } else {
        (1 << 20, Duration::from_secs(2))
    };
    // Allowed: only a path ending in `'`.
    let robots = Robots::parse("User-agent: *\nDisallow: /\nAllow: /*'$\n");
    let bot = robots.agent("bot");
    let cpu = thread_cpu_time();
    // A `'` in the query is sent as `%27`; `\` read as `/`.
    for (start, piece, allowed) in [
        ("/", "'", true),
        ("/", "a'", true),
        ("/", "/'", true),
        ("/?", "'", false),
        ("/", "/.a", false),
        ("/", "%zz", false),
        ("/", "\\", false),
    ] {
        let rest = format!("{start}{}", piece.repeat(len / piece.len()));
        for url in [rest.clone(), format!("https://example.com{rest}")] {
            assert_eq!(bot.is_allowed(&url), allowed, "{start}{piece}");
            assert_eq!(bot.explain(&url).allowed(), allowed, "{start}{piece}");
            assert_eq!(robots.is_allowed("bot", &url), allowed, "{start}{piece}");
        }
    }
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured on a 2-core machine: 0.3 s release, 4 s debug; before,
        // 76 s release.
        assert!(cpu < bound, "{cpu:?}");
    }
}

/// Each crawler's delay in one group of many runs of user-agent lines whose
/// own values are all invalid, the group's one valid value written last:
/// every crawler falls back to it, found by binary search, where it was
/// once found by walking the group's runs for each crawler, quadratic over
/// them (`keepout show` asks each crawler of a group).
#[test]
fn each_crawlers_fallback_delay_in_a_group_of_many_runs_is_found_fast() {
    const CRAWLERS: usize = 40_000;
    let mut body: String = (0..CRAWLERS)
        .map(|i| format!("User-agent: a{i}\nCrawl-delay: soon\nRequest-rate: 1/{i}x\n"))
        .collect();
    body.push_str("Crawl-delay: 7\nRequest-rate: 1/9s\nDisallow: /\n");
    let robots = Robots::parse(&body);
    let group = robots.groups().next().expect("one group");
    assert_eq!(group.crawl_delay(), Some(Duration::from_secs(7)));
    let cpu = thread_cpu_time();
    for i in 0..CRAWLERS {
        let name = format!("a{i}");
        assert_eq!(
            robots.crawl_delay(&name),
            Some(Duration::from_secs(7)),
            "{name}"
        );
        let rate = robots.request_rate(&name).map(|r| r.per);
        assert_eq!(rate, Some(Duration::from_secs(9)), "{name}");
        assert_eq!(group.crawl_delay(), Some(Duration::from_secs(7)));
    }
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured: 0.22 s in a debug build (25 s before).
        assert!(cpu < Duration::from_secs(3), "{cpu:?}");
    }
}

/// Explaining a decision among many twin groups (groups repeating the
/// rules of the one before, which share their patterns): the deciding rule
/// is the first twin's, found by binary search, where it was once found by
/// searching every twin (40,000 of them: 178 µs an explanation in a
/// release build, against 0.27 µs now).
#[test]
fn explaining_among_many_twin_groups_is_fast() {
    const TWINS: usize = 40_000;
    let body =
        "User-agent: *\nDisallow: /private/area\nAllow: /private/area/open\n\n".repeat(TWINS);
    let robots = Robots::parse(&body);
    // Builds the index over the `*` groups.
    let bot = robots.agent("bot");
    let cpu = thread_cpu_time();
    for i in 0..2_000 {
        let (url, line) = if i % 2 == 0 {
            ("/private/area/x", 2)
        } else {
            ("/private/area/open/x", 3)
        };
        let why = bot.explain(url);
        assert_eq!(why.rule().map(|r| r.line()), Some(line), "{url}");
        assert_eq!(why.rule().map(|r| r.group().line()), Some(1), "{url}");
    }
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured: 0.008 s of CPU in a debug build, 14.7 s before.
        assert!(cpu < Duration::from_secs(2), "{cpu:?}");
    }
}

/// Telling whether a `*` group's rules were skipped, among thousands of
/// groups each naming `*` and the crawler: one walk over both lists of
/// groups, where each `*` group was once a search of the crawler's groups
/// (270 µs a call in a release build for 11,625 such groups, 16 µs now).
#[test]
fn star_rules_skipped_among_many_shared_groups_is_fast() {
    const GROUPS: usize = 11_000;
    let body: String = (0..GROUPS)
        .map(|i| format!("User-agent: *\nUser-agent: crawler\nDisallow: /x{i}/\n"))
        .collect();
    let robots = Robots::parse(&body);
    let crawler = robots.agent("crawler");
    let cpu = thread_cpu_time();
    for _ in 0..1_000 {
        let why = crawler.explain("/elsewhere");
        assert!(why.allowed() && !why.star_rules_skipped());
        assert_eq!(why.groups().len(), GROUPS);
    }
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured: 0.31 s of CPU in a debug build, 2.5 s before.
        assert!(cpu < Duration::from_millis(1_200), "{cpu:?}");
    }
    // One `*` group that does not name the crawler, last, is still seen.
    let body = format!("{body}User-agent: *\nDisallow: /y\n");
    assert!(
        Robots::parse(&body)
            .explain("crawler", "/y")
            .star_rules_skipped()
    );
}

/// A pattern's `'` after a `?` is written `%27` (the query, as a client
/// sends it): each octet is searched for a `?` once, however many `'`
/// there are, where each `'` once searched the pattern from its start.
#[test]
fn patterns_full_of_quotes_parse_in_linear_time() {
    let line = format!("Disallow: /{}?'\n", "'".repeat(16_000));
    let body = format!("User-agent: *\n{}", line.repeat(30));
    let cpu = thread_cpu_time();
    let robots = Robots::parse(&body);
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured: 0.13 s of CPU in a debug build, 7.8 s before.
        assert!(cpu < Duration::from_secs(1), "{cpu:?}");
    }
    let url = format!("/{}?'", "'".repeat(16_000));
    assert!(!robots.is_allowed("bot", &url));
}

/// Sitemap lines whose hosts have labels of 1,000 CJK characters: the
/// parser tells they are no URLs to fetch (no DNS label is that long)
/// without the URL parser's IDNA step, whose punycode costs the square of a
/// label's length. (A 500 KiB file of them took 200-375 ms to parse in a
/// release build, against 2 ms for plain sitemap lines.)
#[test]
fn sitemap_hosts_with_huge_labels_parse_in_linear_time() {
    let label: String = (0..1000u32)
        .filter_map(|i| char::from_u32(0x4E00 + i))
        .collect();
    let line = format!("Sitemap: http://{0}.{0}.{0}.{0}.{0}/s.xml\n", label);
    let body = line.repeat(512_000 / line.len());
    let cpu = thread_cpu_time();
    let robots = Robots::parse(&body);
    let urls = robots.sitemap_urls();
    if let Some(cpu) = cpu.zip(thread_cpu_time()).map(|(a, b)| b - a) {
        // Measured (parse and `sitemap_urls`): 0.10 s of CPU in a debug
        // build, 8.5 s before.
        assert!(cpu < Duration::from_secs(1), "{cpu:?}");
    }
    assert!(urls.is_empty());
    assert_eq!(robots.sitemaps().len(), 512_000 / line.len());
    assert_eq!(robots.warnings().len(), robots.sitemaps().len());
}

#[test]
fn corpus_dir_is_where_the_readme_says() {
    assert!(Path::new(CORPUS).join("README.md").exists());
    assert!(Path::new(CORPUS).join("SOURCES.tsv").exists());
}

/// Whether `url`'s path holds a `.` or `..` segment, which a client
/// resolves (`/a/../b` is `/b`).
fn has_dot_segment(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = &rest[rest.find('/').unwrap_or(rest.len())..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.split('/').any(|s| s == "." || s == "..")
}
