//! The compact form a robots.txt is parsed into.
//!
//! Everything lives in three flat arrays: one byte arena holding every
//! normalised pattern (first, in rule order), then the user-agent values and
//! sitemap URLs; a 4-byte [`Rule`] per allow/disallow line in file order;
//! and a [`Table`] of 32-bit words whose sections hold the groups (a
//! [`Group`] each), the user-agent values, the sorted lookup of crawler
//! names, the sitemaps and the rules' lines. So a parsed file is four
//! allocations with the `Arc` (more only for what most files lack: see
//! [`Rare`]). A group's rules are a contiguous range of the rule array, and
//! their patterns a contiguous run of the arena from the group's
//! [`base`](Group::base), back to back in rule order, because groups are
//! contiguous in the file: a rule keeps no offset of its own, its pattern
//! starts where the one before it in the group ends ([`placed`]). A group
//! that repeats the rules of the group before it (files often give several
//! crawlers the same rules, each in a group of its own) shares that group's
//! patterns: it has that group's base. Nothing points into the input, so
//! the body can be dropped after parsing.

use std::sync::atomic::AtomicU32;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::lint::{Warning, WarningKind};
use crate::matcher::index::Index;
use crate::parse::Directive;
use crate::record::{Record, RequestRate};

/// Rule flag: an `Allow` rule (else `Disallow`).
pub(crate) const ALLOW: u8 = 1;
/// Rule flag: the pattern contains `*`.
pub(crate) const WILDCARD: u8 = 2;
/// Rule flag: the pattern ends with the `$` anchor.
pub(crate) const ANCHORED: u8 = 4;
/// Rule flag: the pattern as written differs from its normal form, and is
/// kept in [`Parsed::written`].
pub(crate) const REWRITTEN: u8 = 8;

/// One allow/disallow rule (4 bytes; its line number is in [`RuleLines`]).
///
/// Its pattern has no offset stored: it is in [`Parsed::arena`] right after
/// the pattern of the rule before it in its group, the first rule's at the
/// group's [`base`](Group::base) ([`placed`] walks a group's rules with
/// their offsets). An offset took half of the 8 bytes a rule used to be,
/// and no check needs one but for the rule it is looking at: a linear scan
/// adds the lengths up as it goes, and a prefix index keeps each rule's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// Length of the normalised pattern in octets: the rule's priority
    /// (RFC 9309 section 2.2.2, "the match that has the most octets").
    pub len: u16,
    /// `ALLOW | WILDCARD | ANCHORED | REWRITTEN`.
    pub flags: u8,
    /// Length of the literal prefix (see [`Rule::literal_prefix`]), or 255
    /// when it is 255 or more.
    pub prefix: u8,
}

/// The rules of one group, `rules`, with the offset of each one's pattern
/// in the arena, given the group's [`base`](Group::base).
#[inline]
pub(crate) fn placed(rules: &[Rule], base: u32) -> Placed<'_> {
    Placed {
        rules: rules.iter(),
        at: base,
    }
}

/// The first of `rules` (a group's, whose patterns start at `base`) whose
/// pattern starts at or after offset `at`: its position and offset; `None`
/// when every one starts before. Skips 32 rules at a time by the sum of
/// their lengths (no branch a rule), so that an explanation in a group of
/// 30,000 rules does not step through them one by one.
pub(crate) fn seek(rules: &[Rule], base: u32, at: u32) -> Option<(usize, u32)> {
    let mut skipped = 0;
    let mut offset = base;
    for chunk in rules.chunks(32) {
        let len: u32 = chunk.iter().map(|r| r.len as u32).sum();
        // Patterns are never empty, so the chunk's last starts before
        // `offset + len`.
        if offset + len > at
            && let Some((i, (o, _))) = placed(chunk, offset)
                .enumerate()
                .find(|&(_, (o, _))| o >= at)
        {
            return Some((skipped + i, o));
        }
        skipped += chunk.len();
        offset += len;
    }
    None
}

/// An iterator over a group's rules and their patterns' offsets
/// ([`placed`]).
#[derive(Debug, Clone)]
pub(crate) struct Placed<'a> {
    rules: std::slice::Iter<'a, Rule>,
    /// The offset of the next rule's pattern.
    at: u32,
}

impl<'a> Iterator for Placed<'a> {
    type Item = (u32, &'a Rule);

    #[inline]
    fn next(&mut self) -> Option<(u32, &'a Rule)> {
        let r = self.rules.next()?;
        let at = self.at;
        // No overflow: the arena has fewer than 2^32 octets (see `parse`);
        // wrapping spares the check.
        self.at = at.wrapping_add(r.len as u32);
        Some((at, r))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.rules.size_hint()
    }
}

impl ExactSizeIterator for Placed<'_> {}

/// The line numbers of the rules, in about half a byte per rule: rules are
/// in file order, so each is stored as the distance from the previous
/// rule's line (mostly 1), in four bits, with the full line every
/// [`RuleLines::STRIDE`] rules and distances of 15 or more kept apart. A
/// view of two sections of the parsed file's [`Table`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleLines<'a> {
    /// The line of rule `STRIDE * k`, for each block of `STRIDE` rules;
    /// then (rule, line) of each rule whose delta is `FAR`, by rule, two
    /// words each.
    words: &'a [u32],
    /// The line of each rule less the previous rule's (0 for a rule at a
    /// multiple of `STRIDE`), or `FAR`: four bits a rule, eight to a word,
    /// the first in the low bits.
    delta: &'a [u32],
    /// How many rules there are.
    rules: usize,
}

impl RuleLines<'_> {
    const STRIDE: usize = 64;
    /// A delta of this or more is kept apart (most rules follow the one
    /// before at a distance of one to a few lines).
    const FAR: u8 = 15;

    fn delta(&self, j: usize) -> u8 {
        (self.delta[j / 8] >> (4 * (j % 8))) as u8 & 15
    }

    /// The line of rule `i`.
    pub fn get(&self, i: u32) -> u32 {
        let i = i as usize;
        let blocks = self.rules.div_ceil(Self::STRIDE);
        let (base, far) = self.words.split_at(blocks);
        let (far, _) = far.as_chunks::<2>();
        let block = i / Self::STRIDE * Self::STRIDE;
        let mut line = base[i / Self::STRIDE];
        for j in block + 1..=i {
            line = match self.delta(j) {
                Self::FAR => {
                    let k = far
                        .binary_search_by_key(&(j as u32), |&[r, _]| r)
                        .expect("far line recorded");
                    far[k][1]
                }
                d => line + d as u32,
            };
        }
        line
    }
}

/// Builds the [`RuleLines`] sections as rules are pushed.
#[derive(Debug, Default)]
pub(crate) struct RuleLinesBuilder {
    base: Vec<u32>,
    /// One delta an octet (packed at the end, in `write`).
    delta: Vec<u8>,
    far: Vec<(u32, u32)>,
    last: u32,
}

impl RuleLinesBuilder {
    pub const EMPTY: RuleLinesBuilder = RuleLinesBuilder {
        base: Vec::new(),
        delta: Vec::new(),
        far: Vec::new(),
        last: 0,
    };

    pub fn reserve(&mut self, rules: usize) {
        self.delta.reserve(rules);
        self.base.reserve(rules.div_ceil(RuleLines::STRIDE));
    }

    /// An empty builder, reusing the arrays of `self` (emptied).
    pub fn reuse(mut self) -> RuleLinesBuilder {
        self.base.clear();
        self.delta.clear();
        self.far.clear();
        self.last = 0;
        self
    }

