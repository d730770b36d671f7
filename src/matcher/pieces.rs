//! Where the pieces of an index's wildcard rules occur in a path, for all
//! the rules at once: the bound on a hostile file's checks.
//!
//! A wildcard rule is matched by searching the path for each of its pieces
//! in turn ([`super::wildcard`]), each search costing up to the length of
//! the path. The cheap tests of [`super::index`] keep almost every rule of
//! an ordinary file from a search at all; but a file can make thousands of
//! rules pass them and then fail only after searching the whole path (the
//! `short_pieces` and `late_pieces` files of `benches/matching.rs`), and a
//! check would cost O(rules × path). So a check whose
//! [`ENGAGE_TRIES`]th wildcard rule reaches the matcher answers that
//! rule's piece searches and the rest's from a [`Scan`] of the path
//! instead, each in O(log) time:
//!
//! 1. Once per index ([`Pieces::build`], on the first check that needs it),
//!    an Aho-Corasick automaton over the distinct pieces (those after each
//!    rule's literal prefix). Its states are the prefixes of pieces; a
//!    state's *failure link* is its longest proper suffix that is a state
//!    too. States are numbered in preorder of the tree the failure links
//!    form, so the states whose text ends with a piece (the piece's state
//!    and those whose failure links lead to it) are one range of numbers.
//! 2. Per check ([`Scan::new`]), the automaton reads the path once: the
//!    state after octet `i` is the longest suffix of the path up to `i`
//!    that is a state, and a piece ends at `i` exactly when that state's
//!    number lies in the piece's range. A persistent segment tree over
//!    state numbers then keeps, for each position `p`, the first position
//!    at or after `p` of each state: built from the end of the path back,
//!    one new path of tree nodes per position.
//! 3. "The first occurrence of this piece starting at or after `from`" is
//!    the least position in the tree of `from + len - 1` among the piece's
//!    range of states: one range-minimum query, O(log states).
//!
//! A check of an engaged index then costs O(path × log states) to set up
//! and O(log states) per piece searched, whatever the rules. Two cheaper
//! answers come first: the scan remembers its latest answer for a piece
//! (64 slots; rules sharing `*c*`), and a piece ending within the next
//! [`NEAR`] states is found by looking at them. Per check of an 8 KiB
//! URL (`cargo bench --bench matching -- adversarial/`, and a review's
//! hand-built files): 1.1 ms for `short_pieces`, about 4 ms for
//! `late_pieces`, 6.6 ms at most for one-letter pieces a few octets
//! apart, where searching took up to 62 ms. The first engaged check of a
//! file builds the automaton: 10 to 15 ms for the bench files, 50 ms for
//! 500 KiB of distinct 60-octet ASCII pieces, 190 ms when they are
//! non-ASCII (percent-encoded, three octets each: 1.3 million states).
//!
//! The tree is built in buffers kept per thread and reused, so an engaged
//! check allocates nothing once they have grown (8 bytes a node,
//! `log2(states) + 1` nodes a position of the normalised path: about
//! 1.6 MB for 8 KiB); buffers of more than [`KEEP_BYTES`] are freed after
//! the check. Paths longer than [`MAX_SCAN_PATH`] are searched as before.

use std::cell::Cell;

/// No state, no position.
const NONE: u32 = u32::MAX;

/// The state of the empty text (no piece ends there).
const ROOT: u32 = 0;

/// The wildcard rule of a check to reach the matcher at which it scans the
/// path: that rule and the rest are answered from a [`Scan`], so at most
/// 63 rules search the path (about 0.2 ms for an 8 KiB path). An ordinary
/// check matches a handful at most, and never builds an automaton: one check of the 26,822 of the
/// benchmarks' corpus reached 16. An index with fewer wildcard rules never
/// builds one, and the cache weighs in the automaton only for those with
/// more (see `Index::bytes_bound`): at 16 the corpus's weight bound grew
/// by 1.1 MB for 3.7 MB of bodies, at 64 by 0.75 MB.
#[cfg(not(test))]
pub(crate) const ENGAGE_TRIES: u32 = 64;
/// (Unit tests engage at once, so that every check of an index with
/// wildcard rules is answered through the automaton and compared with the
/// reference matcher; fuzz targets ask for it, [`set_engage_tries`].)
#[cfg(test)]
pub(crate) const ENGAGE_TRIES: u32 = 1;

