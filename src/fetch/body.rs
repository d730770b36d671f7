//! Reading a response body up to a byte cap (RFC 9309 section 2.5), and
//! decoding its content coding (RFC 9110 section 8.4) as it arrives, after
//! its transfer coding if it has one besides chunked (RFC 9112 section 6.1:
//! the HTTP client undoes only the chunked framing).
//!
//! The fetcher's own client leaves content codings to this module rather
//! than to the HTTP client, so that the cap bounds both ends: at most `cap`
//! octets are downloaded, and at most `cap` octets of text are inflated
//! from them. (Counted after decoding alone, a stream that inflates to
//! nothing, such as empty deflate blocks without end, would be downloaded
//! until the timeout.) Coding names are matched as RFC 9110
//! says, case-insensitively, with `x-gzip` for `gzip`; `deflate` is the
//! zlib format, or raw deflate as some servers send it. A name that is no
//! coding at all (`utf-8`) is ignored on a body that looks like text
//! ([`Labelled::stray`]). Brotli, which the
//! fetcher's own client does not ask for, is decoded only if the window
//! its stream declares (RFC 7932 section 9.1) is at most
//! [`MAX_BROTLI_WINDOW`]: its decoder keeps the whole window, whatever the
//! cap. A transfer coding is undone as a content coding is, into the
//! content coding's decoder, each decoding at most `cap` octets.
//!
//! A body with no octets is empty whatever its coding (a 204, or a 200 with
//! `Content-Length: 0`). Octets after the end of the coded data, which
//! some servers append (a line end, zero padding), are neither decoded nor
//! read: the body ends with the data, as it does in browsers and in the
//! HTTP client's own decoder.
//!
//! A decoder learns that its data has ended only from what follows the
//! end (a gzip member may be followed by another). So when coded data
//! reaches the cap, up to [`PROBE_PAST_CAP`] octets past it are offered to
//! the decoder to learn just that, with nothing they decode kept: data
//! that ends at the cap, then padding, is complete, not cut there (which
//! would drop its last line, RFC 9309 section 2.5). (Not yet under a
//! transfer coding, for content-coded data of exactly the cap's length
//! with padding after it inside the transfer coding: such a body is taken
//! for one cut at the cap. Transfer codings besides chunked are rare.)

use std::io::{self, Write};

use http::HeaderMap;
use http::header::{CONTENT_ENCODING, TRANSFER_ENCODING};

use crate::limits::{MAX_BROTLI_WINDOW, MAX_GZIP_MEMBERS};

/// A body read up to a cap.
#[derive(Debug)]
pub(crate) struct CappedBody {
    /// The bytes read (decoded), at most the cap.
    pub(crate) bytes: Vec<u8>,
    /// Whether the body went on past the cap (the rest was never read).
    pub(crate) truncated: bool,
}

/// Why a body could not be read to its end.
#[derive(Debug)]
pub(crate) enum BodyError {
    /// The transport failed.
    Transport {
        error: reqwest::Error,
        /// How many octets (as sent, before decoding) had arrived before.
        received: u64,
    },
    /// A content coding that is not supported, or data it cannot decode.
    Decode(String),
}

/// The most a read allocates on a `Content-Length` alone: the default cap
/// (500 KiB), more than nearly every robots.txt needs.
const PREALLOCATE_MAX: usize = super::MIN_BODY_LIMIT;

/// The most octets past the cap offered to a decoder whose coded data
/// reached the cap, to learn whether that data ended there: more than
/// any coding needs after its last octet of text (a gzip trailer is 8
/// octets, a zlib one 4, an empty last deflate or brotli block one or
/// two), and little to decode.
const PROBE_PAST_CAP: usize = 1024;

/// The content codings decoded here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coding {
    Identity,
    Gzip,
    Deflate,
    Brotli,
}

/// What the fetcher's requests send as `Accept-Encoding`: not `br`,
/// whose decoder holds the window the stream declares, up to 16 MiB
/// (RFC 7932 section 9.1), whatever the body limit. A brotli body sent
/// anyway is decoded only within [`MAX_BROTLI_WINDOW`].
pub(crate) const ACCEPTED_CODINGS: &str = "gzip, deflate";

/// Content codings keepout does not decode: those of IANA's HTTP Content
/// Coding Registry (RFC 9110 section 16.6.1) but `gzip`, `x-gzip`,
/// `deflate`, `br` and `identity`, compressions some servers name outside
/// it, and `base64`. A body in one is unreachable. Any other name is no
/// content coding at all (servers send `utf-8`, `none`, `binary`): see
/// [`Labelled::stray`].
const UNDECODED_CODINGS: &[&str] = &[
    "aes128gcm",
    "compress",
    "dcb",
    "dcz",
    "exi",
    "pack200-gzip",
    "x-compress",
    "zstd",
    "bzip2",
    "x-bzip2",
    "lz4",
    "lzma",
    "sdch",
    "snappy",
    "xz",
    "base64",
];

/// What a response's `Content-Encoding` says of its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Labelled {
    /// The coding to undo.
    pub(crate) coding: Coding,
    /// With no coding named, the first name listed that is no content
    /// coding (`Content-Encoding: utf-8`): the body is read as sent if it
    /// looks like text ([`looks_like_text`]), as browsers and the HTTP
    /// client's own decoder ignore such names; otherwise it is unreachable.
    pub(crate) stray: Option<String>,
}

impl Coding {
    /// The coding of a response with `headers`, from its `Content-Encoding`
    /// (RFC 9110 section 8.4.1: names are case-insensitive, `identity`
    /// adds nothing, `x-gzip` is `gzip`; section 5.6.1.2: empty list
    /// elements, or an empty header, add nothing either). One coding at
    /// most: a body coded twice, or in a coding of [`UNDECODED_CODINGS`],
    /// is an error naming it. Other names are no codings
    /// ([`Labelled::stray`]).
    pub(crate) fn of(headers: &HeaderMap) -> Result<Labelled, String> {
        let mut found = Coding::Identity;
        let mut stray = None;
        for value in headers.get_all(CONTENT_ENCODING) {
            let text = String::from_utf8_lossy(value.as_bytes());
            let names = text.split(',').map(str::trim);
            for name in names.filter(|name| !name.is_empty()) {
                let coding = match Coding::named(name) {
                    Some(Coding::Identity) => continue,
                    Some(coding) => coding,
                    None if UNDECODED_CODINGS
                        .iter()
                        .any(|known| name.eq_ignore_ascii_case(known)) =>
                    {
                        return Err(format!("content coding {name:?} is not supported"));
                    }
                    None => {
                        stray.get_or_insert_with(|| name.to_owned());
                        continue;
                    }
                };
                if found != Coding::Identity {
                    return Err("a body in several content codings is not supported".into());
                }
                found = coding;
            }
        }
        Ok(Labelled {
            coding: found,
            // Beside a coding, a stray name is left to that coding's
            // decoder, which refuses what is not its data.
            stray: stray.filter(|_| found == Coding::Identity),
        })
    }

