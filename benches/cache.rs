//! Cached `is_allowed` from many tasks, against the bare per-agent handle on
//! the same rules.
//!
//! ```text
//! cargo bench --bench cache
//! ```
//!
//! Eight tasks on a multi-thread runtime each check a batch of URLs spread
//! over four origins served by local wiremock servers, through a pre-warmed
//! [`RobotsCache`] (`cache.is_allowed(agent, url)`: origin key, lookup,
//! freshness check, match), or through `robots.agent(agent).is_allowed(url)`
//! on the `Robots` already in hand (match only). The ratio is printed.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use keepout::{Robots, RobotsCache};
use tokio::runtime::Runtime;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TASKS: usize = 8;
const PER_TASK: usize = 256;
const AGENT: &str = "ExampleBot";
const RULES: &str = "User-agent: *\nDisallow: /private/\nDisallow: /*.pdf$\nAllow: /private/open\n\nUser-agent: ExampleBot\nDisallow: /search\nDisallow: /tmp/\nCrawl-delay: 1\n";

struct Setup {
    cache: RobotsCache,
    _servers: Vec<MockServer>,
    urls: Arc<Vec<String>>,
    robots: Arc<Robots>,
}

fn setup(rt: &Runtime) -> Setup {
    rt.block_on(async {
        let mut servers = Vec::new();
        for _ in 0..4 {
            let server = MockServer::start().await;
            Mock::given(method("GET"))
                .and(path("/robots.txt"))
                .respond_with(ResponseTemplate::new(200).set_body_string(RULES))
                .mount(&server)
                .await;
            servers.push(server);
        }
        let paths = [
            "/",
            "/search?q=x",
            "/private/a",
            "/private/open",
            "/doc.pdf",
            "/tmp/x",
            "/a/b/c",
        ];
        // Named hosts, as crawlers meet them (`localhost`, still loopback):
        // an IP address takes the cache's slower, fully parsed origin key.
        let origin = |s: &MockServer| s.uri().replace("127.0.0.1", "localhost");
        let urls: Vec<String> = (0..PER_TASK)
            .map(|i| format!("{}{}", origin(&servers[i % 4]), paths[i % paths.len()]))
            .collect();
        let cache = RobotsCache::new();
        for server in &servers {
            // Served rules, or both sides would time the disallow-all
            // answer (a proxy that `NO_PROXY` does not exempt `localhost`
            // from gets these requests).
            let robots = cache.get(origin(server)).await.unwrap();
            let outcome = robots.fetch_outcome().unwrap();
            assert!(
                outcome.result().is_fetched(),
                "{}: {outcome} (is localhost in NO_PROXY?)",
                origin(server)
            );
        }
        let robots = cache.get(&urls[0]).await.unwrap();
        Setup {
            cache,
            _servers: servers,
            urls: Arc::new(urls),
            robots,
        }
    })
}

/// Runs `TASKS` tasks, each checking every URL once with `check`.
async fn fan_out<F>(check: F, urls: &Arc<Vec<String>>) -> usize
where
    F: Fn(Arc<Vec<String>>) -> tokio::task::JoinHandle<usize>,
{
    let handles: Vec<_> = (0..TASKS).map(|_| check(Arc::clone(urls))).collect();
    let mut allowed = 0;
    for handle in handles {
        allowed += handle.await.unwrap();
    }
    allowed
}

fn cached(s: &Setup) -> impl Fn(Arc<Vec<String>>) -> tokio::task::JoinHandle<usize> + '_ {
    move |urls| {
        let cache = s.cache.clone();
        tokio::spawn(async move {
            let mut n = 0;
            for url in urls.iter() {
                n += usize::from(cache.is_allowed(AGENT, url).await.unwrap());
            }
            n
        })
    }
}

fn bare(s: &Setup) -> impl Fn(Arc<Vec<String>>) -> tokio::task::JoinHandle<usize> + '_ {
    move |urls| {
        let robots = Arc::clone(&s.robots);
        tokio::spawn(async move {
            let agent = robots.agent(AGENT);
            urls.iter().map(|u| usize::from(agent.is_allowed(u))).sum()
        })
    }
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(TASKS.min(std::thread::available_parallelism().map_or(2, |n| n.get())))
        .enable_all()
        .build()
        .unwrap();
    let s = setup(&rt);
    let mut group = c.benchmark_group("is_allowed_from_tasks");
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
    group.throughput(Throughput::Elements((TASKS * PER_TASK) as u64));
    group.bench_function("cache", |b| {
        b.iter(|| rt.block_on(fan_out(cached(&s), &s.urls)))
    });
    group.bench_function("bare_agent_handle", |b| {
        b.iter(|| rt.block_on(fan_out(bare(&s), &s.urls)))
    });
    group.finish();

    // A plain-timer ratio, printed for the record (criterion's own report
    // above has the confidence intervals).
    let time = |f: &dyn Fn() -> usize| {
        let start = Instant::now();
        let mut total = 0;
        for _ in 0..50 {
            total += black_box(f());
        }
        (start.elapsed(), total)
    };
    let (t_cache, a) = time(&|| rt.block_on(fan_out(cached(&s), &s.urls)));
    let (t_bare, b) = time(&|| rt.block_on(fan_out(bare(&s), &s.urls)));
    assert_eq!(a, b, "both paths answer alike");
    let per = |t: Duration| t.as_nanos() as f64 / (50 * TASKS * PER_TASK) as f64;
    println!(
        "cached is_allowed: {:.0} ns/check, bare agent handle: {:.0} ns/check, ratio {:.1}x ({} tasks)",
        per(t_cache),
        per(t_bare),
        per(t_cache) / per(t_bare),
        TASKS
    );
    println!("{:?}", s.cache.stats());
}

criterion_group!(benches, bench);
criterion_main!(benches);
