//! Deciding a path against parsed rules (RFC 9309 section 2.2.2).
//!
//! For each group that applies, find its best matching rule: the longest
//! pattern, `Allow` winning a tie. Several groups merge (section 2.2.1), and
//! the best of the merged rules is the best of the groups' bests, so merged
//! groups need not be materialised. But when the `*` groups (which every
//! crawler without a group of its own reads), or the groups naming one
//! crawler, are several with more than [`INDEX_MIN_RULES`] rules and
//! groups between them (a group counts as a rule: a walk over thousands of
//! empty groups costs as much), one index covers them all
//! ([`Parsed::merged_slot`]).
//!
//! Small groups are scanned linearly, skipping any rule too short to beat the
//! best match so far; groups with more than [`INDEX_MIN_RULES`] rules get a
//! sorted prefix [`index`] once checks scanning them have cost about what
//! building it does ([`rent`]), or when an [`Agent`](crate::Agent) handle
//! is made, which also resolves its groups down to their rules
//! ([`Prepared`]). Wildcard rules are matched by [`wildcard`]; an index
//! whose wildcard rules a check cannot rule out cheaply answers their
//! piece searches from one scan of the path ([`pieces`]).

pub(crate) mod index;
pub(crate) mod pieces;
pub(crate) mod url;
pub(crate) mod wildcard;

#[cfg(test)]
mod proptests;
#[cfg(any(test, feature = "__fuzz"))]
pub(crate) mod reference;

use std::sync::Arc;

use crate::Access;
use crate::model::{ANCHORED, Group, Parsed, Rule, WILDCARD, placed, seek};

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

/// Does the rule's pattern, at `at` in `arena`, match the (normalised)
/// path?
#[inline]
pub(crate) fn rule_matches(arena: &[u8], rule: &Rule, at: u32, path: &[u8]) -> bool {
    let pattern = rule.pattern(arena, at);
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
    let g = parsed.group(group);
    rules_best(parsed, g.rules, g.base, g.index, path)
}

/// The best rule for `path` of the group whose rules are `rules`, whose
/// patterns start at `base` and whose index slot is `slot`
/// ([`NO_INDEX`](crate::model::NO_INDEX) for a group scanned linearly).
#[inline(always)]
fn rules_best(
    parsed: &Parsed,
    rules: (u32, u32),
    base: u32,
    slot: u32,
    path: &[u8],
) -> Option<Hit> {
    let linear = || {
        linear_best(
            &parsed.arena,
            &parsed.rules[rules.0 as usize..rules.1 as usize],
            base,
            path,
        )
    };
    match parsed.slot(slot) {
        Some(slot) => match slot.get() {
            Some(index) => index.best(&parsed.arena, path),
            None if rent(parsed, rules.1 - rules.0, path) => linear(),
            None => slot
                .get_or_init(|| Arc::new(index::Index::build(parsed, rules, base)))
                .best(&parsed.arena, path),
        },
        None => linear(),
    }
}

/// A group's index is built once checks have scanned it this many times
/// over (for short paths; see [`rent`]). Building costs about 490
/// instructions a rule (32.3 M for the `*` groups of the 345 corpus files)
/// and a scan looks at a prefix rule in about 12, but a scan also has the
/// URL to read: `cargo bench --bench matching -- first_checks` (each file
/// parsed, then checked N times through `Robots::is_allowed`, against the
/// same after an `Agent` handle built the indexes) gave, over three runs,
/// 0.43 to 0.69 of the time for N = 1, 0.75 to 0.87 for 4, 1.08 to 1.16
/// for 16, and 0.97 to 1.11 for 64 and 256. A price of 16 did better at 4
/// checks (0.75) and worse from 16 on (1.12 to 1.23); 32, worse still
/// (1.17 to 1.33).
pub(crate) const INDEX_PRICE_SCANS: u32 = 8;

