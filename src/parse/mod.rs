//! Parsing robots.txt bytes into the compact [`Parsed`] form
//! (RFC 9309 section 2.1 and 2.2).
//!
//! The parser makes one pass over the body and does O(1) work per line plus
//! O(n) per value octet: no backtracking, no regex, no sorting. It never
//! fails: what it cannot read it skips, with a [`Warning`].

mod lexer;

use std::fmt;

use crate::limits::MAX_BODY_LEN;
use crate::lint::{Warning, WarningKind};
use crate::model::{ALLOW, ANCHORED, AgentName, Group, Parsed, REWRITTEN, Rule, WILDCARD};
use crate::percent::{self, Mode};
use crate::record::{Record, RequestRate, parse_crawl_delay};
use crate::robots::Robots;

pub(crate) use lexer::{is_space, trim};

/// The directives keepout understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Directive {
    /// `User-agent` (RFC 9309 section 2.2.1).
    UserAgent,
    /// `Allow` (RFC 9309 section 2.2.2).
    Allow,
    /// `Disallow` (RFC 9309 section 2.2.2).
    Disallow,
    /// `Sitemap` (RFC 9309 section 2.2.4; sitemaps.org).
    Sitemap,
    /// `Crawl-delay`: seconds between requests (an extension).
    CrawlDelay,
    /// `Request-rate`: `n/N` requests per period (an extension).
    RequestRate,
    /// `Host`: the preferred host name (a Yandex extension).
    Host,
}

impl Directive {
    /// The key as it is usually written, e.g. `User-agent`.
    pub fn as_str(self) -> &'static str {
        match self {
            Directive::UserAgent => "User-agent",
            Directive::Allow => "Allow",
            Directive::Disallow => "Disallow",
            Directive::Sitemap => "Sitemap",
            Directive::CrawlDelay => "Crawl-delay",
            Directive::RequestRate => "Request-rate",
            Directive::Host => "Host",
        }
    }
}

impl fmt::Display for Directive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reads a key, case-insensitively. The second value is true for accepted
/// misspellings: those seen in real files and accepted by Google's parser.
fn classify(key: &[u8]) -> Option<(Directive, bool)> {
    let mut buf = [0u8; 16];
    let lower = buf.get_mut(..key.len())?;
    for (d, s) in lower.iter_mut().zip(key) {
        *d = s.to_ascii_lowercase();
    }
    use Directive::*;
    Some(match &*lower {
        b"user-agent" => (UserAgent, false),
        b"useragent" | b"user agent" | b"user_agent" | b"user-agents" => (UserAgent, true),
        b"allow" => (Allow, false),
        b"disallow" => (Disallow, false),
        b"disalow" | b"dissallow" | b"dissalow" | b"diasllow" | b"disallaw" | b"dis-allow" => {
            (Disallow, true)
        }
        b"sitemap" => (Sitemap, false),
        b"site-map" | b"site map" | b"sitemaps" => (Sitemap, true),
        b"crawl-delay" => (CrawlDelay, false),
        b"crawldelay" | b"crawl delay" | b"crawl_delay" => (CrawlDelay, true),
        b"request-rate" => (RequestRate, false),
        b"requestrate" | b"request rate" | b"request_rate" => (RequestRate, true),
        b"host" => (Host, false),
        _ => return None,
    })
}

/// The product token at the start of a user-agent value or a crawler's
/// User-Agent header: the longest prefix of `[A-Za-z0-9_-]`
/// (RFC 9309 section 2.2.1; digits are accepted too, as real crawler names
/// such as `MJ12bot` and `360Spider` carry them).
pub(crate) fn product_token(s: &[u8]) -> &[u8] {
    let end = s
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// A user-agent value naming the global group: `*`, alone or followed by
/// whitespace (Google reads `* foo` as `*` too).
pub(crate) fn is_star(value: &[u8]) -> bool {
    value.first() == Some(&b'*') && value.get(1).is_none_or(|&b| is_space(b))
}

/// How to parse a robots.txt.
///
/// The defaults follow RFC 9309; [`Robots::parse`] uses them.
///
/// ```
/// use keepout::ParseOptions;
/// // MK1996 (the 1996 draft): `*` and `$` are ordinary characters.
/// let robots = ParseOptions::new().mk1996(true).parse("User-agent: *\nDisallow: /*.pdf\n");
/// assert!(robots.is_allowed("bot", "/files/a.pdf"));
/// assert!(!robots.is_allowed("bot", "/*.pdf"));
/// ```
#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    mk1996: bool,
}

