//! Read-only views of a parsed robots.txt's groups and rules, for
//! explanations and tooling.

use std::fmt;
use std::time::Duration;

use crate::model::{Parsed, REWRITTEN};
use crate::record::RequestRate;

/// Whether a rule allows or disallows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// `Allow:`
    Allow,
    /// `Disallow:`
    Disallow,
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
        })
    }
}

/// One allow or disallow rule of a parsed robots.txt.
///
/// ```
/// use keepout::{Robots, RuleKind};
///
/// let robots = Robots::parse("User-agent: *\nAllow: /caf\u{e9}/*.html$\n");
/// let rule = robots.groups().next().unwrap().rules().next().unwrap();
/// assert_eq!((rule.line(), rule.kind()), (2, RuleKind::Allow));
/// assert_eq!(rule.pattern(), "/caf\u{e9}/*.html$");
/// assert_eq!(rule.normalized(), "/caf%C3%A9/*.html$");
/// assert_eq!(rule.priority(), 18); // octets of the normal form
/// assert_eq!(rule.to_string(), "Allow: /caf\u{e9}/*.html$");
/// assert_eq!(rule.group().line(), 1);
/// ```
#[derive(Clone, Copy)]
pub struct RuleView<'a> {
    pub(crate) parsed: &'a Parsed,
    pub(crate) index: u32,
    /// Its pattern's offset in the arena (a rule keeps none: see
    /// `model::placed`).
    pub(crate) at: u32,
}

impl<'a> RuleView<'a> {
    fn rule(&self) -> &'a crate::model::Rule {
        &self.parsed.rules[self.index as usize]
    }

    /// Line number (1-based).
    pub fn line(&self) -> u32 {
        self.parsed.rule_lines().get(self.index)
    }

    /// Allow or disallow.
    pub fn kind(&self) -> RuleKind {
        if self.rule().allow() {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        }
    }

    /// The pattern as written in the file (bytes that are not UTF-8 shown as
    /// U+FFFD).
    pub fn pattern(&self) -> &'a str {
        if self.rule().flags & REWRITTEN != 0
            && let Some(written) = self.parsed.written(self.index)
        {
            return written;
        }
        self.normalized()
    }

    /// The pattern in the normal form it is matched in (RFC 9309 section
    /// 2.2.2): ASCII, percent-encoded, hex upper-case.
    pub fn normalized(&self) -> &'a str {
        // The normal form is ASCII by construction (see `percent`).
        std::str::from_utf8(self.rule().pattern(&self.parsed.arena, self.at)).unwrap_or("")
    }

    /// The pattern's priority: its length in octets, normalised.
    pub fn priority(&self) -> usize {
        self.rule().len as usize
    }

    /// The group the rule belongs to.
    pub fn group(&self) -> GroupView<'a> {
        GroupView {
            parsed: self.parsed,
            index: self.parsed.group_of_rule(self.index),
        }
    }
}

/// `Disallow: /private`: the pattern as written, its control characters
/// (but tab) and bidirectional formatting characters escaped as `\u{1b}`,
/// so that a file's text shown in a log or on a terminal cannot drive it.
impl fmt::Display for RuleView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind(), Printable(self.pattern()))
    }
}

/// A rule displayed as [`RuleView`]'s Display does, its pattern cut after
/// [`BRIEF_CHARS`] characters with `…` and its length in octets: for
/// messages that cite a rule beside another ([`Shadowed`](crate::Shadowed)),
/// where one long rule can be cited by thousands of them.
pub(crate) struct Brief<'a>(pub(crate) RuleView<'a>);

/// The characters of a pattern that [`Brief`] shows.
const BRIEF_CHARS: usize = 100;

impl fmt::Display for Brief<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pattern = self.0.pattern();
        match pattern.char_indices().nth(BRIEF_CHARS) {
            None => write!(f, "{}", self.0),
            Some((cut, _)) => write!(
                f,
                "{}: {}… ({} octets)",
                self.0.kind(),
                Printable(&pattern[..cut]),
                pattern.len()
            ),
        }
    }
}

