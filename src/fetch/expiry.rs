//! How long fetched rules stay fresh (RFC 9309 section 2.4): standard HTTP
//! caching headers, capped at 24 hours, 24 hours when the server says nothing.

use std::time::{Duration, SystemTime};

use http::HeaderMap;
use http::header::{AGE, CACHE_CONTROL, DATE, EXPIRES, RETRY_AFTER};

/// The longest time rules may be used without a re-fetch (RFC 9309 section 2.4).
pub(crate) const MAX_FRESHNESS: Duration = Duration::from_secs(24 * 60 * 60);

/// When a response received at `now` with `headers` should be fetched again.
///
/// `Cache-Control: no-store`, `no-cache` (unqualified) and `max-age=0` mean
/// "re-fetch next time" (`now`). Otherwise `max-age` wins over `Expires` (measured from the
/// response's `Date` when present, to cancel clock skew), and 24 hours is the
/// lifetime when neither is given; `Age` is subtracted from either.
/// The result is never later than `now + 24 h`; with no caching headers it is
/// exactly that.
pub(crate) fn expiry_from_headers(headers: &HeaderMap, now: SystemTime) -> SystemTime {
    // `freshness` caps the lifetime at 24 h itself (before taking `Age` off).
    now + freshness(headers, now)
}

/// Whether `headers` say anything of freshness (`Cache-Control` or
/// `Expires`); without them a 304 keeps the stored lifetime.
pub(crate) fn has_freshness_headers(headers: &HeaderMap) -> bool {
    headers.contains_key(CACHE_CONTROL) || headers.contains_key(EXPIRES)
}

/// When an unreachable result (disallow all) received at `now` should be
/// fetched again: after `retry_after` (the server's `Retry-After`, from
/// [`retry_after`], when it counts) when given, otherwise per the caching
/// headers but no later than `ttl` after `now`, so a passing outage is
/// retried soon.
pub(crate) fn unreachable_expiry(
    headers: &HeaderMap,
    retry_after: Option<Duration>,
    now: SystemTime,
    ttl: Duration,
) -> SystemTime {
    if let Some(delay) = retry_after {
        return now + delay.min(MAX_FRESHNESS);
    }
    // Capping `ttl` first changes nothing (the expiry is within a day) and
    // keeps a huge configured TTL from overflowing `SystemTime`.
    expiry_from_headers(headers, now).min(now + ttl.min(MAX_FRESHNESS))
}

/// The delay a `Retry-After` header asks for (RFC 9110 section 10.2.3:
/// seconds or an HTTP-date), capped at 24 h; `None` without a readable
/// one. A date is measured from the response's `Date` when it has one, as
/// `Expires` is, so that the server's clock running behind or ahead of
/// this one (received at `now`) changes nothing.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?;
    let text = value.to_str().unwrap_or_default().trim();
    let delay = match delta_seconds(text) {
        Some(secs) => Duration::from_secs(secs),
        None => http_date(value)?
            .duration_since(server_now(headers, now))
            .unwrap_or(Duration::ZERO),
    };
    Some(delay.min(MAX_FRESHNESS))
}

