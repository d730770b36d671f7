//! Why a URL is allowed or disallowed: the deciding line and its group.
//! [`Robots::explain`](crate::Robots::explain) makes a [`Decision`] from
//! the same match as `is_allowed`, and shows the line and the groups
//! through the views of `view`.

use std::fmt;

use crate::agent::AgentMatch;
use crate::model::Parsed;
use crate::view::{GroupView, RuleView};

/// What decided a [`Decision`].
///
/// ```
/// use keepout::{Cause, Robots};
///
/// let robots = Robots::parse("User-agent: *\nDisallow: /private\n");
/// assert_eq!(robots.explain("bot", "/private/x").cause(), Cause::Rule);
/// assert_eq!(robots.explain("bot", "/public").cause(), Cause::NoMatchingRule);
/// assert_eq!(robots.explain("bot", "/robots.txt").cause(), Cause::RobotsTxt);
/// assert_eq!(Robots::disallow_all().explain("bot", "/").cause(), Cause::Unreachable);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cause {
    /// A rule matched: the longest match, `Allow` winning ties
    /// ([`Decision::rule`] says which).
    Rule,
    /// Groups apply to the crawler but none of their rules matches: allowed.
    NoMatchingRule,
    /// No group names the crawler and there is no `*` group: allowed.
    NoGroup,
    /// `/robots.txt` itself is always allowed (RFC 9309 section 2.2.2).
    RobotsTxt,
    /// robots.txt is unavailable (e.g. 404): everything is allowed
    /// (RFC 9309 section 2.3.1.3).
    Unavailable,
    /// robots.txt is unreachable (e.g. 503, timeout): everything is
    /// disallowed (RFC 9309 section 2.3.1.4).
    Unreachable,
}

/// `rule`, `no matching rule`, `no group`, `robots.txt`, `unavailable`,
/// `unreachable`: short names for logs (a [`Decision`]'s Display says more).
impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cause::Rule => "rule",
            Cause::NoMatchingRule => "no matching rule",
            Cause::NoGroup => "no group",
            Cause::RobotsTxt => "robots.txt",
            Cause::Unavailable => "unavailable",
            Cause::Unreachable => "unreachable",
        })
    }
}

/// The answer to "may this agent fetch this URL?", with its reason.
///
/// ```
/// use keepout::{Cause, Robots, RuleKind};
/// let robots = Robots::parse("User-agent: *\nDisallow: /private\nAllow: /private/open\n");
/// let d = robots.explain("ExampleBot/1.0", "https://example.com/private/x");
/// assert!(!d.allowed());
/// assert_eq!(d.cause(), Cause::Rule);
/// let rule = d.rule().unwrap();
/// assert_eq!((rule.line(), rule.kind(), rule.pattern()), (2, RuleKind::Disallow, "/private"));
/// assert_eq!(rule.group().line(), 1);
/// assert_eq!(d.to_string(), "disallowed by line 2 'Disallow: /private' (group at line 1: User-agent: *)");
/// ```
#[derive(Clone, Copy)]
pub struct Decision<'a> {
    pub(crate) parsed: &'a Parsed,
    pub(crate) allowed: bool,
    pub(crate) cause: Cause,
    /// The deciding rule: its index and its pattern's offset.
    pub(crate) rule: Option<(u32, u32)>,
    pub(crate) groups: &'a [u32],
    pub(crate) agent_match: AgentMatch,
}

impl<'a> Decision<'a> {
    /// May the URL be fetched?
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// What decided.
    pub fn cause(&self) -> Cause {
        self.cause
    }

