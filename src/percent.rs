//! Percent-encoding normalisation of paths and patterns, RFC 9309 section 2.2.2.
//!
//! Both sides of every comparison go through the same normal form, so
//! `/foo/ツ`, `/foo/%E3%83%84` and `/foo/%e3%83%84` compare equal while `%2F`
//! stays distinct from `/`:
//!
//! 1. `%HH` of an *unreserved* character (RFC 3986 section 2.3: letters,
//!    digits and `- . _ ~`) is decoded: `%7E` becomes `~`.
//! 2. Any other `%HH` is kept encoded, hex upper-cased: `%2f` becomes `%2F`.
//! 3. A `%` not followed by two hex digits is itself encoded: `%25`. But a
//!    `%` that ends a pattern's text (at its end or before a `*`) is kept,
//!    so that it matches any escape left in a path's normal form:
//!    `Disallow: /a/%` matches `/a/%E2%80%A6`, as in Google's library, and
//!    `/a/%` (`/a/%25`), but not `/a/%41`, which step 1 makes `/a/A`.
//! 4. Octets outside printable US-ASCII, and the ASCII characters that may not
//!    appear in a URI (space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`,
//!    `}`), are encoded byte by byte: `ツ` becomes `%E3%83%84`. Bytes that are
//!    not UTF-8 are encoded the same way, never dropped.
//! 5. `*` and `$` are operators in patterns (section 2.2.3). In a *path* they
//!    are data, so a path's literal `*` and `$` become `%2A` and `%24`; a
//!    pattern can match them by spelling them that way. In a pattern, a `$`
//!    that is not the last octet is data too and becomes `%24`.
//! 6. In a pattern, an `'` after the first `?` becomes `%27`: a client sends
//!    one in an http(s) URL's query so (the URL standard's special-query
//!    percent-encode set), and `matcher::url::client_url` checks the URL as
//!    sent, so `Disallow: /s?q='` would otherwise match no URL. Read this
//!    way it matches `/s?q='x` and `/s?q=%27x` alike. An `'` in a path is
//!    sent as is, and stays; a pattern with no `?` before its `'`, such as
//!    `/*'--`, cannot say whether it is in the path or the query, and is
//!    taken as written.
//!
//! The normal form is pure ASCII. [`path`] borrows its input when it is already
//! normal, which is the common case, so checking such a URL allocates nothing.

use std::borrow::Cow;

use crate::lanes::{self, Lanes, Marks, lanes_or, lanes_where};

/// What to do with an input octet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Emitted as is.
    Keep,
    /// Emitted as `%HH`.
    Encode,
    /// Starts a percent-escape (or is encoded as `%25` when it does not).
    Percent,
    /// `*`: wildcard in a pattern, `%2A` in a path.
    Star,
    /// `$`: end anchor as a pattern's last octet, `%24` elsewhere.
    Dollar,
}

const fn class_table() -> [Class; 256] {
    let mut t = [Class::Encode; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let keep = unreserved(c)
            // RFC 3986 section 2.2 reserved (gen-delims and sub-delims),
            // less `*` and `$` which are handled apart
            || matches!(
                c,
                b':' | b'/' | b'?' | b'#' | b'[' | b']' | b'@' | b'!' | b'&' | b'\'' | b'('
                    | b')' | b'+' | b',' | b';' | b'='
            );
        t[b] = if keep {
            Class::Keep
        } else if c == b'%' {
            Class::Percent
        } else if c == b'*' {
            Class::Star
        } else if c == b'$' {
            Class::Dollar
        } else {
            Class::Encode
        };
        b += 1;
    }
    t
}

static CLASS: [Class; 256] = class_table();

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// For each octet: its value as a hex digit, with [`LOWER_HEX`] for `a`-`f`;
/// [`NOT_HEX`] for the others.
static HEX_DIGIT: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'F' => c - b'A' + 10,
            b'a'..=b'f' => (c - b'a' + 10) | LOWER_HEX,
            _ => NOT_HEX,
        };
        b += 1;
    }
    t
};
const LOWER_HEX: u8 = 0x10;
const NOT_HEX: u8 = 0x80;

/// RFC 3986 section 2.3 unreserved: `A-Z a-z 0-9 - . _ ~`.
const fn unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

/// [`unreserved`], by table.
#[inline]
fn is_unreserved(b: u8) -> bool {
    UNRESERVED[b as usize] != 0
}

/// 1 for the [`unreserved`] octets.
static UNRESERVED: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = unreserved(b as u8) as u8;
        b += 1;
    }
    t
};

