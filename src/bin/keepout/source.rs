//! Where a robots.txt comes from: a local file, stdin, or an HTTP(S) fetch.

use std::ffi::OsStr;
use std::io::Read;
use std::path::PathBuf;

use keepout::fetch::{Fetcher, MIN_BODY_LIMIT};
use keepout::{ParseOptions, Robots};

use crate::Failure;

/// A robots.txt to read, as named on the command line.
#[derive(Debug, Clone)]
pub enum Source {
    /// A local file (any path the system allows, UTF-8 or not).
    File(PathBuf),
    /// Standard input, named `-`.
    Stdin,
    /// An http(s) URL: the robots.txt of its origin is fetched, whatever
    /// its path.
    Url(String),
}

impl Source {
    /// Reads a `FILE|URL` argument: `-` is stdin, a value with a
    /// `scheme://` prefix a URL (http and https only), anything else a
    /// local path (`./-` for a file named `-`).
    pub fn parse(value: &OsStr) -> Result<Source, Failure> {
        if value == "-" {
            return Ok(Source::Stdin);
        }
        // A value that is not UTF-8 can only be a path.
        let Some(text) = value.to_str() else {
            return Ok(Source::File(PathBuf::from(value)));
        };
        let is_url = text.split_once("://").is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        });
        if !is_url {
            return Ok(Source::File(PathBuf::from(value)));
        }
        keepout::fetch::robots_url(text).map_err(|e| Failure::Input(e.to_string()))?;
        Ok(Source::Url(text.to_owned()))
    }

    /// Reads the file (or stdin), parsing as much of it as `extent` says
    /// and as a response with `content_type` would be parsed, or fetches
    /// the URL's robots.txt.
    pub async fn load(
        &self,
        fetcher: &Fetcher,
        extent: Extent,
        content_type: Option<&str>,
    ) -> Result<Loaded, Failure> {
        let (name, read) = match self {
            Source::File(path) => {
                let name = path.to_string_lossy().into_owned();
                let path = path.clone();
                let read = blocking(move || {
                    std::fs::File::open(path)
                        .and_then(|file| read_local(file, extent, MAX_LOCAL_BYTES))
                })
                .await;
                (name, read)
            }
            Source::Stdin => (
                String::from(STDIN_NAME),
                blocking(move || read_local(std::io::stdin().lock(), extent, MAX_LOCAL_BYTES))
                    .await,
            ),
            Source::Url(url) => {
                return Ok(Loaded::fetched(
                    fetcher
                        .fetch(url)
                        .await
                        .map_err(|e| Failure::Input(e.to_string()))?,
                ));
            }
        };
        let local = read.map_err(|e| {
            // A URL typed without its `//` (or its scheme) is read as a
            // path: say how to fetch it, where the error alone reads as a
            // missing file.
            let hint = match (e.kind(), self) {
                (std::io::ErrorKind::NotFound, Source::File(path)) => path
                    .to_str()
                    .and_then(url_for)
                    .map(|url| format!(" (to fetch it, give a URL: {url})"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            Failure::Input(format!("cannot read robots.txt file {name:?}: {e}{hint}"))
        })?;
        let cap_line = cap_line(&local.bytes, local.len);
        // Section 2.5: what a fetch would parse of a file over the limit is
        // its complete lines within it.
        let cut = extent == Extent::Fetched && local.len > MIN_BODY_LIMIT;
        let options = match extent {
            Extent::Fetched => ParseOptions::new().body_limit(MIN_BODY_LIMIT),
            Extent::Whole => ParseOptions::new(),
        };
        let options = match content_type {
            Some(value) => options.content_type(value),
            None => options,
        };
        Ok(Loaded {
            robots: options.parse(&local.bytes),
            file: Some(LocalFile {
                stdin: matches!(self, Source::Stdin),
                path: name,
                len: local.len,
                cap_line,
                cut,
            }),
        })
    }
}

/// Reads `--content-type`: a value naming no charset the parser takes
/// (no `charset=` parameter, a label the Encoding Standard does not know, or
/// one it decodes to a lone U+FFFD) would change nothing, so it is refused
/// (exit 2), not ignored.
pub fn content_type(value: &str) -> Result<String, String> {
    if ParseOptions::new().content_type(value).charset().is_some() {
        return Ok(value.to_owned());
    }
    // Parameters follow the media type, each after a `;`.
    let mut parts = value.split(';');
    let media_type = parts.next().unwrap_or_default().trim();
    let named = parts.any(|param| {
        param
            .split_once('=')
            .is_some_and(|(name, _)| name.trim().eq_ignore_ascii_case("charset"))
    });
    let problem = if named {
        "its charset is not a label of the Encoding Standard that keepout reads"
    } else if media_type
        .get(..7)
        .is_some_and(|s| s.eq_ignore_ascii_case("charset"))
    {
        "a charset parameter follows a media type and ';'"
    } else {
        "it has no charset parameter"
    };
    Err(format!(
        "{problem}; expected a Content-Type value such as 'text/plain; charset=iso-8859-1'"
    ))
}

/// Why `--content-type` with nothing local to read is refused, rather than
/// ignored: a fetched robots.txt is read as its server labels it.
pub const CONTENT_TYPE_UNUSED: &str = "--content-type applies to a robots.txt read from a file or stdin \
     (check --robots FILE or -, show FILE or -), and none is read: a fetched robots.txt is read in \
     the charset its server names";

/// The URL meant by a path that reads as one with no `//`, for a file that
/// is not there: `https:example.com/x` or `HTTP:/example.com` (scheme
/// lower-cased, slashes made two), or a host name and perhaps a path,
/// `example.com`, `example.com:8080/robots.txt`, `127.0.0.1` (`https://`
/// before it, and `/` after a bare host). A host name here is two labels
/// or more of ASCII letters, digits and `-`, joined by dots, the last
/// starting with a letter (a top-level domain; but not a file extension
/// such as `txt` or `xml`: `robots.txt` names a file), or four labels of
/// digits (an IPv4 address), or `localhost` with a port. `None` for other
/// paths (`no/such/file`, `./example.com`), or when the URL could have no
/// robots.txt.
fn url_for(path: &str) -> Option<String> {
    let scheme = ["https", "http"].into_iter().find(|scheme| {
        path.get(..=scheme.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(&format!("{scheme}:")))
    });
    let url = match scheme {
        Some(scheme) => {
            let rest = path[scheme.len() + 1..].trim_start_matches('/');
            format!("{scheme}://{rest}")
        }
        None => {
            let (host_port, path_part) = match path.find('/') {
                Some(slash) => path.split_at(slash),
                None => (path, "/"),
            };
            let (host, port) = match host_port.split_once(':') {
                Some((host, port))
                    if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    (host, true)
                }
                Some(_) => return None,
                None => (host_port, false),
            };
            let labels: Vec<&str> = host.split('.').collect();
            let label_ok = |l: &&str| {
                !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            };
            let last = labels.last()?;
            // File extensions that are no top-level domain: most files
            // named here are a `robots.txt`.
            const EXTENSIONS: [&str; 5] = ["txt", "xml", "html", "htm", "json"];
            let tld = last.starts_with(|c: char| c.is_ascii_alphabetic())
                && !EXTENSIONS.iter().any(|e| last.eq_ignore_ascii_case(e));
            let ipv4 =
                labels.len() == 4 && labels.iter().all(|l| l.bytes().all(|b| b.is_ascii_digit()));
            // A local server, named with its port (`localhost` alone may
            // be a file's name).
            let local = port && host.eq_ignore_ascii_case("localhost");
            if !local && (labels.len() < 2 || !labels.iter().all(label_ok) || !(tld || ipv4)) {
                return None;
            }
            format!("https://{host_port}{path_part}")
        }
    };
    keepout::fetch::robots_url(&url).ok()?;
    Some(url)
}

/// Runs a blocking read on tokio's blocking threads: a slow stdin or
/// file must not hold up the fetches under way beside it (`show URL -`).
async fn blocking<T: Send + 'static>(
    read: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> std::io::Result<T> {
    tokio::task::spawn_blocking(read)
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)))
}

