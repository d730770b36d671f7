//! Finding the groups that apply to a crawler (RFC 9309 section 2.2.1).

use std::cmp::Ordering;

use crate::model::Parsed;
use crate::parse::{is_star, product_token, trim};

/// Compares ASCII byte strings case-insensitively.
pub(crate) fn cmp_ignore_case(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    for i in 0..n {
        match a[i].to_ascii_lowercase().cmp(&b[i].to_ascii_lowercase()) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// How a crawler's groups were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentMatch {
    /// Groups naming the crawler's product token apply (merged when several do).
    Named,
    /// No group names the crawler; the `*` groups apply (merged).
    Star,
    /// No group names the crawler and there is no `*` group: no rule applies.
    None,
}

/// The groups that apply to `agent`, a product token or a whole User-Agent
/// header value (its leading product token is used), and how they were found.
pub(crate) fn select<'a>(parsed: &'a Parsed, agent: &str) -> (&'a [u32], AgentMatch) {
    let agent = trim(agent.as_bytes());
    let token = product_token(agent);
    if !token.is_empty() && !is_star(agent) {
        let keys = &parsed.lookup;
        let key = |i: u32| parsed.agent_token(&parsed.agents[i as usize]);
        let lo = keys.partition_point(|&i| cmp_ignore_case(key(i), token) == Ordering::Less);
        let hi =
            lo + keys[lo..].partition_point(|&i| cmp_ignore_case(key(i), token) == Ordering::Equal);
        if hi > lo {
            return (&parsed.lookup_groups[lo..hi], AgentMatch::Named);
        }
    }
    if parsed.star_groups.is_empty() {
        (&[], AgentMatch::None)
    } else {
        (&parsed.star_groups, AgentMatch::Star)
    }
}