impl ParseOptions {
    /// RFC 9309 parsing.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Takes `*` and `$` in patterns literally, as the 1996 draft (and
    /// Python's `urllib.robotparser`) does, instead of as wildcard and anchor.
    pub fn mk1996(mut self, yes: bool) -> ParseOptions {
        self.mk1996 = yes;
        self
    }

    /// Parses `body`. Never fails and never panics, whatever the bytes.
    pub fn parse(&self, body: impl AsRef<[u8]>) -> Robots {
        Robots::from_parsed(parse(body.as_ref(), self))
    }
}

/// Parses a body with the given options.
pub(crate) fn parse(body: &[u8], options: &ParseOptions) -> Parsed {
    // A UTF-16 body (two corpus files are) is recognised by its byte order
    // mark and transcoded first; everything else is read as bytes.
    // Arena offsets are 32-bit and a line's value can grow 3x when stored
    // (percent-encoding, U+FFFD for bad UTF-8), so only the first
    // `MAX_BODY_LEN` octets are read, transcoded or not.
    let cap = |text: &[u8]| text.len().min(MAX_BODY_LEN);
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(body)
        && enc != encoding_rs::UTF_8
    {
        let body = &body[..cap(body)];
        let (text, _) = enc.decode_with_bom_removal(body);
        let text = text.as_bytes();
        return Builder::new(options).run(&text[..cap(text)]);
    }
    Builder::new(options).run(&body[..cap(body)])
}

struct Builder {
    literal: bool,
    arena: Vec<u8>,
    rules: Vec<Rule>,
    groups: Vec<Group>,
    agents: Vec<AgentName>,
    written: Vec<(u32, Box<str>)>,
    sitemaps: Vec<Box<str>>,
    host: Option<Box<str>>,
    records: Vec<Record>,
    warnings: Vec<Warning>,
    /// A rule line has been seen since the current group's last user-agent
    /// line, so the next user-agent line starts a new group (section 2.1).
    rule_seen: bool,
}

impl Builder {
    fn new(options: &ParseOptions) -> Builder {
        Builder {
            literal: options.mk1996,
            arena: Vec::new(),
            rules: Vec::new(),
            groups: Vec::new(),
            agents: Vec::new(),
            written: Vec::new(),
            sitemaps: Vec::new(),
            host: None,
            records: Vec::new(),
            warnings: Vec::new(),
            rule_seen: false,
        }
    }

    fn warn(&mut self, line: u32, kind: WarningKind) {
        self.warnings.push(Warning { line, kind });
    }

    fn run(mut self, body: &[u8]) -> Parsed {
        self.arena.reserve(body.len() / 2);
        for line in lexer::Lines::new(body) {
            if line.too_long {
                self.warn(line.number, WarningKind::LineTooLong);
            }
            if line.nul {
                self.warn(line.number, WarningKind::NulByte);
            }
            if line.content.is_empty() {
                continue;
            }
            let Some(kv) = lexer::split(line.content) else {
                self.warn(line.number, WarningKind::Unparsable);
                continue;
            };
            if kv.missing_colon {
                self.warn(line.number, WarningKind::MissingColon);
            }
            match classify(kv.key) {
                Some((directive, misspelled)) => {
                    if misspelled {
                        let written = String::from_utf8_lossy(kv.key).into();
                        self.warn(
                            line.number,
                            WarningKind::Misspelled {
                                written,
                                understood_as: directive,
                            },
                        );
                    }
                    self.directive(line.number, directive, kv.value);
                }
                None => {
                    let key: Box<str> = String::from_utf8_lossy(kv.key).into();
                    self.warn(line.number, WarningKind::UnknownKey { key: key.clone() });
                    let value = String::from_utf8_lossy(kv.value).into();
                    self.records.push(Record {
                        line: line.number,
                        key,
                        value,
                    });
                }
            }
        }
        self.finish(body.len())
    }