/// How stdin is named where a file's path would be.
const STDIN_NAME: &str = "<stdin>";

/// How much of a local robots.txt to parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    /// All of it (`show`, which flags what a crawler need not read).
    Whole,
    /// What a crawler's fetch would: over [`MIN_BODY_LIMIT`], the complete
    /// lines within it (`check`: its verdicts are a crawler's).
    Fetched,
}

/// The most bytes of a local robots.txt `show` reads, and `check` counts:
/// 64 MiB, a hundred times the largest real robots.txt we know of, and
/// more than a hundred times what crawlers read. Past it, `show` refuses
/// the file and `check` says only that it is larger (an endless stream,
/// such as `/dev/zero`, then ends).
pub const MAX_LOCAL_BYTES: usize = 64 << 20;

/// A local robots.txt: the bytes kept, and its length.
struct Local {
    bytes: Vec<u8>,
    /// Its length, or `max + 1` for a file longer than the `max` read.
    len: usize,
}

/// Reads `from` whole (`Extent::Whole`), or keeps its first
/// [`MIN_BODY_LIMIT`] bytes and one more (which tells the parser the file
/// goes on) and only counts the rest, so that a huge file or an endless
/// stream is never held in memory (`Extent::Fetched`). No
/// more than `max` bytes are read: past them, a whole read fails, a
/// count stops.
fn read_local(from: impl Read, extent: Extent, max: usize) -> std::io::Result<Local> {
    // One byte more than the most read tells a longer file.
    let mut from = from.take(max as u64 + 1);
    let mut bytes = Vec::new();
    if extent == Extent::Whole {
        from.read_to_end(&mut bytes)?;
        if bytes.len() > max {
            return Err(std::io::Error::other(format!(
                "over {max} bytes, the most `show` reads (crawlers need parse only its first {MIN_BODY_LIMIT} bytes, RFC 9309 section 2.5; `check -r` reads it as they do)"
            )));
        }
        let len = bytes.len();
        return Ok(Local { bytes, len });
    }
    (&mut from)
        .take(MIN_BODY_LIMIT as u64 + 1)
        .read_to_end(&mut bytes)?;
    let rest = std::io::copy(&mut from, &mut std::io::sink())?;
    let len = bytes
        .len()
        .saturating_add(usize::try_from(rest).unwrap_or(usize::MAX));
    Ok(Local { bytes, len })
}

