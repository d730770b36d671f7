//! Which encoding a robots.txt body is in, so that it can be read as
//! UTF-8.
//!
//! RFC 9309 section 2.2 makes robots.txt UTF-8, but servers still send
//! Latin-1, Windows-1252 or UTF-16 files and say so in `Content-Type`. A BOM
//! decides first (UTF-16 LE/BE, unless the text after it shows it stray:
//! [`stray_bom`]; or UTF-8, which the parser skips); then the
//! body's shape, when every other octet is zero: UTF-16
//! ([`utf16_by_shape`]); then the `charset` parameter, unless the body shows
//! it wrong ([`fit`]); otherwise the bytes are taken as UTF-8. The parser
//! decodes ([`crate::parse`]); the fetcher and
//! [`ParseOptions::content_type`](crate::ParseOptions::content_type) hand it
//! the label.

use encoding_rs::{Encoding, ISO_2022_JP, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};

/// The encoding a `charset` label names, as the Encoding Standard maps
/// labels, and whether the label names a byte order (`utf-16le` does,
/// `utf-16` does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Label {
    encoding: &'static Encoding,
    order_named: bool,
}

impl Label {
    /// The `charset` parameter of a `Content-Type` value; `None` without
    /// one, for a label the Encoding Standard does not know, and for the
    /// labels it maps to its "replacement" encoding (`iso-2022-kr`,
    /// `hz-gb-2312`, ...), which decode any body to one U+FFFD, so that
    /// `Disallow: /` would come to allow everything.
    pub(crate) fn of_content_type(value: &[u8]) -> Option<Label> {
        let label = charset_param(value)?;
        let encoding = Encoding::for_label(label).filter(|&e| e != REPLACEMENT)?;
        let end = &label[label.len().saturating_sub(2)..];
        let order_named = end.eq_ignore_ascii_case(b"le") || end.eq_ignore_ascii_case(b"be");
        Some(Label {
            encoding,
            order_named,
        })
    }

    /// The Encoding Standard's name for the encoding (`windows-1252` for
    /// the label `iso-8859-1`).
    pub(crate) fn name(self) -> &'static str {
        self.encoding.name()
    }
}

/// The encoding to transcode `body` from before parsing; `None` to read its
/// octets as UTF-8 (a UTF-8 BOM is left for the parser to skip).
/// `truncated`: the body was cut at a size limit, so it may end inside a
/// character.
pub(crate) fn detect(
    body: &[u8],
    label: Option<Label>,
    truncated: bool,
) -> Option<&'static Encoding> {
    let encoding = match Encoding::for_bom(body) {
        Some((encoding, len)) if encoding == UTF_8 || !stray_bom(&body[len..]) => encoding,
        // UTF-16 without a BOM, whatever the label says (read under a
        // single-byte label, `é` as `E9 00` would become three octets and
        // put the text after it out of step); else the label.
        bom => {
            let rest = &body[bom.map_or(0, |(_, len)| len)..];
            utf16_by_shape(body).or_else(|| fit(label?, rest, truncated))?
        }
    };
    Some(encoding).filter(|&encoding| encoding != UTF_8)
}

/// Whether `rest`, what follows a UTF-16 byte order mark, is no UTF-16
/// but text that reads as UTF-8, the mark a stray one: its first 512
/// octets hold no zero octet and are UTF-8. In UTF-16 every ASCII
/// character and line end has a zero octet, so a robots.txt would need
/// 256 characters outside Latin-1 before its first line end to look so.
/// Read as UTF-16, such a file would lose every rule; read as octets, as
/// Google's parser reads it, only its first line holds the mark.
fn stray_bom(rest: &[u8]) -> bool {
    let head = &rest[..rest.len().min(512)];
    let utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        // Cut at 512 octets inside a character.
        Err(e) => e.error_len().is_none(),
    };
    !head.is_empty() && !head.contains(&0) && utf8
}

/// The byte order of a UTF-16 body without a byte order mark, told by its
/// shape: a robots.txt is nearly all ASCII, so in UTF-16 every other octet
/// is zero. The first two characters must be ASCII (`U\0s\0`, or `\0U\0s`
/// big-endian), and three in four of the first 256 must have a zero high
/// octet and a non-zero low one. No text a robots.txt holds has that
/// shape in UTF-8 (it would be a NUL every other character), and the test
/// costs one comparison unless the body's first or second octet is zero.
pub(crate) fn utf16_by_shape(body: &[u8]) -> Option<&'static Encoding> {
    let (encoding, low, high) = match *body {
        [a, 0, b, 0, ..] if a != 0 && b != 0 => (UTF_16LE, 0, 1),
        [0, a, 0, b, ..] if a != 0 && b != 0 => (UTF_16BE, 1, 0),
        _ => return None,
    };
    let head = body[..body.len().min(512)].chunks_exact(2);
    let units = head.len();
    let narrow = head
        .filter(|unit| unit[low] != 0 && unit[high] == 0)
        .count();
    (narrow * 4 >= units * 3).then_some(encoding)
}

