//! Which origins [`RobotsCache::invalidate`](super::RobotsCache::invalidate)
//! and `invalidate_all` forgot while something was under way.
//!
//! Three things in the cache begin before they end and must not outlive an
//! invalidation of their origin that came in between: a first fetch, a
//! refresh, and the eviction listener keeping an unreachable origin's retry
//! time. Each takes a [`Stamp`] when it begins and asks, before it keeps
//! its result, whether its own origin was forgotten since. Asking about
//! the origin rather than about any invalidation matters: a refresh whose
//! entry the capacity bound evicted meanwhile is put back, but not if its
//! origin was invalidated, and with one counter for all origins an
//! invalidation of some other site dropped the refreshed value (with the
//! server's `Retry-After`, so the next lookup requested at once).
//!
//! `invalidate_all` is one counter, exact for ever. Single invalidations
//! are a counter, a log of the latest [`LOG_LEN`] keys, and for those the
//! log has let go, the number of the latest invalidation in each of
//! [`BUCKETS`] buckets of keys (by a hash). A question about a stamp older
//! than the log reaches back is answered by the key's bucket: no if no
//! invalidation since fell in it, else [`Since::Unknown`] (one of them may
//! have named the key). A fetch or refresh then keeps nothing: its result
//! is dropped, with what it held (a server's `Retry-After`, the count of
//! failures, the last good copy), and the next lookup fetches again. The
//! eviction listener keeps its record (see `keep_after_eviction`). So of
//! 1,100 invalidations of other origins during one refresh, the 76 the log
//! has let go leave it unknown with a chance under 2% (`1 − (1 −
//! 1/4096)^76`), and 10,000 with one of 89%; before the buckets, always.

use std::collections::VecDeque;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many single invalidations the log keeps by key: a question about a
/// fetch during which more than this many came is answered by the
/// [`BUCKETS`] for those the log let go (unless the log names its origin).
/// 24 bytes each, plus the key.
pub(crate) const LOG_LEN: usize = 1024;

/// How many buckets of keys keep the number of their latest invalidation,
/// for questions reaching past the log: 8 bytes each, allocated at the
/// first invalidation the log lets go.
pub(crate) const BUCKETS: usize = 4096;

/// The invalidations of a cache so far.
#[derive(Debug, Default)]
pub(crate) struct Invalidations {
    /// `invalidate_all` calls so far.
    all: AtomicU64,
    /// Single `invalidate` calls so far: the number of the last in `log`.
    one: AtomicU64,
    log: Mutex<Log>,
}

/// The single invalidations, under one lock.
#[derive(Debug, Default)]
struct Log {
    /// The keys of the latest, each with its number, oldest first; at most
    /// [`LOG_LEN`].
    recent: VecDeque<(u64, Box<str>)>,
    /// For those `recent` has let go: by bucket of keys, the number of the
    /// latest (0: none). Empty until the first is let go.
    older: Vec<u64>,
}

/// The bucket of `key` in [`Log::older`]. A fixed hash: the keys are
/// origins the crawler chose, and a collision costs one fetch.
fn bucket(key: &str) -> usize {
    // Lossless: the modulus fits in `usize`.
    (BuildHasherDefault::<DefaultHasher>::default().hash_one(key) % BUCKETS as u64) as usize
}

/// A moment in a cache's invalidations: the counts so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Stamp {
    all: u64,
    one: u64,
}

/// Whether an origin was forgotten since a [`Stamp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Since {
    /// No invalidation since named it.
    No,
    /// It was forgotten: by an `invalidate` of its origin, or by
    /// `invalidate_all`.
    Yes,
    /// More single invalidations came since than the log holds, none of
    /// them `invalidate_all`, and one of those it let go was of a key in
    /// the same bucket.
    Unknown,
}

impl Invalidations {
    /// Now.
    pub fn stamp(&self) -> Stamp {
        Stamp {
            one: self.one.load(Ordering::SeqCst),
            all: self.all.load(Ordering::SeqCst),
        }
    }

