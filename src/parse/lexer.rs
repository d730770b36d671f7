//! Splitting a robots.txt into lines and lines into key and value
//! (RFC 9309 section 2.2, with the leniency real files need).

use memchr::{memchr, memchr2, memchr3};

use crate::lanes::{Lanes, Marks, lanes_or, lanes_where};
use crate::limits::MAX_LINE_LEN;
use crate::percent::{self, Mode, Seen};
// The octets of a key the fast path reads are those of a product token:
// letters, digits, `-`, `_`.
use super::TOKEN as KEY;

/// A line, with comment and surrounding whitespace removed.
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: u32,
    /// The content before any `#` comment, trimmed.
    pub content: &'a [u8],
    /// The line was longer than `MAX_LINE_LEN` and was cut there, not
    /// inside a comment.
    pub too_long: bool,
    /// The line held a NUL byte and was cut there.
    pub nul: bool,
}

/// Iterates over the lines of a body. Line ends are LF, CR or CRLF
/// (RFC 9309 section 2.2: `EOL = %x0D / %x0A / %x0D.0A`).
pub(crate) struct Lines<'a> {
    body: &'a [u8],
    pos: usize,
    number: u32,
}

impl<'a> Lines<'a> {
    pub fn new(body: &'a [u8]) -> Lines<'a> {
        let pos = if body.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            bom_start_len(body)
        };
        Lines {
            body,
            pos,
            number: 0,
        }
    }
}

/// A UTF-8 byte order mark is not part of the first line (`Lines::new`),
/// nor is the start of one cut short (`EF` or `EF BB`), which Google's
/// parser skips too: the length of that start. (Out of line: inlined, a
/// test of all three cost the parse's loop 2% more instructions, by how
/// the compiler then laid that loop out.)
#[cold]
#[inline(never)]
fn bom_start_len(body: &[u8]) -> usize {
    body.iter()
        .zip(b"\xEF\xBB\xBF")
        .take_while(|(a, b)| a == b)
        .count()
}

/// What [`Lines::fast`] did with the next line.
pub(crate) enum Fast {
    /// Nothing: the line needs the general path ([`Lines::next`]).
    No,
    /// A blank or comment-only line, consumed.
    Skipped,
    /// A `key: value` line of another key (or a rule line outside any
    /// group), consumed: `body[key.0..key.1]`, `body[value.0..value.1]`,
    /// both trimmed. `known` is what the lexer recognised of the key
    /// (written exactly so), so that `User-agent` need not be read again
    /// (`Sitemap` lines come as [`Fast::Sitemap`]).
    Record {
        number: u32,
        key: (usize, usize),
        value: (usize, usize),
        known: Key,
    },
    /// A `Sitemap` line, consumed: its value, `body[value.0..value.1]`
    /// (trimmed), has been appended to the text (the builder's array of
    /// agent values and sitemap URLs) at `at` as written.
    /// `ascii`: every octet of it is ASCII (else the builder writes it
    /// again, as text).
    Sitemap {
        number: u32,
        value: (usize, usize),
        at: usize,
        ascii: bool,
    },
    /// An `Allow` or `Disallow` line, consumed; its value's normal form has
    /// been appended to the arena.
    Rule {
        number: u32,
        allow: bool,
        /// The value as written: `body[value.0..value.1]`.
        value: (usize, usize),
        /// Where its normal form starts in the arena.
        at: usize,
        seen: Seen,
        /// Offset of the first `*` in the normal form, when `seen.star`.
        first_star: usize,
        /// The normal form ends with the `$` anchor.
        anchored: bool,
    },
}

impl<'a> Lines<'a> {
    /// Where the next line starts.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// How many lines have been read.
    #[inline]
    pub fn number(&self) -> u32 {
        self.number
    }

    /// Moves past `lines` whole lines that end at `end` (the start of the
    /// next line), read by the caller.
    pub fn skip(&mut self, end: usize, lines: u32) {
        self.pos = end;
        self.number += lines;
    }

