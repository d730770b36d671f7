//! The URLs `keepout check` is given: its arguments, `-` standing for the
//! lines of stdin, read on a thread of their own as they come.

use std::io::{BufRead, Read};

use tokio::sync::mpsc;

use crate::Failure;

/// The longest line of stdin read as a URL (64 KiB; real URLs are under
/// 8 KiB): a longer one is bad input, so that a line without end (`<
/// /dev/zero`) is not read into memory whole.
const MAX_URL_LINE: usize = 64 << 10;

/// What [`Urls`] gives: a URL with its stdin line number if it came from
/// there, or a bad line; `None` at the end.
pub type Next = Option<Result<(String, Option<usize>), Failure>>;

/// The URLs to check, in order: the arguments, `-` standing for the lines
/// of stdin (once), which a thread of their own reads as they come, so a
/// slow or endless producer (`tail -f log | ...`) gets its verdicts as it
/// goes and the fetches go on meanwhile.
pub struct Urls {
    args: std::vec::IntoIter<String>,
    stdin: Option<mpsc::Receiver<Vec<Line>>>,
    /// Lines of stdin's last chunk not taken yet.
    lines: std::vec::IntoIter<Line>,
    stdin_read: bool,
}

impl Urls {
    pub fn new(args: Vec<String>) -> Urls {
        Urls {
            args: args.into_iter(),
            stdin: None,
            lines: Vec::new().into_iter(),
            stdin_read: false,
        }
    }

    /// The next URL, with its stdin line number if it came from there;
    /// `None` at the end. Cancel-safe (a `select!` branch): it changes
    /// state only between awaits.
    pub async fn next(&mut self) -> Next {
        loop {
            if let Some(next) = self.try_next() {
                return next;
            }
            // Nothing at hand: wait for stdin's next lines.
            match self.stdin.as_mut()?.recv().await {
                Some(chunk) => self.lines = chunk.into_iter(),
                None => self.stdin = None,
            }
        }
    }

    /// [`next`](Urls::next) if it is at hand without waiting, else `None`
    /// (stdin has not sent the next line yet).
    pub fn try_next(&mut self) -> Option<Next> {
        loop {
            if let Some(line) = self.lines.next() {
                return Some(Some(line.map(|(url, n)| (url, Some(n)))));
            }
            if let Some(chunks) = &mut self.stdin {
                match chunks.try_recv() {
                    Ok(chunk) => {
                        self.lines = chunk.into_iter();
                        continue;
                    }
                    Err(mpsc::error::TryRecvError::Empty) => return None,
                    Err(mpsc::error::TryRecvError::Disconnected) => self.stdin = None,
                }
            }
            let Some(arg) = self.args.next() else {
                return Some(None);
            };
            if arg != "-" {
                return Some(Some(Ok((arg, None))));
            }
            if !self.stdin_read {
                self.stdin_read = true;
                self.stdin = Some(read_stdin());
            }
        }
    }
}

/// A stdin line read: a URL and its line number, or why reading stopped.
type Line = Result<(String, usize), Failure>;

