//! A sorted prefix index over one group's rules (or over several merged
//! groups' rules: [`Index::merged`]), so a path is answered in
//! O(log n + matches) instead of O(n).
//!
//! Rules are split in two. *Prefix rules* match the paths that start with
//! their literal prefix (the pattern without a final `$` or trailing `*`s;
//! with `$`, exactly that path): most rules. *Wildcard rules* have a literal
//! piece after a `*` (`/*.pdf$`, `/*?sort=`).
//!
//! Prefix rules are sorted by prefix. For a path `P`, take the last rule `j`
//! whose prefix sorts at or before `P`. Any prefix `r` of `P` sorts at or
//! before `P` and, as every string between `r` and `P` starts with `r`, `r`
//! is a prefix of `j`'s prefix too. So the candidate rules are `j`'s
//! prefix-ancestors: a chain that `parent` links precompute. The walk climbs
//! the chain to the first prefix of `P`; from there every ancestor is a
//! prefix of `P` as well, and the walk stops early once `chain_max` (the
//! longest pattern left on the chain) cannot beat the best match found.
//!
//! The binary search compares keys, the first eight octets of each prefix as
//! a big-endian integer (zero-padded: normalised text holds no NUL, so the
//! padding sorts below any octet and integer order is prefix order), not
//! the rules and the arena; full prefixes are compared only between equal
//! keys, and only for prefixes longer than eight octets, read from the
//! arena at the offset the entry holds. A large index also keeps where the
//! prefixes of each second octet start ([`Prefixes`]), so the search
//! covers `/a...` paths among the `/a...` prefixes only. Each probe of the
//! search is likely a cache miss when checks go from host to host, and
//! these cuts are most of what makes a check fast. A range of at most
//! [`LINEAR_SEARCH_MAX`] entries (most of them) is not searched but counted:
//! the entries with a smaller key, and those with the path's key (only
//! those are then compared in full). The count's loads do not wait for
//! one another and it has no branch to guess wrong, where each probe of a
//! binary search waits for the one before and guesses its way.
//!
//! A wildcard rule can match only a path that holds every pair of octets
//! inside its pieces (the literal prefix included). Each rule keeps those
//! pairs as a 64-bit set (`need`), and a check gathers the path's pairs into
//! such a set in a register (no branch per octet); a rule is tried only if
//! the path holds all of its pairs (one `and`), starts with its prefix (one
//! masked compare of keys) and could beat the best match so far, and only
//! then matched ([`super::wildcard`]). An index of up to
//! [`ANCHOR_MIN_WILD`] wildcard rules keeps them in one run, longest first,
//! so a check stops at the first one too short to win.
//!
//! More wildcard rules are sorted by *anchor*: of the pairs a rule
//! requires, the one fewest of the group's wildcard rules share. A
//! [`PAIR_BITS`]-bit set of the anchors is kept; a check gathers the path's
//! pairs into such a set too, meets it with the anchors, and takes the run
//! of rules of each anchor in both (found by rank, a popcount). A file with
//! hundreds of `/*...` rules costs a few instructions per octet of the path,
//! not per rule; and none at all when a prefix rule longer than every
//! wildcard rule matched. A check whose
//! [`ENGAGE_TRIES`](pieces::ENGAGE_TRIES)th rule gets to be matched
//! anyway (a hostile file) answers its and the rest's piece searches
//! from one scan of the path
//! ([`pieces`]), built over an automaton the index keeps once a check has
//! needed it.
//!
//! Built once per group, when checks have come to need it (the parse itself
//! never sorts; see [`super::rent`]): 24
//! bytes per rule, about 260 bytes per index, and 516 bytes more for an
//! index of 32 prefix rules or more. Each entry holds all a check reads of
//! its rule, so the search's probes bring in what the chain walk then
//! needs.

use std::sync::OnceLock;

use crate::model::{ANCHORED, Parsed, WILDCARD, placed};

use super::pieces::{self, Pieces, Scan};
use super::{Hit, wildcard};

/// Paths at least this long share piece searches across a check's wildcard
/// rules ([`wildcard::Memo`]).
const MEMO_MIN_PATH: usize = 256;

const NONE: u32 = u32::MAX;

/// What the `Arc` an index is kept in adds: two reference counts, padded
/// to the index's alignment of 64 (48 bytes of padding on 64-bit targets).
#[cfg(any(feature = "fetch", test))]
const ARC_HEADER: usize = (2 * size_of::<usize>()).next_multiple_of(align_of::<Index>());

/// One prefix rule, with all a check reads of it in one place (24 bytes;
/// the search's last probe has usually brought its line in already).
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The first eight octets of the literal prefix, big-endian ([`key8`]).
    key: u64,
    /// The pattern's offset in `Parsed::arena` (its [`Hit::at`]): a prefix
    /// longer than the key is read from there, with no stop at the rule.
    at: u32,
    /// Position of the nearest earlier entry whose prefix is a prefix of
    /// this entry's prefix, or `NONE`.
    parent: u32,
    /// The pattern's length (the rule's priority).
    len: u16,
    /// Longest pattern length on the chain from this entry up.
    chain_max: u16,
    /// The literal prefix's length.
    prefix: u16,
    /// An `Allow` rule.
    allow: bool,
    /// Anchored without `*` (`/a$`): matches only the path equal to its
    /// prefix.
    exact: bool,
}