/// Past the run of `%HH` escapes at `input[i..]` already in normal form
/// (upper-case hex digits, an octet that is not unreserved): the offset of
/// the first octet not in one. Non-ASCII text arrives escaped octet by
/// octet, three escapes to a Thai or Japanese letter, and a run is crossed
/// here at a few instructions per escape rather than a fresh scan each.
#[inline]
fn skip_normal_escapes(input: &[u8], mut i: usize) -> usize {
    // What `step_last` keeps as it is: two hex digits, neither lower-case,
    // whose octet is not unreserved.
    while let Some(&[b'%', hi, lo]) = input.get(i..i + 3) {
        let (h, l) = (HEX_DIGIT[hi as usize], HEX_DIGIT[lo as usize]);
        if (h | l) & (NOT_HEX | LOWER_HEX) != 0 || is_unreserved(h << 4 | l) {
            break;
        }
        i += 3;
    }
    i
}

/// Which side of the comparison is being normalised.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// A URL path (and query): `*` and `$` are data.
    Path,
    /// A rule pattern: `*` is a wildcard and a final `$` an anchor.
    Pattern,
    /// A pattern under MK1996 literal matching: `*` and `$` are data.
    LiteralPattern,
}

/// What the normaliser does at `input[i]`: `None` when the octet is already in
/// normal form, otherwise the replacement and how many input octets it eats.
#[inline]
fn step(input: &[u8], i: usize, mode: Mode) -> Option<(Replacement, usize)> {
    step_last(input, i, mode, i + 1 == input.len())
}

/// [`step`], told whether `input[i]` is the last octet of the value (which
/// decides what a `$` is).
#[inline]
fn step_last(input: &[u8], i: usize, mode: Mode, last: bool) -> Option<(Replacement, usize)> {
    let b = input[i];
    match CLASS[b as usize] {
        Class::Keep => None,
        Class::Encode => Some((Replacement::Escape(b), 1)),
        Class::Star => match mode {
            Mode::Pattern => None,
            Mode::Path | Mode::LiteralPattern => Some((Replacement::Escape(b), 1)),
        },
        Class::Dollar => match mode {
            Mode::Pattern if last => None,
            _ => Some((Replacement::Escape(b), 1)),
        },
        Class::Percent => {
            let hi = input.get(i + 1).copied().and_then(hex_value);
            let lo = input.get(i + 2).copied().and_then(hex_value);
            match (hi, lo) {
                (Some(hi), Some(lo)) => {
                    let v = hi << 4 | lo;
                    if is_unreserved(v) {
                        Some((Replacement::Byte(v), 3))
                    } else if input[i + 1].is_ascii_lowercase() || input[i + 2].is_ascii_lowercase()
                    {
                        Some((Replacement::Escape(v), 3))
                    } else {
                        None // already `%HH`, upper-case, reserved: normal
                    }
                }
                _ if cut_escape(input, i, mode, |j| j == input.len()) => None,
                _ => Some((Replacement::Escape(b'%'), 1)),
            }
        }
    }
}

/// Whether a pattern keeps the `%` at `input[i]`, which starts no escape,
/// as written rather than as data, `%25`: when the pattern's text ends
/// right after it, at the pattern's end or a `*` wildcard.
///
/// RFC 9309 says nothing of a `%` without two hex digits, and a path reads
/// it as data (RFC 3986 section 2.4). But Google's library compares
/// patterns as written, so there `Disallow: /item/*/%` matches any escape
/// after `/item/x/`. Kept, the `%` does so here too: in normal form every
/// `%` of a path starts an escape, `%25` included, so the pattern still
/// matches the URL it spells. (A hex digit after it, `/%E3%8`, could be
/// either a cut escape or data; it stays data, so that `Disallow: /a%4`
/// blocks the URL `/a%4`.) `ends_at(j)` says whether the pattern's text
/// ends at `input[j]`.
#[inline]
fn cut_escape(input: &[u8], i: usize, mode: Mode, ends_at: impl Fn(usize) -> bool) -> bool {
    mode != Mode::Path
        && (ends_at(i + 1) || (mode == Mode::Pattern && input.get(i + 1) == Some(&b'*')))
}

enum Replacement {
    /// Emit this octet as is.
    Byte(u8),
    /// Emit `%HH` for this octet.
    Escape(u8),
}

impl Replacement {
    /// Appends the octet, or its `%HH` escape.
    #[inline]
    fn write_to(self, out: &mut Vec<u8>) {
        match self {
            Replacement::Byte(v) => out.push(v),
            Replacement::Escape(v) => {
                out.extend_from_slice(&[b'%', HEX[(v >> 4) as usize], HEX[(v & 15) as usize]])
            }
        }
    }
}

/// 1 for the octets [`normalize`] must look at (anything but [`Class::Keep`]),
/// for octet-at-a-time scanning.
static SPECIAL: [u8; 256] = SPECIAL_TABLE;

const SPECIAL_TABLE: [u8; 256] = {
    let class = class_table();
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = !matches!(class[b], Class::Keep) as u8;
        b += 1;
    }
    t
};

/// [`SPECIAL`], plus `#`, which ends a value on a robots.txt line.
static SPECIAL_LINE: [u8; 256] = {
    let mut t = SPECIAL_TABLE;
    t[b'#' as usize] = 1;
    t
};

