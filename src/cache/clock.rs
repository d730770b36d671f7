//! The cache's notion of "now", injectable for tests.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

/// Where a [`RobotsCache`](crate::RobotsCache) reads the time.
///
/// The cache decides freshness, retry times and the stale limit by this
/// clock alone (a clock that steps back makes the entries made since the
/// time it stepped to due at once: see the [module docs](crate::cache#time)).
/// A fetch's lifetime is read from its
/// [`FetchOutcome`](crate::FetchOutcome) as a duration
/// (`expires_at - fetched_at`) and anchored at the clock's `now` when the
/// fetch completed, so a test can move a [`ManualClock`] forward by days
/// while the fetcher keeps stamping real wall-clock times.
///
/// The clock is `SystemTime`-based because fetch outcomes are; it is not
/// tokio's clock, so `tokio::time::pause` does not move it (and a paused
/// tokio clock would also fire the fetcher's timeouts while it waits on a
/// real socket). A clock that follows tokio's paused time can be written in
/// a few lines by adding `tokio::time::Instant` elapsed time to a fixed
/// `SystemTime`:
///
/// ```
/// use std::time::SystemTime;
/// use keepout::{RobotsCache, cache::Clock};
///
/// #[derive(Debug)]
/// struct TokioClock {
///     start: SystemTime,
///     base: tokio::time::Instant,
/// }
///
/// impl Clock for TokioClock {
///     fn now(&self) -> SystemTime {
///         self.start + self.base.elapsed()
///     }
/// }
///
/// let clock = TokioClock { start: SystemTime::now(), base: tokio::time::Instant::now() };
/// let cache = RobotsCache::builder().clock(clock).build()?;
/// # let _ = cache;
/// # Ok::<(), keepout::Error>(())
/// ```
pub trait Clock: Send + Sync + fmt::Debug + 'static {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system's wall clock: [`SystemTime::now`]. The default.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A clock that only moves when told to, for tests. Clones share one time,
/// so keep a clone to [`advance`](Self::advance) the clock given to the cache.
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use keepout::cache::{Clock, ManualClock};
///
/// let clock = ManualClock::new(SystemTime::UNIX_EPOCH);
/// let handle = clock.clone();
/// handle.advance(Duration::from_secs(90));
/// assert_eq!(clock.now(), SystemTime::UNIX_EPOCH + Duration::from_secs(90));
/// ```
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<SystemTime>>,
}

impl Default for ManualClock {
    /// A manual clock starting at the current system time.
    fn default() -> Self {
        ManualClock::new(SystemTime::now())
    }
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: SystemTime) -> ManualClock {
        ManualClock {
            now: Arc::new(Mutex::new(start)),
        }
    }

    /// Moves the clock forward by `by`.
    ///
    /// # Panics
    ///
    /// If the time would pass the latest a [`SystemTime`] can hold; the
    /// clock is then left where it was.
    pub fn advance(&self, by: Duration) {
        let mut now = self.now.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(later) = now.checked_add(by) else {
            drop(now);
            panic!(
                "ManualClock::advance: {by:?} past the clock's time is beyond what SystemTime holds"
            );
        };
        *now = later;
    }

    /// Sets the clock to `to` (backwards too).
    pub fn set(&self, to: SystemTime) {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> SystemTime {
        *self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_past_the_end_of_time_panics_and_leaves_the_clock() {
        let start = SystemTime::UNIX_EPOCH;
        let clock = ManualClock::new(start);
        let advanced = std::panic::catch_unwind(|| clock.advance(Duration::MAX));
        let message = advanced.unwrap_err();
        let message = message.downcast_ref::<String>().unwrap();
        assert!(
            message.contains("beyond what SystemTime holds"),
            "{message}"
        );
        assert_eq!(clock.now(), start);
        clock.advance(Duration::from_secs(1));
        assert_eq!(clock.now(), start + Duration::from_secs(1));
    }
}