/// One wildcard rule (24 bytes).
#[derive(Debug, Clone, Copy)]
struct Wild {
    /// [`key8`] of the literal prefix.
    key: u64,
    /// The pairs the rule requires, as a 64-bit set ([`need_bit`]): a try
    /// is cut short unless the path holds them all, a test far cheaper
    /// than a match.
    need: u64,
    /// The pattern's offset in `Parsed::arena` (its [`Hit::at`]; read from
    /// here, a try goes to the arena without a stop at the rule).
    at: u32,
    /// The pattern's length.
    len: u16,
    /// The literal prefix's length, capped at 8 (the part `key` checks; the
    /// matcher checks the rest).
    prefix: u8,
    /// An `Allow` rule.
    allow: bool,
}

/// Laid out in the order written, on a cache line of its own
/// (`repr(C, align(64))`): the anchors fill the first line (which a check
/// reads only when the index has more than [`ANCHOR_MIN_WILD`] wildcard
/// rules), the rest of
/// what a check of a group with wildcard rules reads (`wild`,
/// `wild_max_len`, `plain`, `ranks`, `runs`) the second, and the prefix
/// rules (which an [`Agent`](crate::Agent) handle keeps at hand) the
/// third. (Unaligned, and in the compiler's order, it took a check about
/// 0.4 more cache misses on the benchmark's checks.)
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Index {
    /// The set of the anchors, as [`PAIR_BITS`] bits.
    anchors: [u64; PAIR_WORDS],
    /// Wildcard rules, by anchor, ascending (those without one last), and
    /// within an anchor's run the longest first.
    wild: Box<[Wild]>,
    /// The longest wildcard rule: a path whose best prefix rule is longer
    /// needs no look at them.
    wild_max_len: u16,
    /// Where the rules without an anchor start in `wild` (the last of
    /// `runs`, kept here to spare a check the look there): 0 when no rule
    /// has one.
    plain: u32,
    /// For each word of `anchors`, the number of anchors in the words
    /// before it: with a popcount, an anchor's rank among the anchors.
    ranks: [u16; PAIR_WORDS],
    /// Where the rules of the anchor of each rank start in `wild`, and, last,
    /// where the rules without an anchor start.
    runs: Box<[u32]>,
    /// Prefix rules sorted by literal prefix (then by pattern length,
    /// disallow before allow, later rules first, so the walk backwards meets
    /// the strongest rule of a prefix first).
    entries: Box<[Entry]>,
    /// With at least [`STARTS_MIN_ENTRIES`] entries, where the prefixes
    /// `/` + octet `c` start in `entries`, for each ASCII `c` (then where
    /// those of `/` + a non-ASCII octet start); else empty. See
    /// [`Prefixes`].
    starts: Box<[u32]>,
    /// The automaton over the pieces of the wildcard rules (in the order
    /// of `wild`), built by the first check that needs it ([`pieces`]).
    pieces: OnceLock<Box<Pieces>>,
}

/// The anchor of a wildcard rule with no piece of two octets, or of every
/// rule of an index of at most [`ANCHOR_MIN_WILD`] wildcard rules.
const NO_ANCHOR: u16 = PAIR_BITS as u16;

/// Sets of octet pairs are this many 64-bit words.
const PAIR_WORDS: usize = 8;

/// The size of a set of octet pairs: pairs are hashed to this many bits.
/// (Twice as many made a path's set sparser, but cost a check one more
/// cache line to meet it with the anchors.)
const PAIR_BITS: usize = 64 * PAIR_WORDS;

/// The bit of an octet pair in a set of [`PAIR_BITS`].
#[inline]
fn pair_bit(a: u8, b: u8) -> u16 {
    (((a as u16) << 3) ^ b as u16) & (PAIR_BITS as u16 - 1)
}

/// The octet pairs a path matching a wildcard pattern must hold: those
/// inside its pieces, the literal prefix among them, as [`pair_bit`]s,
/// appended to `out` without repeats. (The prefix counts: rules such as
/// `/uk/listing/*/stubs/*` share their pieces with their siblings in other
/// locales, and are told apart by their prefixes.)
fn required_pairs(pattern: &[u8], seen: &mut [u64; PAIR_WORDS], out: &mut Vec<u16>) {
    let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
    let from = out.len();
    // The pairs inside pieces are the adjacent ones without a `*`.
    for w in body.windows(2) {
        if w[0] == b'*' || w[1] == b'*' {
            continue;
        }
        let p = pair_bit(w[0], w[1]);
        let (word, bit) = (p as usize >> 6, 1 << (p & 63));
        if seen[word] & bit == 0 {
            seen[word] |= bit;
            out.push(p);
        }
    }
    // `seen` is left empty for the next rule.
    for &p in &out[from..] {
        seen[p as usize >> 6] = 0;
    }
}