/// [`ENGAGE_TRIES`], or what a fuzz target set.
#[inline]
pub(crate) fn engage_tries() -> u32 {
    #[cfg(feature = "__fuzz")]
    {
        let n = FUZZ_ENGAGE_TRIES.load(std::sync::atomic::Ordering::Relaxed);
        if n != 0 {
            return n;
        }
    }
    ENGAGE_TRIES
}

#[cfg(feature = "__fuzz")]
static FUZZ_ENGAGE_TRIES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Makes checks engage a scan after `tries` wildcard rules (0: the
/// default), so that a fuzz target's small files exercise it.
#[cfg(feature = "__fuzz")]
pub(crate) fn set_engage_tries(tries: u32) {
    FUZZ_ENGAGE_TRIES.store(tries, std::sync::atomic::Ordering::Relaxed);
}

/// Normalised paths longer than this are searched rule by rule as before:
/// the tree of a scan takes `log2(states) + 1` nodes of 8 bytes a
/// position, about 4 MB at this length for the largest automaton a 500 KiB
/// file makes. (An 8 KiB URL of non-ASCII text normalises to 24 KiB.)
pub(crate) const MAX_SCAN_PATH: usize = 24 * 1024;

/// A search looks at this many states after where it starts before it
/// asks the tree (a query reads some 40 nodes; a look at a state is one
/// comparison). Rules of one-letter pieces a few octets apart (`/*q*x*k…`
/// against a path of random letters) took 9.9 ms a check at 32, 6.6 ms
/// at 64.
#[cfg(not(test))]
const NEAR: usize = 64;
/// (Unit tests ask the tree from the next state on, so that it answers
/// most searches of their short paths.)
#[cfg(test)]
const NEAR: usize = 1;

/// The states whose text ends with one piece: `lo..hi` in state numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    lo: u32,
    hi: u32,
}

/// The automaton over the distinct pieces of an index's wildcard rules,
/// and each rule's pieces as [`Span`]s.
#[derive(Debug)]
pub(crate) struct Pieces {
    /// The state reached from the root by each octet (`ROOT` where no
    /// piece starts with it): the root's edges as a table, as every octet
    /// of the path not continuing a piece comes back to it.
    root: Box<[u32; 256]>,
    /// The edges of state `s` are `labels[first[s]..first[s + 1]]`
    /// (ascending) and `targets` at the same places.
    first: Box<[u32]>,
    labels: Box<[u8]>,
    targets: Box<[u32]>,
    /// Each state's failure link (the root's is itself).
    fail: Box<[u32]>,
    /// Wildcard rule `r` has the `rule_pattern[r]`-th distinct pattern, and
    /// the spans of pattern `p`'s pieces (those after its literal prefix that
    /// are not empty, in order) are
    /// `spans[pattern_first[p]..pattern_first[p + 1]]`.
    rule_pattern: Box<[u32]>,
    pattern_first: Box<[u32]>,
    spans: Box<[Span]>,
    /// Tree levels of a scan: the least `d` with `2^d` at least the number
    /// of states.
    levels: u32,
}

/// The pieces of a wildcard `pattern` that a search looks for: those after
/// its literal prefix, without a final `$`, that are not empty.
pub(crate) fn searched_pieces(pattern: &[u8]) -> impl Iterator<Item = &[u8]> {
    let body = pattern.strip_suffix(b"$").unwrap_or(pattern);
    body.split(|&b| b == b'*')
        .skip(1)
        .filter(|piece| !piece.is_empty())
}

