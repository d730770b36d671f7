//! One origin's cached state, and how each fetch result moves it.
//!
//! ```text
//!            2xx / 304 / 4xx
//!   (none) ──────────────────► Fresh ◄──── 2xx / 304 / 4xx, from any state
//!     │                          │
//!     │ unreachable              │ unreachable (5xx, 429, network)
//!     ▼                          ▼
//!   NoCopy                     Stale
//!   (disallow all)             (the last good copy)
//!     │                          │
//!     └────────────┬─────────────┘
//!                  │ unreachable at or past the stale limit; or the limit
//!                  │ reached while the server's Retry-After runs (no fetch)
//!                  ▼
//!               GaveUp (per AfterStaleLimit: allow or disallow all)
//! ```
//!
//! Every state has a `next_check` time: a `get` at or after it fetches again
//! (one task does; the others keep being served the current value), with
//! one exception. A Stale or NoCopy entry is due at the stale limit too,
//! and when its retry time (the backoff, or the server's `Retry-After`)
//! runs past the limit, the entry moves to GaveUp there without a request
//! ([`Entry::at_stale_limit`]); the request waits for the retry time. Past the limit, a lookup served while
//! another task refreshes gets the GaveUp value, never the last copy
//! ([`Entry::served_at`]); but if the retry after the last failed fetch
//! was due more than a day ago, or than the longest backoff if that is
//! longer ([`Policy::failure_gap`]: nobody asked meanwhile), nothing
//! recent shows the server is still down, and such a lookup gets disallow
//! all until the refresh tells. A failure after such a lapse starts a new
//! outage, counted from it ([`Entry::after_fetch`]).
//!
//! An entry the capacity bound evicts while its origin is unreachable
//! leaves a copy of itself without the last good copy: a Stale entry
//! becomes NoCopy with the same times ([`Entry::kept_after_eviction`]).
//! The cache's next miss of the origin takes it up where it was.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use super::invalidations::Stamp;
use crate::Robots;
use crate::fetch::{FetchResult, UnavailableReason};

/// What to serve for an origin unreachable for longer than the stale limit
/// ([`RobotsCacheBuilder::after_stale_limit`](crate::RobotsCacheBuilder::after_stale_limit)).
///
/// ```
/// use keepout::{RobotsCache, cache::AfterStaleLimit};
///
/// // Never open a site that stays down, however long.
/// let cache = RobotsCache::builder().after_stale_limit(AfterStaleLimit::DisallowAll).build()?;
/// # let _ = cache;
/// # Ok::<(), keepout::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AfterStaleLimit {
    /// Treat robots.txt as unavailable: allow all, as RFC 9309 section
    /// 2.3.1.4 permits after 30 days of unreachability. The default.
    ///
    /// The server may still be asking for a pause: the outcome keeps the
    /// last failed fetch's [`retry_after`](crate::FetchOutcome::retry_after),
    /// which a polite crawler honours for the whole site before crawling it.
    #[default]
    AllowAll,
    /// Keep disallowing everything until the server answers again.
    DisallowAll,
}

/// The timing rules a cache applies, from its builder.
#[derive(Debug, Clone)]
pub(crate) struct Policy {
    /// First retry delay after an unreachable result.
    pub(crate) retry_delay: Duration,
    /// The longest retry delay, however many failures in a row.
    pub(crate) max_backoff: Duration,
    /// How long an origin may be unreachable, from the first failed fetch
    /// in a row, before `after_stale_limit` applies.
    pub(crate) stale_limit: Duration,
    /// What to serve past the stale limit.
    pub(crate) after_stale_limit: AfterStaleLimit,
    /// The shortest freshness given to a fetched file, whatever its caching
    /// headers say (`no-store` would otherwise mean a fetch per lookup).
    pub(crate) min_ttl: Duration,
}

/// `t + d`, or a time about ten thousand years past `t` when that sum is
/// past the clock's range: a setting of `Duration::MAX` means "never", and
/// must not overflow.
fn later(t: SystemTime, d: Duration) -> SystemTime {
    const NEVER: Duration = Duration::from_secs(10_000 * 365 * 24 * 60 * 60);
    t.checked_add(d)
        .or_else(|| t.checked_add(NEVER))
        .unwrap_or(t)
}

