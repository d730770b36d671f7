//! The cache's timing rules, checked against a model on random histories of
//! server answers and lookups: an origin is asked again exactly when its
//! last answer allows (never sooner than its freshness, the backoff or the
//! server's `Retry-After`; at the first lookup after), and what is served
//! at each moment is what RFC 9309 sections 2.4 and 2.3.1.4 say.
//!
//! This drives [`Entry`] as `RobotsCache::get` and `refresh` do, with
//! evictions by the capacity bound between lookups (the tests under
//! `tests/cache.rs` cover the glue, against a real server).

use std::time::{Duration, SystemTime};

use http::StatusCode;
use proptest::prelude::*;

use super::entry::{AfterStaleLimit, Entry, Policy, State};
use crate::fetch::{FetchOutcome, FetchResult, UnavailableReason, UnreachableReason};
use crate::{Access, Robots};

/// What the server answers to the next request.
#[derive(Debug, Clone, Copy)]
pub(super) enum Answer {
    /// 200 with rules, fresh for this many seconds. Each 200 has a body of
    /// its own (told apart by its sitemap), so that the copy served can be
    /// checked.
    Rules(u64),
    /// 404: allow all, fresh for a day.
    Gone,
    /// 503, with a `Retry-After` of this many seconds if any (the fetcher
    /// caps it at 24 hours); or, when `false`, a timeout (no response).
    Down(Option<u64>, bool),
}

const START: Duration = Duration::from_secs(1_700_000_000);

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        (0..3u64).prop_map(|i| Answer::Rules([0, 600, 86_400][i as usize])),
        Just(Answer::Gone),
        (
            prop_oneof![
                Just(None),
                (0..4u64).prop_map(|i| Some([30, 600, 7_200, 86_400][i as usize])),
            ],
            any::<bool>()
        )
            .prop_map(|(asked, status)| Answer::Down(asked, status)),
    ]
}

/// Time between lookups.
fn pause() -> impl Strategy<Value = Duration> {
    (0..9usize).prop_map(|i| {
        Duration::from_secs(
            [
                1,
                59,
                60,
                600,
                3_600,
                43_200,
                86_400,
                7 * 86_400,
                29 * 86_400,
            ][i],
        )
    })
}

/// The value a fetch at `now` gives for `answer`, as the fetcher builds it;
/// a body of rules is told apart by the sitemap `n`.
pub(super) fn fetched(answer: Answer, now: SystemTime, n: usize) -> Robots {
    let url = url::Url::parse("https://example.com/robots.txt").expect("a URL");
    let (robots, status, result, life, retry_after) = match answer {
        Answer::Rules(life) => (
            Robots::parse(format!(
                "User-agent: *\nDisallow: /p\nSitemap: https://example.com/{n}.xml\n"
            )),
            Some(StatusCode::OK),
            FetchResult::Fetched,
            life,
            None,
        ),
        Answer::Gone => (
            Robots::allow_all(),
            Some(StatusCode::NOT_FOUND),
            FetchResult::Unavailable(UnavailableReason::Status(StatusCode::NOT_FOUND)),
            86_400,
            None,
        ),
        Answer::Down(asked, true) => (
            Robots::disallow_all(),
            Some(StatusCode::SERVICE_UNAVAILABLE),
            FetchResult::Unreachable(UnreachableReason::Status(StatusCode::SERVICE_UNAVAILABLE)),
            3_600,
            asked.map(Duration::from_secs),
        ),
        Answer::Down(_, false) => (
            Robots::disallow_all(),
            None,
            FetchResult::Unreachable(UnreachableReason::Timeout),
            3_600,
            None,
        ),
    };
    robots.with_fetch_outcome(FetchOutcome {
        robots_url: url.clone(),
        final_url: url,
        proxy: None,
        redirects: 0,
        status,
        result,
        fetched_at: now,
        expires_at: now + Duration::from_secs(life),
        retry_after,
        etag: None,
        last_modified: None,
        body_bytes: 0,
        truncated_at_cap: false,
    })
}

