//! Records beyond allow/disallow: the extensions crawlers use (RFC 9309
//! section 2.2.4, "other records") and the ones keepout keeps uninterpreted.

use std::fmt;
use std::time::Duration;

/// A `Request-rate` value: at most `requests` fetches every `per`.
///
/// Written as `n/N` with an optional unit (`s`, `m`, `h`, `d`; seconds when
/// absent), e.g. `Request-rate: 1/5s` or `Request-rate: 100/1h`. An optional
/// time window after it (`0600-0845`, UTC) is kept in
/// [`window`](RequestRate::window). Values come from the parser; fields
/// may be added (`#[non_exhaustive]`).
///
/// ```
/// let robots = keepout::Robots::parse("User-agent: *\nRequest-rate: 3/1m\n");
/// let rate = robots.request_rate("AnyBot").unwrap();
/// assert_eq!((rate.requests, rate.per.as_secs()), (3, 60));
/// assert_eq!(rate.delay().as_secs(), 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestRate {
    /// Requests allowed per period (at least 1).
    pub requests: u32,
    /// The period (non-zero; a longer one than `u64::MAX` seconds is kept
    /// as that).
    pub per: Duration,
    /// The `HHMM-HHMM` window the rate applies in, if one was given.
    pub window: Option<(u16, u16)>,
}

impl RequestRate {
    /// The spacing between requests the rate implies: `per / requests`
    /// (`per` itself for a value built with `requests` of 0, which a parse
    /// never gives).
    /// At most [`MAX_CRAWL_DELAY`](crate::limits::MAX_CRAWL_DELAY).
    pub fn delay(&self) -> Duration {
        let delay = self.per.checked_div(self.requests).unwrap_or(self.per);
        delay.min(crate::limits::MAX_CRAWL_DELAY)
    }

    /// Parses `n/N[unit] [HHMM-HHMM]`: every number is ASCII digits only
    /// (`str::parse` alone would also take a leading `+`).
    pub(crate) fn parse(value: &str) -> Option<RequestRate> {
        fn number<T: std::str::FromStr>(s: &str) -> Option<T> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        }
        let mut parts = value.split_ascii_whitespace();
        let rate = parts.next()?;
        let window = match parts.next() {
            None => None,
            Some(w) => {
                let (a, b) = w.split_once('-')?;
                let hhmm = |s: &str| -> Option<u16> {
                    let v: u16 = number(s)?;
                    (s.len() == 4 && v / 100 < 24 && v % 100 < 60).then_some(v)
                };
                Some((hhmm(a)?, hhmm(b)?))
            }
        };
        if parts.next().is_some() {
            return None;
        }
        let (n, per) = rate.split_once('/')?;
        let requests: u32 = number(n).filter(|&n| n > 0)?;
        let (digits, unit) = match per.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => per.split_at(i),
            None => (per, "s"),
        };
        // `digits` are ASCII digits, and some are needed. A period past
        // `u64::MAX` seconds is kept at that (its delay is a day anyway:
        // `delay`), not refused: a longer period asks for fewer requests,
        // not for no limit.
        if digits.is_empty() {
            return None;
        }
        let count: u64 = digits.parse().unwrap_or(u64::MAX);
        if count == 0 {
            return None;
        }
        let unit_secs = match unit {
            "s" | "S" => 1,
            "m" | "M" => 60,
            "h" | "H" => 3600,
            "d" | "D" => 86_400,
            _ => return None,
        };
        Some(RequestRate {
            requests,
            per: Duration::from_secs(count.saturating_mul(unit_secs)),
            window,
        })
    }
}

impl fmt::Display for RequestRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}s", self.requests, self.per.as_secs())?;
        if let Some((a, b)) = self.window {
            write!(f, " {a:04}-{b:04}")?;
        }
        Ok(())
    }
}

