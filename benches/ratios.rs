//! keepout against texting_robots in alternating rounds:
//! `cargo bench --bench ratios` (about 55 s).
//!
//! `--bench matching` (criterion) times each library in turn, a minute or
//! more apart; on a machine shared with other jobs its speed drifts in
//! between, and the ratios of single runs of that bench have ranged from
//! 6.4x to 8.8x for the parse of the same files by the same code. Here each
//! round times the libraries back to back on the same inputs (their order
//! turned every round), for a fixed slice of wall time each, and the ratio
//! is taken within the round. The median over the rounds, and the spread of
//! the middle half of them, are printed: drift that both libraries share
//! cancels out of the ratio.
//!
//! Inputs are those of `--bench matching` (see `benches/corpus/mod.rs`):
//! the same files, agent and shuffled (file, URL) list. Environment:
//! `RATIO_ROUNDS` (default 21) and `RATIO_MS`, milliseconds per library
//! per round (default 60).
//!
//! The checks are timed through each file's `Agent` handle, its
//! `OwnedAgent` and `Robots::is_allowed`. After them, three readings of where a check's time goes, each
//! against texting_robots on the same input: the URLs alone (through the
//! handle of a file whose one rule never matches), and the same checks
//! grouped by file, once and eight times over in a row (every line a
//! file's checks read then cached, its branches learnt). Last, a model
//! of a design not built, priced against texting_robots the same way: the
//! floor of an automaton per group that reads the path an octet at a time
//! (`benches/automaton_model/mod.rs`).

mod automaton_model;
mod corpus;

use std::hint::black_box;
use std::time::{Duration, Instant};

use keepout::Robots;

use corpus::{AGENT, File};

/// Runs `f` until `budget` has passed (at least once); nanoseconds per run.
fn per_run(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || start.elapsed() < budget {
        f();
        runs += 1;
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(runs)
}

/// The median of `v` and the range of its middle half (sorted in place).
fn median_and_quartiles(v: &mut [f64]) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.25), at(0.75))
}

/// Times the `contenders` (name, one pass over the input) against
/// `baseline`, alternating, for `rounds` rounds; prints each contender's
/// speed-up over the baseline. `unit` turns nanoseconds per pass into the
/// printed rate.
fn compare(
    title: &str,
    rounds: usize,
    budget: Duration,
    baseline: (&str, &mut dyn FnMut()),
    contenders: &mut [(&str, &mut dyn FnMut())],
    unit: (&str, f64),
) {
    let n = contenders.len();
    let mut base_ns = Vec::with_capacity(rounds);
    let mut ns = vec![Vec::with_capacity(rounds); n];
    let mut ratios = vec![Vec::with_capacity(rounds); n];
    // A warm-up pass of each.
    (baseline.1)();
    for (_, f) in contenders.iter_mut() {
        f();
    }
    for round in 0..rounds {
        // The baseline first in even rounds, last in odd ones.
        let mut base = 0.0;
        if round % 2 == 0 {
            base = per_run(budget, &mut *baseline.1);
        }
        let mut here = vec![0.0; n];
        for k in 0..n {
            // The contenders' order turns too.
            let k = (k + round) % n;
            here[k] = per_run(budget, &mut *contenders[k].1);
        }
        if round % 2 == 1 {
            base = per_run(budget, &mut *baseline.1);
        }
        base_ns.push(base);
        for k in 0..n {
            ns[k].push(here[k]);
            ratios[k].push(base / here[k]);
        }
    }
    let rate = |v: &mut Vec<f64>| unit.1 / median_and_quartiles(v).0;
    println!(
        "{title}: {rounds} rounds of {} ms a library",
        budget.as_millis()
    );
    println!(
        "  {:<22} {:>12.1} {}",
        baseline.0,
        rate(&mut base_ns),
        unit.0
    );
    for k in 0..n {
        let (mid, lo, hi) = median_and_quartiles(&mut ratios[k]);
        println!(
            "  {:<22} {:>12.1} {}   {:.2}x {} (middle half of the rounds: {:.2}x to {:.2}x)",
            contenders[k].0,
            rate(&mut ns[k]),
            unit.0,
            mid,
            baseline.0,
            lo,
            hi
        );
    }
}