impl Pieces {
    /// The automaton over the pieces of `patterns` (wildcard rules' patterns,
    /// in the order [`rule`](Pieces::rule) will number them).
    pub(crate) fn build<'a>(patterns: impl Iterator<Item = &'a [u8]>) -> Pieces {
        // Rules with the same pattern (files repeat rules by the
        // thousand) share its spans.
        let patterns: Vec<&[u8]> = patterns.collect();
        let mut by_text: Vec<u32> = (0..patterns.len() as u32).collect();
        by_text.sort_unstable_by_key(|&r| patterns[r as usize]);
        let mut rule_pattern = vec![0u32; patterns.len()];
        let mut all: Vec<&[u8]> = Vec::new();
        let mut pattern_first = vec![0u32];
        for (k, &r) in by_text.iter().enumerate() {
            let pattern = patterns[r as usize];
            if k > 0 && pattern != patterns[by_text[k - 1] as usize] {
                pattern_first.push(all.len() as u32);
            }
            if k == 0 || pattern != patterns[by_text[k - 1] as usize] {
                all.extend(searched_pieces(pattern));
            }
            rule_pattern[r as usize] = pattern_first.len() as u32 - 1;
        }
        pattern_first.push(all.len() as u32);
        let mut distinct = all.clone();
        distinct.sort_unstable();
        distinct.dedup();

        // The trie of the distinct pieces, from their sorted order: each
        // piece shares its longest common prefix with the one before and
        // adds a state for each octet after. States are numbered as they
        // are made (a preorder of the trie), and a state's children are
        // made in ascending order of their octets.
        let mut parent = vec![ROOT];
        let mut label = vec![0u8];
        let mut depth = vec![0u32];
        let mut ends = Vec::with_capacity(distinct.len());
        let mut stack = vec![ROOT];
        let mut prev: &[u8] = &[];
        for &piece in &distinct {
            let common = prev.iter().zip(piece).take_while(|(a, b)| a == b).count();
            stack.truncate(common + 1);
            for &b in &piece[common..] {
                let up = *stack.last().expect("the root stays");
                let id = parent.len() as u32;
                parent.push(up);
                label.push(b);
                depth.push(depth[up as usize] + 1);
                stack.push(id);
            }
            ends.push(*stack.last().expect("the root stays"));
            prev = piece;
        }
        let states = parent.len();

        // Each state's children, by a counting sort on their parent (stable:
        // the octets stay ascending).
        let children = Csr::group(states, (1..states as u32).map(|v| (parent[v as usize], v)));
        // Their octets beside them, so that a look-up reads one place.
        let child_labels: Vec<u8> = children.all().iter().map(|&v| label[v as usize]).collect();
        let child = |s: u32, b: u8| -> Option<u32> {
            let range = children.range(s);
            child_labels[range.clone()]
                .binary_search(&b)
                .ok()
                .map(|k| children.all()[range.start + k])
        };

        // Failure links, shallowest states first: the failure link of `v`,
        // child of `u` by octet `b`, is where `b` leads from the longest
        // suffix of `u` (along `u`'s failure links) that has an edge by `b`.
        let by_depth = Csr::group(
            states,
            (1..states as u32).map(|v| (depth[v as usize] - 1, v)),
        );
        let mut fail = vec![ROOT; states];
        for &v in by_depth.all() {
            let (u, b) = (parent[v as usize], label[v as usize]);
            if u == ROOT {
                continue;
            }
            let mut f = fail[u as usize];
            fail[v as usize] = loop {
                if let Some(w) = child(f, b) {
                    break w;
                }
                if f == ROOT {
                    break ROOT;
                }
                f = fail[f as usize];
            };
        }

        // Number the states in preorder of the failure-link tree, so that
        // each state's descendants (the states whose text ends with its
        // text) follow it in one range.
        let tree = Csr::group(states, (1..states as u32).map(|v| (fail[v as usize], v)));
        let mut order = Vec::with_capacity(states);
        let mut todo = vec![ROOT];
        while let Some(s) = todo.pop() {
            order.push(s);
            todo.extend_from_slice(tree.of(s));
        }
        let mut number = vec![0u32; states];
        for (n, &s) in order.iter().enumerate() {
            number[s as usize] = n as u32;
        }
        let mut size = vec![1u32; states];
        for &s in order.iter().skip(1).rev() {
            size[fail[s as usize] as usize] += size[s as usize];
        }

        // The automaton in the new numbers.
        let mut first = Vec::with_capacity(states + 1);
        let mut labels = Vec::with_capacity(states);
        let mut targets = Vec::with_capacity(states);
        first.push(0);
        for &s in &order {
            for &v in children.of(s) {
                labels.push(label[v as usize]);
                targets.push(number[v as usize]);
            }
            first.push(labels.len() as u32);
        }
        let mut root = Box::new([ROOT; 256]);
        for &v in children.of(ROOT) {
            root[label[v as usize] as usize] = number[v as usize];
        }
        let fail = order
            .iter()
            .map(|&s| number[fail[s as usize] as usize])
            .collect();
        let spans = all
            .iter()
            .map(|piece| {
                let k = distinct.binary_search(piece).expect("a piece of the list");
                let s = ends[k] as usize;
                Span {
                    lo: number[s],
                    hi: number[s] + size[s],
                }
            })
            .collect();
        Pieces {
            root,
            first: first.into(),
            labels: labels.into(),
            targets: targets.into(),
            fail,
            rule_pattern: rule_pattern.into(),
            pattern_first: pattern_first.into(),
            spans,
            levels: (states as u32).next_power_of_two().trailing_zeros().max(1),
        }
    }

    /// The spans of the searched pieces of the `r`-th pattern built from.
    #[inline]
    pub(crate) fn rule(&self, r: usize) -> &[Span] {
        let p = self.rule_pattern[r] as usize;
        &self.spans[self.pattern_first[p] as usize..self.pattern_first[p + 1] as usize]
    }

    /// The most heap bytes the automaton of `rules` wildcard rules takes
    /// (with its `Box`), whose patterns hold `octets` octets after their
    /// literal prefixes, in `pieces` searched pieces: a state (13 bytes,
    /// with the edge to it) at most per octet, a span per piece, two
    /// numbers per rule.
    #[cfg(any(feature = "fetch", test))]
    pub(crate) fn bytes_bound(rules: usize, octets: usize, pieces: usize) -> usize {
        let state = 3 * size_of::<u32>() + size_of::<u8>();
        octets
            .saturating_add(1)
            .saturating_mul(state)
            .saturating_add(pieces.saturating_mul(size_of::<Span>()))
            .saturating_add(rules.saturating_add(1).saturating_mul(2 * size_of::<u32>()))
            .saturating_add(size_of::<[u32; 256]>() + size_of::<u32>() + size_of::<Pieces>())
    }

    /// The heap bytes this automaton takes, with its `Box`.
    #[cfg(test)]
    pub(crate) fn heap_bytes(&self) -> usize {
        size_of::<Pieces>()
            + size_of::<[u32; 256]>()
            + (self.first.len()
                + self.fail.len()
                + self.targets.len()
                + self.rule_pattern.len()
                + self.pattern_first.len())
                * size_of::<u32>()
            + self.labels.len()
            + self.spans.len() * size_of::<Span>()
    }

    /// The state after `s` reads `b`.
    #[inline]
    fn step(&self, mut s: u32, b: u8) -> u32 {
        loop {
            if s == ROOT {
                return self.root[b as usize];
            }
            let edges = self.first[s as usize] as usize..self.first[s as usize + 1] as usize;
            if let Ok(k) = self.labels[edges.clone()].binary_search(&b) {
                return self.targets[edges.start + k];
            }
            s = self.fail[s as usize];
        }
    }
}

