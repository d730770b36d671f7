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

/// Does `pattern` (normalised; `*` wildcards, optional final `$`) match `path`?
pub(crate) fn matches(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    let mut pieces = pattern.split(|&b| b == b'*');
    let first = pieces.next().unwrap_or_default();
    if !path.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    let Some(mut piece) = pieces.next() else {
        // No `*` at all.
        return !anchored || path.len() == pos;
    };
    loop {
        match pieces.next() {
            Some(next) => {
                if !piece.is_empty() {
                    match memmem::find(&path[pos..], piece) {
                        Some(i) => pos += i + piece.len(),
                        None => return false,
                    }
                }
                piece = next;
            }
            None => {
                return if anchored {
                    path.len() - pos >= piece.len() && path.ends_with(piece)
                } else {
                    piece.is_empty() || memmem::find(&path[pos..], piece).is_some()
                };
            }
        }
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
}