/// The longest time past the retry time of the last failed fetch for
/// which that failure still shows the origin down (with
/// [`Policy::failure_gap`]).
pub(crate) const MAX_FAILURE_GAP: Duration = Duration::from_secs(24 * 60 * 60);

impl Policy {
    /// How long past its retry time (the backoff, or the server's
    /// `Retry-After`) a failed fetch still shows the origin down: for
    /// lookups served past the stale limit while a refresh is under way,
    /// and for the next failure to go on with the same outage. A day, or
    /// the longest backoff if longer.
    pub(crate) fn failure_gap(&self) -> Duration {
        self.max_backoff.max(MAX_FAILURE_GAP)
    }

    /// The delay before retry number `failures` (1 for the first failure):
    /// `retry_delay`, doubling per failure, capped at `max_backoff`.
    pub(crate) fn backoff(&self, failures: u32) -> Duration {
        // Doubled until it reaches the cap, not a fixed number of times: a
        // factor of at most 2^31 left a short delay under a long cap short
        // of it for good. The cap, or `Duration::MAX`, is reached within
        // about 95 doublings of a delay of at least 1 ns; the bound keeps
        // the loop short whatever the delay (the builder refuses zero).
        let mut delay = self.retry_delay;
        for _ in 1..failures.min(128) {
            if delay >= self.max_backoff {
                break;
            }
            delay = delay.saturating_mul(2);
        }
        delay.min(self.max_backoff)
    }
}

/// Where an origin stands.
#[derive(Debug, Clone)]
pub(crate) enum State {
    /// The server answered (2xx, 304, or 4xx meaning allow all); the served
    /// value is that answer.
    Fresh,
    /// Unreachable since `since` (the first failed fetch in a row): serving
    /// the last good answer (RFC 9309 section 2.4) and retrying with
    /// backoff.
    Stale { since: SystemTime, failures: u32 },
    /// Unreachable and never answered since `since`: disallow all (RFC 9309
    /// section 2.3.1.4), retrying with backoff.
    NoCopy { since: SystemTime, failures: u32 },
    /// Unreachable for longer than the stale limit, counted from `since`
    /// (the first failed fetch in a row): served per [`AfterStaleLimit`],
    /// retrying with backoff.
    GaveUp { since: SystemTime, failures: u32 },
}

/// One origin's cached value. Immutable once in the cache, apart from the
/// refresh flag; each fetch makes a new entry.
#[derive(Debug)]
pub(crate) struct Entry {
    /// What `get` returns.
    pub(crate) served: Arc<Robots>,
    pub(crate) state: State,
    /// The clock's time when the entry was made. A reading before it means
    /// the wall clock stepped back since, by an unknown amount (see
    /// [`is_fresh_at`](Self::is_fresh_at)).
    made_at: SystemTime,
    /// When to contact the server again.
    pub(crate) next_check: SystemTime,
    /// Estimated retained bytes, for the weigher.
    pub(crate) weight: usize,
    /// Set while one task re-fetches this entry (single-flight refresh).
    refreshing: AtomicBool,
    /// For an unreachable origin (Stale, NoCopy): what it turns into at
    /// the stale limit ([`AtLimit`]).
    at_limit: Option<AtLimit>,
    /// For an unreachable origin: its last failure ([`LastFailure`]).
    last_failure: Option<LastFailure>,
    /// The cache's invalidations when the fetch this entry holds began, or
    /// when it was made without one (set by the cache): an entry whose
    /// origin was forgotten since is not served, nor kept when evicted.
    pub(crate) stamp: Stamp,
    /// Up to which count of single invalidations this entry is known not
    /// forgotten
    /// ([`Invalidations::forgotten`](super::invalidations::Invalidations::forgotten)).
    pub(crate) checked: AtomicU64,
}

/// When an unreachable origin's last fetch failed, and what a lookup past
/// the stale limit gets once that is too long ago to show the origin still
/// down (see [`Entry::served_at`]).
#[derive(Debug, Clone)]
struct LastFailure {
    /// When the fetch after it was due (the backoff, or the server's
    /// `Retry-After`): no failure can follow it sooner.
    retry_at: SystemTime,
    /// The policy's [`failure_gap`](Policy::failure_gap).
    gap: Duration,
    /// Disallow all, with the failed fetch's outcome (RFC 9309 section
    /// 2.3.1.4: robots.txt undefined).
    unconfirmed: Arc<Robots>,
}