/// In UTF-16 as `Robots::parse` tells it (by its BOM, or by its shape:
/// two ASCII characters first, and three in four of the first 256 with a
/// zero high octet), the index of the low octet in a code unit of `head`:
/// 0 little-endian, 1 big-endian. A line then ends at a whole code unit,
/// `0A 00` little-endian or `00 0A` big-endian; a lone `0A` octet may be
/// half of one, or of another character.
fn utf16_low(head: &[u8]) -> Option<usize> {
    let low = match *head {
        [0xFF, 0xFE, ..] => return Some(0),
        [0xFE, 0xFF, ..] => return Some(1),
        [a, 0, b, 0, ..] if a != 0 && b != 0 => 0,
        [0, a, 0, b, ..] if a != 0 && b != 0 => 1,
        _ => return None,
    };
    let units = head[..head.len().min(512)].chunks_exact(2);
    let all = units.len();
    let narrow = units
        .filter(|unit| unit[low] != 0 && unit[1 - low] == 0)
        .count();
    (narrow * 4 >= all * 3).then_some(low)
}

/// A robots.txt, parsed, and where it came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The rules. Fetched ones carry their [`FetchOutcome`](keepout::FetchOutcome).
    pub robots: Robots,
    /// Set when the rules were read from a local file.
    pub file: Option<LocalFile>,
}

impl Loaded {
    /// Rules fetched over HTTP.
    pub fn fetched(robots: Robots) -> Loaded {
        Loaded { robots, file: None }
    }

    /// The file path, or the robots.txt URL fetched.
    pub fn source(&self) -> String {
        match (&self.file, self.robots.fetch_outcome()) {
            (Some(file), _) => file.path.clone(),
            (None, Some(outcome)) => outcome.robots_url().to_string(),
            (None, None) => String::new(),
        }
    }
}

/// A robots.txt read from disk.
#[derive(Debug, Clone)]
pub struct LocalFile {
    /// The path as given, for display (octets that are not UTF-8 shown as
    /// U+FFFD).
    pub path: String,
    /// Its size in bytes; [`MAX_LOCAL_BYTES`] + 1 for a larger file (only
    /// `check` reads one: see [`size`](Self::size)).
    pub len: usize,
    /// When the file is larger than a fetch reads (500 KiB, RFC 9309
    /// section 2.5): the line holding the first byte past that limit.
    pub cap_line: Option<u32>,
    /// Whether only the complete lines within that limit were parsed, as
    /// a fetch would ([`Extent::Fetched`]).
    pub cut: bool,
    /// Whether it was read from stdin (`-`) rather than from a path.
    pub stdin: bool,
}

