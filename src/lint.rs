//! Lint-style warnings the parser records per line: what a robots.txt author
//! should fix, and what keepout accepted leniently. Also rules that never
//! decide ([`Shadowed`]), found from the parsed rules when
//! [`Robots::shadowed_rules`] is called, not while parsing.

use std::collections::HashMap;
use std::fmt;

use crate::Robots;
use crate::matcher::Hit;
use crate::model::{ANCHORED, Rule, WILDCARD};
use crate::parse::Directive;
use crate::view::{Brief, RuleView};

/// Something questionable on one line of a robots.txt. Fields may be
/// added (`#[non_exhaustive]`).
///
/// ```
/// use keepout::{Robots, WarningKind};
/// let robots = Robots::parse("Disallow: /early\nUser-agent: *\nDisalow: /x\n");
/// let kinds: Vec<_> = robots.warnings().iter().map(|w| (w.line, &w.kind)).collect();
/// assert!(matches!(kinds[0], (1, WarningKind::RuleOutsideGroup)));
/// assert!(matches!(kinds[1], (3, WarningKind::Misspelled { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// Line number (1-based).
    pub line: u32,
    /// What is wrong.
    pub kind: WarningKind,
}

/// The kinds of [`Warning`]. Display gives a sentence for people.
///
/// ```
/// use keepout::{Directive, Robots, WarningKind};
///
/// let robots = Robots::parse("User-agent: *\nCrawl-delay: soon\n");
/// let kind = &robots.warnings()[0].kind;
/// assert_eq!(*kind, WarningKind::InvalidValue { directive: Directive::CrawlDelay });
/// assert_eq!(kind.to_string(), "invalid Crawl-delay value; ignored");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// A misspelled key that was accepted, e.g. `Disalow` or `User agent`.
    Misspelled {
        /// The key as written.
        written: Box<str>,
        /// The directive it was read as.
        understood_as: Directive,
    },
    /// A key keepout does not know; the line is kept as a
    /// [`Record`](crate::Record).
    UnknownKey {
        /// The key as written.
        key: Box<str>,
    },
    /// A line with no `:`; read as `key value` (Google's leniency).
    MissingColon,
    /// A line that is neither a record nor blank nor a comment; ignored.
    Unparsable,
    /// An allow, disallow, crawl-delay or request-rate line before the first
    /// user-agent line naming a crawler (an empty one names none); ignored
    /// (RFC 9309 section 2.1).
    RuleOutsideGroup,
    /// A pattern that starts with neither `/` nor a wildcard `*` (under
    /// MK1996 matching, `*` is not one), so it matches no path (every path
    /// starts with `/`; RFC 9309 section 2.2.2 requires a leading `/`).
    PatternNotRooted,
    /// A user-agent value with no product token (`[A-Za-z0-9_-]`) at its
    /// start, which no crawler can match.
    InvalidUserAgent,
    /// A value that could not be read, e.g. `Crawl-delay: soon`; ignored.
    InvalidValue {
        /// The directive whose value is invalid.
        directive: Directive,
    },
    /// A user-agent line after a crawl-delay or request-rate line of the
    /// group above it, before any rule: it joins that group (RFC 9309
    /// section 2.2.4: only a rule line ends a run of user-agent lines), so
    /// the crawlers above share the rules below. Each run keeps the
    /// extension values written under it.
    JoinsGroup {
        /// The extension line before it.
        after: Directive,
    },
    /// A second (or later) crawl-delay or request-rate after one run of
    /// user-agent lines, or a `Host` line naming another host than the
    /// file's first; the first is used.
    Duplicate {
        /// The repeated directive.
        directive: Directive,
    },
    /// An empty user-agent line after rules, and then rules: as in
    /// Google's parser, it ends the group above, and the rules after it (up
    /// to the next user-agent line) apply to no crawler. (Followed by a
    /// user-agent line that names a crawler, it is only
    /// [`EmptyValue`](Self::EmptyValue).)
    EmptyUserAgentEndsGroup,
    /// An empty value where one is required (sitemap, host, user-agent,
    /// crawl-delay, request-rate); ignored.
    EmptyValue {
        /// The directive with no value.
        directive: Directive,
    },
    /// A sitemap value that is neither an http(s) URL (one a URL parser
    /// takes: not `https://` alone) nor a path from the root
    /// (`/sitemap.xml`; `sitemap.xml` is not one), or that
    /// holds a space or tab (`https://example.com/a.xml more`), or whose
    /// host has a non-ASCII label of more than 63 characters (no DNS
    /// name): kept in
    /// [`sitemaps`](crate::Robots::sitemaps) as written, but it is no URL
    /// to fetch, and [`sitemap_urls`](crate::Robots::sitemap_urls) leaves
    /// it out.
    SitemapNotUrl,
    /// A line longer than [`MAX_LINE_LEN`](crate::limits::MAX_LINE_LEN); the rest
    /// was ignored, as Google's parser does. (Not given when the rest is
    /// whitespace or part of a comment, which loses nothing.)
    LineTooLong,
    /// A NUL byte; the rest of the line was ignored.
    NulByte,
    /// The file is not in UTF-8, which RFC 9309 section 2.2 requires, but
    /// in UTF-16 (known by its byte order mark or its shape), or, when
    /// fetched or parsed with
    /// [`ParseOptions::content_type`](crate::ParseOptions::content_type), in
    /// the encoding the `Content-Type` names when its octets are not
    /// UTF-8 (or, for ISO-2022-JP, hold escape sequences that decode). keepout
    /// transcoded it and read its rules;
    /// crawlers reading it as UTF-8 may not: Google's parser finds no rule
    /// in a UTF-16 file. Reported at line 1.
    ///
    /// ```
    /// use keepout::{Robots, WarningKind};
    ///
    /// let utf16: Vec<u8> = "User-agent: *\nDisallow: /private\n"
    ///     .encode_utf16()
    ///     .flat_map(u16::to_le_bytes)
    ///     .collect();
    /// let robots = Robots::parse(&utf16);
    /// assert!(!robots.is_allowed("ExampleBot", "https://example.com/private"));
    /// assert_eq!(robots.warnings()[0].kind, WarningKind::NotUtf8 { encoding: "UTF-16LE" });
    /// ```
    NotUtf8 {
        /// The encoding's name, as the Encoding Standard gives it
        /// (`UTF-16LE`, `UTF-16BE`, `windows-1252`, ...).
        encoding: &'static str,
    },
    /// The last group has no allow or disallow line (only, say, a
    /// crawl-delay), and names a crawler no other group names, while a `*`
    /// group has rules. That crawler obeys this group, which allows
    /// everything: the `*` group's rules do not apply to a crawler a group
    /// names (RFC 9309 section 2.2.1; Google's library reads it so too).
    /// Only the last group can lack rule lines: a user-agent line after
    /// any other line but a rule joins the group (section 2.2.4). Reported
    /// at the group's first line. An empty `Disallow:` says "allow
    /// everything" on purpose, and is not flagged.
    ///
    /// ```
    /// use keepout::{Robots, WarningKind};
    ///
    /// let robots = Robots::parse("User-agent: *\nDisallow: /search\n\nUser-agent: bingbot\nCrawl-delay: 1\n");
    /// assert_eq!(robots.warnings()[0].line, 4);
    /// assert_eq!(robots.warnings()[0].kind, WarningKind::GroupWithoutRules);
    /// assert!(robots.is_allowed("bingbot", "https://example.com/search"));
    /// ```
    GroupWithoutRules,
    /// A pattern or sitemap value holding a Unicode space or an invisible
    /// character (U+00A0 no-break space, U+2000 to U+200B, U+3000, U+FEFF
    /// and the like), often pasted from a word processor. Parsers trim
    /// only ASCII spaces and tabs (RFC 9309 section 2.2), so it is part of
    /// the value: a pattern then matches only paths holding it,
    /// percent-encoded (`%C2%A0`), which is rarely what was meant; a
    /// sitemap URL holding it names another resource. Displayed rules show
    /// it escaped (`\u{a0}`). A pattern holding an ASCII control character
    /// (U+0001 to U+001F but tab, or U+007F: DOS's end-of-file mark `^Z`,
    /// say) gets it too: it is as invisible, and as seldom in a path.
    ///
    /// ```
    /// use keepout::{Robots, WarningKind};
    ///
    /// let robots = Robots::parse("User-agent: *\nDisallow: /library\u{a0}\n");
    /// assert_eq!(robots.warnings()[0].kind, WarningKind::UnicodeSpace { character: '\u{a0}' });
    /// assert!(robots.is_allowed("ExampleBot", "https://example.com/library"));
    /// ```
    UnicodeSpace {
        /// The first such character in the value.
        character: char,
    },
    /// A pattern, user-agent, sitemap or host value holding octets that
    /// are not UTF-8, which RFC 9309 section 2.2 requires, in a file read
    /// as UTF-8 (no other encoding named: see
    /// [`ParseOptions::content_type`](crate::ParseOptions::content_type)).
    /// Each such octet is kept, as one octet: a pattern matches it only
    /// percent-encoded on its own (`%E9`), as in Google's parser, never as
    /// the character it stands for in the file's real encoding, which a
    /// crawler sends as UTF-8 (`é` as `%C3%A9`). Where values are shown
    /// as text, the octets read as U+FFFD.
    ///
    /// ```
    /// use keepout::{ParseOptions, Robots, WarningKind};
    ///
    /// // `é` in Latin-1.
    /// let body: &[u8] = b"User-agent: *\nDisallow: /caf\xE9\n";
    /// let robots = Robots::parse(body);
    /// assert_eq!(robots.warnings()[0].kind, WarningKind::InvalidUtf8);
    /// assert!(!robots.is_allowed("ExampleBot", "https://example.com/caf%E9"));
    /// assert!(robots.is_allowed("ExampleBot", "https://example.com/café"));
    ///
    /// // Named, the encoding is read.
    /// let robots = ParseOptions::new()
    ///     .content_type("text/plain; charset=iso-8859-1")
    ///     .parse(body);
    /// assert!(!robots.is_allowed("ExampleBot", "https://example.com/café"));
    /// ```
    InvalidUtf8,
}