/// Pairs `(key, value)` grouped by key, each key's values in the order
/// given: a counting sort.
struct Csr {
    first: Vec<u32>,
    values: Vec<u32>,
}

impl Csr {
    fn group(keys: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Csr {
        let mut first = vec![0u32; keys + 1];
        for (k, _) in pairs.clone() {
            first[k as usize + 1] += 1;
        }
        for k in 0..keys {
            first[k + 1] += first[k];
        }
        let mut fill = first.clone();
        let mut values = vec![0u32; first[keys] as usize];
        for (k, v) in pairs {
            values[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Csr { first, values }
    }

    fn range(&self, key: u32) -> std::ops::Range<usize> {
        self.first[key as usize] as usize..self.first[key as usize + 1] as usize
    }

    fn of(&self, key: u32) -> &[u32] {
        &self.values[self.range(key)]
    }

    fn all(&self) -> &[u32] {
        &self.values
    }
}

/// A node of a scan's persistent segment tree: its two children (0 is the
/// empty tree).
type Node = [u32; 2];

/// The buffers of a scan, kept per thread between checks.
#[derive(Default)]
struct Buffers {
    /// The automaton's state after each octet of the path.
    states: Vec<u32>,
    /// The tree's root for each position of the path, and one past it.
    versions: Vec<u32>,
    /// The tree's nodes, `levels + 1` per insertion, after the empty one.
    nodes: Vec<Node>,
    /// The position each insertion put in.
    inserted: Vec<u32>,
}

thread_local! {
    static BUFFERS: Cell<Buffers> = Cell::new(Buffers::default());
}

/// Where the pieces of an automaton occur in one path (see the module
/// docs): answers "the first occurrence of this piece at or after `from`"
/// in O(log states).
pub(crate) struct Scan<'a> {
    pieces: &'a Pieces,
    buffers: Buffers,
    /// The latest answer for pieces whose span starts at `lo`, by `lo % 64`:
    /// `(lo, from, at)`, `at` the occurrence found from `from` or `NONE`.
    /// It answers a search for the piece from anywhere in `from..=at`
    /// (from `from` on, when absent).
    recent: [(u32, u32, u32); 64],
}

impl<'a> Scan<'a> {
    /// Reads `path` (at most `u32::MAX` octets) with the automaton and builds
    /// the tree of its positions.
    pub(crate) fn new(pieces: &'a Pieces, path: &[u8]) -> Scan<'a> {
        let mut buffers = BUFFERS.try_with(Cell::take).unwrap_or_default();
        let Buffers {
            states,
            versions,
            nodes,
            inserted,
        } = &mut buffers;
        // Sized at once: grown by doubling, the tree's buffer could take
        // nearly twice what it needs.
        let levels = pieces.levels as usize;
        for (buffer, len) in [(&mut *states, path.len()), (&mut *versions, path.len() + 1)] {
            buffer.clear();
            buffer.reserve_exact(len);
        }
        inserted.clear();
        inserted.reserve_exact(path.len());
        nodes.clear();
        nodes.reserve_exact(1 + path.len() * (levels + 1));
        nodes.push([0, 0]);
        // The state after each octet, then (from the end back) the tree of
        // the positions from each on: position `i` put in at its state
        // (unless the root, which no piece's span holds).
        let mut s = ROOT;
        states.extend(path.iter().map(|&b| {
            s = pieces.step(s, b);
            s
        }));
        versions.resize(path.len() + 1, 0);
        for i in (0..path.len()).rev() {
            let (state, next) = (states[i], versions[i + 1]);
            versions[i] = if state == ROOT {
                next
            } else {
                inserted.push(i as u32);
                insert(nodes, pieces.levels, next, state)
            };
        }
        Scan {
            pieces,
            buffers,
            recent: [(NONE, 0, 0); 64],
        }
    }

    /// The automaton scanned with.
    pub(crate) fn pieces(&self) -> &'a Pieces {
        self.pieces
    }

    /// The offset of the first occurrence at or after `from` of `piece`,
    /// whose span is `span`.
    #[inline]
    pub(crate) fn find(&mut self, span: Span, piece: &[u8], from: usize) -> Option<usize> {
        let slot = &mut self.recent[span.lo as usize % 64];
        let (lo, start, at) = *slot;
        let from32 = from as u32;
        if lo == span.lo && from32 >= start && (at == NONE || from32 <= at) {
            return (at != NONE).then_some(at as usize);
        }
        let found = self.find_near(span, piece, from, NEAR);
        self.recent[span.lo as usize % 64] = (span.lo, from32, found.map_or(NONE, |at| at as u32));
        found
    }

    /// [`find`](Scan::find), looking at `near` states before the tree.
    #[inline]
    fn find_near(&self, span: Span, piece: &[u8], from: usize, near: usize) -> Option<usize> {
        // The piece starts at or after `from` when it ends at or after
        // `last`. An end among the next `NEAR` states is found sooner by
        // looking at them (rules whose pieces lie a few octets apart)
        // than by the tree.
        let last = from + piece.len().max(1) - 1;
        let states = self.buffers.states.get(last..)?;
        let near = &states[..states.len().min(near)];
        let width = span.hi - span.lo;
        if let Some(k) = near.iter().position(|&s| s.wrapping_sub(span.lo) < width) {
            return Some(last + k + 1 - piece.len());
        }
        let root = *self.buffers.versions.get(last + near.len())?;
        let end = self.least(root, 0, self.pieces.levels, span);
        (end != NONE).then(|| end as usize + 1 - piece.len())
    }

    /// The least position in the subtree `node`, whose keys start at `base`
    /// and number `2^level`, among those of keys in `span`.
    fn least(&self, node: u32, base: u32, level: u32, span: Span) -> u32 {
        let end = base + (1 << level);
        if node == 0 || span.hi <= base || end <= span.lo {
            return NONE;
        }
        if span.lo <= base && end <= span.hi {
            // Inserted last (from the end of the path back), so the least.
            let levels = self.pieces.levels as usize;
            return self.buffers.inserted[(node as usize - 1) / (levels + 1)];
        }
        // A leaf is inside `span` or outside it: `level` is at least 1.
        let half = 1 << (level - 1);
        let [left, right] = self.buffers.nodes[node as usize];
        let l = self.least(left, base, level - 1, span);
        let r = self.least(right, base + half, level - 1, span);
        l.min(r)
    }
}

/// A thread keeps a scan's buffers for its next check only up to this many
/// bytes (the tree of an 8 KiB path over the largest automaton a 500 KiB
/// file of ASCII patterns makes, 1.4 MB); a longer path's are freed.
const KEEP_BYTES: usize = 2 << 20;

impl Drop for Scan<'_> {
    fn drop(&mut self) {
        let buffers = std::mem::take(&mut self.buffers);
        let bytes = buffers.nodes.capacity() * size_of::<Node>()
            + (buffers.states.capacity()
                + buffers.versions.capacity()
                + buffers.inserted.capacity())
                * size_of::<u32>();
        if bytes <= KEEP_BYTES {
            let _ = BUFFERS.try_with(|b| b.set(buffers));
        }
    }
}

/// A new version of the tree `prev` with `key` put in: `levels + 1` new
/// nodes, root first, after the nodes of the versions before; returns the
/// new root. Each node of the new path holds, as its least position, the
/// position put in (see [`Scan::least`]).
fn insert(nodes: &mut Vec<Node>, levels: u32, prev: u32, key: u32) -> u32 {
    let root = nodes.len() as u32;
    let mut prev = prev;
    for level in (1..=levels).rev() {
        let [left, right] = nodes[prev as usize];
        let next = nodes.len() as u32 + 1;
        if key >> (level - 1) & 1 == 0 {
            nodes.push([next, right]);
            prev = left;
        } else {
            nodes.push([left, next]);
            prev = right;
        }
    }
    nodes.push([0, 0]);
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first occurrence of `piece` in `path` at or after `from`, by
    /// brute force.
    fn naive(path: &[u8], piece: &[u8], from: usize) -> Option<usize> {
        (from..=path.len().checked_sub(piece.len())?).find(|&i| path[i..].starts_with(piece))
    }

    /// Every piece of `patterns`, from every offset of `path`, as a scan
    /// answers it and as a search does.
    fn agrees(patterns: &[&[u8]], path: &[u8]) {
        let pieces = Pieces::build(patterns.iter().copied());
        let octets = patterns
            .iter()
            .map(|p| searched_pieces(p).map(<[u8]>::len).sum::<usize>());
        let searched = patterns.iter().map(|p| searched_pieces(p).count());
        let bound = Pieces::bytes_bound(patterns.len(), octets.sum(), searched.sum());
        assert!(pieces.heap_bytes() <= bound);
        let mut scan = Scan::new(&pieces, path);
        for (r, pattern) in patterns.iter().enumerate() {
            let spans = pieces.rule(r);
            let want: Vec<&[u8]> = searched_pieces(pattern).collect();
            assert_eq!(spans.len(), want.len());
            for (&span, piece) in spans.iter().zip(want) {
                for from in (0..=path.len() + 1).chain((0..=path.len() + 1).rev()) {
                    assert_eq!(
                        scan.find(span, piece, from),
                        naive(path, piece, from),
                        "{piece:?} in {path:?} from {from}, remembered"
                    );
                }
                for from in 0..=path.len() + 1 {
                    for near in [0, 1, 4, 32] {
                        assert_eq!(
                            scan.find_near(span, piece, from, near),
                            naive(path, piece, from),
                            "{piece:?} in {path:?} from {from}, {near} states looked at"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn finds_each_piece_from_each_offset() {
        agrees(&[b"/*a", b"/*aa*aaa", b"/x*b*ab$", b"/*ba"], b"/abaabaaab");
        agrees(&[b"/*a", b"/*aa", b"/*aaa", b"/*aaaa"], b"/aaaaaaaa");
        // Pieces that are suffixes and prefixes of one another, non-ASCII
        // octets, and pieces the path does not hold.
        agrees(
            &[b"/*he*she*his*hers", b"/*\xff\x80*\x80", b"/*zz*q"],
            b"/ushers\xff\x80\x80he",
        );
        // No pieces, an empty path.
        agrees(&[b"/a*", b"/*$"], b"/a");
        agrees(&[b"/*a"], b"");
    }

    #[test]
    fn finds_as_a_search_does_on_random_text() {
        // Pieces over a small alphabet overlap in every way.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut text = |len: u64| -> Vec<u8> {
            let n = 1 + next(len);
            (0..n).map(|_| b"ab*c"[next(4) as usize]).collect()
        };
        for _ in 0..50 {
            let count = 1 + text(6).len();
            let patterns: Vec<Vec<u8>> = (0..count)
                .map(|_| [b"/*".as_slice(), &text(8)].concat())
                .collect();
            let path: Vec<u8> = text(60).into_iter().filter(|&b| b != b'*').collect();
            let refs: Vec<&[u8]> = patterns.iter().map(Vec::as_slice).collect();
            agrees(&refs, &path);
        }
    }

    #[test]
    fn a_scan_reuses_its_buffers() {
        let pieces = Pieces::build([&b"/*ab"[..]].into_iter());
        let capacity = {
            let scan = Scan::new(&pieces, &[b'a'; 1000]);
            scan.buffers.nodes.capacity()
        };
        let mut scan = Scan::new(&pieces, b"/ab");
        assert_eq!(scan.buffers.nodes.capacity(), capacity);
        assert_eq!(scan.find(pieces.rule(0)[0], b"ab", 0), Some(1));
        drop(scan);
        // A path whose tree takes more than `KEEP_BYTES` frees its buffers.
        let long = vec![b'a'; KEEP_BYTES];
        let scan = Scan::new(&pieces, &long);
        assert!(scan.buffers.nodes.capacity() * size_of::<Node>() > KEEP_BYTES);
        drop(scan);
        let scan = Scan::new(&pieces, b"/ab");
        assert!(scan.buffers.nodes.capacity() < 2 * capacity);
    }
}