    /// Records an `invalidate` of the origin `key`. Before the cache
    /// removes anything: whatever keeps a value after looking here either
    /// sees this, or kept it before the removal that follows.
    pub fn forget(&self, key: &str) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // Under the lock, so that a look that sees the new count finds the
        // key in the log.
        let n = self.one.fetch_add(1, Ordering::SeqCst) + 1;
        if log.recent.len() == LOG_LEN
            && let Some((gone, key)) = log.recent.pop_front()
        {
            if log.older.is_empty() {
                log.older = vec![0; BUCKETS];
            }
            log.older[bucket(&key)] = gone;
        }
        log.recent.push_back((n, key.into()));
    }

    /// Records an `invalidate_all`; as [`forget`](Self::forget), before
    /// the cache removes anything.
    pub fn forget_all(&self) {
        self.all.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether a cached entry of `key` stamped `then` must not be served:
    /// its origin was forgotten since. An entry a fetch put in after an
    /// `invalidate` that came while it was under way is in the cache until
    /// that fetch's caller removes it (`Inner::load`), and a lookup made
    /// after the `invalidate` must not be given it.
    ///
    /// Asked at every hit, so cheap: two atomic loads while no invalidation
    /// came since `checked`, the count of single invalidations up to which
    /// the entry is known not forgotten (it starts at 0, read as `then`'s
    /// count). After one, a look at the log for the invalidations since,
    /// once. [`Since::Unknown`] serves the entry: it is no fetch's
    /// fresh result (more invalidations came since than the log holds),
    /// and dropping it would make every entry older than the log fetch
    /// again.
    pub fn forgotten(&self, key: &str, then: Stamp, checked: &AtomicU64) -> bool {
        if self.all.load(Ordering::SeqCst) != then.all {
            return true;
        }
        let known = checked.load(Ordering::Relaxed).max(then.one);
        let now = self.one.load(Ordering::SeqCst);
        if now == known {
            return false;
        }
        let since = self.since(
            key,
            Stamp {
                all: then.all,
                one: known,
            },
        );
        if since == Since::Yes {
            return true;
        }
        checked.fetch_max(now, Ordering::Relaxed);
        false
    }

    /// Whether the origin `key` was forgotten since `then`.
    pub fn since(&self, key: &str, then: Stamp) -> Since {
        let end = Stamp {
            all: u64::MAX,
            one: u64::MAX,
        };
        self.between(key, then, end)
    }

    /// Whether the origin `key` was forgotten after `from` and by `to` (a
    /// later stamp; the newest there is when `to` is the largest).
    pub fn between(&self, key: &str, from: Stamp, to: Stamp) -> Since {
        if self.all.load(Ordering::SeqCst).min(to.all) > from.all {
            return Since::Yes;
        }
        if self.one.load(Ordering::SeqCst).min(to.one) <= from.one {
            // The common case: no invalidation at all, and no lock.
            return Since::No;
        }
        let log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut newer = (log.recent.iter().rev())
            .skip_while(|(n, _)| *n > to.one)
            .take_while(|(n, _)| *n > from.one);
        if newer.any(|(_, k)| &**k == key) {
            return Since::Yes;
        }
        // Every invalidation after `from` is in the log if its oldest is at
        // most the first of them; else those it let go are in the buckets.
        match log.recent.front() {
            Some(&(first, _)) if first <= from.one + 1 => Since::No,
            _ if log
                .older
                .get(bucket(key))
                .is_none_or(|&latest| latest <= from.one) =>
            {
                Since::No
            }
            _ => Since::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_is_told_apart_from_the_others() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        assert_eq!(inv.since("https://a", then), Since::No);
        inv.forget("https://b");
        assert_eq!(inv.since("https://a", then), Since::No);
        assert_eq!(inv.since("https://b", then), Since::Yes);
        // Only what came after the stamp counts.
        let later = inv.stamp();
        assert_eq!(inv.since("https://b", later), Since::No);
        inv.forget("https://a");
        assert_eq!(inv.since("https://a", later), Since::Yes);
        assert_eq!(inv.since("https://b", later), Since::No);
    }

    /// Only the invalidations between the two stamps count.
    #[test]
    fn between_two_stamps() {
        let inv = Invalidations::default();
        let first = inv.stamp();
        inv.forget("https://a");
        let second = inv.stamp();
        inv.forget("https://b");
        let third = inv.stamp();
        assert_eq!(inv.between("https://a", first, second), Since::Yes);
        assert_eq!(inv.between("https://a", second, third), Since::No);
        assert_eq!(inv.between("https://b", first, second), Since::No);
        assert_eq!(inv.between("https://b", first, third), Since::Yes);
        assert_eq!(inv.between("https://a", first, first), Since::No);
        inv.forget_all();
        assert_eq!(inv.between("https://c", first, third), Since::No);
        assert_eq!(inv.between("https://c", third, inv.stamp()), Since::Yes);
    }

    /// What a lookup asks of an entry it finds: yes only for its own
    /// origin's forgetting, and each invalidation looked at once.
    #[test]
    fn a_cached_entry_is_forgotten_by_its_own_origin_only() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        let checked = AtomicU64::new(0);
        assert!(!inv.forgotten("https://a", then, &checked));
        assert_eq!(checked.load(Ordering::Relaxed), 0);
        inv.forget("https://b");
        assert!(!inv.forgotten("https://a", then, &checked));
        // Known up to there: the next look takes no lock.
        assert_eq!(checked.load(Ordering::Relaxed), 1);
        inv.forget("https://a");
        assert!(inv.forgotten("https://a", then, &checked));
        assert!(inv.forgotten("https://a", then, &checked));
        // An entry made after it is not.
        let later = inv.stamp();
        assert!(!inv.forgotten("https://a", later, &AtomicU64::new(0)));
        // `invalidate_all` forgets all made before it.
        inv.forget_all();
        assert!(inv.forgotten("https://c", later, &AtomicU64::new(0)));
        assert!(!inv.forgotten("https://c", inv.stamp(), &AtomicU64::new(0)));
    }

    #[test]
    fn invalidate_all_forgets_every_origin_for_ever() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        inv.forget_all();
        for _ in 0..2 * LOG_LEN {
            inv.forget("https://b");
        }
        assert_eq!(inv.since("https://a", then), Since::Yes);
        assert_eq!(inv.since("https://a", inv.stamp()), Since::No);
    }

    #[test]
    fn a_stamp_older_than_the_log_is_answered_by_the_buckets() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        for i in 0..LOG_LEN {
            inv.forget(&format!("https://{i}"));
        }
        // The log reaches back to the first.
        assert_eq!(inv.since("https://a", then), Since::No);
        assert_eq!(inv.since("https://0", then), Since::Yes);
        inv.forget("https://last");
        // Now the first has gone: about a key the log names, yes; about the
        // one it let go, or one in its bucket, no answer; about others, no.
        assert_eq!(inv.since("https://last", then), Since::Yes);
        assert_eq!(inv.since("https://5", then), Since::Yes);
        assert_eq!(inv.since("https://0", then), Since::Unknown);
        let (twin, other) = (twin_of("https://0"), "https://a");
        assert_ne!(bucket(other), bucket("https://0"));
        assert_eq!(inv.since(&twin, then), Since::Unknown);
        assert_eq!(inv.since(other, then), Since::No);
        // A stamp taken after the one let go: that one does not count.
        let later = inv.stamp();
        for i in 0..=LOG_LEN {
            inv.forget(&format!("https://later-{i}"));
        }
        assert_eq!(inv.since("https://0", later), Since::No);
        assert_eq!(inv.since("https://later-0", later), Since::Unknown);
    }

    #[test]
    fn many_invalidations_of_other_origins_are_mostly_told_apart() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        for i in 0..LOG_LEN + 76 {
            inv.forget(&format!("https://other-{i}.example"));
        }
        // 76 let go, in at most 76 of the 4096 buckets.
        let unknown = (0..1000)
            .filter(|i| inv.since(&format!("https://site-{i}.example"), then) == Since::Unknown)
            .count();
        assert!(unknown <= 60, "{unknown} of 1000");
    }

    /// A key other than `key` in its bucket.
    fn twin_of(key: &str) -> String {
        (0..)
            .map(|i| format!("https://twin-{i}"))
            .find(|k| bucket(k) == bucket(key))
            .unwrap()
    }
}
