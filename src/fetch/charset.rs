//! Turning a robots.txt body into UTF-8 before parsing.
//!
//! RFC 9309 section 2.2 makes robots.txt UTF-8, but servers still send
//! Latin-1, Windows-1252 or UTF-16 files and say so in `Content-Type`. A BOM
//! decides first (UTF-16 LE/BE, or UTF-8, which the parser skips); then the
//! body's shape, when every other octet is zero: UTF-16
//! (`parse::utf16_by_shape`, which `Robots::parse` applies too); then the
//! `charset` parameter,
//! unless the body shows it wrong ([`fit`]); otherwise the bytes are taken
//! as UTF-8.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};
use http::HeaderValue;

/// The body as UTF-8 (a UTF-8 BOM, if any, is left for the parser to
/// skip), and the encoding it was transcoded from, if it was. `truncated`:
/// the body was cut at the size limit, so it may end inside a character.
pub(crate) fn to_utf8(
    body: Vec<u8>,
    content_type: Option<&HeaderValue>,
    truncated: bool,
) -> (Vec<u8>, Option<&'static Encoding>) {
    let encoding = match Encoding::for_bom(&body) {
        Some((encoding, _)) => encoding,
        // UTF-16 without a BOM, whatever the label says (read under a
        // single-byte label, `é` as `E9 00` would become three octets and
        // put the text after it out of step); else the label.
        None => match crate::parse::utf16_by_shape(&body).or_else(|| {
            content_type
                .and_then(charset_label)
                .and_then(|label| fit(label, &body, truncated))
        }) {
            Some(encoding) => encoding,
            None => return (body, None),
        },
    };
    if encoding == UTF_8 {
        return (body, None);
    }
    // `decode` strips a BOM for the encoding it detects and replaces
    // malformed sequences with U+FFFD, so parsing always sees valid text.
    let (text, _, _) = encoding.decode(&body);
    (text.into_owned().into_bytes(), Some(encoding))
}

/// The encoding to read `body` (which has no BOM) in, given its `charset`
/// label; `None` to take it as UTF-8. The label is overruled where the body
/// shows it wrong:
///
/// - The labels the Encoding Standard maps to its "replacement" encoding
///   (`iso-2022-kr`, `hz-gb-2312`, ...) decode any body to one U+FFFD, so
///   that `Disallow: /` would come to allow everything: ignored.
/// - A robots.txt in UTF-16 is mostly ASCII, so about half its octets are
///   zero, nearly all at odd offsets or nearly all at even ones: a UTF-16
///   label is ignored (the same failure) unless zeros at one parity make
///   up a quarter of the first 256 code units. (A single NUL in an ASCII
///   file is no sign of UTF-16: read so, `Disallow: /` would be lost.)
///   A label that names no byte order (`utf-16`,
///   which the Encoding Standard reads as little-endian) is read in the
///   order its line ends show: `0A 00` little-endian, `00 0A` big-endian
///   (U+0A00 and U+0D00, the other readings, are not characters a
///   robots.txt holds). A label that names one is trusted.
/// - A body that is valid UTF-8 (or, `truncated`, cut inside its last
///   character) is read as UTF-8 whatever single-byte label it carries
///   (servers label files `ISO-8859-1` by default): text in a single-byte
///   charset only forms valid UTF-8 sequences as mojibake (`Ã©`), while
///   reading `/café` in UTF-8 as Latin-1 would give `/cafÃ©`, which no URL
///   matches. (Multi-byte charsets are trusted: a GBK character can happen
///   to be a valid UTF-8 sequence.)
fn fit(label: &[u8], body: &[u8], truncated: bool) -> Option<&'static Encoding> {
    let encoding = Encoding::for_label(label)?;
    if encoding == REPLACEMENT {
        return None;
    }
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
        let lower = label.to_ascii_lowercase();
        if lower.ends_with(b"le") || lower.ends_with(b"be") {
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
    if encoding.is_single_byte() {
        let utf8 = match std::str::from_utf8(body) {
            Ok(_) => true,
            Err(e) => truncated && e.error_len().is_none(),
        };
        if utf8 {
            return None;
        }
    }
    Some(encoding)
}