/// Should a check of a group of `n` rules, or of merged groups, whose index
/// is not built yet, scan them linearly rather than build the index now?
///
/// The ski-rental rule: scan ("rent") until the scans have cost about what
/// the build would ("buy"), then build. A crawler that checks a handful of
/// URLs of a host never pays for an index it would not use; one that
/// checks many pays for it after a few checks, plus the scans before. A
/// scan is costed at `n` units, one a rule, times one more than the path's
/// number of whole 16-octet blocks, as a wildcard rule costs about the
/// length of the path to match (and a prefix rule rarely more than a
/// block): a long path buys at once, so the adversarial case is as fast as
/// ever. The spending is counted per
/// parsed file (`Parsed::spent`), not per group: a second large group of
/// the file is built sooner, never later. An [`Agent`](crate::Agent)
/// handle builds its groups' indexes when it is made, not through here.
#[inline]
pub(crate) fn rent(parsed: &Parsed, n: u32, path: &[u8]) -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    let cost = n.saturating_mul(1 + (path.len() / 16).min(u16::MAX as usize) as u32);
    let price = n.saturating_mul(INDEX_PRICE_SCANS);
    let spent = &parsed.spent.0;
    if spent.load(Relaxed).saturating_add(cost) > price {
        return false;
    }
    // Racing checks may each add theirs: the build comes a little sooner.
    let _ = spent.fetch_update(Relaxed, Relaxed, |s| Some(s.saturating_add(cost)));
    true
}

/// The best of `rules` (a group's rules, whose patterns start at `base`)
/// for `path`, by a linear scan.
#[inline]
pub(crate) fn linear_best(arena: &[u8], rules: &[Rule], base: u32, path: &[u8]) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    for (at, r) in placed(rules, base) {
        let hit = Hit {
            len: r.len,
            allow: r.allow(),
            at,
        };
        if best.is_none_or(|b| hit.beats(&b)) && rule_matches(arena, r, at, path) {
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
    /// One small group, scanned linearly: its rules, whose patterns start
    /// at `base` in `arena`.
    Linear {
        arena: &'a [u8],
        rules: &'a [Rule],
        base: u32,
    },
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
            Prepared::Linear { arena, rules, base } => linear_best(arena, rules, base, path),
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

/// The groups of one crawler resolved as [`Prepared`] is, in positions
/// rather than borrows, so that an [`OwnedAgent`](crate::OwnedAgent) can
/// keep it beside the parsed file it points into. `I` holds the index:
/// borrowed from its slot (`&Arc<Index>`) by [`resolve`], shared
/// (`Arc<Index>`) when kept.
#[derive(Clone, Debug)]
pub(crate) enum Resolved<I> {
    /// As [`Prepared::AllowAll`].
    AllowAll,
    /// As [`Prepared::DisallowAll`].
    DisallowAll,
    /// One small group, scanned linearly: its range of `Parsed::rules`,
    /// and where its patterns start in the arena.
    Linear { rules: (u32, u32), base: u32 },
    /// One group with a prefix index, or several with one over them all.
    Indexed(I),
    /// Several groups, merged.
    Merged,
}

impl<I> Resolved<I> {
    /// The same resolution, with `f` applied to the index.
    pub(crate) fn map<J>(self, f: impl FnOnce(I) -> J) -> Resolved<J> {
        match self {
            Resolved::AllowAll => Resolved::AllowAll,
            Resolved::DisallowAll => Resolved::DisallowAll,
            Resolved::Linear { rules, base } => Resolved::Linear { rules, base },
            Resolved::Indexed(index) => Resolved::Indexed(f(index)),
            Resolved::Merged => Resolved::Merged,
        }
    }

    /// The same resolution, borrowing the index.
    #[inline]
    pub(crate) fn as_ref(&self) -> Resolved<&I> {
        match self {
            Resolved::AllowAll => Resolved::AllowAll,
            Resolved::DisallowAll => Resolved::DisallowAll,
            &Resolved::Linear { rules, base } => Resolved::Linear { rules, base },
            Resolved::Indexed(index) => Resolved::Indexed(index),
            Resolved::Merged => Resolved::Merged,
        }
    }
}

impl<'a> Resolved<&'a Arc<index::Index>> {
    /// What a check reads, in `parsed`, which this was resolved in;
    /// `groups` gives the groups it was resolved from, read only when they
    /// are merged.
    #[inline]
    pub(crate) fn prepared(
        self,
        parsed: &'a Parsed,
        groups: impl FnOnce() -> &'a [u32],
    ) -> Prepared<'a> {
        match self {
            Resolved::AllowAll => Prepared::AllowAll,
            Resolved::DisallowAll => Prepared::DisallowAll,
            Resolved::Linear {
                rules: (start, end),
                base,
            } => Prepared::Linear {
                arena: &parsed.arena,
                rules: &parsed.rules[start as usize..end as usize],
                base,
            },
            Resolved::Indexed(index) => Prepared::Indexed {
                arena: &parsed.arena,
                prefixes: index.prefixes(),
                index,
            },
            Resolved::Merged => Prepared::Merged {
                parsed,
                groups: groups(),
            },
        }
    }
}

/// Builds the index of each large group in `groups` now, so later checks
/// do not pay for it, and resolves the groups for checks (under `access`:
/// with robots.txt unavailable or unreachable, the rules do not count).
pub(crate) fn resolve<'a>(
    parsed: &'a Parsed,
    groups: &[u32],
    access: Access,
) -> Resolved<&'a Arc<index::Index>> {
    match access {
        Access::Rules => {}
        Access::AllowAll => return Resolved::AllowAll,
        Access::DisallowAll => return Resolved::DisallowAll,
    }
    if let Some(slot) = parsed.merged_slot(groups) {
        return Resolved::Indexed(
            slot.get_or_init(|| Arc::new(index::Index::merged(parsed, groups))),
        );
    }
    for &group in groups {
        let g = parsed.group(group);
        if let Some(slot) = parsed.index_slot(&g) {
            slot.get_or_init(|| Arc::new(index::Index::build(parsed, g.rules, g.base)));
        }
    }
    match *groups {
        [] => Resolved::AllowAll,
        [group] => {
            let g = parsed.group(group);
            match parsed.index_slot(&g).and_then(|slot| slot.get()) {
                Some(index) => Resolved::Indexed(index),
                None => Resolved::Linear {
                    rules: g.rules,
                    base: g.base,
                },
            }
        }
        _ => Resolved::Merged,
    }
}