    /// The transfer coding of a response with `headers`, from its
    /// `Transfer-Encoding`, besides `chunked`, which the HTTP client undoes
    /// when it is the final coding, as it must be when there is one (RFC
    /// 9112 section 6.1; without it, the body is read to the close). Other
    /// transfer codings are applied after the content coding (section 6.1),
    /// so undone before it, and named as content codings are (section 7:
    /// `gzip`, `x-gzip`, `deflate`, and `br` here too; `identity` adds
    /// nothing). One at most: a body in several, in a coding not listed,
    /// or chunked before another coding, is an error naming it.
    pub(crate) fn transfer(headers: &HeaderMap) -> Result<Coding, String> {
        let values = headers.get_all(TRANSFER_ENCODING);
        // What the HTTP client (hyper) takes as chunked framing, and undoes:
        // a last listed coding of `chunked`.
        let unchunked = values
            .iter()
            .next_back()
            .and_then(|value| value.to_str().ok())
            .and_then(|text| text.rsplit(',').next())
            .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
        let text: Vec<String> = values
            .iter()
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
            .collect();
        let mut names: Vec<&str> = text
            .iter()
            .flat_map(|text| text.split(',').map(str::trim))
            .filter(|name| !name.is_empty())
            .collect();
        if unchunked {
            names.pop();
        }
        let mut found = Coding::Identity;
        for name in names {
            let coding = match Coding::named(name) {
                Some(Coding::Identity) => continue,
                Some(coding) => coding,
                // Not the list's last element as the client reads it, so
                // its framing was left in: `chunked, gzip`, or `chunked,`
                // (an empty last element, which the client does not skip).
                None if name.eq_ignore_ascii_case("chunked") => {
                    let list = text.join(", ");
                    return Err(format!(
                        "chunked is not the last transfer coding in {list:?}, which is not supported"
                    ));
                }
                None => return Err(format!("transfer coding {name:?} is not supported")),
            };
            if found != Coding::Identity {
                return Err("a body in several transfer codings is not supported".into());
            }
            found = coding;
        }
        Ok(found)
    }

    /// The coding a name in `Content-Encoding` or `Transfer-Encoding` names
    /// (RFC 9110 section 8.4.1, RFC 9112 section 7: case-insensitive,
    /// `x-gzip` is `gzip`), if it is one decoded here.
    fn named(name: &str) -> Option<Coding> {
        let is = |known: &str| name.eq_ignore_ascii_case(known);
        if is("identity") {
            Some(Coding::Identity)
        } else if is("gzip") || is("x-gzip") {
            Some(Coding::Gzip)
        } else if is("deflate") {
            Some(Coding::Deflate)
        } else if is("br") {
            Some(Coding::Brotli)
        } else {
            None
        }
    }

    /// How errors name data in this coding.
    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "brotli",
            Coding::Identity => "identity",
        }
    }
}

/// Where a decoder writes: takes up to `cap` octets, then refuses more and
/// says so (`full`).
struct Sink {
    /// How many octets were taken, kept or handed on.
    taken: usize,
    cap: usize,
    full: bool,
    out: Out,
}

/// What a [`Sink`] does with the octets it takes.
enum Out {
    /// Keeps them: the end of the chain.
    Keep(Vec<u8>),
    /// Hands them on to the decoder of the coding to undo next (the content
    /// coding, under a transfer coding).
    Next(Box<Next>),
}

/// The decoder a [`Sink`] hands its octets on to.
struct Next {
    decoder: Decoder,
    /// Its data has ended: what follows is not decoded.
    ended: bool,
    /// It failed (its own data, or its sink full): the error is its own.
    failed: bool,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.next_ended() {
            // What follows the content coding's data is not data: refused,
            // so that the transfer coding's decoder stops (rather than
            // inflate the rest of its input, uncounted) and its error is
            // read as the body's end ([`Decoder::decode`]); not counted,
            // so that padding never makes a complete body look cut at the
            // cap.
            return Err(io::Error::other("the content coding's data has ended"));
        }
        let room = self.cap - self.taken;
        let n = buf.len().min(room);
        if room == 0 && !buf.is_empty() {
            self.full = true;
            return Err(io::Error::other("the body limit is reached"));
        }
        match &mut self.out {
            Out::Keep(bytes) => bytes.extend_from_slice(&buf[..n]),
            Out::Next(next) => match next.decoder.decode(&buf[..n]) {
                Ok(Fed::More) => {}
                Ok(Fed::Ended) => {
                    // The content coding's data ended within `buf`: the
                    // rest of it follows the data.
                    next.ended = true;
                    self.taken += n;
                    return Ok(buf.len());
                }
                Err(error) => {
                    next.failed = true;
                    return Err(error);
                }
            },
        }
        self.taken += n;
        self.full |= n < buf.len();
        Ok(n)
    }

    /// Nothing to write out: the next decoder, if any, has decoded all it
    /// was handed ([`Decoder::decode`]).
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink {
    /// A sink keeping up to `cap` octets, with room for `capacity`.
    fn new(capacity: usize, cap: usize) -> Sink {
        Sink::with(Out::Keep(Vec::with_capacity(capacity)), cap)
    }

    /// A sink handing up to `cap` octets on to `decoder`.
    fn to(decoder: Decoder, cap: usize) -> Sink {
        let next = Next {
            decoder,
            ended: false,
            failed: false,
        };
        Sink::with(Out::Next(Box::new(next)), cap)
    }

    /// A sink taking up to `cap` octets into `out`.
    fn with(out: Out, cap: usize) -> Sink {
        Sink {
            taken: 0,
            cap,
            full: false,
            out,
        }
    }

    /// An empty stand-in, while a decoder's sink moves to the next decoder.
    fn placeholder() -> Sink {
        Sink::new(0, 0)
    }

    /// Whether this sink, or one after it, has refused octets.
    fn is_full(&mut self) -> bool {
        self.full
            || match &mut self.out {
                Out::Keep(_) => false,
                Out::Next(next) => next.decoder.sink().is_full(),
            }
    }

    /// Whether this sink, or one after it, has taken all it can.
    fn at_cap(&mut self) -> bool {
        self.taken == self.cap
            || match &mut self.out {
                Out::Keep(_) => false,
                Out::Next(next) => next.decoder.sink().at_cap(),
            }
    }

    /// Keeps no more octets: the sink at the end of the chain refuses any
    /// more (as full), while the sinks before it still hand theirs on, so
    /// that each decoder can still tell where its data ends.
    fn freeze(&mut self) {
        match &mut self.out {
            Out::Keep(_) => self.cap = self.taken,
            Out::Next(next) => next.decoder.sink().freeze(),
        }
    }

    /// The octets kept, at the end of the chain.
    fn kept(&mut self) -> &mut Vec<u8> {
        match &mut self.out {
            Out::Keep(bytes) => bytes,
            Out::Next(next) => next.decoder.sink().kept(),
        }
    }

    /// Whether the next decoder's data has ended: the body is complete.
    fn next_ended(&self) -> bool {
        matches!(&self.out, Out::Next(next) if next.ended)
    }

    /// Whether the next decoder failed.
    fn next_failed(&self) -> bool {
        matches!(&self.out, Out::Next(next) if next.failed)
    }

    /// Ends the next decoder's data, as the data it is handed has ended:
    /// an error if that stops short.
    fn end(&mut self) -> io::Result<()> {
        match &mut self.out {
            Out::Keep(_) => Ok(()),
            Out::Next(next) if next.ended => Ok(()),
            Out::Next(next) => next.decoder.finish().inspect_err(|_| next.failed = true),
        }
    }
}

