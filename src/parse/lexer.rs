//! Splitting a robots.txt into lines and lines into key and value
//! (RFC 9309 section 2.2, with the leniency real files need).

use memchr::{memchr, memchr2};

use crate::limits::MAX_LINE_LEN;

/// A line, with comment and surrounding whitespace removed.
pub(crate) struct Line<'a> {
    /// 1-based line number.
    pub number: u32,
    /// The content before any `#` comment, trimmed.
    pub content: &'a [u8],
    /// The line was longer than `MAX_LINE_LEN` and was cut there.
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
        // A UTF-8 byte order mark is not part of the first line.
        let pos = if body.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Lines {
            body,
            pos,
            number: 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.body.get(self.pos..).filter(|r| !r.is_empty())?;
        let end = memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let mut next = self.pos + end + 1;
        if rest.get(end) == Some(&b'\r') && rest.get(end + 1) == Some(&b'\n') {
            next += 1;
        }
        self.pos = next;
        self.number = self.number.saturating_add(1);
        let mut line = &rest[..end];
        let too_long = line.len() > MAX_LINE_LEN;
        if too_long {
            line = &line[..MAX_LINE_LEN];
        }
        let nul = match memchr(0, line) {
            Some(i) => {
                line = &line[..i];
                true
            }
            None => false,
        };
        // RFC 9309 section 2.2: a comment runs from `#` to the end of the line.
        if let Some(i) = memchr(b'#', line) {
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
/// is exactly two runs of non-whitespace, as Google's parser does
/// (`Disallow /x`); anything else is not a record.
pub(crate) fn split(content: &[u8]) -> Option<KeyValue<'_>> {
    if let Some(i) = memchr(b':', content) {
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
    let i = content.iter().position(|&b| is_space(b))?;
    let value = trim(&content[i..]);
    if value.iter().any(|&b| is_space(b)) {
        return None;
    }
    Some(KeyValue {
        key: &content[..i],
        value,
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
        assert!(split(b"Bye").is_none());
        assert!(split(b": x").is_none());
        assert_eq!(split(b"Disallow:").unwrap().value, b"");
    }
}