/// The anchors of a group's wildcard rules, whose required pairs are
/// `pairs[ends[i - 1]..ends[i]]`: for each, of the pairs it requires, the
/// one fewest of the group's wildcard rules require (so that rules sharing
/// a common piece, such as `/*/medialibrary/...`, spread over their
/// distinctive pairs); `NO_ANCHOR` for a rule that requires none.
fn anchors(pairs: &[u16], ends: &[usize]) -> Vec<u16> {
    let mut count = vec![0u32; PAIR_BITS];
    for &p in pairs {
        count[p as usize] += 1;
    }
    let mut from = 0;
    ends.iter()
        .map(|&end| {
            let rarest = pairs[from..end]
                .iter()
                .min_by_key(|&&p| (count[p as usize], p));
            from = end;
            rarest.copied().unwrap_or(NO_ANCHOR)
        })
        .collect()
}

/// The bit of an octet pair (a [`pair_bit`]) in a 64-bit set: its bit
/// within its word of a set of [`PAIR_BITS`], so that the 64-bit set of a
/// path's pairs is the union of the words of the larger set.
#[inline]
fn need_bit(pair: u16) -> u32 {
    pair as u32 & 63
}

/// Indexes with at most this many wildcard rules try them in one run,
/// longest first, without anchors: meeting the path's pairs with the
/// anchors costs more than testing that many rules.
const ANCHOR_MIN_WILD: usize = 32;

/// Is this rule a wildcard rule (a literal piece after a `*`)? Otherwise it
/// matches the paths starting with its literal prefix (or, anchored
/// without `*`, exactly that path).
fn is_wild(pattern: &[u8], prefix_len: usize) -> bool {
    pattern[prefix_len..]
        .iter()
        .any(|&b| b != b'*' && b != b'$')
}

/// The first eight octets of `s` as a big-endian integer, zero-padded.
#[inline]
pub(crate) fn key8(s: &[u8]) -> u64 {
    match s.first_chunk::<8>() {
        Some(w) => u64::from_be_bytes(*w),
        None => s
            .iter()
            .enumerate()
            .fold(0, |k, (i, &b)| k | (b as u64) << (56 - 8 * i)),
    }
}

/// The first sixteen octets of the `len` octets at `arena[start..]` as a
/// big-endian integer, zero-padded (as [`key8`] is of eight).
#[inline]
fn key16(arena: &[u8], start: usize, len: usize) -> u128 {
    let n = len.min(16);
    match arena.get(start..start + 16) {
        // Sixteen octets at once, those past `len` cleared.
        Some(w) => {
            let k = u128::from_be_bytes(w.try_into().expect("16 octets"));
            k & (!0u128).checked_shl(8 * (16 - n) as u32).unwrap_or(0)
        }
        None => arena[start..start + n]
            .iter()
            .enumerate()
            .fold(0, |k, (i, &b)| k | (b as u128) << (120 - 8 * i)),
    }
}

/// The rules `rules.0..rules.1`, whose patterns start at `base`, each as
/// (its index, its pattern's offset).
fn numbered(parsed: &Parsed, rules: (u32, u32), base: u32) -> impl Iterator<Item = (u32, u32)> {
    let group = &parsed.rules[rules.0 as usize..rules.1 as usize];
    (rules.0..).zip(placed(group, base).map(|(at, _)| at))
}

impl Index {
    /// The index of one group, whose rules are `rules.0..rules.1` and
    /// whose patterns start at `base` in the arena.
    pub(crate) fn build(parsed: &Parsed, rules: (u32, u32), base: u32) -> Index {
        Index::over(parsed, numbered(parsed, rules, base))
    }

    /// The index of several groups merged (RFC 9309 section 2.2.1): it
    /// answers what the best of their bests would.
    pub(crate) fn merged(parsed: &Parsed, groups: &[u32]) -> Index {
        Index::over(
            parsed,
            groups.iter().flat_map(|&g| {
                let g = parsed.group(g);
                numbered(parsed, g.rules, g.base)
            }),
        )
    }

