//! What a fetch reads of a server's response: body codings under the cap,
//! the charset, the timing headers, redirects and `ETag`s (the hooks in
//! `src/fetch/fuzz.rs`, which call the code a fetch runs).
//!
//! Input: a flags octet, two octets of cap (little-endian, plus one), a
//! chunk-size octet, eight octets of clock (seconds since 1970,
//! little-endian, at most 2^40), then parts split at 0x1F: the body first,
//! then header lines, each a name octet (mod 10, see `NAMES`) and a value.
//!
//! Flags: bits 0–1 the transfer coding and 2–3 the content coding (identity,
//! gzip, deflate, brotli); bit 4 encodes the body here, with the content
//! coding, then the transfer coding over it, before reading it (then,
//! content-coded, followed by a line end, as some servers pad it); bit 5 reads deflate as raw deflate rather
//! than zlib; bit 6 announces the body's length; bit 7 says the body was
//! cut at the cap (for the charset step).
//!
//! Checks: nothing panics; at most `cap` octets are kept; an identity body
//! is kept as sent up to the cap; a body encoded here decodes to its text,
//! or when cut, to a prefix of it, filling the cap when the coded data is
//! all in, and is not cut when the text and coded data fit the cap (the
//! padding past it or not), and through two codings is cut at the cap when
//! the text alone passes it; the rules' expiry is within a day of now; a redirect followed
//! is http or https, without credentials or fragment, and reads back as
//! itself; an `ETag` kept is sent back octet for octet.
#![no_main]

use std::io::Write;
use std::time::{Duration, SystemTime};

use http::{HeaderMap, HeaderName, HeaderValue, header};
use keepout::__fuzz::{codings, etag_round_trip, read_body, redirect_target, timing, to_utf8};
use keepout::{Robots, Url};
use libfuzzer_sys::fuzz_target;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// The headers a header line's name octet picks from.
const NAMES: [HeaderName; 10] = [
    header::CACHE_CONTROL,
    header::EXPIRES,
    header::DATE,
    header::AGE,
    header::RETRY_AFTER,
    header::LOCATION,
    header::CONTENT_TYPE,
    header::ETAG,
    header::CONTENT_ENCODING,
    header::TRANSFER_ENCODING,
];

/// `text` in the coding numbered `coding` (as the hooks number them);
/// `raw`: deflate as raw deflate rather than zlib.
fn encode(text: &[u8], coding: u8, raw: bool) -> Vec<u8> {
    match coding % 4 {
        0 => text.to_vec(),
        1 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        2 if raw => {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        2 => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        _ => {
            // A 64 KiB window: within the limit the reader decodes.
            let mut out = Vec::new();
            {
                let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 16);
                e.write_all(text).unwrap();
            }
            out
        }
    }
}

