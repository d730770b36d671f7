//! Matching a pattern with `*` wildcards against a path in linear time
//! (RFC 9309 section 2.2.3).
//!
//! A pattern `p0*p1*...*pn` matches a path when the path starts with `p0`
//! and `p1 ... pn` occur after it in order, without overlap. Taking the
//! leftmost occurrence of each piece is always right: it leaves the most room
//! for the pieces after it. So there is no backtracking: each piece is found
//! with one forward substring search (memchr's `memmem`, linear in the text
//! searched), and the search never moves backwards. With a final `$`, the last
//! piece must instead end the path. Total work: O(path + pattern).

use memchr::memmem;

/// Haystacks shorter than this are searched directly: candidates by first
/// octet (memchr), then a comparison; at most `SHORT` times the needle's
/// length, which for the paths crawlers check beats setting up a substring
/// searcher. Longer ones get memmem, linear whatever the input.
const SHORT: usize = 256;

/// The offset of the first occurrence of `needle` in `hay`.
#[inline]
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    match *needle {
        [] => Some(0),
        [b] => memchr::memchr(b, hay),
        [first, ref rest @ ..] if hay.len() < SHORT => {
            let last = hay.len().checked_sub(needle.len())?;
            let mut from = 0;
            while let Some(i) = memchr::memchr(first, &hay[from..=last]) {
                let at = from + i;
                if hay[at + 1..at + needle.len()] == *rest {
                    return Some(at);
                }
                from = at + 1;
            }
            None
        }
        _ => memmem::find(hay, needle),
    }
}

/// Does `pattern` (normalised; `*` wildcards, optional final `$`) match `path`?
#[inline]
pub(crate) fn matches(pattern: &[u8], path: &[u8]) -> bool {
    matches_by(pattern, path, |piece, from| {
        find(&path[from..], piece).map(|i| from + i)
    })
}

/// [`matches()`], remembering piece searches in `memo` across the rules of one
/// check (for long paths; see [`Memo`]).
#[inline]
pub(crate) fn matches_memo<'p>(pattern: &'p [u8], path: &[u8], memo: &mut Memo<'p>) -> bool {
    matches_by(pattern, path, |piece, from| memo.find(path, piece, from))
}

/// The matcher, with `find(piece, from)` giving the offset of the first
/// occurrence of `piece` in `path` at or after `from`. It is asked only
/// for the pieces after the literal prefix that are not empty, in order
/// (and not for the last one when `$` anchors it), each at most once.
#[inline]
pub(crate) fn matches_by<'p>(
    pattern: &'p [u8],
    path: &[u8],
    mut find: impl FnMut(&'p [u8], usize) -> Option<usize>,
) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    let mut pieces = pattern.split(|&b| b == b'*');
    let first = pieces.next().unwrap_or_default();
    if !super::starts_with(path, first) {
        return false;
    }
    let mut pos = first.len();
    let Some(mut piece) = pieces.next() else {
        // No `*` at all.
        return !anchored || path.len() == pos;
    };
    // With `$`, the last piece must end the path: check that first, in
    // constant time, before searching for the pieces between.
    if anchored {
        let tail = pattern.rsplit(|&b| b == b'*').next().unwrap_or_default();
        if path.len() - pos < tail.len() || !path.ends_with(tail) {
            return false;
        }
    }
    loop {
        match pieces.next() {
            Some(next) => {
                if !piece.is_empty() {
                    match find(piece, pos) {
                        Some(at) => pos = at + piece.len(),
                        None => return false,
                    }
                }
                piece = next;
            }
            None => {
                return if anchored {
                    path.len() - pos >= piece.len()
                } else {
                    piece.is_empty() || find(piece, pos).is_some()
                };
            }
        }
    }
}

/// Piece searches of one check, remembered so that the rules of a group
/// that share pieces (`/a*a*a*...`) do not search the path for them again.
///
/// A search for a piece from offset `from` that found it at `at` answers
/// any search for it from an offset in `from..=at` (the first occurrence
/// from there is the same), and one that did not find it answers any
/// search from `from` on. 64 slots, chosen by a hash of the piece, each
/// holding the latest search; on the stack, so a check still allocates
/// nothing.
pub(crate) struct Memo<'p> {
    slots: [Option<Search<'p>>; 64],
}

#[derive(Clone, Copy)]
struct Search<'p> {
    piece: &'p [u8],
    from: usize,
    at: Option<usize>,
}

impl<'p> Memo<'p> {
    pub(crate) fn new() -> Memo<'p> {
        Memo { slots: [None; 64] }
    }

    /// The offset of the first occurrence of `piece` in `path` at or after
    /// `from`.
    fn find(&mut self, path: &[u8], piece: &'p [u8], from: usize) -> Option<usize> {
        let hash = piece
            .iter()
            .fold(piece.len() as u32, |h, &b| h.rotate_left(5) ^ b as u32)
            .wrapping_mul(0x9E37_79B1);
        let slot = &mut self.slots[(hash >> 26) as usize];
        if let Some(s) = slot
            && s.piece == piece
        {
            match s.at {
                None if from >= s.from => return None,
                Some(at) if (s.from..=at).contains(&from) => return Some(at),
                _ => {}
            }
        }
        let at = find(&path[from..], piece).map(|i| from + i);
        *slot = Some(Search { piece, from, at });
        at
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn wildcards_and_anchors() {
        let yes = [
            ("/*.php", "/a/b.php?x"),
            ("/*.php$", "/a/b.php"),
            ("/fish*.php", "/fishheads/catfish.php?p"),
            ("*", "/"),
            ("/a*", "/a"),
            ("/a*b*c$", "/aXbYc"),
            ("/a*bc$", "/abcbc"),
            ("/**x", "/x"),
            ("/a$", "/a"),
        ];
        for (p, s) in yes {
            assert!(matches(p.as_bytes(), s.as_bytes()), "{p} ~ {s}");
        }
        let no = [
            ("/*.php$", "/a.php?x"),
            ("/*.php$", "/a.php5"),
            ("/a*b*c$", "/aXbYcZ"),
            ("/a*bc$", "/abc/"),
            ("/ab*ba$", "/aba"),
            ("/a$", "/ab"),
            ("/x*", "/"),
        ];
        for (p, s) in no {
            assert!(!matches(p.as_bytes(), s.as_bytes()), "{p} !~ {s}");
        }
    }

    #[test]
    fn memo_answers_as_a_search_would() {
        let path = b"/xaybxaybz";
        let mut memo = super::Memo::new();
        for (piece, from, want) in [
            (&b"ay"[..], 0, Some(2)),
            (b"ay", 1, Some(2)),
            (b"ay", 2, Some(2)),
            (b"ay", 3, Some(6)),
            (b"q", 0, None),
            (b"q", 5, None),
            (b"ay", 7, None),
            (b"ay", 0, Some(2)),
        ] {
            assert_eq!(memo.find(path, piece, from), want, "{piece:?} {from}");
        }
    }
}