impl LastFailure {
    /// Whether, at `now`, this failure no longer shows the origin down:
    /// the fetch after it was due more than the gap ago, and nobody asked
    /// meanwhile. Measured from the retry time, not the failure, so that
    /// retries spaced by a long backoff or `Retry-After` (a day and more)
    /// still make one outage. A retry time "later" than `now` was set
    /// before the clock stepped back: recent.
    fn long_ago(&self, now: SystemTime) -> bool {
        now.duration_since(self.retry_at)
            .is_ok_and(|d| d > self.gap)
    }
}

/// What an unreachable origin's entry turns into at the stale limit.
///
/// At the limit the entry must change: the cache serves the last good copy
/// (or disallows all) no longer than the limit. (RFC 9309 section 2.3.1.4
/// lets a crawler take robots.txt as unavailable then, or go on with the
/// copy; the cache's choice is [`AfterStaleLimit`].) But when the retry
/// time runs past the limit, a fetch there would come before the time the
/// server asked for (its `Retry-After`, RFC 9110 section 10.2.3) or the
/// backoff set. So the change is made locally, to what a fetch failing as
/// the last one did would give, and the next request waits for the retry
/// time. The same value is what
/// lookups get past the limit while another task's refresh is under way.
#[derive(Debug)]
struct AtLimit {
    /// What to serve past the limit (per [`AfterStaleLimit`]), with the
    /// last failed fetch's outcome.
    served: Arc<Robots>,
    /// The stale limit.
    limit: SystemTime,
    /// When the server may be asked again (backoff and `Retry-After`).
    retry_at: SystemTime,
}

impl Entry {
    fn new(
        served: Arc<Robots>,
        state: State,
        made_at: SystemTime,
        next_check: SystemTime,
    ) -> Entry {
        // The indexes that checks build later are weighed in now, at their
        // most: the weight is taken once, on insertion.
        let weight =
            served.heap_bytes() + served.index_bytes_bound() + std::mem::size_of::<Entry>() + 256;
        Entry {
            served,
            state,
            made_at,
            next_check,
            weight,
            refreshing: AtomicBool::new(false),
            at_limit: None,
            last_failure: None,
            stamp: Stamp::default(),
            checked: AtomicU64::new(0),
        }
    }