/// What the model knows of the origin: its last answer and when it may be
/// asked again.
struct Model {
    /// The earliest time of the next request.
    next_request: SystemTime,
    /// The last good answer (2xx, 4xx), if any: its access and, for rules,
    /// its sitemap.
    good: Option<(Access, Vec<String>)>,
    /// The first of the failed fetches in a row, how many, and the time
    /// the retry after the last was due.
    failing: Option<(SystemTime, u32, SystemTime)>,
}

/// How long past its retry time a failed fetch shows the origin down: a
/// day (the policy's longest backoff, an hour, is shorter).
const GAP: Duration = Duration::from_secs(86_400);

/// The delay before retry number `failures`: a minute, doubling, at most
/// an hour (the policy below, worked out apart from `Policy::backoff`).
fn backoff(failures: u32) -> Duration {
    let minutes = (0..failures.saturating_sub(1)).fold(1u64, |m, _| (2 * m).min(60));
    Duration::from_secs(60 * minutes)
}

/// Which parts of a served value to compare.
fn looks(robots: &Robots) -> (Access, Vec<String>) {
    (
        robots.access(),
        robots.sitemaps().map(str::to_owned).collect(),
    )
}

impl Model {
    fn answered(&mut self, answer: Answer, now: SystemTime, fetched: &Robots, policy: &Policy) {
        match answer {
            Answer::Rules(life) => {
                self.good = Some(looks(fetched));
                self.failing = None;
                self.next_request = now + Duration::from_secs(life).max(policy.min_ttl);
            }
            Answer::Gone => {
                self.good = Some(looks(fetched));
                self.failing = None;
                self.next_request = now + Duration::from_secs(86_400).max(policy.min_ttl);
            }
            Answer::Down(asked, status) => {
                // A failure more than the gap past the retry the last one
                // set starts a new outage.
                let (since, failures) = match self.failing {
                    Some((s, n, due)) if now.duration_since(due).unwrap() <= GAP => (s, n + 1),
                    _ => (now, 1),
                };
                if now >= since + policy.stale_limit {
                    // Given up: the copy is no longer kept.
                    self.good = None;
                }
                // A timeout has no `Retry-After`.
                let asked = Duration::from_secs(asked.filter(|_| status).unwrap_or(0));
                self.next_request = now + backoff(failures).max(asked);
                self.failing = Some((since, failures, self.next_request));
            }
        }
    }