    /// Records the line of the next rule (lines never decrease).
    #[inline]
    pub fn push(&mut self, line: u32) {
        let i = self.delta.len();
        let d = line.wrapping_sub(self.last);
        // Nearly every rule: a short step within a block.
        if d < RuleLines::FAR as u32 && !i.is_multiple_of(RuleLines::STRIDE) {
            self.delta.push(d as u8);
            self.last = line;
            return;
        }
        self.push_rare(i, line);
    }

    #[cold]
    fn push_rare(&mut self, i: usize, line: u32) {
        if i.is_multiple_of(RuleLines::STRIDE) {
            self.base.push(line);
            self.delta.push(0);
        } else {
            match u8::try_from(line - self.last) {
                Ok(d) if d < RuleLines::FAR => self.delta.push(d),
                _ => {
                    self.delta.push(RuleLines::FAR);
                    self.far.push((i as u32, line));
                }
            }
        }
        self.last = line;
    }

    /// Words the two sections will take.
    pub fn words(&self) -> (usize, usize) {
        (
            self.base.len() + 2 * self.far.len(),
            self.delta.len().div_ceil(8),
        )
    }

    /// Appends the two sections to `table`.
    pub fn write(&self, table: &mut TableBuilder) {
        table.section(Section::LineWords, |w| {
            w.extend_from_slice(&self.base);
            w.extend(self.far.iter().flat_map(|&(rule, line)| [rule, line]));
        });
        table.section(Section::LineDelta, |w| {
            // Eight deltas (each below 16), an octet each, to the eight
            // nibbles of a word, the first lowest: pairs of octets to
            // octets, pairs of those to 16-bit halves, then the halves.
            let pack = |c: [u8; 8]| {
                let x = u64::from_le_bytes(c);
                let x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
                let x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
                (x | x >> 16) as u32
            };
            let (words, rest) = self.delta.as_chunks::<8>();
            w.extend(words.iter().map(|&c| pack(c)));
            if !rest.is_empty() {
                let mut last = [0; 8];
                last[..rest.len()].copy_from_slice(rest);
                w.push(pack(last));
            }
        });
    }

    pub fn capacity_bytes(&self) -> usize {
        self.base.capacity() * 4 + self.delta.capacity() + self.far.capacity() * 8
    }
}

/// The sections of [`Table`], in the order they are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    /// [`Parsed::lookup_keys`]: two words each.
    LookupKeys,
    /// [`Parsed::lookup`].
    Lookup,
    /// [`Parsed::lookup_groups`].
    LookupGroups,
    /// [`Parsed::star_groups`].
    StarGroups,
    /// [`Parsed::group`]: [`Group::WORDS`] words each.
    Groups,
    /// [`Parsed::agent`]: [`AgentName::WORDS`] words each.
    Agents,
    /// [`Parsed::sitemaps`]: (start, end) in the arena, two words each.
    Sitemaps,
    /// [`RuleLines`]: the lines of blocks and far jumps.
    LineWords,
    /// [`RuleLines`]: the deltas, four to a word.
    LineDelta,
}

impl Section {
    const COUNT: usize = Section::LineDelta as usize + 1;
}

/// The small arrays of a parsed file, as sections of one allocation of
/// 32-bit words: a file is then four allocations (the `Arc`, the arena, the
/// rules and this) where it used to be a dozen, which took about a tenth of
/// the parse's time in the allocator (see benches/HISTORY.md, session 21).
/// Groups and agents are stored as words and read back by value.
#[derive(Debug, Clone, Default)]
pub(crate) struct Table {
    words: Box<[u32]>,
    /// Where each [`Section`] but the last ends in `words` (the last ends
    /// with them); each starts where the one before ends.
    ends: [u32; Section::COUNT - 1],
}

impl Table {
    #[inline]
    fn get(&self, section: Section) -> &[u32] {
        let k = section as usize;
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        let end = self.ends.get(k).map_or(self.words.len(), |&e| e as usize);
        &self.words[start..end]
    }

    /// A section of records of `N` words each.
    #[inline]
    fn chunks<const N: usize>(&self, section: Section) -> &[[u32; N]] {
        self.get(section).as_chunks().0
    }

    fn heap_bytes(&self) -> usize {
        self.words.len() * 4
    }
}

/// Builds a [`Table`], section by section in [`Section`] order, into one
/// allocation of the size given first.
pub(crate) struct TableBuilder {
    words: Vec<u32>,
    ends: [u32; Section::COUNT],
    next: usize,
}

impl TableBuilder {
    pub fn with_capacity(words: usize) -> TableBuilder {
        TableBuilder {
            words: Vec::with_capacity(words),
            ends: [0; Section::COUNT],
            next: 0,
        }
    }

    /// Writes `section` (the next in order, sections before it left empty)
    /// by `fill`, which appends its words.
    pub fn section(&mut self, section: Section, fill: impl FnOnce(&mut Vec<u32>)) {
        let k = section as usize;
        debug_assert!(k >= self.next, "sections written in order");
        let at = self.words.len() as u32;
        self.ends[self.next..k].fill(at);
        fill(&mut self.words);
        self.ends[k] = self.words.len() as u32;
        self.next = k + 1;
    }

    pub fn finish(mut self) -> Table {
        let at = self.words.len() as u32;
        self.ends[self.next..].fill(at);
        debug_assert_eq!(self.words.len(), self.words.capacity(), "sized exactly");
        let mut ends = [0; Section::COUNT - 1];
        ends.copy_from_slice(&self.ends[..Section::COUNT - 1]);
        Table {
            words: self.words.into_boxed_slice(),
            ends,
        }
    }
}

impl Rule {
    #[inline]
    pub fn allow(&self) -> bool {
        self.flags & ALLOW != 0
    }
    /// The pattern, whose offset in `arena` is `at` (see [`placed`]).
    #[inline]
    pub fn pattern<'a>(&self, arena: &'a [u8], at: u32) -> &'a [u8] {
        &arena[at as usize..at as usize + self.len as usize]
    }
    /// The literal part of `pattern` (this rule's) before its first
    /// operator, which every path it matches must start with.
    #[inline]
    pub fn literal_prefix<'a>(&self, pattern: &'a [u8]) -> &'a [u8] {
        &pattern[..self.prefix_len(pattern)]
    }

    /// The length of [`literal_prefix`](Rule::literal_prefix).
    #[inline]
    pub fn prefix_len(&self, pattern: &[u8]) -> usize {
        if self.prefix < u8::MAX {
            self.prefix as usize
        } else {
            Rule::compute_prefix_len(pattern, self.flags)
        }
    }

    /// The literal prefix length of `pattern` with `flags`.
    pub fn compute_prefix_len(pattern: &[u8], flags: u8) -> usize {
        if flags & WILDCARD != 0 {
            memchr::memchr(b'*', pattern).unwrap_or(pattern.len())
        } else if flags & ANCHORED != 0 {
            pattern.len() - 1
        } else {
            pattern.len()
        }
    }
}

/// A group: one or more user-agent lines and the records that follow them
/// (RFC 9309 section 2.1). 28 bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Group {
    /// Range of [`Parsed::rules`].
    pub rules: (u32, u32),
    /// Offset in [`Parsed::arena`] of the first rule's pattern; the others
    /// follow it back to back ([`placed`]). For a group without rules,
    /// where the next group's patterns start. Never decreases along the
    /// groups: a group sharing the patterns of the one before has that
    /// one's base (see `parse::Builder::share_patterns`).
    pub base: u32,
    /// Range of the agents ([`Parsed::agent`]).
    pub agents: (u32, u32),
    /// Line of the group's first user-agent line.
    pub line: u32,
    /// The group's slot in [`Parsed::indexes`], [`STAR_SLOT`] for the one
    /// `*` group, or [`NO_INDEX`] for a group too small to have a prefix
    /// index.
    pub index: u32,
}

