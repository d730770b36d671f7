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

/// The first eight octets of a product token, lower-cased, as a big-endian
/// integer (zero-padded; tokens hold no NUL): the order of these keys is the
/// order of [`cmp_ignore_case`] on the tokens' first eight octets.
pub(crate) fn token_key(token: &[u8]) -> u64 {
    let mut k = [0u8; 8];
    for (d, s) in k.iter_mut().zip(token) {
        *d = s.to_ascii_lowercase();
    }
    u64::from_be_bytes(k)
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
    // Many files name no crawler at all: then the `*` groups apply to every
    // crawler, and its name need not be read.
    if parsed.lookup_keys.is_empty() {
        return star(parsed);
    }
    let agent = trim(agent.as_bytes());
    let token = product_token(agent);
    if !token.is_empty() && !is_star(agent) {
        // The binary search reads only the tokens' 8-octet keys; tokens are
        // compared whole only between equal keys.
        let key = token_key(token);
        let keys = &parsed.lookup_keys;
        let lo = keys.partition_point(|&k| k < key);
        let same = |j: usize| {
            keys[j] == key
                && parsed
                    .agent_token(&parsed.agents[parsed.lookup[j] as usize])
                    .eq_ignore_ascii_case(token)
        };
        // Equal tokens are contiguous among equal keys (sorted by token).
        let run = keys[lo..].partition_point(|&k| k == key);
        if let Some(first) = (lo..lo + run).find(|&j| same(j)) {
            let end = (first..lo + run).find(|&j| !same(j)).unwrap_or(lo + run);
            return (&parsed.lookup_groups[first..end], AgentMatch::Named);
        }
    }
    star(parsed)
}

/// The `*` groups, which apply when none names the crawler.
fn star(parsed: &Parsed) -> (&[u32], AgentMatch) {
    if parsed.star_groups.is_empty() {
        (&[], AgentMatch::None)
    } else {
        (&parsed.star_groups, AgentMatch::Star)
    }
}

#[cfg(test)]
mod tests {
    use crate::{AgentMatch, Robots};

    #[test]
    fn tokens_sharing_their_first_eight_octets() {
        let robots = Robots::parse(
            "User-agent: Googlebot\nDisallow: /a\n\n\
             User-agent: googlebot-image\nDisallow: /b\n\n\
             User-agent: GOOGLEBOT-News\nUser-agent: googlebo\nDisallow: /c\n\n\
             User-agent: Googlebot\nDisallow: /d\n\n\
             User-agent: *\nDisallow: /e\n",
        );
        let lines = |agent: &str| -> Vec<u32> {
            let a = robots.agent(agent);
            a.groups().map(|g| g.line()).collect()
        };
        assert_eq!(lines("googlebot/2.1"), [1, 11]);
        assert_eq!(lines("Googlebot-Image"), [4]);
        assert_eq!(lines("googlebot-news"), [7]);
        assert_eq!(lines("GoogleBo"), [7]);
        assert_eq!(lines("Googleb"), [14]);
        assert_eq!(lines("Googlebot-Video"), [14]);
        assert_eq!(
            robots.agent("Googlebot-Video").agent_match(),
            AgentMatch::Star
        );
        assert!(!robots.is_allowed("GOOGLEBOT", "/d"));
        assert!(robots.is_allowed("GOOGLEBOT", "/e"));
    }
}