/// The encoding to read `body` (which has no BOM) in, given its `charset`
/// label; `None` to take it as UTF-8. The label is overruled where the body
/// shows it wrong:
///
/// - A robots.txt in UTF-16 is mostly ASCII, so about half its octets are
///   zero, nearly all at odd offsets or nearly all at even ones: a UTF-16
///   label is ignored (read so, an ASCII file would lose every rule)
///   unless zeros at one parity make up a quarter of the first 256 code
///   units. (A single NUL in an ASCII file is no sign of UTF-16: read so,
///   `Disallow: /` would be lost.) A label that names no byte order
///   (`utf-16`, which the Encoding Standard reads as little-endian) is read
///   in the order its line ends show: `0A 00` little-endian, `00 0A`
///   big-endian (U+0A00 and U+0D00, the other readings, are not characters
///   a robots.txt holds). A label that names one is trusted.
/// - A body that is valid UTF-8 (or, `truncated`, cut inside its last
///   character) is read as UTF-8 whatever other label it carries (servers
///   label files `ISO-8859-1`, or `GBK` or `Shift_JIS`, by default), as
///   RFC 9309 section 2.2 requires and as Google's parser reads every
///   file. Text in a single-byte charset only forms valid UTF-8 sequences
///   as mojibake (`Ã©`), and text in a multi-byte one seldom (a short run:
///   GBK's `说` is the UTF-8 `˵`), while reading UTF-8 in the label's
///   charset loses its rules: `/café` read as Latin-1 is `/cafÃ©`, `/搜索`
///   as GBK `/鎼滅储`, which no URL matches. A body in ISO-2022-JP is
///   ASCII with escape sequences, and so valid UTF-8: under that label a
///   body that has escapes and decodes is read in it.
fn fit(label: Label, body: &[u8], truncated: bool) -> Option<&'static Encoding> {
    let encoding = label.encoding;
    if encoding == UTF_16LE || encoding == UTF_16BE {
        let head = &body[..body.len().min(512)];
        let (mut even, mut odd) = (0, 0);
        for pair in head.chunks_exact(2) {
            even += usize::from(pair[0] == 0);
            odd += usize::from(pair[1] == 0);
        }
        let units = head.len() / 2;
        if units == 0 || even.max(odd) * 4 < units {
            return None;
        }
        if label.order_named {
            return Some(encoding);
        }
        // Line ends at even offsets, in either order.
        let (mut le, mut be) = (0, 0);
        for pair in head.chunks_exact(2) {
            match *pair {
                [b'\n' | b'\r', 0] => le += 1,
                [0, b'\n' | b'\r'] => be += 1,
                _ => {}
            }
        }
        return Some(if be > le { UTF_16BE } else { encoding });
    }
    let utf8 = match std::str::from_utf8(body) {
        Ok(_) => true,
        Err(e) => truncated && e.error_len().is_none(),
    };
    let escaped = encoding == ISO_2022_JP && memchr::memchr(0x1B, body).is_some();
    if utf8 && (!escaped || malformed_in(encoding, body, truncated)) {
        return None;
    }
    Some(encoding)
}

/// Whether `body` holds an octet sequence `encoding` cannot decode (one cut
/// at the end of a `truncated` body does not count).
fn malformed_in(encoding: &'static Encoding, body: &[u8], truncated: bool) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let Some(room) = decoder.max_utf8_buffer_length_without_replacement(body.len()) else {
        return false;
    };
    let mut text = String::with_capacity(room);
    let (result, _) = decoder.decode_to_string_without_replacement(body, &mut text, !truncated);
    matches!(result, encoding_rs::DecoderResult::Malformed(..))
}