impl Group {
    /// Words a group takes in the [`Table`].
    pub const WORDS: usize = 7;

    pub fn to_words(self) -> [u32; Group::WORDS] {
        let Group {
            rules,
            base,
            agents,
            line,
            index,
        } = self;
        [rules.0, rules.1, base, agents.0, agents.1, line, index]
    }

    #[inline]
    pub fn from_words(w: &[u32; Group::WORDS]) -> Group {
        Group {
            rules: (w[0], w[1]),
            base: w[2],
            agents: (w[3], w[4]),
            line: w[5],
            index: w[6],
        }
    }

    /// The group's rules, with the offset of each one's pattern.
    #[inline]
    pub fn placed(self, rules: &[Rule]) -> Placed<'_> {
        placed(
            &rules[self.rules.0 as usize..self.rules.1 as usize],
            self.base,
        )
    }
}

/// The rules an index is built from, counted for [`Index::bytes_bound`].
#[cfg(any(feature = "fetch", test))]
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Indexed {
    /// Rules.
    pub rules: usize,
    /// Of them, rules with a `*`.
    pub wild: usize,
    /// The octets of their patterns after the literal prefix.
    pub wild_octets: usize,
    /// The pieces of those octets a match searches for.
    pub wild_pieces: usize,
}

#[cfg(feature = "fetch")]
impl Indexed {
    fn add(self, other: Indexed) -> Indexed {
        Indexed {
            rules: self.rules.saturating_add(other.rules),
            wild: self.wild.saturating_add(other.wild),
            wild_octets: self.wild_octets.saturating_add(other.wild_octets),
            wild_pieces: self.wild_pieces.saturating_add(other.wild_pieces),
        }
    }
}

/// The bit of [`Parsed::named_filter`] for a token key
/// (`agent::token_key`): six bits of a multiplicative hash.
#[inline]
pub(crate) fn token_bit(key: u64) -> u64 {
    1 << (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

/// [`Group::index`] of a group without an index slot.
pub(crate) const NO_INDEX: u32 = u32::MAX;

/// The index slot number of [`Parsed::star_slot`], the slot kept in the
/// parsed file's own struct.
pub(crate) const STAR_SLOT: u32 = u32::MAX - 1;

/// Where a large group's prefix index goes, built when checks have come to
/// need it ([`rent`](crate::matcher::rent)); behind an `Arc` (which an
/// [`OwnedAgent`](crate::OwnedAgent) shares), so an unbuilt one costs
/// 16 bytes. A clone starts empty again.
#[derive(Debug, Default)]
pub(crate) struct IndexSlot(pub OnceLock<Arc<Index>>);

impl Clone for IndexSlot {
    fn clone(&self) -> Self {
        IndexSlot::default()
    }
}

/// [`Parsed::star_one`]: the rules, their patterns' base and the index
/// slot of the one `*` group, or none (16 bytes, where an `Option` would
/// take 20).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StarOne(StarGroup);

/// The one `*` group, as a check reads it: its rules, their patterns'
/// [`base`](Group::base) and its index slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StarGroup {
    pub rules: (u32, u32),
    pub base: u32,
    pub slot: u32,
}

impl StarOne {
    /// No rule range starts there: a body has fewer rules than octets.
    const NONE: StarOne = StarOne(StarGroup {
        rules: (u32::MAX, u32::MAX),
        base: u32::MAX,
        slot: NO_INDEX,
    });

    pub fn new(one: Option<StarGroup>) -> StarOne {
        one.map_or(StarOne::NONE, StarOne)
    }

    #[inline]
    pub fn get(self) -> Option<StarGroup> {
        (self != StarOne::NONE).then_some(self.0)
    }
}

impl Default for StarOne {
    fn default() -> StarOne {
        StarOne::NONE
    }
}

/// [`Parsed::spent`], in units of one rule looked at. A clone starts at
/// zero, as its indexes start unbuilt.
#[derive(Debug, Default)]
pub(crate) struct Spent(pub AtomicU32);

impl Clone for Spent {
    fn clone(&self) -> Self {
        Spent::default()
    }
}

/// The patterns as written of the rules whose normal form differs, one
/// after another in one string (8 bytes a rule besides the text, and one
/// allocation for them all).
#[derive(Debug, Clone, Default)]
pub(crate) struct Written {
    /// (rule index, where its text ends in `text`), by rule index.
    pub ends: Box<[(u32, u32)]>,
    pub text: Box<str>,
}

impl Written {
    /// The pattern as written of rule `rule`, if it has one here.
    pub fn get(&self, rule: u32) -> Option<&str> {
        let i = self.ends.binary_search_by_key(&rule, |&(r, _)| r).ok()?;
        let start = i.checked_sub(1).map_or(0, |j| self.ends[j].1 as usize);
        self.text.get(start..self.ends[i].1 as usize)
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn heap_bytes(&self) -> usize {
        self.ends.len() * std::mem::size_of::<(u32, u32)>() + self.text.len()
    }
}

/// The records keepout does not interpret and the warnings, as the parser
/// keeps them. The keys and values they quote are kept as written, one
/// after another in one array of octets ([`Quoted`]), each made text (a
/// [`Record`], a [`Warning`]'s key) only when [`records`](Notes::records)
/// or [`warnings`](Notes::warnings) is first called. Until then a record
/// costs its octets and 16 bytes (its line and three offsets) beside its
/// warning, and no allocation of its own, where three
/// (its key, its value, and its warning's copy of the key) made such a
/// line cost the parse about 2,000 instructions instead of about 500
/// (session 21). Checks never read them; tooling does.
///
/// Most files with warnings quote nothing (a line without a colon, a rule
/// before any group): those keep 24 bytes here and their warnings, whole,
/// and no [`Quoted`] (test `notes_are_small`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Notes {
    /// The warnings, in line order; with [`Quoted`], the key of each
    /// `UnknownKey` and `Misspelled` left empty (it is in the quoted text).
    warnings: Box<[Warning]>,
    /// What the records and warnings quote, if anything.
    quoted: Option<Box<Quoted>>,
}

/// The records of a file, and the keys its warnings quote, as written.
#[derive(Debug, Clone)]
struct Quoted {
    /// Keys and values as written.
    text: Box<[u8]>,
    /// Each record: its line, and where its key starts, its value starts
    /// (the key's end) and its value ends in `text`.
    records: Box<[[u32; 4]]>,
    /// Where the key of each `Misspelled` warning is in `text`, in the
    /// warnings' order. (An `UnknownKey` warning quotes its record's key:
    /// the records are in the order of those warnings, one each.)
    quotes: Box<[[u32; 2]]>,
    /// The records and warnings as text, once asked for.
    cooked: OnceLock<Cooked>,
}

/// [`Notes`] as text: the records, and the warnings with their keys.
type Cooked = (Box<[Record]>, Box<[Warning]>);

/// [`Notes`] while the parser writes them.
#[derive(Debug, Default)]
pub(crate) struct NoteLog {
    text: Vec<u8>,
    records: Vec<[u32; 4]>,
    warnings: Vec<Warning>,
    quotes: Vec<[u32; 2]>,
}

impl NoteLog {
    /// Records a warning that quotes nothing.
    #[inline]
    pub fn warn(&mut self, line: u32, kind: WarningKind) {
        self.warnings.push(Warning { line, kind });
    }

    /// Records a warning that quotes nothing at `line`, before which
    /// warnings of later lines may have been recorded: it goes after those
    /// of its line and before those of later lines, so warnings stay in
    /// line order. (The warnings that quote a key keep their order among
    /// themselves, which is how they find their quotes.)
    #[cold]
    pub fn warn_earlier(&mut self, line: u32, kind: WarningKind) {
        let at = self.warnings.partition_point(|w| w.line <= line);
        self.warnings.insert(at, Warning { line, kind });
    }

    /// Makes the warning of kind `from` at `line` one of kind `to`
    /// (warnings are in line order); nothing when there is none.
    pub fn retag(&mut self, line: u32, from: WarningKind, to: WarningKind) {
        let at = self.warnings.partition_point(|w| w.line < line);
        if let Some(w) = self.warnings[at..]
            .iter_mut()
            .take_while(|w| w.line == line)
            .find(|w| w.kind == from)
        {
            w.kind = to;
        }
    }

    /// Records a key keepout does not know, with its value: a record and
    /// its `UnknownKey` warning.
    pub fn unknown(&mut self, line: u32, key: &[u8], value: &[u8]) {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(key);
        let key_end = self.text.len() as u32;
        self.text.extend_from_slice(value);
        self.records
            .push([line, start, key_end, self.text.len() as u32]);
        self.warn(
            line,
            WarningKind::UnknownKey {
                key: Box::default(),
            },
        );
    }

    /// Records a misspelled key read as `understood_as`.
    pub fn misspelled(&mut self, line: u32, key: &[u8], understood_as: Directive) {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(key);
        self.quotes.push([start, self.text.len() as u32]);
        let written = Box::default();
        self.warn(
            line,
            WarningKind::Misspelled {
                written,
                understood_as,
            },
        );
    }

    /// The warnings so far, with the keys they quote left empty (their
    /// lines and kinds are right).
    pub fn raw_warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The notes, their arrays at their size.
    pub fn finish(self) -> Notes {
        // Every record has a warning that quotes its key.
        let quoted = (!self.quotes.is_empty() || !self.records.is_empty()).then(|| {
            Box::new(Quoted {
                text: self.text.into(),
                records: self.records.into(),
                quotes: self.quotes.into(),
                cooked: OnceLock::new(),
            })
        });
        Notes {
            warnings: self.warnings.into(),
            quoted,
        }
    }
}

impl Notes {
    pub fn is_empty(&self) -> bool {
        self.warnings.is_empty()
    }

    /// The records and warnings as text, made on the first call.
    fn cooked<'a>(&'a self, quoted: &'a Quoted) -> &'a Cooked {
        quoted.cooked.get_or_init(|| {
            let text = |[a, b]: [u32; 2]| lossy(&quoted.text[a as usize..b as usize]);
            let records = quoted
                .records
                .iter()
                .map(|&[line, start, key_end, end]| Record {
                    line,
                    key: text([start, key_end]),
                    value: text([key_end, end]),
                })
                .collect();
            let mut quotes = quoted.quotes.iter();
            let mut quote = || quotes.next().map_or_else(Box::default, |&q| text(q));
            let mut keys = quoted.records.iter();
            let mut key = || {
                keys.next()
                    .map_or_else(Box::default, |&[_, a, b, _]| text([a, b]))
            };
            let warnings = self
                .warnings
                .iter()
                .map(|w| {
                    let kind = match w.kind {
                        WarningKind::UnknownKey { .. } => WarningKind::UnknownKey { key: key() },
                        WarningKind::Misspelled { understood_as, .. } => WarningKind::Misspelled {
                            written: quote(),
                            understood_as,
                        },
                        ref kind => kind.clone(),
                    };
                    Warning { line: w.line, kind }
                })
                .collect();
            (records, warnings)
        })
    }

    pub fn records(&self) -> &[Record] {
        match &self.quoted {
            Some(quoted) if !quoted.records.is_empty() => &self.cooked(quoted).0,
            _ => &[],
        }
    }

    pub fn warnings(&self) -> &[Warning] {
        match &self.quoted {
            Some(quoted) => &self.cooked(quoted).1,
            // Nothing to quote: the warnings are whole.
            None => &self.warnings,
        }
    }

    pub fn warning_count(&self) -> usize {
        self.warnings.len()
    }

    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let quoted = self.quoted.as_deref().map_or(0, |q| {
            let cooked = q.cooked.get().map_or(0, |(records, warnings)| {
                records.iter().map(Record::heap_bytes).sum::<usize>()
                    + warnings.iter().map(Warning::heap_bytes).sum::<usize>()
            });
            size_of::<Quoted>()
                + q.text.len()
                + q.records.len() * size_of::<[u32; 4]>()
                + q.quotes.len() * size_of::<[u32; 2]>()
                + cooked
        });
        self.warnings.len() * size_of::<Warning>() + quoted
    }
}