/// [`SPECIAL`] as arithmetic, for sixteen octets at a time: the compiler
/// turns [`find_from`] of it into a dozen SIMD compares (SSE2 and NEON are
/// baseline), where table lookups go one octet at a time. A test checks it
/// against the table.
#[inline(always)]
fn special(b: u8) -> bool {
    // Controls, space and non-ASCII (negative as i8); `"`; `$` `%`; `*`;
    // `<`; `>`; `\`; `^`; `` ` ``; `{` `|` `}`; DEL.
    ((b as i8) < 0x21)
        | (b == b'"')
        | (b.wrapping_sub(b'$') < 2)
        | (b == b'*')
        | (b == b'<')
        | (b == b'>')
        | (b == b'\\')
        | (b == b'^')
        | (b == b'`')
        | (b.wrapping_sub(b'{') < 3)
        | (b == 0x7F)
}

/// [`SPECIAL_LINE`] as arithmetic (the scans use [`look_lanes`]; tests
/// check it against both).
#[cfg(test)]
fn special_line(b: u8) -> bool {
    special(b) | (b == b'#')
}

/// The position of the first octet at or after `i` for which `f` holds, or
/// `input.len()`: [`lanes::find`] with `f` over sixteen lanes at once (SIMD
/// compares), and `table` (which agrees with `f`; a test checks both pairs)
/// for inputs shorter than sixteen.
#[inline(always)]
fn find_from(input: &[u8], i: usize, f: impl Fn(u8) -> bool + Copy, table: &[u8; 256]) -> usize {
    lanes::find(input, i, |v| lanes_where(v, f), table)
}

/// The position of the first octet at or after `i` that is not plainly kept,
/// or `input.len()`.
#[inline]
fn scan(input: &[u8], i: usize) -> usize {
    find_from(input, i, special, &SPECIAL)
}

/// The offset of the first octet of `input[from..]`, a URL's path and
/// query, that normalising a path would rewrite, or of its first `#`, or
/// of the first octet that a client parsing URLs by the URL standard reads
/// otherwise (the `.` of a dot segment, `/.` or `/..`, and an `'` in the
/// query, sent as `%27`; see `matcher::url::client_url`), or
/// `input.len()`: a path read up to there is already in normal form, and
/// requested as written. The octets before `from` (the URL's scheme and
/// host) are never marked, but let a short path be read in the last
/// sixteen octets of `input` rather than an octet at a time. Plain octets
/// are crossed sixteen at a time by [`look_lanes`] (about half the SIMD
/// operations of an exact test of [`SPECIAL_LINE`]: a check's URL is most
/// of what it scans), whose stops at `!` and `~` are stepped over; runs
/// of escapes already in normal form ([`skip_normal_escapes`]) are
/// crossed without a fresh scan per escape.
#[inline]
pub(crate) fn normal_until_fragment(input: &[u8], from: usize) -> usize {
    let url_marks = |v: &Lanes| {
        // `/.` (a `/` ending the sixteen stops the scan to look).
        let slash_dot = lanes::pair(v, |b| b == b'/', |b| b == b'.');
        Marks::of(look_lanes(v)).or(slash_dot)
    };
    let find = |i| lanes::find_marks(input, i, url_marks, &LOOK_URL);
    let mut i = find(from);
    // How far the path is known to hold no `?` ([`holds_query`]).
    let mut searched = from;
    loop {
        match input.get(i) {
            Some(b'%') => match skip_normal_escapes(input, i) {
                j if j == i => return i,
                j => i = find(j),
            },
            // `/.`: a dot segment if the `.` or `..` ends the segment (in
            // the query too, where it changes nothing: the caller then
            // only takes the longer way).
            Some(b'/') => {
                let after = &input[i + 1..];
                let segment = after.first() == Some(&b'.') && {
                    let after = &after[1..];
                    let after = after.strip_prefix(b".").unwrap_or(after);
                    after
                        .first()
                        .is_none_or(|&b| matches!(b, b'/' | b'?' | b'#'))
                };
                match segment {
                    true => return i + 1,
                    false => i = find(i + 1),
                }
            }
            Some(b'\'') => match holds_query(&input[..i], &mut searched) {
                true => return i,
                false => i = find(i + 1),
            },
            Some(&b) if plain_look(b) => i = find(i + 1),
            _ => return i,
        }
    }
}

/// Whether `text`, which is what comes before an `'`, holds a `?`: whether
/// the `'` is in a query, where a client sends it as `%27` (step 6, and
/// `matcher::url::client_url`). `searched` is how much of `text` is known
/// to hold none, or where its first `?` is; it is moved on, so that each
/// octet is searched once however many `'` follow.
#[inline]
fn holds_query(text: &[u8], searched: &mut usize) -> bool {
    match memchr::memchr(b'?', &text[*searched..]) {
        Some(at) => {
            *searched += at;
            true
        }
        None => {
            *searched = text.len();
            false
        }
    }
}