/// Reads stdin's URL lines on a thread of their own (a read blocks),
/// skipping blank lines and comments; a line that cannot be read ends it.
/// Lines go in chunks: each holds what was read without waiting (up to 256
/// lines), so a long list costs a handoff per chunk, not per line, and a
/// slow one is passed on line by line.
fn read_stdin() -> mpsc::Receiver<Vec<Line>> {
    const CHUNK: usize = 256;
    // A small buffer: `check::READ_AHEAD` bounds what is read, not this.
    let (chunks, receiver) = mpsc::channel(16);
    std::thread::spawn(move || {
        let mut stdin = std::io::BufReader::with_capacity(64 * 1024, std::io::stdin().lock());
        let mut chunk = Vec::with_capacity(CHUNK);
        let mut line = Vec::new();
        for n in 1.. {
            line.clear();
            // Lines as octets, so that one that is not UTF-8 can be named;
            // with room for its end (CRLF), and one octet more, to know it
            // is longer than the longest line allowed.
            let read = (&mut stdin)
                .take(MAX_URL_LINE as u64 + 2)
                .read_until(b'\n', &mut line);
            let end = match read {
                Ok(0) => true,
                // A comment is skipped however long (a pasted log line, a
                // licence), read through to its end a buffer at a time.
                Ok(_)
                    if without_end(&line).len() > MAX_URL_LINE
                        && is_comment(&line, n)
                        && skip_comment_rest(&line, &mut stdin) =>
                {
                    false
                }
                Ok(_) if without_end(&line).len() > MAX_URL_LINE => {
                    chunk.push(Err(Failure::Input(format!(
                        "stdin line {n}: longer than {MAX_URL_LINE} octets (a URL to check is shorter)"
                    ))));
                    true
                }
                Ok(_) if is_comment(&line, n) => false,
                Ok(_) => match std::str::from_utf8(&line) {
                    Ok(text) => {
                        // A byte order mark starting stdin (as editors on
                        // Windows save UTF-8) is no part of the first line.
                        let text = match n {
                            1 => text.strip_prefix('\u{feff}').unwrap_or(text),
                            _ => text,
                        };
                        // Trimmed as a URL parser trims (C0 controls and
                        // space, CR of CRLF among them), not of Unicode
                        // white space (`/private\u{a0}` is a path of its own).
                        let url = text.trim_matches(|c: char| c <= ' ');
                        // A URL parser drops a tab or CR inside a URL
                        // (`a/x<TAB>note` would be checked as `a/xnote`):
                        // such a line is two things run together, as a
                        // tab-separated or CR-ended list makes.
                        if let Some(what) = dropped_inside(url) {
                            chunk.push(Err(Failure::Input(format!(
                                "stdin line {n}: {what} inside the URL (one URL a line, each line ending in LF or CRLF)"
                            ))));
                            true
                        } else {
                            if !url.is_empty() && !url.starts_with('#') {
                                chunk.push(Ok((url.to_owned(), n)));
                            }
                            false
                        }
                    }
                    Err(_) => {
                        chunk.push(Err(Failure::Input(format!(
                            "stdin line {n}: not UTF-8 (a URL to check is text; percent-encode other octets)"
                        ))));
                        true
                    }
                },
                Err(e) => {
                    chunk.push(Err(Failure::Input(format!("cannot read stdin: {e}"))));
                    true
                }
            };
            // Passed on when full, at the end, or when the next line is not
            // all read yet (reading it may wait).
            let waits = !stdin.buffer().contains(&b'\n');
            if (end || waits || chunk.len() == CHUNK) && !chunk.is_empty() {
                let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                if chunks.blocking_send(full).is_err() {
                    // The run is over.
                    return;
                }
            }
            if end {
                return;
            }
        }
    });
    receiver
}

/// Reads the rest of a comment line whose first `start` octets (past the
/// longest URL line) were read, through its `\n`, keeping none of it;
/// `false` if a CR stands inside the line rather than ending it (or a read
/// fails), as [`is_comment`] does not take a line holding one.
fn skip_comment_rest(start: &[u8], stdin: &mut impl BufRead) -> bool {
    if start.ends_with(b"\n") {
        return true;
    }
    // A CR may only end the line, just before its `\n` (CRLF).
    let mut cr_before = start.ends_with(b"\r");
    loop {
        let Ok(buffer) = stdin.fill_buf() else {
            return false;
        };
        if buffer.is_empty() {
            return true;
        }
        let lf = memchr::memchr(b'\n', buffer);
        let part = &buffer[..lf.unwrap_or(buffer.len())];
        let (inside, cr_last) = match part.strip_suffix(b"\r") {
            Some(inside) => (inside, true),
            None => (part, false),
        };
        if (cr_before && !part.is_empty()) || memchr::memchr(b'\r', inside).is_some() {
            return false;
        }
        cr_before = cr_last;
        let used = part.len() + usize::from(lf.is_some());
        stdin.consume(used);
        if lf.is_some() {
            return true;
        }
    }
}

/// Whether stdin line `n` is a comment, skipped whatever else it holds (a
/// tab, octets that are not UTF-8): one starting with `#` after blanks
/// (and, first, a byte order mark). Not one holding a CR: lines ended by CR
/// alone are read as one, and the URLs after the first would be lost.
fn is_comment(line: &[u8], n: usize) -> bool {
    // Most lines are URLs: only those that can start with `#` are decoded.
    match line.trim_ascii_start().first() {
        Some(b'#') => {}
        Some(b) if !b.is_ascii() => {}
        _ => return false,
    }
    let text = String::from_utf8_lossy(line);
    let text = match n {
        1 => text.strip_prefix('\u{feff}').unwrap_or(&text),
        _ => &text,
    };
    let text = text.trim();
    text.starts_with('#') && !text.contains('\r')
}

/// The first character in `url` that a URL parser drops (a tab, CR or LF),
/// named (`a tab`): with it, another URL than the one given would be
/// checked.
pub fn dropped_inside(url: &str) -> Option<&'static str> {
    url.chars().find_map(|c| match c {
        '\t' => Some("a tab"),
        '\r' => Some("a carriage return"),
        '\n' => Some("a line feed"),
        _ => None,
    })
}

/// A line read without its end, LF or CRLF.
fn without_end(line: &[u8]) -> &[u8] {
    match line.strip_suffix(b"\n") {
        Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
        None => line,
    }
}