    /// The entry after `fetched` arrived at `now`, following `previous` (none
    /// for an origin not cached).
    pub(crate) fn after_fetch(
        previous: Option<&Entry>,
        fetched: Robots,
        now: SystemTime,
        policy: &Policy,
    ) -> Entry {
        let outcome = fetched.fetch_outcome();
        let unreachable = outcome.is_some_and(|o| o.result().is_unreachable());
        if !unreachable {
            // 2xx, 304 (the fetcher hands back the previous rules) or
            // unavailable (4xx, allow all): cached alike, for the lifetime
            // the response's caching headers gave (RFC 9309 section 2.4,
            // at most 24 hours), but at least `min_ttl`.
            let lifetime = outcome
                .and_then(|o| o.expires_at().duration_since(o.fetched_at()).ok())
                .unwrap_or_default()
                .max(policy.min_ttl);
            return Entry::new(Arc::new(fetched), State::Fresh, now, later(now, lifetime));
        }
        let fetched = Arc::new(fetched);
        let outcome = fetched.fetch_outcome();
        // Unreachable. The fetcher's expiry for it (its `unreachable_ttl`)
        // is not used: the cache retries on its own schedule, soon at first,
        // then backing off; but never sooner than the server's
        // `Retry-After` asked.
        // Section 2.3.1.4 counts the time robots.txt has been unreachable:
        // from this failure, or from the first of the failures in a row
        // before it (never from the last good answer, which may be a month
        // old for an origin nobody asked about meanwhile). Failures in a
        // row each come at most the failure gap after the retry time the
        // one before set: one a month ago and one now, with no fetch
        // between, show two outages, not a month of one (the origin may
        // have answered all along), so a new one starts now. A first
        // failure "later" than `now` was seen before the clock stepped
        // back: the outage is then counted from `now`, the earliest time
        // known to be in it.
        let goes_on = previous
            .and_then(|p| p.last_failure.as_ref())
            .is_none_or(|last| !last.long_ago(now));
        let (good, since, failures) = match previous.map(|p| (p, &p.state)) {
            None => (None, now, 1),
            Some((p, State::Fresh)) => (Some(&p.served), now, 1),
            Some((p, State::Stale { since, failures })) if goes_on => {
                (Some(&p.served), *since, failures.saturating_add(1))
            }
            Some((p, State::Stale { .. })) => (Some(&p.served), now, 1),
            Some((_, State::NoCopy { since, failures } | State::GaveUp { since, failures }))
                if goes_on =>
            {
                (None, *since, failures.saturating_add(1))
            }
            Some((_, State::NoCopy { .. } | State::GaveUp { .. })) => (None, now, 1),
        };
        let asked = outcome.and_then(|o| o.retry_after()).unwrap_or_default();
        let retry_at = later(now, policy.backoff(failures).max(asked));
        let last_failure = LastFailure {
            retry_at,
            gap: policy.failure_gap(),
            // The fetcher's value: disallow all, with the outcome.
            unconfirmed: Arc::clone(&fetched),
        };
        let since = since.min(now);
        let limit = later(since, policy.stale_limit);
        if now >= limit {
            // RFC 9309 section 2.3.1.4: after 30 days unreachable the file
            // may be taken as unavailable.
            return Entry::new(
                Arc::new(given_up(outcome, policy)),
                State::GaveUp { since, failures },
                now,
                retry_at,
            )
            .with_last_failure(Some(last_failure));
        }
        // Retry with backoff, but also exactly at the stale limit so the
        // last copy is not served past it.
        let next_check = retry_at.min(limit);
        let at_limit = AtLimit {
            served: Arc::new(given_up(outcome, policy)),
            limit,
            retry_at,
        };
        let mut entry = match good {
            // RFC 9309 section 2.4: a cached copy may be used beyond its
            // expiry while robots.txt is unreachable. Its outcome says so
            // (and why); the rest of it, validators included, stays the
            // copy's, so refreshes stay conditional.
            Some(good) => Entry::new(
                Arc::new(stale_copy(good, outcome)),
                State::Stale { since, failures },
                now,
                next_check,
            ),
            // The fetcher's value: disallow all, with the outcome.
            None => Entry::new(
                Arc::clone(&fetched),
                State::NoCopy { since, failures },
                now,
                next_check,
            ),
        };
        entry.weight = entry.weight.saturating_add(at_limit.served.heap_bytes());
        entry.at_limit = Some(at_limit);
        entry.with_last_failure(Some(last_failure))
    }

    /// This entry with `last` as its last failure, weighed in (unless it
    /// is the value served, as for NoCopy).
    fn with_last_failure(mut self, last: Option<LastFailure>) -> Entry {
        if let Some(last) = last
            .as_ref()
            .filter(|l| !Arc::ptr_eq(&l.unconfirmed, &self.served))
        {
            self.weight = self.weight.saturating_add(last.unconfirmed.heap_bytes());
        }
        self.last_failure = last;
        self
    }

    /// The entry this one, found due at `now`, becomes without a fetch, if
    /// any: at the stale limit, when the retry time (backoff or the
    /// server's `Retry-After`) is later ([`AtLimit`]). `None` when a fetch
    /// is due.
    ///
    /// `now` must be the time the entry was found due at (not a later
    /// reading of a clock that may step back): being due before the retry
    /// time, it is due for the limit. (Unless the clock has stepped back to
    /// before the entry was made: then a fetch is due, and tells.)
    pub(crate) fn at_stale_limit(&self, now: SystemTime) -> Option<Entry> {
        let at = self.at_limit.as_ref()?;
        let (State::Stale { since, failures } | State::NoCopy { since, failures }) = self.state
        else {
            return None;
        };
        (at.limit <= now && now < at.retry_at).then(|| {
            Entry::new(
                Arc::clone(&at.served),
                State::GaveUp { since, failures },
                now,
                at.retry_at,
            )
            .with_last_failure(self.last_failure.clone())
        })
    }