    /// The index of the rules numbered `rules`, each with its pattern's
    /// offset in the arena.
    fn over(parsed: &Parsed, rules: impl Iterator<Item = (u32, u32)>) -> Index {
        let arena = &parsed.arena;
        let rule = |i: u32| &parsed.rules[i as usize];
        // (Rule index, pattern offset) pairs.
        type Rules = Vec<(u32, u32)>;
        let (wild, prefixed): (Rules, Rules) = rules.partition(|&(i, at)| {
            let r = rule(i);
            let pattern = r.pattern(arena, at);
            r.flags & WILDCARD != 0 && is_wild(pattern, r.prefix_len(pattern))
        });
        // Sorted by prefix (the key decides most comparisons without
        // reading the arena), then as the walk backwards wants to meet them.
        // (A 16-octet key decides nearly every comparison; files list their
        // rules mostly in order, and the stable sort takes runs as they
        // come.)
        let mut order: Vec<(u128, &[u8], u32, u32)> = prefixed
            .into_iter()
            .map(|(i, at)| {
                let r = rule(i);
                let p = r.literal_prefix(r.pattern(arena, at));
                (key16(arena, at as usize, p.len()), p, i, at)
            })
            .collect();
        order.sort_by(|&(ka, pa, a, _), &(kb, pb, b, _)| {
            ka.cmp(&kb)
                .then_with(|| pa[pa.len().min(16)..].cmp(&pb[pb.len().min(16)..]))
                .then_with(|| {
                    let (ra, rb) = (rule(a), rule(b));
                    ra.len
                        .cmp(&rb.len)
                        .then(ra.allow().cmp(&rb.allow()))
                        .then(b.cmp(&a))
                })
        });
        // Of identical rules (same prefix, length, kind and anchoring: the
        // same pattern), only the earliest can decide, as it wins their
        // ties: the last of each run in this order. The others are left
        // out, or a file repeating one rule thousands of times would make
        // every check walk them all.
        type Key<'a> = (u128, &'a [u8], u32, u32);
        let same = |&(_, pa, a, _): &Key, &(_, pb, b, _): &Key| {
            let (ra, rb) = (rule(a), rule(b));
            pa == pb
                && ra.len == rb.len
                && ra.allow() == rb.allow()
                && ra.flags & (ANCHORED | WILDCARD) == rb.flags & (ANCHORED | WILDCARD)
        };
        order.reverse();
        order.dedup_by(|b, a| same(a, b));
        order.reverse();
        let mut entries: Vec<Entry> = Vec::with_capacity(order.len());
        let mut stack: Vec<usize> = Vec::new();
        for (pos, &(key, prefix, i, at)) in order.iter().enumerate() {
            while let Some(&top) = stack.last() {
                if prefix.starts_with(order[top].1) {
                    break;
                }
                stack.pop();
            }
            let up = stack.last().copied();
            let r = rule(i);
            entries.push(Entry {
                key: (key >> 64) as u64,
                at,
                parent: up.map_or(NONE, |u| u as u32),
                len: r.len,
                chain_max: r.len.max(up.map_or(0, |u| entries[u].chain_max)),
                prefix: prefix.len() as u16,
                allow: r.allow(),
                exact: r.flags & (ANCHORED | WILDCARD) == ANCHORED,
            });
            stack.push(pos);
        }
        let mut pairs = Vec::new();
        let mut seen = [0u64; PAIR_WORDS];
        let ends: Vec<usize> = wild
            .iter()
            .map(|&(i, at)| {
                required_pairs(rule(i).pattern(arena, at), &mut seen, &mut pairs);
                pairs.len()
            })
            .collect();
        // Few wildcard rules go without anchors: one run, longest first.
        let anchor = if wild.len() > ANCHOR_MIN_WILD {
            anchors(&pairs, &ends)
        } else {
            vec![NO_ANCHOR; wild.len()]
        };
        let mut from = 0;
        let mut wild: Vec<(u16, Wild)> = wild
            .iter()
            .zip(&ends)
            .zip(anchor)
            .map(|((&(i, at), &end), anchor)| {
                let r = rule(i);
                let pattern = r.pattern(arena, at);
                let need = pairs[from..end]
                    .iter()
                    .fold(0u64, |n, &p| n | 1 << need_bit(p));
                from = end;
                let w = Wild {
                    key: key8(r.literal_prefix(pattern)),
                    need,
                    at,
                    len: r.len,
                    prefix: r.prefix_len(pattern).min(8) as u8,
                    allow: r.allow(),
                };
                (anchor, w)
            })
            .collect();
        // Longest first within a run: a check stops at the first rule of a
        // run too short to beat its best match so far.
        wild.sort_unstable_by_key(|&(anchor, w)| (anchor, std::cmp::Reverse(w.len), w.at));
        let mut anchors = [0u64; PAIR_WORDS];
        let mut runs = Vec::new();
        for (i, &(anchor, _)) in wild.iter().enumerate() {
            if i == 0 || anchor != wild[i - 1].0 {
                runs.push(i as u32);
            }
            if anchor != NO_ANCHOR {
                anchors[(anchor >> 6) as usize] |= 1 << (anchor & 63);
            }
        }
        if wild.last().is_none_or(|&(anchor, _)| anchor != NO_ANCHOR) {
            runs.push(wild.len() as u32);
        }
        let wild: Vec<Wild> = wild.into_iter().map(|(_, w)| w).collect();
        let mut ranks = [0u16; PAIR_WORDS];
        for k in 1..PAIR_WORDS {
            ranks[k] = ranks[k - 1] + anchors[k - 1].count_ones() as u16;
        }
        Index {
            starts: starts(&entries).into(),
            entries: entries.into(),
            wild_max_len: wild.iter().map(|w| w.len).max().unwrap_or(0),
            wild: wild.into(),
            anchors,
            ranks,
            plain: runs.last().copied().unwrap_or(0),
            runs: runs.into(),
            pieces: OnceLock::new(),
        }
    }

    /// The most heap bytes an index of `rules` takes: the struct in its
    /// `Arc` (two counts, padded), an entry (24 bytes) and a run start (4)
    /// per rule, for 32 rules or more the table of [`Prefixes::starts`],
    /// and, for [`pieces::ENGAGE_TRIES`] wildcard rules or more, the
    /// automaton checks may come to build over them
    /// ([`Pieces::bytes_bound`]).
    #[cfg(any(feature = "fetch", test))]
    pub(crate) fn bytes_bound(rules: crate::model::Indexed) -> usize {
        let starts = if rules.rules >= STARTS_MIN_ENTRIES {
            129
        } else {
            0
        };
        let automaton = if rules.wild >= pieces::engage_tries() as usize {
            Pieces::bytes_bound(rules.wild, rules.wild_octets, rules.wild_pieces)
        } else {
            0
        };
        rules
            .rules
            .saturating_mul(size_of::<Entry>().max(size_of::<Wild>()) + size_of::<u32>())
            .saturating_add(ARC_HEADER + size_of::<Index>() + (1 + starts) * size_of::<u32>())
            .saturating_add(automaton)
    }

    /// The heap bytes this index takes.
    #[cfg(test)]
    fn heap_bytes(&self) -> usize {
        ARC_HEADER
            + size_of::<Index>()
            + self.entries.len() * size_of::<Entry>()
            + self.wild.len() * size_of::<Wild>()
            + self.runs.len() * size_of::<u32>()
            + self.starts.len() * size_of::<u32>()
            + self.pieces.get().map_or(0, |p| p.heap_bytes())
    }

    /// The automaton over the pieces of the wildcard rules, built now if
    /// it is not yet.
    fn automaton(&self, arena: &[u8]) -> &Pieces {
        self.pieces.get_or_init(|| {
            Box::new(Pieces::build(
                self.wild
                    .iter()
                    .map(|w| &arena[w.at as usize..][..w.len as usize]),
            ))
        })
    }

    /// The best rule of the indexed group matching `path`.
    #[inline]
    pub(crate) fn best(&self, arena: &[u8], path: &[u8]) -> Option<Hit> {
        self.best_in(self.prefixes(), arena, path)
    }

    /// The sorted prefix rules, for a caller that keeps them at hand
    /// ([`best_in`](Index::best_in)).
    pub(crate) fn prefixes(&self) -> Prefixes<'_> {
        Prefixes {
            entries: &self.entries,
            starts: &self.starts,
        }
    }

    /// [`best`](Index::best), with `prefixes` the index's own
    /// ([`prefixes`](Index::prefixes)) as the caller keeps them: the search
    /// then starts without waiting for this struct to be read.
    #[inline]
    pub(crate) fn best_in(&self, prefixes: Prefixes<'_>, arena: &[u8], path: &[u8]) -> Option<Hit> {
        let path_key = key8(path);
        let best = best_prefixed(prefixes, arena, path, path_key);
        // No wildcard rule can beat a prefix rule longer than all of them.
        if self.wild.is_empty() || best.is_some_and(|b| b.len > self.wild_max_len) {
            best
        } else {
            self.best_wild(arena, path, path_key, best)
        }
    }
}