    /// Moves past the line whose end (CR, LF or the body's end) is at `end`.
    #[inline]
    fn finish_line(&mut self, end: usize) {
        let mut next = end + 1;
        if self.body.get(end) == Some(&b'\r') && self.body.get(end + 1) == Some(&b'\n') {
            next += 1;
        }
        self.pos = next;
        self.number = self.number.saturating_add(1);
    }

    /// Moves past the line that starts at `start` and whose value stopped
    /// at `stop` (a CR, LF, `#` or NUL, or the body's end), reading the
    /// stop octet once: false, consuming nothing, when the line holds a NUL
    /// or is longer than `MAX_LINE_LEN` (the general path reads those).
    #[inline(always)]
    fn finish_value_line(&mut self, start: usize, stop: usize) -> bool {
        let body = self.body;
        let (end, next) = match body.get(stop) {
            Some(b'\n') => (stop, stop + 1),
            Some(b'\r') => (
                stop,
                stop + 1 + (body.get(stop + 1) == Some(&b'\n')) as usize,
            ),
            Some(b'#') => {
                let end = line_end(body, stop);
                match body.get(end) {
                    Some(0) => return false,
                    Some(&b) => (
                        end,
                        end + 1 + (b == b'\r' && body.get(end + 1) == Some(&b'\n')) as usize,
                    ),
                    None => (end, end + 1),
                }
            }
            Some(_) => return false, // NUL
            None => (stop, stop + 1),
        };
        if end - start > MAX_LINE_LEN {
            return false;
        }
        self.pos = next;
        // No overflow: a line is at least one octet and a body at most
        // `MAX_BODY_LEN` (2^30).
        self.number += 1;
        true
    }

    /// The parser's fast path for the lines most of a robots.txt is made of,
    /// each read in one pass: blank lines, comment lines, and `key: value`
    /// lines whose key starts the line. The value of an `Allow`/`Disallow`
    /// line is normalised into `arena` as it is read (when `rule_mode` is
    /// given, i.e. inside a group), and that of a `Sitemap` line copied
    /// into `text` as it is read. A line of any other shape, one past
    /// `MAX_LINE_LEN`, or one holding a NUL, is left to
    /// [`next`](Iterator::next); the outcome is the same as if it had read
    /// the line.
    #[inline]
    pub fn fast(
        &mut self,
        rule_mode: Option<Mode>,
        arena: &mut Vec<u8>,
        text: &mut Vec<u8>,
    ) -> Fast {
        let body = self.body;
        let start = self.pos;
        let Some(&first) = body.get(start) else {
            return Fast::No;
        };
        match first {
            b'\n' | b'\r' => {
                self.finish_line(start);
                return Fast::Skipped;
            }
            b'#' => {
                let end = line_end(body, start);
                if body.get(end) == Some(&0) || end - start > MAX_LINE_LEN {
                    return Fast::No;
                }
                self.finish_line(end);
                return Fast::Skipped;
            }
            _ => {}
        }
        // The key: letters, digits, `-`, `_`; then spaces and a colon. The
        // four keys nearly every line has are recognised whole.
        let (mut i, kind) = match known_key(body, start) {
            Some(known) => known,
            None => {
                let mut i = start;
                while i < body.len() && KEY[body[i] as usize] != 0 {
                    i += 1;
                }
                (i, rule_key(&body[start..i]).map_or(Key::Other, Key::Rule))
            }
        };
        let key = (start, i);
        if key.1 == key.0 {
            return Fast::No;
        }
        // Nearly always the colon follows the key at once.
        if body.get(i) != Some(&b':') {
            while i < body.len() && is_space(body[i]) {
                i += 1;
            }
            if body.get(i) != Some(&b':') {
                return Fast::No;
            }
        }
        i += 1;
        // Nearly always one space, then the value.
        if body.get(i) == Some(&b' ') {
            i += 1;
        }
        while i < body.len() && is_space(body[i]) {
            i += 1;
        }
        let value = i;
        if let Some(mode) = rule_mode
            && let Key::Rule(allow) = kind
        {
            let mark = arena.len();
            let v = percent::normalize_line_value(body, value, mode, arena);
            if !self.finish_value_line(start, v.stop) {
                arena.truncate(mark);
                return Fast::No;
            }
            return Fast::Rule {
                number: self.number,
                allow,
                value: (value, v.end),
                at: mark,
                seen: v.seen,
                first_star: v.first_star,
                anchored: v.anchored,
            };
        }
        if kind == Key::Sitemap {
            // Found and copied in one pass, as a rule's value is.
            let mark = text.len();
            let (stop, ascii) = copy_value(body, value, text);
            if !self.finish_value_line(start, stop) {
                text.truncate(mark);
                return Fast::No;
            }
            let mut value_end = stop;
            while value_end > value && is_space(body[value_end - 1]) {
                value_end -= 1;
            }
            text.truncate(mark + (value_end - value));
            return Fast::Sitemap {
                number: self.number,
                value: (value, value_end),
                at: mark,
                ascii,
            };
        }
        let stop = scan_to(&VALUE_STOP, body, value);
        if !self.finish_value_line(start, stop) {
            return Fast::No;
        }
        let mut value_end = stop;
        while value_end > value && is_space(body[value_end - 1]) {
            value_end -= 1;
        }
        Fast::Record {
            number: self.number,
            key,
            value: (value, value_end),
            known: kind,
        }
    }
}

