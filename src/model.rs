//! The compact form a robots.txt is parsed into.
//!
//! Everything lives in a handful of flat arrays: one byte arena holding every
//! normalised pattern and user-agent value, a 12-byte [`Rule`] per
//! allow/disallow line in file order, and one [`Group`] per group. A group's
//! rules are a contiguous range of the rule array, because groups are
//! contiguous in the file. Nothing points into the input, so the body can be
//! dropped after parsing.

use std::sync::OnceLock;
use std::time::Duration;

use crate::lint::Warning;
use crate::matcher::index::Index;
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

/// One allow/disallow rule.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// Offset of the normalised pattern in [`Parsed::arena`].
    pub start: u32,
    /// Line number (1-based) in the file.
    pub line: u32,
    /// Length of the normalised pattern in octets: the rule's priority
    /// (RFC 9309 section 2.2.2, "the match that has the most octets").
    pub len: u16,
    /// `ALLOW | WILDCARD | ANCHORED | REWRITTEN`.
    pub flags: u8,
    /// Length of the literal prefix (see [`Rule::literal_prefix`]), or 255
    /// when it is 255 or more. (It fills what would be padding.)
    pub prefix: u8,
}

impl Rule {
    #[inline]
    pub fn allow(&self) -> bool {
        self.flags & ALLOW != 0
    }
    #[inline]
    pub fn pattern<'a>(&self, arena: &'a [u8]) -> &'a [u8] {
        &arena[self.start as usize..self.start as usize + self.len as usize]
    }
    /// The literal part of the pattern before its first operator, which
    /// every path it matches must start with.
    #[inline]
    pub fn literal_prefix<'a>(&self, arena: &'a [u8]) -> &'a [u8] {
        &self.pattern(arena)[..self.prefix_len(arena)]
    }

    /// The length of [`literal_prefix`](Rule::literal_prefix).
    #[inline]
    pub fn prefix_len(&self, arena: &[u8]) -> usize {
        if self.prefix < u8::MAX {
            self.prefix as usize
        } else {
            Rule::compute_prefix_len(self.pattern(arena), self.flags)
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
/// (RFC 9309 section 2.1).
#[derive(Debug)]
pub(crate) struct Group {
    /// Range of [`Parsed::rules`].
    pub rules: (u32, u32),
    /// Range of [`Parsed::agents`].
    pub agents: (u32, u32),
    /// Line of the group's first user-agent line.
    pub line: u32,
    /// First valid `Crawl-delay` in the group, with its line.
    pub crawl_delay: Option<(Duration, u32)>,
    /// First valid `Request-rate` in the group, with its line.
    pub request_rate: Option<(RequestRate, u32)>,
    /// Sorted prefix index, built on first use for groups with many rules.
    pub index: OnceLock<Index>,
}

impl Clone for Group {
    fn clone(&self) -> Self {
        Group {
            rules: self.rules,
            agents: self.agents,
            line: self.line,
            crawl_delay: self.crawl_delay,
            request_rate: self.request_rate,
            index: OnceLock::new(),
        }
    }
}

/// One user-agent line's value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AgentName {
    /// Offset of the value as written (trimmed) in the arena.
    pub start: u32,
    /// Length of the value as written.
    pub len: u32,
    /// Length of its product token, a prefix of the value (0: no token).
    pub token_len: u32,
    /// The group it belongs to.
    pub group: u32,
    /// `*`: the global group (RFC 9309 section 2.2.1).
    pub star: bool,
}

/// A robots.txt, parsed. Shared behind an `Arc` by every clone of `Robots`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Parsed {
    pub arena: Box<[u8]>,
    pub rules: Box<[Rule]>,
    pub groups: Box<[Group]>,
    /// Every user-agent value, in file order.
    pub agents: Box<[AgentName]>,
    /// Indexes into `agents` of the named (non-`*`) ones with a product
    /// token, sorted by lower-cased token, then group; duplicates removed.
    pub lookup: Box<[u32]>,
    /// `lookup_groups[i]` is the group of `agents[lookup[i]]`, so the groups
    /// of one token are a contiguous slice.
    pub lookup_groups: Box<[u32]>,
    /// Groups with a `*` user-agent, in file order.
    pub star_groups: Box<[u32]>,
    /// Patterns as written, for rules flagged `REWRITTEN`, by rule index.
    pub written: Box<[(u32, Box<str>)]>,
    pub sitemaps: Box<[Box<str>]>,
    pub host: Option<Box<str>>,
    /// Records with keys keepout does not interpret.
    pub records: Box<[Record]>,
    pub warnings: Box<[Warning]>,
    /// Input octets parsed (after any transcoding).
    pub body_len: usize,
}

impl Parsed {
    pub fn agent_value(&self, a: &AgentName) -> &str {
        let b = &self.arena[a.start as usize..(a.start + a.len) as usize];
        // Agent values are stored as UTF-8 (see parse::Builder::push_agent).
        std::str::from_utf8(b).unwrap_or("")
    }

    pub fn agent_token(&self, a: &AgentName) -> &[u8] {
        &self.arena[a.start as usize..(a.start + a.token_len) as usize]
    }

    /// Bytes retained on the heap by this value (not counting lazily built
    /// indexes).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let strs = |s: &[Box<str>]| {
            s.iter()
                .map(|x| x.len() + size_of::<Box<str>>())
                .sum::<usize>()
        };
        self.arena.len()
            + self.rules.len() * size_of::<Rule>()
            + self.groups.len() * size_of::<Group>()
            + self.agents.len() * size_of::<AgentName>()
            + (self.lookup.len() + self.lookup_groups.len() + self.star_groups.len()) * 4
            + self
                .written
                .iter()
                .map(|(_, s)| s.len() + 24)
                .sum::<usize>()
            + strs(&self.sitemaps)
            + self.host.as_ref().map_or(0, |h| h.len())
            + self.records.iter().map(Record::heap_bytes).sum::<usize>()
            + self.warnings.iter().map(Warning::heap_bytes).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rule_is_twelve_bytes() {
        assert_eq!(std::mem::size_of::<super::Rule>(), 12);
    }
}
