//! Measures the memory of many fetches in flight: 10,000 fetches of
//! robots.txt from slow local servers (each answer delayed), all spawned at
//! once, with at most 256 fetching at a time
//! (`FetcherBuilder::max_concurrent_fetches`), as a crawler would run them.
//!
//! ```text
//! cargo run --example many_fetches -- [fetches] [concurrency] [delay_ms]
//! ```
//!
//! Defaults: 10000 fetches, 256 at a time, 300 ms per answer, spread over
//! 16 local servers (16 origins, one `Fetcher`). Prints the process's
//! peak (VmHWM) and current (VmRSS) resident memory from `/proc/self/status`
//! (Linux) before and after, and the growth per fetch in flight. The servers
//! run in this process, so the figure includes their side of each
//! connection too: it is an upper bound on the fetcher's cost.
//!
//! Exits with an error if any fetch did not end in the served rules, or if
//! the run takes over a minute; with status 2, before it starts, for an
//! argument that is not a whole number, no fetches, no concurrency, or an
//! answer delay over 10 s (a third of the fetch timeout).

use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};

use keepout::fetch::{FetchResult, Fetcher};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

const RULES: &str = "User-agent: *\nDisallow: /private\n";
const SERVERS: usize = 16;
/// The whole run must end within this.
const DEADLINE: Duration = Duration::from_secs(60);
/// Each fetch's timeout.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Peak and current resident memory, in KiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// A keep-alive server that answers every request with `RULES` after
/// `delay`. Its tasks end with the runtime.
async fn slow_server(delay: Duration) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(answer(socket, delay));
        }
    });
    addr
}

async fn answer(mut socket: TcpStream, delay: Duration) {
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{RULES}",
        RULES.len()
    );
    let mut buf = [0u8; 2048];
    loop {
        // One request head per answer (the fetcher does not pipeline).
        let mut head = 0;
        loop {
            match socket.read(&mut buf[head..]).await {
                Ok(0) | Err(_) => return,
                Ok(n) => head += n,
            }
            if buf[..head].windows(4).any(|w| w == b"\r\n\r\n") {
                break;
            }
            if head == buf.len() {
                return;
            }
        }
        tokio::time::sleep(delay).await;
        if socket.write_all(response.as_bytes()).await.is_err() {
            return;
        }
    }
}

/// The `n`th argument (`name` in the usage line), a whole number within
/// `range`, or `default` when it is not given; anything else ends the run
/// with status 2.
fn argument(n: usize, name: &str, default: u64, range: RangeInclusive<u64>) -> u64 {
    let Some(arg) = std::env::args_os().nth(n) else {
        return default;
    };
    match arg.to_str().map(str::parse) {
        Some(Ok(value)) if range.contains(&value) => value,
        _ => {
            eprintln!(
                "{name} must be a whole number from {} to {}, not {arg:?}",
                range.start(),
                range.end()
            );
            eprintln!("usage: many_fetches [fetches] [concurrency] [delay_ms]");
            std::process::exit(2);
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let fetches = argument(1, "fetches", 10_000, 1..=usize::MAX as u64) as usize;
    // At least one, and no more than a bound can be (past it, the fetcher
    // sets none).
    let most = tokio::sync::Semaphore::MAX_PERMITS as u64;
    let concurrency = argument(2, "concurrency", 256, 1..=most) as usize;
    // Answers well within the fetch timeout, which would end slower ones.
    let most = FETCH_TIMEOUT.as_millis() as u64 / 3;
    let delay = Duration::from_millis(argument(3, "delay_ms", 300, 0..=most));

    let mut servers = Vec::new();
    for _ in 0..SERVERS {
        servers.push(slow_server(delay).await);
    }
    // The bound: every fetch is spawned at once, and waits for its turn
    // inside `fetch` (its timeout starting only then).
    let fetcher = Fetcher::builder()
        .timeout(FETCH_TIMEOUT)
        .max_concurrent_fetches(concurrency)
        .build()
        .unwrap();
    // Warm up the runtime, client and allocator with one fetch per server.
    for addr in &servers {
        let robots = fetcher.fetch(format!("http://{addr}/")).await.unwrap();
        let outcome = robots.fetch_outcome().unwrap();
        if !outcome.result().is_fetched() {
            eprintln!("warming up: {outcome}");
            std::process::exit(1);
        }
    }
    let future_size = std::mem::size_of_val(&fetcher.fetch("http://127.0.0.1/"));
    let (hwm_before, rss_before) = memory();

    let started = Instant::now();
    let mut tasks = JoinSet::new();
    // All spawned at once: `fetches` futures in flight, `concurrency` of
    // them fetching.
    for i in 0..fetches {
        let fetcher = fetcher.clone();
        let url = format!("http://{}/page/{i}", servers[i % SERVERS]);
        tasks.spawn(async move {
            let robots = fetcher.fetch(&url).await.unwrap();
            let ok = robots.fetch_outcome().unwrap().result() == &FetchResult::Fetched
                && !robots.is_allowed("keepout", url.replace("/page/", "/private/"))
                && robots.is_allowed("keepout", &url);
            (ok, memory().1)
        });
    }
    let (hwm_spawned, rss_spawned) = memory();
    let mut failed = 0usize;
    let mut rss_peak_seen = rss_spawned;
    let run = async {
        while let Some(done) = tasks.join_next().await {
            let (ok, rss) = done.unwrap();
            failed += usize::from(!ok);
            rss_peak_seen = rss_peak_seen.max(rss);
        }
    };
    if tokio::time::timeout(DEADLINE, run).await.is_err() {
        eprintln!("did not finish within {DEADLINE:?}");
        std::process::exit(1);
    }
    let took = started.elapsed();
    let (hwm_after, rss_after) = memory();

    let growth = hwm_after.saturating_sub(hwm_before);
    let queued = hwm_spawned.saturating_sub(hwm_before);
    let active = hwm_after.saturating_sub(hwm_spawned);
    println!(
        "{fetches} fetches, at most {concurrency} at a time, {} ms per answer, {SERVERS} origins: {took:.1?}",
        delay.as_millis()
    );
    println!(
        "  VmHWM {hwm_before} -> {hwm_spawned} (all spawned) -> {hwm_after} KiB at the end (+{growth} KiB)"
    );
    println!(
        "  VmRSS {rss_before} -> {rss_spawned} (all spawned), highest seen {rss_peak_seen}, {rss_after} KiB at the end"
    );
    // Fewer fetches than the bound: all run at once, none waits.
    let at_once = concurrency.min(fetches);
    println!(
        "  spawned and waiting: {:.2} KiB per fetch (the future is {future_size} bytes); \
         fetching: {active} KiB for {at_once}, {:.1} KiB per concurrent fetch (both sides)",
        queued as f64 / fetches as f64,
        active as f64 / at_once as f64
    );
    if failed > 0 {
        eprintln!("{failed} fetches did not end in the served rules");
        std::process::exit(1);
    }
}