    fn directive(&mut self, line: u32, directive: Directive, value: &[u8]) {
        match directive {
            Directive::UserAgent => self.user_agent(line, value),
            Directive::Allow | Directive::Disallow => {
                if self.groups.is_empty() {
                    self.warn(line, WarningKind::RuleOutsideGroup);
                    return;
                }
                // Any rule line, even an empty one, closes the run of
                // user-agent lines.
                self.rule_seen = true;
                // RFC 9309 section 2.2.2: an empty pattern matches nothing.
                if !value.is_empty() {
                    self.rule(line, directive == Directive::Allow, value);
                }
            }
            Directive::CrawlDelay | Directive::RequestRate => {
                let Some(group) = self.groups.last_mut() else {
                    self.warn(line, WarningKind::RuleOutsideGroup);
                    return;
                };
                let text = std::str::from_utf8(value).unwrap_or("");
                let duplicate = if directive == Directive::CrawlDelay {
                    match parse_crawl_delay(text) {
                        None => return self.warn(line, WarningKind::InvalidValue { directive }),
                        Some(_) if group.crawl_delay.is_some() => true,
                        Some(d) => {
                            group.crawl_delay = Some((d, line));
                            false
                        }
                    }
                } else {
                    match RequestRate::parse(text) {
                        None => return self.warn(line, WarningKind::InvalidValue { directive }),
                        Some(_) if group.request_rate.is_some() => true,
                        Some(r) => {
                            group.request_rate = Some((r, line));
                            false
                        }
                    }
                };
                if duplicate {
                    self.warn(line, WarningKind::Duplicate { directive });
                }
            }
            Directive::Sitemap => {
                if value.is_empty() {
                    return self.warn(line, WarningKind::EmptyValue { directive });
                }
                self.sitemaps.push(text_or_escaped(value));
            }
            Directive::Host => {
                if value.is_empty() {
                    return self.warn(line, WarningKind::EmptyValue { directive });
                }
                if self.host.is_none() {
                    self.host = Some(text_or_escaped(value));
                }
            }
        }
    }

    fn user_agent(&mut self, line: u32, value: &[u8]) {
        if value.is_empty() {
            return self.warn(
                line,
                WarningKind::EmptyValue {
                    directive: Directive::UserAgent,
                },
            );
        }
        if self.groups.is_empty() || self.rule_seen {
            let n = self.rules.len() as u32;
            let a = self.agents.len() as u32;
            self.groups.push(Group {
                rules: (n, n),
                agents: (a, a),
                line,
                crawl_delay: None,
                request_rate: None,
                index: Default::default(),
            });
            self.rule_seen = false;
        }
        let star = is_star(value);
        let token_len = if star { 0 } else { product_token(value).len() };
        if !star && token_len == 0 {
            self.warn(line, WarningKind::InvalidUserAgent);
        }
        let start = self.arena.len() as u32;
        // Store the value as UTF-8 so views can hand out `&str`; the token
        // is ASCII, so it stays a prefix.
        match std::str::from_utf8(value) {
            Ok(s) => self.arena.extend_from_slice(s.as_bytes()),
            Err(_) => self
                .arena
                .extend_from_slice(String::from_utf8_lossy(value).as_bytes()),
        }
        let len = self.arena.len() as u32 - start;
        let group_index = self.groups.len() as u32 - 1;
        self.agents.push(AgentName {
            start,
            len,
            token_len: token_len as u32,
            group: group_index,
            star,
        });
        self.groups.last_mut().expect("group pushed above").agents.1 += 1;
    }