/// `value` as text, each invalid UTF-8 sequence replaced by U+FFFD, as
/// `String::from_utf8_lossy` does; but valid text, nearly every value, is
/// checked by `str::from_utf8`, several octets a step, rather than chunk by
/// chunk.
fn lossy(value: &[u8]) -> Box<str> {
    match std::str::from_utf8(value) {
        Ok(text) => text.into(),
        Err(_) => String::from_utf8_lossy(value).into(),
    }
}

/// The parts of a parse most files do not have (about two files in three
/// have none), kept behind one pointer rather than five empty slices.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rare {
    /// Crawl-delay and request-rate of the groups that have one, by group,
    /// then in file order.
    pub extras: Box<[GroupExtras]>,
    /// For each group in `extras`, by group: the group, and where in
    /// `extras` its first valid crawl-delay and its first valid
    /// request-rate are, the lower position first (`u32::MAX` for none):
    /// what `GroupView::crawl_delay` answers, and what a crawler falls back
    /// to when its own user-agent lines have none, found by binary search
    /// rather than by a walk over the group's runs. (12 bytes a group, not
    /// a copy of the values.)
    pub firsts: Box<[[u32; 3]]>,
    /// Patterns as written, for rules flagged `REWRITTEN`.
    pub written: Written,
    pub host: Option<Box<str>>,
    /// Records with keys keepout does not interpret, and warnings.
    pub notes: Notes,
    /// For each crawler name in several groups with more than
    /// [`INDEX_MIN_RULES`](crate::matcher::INDEX_MIN_RULES) rules and
    /// groups between them: where its run of groups is in
    /// `Parsed::lookup_groups` (start, end) and the slot in
    /// `Parsed::indexes` of one index over them all; by start. Names in the
    /// same groups share a slot.
    pub named_indexes: Box<[(u32, u32, u32)]>,
    /// Where in `extras` the crawl-delay and the request-rate of a crawler
    /// under the `*` groups are (`u32::MAX`: none), found on the first
    /// question, when those groups are more than [`EXTENSION_WALK_MAX`].
    pub star_extension: OnceLock<[u32; 2]>,
    /// The same for each crawler name in more than [`EXTENSION_WALK_MAX`]
    /// groups, by the start of its run in `Parsed::lookup_groups`. Empty
    /// when `extras` is.
    pub named_extensions: Box<[(u32, OnceLock<[u32; 2]>)]>,
}

/// Up to this many groups, a crawler's crawl-delay or request-rate is found
/// by a walk over them on each question; past it, the answers are kept (see
/// [`Parsed::extension_entry`]).
pub(crate) const EXTENSION_WALK_MAX: usize = 8;

/// An extension value kept per crawler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ext {
    CrawlDelay = 0,
    RequestRate = 1,
}

impl Ext {
    /// Whether `entry` holds a valid value of this kind.
    fn has(self, entry: &GroupExtras) -> bool {
        match self {
            Ext::CrawlDelay => entry.crawl_delay.is_some(),
            Ext::RequestRate => entry.request_rate.is_some(),
        }
    }
}