/// The `charset` parameter of a `Content-Type` value, unquoted. A
/// parameter's value is a token or a quoted string (RFC 9110 section
/// 5.6.6), which may hold `;` and `charset=` as text: `foo="a;charset=x"`
/// names no charset.
fn charset_param(value: &[u8]) -> Option<&[u8]> {
    // Skip the media type; parameters follow semicolons.
    let mut rest = &value[memchr::memchr(b';', value)? + 1..];
    loop {
        let at = rest.iter().position(|&b| b == b'=' || b == b';')?;
        if rest[at] == b';' {
            // A parameter without a value.
            rest = &rest[at + 1..];
            continue;
        }
        let name = rest[..at].trim_ascii();
        let after = rest[at + 1..].trim_ascii_start();
        let (param, tail) = match after.strip_prefix(b"\"") {
            Some(quoted) => {
                // Up to the closing quote, past backslash escapes (or to
                // the end, unclosed).
                let mut end = 0;
                while end < quoted.len() && quoted[end] != b'"' {
                    end += if quoted[end] == b'\\' { 2 } else { 1 };
                }
                let end = end.min(quoted.len());
                (&quoted[..end], quoted.get(end + 1..).unwrap_or_default())
            }
            None => {
                let end = memchr::memchr(b';', after).unwrap_or(after.len());
                (after[..end].trim_ascii_end(), &after[end..])
            }
        };
        if name.eq_ignore_ascii_case(b"charset") {
            return Some(param);
        }
        rest = &tail[memchr::memchr(b';', tail)? + 1..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parameters are tokens or quoted strings, which may hold `;`.
    #[test]
    fn the_charset_parameter_is_found_past_quoted_strings() {
        let param =
            |v: &str| charset_param(v.as_bytes()).map(|l| String::from_utf8_lossy(l).into_owned());
        for (value, want) in [
            ("text/plain; charset=latin1", Some("latin1")),
            ("text/plain;charset=\"windows-1252\"", Some("windows-1252")),
            ("text/plain ; Charset = utf-8 ; x=y", Some("utf-8")),
            (
                "text/plain; foo=\"a;charset=utf-16\"; charset=latin1",
                Some("latin1"),
            ),
            (
                "text/plain; foo=\"a\\\";charset=utf-16\"; charset=latin1",
                Some("latin1"),
            ),
            ("text/plain; flowed; charset=latin1", Some("latin1")),
            ("text/plain; charset=\"latin1", Some("latin1")),
            ("text/plain; charset=\"\"", Some("")),
            ("text/plain; foo=\"a;charset=utf-16\"", None),
            ("text/plain; foo=\"unclosed; charset=latin1", None),
            ("text/plain", None),
            ("charset=latin1", None),
            ("", None),
        ] {
            assert_eq!(param(value).as_deref(), want, "{value}");
        }
    }

    /// The label of a `Content-Type` value.
    fn ct(value: &str) -> Option<Label> {
        Label::of_content_type(value.as_bytes())
    }

    /// `body` as the parser reads it: transcoded if [`detect`] says so.
    fn to_utf8(body: Vec<u8>, label: Option<Label>, truncated: bool) -> Vec<u8> {
        match detect(&body, label, truncated) {
            Some(encoding) => encoding.decode(&body).0.into_owned().into_bytes(),
            None => body,
        }
    }

    /// [`to_utf8`] of a body read to its end.
    fn whole(body: Vec<u8>, label: Option<Label>) -> Vec<u8> {
        to_utf8(body, label, false)
    }

    #[test]
    fn utf8_passes_through() {
        let body = "Disallow: /café\n".as_bytes().to_vec();
        assert_eq!(whole(body.clone(), None), body);
        assert_eq!(whole(body.clone(), ct("text/plain; charset=utf-8")), body);
        assert_eq!(whole(body.clone(), ct("text/plain; charset=bogus")), body);
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), &body].concat();
        assert_eq!(whole(with_bom.clone(), ct("text/plain")), with_bom);
    }

    #[test]
    fn latin1_and_windows_1252_are_transcoded() {
        let body = b"Disallow: /caf\xE9\n".to_vec();
        let want = "Disallow: /café\n".as_bytes();
        assert_eq!(
            whole(body.clone(), ct("text/plain; charset=ISO-8859-1")),
            want
        );
        assert_eq!(
            whole(body.clone(), ct("text/plain;charset=\"windows-1252\"")),
            want
        );
        assert_eq!(
            whole(body, ct("text/plain; format=flowed; Charset = latin1")),
            want
        );
    }

    #[test]
    fn utf8_under_a_single_byte_label_stays_utf8() {
        let body = "Disallow: /café\nDisallow: /日本\n".as_bytes().to_vec();
        for label in ["ISO-8859-1", "windows-1252", "koi8-r", "latin1"] {
            let value = format!("text/plain; charset={label}");
            assert_eq!(whole(body.clone(), ct(&value)), body, "{label}");
        }
        // And under a multi-byte label: GBK's `说` is the valid UTF-8 `˵`,
        // read so; and `/搜索` in UTF-8 decodes in GBK as `/鎼滅储`, but
        // is not read so (until session 59 it was).
        let gbk = b"Disallow: /\xCB\xB5\n".to_vec();
        assert_eq!(whole(gbk.clone(), ct("text/plain; charset=gbk")), gbk);
        let search = "Disallow: /搜索\n".as_bytes().to_vec();
        assert!(!super::malformed_in(encoding_rs::GBK, &search, false));
        for label in ["gbk", "gb18030", "shift_jis", "big5", "euc-kr", "euc-jp"] {
            let value = format!("text/plain; charset={label}");
            assert_eq!(whole(body.clone(), ct(&value)), body, "{label}");
            assert_eq!(whole(search.clone(), ct(&value)), search, "{label}");
        }
        // GBK that is not UTF-8 is decoded.
        let gbk = b"Disallow: /\xCB\xD1\xCB\xF7\n".to_vec();
        assert_eq!(
            whole(gbk, ct("text/plain; charset=gbk")),
            "Disallow: /搜索\n".as_bytes()
        );
        // ISO-2022-JP is 7-bit: its escapes, where they decode, are read
        // in it; ASCII with none is UTF-8.
        let jis = ct("text/plain; charset=iso-2022-jp");
        let nihon = b"Disallow: /\x1B$BF|K\\\x1B(B\n".to_vec();
        assert_eq!(whole(nihon, jis), "Disallow: /日本\n".as_bytes());
        assert_eq!(super::fit(jis.unwrap(), b"Disallow: /x\n", false), None);
        let euc_kr = ct("text/plain; charset=euc-kr");
        // A cut at the end of a truncated body is no sign of either.
        let korean = b"Disallow: /\xC7\xD1\xB1".to_vec();
        assert!(!super::malformed_in(
            euc_kr.unwrap().encoding,
            &korean,
            true
        ));
        assert!(super::malformed_in(
            euc_kr.unwrap().encoding,
            &korean,
            false
        ));
        // A body cut at the size limit inside its last character is still
        // UTF-8; one read to its end is not.
        let latin1 = ct("text/plain; charset=latin1");
        let cut = body[..body.len() - 2].to_vec();
        assert_eq!(to_utf8(cut.clone(), latin1, true), cut);
        assert_ne!(to_utf8(cut, latin1, false), body[..body.len() - 2]);
        // A Latin-1 body is not valid UTF-8 (a lone 0xE9), even at its
        // very end: transcoded.
        assert_eq!(
            whole(b"Disallow: /caf\xE9".to_vec(), latin1),
            "Disallow: /café".as_bytes()
        );
        assert_eq!(
            whole(b"Disallow: /caf\xE9\n".to_vec(), latin1),
            "Disallow: /café\n".as_bytes()
        );
    }

    #[test]
    fn utf16_without_a_bom_by_its_line_ends() {
        let text = "User-agent: *\nDisallow: /x\n";
        // Box drawing (U+2500) reads as `%` in the other byte order.
        let boxed = format!("# {}\n{text}", "\u{2500}".repeat(60));
        for text in [text, &boxed] {
            let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
            let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
            let bare = ct("text/plain; charset=utf-16");
            assert_eq!(whole(le.clone(), bare), text.as_bytes());
            assert_eq!(whole(be.clone(), bare), text.as_bytes());
            // A label that names the order is trusted.
            let named = ct("text/plain; charset=UTF-16LE");
            assert_eq!(whole(le, named), text.as_bytes());
            let named = ct("text/plain; charset=utf-16be");
            assert_eq!(whole(be, named), text.as_bytes());
        }
    }

    #[test]
    fn utf16_by_bom_or_label() {
        let text = "Disallow: /x\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le_bom = [b"\xFF\xFE".as_slice(), &le].concat();
        let be_bom = [b"\xFE\xFF".as_slice(), &be].concat();
        assert_eq!(whole(le_bom, None), text.as_bytes());
        assert_eq!(
            whole(be_bom.clone(), ct("text/plain; charset=utf-8")),
            text.as_bytes()
        );
        assert_eq!(
            whole(le, ct("text/plain; charset=utf-16le")),
            text.as_bytes()
        );
        assert_eq!(
            whole(be, ct("text/plain; charset=UTF-16BE")),
            text.as_bytes()
        );
    }

    /// Labels that would decode an ASCII file to text without its rules.
    #[test]
    fn labels_that_cannot_fit_the_body_are_ignored() {
        let body = b"User-agent: *\nDisallow: /\n".to_vec();
        for label in [
            "iso-2022-kr",
            "hz-gb-2312",
            "utf-16",
            "UTF-16LE",
            "utf-16be",
        ] {
            let value = format!("text/plain; charset={label}");
            assert_eq!(whole(body.clone(), ct(&value)), body, "{label}");
        }
        // Nor does a stray NUL make an ASCII file UTF-16.
        let mut nul = body.clone();
        nul.push(0);
        let mut inside = b"# a\0b\n".to_vec();
        inside.extend_from_slice(&body);
        for body in [nul, inside] {
            for label in ["utf-16", "UTF-16LE", "utf-16be"] {
                let value = format!("text/plain; charset={label}");
                assert_eq!(whole(body.clone(), ct(&value)), body, "{label}");
            }
        }
        // A body in UTF-16 is still read so, without a BOM.
        let text = "User-agent: *\nDisallow: /\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(whole(le, ct("text/plain; charset=utf-16")), text.as_bytes());
    }
}