impl fmt::Debug for RuleView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule")
            .field("line", &self.line())
            .field("kind", &self.kind())
            .field("pattern", &self.pattern())
            .finish()
    }
}

/// One group of a parsed robots.txt: its user-agent lines and rules.
///
/// ```
/// let robots = keepout::Robots::parse(
///     "User-agent: *\nDisallow: /a\n\nUser-agent: ExampleBot\nCrawl-delay: 3\nAllow: /\n",
/// );
/// let groups: Vec<_> = robots.groups().collect();
/// assert!(groups[0].is_global());
/// let bot = groups[1];
/// assert_eq!((bot.index(), bot.line()), (1, 4));
/// assert_eq!(bot.agents().collect::<Vec<_>>(), ["ExampleBot"]);
/// assert_eq!(bot.crawl_delay().map(|d| d.as_secs()), Some(3));
/// assert_eq!(bot.rules().map(|r| r.to_string()).collect::<Vec<_>>(), ["Allow: /"]);
/// ```
#[derive(Clone, Copy)]
pub struct GroupView<'a> {
    pub(crate) parsed: &'a Parsed,
    pub(crate) index: u32,
}

impl<'a> GroupView<'a> {
    fn group(&self) -> crate::model::Group {
        self.parsed.group(self.index)
    }

    /// Position among the file's groups (0-based).
    pub fn index(&self) -> usize {
        self.index as usize
    }

    /// Line of the group's first user-agent line.
    pub fn line(&self) -> u32 {
        self.group().line
    }

    /// The user-agent values as written (`*`, `Googlebot`, `Foo/1.0`, ...;
    /// bytes that are not UTF-8 shown as U+FFFD); none for a group started
    /// by an empty `User-agent:` line after rules, which names no crawler.
    pub fn agents(&self) -> impl ExactSizeIterator<Item = &'a str> + use<'a> {
        let parsed = self.parsed;
        let (a, b) = self.group().agents;
        (a..b).map(move |i| parsed.agent_value(&parsed.agent(i)))
    }

    /// The product token each user-agent value names, in the order of
    /// [`agents`](GroupView::agents): what crawlers are matched against,
    /// case aside (RFC 9309 section 2.2.1). `ExampleBot` for
    /// `ExampleBot/1.0`, and `Mozilla` for `Mozilla/5.0 (compatible;
    /// ExampleBot)`, since a user-agent line names a product token, not a
    /// crawler's header; `*` for the global agent; empty for a value that
    /// starts with no token, which no crawler matches.
    ///
    /// ```
    /// let robots = keepout::Robots::parse(
    ///     "User-agent: ExampleBot/1.0\nUser-agent: *\nUser-agent: /2.1\nDisallow: /\n",
    /// );
    /// let group = robots.groups().next().unwrap();
    /// assert_eq!(group.product_tokens().collect::<Vec<_>>(), ["ExampleBot", "*", ""]);
    /// // Each token gets its group's answers:
    /// assert_eq!(robots.agent("examplebot").groups().next().map(|g| g.line()), Some(1));
    /// ```
    pub fn product_tokens(&self) -> impl ExactSizeIterator<Item = &'a str> + use<'a> {
        let parsed = self.parsed;
        let (a, b) = self.group().agents;
        (a..b).map(move |i| {
            let agent = parsed.agent(i);
            if agent.star {
                return "*";
            }
            // A product token is ASCII (`[A-Za-z0-9_-]`).
            std::str::from_utf8(parsed.agent_token(&agent)).unwrap_or("")
        })
    }

    /// Does the group name `*`?
    pub fn is_global(&self) -> bool {
        let (a, b) = self.group().agents;
        (a..b).any(|i| self.parsed.agent(i).star)
    }