/// A record whose key keepout does not interpret (`Noindex`, `Clean-param`,
/// `Content-Signal`, ...), kept for tooling. Fields may be added
/// (`#[non_exhaustive]`).
///
/// ```
/// let robots = keepout::Robots::parse("User-agent: *\nNoindex: /drafts/ # not a rule\n");
/// let record = &robots.records()[0];
/// assert_eq!((record.line, &*record.key, &*record.value), (2, "Noindex", "/drafts/"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Record {
    /// Line number (1-based).
    pub line: u32,
    /// The key as written.
    pub key: Box<str>,
    /// The value as written (trimmed, comment removed; bytes that are not
    /// UTF-8 are replaced by U+FFFD).
    pub value: Box<str>,
}

impl Record {
    pub(crate) fn heap_bytes(&self) -> usize {
        self.key.len() + self.value.len() + std::mem::size_of::<Record>()
    }
}

/// Parses a `Crawl-delay` value: decimal seconds, non-negative and finite
/// (not the words `inf` or `NaN`); more than
/// [`MAX_CRAWL_DELAY`](crate::limits::MAX_CRAWL_DELAY) is read as that,
/// even a number past what an `f64` holds (`1e400`), which parses as
/// infinity.
pub(crate) fn parse_crawl_delay(value: &str) -> Option<Duration> {
    let v: f64 = value.parse().ok()?;
    if v.is_nan() || v < 0.0 {
        return None;
    }
    let max = crate::limits::MAX_CRAWL_DELAY;
    if v.is_infinite() {
        // A numeral too large, not the word: digits, `.`, an exponent.
        let numeral = value
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+'));
        return numeral.then_some(max);
    }
    Some(Duration::try_from_secs_f64(v).map_or(max, |d| d.min(max)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_rates() {
        let r = RequestRate::parse("1/5").unwrap();
        assert_eq!(
            (r.requests, r.per, r.window),
            (1, Duration::from_secs(5), None)
        );
        let r = RequestRate::parse("10/1m 0600-0845").unwrap();
        assert_eq!(
            (r.requests, r.per, r.window),
            (10, Duration::from_secs(60), Some((600, 845)))
        );
        assert_eq!(
            RequestRate::parse("2/1h").unwrap().delay(),
            Duration::from_secs(1800)
        );
        // Built by hand with no requests: no panic.
        let r = RequestRate {
            requests: 0,
            per: Duration::from_secs(5),
            window: None,
        };
        assert_eq!(r.delay(), Duration::from_secs(5));
        // Periods past `u64::MAX` seconds are kept at that.
        for long in [
            "1/18446744073709551615",
            "1/99999999999999999999d",
            "1/18446744073709551615m",
        ] {
            let r = RequestRate::parse(long).unwrap();
            assert_eq!(r.per, Duration::from_secs(u64::MAX), "{long}");
            assert_eq!(r.delay(), crate::limits::MAX_CRAWL_DELAY, "{long}");
        }
        for bad in [
            "",
            "5",
            "0/5",
            "1/0",
            "1/5x",
            "a/b",
            "1/5 2500-2600",
            // Minutes past 59, and times not of four digits.
            "1/5 0660-0700",
            "1/5 0600-0790",
            "1/5 600-0845",
            "1/5 0600-08450",
            "1/5 0600-0845 x",
            // More requests than a `u32` holds.
            "4294967296/5",
            // Digits only: no sign, which would also fill `HHMM`.
            "+1/5",
            "1/+5",
            "1/5 +600-0845",
            "1/5 0600-+845",
        ] {
            assert_eq!(RequestRate::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn crawl_delays() {
        assert_eq!(parse_crawl_delay("10"), Some(Duration::from_secs(10)));
        assert_eq!(parse_crawl_delay("0.5"), Some(Duration::from_millis(500)));
        for bad in [
            "", "-1", "NaN", "inf", "+inf", "infinity", "-1e400", "ten", "5s",
        ] {
            assert_eq!(parse_crawl_delay(bad), None, "{bad}");
        }
        // Long delays are a day at most: adding one to an `Instant` is safe.
        // So is one past what an `f64` holds, which parses as infinity.
        let day = crate::limits::MAX_CRAWL_DELAY;
        for long in ["86400", "86401", "1e19", "1e300", "1e400", "1E999"] {
            assert_eq!(parse_crawl_delay(long), Some(day), "{long}");
        }
        let _ = std::time::Instant::now() + parse_crawl_delay("1e19").unwrap();
    }
}