/// The freshness lifetime the headers grant, at most 24 h, less `Age`.
fn freshness(headers: &HeaderMap, now: SystemTime) -> Duration {
    let mut max_age = None;
    for value in headers.get_all(CACHE_CONTROL) {
        // Octets past ASCII (obs-text, which a quoted argument may hold:
        // RFC 9110 section 5.6.4) are read as U+FFFD: the directives beside
        // them still count. Every directive name is ASCII.
        let value = String::from_utf8_lossy(value.as_bytes());
        for (name, arg) in directives(&value) {
            // A qualified `no-cache="Set-Cookie"` forbids reusing only the
            // fields it names, not the body (RFC 9111 section 5.2.2.4).
            if name.eq_ignore_ascii_case("no-store")
                || (name.eq_ignore_ascii_case("no-cache") && arg.is_none())
            {
                return Duration::ZERO;
            }
            if name.eq_ignore_ascii_case("max-age") {
                // An unparsable max-age makes the response stale (RFC 9111 section 4.2.1).
                let secs = arg.and_then(delta_seconds).unwrap_or(0);
                // With duplicates, the first one counts.
                max_age.get_or_insert(Duration::from_secs(secs));
            }
        }
    }
    let lifetime = match max_age {
        Some(max_age) => max_age,
        None => match headers.get(EXPIRES) {
            // An invalid Expires (like "0") means already expired (RFC 9111 section 5.3).
            Some(expires) => match http_date(expires) {
                Some(expires) => expires
                    .duration_since(server_now(headers, now))
                    .unwrap_or(Duration::ZERO),
                None => Duration::ZERO,
            },
            // RFC 9309 section 2.4: a day when the server says nothing.
            None => MAX_FRESHNESS,
        },
    };
    // The time the response has spent in caches on the way counts against
    // any lifetime, the default day's too (RFC 9111 section 4.2.3), so
    // that rules are not used more than a day after the server sent them:
    // taken off after the cap (RFC 9309 section 2.4), or a lifetime
    // granted past the day would hide it.
    let age = headers
        .get(AGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| delta_seconds(v.trim()))
        .map_or(Duration::ZERO, Duration::from_secs);
    lifetime.min(MAX_FRESHNESS).saturating_sub(age)
}

/// The directives of a `Cache-Control` value (RFC 9111 section 5.2): each
/// name, and its argument with any quotes taken off. Commas within a quoted
/// argument (RFC 9110 section 5.6.4, `private="a, b"`) do not end it.
fn directives(value: &str) -> impl Iterator<Item = (&str, Option<&str>)> {
    let mut rest = value;
    std::iter::from_fn(move || {
        loop {
            if rest.is_empty() {
                return None;
            }
            let (mut quoted, mut escaped) = (false, false);
            let end = rest
                .char_indices()
                .find(|&(_, c)| {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' if quoted => escaped = true,
                        '"' => quoted = !quoted,
                        ',' if !quoted => return true,
                        _ => {}
                    }
                    false
                })
                .map_or(rest.len(), |(i, _)| i);
            let directive = &rest[..end];
            rest = rest.get(end + 1..).unwrap_or("");
            let (name, arg) = match directive.split_once('=') {
                Some((name, arg)) => {
                    let arg = arg.trim();
                    let unquoted = arg
                        .strip_prefix('"')
                        .and_then(|a| a.strip_suffix('"'))
                        .unwrap_or(arg);
                    (name.trim(), Some(unquoted))
                }
                None => (directive.trim(), None),
            };
            if !name.is_empty() {
                return Some((name, arg));
            }
        }
    })
}

/// A `delta-seconds` value (RFC 9111 section 1.2.2): digits only; one too
/// large to represent counts as 2^31 seconds, as that section says.
fn delta_seconds(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(1 << 31))
}

/// The time the response was made, by the server's clock: its `Date`,
/// or `now` without one. Dates the server gives (`Expires`, a
/// `Retry-After` date) are measured from it, so that a server whose clock
/// is off asks for what it meant.
fn server_now(headers: &HeaderMap, now: SystemTime) -> SystemTime {
    headers.get(DATE).and_then(http_date).unwrap_or(now)
}

