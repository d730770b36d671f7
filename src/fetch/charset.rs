//! Turning a robots.txt body into UTF-8 before parsing.
//!
//! RFC 9309 section 2.2 makes robots.txt UTF-8, but servers still send
//! Latin-1, Windows-1252 or UTF-16 files and say so in `Content-Type`. A BOM
//! decides first (UTF-16 LE/BE, or UTF-8, which the parser skips); then the
//! `charset` parameter, unless it cannot fit the body; otherwise the bytes
//! are taken as UTF-8.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};
use http::HeaderValue;

/// The body as UTF-8 (a UTF-8 BOM, if any, is left for the parser to skip).
pub(crate) fn to_utf8(body: Vec<u8>, content_type: Option<&HeaderValue>) -> Vec<u8> {
    let encoding = match Encoding::for_bom(&body) {
        Some((encoding, _)) => encoding,
        None => match content_type
            .and_then(charset_label)
            .and_then(Encoding::for_label)
        {
            Some(encoding) if believable(encoding, &body) => encoding,
            _ => return body,
        },
    };
    if encoding == UTF_8 {
        return body;
    }
    // `decode` strips a BOM for the encoding it detects and replaces
    // malformed sequences with U+FFFD, so parsing always sees valid text.
    let (text, _, _) = encoding.decode(&body);
    text.into_owned().into_bytes()
}

/// Whether a `charset` label's `encoding` can be what `body` (which has no
/// BOM) is in. Two kinds of label would turn a plain ASCII file into text
/// with no rules in it, so that `Disallow: /` came to allow everything:
/// the labels the Encoding Standard maps to its "replacement" encoding
/// (`iso-2022-kr`, `hz-gb-2312`, ...), which decode any body to one
/// U+FFFD; and a UTF-16 label on a body that is not UTF-16. A robots.txt in
/// UTF-16 is mostly ASCII, so half its first octets are zero; a body with
/// no zero octet in its first 512 is taken as UTF-8 instead.
fn believable(encoding: &'static Encoding, body: &[u8]) -> bool {
    if encoding == REPLACEMENT {
        return false;
    }
    if encoding == UTF_16LE || encoding == UTF_16BE {
        return body[..body.len().min(512)].contains(&0);
    }
    true
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

    #[test]
    fn utf8_passes_through() {
        let body = "Disallow: /café\n".as_bytes().to_vec();
        assert_eq!(to_utf8(body.clone(), None), body);
        assert_eq!(
            to_utf8(body.clone(), Some(&ct("text/plain; charset=utf-8"))),
            body
        );
        assert_eq!(
            to_utf8(body.clone(), Some(&ct("text/plain; charset=bogus"))),
            body
        );
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), &body].concat();
        assert_eq!(to_utf8(with_bom.clone(), Some(&ct("text/plain"))), with_bom);
    }

    #[test]
    fn latin1_and_windows_1252_are_transcoded() {
        let body = b"Disallow: /caf\xE9\n".to_vec();
        let want = "Disallow: /café\n".as_bytes();
        assert_eq!(
            to_utf8(body.clone(), Some(&ct("text/plain; charset=ISO-8859-1"))),
            want
        );
        assert_eq!(
            to_utf8(
                body.clone(),
                Some(&ct("text/plain;charset=\"windows-1252\""))
            ),
            want
        );
        assert_eq!(
            to_utf8(
                body,
                Some(&ct("text/plain; format=flowed; Charset = latin1"))
            ),
            want
        );
    }

    #[test]
    fn utf16_by_bom_or_label() {
        let text = "Disallow: /x\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let le_bom = [b"\xFF\xFE".as_slice(), &le].concat();
        let be_bom = [b"\xFE\xFF".as_slice(), &be].concat();
        assert_eq!(to_utf8(le_bom, None), text.as_bytes());
        assert_eq!(
            to_utf8(be_bom.clone(), Some(&ct("text/plain; charset=utf-8"))),
            text.as_bytes()
        );
        assert_eq!(
            to_utf8(le, Some(&ct("text/plain; charset=utf-16le"))),
            text.as_bytes()
        );
        assert_eq!(
            to_utf8(be, Some(&ct("text/plain; charset=UTF-16BE"))),
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
            assert_eq!(to_utf8(body.clone(), Some(&ct(&value))), body, "{label}");
        }
        // A body in UTF-16 is still read so, without a BOM.
        let text = "User-agent: *\nDisallow: /\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(
            to_utf8(le, Some(&ct("text/plain; charset=utf-16"))),
            text.as_bytes()
        );
    }
}