impl Rare {
    fn is_empty(&self) -> bool {
        self.extras.is_empty()
            && self.written.is_empty()
            && self.host.is_none()
            && self.notes.is_empty()
            && self.named_indexes.is_empty()
    }

    /// `Some` unless there is nothing in it.
    pub fn boxed(self) -> Option<Box<Rare>> {
        (!self.is_empty()).then(|| Box::new(self))
    }
}

/// The extension records of a group that has any (most have none), one
/// entry for each run of user-agent lines they follow: in
/// `User-agent: a`, `Crawl-delay: 2`, `User-agent: b`, `Crawl-delay: 10`,
/// one group (RFC 9309 section 2.2.4: only a rule line ends the run), `a`'s
/// delay is 2 and `b`'s 10 (see `Parsed::extension_entry`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupExtras {
    /// The group.
    pub group: u32,
    /// How many user-agent values (of the whole file) come before these
    /// records: they follow the user-agent values numbered below this.
    pub agents_before: u32,
    /// First valid `Crawl-delay` of the entry, with its line.
    pub crawl_delay: Option<(Duration, u32)>,
    /// First valid `Request-rate` of the entry, with its line.
    pub request_rate: Option<(RequestRate, u32)>,
}

/// One user-agent line's value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentName {
    /// Offset of the value as written (trimmed) in the arena.
    pub start: u32,
    /// Length of the value as written (a line is at most `MAX_LINE_LEN`
    /// octets, at most tripled by a lossy UTF-8 conversion).
    pub len: u16,
    /// Length of its product token, a prefix of the value (0: no token).
    pub token_len: u16,
    /// The group it belongs to.
    pub group: u32,
    /// `*`: the global group (RFC 9309 section 2.2.1).
    pub star: bool,
}

impl AgentName {
    /// Words an agent takes in the [`Table`] (12 bytes, where the struct
    /// takes 16).
    pub const WORDS: usize = 3;

    pub fn to_words(self) -> [u32; AgentName::WORDS] {
        // A group number is below 2^31: a body has at most 2^30 octets.
        [
            self.start,
            self.len as u32 | (self.token_len as u32) << 16,
            self.group | (self.star as u32) << 31,
        ]
    }

    #[inline]
    pub fn from_words(w: &[u32; AgentName::WORDS]) -> AgentName {
        AgentName {
            start: w[0],
            len: w[1] as u16,
            token_len: (w[1] >> 16) as u16,
            group: w[2] & !(1 << 31),
            star: w[2] >> 31 != 0,
        }
    }
}

/// A robots.txt, parsed. Shared behind an `Arc` by every clone of `Robots`.
///
/// Laid out in the order written (`repr(C)`): the fields that
/// `Robots::is_allowed` reads for a crawler that no group names come first,
/// in 128 bytes, so that such a check reads two or three cache lines of
/// this struct rather than its whole 160 bytes.
#[derive(Debug, Clone, Default)]
#[repr(C)]
pub(crate) struct Parsed {
    /// A filter of the named tokens: bit [`token_bit`] of each
    /// [`lookup_keys`](Parsed::lookup_keys) entry is set, so most crawlers
    /// that no group names are told so without a search of the keys.
    pub named_filter: u64,
    /// The index slot of what crawlers no group names read: the one `*`
    /// group's (when it is large enough for one) or the merged `*` groups'
    /// ([`star_index`](Parsed::star_index)). Their slot number is
    /// [`STAR_SLOT`]. Kept here rather than in `indexes`, so that such a
    /// check goes from this struct to the index without a look at another
    /// allocation, a likely cache miss when checks go from host to host.
    pub star_slot: IndexSlot,
    /// The `*` group when there is exactly one: its rules and index slot
    /// ([`NO_INDEX`] when it is too small for one), so that a check for a
    /// crawler no group names, the common case, reads neither
    /// `star_groups` nor the groups.
    pub star_one: StarOne,
    /// What checks have spent on linear scans of groups whose index is not
    /// built yet ([`rent`](crate::matcher::rent)).
    pub spent: Spent,
    /// When there are several `*` groups with more than
    /// [`INDEX_MIN_RULES`](crate::matcher::INDEX_MIN_RULES) rules and
    /// groups between them, [`STAR_SLOT`]: they have one prefix index over
    /// all their rules (the merged group of RFC 9309 section 2.2.1, which
    /// crawlers without a group of their own all read); else [`NO_INDEX`].
    pub star_index: u32,
    /// Input octets parsed (after any transcoding; at most
    /// [`MAX_BODY_LEN`](crate::limits::MAX_BODY_LEN)).
    pub body_len: u32,
    pub arena: Box<[u8]>,
    pub rules: Box<[Rule]>,
    /// Groups, agents, the agent lookup table, sitemaps and rule lines
    /// (see the accessors below).
    pub table: Table,
    /// The prefix index slots of the groups with more than
    /// [`INDEX_MIN_RULES`](crate::matcher::INDEX_MIN_RULES) rules, but the
    /// one `*` group's ([`star_slot`](Parsed::star_slot)).
    pub indexes: Box<[IndexSlot]>,
    /// Extras, patterns as written, host, records, warnings: `None` when
    /// there are none.
    pub rare: Option<Box<Rare>>,
}

/// The arrays of [`Parsed::table`].
impl Parsed {
    /// `agent::token_key` of each named agent's token, in the order of
    /// [`lookup`](Parsed::lookup), as (high, low) halves: arrays compare
    /// as the keys do.
    #[inline]
    pub fn lookup_keys(&self) -> &[[u32; 2]] {
        self.table.chunks(Section::LookupKeys)
    }

    /// Indexes of the named (non-`*`) agents with a product token, sorted
    /// by lower-cased token, then group; duplicates removed.
    #[inline]
    pub fn lookup(&self) -> &[u32] {
        self.table.get(Section::Lookup)
    }

    /// `lookup_groups()[i]` is the group of agent `lookup()[i]`, so the
    /// groups of one token are a contiguous slice.
    #[inline]
    pub fn lookup_groups(&self) -> &[u32] {
        self.table.get(Section::LookupGroups)
    }

    /// Groups with a `*` user-agent, in file order.
    #[inline]
    pub fn star_groups(&self) -> &[u32] {
        self.table.get(Section::StarGroups)
    }

    /// Group `i`.
    #[inline]
    pub fn group(&self, i: u32) -> Group {
        Group::from_words(&self.table.chunks(Section::Groups)[i as usize])
    }