/// Whether a coded stream goes on after the input written so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fed {
    /// It may: read on.
    More,
    /// It ended within the input, and nothing after its end is data: the
    /// body is complete.
    Ended,
}

/// Gzip data: one or more members, one after another (RFC 1952 section
/// 2.2), at most [`MAX_GZIP_MEMBERS`]. Each variant holds how many members
/// have begun.
enum Gzip {
    /// Inside a member.
    Member(Box<flate2::write::GzDecoder<Sink>>, usize),
    /// After a complete member: another follows only if the next octet
    /// starts one (ID1, 0x1F); anything else is what some servers append (a
    /// line end, zero padding) and is ignored, as browsers and the HTTP
    /// client's own decoder do.
    Between(Sink, usize),
}

impl Gzip {
    fn sink(&mut self) -> &mut Sink {
        match self {
            Gzip::Member(d, _) => d.get_mut(),
            Gzip::Between(sink, _) => sink,
        }
    }

    /// The start of gzip data, into `sink`.
    fn new(sink: Sink) -> Gzip {
        Gzip::Member(Box::new(flate2::write::GzDecoder::new(sink)), 1)
    }

    /// Decodes `input`, member after member. A loop, not recursion: a body
    /// may hold thousands of empty members (refused past the limit).
    fn write(&mut self, mut input: &[u8]) -> io::Result<Fed> {
        while let Some(&first) = input.first() {
            match self {
                Gzip::Member(d, begun) => {
                    let n = d.write(input)?;
                    if n == 0 {
                        // The member is complete (the decoder takes nothing
                        // after its trailer): check its CRC and length.
                        d.try_finish()?;
                        let sink = std::mem::replace(d.get_mut(), Sink::placeholder());
                        *self = Gzip::Between(sink, *begun);
                    }
                    input = &input[n..];
                }
                Gzip::Between(_, begun) if first == 0x1F && *begun == MAX_GZIP_MEMBERS => {
                    // Each member costs a decoder of some 75 KiB, allocated
                    // and zeroed: empty members would cost far more work
                    // than the octets they take.
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("more than {MAX_GZIP_MEMBERS} members"),
                    ));
                }
                Gzip::Between(sink, begun) if first == 0x1F => {
                    let sink = std::mem::replace(sink, Sink::placeholder());
                    let decoder = Box::new(flate2::write::GzDecoder::new(sink));
                    *self = Gzip::Member(decoder, *begun + 1);
                }
                Gzip::Between(..) => return Ok(Fed::Ended),
            }
        }
        Ok(Fed::More)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Gzip::Member(d, _) => d.flush(),
            Gzip::Between(..) => Ok(()),
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        match self {
            Gzip::Member(d, _) => d.try_finish(),
            Gzip::Between(..) => Ok(()),
        }
    }
}

/// A streaming decoder into a [`Sink`].
enum Decoder {
    Identity(Sink),
    Gzip(Gzip),
    /// `deflate` before its first two octets, which tell zlib from raw
    /// deflate, have arrived.
    DeflateStart(Sink, Vec<u8>),
    Zlib(flate2::write::ZlibDecoder<Sink>),
    RawDeflate(flate2::write::DeflateDecoder<Sink>),
    /// `br` before its first octet, which declares the window, has arrived.
    BrotliStart(Sink),
    Brotli(Box<brotli::DecompressorWriter<Sink>>),
}

/// The window a brotli stream declares, as WBITS (the window is 2^WBITS
/// − 16 octets), from its first octet: RFC 7932 section 9.1 codes WBITS
/// in the stream's first 1 to 7 bits, least significant first. `None` for
/// the pattern RFC 7932 leaves invalid (0010001), which Large Window Brotli
/// uses to declare windows of up to 1 GiB.
fn brotli_window_bits(first: u8) -> Option<u32> {
    if first & 1 == 0 {
        return Some(16);
    }
    match (first >> 1) & 7 {
        0 => match (first >> 4) & 7 {
            0 => Some(17),
            1 => None,
            m => Some(8 + u32::from(m)),
        },
        n => Some(17 + u32::from(n)),
    }
}

/// Refuses a brotli stream whose first octet, `first`, declares a window
/// larger than [`MAX_BROTLI_WINDOW`]: the decoder would hold it all,
/// however little of the stream is read.
fn check_brotli_window(first: u8) -> io::Result<()> {
    let size = |bits: u32| match bits {
        20.. => format!("{} MiB", 1u64 << (bits - 20)),
        _ => format!("{} KiB", 1u64 << bits.saturating_sub(10)),
    };
    let limit = size(MAX_BROTLI_WINDOW.trailing_zeros());
    match brotli_window_bits(first) {
        Some(bits) if 1usize << bits <= MAX_BROTLI_WINDOW => Ok(()),
        Some(bits) => Err(io::Error::other(format!(
            "the stream declares a {} window (WBITS {bits}), above the limit of {limit}",
            size(bits)
        ))),
        None => Err(io::Error::other(format!(
            "the stream declares a large window (Large Window Brotli, beyond RFC 7932), \
             above the limit of {limit}"
        ))),
    }
}

impl Decoder {
    fn new(coding: Coding, sink: Sink) -> Decoder {
        match coding {
            Coding::Identity => Decoder::Identity(sink),
            Coding::Gzip => Decoder::Gzip(Gzip::new(sink)),
            Coding::Deflate => Decoder::DeflateStart(sink, Vec::new()),
            Coding::Brotli => Decoder::BrotliStart(sink),
        }
    }

    /// A decoder undoing `transfer`, then `content`, into `sink`: the
    /// transfer coding's decoder hands its output to the content coding's,
    /// each up to the cap of `sink`.
    fn chain(transfer: Coding, content: Coding, sink: Sink) -> Decoder {
        match (transfer, content) {
            (Coding::Identity, coding) | (coding, Coding::Identity) => Decoder::new(coding, sink),
            (transfer, content) => {
                let cap = sink.cap;
                Decoder::new(transfer, Sink::to(Decoder::new(content, sink), cap))
            }
        }
    }

    fn sink(&mut self) -> &mut Sink {
        match self {
            Decoder::Identity(sink)
            | Decoder::DeflateStart(sink, _)
            | Decoder::BrotliStart(sink) => sink,
            Decoder::Gzip(g) => g.sink(),
            Decoder::Zlib(d) => d.get_mut(),
            Decoder::RawDeflate(d) => d.get_mut(),
            Decoder::Brotli(d) => d.get_mut(),
        }
    }

