//! Counters a crawler can export.

use std::sync::atomic::{AtomicU64, Ordering};

/// A snapshot of a [`RobotsCache`](crate::RobotsCache)'s counters, from
/// [`RobotsCache::stats`](crate::RobotsCache::stats).
///
/// Every `get` with a URL that can have a robots.txt counts as exactly one
/// hit or one miss; the other counters count fetches and removals. All
/// counters only grow, except `entries` and `weighted_size`, which describe
/// the cache now.
///
/// ```no_run
/// # async fn run(cache: keepout::RobotsCache) {
/// let stats = cache.stats();
/// let lookups = stats.hits + stats.misses;
/// println!("{} origins, {} fetches, hit rate {:.3}", stats.entries, stats.fetches,
///     stats.hits as f64 / lookups.max(1) as f64);
/// # }
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CacheStats {
    /// Lookups that found an entry for the origin (fresh, or due but served
    /// while another task refreshes it, or refreshed by this lookup).
    pub hits: u64,
    /// Lookups that found no entry, and so waited for the first fetch of the
    /// origin (their own, or one already in flight).
    pub misses: u64,
    /// robots.txt fetches made: first fetches plus refreshes. A fetch
    /// that follows redirects makes a request for each (up to
    /// [`max_redirects`](crate::FetcherBuilder::max_redirects) more) and
    /// counts once here; its outcome's
    /// [`redirects`](crate::FetchOutcome::redirects) says how many.
    pub fetches: u64,
    /// Re-fetches of an origin already cached (conditional when the cached
    /// copy has an `ETag` or `Last-Modified`).
    pub refreshes: u64,
    /// Refreshes answered `304 Not Modified`.
    pub not_modified: u64,
    /// Fetches that ended unreachable: 5xx, 429, 407, timeout or network
    /// failure (RFC 9309 section 2.3.1.4; the [fetcher's table](crate::fetch)
    /// has every case).
    pub errors: u64,
    /// Lookups answered with a last good copy because the origin is
    /// unreachable (RFC 9309 section 2.4).
    pub stale_served: u64,
    /// Entries removed to respect the capacity bound. (Entries that
    /// [`invalidate_all`](crate::RobotsCache::invalidate_all) forgot, which
    /// the cache may remove only later, and then for size, are not
    /// counted.)
    pub evictions: u64,
    /// Misses of an unreachable origin evicted before its retry time (or
    /// its stale limit), answered without a request from what the cache
    /// kept of it (see the [module docs](crate::cache)). Concurrent
    /// lookups sharing one such miss count once; later lookups are hits.
    pub backoffs_kept: u64,
    /// Entries held (approximate until pending maintenance has run; see
    /// [`RobotsCache::run_pending_tasks`](crate::RobotsCache::run_pending_tasks)).
    pub entries: u64,
    /// Total weight held: estimated retained bytes when the capacity is in
    /// bytes (the default), otherwise the number of entries. Approximate like
    /// `entries`.
    pub weighted_size: u64,
}

/// The live counters behind [`CacheStats`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) hits: AtomicU64,
    pub(crate) misses: AtomicU64,
    pub(crate) fetches: AtomicU64,
    pub(crate) refreshes: AtomicU64,
    pub(crate) not_modified: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) stale_served: AtomicU64,
    pub(crate) evictions: AtomicU64,
    /// Entries removed for size that were already forgotten: not in
    /// [`CacheStats`], where they are not evictions; tests read it.
    pub(crate) forgotten_evicted: AtomicU64,
    pub(crate) backoffs_kept: AtomicU64,
}

impl Counters {
    /// Adds one to `counter`.
    #[inline]
    pub(crate) fn bump(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// The counters now, with the cache's size figures.
    pub(crate) fn snapshot(&self, entries: u64, weighted_size: u64) -> CacheStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        CacheStats {
            hits: get(&self.hits),
            misses: get(&self.misses),
            fetches: get(&self.fetches),
            refreshes: get(&self.refreshes),
            not_modified: get(&self.not_modified),
            errors: get(&self.errors),
            stale_served: get(&self.stale_served),
            evictions: get(&self.evictions),
            backoffs_kept: get(&self.backoffs_kept),
            entries,
            weighted_size,
        }
    }
}