/// Searches over at most this many entries count them instead (see
/// `best_prefixed`). Timed against the binary search alone, alternating
/// within one process over the benchmark's shuffled checks through the
/// handles, a check took 0.989 of the time at 8, 0.978 at 16, 0.973 at 32
/// and 0.970 at 64 (medians of 31 rounds); at 64 the count's loop runs
/// twice as long for little more.
const LINEAR_SEARCH_MAX: usize = 32;

/// Indexes with fewer prefix rules than this search them all: the table of
/// [`Prefixes::starts`] would cost more than it saves.
const STARTS_MIN_ENTRIES: usize = 32;

/// An index's sorted prefix rules, and where those of each second octet
/// start.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prefixes<'a> {
    entries: &'a [Entry],
    /// Empty, or 129 positions: `starts[c]` is the number of entries whose
    /// key is below that of `/` followed by the octet `c` (for `c` up to
    /// 128). Keys are in prefix order, so for a path `/c...` with `c`
    /// ASCII the search can be cut to `starts[c]..starts[c + 1]`: every
    /// entry before sorts before the path, every entry after sorts after it.
    /// A path is searched in a handful of entries rather than all of them,
    /// and a check of a large group takes about half the probes (each a
    /// likely cache miss) it did.
    starts: &'a [u32],
}

/// [`Prefixes::starts`] for sorted `entries`.
fn starts(entries: &[Entry]) -> Vec<u32> {
    if entries.len() < STARTS_MIN_ENTRIES {
        return Vec::new();
    }
    // One walk over the sorted keys.
    let mut pos = 0;
    (0..=128u64)
        .map(|c| {
            let key = (b'/' as u64) << 56 | c << 48;
            pos += entries[pos..].iter().take_while(|e| e.key < key).count();
            pos as u32
        })
        .collect()
}

