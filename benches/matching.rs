//! keepout against texting_robots and robotstxt, on the same inputs, in one
//! run: `cargo bench --bench matching`.
//!
//! Groups (each reads as a ratio: same input, same throughput unit):
//!
//! - `parse/rest`, `parse/oracle`: every corpus file (bytes/s). keepout's
//!   parse alone; parse plus the first check (which scans a large group:
//!   its prefix index is built once checks have cost as much); parse plus
//!   an agent handle and one check (the handle builds the prefix indexes
//!   of its groups at once); texting_robots's `Robot::new` for one agent;
//!   robotstxt's tokenizer with a no-op handler (it builds nothing).
//! - `check/rest`, `check/oracle`: the same shuffled (file, URL) list for
//!   every library (checks/s). robotstxt re-parses the file per check, so it
//!   runs on a fixed uniform sample of the list (every 8th pair).
//! - `first_checks`: the files but the oracle's, each parsed and checked N
//!   times, through `Robots::is_allowed` (large groups scanned until their
//!   index is worth building) and through a handle made at once.
//! - `adversarial`: one check of an 8 KiB URL against a 500 KiB file; and
//!   against the worst files known (`short_pieces`, with a 199-byte URL
//!   too, and `late_pieces`).
//!
//! A summary of the ratios, read back from criterion's estimates, is printed
//! at the end.

mod corpus;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput};
use keepout::Robots;

use corpus::{AGENT, File};

struct Set {
    label: &'static str,
    files: Vec<File>,
    bytes: u64,
    pairs: Vec<(usize, String)>,
}

fn sets() -> Vec<Set> {
    let (oracle, rest): (Vec<File>, Vec<File>) = corpus::load()
        .into_iter()
        .partition(|f| f.name == corpus::ORACLE);
    [("rest", rest), ("oracle", oracle)]
        .into_iter()
        .map(|(label, files)| {
            let bytes = files.iter().map(|f| f.body.len() as u64).sum();
            let pairs = corpus::pairs(&files);
            Set {
                label,
                files,
                bytes,
                pairs,
            }
        })
        .collect()
}

/// A robotstxt parse handler that does nothing: the tokenizer alone.
struct Nop;

impl robotstxt::RobotsParseHandler for Nop {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, _: &str) {}
    fn handle_allow(&mut self, _: u32, _: &str) {}
    fn handle_disallow(&mut self, _: u32, _: &str) {}
    fn handle_sitemap(&mut self, _: u32, _: &str) {}
    fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
}

fn bench_parse(c: &mut Criterion, sets: &[Set]) {
    let mut g = c.benchmark_group("parse");
    for set in sets {
        let errors = set
            .files
            .iter()
            .filter(|f| texting_robots::Robot::new(AGENT, &f.body).is_err())
            .count();
        println!(
            "parse/{}: {} files, {} bytes; texting_robots returns Err for {} of them (timed all the same)",
            set.label,
            set.files.len(),
            set.bytes,
            errors
        );
        g.throughput(Throughput::Bytes(set.bytes));
        g.bench_function(BenchmarkId::new("keepout", set.label), |b| {
            b.iter(|| {
                for f in &set.files {
                    black_box(Robots::parse(black_box(&f.body)));
                }
            })
        });
        g.bench_function(BenchmarkId::new("keepout_first_check", set.label), |b| {
            b.iter(|| {
                for f in &set.files {
                    let r = Robots::parse(black_box(&f.body));
                    black_box(r.is_allowed(AGENT, "https://example.com/"));
                }
            })
        });
        // An agent handle builds the prefix indexes of its groups at once:
        // what the index costs, whenever checks come to pay for it.
        g.bench_function(BenchmarkId::new("keepout_indexed", set.label), |b| {
            b.iter(|| {
                for f in &set.files {
                    let r = Robots::parse(black_box(&f.body));
                    black_box(r.agent(AGENT).is_allowed("https://example.com/"));
                }
            })
        });
        g.bench_function(BenchmarkId::new("texting_robots", set.label), |b| {
            b.iter(|| {
                for f in &set.files {
                    let _ = black_box(texting_robots::Robot::new(AGENT, black_box(&f.body)));
                }
            })
        });
        g.bench_function(BenchmarkId::new("robotstxt_tokenize", set.label), |b| {
            b.iter(|| {
                for f in &set.files {
                    robotstxt::parse_robotstxt(black_box(&f.text), &mut Nop);
                }
            })
        });
    }
    g.finish();
}