/// texting_robots's checks of the (file, URL) `list`.
fn texting_checks(texting: &[Option<texting_robots::Robot>], list: &[(usize, impl AsRef<str>)]) {
    let mut n = 0usize;
    for (i, url) in list {
        if let Some(t) = &texting[*i] {
            n += t.allowed(black_box(url.as_ref())) as usize;
        }
    }
    black_box(n);
}

/// keepout's checks of the (file, URL) `list` through each file's handle.
fn handle_checks(handles: &[keepout::Agent<'_>], list: &[(usize, impl AsRef<str>)]) {
    let mut n = 0usize;
    for (i, url) in list {
        n += handles[*i].is_allowed(black_box(url.as_ref())) as usize;
    }
    black_box(n);
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let started = Instant::now();
    let rounds = env_or("RATIO_ROUNDS", 21).max(1) as usize;
    let budget = Duration::from_millis(env_or("RATIO_MS", 60).max(1));
    let all = corpus::load();
    let rest: Vec<&File> = all.iter().filter(|f| f.name != corpus::ORACLE).collect();
    let oracle: Vec<&File> = all.iter().filter(|f| f.name == corpus::ORACLE).collect();
    let every: Vec<&File> = all.iter().collect();
    for (label, files) in [
        (format!("the {} files but the oracle's", rest.len()), &rest),
        ("the oracle file".to_string(), &oracle),
        (format!("all {} files", every.len()), &every),
    ] {
        let bytes: usize = files.iter().map(|f| f.body.len()).sum();
        compare(
            &format!("parse, {label} ({bytes} bytes)"),
            rounds,
            budget,
            ("texting_robots", &mut || {
                for f in files {
                    let _ = black_box(texting_robots::Robot::new(AGENT, black_box(&f.body)));
                }
            }),
            &mut [
                ("keepout", &mut || {
                    for f in files {
                        black_box(Robots::parse(black_box(&f.body)));
                    }
                }),
                // As `--bench matching` times them: one check of a fresh
                // parse (which scans a large group rather than index it),
                // and an `Agent` handle (which indexes its groups of more
                // than 8 rules at once) with one check through it.
                ("keepout + first check", &mut || {
                    for f in files {
                        let r = Robots::parse(black_box(&f.body));
                        black_box(r.is_allowed(AGENT, "https://example.com/"));
                    }
                }),
                ("keepout + index build", &mut || {
                    for f in files {
                        let r = Robots::parse(black_box(&f.body));
                        black_box(r.agent(AGENT).is_allowed("https://example.com/"));
                    }
                }),
            ],
            ("MiB/s", bytes as f64 * 1e9 / f64::from(1 << 20)),
        );
    }
    // The parse by kind of line: what the corpus's total is made of.
    for (kind, body) in corpus::line_kinds() {
        let body = body.as_bytes();
        compare(
            &format!(
                "parse by line kind, {} lines of {kind:?} ({} bytes)",
                corpus::KIND_LINES,
                body.len()
            ),
            rounds,
            budget / 2,
            ("texting_robots", &mut || {
                let _ = black_box(texting_robots::Robot::new(AGENT, black_box(body)));
            }),
            &mut [("keepout", &mut || {
                black_box(Robots::parse(black_box(body)));
            })],
            ("M lines/s", corpus::KIND_LINES as f64 * 1e3),
        );
    }
    // Checks: the same list as `--bench matching`'s `check/rest`.
    let files: Vec<File> = all
        .into_iter()
        .filter(|f| f.name != corpus::ORACLE)
        .collect();
    let pairs = corpus::pairs(&files);
    let robots: Vec<Robots> = files.iter().map(|f| Robots::parse(&f.body)).collect();
    let handles: Vec<keepout::Agent<'_>> = robots.iter().map(|r| r.agent(AGENT)).collect();
    let owned: Vec<keepout::OwnedAgent> = robots.iter().map(|r| r.owned_agent(AGENT)).collect();
    let lone = Robots::parse(b"User-agent: *\nDisallow: /never-matched\n");
    let lone = lone.agent(AGENT);
    let texting: Vec<Option<texting_robots::Robot>> = files
        .iter()
        .map(|f| texting_robots::Robot::new(AGENT, &f.body).ok())
        .collect();
    compare(
        &format!(
            "checks, {} (file, URL) pairs over the {} files but the oracle's",
            pairs.len(),
            files.len()
        ),
        rounds,
        budget,
        ("texting_robots", &mut || texting_checks(&texting, &pairs)),
        &mut [
            ("keepout handle", &mut || handle_checks(&handles, &pairs)),
            ("keepout owned handle", &mut || {
                let mut n = 0usize;
                for (i, url) in &pairs {
                    n += owned[*i].is_allowed(black_box(url)) as usize;
                }
                black_box(n);
            }),
            ("keepout is_allowed", &mut || {
                let mut n = 0usize;
                for (i, url) in &pairs {
                    n += robots[*i].is_allowed(AGENT, black_box(url)) as usize;
                }
                black_box(n);
            }),
            // What reading the URL costs: the same URLs through the handle
            // of a file whose one rule never matches.
            ("keepout, the URL alone", &mut || {
                let mut n = 0usize;
                for (_, url) in &pairs {
                    n += lone.is_allowed(black_box(url)) as usize;
                }
                black_box(n);
            }),
        ],
        ("checks/s", pairs.len() as f64 * 1e9),
    );
    // The same checks with each file's in a row, once and then eight times
    // over: how much of a check is cache misses and mispredicted branches
    // from going host to host (each file's URLs are copied to lie in the
    // order they are read, as in `corpus::pairs`).
    let by_file: Vec<Vec<String>> = (0..files.len())
        .map(|f| {
            let urls = pairs.iter().filter(|p| p.0 == f);
            urls.map(|p| p.1.clone()).collect()
        })
        .collect();
    for (times, label) in [(1, "once"), (8, "eight times over")] {
        let mut grouped: Vec<(usize, &str)> = Vec::new();
        for (f, urls) in by_file.iter().enumerate() {
            for _ in 0..times {
                grouped.extend(urls.iter().map(|u| (f, u.as_str())));
            }
        }
        compare(
            &format!("checks, the same grouped by file, each file's in a row {label}"),
            rounds,
            budget,
            ("texting_robots", &mut || texting_checks(&texting, &grouped)),
            &mut [("keepout handle", &mut || handle_checks(&handles, &grouped))],
            ("checks/s", grouped.len() as f64 * 1e9),
        );
    }
    // The floor of a byte-at-a-time automaton per group, modelled (see
    // `automaton_model`): not keepout's matcher.
    let model = automaton_model::Model::new(&handles, &pairs);
    let (steps, nodes) = model.sizes();
    let l1: Vec<u32> = (0..1024u32)
        .map(|k| k.wrapping_mul(0x9E37_79B1) >> 22)
        .collect();
    let (narrow, narrow_files) = model.tables(2);
    let (wide, wide_files) = model.tables(8);
    let mib = |t: &[u32]| (t.len() * 4) as f64 / f64::from(1 << 20);
    compare(
        &format!(
            "model of an automaton reading {steps:.1} octets a check ({nodes} trie states), the URL read for real"
        ),
        rounds,
        budget,
        ("texting_robots", &mut || texting_checks(&texting, &pairs)),
        &mut [
            ("tables in L1", &mut || model.pass(&lone, &l1, 1, None)),
            (
                &format!("8 B a state, {:.1} MiB", mib(&narrow)),
                &mut || model.pass(&lone, &narrow, 2, Some(&narrow_files)),
            ),
            (&format!("32 B a state, {:.1} MiB", mib(&wide)), &mut || {
                model.pass(&lone, &wide, 8, Some(&wide_files))
            }),
        ],
        ("checks/s", pairs.len() as f64 * 1e9),
    );
    println!("(bench run: {:.0} s)", started.elapsed().as_secs_f64());
}
