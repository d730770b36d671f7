//! A sorted prefix index over one group's rules, so a path is answered in
//! O(log n + matches) instead of O(n) for groups with many rules.
//!
//! Every path a rule matches starts with the rule's literal prefix (the
//! pattern before its first `*`, or without its final `$`). Sort the rules by
//! that prefix. For a path `P`, take the last rule `j` whose prefix sorts at
//! or before `P`. Any prefix `r` of `P` sorts at or before `P` and, as every
//! string between `r` and `P` starts with `r`, `r` is a prefix of `j`'s prefix
//! too. So the candidate rules are `j`'s prefix-ancestors: a chain that
//! `parent` links precompute. The walk climbs the chain to the first prefix
//! of `P`; from there every ancestor is a prefix of `P` as well, and the walk
//! stops early once `chain_max` (the longest pattern left on the chain) cannot
//! beat the best match found.
//!
//! Built once per group on first use (the parse itself never sorts); about 10
//! bytes per rule.

use crate::model::{Parsed, Rule};

use super::{Hit, rule_matches};

const NONE: u32 = u32::MAX;

#[derive(Debug)]
pub(crate) struct Index {
    /// Rule indexes sorted by literal prefix (then by pattern length,
    /// disallow before allow, later rules first, so the walk backwards meets
    /// the strongest rule of a prefix first).
    order: Box<[u32]>,
    /// Position in `order` of the nearest earlier entry whose prefix is a
    /// prefix of this entry's prefix, or `NONE`.
    parent: Box<[u32]>,
    /// Longest pattern length on the chain from this entry up.
    chain_max: Box<[u16]>,
}

impl Index {
    pub(crate) fn build(parsed: &Parsed, rules: (u32, u32)) -> Index {
        let arena = &parsed.arena;
        let rule = |i: u32| &parsed.rules[i as usize];
        let mut order: Vec<u32> = (rules.0..rules.1).collect();
        order.sort_unstable_by(|&a, &b| {
            let (ra, rb) = (rule(a), rule(b));
            ra.literal_prefix(arena)
                .cmp(rb.literal_prefix(arena))
                .then(ra.len.cmp(&rb.len))
                .then(ra.allow().cmp(&rb.allow()))
                .then(b.cmp(&a))
        });
        let mut parent = vec![NONE; order.len()];
        let mut chain_max = vec![0u16; order.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (pos, &r) in order.iter().enumerate() {
            let prefix = rule(r).literal_prefix(arena);
            while let Some(&top) = stack.last() {
                if prefix.starts_with(rule(order[top]).literal_prefix(arena)) {
                    break;
                }
                stack.pop();
            }
            let up = stack.last().copied();
            parent[pos] = up.map_or(NONE, |u| u as u32);
            chain_max[pos] = rule(r).len.max(up.map_or(0, |u| chain_max[u]));
            stack.push(pos);
        }
        Index {
            order: order.into(),
            parent: parent.into(),
            chain_max: chain_max.into(),
        }
    }

    /// The best rule of the indexed group matching `path`.
    pub(crate) fn best(&self, parsed: &Parsed, path: &[u8]) -> Option<Hit> {
        let arena = &parsed.arena;
        let rule = |pos: u32| -> &Rule { &parsed.rules[self.order[pos as usize] as usize] };
        let end = self
            .order
            .partition_point(|&r| parsed.rules[r as usize].literal_prefix(arena) <= path);
        if end == 0 {
            return None;
        }
        let mut pos = end as u32 - 1;
        while !path.starts_with(rule(pos).literal_prefix(arena)) {
            pos = self.parent[pos as usize];
            if pos == NONE {
                return None;
            }
        }
        let mut best: Option<Hit> = None;
        while pos != NONE {
            let max = self.chain_max[pos as usize];
            if best.is_some_and(|b| max < b.len) {
                break;
            }
            let index = self.order[pos as usize];
            let r = rule(pos);
            let hit = Hit {
                len: r.len,
                allow: r.allow(),
                rule: index,
            };
            if best.is_none_or(|b| hit.beats(&b)) && rule_matches(arena, r, path) {
                best = Some(hit);
            }
            pos = self.parent[pos as usize];
        }
        best
    }
}