    fn rule(&mut self, line: u32, allow: bool, value: &[u8]) {
        let mode = if self.literal {
            Mode::LiteralPattern
        } else {
            Mode::Pattern
        };
        let normal = percent::normalize(value, mode);
        let mut flags = if allow { ALLOW } else { 0 };
        if normal.len() > u16::MAX as usize {
            // Unreachable with MAX_LINE_LEN (at most 3x growth), but never
            // let a length wrap.
            return;
        }
        if !self.literal {
            if memchr::memchr(b'*', &normal).is_some() {
                flags |= WILDCARD;
            }
            if normal.last() == Some(&b'$') {
                flags |= ANCHORED;
            }
        }
        if !matches!(value.first(), Some(b'/' | b'*')) {
            self.warn(line, WarningKind::PatternNotRooted);
        }
        let rule_index = self.rules.len() as u32;
        if let std::borrow::Cow::Owned(_) = normal {
            flags |= REWRITTEN;
            self.written
                .push((rule_index, String::from_utf8_lossy(value).into()));
        }
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(&normal);
        self.rules.push(Rule {
            start,
            line,
            len: normal.len() as u16,
            flags,
        });
        self.groups
            .last_mut()
            .expect("rules only inside groups")
            .rules
            .1 += 1;
    }

    fn finish(self, body_len: usize) -> Parsed {
        let mut lookup: Vec<u32> = (0..self.agents.len() as u32)
            .filter(|&i| {
                let a = &self.agents[i as usize];
                !a.star && a.token_len > 0
            })
            .collect();
        let token = |i: u32| {
            let a = &self.agents[i as usize];
            &self.arena[a.start as usize..(a.start + a.token_len) as usize]
        };
        lookup.sort_by(|&x, &y| {
            crate::agent::cmp_ignore_case(token(x), token(y)).then(
                self.agents[x as usize]
                    .group
                    .cmp(&self.agents[y as usize].group),
            )
        });
        lookup.dedup_by(|x, y| {
            self.agents[*x as usize].group == self.agents[*y as usize].group
                && token(*x).eq_ignore_ascii_case(token(*y))
        });
        let lookup_groups = lookup
            .iter()
            .map(|&i| self.agents[i as usize].group)
            .collect();
        let mut star_groups: Vec<u32> = self
            .agents
            .iter()
            .filter(|a| a.star)
            .map(|a| a.group)
            .collect();
        star_groups.dedup();
        Parsed {
            arena: self.arena.into_boxed_slice(),
            rules: self.rules.into_boxed_slice(),
            groups: self.groups.into_boxed_slice(),
            agents: self.agents.into_boxed_slice(),
            lookup: lookup.into_boxed_slice(),
            lookup_groups,
            star_groups: star_groups.into_boxed_slice(),
            written: self.written.into_boxed_slice(),
            sitemaps: self.sitemaps.into_boxed_slice(),
            host: self.host,
            records: self.records.into_boxed_slice(),
            warnings: self.warnings.into_boxed_slice(),
            body_len,
        }
    }
}

/// A value as text: as written when it is UTF-8, otherwise with every octet
/// that is not ASCII percent-encoded (nothing is dropped).
fn text_or_escaped(value: &[u8]) -> Box<str> {
    match std::str::from_utf8(value) {
        Ok(s) => s.into(),
        Err(_) => {
            let mut s = String::with_capacity(value.len() * 2);
            for &b in value {
                if b.is_ascii() {
                    s.push(b as char);
                } else {
                    s.push_str(&format!("%{b:02X}"));
                }
            }
            s.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_misspellings() {
        assert_eq!(classify(b"USER-AGENT"), Some((Directive::UserAgent, false)));
        assert_eq!(classify(b"User Agent"), Some((Directive::UserAgent, true)));
        assert_eq!(classify(b"Disalow"), Some((Directive::Disallow, true)));
        assert_eq!(
            classify(b"crawl-Delay"),
            Some((Directive::CrawlDelay, false))
        );
        assert_eq!(classify(b"Noindex"), None);
        assert_eq!(classify(b"a-key-longer-than-sixteen-bytes"), None);
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token(b"Googlebot/2.1 (+http://x)"), b"Googlebot");
        assert_eq!(product_token(b"Foo Bar"), b"Foo");
        assert_eq!(product_token(b"MJ12bot"), b"MJ12bot");
        assert_eq!(product_token(b"(compatible)"), b"");
        assert!(is_star(b"*") && is_star(b"* Disallow: /") && !is_star(b"*bot"));
    }

    #[test]
    fn non_utf8_values_are_escaped_not_dropped() {
        assert_eq!(&*text_or_escaped(b"http://x/caf\xe9"), "http://x/caf%E9");
        assert_eq!(&*text_or_escaped("http://x/ü".as_bytes()), "http://x/ü");
    }
}