/// 1 for the octets [`look_lanes`] marks: [`SPECIAL_LINE`], `!`, `~`
/// and `'`.
static LOOK_LINE: [u8; 256] = {
    let mut t = SPECIAL_LINE;
    t[b'!' as usize] = 1;
    t[b'~' as usize] = 1;
    t[b'\'' as usize] = 1;
    t
};

/// 1 for the octets [`normal_until_fragment`] stops at in fewer than
/// sixteen: [`LOOK_LINE`]'s and `/` (to look for a `.` after it).
static LOOK_URL: [u8; 256] = {
    let mut t = LOOK_LINE;
    t[b'/' as usize] = 1;
    t
};

/// Octets that end a value on a robots.txt line (a NUL ends the line).
#[inline]
fn ends_value(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | b'#' | 0)
}

/// Past the spaces at `body[j..]`: their end, and whether the value ends
/// there (at what ends a value, or the body's end), so that they are
/// trailing spaces rather than part of it.
#[inline(always)]
fn value_ends_at(body: &[u8], mut j: usize) -> (usize, bool) {
    while j < body.len() && is_space(body[j]) {
        j += 1;
    }
    (j, body.get(j).is_none_or(|&c| ends_value(c)))
}

/// Spaces trimmed around values (as `parse::is_space`).
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

/// The first of sixteen octets that [`look_lanes`] marks, or 16.
#[cfg(test)]
fn first_look(v: &Lanes) -> usize {
    Marks::of(look_lanes(v)).first()
}

/// [`SPECIAL_LINE`] over sixteen octets, and also `!`, `~` and `'` (which
/// are kept as they are): 0xFF in the lanes of the octets that need a look.
/// `!` and `~`, rare in patterns, let five tests of about a dozen SIMD
/// operations stand for the twelve exact ones; an `'` is looked at because
/// a client sends one in a query as `%27` (`matcher::url::client_url`),
/// and so a pattern's is read (step 6 of the module docs).
#[inline(always)]
fn look_lanes(v: &Lanes) -> Lanes {
    lanes_or(
        lanes_or(
            // Controls, space and non-ASCII (negative as i8); `!` `"` `#`
            // `$` `%`.
            lanes_where(v, |b| (b as i8) < 0x26),
            // `{` `|` `}` `~` DEL.
            lanes_where(v, |b| (b as i8) > 0x7A),
        ),
        lanes_or(
            lanes_or(
                lanes_or(lanes_where(v, |b| b == b'*'), lanes_where(v, |b| b == b'`')),
                lanes_where(v, |b| b == b'\''),
            ),
            // `<` `>` `\` `^` (and `|` `~`, and controls): 0b0xx111x0.
            lanes_where(v, |b| b & 0x9D == 0x1C),
        ),
    )
}

/// The octets [`look_lanes`] marks that [`SPECIAL_LINE`] does not.
#[inline(always)]
fn plain_look(b: u8) -> bool {
    matches!(b, b'!' | b'~' | b'\'')
}

/// Where [`normalize_line_value`] stopped, and what it saw.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LineValue {
    pub seen: Seen,
    /// End of the value, trailing spaces excluded.
    pub end: usize,
    /// Offset of what ended the value: a CR, LF, `#` or NUL, or the body's
    /// end.
    pub stop: usize,
    /// Offset in the normal form of its first `*` wildcard (only in
    /// [`Mode::Pattern`]; meaningful when `seen.star`).
    pub first_star: usize,
    /// The normal form ends with the `$` anchor ([`Mode::Pattern`] only).
    pub anchored: bool,
    /// How far the normal form is searched for a `?` ([`holds_query`]).
    query_searched: usize,
}

/// Normalises the value that starts at `body[start]` (leading spaces already
/// skipped) and runs to the first CR, LF, `#` or NUL (trailing spaces excluded),
/// appending its normal form to `out`: the parser's fast path, which reads
/// a rule line's value in the same pass that finds its end. The result is
/// exactly `normalize_into(&body[start..end], ..)`.
#[inline(always)]
pub(crate) fn normalize_line_value(
    body: &[u8],
    start: usize,
    mode: Mode,
    out: &mut Vec<u8>,
) -> LineValue {
    let base = out.len();
    let mut v = LineValue {
        seen: Seen::default(),
        end: start,
        stop: start,
        first_star: 0,
        anchored: false,
        query_searched: 0,
    };
    let mut i = start;
    loop {
        // Copy plain octets, sixteen at a time; at the first that needs a
        // look, append all sixteen and cut back (cheaper than a copy of
        // variable length). `out` is always the normal form of
        // `body[start..i]`. (A copy before the test, shared by both
        // branches, stops the compiler from vectorising the test.) `hits`
        // keeps the chunk's lanes that need a look, for the loop below;
        // the chunk starts at `at`.
        let (at, hits) = loop {
            let Some(chunk) = body.get(i..i + 16) else {
                let plain = i;
                while i < body.len() && LOOK_LINE[body[i] as usize] == 0 {
                    i += 1;
                }
                out.extend_from_slice(&body[plain..i]);
                // Fewer than sixteen octets are left past `i`: the loop
                // below comes back here.
                break (i, Marks::NONE);
            };
            let chunk: &Lanes = chunk.try_into().expect("16 octets");
            let m = Marks::of(look_lanes(chunk));
            let k = m.first();
            if k < 16 {
                out.extend_from_slice(chunk);
                out.truncate(out.len() - 16 + k);
                let at = i;
                i += k;
                break (at, m);
            }
            out.extend_from_slice(chunk);
            i += 16;
        };
        // The octets that need a look in this chunk, each handled in turn
        // without classifying the chunk again (a value with a `*`, `%` or
        // `$` would otherwise cost a fresh chunk per operator).
        loop {
            match line_octet(body, i, mode, out, &mut v, base) {
                Ok(next) => i = next,
                Err(v) => return v,
            }
            let r = i - at;
            if r >= 16 {
                break;
            }
            let Some(chunk) = body.get(i..i + 16) else {
                break;
            };
            // `chunk[..16 - r]` is the rest of the classified chunk.
            let rest = hits.after(r);
            out.extend_from_slice(chunk);
            if rest.is_empty() {
                out.truncate(out.len() - r);
                i = at + 16;
                break;
            }
            let k = rest.first();
            out.truncate(out.len() - 16 + k);
            i += k;
        }
    }
}

