//! The path and query a check matches (`Robots::normalized_path`: the
//! crate's one-pass fast path, its reading of paths and scheme-relative
//! links, and its use of the `url` crate) against two readings that share
//! no code with it: the `url` crate's (the URL standard, as reqwest
//! requests a URL, or a link resolved against an http page), then the
//! naive normaliser.
//!
//! Input: an octet choosing a prefix, then the rest of the text (lossy
//! UTF-8).
#![no_main]

use keepout::{Robots, Url};
use libfuzzer_sys::fuzz_target;

mod naive;

const PREFIXES: [&str; 10] = [
    "http://",
    "https://",
    "HTTP://example.com",
    "http://example.com",
    "https://example.com:8080",
    "//",
    "/\\",
    "\\\\",
    "/",
    "",
];

fuzz_target!(|data: &[u8]| {
    let Some((&how, rest)) = data.split_first() else {
        return;
    };
    let rest = String::from_utf8_lossy(rest);
    let prefix = PREFIXES[usize::from(how) % PREFIXES.len()];
    let s = format!("{prefix}{rest}");
    // An absolute URL is read alone. A link starting with `/` or `\` is
    // read against an http page; text with neither a scheme nor such a
    // start is the crate's own `host/path` form, which no client has.
    let read = match Url::parse(&s) {
        Ok(url) => url,
        Err(_) if s.trim_start_matches(|c: char| c <= ' ').starts_with(['/', '\\']) => {
            match Url::parse("http://base.example/page").unwrap().join(&s) {
                Ok(url) => url,
                Err(_) => return,
            }
        }
        Err(_) => return,
    };
    if !matches!(read.scheme(), "http" | "https") || read.host_str().is_none_or(str::is_empty) {
        return;
    }
    let mut pq = read.path().to_string();
    if let Some(q) = read.query() {
        pq.push('?');
        pq.push_str(q);
    }
    let got = Robots::normalized_path(&s);
    let want = naive::naive(pq.as_bytes(), naive::Mode::Path);
    assert_eq!(
        got.as_bytes(),
        &want[..],
        "{s:?}: keepout {got:?}; the url crate reads {pq:?}, normal form {:?}",
        String::from_utf8_lossy(&want)
    );
});
