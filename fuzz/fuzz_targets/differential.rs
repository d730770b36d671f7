//! The fast matcher (linear scan, prefix index for groups of more than 8
//! rules, linear-time wildcards) against the naive reference matcher, on
//! robots.txt files generated from the input over a small alphabet, so that
//! patterns overlap, share prefixes and collide often.
//!
//! Checked for each path: the decision, through an `Agent` handle (indexes
//! built at once) and through `Robots::is_allowed` on a parse of its own
//! (large groups scanned until their index pays), the deciding rule
//! (longest match, `Allow` winning a tie, the earliest line winning a full
//! tie), and which groups apply to the crawler (those naming it, merged;
//! else the `*` ones).
#![no_main]

use keepout::{ParseOptions, Robots};
use libfuzzer_sys::fuzz_target;

/// Pattern and path characters: operators, escapes and a few letters.
const ALPHABET: &[u8] = b"/ab*$%4A1?.=~cZ%/a*2f";
const AGENTS: [&str; 4] = ["bot", "*", "other", "BOT/2.0"];

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn text(&mut self, max: u8) -> String {
        let n = self.byte() % max;
        (0..n)
            .map(|_| ALPHABET[self.byte() as usize % ALPHABET.len()] as char)
            .collect()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let flags = input.byte();
    // The top bit, so that seeds of ASCII text run in RFC 9309 mode.
    let mk1996 = flags & 0x80 != 0;
    let groups = 1 + (flags >> 1) % 4;
    let mut body = String::new();
    // Per group: its first line, whether it names `bot`, whether it is `*`.
    let mut expected: Vec<(u32, bool, bool)> = Vec::new();
    let mut line = 0u32;
    for _ in 0..groups {
        let shape = input.byte();
        let (mut named, mut star) = (false, false);
        let first = line + 1;
        for k in 0..1 + (shape & 1) {
            let agent = AGENTS[(shape >> (1 + 2 * k)) as usize % 4];
            named |= agent.starts_with("bot") || agent.starts_with("BOT");
            star |= agent == "*";
            body.push_str(&format!("User-agent: {agent}\n"));
            line += 1;
        }
        expected.push((first, named, star));
        let rules = input.byte() % 64;
        for _ in 0..rules {
            let kind = if input.byte() & 1 == 1 {
                "Allow"
            } else {
                "Disallow"
            };
            let mut pattern = input.text(12);
            if !pattern.starts_with(['/', '*']) && pattern.len() > 1 {
                pattern.replace_range(0..1, "/");
            }
            body.push_str(&format!("{kind}: {pattern}\n"));
            line += 1;
        }
        // An empty rule line closes the group even when it has no rules.
        body.push_str("Disallow:\n");
        line += 1;
    }
    let options = ParseOptions::new().mk1996(mk1996);
    let robots: Robots = options.parse(&body);
    // A second parse that no handle touches: its `is_allowed` scans large
    // groups until their checks have paid for an index (then builds it),
    // where the handle below builds every index at once.
    let scanned: Robots = options.parse(&body);

    let bot = robots.agent("bot");
    let owned = robots.owned_agent("bot");
    let want: Vec<u32> = if expected.iter().any(|g| g.1) {
        expected.iter().filter(|g| g.1).map(|g| g.0).collect()
    } else {
        expected.iter().filter(|g| g.2).map(|g| g.0).collect()
    };
    let got: Vec<u32> = bot.groups().map(|g| g.line()).collect();
    assert_eq!(got, want, "groups for bot in\n{body}");

    let rules: Vec<(keepout::__fuzz::RefRule, u32)> = bot
        .groups()
        .flat_map(|g| g.rules())
        .map(|r| {
            let rule = keepout::__fuzz::RefRule {
                allow: r.kind() == keepout::RuleKind::Allow,
                pattern: r.normalized().as_bytes().to_vec(),
            };
            (rule, r.line())
        })
        .collect();
    let plain: Vec<_> = rules.iter().map(|(r, _)| r.clone()).collect();

    for _ in 0..16 {
        if input.0.is_empty() {
            break;
        }
        let mut url = input.text(24);
        if input.byte() & 1 == 1 {
            url.insert(0, '/');
        }
        let allowed = bot.is_allowed(&url);
        let d = bot.explain(&url);
        assert_eq!(d.allowed(), allowed);
        assert_eq!(scanned.is_allowed("bot", &url), allowed, "{url:?} in\n{body}");
        assert_eq!(owned.is_allowed(&url), allowed, "owned {url:?} in\n{body}");
        let path = keepout::__fuzz::normalize_path(&keepout::__fuzz::path_and_query(&url));
        if path.split(|&b| b == b'?').next() == Some(b"/robots.txt") {
            assert!(allowed);
            continue;
        }
        let reference = keepout::__fuzz::reference_allowed(&plain, &path);
        assert_eq!(
            allowed,
            reference,
            "{url:?} (path {:?}) in\n{body}",
            String::from_utf8_lossy(&path)
        );
        // The deciding rule: longest, then Allow, then earliest line.
        let best = rules
            .iter()
            .filter(|(r, _)| keepout::__fuzz::reference_glob(&r.pattern, &path))
            .max_by_key(|(r, line)| (r.pattern.len(), r.allow, std::cmp::Reverse(*line)))
            .map(|(_, line)| *line);
        assert_eq!(d.rule().map(|r| r.line()), best, "{url:?} in\n{body}");
    }
});
