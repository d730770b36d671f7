//! Lint-style warnings the parser records per line: what a robots.txt author
//! should fix, and what keepout accepted leniently.

use std::fmt;

use crate::parse::Directive;

/// Something questionable on one line of a robots.txt.
///
/// ```
/// use keepout::{Robots, WarningKind};
/// let robots = Robots::parse("Disallow: /early\nUser-agent: *\nDisalow: /x\n");
/// let kinds: Vec<_> = robots.warnings().iter().map(|w| (w.line, &w.kind)).collect();
/// assert!(matches!(kinds[0], (1, WarningKind::RuleOutsideGroup)));
/// assert!(matches!(kinds[1], (3, WarningKind::Misspelled { .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Line number (1-based).
    pub line: u32,
    /// What is wrong.
    pub kind: WarningKind,
}

/// The kinds of [`Warning`].
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
    /// user-agent line; ignored (RFC 9309 section 2.1).
    RuleOutsideGroup,
    /// A pattern that starts with neither `/` nor `*`, so it can only match
    /// after a `*` (RFC 9309 section 2.2.2 requires a leading `/`).
    PatternNotRooted,
    /// A user-agent value with no product token (`[A-Za-z0-9_-]`) at its
    /// start, which no crawler can match.
    InvalidUserAgent,
    /// A value that could not be read, e.g. `Crawl-delay: soon`; ignored.
    InvalidValue {
        /// The directive whose value is invalid.
        directive: Directive,
    },
    /// A second crawl-delay or request-rate in one group; the first is used.
    Duplicate {
        /// The repeated directive.
        directive: Directive,
    },
    /// An empty value where one is required (sitemap, host, user-agent).
    EmptyValue {
        /// The directive with no value.
        directive: Directive,
    },
    /// A line longer than [`MAX_LINE_LEN`](crate::limits::MAX_LINE_LEN); the rest
    /// was ignored, as Google's parser does.
    LineTooLong,
    /// A NUL byte; the rest of the line was ignored.
    NulByte,
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
            WarningKind::UnknownKey { key } => write!(f, "unknown key {key:?} (kept as a record)"),
            WarningKind::MissingColon => f.write_str("missing ':' after the key"),
            WarningKind::Unparsable => f.write_str("not a 'key: value' line; ignored"),
            WarningKind::RuleOutsideGroup => {
                f.write_str("rule before any user-agent line; ignored")
            }
            WarningKind::PatternNotRooted => {
                f.write_str("pattern starts with neither '/' nor '*'; it matches no path")
            }
            WarningKind::InvalidUserAgent => {
                f.write_str("user-agent value has no product token; no crawler matches it")
            }
            WarningKind::InvalidValue { directive } => {
                write!(f, "invalid {directive} value; ignored")
            }
            WarningKind::Duplicate { directive } => {
                write!(f, "second {directive} in the group; the first one is used")
            }
            WarningKind::EmptyValue { directive } => write!(f, "empty {directive} value; ignored"),
            WarningKind::LineTooLong => write!(
                f,
                "line longer than {} bytes; the rest was ignored",
                crate::limits::MAX_LINE_LEN
            ),
            WarningKind::NulByte => f.write_str("NUL byte; the rest of the line was ignored"),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}