/// The best of the sorted prefix rules for `path`.
#[inline]
fn best_prefixed(prefixes: Prefixes<'_>, arena: &[u8], path: &[u8], path_key: u64) -> Option<Hit> {
    let entries = prefixes.entries;
    // The prefix of the entry beyond its key (it has more than 8 octets).
    let long_prefix = |e: &Entry| &arena[e.at as usize..][..e.prefix as usize];
    // Does the prefix of the entry at `pos` sort at or before `path`?
    let at_or_before = |pos: usize| {
        let e = &entries[pos];
        if e.key != path_key {
            e.key < path_key
        } else {
            e.prefix <= 8 || long_prefix(e) <= path
        }
    };
    // Where the prefixes of the path's first two octets lie (any key is
    // below the path's, or above, outside them).
    let (lo, hi) = match (path_key >> 48) as usize {
        k if k >> 8 == b'/' as usize && k & 0xFF < 128 && !prefixes.starts.is_empty() => (
            prefixes.starts[k & 0xFF] as usize,
            prefixes.starts[(k & 0xFF) + 1] as usize,
        ),
        _ => (0, entries.len()),
    };
    let end = if hi - lo <= LINEAR_SEARCH_MAX {
        // Few entries: count those whose key sorts before the path's, and
        // those with the path's key, without a branch on their answers and
        // with loads that do not wait for each other; only entries with
        // the path's key need their prefix compared.
        let (mut below, mut equal) = (0, 0);
        for e in &entries[lo..hi] {
            below += (e.key < path_key) as usize;
            equal += (e.key == path_key) as usize;
        }
        let from = lo + below;
        from + partition_point(equal, |i| at_or_before(from + i))
    } else {
        lo + partition_point(hi - lo, |i| at_or_before(lo + i))
    };
    if end == 0 {
        return None;
    }
    // Is the prefix of `e` a prefix of `path`?
    let is_prefix = |e: &Entry| {
        let n = e.prefix as usize;
        e.key == path_key & MASKS[n.min(8)]
            && (n <= 8 || path.get(8..n) == Some(&long_prefix(e)[8..]))
    };
    let mut pos = end as u32 - 1;
    while !is_prefix(&entries[pos as usize]) {
        pos = entries[pos as usize].parent;
        if pos == NONE {
            return None;
        }
    }
    let mut best: Option<Hit> = None;
    while pos != NONE {
        let e = &entries[pos as usize];
        if best.is_some_and(|b| e.chain_max < b.len) {
            break;
        }
        let hit = Hit {
            len: e.len,
            allow: e.allow,
            at: e.at,
        };
        // On the chain, the prefix is a prefix of the path, which is a
        // match unless the rule is anchored (`/a$`: the path must be
        // exactly the prefix; `/a*$` is not anchored in that sense).
        if best.is_none_or(|b| hit.beats(&b)) && (!e.exact || path.len() == e.prefix as usize) {
            best = Some(hit);
        }
        pos = e.parent;
    }
    best
}