fn bench_check(c: &mut Criterion, sets: &[Set]) {
    let mut g = c.benchmark_group("check");
    // robotstxt takes seconds per pass over the list: one pass per sample.
    g.sampling_mode(SamplingMode::Flat);
    for set in sets {
        let robots: Vec<Robots> = set.files.iter().map(|f| Robots::parse(&f.body)).collect();
        let handles: Vec<keepout::Agent<'_>> = robots.iter().map(|r| r.agent(AGENT)).collect();
        let texting: Vec<Option<texting_robots::Robot>> = set
            .files
            .iter()
            .map(|f| texting_robots::Robot::new(AGENT, &f.body).ok())
            .collect();
        let skipped = set
            .pairs
            .iter()
            .filter(|(i, _)| texting[*i].is_none())
            .count();
        // Agreement, as a sanity check that all answer the same question.
        let mut differ = [0usize; 2];
        for (n, (i, url)) in set.pairs.iter().enumerate() {
            let k = handles[*i].is_allowed(url);
            if let Some(t) = &texting[*i]
                && t.allowed(url) != k
            {
                differ[0] += 1;
            }
            let mut m = robotstxt::DefaultMatcher::default();
            if n % ROBOTSTXT_STRIDE == 0
                && m.one_agent_allowed_by_robots(&set.files[*i].text, AGENT, url) != k
            {
                differ[1] += 1;
            }
        }
        println!(
            "check/{}: {} checks over {} files (robotstxt: every {}th, {} checks); texting_robots \
             cannot parse the files of {} of them (counted, not run); answers differing from \
             keepout: texting_robots {}, robotstxt {}",
            set.label,
            set.pairs.len(),
            set.files.len(),
            ROBOTSTXT_STRIDE,
            robotstxt_checks(set),
            skipped,
            differ[0],
            differ[1]
        );
        g.throughput(Throughput::Elements(set.pairs.len() as u64));
        g.sample_size(20);
        g.bench_function(BenchmarkId::new("handle", set.label), |b| {
            b.iter(|| {
                let mut n = 0usize;
                for (i, url) in &set.pairs {
                    n += handles[*i].is_allowed(black_box(url)) as usize;
                }
                n
            })
        });
        g.bench_function(BenchmarkId::new("is_allowed", set.label), |b| {
            b.iter(|| {
                let mut n = 0usize;
                for (i, url) in &set.pairs {
                    n += robots[*i].is_allowed(AGENT, black_box(url)) as usize;
                }
                n
            })
        });
        g.bench_function(BenchmarkId::new("texting_robots", set.label), |b| {
            b.iter(|| {
                let mut n = 0usize;
                for (i, url) in &set.pairs {
                    if let Some(t) = &texting[*i] {
                        n += t.allowed(black_box(url)) as usize;
                    }
                }
                n
            })
        });
        // robotstxt re-parses the whole file per check (seconds per pass
        // over the list), so it runs on every ROBOTSTXT_STRIDE-th pair of the
        // same shuffled list: a uniform sample, with its own element count.
        g.sample_size(10);
        g.throughput(Throughput::Elements(robotstxt_checks(set) as u64));
        g.bench_function(BenchmarkId::new("robotstxt", set.label), |b| {
            b.iter(|| {
                let mut n = 0usize;
                for (i, url) in set.pairs.iter().step_by(ROBOTSTXT_STRIDE) {
                    let mut m = robotstxt::DefaultMatcher::default();
                    n += m.one_agent_allowed_by_robots(&set.files[*i].text, AGENT, black_box(url))
                        as usize;
                }
                n
            })
        });
    }
    g.finish();
}

/// robotstxt checks every this-many-th pair of the list (see bench_check).
const ROBOTSTXT_STRIDE: usize = 8;

fn robotstxt_checks(set: &Set) -> usize {
    set.pairs.len().div_ceil(ROBOTSTXT_STRIDE)
}

/// How many checks a file gets before its prefix indexes are built
/// (see `matcher::rent` in the crate): the 345 files, each parsed and then
/// checked N times with its own URLs through `Robots::is_allowed`, which
/// scans a large group until the scans have cost about what its index
/// would, then builds it; against the same after an agent handle has built
/// the indexes at once.
const FIRST_CHECKS: [usize; 5] = [1, 4, 16, 64, 256];

