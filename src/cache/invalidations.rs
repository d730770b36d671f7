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
//! are a counter and a log of the latest [`LOG_LEN`] keys: a question about
//! a stamp older than the log reaches back is answered [`Since::Unknown`]:
//! a fetch or refresh then keeps nothing (one more fetch), while the
//! eviction listener keeps its record (see `keep_after_eviction`).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many single invalidations the log keeps: a question about a fetch
/// during which more than this many came is answered [`Since::Unknown`]
/// (unless the log names its origin). 24 bytes each, plus the key.
pub(crate) const LOG_LEN: usize = 1024;

/// The invalidations of a cache so far.
#[derive(Debug, Default)]
pub(crate) struct Invalidations {
    /// `invalidate_all` calls so far.
    all: AtomicU64,
    /// Single `invalidate` calls so far: the number of the last in `log`.
    one: AtomicU64,
    /// The keys of the latest single invalidations, each with its number,
    /// oldest first; at most [`LOG_LEN`].
    log: Mutex<VecDeque<(u64, Box<str>)>>,
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
    /// them `invalidate_all`.
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
        if log.len() == LOG_LEN {
            log.pop_front();
        }
        log.push_back((n, key.into()));
    }

    /// Records an `invalidate_all`; as [`forget`](Self::forget), before
    /// the cache removes anything.
    pub fn forget_all(&self) {
        self.all.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether the origin `key` was forgotten since `then`.
    pub fn since(&self, key: &str, then: Stamp) -> Since {
        if self.all.load(Ordering::SeqCst) != then.all {
            return Since::Yes;
        }
        if self.one.load(Ordering::SeqCst) == then.one {
            // The common case: no invalidation at all, and no lock.
            return Since::No;
        }
        let log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut newer = log.iter().rev().take_while(|(n, _)| *n > then.one);
        if newer.any(|(_, k)| &**k == key) {
            return Since::Yes;
        }
        // Every invalidation after `then` is in the log if its oldest is at
        // most the first of them.
        match log.front() {
            Some(&(first, _)) if first <= then.one + 1 => Since::No,
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
    fn a_stamp_older_than_the_log_is_unknown_unless_the_log_names_it() {
        let inv = Invalidations::default();
        let then = inv.stamp();
        for i in 0..LOG_LEN {
            inv.forget(&format!("https://{i}"));
        }
        // The log reaches back to the first.
        assert_eq!(inv.since("https://a", then), Since::No);
        assert_eq!(inv.since("https://0", then), Since::Yes);
        inv.forget("https://last");
        // Now the first has gone: about a key the log does not name, no
        // answer; about one it names, yes.
        assert_eq!(inv.since("https://a", then), Since::Unknown);
        assert_eq!(inv.since("https://0", then), Since::Unknown);
        assert_eq!(inv.since("https://last", then), Since::Yes);
        assert_eq!(inv.since("https://5", then), Since::Yes);
    }
}