fn http_date(value: &http::HeaderValue) -> Option<SystemTime> {
    httpdate::parse_http_date(value.to_str().ok()?.trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn ttl(pairs: &[(&'static str, &str)]) -> Duration {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        expiry_from_headers(&headers(pairs), now)
            .duration_since(now)
            .unwrap()
    }

    const DAY: Duration = MAX_FRESHNESS;

    #[test]
    fn delta_seconds_too_large_count_as_two_to_the_31() {
        let huge = "99999999999999999999999";
        assert_eq!(ttl(&[("cache-control", &format!("max-age={huge}"))]), DAY);
        // An Age that large leaves nothing of the lifetime.
        assert_eq!(
            ttl(&[("cache-control", "max-age=600"), ("age", huge)]),
            Duration::ZERO
        );
        let now = SystemTime::UNIX_EPOCH;
        assert_eq!(
            retry_after(&headers(&[("retry-after", huge)]), now),
            Some(DAY)
        );
        // Not digits: no value.
        assert_eq!(ttl(&[("cache-control", "max-age=+60")]), Duration::ZERO);
        assert_eq!(retry_after(&headers(&[("retry-after", "-5")]), now), None);
    }

    #[test]
    fn default_is_24_hours() {
        assert_eq!(ttl(&[]), DAY);
        assert_eq!(ttl(&[("cache-control", "public")]), DAY);
    }

    /// A copy a cache on the way has held for an hour has 23 hours left of
    /// the default day, as of any lifetime the headers grant.
    #[test]
    fn age_shortens_the_default_day() {
        let hour = Duration::from_secs(3600);
        assert_eq!(ttl(&[("age", "3600")]), DAY - hour);
        assert_eq!(
            ttl(&[("cache-control", "public"), ("age", "3600")]),
            DAY - hour
        );
        assert_eq!(ttl(&[("age", "86400")]), Duration::ZERO);
        assert_eq!(ttl(&[("age", "soon")]), DAY);
        // A lifetime granted past the day is capped before the Age is
        // taken off: a copy an hour old has 23 hours left of it.
        let week = "604800";
        assert_eq!(
            ttl(&[
                ("cache-control", &format!("max-age={week}")),
                ("age", "3600")
            ]),
            DAY - hour
        );
        assert_eq!(
            ttl(&[
                ("date", "Tue, 14 Nov 2023 22:13:20 GMT"),
                ("expires", "Tue, 21 Nov 2023 22:13:20 GMT"),
                ("age", "3600"),
            ]),
            DAY - hour
        );
    }

    #[test]
    fn max_age_is_used_and_capped() {
        assert_eq!(
            ttl(&[("cache-control", "max-age=3600")]),
            Duration::from_secs(3600)
        );
        assert_eq!(
            ttl(&[("cache-control", "public, MAX-AGE=\"60\"")]),
            Duration::from_secs(60)
        );
        assert_eq!(ttl(&[("cache-control", "max-age=999999999")]), DAY);
        assert_eq!(ttl(&[("cache-control", "max-age=0")]), Duration::ZERO);
        assert_eq!(ttl(&[("cache-control", "max-age=soon")]), Duration::ZERO);
        assert_eq!(
            ttl(&[("cache-control", "max-age=600"), ("age", "100")]),
            Duration::from_secs(500)
        );
        // Of two max-age directives, in one header or two, the first counts.
        assert_eq!(
            ttl(&[("cache-control", "max-age=60, max-age=3600")]),
            Duration::from_secs(60)
        );
        assert_eq!(
            ttl(&[
                ("cache-control", "max-age=60"),
                ("cache-control", "max-age=3600")
            ]),
            Duration::from_secs(60)
        );
    }

    #[test]
    fn no_store_and_no_cache_mean_refetch() {
        assert_eq!(ttl(&[("cache-control", "no-store")]), Duration::ZERO);
        assert_eq!(
            ttl(&[("cache-control", "max-age=600, no-cache")]),
            Duration::ZERO
        );
        assert_eq!(
            ttl(&[
                ("cache-control", "max-age=600"),
                ("cache-control", "No-Store")
            ]),
            Duration::ZERO
        );
    }

    /// A quoted argument may hold octets past ASCII; the header's other
    /// directives still count.
    #[test]
    fn octets_past_ascii_leave_the_other_directives() {
        let ttl_of = |value: &[u8]| {
            let mut map = HeaderMap::new();
            map.append(CACHE_CONTROL, HeaderValue::from_bytes(value).unwrap());
            let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
            expiry_from_headers(&map, now).duration_since(now).unwrap()
        };
        assert_eq!(ttl_of(b"no-store, ext=\"caf\xe9\""), Duration::ZERO);
        assert_eq!(
            ttl_of(b"ext=\"\xff\xfe\", max-age=60"),
            Duration::from_secs(60)
        );
        assert_eq!(ttl_of(b"max-age=6\xe90"), Duration::ZERO);
    }

    #[test]
    fn quoted_arguments_keep_their_commas() {
        assert_eq!(
            ttl(&[("cache-control", "private=\"a, max-age=5\", max-age=3600")]),
            Duration::from_secs(3600)
        );
        assert_eq!(
            ttl(&[("cache-control", "community=\"x\\\", max-age=5\",max-age=60")]),
            Duration::from_secs(60)
        );
        // Qualified no-cache names fields not to reuse; the body may be.
        assert_eq!(
            ttl(&[(
                "cache-control",
                "no-cache=\"Set-Cookie, Vary\", max-age=3600"
            )]),
            Duration::from_secs(3600)
        );
        assert_eq!(ttl(&[("cache-control", ",, no-cache ,")]), Duration::ZERO);
        // An unterminated quote runs to the end of the value.
        assert_eq!(
            ttl(&[("cache-control", "max-age=60, x=\"no-store, max-age=1")]),
            Duration::from_secs(60)
        );
        let all: Vec<_> = directives("a, b=1 , c=\"x,y\",d=\"\", =e").collect();
        assert_eq!(
            all,
            [
                ("a", None),
                ("b", Some("1")),
                ("c", Some("x,y")),
                ("d", Some(""))
            ]
        );
    }

    #[test]
    fn unreachable_results_expire_sooner() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let hour = Duration::from_secs(3600);
        let after = |pairs: &[(&'static str, &str)]| {
            let headers = headers(pairs);
            unreachable_expiry(&headers, retry_after(&headers, now), now, hour)
                .duration_since(now)
                .unwrap()
        };
        assert_eq!(after(&[]), hour);
        assert_eq!(
            after(&[("cache-control", "max-age=60")]),
            Duration::from_secs(60)
        );
        assert_eq!(after(&[("retry-after", "7200")]), 2 * hour);
        assert_eq!(after(&[("retry-after", "9999999")]), DAY);
        assert_eq!(
            after(&[("retry-after", "Tue, 14 Nov 2023 22:23:20 GMT")]),
            Duration::from_secs(600)
        );
        // A date is measured from the server's own `Date`: a server an
        // hour behind this clock, or a day, still gets the ten minutes it
        // asked for. (From this clock, the first was 70 minutes, and the
        // second a date already past: retried at once.)
        for (date, retry) in [
            (
                "Tue, 14 Nov 2023 23:13:20 GMT",
                "Tue, 14 Nov 2023 23:23:20 GMT",
            ),
            (
                "Mon, 13 Nov 2023 22:13:20 GMT",
                "Mon, 13 Nov 2023 22:23:20 GMT",
            ),
        ] {
            assert_eq!(
                after(&[("date", date), ("retry-after", retry)]),
                Duration::from_secs(600),
                "{date}"
            );
        }
        assert_eq!(after(&[("retry-after", "whenever")]), hour);
        assert_eq!(
            retry_after(&headers(&[("retry-after", " 90 ")]), now),
            Some(Duration::from_secs(90))
        );
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[]), now), None);
        // A configured TTL beyond any clock's range is capped, not added.
        let forever = unreachable_expiry(&headers(&[]), None, now, Duration::MAX);
        assert_eq!(forever.duration_since(now).unwrap(), DAY);
    }

    #[test]
    fn expires_relative_to_date() {
        let date = "Tue, 14 Nov 2023 22:13:20 GMT";
        assert_eq!(
            ttl(&[("date", date), ("expires", "Tue, 14 Nov 2023 23:13:20 GMT")]),
            Duration::from_secs(3600)
        );
        assert_eq!(
            ttl(&[("date", date), ("expires", "Tue, 14 Nov 2023 21:00:00 GMT")]),
            Duration::ZERO
        );
        assert_eq!(
            ttl(&[("date", date), ("expires", "Thu, 14 Nov 2024 22:13:20 GMT")]),
            DAY
        );
        assert_eq!(ttl(&[("expires", "0")]), Duration::ZERO);
        // max-age wins over Expires.
        assert_eq!(
            ttl(&[
                ("date", date),
                ("expires", "Tue, 14 Nov 2023 23:13:20 GMT"),
                ("cache-control", "max-age=60"),
            ]),
            Duration::from_secs(60)
        );
    }
}
