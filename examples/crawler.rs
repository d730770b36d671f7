//! A small concurrent crawler loop over a URL list, using one shared
//! [`RobotsCache`] and honouring each host's `Crawl-delay`.
//!
//! ```text
//! cargo run --example crawler -- https://example.com/a https://example.com/b https://www.rust-lang.org/
//! ```
//!
//! Each origin gets a task that walks its URLs in order and waits the
//! origin's crawl delay (at least `MIN_DELAY`) between requests; origins are
//! crawled concurrently, at most `MAX_HOSTS` at a time. It prints what it
//! would fetch rather than fetching pages, why a URL is refused (the line
//! that decided), each site's sitemaps, and for a site whose robots.txt is
//! unreachable when the cache will ask again.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use keepout::fetch::{Fetcher, origin_key};
use keepout::{Access, RobotsCache};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep_until};
use url::Url;

const USER_AGENT: &str = "keepout-example/0.1 (+https://github.com/keepout-rs/keepout)";
/// The politeness floor when robots.txt names no crawl delay.
const MIN_DELAY: Duration = Duration::from_millis(500);
/// Crawl delays above this are capped, so one site cannot stall the crawl.
const MAX_DELAY: Duration = Duration::from_secs(30);
/// Hosts crawled at once.
const MAX_HOSTS: usize = 16;

const DEFAULT_URLS: &[&str] = &[
    "https://www.rust-lang.org/",
    "https://www.rust-lang.org/learn",
    "https://www.rust-lang.org/tools/install",
    "https://docs.rs/tokio/latest/tokio/",
    "https://docs.rs/moka/latest/moka/",
    "https://crates.io/crates/keepout",
    "https://crates.io/search?q=robots",
    "https://github.com/search?q=robots.txt",
];

#[tokio::main]
async fn main() -> Result<(), keepout::Error> {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let urls: Vec<String> = if args.is_empty() {
        DEFAULT_URLS.iter().map(|u| u.to_string()).collect()
    } else {
        args.into_iter()
            .filter_map(|arg| {
                arg.into_string()
                    .map_err(|arg| eprintln!("skip {}: not UTF-8", arg.to_string_lossy()))
                    .ok()
            })
            .collect()
    };

    // Group by origin (scheme, host, port): the unit robots.txt applies to.
    // Each URL is kept as a `Url`, as a crawler holds the links it
    // resolves: its rules are then checked for the path the HTTP client
    // will request (`/a/../private` is `/private`).
    let mut by_origin: BTreeMap<String, Vec<Url>> = BTreeMap::new();
    for url in urls {
        let origin = match origin_key(&url) {
            Ok(origin) => origin,
            Err(error) => {
                eprintln!("skip {url}: {error}");
                continue;
            }
        };
        match Url::parse(&url) {
            Ok(parsed) => by_origin.entry(origin).or_default().push(parsed),
            Err(error) => eprintln!("skip {url}: {error}"),
        }
    }

    let fetcher = Fetcher::builder()
        .user_agent(USER_AGENT)
        .timeout(Duration::from_secs(10))
        .build()?;
    let agent = fetcher.product_token().to_owned();
    let cache = RobotsCache::builder()
        .fetcher(fetcher)
        .max_entries(10_000)
        .build()?;

    let slots = Arc::new(Semaphore::new(MAX_HOSTS));
    let mut hosts = JoinSet::new();
    for (origin, urls) in by_origin {
        let (cache, agent, slots) = (cache.clone(), agent.clone(), Arc::clone(&slots));
        hosts.spawn(async move {
            let _slot = slots.acquire_owned().await.expect("semaphore open");
            crawl_host(&cache, &agent, &origin, &urls).await
        });
    }
    while let Some(done) = hosts.join_next().await {
        if let Err(error) = done.expect("host task panicked") {
            eprintln!("error: {error}");
        }
    }
    // The entry count is brought up to date by the cache's maintenance,
    // which runs now and then; run it before reporting.
    cache.run_pending_tasks().await;
    println!("{:?}", cache.stats());
    Ok(())
}

/// Walks one origin's URLs, pacing requests by its crawl delay.
async fn crawl_host(
    cache: &RobotsCache,
    agent: &str,
    origin: &str,
    urls: &[Url],
) -> Result<(), keepout::Error> {
    let mut next_request = Instant::now();
    for (i, url) in urls.iter().enumerate() {
        // Every task shares the cache: one robots.txt fetch per origin, and
        // the rules are re-fetched (conditionally) only when they expire.
        let robots = cache.get(url).await?;
        if i == 0 {
            for sitemap in robots.sitemap_urls() {
                println!("{origin}: sitemap {sitemap}");
            }
        }
        if robots.access() == Access::DisallowAll {
            // Unreachable (RFC 9309 section 2.3.1.4): nothing of this site
            // may be fetched until the cache has asked again.
            let why = robots.fetch_outcome().map(|o| o.to_string());
            let due = cache.due_at(url).await?;
            let wait = due.and_then(|t| t.duration_since(SystemTime::now()).ok());
            let wait = wait.unwrap_or_default().as_secs();
            println!(
                "{origin}: set aside for {wait} s: {}",
                why.unwrap_or_default()
            );
            break;
        }
        if !robots.is_allowed(agent, url) {
            println!("{origin}: skip {url}: {}", robots.explain(agent, url));
            continue;
        }
        sleep_until(next_request).await;
        println!("{origin}: would fetch {url}");
        let delay = robots
            .crawl_delay(agent)
            .unwrap_or(MIN_DELAY)
            .clamp(MIN_DELAY, MAX_DELAY);
        next_request = Instant::now() + delay;
    }
    Ok(())
}