/// Is `c` a character that looks like a space, or like nothing, but is
/// not one of the ASCII spaces a robots.txt parser trims: Unicode's
/// `White_Space` characters beyond ASCII (U+00A0, U+2000 to U+200A,
/// U+3000, the line and paragraph separators...), and the invisible
/// zero-width space, word joiner and byte order mark. (U+200C and U+200D,
/// the zero-width joiners, are left out: some scripts write them inside
/// words.)
pub(crate) fn is_unicode_space(c: char) -> bool {
    (!c.is_ascii() && c.is_whitespace()) || matches!(c, '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// The first ASCII control character in `value` but tab (NUL never gets
/// here: a line ends at it).
pub(crate) fn first_control(value: &[u8]) -> Option<char> {
    value
        .iter()
        .find(|&&b| b.is_ascii_control() && b != b'\t')
        .map(|&b| char::from(b))
}

/// The first [`is_unicode_space`] character in `value`, whose octets are
/// UTF-8 where they can be read so.
pub(crate) fn first_unicode_space(value: &[u8]) -> Option<char> {
    // Each of those characters starts with one of these octets.
    if !value
        .iter()
        .any(|&b| matches!(b, 0xc2 | 0xe1 | 0xe2 | 0xe3 | 0xef))
    {
        return None;
    }
    value
        .utf8_chunks()
        .flat_map(|chunk| chunk.valid().chars())
        .find(|&c| is_unicode_space(c))
}

impl Warning {
    pub(crate) fn heap_bytes(&self) -> usize {
        std::mem::size_of::<Warning>()
            + match &self.kind {
                WarningKind::Misspelled { written, .. } => written.len(),
                WarningKind::UnknownKey { key } => key.len(),
                _ => 0,
            }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Misspelled {
                written,
                understood_as,
            } => {
                write!(f, "misspelled key {written:?} read as {understood_as}")
            }
            // A URL alone on a line: split at its scheme's colon.
            WarningKind::UnknownKey { key }
                if key.eq_ignore_ascii_case("http") || key.eq_ignore_ascii_case("https") =>
            {
                write!(
                    f,
                    "a URL with no key (read as key {key:?}, kept as a record); a Sitemap line?"
                )
            }
            // A byte order mark inside a file: files joined into one.
            WarningKind::UnknownKey { key } if key.starts_with('\u{feff}') => write!(
                f,
                "unknown key {key:?} (kept as a record): it starts with a byte order mark (U+FEFF), as where files were joined into one, so the line was not read as {:?}",
                &key['\u{feff}'.len_utf8()..]
            ),
            WarningKind::UnknownKey { key } if key.eq_ignore_ascii_case("noindex") => write!(
                f,
                "unknown key {key:?} (kept as a record): no robots.txt rule, which crawlers ignore (Google since 2019); noindex belongs in a page's robots meta tag or X-Robots-Tag header"
            ),
            WarningKind::UnknownKey { key } => write!(f, "unknown key {key:?} (kept as a record)"),
            WarningKind::MissingColon => f.write_str("missing ':' after the key"),
            WarningKind::Unparsable => f.write_str("not a 'key: value' line; ignored"),
            WarningKind::RuleOutsideGroup => {
                f.write_str("in no group (no user-agent line naming a crawler before it); ignored")
            }
            WarningKind::PatternNotRooted => {
                f.write_str("pattern starts with neither '/' nor a wildcard; it matches no path")
            }
            WarningKind::InvalidUserAgent => {
                f.write_str("user-agent value has no product token; no crawler matches it")
            }
            WarningKind::InvalidValue { directive } => {
                write!(f, "invalid {directive} value; ignored")
            }
            WarningKind::JoinsGroup { after } => write!(
                f,
                "user-agent line after a {after} line joins the group above (only a rule line ends a group): the crawlers named above it obey the rules below it too"
            ),
            WarningKind::Duplicate {
                directive: Directive::Host,
            } => f.write_str("another Host than the file's first; the first one is used"),
            WarningKind::Duplicate { directive } => write!(
                f,
                "repeated {directive} for the same user-agent lines; the first one is used"
            ),
            WarningKind::EmptyUserAgentEndsGroup => f.write_str(
                "empty User-agent value after rules: it ends the group above, and the rules after it apply to no crawler",
            ),
            WarningKind::EmptyValue { directive } => write!(f, "empty {directive} value; ignored"),
            WarningKind::SitemapNotUrl => {
                f.write_str("sitemap value is not an http(s) URL or a path, or holds a space; it is no URL to fetch")
            }
            WarningKind::LineTooLong => write!(
                f,
                "line longer than {} bytes; the rest was ignored",
                crate::limits::MAX_LINE_LEN
            ),
            WarningKind::NulByte => f.write_str("NUL byte; the rest of the line was ignored"),
            WarningKind::NotUtf8 { encoding } if encoding.starts_with("UTF-16") => write!(
                f,
                "file in {encoding}, not UTF-8 (RFC 9309 section 2.2); keepout read it so, but crawlers that read it as UTF-8, Google's parser among them, find no rules in it"
            ),
            WarningKind::NotUtf8 { encoding } => write!(
                f,
                "file in {encoding}, not UTF-8 (RFC 9309 section 2.2); keepout read it so, but crawlers that read it as UTF-8 may read its non-ASCII octets otherwise"
            ),
            WarningKind::GroupWithoutRules => f.write_str(
                "last group has no allow or disallow line: a crawler named only here may fetch everything, as the '*' group's rules do not apply to a crawler a group names (an empty 'Disallow:' says so on purpose)",
            ),
            WarningKind::UnicodeSpace { character } => {
                let mut utf8 = [0; 4];
                // Only patterns are checked for control characters.
                let (what, pattern) = if character.is_ascii_control() {
                    ("a control character", "it")
                } else {
                    ("a Unicode space or invisible character", "a pattern then")
                };
                write!(
                    f,
                    "value holds U+{:04X}, {what} that parsers do not trim: it is part of the value ({pattern} matches only paths holding ",
                    *character as u32
                )?;
                for b in character.encode_utf8(&mut utf8).bytes() {
                    write!(f, "%{b:02X}")?;
                }
                if character.is_ascii_control() {
                    f.write_str(" there)")
                } else {
                    f.write_str(" there, and a sitemap URL names another file)")
                }
            }
            WarningKind::InvalidUtf8 => f.write_str(
                "value holds octets that are not UTF-8 (RFC 9309 section 2.2); each is kept as one octet (a pattern matches it only percent-encoded alone, as %E9), not as the character another encoding makes of it (a crawler sends 'é' as %C3%A9); a file in another encoding should name it in Content-Type's charset",
            ),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// A rule that can never decide, because another rule of its group matches
/// exactly the same paths and always wins over it: see
/// [`Robots::shadowed_rules`](crate::Robots::shadowed_rules).
#[derive(Clone, Copy)]
pub struct Shadowed<'a> {
    rule: RuleView<'a>,
    by: RuleView<'a>,
}

impl<'a> Shadowed<'a> {
    /// The rule that never decides.
    pub fn rule(&self) -> RuleView<'a> {
        self.rule
    }

    /// The rule of the same group that outranks it wherever it matches:
    /// `by` matches there too and wins over it (so the decision is `by`'s,
    /// or that of a rule that wins over both).
    pub fn by(&self) -> RuleView<'a> {
        self.by
    }

    /// The shadowed rule's line (1-based).
    pub fn line(&self) -> u32 {
        self.rule.line()
    }
}

/// `'Disallow: /a' never decides: line 3 'Allow: /a' matches the same
/// paths and Allow wins the tie`; a pattern past 100 characters is cut
/// (`…`, with its length), since one long rule can shadow thousands.
impl fmt::Display for Shadowed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rule, by) = (self.rule, self.by);
        let (shown, by_shown, line) = (Brief(rule), Brief(by), by.line());
        write!(f, "'{shown}' never decides: ")?;
        if by.priority() > rule.priority() {
            write!(
                f,
                "line {line} '{by_shown}' matches the same paths and is longer"
            )
        } else if rule.kind() == by.kind() && rule.pattern() == by.pattern() {
            write!(f, "it repeats line {line} '{by_shown}'")
        } else if rule.kind() == by.kind() && rule.normalized() == by.normalized() {
            // `/a~` and `/a%7E`: one pattern once normalised.
            write!(
                f,
                "it repeats line {line} '{by_shown}' once percent-encoding is normalised (RFC 9309 section 2.2.2)"
            )
        } else if rule.kind() == by.kind() {
            write!(
                f,
                "line {line} '{by_shown}' matches the same paths and, earlier, wins the tie"
            )
        } else {
            write!(
                f,
                "line {line} '{by_shown}' matches the same paths and Allow wins the tie"
            )
        }
    }
}

