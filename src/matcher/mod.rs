//! Deciding a path against parsed rules (RFC 9309 section 2.2.2).
//!
//! For each group that applies, find its best matching rule: the longest
//! pattern, `Allow` winning a tie. Several groups merge (section 2.2.1), and
//! the best of the merged rules is the best of the groups' bests, so merged
//! groups are never materialised.
//!
//! Small groups are scanned linearly, skipping any rule too short to beat the
//! best match so far; groups with more than [`INDEX_MIN_RULES`] rules get a
//! sorted prefix [`index`] on first use.

pub(crate) mod index;
pub(crate) mod url;
pub(crate) mod wildcard;

#[cfg(test)]
mod proptests;
#[cfg(test)]
pub(crate) mod reference;

use crate::model::{ANCHORED, Parsed, Rule, WILDCARD};

/// Groups with more rules than this get a prefix index.
pub(crate) const INDEX_MIN_RULES: u32 = 24;

/// A matching rule, ordered by strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Pattern length in octets: longer is more specific.
    pub len: u16,
    /// An `Allow` rule: wins a tie of length (section 2.2.2).
    pub allow: bool,
    /// Index in `Parsed::rules`: the earlier rule wins a full tie, so the
    /// answer (and its explanation) does not depend on the search order.
    pub rule: u32,
}

impl Hit {
    /// Is `self` the stronger match?
    #[inline]
    pub fn beats(&self, other: &Hit) -> bool {
        (self.len, self.allow, std::cmp::Reverse(self.rule))
            > (other.len, other.allow, std::cmp::Reverse(other.rule))
    }
}

/// Does the rule's pattern match the (normalised) path?
#[inline]
pub(crate) fn rule_matches(arena: &[u8], rule: &Rule, path: &[u8]) -> bool {
    let pattern = rule.pattern(arena);
    if rule.flags & WILDCARD != 0 {
        wildcard::matches(pattern, path)
    } else if rule.flags & ANCHORED != 0 {
        path == &pattern[..pattern.len() - 1]
    } else {
        path.starts_with(pattern)
    }
}

/// The best rule of one group for `path`.
#[inline]
pub(crate) fn group_best(parsed: &Parsed, group: u32, path: &[u8]) -> Option<Hit> {
    let g = &parsed.groups[group as usize];
    let (start, end) = g.rules;
    if end - start > INDEX_MIN_RULES {
        return g
            .index
            .get_or_init(|| index::Index::build(parsed, g.rules))
            .best(parsed, path);
    }
    linear_best(parsed, g.rules, path)
}

/// The best rule of `rules` (a group's range) for `path`, by a linear scan.
#[inline]
pub(crate) fn linear_best(parsed: &Parsed, (start, end): (u32, u32), path: &[u8]) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for (i, r) in parsed.rules[start as usize..end as usize]
        .iter()
        .enumerate()
    {
        let hit = Hit {
            len: r.len,
            allow: r.allow(),
            rule: start + i as u32,
        };
        if best.is_none_or(|b| hit.beats(&b)) && rule_matches(&parsed.arena, r, path) {
            best = Some(hit);
        }
    }
    best
}

/// Builds the index of each large group in `groups` now, so later checks
/// do not pay for it.
pub(crate) fn prepare(parsed: &Parsed, groups: &[u32]) {
    for &group in groups {
        let g = &parsed.groups[group as usize];
        if g.rules.1 - g.rules.0 > INDEX_MIN_RULES {
            g.index.get_or_init(|| index::Index::build(parsed, g.rules));
        }
    }
}

/// The best rule over the merged `groups` for `path`.
#[inline]
pub(crate) fn best(parsed: &Parsed, groups: &[u32], path: &[u8]) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for &group in groups {
        if let Some(hit) = group_best(parsed, group, path)
            && best.is_none_or(|b| hit.beats(&b))
        {
            best = Some(hit);
        }
    }
    best
}

/// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed."
#[inline]
pub(crate) fn is_robots_txt(path: &[u8]) -> bool {
    path.split(|&b| b == b'?').next() == Some(b"/robots.txt")
}