/// [`resolve`], as a check reads it.
pub(crate) fn prepare<'a>(parsed: &'a Parsed, groups: &'a [u32], access: Access) -> Prepared<'a> {
    resolve(parsed, groups, access).prepared(parsed, || groups)
}

/// The best rule over the merged `groups` for `path`.
#[inline]
pub(crate) fn best(parsed: &Parsed, groups: &[u32], path: &[u8]) -> Option<Hit> {
    // The one `*` group, from what `Parsed` keeps of it (no look at
    // `groups`).
    if let Some(star) = parsed.star_one.get()
        && std::ptr::eq(groups, parsed.star_groups())
    {
        return rules_best(parsed, star.rules, star.base, star.slot, path);
    }
    let mut each: fn(&Parsed, u32, &[u8]) -> Option<Hit> = group_best;
    if let Some(slot) = parsed.merged_slot(groups) {
        if let Some(index) = slot.get() {
            return index.best(&parsed.arena, path);
        }
        // Each group costs the scan a step, as a rule does (see `rent`).
        let n = groups.iter().map(|&g| {
            let (start, end) = parsed.group(g).rules;
            end - start + 1
        });
        if !rent(parsed, n.fold(0, u32::saturating_add), path) {
            return slot
                .get_or_init(|| Arc::new(index::Index::merged(parsed, groups)))
                .best(&parsed.arena, path);
        }
        // Each group scanned (their own indexes are not the merged one's).
        each = |parsed, group, path| {
            let g = parsed.group(group);
            let (start, end) = g.rules;
            linear_best(
                &parsed.arena,
                &parsed.rules[start as usize..end as usize],
                g.base,
                path,
            )
        };
    }
    let mut best: Option<Hit> = None;
    for &group in groups {
        if let Some(hit) = each(parsed, group, path)
            && best.is_none_or(|b| hit.beats(&b))
        {
            best = Some(hit);
        }
    }
    best
}

