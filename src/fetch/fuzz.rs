//! What a fetch reads of a server's response, without the network, for the
//! fuzz targets (the hidden `__fuzz` feature; re-exported as
//! `keepout::__fuzz`). Each hook calls the code a fetch runs.

use std::time::{Duration, SystemTime};

use http::header::ETAG;
use http::{HeaderMap, HeaderValue};
use url::Url;

use super::body::{Coding, Read, Reading};
use super::{exchange, expiry, redirect};
use crate::charset::{self, Label};

/// The coding numbered `n` (mod 4): identity, gzip, deflate, brotli.
fn coding(n: u8) -> Coding {
    match n % 4 {
        0 => Coding::Identity,
        1 => Coding::Gzip,
        2 => Coding::Deflate,
        _ => Coding::Brotli,
    }
}

/// Reads a body arriving in `chunks` as a fetch does: in `transfer` coding
/// (besides chunked) over `content` coding (numbered 0 identity, 1 gzip,
/// 2 deflate, 3 brotli, modulo 4), of announced length `hint` (0: none), at
/// most `cap` octets as sent and as decoded. The text and whether it was
/// cut at the cap, or why the data could not be decoded.
pub fn read_body(
    transfer: u8,
    content: u8,
    cap: usize,
    hint: u64,
    chunks: &[&[u8]],
) -> Result<(Vec<u8>, bool), String> {
    let mut reading = Reading::new(coding(transfer), coding(content), cap, hint);
    let mut truncated = None;
    for chunk in chunks {
        if let Read::Done { truncated: cut } = reading.chunk(chunk)? {
            truncated = Some(cut);
            break;
        }
    }
    let truncated = match truncated {
        Some(cut) => cut,
        None => reading.end()?,
    };
    let body = reading.into_body(truncated);
    Ok((body.bytes, body.truncated))
}

/// The codings a response with these `Transfer-Encoding` and
/// `Content-Encoding` values is read in (numbered as for [`read_body`]), or
/// why it cannot be.
pub fn codings(transfer: &[HeaderValue], content: &[HeaderValue]) -> Result<(u8, u8), String> {
    let mut headers = HeaderMap::new();
    for value in transfer {
        headers.append(http::header::TRANSFER_ENCODING, value.clone());
    }
    for value in content {
        headers.append(http::header::CONTENT_ENCODING, value.clone());
    }
    let number = |c: Coding| match c {
        Coding::Identity => 0,
        Coding::Gzip => 1,
        Coding::Deflate => 2,
        Coding::Brotli => 3,
    };
    Ok((
        number(Coding::transfer(&headers)?),
        number(Coding::of(&headers)?.coding),
    ))
}

/// A body as the parser is handed it, under `Content-Type: content_type`
/// (none if `None`), `truncated` if cut at the cap.
pub fn to_utf8(body: Vec<u8>, content_type: Option<&HeaderValue>, truncated: bool) -> Vec<u8> {
    let label = content_type.and_then(|value| Label::of_content_type(value.as_bytes()));
    let mut text = match charset::detect(&body, label, truncated) {
        // As the parser decodes (`parse::parse_in`): without sniffing a
        // byte order mark, which `decode` would obey over the encoding.
        Some(encoding) => encoding
            .decode_with_bom_removal(&body)
            .0
            .into_owned()
            .into_bytes(),
        None => body,
    };
    if truncated {
        text.truncate(crate::parse::complete_lines(&text).len());
    }
    text
}

/// What a fetch at `now` makes of response `headers`: the rules' expiry,
/// the `Retry-After` delay, and an unreachable result's expiry with
/// `ttl`.
pub fn timing(
    headers: &HeaderMap,
    now: SystemTime,
    ttl: Duration,
) -> (SystemTime, Option<Duration>, SystemTime) {
    let retry = expiry::retry_after(headers, now);
    (
        expiry::expiry_from_headers(headers, now),
        retry,
        expiry::unreachable_expiry(headers, retry, now, ttl),
    )
}

/// Where a redirect from `current` with `headers` goes, or why it is not
/// followed (as `Debug` text).
pub fn redirect_target(current: &Url, headers: &HeaderMap) -> Result<Url, String> {
    redirect::target(current, headers).map_err(|why| format!("{why:?}"))
}

/// The `ETag` value kept from `value`, and the octets a refresh sends back
/// for it.
pub fn etag_round_trip(value: HeaderValue) -> (Option<String>, Option<HeaderValue>) {
    let mut headers = HeaderMap::new();
    headers.insert(ETAG, value);
    let text = exchange::etag_text(&headers);
    let back = text.as_deref().and_then(exchange::etag_value);
    (text, back)
}
