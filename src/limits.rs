//! Every limit keepout applies, and what happens past it.
//!
//! | limit | value | past it |
//! |---|---|---|
//! | line length | [`MAX_LINE_LEN`] = 16,663 octets | the rest of the line is ignored, as in Google's parser; a [`WarningKind::LineTooLong`](crate::WarningKind::LineTooLong) warning |
//! | body parsed by [`Robots::parse`](crate::Robots::parse) | 2 GiB | the rest is ignored (offsets are 32-bit) |
//! | rules, groups, user-agents per file | none | memory and parse time grow linearly with the body |
//! | pattern matching | O(path + pattern) per rule | no backtracking, whatever the pattern |
//!
//! The fetcher adds its own limits (body cap, redirects, timeouts); see
//! [`fetch`](crate::fetch).

/// The longest line read, in octets: 2083 × 8 − 1, the limit of Google's
/// parser. RFC 9309 sets none.
pub const MAX_LINE_LEN: usize = 2083 * 8 - 1;