/// 1 for the octets that end a value: CR, LF, `#` and NUL.
static VALUE_STOP: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'\n' as usize] = 1;
    t[b'\r' as usize] = 1;
    t[b'#' as usize] = 1;
    t[0] = 1;
    t
};

/// The offset of the first octet at or after `i` marked in `table` (which
/// must be [`VALUE_STOP`]), or the body's length; sixteen octets per step.
/// (Not [`lanes::find`](crate::lanes::find): its tail step, inlined here,
/// took the parse of the corpus from 31.90 M to 32.34 M instructions.)
#[inline]
fn scan_to(table: &[u8; 256], body: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = body.get(i..i + 16) {
        let v: &Lanes = chunk.try_into().expect("16 octets");
        let k = Marks::of(value_stops(v)).first();
        i += k;
        if k < 16 {
            return i;
        }
    }
    while i < body.len() && table[body[i] as usize] == 0 {
        i += 1;
    }
    i
}

/// The lanes of `v` that [`VALUE_STOP`] marks.
#[inline(always)]
fn value_stops(v: &Lanes) -> Lanes {
    lanes_or(
        lanes_or(
            lanes_where(v, |b| b == b'\n'),
            lanes_where(v, |b| b == b'\r'),
        ),
        lanes_or(lanes_where(v, |b| b == b'#'), lanes_where(v, |b| b == 0)),
    )
}

/// [`scan_to`] with [`VALUE_STOP`], which also tells whether every octet
/// it crosses is ASCII (the same sixteen-octet steps, one more test each),
/// then appends those octets to `out`: the stop, and that answer.
#[inline]
fn copy_value(body: &[u8], from: usize, out: &mut Vec<u8>) -> (usize, bool) {
    let mut i = from;
    let mut ascii = true;
    let stop = loop {
        let Some(chunk) = body.get(i..i + 16) else {
            while i < body.len() && VALUE_STOP[body[i] as usize] == 0 {
                ascii &= body[i].is_ascii();
                i += 1;
            }
            break i;
        };
        let v: &Lanes = chunk.try_into().expect("16 octets");
        let stops = Marks::of(value_stops(v));
        let high = Marks::of(lanes_where(v, |b| b >= 0x80));
        if !stops.is_empty() {
            let k = stops.first();
            ascii &= high.before(k).is_empty();
            break i + k;
        }
        ascii &= high.is_empty();
        i += 16;
    };
    out.extend_from_slice(&body[from..stop]);
    (stop, ascii)
}

