//! Reading a response body up to a byte cap (RFC 9309 section 2.5).

use memchr::memrchr2;

/// A body read up to a cap.
#[derive(Debug)]
pub(crate) struct CappedBody {
    /// The bytes read, at most the cap.
    pub(crate) bytes: Vec<u8>,
    /// Whether the body went on past the cap (the rest was never read).
    pub(crate) truncated: bool,
}

/// Why a body could not be read to its end.
#[derive(Debug)]
pub(crate) struct BodyError {
    /// The transport error.
    pub(crate) error: reqwest::Error,
    /// How many (decoded) bytes had arrived before it.
    pub(crate) received: u64,
}

/// The most a read allocates on a `Content-Length` alone: the default cap
/// (500 KiB), more than nearly every robots.txt needs.
const PREALLOCATE_MAX: usize = super::MIN_BODY_LIMIT;

/// Reads at most `cap` bytes of `response`'s body, as decoded by the client
/// (so a compressed body counts its inflated size). Stops as soon as the cap
/// is reached without reading (or inflating) the rest; the response is then
/// dropped, which closes the connection.
pub(crate) async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<CappedBody, BodyError> {
    let hint = response.content_length().unwrap_or(0);
    // A length header is only a hint: allocate for it up to the cap, and
    // never more than `PREALLOCATE_MAX` ahead of the bytes that arrive (the
    // cap may be raised as far as `usize::MAX`, and a server may lie).
    let mut bytes = Vec::with_capacity(
        usize::try_from(hint)
            .unwrap_or(cap)
            .min(cap)
            .min(PREALLOCATE_MAX),
    );
    loop {
        let chunk = match response.chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => {
                return Ok(CappedBody {
                    bytes,
                    truncated: false,
                });
            }
            Err(error) => {
                return Err(BodyError {
                    error,
                    received: bytes.len() as u64,
                });
            }
        };
        let room = cap - bytes.len();
        if chunk.len() > room {
            bytes.extend_from_slice(&chunk[..room]);
            return Ok(CappedBody {
                bytes,
                truncated: true,
            });
        }
        bytes.extend_from_slice(&chunk);
        // At the cap with more announced: done, without waiting for a chunk
        // that would only be dropped (a server stalling there would
        // otherwise turn a long file into a timeout).
        if bytes.len() == cap && hint > cap as u64 {
            return Ok(CappedBody {
                bytes,
                truncated: true,
            });
        }
    }
}

/// Drops the last line if it has no line end: what is left of a body cut at
/// the cap is then only complete lines.
pub(crate) fn drop_partial_line(body: &mut Vec<u8>) {
    let keep = memrchr2(b'\n', b'\r', body).map_or(0, |end| end + 1);
    body.truncate(keep);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_line_is_dropped() {
        let mut body = b"Disallow: /a\nDisallow: /b\nDisallow: /c".to_vec();
        drop_partial_line(&mut body);
        assert_eq!(body, b"Disallow: /a\nDisallow: /b\n");
        let mut body = b"Disallow: /a\r".to_vec();
        drop_partial_line(&mut body);
        assert_eq!(body, b"Disallow: /a\r");
        let mut body = b"no line end at all".to_vec();
        drop_partial_line(&mut body);
        assert!(body.is_empty());
    }
}
