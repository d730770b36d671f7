//! Where a robots.txt comes from: a local file, or an HTTP(S) fetch.

use std::ffi::OsStr;
use std::path::PathBuf;

use keepout::Robots;
use keepout::fetch::{Fetcher, MIN_BODY_LIMIT};

use crate::Failure;

/// A robots.txt to read, as named on the command line.
#[derive(Debug, Clone)]
pub enum Source {
    /// A local file (any path the system allows, UTF-8 or not).
    File(PathBuf),
    /// An http(s) URL: the robots.txt of its origin is fetched, whatever
    /// its path.
    Url(String),
}

impl Source {
    /// Reads a `FILE|URL` argument: a value with a `scheme://` prefix is a
    /// URL (http and https only), anything else a local path.
    pub fn parse(value: &OsStr) -> Result<Source, Failure> {
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

    /// Reads the file or fetches the URL's robots.txt.
    pub async fn load(&self, fetcher: &Fetcher) -> Result<Loaded, Failure> {
        match self {
            Source::File(path) => {
                let bytes = std::fs::read(path).map_err(|e| {
                    Failure::Input(format!("cannot read robots.txt file {path:?}: {e}"))
                })?;
                Ok(Loaded {
                    robots: Robots::parse(&bytes),
                    file: Some(LocalFile {
                        path: path.to_string_lossy().into_owned(),
                        len: bytes.len(),
                        cap_line: cap_line(&bytes),
                    }),
                })
            }
            Source::Url(url) => Ok(Loaded::fetched(
                fetcher
                    .fetch(url)
                    .await
                    .map_err(|e| Failure::Input(e.to_string()))?,
            )),
        }
    }
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
    /// Its size in bytes.
    pub len: usize,
    /// When the file is larger than a fetch reads (500 KiB, RFC 9309
    /// section 2.5): the line holding the first byte past that limit.
    pub cap_line: Option<u32>,
}

/// The line holding the first byte past [`MIN_BODY_LIMIT`], if the file
/// is that long. Lines end as the parser ends them: LF, CR or CRLF (RFC
/// 9309 section 2.2).
fn cap_line(bytes: &[u8]) -> Option<u32> {
    (bytes.len() > MIN_BODY_LIMIT).then(|| {
        let head = &bytes[..MIN_BODY_LIMIT];
        let ends = head
            .iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\r' || (b == b'\n' && (i == 0 || head[i - 1] != b'\r')))
            .count();
        1 + ends as u32
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_line_counts_every_kind_of_line_end() {
        for end in ["\n", "\r", "\r\n"] {
            let body = format!("Disallow: /x{end}").repeat(MIN_BODY_LIMIT / 10);
            let line_len = 12 + end.len();
            let want = MIN_BODY_LIMIT / line_len + 1;
            assert_eq!(cap_line(body.as_bytes()), Some(want as u32), "{end:?}");
        }
        assert_eq!(cap_line(b"short\r"), None);
    }
}