    /// Checks `served`, served at `now` (with the entry's `state`, when the
    /// lookup has moved the entry on; none for a lookup served while
    /// another task refreshes).
    fn check_served(
        &self,
        served: &Robots,
        state: Option<&State>,
        now: SystemTime,
        policy: &Policy,
    ) -> Result<(), TestCaseError> {
        let result = served.fetch_outcome().map(|o| o.result().clone());
        match self.failing {
            None => {
                prop_assert!(state.is_none_or(|s| matches!(s, State::Fresh)));
                prop_assert_eq!(Some(looks(served)), self.good.clone());
            }
            Some((since, _, _)) if now < since + policy.stale_limit => match &self.good {
                // Section 2.4: the last good copy, saying so.
                Some(good) => {
                    prop_assert!(
                        state.is_none_or(|s| matches!(s, State::Stale { .. })),
                        "{state:?}"
                    );
                    prop_assert_eq!(&looks(served), good);
                    prop_assert!(matches!(result, Some(FetchResult::StaleCopy(_))));
                }
                // Section 2.3.1.4: disallow all.
                None => {
                    prop_assert!(
                        state.is_none_or(|s| matches!(s, State::NoCopy { .. })),
                        "{state:?}"
                    );
                    prop_assert_eq!(served.access(), Access::DisallowAll);
                    prop_assert!(matches!(result, Some(FetchResult::Unreachable(_))));
                }
            },
            // Past the stale limit, the last failure's retry due long ago
            // (a lookup while another task refreshes): disallow all, not
            // the copy, and not allow all on that old failure.
            Some((_, _, due)) if now.duration_since(due).is_ok_and(|d| d > GAP) => {
                prop_assert!(state.is_none(), "{state:?}");
                prop_assert_eq!(served.access(), Access::DisallowAll);
                prop_assert!(matches!(result, Some(FetchResult::Unreachable(_))));
            }
            // Past the stale limit: the policy's choice, never the copy.
            Some(_) => {
                prop_assert!(
                    state.is_none_or(|s| matches!(s, State::GaveUp { .. })),
                    "{state:?}"
                );
                match policy.after_stale_limit {
                    AfterStaleLimit::AllowAll => {
                        prop_assert_eq!(served.access(), Access::AllowAll);
                        prop_assert!(matches!(
                            result,
                            Some(FetchResult::Unavailable(
                                UnavailableReason::UnreachableTooLong(_)
                            ))
                        ));
                    }
                    AfterStaleLimit::DisallowAll => {
                        prop_assert_eq!(served.access(), Access::DisallowAll);
                        prop_assert!(matches!(result, Some(FetchResult::Unreachable(_))));
                    }
                }
            }
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn requests_come_exactly_when_due_and_serve_what_the_rfc_says(
        history in prop::collection::vec(
            (pause(), answer(), prop::bool::weighted(0.2)),
            1..40,
        ),
        limit in (0..3usize).prop_map(|i| [3_600u64, 43_200, 30 * 86_400][i]),
        disallow_after in any::<bool>(),
    ) {
        let policy = Policy {
            retry_delay: Duration::from_secs(60),
            max_backoff: Duration::from_secs(3_600),
            stale_limit: Duration::from_secs(limit),
            after_stale_limit: if disallow_after {
                AfterStaleLimit::DisallowAll
            } else {
                AfterStaleLimit::AllowAll
            },
            min_ttl: Duration::from_secs(60),
        };
        let mut now = SystemTime::UNIX_EPOCH + START;
        let mut model = Model { next_request: now, good: None, failing: None };
        let mut entry: Option<Entry> = None;
        let mut answers = history.iter().map(|&(_, a, _)| a);
        for (n, &(pause, _, evicted)) in history.iter().enumerate() {
            now += pause;
            // Evicted since the last lookup: the last good copy goes (an
            // origin that answered is asked again at once); an unreachable
            // origin's times and failures stay.
            if evicted && let Some(e) = entry.take() {
                entry = e.kept_after_eviction();
                model.good = None;
                if model.failing.is_none() {
                    model.next_request = now;
                }
            }
            // A lookup served while another task refreshes a due entry.
            if let Some(e) = entry.as_ref().filter(|e| !e.is_fresh_at(now)) {
                model.check_served(e.served_at(now), None, now, &policy)?;
            }
            // The lookup that moves the entry on, as `get` and `refresh`
            // make it.
            let mut request = |previous: Option<&Entry>| {
                let answer = answers.next().expect("an answer per lookup at most");
                prop_assert!(now >= model.next_request, "asked too soon");
                let fetched = fetched(answer, now, n);
                model.answered(answer, now, &fetched, &policy);
                Ok(Entry::after_fetch(previous, fetched, now, &policy))
            };
            let (next, asked) = match entry.take() {
                None => (request(None)?, true),
                Some(e) if e.is_fresh_at(now) => (e, false),
                Some(e) => match e.at_stale_limit(now) {
                    Some(next) => (next, false),
                    None => (request(Some(&e))?, true),
                },
            };
            if !asked {
                prop_assert!(now < model.next_request, "due, but not asked");
                // Past the stale limit the entry gives up its copy.
                if model.failing.is_some_and(|(since, _, _)| now >= since + policy.stale_limit) {
                    model.good = None;
                }
            }
            model.check_served(next.served_at(now), Some(&next.state), now, &policy)?;
            // Never due at once: a lookup does not fetch twice in a row.
            prop_assert!(next.next_check > now);
            entry = Some(next);
        }
    }
}
