//! Text and JSON forms shared by the commands. The JSON field names are a
//! public contract, documented in the README; add fields, never rename.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use keepout::fetch::{FetchOutcome, FetchResult, UnavailableReason, UnreachableReason};
use keepout::{GroupView, RequestRate, RuleKind, RuleView, WarningKind};
use serde::Serialize;

use crate::source::Loaded;

/// How a robots.txt was obtained, as repeated on every `check` object.
#[derive(Serialize)]
pub struct RobotsJson {
    /// The file path, or the robots.txt URL requested.
    pub source: String,
    /// HTTP status of the last response; null for a file or no response.
    pub status: Option<u16>,
    /// The last URL requested (after redirects); null for a file.
    pub final_url: Option<String>,
    /// The proxy it went through (`scheme://host:port`); null if direct.
    pub proxy: Option<String>,
    /// Redirects followed.
    pub redirects: u8,
    /// `file`, `fetched`, `not_modified`, `unavailable` or `unreachable`.
    pub result: &'static str,
    /// Why unavailable or unreachable, in words; null otherwise.
    pub reason: Option<String>,
    /// Whether only the complete lines within the body limit (500 KiB)
    /// were parsed: the body or file was longer (RFC 9309 section 2.5).
    pub truncated_at_cap: bool,
}

impl RobotsJson {
    pub fn new(loaded: &Loaded) -> RobotsJson {
        match loaded.robots.fetch_outcome() {
            Some(o) => RobotsJson {
                source: o.robots_url().to_string(),
                status: o.status().map(|s| s.as_u16()),
                final_url: Some(o.final_url().to_string()),
                proxy: o.proxy().map(str::to_owned),
                redirects: o.redirects(),
                result: result_name(o.result()),
                reason: result_reason(o.result()),
                truncated_at_cap: o.truncated_at_cap(),
            },
            None => RobotsJson {
                source: loaded.source(),
                status: None,
                final_url: None,
                proxy: None,
                redirects: 0,
                result: "file",
                reason: None,
                truncated_at_cap: loaded.file.as_ref().is_some_and(|f| f.cut),
            },
        }
    }
}

/// The full fetch outcome, for `show`.
#[derive(Serialize)]
pub struct FetchJson {
    pub robots_url: String,
    pub final_url: String,
    pub proxy: Option<String>,
    pub status: Option<u16>,
    pub redirects: u8,
    pub result: &'static str,
    pub reason: Option<String>,
    pub fetched_at: String,
    pub expires_at: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub body_bytes: usize,
    pub truncated_at_cap: bool,
}

impl FetchJson {
    pub fn new(o: &FetchOutcome) -> FetchJson {
        FetchJson {
            robots_url: o.robots_url().to_string(),
            final_url: o.final_url().to_string(),
            proxy: o.proxy().map(str::to_owned),
            status: o.status().map(|s| s.as_u16()),
            redirects: o.redirects(),
            result: result_name(o.result()),
            reason: result_reason(o.result()),
            fetched_at: rfc3339(o.fetched_at()),
            expires_at: rfc3339(o.expires_at()),
            etag: o.etag().map(str::to_owned),
            last_modified: o.last_modified().map(str::to_owned),
            body_bytes: o.body_bytes(),
            truncated_at_cap: o.truncated_at_cap(),
        }
    }
}

/// A rule, for `check`.
#[derive(Serialize)]
pub struct RuleJson<'a> {
    pub line: u32,
    pub kind: &'static str,
    pub pattern: &'a str,
    pub normalized: &'a str,
}

impl<'a> RuleJson<'a> {
    pub fn new(rule: RuleView<'a>) -> RuleJson<'a> {
        RuleJson {
            line: rule.line(),
            kind: kind_name(rule.kind()),
            pattern: rule.pattern(),
            normalized: rule.normalized(),
        }
    }
}

/// The most groups a `check --json` line lists, and the most user-agent
/// values it lists of each: a file can merge thousands of groups, or name
/// thousands of crawlers in one, and each line would list them all.
pub const JSON_GROUPS: usize = 16;

/// A group, as named in `check` results.
#[derive(Serialize)]
pub struct GroupRefJson<'a> {
    pub line: u32,
    /// The first [`JSON_GROUPS`] user-agent values.
    pub agents: Vec<&'a str>,
    pub agents_total: usize,
}

