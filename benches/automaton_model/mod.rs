//! A model, not a matcher: what a check would cost if each group were
//! compiled to an automaton that reads the path one octet at a time, the
//! design earlier notes named as the way to 50x texting_robots's checks.
//!
//! A modelled check reads its URL for real (through the handle of a file
//! whose one rule never matches, as the bench's "URL alone" reading does),
//! then follows a chain of dependent loads, one per octet such an
//! automaton would read: up to one past the longest literal prefix that
//! the path shares with a rule of its file's `*` group, or the whole path
//! when the literal prefix of a wildcard rule is a prefix of it. Nothing
//! else an automaton needs is counted (acceptance, which rule decided, the
//! states a subset construction adds for wildcard rules), so the figures
//! are a floor for such a design, not an estimate of one.
//!
//! The loads go to one of three kinds of table: a 4 KiB one shared by all
//! files (always in L1: no automaton is smaller), or one per file holding
//! a state per node of the trie of its group's patterns, 8 or 32 bytes a
//! state, a check's states consecutive (a depth-first layout gives a run
//! of literal octets that way: the best case for the cache).

use std::collections::HashSet;
use std::hint::black_box;

use keepout::Agent;

/// The inputs of the model: each check's file, URL and the steps its
/// automaton would take, and each file's number of states.
pub struct Model<'a> {
    checks: Vec<(usize, &'a str, usize)>,
    states: Vec<usize>,
}

/// What every URL of the bench starts with.
const ORIGIN: &str = "https://example.com";

/// The octets of a pattern before its first `*` (and without a final
/// `$`), and whether it has a wildcard or an anchor.
fn literal(pattern: &[u8]) -> (&[u8], bool) {
    let star = pattern.iter().position(|&b| b == b'*');
    match (star, pattern.last()) {
        (Some(at), _) => (&pattern[..at], true),
        (None, Some(b'$')) => (&pattern[..pattern.len() - 1], true),
        _ => (pattern, false),
    }
}

impl<'a> Model<'a> {
    /// Steps and trie sizes for `pairs` of (file, URL), all under
    /// `https://example.com`, checked through `handles`.
    pub fn new(handles: &[Agent<'_>], pairs: &'a [(usize, String)]) -> Model<'a> {
        let states = handles
            .iter()
            .map(|h| {
                let mut nodes = HashSet::new();
                for g in h.groups() {
                    for r in g.rules() {
                        let p = r.normalized().as_bytes();
                        nodes.extend((1..=p.len()).map(|n| &p[..n]));
                    }
                }
                nodes.len()
            })
            .collect();
        let checks = pairs
            .iter()
            .map(|(i, url)| {
                let path = url
                    .strip_prefix(ORIGIN)
                    .expect("the bench's URLs are all on example.com")
                    .as_bytes();
                let mut steps = 0;
                'rules: for g in handles[*i].groups() {
                    for r in g.rules() {
                        let (lit, wild) = literal(r.normalized().as_bytes());
                        let shared = lit.iter().zip(path).take_while(|(a, b)| a == b).count();
                        steps = if wild && shared == lit.len() {
                            path.len()
                        } else {
                            steps.max((shared + 1).min(path.len()))
                        };
                        if steps == path.len() {
                            break 'rules;
                        }
                    }
                }
                (*i, url.as_str(), steps)
            })
            .collect();
        Model { checks, states }
    }

    /// The mean number of steps a check, and the trie nodes of all files.
    pub fn sizes(&self) -> (f64, usize) {
        let steps: usize = self.checks.iter().map(|c| c.2).sum();
        let nodes = self.states.iter().sum();
        (steps as f64 / self.checks.len().max(1) as f64, nodes)
    }

    /// Tables of `width` 32-bit words a state (a power of two) for every
    /// file, each padded by its longest walk so that none wraps.
    pub fn tables(&self, width: usize) -> (Vec<u32>, Vec<(usize, usize)>) {
        assert!(width.is_power_of_two());
        let mut longest = vec![0; self.states.len()];
        for &(i, _, steps) in &self.checks {
            longest[i] = longest[i].max(steps);
        }
        let mut starts = Vec::with_capacity(self.states.len());
        let mut len = 0;
        for (&states, longest) in self.states.iter().zip(longest) {
            starts.push((len, states.max(1)));
            len += (states.max(1) + longest) * width;
        }
        let table = (0..len as u32)
            .map(|k| k.wrapping_mul(0x9E37_79B1) >> 7)
            .collect();
        (table, starts)
    }

    /// One pass of modelled checks: `lone` reads each URL, then the walk
    /// follows its steps through `table` (`width` words a state; `files`
    /// as [`Model::tables`] made them, or `None` for one table of 1,024
    /// words shared by all).
    pub fn pass(
        &self,
        lone: &Agent<'_>,
        table: &[u32],
        width: usize,
        files: Option<&[(usize, usize)]>,
    ) {
        let mut allowed = 0usize;
        let mut state = 0u32;
        for &(i, url, steps) in &self.checks {
            allowed += lone.is_allowed(black_box(url)) as usize;
            let path = &url.as_bytes()[ORIGIN.len()..][..steps];
            match files {
                None => {
                    for &b in path {
                        state = table[(state ^ u32::from(b)) as usize & 1023];
                    }
                }
                Some(files) => {
                    // Where the walk starts in the file's states: a fixed
                    // pseudo-random place per URL.
                    let (first, states) = files[i];
                    let mut at = first + (url.len().wrapping_mul(0x9E37_79B9) % states) * width;
                    for &b in path {
                        state = table[at + ((state ^ u32::from(b)) as usize & (width - 1))];
                        at += width;
                    }
                }
            }
        }
        black_box((allowed, state));
    }
}