    /// The groups, in file order.
    #[cfg(any(feature = "fetch", test))]
    pub fn groups(&self) -> impl ExactSizeIterator<Item = Group> + '_ {
        self.table
            .chunks(Section::Groups)
            .iter()
            .map(Group::from_words)
    }

    /// The group rule `rule` belongs to.
    pub fn group_of_rule(&self, rule: u32) -> u32 {
        let groups: &[[u32; Group::WORDS]] = self.table.chunks(Section::Groups);
        groups.partition_point(|w| Group::from_words(w).rules.1 <= rule) as u32
    }

    /// The offset of rule `rule`'s pattern in the arena: its group's base
    /// and the lengths of the rules before it in the group, added up (for
    /// tests: views and explanations carry theirs).
    #[cfg(test)]
    pub fn rule_at(&self, rule: u32) -> u32 {
        let g = self.group(self.group_of_rule(rule));
        self.rules[g.rules.0 as usize..rule as usize]
            .iter()
            .fold(g.base, |at, r| at + r.len as u32)
    }

    pub fn group_count(&self) -> usize {
        self.table.get(Section::Groups).len() / Group::WORDS
    }

    /// User-agent value `i` (they are in file order).
    #[inline]
    pub fn agent(&self, i: u32) -> AgentName {
        AgentName::from_words(&self.table.chunks(Section::Agents)[i as usize])
    }

    /// The user-agent values, in file order.
    #[cfg(test)]
    pub fn agents(&self) -> impl ExactSizeIterator<Item = AgentName> + '_ {
        self.table
            .chunks(Section::Agents)
            .iter()
            .map(AgentName::from_words)
    }

    /// The line of each rule.
    pub fn rule_lines(&self) -> RuleLines<'_> {
        RuleLines {
            words: self.table.get(Section::LineWords),
            delta: self.table.get(Section::LineDelta),
            rules: self.rules.len(),
        }
    }

    /// Where each sitemap URL is in the arena: (start, end).
    pub fn sitemap_spans(&self) -> &[[u32; 2]] {
        self.table.chunks(Section::Sitemaps)
    }
}

impl Parsed {
    fn rare(&self) -> Option<&Rare> {
        self.rare.as_deref()
    }

    /// The entries of group `group`'s extension records that hold its
    /// first valid crawl-delay and its first valid request-rate
    /// (`Rare::firsts`), in file order: for either, the first entry of
    /// these two that has one has the group's first.
    pub fn group_firsts(&self, group: u32) -> impl Iterator<Item = &GroupExtras> {
        let firsts = self.rare().map_or(&[][..], |r| &r.firsts);
        let at = firsts.partition_point(|&[g, ..]| g < group);
        let found = firsts.get(at).filter(|&&[g, ..]| g == group);
        found
            .into_iter()
            .flat_map(|first| self.first_entries(first))
    }

    /// The one or two records an entry of `Rare::firsts` points at.
    fn first_entries(&self, &[_, lo, hi]: &[u32; 3]) -> impl Iterator<Item = &GroupExtras> {
        let extras = self.rare().map_or(&[][..], |r| &r.extras);
        [lo, hi].into_iter().filter_map(|i| extras.get(i as usize))
    }

    /// The extension record holding the `ext` value (crawl-delay or
    /// request-rate) of the crawler that `groups` and `names` were chosen
    /// for (`agent::select_names`): the one written under the crawler's own
    /// user-agent lines in the first of its groups that has one; failing
    /// that, the first value of the first of its groups that has any.
    ///
    /// A crawler in more than [`EXTENSION_WALK_MAX`] groups (the `*`
    /// groups, or a name's run of `lookup_groups`) has both answers found
    /// on the first question and kept (`Rare::star_extension`,
    /// `Rare::named_extensions`): a 500 KiB file of 20,000 groups would
    /// otherwise cost a walk over all of them on every question.
    fn extension_entry(&self, groups: &[u32], names: &[u32], ext: Ext) -> Option<&GroupExtras> {
        let rare = self.rare()?;
        if rare.extras.is_empty() {
            return None;
        }
        let at = match self.extension_cell(rare, groups) {
            Some(cell) => cell.get_or_init(|| {
                [Ext::CrawlDelay, Ext::RequestRate]
                    .map(|e| self.find_extension(rare, groups, names, e))
            })[ext as usize],
            None => self.find_extension(rare, groups, names, ext),
        };
        rare.extras.get(at as usize)
    }

    /// The crawl-delay of the crawler that `groups` and `names` were chosen
    /// for (see [`extension_entry`](Parsed::extension_entry)).
    pub fn crawl_delay(&self, groups: &[u32], names: &[u32]) -> Option<Duration> {
        let entry = self.extension_entry(groups, names, Ext::CrawlDelay)?;
        entry.crawl_delay.map(|(delay, _)| delay)
    }

    /// The request-rate of the crawler that `groups` and `names` were
    /// chosen for (see [`extension_entry`](Parsed::extension_entry)).
    pub fn request_rate(&self, groups: &[u32], names: &[u32]) -> Option<RequestRate> {
        let entry = self.extension_entry(groups, names, Ext::RequestRate)?;
        entry.request_rate.map(|(rate, _)| rate)
    }