    /// Decodes `input` into the sink, as far as it has room. A decoder
    /// takes none of its input (`Ok(0)`) once its stream has ended: zlib,
    /// raw deflate and brotli data then end there, whatever follows
    /// (checked complete by `try_finish`), and a gzip member gives way to
    /// the next, if any ([`Gzip::write`]).
    fn write(&mut self, input: &[u8]) -> io::Result<Fed> {
        match self {
            Decoder::Identity(sink) => sink.write_all(input).map(|()| Fed::More),
            Decoder::Zlib(d) => match feed(d, input)? {
                Fed::Ended => d.try_finish().map(|()| Fed::Ended),
                Fed::More => Ok(Fed::More),
            },
            Decoder::RawDeflate(d) => match feed(d, input)? {
                Fed::Ended => d.try_finish().map(|()| Fed::Ended),
                Fed::More => Ok(Fed::More),
            },
            Decoder::Brotli(d) => feed(d, input),
            Decoder::BrotliStart(sink) => {
                let Some(&first) = input.first() else {
                    return Ok(Fed::More);
                };
                check_brotli_window(first)?;
                let sink = std::mem::replace(sink, Sink::placeholder());
                *self = Decoder::Brotli(Box::new(brotli::DecompressorWriter::new(sink, 4096)));
                self.write(input)
            }
            Decoder::Gzip(g) => g.write(input),
            Decoder::DeflateStart(sink, head) => {
                head.extend_from_slice(input);
                if head.len() < 2 {
                    return Ok(Fed::More);
                }
                // RFC 1950 section 2.2: a zlib stream starts with a CMF
                // octet of method 8 and a check making CMF·256 + FLG a
                // multiple of 31; raw deflate data rarely does.
                let (cmf, flg) = (head[0], head[1]);
                let zlib = cmf & 0x0F == 8 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0;
                let head = std::mem::take(head);
                let sink = std::mem::replace(sink, Sink::placeholder());
                *self = if zlib {
                    Decoder::Zlib(flate2::write::ZlibDecoder::new(sink))
                } else {
                    Decoder::RawDeflate(flate2::write::DeflateDecoder::new(sink))
                };
                self.write(&head)
            }
        }
    }

    /// Decodes `input` as [`write`](Decoder::write) does, then writes out
    /// what the decoder holds of it: flate2's decoders keep up to 32 KiB of
    /// output until the next write, which would hide from the sink that
    /// the data so far inflates past the cap, or up to it.
    ///
    /// Under a transfer coding, the content coding's decoder takes the
    /// output ([`Sink::to`]): when this data ends, so must that; when that
    /// data ends, the body is complete.
    fn decode(&mut self, input: &[u8]) -> io::Result<Fed> {
        let written = self.write(input).and_then(|fed| match fed {
            Fed::More => self.flush().map(|()| Fed::More),
            Fed::Ended => self.sink().end().map(|()| Fed::Ended),
        });
        match written {
            // The content coding's data ended, and its sink refused what
            // this coding decoded after it.
            _ if self.sink().next_ended() => Ok(Fed::Ended),
            written => written,
        }
    }

    /// Writes out what the decoder holds.
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Decoder::Identity(_) | Decoder::DeflateStart(..) | Decoder::BrotliStart(_) => Ok(()),
            Decoder::Gzip(g) => g.flush(),
            Decoder::Zlib(d) => d.flush(),
            Decoder::RawDeflate(d) => d.flush(),
            Decoder::Brotli(d) => d.flush(),
        }
    }

    /// Ends the stream, and the next decoder's if any: an error if the
    /// coded data stops short.
    fn finish(&mut self) -> io::Result<()> {
        match self.finish_own() {
            // The content coding's data ended: what this coding still held
            // follows it (refused, see `Sink::write`).
            Err(_) if self.sink().next_ended() => Ok(()),
            finished => finished.and_then(|()| self.sink().end()),
        }
    }

    fn finish_own(&mut self) -> io::Result<()> {
        match self {
            Decoder::Identity(_) => Ok(()),
            Decoder::DeflateStart(_, head) if head.is_empty() => Ok(()),
            Decoder::DeflateStart(..) => Err(io::Error::other("deflate data cut short")),
            Decoder::BrotliStart(_) => Ok(()),
            Decoder::Gzip(g) => g.finish(),
            Decoder::Zlib(d) => d.try_finish(),
            Decoder::RawDeflate(d) => d.try_finish(),
            Decoder::Brotli(d) => d.close(),
        }
    }
}

/// Writes `input` to a decoder until it is all taken, or the decoder takes
/// none: its stream has ended, and the rest follows the end.
fn feed(decoder: &mut impl Write, mut input: &[u8]) -> io::Result<Fed> {
    while !input.is_empty() {
        match decoder.write(input)? {
            0 => return Ok(Fed::Ended),
            n => input = &input[n..],
        }
    }
    Ok(Fed::More)
}

/// A body being read and decoded: everything reading does but the I/O,
/// which [`read_capped`] does. Chunks go in as they arrive
/// ([`chunk`](Self::chunk)), then the end of the body if it comes first
/// ([`end`](Self::end)); at most `cap` octets are taken as sent, and at
/// most `cap` kept as decoded.
pub(crate) struct Reading {
    decoder: Decoder,
    transfer: Coding,
    content: Coding,
    cap: usize,
    /// The length the response announced, 0 if none.
    hint: u64,
    /// Octets taken so far, as sent.
    received: usize,
    /// Octets past the cap offered to the decoder ([`PROBE_PAST_CAP`]).
    probed: usize,
}

/// What reading a chunk leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Read {
    /// Read on.
    More,
    /// The body is read: complete, or cut at the cap (`truncated`), the
    /// rest never to be read.
    Done { truncated: bool },
}

impl Reading {
    /// Reading a body in `transfer` coding (besides chunked) over
    /// `content` coding, of announced length `hint` (0 if none).
    pub(crate) fn new(transfer: Coding, content: Coding, cap: usize, hint: u64) -> Reading {
        // A length header is only a hint: allocate for it up to the cap,
        // and never more than `PREALLOCATE_MAX` ahead of the bytes that
        // arrive (the cap may be raised as far as `usize::MAX`, and a
        // server may lie).
        let capacity = usize::try_from(hint)
            .unwrap_or(cap)
            .min(cap)
            .min(PREALLOCATE_MAX);
        Reading {
            decoder: Decoder::chain(transfer, content, Sink::new(capacity, cap)),
            transfer,
            content,
            cap,
            hint,
            received: 0,
            probed: 0,
        }
    }

    /// Octets taken so far, as sent.
    pub(crate) fn received(&self) -> usize {
        self.received
    }

    /// Whether nothing more would be kept: `cap` octets taken as sent, or
    /// decoded from what was taken. A further chunk only tells whether the
    /// body goes on past the cap.
    pub(crate) fn at_cap(&mut self) -> bool {
        self.received == self.cap || self.decoder.sink().at_cap()
    }