impl<'a> GroupRefJson<'a> {
    pub fn new(group: GroupView<'a>) -> GroupRefJson<'a> {
        GroupRefJson {
            line: group.line(),
            agents: group.agents().take(JSON_GROUPS).collect(),
            agents_total: group.agents().len(),
        }
    }
}

/// A `Request-rate`.
#[derive(Serialize)]
pub struct RateJson {
    pub requests: u32,
    pub per_secs: u64,
    /// `HHMM-HHMM` (UTC), or null.
    pub window: Option<String>,
}

impl RateJson {
    pub fn new(rate: RequestRate) -> RateJson {
        RateJson {
            requests: rate.requests,
            per_secs: rate.per.as_secs(),
            window: rate.window.map(|(a, b)| format!("{a:04}-{b:04}")),
        }
    }
}

pub fn kind_name(kind: RuleKind) -> &'static str {
    match kind {
        RuleKind::Allow => "allow",
        RuleKind::Disallow => "disallow",
    }
}

pub fn result_name(result: &FetchResult) -> &'static str {
    match result {
        FetchResult::Fetched => "fetched",
        FetchResult::NotModified => "not_modified",
        FetchResult::Unavailable(_) => "unavailable",
        FetchResult::Unreachable(_) => "unreachable",
        FetchResult::StaleCopy(_) => "stale_copy",
        _ => "other",
    }
}

fn result_reason(result: &FetchResult) -> Option<String> {
    match result {
        FetchResult::Unavailable(why) => Some(why.to_string()),
        FetchResult::Unreachable(why) | FetchResult::StaleCopy(why) => Some(why.to_string()),
        _ => None,
    }
}

/// The stable JSON name of a parser warning.
pub fn warning_name(kind: &WarningKind) -> &'static str {
    match kind {
        WarningKind::Misspelled { .. } => "misspelled",
        WarningKind::UnknownKey { .. } => "unknown_key",
        WarningKind::MissingColon => "missing_colon",
        WarningKind::Unparsable => "unparsable",
        WarningKind::RuleOutsideGroup => "rule_outside_group",
        WarningKind::PatternNotRooted => "pattern_not_rooted",
        WarningKind::InvalidUserAgent => "invalid_user_agent",
        WarningKind::InvalidValue { .. } => "invalid_value",
        WarningKind::JoinsGroup { .. } => "joins_group",
        WarningKind::Duplicate { .. } => "duplicate",
        WarningKind::EmptyUserAgentEndsGroup => "empty_user_agent_ends_group",
        WarningKind::EmptyValue { .. } => "empty_value",
        WarningKind::SitemapNotUrl => "sitemap_not_url",
        WarningKind::LineTooLong => "line_too_long",
        WarningKind::NulByte => "nul_byte",
        WarningKind::NotUtf8 { .. } => "not_utf8",
        WarningKind::GroupWithoutRules => "group_without_rules",
        WarningKind::UnicodeSpace { .. } => "unicode_space",
        WarningKind::InvalidUtf8 => "invalid_utf8",
        _ => "other",
    }
}

