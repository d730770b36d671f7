//! Property tests: the fast matcher (linear scan with pruning, prefix index,
//! group selection and merging) against the [`reference`] matcher, on random
//! robots.txt files and paths over a small alphabet that makes prefixes,
//! wildcards, anchors and percent-escapes collide often.

use proptest::prelude::*;

use super::reference::{self, RefRule};
use super::{best, group_best, index::Index, linear_best};
use crate::parse::{self, ParseOptions, product_token};
use crate::percent::{self, Mode};
use crate::robots::Robots;

/// Pieces of patterns and paths: operators, escapes of reserved and
/// unreserved octets (upper and lower case), a stray `%`, and a non-ASCII
/// character (which normalises to `%C3%A9`).
const PIECES: &[&str] = &[
    "/", "/", "a", "a", "b", "ab", "*", "%", "%2F", "%2f", "%61", "é", "%C3%A9",
];

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..max).prop_map(|v| v.concat())
}

/// Text past `wildcard`'s short-haystack bound (256 octets) nearly always:
/// 150 to 400 pieces, 2.3 octets each on average once normalised.
fn long_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 150..400).prop_map(|v| v.concat())
}

/// A pattern as written in a file: usually rooted, sometimes anchored.
fn pattern() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["/", "/", "/", "*", ""][..]),
        text(6),
        prop::bool::weighted(0.25),
    )
        .prop_map(|(root, body, anchored)| {
            let mut p = format!("{root}{body}");
            if anchored {
                p.push('$');
            }
            p
        })
}

/// A path as a crawler passes it (`*` and `$` are data there).
fn path() -> impl Strategy<Value = String> {
    (text(8), prop::bool::weighted(0.1)).prop_map(|(body, dollar)| {
        let mut p = format!("/{body}");
        if dollar {
            p.push('$');
        }
        p
    })
}

#[derive(Debug, Clone)]
struct TestGroup {
    agents: Vec<&'static str>,
    rules: Vec<(bool, String)>,
}

const AGENTS: &[&str] = &["*", "a-bot", "A-BOT/1.0", "b_bot", "other"];
const QUERIES: &[&str] = &["a-bot", "B_Bot/2.1", "zzz", "*", "other (compatible)"];

fn rules(max: usize) -> impl Strategy<Value = Vec<(bool, String)>> {
    prop::collection::vec((any::<bool>(), pattern()), 0..max)
}

fn group() -> impl Strategy<Value = TestGroup> {
    (
        prop::collection::vec(prop::sample::select(AGENTS), 1..3),
        // Small groups (linear scan) and large ones (prefix index).
        prop_oneof![3 => rules(12), 1 => rules(80)],
    )
        .prop_map(|(agents, rules)| TestGroup { agents, rules })
}