impl Index {
    /// The best of `best` and the wildcard rules for `path`.
    ///
    /// Without anchors (at most [`ANCHOR_MIN_WILD`] rules), the rules are
    /// looked at in turn, longest first. With them, only the rules whose
    /// anchor pair the path holds are: the path's octet pairs are gathered
    /// into a set, met with the set of anchors, and for each anchor in both
    /// its run of rules is found by rank; rules without an anchor always
    /// are. Either way a rule is tried only if the path holds all of its
    /// pairs and starts with its prefix.
    #[inline(never)]
    fn best_wild(
        &self,
        arena: &[u8],
        path: &[u8],
        path_key: u64,
        mut best: Option<Hit>,
    ) -> Option<Hit> {
        let wild = &self.wild[..];
        // Rules before `plain` have anchors: only then are the path's pairs
        // needed as a set of PAIR_BITS, to meet with the anchors.
        let anchored = self.plain != 0;
        // The path's octet pairs as a 64-bit set (for each rule's `need`)
        // and, with anchors, as a set of PAIR_BITS: no branch per octet.
        let mut held = [0u64; PAIR_WORDS];
        let mut held64 = 0u64;
        if let Some((&first, rest)) = path.split_first() {
            let mut prev = first;
            if anchored {
                for &b in rest {
                    let bit = pair_bit(prev, b);
                    held[(bit >> 6) as usize] |= 1 << (bit & 63);
                    prev = b;
                }
                held64 = held.iter().fold(0, |h, &w| h | w);
            } else {
                for &b in rest {
                    held64 |= 1 << need_bit(pair_bit(prev, b));
                    prev = b;
                }
            }
        }
        // Long paths (where a search costs) share piece searches across rules.
        let mut memo = (path.len() >= MEMO_MIN_PATH).then(wildcard::Memo::new);
        // Most rules tried fail one of three cheap tests, done inline in
        // the loops below: shorter than the best match so far (`floor`; a
        // run is longest first, so its loop stops there), a literal prefix
        // the path does not start with, or pairs the path does not hold.
        // The few left are matched out of line.
        let mut floor = best.map_or(0, |b| b.len);
        let passes =
            |w: &Wild| path_key & MASKS[w.prefix as usize] == w.key && w.need & !held64 == 0;
        // From the `ENGAGE_TRIES`th rule to get this far on, rules are
        // answered from a scan of the path (see [`pieces`]): a hostile file
        // makes thousands of rules pass the tests above and fail only
        // after searching the whole path.
        let mut tries = 0u32;
        let engage = pieces::engage_tries();
        let mut scan: Option<Scan<'_>> = None;
        let mut try_rule = |i: usize, best: &mut Option<Hit>| {
            let w = &wild[i];
            let hit = Hit {
                len: w.len,
                allow: w.allow,
                at: w.at,
            };
            if best.is_none_or(|b| hit.beats(&b)) {
                let pattern = &arena[w.at as usize..][..w.len as usize];
                if scan.is_none() && tries < engage {
                    tries += 1;
                    if tries == engage && path.len() <= pieces::MAX_SCAN_PATH {
                        scan = Some(Scan::new(self.automaton(arena), path));
                    }
                }
                let matched = match (&mut scan, &mut memo) {
                    (Some(scan), _) => {
                        let mut spans = scan.pieces().rule(i).iter();
                        // (`scan` remembers its last answer for each piece:
                        // rules sharing `*c*` ask for `c` from one place.)
                        wildcard::matches_by(pattern, path, |piece, from| {
                            let span = *spans.next().expect("a span for each piece searched");
                            scan.find(span, piece, from)
                        })
                    }
                    (None, Some(memo)) => wildcard::matches_memo(pattern, path, memo),
                    (None, None) => wildcard::matches(pattern, path),
                };
                if matched {
                    *best = Some(hit);
                }
            }
            best.map_or(0, |b| b.len)
        };
        // The rules without an anchor, after all the anchored ones.
        for (i, w) in wild.iter().enumerate().skip(self.plain as usize) {
            if w.len < floor {
                break;
            }
            if passes(w) {
                floor = try_rule(i, &mut best);
            }
        }
        if !anchored {
            return best;
        }
        // The anchors the path holds, met with the set of anchors word by
        // word; each anchor's rules are a run of `wild`, found by its rank.
        for (k, (&held, &anchors)) in held.iter().zip(self.anchors.iter()).enumerate() {
            let mut hits = held & anchors;
            while hits != 0 {
                let below = anchors & ((hits & hits.wrapping_neg()) - 1);
                let rank = self.ranks[k] as usize + below.count_ones() as usize;
                hits &= hits - 1;
                let run = self.runs[rank] as usize..self.runs[rank + 1] as usize;
                for (i, w) in wild[run.clone()].iter().enumerate() {
                    if w.len < floor {
                        break;
                    }
                    if passes(w) {
                        floor = try_rule(run.start + i, &mut best);
                    }
                }
            }
        }
        best
    }
}

/// Masks of the first 0 to 8 octets of a [`key8`].
const MASKS: [u64; 9] = {
    let mut m = [0u64; 9];
    let mut n = 1;
    while n < 8 {
        m[n] = !(u64::MAX >> (8 * n));
        n += 1;
    }
    m[8] = u64::MAX;
    m
};

