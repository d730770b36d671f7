//! Finding the groups that apply to a crawler (RFC 9309 section 2.2.1).

use std::cmp::Ordering;

use crate::matcher::index::partition_point;
use crate::matcher::url::trim_controls;
use crate::model::Parsed;
use crate::parse::{is_star, product_token, trim};

/// Compares ASCII byte strings case-insensitively.
pub(crate) fn cmp_ignore_case(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    for i in 0..n {
        match a[i].to_ascii_lowercase().cmp(&b[i].to_ascii_lowercase()) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// The first eight octets of a product token, lower-cased, as a big-endian
/// integer (zero-padded; tokens hold no NUL): the order of these keys is the
/// order of [`cmp_ignore_case`] on the tokens' first eight octets.
#[inline]
pub(crate) fn token_key(token: &[u8]) -> u64 {
    lower8(crate::matcher::index::key8(token))
}

/// The eight octets of `w`, each ASCII upper-case letter lower-cased, all
/// at once: `u8::to_ascii_lowercase` of each octet, in a handful of
/// instructions rather than a few an octet.
#[inline]
pub(crate) fn lower8(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    // Each octet without its top bit, so no sum below carries into the
    // next octet (at most 0x7F + 0x3F).
    let low = w & !TOPS;
    // Top bit set in the octets at or above `A`, and at or above `Z` + 1.
    let from_a = low + ONES * u64::from(0x80 - b'A');
    let past_z = low + ONES * u64::from(0x80 - b'Z' - 1);
    // ASCII octets (top bit clear in `w`) in `A..=Z` get 0x20 (0x80 >> 2).
    w | ((from_a & !past_z & !w & TOPS) >> 2)
}

/// How a crawler's groups were chosen.
///
/// Exhaustive by design: RFC 9309 section 2.2.1 picks the groups naming
/// the crawler, else the `*` groups, else none.
///
/// ```
/// use keepout::{AgentMatch, Robots};
///
/// let robots = Robots::parse("User-agent: ExampleBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n");
/// assert_eq!(robots.agent("examplebot/2.0").agent_match(), AgentMatch::Named);
/// assert_eq!(robots.agent("OtherBot").agent_match(), AgentMatch::Star);
/// let named_only = Robots::parse("User-agent: ExampleBot\nDisallow: /a\n");
/// assert_eq!(named_only.agent("OtherBot").agent_match(), AgentMatch::None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentMatch {
    /// Groups naming the crawler's product token apply (merged when several do).
    Named,
    /// No group names the crawler; the `*` groups apply (merged).
    Star,
    /// No group names the crawler and there is no `*` group: no rule applies.
    None,
}

/// `named`, `star`, `none`.
impl std::fmt::Display for AgentMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AgentMatch::Named => "named",
            AgentMatch::Star => "star",
            AgentMatch::None => "none",
        })
    }
}

/// The groups that apply to `agent`, a product token or a whole User-Agent
/// header value (its leading product token is used), and how they were found.
#[inline]
pub(crate) fn select<'a>(parsed: &'a Parsed, agent: &str) -> (&'a [u32], AgentMatch) {
    let (groups, _, how) = select_names(parsed, agent);
    (groups, how)
}

/// [`select`], and for named groups the user-agent value in each that names
/// the crawler (its first there), as `Parsed::agent` numbers them; none for
/// the `*` groups (see [`matched_agent`]).
pub(crate) fn select_names<'a>(
    parsed: &'a Parsed,
    agent: &str,
) -> (&'a [u32], &'a [u32], AgentMatch) {
    // Many files name no crawler at all: then the `*` groups apply to every
    // crawler, and its name need not be read.
    if parsed.lookup_keys().is_empty() {
        return star(parsed);
    }
    // Whitespace and control characters around a name are no part of it
    // (a header value read from a file may bring its line end).
    let agent = trim_controls(agent.as_bytes());
    let token = crawler_token(agent);
    if !token.is_empty() && !is_star(agent) {
        // The binary search reads only the tokens' 8-octet keys; tokens are
        // compared whole only between equal keys.
        let key = token_key(token);
        if parsed.named_filter & crate::model::token_bit(key) == 0 {
            return star(parsed);
        }
        let key = [(key >> 32) as u32, key as u32];
        let keys = parsed.lookup_keys();
        let lo = keys.partition_point(|&k| k < key);
        // Equal keys hold their tokens sorted (case-insensitively), so the
        // token's run is found by binary search, however many groups name
        // it or share its key.
        let run = keys[lo..].partition_point(|&k| k == key);
        let token_at = |j: usize| parsed.agent_token(&parsed.agent(parsed.lookup()[j]));
        let first = lo + partition_point(run, |i| cmp_ignore_case(token_at(lo + i), token).is_lt());
        let end = first
            + partition_point(lo + run - first, |i| {
                token_at(first + i).eq_ignore_ascii_case(token)
            });
        if first < end {
            // One entry a group, its first value naming the token (see
            // `Parsed::lookup`).
            return (
                &parsed.lookup_groups()[first..end],
                &parsed.lookup()[first..end],
                AgentMatch::Named,
            );
        }
    }
    star(parsed)
}