/// `data` in chunks of `size` octets (all at once for 0).
fn chunks(data: &[u8], size: u8) -> Vec<&[u8]> {
    match size {
        0 if data.is_empty() => Vec::new(),
        0 => vec![data],
        n => data.chunks(usize::from(n)).collect(),
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((head, rest)) = input.split_first_chunk::<12>() else {
        return;
    };
    let flags = head[0];
    let cap = usize::from(u16::from_le_bytes([head[1], head[2]])) + 1;
    let chunk_size = head[3];
    let secs = u64::from_le_bytes(head[4..12].try_into().unwrap()) % (1 << 40);
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(secs);
    let mut parts = rest.split(|&b| b == 0x1F);
    let body = parts.next().unwrap_or_default();
    let mut headers = HeaderMap::new();
    for line in parts {
        let Some((&name, value)) = line.split_first() else {
            continue;
        };
        if let Ok(value) = HeaderValue::from_bytes(value) {
            headers.append(NAMES[usize::from(name) % NAMES.len()].clone(), value);
        }
    }

    // Body codings, as the headers name them: never a panic.
    let te: Vec<HeaderValue> = headers.get_all(header::TRANSFER_ENCODING).iter().cloned().collect();
    let ce: Vec<HeaderValue> = headers.get_all(header::CONTENT_ENCODING).iter().cloned().collect();
    let _ = codings(&te, &ce);

    // The body as sent, in the codings the flags give.
    let (transfer, content) = (flags & 3, (flags >> 2) & 3);
    let encoded = flags & 0x10 != 0;
    let mut sent = if encoded {
        encode(body, content, flags & 0x20 != 0)
    } else {
        body.to_vec()
    };
    // The coded data's length, before any padding.
    let coded = sent.len();
    if encoded && content != 0 {
        sent.push(b'\n');
    }
    // The content-coded data (padding included), which a transfer coding
    // carries.
    let carried = sent.len();
    // Encoded here, the transfer coding is applied too, over the content
    // coding (RFC 9112 section 6.1), so that the chain of two decoders is
    // checked for its text, not only for panics.
    if encoded && transfer != 0 {
        sent = encode(&sent, transfer, flags & 0x20 != 0);
    }
    let hint = sent.len() as u64;
    let hint = if flags & 0x40 != 0 { hint } else { 0 };
    let read = read_body(transfer, content, cap, hint, &chunks(&sent, chunk_size));
    let mut text = Vec::new();
    if let Ok((bytes, cut)) = &read {
        assert!(bytes.len() <= cap, "{} kept past the cap of {cap}", bytes.len());
        if transfer == 0 && content == 0 {
            let kept = &sent[..sent.len().min(cap)];
            assert_eq!(bytes, kept, "identity body");
            assert_eq!(*cut, sent.len() > cap, "identity body cut");
        }
        text = bytes.clone();
    }
    if encoded && transfer == 0 {
        let (bytes, cut) = read.expect("a body encoded here decodes");
        assert!(body.starts_with(&bytes), "decoded text is not the body's prefix");
        if !cut {
            assert_eq!(bytes.len(), body.len(), "body lost without a cut");
        } else if coded <= cap {
            // All the coded data in: only the decoded cap cuts it.
            assert!(body.len() > cap, "cut with all data in and the text within the cap");
            assert_eq!(bytes.len(), cap, "the cap not filled");
        }
        if body.len() <= cap && coded <= cap {
            assert!(!cut, "cut within both caps");
        }
    } else if encoded {
        let (bytes, cut) = read.expect("a body encoded here in two codings decodes");
        assert!(body.starts_with(&bytes), "chain: decoded text is not the body's prefix");
        if !cut {
            assert_eq!(bytes.len(), body.len(), "chain: body lost without a cut");
        }
        // Everything within the cap (the transfer-coded data, the content-
        // coded data with its padding, and the text): never cut.
        if sent.len() <= cap && carried <= cap {
            if body.len() <= cap {
                assert!(!cut, "chain: cut within every cap");
            } else {
                assert!(cut, "chain: text past the cap not cut");
                assert_eq!(bytes.len(), cap, "chain: the cap not filled");
            }
        }
    }

    // The text as the parser gets it, and parsed.
    let text = to_utf8(text, headers.get(header::CONTENT_TYPE), flags & 0x80 != 0);
    let robots = Robots::parse(&text);
    let _ = robots.is_allowed("FuzzBot", "/a");

    // Timing: the rules' expiry and an unreachable result's, within a day.
    let (expires, retry, unreachable) = timing(&headers, now, Duration::from_secs(3600));
    assert!(now <= expires && expires <= now + DAY, "expiry {expires:?} at {now:?}");
    assert!(retry.is_none_or(|r| r <= DAY));
    assert!(now <= unreachable && unreachable <= now + DAY);

    // A redirect followed is one a client can request.
    let current = Url::parse("http://example.com:8080/dir/robots.txt").unwrap();
    if let Ok(next) = redirect_target(&current, &headers) {
        assert!(matches!(next.scheme(), "http" | "https"), "{next}");
        assert!(next.username().is_empty() && next.password().is_none(), "{next}");
        assert!(next.fragment().is_none(), "{next}");
        assert_eq!(Url::parse(next.as_str()).as_ref(), Ok(&next));
    }

    // An ETag kept goes back as it came.
    if let Some(etag) = headers.get(header::ETAG) {
        let (text, back) = etag_round_trip(etag.clone());
        assert!(text.is_some(), "ETag dropped");
        assert_eq!(back.as_ref(), Some(etag), "ETag sent back changed");
    }
});