/// Handles the octet at `body[i]` that [`SPECIAL_LINE`] marked, in
/// [`normalize_line_value`]: the offset of the next octet to read, or the
/// finished value when it ends here.
#[inline(always)]
fn line_octet(
    body: &[u8],
    i: usize,
    mode: Mode,
    out: &mut Vec<u8>,
    v: &mut LineValue,
    base: usize,
) -> Result<usize, LineValue> {
    let Some(&b) = body.get(i) else {
        v.end = i;
        v.stop = i;
        return Err(*v);
    };
    match b {
        b'\n' | b'\r' | b'#' | 0 => {
            v.end = i;
            v.stop = i;
            Err(*v)
        }
        b' ' | b'\t' | b'\x0B' | b'\x0C' | b'$' => {
            // Trailing spaces end the value; a `$` just before its end is
            // the anchor (RFC 9309 section 2.2.3). Other spaces and `$`
            // are data.
            let (j, last) = value_ends_at(body, i + 1);
            if b != b'$' {
                if last {
                    v.end = i;
                    v.stop = j;
                    return Err(*v);
                }
            } else if last && mode == Mode::Pattern {
                out.push(b'$');
                v.anchored = true;
                return Ok(i + 1);
            }
            // Data, and so are the spaces after it when the value goes on
            // past them: all of them now, so that a run of spaces is
            // scanned once, not once from each of its octets (which took
            // a 500 KiB run of spaces quadratic time).
            let data = if last { i + 1 } else { j };
            for &c in &body[i..data] {
                Replacement::Escape(c).write_to(out);
            }
            v.seen.rewritten = true;
            Ok(data)
        }
        b'\'' => {
            // Step 6: in a pattern's query, as a client sends it.
            if mode != Mode::Path && holds_query(&out[base..], &mut v.query_searched) {
                Replacement::Escape(b).write_to(out);
                v.seen.rewritten = true;
            } else {
                out.push(b);
            }
            Ok(i + 1)
        }
        b if plain_look(b) => {
            out.push(b);
            Ok(i + 1)
        }
        b'*' if mode == Mode::Pattern => {
            if !v.seen.star {
                v.seen.star = true;
                v.first_star = out.len() - base;
            }
            out.push(b'*');
            Ok(i + 1)
        }
        b'%' => {
            // As `step` on the value alone: past the value's end the next
            // two octets are a space, CR, LF, `#` or NUL, none a hex digit.
            let digit = |at: usize| body.get(at).map_or(NOT_HEX, |&c| HEX_DIGIT[c as usize]);
            let (hi, lo) = (digit(i + 1), digit(i + 2));
            if (hi | lo) & NOT_HEX != 0 {
                // A `%` that starts no escape is itself encoded, unless
                // the value's text ends after it (at trailing spaces and
                // what ends the value, or at a wildcard).
                if cut_escape(body, i, mode, |j| value_ends_at(body, j).1) {
                    out.push(b'%');
                } else {
                    Replacement::Escape(b'%').write_to(out);
                    v.seen.rewritten = true;
                }
                return Ok(i + 1);
            }
            let c = (hi & 15) << 4 | (lo & 15);
            if is_unreserved(c) {
                out.push(c);
            } else if (hi | lo) & LOWER_HEX != 0 {
                Replacement::Escape(c).write_to(out);
            } else {
                // `%HH` of a reserved octet, upper-case: already normal,
                // and so, often, are the escapes after it (non-ASCII text
                // is three escapes to a letter): copied as one run.
                let end = skip_normal_escapes(body, i + 3);
                out.extend_from_slice(&body[i..end]);
                return Ok(end);
            }
            v.seen.rewritten = true;
            Ok(i + 3)
        }
        _ => {
            // Any other octet here is encoded.
            match step_last(body, i, mode, false) {
                None => {
                    out.extend_from_slice(&body[i..i + 3]);
                    Ok(i + 3)
                }
                Some((rep, eat)) => {
                    rep.write_to(out);
                    v.seen.rewritten = true;
                    Ok(i + eat)
                }
            }
        }
    }
}