fn bench_first_checks(c: &mut Criterion, set: &Set) {
    let urls: Vec<Vec<String>> = set
        .files
        .iter()
        .map(|f| corpus::urls_for(&f.body))
        .collect();
    let mut g = c.benchmark_group("first_checks");
    for n in FIRST_CHECKS {
        g.bench_function(BenchmarkId::new("scan_first", n), |b| {
            b.iter(|| {
                for (f, urls) in set.files.iter().zip(&urls) {
                    let r = Robots::parse(black_box(&f.body));
                    for url in urls.iter().cycle().take(n) {
                        black_box(r.is_allowed(AGENT, url));
                    }
                }
            })
        });
        g.bench_function(BenchmarkId::new("build_at_once", n), |b| {
            b.iter(|| {
                for (f, urls) in set.files.iter().zip(&urls) {
                    let r = Robots::parse(black_box(&f.body));
                    // The handle builds the indexes; the checks go the same
                    // way as the other's.
                    black_box(r.agent(AGENT));
                    for url in urls.iter().cycle().take(n) {
                        black_box(r.is_allowed(AGENT, url));
                    }
                }
            })
        });
    }
    g.finish();
}

fn bench_adversarial(c: &mut Criterion) {
    let body = corpus::adversarial_body();
    let url = corpus::adversarial_url();
    let robots = Robots::parse(&body);
    let rules: usize = robots.groups().map(|g| g.rules().len()).sum();
    let texting = texting_robots::Robot::new(AGENT, body.as_bytes());
    println!(
        "adversarial: {} byte file, {} rules, {} byte URL; allowed = {} ({:?}); \
         texting_robots: {}; robotstxt: not run (a trial single check ran over 5 minutes: \
         its matcher is O(pattern x path) per rule)",
        body.len(),
        rules,
        url.len(),
        robots.is_allowed(AGENT, &url),
        robots.explain(AGENT, &url).cause(),
        match &texting {
            Ok(_) => "parsed".to_string(),
            Err(e) => format!(
                "Robot::new returns Err ({})",
                e.to_string().chars().take(40).collect::<String>()
            ),
        }
    );
    let handle = robots.agent(AGENT);
    let mut g = c.benchmark_group("adversarial");
    g.throughput(Throughput::Elements(1));
    g.bench_function("handle", |b| b.iter(|| handle.is_allowed(black_box(&url))));
    g.bench_function("is_allowed", |b| {
        b.iter(|| robots.is_allowed(AGENT, black_box(&url)))
    });
    // The worst cases known: short rules with a distinct piece each, and
    // (below) pieces all in the path before where each rule looks for them.
    let short = Robots::parse(corpus::short_pieces_body());
    let short_url = corpus::short_adversarial_url();
    println!(
        "adversarial/short_pieces: {} rules, allowed = {} and {} ({:?}) for {} and {} byte URLs",
        short.groups().map(|g| g.rules().len()).sum::<usize>(),
        short.is_allowed(AGENT, &url),
        short.is_allowed(AGENT, &short_url),
        short.explain(AGENT, &url).cause(),
        url.len(),
        short_url.len(),
    );
    let short_handle = short.agent(AGENT);
    g.bench_function("short_pieces", |b| {
        b.iter(|| short_handle.is_allowed(black_box(&url)))
    });
    g.bench_function("short_pieces_short_url", |b| {
        b.iter(|| short_handle.is_allowed(black_box(&short_url)))
    });
    let (late_body, late_url) = corpus::late_pieces();
    let late = Robots::parse(&late_body);
    println!(
        "adversarial/late_pieces: {} byte file, {} rules, {} byte URL; allowed = {}",
        late_body.len(),
        late.groups().map(|g| g.rules().len()).sum::<usize>(),
        late_url.len(),
        late.is_allowed(AGENT, &late_url),
    );
    let late_handle = late.agent(AGENT);
    g.bench_function("late_pieces", |b| {
        b.iter(|| late_handle.is_allowed(black_box(&late_url)))
    });
    // A crawler's crawl delay in a 500 KiB file of 12,487 `*` groups, each
    // with an invalid one: every group must be looked at to find there is
    // none, once; the answer is kept from then on.
    let unit = "User-agent: *\nCrawl-delay: soon\nAllow: /\n";
    let many = Robots::parse(unit.repeat(500 * 1024 / unit.len()));
    let many_handle = many.agent(AGENT);
    g.bench_function("crawl_delay_handle", |b| {
        b.iter(|| many_handle.crawl_delay())
    });
    g.bench_function("crawl_delay", |b| {
        b.iter(|| many.crawl_delay(black_box(AGENT)))
    });
    g.finish();
}

fn criterion_home() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return home.into();
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("criterion")
}