/// The number of leading positions in `0..n` for which `pred` holds (it
/// holds for a prefix of them): a branch-light binary search.
#[inline]
pub(crate) fn partition_point(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut len) = (0, n);
    while len > 1 {
        let half = len / 2;
        if pred(lo + half - 1) {
            lo += half;
        }
        len -= half;
    }
    if len == 1 && pred(lo) { lo + 1 } else { lo }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_rules_are_indexed_once_the_earliest() {
        let mut body = String::from("User-agent: *\nDisallow: /same\nAllow: /same\n");
        for _ in 0..1000 {
            body.push_str("Disallow: /same\nAllow: /same\nDisallow: /same$\n");
        }
        let parsed = crate::parse::parse(body.as_bytes(), &crate::parse::ParseOptions::new());
        let g = parsed.group(0);
        let index = Index::build(&parsed, g.rules, g.base);
        // One entry per distinct pattern and kind.
        assert_eq!(index.entries.len(), 3);
        // `/same$` is the longest match of `/same`: its earliest copy.
        let hit = index.best(&parsed.arena, b"/same").unwrap();
        assert!(!hit.allow);
        assert_eq!(hit.at, parsed.rule_at(4));
        // Of the others, `Allow` wins the tie: its earliest copy.
        let hit = index.best(&parsed.arena, b"/samex").unwrap();
        assert!(hit.allow);
        assert_eq!(hit.at, parsed.rule_at(1));
    }

    #[test]
    fn few_wildcard_rules_go_without_anchors_and_answer_the_same() {
        for n in [1, ANCHOR_MIN_WILD, ANCHOR_MIN_WILD + 1, 3 * ANCHOR_MIN_WILD] {
            let mut body = String::from("User-agent: *\nDisallow: /*?\n");
            for i in 1..n {
                body.push_str(&format!("Allow: /*.x{i}$\nDisallow: /d{i}/*/e\n"));
            }
            let parsed = crate::parse::parse(body.as_bytes(), &crate::parse::ParseOptions::new());
            let group = parsed.group(0);
            let g = group.rules;
            let index = Index::build(&parsed, g, group.base);
            let wild = 2 * n - 1;
            assert_eq!(index.wild.len(), wild);
            if wild <= ANCHOR_MIN_WILD {
                assert_eq!((index.plain, index.anchors), (0, [0; PAIR_WORDS]));
                assert!(index.wild.windows(2).all(|w| w[0].len >= w[1].len));
            } else {
                // All but `/*?` (no pair) have an anchor.
                assert_eq!(index.plain as usize, wild - 1);
            }
            let rules = &parsed.rules[g.0 as usize..g.1 as usize];
            for path in ["/", "/a?b", "/f.x1", "/f.x1?", "/d1/x/e", "/d2/e", "/q.x9"] {
                let want =
                    super::super::linear_best(&parsed.arena, rules, group.base, path.as_bytes());
                assert_eq!(
                    index.best(&parsed.arena, path.as_bytes()),
                    want,
                    "{n} {path}"
                );
            }
        }
    }

    #[test]
    fn what_a_check_reads_of_an_index_fills_its_first_line() {
        assert_eq!((size_of::<Index>(), align_of::<Index>()), (192, 64));
        assert_eq!(std::mem::offset_of!(Index, anchors), 0);
        assert_eq!(std::mem::offset_of!(Index, wild), 64);
        assert!(std::mem::offset_of!(Index, runs) + size_of::<Box<[u32]>>() <= 128);
    }

    #[test]
    fn an_index_takes_no_more_than_its_bound() {
        // The allocation an `Arc<Index>` makes: `std`'s `ArcInner` is
        // `repr(C)`, its two counts then the value.
        #[repr(C)]
        struct InArc {
            _strong: usize,
            _weak: usize,
            _index: Index,
        }
        assert_eq!(size_of::<InArc>(), ARC_HEADER + size_of::<Index>());
        for (prefixed, wild) in [
            (0, 0),
            (1, 0),
            (0, 1),
            (31, 0),
            (32, 0),
            (40, 300),
            (0, 500),
        ] {
            let mut body = String::from("User-agent: *\n");
            for i in 0..prefixed {
                body.push_str(&format!("Disallow: /p{i}\n"));
            }
            for i in 0..wild {
                body.push_str(&format!("Allow: /*.x{i}$\n"));
            }
            let parsed = crate::parse::parse(body.as_bytes(), &crate::parse::ParseOptions::new());
            let g = parsed.group(0);
            let index = Index::build(&parsed, g.rules, g.base);
            let octets = (0..wild).map(|i| format!(".x{i}").len()).sum();
            let bound = Index::bytes_bound(crate::model::Indexed {
                rules: prefixed + wild,
                wild,
                wild_octets: octets,
                wild_pieces: wild,
            });
            assert!(index.heap_bytes() <= bound, "{prefixed} {wild}");
            // With the automaton built (as checks do once they have tried
            // `ENGAGE_TRIES` wildcard rules), within its bound too.
            if wild >= pieces::ENGAGE_TRIES as usize {
                index.automaton(&parsed.arena);
            }
            assert!(index.heap_bytes() <= bound, "{prefixed} {wild}");
            // And not far from it (the `starts` table goes by prefix rules
            // alone; the automaton's states are shared by pieces with a
            // common prefix, `.x1` and `.x10`).
            let slack = 4 * (prefixed + wild) + 4 + 516 + 13 * octets;
            assert!(bound - index.heap_bytes() <= slack, "{prefixed} {wild}");
        }
    }

    #[test]
    fn keys_sort_as_prefixes() {
        let words: [&[u8]; 8] = [
            b"",
            b"/",
            b"/a",
            b"/a%2F",
            b"/ab",
            b"/abcdefgh",
            b"/abcdefghij",
            b"/b",
        ];
        for w in words.windows(2) {
            assert!(key8(w[0]) <= key8(w[1]), "{:?}", w);
        }
        assert_eq!(key8(b"/abcdefg") & MASKS[3], key8(b"/ab"));
        assert_eq!(MASKS[0], 0);
        assert_eq!(MASKS[8], u64::MAX);
        assert_eq!(MASKS[1], 0xFF << 56);
    }

    #[test]
    fn key16_is_the_first_sixteen_octets_zero_padded() {
        let arena: Vec<u8> = (1..=40).collect();
        for start in 0..arena.len() {
            for len in 0..=arena.len() - start {
                let mut want = [0u8; 16];
                let n = len.min(16);
                want[..n].copy_from_slice(&arena[start..start + n]);
                let want = u128::from_be_bytes(want);
                assert_eq!(key16(&arena, start, len), want, "{start} {len}");
                assert_eq!((want >> 64) as u64, key8(&arena[start..start + len]));
            }
        }
    }

    #[test]
    fn partition_points() {
        for n in 0..20 {
            for k in 0..=n {
                assert_eq!(partition_point(n, |i| i < k), k, "{n} {k}");
            }
        }
    }
}