    /// Where the answers for `groups` are kept, if they are a crawler's
    /// groups of more than [`EXTENSION_WALK_MAX`].
    fn extension_cell<'a>(&self, rare: &'a Rare, groups: &[u32]) -> Option<&'a OnceLock<[u32; 2]>> {
        if groups.len() <= EXTENSION_WALK_MAX {
            return None;
        }
        if std::ptr::eq(groups, self.star_groups()) {
            return Some(&rare.star_extension);
        }
        let (start, _) = self.lookup_run(groups)?;
        let named = &rare.named_extensions;
        let i = named.binary_search_by_key(&start, |&(s, _)| s).ok()?;
        Some(&named[i].1)
    }

    /// [`extension_entry`](Parsed::extension_entry)'s walk: the position
    /// of the entry in `Rare::extras`, `u32::MAX` for none. One pass, over
    /// whichever is shorter, the crawler's groups or those with extension
    /// records (`Rare::firsts`), searching the other.
    fn find_extension(&self, rare: &Rare, groups: &[u32], names: &[u32], ext: Ext) -> u32 {
        debug_assert!(groups.is_sorted(), "groups in file order");
        let firsts = &rare.firsts;
        // The groups that have records, each with its place in `groups`
        // and its entry in `firsts`, in file order.
        if firsts.len() < groups.len() {
            let with_records = firsts
                .iter()
                .filter_map(|first| Some((groups.binary_search(&first[0]).ok()?, first)));
            self.walk_extension(rare, groups, names, ext, with_records)
        } else {
            let with_records = groups.iter().enumerate().filter_map(|(i, &g)| {
                let at = firsts.partition_point(|&[f, ..]| f < g);
                Some((i, firsts.get(at).filter(|&&[f, ..]| f == g)?))
            });
            self.walk_extension(rare, groups, names, ext, with_records)
        }
    }

    /// [`find_extension`](Parsed::find_extension) over the crawler's
    /// groups that have records (`with_records`: each group's place in
    /// `groups` and its entry in `Rare::firsts`, in file order).
    fn walk_extension<'a>(
        &self,
        rare: &Rare,
        groups: &[u32],
        names: &[u32],
        ext: Ext,
        with_records: impl Iterator<Item = (usize, &'a [u32; 3])>,
    ) -> u32 {
        let extras = &rare.extras;
        let valid = |at: u32| extras.get(at as usize).is_some_and(|e| ext.has(e));
        let mut fallback = u32::MAX;
        for (i, &[group, lo, hi]) in with_records {
            // First the value under the crawler's own user-agent lines. A
            // group's entries are in file order, one for each run of
            // user-agent lines they follow, so their `agents_before` grow:
            // the run's is found by binary search (a group of thousands of
            // runs is asked once for each of its user-agents by `keepout
            // show`).
            let agent = crate::agent::matched_agent(self, groups, names, i);
            let start = extras.partition_point(|e| e.group < group);
            let own = &extras[start..];
            let own = &own[..own.partition_point(|e| e.group == group)];
            let run = own.partition_point(|e| e.agents_before <= agent);
            let at = (start + run) as u32;
            if run < own.len() && valid(at) {
                return at;
            }
            // Failing that in every group, the group's first value, from
            // the first group that has one.
            if fallback == u32::MAX {
                fallback = [lo, hi]
                    .into_iter()
                    .find(|&at| valid(at))
                    .unwrap_or(u32::MAX);
            }
        }
        fallback
    }

    /// The pattern as written of rule `rule`, if it is flagged `REWRITTEN`.
    pub fn written(&self, rule: u32) -> Option<&str> {
        self.rare()?.written.get(rule)
    }

    pub fn host(&self) -> Option<&str> {
        self.rare()?.host.as_deref()
    }

    pub fn records(&self) -> &[Record] {
        self.rare().map_or(&[], |r| r.notes.records())
    }

    pub fn warnings(&self) -> &[Warning] {
        self.rare().map_or(&[], |r| r.notes.warnings())
    }

    /// How many warnings there are, without making them text.
    pub fn warning_count(&self) -> usize {
        self.rare().map_or(0, |r| r.notes.warning_count())
    }

    /// The index slot numbered `slot` ([`STAR_SLOT`] or a position in
    /// `indexes`), if there is one ([`NO_INDEX`]: none).
    #[inline]
    pub fn slot(&self, slot: u32) -> Option<&OnceLock<Arc<Index>>> {
        if slot == STAR_SLOT {
            Some(&self.star_slot.0)
        } else {
            self.indexes.get(slot as usize).map(|slot| &slot.0)
        }
    }

    /// The prefix index slot of `group`, if it is large enough to have one.
    #[inline]
    pub fn index_slot(&self, group: &Group) -> Option<&OnceLock<Arc<Index>>> {
        self.slot(group.index)
    }

    /// The slot of the prefix index over the rules of all of `groups`,
    /// when `groups` are several and have one: the `*` groups (see
    /// [`star_index`](Parsed::star_index)), or those of one crawler name
    /// (see [`Rare::named_indexes`]), as `agent::select` gives them.
    #[inline]
    pub fn merged_slot(&self, groups: &[u32]) -> Option<&OnceLock<Arc<Index>>> {
        let slot = if std::ptr::eq(groups, self.star_groups()) {
            self.star_index
        } else if groups.len() > 1 {
            self.named_slot(groups)?
        } else {
            return None;
        };
        self.slot(slot)
    }

    /// Where `groups` are in `lookup_groups` (start and end), when they are
    /// a run of it, as [`agent::select`](crate::agent::select) gives a
    /// crawler name's groups; `None` for any other slice (the `*` groups,
    /// none).
    pub fn lookup_run(&self, groups: &[u32]) -> Option<(u32, u32)> {
        let all = self.lookup_groups().as_ptr_range();
        if groups.is_empty() || !all.contains(&groups.as_ptr()) {
            return None;
        }
        // No `unsafe`: the offset from two addresses in one slice.
        let start = (groups.as_ptr() as usize - all.start as usize) / std::mem::size_of::<u32>();
        // Both fit: the table's sections are indexed by `u32`.
        Some((start as u32, (start + groups.len()) as u32))
    }

    /// The merged index slot of `groups` when they are a crawler name's run
    /// of `lookup_groups` that has one.
    fn named_slot(&self, groups: &[u32]) -> Option<u32> {
        let named = &self.rare()?.named_indexes;
        if named.is_empty() {
            return None;
        }
        let run = self.lookup_run(groups)?;
        let i = named
            .binary_search_by_key(&run.0, |&(start, _, _)| start)
            .ok()?;
        let (start, end, slot) = named[i];
        ((start, end) == run).then_some(slot)
    }

    /// The sitemap URLs, in file order.
    pub fn sitemaps(&self) -> impl ExactSizeIterator<Item = &str> + DoubleEndedIterator + Clone {
        // Stored as text (see `parse::push_text_or_escaped`).
        self.sitemap_spans().iter().map(|&[start, end]| {
            std::str::from_utf8(&self.arena[start as usize..end as usize]).unwrap_or_default()
        })
    }

    pub fn agent_value(&self, a: &AgentName) -> &str {
        let b = &self.arena[a.start as usize..a.start as usize + a.len as usize];
        // Agent values are stored as UTF-8 (see parse::Builder::push_agent).
        std::str::from_utf8(b).unwrap_or("")
    }

    pub fn agent_token(&self, a: &AgentName) -> &[u8] {
        &self.arena[a.start as usize..a.start as usize + a.token_len as usize]
    }

    /// The most heap bytes the prefix indexes that one crawler's checks
    /// build could take: the largest [`Index::bytes_bound`] of the index
    /// slots (a crawler's checks build one index: its group's, or the one
    /// over its merged groups, or the `*` groups'), with the automaton a
    /// hostile file's checks make it build over its wildcard rules. Checks
    /// under several names can build more.
    #[cfg(feature = "fetch")]
    pub fn index_bytes_bound(&self) -> usize {
        let groups = self
            .groups()
            .filter(|g| g.index != NO_INDEX)
            .map(|g| Index::bytes_bound(self.indexed(g)));
        let merged = |of: &[u32]| {
            Index::bytes_bound(
                of.iter()
                    .map(|&g| self.indexed(self.group(g)))
                    .fold(Indexed::default(), Indexed::add),
            )
        };
        let star = (self.star_index != NO_INDEX).then(|| merged(self.star_groups()));
        let named = self
            .rare()
            .into_iter()
            .flat_map(|r| r.named_indexes.iter())
            .map(|&(start, end, _)| merged(&self.lookup_groups()[start as usize..end as usize]));
        groups.chain(star).chain(named).max().unwrap_or(0)
    }

    /// What an index of `group`'s rules is built from.
    #[cfg(feature = "fetch")]
    fn indexed(&self, group: Group) -> Indexed {
        let (start, end) = group.rules;
        let mut counts = Indexed {
            rules: (end - start) as usize,
            ..Indexed::default()
        };
        for (at, r) in group.placed(&self.rules) {
            if r.flags & WILDCARD != 0 {
                let pattern = r.pattern(&self.arena, at);
                counts.wild += 1;
                counts.wild_octets += pattern.len() - r.prefix_len(pattern);
                counts.wild_pieces += crate::matcher::pieces::searched_pieces(pattern).count();
            }
        }
        counts
    }

    /// Bytes retained on the heap by this value, with the `Arc` allocation
    /// that holds it (not counting lazily built indexes).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        // The `Arc` allocation holding this struct: two counts and itself.
        2 * size_of::<usize>()
            + size_of::<Parsed>()
            + self.arena.len()
            + self.rules.len() * size_of::<Rule>()
            + self.table.heap_bytes()
            + self.indexes.len() * size_of::<IndexSlot>()
            + self.rare.as_ref().map_or(0, |_| size_of::<Rare>())
            + self.extras_len() * size_of::<GroupExtras>()
            + self.rare().map_or(0, |r| r.firsts.len()) * size_of::<[u32; 3]>()
            + self.rare().map_or(0, |r| r.written.heap_bytes())
            + self
                .rare()
                .map_or(0, |r| r.named_indexes.len() * size_of::<(u32, u32, u32)>())
            + self.rare().map_or(0, |r| {
                r.named_extensions.len() * size_of::<(u32, OnceLock<[u32; 2]>)>()
            })
            + self.host().map_or(0, str::len)
            + self.rare().map_or(0, |r| r.notes.heap_bytes())
    }

    fn extras_len(&self) -> usize {
        self.rare().map_or(0, |r| r.extras.len())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<super::Rule>(), 4);
        assert_eq!(std::mem::size_of::<super::Group>(), 28);
        assert_eq!(std::mem::size_of::<super::IndexSlot>(), 16);
        assert_eq!(std::mem::size_of::<super::AgentName>(), 16);
        // Its first 128 bytes are what `Robots::is_allowed` reads.
        assert_eq!(std::mem::size_of::<super::Parsed>(), 160);
        assert!(std::mem::offset_of!(super::Parsed, table) < 128 - 16);
        assert!(std::mem::offset_of!(super::Parsed, indexes) >= 128);
    }

    /// Every file with a warning keeps a `Notes`; its text, when asked
    /// for, is behind a pointer.
    #[test]
    fn notes_are_small() {
        assert_eq!(std::mem::size_of::<super::Notes>(), 24);
        let notes = |body: &str| {
            crate::parse::parse(body.as_bytes(), &crate::parse::ParseOptions::new())
                .rare
                .map(|rare| rare.notes)
                .unwrap_or_default()
        };
        // A warning that quotes nothing keeps no quoted text.
        let plain = notes("Disallow: /a\nUser-agent: *\n");
        assert_eq!(plain.warning_count(), 1);
        assert!(plain.quoted.is_none());
        assert!(plain.records().is_empty());
        // An unknown key is a record and a warning quoting its key.
        let quoting = notes("User-agent: *\nNoindex: /a\nDisalow: /b\nDisallow /c\n");
        assert!(quoting.quoted.is_some());
        assert_eq!(quoting.warning_count(), 3);
        assert_eq!(quoting.records().len(), 1);
        assert_eq!(quoting.warnings().len(), 3);
        // Unknown keys quote their records' keys, misspelled ones their
        // own, each warning its own whatever the order.
        let mixed = notes("User-agent: *\nDisalow: /b\nNoindex: /a\nUser agent: x\nFoo: bar\n");
        let keys: Vec<String> = mixed
            .warnings()
            .iter()
            .map(|w| match &w.kind {
                super::WarningKind::UnknownKey { key } => format!("unknown {key} @{}", w.line),
                super::WarningKind::Misspelled { written, .. } => {
                    format!("misspelled {written} @{}", w.line)
                }
                kind => format!("{kind:?}"),
            })
            .collect();
        assert_eq!(
            keys,
            [
                "misspelled Disalow @2",
                "unknown Noindex @3",
                "misspelled User agent @4",
                // Found at the end (the group at line 4 has no rules), put
                // in line order without moving the quotes.
                "GroupWithoutRules",
                "unknown Foo @5"
            ]
        );
        let records: Vec<(&str, &str, u32)> = mixed
            .records()
            .iter()
            .map(|r| (&*r.key, &*r.value, r.line))
            .collect();
        assert_eq!(records, [("Noindex", "/a", 3), ("Foo", "bar", 5)]);
        // Only the misspelled keys keep quotes of their own.
        assert_eq!(mixed.quoted.as_ref().map(|q| q.quotes.len()), Some(2));
    }

    #[test]
    fn seek_finds_the_first_rule_at_or_after_an_offset() {
        // 100 rules of lengths 1 to 7, from offset 10.
        let rules: Vec<super::Rule> = (0..100u16)
            .map(|i| super::Rule {
                len: 1 + i * 5 % 7,
                flags: 0,
                prefix: 0,
            })
            .collect();
        let offsets: Vec<u32> = super::placed(&rules, 10).map(|(at, _)| at).collect();
        let end = offsets[99] + rules[99].len as u32;
        for at in 0..end + 3 {
            let want = offsets
                .iter()
                .position(|&o| o >= at)
                .map(|i| (i, offsets[i]));
            assert_eq!(super::seek(&rules, 10, at), want, "{at}");
        }
        assert_eq!(super::seek(&[], 10, 0), None);
    }

    #[test]
    fn groups_and_agents_read_back_from_words() {
        let g = super::Group {
            rules: (1, 2),
            base: 6,
            agents: (3, 4),
            line: 5,
            index: super::NO_INDEX,
        };
        let back = super::Group::from_words(&g.to_words());
        assert_eq!(
            (back.rules, back.base, back.agents, back.line, back.index),
            (g.rules, g.base, g.agents, g.line, g.index)
        );
        for star in [false, true] {
            let a = super::AgentName {
                start: u32::MAX,
                len: u16::MAX,
                token_len: 7,
                group: (1 << 31) - 1,
                star,
            };
            let back = super::AgentName::from_words(&a.to_words());
            assert_eq!(
                (back.start, back.len, back.token_len, back.group, back.star),
                (a.start, a.len, a.token_len, a.group, a.star)
            );
        }
    }

    #[test]
    fn rule_lines() {
        use super::{Section, TableBuilder};
        // Each line read back; the table's size.
        let check = |lines: &[u32]| {
            let mut b = super::RuleLinesBuilder::default();
            for &l in lines {
                b.push(l);
            }
            let (words, delta) = b.words();
            let mut t = TableBuilder::with_capacity(words + delta);
            b.write(&mut t);
            let t = t.finish();
            let r = super::RuleLines {
                words: t.get(Section::LineWords),
                delta: t.get(Section::LineDelta),
                rules: lines.len(),
            };
            for (i, &l) in lines.iter().enumerate() {
                assert_eq!(r.get(i as u32), l, "{i}");
            }
            t.heap_bytes()
        };
        let lines: Vec<u32> = (0..300u32)
            .map(|i| 1 + i * 2 + if i > 100 { 1000 } else { 0 } + if i > 200 { i * 300 } else { 0 })
            .collect();
        // Half a byte a rule, a base every 64, and 8 bytes per far jump
        // (99 here).
        assert_eq!(check(&lines), 300usize.div_ceil(8) * 4 + 5 * 4 + 99 * 8);
        // Distances on both sides of `FAR`: 1 to 20.
        let lines: Vec<u32> = (0..200u32)
            .scan(0, |line, i| {
                *line += 1 + i % 20;
                Some(*line)
            })
            .collect();
        let far = (0..200).filter(|i| i % 64 != 0 && 1 + i % 20 >= 15).count();
        assert_eq!(check(&lines), 200usize.div_ceil(8) * 4 + 4 * 4 + far * 8);
    }
}

