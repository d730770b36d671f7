//! Helpers shared by the fetch test files (`fetch`, `fetch_socket`,
//! `adversarial`): the rules every test server serves and the checks of what
//! a fetched `Robots` allows.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use keepout::fetch::FetchResult;
use keepout::{Access, Robots};

/// What the test servers serve: `/private` is disallowed, the rest allowed.
pub const RULES: &str = "User-agent: *\nDisallow: /private\n";
/// The crawler every test asks about.
pub const AGENT: &str = "keepout";

/// The result of a fetch.
pub fn result(robots: &Robots) -> &FetchResult {
    robots.fetch_outcome().expect("fetched").result()
}

/// `RULES` apply to `base`: `/private` is disallowed, the rest allowed.
pub fn assert_rules(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::Rules);
    assert!(!robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(robots.is_allowed(AGENT, format!("{base}/public/x")));
}

/// Everything is allowed (robots.txt unavailable).
pub fn assert_allow_all(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::AllowAll);
    assert!(robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(robots.is_allowed(AGENT, format!("{base}/public/x")));
}

/// Everything is disallowed (robots.txt unreachable).
pub fn assert_disallow_all(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::DisallowAll);
    assert!(!robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(!robots.is_allowed(AGENT, format!("{base}/public/x")));
}