/// Time per iteration of one benchmark measured by this run, as criterion
/// prints it (the slope estimate with linear sampling, else the mean), from
/// its `estimates.json` (skipped if the file predates the run).
fn mean_ns(home: &std::path::Path, id: &str, since: SystemTime) -> Option<f64> {
    let path = home.join(id).join("new/estimates.json");
    let fresh = std::fs::metadata(&path).ok()?.modified().ok()? >= since;
    if !fresh {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let point = |name: &str| -> Option<f64> {
        let rest = &text[text.find(&format!("\"{name}\":{{"))?..];
        let at = rest.find("\"point_estimate\":")? + "\"point_estimate\":".len();
        let end = rest[at..].find([',', '}'])?;
        rest[at..at + end].trim().parse().ok()
    };
    point("slope").or_else(|| point("mean"))
}

fn summary(home: &std::path::Path, sets: &[Set], since: SystemTime) {
    let per_sec = |id: &str, units: u64| mean_ns(home, id, since).map(|ns| units as f64 / ns * 1e9);
    let fmt_rate = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.0}", v));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.1}x", a / b),
        _ => "-".into(),
    };
    println!("\n== summary (criterion's estimates of this run; MiB = 2^20 bytes) ==");
    for set in sets {
        let l = set.label;
        let mb = |id: &str| {
            per_sec(&format!("parse/{id}/{l}"), set.bytes).map(|v| v / (1u64 << 20) as f64)
        };
        let (k, kf, ki, t, r) = (
            mb("keepout"),
            mb("keepout_first_check"),
            mb("keepout_indexed"),
            mb("texting_robots"),
            mb("robotstxt_tokenize"),
        );
        println!(
            "parse/{l}: keepout {} MiB/s, keepout+first check {} MiB/s, keepout+index build {} MiB/s, \
             texting_robots {} MiB/s, robotstxt tokenizer {} MiB/s; keepout/texting_robots {} \
             (with first check {}, with index build {}), keepout/robotstxt tokenizer {}",
            fmt_rate(k),
            fmt_rate(kf),
            fmt_rate(ki),
            fmt_rate(t),
            fmt_rate(r),
            ratio(k, t),
            ratio(kf, t),
            ratio(ki, t),
            ratio(k, r)
        );
        let n = set.pairs.len() as u64;
        let cps = |id: &str| per_sec(&format!("check/{id}/{l}"), n);
        let (h, i, t, r) = (
            cps("handle"),
            cps("is_allowed"),
            cps("texting_robots"),
            per_sec(
                &format!("check/robotstxt/{l}"),
                robotstxt_checks(set) as u64,
            ),
        );
        println!(
            "check/{l}: handle {} /s, is_allowed {} /s, texting_robots {} /s, robotstxt {} /s; \
             handle/texting_robots {}, is_allowed/texting_robots {}, handle/robotstxt {}, \
             is_allowed/robotstxt {}",
            fmt_rate(h),
            fmt_rate(i),
            fmt_rate(t),
            fmt_rate(r),
            ratio(h, t),
            ratio(i, t),
            ratio(h, r),
            ratio(i, r)
        );
    }
    let first: Vec<String> = FIRST_CHECKS
        .iter()
        .map(|n| {
            let ns = |id: &str| mean_ns(home, &format!("first_checks/{id}/{n}"), since);
            match (ns("scan_first"), ns("build_at_once")) {
                (Some(a), Some(b)) => format!("{n}: {:.2}", a / b),
                _ => format!("{n}: -"),
            }
        })
        .collect();
    println!(
        "first_checks/rest: parse + N checks a file, scan first / build at once: {}",
        first.join(", ")
    );
    for id in [
        "handle",
        "is_allowed",
        "short_pieces",
        "short_pieces_short_url",
        "late_pieces",
    ] {
        if let Some(ns) = mean_ns(home, &format!("adversarial/{id}"), since) {
            println!(
                "adversarial/{id}: {:.1} us per check (target: under 10 ms)",
                ns / 1e3
            );
        }
    }
    for id in ["crawl_delay_handle", "crawl_delay"] {
        if let Some(ns) = mean_ns(home, &format!("adversarial/{id}"), since) {
            println!("adversarial/{id}: {ns:.0} ns per question, 12,487 groups");
        }
    }
}

fn main() {
    let since = SystemTime::now() - Duration::from_secs(1);
    let home = criterion_home();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .output_directory(&home)
        .configure_from_args();
    let start = Instant::now();
    let sets = sets();
    bench_parse(&mut c, &sets);
    bench_check(&mut c, &sets);
    bench_first_checks(&mut c, &sets[0]);
    bench_adversarial(&mut c);
    c.final_summary();
    summary(&home, &sets, since);
    println!("(bench run: {:.0} s)", start.elapsed().as_secs_f64());
}