    /// Takes a chunk that arrived: as much of it as the cap allows.
    /// `Err` names data that cannot be decoded.
    pub(crate) fn chunk(&mut self, chunk: &[u8]) -> Result<Read, String> {
        // Never more than `cap` octets as sent.
        let take = chunk.len().min(self.cap - self.received);
        self.received += take;
        match self.decoder.decode(&chunk[..take]) {
            // What follows the coded data is not read.
            Ok(Fed::Ended) => return Ok(Read::Done { truncated: false }),
            Ok(Fed::More) => {}
            Err(_) if self.decoder.sink().is_full() => return Ok(Read::Done { truncated: true }),
            Err(error) => return Err(self.failed(&error)),
        }
        if self.decoder.sink().is_full() {
            return Ok(Read::Done { truncated: true });
        }
        if take < chunk.len() {
            return Ok(self.probe(&chunk[take..]));
        }
        // At the cap with more announced: done, without waiting for a chunk
        // that would only be dropped (a server stalling there would
        // otherwise turn a long file into a timeout). Coded data may have
        // ended at the cap, the rest padding: that is learnt from the next
        // chunk, when what is announced past the cap is no more than the
        // probe would read.
        let past = self.hint.saturating_sub(self.cap as u64);
        if self.received == self.cap && past > 0 && (!self.coded() || past > PROBE_PAST_CAP as u64)
        {
            return Ok(Read::Done { truncated: true });
        }
        Ok(Read::More)
    }

    /// Whether the body has a coding to undo, whose data may end before
    /// the body does.
    fn coded(&self) -> bool {
        self.transfer != Coding::Identity || self.content != Coding::Identity
    }

    /// Offers octets `past` the cap to the decoder, only to learn whether
    /// its data ended at the cap (the body is then complete); nothing they
    /// decode to is kept ([`Sink::freeze`]). Plain octets past the cap are
    /// data: cut there.
    fn probe(&mut self, past: &[u8]) -> Read {
        let n = past.len().min(PROBE_PAST_CAP - self.probed);
        if !self.coded() || n == 0 {
            return Read::Done { truncated: true };
        }
        self.probed += n;
        self.decoder.sink().freeze();
        match self.decoder.decode(&past[..n]) {
            Ok(Fed::Ended) => Read::Done { truncated: false },
            // Neither an end nor text yet (a gzip trailer split across
            // chunks): read on, up to the probe's limit.
            Ok(Fed::More) if self.probed < PROBE_PAST_CAP && !self.decoder.sink().is_full() => {
                Read::More
            }
            // Text past the cap (refused by the frozen sink), no end within
            // the limit, or data that does not decode past the cap, which
            // would never be read: cut at the cap.
            _ => Read::Done { truncated: true },
        }
    }

    /// The body ended: whether it was cut at the cap (`Ok(true)`: the end
    /// of the coded data brought output past it, or the data went on past
    /// the cap), or `Err` if the coded data stops short.
    pub(crate) fn end(&mut self) -> Result<bool, String> {
        // No body at all, whatever its `Content-Encoding` says (a 204,
        // say): no rules, not data cut short.
        if self.received == 0 {
            return Ok(false);
        }
        match self.decoder.finish() {
            Ok(()) => Ok(false),
            // The data went past the cap, and what follows the cap is never
            // read: cut there, however the data ends.
            Err(_) if self.decoder.sink().is_full() || self.probed > 0 => Ok(true),
            Err(error) => Err(self.failed(&error)),
        }
    }

    /// The text read, once [`Read::Done`] or [`end`](Self::end) said
    /// whether it was `truncated`.
    pub(crate) fn into_body(mut self, truncated: bool) -> CappedBody {
        if truncated {
            // What the decoder holds of the data read; an error here is
            // the cut (the data goes on past what was read) or the sink
            // full.
            let _ = self.decoder.flush();
        }
        let bytes = std::mem::take(self.decoder.sink().kept());
        CappedBody { bytes, truncated }
    }

    /// An error decoding, naming the coding whose data is at fault.
    fn failed(&mut self, error: &io::Error) -> String {
        if self.transfer == Coding::Identity || self.decoder.sink().next_failed() {
            format!("{} data: {error}", self.content.name())
        } else {
            format!("{} data (transfer coding): {error}", self.transfer.name())
        }
    }
}

/// Reads at most `cap` octets of `response`'s body, decoding its content
/// coding ([`Coding::of`]) to at most `cap` octets ([`Reading`]). Stops as
/// soon as either cap is reached without reading (or inflating) the rest;
/// the response is then dropped, which closes the connection.
///
/// `deadline` is the fetch's: with `cap` octets in, or decoded from what
/// is in, and no length given (or, for coded data, a length at most
/// [`PROBE_PAST_CAP`] past the cap, which may be padding), a server that
/// neither ends the body nor sends more by then has sent all that would
/// be read, so the body is cut there (as it is at once when a length says
/// more is coming, or the data in decodes past the cap, or the connection
/// then ends or fails) rather than lost to the timeout.
pub(crate) async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
    deadline: Option<tokio::time::Instant>,
) -> Result<CappedBody, BodyError> {
    // Taken before any octet is read: the HTTP client counts it down as
    // the body is read.
    let hint = response.content_length().unwrap_or(0);
    let headers = response.headers();
    let codings = Coding::transfer(headers).and_then(|t| Ok((t, Coding::of(headers)?)));
    // A body with no octets is empty whatever its codings say (a 204,
    // say): an error waits for the first octet.
    let empty = || CappedBody {
        bytes: Vec::new(),
        truncated: false,
    };
    let (transfer, content, first) = match codings {
        Ok((transfer, labelled)) => match labelled.stray {
            None => (transfer, labelled.coding, None),
            Some(name) => match opening(&mut response, OPENING).await? {
                None => return Ok(empty()),
                Some(head) if transfer == Coding::Identity && looks_like_text(&head) => {
                    (transfer, labelled.coding, Some(head))
                }
                Some(_) => {
                    return Err(BodyError::Decode(format!(
                        "content coding {name:?} is not supported"
                    )));
                }
            },
        },
        Err(why) => {
            // One octet is enough to refuse.
            return match opening(&mut response, 1).await? {
                None => Ok(empty()),
                Some(_) => Err(BodyError::Decode(why)),
            };
        }
    };
    let mut reading = Reading::new(transfer, content, cap, hint);
    if let Some(head) = first {
        // The octets read to judge a stray coding name.
        if let Read::Done { truncated } = reading.chunk(&head).map_err(BodyError::Decode)? {
            return Ok(reading.into_body(truncated));
        }
    }
    let truncated = loop {
        let at_cap = reading.at_cap();
        let next = match deadline.filter(|_| at_cap) {
            Some(deadline) => match tokio::time::timeout_at(deadline, response.chunk()).await {
                Ok(next) => next,
                // Whether the body goes on is never learnt: cut at the cap.
                Err(_) => break true,
            },
            None => response.chunk().await,
        };
        let chunk = match next {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break reading.end().map_err(BodyError::Decode)?,
            // At the cap, the read was only to learn whether more follows:
            // what would be kept is all in, and the rest would never be
            // read (RFC 9309 section 2.5), so a connection that ends or
            // fails now cuts the body there, as a stall does.
            Err(_) if at_cap => break true,
            Err(error) => {
                return Err(BodyError::Transport {
                    error,
                    received: reading.received() as u64,
                });
            }
        };
        match reading.chunk(&chunk).map_err(BodyError::Decode)? {
            Read::More => {}
            Read::Done { truncated } => break truncated,
        }
    };
    Ok(reading.into_body(truncated))
}