    /// The deciding rule, when [`cause`](Decision::cause) is [`Cause::Rule`].
    pub fn rule(&self) -> Option<RuleView<'a>> {
        self.rule.map(|(index, at)| RuleView {
            parsed: self.parsed,
            index,
            at,
        })
    }

    /// The groups that applied to the crawler (merged, RFC 9309 section
    /// 2.2.1), in file order.
    pub fn groups(&self) -> impl ExactSizeIterator<Item = GroupView<'a>> + use<'a> {
        let parsed = self.parsed;
        self.groups
            .iter()
            .map(move |&index| GroupView { parsed, index })
    }

    /// How the groups were chosen: by the crawler's name, by `*`, or none.
    pub fn agent_match(&self) -> AgentMatch {
        self.agent_match
    }

    /// Did a `*` group have rules that did not apply because groups name
    /// the crawler? Such a crawler obeys its own groups only (RFC 9309
    /// section 2.2.1), even when they have no rule at all
    /// ([`GroupWithoutRules`](crate::WarningKind::GroupWithoutRules)),
    /// which is often not what the file's author meant.
    ///
    /// ```
    /// use keepout::{Cause, Robots};
    ///
    /// let robots = Robots::parse("User-agent: *\nDisallow: /search\n\nUser-agent: bingbot\nCrawl-delay: 1\n");
    /// let d = robots.explain("bingbot", "https://example.com/search");
    /// assert!(d.allowed() && d.star_rules_skipped());
    /// assert_eq!(
    ///     d.to_string(),
    ///     "allowed: no rule matches in group at line 4: User-agent: bingbot (the '*' group's rules do not apply: a group names this crawler)",
    /// );
    /// assert!(!robots.explain("OtherBot", "https://example.com/search").star_rules_skipped());
    /// ```
    pub fn star_rules_skipped(&self) -> bool {
        if self.agent_match != AgentMatch::Named {
            return false;
        }
        // A `*` group that also names the crawler applies: it is one of
        // `groups`. Both lists are in file order, so one walk finds each
        // `*` group from where the one before it was, by galloping: one
        // `*` group costs a search of `groups`, and a file of thousands of
        // groups each naming `*` and the crawler costs one pass (11,625 of
        // them: 16 µs a call in a release build, 270 µs when each was a
        // search of all of `groups`).
        let mut rest = self.groups;
        self.parsed.star_groups().iter().any(|&g| {
            let at = match rest.first() {
                Some(&first) if first >= g => 0,
                _ => gallop(rest, g),
            };
            if rest.get(at) == Some(&g) {
                rest = &rest[at + 1..];
                return false;
            }
            rest = &rest[at..];
            let rules = self.parsed.group(g).rules;
            rules.1 > rules.0
        })
    }
}

/// Where `x` is in `sorted`, or would go: the first position whose value is
/// not below it, in about `2 log2 i` steps for an answer `i` (an
/// exponential search, then a binary one).
fn gallop(sorted: &[u32], x: u32) -> usize {
    // Everything before `lo` is below `x`.
    let (mut lo, mut step) = (0, 1);
    while lo + step <= sorted.len() && sorted[lo + step - 1] < x {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step).min(sorted.len());
    lo + sorted[lo..hi].partition_point(|&v| v < x)
}

/// How many of the groups that applied a [`Decision`]'s Display names.
const SHOWN_GROUPS: usize = 4;

impl fmt::Display for Decision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.allowed {
            "allowed"
        } else {
            "disallowed"
        })?;
        match self.cause {
            Cause::Rule => match self.rule() {
                Some(rule) => {
                    write!(f, " by line {} '{}' ({})", rule.line(), rule, rule.group())
                }
                None => Ok(()),
            },
            Cause::NoMatchingRule => {
                f.write_str(": no rule matches in ")?;
                // `; ` between groups: `, ` is between a group's agents. A
                // file can merge thousands of groups: the first few name
                // them well enough.
                for (i, g) in self.groups().take(SHOWN_GROUPS).enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{g}")?;
                }
                match self.groups.len().saturating_sub(SHOWN_GROUPS) {
                    0 => Ok(()),
                    1 => f.write_str("; and 1 more group"),
                    more => write!(f, "; and {more} more groups"),
                }?;
                if self.star_rules_skipped() {
                    f.write_str(
                        " (the '*' group's rules do not apply: a group names this crawler)",
                    )?;
                }
                Ok(())
            }
            Cause::NoGroup => f.write_str(": no group for this user-agent and no '*' group"),
            Cause::RobotsTxt => f.write_str(": /robots.txt is always allowed"),
            Cause::Unavailable => f.write_str(": robots.txt unavailable, everything allowed"),
            Cause::Unreachable => f.write_str(": robots.txt unreachable, everything disallowed"),
        }
    }
}

impl fmt::Debug for Decision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decision")
            .field("allowed", &self.allowed)
            .field("cause", &self.cause)
            .field("rule", &self.rule())
            .field("agent_match", &self.agent_match)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::gallop;

    #[test]
    fn gallop_finds_what_a_binary_search_finds() {
        for len in 0..40u32 {
            // Even values, so that odd ones fall between them.
            let sorted: Vec<u32> = (0..len).map(|i| 2 * i + 2).collect();
            for x in 0..2 * len + 4 {
                let want = sorted.partition_point(|&v| v < x);
                assert_eq!(gallop(&sorted, x), want, "{x} in {len} values");
            }
        }
    }
}