impl LocalFile {
    /// What it is, for text output: `local file`, or `standard input`.
    pub fn kind(&self) -> &'static str {
        if self.stdin {
            "standard input"
        } else {
            "local file"
        }
    }

    /// Its size, for text output: `1234 bytes`, or `more than 67108864
    /// bytes` for a file larger than [`MAX_LOCAL_BYTES`].
    pub fn size(&self) -> String {
        if self.len > MAX_LOCAL_BYTES {
            format!("more than {MAX_LOCAL_BYTES} bytes")
        } else {
            format!("{} bytes", self.len)
        }
    }
}

/// The line holding the first byte past [`MIN_BODY_LIMIT`], if the file
/// (of `len` bytes, of which `bytes` are the first) is that long. Lines end
/// as the parser ends them: LF, CR or CRLF (RFC 9309 section 2.2), in
/// UTF-16 code units for a file in UTF-16 (see [`utf16_low`]).
fn cap_line(bytes: &[u8], len: usize) -> Option<u32> {
    (len > MIN_BODY_LIMIT && bytes.len() >= MIN_BODY_LIMIT).then(|| {
        let head = &bytes[..MIN_BODY_LIMIT];
        // Each unit as a character: an octet, or a UTF-16 code unit (with a
        // high octet, not a line end).
        let units: std::borrow::Cow<'_, [u8]> = match utf16_low(head) {
            None => head.into(),
            Some(low) => head
                .chunks_exact(2)
                .map(|unit| if unit[1 - low] == 0 { unit[low] } else { 0xFF })
                .collect::<Vec<u8>>()
                .into(),
        };
        let ends = units
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' || (b == b'\n' && (i == 0 || units[i - 1] != b'\r')))
            .count();
        1 + ends as u32
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "__fuzz")]
    proptest::proptest! {
        /// The same test as the parser's, which the cuts must follow.
        #[test]
        fn utf16_is_told_as_the_parser_tells_it(
            units in proptest::collection::vec(
                proptest::sample::select(&[[b'a', 0], [0, b'a'], [0x4e, 0x2d], [0, 0], [b'\n', 0]][..]),
                0..300,
            ),
        ) {
            let body = units.concat();
            let parser = keepout::__fuzz::utf16_by_shape(&body)
                .map(|e| usize::from(e == encoding_rs::UTF_16BE));
            proptest::prop_assert_eq!(utf16_low(&body), parser);
        }
    }

    /// Which missing paths read as URLs, and the URL each is given for.
    #[test]
    fn url_for_reads_a_url_without_its_slashes() {
        for (path, url) in [
            ("example.com", "https://example.com/"),
            ("www.Example.co.uk/a/b?q", "https://www.Example.co.uk/a/b?q"),
            ("example.com:8080", "https://example.com:8080/"),
            ("127.0.0.1:8000/x", "https://127.0.0.1:8000/x"),
            ("xn--bcher-kva.example", "https://xn--bcher-kva.example/"),
            ("https:example.com", "https://example.com"),
            ("hTTps:///example.com/x", "https://example.com/x"),
            ("http:example.com", "http://example.com"),
            ("localhost:8000", "https://localhost:8000/"),
            (
                "LocalHost:8000/robots.txt",
                "https://LocalHost:8000/robots.txt",
            ),
        ] {
            assert_eq!(url_for(path).as_deref(), Some(url), "{path}");
        }
        for path in [
            "robots.txt",
            "Robots.TXT",
            "rules.xml",
            "sitemap.JSON",
            "no/such/file.txt",
            "./example.com",
            "/example.com",
            ".example.com",
            "example..com",
            "example.com:",
            "example.com:x",
            "example.com.",
            "exa mple.com",
            "exa_mple.com",
            "1.2.3",
            "1.2.3.4.5",
            "localhost",
            "localhost:",
            "localhost:0",
            "https:",
            "http:/",
            "ftp:example.com",
            "éxample.com",
        ] {
            assert_eq!(url_for(path), None, "{path}");
        }
    }

    #[test]
    fn cap_line_counts_every_kind_of_line_end() {
        for end in ["\n", "\r", "\r\n"] {
            let body = format!("Disallow: /x{end}").repeat(MIN_BODY_LIMIT / 10);
            let line_len = 12 + end.len();
            let want = MIN_BODY_LIMIT / line_len + 1;
            assert_eq!(
                cap_line(body.as_bytes(), body.len()),
                Some(want as u32),
                "{end:?}"
            );
        }
        assert_eq!(cap_line(b"short\r", 6), None);
    }

    /// In UTF-16 a line ends at a whole code unit: CRLF is one line end
    /// (`0D 00 0A 00`), and a `0A` octet in another character is none.
    #[test]
    fn cap_line_counts_utf16_code_units() {
        let utf16 = |text: &str, le: bool| -> Vec<u8> {
            text.encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect()
        };
        for end in ["\n", "\r", "\r\n"] {
            // `Ċ` is U+010A: an `0A` octet in either byte order.
            let text = format!("Disallow: /\u{10a}{end}").repeat(MIN_BODY_LIMIT / 10);
            let line_len = 2 * (12 + end.len());
            for le in [true, false] {
                let mut body = if le {
                    vec![0xFF, 0xFE]
                } else {
                    vec![0xFE, 0xFF]
                };
                body.extend(utf16(&text, le));
                let want = (MIN_BODY_LIMIT - 2) / line_len + 1;
                assert_eq!(
                    cap_line(&body, body.len()),
                    Some(want as u32),
                    "{end:?}, le: {le}, BOM"
                );
                // And without a byte order mark, told by its shape.
                let body = utf16(&text, le);
                assert_eq!(
                    cap_line(&body, body.len()),
                    Some((MIN_BODY_LIMIT / line_len + 1) as u32),
                    "{end:?}, le: {le}"
                );
            }
        }
        // Two ASCII characters, then mostly wide ones: not UTF-16 to the
        // parser (three in four of the first 256 units must be ASCII), so
        // not here either; each CR and LF octet ends a line, as the
        // parser's other warnings count them.
        let text = "##\u{4e2d}\u{4e2d}\u{4e2d}\r\n".repeat(MIN_BODY_LIMIT / 10);
        let body = utf16(&text, true);
        let head = &body[..MIN_BODY_LIMIT];
        let ends = head.iter().filter(|&&b| b == b'\r' || b == b'\n').count();
        assert_eq!(cap_line(&body, body.len()), Some(1 + ends as u32));
    }

    #[test]
    fn a_fetched_extent_keeps_the_head_and_counts_the_rest() {
        let body = "Disallow: /x\n".repeat(MIN_BODY_LIMIT / 10);
        let local = read_local(body.as_bytes(), Extent::Fetched, MAX_LOCAL_BYTES).unwrap();
        assert_eq!(
            (local.bytes.len(), local.len),
            (MIN_BODY_LIMIT + 1, body.len())
        );
        let kept = ParseOptions::new()
            .body_limit(MIN_BODY_LIMIT)
            .parse(&local.bytes)
            .body_len();
        assert!(
            kept <= MIN_BODY_LIMIT && kept > MIN_BODY_LIMIT - 14,
            "{kept}"
        );
        let local = read_local(body.as_bytes(), Extent::Whole, MAX_LOCAL_BYTES).unwrap();
        assert_eq!(local.bytes, body.as_bytes());
        // Past the most read: a count stops one byte over, a whole read
        // fails, each having read no more than that.
        let max = body.len() - 1;
        let local = read_local(body.as_bytes(), Extent::Fetched, max).unwrap();
        assert_eq!(
            (local.bytes.len(), local.len),
            (MIN_BODY_LIMIT + 1, max + 1)
        );
        let file = LocalFile {
            path: String::new(),
            len: MAX_LOCAL_BYTES + 1,
            cap_line: None,
            cut: true,
            stdin: false,
        };
        assert_eq!(file.size(), "more than 67108864 bytes");
        let error = read_local(body.as_bytes(), Extent::Whole, max)
            .err()
            .unwrap();
        assert!(error.to_string().starts_with(&format!("over {max} bytes")));
        assert_eq!(
            read_local(body.as_bytes(), Extent::Whole, body.len())
                .unwrap()
                .len,
            body.len()
        );
    }
}