/// The `charset` parameter of a `Content-Type` value, unquoted.
fn charset_label(content_type: &HeaderValue) -> Option<&[u8]> {
    let value = content_type.as_bytes();
    // Skip the media type; parameters follow semicolons.
    for param in value.split(|&b| b == b';').skip(1) {
        let param = param.trim_ascii();
        let Some(eq) = param.iter().position(|&b| b == b'=') else {
            continue;
        };
        let (name, rest) = param.split_at(eq);
        if name.trim_ascii().eq_ignore_ascii_case(b"charset") {
            let label = rest[1..].trim_ascii();
            let label = label
                .strip_prefix(b"\"")
                .and_then(|l| l.strip_suffix(b"\""))
                .unwrap_or(label);
            return Some(label);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ct(value: &str) -> HeaderValue {
        HeaderValue::from_str(value).unwrap()
    }

    /// [`to_utf8`] of a body read to its end.
    fn whole(body: Vec<u8>, content_type: Option<&HeaderValue>) -> Vec<u8> {
        to_utf8(body, content_type, false).0
    }

    #[test]
    fn utf8_passes_through() {
        let body = "Disallow: /café\n".as_bytes().to_vec();
        assert_eq!(whole(body.clone(), None), body);
        assert_eq!(
            whole(body.clone(), Some(&ct("text/plain; charset=utf-8"))),
            body
        );
        assert_eq!(
            whole(body.clone(), Some(&ct("text/plain; charset=bogus"))),
            body
        );
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), &body].concat();
        assert_eq!(whole(with_bom.clone(), Some(&ct("text/plain"))), with_bom);
    }

    #[test]
    fn latin1_and_windows_1252_are_transcoded() {
        let body = b"Disallow: /caf\xE9\n".to_vec();
        let want = "Disallow: /café\n".as_bytes();
        assert_eq!(
            whole(body.clone(), Some(&ct("text/plain; charset=ISO-8859-1"))),
            want
        );
        assert_eq!(
            whole(
                body.clone(),
                Some(&ct("text/plain;charset=\"windows-1252\""))
            ),
            want
        );
        assert_eq!(
            whole(
                body,
                Some(&ct("text/plain; format=flowed; Charset = latin1"))
            ),
            want
        );
    }

    #[test]
    fn utf8_under_a_single_byte_label_stays_utf8() {
        let body = "Disallow: /café\nDisallow: /日本\n".as_bytes().to_vec();
        for label in ["ISO-8859-1", "windows-1252", "koi8-r", "latin1"] {
            let value = format!("text/plain; charset={label}");
            assert_eq!(whole(body.clone(), Some(&ct(&value))), body, "{label}");
        }
        // Multi-byte labels are trusted (GBK's `说` is the valid UTF-8
        // `˵`): decoded.
        let gbk = b"Disallow: /\xCB\xB5\n".to_vec();
        assert_eq!(
            whole(gbk, Some(&ct("text/plain; charset=gbk"))),
            "Disallow: /说\n".as_bytes()
        );
        // A body cut at the size limit inside its last character is still
        // UTF-8; one read to its end is not.
        let latin1 = ct("text/plain; charset=latin1");
        let cut = body[..body.len() - 2].to_vec();
        assert_eq!(to_utf8(cut.clone(), Some(&latin1), true).0, cut);
        assert_ne!(to_utf8(cut, Some(&latin1), false).0, body[..body.len() - 2]);
        // A Latin-1 body is not valid UTF-8 (a lone 0xE9), even at its
        // very end: transcoded.
        assert_eq!(
            whole(b"Disallow: /caf\xE9".to_vec(), Some(&latin1)),
            "Disallow: /café".as_bytes()
        );
        assert_eq!(
            whole(b"Disallow: /caf\xE9\n".to_vec(), Some(&latin1)),
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
            assert_eq!(whole(le.clone(), Some(&bare)), text.as_bytes());
            assert_eq!(whole(be.clone(), Some(&bare)), text.as_bytes());
            // A label that names the order is trusted.
            let named = ct("text/plain; charset=UTF-16LE");
            assert_eq!(whole(le, Some(&named)), text.as_bytes());
            let named = ct("text/plain; charset=utf-16be");
            assert_eq!(whole(be, Some(&named)), text.as_bytes());
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
            whole(be_bom.clone(), Some(&ct("text/plain; charset=utf-8"))),
            text.as_bytes()
        );
        assert_eq!(
            whole(le, Some(&ct("text/plain; charset=utf-16le"))),
            text.as_bytes()
        );
        assert_eq!(
            whole(be, Some(&ct("text/plain; charset=UTF-16BE"))),
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
            assert_eq!(whole(body.clone(), Some(&ct(&value))), body, "{label}");
        }
        // Nor does a stray NUL make an ASCII file UTF-16.
        let mut nul = body.clone();
        nul.push(0);
        let mut inside = b"# a\0b\n".to_vec();
        inside.extend_from_slice(&body);
        for body in [nul, inside] {
            for label in ["utf-16", "UTF-16LE", "utf-16be"] {
                let value = format!("text/plain; charset={label}");
                assert_eq!(whole(body.clone(), Some(&ct(&value))), body, "{label}");
            }
        }
        // A body in UTF-16 is still read so, without a BOM.
        let text = "User-agent: *\nDisallow: /\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(
            whole(le, Some(&ct("text/plain; charset=utf-16"))),
            text.as_bytes()
        );
    }
}