/// Groups of which some repeat the patterns of the group before them (each
/// rule keeping its own kind, or the earlier rule's): the parser shares
/// the earlier copies then, and answers and explanations must not change.
fn groups_with_repeats(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<TestGroup>> {
    prop::collection::vec((group(), prop::bool::weighted(0.4), prop::bool::ANY), n).prop_map(|gs| {
        let mut out: Vec<TestGroup> = Vec::new();
        for (mut g, repeat, same_kinds) in gs {
            if let Some(before) = out.last().filter(|_| repeat) {
                let kinds = g.rules.iter().map(|r| r.0).chain(std::iter::repeat(true));
                g.rules = before
                    .rules
                    .iter()
                    .zip(kinds)
                    .map(|((allow, p), own)| (if same_kinds { *allow } else { own }, p.clone()))
                    .collect();
            }
            out.push(g);
        }
        out
    })
}

fn body(groups: &[TestGroup]) -> String {
    let mut s = String::new();
    for g in groups {
        for a in &g.agents {
            s.push_str(&format!("User-agent: {a}\n"));
        }
        for (allow, p) in &g.rules {
            let key = if *allow { "Allow" } else { "Disallow" };
            s.push_str(&format!("{key}: {p}\n"));
        }
    }
    s
}

fn ref_rule(allow: bool, p: &str) -> RefRule {
    RefRule {
        allow,
        pattern: percent::normalize(p.as_bytes(), Mode::Pattern).into_owned(),
    }
}

/// RFC 9309 section 2.2.1, simply: a run of user-agent lines opens one
/// group, groups naming the crawler's product token merge; if none does, the
/// `*` groups merge.
fn reference_rules(groups: &[TestGroup], query: &str) -> Vec<RefRule> {
    let token = product_token(query.as_bytes());
    let names = |a: &str| {
        let t = product_token(a.as_bytes());
        !a.starts_with('*') && !t.is_empty() && t.eq_ignore_ascii_case(token)
    };
    // Agents of each group, with those of rule-less groups just before it
    // (in the file they are one run of user-agent lines).
    let mut effective: Vec<Vec<&str>> = Vec::new();
    let mut carry: Vec<&str> = Vec::new();
    for g in groups {
        carry.extend(&g.agents);
        effective.push(carry.clone());
        if !g.rules.is_empty() {
            carry.clear();
        }
    }
    let pick = |f: &dyn Fn(&str) -> bool| -> Option<Vec<RefRule>> {
        let chosen: Vec<usize> = (0..groups.len())
            .filter(|&i| effective[i].iter().any(|a| f(a)))
            .collect();
        (!chosen.is_empty()).then(|| {
            chosen
                .iter()
                .flat_map(|&i| &groups[i].rules)
                .map(|(allow, p)| ref_rule(*allow, p))
                .collect()
        })
    };
    let named = !token.is_empty() && !query.starts_with('*');
    named
        .then(|| pick(&names))
        .flatten()
        .or_else(|| pick(&|a: &str| a.starts_with('*')))
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// `Robots::is_allowed` and the agent handle agree with the reference:
    /// `is_allowed` first while large groups are scanned (their indexes not
    /// yet worth building, see `matcher::rent`), then both once the handle
    /// has built the indexes.
    #[test]
    fn fast_matcher_agrees_with_reference(
        groups in groups_with_repeats(1..4),
        paths in prop::collection::vec(path(), 1..12),
        query in prop::sample::select(QUERIES),
    ) {
        let robots = Robots::parse(body(&groups));
        let rules = reference_rules(&groups, query);
        for p in &paths {
            let want = reference::allowed(&rules, &percent::path(p.as_bytes()));
            let url = format!("https://example.com{p}");
            prop_assert_eq!(robots.is_allowed(query, &url), want, "scanned, url {}", url);
        }
        let handle = robots.agent(query);
        let owned = robots.owned_agent(query);
        for p in &paths {
            let normal = percent::path(p.as_bytes());
            let want = reference::allowed(&rules, &normal);
            let url = format!("https://example.com{p}");
            prop_assert_eq!(robots.is_allowed(query, &url), want, "url {} normal {:?}", url,
                String::from_utf8_lossy(&normal));
            prop_assert_eq!(handle.is_allowed(&url), want, "handle, url {}", url);
            prop_assert_eq!(owned.is_allowed(&url), want, "owned handle, url {}", url);
            // A bare path too, unless it reads as a scheme-relative URL.
            if !p.starts_with("//") {
                prop_assert_eq!(robots.is_allowed(query, p), want, "path {}", p);
                prop_assert_eq!(handle.is_allowed(p), want, "handle, path {}", p);
                prop_assert_eq!(owned.is_allowed(p), want, "owned handle, path {}", p);
            }
        }
    }

    /// `explain` names the rule the reference picks: of the crawler's
    /// groups' rules that match, the longest (an `Allow` winning a tie of
    /// length), and of those the first in the file, also where a group
    /// repeats the one before it and the two share their patterns.
    #[test]
    fn explain_names_the_first_strongest_rule(
        groups in groups_with_repeats(1..5),
        paths in prop::collection::vec(path(), 1..12),
        query in prop::sample::select(QUERIES),
    ) {
        let robots = Robots::parse(body(&groups));
        let url = |p: &str| format!("https://example.com{p}");
        // Before the handle builds any index, and after.
        let scanned: Vec<_> = paths
            .iter()
            .map(|p| robots.explain(query, url(p)).rule().map(|r| r.line()))
            .collect();
        let bot = robots.agent(query);
        let rules: Vec<_> = bot.groups().flat_map(|g| g.rules()).collect();
        for (p, scanned) in paths.iter().zip(scanned) {
            let normal = percent::path(p.as_bytes());
            let want = rules
                .iter()
                .filter(|r| glob_matches(r.normalized(), &normal))
                .map(|r| {
                    let allow = r.kind() == crate::RuleKind::Allow;
                    (r.normalized().len(), allow, std::cmp::Reverse(r.line()))
                })
                .max()
                .map(|(_, _, line)| line.0);
            let url = url(p);
            let d = robots.explain(query, &url);
            if d.cause() == crate::Cause::RobotsTxt {
                continue;
            }
            prop_assert_eq!(scanned, want, "scanned, url {}", url);
            prop_assert_eq!(d.rule().map(|r| r.line()), want, "url {}", url);
            let handle = bot.explain(&url).rule().map(|r| r.line());
            prop_assert_eq!(handle, want, "handle, url {}", url);
            let owned = robots.owned_agent(query).explain(&url).rule().map(|r| r.line());
            prop_assert_eq!(owned, want, "owned handle, url {}", url);
        }
    }

    /// On one group, the prefix index returns exactly the rule a forced
    /// linear scan returns (same rule, not only the same verdict).
    #[test]
    fn index_agrees_with_linear_scan(
        rules in prop::collection::vec((any::<bool>(), pattern()), 0..120),
        paths in prop::collection::vec(
            // Long paths too: the index shares searches across rules there.
            prop_oneof![4 => path(), 1 => text(120).prop_map(|t| format!("/{t}"))],
            1..16,
        ),
    ) {
        let text = body(&[TestGroup { agents: vec!["*"], rules: rules.clone() }]);
        let parsed = parse::parse(text.as_bytes(), &ParseOptions::new());
        let Some(g) = parsed.groups().next() else {
            return Ok(());
        };
        let index = Index::build(&parsed, g.rules, g.base);
        let refs: Vec<RefRule> = rules.iter().map(|(a, p)| ref_rule(*a, p)).collect();
        for p in &paths {
            let normal = percent::path(p.as_bytes());
            let (start, end) = (g.rules.0 as usize, g.rules.1 as usize);
            let linear = linear_best(&parsed.arena, &parsed.rules[start..end], g.base, &normal);
            prop_assert_eq!(index.best(&parsed.arena, &normal), linear, "path {}", p);
            prop_assert_eq!(
                linear.is_none_or(|h| h.allow),
                reference::allowed(&refs, &normal),
                "path {}", p
            );
        }
    }

    /// With several `*` groups, or several groups naming one crawler, the
    /// one index over all their rules returns exactly the rule the best of
    /// the groups' own bests is.
    #[test]
    fn merged_index_agrees_with_groups_one_by_one(
        named in any::<bool>(),
        groups in prop::collection::vec((rules(24), prop::bool::weighted(0.4)), 2..5),
        paths in prop::collection::vec(
            prop_oneof![4 => path(), 1 => text(60).prop_map(|t| format!("/{t}"))],
            1..16,
        ),
    ) {
        // Some groups repeat the one before (sharing its patterns).
        let mut all: Vec<TestGroup> = Vec::new();
        for (rules, repeat) in groups {
            let rules = match all.last() {
                Some(before) if repeat => before.rules.clone(),
                _ => rules,
            };
            all.push(TestGroup {
                agents: vec![if named { "Bot" } else { "*" }],
                rules,
            });
        }
        let groups = all;
        let parsed = parse::parse(body(&groups).as_bytes(), &ParseOptions::new());
        // (Groups without rules run into the next: there may be fewer.)
        let (stars, _) = crate::agent::select(&parsed, if named { "bot/1.0" } else { "other" });
        let merged = Index::merged(&parsed, stars);
        for p in &paths {
            let normal = percent::path(p.as_bytes());
            let one_by_one = stars
                .iter()
                .filter_map(|&g| group_best(&parsed, g, &normal))
                .reduce(|a, b| if b.beats(&a) { b } else { a });
            prop_assert_eq!(merged.best(&parsed.arena, &normal), one_by_one, "path {}", p);
            prop_assert_eq!(best(&parsed, stars, &normal), one_by_one, "path {}", p);
        }
    }

    /// The same on long paths (past the short-haystack search) and long
    /// patterns.
    #[test]
    fn wildcard_agrees_with_glob_on_long_paths(
        p in (text(24), prop::bool::weighted(0.3))
            .prop_map(|(t, a)| format!("/{t}{}", if a { "$" } else { "" })),
        s in long_text().prop_map(|t| format!("/{t}")),
    ) {
        wildcard_agrees(&p, &s)?;
    }

    /// Many patterns against one long path through one memo (as a check
    /// does) answer as the reference does, pattern by pattern.
    #[test]
    fn memo_agrees_with_glob(
        patterns in prop::collection::vec(
            (text(10), prop::bool::weighted(0.3))
                .prop_map(|(t, a)| format!("/{t}{}", if a { "$" } else { "" })),
            1..24,
        ),
        s in long_text().prop_map(|t| format!("/{t}")),
    ) {
        let normal = percent::path(s.as_bytes());
        let pats: Vec<Vec<u8>> = patterns
            .iter()
            .map(|p| percent::normalize(p.as_bytes(), Mode::Pattern).into_owned())
            .collect();
        let mut memo = super::wildcard::Memo::new();
        for (p, pat) in patterns.iter().zip(&pats) {
            prop_assert_eq!(
                super::wildcard::matches_memo(pat, &normal, &mut memo),
                reference::glob(pat, &normal),
                "pattern {} path {}", p, s
            );
        }
    }

    /// Every rule the fast wildcard matcher accepts or rejects, the
    /// reference glob does too.
    #[test]
    fn wildcard_agrees_with_glob(p in pattern(), s in path()) {
        wildcard_agrees(&p, &s)?;
    }
}

/// Does a rule's normalised pattern match the normalised path (the
/// reference's view: an empty pattern matches nothing)?
fn glob_matches(pattern: &str, path: &[u8]) -> bool {
    !pattern.is_empty() && reference::glob(pattern.as_bytes(), path)
}

/// The fast wildcard matcher and the reference glob agree on pattern `p`
/// (as written) and path `s` (as a crawler passes it).
fn wildcard_agrees(p: &str, s: &str) -> Result<(), TestCaseError> {
    let pat = percent::normalize(p.as_bytes(), Mode::Pattern);
    let normal = percent::path(s.as_bytes());
    prop_assert_eq!(
        super::wildcard::matches(&pat, &normal),
        reference::glob(&pat, &normal),
        "pattern {} path {}",
        p,
        s
    );
    Ok(())
}
