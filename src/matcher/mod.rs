//! Deciding a path against parsed rules (RFC 9309 section 2.2.2).
//!
//! For each group that applies, find its best matching rule: the longest
//! pattern, `Allow` winning a tie. Several groups merge (section 2.2.1), and
//! the best of the merged rules is the best of the groups' bests, so merged
//! groups need not be materialised. But when the `*` groups (which every
//! crawler without a group of its own reads), or the groups naming one
//! crawler, are several with more than [`INDEX_MIN_RULES`] rules between
//! them, one index covers them all ([`Parsed::merged_slot`]).
//!
//! Small groups are scanned linearly, skipping any rule too short to beat the
//! best match so far; groups with more than [`INDEX_MIN_RULES`] rules get a
//! sorted prefix [`index`] on first use (or when an [`Agent`](crate::Agent)
//! handle is made, which also resolves its groups down to their rules:
//! [`Prepared`]).

pub(crate) mod index;
pub(crate) mod url;
pub(crate) mod wildcard;

#[cfg(test)]
mod proptests;
#[cfg(any(test, feature = "__fuzz"))]
pub(crate) mod reference;

use crate::Access;
use crate::model::{ANCHORED, Parsed, Rule, WILDCARD};

/// Groups with more rules than this get a prefix index. (Measured: below
/// about eight rules, a linear scan is as fast.)
pub(crate) const INDEX_MIN_RULES: u32 = 8;

/// A matching rule, ordered by strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Pattern length in octets: longer is more specific.
    pub len: u16,
    /// An `Allow` rule: wins a tie of length (section 2.2.2).
    pub allow: bool,
    /// The pattern's offset in `Parsed::arena`. Patterns are stored in
    /// file order, so this orders rules as their index does: the earlier
    /// rule wins a full tie, and the answer (and its explanation) does not
    /// depend on the search order. (A group that repeats the rules of the
    /// one before it shares their patterns; a match of such a rule is an
    /// equal match of its earlier twin, see `Builder::share_patterns`.) A
    /// check never needs the rule's index, so it never reads
    /// `Parsed::rules` to find it ([`rule_index`] does, for an
    /// explanation).
    pub at: u32,
}

impl Hit {
    /// Is `self` the stronger match?
    #[inline]
    pub fn beats(&self, other: &Hit) -> bool {
        (self.len, self.allow, std::cmp::Reverse(self.at))
            > (other.len, other.allow, std::cmp::Reverse(other.at))
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
        starts_with(path, pattern)
    }
}

/// `path.starts_with(prefix)`, rejecting most mismatches on the last octet
/// before comparing the rest (a call, for slices of unknown length).
#[inline]
pub(crate) fn starts_with(path: &[u8], prefix: &[u8]) -> bool {
    match prefix.split_last() {
        None => true,
        Some((&last, init)) => path.get(init.len()) == Some(&last) && path[..init.len()] == *init,
    }
}

/// The best rule of one group for `path`.
#[inline]
pub(crate) fn group_best(parsed: &Parsed, group: u32, path: &[u8]) -> Option<Hit> {
    let g = &parsed.groups[group as usize];
    rules_best(parsed, g.rules, g.index, path)
}

/// The best rule for `path` of the group whose rules are `rules` and whose
/// index slot is `slot` ([`NO_INDEX`](crate::model::NO_INDEX) for a group
/// scanned linearly).
#[inline(always)]
fn rules_best(parsed: &Parsed, rules: (u32, u32), slot: u32, path: &[u8]) -> Option<Hit> {
    match parsed.indexes.get(slot as usize) {
        Some(slot) => slot
            .0
            .get_or_init(|| Box::new(index::Index::build(parsed, rules)))
            .best(&parsed.arena, path),
        None => linear_best(
            &parsed.arena,
            &parsed.rules[rules.0 as usize..rules.1 as usize],
            path,
        ),
    }
}

/// The best of `rules` (a group's rules) for `path`, by a linear scan.
#[inline]
pub(crate) fn linear_best(arena: &[u8], rules: &[Rule], path: &[u8]) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for r in rules {
        let hit = Hit {
            len: r.len,
            allow: r.allow(),
            at: r.start,
        };
        if best.is_none_or(|b| hit.beats(&b)) && rule_matches(arena, r, path) {
            best = Some(hit);
        }
    }
    best
}