/// What [`normalize_into`] saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Some octet was rewritten: the output differs from the input.
    pub rewritten: bool,
    /// The output holds a `*` wildcard (only in [`Mode::Pattern`]).
    pub star: bool,
}

/// Appends the normal form of `input` to `out`, copying runs of octets that
/// are already normal whole.
pub(crate) fn normalize_into(input: &[u8], mode: Mode, out: &mut Vec<u8>) -> Seen {
    let base = out.len();
    let mut seen = normal_octets(input, mode, out);
    if mode != Mode::Path && memchr::memchr(b'\'', &out[base..]).is_some() {
        seen.rewritten |= quote_query(out, base);
    }
    seen
}

/// Step 6 for the pattern `out[start..]`: each `'` after its first `?`
/// written `%27`; whether there was one.
fn quote_query(out: &mut Vec<u8>, start: usize) -> bool {
    let Some(q) = memchr::memchr(b'?', &out[start..]) else {
        return false;
    };
    let query = start + q;
    if memchr::memchr(b'\'', &out[query..]).is_none() {
        return false;
    }
    for b in out.split_off(query) {
        match b {
            b'\'' => Replacement::Escape(b).write_to(out),
            _ => out.push(b),
        }
    }
    true
}

/// [`normalize_into`] but step 6.
fn normal_octets(input: &[u8], mode: Mode, out: &mut Vec<u8>) -> Seen {
    let mut seen = Seen::default();
    // `input[copied..i]` is normal and not yet copied.
    let (mut i, mut copied) = (0, 0);
    loop {
        i = scan(input, i);
        if i == input.len() {
            out.extend_from_slice(&input[copied..]);
            return seen;
        }
        match step(input, i, mode) {
            None => {
                // `%HH` already normal, or an operator in a pattern: keep it,
                // and do not re-examine an escape's hex digits.
                match input[i] {
                    // An escape in normal form, or a `%` that ends a
                    // pattern's text (`cut_escape`).
                    b'%' => i = skip_normal_escapes(input, i).max(i + 1),
                    b'*' => {
                        seen.star = true;
                        i += 1;
                    }
                    _ => i += 1,
                }
            }
            Some((rep, eat)) => {
                out.extend_from_slice(&input[copied..i]);
                rep.write_to(out);
                seen.rewritten = true;
                i += eat;
                copied = i;
            }
        }
    }
}

/// The offset of the first octet of `input` that normalising rewrites, or
/// `None` when `input` is already in normal form.
#[inline]
fn first_rewrite(input: &[u8], mode: Mode) -> Option<usize> {
    let mut i = 0;
    loop {
        i = scan(input, i);
        if i == input.len() {
            return None;
        }
        if step(input, i, mode).is_some() {
            return Some(i);
        }
        if input[i] == b'%' {
            i = skip_normal_escapes(input, i).max(i + 1);
        } else {
            i += 1;
        }
    }
}

/// Normalises `input` for `mode`, borrowing it when it is already normal.
/// Otherwise it allocates once: the output is at most three times the
/// rewritten tail.
pub(crate) fn normalize(input: &[u8], mode: Mode) -> Cow<'_, [u8]> {
    // Step 6 looks back for a `?`: such a pattern is normalised whole.
    let quoted = mode != Mode::Path
        && memchr::memchr(b'?', input)
            .is_some_and(|q| memchr::memchr(b'\'', &input[q..]).is_some());
    let first = if quoted {
        Some(0)
    } else {
        first_rewrite(input, mode)
    };
    match first {
        None => Cow::Borrowed(input),
        Some(i) => {
            let mut out = Vec::with_capacity(i + 3 * (input.len() - i));
            out.extend_from_slice(&input[..i]);
            // The tail keeps the input's end, so "the last octet" (`$`) and
            // the look-ahead of `%` read the same.
            normalize_into(&input[i..], mode, &mut out);
            Cow::Owned(out)
        }
    }
}