/// The offset of the first CR, LF or NUL at or after `from`, or the body's
/// length.
#[inline]
fn line_end(body: &[u8], from: usize) -> usize {
    memchr3(b'\n', b'\r', 0, &body[from..]).map_or(body.len(), |j| from + j)
}

/// What the fast path knows of a line's key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Key {
    /// `Allow` (true) or `Disallow` (false), in any case.
    Rule(bool),
    /// `User-agent`, in any case.
    UserAgent,
    /// `Sitemap`, in any case.
    Sitemap,
    /// Any other key, to be classified by the caller.
    Other,
}

/// The end of `Disallow`, `Allow`, `User-agent` or `Sitemap` (in any case) at
/// `body[i..]` when one is there and no other key octet follows, and which
/// it is. Or-ing 0x20 lower-cases a letter and makes no other octet a letter
/// (it is not applied to the `-`).
#[inline]
fn known_key(body: &[u8], i: usize) -> Option<(usize, Key)> {
    let word = u64::from_le_bytes(body.get(i..i + 8)?.try_into().ok()?);
    let (end, kind) = if word | 0x2020_2020_2020_2020 == u64::from_le_bytes(*b"disallow") {
        (i + 8, Key::Rule(false))
    } else if word & 0xFF_FFFF_FFFF | 0x20_2020_2020 == u64::from_le_bytes(*b"allow\0\0\0") {
        (i + 5, Key::Rule(true))
    } else if word | 0x2020_2000_2020_2020 == u64::from_le_bytes(*b"user-age")
        && body
            .get(i + 8..i + 10)
            .is_some_and(|nt| nt.eq_ignore_ascii_case(b"nt"))
    {
        (i + 10, Key::UserAgent)
    } else if word & 0xFF_FFFF_FFFF_FFFF | 0x20_2020_2020_2020 == u64::from_le_bytes(*b"sitemap\0")
    {
        (i + 7, Key::Sitemap)
    } else {
        return None;
    };
    match body.get(end) {
        // Nearly always the colon; tested first, so the caller's test for
        // it is known.
        Some(b':') => Some((end, kind)),
        Some(&b) if KEY[b as usize] != 0 => None,
        _ => Some((end, kind)),
    }
}

/// Is `key` `Allow` or `Disallow` (in any case), and which? One 8-octet
/// compare: or-ing 0x20 lower-cases a letter and makes no other octet a
/// letter.
#[inline]
fn rule_key(key: &[u8]) -> Option<bool> {
    match *key {
        [a, b, c, d, e, f, g, h] => {
            let word = u64::from_le_bytes([a, b, c, d, e, f, g, h]) | 0x2020_2020_2020_2020;
            (word == u64::from_le_bytes(*b"disallow")).then_some(false)
        }
        [a, b, c, d, e] => {
            let word = u64::from_le_bytes([a, b, c, d, e, 0, 0, 0]) | 0x20_2020_2020;
            (word == u64::from_le_bytes(*b"allow\0\0\0")).then_some(true)
        }
        _ => None,
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.body.get(self.pos..).filter(|r| !r.is_empty())?;
        // One search finds the line end or the comment start, whichever
        // comes first; a comment costs a second search for the line end.
        let (comment, end) = match memchr3(b'\n', b'\r', b'#', rest) {
            Some(i) if rest[i] == b'#' => (
                Some(i),
                memchr2(b'\n', b'\r', &rest[i..]).map_or(rest.len(), |j| i + j),
            ),
            Some(i) => (None, i),
            None => (None, rest.len()),
        };
        let mut next = self.pos + end + 1;
        if rest.get(end) == Some(&b'\r') && rest.get(end + 1) == Some(&b'\n') {
            next += 1;
        }
        self.pos = next;
        self.number = self.number.saturating_add(1);
        // Cut with more than whitespace and a comment past the cut (a
        // comment starting at the limit or before it loses nothing, nor do
        // the spaces that trimming would drop). Only lines past the limit
        // are searched, each once.
        let too_long = end > MAX_LINE_LEN
            && rest[MAX_LINE_LEN..comment.map_or(end, |i| i.max(MAX_LINE_LEN))]
                .iter()
                .any(|&b| !is_space(b));
        let mut line = &rest[..end.min(MAX_LINE_LEN)];
        // A NUL ends the line (and is reported even inside a comment).
        let nul = match memchr(0, line) {
            Some(i) => {
                line = &line[..i];
                true
            }
            None => false,
        };
        // RFC 9309 section 2.2: a comment runs from `#` to the end of the line.
        if let Some(i) = comment
            && i < line.len()
        {
            line = &line[..i];
        }
        Some(Line {
            number: self.number,
            content: trim(line),
            too_long,
            nul,
        })
    }
}

