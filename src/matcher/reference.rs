//! A small, obviously correct matcher that the fast one is tested against.
//!
//! It knows nothing of indexes, pruning or substring search: a rule matches
//! when a textbook dynamic program over (pattern position, path position)
//! says so, and the decision is the maximum over all rules by (length,
//! allow). Quadratic, and only for tests and the fuzz targets (the hidden
//! `__fuzz` feature).

/// One rule as the reference sees it: normalised pattern and kind.
#[derive(Debug, Clone)]
pub struct RefRule {
    /// An `Allow` rule (else `Disallow`).
    pub allow: bool,
    /// The normalised pattern.
    pub pattern: Vec<u8>,
}

/// Does `pattern` (`*` any run of octets, final `$` end of path) match a
/// prefix of `path` (or all of it, with `$`)?
pub fn glob(pattern: &[u8], path: &[u8]) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    // can[i][j]: pattern[..i] matches path[..j] exactly.
    let (n, m) = (pattern.len(), path.len());
    let mut can = vec![vec![false; m + 1]; n + 1];
    can[0][0] = true;
    for i in 1..=n {
        for j in 0..=m {
            can[i][j] = if pattern[i - 1] == b'*' {
                can[i - 1][j] || (j > 0 && can[i][j - 1])
            } else {
                j > 0 && can[i - 1][j - 1] && pattern[i - 1] == path[j - 1]
            };
        }
    }
    if anchored {
        can[n][m]
    } else {
        (0..=m).any(|j| can[n][j])
    }
}

/// Allowed? The longest matching pattern decides; allow wins ties; no match
/// allows (RFC 9309 section 2.2.2).
pub fn allowed(rules: &[RefRule], path: &[u8]) -> bool {
    rules
        .iter()
        .filter(|r| !r.pattern.is_empty() && glob(&r.pattern, path))
        .map(|r| (r.pattern.len(), r.allow))
        .max()
        .is_none_or(|(_, allow)| allow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(allow: bool, p: &str) -> RefRule {
        RefRule {
            allow,
            pattern: p.as_bytes().to_vec(),
        }
    }

    #[test]
    fn the_reference_agrees_with_the_rfc_examples() {
        assert!(glob(b"/fish*.php", b"/fishheads/catfish.php?x"));
        assert!(glob(b"/*.php$", b"/a.php") && !glob(b"/*.php$", b"/a.php?x"));
        assert!(glob(b"/", b"/anything") && !glob(b"/x", b"/"));
        let rules = [rule(false, "/"), rule(true, "/fish")];
        assert!(allowed(&rules, b"/fish.html") && !allowed(&rules, b"/cat"));
        assert!(allowed(&[rule(false, "/a"), rule(true, "/a")], b"/a"));
        assert!(allowed(&[], b"/x"));
    }
}