/// The index in `Parsed::rules` of the rule of `groups` (in file order)
/// that `hit`, a match in those groups, stands for. Two rules of
/// different groups can share an offset (a group that repeats the rules of
/// the one before it shares their patterns), so the rule is the first, in
/// file order, of those at `hit.at` of `hit`'s kind: the one a tie goes to.
///
/// The groups that may hold it are found in O(log groups): patterns are
/// stored in file order, so along `groups` a group's
/// [`base`](Group::base) never decreases, and groups' patterns do not
/// overlap but where they are shared, which shares the base too. So only
/// the groups with the last base at or before `hit.at` may hold it, and of
/// those (a run of twins) the first that does is the answer. A group is
/// searched by adding up its rules' lengths ([`seek`]: rules keep no
/// offsets), linear in its rules, if with a small constant; this is for
/// explanations, not checks. (Until session 35 the twins were searched one
/// by one from the last: 164 µs an explanation in a file of 40,000.)
pub(crate) fn rule_index(parsed: &Parsed, groups: &[u32], hit: Hit) -> Option<u32> {
    let base = |g: u32| parsed.group(g).base;
    let end = groups.partition_point(|&g| base(g) <= hit.at);
    let last = base(*groups[..end].last()?);
    let start = groups[..end].partition_point(|&g| base(g) < last);
    groups[start..end].iter().find_map(|&g| {
        let group: Group = parsed.group(g);
        let rules = &parsed.rules[group.rules.0 as usize..group.rules.1 as usize];
        match seek(rules, group.base, hit.at) {
            Some((i, at)) if at == hit.at && rules[i].allow() == hit.allow => {
                Some(group.rules.0 + i as u32)
            }
            _ => None,
        }
    })
}

/// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed."
#[inline]
pub(crate) fn is_robots_txt(path: &[u8]) -> bool {
    path.starts_with(b"/robots.txt") && path.get(11).is_none_or(|&b| b == b'?')
}

#[cfg(test)]
mod tests {
    use super::{INDEX_PRICE_SCANS, best, prepare};
    use crate::Access;
    use crate::parse::{ParseOptions, parse};

    /// `groups` `*` groups of `rules` rules each (`Disallow: /dirN/`).
    fn body(groups: usize, rules: usize) -> String {
        let mut s = String::new();
        for g in 0..groups {
            s.push_str("User-agent: *\n");
            for r in 0..rules {
                s.push_str(&format!("Disallow: /dir{g}-{r}/\n"));
            }
        }
        s
    }

    #[test]
    fn checks_scan_until_they_have_cost_an_index_then_build_it() {
        // One group of 100 rules, and two merged ones of 50.
        for (groups, rules) in [(1, 100), (2, 50)] {
            let p = parse(body(groups, rules).as_bytes(), &ParseOptions::new());
            // The `*` groups' index, one group's or the merged one, is the
            // slot kept in `Parsed`.
            let built = || p.star_slot.0.get().is_some();
            // A 9-octet path costs one unit a rule: 100 a check.
            let path = b"/dir0-7/x";
            for i in 0..INDEX_PRICE_SCANS {
                assert!(best(&p, p.star_groups(), path).is_some_and(|h| !h.allow));
                assert!(!built(), "{groups} groups: built after {} checks", i + 1);
            }
            assert!(best(&p, p.star_groups(), path).is_some_and(|h| !h.allow));
            assert!(built(), "{groups} groups");
        }
    }

    #[test]
    fn a_long_path_or_a_handle_builds_at_once() {
        let text = body(1, 100);
        let p = parse(text.as_bytes(), &ParseOptions::new());
        // 600 octets: 38 units a rule, more than the price.
        let long = format!("/dir0-7/{}", "a".repeat(592));
        assert!(best(&p, p.star_groups(), long.as_bytes()).is_some());
        assert!(p.star_slot.0.get().is_some());
        let p = parse(text.as_bytes(), &ParseOptions::new());
        prepare(&p, p.star_groups(), Access::Rules);
        assert!(p.star_slot.0.get().is_some());
    }
}
