//! Turning a robots.txt body into UTF-8 before parsing.
//!
//! RFC 9309 section 2.2 makes robots.txt UTF-8, but servers still send
//! Latin-1, Windows-1252 or UTF-16 files and say so in `Content-Type`. A BOM
//! decides first (UTF-16 LE/BE, or UTF-8, which the parser skips); then the
//! `charset` parameter; otherwise the bytes are taken as UTF-8.

use encoding_rs::{Encoding, UTF_8};
use http::HeaderValue;

/// The body as UTF-8 (a UTF-8 BOM, if any, is left for the parser to skip).
pub(crate) fn to_utf8(body: Vec<u8>, content_type: Option<&HeaderValue>) -> Vec<u8> {
    let encoding = match Encoding::for_bom(&body) {
        Some((encoding, _)) => encoding,
        None => match content_type
            .and_then(charset_label)
            .and_then(Encoding::for_label)
        {
            Some(encoding) => encoding,
            None => return body,
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
}