    /// The group's allow and disallow rules, in file order.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = RuleView<'a>> + use<'a> {
        let parsed = self.parsed;
        let group = self.group();
        group
            .placed(&parsed.rules)
            .enumerate()
            .map(move |(i, (at, _))| RuleView {
                parsed,
                index: group.rules.0 + i as u32,
                at,
            })
    }

    /// The group's first valid `Crawl-delay`. A group whose user-agent
    /// lines are split by crawl-delay lines holds one value for each run
    /// of them: [`Robots::crawl_delay`](crate::Robots::crawl_delay) gives
    /// each crawler its own.
    pub fn crawl_delay(&self) -> Option<Duration> {
        let mut firsts = self.parsed.group_firsts(self.index);
        firsts.find_map(|e| e.crawl_delay).map(|(delay, _)| delay)
    }

    /// The group's first valid `Request-rate` (see
    /// [`crawl_delay`](GroupView::crawl_delay)).
    pub fn request_rate(&self) -> Option<RequestRate> {
        let mut firsts = self.parsed.group_firsts(self.index);
        firsts.find_map(|e| e.request_rate).map(|(rate, _)| rate)
    }
}

/// How many of a group's user-agent values its Display names.
const SHOWN_AGENTS: usize = 8;

/// `group at line 5: User-agent: a, b`: the values as written, escaped as
/// a rule's pattern is; past the eighth, how many more (`, and 2 more`): a
/// file can give one group thousands, which
/// [`agents`](GroupView::agents) lists. A group of no values (an empty
/// `User-agent:` line after rules) shows `User-agent: (empty)`.
impl fmt::Display for GroupView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "group at line {}: User-agent: ", self.line())?;
        for (i, a) in self.agents().take(SHOWN_AGENTS).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", Printable(a))?;
        }
        if self.agents().len() == 0 {
            // Started by an empty `User-agent:` line after rules: it names
            // no crawler. Say so rather than print nothing.
            f.write_str("(empty)")?;
        }
        match self.agents().len().saturating_sub(SHOWN_AGENTS) {
            0 => Ok(()),
            more => write!(f, ", and {more} more"),
        }
    }
}

/// Text from a robots.txt, displayed with its control characters (but
/// tab), Unicode's explicit bidirectional formatting characters (UAX #9
/// section 2: ALM, LRM, RLM, LRE to RLO, LRI to PDI) and the spaces and
/// invisible characters of [`UnicodeSpace`](crate::WarningKind::UnicodeSpace)
/// escaped as `\u{1b}`: a file's text shown in a log or on a terminal must
/// not move the cursor, recolour or clear the screen, nor show the rest of
/// a line right to left, and a rule ending in U+00A0 must not look like
/// one that does not. The escapes are for reading, not for reading back: a
/// backslash is not escaped, so a file holding the six characters `\u{1b}`
/// shows the same.
pub(crate) struct Printable<'a>(pub(crate) &'a str);

impl Printable<'_> {
    fn escaped(c: char) -> bool {
        (c.is_control() && c != '\t')
            || crate::lint::is_unicode_space(c)
            || matches!(
                c,
                '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            )
    }
}

impl fmt::Display for Printable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some((i, c)) = rest.char_indices().find(|&(_, c)| Printable::escaped(c)) {
            f.write_str(&rest[..i])?;
            write!(f, "{}", c.escape_unicode())?;
            rest = &rest[i + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

impl fmt::Debug for GroupView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Group")
            .field("line", &self.line())
            .field("agents", &FirstFew::of(self.agents()))
            .field("rules", &self.rules().len())
            .finish()
    }
}

/// `Debug` of a list a file can make long (a 500 KiB file holds tens of
/// thousands of agents or sitemaps): its first eight items, then how many
/// more, so that a log line stays a line.
pub(crate) struct FirstFew<T>(Vec<T>, usize);

impl<T> FirstFew<T> {
    /// The first eight of `items`, and their count.
    pub(crate) fn of(items: impl ExactSizeIterator<Item = T>) -> FirstFew<T> {
        let count = items.len();
        FirstFew(items.take(8).collect(), count)
    }
}

impl<T: fmt::Debug> fmt::Debug for FirstFew<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        list.entries(&self.0);
        if self.1 > self.0.len() {
            list.entry(&format_args!("... {} more", self.1 - self.0.len()));
        }
        list.finish()
    }
}