/// The groups of one crawler, resolved once (by [`prepare`]) down to what a
/// check reads, so that checking through an [`Agent`](crate::Agent) handle
/// goes straight to the rules: no agent lookup, no hop through the parsed
/// file and its group table.
#[derive(Clone, Copy)]
pub(crate) enum Prepared<'a> {
    /// Everything is allowed: robots.txt was unavailable, or no group
    /// applies.
    AllowAll,
    /// Everything but `/robots.txt` is disallowed: robots.txt was
    /// unreachable.
    DisallowAll,
    /// One small group, scanned linearly: its rules.
    Linear { arena: &'a [u8], rules: &'a [Rule] },
    /// One group with a prefix index (or the `*` groups, with one index
    /// over all their rules), and the index's sorted prefix rules (so that
    /// the search need not wait for the index itself).
    Indexed {
        arena: &'a [u8],
        prefixes: index::Prefixes<'a>,
        index: &'a index::Index,
    },
    /// Several groups, merged.
    Merged {
        parsed: &'a Parsed,
        groups: &'a [u32],
    },
}

impl Prepared<'_> {
    /// May `path` be fetched? (`/robots.txt` is the caller's to allow.)
    #[inline]
    pub(crate) fn allows(&self, path: &[u8]) -> bool {
        let best = match *self {
            Prepared::AllowAll => return true,
            Prepared::DisallowAll => return false,
            Prepared::Linear { arena, rules } => linear_best(arena, rules, path),
            Prepared::Indexed {
                arena,
                prefixes,
                index,
            } => index.best_in(prefixes, arena, path),
            Prepared::Merged { parsed, groups } => best(parsed, groups, path),
        };
        best.is_none_or(|hit| hit.allow)
    }
}

/// Builds the index of each large group in `groups` now, so later checks
/// do not pay for it, and resolves the groups for checks (under `access`:
/// with robots.txt unavailable or unreachable, the rules do not count).
pub(crate) fn prepare<'a>(parsed: &'a Parsed, groups: &'a [u32], access: Access) -> Prepared<'a> {
    match access {
        Access::Rules => {}
        Access::AllowAll => return Prepared::AllowAll,
        Access::DisallowAll => return Prepared::DisallowAll,
    }
    if let Some(slot) = parsed.merged_slot(groups) {
        let index = slot.get_or_init(|| Box::new(index::Index::merged(parsed, groups)));
        return Prepared::Indexed {
            arena: &parsed.arena,
            prefixes: index.prefixes(),
            index,
        };
    }
    for &group in groups {
        let g = &parsed.groups[group as usize];
        if let Some(slot) = parsed.index_slot(g) {
            slot.get_or_init(|| Box::new(index::Index::build(parsed, g.rules)));
        }
    }
    match *groups {
        [] => Prepared::AllowAll,
        [group] => {
            let g = &parsed.groups[group as usize];
            let (start, end) = g.rules;
            match parsed.index_slot(g).and_then(|slot| slot.get()) {
                Some(index) => Prepared::Indexed {
                    arena: &parsed.arena,
                    prefixes: index.prefixes(),
                    index,
                },
                None => Prepared::Linear {
                    arena: &parsed.arena,
                    rules: &parsed.rules[start as usize..end as usize],
                },
            }
        }
        _ => Prepared::Merged { parsed, groups },
    }
}

/// The best rule over the merged `groups` for `path`.
#[inline]
pub(crate) fn best(parsed: &Parsed, groups: &[u32], path: &[u8]) -> Option<Hit> {
    // The one `*` group, from what `Parsed` keeps of it (no look at
    // `groups`).
    if let Some((rules, slot)) = parsed.star_one
        && std::ptr::eq(groups, &*parsed.star_groups)
    {
        return rules_best(parsed, rules, slot, path);
    }
    if let Some(slot) = parsed.merged_slot(groups) {
        return slot
            .get_or_init(|| Box::new(index::Index::merged(parsed, groups)))
            .best(&parsed.arena, path);
    }
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

/// The index in `Parsed::rules` of the rule of `groups` that `hit` (a
/// match in those groups) stands for. Within a group, rules are in arena
/// order. Two rules of different groups can share an offset (a group that
/// repeats the patterns of the one before it shares them), so the rule is
/// the first, in file order, of those at `hit.at` of `hit`'s kind: the one
/// a tie goes to.
pub(crate) fn rule_index(parsed: &Parsed, groups: &[u32], hit: Hit) -> Option<u32> {
    groups
        .iter()
        .filter_map(|&g| {
            let (start, end) = parsed.groups[g as usize].rules;
            let rules = &parsed.rules[start as usize..end as usize];
            let i = rules.partition_point(|r| r.start < hit.at);
            let r = rules.get(i)?;
            (r.start == hit.at && r.allow() == hit.allow).then_some(start + i as u32)
        })
        .min()
}

/// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed."
#[inline]
pub(crate) fn is_robots_txt(path: &[u8]) -> bool {
    path.starts_with(b"/robots.txt") && path.get(11).is_none_or(|&b| b == b'?')
}