    /// What the cache keeps of this entry when the capacity bound evicts
    /// it: for an unreachable origin, an entry with the same retry time,
    /// stale limit and count of failures, but no last good copy (the bulk
    /// of the memory the eviction is for), so that lookups until the retry
    /// time make no request and get what RFC 9309 section 2.3.1.4 calls
    /// for: disallow all (or, past the stale limit, the
    /// [`AfterStaleLimit`] value). `None` for an origin that answered: it
    /// is simply fetched again.
    pub(crate) fn kept_after_eviction(&self) -> Option<Entry> {
        let (state, served) = match self.state {
            State::Fresh => return None,
            State::Stale { since, failures } => {
                // The copy's rules go; the failed fetch's outcome stays (the
                // value at the limit holds it).
                let failed = self.at_limit.as_ref()?.served.fetch_outcome()?.clone();
                (
                    State::NoCopy { since, failures },
                    Arc::new(unreachable(failed)),
                )
            }
            State::NoCopy { .. } | State::GaveUp { .. } => {
                (self.state.clone(), Arc::clone(&self.served))
            }
        };
        let mut entry = Entry::new(served, state, self.made_at, self.next_check)
            .with_last_failure(self.last_failure.clone());
        entry.stamp = self.stamp;
        if let Some(at) = &self.at_limit {
            entry.weight = entry.weight.saturating_add(at.served.heap_bytes());
            entry.at_limit = Some(AtLimit {
                served: Arc::clone(&at.served),
                limit: at.limit,
                retry_at: at.retry_at,
            });
        }
        Some(entry)
    }

    /// What a lookup at `now` is served without waiting for a fetch: the
    /// current value, or past the stale limit, what the entry turns into
    /// there (a due entry is served so while another task refreshes it).
    /// Past the limit with the retry after the last failed fetch due more
    /// than the failure gap ago, disallow all: the copy is past its limit, and nothing recent
    /// shows the origin still down (one failure a month ago, then nobody
    /// asked) to allow all on; the refresh under way will tell.
    pub(crate) fn served_at(&self, now: SystemTime) -> &Arc<Robots> {
        let past_limit = match (&self.at_limit, &self.state) {
            (Some(at), _) if now >= at.limit => &at.served,
            (_, State::GaveUp { .. }) => &self.served,
            _ => return &self.served,
        };
        match &self.last_failure {
            Some(last) if last.long_ago(now) => &last.unconfirmed,
            _ => past_limit,
        }
    }

    /// Whether `get` should serve this entry without a fetch at `now`:
    /// before its next check, and not before the entry was made. A clock
    /// reading earlier than that means the wall clock stepped back, by an
    /// unknown amount (a restored VM, an NTP step at boot): waiting for
    /// `next_check` could then keep rules past RFC 9309 section 2.4's day,
    /// or an unreachable origin disallowed, for as long as the step. The
    /// entry is due instead, and the fetch anchors its successor at the
    /// clock's new time.
    #[inline]
    pub(crate) fn is_fresh_at(&self, now: SystemTime) -> bool {
        now < self.due_at(now)
    }

    /// When a lookup fetches again, as read at `now`: the next check, or
    /// `now` itself when the clock has stepped back past the entry's making
    /// (see [`is_fresh_at`](Self::is_fresh_at)).
    #[inline]
    pub(crate) fn due_at(&self, now: SystemTime) -> SystemTime {
        if now < self.made_at {
            now
        } else {
            self.next_check
        }
    }

    /// Whether the value served at `now` ([`served_at`](Self::served_at))
    /// is a last good copy kept through an outage.
    pub(crate) fn is_stale_copy_at(&self, now: SystemTime) -> bool {
        matches!(self.state, State::Stale { .. })
            && self.at_limit.as_ref().is_none_or(|at| now < at.limit)
    }

    /// The value to re-fetch from: its validators make the request
    /// conditional.
    pub(crate) fn refresh_base(&self) -> &Robots {
        &self.served
    }