/// How many octets open a body, at least, for [`looks_like_text`].
const OPENING: usize = 1024;

/// The octets that open `response`'s body: its first chunks, until they
/// hold `want` octets or the body ends; `None` if it has none.
async fn opening(
    response: &mut reqwest::Response,
    want: usize,
) -> Result<Option<Vec<u8>>, BodyError> {
    let mut head = Vec::new();
    while head.len() < want {
        match response.chunk().await {
            Ok(Some(chunk)) => head.extend_from_slice(&chunk),
            Ok(None) => break,
            Err(error) => {
                return Err(BodyError::Transport {
                    error,
                    received: head.len() as u64,
                });
            }
        }
    }
    Ok(Some(head).filter(|head| !head.is_empty()))
}

/// Whether the octets that open a body look like text rather than coded
/// data: a UTF-16 byte order mark, or no C0 control but tab, line feed,
/// vertical tab, form feed and carriage return in its first KiB.
/// Compressed data is all but certain to hold one within a hundred octets
/// (gzip, `compress`, xz and lz4 open with one); a robots.txt in UTF-8 or
/// a legacy encoding seldom does.
fn looks_like_text(octets: &[u8]) -> bool {
    if octets.starts_with(b"\xFF\xFE") || octets.starts_with(b"\xFE\xFF") {
        return true;
    }
    octets
        .iter()
        .take(OPENING)
        .all(|&octet| octet >= 0x20 || matches!(octet, b'\t' | b'\n' | 0x0B | 0x0C | b'\r'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_told_from_coded_data() {
        assert!(looks_like_text(b"User-agent: *\r\n\tDisallow: /\x0B\x0C"));
        assert!(looks_like_text(b"Disallow: /caf\xE9\n"));
        assert!(looks_like_text(b""));
        // Past the first KiB, not looked at.
        assert!(looks_like_text(&[b"a".repeat(1024), vec![0]].concat()));
        assert!(!looks_like_text(&gzip(b"User-agent: *\n")));
        // UTF-16, by its byte order mark.
        assert!(looks_like_text(b"\xFF\xFEU\x00"));
        assert!(!looks_like_text(b"\xFEU\x00"));
        assert!(!looks_like_text(b"User-agent: *\x1B"));
    }

    #[test]
    fn stray_names_are_kept_only_without_a_coding() {
        let of = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(CONTENT_ENCODING, value.parse().unwrap());
            Coding::of(&headers)
        };
        let labelled = |coding, stray: Option<&str>| {
            Ok(Labelled {
                coding,
                stray: stray.map(String::from),
            })
        };
        assert_eq!(of("UTF-8, none"), labelled(Coding::Identity, Some("UTF-8")));
        assert_eq!(of("utf-8, gzip"), labelled(Coding::Gzip, None));
        assert_eq!(of("identity"), labelled(Coding::Identity, None));
        assert_eq!(
            of("utf-8, Zstd"),
            Err("content coding \"Zstd\" is not supported".into())
        );
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Writes `chunks` as a read would, then finishes: the text, and
    /// whether the stream ended before the last chunk was all taken.
    fn decode(coding: Coding, chunks: &[&[u8]]) -> io::Result<(Vec<u8>, Fed)> {
        decode_chain(Coding::Identity, coding, chunks)
    }

    /// [`decode`] under a transfer coding.
    fn decode_chain(
        transfer: Coding,
        content: Coding,
        chunks: &[&[u8]],
    ) -> io::Result<(Vec<u8>, Fed)> {
        let mut decoder = Decoder::chain(transfer, content, Sink::new(0, 1 << 20));
        for chunk in chunks {
            if decoder.decode(chunk)? == Fed::Ended {
                return Ok((std::mem::take(decoder.sink().kept()), Fed::Ended));
            }
        }
        decoder.finish()?;
        Ok((std::mem::take(decoder.sink().kept()), Fed::More))
    }

    /// Where gzip members and what follows them fall across chunks.
    #[test]
    fn gzip_members_and_padding_across_chunk_boundaries() {
        let (a, b) = (gzip(b"Disallow: /a\n"), gzip(b"Disallow: /b\n"));
        let both = b"Disallow: /a\nDisallow: /b\n".to_vec();
        // A member ending with a chunk, padding in the next.
        assert_eq!(
            decode(Coding::Gzip, &[&a, b"\n"]).unwrap(),
            (b"Disallow: /a\n".to_vec(), Fed::Ended)
        );
        // The next member's magic split across chunks.
        assert_eq!(
            decode(Coding::Gzip, &[&a, &b[..1], &b[1..]]).unwrap(),
            (both.clone(), Fed::More)
        );
        // Both members, and padding, in one chunk.
        let all = [a.clone(), b.clone(), vec![0; 3]].concat();
        assert_eq!(decode(Coding::Gzip, &[&all]).unwrap(), (both, Fed::Ended));
        // The trailer cut short is an error, however the chunks fall.
        let cut = &a[..a.len() - 3];
        assert!(decode(Coding::Gzip, &[cut]).is_err());
        assert!(decode(Coding::Gzip, &[&a[..10], &a[10..a.len() - 1]]).is_err());
        // A CRC that does not match the text is an error, not an end.
        let mut bad = a.clone();
        let n = bad.len();
        bad[n - 8] ^= 1;
        assert!(decode(Coding::Gzip, &[&bad, b"\n"]).is_err());
    }

    /// Empty gzip members, in one chunk: up to the limit, decoded in a
    /// loop; past it, refused (each costs a decoder: a body of the 25,600
    /// that fit in 500 KiB took 150 ms).
    #[test]
    fn empty_gzip_members_up_to_the_limit() {
        let empty = gzip(b"");
        let members = |n: usize| empty.repeat(n);
        assert_eq!(
            decode(Coding::Gzip, &[&members(MAX_GZIP_MEMBERS)]).unwrap(),
            (Vec::new(), Fed::More)
        );
        let with_text = [members(MAX_GZIP_MEMBERS - 1), gzip(b"a\n"), b"\n".to_vec()].concat();
        assert_eq!(
            decode(Coding::Gzip, &[&with_text]).unwrap(),
            (b"a\n".to_vec(), Fed::Ended)
        );
        let error = decode(Coding::Gzip, &[&members(512_000 / empty.len())]).unwrap_err();
        assert!(
            error.to_string().contains("more than 256 members"),
            "{error}"
        );
        assert!(decode(Coding::Gzip, &[&members(MAX_GZIP_MEMBERS + 1)]).is_err());
    }

    /// `data` coded as HTTP names `coding` (`Deflate` as zlib, or raw
    /// deflate when `raw`).
    fn coded(coding: Coding, raw: bool, data: &[u8]) -> Vec<u8> {
        let level = flate2::Compression::default();
        match coding {
            Coding::Identity => data.to_vec(),
            Coding::Gzip => gzip(data),
            Coding::Deflate if raw => {
                let mut e = flate2::write::DeflateEncoder::new(Vec::new(), level);
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Coding::Deflate => {
                let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Coding::Brotli => {
                let mut out = Vec::new();
                let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 20);
                e.write_all(data).unwrap();
                drop(e);
                out
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

        /// However the chunks fall, coded data decodes to what was coded,
        /// and what follows it (not starting a gzip member) ends it unread.
        #[test]
        fn any_split_and_any_padding_decode_the_data(
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
            padding in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..8),
            which in 0..4usize,
            cuts in proptest::collection::vec(0..4000usize, 0..6),
        ) {
            let (coding, raw) = [
                (Coding::Gzip, false),
                (Coding::Deflate, false),
                (Coding::Deflate, true),
                (Coding::Brotli, false),
            ][which];
            let padding: Vec<u8> = padding.into_iter().skip_while(|&b| b == 0x1F).collect();
            let body = [coded(coding, raw, &data), padding.clone()].concat();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (body.len() + 1)).collect();
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut at = 0;
            for cut in cuts.into_iter().chain([body.len()]) {
                chunks.push(&body[at..cut]);
                at = cut;
            }
            let (text, fed) = decode(coding, &chunks).unwrap();
            proptest::prop_assert_eq!(text, data);
            // Empty chunks after the data never end it; padding does.
            if !padding.is_empty() {
                proptest::prop_assert_eq!(fed, Fed::Ended);
            }
        }

        /// Any bytes, in any coding: an error or some text, never a panic.
        #[test]
        fn any_bytes_decode_or_fail_cleanly(
            body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600),
            which in 0..3usize,
            cut in 0..600usize,
        ) {
            let coding = [Coding::Gzip, Coding::Deflate, Coding::Brotli][which];
            let cut = cut.min(body.len());
            let _ = decode(coding, &[&body[..cut], &body[cut..]]);
        }
    }

    /// Once zlib, raw deflate or brotli data ends, nothing after it is read.
    #[test]
    fn other_codings_end_at_their_stream_end() {
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        zlib.write_all(b"Disallow: /z\n").unwrap();
        let zlib = zlib.finish().unwrap();
        let mut br = Vec::new();
        {
            let mut e = brotli::CompressorWriter::new(&mut br, 4096, 5, 20);
            e.write_all(b"Disallow: /b\n").unwrap();
        }
        for (coding, data, text) in [
            (Coding::Deflate, &zlib, &b"Disallow: /z\n"[..]),
            (Coding::Brotli, &br, &b"Disallow: /b\n"[..]),
        ] {
            let padded = [data.clone(), b"\ngarbage".to_vec()].concat();
            assert_eq!(
                decode(coding, &[&padded]).unwrap(),
                (text.to_vec(), Fed::Ended)
            );
            assert_eq!(
                decode(coding, &[data, b"\n"]).unwrap(),
                (text.to_vec(), Fed::Ended)
            );
            assert_eq!(decode(coding, &[data]).unwrap(), (text.to_vec(), Fed::More));
            assert!(decode(coding, &[&data[..data.len() - 2]]).is_err());
        }
    }

    /// A transfer coding over a content coding, however the chunks fall:
    /// when the content coding's data ends, the body does, and when the
    /// transfer coding's data ends, so must the content coding's.
    #[test]
    fn transfer_codings_over_content_codings_across_chunk_boundaries() {
        let text = b"Disallow: /a\n";
        let inner = coded(Coding::Deflate, false, text);
        let both = coded(Coding::Gzip, false, &inner);
        for cut in 0..=both.len() {
            assert_eq!(
                decode_chain(Coding::Gzip, Coding::Deflate, &[&both[..cut], &both[cut..]]).unwrap(),
                (text.to_vec(), Fed::More),
                "{cut}"
            );
        }
        // What follows the content coding's data, inside the transfer
        // coding's, ends the body unread.
        let padded = coded(
            Coding::Brotli,
            false,
            &[inner.clone(), b"\n".to_vec()].concat(),
        );
        assert_eq!(
            decode_chain(Coding::Brotli, Coding::Deflate, &[&padded]).unwrap(),
            (text.to_vec(), Fed::Ended)
        );
        // The content coding's data cut short, inside complete transfer
        // coding data: an error, however the transfer coding's data ends.
        let cut = &inner[..inner.len() - 2];
        let gzip_cut = coded(Coding::Gzip, false, cut);
        assert!(decode_chain(Coding::Gzip, Coding::Deflate, &[&gzip_cut]).is_err());
        let padded = [gzip_cut, b"\n".to_vec()].concat();
        assert!(decode_chain(Coding::Gzip, Coding::Deflate, &[&padded]).is_err());
    }

    /// Padding after the content coding's data, inside the transfer
    /// coding's, is not data: however long, it never fills the sink, so a
    /// complete body is not taken for one cut at the cap (which drops its
    /// last line when that has no line end).
    #[test]
    fn padding_after_the_content_coding_does_not_count_against_the_cap() {
        let text = b"Disallow: /a\nDisallow: /x";
        let inner = coded(Coding::Gzip, false, text);
        let padded = coded(Coding::Gzip, false, &[inner, vec![b'\n'; 5_000]].concat());
        for cut in [0, padded.len() / 2, padded.len()] {
            let mut decoder = Decoder::chain(Coding::Gzip, Coding::Gzip, Sink::new(0, 1_000));
            let mut fed = Fed::More;
            for chunk in [&padded[..cut], &padded[cut..]] {
                fed = decoder.decode(chunk).unwrap();
                if fed == Fed::Ended {
                    break;
                }
            }
            assert_eq!(fed, Fed::Ended, "{cut}");
            assert!(!decoder.sink().is_full(), "{cut}");
            assert_eq!(decoder.sink().kept(), text, "{cut}");
        }
    }

    /// Once the content coding's data ends, the transfer coding's decoder
    /// decodes no more than it holds: not the rest of its input, which a
    /// server can make inflate a thousandfold, uncounted. Here that rest is
    /// 4 MiB of zeros and a gzip trailer whose CRC does not match (checked
    /// when more follows it): decoded to its end, it would fail the body.
    #[test]
    fn the_transfer_coding_stops_where_the_content_coding_ends() {
        let text = b"Disallow: /a\n";
        let inner = gzip(text);
        let mut both = gzip(&[inner, vec![0; 4 << 20]].concat());
        let n = both.len();
        both[n - 8] ^= 0xFF;
        both.push(b'\n');
        assert_eq!(
            decode_chain(Coding::Gzip, Coding::Gzip, &[&both]).unwrap(),
            (text.to_vec(), Fed::Ended)
        );
        let mut reading = Reading::new(Coding::Gzip, Coding::Gzip, 512_000, 0);
        assert_eq!(reading.chunk(&both), Ok(Read::Done { truncated: false }));
        assert_eq!(reading.into_body(false).bytes, text);
    }

    /// Coded data that ends exactly at the cap, then a line end or zero
    /// padding, in the same chunk or the next, with or without a length
    /// announcing the padding, or with the cap inside a gzip trailer: the
    /// body is complete, its last line kept. (It was reported cut at the
    /// cap, its last line dropped: the decoder learns that its data ended
    /// only from an octet after the end, which the cap kept from it.)
    #[test]
    fn coded_data_ending_at_the_cap_then_padding_is_complete() {
        // A comment of random octets (no line ends), so that every
        // coding's data is longer than the text (the cap bounds the text
        // too).
        let mut seed = 7u32;
        let comment = (0..2_000).map(|_| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            match (seed >> 16) as u8 {
                b'\n' | b'\r' => b'#',
                octet => octet,
            }
        });
        let text: Vec<u8> = b"User-agent: *\n# "
            .iter()
            .copied()
            .chain(comment)
            .chain(*b"\nDisallow: /a\nDisallow: /x")
            .collect();
        let text = &text[..];
        let inner = coded(Coding::Deflate, false, text);
        let cases = [
            (
                Coding::Identity,
                Coding::Gzip,
                coded(Coding::Gzip, false, text),
            ),
            (Coding::Identity, Coding::Deflate, inner.clone()),
            (
                Coding::Identity,
                Coding::Deflate,
                coded(Coding::Deflate, true, text),
            ),
            (
                Coding::Identity,
                Coding::Brotli,
                coded(Coding::Brotli, false, text),
            ),
            (
                Coding::Gzip,
                Coding::Deflate,
                coded(Coding::Gzip, false, &inner),
            ),
        ];
        for (transfer, content, data) in cases {
            let cap = data.len();
            for padding in [&b"\n"[..], &[0; 4][..]] {
                let body = [data.clone(), padding.to_vec()].concat();
                for (cut, hint) in [(cap, 0), (cap, body.len()), (body.len(), 0), (3, 0)] {
                    let mut reading = Reading::new(transfer, content, cap, hint as u64);
                    let mut read = Read::More;
                    for chunk in [&body[..cut], &body[cut..]] {
                        read = reading.chunk(chunk).unwrap();
                        if read != Read::More {
                            break;
                        }
                    }
                    let case =
                        format!("{transfer:?}/{content:?} {padding:?} cut {cut} hint {hint}");
                    assert_eq!(read, Read::Done { truncated: false }, "{case}");
                    assert_eq!(reading.into_body(false).bytes, text, "{case}");
                }
            }
        }
        // The cap within a gzip trailer, the rest of it in two chunks:
        // learnt complete when the padding comes.
        let data = coded(Coding::Gzip, false, text);
        let cap = data.len() - 4;
        let mut reading = Reading::new(Coding::Identity, Coding::Gzip, cap, 0);
        for chunk in [&data[..cap + 2], &data[cap + 2..]] {
            assert_eq!(reading.chunk(chunk), Ok(Read::More));
        }
        assert_eq!(reading.chunk(b"\n"), Ok(Read::Done { truncated: false }));
        assert_eq!(reading.into_body(false).bytes, text);
        // The same, the body ending with the trailer: complete too; or in
        // the trailer, past the cap: cut at the cap, not failed.
        for (end, truncated) in [(data.len(), false), (data.len() - 1, true)] {
            let mut reading = Reading::new(Coding::Identity, Coding::Gzip, cap, 0);
            assert_eq!(reading.chunk(&data[..end]), Ok(Read::More));
            assert_eq!(reading.end(), Ok(truncated));
            assert_eq!(reading.into_body(truncated).bytes, text);
        }
    }

    /// Coded data past the cap: cut there, and what the octets past the
    /// cap decode to, offered to the decoder only to learn whether its data
    /// ended, is not kept.
    #[test]
    fn coded_data_past_the_cap_is_cut_at_the_cap() {
        // Random octets: the data decodes to fewer octets than it has, so
        // the decoded text never reaches the cap first.
        let mut seed = 1u32;
        let text: Vec<u8> = (0..40_000)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (seed >> 16) as u8
            })
            .collect();
        for (coding, raw) in [
            (Coding::Gzip, false),
            (Coding::Deflate, false),
            (Coding::Deflate, true),
            (Coding::Brotli, false),
        ] {
            let data = coded(coding, raw, &text);
            for cap in [data.len() / 3, data.len() - 20] {
                // What the first `cap` octets decode to.
                let mut alone = Reading::new(Coding::Identity, coding, cap, 0);
                assert_eq!(alone.chunk(&data[..cap]), Ok(Read::More));
                let kept = alone.into_body(true).bytes;
                for split in [cap, data.len()] {
                    let mut reading = Reading::new(Coding::Identity, coding, cap, 0);
                    let mut read = Read::More;
                    for chunk in [&data[..split], &data[split..], b"\n"] {
                        read = reading.chunk(chunk).unwrap();
                        if read != Read::More {
                            break;
                        }
                    }
                    assert_eq!(
                        read,
                        Read::Done { truncated: true },
                        "{coding:?} {cap} {split}"
                    );
                    assert_eq!(
                        reading.into_body(true).bytes,
                        kept,
                        "{coding:?} {cap} {split}"
                    );
                }
            }
        }
    }

    /// The window brotli declares (RFC 7932 section 9.1) is read as the
    /// encoder wrote it, for every window it can write; a stream declaring
    /// more than `MAX_BROTLI_WINDOW` is refused before it is decoded.
    #[test]
    fn brotli_windows_over_the_limit_are_refused() {
        for lgwin in 10..=24u32 {
            let mut br = Vec::new();
            {
                let mut e = brotli::CompressorWriter::new(&mut br, 4096, 5, lgwin);
                e.write_all(b"Disallow: /b\n").unwrap();
            }
            assert_eq!(brotli_window_bits(br[0]), Some(lgwin));
            // Split after the first octet: the window is checked once.
            let decoded = decode(Coding::Brotli, &[&br[..1], &br[1..]]);
            if 1 << lgwin <= MAX_BROTLI_WINDOW {
                assert_eq!(decoded.unwrap().0, b"Disallow: /b\n", "WBITS {lgwin}");
            } else {
                let error = decoded.unwrap_err().to_string();
                assert!(error.contains(&format!("(WBITS {lgwin})")), "{error}");
                assert!(error.contains("above the limit of 1 MiB"), "{error}");
            }
        }
        let error = decode(Coding::Brotli, &[&[0xFF, 0xFF][..]])
            .unwrap_err()
            .to_string();
        assert!(error.contains("a 16 MiB window (WBITS 24)"), "{error}");
        // Large Window Brotli's escape: 1, then 000, then 001 (0x11).
        assert_eq!(brotli_window_bits(0x11), None);
        let error = decode(Coding::Brotli, &[&[0x11][..]])
            .unwrap_err()
            .to_string();
        assert!(error.contains("large window"), "{error}");
    }
}