impl fmt::Debug for Shadowed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shadowed")
            .field("rule", &self.rule)
            .field("by", &self.by)
            .finish()
    }
}

/// The set of paths a rule matches, as a key: two rules with equal keys
/// match exactly the same paths.
///
/// A trailing `*` adds nothing to a pattern that is not anchored (patterns
/// match path prefixes), and `*$` at the end means "then anything", so
/// `/a`, `/a*`, `/a**` and `/a*$` all match the paths starting with `/a`.
/// Otherwise the key is the normalised pattern and whether it is anchored by
/// a final `$`; in MK1996 mode, where `*` and `$` are literal, it is the
/// pattern alone.
fn match_key(rule: &Rule, pattern: &[u8]) -> (Box<[u8]>, bool) {
    let mut p = pattern;
    let mut anchored = rule.flags & ANCHORED != 0;
    if rule.flags & WILDCARD != 0 {
        if anchored && p.ends_with(b"*$") {
            p = &p[..p.len() - 1];
            anchored = false;
        }
        if !anchored {
            while let [rest @ .., b'*'] = p {
                p = rest;
            }
        }
    }
    (p.into(), anchored)
}

impl Robots {
    /// Rules that can never decide any URL, in line order, each with the
    /// rule that decides instead.
    ///
    /// The definition is deliberately narrow, so that every rule reported is
    /// provably dead: a rule is shadowed when another rule *of the same
    /// group* matches exactly the same set of paths and wins over it. Two
    /// patterns match the same paths when their normalised forms
    /// (RFC 9309 section 2.2.2) are equal once a trailing `*` (or `*$`) is
    /// dropped, so `/a`, `/a*` and `/a*$` are one set. Among rules with
    /// the same set, the winner is the one the matcher picks: the longest
    /// pattern, then `Allow` (which wins ties, RFC 9309 section 2.2.2), then
    /// the earliest line. That covers:
    ///
    /// - a repeated rule (`Disallow: /a` twice): the later one;
    /// - `Disallow: /a` with `Allow: /a`: the `Disallow`;
    /// - `Disallow: /a` with `Allow: /a*`: the shorter `Disallow`.
    ///
    /// Since the winner is in the same group, the shadowed rule stays dead
    /// when groups naming one crawler are merged (section 2.2.1). Rules that
    /// never decide for other reasons (a longer rule covering every path a
    /// shorter one matches, or duplicates across separate groups) are not
    /// reported.
    ///
    /// ```
    /// let robots = keepout::Robots::parse(
    ///     "User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /b\nDisallow: /b\n",
    /// );
    /// let lines: Vec<(u32, u32)> = robots
    ///     .shadowed_rules()
    ///     .iter()
    ///     .map(|s| (s.line(), s.by().line()))
    ///     .collect();
    /// assert_eq!(lines, [(2, 3), (5, 4)]);
    /// ```
    pub fn shadowed_rules(&self) -> Vec<Shadowed<'_>> {
        let mut out = Vec::new();
        for group in self.groups() {
            let parsed = group.parsed;
            let rules: Vec<RuleView<'_>> = group.rules().collect();
            let hit = |v: &RuleView<'_>| {
                let r = &parsed.rules[v.index as usize];
                Hit {
                    len: r.len,
                    allow: r.allow(),
                    at: v.at,
                }
            };
            let keys: Vec<(Box<[u8]>, bool)> = rules
                .iter()
                .map(|v| {
                    let r = &parsed.rules[v.index as usize];
                    match_key(r, r.pattern(&parsed.arena, v.at))
                })
                .collect();
            // Match key -> the position in `rules` of the winning rule so
            // far.
            let mut winners: HashMap<&(Box<[u8]>, bool), usize> = HashMap::new();
            for (i, key) in keys.iter().enumerate() {
                winners
                    .entry(key)
                    .and_modify(|w| {
                        if hit(&rules[i]).beats(&hit(&rules[*w])) {
                            *w = i;
                        }
                    })
                    .or_insert(i);
            }
            for (i, key) in keys.iter().enumerate() {
                let winner = winners[key];
                if winner != i {
                    out.push(Shadowed {
                        rule: rules[i],
                        by: rules[winner],
                    });
                }
            }
        }
        out.sort_by_key(|s| (s.rule.line(), s.rule.index));
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::{Cause, Robots};

    /// (shadowed line, winner line) pairs.
    fn shadowed(body: &str) -> Vec<(u32, u32)> {
        Robots::parse(body)
            .shadowed_rules()
            .iter()
            .map(|s| (s.line(), s.by().line()))
            .collect()
    }

    #[test]
    fn duplicates_and_ties() {
        // A later duplicate loses the full tie to the earlier one.
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /a\nDisallow: /a\n"),
            [(3, 2)]
        );
        // Disallow loses to an Allow of the same pattern, in either order.
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /a\nAllow: /a\n"),
            [(2, 3)]
        );
        assert_eq!(
            shadowed("User-agent: *\nAllow: /a\nDisallow: /a\n"),
            [(3, 2)]
        );
        // Same normal form (RFC 9309 section 2.2.2): %7E is ~, %62 is b.
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /~b\nDisallow: /%7E%62\n"),
            [(3, 2)]
        );
        // Three of a kind: both losers point at the winner.
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /a\n"),
            [(2, 3), (4, 3)]
        );
    }

    #[test]
    fn trailing_wildcards_match_the_same_paths() {
        // `/a*` and `/a*$` match what `/a` matches, and are longer.
        assert_eq!(
            shadowed("User-agent: *\nAllow: /a\nDisallow: /a*\n"),
            [(2, 3)]
        );
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /a\nAllow: /a*$\n"),
            [(2, 3)]
        );
        assert_eq!(
            shadowed("User-agent: *\nDisallow: /a*\nDisallow: /a**\n"),
            [(2, 3)]
        );
        // And the matcher agrees that the winner decides.
        let robots = Robots::parse("User-agent: *\nDisallow: /a\nAllow: /a*$\n");
        for path in ["/a", "/ab", "/a/b?c"] {
            let d = robots.explain("bot", path);
            assert_eq!(
                (d.cause(), d.rule().map(|r| r.line())),
                (Cause::Rule, Some(3))
            );
        }
    }

    #[test]
    fn different_paths_are_not_shadowed() {
        for body in [
            // Anchored and not: `/a$` matches only `/a`.
            "User-agent: *\nDisallow: /a\nAllow: /a$\n",
            // A longer rule does not cover every path of the shorter one.
            "User-agent: *\nDisallow: /a\nAllow: /ab\n",
            // `$` inside a pattern is literal.
            "User-agent: *\nDisallow: /a$*\nAllow: /a$\n",
            // Separate groups are judged separately.
            "User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /x\n",
            // A middle wildcard is not dropped.
            "User-agent: *\nDisallow: /a*b\nDisallow: /ab\n",
        ] {
            assert_eq!(shadowed(body), [], "{body}");
        }
    }

    /// A third value is not called the second: each repeat is reported
    /// alike.
    #[test]
    fn each_repeated_value_is_named_a_repeat() {
        let robots =
            Robots::parse("User-agent: *\nCrawl-delay: 1\nCrawl-delay: 2\nCrawl-delay: 3\n");
        let warnings: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
        assert_eq!(
            warnings,
            [
                "line 3: repeated Crawl-delay for the same user-agent lines; the first one is used",
                "line 4: repeated Crawl-delay for the same user-agent lines; the first one is used",
            ]
        );
    }

    #[test]
    fn literal_mode_keeps_stars() {
        let robots = crate::ParseOptions::new()
            .mk1996(true)
            .parse("User-agent: *\nDisallow: /a\nAllow: /a*\n");
        assert!(robots.shadowed_rules().is_empty());
    }
}