/// One line about a fetch, e.g.
/// `https://example.com/robots.txt: 503 Service Unavailable: unreachable, everything disallowed`.
pub fn fetch_summary(o: &FetchOutcome) -> String {
    let mut s = format!("{}: ", o.robots_url());
    match o.status() {
        // `299`, not the http crate's `299 <unknown status code>`: a code
        // HTTP names no reason for is a code all the same.
        Some(status) => match status.canonical_reason() {
            Some(reason) => s.push_str(&format!("{} {reason}", status.as_u16())),
            None => s.push_str(&status.as_u16().to_string()),
        },
        None => s.push_str("no response"),
    }
    if let Some(proxy) = o.proxy() {
        s.push_str(&format!(" via proxy {proxy}"));
    }
    if o.redirects() > 0 {
        let hops = if o.redirects() == 1 {
            "redirect"
        } else {
            "redirects"
        };
        s.push_str(&format!(", {} {hops} to {}", o.redirects(), o.final_url()));
    }
    match o.result() {
        FetchResult::Fetched | FetchResult::NotModified => {
            if matches!(o.result(), FetchResult::NotModified) {
                s.push_str(", not modified");
            }
            s.push_str(&format!(", {} bytes", o.body_bytes()));
            if o.truncated_at_cap() {
                s.push_str(", truncated at the size limit");
            }
        }
        FetchResult::Unavailable(why) => {
            s.push_str(": unavailable");
            if !matches!(why, UnavailableReason::Status(_)) {
                s.push_str(&format!(" ({why})"));
            }
            s.push_str(", everything allowed");
        }
        FetchResult::Unreachable(why) => {
            s.push_str(": unreachable");
            if !matches!(why, UnreachableReason::Status(_)) {
                s.push_str(&format!(" ({why})"));
            }
            s.push_str(", everything disallowed");
        }
        other => s.push_str(&format!(": {other}")),
    }
    s
}

/// The first line about a robots.txt in text output.
pub fn source_summary(loaded: &Loaded) -> String {
    match (&loaded.file, loaded.robots.fetch_outcome()) {
        (Some(file), _) if file.cut => format!(
            "{}: {}, {}, of which the complete lines in the first {} were read, as a fetch reads them (RFC 9309 section 2.5)",
            clean(&file.path),
            file.kind(),
            file.size(),
            keepout::fetch::MIN_BODY_LIMIT
        ),
        (Some(file), _) => format!("{}: {}, {}", clean(&file.path), file.kind(), file.size()),
        (None, Some(outcome)) => fetch_summary(outcome),
        (None, None) => String::from("(no source)"),
    }
}

/// `text` with its control characters escaped (`\u{1b}`), for a terminal:
/// a fetched robots.txt must not move the cursor, recolour the screen or
/// retitle the window. Tabs stay. Unicode's bidirectional controls are
/// escaped too: U+202E would show the rest of a line right to left, so a
/// pattern could read as another one.
pub fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(escaped) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// Whether [`clean`] escapes `c`: a control character other than tab, one
/// of the explicit bidirectional formatting characters (Unicode Standard
/// Annex #9, section 2: ALM, LRM, RLM, LRE to RLO, LRI to PDI), or a space
/// or invisible character beyond ASCII (`WarningKind::UnicodeSpace`: a
/// sitemap URL ending in U+00A0 must not look like one that does not). As
/// the library's Display of rules does.
fn escaped(c: char) -> bool {
    (c.is_control() && c != '\t')
        || (!c.is_ascii() && c.is_whitespace())
        || matches!(c, '\u{61c}' | '\u{200b}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// A group and all its user-agent values, for `show`, which lists each
/// group once (`check` uses the group's Display, which names eight).
pub fn group_label(group: GroupView<'_>) -> String {
    format!(
        "group at line {}: User-agent: {}",
        group.line(),
        match group.agents().len() {
            // An empty `User-agent:` line after rules: no crawler named.
            0 => "(empty)".into(),
            _ => clean(&group.agents().collect::<Vec<_>>().join(", ")).into_owned(),
        }
    )
}

/// `2s`, `0.5s`
pub fn seconds(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// `2025-03-01T12:00:00Z` (UTC, whole seconds).
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// How long until `t`: `in 23h 59m`, `in 5m`, `in under a minute`, or
/// `already expired`.
pub fn until(t: SystemTime) -> String {
    match t.duration_since(SystemTime::now()) {
        Ok(d) if d.as_secs() >= 60 => {
            let (h, m) = (d.as_secs() / 3600, d.as_secs() / 60 % 60);
            if h > 0 {
                format!("in {h}h {m}m")
            } else {
                format!("in {m}m")
            }
        }
        Ok(_) => String::from("in under a minute"),
        Err(_) => String::from("already expired"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let at = |s| rfc3339(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
    }
}