/// The token a crawler is matched by (RFC 9309 section 2.2.1): the leading
/// product token of `agent` (trimmed by the caller, [`trim_controls`]), or,
/// when that is `Mozilla` and a comment names a crawler after
/// `compatible;` ([`compatible_comment`]), that crawler's. Empty when
/// `agent` starts with none.
#[inline]
pub(crate) fn crawler_token(agent: &[u8]) -> &[u8] {
    let token = product_token(agent);
    if token.eq_ignore_ascii_case(b"Mozilla") {
        // A browser-compatible header: the crawler is named in a comment.
        if let Some(crawler) = compatible_comment(agent).map(|c| product_token(trim(c)))
            && is_crawler(crawler)
        {
            return crawler;
        }
    }
    token
}

/// What follows `compatible;` in a User-Agent header, matched in any case,
/// where it opens a comment or follows a `;` inside one (spaces between):
/// where the browser-compatible forms crawlers send name the crawler.
/// Googlebot's and bingbot's older header opens its comment with it,
/// `Mozilla/5.0 (compatible; ExampleBot/1.2; +https://...)`; their
/// evergreen ones, and GPTBot's, have it mid-comment, `Mozilla/5.0
/// AppleWebKit/537.36 (KHTML, like Gecko; compatible; ExampleBot/1.2;
/// +https://...) Chrome/...`; Googlebot's smartphone header, in its last
/// comment. The first such mark counts. Leading spaces are left to the
/// caller.
pub(crate) fn compatible_comment(header: &[u8]) -> Option<&[u8]> {
    const MARK: &[u8] = b"compatible;";
    let mut from = 0;
    // How deep in comments (RFC 9110 section 5.6.5: they nest) the octet at
    // `from` is, counted as the search goes.
    let (mut depth, mut counted) = (0usize, 0);
    while let Some(i) = header[from..]
        .windows(MARK.len())
        .position(|w| w.eq_ignore_ascii_case(MARK))
    {
        let at = from + i;
        for &octet in &header[counted..at] {
            match octet {
                b'(' => depth += 1,
                b')' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        counted = at;
        // Linear overall: each run of spaces walked back over ends at this
        // mark and starts after the octet before it, so no two overlap.
        let before = header[..at].trim_ascii_end();
        if depth > 0 && matches!(before.last(), Some(b'(' | b';')) {
            return Some(&header[at + MARK.len()..]);
        }
        from = at + 1;
    }
    None
}

/// Whether a token after `compatible;` names a crawler: not empty, and
/// neither `Mozilla` nor a browser's `MSIE`.
pub(crate) fn is_crawler(token: &[u8]) -> bool {
    !token.is_empty()
        && !token.eq_ignore_ascii_case(b"Mozilla")
        && !token.eq_ignore_ascii_case(b"MSIE")
}

/// The `*` groups, which apply when none names the crawler.
pub(crate) fn star(parsed: &Parsed) -> (&[u32], &[u32], AgentMatch) {
    let star = parsed.star_groups();
    if star.is_empty() {
        (&[], &[], AgentMatch::None)
    } else {
        (star, &[], AgentMatch::Star)
    }
}

/// The user-agent value through which `groups[i]` applies: `names[i]`
/// (from [`select_names`]) for named groups, else the group's first `*`.
pub(crate) fn matched_agent(parsed: &Parsed, groups: &[u32], names: &[u32], i: usize) -> u32 {
    names.get(i).copied().unwrap_or_else(|| {
        let (a, b) = parsed.group(groups[i]).agents;
        (a..b).find(|&a| parsed.agent(a).star).unwrap_or(a)
    })
}

#[cfg(test)]
mod tests {
    use crate::{AgentMatch, Robots};

    #[test]
    fn lower8_lowercases_each_octet_as_to_ascii_lowercase_does() {
        // Every octet value in every position, among neighbours that are
        // letters, digits, `@`, `[` and non-ASCII octets alike.
        let around = [b'A', b'z', b'@', b'[', b'`', b'{', 0x00, 0x7F, 0xC1, 0xFF];
        for at in 0..8 {
            for b in 0..=255u8 {
                for &other in &around {
                    let mut octets = [other; 8];
                    octets[at] = b;
                    let want = octets.map(|o| o.to_ascii_lowercase());
                    let got = super::lower8(u64::from_be_bytes(octets));
                    assert_eq!(got.to_be_bytes(), want, "{octets:?}");
                }
            }
        }
    }

    #[test]
    fn tokens_sharing_their_first_eight_octets() {
        let robots = Robots::parse(
            "User-agent: Googlebot\nDisallow: /a\n\n\
             User-agent: googlebot-image\nDisallow: /b\n\n\
             User-agent: GOOGLEBOT-News\nUser-agent: googlebo\nDisallow: /c\n\n\
             User-agent: Googlebot\nDisallow: /d\n\n\
             User-agent: *\nDisallow: /e\n",
        );
        let lines = |agent: &str| -> Vec<u32> {
            let a = robots.agent(agent);
            a.groups().map(|g| g.line()).collect()
        };
        assert_eq!(lines("googlebot/2.1"), [1, 11]);
        assert_eq!(lines("Googlebot-Image"), [4]);
        assert_eq!(lines("googlebot-news"), [7]);
        assert_eq!(lines("GoogleBo"), [7]);
        assert_eq!(lines("Googleb"), [14]);
        assert_eq!(lines("Googlebot-Video"), [14]);
        assert_eq!(
            robots.agent("Googlebot-Video").agent_match(),
            AgentMatch::Star
        );
        assert!(!robots.is_allowed("GOOGLEBOT", "/d"));
        assert!(robots.is_allowed("GOOGLEBOT", "/e"));
    }

    /// `select` against a reading of every group in turn, for names that
    /// share keys and long prefixes, in mixed case, one of them in many
    /// groups.
    #[test]
    fn selection_agrees_with_reading_every_group() {
        let names = [
            "bot",
            "BOT",
            "googlebo",
            "googlebot",
            "Googlebot-Image",
            "googlebot-imagex",
            "averyveryverylongbotname-a",
            "AVeryVeryVeryLongBotName-b",
            "a",
        ];
        let mut body = String::new();
        let mut named: Vec<Vec<String>> = Vec::new();
        for g in 0..60 {
            let mut here = Vec::new();
            for (j, n) in names.iter().enumerate() {
                if (g * 7 + j * 3) % 5 < 2 || (j == 0 && g % 2 == 0) {
                    body.push_str(&format!("User-agent: {n}\n"));
                    here.push(n.to_ascii_lowercase());
                }
            }
            if here.is_empty() {
                body.push_str("User-agent: *\n");
            }
            body.push_str(&format!("Disallow: /{g}\n\n"));
            named.push(here);
        }
        let robots = Robots::parse(&body);
        let lines: Vec<u32> = robots.groups().map(|g| g.line()).collect();
        let star: Vec<u32> = (0..60)
            .filter(|&g| named[g].is_empty())
            .map(|g| lines[g])
            .collect();
        let queries = names.iter().copied().chain(["Bot/1.0", "googleb", "other"]);
        for q in queries {
            let token = q.split('/').next().unwrap().to_ascii_lowercase();
            let mut want: Vec<u32> = (0..60)
                .filter(|&g| named[g].contains(&token))
                .map(|g| lines[g])
                .collect();
            if want.is_empty() {
                want = star.clone();
            }
            let got: Vec<u32> = robots.agent(q).groups().map(|g| g.line()).collect();
            assert_eq!(got, want, "{q}");
        }
    }
}