#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0B' | b'\x0C')
}

/// Removes leading and trailing spaces and tabs.
#[inline]
pub(crate) fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_space(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_space(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// A line split into key and value.
pub(crate) struct KeyValue<'a> {
    pub key: &'a [u8],
    pub value: &'a [u8],
    /// The separator was whitespace, not `:`.
    pub missing_colon: bool,
}

/// Splits `key: value`. Without a colon, `key value` is accepted when the line
/// is exactly two runs of octets other than space and tab, as Google's
/// parser does (`Disallow /x`); anything else is not a record. (Only space
/// and tab separate there, as in RFC 9309's `WS`; a vertical tab or form
/// feed is part of a word, though trimmed at either end of one.)
pub(crate) fn split(content: &[u8]) -> Option<KeyValue<'_>> {
    // Keys are short: a plain loop beats a vectorised search here.
    if let Some(i) = content.iter().position(|&b| b == b':') {
        let key = trim(&content[..i]);
        if key.is_empty() {
            return None;
        }
        return Some(KeyValue {
            key,
            value: trim(&content[i + 1..]),
            missing_colon: false,
        });
    }
    let blank = |b: &u8| matches!(b, b' ' | b'\t');
    let i = content.iter().position(blank)?;
    // The separator is the run of spaces and tabs; a vertical tab or form
    // feed after it starts the next word (`Disallow \x0C /x` is three), but
    // trailing whitespace of any kind is none.
    let after = &content[i..];
    let start = after.iter().position(|b| !blank(b)).unwrap_or(after.len());
    let end = after
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(0, |e| e + 1);
    let words = &after[start..end.max(start)];
    if words.iter().any(blank) {
        return None;
    }
    Some(KeyValue {
        key: trim(&content[..i]),
        value: trim(words),
        missing_colon: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(body: &[u8]) -> Vec<(u32, String)> {
        Lines::new(body)
            .map(|l| (l.number, String::from_utf8_lossy(l.content).into_owned()))
            .collect()
    }

    #[test]
    fn line_ends_and_bom() {
        let want = vec![
            (1, "a".into()),
            (2, "b".into()),
            (3, "c".into()),
            (4, "".into()),
            (5, "d".into()),
        ];
        assert_eq!(lines(b"\xEF\xBB\xBFa\nb\r\nc\r\rd"), want);
        assert_eq!(lines(b"a\nb\nc\n\nd\n"), want);
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn comments_nul_and_length() {
        assert_eq!(lines(b"  Disallow: /x # why  \n#only")[0].1, "Disallow: /x");
        assert_eq!(lines(b"#only\n")[0].1, "");
        let l = Lines::new(b"Disallow: /a\0/b").next().unwrap();
        assert!(l.nul && l.content == b"Disallow: /a");
        let long = [b'a'; MAX_LINE_LEN + 10];
        let l = Lines::new(&long).next().unwrap();
        assert!(l.too_long && l.content.len() == MAX_LINE_LEN);
        // Cut inside a comment (from `#` at the limit or before it), the
        // line loses nothing.
        for at in [5, MAX_LINE_LEN - 1, MAX_LINE_LEN, MAX_LINE_LEN + 1] {
            let mut long = long;
            long[at] = b'#';
            let l = Lines::new(&long).next().unwrap();
            assert_eq!(l.too_long, at > MAX_LINE_LEN, "{at}");
            assert_eq!(l.content.len(), at.min(MAX_LINE_LEN), "{at}");
        }
        // Past the limit, only spaces and tabs (which trimming drops), or
        // those then a comment: nothing lost. (It was a `LineTooLong`.)
        for tail in [&b"  \t "[..], b" # why", b" x"] {
            let mut line = vec![b'a'; MAX_LINE_LEN];
            line.extend_from_slice(tail);
            let l = Lines::new(&line).next().unwrap();
            assert_eq!(l.too_long, tail.ends_with(b"x"), "{tail:?}");
        }
    }

    /// The lexer as first written: cut at the line end, the length limit,
    /// a NUL, then a comment, each with its own search.
    fn naive(body: &[u8]) -> Vec<(u32, Vec<u8>, bool, bool)> {
        let mut out = Vec::new();
        // The octets of a byte order mark at the start, however many.
        let mut pos = body
            .iter()
            .zip(b"\xEF\xBB\xBF")
            .take_while(|(a, b)| a == b)
            .count();
        let mut number = 0;
        while pos < body.len() {
            let rest = &body[pos..];
            let end = memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
            pos += end + 1;
            if rest.get(end) == Some(&b'\r') && rest.get(end + 1) == Some(&b'\n') {
                pos += 1;
            }
            number += 1;
            let mut line = &rest[..end];
            let too_long = line.len() > MAX_LINE_LEN
                && memchr(b'#', &line[..=MAX_LINE_LEN]).is_none()
                && line[MAX_LINE_LEN..]
                    .split(|&b| b == b'#')
                    .next()
                    .is_some_and(|lost| !trim(lost).is_empty());
            line = &line[..line.len().min(MAX_LINE_LEN)];
            let nul = memchr(0, line).inspect(|&i| line = &line[..i]).is_some();
            if let Some(i) = memchr(b'#', line) {
                line = &line[..i];
            }
            out.push((number, trim(line).to_vec(), too_long, nul));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn lines_agree_with_naive(
            pieces in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "Disallow: /x", " ", "#", "\n", "\r", "\r\n", "\0", ":", "\u{feff}",
                    "#c\0", "\t", "  \t  ",
                ][..]),
                0..40,
            ),
            long in 0..3usize,
        ) {
            let mut body = pieces.concat().into_bytes();
            // Sometimes a line around the length limit, with a comment or
            // NUL on either side of it.
            if long > 0 {
                let at = body.len() / 2;
                let run = vec![b'x'; MAX_LINE_LEN - 2 + long];
                body.splice(at..at, run);
            }
            let got: Vec<_> = Lines::new(&body)
                .map(|l| (l.number, l.content.to_vec(), l.too_long, l.nul))
                .collect();
            proptest::prop_assert_eq!(got, naive(&body));
        }
    }

    #[test]
    fn key_value() {
        let kv = split(b"Disallow : /a:b").unwrap();
        assert_eq!(
            (kv.key, kv.value, kv.missing_colon),
            (&b"Disallow"[..], &b"/a:b"[..], false)
        );
        let kv = split(b"Disallow \t/x").unwrap();
        assert_eq!(
            (kv.key, kv.value, kv.missing_colon),
            (&b"Disallow"[..], &b"/x"[..], true)
        );
        assert!(split(b"Disallow /x /y").is_none());
        // Only spaces and tabs separate: a form feed or vertical tab after
        // them is a word of its own, as in Google's parser; at the end of
        // the line it is trimmed.
        assert!(split(b"Disallow \x0C /x").is_none());
        assert!(split(b"Disallow\t\x0B\t/x").is_none());
        assert_eq!(split(b"Disallow \x0C/x").unwrap().value, b"/x");
        assert_eq!(split(b"Disallow /x \x0C ").unwrap().value, b"/x");
        assert_eq!(split(b"Disallow /x\t").unwrap().value, b"/x");
        assert!(split(b"Bye").is_none());
        assert!(split(b": x").is_none());
        assert_eq!(split(b"Disallow:").unwrap().value, b"");
    }
}
