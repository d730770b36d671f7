//! Turning a robots.txt body into UTF-8 before parsing.
//!
//! RFC 9309 section 2.2 makes robots.txt UTF-8, but servers still send
//! Latin-1, Windows-1252 or UTF-16 files and say so in `Content-Type`. A BOM
//! decides first (UTF-16 LE/BE, or UTF-8, which the parser skips); then the
//! `charset` parameter, unless the body shows it wrong ([`fit`]); otherwise
//! the bytes are taken as UTF-8.

use encoding_rs::{Encoding, REPLACEMENT, UTF_8, UTF_16BE, UTF_16LE};
use http::HeaderValue;

/// The body as UTF-8 (a UTF-8 BOM, if any, is left for the parser to skip).
pub(crate) fn to_utf8(body: Vec<u8>, content_type: Option<&HeaderValue>) -> Vec<u8> {
    let encoding = match Encoding::for_bom(&body) {
        Some((encoding, _)) => encoding,
        None => match content_type
            .and_then(charset_label)
            .and_then(Encoding::for_label)
            .and_then(|label| fit(label, &body))
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

/// The encoding to read `body` (which has no BOM) in, given the one its
/// `charset` label names; `None` to take it as UTF-8. The label is
/// overruled where the body shows it wrong:
///
/// - The labels the Encoding Standard maps to its "replacement" encoding
///   (`iso-2022-kr`, `hz-gb-2312`, ...) decode any body to one U+FFFD, so
///   that `Disallow: /` would come to allow everything: ignored.
/// - A robots.txt in UTF-16 is mostly ASCII, so about half its octets are
///   zero: a UTF-16 label on a body with no zero octet in its first 512 is
///   ignored (the same failure), and the zeros' places tell the byte order
///   (a BOM-less `utf-16` label means little-endian in the Encoding
///   Standard, but `00 55 00 73` is big-endian `Us`).
/// - A body that is valid UTF-8 is read as UTF-8 whatever other
///   ASCII-compatible label it carries (servers label files `ISO-8859-1` by
///   default): octets of another encoding almost never form valid UTF-8
///   sequences, while reading `/café` in UTF-8 as Latin-1 would give
///   `/cafÃ©`, which no URL matches.
fn fit(label: &'static Encoding, body: &[u8]) -> Option<&'static Encoding> {
    if label == REPLACEMENT {
        return None;
    }
    if label == UTF_16LE || label == UTF_16BE {
        let head = &body[..body.len().min(512)];
        let zeros = |parity: usize| {
            head.iter()
                .skip(parity)
                .step_by(2)
                .filter(|&&b| b == 0)
                .count()
        };
        let (even, odd) = (zeros(0), zeros(1));
        return match (even, odd) {
            (0, 0) => None,
            _ if even > odd => Some(UTF_16BE),
            _ => Some(UTF_16LE),
        };
    }
    // (A body cut at the size limit may end inside a character: that
    // counts as valid.)
    let utf8 = match std::str::from_utf8(body) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    };
    if label.is_ascii_compatible() && utf8 {
        return None;
    }
    Some(label)
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
    fn utf8_under_another_label_stays_utf8() {
        let body = "Disallow: /café\nDisallow: /日本\n".as_bytes().to_vec();
        for label in ["ISO-8859-1", "windows-1252", "shift_jis", "gbk", "koi8-r"] {
            let value = format!("text/plain; charset={label}");
            assert_eq!(to_utf8(body.clone(), Some(&ct(&value))), body, "{label}");
        }
        // Nor when cut inside its last character, as at the size limit.
        let cut = body[..body.len() - 2].to_vec();
        assert_eq!(
            to_utf8(cut.clone(), Some(&ct("text/plain; charset=latin1"))),
            cut
        );
        // A Latin-1 body is not valid UTF-8 (a lone 0xE9): transcoded.
        assert_eq!(
            to_utf8(
                b"Disallow: /caf\xE9\n".to_vec(),
                Some(&ct("text/plain; charset=latin1"))
            ),
            "Disallow: /café\n".as_bytes()
        );
    }

    #[test]
    fn utf16_without_a_bom_by_where_its_zeros_are() {
        let text = "User-agent: *\nDisallow: /x\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for label in ["utf-16", "utf-16le", "utf-16be"] {
            let value = ct(&format!("text/plain; charset={label}"));
            assert_eq!(
                to_utf8(le.clone(), Some(&value)),
                text.as_bytes(),
                "{label}"
            );
            assert_eq!(
                to_utf8(be.clone(), Some(&value)),
                text.as_bytes(),
                "{label}"
            );
        }
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