/// Normalises a URL path (with its query) for matching.
pub(crate) fn path(input: &[u8]) -> Cow<'_, [u8]> {
    normalize(input, Mode::Path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        String::from_utf8(path(s.as_bytes()).into_owned()).unwrap()
    }
    fn pat(s: &str) -> String {
        String::from_utf8(normalize(s.as_bytes(), Mode::Pattern).into_owned()).unwrap()
    }

    #[test]
    fn plain_paths_are_borrowed() {
        for s in [
            "/",
            "/a/b?c=d&e=f",
            "/%2F/%E3%83%84",
            "/~user/x.html;p=1",
            "",
        ] {
            assert!(matches!(path(s.as_bytes()), Cow::Borrowed(_)), "{s}");
        }
    }

    #[test]
    fn non_ascii_is_encoded_byte_by_byte() {
        assert_eq!(p("/foo/ツ"), "/foo/%E3%83%84");
        assert_eq!(path(b"/caf\xe9"), Cow::<[u8]>::Owned(b"/caf%E9".to_vec()));
        assert_eq!(p("/a b"), "/a%20b");
        assert_eq!(p("/a\"<>\\^`{|}"), "/a%22%3C%3E%5C%5E%60%7B%7C%7D");
    }

    #[test]
    fn unreserved_escapes_are_decoded_and_others_upper_cased() {
        assert_eq!(p("/foo/bar/%62%61%7A"), "/foo/bar/baz");
        assert_eq!(p("/%7e%2d%2E%5f"), "/~-._");
        assert_eq!(p("/foo/%e3%83%84"), "/foo/%E3%83%84");
        assert_eq!(p("/a%2fb"), "/a%2Fb");
        assert_eq!(p("/a%2Fb"), "/a%2Fb");
    }

    #[test]
    fn stray_percent_is_encoded() {
        assert_eq!(p("/100%"), "/100%25");
        assert_eq!(p("/%zz"), "/%25zz");
        assert_eq!(p("/%4"), "/%254");
        assert_eq!(pat("/a%zz"), "/a%25zz");
        assert_eq!(pat("/a%4g/"), "/a%254g/");
        assert_eq!(pat("/a% b"), "/a%25%20b");
        // Before the anchor, the `%` is the path's last octet: data.
        assert_eq!(pat("/a%$"), "/a%25$");
        assert_eq!(pat("/a%%41"), "/a%25A");
    }

    /// A `%` that ends a pattern's text is kept, a prefix of any escape
    /// in a path (`cut_escape`).
    #[test]
    fn a_pattern_may_end_with_a_percent_sign() {
        assert_eq!(pat("/itm/*/%"), "/itm/*/%");
        assert!(matches!(normalize(b"/a%", Mode::Pattern), Cow::Borrowed(_)));
        assert_eq!(pat("/a%*b"), "/a%*b");
        assert_eq!(pat("/a%**x%"), "/a%**x%");
        // With a digit after it, it is data.
        assert_eq!(pat("/%E3%8"), "/%E3%258");
        assert_eq!(pat("/a%4*"), "/a%254*");
        let literal = |s: &str| {
            String::from_utf8(normalize(s.as_bytes(), Mode::LiteralPattern).into_owned()).unwrap()
        };
        assert_eq!(literal("/a%"), "/a%");
        // Under MK1996 a `*` is data, not the end of the pattern's text.
        assert_eq!(literal("/a%*"), "/a%25%2A");
    }

    /// The normaliser as first written: one octet at a time.
    fn naive(input: &[u8], mode: Mode) -> Vec<u8> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < input.len() {
            match step(input, i, mode) {
                None => {
                    // An escape, or a `%` that ends a pattern's text.
                    let escape = input
                        .get(i + 1..i + 3)
                        .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
                    let n = if input[i] == b'%' && escape { 3 } else { 1 };
                    out.extend_from_slice(&input[i..i + n]);
                    i += n;
                }
                Some((Replacement::Byte(v), eat)) => {
                    out.push(v);
                    i += eat;
                }
                Some((Replacement::Escape(v), eat)) => {
                    out.extend_from_slice(format!("%{v:02X}").as_bytes());
                    i += eat;
                }
            }
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn chunked_scan_agrees_with_naive(
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "/", "abcdefgh", "%", "%2f", "%2F", "%41", "%zz", "*", "$", "é", " ", "~",
                    "%e", "%4",
                ][..]),
                0..24,
            ),
        ) {
            let input = pieces.concat();
            for mode in [Mode::Path, Mode::Pattern, Mode::LiteralPattern] {
                let want = naive(input.as_bytes(), mode);
                let got = normalize(input.as_bytes(), mode);
                proptest::prop_assert_eq!(&*got, &want[..], "{}", input);
                proptest::prop_assert_eq!(matches!(got, Cow::Borrowed(_)), want == input.as_bytes());
                let mut out = b"x".to_vec();
                let seen = normalize_into(input.as_bytes(), mode, &mut out);
                proptest::prop_assert_eq!(&out[1..], &want[..]);
                proptest::prop_assert_eq!(seen.rewritten, want != input.as_bytes());
                proptest::prop_assert_eq!(seen.star, mode == Mode::Pattern && want.contains(&b'*'));
            }
        }
    }

    proptest::proptest! {
        /// The 16-octet scan, its last overlapping step included, against
        /// the tables one octet at a time, from every start.
        #[test]
        fn scans_agree_with_the_tables(
            input in proptest::collection::vec(
                proptest::sample::select(&[
                    b'a', b'a', b'a', b'a', b'/', b'#', b'%', b'%', b' ', 0xC3, b'*', b'E', b'0', b'e',
                    b'~', b'!',
                ][..]),
                0..48,
            ),
        ) {
            let first = |from: usize, table: &[u8; 256]| {
                (from..input.len()).find(|&j| table[input[j] as usize] == 1).unwrap_or(input.len())
            };
            for i in 0..=input.len() {
                proptest::prop_assert_eq!(scan(&input, i), first(i, &SPECIAL), "{:?} from {}", input, i);
            }
            // Normal up to there, and then a `#` or an octet to rewrite.
            let n = normal_until_fragment(&input, 0);
            proptest::prop_assert!(n >= first(0, &SPECIAL_LINE));
            proptest::prop_assert!(matches!(path(&input[..n]), Cow::Borrowed(_)), "{:?}", input);
            proptest::prop_assert!(
                n == input.len() || input[n] == b'#' || first_rewrite(&input[n..], Mode::Path) == Some(0),
                "{:?} at {}", input, n
            );
        }

        /// The octets before a path, beside which a short path is read in
        /// one 16-octet step, change nothing.
        #[test]
        fn octets_before_the_path_change_nothing(
            input in proptest::collection::vec(
                proptest::sample::select(&[
                    b'a', b'a', b'/', b'/', b'.', b'.', b'\'', b'?', b'#', b'%', b'2', b'E', 0xC3,
                    b'~',
                ][..]),
                0..40,
            ),
        ) {
            for cut in 0..=input.len() {
                let alone = normal_until_fragment(&input[cut..], 0);
                proptest::prop_assert_eq!(
                    normal_until_fragment(&input, cut), cut + alone, "{:?} from {}", input, cut
                );
            }
        }
    }

    #[test]
    fn predicates_match_tables() {
        for b in 0..=255u8 {
            assert_eq!(special(b), SPECIAL[b as usize] == 1, "{b:#x}");
            assert_eq!(special_line(b), SPECIAL_LINE[b as usize] == 1, "{b:#x}");
            // Each octet in every lane, the others plain.
            for lane in 0..16 {
                let mut v = [b'a'; 16];
                v[lane] = b;
                let looked = special_line(b) || plain_look(b);
                assert_eq!(LOOK_LINE[b as usize] == 1, looked, "{b:#x}");
                let want = if looked { lane } else { 16 };
                assert_eq!(first_look(&v), want, "{b:#x} in lane {lane}");
            }
        }
    }

    proptest::proptest! {
        /// The parser's line scanner against `normalize_into` on the value
        /// alone, with values long enough to take the 16-octet path.
        #[test]
        fn line_value_agrees_with_normalize_into(
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "/", "abcdefghijklmno", "%", "%2f", "%2F", "%41", "%zz", "*", "$", "é",
                    "%e3", "%7E", "%4a", "%G1", "%E3%83%84", "%2A", "%7e", "%e", "%4",
                    " ", "\t", "~", "!", "\"", "{", "|", "}", "<", ">", "^", "`", "\\", "\u{7f}",
                ][..]),
                0..40,
            ),
            end in proptest::sample::select(&["", "\n", "\r\n", " \n", "$ \t#x", "#", "\0", "  "][..]),
            literal in proptest::bool::weighted(0.2),
        ) {
            let mode = if literal { Mode::LiteralPattern } else { Mode::Pattern };
            let value = pieces.concat();
            let body = format!("  {value}{end}");
            let body = body.as_bytes();
            // Leading spaces are skipped by the caller.
            let start = body.iter().position(|&b| !is_space(b)).unwrap_or(body.len());
            let mut out = b"x".to_vec();
            let v = normalize_line_value(body, start, mode, &mut out);
            let written = &body[start..v.end];
            // The value ends at the first CR, LF, `#` or NUL, less trailing
            // spaces.
            let stop = body[start..]
                .iter()
                .position(|&b| ends_value(b))
                .map_or(body.len(), |p| p + start);
            proptest::prop_assert_eq!(v.stop, stop);
            proptest::prop_assert_eq!(written, crate::parse::trim(&body[start..stop]));
            let mut want = Vec::new();
            let seen = normalize_into(written, mode, &mut want);
            proptest::prop_assert_eq!(&out[1..], &want[..]);
            proptest::prop_assert_eq!(v.seen, seen);
            if seen.star {
                proptest::prop_assert_eq!(Some(v.first_star), want.iter().position(|&b| b == b'*'));
            }
            proptest::prop_assert_eq!(
                v.anchored,
                mode == Mode::Pattern && want.last() == Some(&b'$')
            );
        }
    }

    #[test]
    fn operators_are_data_in_paths() {
        assert_eq!(p("/a*b$"), "/a%2Ab%24");
        assert_eq!(pat("/a*b$"), "/a*b$");
        assert_eq!(pat("/a$b"), "/a%24b");
        assert_eq!(pat("/a$$"), "/a%24$");
        assert_eq!(
            String::from_utf8(normalize(b"/a*$", Mode::LiteralPattern).into_owned()).unwrap(),
            "/a%2A%24"
        );
    }
}