    /// Claims the refresh of this entry; `false` if another task has it.
    pub(crate) fn try_begin_refresh(&self) -> bool {
        self.refreshing
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// Gives the refresh back (the refreshing task was cancelled).
    pub(crate) fn end_refresh(&self) {
        self.refreshing.store(false, Ordering::Release);
    }
}

/// What is served for an origin unreachable past the stale limit, per
/// [`AfterStaleLimit`], with the outcome of the fetch that failed
/// (`outcome`): with allow all, its result is unavailable
/// ([`UnreachableTooLong`](UnavailableReason::UnreachableTooLong)), so
/// that it names what is served, and says why.
fn given_up(outcome: Option<&crate::FetchOutcome>, policy: &Policy) -> Robots {
    let served = match policy.after_stale_limit {
        AfterStaleLimit::AllowAll => Robots::allow_all(),
        AfterStaleLimit::DisallowAll => Robots::disallow_all(),
    };
    match outcome {
        Some(o) => {
            let mut o = o.clone();
            if let (AfterStaleLimit::AllowAll, FetchResult::Unreachable(why)) =
                (policy.after_stale_limit, &o.result)
            {
                o.result =
                    FetchResult::Unavailable(UnavailableReason::UnreachableTooLong(why.clone()));
            }
            served.with_fetch_outcome(o)
        }
        None => served,
    }
}

/// Disallow all, as the fetcher gives for an unreachable robots.txt, with
/// `failed`, the outcome of the fetch that failed (or the value served
/// past the stale limit after it: its result is made unreachable again).
fn unreachable(mut failed: crate::FetchOutcome) -> Robots {
    if let FetchResult::Unavailable(UnavailableReason::UnreachableTooLong(why)) = &failed.result {
        failed.result = FetchResult::Unreachable(why.clone());
    }
    Robots::disallow_all().with_fetch_outcome(failed)
}

/// The last good copy `good`, as served while its server is unreachable:
/// the same rules, with the copy's outcome but for the result, which is
/// [`FetchResult::StaleCopy`] with why `failed` (the failed fetch's
/// outcome) failed, and the `Retry-After` the failed fetch was given (a
/// server that is overloaded says so for the whole site, not only for its
/// robots.txt: a crawler reading the outcome can slow down there too).
fn stale_copy(good: &Robots, failed: Option<&crate::FetchOutcome>) -> Robots {
    let failed = failed.and_then(|o| match o.result() {
        FetchResult::Unreachable(why) => Some((why.clone(), o.retry_after())),
        _ => None,
    });
    match (good.fetch_outcome(), failed) {
        (Some(copy), Some((why, retry_after))) => {
            let mut o = copy.clone();
            o.result = FetchResult::StaleCopy(why);
            o.retry_after = retry_after;
            good.clone().with_fetch_outcome(o)
        }
        // Not fetched (parsed locally), or no reason: as it is.
        _ => good.clone(),
    }
}

/// Whether a fetch result counts as unreachable (for the error counter).
pub(crate) fn is_unreachable(robots: &Robots) -> bool {
    robots
        .fetch_outcome()
        .is_some_and(|o| o.result().is_unreachable())
}

/// Whether a fetch result is a 304.
pub(crate) fn is_not_modified(robots: &Robots) -> bool {
    robots
        .fetch_outcome()
        .is_some_and(|o| matches!(o.result(), FetchResult::NotModified))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> Policy {
        Policy {
            retry_delay: Duration::from_secs(60),
            max_backoff: Duration::from_secs(3600),
            stale_limit: Duration::from_secs(30 * 86_400),
            after_stale_limit: AfterStaleLimit::AllowAll,
            min_ttl: Duration::from_secs(60),
        }
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = policy();
        let secs: Vec<u64> = (1..=9).map(|n| p.backoff(n).as_secs()).collect();
        assert_eq!(secs, [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
        assert_eq!(p.backoff(u32::MAX), Duration::from_secs(3600));
        assert_eq!(p.backoff(0), Duration::from_secs(60));
    }

    /// A short retry delay under a long cap keeps doubling past 32
    /// failures, up to the cap: the doubling is not cut at 2^31 times the
    /// delay (1 µs doubled 31 times is 36 minutes, short of the default
    /// hour, and 1 ns is 2 seconds, at which an origin down for good was
    /// asked again for ever).
    #[test]
    fn backoff_doubles_past_32_failures_up_to_the_cap() {
        let p = Policy {
            retry_delay: Duration::from_nanos(1),
            ..policy()
        };
        assert_eq!(p.backoff(32), Duration::from_nanos(1 << 31));
        assert_eq!(p.backoff(33), Duration::from_nanos(1 << 32));
        assert_eq!(p.backoff(40), Duration::from_nanos(1 << 39));
        assert_eq!(p.backoff(u32::MAX), Duration::from_secs(3600));
        let p = Policy {
            retry_delay: Duration::from_micros(1),
            ..policy()
        };
        assert_eq!(p.backoff(u32::MAX), Duration::from_secs(3600));
        let secs: Vec<_> = (1..200).map(|n| p.backoff(n)).collect();
        assert!(secs.windows(2).all(|w| w[0] <= w[1]));
        // Never past the clock's range, however long the cap.
        let p = Policy {
            retry_delay: Duration::from_secs(1),
            max_backoff: Duration::MAX,
            ..policy()
        };
        assert_eq!(p.backoff(u32::MAX), Duration::MAX);
        // A zero delay (refused by the builder) never grows: the loop is
        // bounded, not run once a failure.
        let p = Policy {
            retry_delay: Duration::ZERO,
            ..policy()
        };
        assert_eq!(p.backoff(u32::MAX), Duration::ZERO);
    }

    #[test]
    fn the_weight_counts_the_indexes_checks_may_build() {
        let now = SystemTime::UNIX_EPOCH;
        let small = Robots::parse("User-agent: *\nDisallow: /a\n");
        assert_eq!(small.index_bytes_bound(), 0);
        let mut body = String::from("User-agent: *\n");
        for i in 0..100 {
            body.push_str(&format!("Disallow: /p{i}\n"));
        }
        let large = Robots::parse(&body);
        let bound = large.index_bytes_bound();
        assert!(bound >= 100 * 24, "{bound}");
        let heap = large.heap_bytes();
        let e = Entry::after_fetch(None, large, now, &policy());
        assert!(e.weight >= heap + bound);
        // Many crawler names each in two large groups: one crawler's
        // checks build one index, and only that is weighed in (counting
        // one per name made this 160 KB file weigh 280 MB).
        let mut body = String::new();
        for group in 0..2 {
            for n in 0..2000 {
                body.push_str(&format!("User-agent: bot{n}\n"));
            }
            for r in 0..5000 {
                body.push_str(&format!("Disallow: /{group}/{r}\n"));
            }
        }
        let many = Robots::parse(&body);
        let bound = many.index_bytes_bound();
        assert!(bound >= 10_000 * 24, "{bound}");
        assert!(bound <= 10_000 * 28 + 1024, "{bound}");
    }

    #[test]
    fn a_zero_stale_limit_gives_up_at_the_first_failure() {
        use crate::cache::timing_tests::{Answer, fetched};
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let good = Entry::after_fetch(None, fetched(Answer::Rules(600), now, 0), now, &policy());
        let later = now + Duration::from_secs(3_600);
        let down = || fetched(Answer::Down(None, true), later, 1);
        // The default limit serves the last good copy (`/p` disallowed by
        // it)...
        let e = Entry::after_fetch(Some(&good), down(), later, &policy());
        assert!(matches!(e.state, State::Stale { .. }));
        assert!(
            !e.served_at(later)
                .is_allowed("bot", "https://example.com/p")
        );
        // ...a zero limit serves what the policy says, at once.
        for (after, allowed) in [
            (AfterStaleLimit::AllowAll, true),
            (AfterStaleLimit::DisallowAll, false),
        ] {
            let zero = Policy {
                stale_limit: Duration::ZERO,
                after_stale_limit: after,
                ..policy()
            };
            let e = Entry::after_fetch(Some(&good), down(), later, &zero);
            assert!(matches!(e.state, State::GaveUp { .. }), "{after:?}");
            let served = e.served_at(later);
            assert_eq!(served.is_allowed("bot", "https://example.com/p"), allowed);
        }
    }

    #[test]
    fn locally_parsed_values_count_as_answers() {
        let now = SystemTime::UNIX_EPOCH;
        let e = Entry::after_fetch(None, Robots::parse("x"), now, &policy());
        assert!(matches!(e.state, State::Fresh));
        assert_eq!(e.next_check, now + Duration::from_secs(60));
        assert!(!e.is_fresh_at(e.next_check));
        assert!(e.try_begin_refresh());
        assert!(!e.try_begin_refresh());
        e.end_refresh();
        assert!(e.try_begin_refresh());
    }
}