/// Where the heap of the corpus goes, by array:
/// `cargo test --lib memory_breakdown -- --ignored --nocapture`.
#[cfg(test)]
mod breakdown {
    #[test]
    #[ignore]
    fn memory_breakdown() {
        use super::Section;
        use std::mem::size_of;
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus");
        let mut tot = [0usize; 10];
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for p in names {
            if p.extension().is_none_or(|e| e != "txt") {
                continue;
            }
            let body = std::fs::read(&p).unwrap();
            let x = crate::parse::parse(&body, &crate::ParseOptions::new());
            let t = |s: Section| x.table.get(s).len() * 4;
            let parts = [
                body.len(),
                x.arena.len(),
                x.rules.len() * size_of::<super::Rule>()
                    + t(Section::LineWords)
                    + t(Section::LineDelta),
                t(Section::Groups),
                t(Section::Agents),
                t(Section::LookupKeys)
                    + t(Section::Lookup)
                    + t(Section::LookupGroups)
                    + t(Section::StarGroups),
                x.rare().map_or(0, |r| r.written.heap_bytes()),
                t(Section::Sitemaps),
                x.records()
                    .iter()
                    .map(crate::record::Record::heap_bytes)
                    .sum::<usize>(),
                x.warnings()
                    .iter()
                    .map(crate::lint::Warning::heap_bytes)
                    .sum::<usize>(),
            ];
            for (t, v) in tot.iter_mut().zip(parts) {
                *t += v;
            }
        }
        eprintln!(
            "sizes: Rule {} Group {} AgentName {} Parsed {}",
            size_of::<super::Rule>(),
            size_of::<super::Group>(),
            size_of::<super::AgentName>(),
            size_of::<super::Parsed>()
        );
        eprintln!("body arena rules groups agents lookup written sitemaps records warnings");
        eprintln!("{tot:?}");
    }
}
