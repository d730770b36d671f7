//! Parsing robots.txt bytes into the compact [`Parsed`] form
//! (RFC 9309 section 2.1 and 2.2).
//!
//! The parser makes one pass over the body, with a bounded amount of work
//! per octet (time linear in the body, but for a binary search per group
//! that repeats the one before), no backtracking and no regex; at the end
//! it sorts the named user-agents for lookup. It never fails: what it cannot
//! read it skips, with a [`Warning`](crate::Warning).

mod lexer;
mod sitemap;

use std::cell::Cell;
use std::fmt;
use std::sync::OnceLock;

use encoding_rs::Encoding;

use crate::charset::{self, Label};
use crate::limits::MAX_BODY_LEN;
use crate::lint::WarningKind;
use crate::model::{
    ALLOW, ANCHORED, AgentName, EXTENSION_WALK_MAX, Group, GroupExtras, IndexSlot, NO_INDEX,
    NoteLog, Parsed, REWRITTEN, Rare, Rule, RuleLinesBuilder, STAR_SLOT, Section, StarGroup,
    StarOne, TableBuilder, WILDCARD, Written,
};
use crate::percent::{self, Mode, Seen};
use crate::record::{RequestRate, parse_crawl_delay};
use crate::robots::Robots;

pub(crate) use lexer::{is_space, trim};
pub(crate) use sitemap::sitemap_url;

/// The directives keepout understands.
///
/// ```
/// use keepout::{Directive, Robots, WarningKind};
///
/// let robots = Robots::parse("User-agent: *\nDisalow: /x\n");
/// let WarningKind::Misspelled { written, understood_as } = &robots.warnings()[0].kind else {
///     unreachable!()
/// };
/// assert_eq!((&**written, *understood_as), ("Disalow", Directive::Disallow));
/// assert_eq!(understood_as.as_str(), "Disallow");
/// ```
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
/// misspellings: those Google's parser accepts (it reads `user-agent`,
/// `useragent`, `user agent`, `allow`, `disallow` and five misspellings of
/// it, `sitemap` and `site-map` as prefixes: `Disallowed` is `Disallow`),
/// and a few more seen in real files (`dis-allow`, `user_agent`,
/// `site map`, and the extensions' spellings).
#[inline]
fn classify(key: &[u8]) -> Option<(Directive, bool)> {
    // The keys nearly every line has, a word at a time: or-ing 0x20
    // lower-cases a letter and turns no other octet into one (it is not
    // applied to the `-`).
    let word = |at: usize| u64::from_le_bytes(key[at..at + 8].try_into().expect("8 octets"));
    let half = |at: usize| u32::from_le_bytes(key[at..at + 4].try_into().expect("4 octets"));
    let lower = |s: &[u8; 4]| u32::from_le_bytes(*s);
    match key.len() {
        8 if word(0) | 0x2020_2020_2020_2020 == u64::from_le_bytes(*b"disallow") => {
            return Some((Directive::Disallow, false));
        }
        5 if half(0) | 0x2020_2020 == lower(b"allo") && key[4] | 0x20 == b'w' => {
            return Some((Directive::Allow, false));
        }
        10 if word(0) | 0x2020_2000_2020_2020 == u64::from_le_bytes(*b"user-age")
            && half(6) | 0x2020_2020 == lower(b"gent") =>
        {
            return Some((Directive::UserAgent, false));
        }
        7 if half(0) | 0x2020_2020 == lower(b"site") && half(3) | 0x2020_2020 == lower(b"emap") => {
            return Some((Directive::Sitemap, false));
        }
        _ => {}
    }
    classify_rare(key)
}

#[cold]
fn classify_rare(key: &[u8]) -> Option<(Directive, bool)> {
    use Directive::*;
    let mut buf = [0u8; 16];
    let lower = &mut buf[..key.len().min(16)];
    for (d, s) in lower.iter_mut().zip(key) {
        *d = s.to_ascii_lowercase();
    }
    if key.len() > 16 {
        return prefixed(lower);
    }
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
        _ => return prefixed(lower),
    })
}

/// A key Google's parser reads by its start (`KeyIsUserAgent` and the
/// others in robots.cc): `Disallowed`, `User-agent-name`, `Allowance`.
/// `lower` is the key's first sixteen octets at most, lower-cased.
fn prefixed(lower: &[u8]) -> Option<(Directive, bool)> {
    use Directive::*;
    const PREFIXES: [(&[u8], Directive); 12] = [
        (b"user-agent", UserAgent),
        (b"useragent", UserAgent),
        (b"user agent", UserAgent),
        (b"allow", Allow),
        (b"disallow", Disallow),
        (b"dissallow", Disallow),
        (b"dissalow", Disallow),
        (b"disalow", Disallow),
        (b"diasllow", Disallow),
        (b"disallaw", Disallow),
        (b"sitemap", Sitemap),
        (b"site-map", Sitemap),
    ];
    PREFIXES
        .iter()
        .find(|(p, _)| lower.starts_with(p))
        .map(|&(_, d)| (d, true))
}

/// The product token at the start of a user-agent value or a crawler's
/// User-Agent header: the longest prefix of `[A-Za-z0-9_-]`
/// (RFC 9309 section 2.2.1; digits are accepted too, as real crawler names
/// such as `MJ12bot` and `360Spider` carry them).
pub(crate) fn product_token(s: &[u8]) -> &[u8] {
    // Four octets a step while all four are token octets (one test for
    // four lookups), then one at a time.
    let mut end = 0;
    while let Some(&[a, b, c, d]) = s.get(end..end + 4) {
        if TOKEN[a as usize] & TOKEN[b as usize] & TOKEN[c as usize] & TOKEN[d as usize] == 0 {
            break;
        }
        end += 4;
    }
    while end < s.len() && TOKEN[s[end] as usize] != 0 {
        end += 1;
    }
    &s[..end]
}

/// 1 for the octets of a product token: `[A-Za-z0-9_-]`.
static TOKEN: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = (c.is_ascii_alphanumeric() || c == b'-' || c == b'_') as u8;
        b += 1;
    }
    t
};

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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use]
pub struct ParseOptions {
    mk1996: bool,
    body_limit: Option<usize>,
    charset: Option<Label>,
}

impl ParseOptions {
    /// RFC 9309 parsing.
    pub fn new() -> ParseOptions {
        ParseOptions::default()
    }

    /// Takes `*` and `$` in patterns literally, as the 1996 draft (and
    /// Python's `urllib.robotparser`) does, instead of as wildcard and anchor.
    /// Only that changes: rules are still chosen by longest match (RFC 9309
    /// section 2.2.2), where those two take the first matching rule in file
    /// order.
    pub fn mk1996(mut self, yes: bool) -> ParseOptions {
        self.mk1996 = yes;
        self
    }

    /// Parses only the first `limit` octets of a longer body, and of those
    /// only the complete lines: what the fetcher does with a body over its
    /// limit (RFC 9309 section 2.5), for a body fetched by a client of your
    /// own. A line cut short could mean more than it says (`Disallow:
    /// /admin` cut to `Disallow: /` disallows everything), so it is
    /// dropped. A UTF-16 body (told by the whole body) is cut in octets,
    /// then transcoded, then dropped to its last line end. No limit by
    /// default: the whole body is parsed, up to
    /// [`MAX_BODY_LEN`], cut there the same way.
    ///
    /// RFC 9309 asks crawlers to parse at least 500 KiB,
    /// [`MIN_BODY_LIMIT`](crate::limits::MIN_BODY_LIMIT); a smaller limit is
    /// taken as given. A body of exactly `limit` octets is taken as whole:
    /// to tell one that goes on, read one octet more than the limit.
    ///
    /// ```
    /// use keepout::ParseOptions;
    /// use keepout::limits::MIN_BODY_LIMIT;
    ///
    /// let mut body = b"User-agent: *\nDisallow: /private\n".repeat(16_000);
    /// body.extend_from_slice(b"Disallow: /admin\n"); // past 500 KiB
    /// let robots = ParseOptions::new().body_limit(MIN_BODY_LIMIT).parse(&body);
    /// assert!(robots.is_allowed("ExampleBot", "https://example.com/admin"));
    /// assert!(robots.body_len() <= MIN_BODY_LIMIT);
    /// ```
    pub fn body_limit(mut self, limit: usize) -> ParseOptions {
        self.body_limit = Some(limit);
        self
    }

    /// Reads the body in the charset a `Content-Type` header value names
    /// (`text/plain; charset=ISO-8859-1`), as the fetcher does, for a body
    /// fetched by a client of your own: `value` is the header's value, as
    /// `&str`, `&[u8]` or [`http::HeaderValue`].
    ///
    /// RFC 9309 section 2.2 makes robots.txt UTF-8, so a label is taken
    /// only where the body does not show it wrong: a byte order mark
    /// decides first, then a body whose every other octet is zero is
    /// UTF-16 (as without this option); any other label (Latin-1, GBK,
    /// Shift_JIS, ...) on a body that is valid UTF-8 is overruled (servers
    /// send `ISO-8859-1` or `GBK` by default), except ISO-2022-JP where its
    /// escape sequences decode, as is a UTF-16 label on a body without
    /// UTF-16's zero octets. A value without a `charset`
    /// parameter, or with a label the Encoding Standard does not know or
    /// maps to its "replacement" encoding (which would decode any body to
    /// one U+FFFD), changes nothing. A body transcoded from another
    /// charset gets a [`NotUtf8`](crate::WarningKind::NotUtf8) warning.
    ///
    /// ```
    /// use keepout::{ParseOptions, WarningKind};
    ///
    /// let body = b"User-agent: *\nDisallow: /caf\xE9\n"; // Latin-1
    /// let robots = ParseOptions::new()
    ///     .content_type("text/plain; charset=iso-8859-1")
    ///     .parse(body);
    /// assert!(!robots.is_allowed("ExampleBot", "https://example.com/caf%C3%A9"));
    /// assert_eq!(robots.warnings()[0].kind, WarningKind::NotUtf8 { encoding: "windows-1252" });
    ///
    /// // UTF-8 under the same label stays UTF-8.
    /// let robots = ParseOptions::new()
    ///     .content_type("text/plain; charset=iso-8859-1")
    ///     .parse("User-agent: *\nDisallow: /café\n");
    /// assert!(!robots.is_allowed("ExampleBot", "https://example.com/caf%C3%A9"));
    /// assert!(robots.warnings().is_empty());
    /// ```
    pub fn content_type(mut self, value: impl AsRef<[u8]>) -> ParseOptions {
        self.charset = Label::of_content_type(value.as_ref());
        self
    }

    /// The encoding the [`content_type`](ParseOptions::content_type) given
    /// names, by its Encoding Standard name; `None` when none was given or
    /// the value names none that is taken (so that it changes nothing). A
    /// tool taking a `Content-Type` from its user can refuse such a value
    /// rather than ignore it.
    ///
    /// ```
    /// use keepout::ParseOptions;
    ///
    /// let options = ParseOptions::new().content_type("text/plain; charset=ISO-8859-1");
    /// assert_eq!(options.charset(), Some("windows-1252"));
    /// // No `charset=` parameter, or a label the Encoding Standard does not know.
    /// assert_eq!(ParseOptions::new().content_type("iso-8859-1").charset(), None);
    /// assert_eq!(ParseOptions::new().content_type("text/plain; charset=latin-one").charset(), None);
    /// ```
    #[must_use]
    pub fn charset(&self) -> Option<&'static str> {
        self.charset.map(Label::name)
    }

    /// Parses `body`. Never fails and never panics, whatever the bytes.
    #[must_use]
    pub fn parse(&self, body: impl AsRef<[u8]>) -> Robots {
        Robots::from_parsed(parse(body.as_ref(), self))
    }
}

/// Parses a body with the given options.
pub(crate) fn parse(body: &[u8], options: &ParseOptions) -> Parsed {
    // RFC 9309 section 2.5: of a body over the limit, the complete lines
    // within it.
    let cut = options.body_limit.filter(|&limit| body.len() > limit);
    // A body in UTF-16 (two corpus files are) or in the charset a label
    // names is transcoded; everything else is read as bytes. The whole body
    // decides (UTF-16 by shape from its first 512 octets), however little
    // of it a limit keeps; one over the limit may have been read only so
    // far (the limit and an octet more), so it may end inside a character.
    let from = charset::detect(body, options.charset, cut.is_some());
    match cut {
        Some(limit) => parse_in(&body[..limit], from, true, options),
        None => parse_in(body, from, false, options),
    }
}

/// Parses `body`, in encoding `from` (UTF-8 if `None`); `cut`: the body
/// was cut at a size limit, so only its complete lines are read (after
/// transcoding, as an octet in UTF-16 can be half a character).
pub(crate) fn parse_in(
    body: &[u8],
    from: Option<&'static Encoding>,
    cut: bool,
    options: &ParseOptions,
) -> Parsed {
    match from {
        Some(encoding) => {
            let raw = capped(body);
            let (text, _) = encoding.decode_with_bom_removal(raw);
            let cut = cut || raw.len() < body.len();
            parse_with_scratch(within_cap(text.as_bytes(), cut), options, from)
        }
        None => parse_with_scratch(within_cap(body, cut), options, None),
    }
}

/// What is parsed of `text`: its first `MAX_BODY_LEN` octets, and when it
/// was `cut` (at a limit) or is cut here, only the complete lines among
/// them, so that a line cut short is not read for what is left of it.
fn within_cap(text: &[u8], cut: bool) -> &[u8] {
    if cut || text.len() > MAX_BODY_LEN {
        complete_lines(capped(text))
    } else {
        text
    }
}

/// `text` up to its last line end (LF or CR, as lines end here): what is
/// left of a body cut at a limit is then only complete lines.
pub(crate) fn complete_lines(text: &[u8]) -> &[u8] {
    let end = memchr::memrchr2(b'\n', b'\r', text).map_or(0, |at| at + 1);
    &text[..end]
}

/// The first `MAX_BODY_LEN` octets of `text`: arena offsets are 32-bit and
/// a line's value can grow 3x when stored (percent-encoding, U+FFFD for
/// bad UTF-8), so only that much is read, transcoded or not.
fn capped(text: &[u8]) -> &[u8] {
    &text[..text.len().min(MAX_BODY_LEN)]
}

/// Parses `body` in this thread's [`Scratch`] arrays; `from`: the encoding
/// it was transcoded from, if it was.
fn parse_with_scratch(
    body: &[u8],
    options: &ParseOptions,
    from: Option<&'static Encoding>,
) -> Parsed {
    // A fresh one only while the thread is being torn down.
    let scratch = SCRATCH.try_with(Cell::take).unwrap_or_default();
    let mut builder = Builder::new(options, scratch);
    if let Some(encoding) = from {
        // RFC 9309 section 2.2: the file must be UTF-8.
        builder.warn(
            1,
            WarningKind::NotUtf8 {
                encoding: encoding.name(),
            },
        );
    }
    let (parsed, scratch) = builder.run(body);
    let _ = SCRATCH.try_with(|s| s.set(scratch.emptied()));
    parsed
}

thread_local! {
    /// See [`Scratch`].
    static SCRATCH: Cell<Scratch> = const { Cell::new(Scratch::EMPTY) };
}

/// The arrays a parse builds its groups, agents, rules, rule lines and
/// sitemaps in, before `Builder::finish` copies them out at their size
/// (into the rules and the [`Table`](crate::model::Table)). Kept per
/// thread from one parse to the next, so that they are not allocated,
/// grown and shrunk for each file: with the table, that took a parse of a
/// small file from about 16 allocations, 7 reallocations and 16 frees to
/// 4, 1 and 4 (see benches/HISTORY.md, session 21).
#[derive(Default)]
struct Scratch {
    rules: Vec<Rule>,
    rule_lines: RuleLinesBuilder,
    groups: Vec<Group>,
    agents: Vec<AgentName>,
    sitemaps: Vec<(u32, u32)>,
    /// `Builder::text`.
    text: Vec<u8>,
    /// `Builder::finish`'s sort keys of the named agents.
    keyed: Vec<u128>,
}

impl Scratch {
    const EMPTY: Scratch = Scratch {
        rules: Vec::new(),
        rule_lines: RuleLinesBuilder::EMPTY,
        groups: Vec::new(),
        agents: Vec::new(),
        sitemaps: Vec::new(),
        text: Vec::new(),
        keyed: Vec::new(),
    };

    /// A thread keeps at most this many bytes of each array between
    /// parses: those of a file of about 30 KB or less (most robots.txt
    /// files), not the 500 KB a large one can take.
    const KEEP_BYTES: usize = 32 * 1024;

    /// Is `v` small enough to keep?
    fn keeps<T>(v: &Vec<T>) -> bool {
        v.capacity() * std::mem::size_of::<T>() <= Scratch::KEEP_BYTES
    }

    /// The arrays emptied, and dropped when larger than `KEEP_BYTES`.
    fn emptied(self) -> Scratch {
        fn keep<T>(mut v: Vec<T>) -> Vec<T> {
            if !Scratch::keeps(&v) {
                return Vec::new();
            }
            v.clear();
            v
        }
        let rule_lines = if self.rule_lines.capacity_bytes() > Scratch::KEEP_BYTES {
            RuleLinesBuilder::EMPTY
        } else {
            self.rule_lines.reuse()
        };
        Scratch {
            rules: keep(self.rules),
            rule_lines,
            groups: keep(self.groups),
            agents: keep(self.agents),
            sitemaps: keep(self.sitemaps),
            text: keep(self.text),
            keyed: keep(self.keyed),
        }
    }
}

/// A group repeating the one before shares its patterns (see
/// `Builder::share_patterns`) when they take this many octets or more:
/// groups such as `Disallow: /` for one more crawler would give back less
/// than the look costs.
const SHARE_MIN_OCTETS: usize = 16;

struct Builder {
    literal: bool,
    /// The patterns, back to back in rule order (see `model::placed`).
    arena: Vec<u8>,
    /// The agent values and sitemap URLs, appended to the arena at the end
    /// (`finish`), so that nothing comes between the patterns of a group.
    text: Vec<u8>,
    rules: Vec<Rule>,
    rule_lines: RuleLinesBuilder,
    groups: Vec<Group>,
    extras: Vec<GroupExtras>,
    agents: Vec<AgentName>,
    /// Patterns as written ([`Written`]): (rule, end in `written_text`).
    written: Vec<(u32, u32)>,
    written_text: String,
    sitemaps: Vec<(u32, u32)>,
    keyed: Vec<u128>,
    host: Option<Box<str>>,
    /// Unknown records and warnings.
    notes: NoteLog,
    /// A rule line has been seen since the current group's last user-agent
    /// line, so the next user-agent line starts a new group (section 2.1).
    rule_seen: bool,
    /// A crawl-delay or request-rate line came after the current run of
    /// user-agent lines, before any rule line.
    extension_in_run: Option<Directive>,
    /// The line being read was cut at the length limit, perhaps inside a
    /// character (`utf8_error`).
    line_cut: bool,
    /// Use the lexer's fast path (off only to test it against the general
    /// path).
    fast: bool,
    /// The last run of rule lines read at the start of a group: what
    /// `repeat_block` looks for at the start of the next.
    block: Block,
}

/// A block shorter than this is read again rather than repeated: the look
/// would cost more than reading a line or two.
const REPEAT_MIN_OCTETS: usize = 64;

/// A run of lines, each an `Allow` or `Disallow` line the fast path read,
/// back to back from the first rule line of a group: `body[start..end]`
/// (line ends included), whose rules are `rules` and whose lines are
/// `first_line..=last_line`.
#[derive(Clone, Copy, Default)]
struct Block {
    start: usize,
    end: usize,
    /// The group whose first rules these are.
    group: u32,
    rules: (u32, u32),
    first_line: u32,
    last_line: u32,
}

impl Builder {
    /// A builder of `scratch`'s arrays, which must be empty.
    fn new(options: &ParseOptions, scratch: Scratch) -> Builder {
        Builder {
            literal: options.mk1996,
            arena: Vec::new(),
            text: scratch.text,
            rules: scratch.rules,
            rule_lines: scratch.rule_lines,
            groups: scratch.groups,
            extras: Vec::new(),
            agents: scratch.agents,
            written: Vec::new(),
            written_text: String::new(),
            sitemaps: scratch.sitemaps,
            keyed: scratch.keyed,
            host: None,
            notes: NoteLog::default(),
            rule_seen: false,
            extension_in_run: None,
            line_cut: false,
            fast: true,
            block: Block::default(),
        }
    }

    fn warn(&mut self, line: u32, kind: WarningKind) {
        self.notes.warn(line, kind);
    }

    /// Warns when `value`, from line `line`, is not UTF-8 (RFC 9309
    /// section 2.2). Only the values a crawler uses are checked, not
    /// comments or unknown records, and only those with a non-ASCII octet
    /// get here.
    fn check_utf8(&mut self, line: u32, value: &[u8]) {
        if !value.is_ascii()
            && let Err(e) = std::str::from_utf8(value)
        {
            self.utf8_error(line, e);
        }
    }

    /// Warns of `e`, a UTF-8 error in a value from line `line`: unless the
    /// line was cut at the length limit and the error is only a character
    /// it cut short.
    #[cold]
    fn utf8_error(&mut self, line: u32, e: std::str::Utf8Error) {
        if !(self.line_cut && e.error_len().is_none()) {
            self.warn(line, WarningKind::InvalidUtf8);
        }
    }

    /// The parse of `body`, and the scratch arrays given back.
    fn run(mut self, body: &[u8]) -> (Parsed, Scratch) {
        // Patterns and agent values are most of a body: reserve it all once
        // (the arena is shrunk to fit at the end), and rules for lines of
        // 16 octets or more, so neither is copied while it grows.
        self.arena.reserve(body.len());
        self.rules.reserve(body.len() / 16);
        self.rule_lines.reserve(body.len() / 16);
        let mode = if self.literal {
            Mode::LiteralPattern
        } else {
            Mode::Pattern
        };
        let mut lines = lexer::Lines::new(body);
        loop {
            let line_start = lines.pos();
            // Before a group's first rule line, when the line starts as the
            // last group's first run of rules did.
            if !self.rule_seen
                && self.block.end - self.block.start >= REPEAT_MIN_OCTETS
                && body.get(line_start) == Some(&body[self.block.start])
                && self.repeat_block(body, &mut lines)
            {
                continue;
            }
            // Rule lines outside any group take the general path, which
            // warns about them.
            let rule_mode = (!self.groups.is_empty()).then_some(mode);
            let fast = if self.fast {
                lines.fast(rule_mode, &mut self.arena, &mut self.text)
            } else {
                lexer::Fast::No
            };
            match fast {
                lexer::Fast::Skipped => continue,
                lexer::Fast::Rule {
                    number,
                    allow,
                    value,
                    at,
                    seen,
                    first_star,
                    anchored,
                } => {
                    if !self.rule_seen {
                        // A group's first rule line starts a block.
                        self.block = Block {
                            start: line_start,
                            end: line_start,
                            group: self.groups.len() as u32 - 1,
                            rules: (self.rules.len() as u32, self.rules.len() as u32),
                            first_line: number,
                            last_line: number,
                        };
                    }
                    // As `directive` does for these lines.
                    self.rule_seen = true;
                    if value.1 > value.0 {
                        let facts = (seen, first_star, anchored);
                        self.push_rule(number, allow, &body[value.0..value.1], at, facts);
                    } else {
                        // (An empty value has no normal form to give back.)
                        debug_assert_eq!(at, self.arena.len());
                    }
                    if line_start == self.block.end {
                        self.block.end = lines.pos();
                        self.block.rules.1 = self.rules.len() as u32;
                        self.block.last_line = number;
                    }
                    continue;
                }
                lexer::Fast::Record {
                    number,
                    key,
                    value,
                    known,
                } => {
                    // The two keys the lexer recognised whole, written as
                    // such, go straight where `record` would send them.
                    let value = &body[value.0..value.1];
                    match known {
                        lexer::Key::UserAgent => self.user_agent(number, value),
                        _ => self.record(number, &body[key.0..key.1], value),
                    }
                    continue;
                }
                lexer::Fast::Sitemap {
                    number,
                    value,
                    at,
                    ascii,
                } => {
                    // Kept as copied, unless it needs writing as text.
                    if ascii && value.1 > value.0 {
                        self.push_sitemap(number, at as u32);
                    } else {
                        self.text.truncate(at);
                        self.sitemap(number, &body[value.0..value.1]);
                    }
                    continue;
                }
                lexer::Fast::No => {}
            }
            let Some(line) = lines.next() else {
                break;
            };
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
            // (The fast path takes no line that long.)
            self.line_cut = line.too_long;
            self.record(line.number, kv.key, kv.value);
            self.line_cut = false;
        }
        self.finish(body.len())
    }

    /// One `key: value` line.
    fn record(&mut self, number: u32, key: &[u8], value: &[u8]) {
        match classify(key) {
            Some((directive, misspelled)) => {
                if misspelled {
                    self.notes.misspelled(number, key, directive);
                }
                self.directive(number, directive, value);
            }
            // Kept as written; made text when first asked for (`Notes`).
            None => self.notes.unknown(number, key, value),
        }
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
                if self.groups.is_empty() {
                    self.warn(line, WarningKind::RuleOutsideGroup);
                    return;
                }
                let current = self.groups.len() as u32 - 1;
                let agents_before = self.agents.len() as u32;
                if self
                    .extras
                    .last()
                    .is_none_or(|e| (e.group, e.agents_before) != (current, agents_before))
                {
                    self.extras.push(GroupExtras {
                        group: current,
                        agents_before,
                        crawl_delay: None,
                        request_rate: None,
                    });
                }
                if !self.rule_seen {
                    // A user-agent line after this one joins the group.
                    self.extension_in_run = Some(directive);
                }
                if value.is_empty() {
                    return self.warn(line, WarningKind::EmptyValue { directive });
                }
                let group = self.extras.last_mut().expect("pushed above");
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
            Directive::Sitemap => self.sitemap(line, value),
            Directive::Host => {
                if value.is_empty() {
                    return self.warn(line, WarningKind::EmptyValue { directive });
                }
                self.check_utf8(line, value);
                match &self.host {
                    None => self.host = Some(text_or_escaped(value)),
                    // The first is used; the same host again (in each
                    // group, say) is harmless, another one is lost.
                    Some(first) if !first.eq_ignore_ascii_case(&text_or_escaped(value)) => {
                        self.warn(line, WarningKind::Duplicate { directive });
                    }
                    Some(_) => {}
                }
            }
        }
    }

    /// A sitemap line (RFC 9309 section 2.2.4): its URL is kept in `text`
    /// (and so in the arena), as text.
    fn sitemap(&mut self, line: u32, value: &[u8]) {
        if value.is_empty() {
            let directive = Directive::Sitemap;
            return self.warn(line, WarningKind::EmptyValue { directive });
        }
        // (The fast path sends here each value with a non-ASCII octet.)
        if let Some(character) = crate::lint::first_unicode_space(value) {
            self.warn(line, WarningKind::UnicodeSpace { character });
        }
        self.check_utf8(line, value);
        let start = self.text.len() as u32;
        push_text_or_escaped(&mut self.text, value);
        self.push_sitemap(line, start);
    }

    /// Records the sitemap URL at `text[start..]`, from line `line`.
    fn push_sitemap(&mut self, line: u32, start: u32) {
        // Kept as written either way (`Robots::sitemaps`); a value that
        // `Robots::sitemap_urls` leaves out is warned of.
        if !sitemap::is_fetchable(&self.text[start as usize..]) {
            self.warn(line, WarningKind::SitemapNotUrl);
        }
        if self.sitemaps.is_empty() {
            // As for groups in `start_group`.
            self.sitemaps.reserve(16);
        }
        self.sitemaps.push((start, self.text.len() as u32));
    }

    /// When the lines at `lines.pos()` repeat the text of `self.block`
    /// octet for octet, as files that give several crawlers the same rules
    /// in groups of their own do, takes its rules again rather than read
    /// those lines, and moves past them: the outcome is the same, as the
    /// fast path reads a rule line the same way wherever it is in a group.
    /// The rules are pushed with their own lines and their patterns copied
    /// to the arena's end, so `close_group` shares them as it would the
    /// patterns of lines it had read. False, having done nothing, when the
    /// text differs or the block is not one this can take: one with a
    /// warning, or a line without a rule.
    #[inline(never)]
    fn repeat_block(&mut self, body: &[u8], lines: &mut lexer::Lines) -> bool {
        let b = self.block;
        let at = lines.pos();
        let len = b.end - b.start;
        if !self.fast
            || b.end > body.len()
            || body.get(at..at + len) != Some(&body[b.start..b.end])
            // A block ending in CR that is here the start of a CRLF.
            || (body[b.end - 1] == b'\r' && body.get(at + len) == Some(&b'\n'))
        {
            return false;
        }
        let (r0, r1) = (b.rules.0 as usize, b.rules.1 as usize);
        // One rule a line (an empty `Disallow:` has none).
        if (b.last_line - b.first_line) as usize + 1 != r1 - r0 {
            return false;
        }
        // No warning about its lines. Warnings are in line order, and
        // found by a binary search: every later group may repeat the block,
        // and a walk back over the warnings since it would make a file of
        // many such groups, each with a warning, quadratic.
        let warnings = self.notes.raw_warnings();
        let first_after = warnings.partition_point(|w| {
            #[cfg(test)]
            tests::WARNINGS_READ.with(|n| n.set(n.get() + 1));
            w.line < b.first_line
        });
        if warnings
            .get(first_after)
            .is_some_and(|w| w.line <= b.last_line)
        {
            return false;
        }
        // The block's patterns: back to back from its group's base (the
        // block is the group's first run of rules).
        let from = self.groups[b.group as usize].base as usize;
        let mut end = from;
        let mut rewritten = false;
        for r in &self.rules[r0..r1] {
            end += r.len as usize;
            rewritten |= r.flags & REWRITTEN != 0;
        }
        if rewritten {
            // The patterns as written of those rewritten: the block's
            // entries in `written` are one run (it is in rule order), and
            // their text one run of `written_text`.
            let w0 = self.written.partition_point(|&(r, _)| (r as usize) < r0);
            let w1 = self.written.partition_point(|&(r, _)| (r as usize) < r1);
            let text_from = w0.checked_sub(1).map_or(0, |w| self.written[w].1 as usize);
            let text_to = self.written[w1 - 1].1 as usize;
            let piece = self.written_text[text_from..text_to].to_owned();
            let text_shift = (self.written_text.len() - text_from) as u32;
            self.written_text.push_str(&piece);
            let rule_shift = (self.rules.len() - r0) as u32;
            for k in w0..w1 {
                let (r, end) = self.written[k];
                self.written.push((r + rule_shift, end + text_shift));
            }
        }
        // The current group has no rule yet: its patterns start here.
        debug_assert_eq!(
            self.groups.last().map(|g| g.base as usize),
            Some(self.arena.len())
        );
        self.arena.extend_from_within(from..end);
        let first = lines.number() + 1;
        for i in 0..r1 - r0 {
            self.rules.push(self.rules[r0 + i]);
            self.rule_lines.push(first + i as u32);
        }
        lines.skip(at + len, (r1 - r0) as u32);
        self.rule_seen = true;
        #[cfg(test)]
        tests::REPEATED.with(|n| n.set(n.get() + 1));
        true
    }

    /// Starts a group at `line` (RFC 9309 section 2.1: a user-agent line
    /// after rules ends the group before).
    fn start_group(&mut self, line: u32) {
        if self.groups.is_empty() {
            // Room for a typical file's groups and agents at once,
            // rather than growing through 4, 8, 16 (each array is
            // shrunk to fit at the end either way).
            self.groups.reserve(16);
            self.agents.reserve(32);
        }
        self.close_group();
        let n = self.rules.len() as u32;
        let a = self.agents.len() as u32;
        self.groups.push(Group {
            rules: (n, n),
            // No overflow: see `parse` (the arena of a body of at most
            // `MAX_BODY_LEN` octets, each normalised to at most 3).
            base: self.arena.len() as u32,
            agents: (a, a),
            line,
            index: NO_INDEX,
        });
        self.rule_seen = false;
        self.extension_in_run = None;
    }

    /// A user-agent line with no value: it names no crawler, but still
    /// ends the group before it, as in Google's parser (the rules that
    /// follow apply to nobody).
    #[cold]
    fn empty_user_agent(&mut self, line: u32) {
        if self.rule_seen && !self.groups.is_empty() {
            self.start_group(line);
            return self.warn(line, WarningKind::EmptyUserAgentEndsGroup);
        }
        self.warn(
            line,
            WarningKind::EmptyValue {
                directive: Directive::UserAgent,
            },
        );
    }

    /// The empty user-agent line at `line`, warned of as ending the group
    /// above, took no rules from it after all (a user-agent line naming a
    /// crawler, or the end of the file, came before any rule line): it
    /// only had an empty value.
    #[cold]
    fn only_an_empty_value(&mut self, line: u32) {
        self.notes.retag(
            line,
            WarningKind::EmptyUserAgentEndsGroup,
            WarningKind::EmptyValue {
                directive: Directive::UserAgent,
            },
        );
    }

    fn user_agent(&mut self, line: u32, value: &[u8]) {
        if value.is_empty() {
            return self.empty_user_agent(line);
        }
        if self.groups.is_empty() || self.rule_seen {
            self.start_group(line);
        } else if let Some(directive) = self.extension_in_run.take()
            && self.groups.last().is_some_and(|g| g.agents.0 != g.agents.1)
        {
            // Only when the group above names a crawler: one an empty
            // user-agent line began has none to share the rules below.
            self.warn(line, WarningKind::JoinsGroup { after: directive });
        }
        if let Some(g) = self.groups.last_mut()
            && g.agents.0 == g.agents.1
            && g.line != line
        {
            // The group an empty user-agent line began after rules (only
            // `empty_user_agent` makes a group without an agent): it has a
            // crawler after all, so it starts here, and that line only
            // had an empty value.
            let empty = std::mem::replace(&mut g.line, line);
            self.only_an_empty_value(empty);
        }
        let star = is_star(value);
        let token_len = if star { 0 } else { product_token(value).len() };
        if !star && token_len == 0 {
            self.warn(line, WarningKind::InvalidUserAgent);
        }
        let start = self.text.len() as u32;
        // Store the value as UTF-8 so views can hand out `&str`; the token
        // is ASCII, so it stays a prefix.
        let utf8 = if value.is_ascii() {
            Ok(())
        } else {
            std::str::from_utf8(value).map(drop)
        };
        match utf8 {
            Ok(()) => self.text.extend_from_slice(value),
            Err(e) => {
                self.utf8_error(line, e);
                self.text
                    .extend_from_slice(String::from_utf8_lossy(value).as_bytes());
            }
        }
        let len = (self.text.len() - start as usize).min(u16::MAX as usize) as u16;
        let group_index = self.groups.len() as u32 - 1;
        self.agents.push(AgentName {
            start,
            len,
            token_len: token_len as u16,
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
        // Normalised straight into the arena.
        let start = self.arena.len();
        let seen = percent::normalize_into(value, mode, &mut self.arena);
        let pattern = &self.arena[start..];
        let first_star = memchr::memchr(b'*', pattern).unwrap_or(0);
        let anchored = !self.literal && pattern.last() == Some(&b'$');
        self.push_rule(line, allow, value, start, (seen, first_star, anchored));
    }

    /// Records the rule whose normal form is `arena[start..]`, the last of
    /// the arena (so that it follows the pattern of the rule before it in
    /// the group: `model::placed`); `value` is the pattern as written.
    /// `facts` are what normalising it saw: the offset of its first `*`
    /// (when `seen.star`) and whether it ends with the `$` anchor.
    #[inline(always)]
    fn push_rule(
        &mut self,
        line: u32,
        allow: bool,
        value: &[u8],
        start: usize,
        (seen, first_star, anchored): (Seen, usize, bool),
    ) {
        let len = self.arena.len() - start;
        if len > u16::MAX as usize {
            // Unreachable with MAX_LINE_LEN (at most 3x growth), but never
            // let a length wrap.
            self.arena.truncate(start);
            return;
        }
        let mut flags = if allow { ALLOW } else { 0 };
        if seen.star {
            flags |= WILDCARD;
        }
        if anchored {
            flags |= ANCHORED;
        }
        // The literal prefix (`Rule::compute_prefix_len`), from what the
        // normaliser saw rather than by searching the pattern again.
        let prefix = if seen.star {
            first_star
        } else if anchored {
            len - 1
        } else {
            len
        };
        // A path starts with `/`; so can a pattern, or with a wildcard,
        // which `*` is not under MK1996.
        let rooted = match value.first() {
            Some(b'/') => true,
            Some(b'*') => !self.literal,
            _ => false,
        };
        if !rooted {
            self.warn(line, WarningKind::PatternNotRooted);
        }
        let rule_index = self.rules.len() as u32;
        if seen.rewritten {
            // (A value with a non-ASCII octet or a control character is
            // always rewritten.)
            if let Some(character) = crate::lint::first_unicode_space(value)
                .or_else(|| crate::lint::first_control(value))
            {
                self.warn(line, WarningKind::UnicodeSpace { character });
            }
            self.check_utf8(line, value);
            flags |= REWRITTEN;
            self.written_text.push_str(&String::from_utf8_lossy(value));
            // No overflow: at most 3 octets (U+FFFD) an octet of a body of
            // at most `MAX_BODY_LEN` (2^30) octets.
            self.written
                .push((rule_index, self.written_text.len() as u32));
        }
        debug_assert_eq!(
            prefix,
            Rule::compute_prefix_len(&self.arena[start..], flags)
        );
        self.rules.push(Rule {
            len: len as u16,
            flags,
            prefix: prefix.min(u8::MAX as usize) as u8,
        });
        // The group's range of rules is closed when the next group starts
        // (or at the end).
        self.rule_lines.push(line);
    }

    /// Ends the current group's range of rules at the last rule pushed.
    #[inline]
    fn close_group(&mut self) {
        if let Some(g) = self.groups.last_mut() {
            g.rules.1 = self.rules.len() as u32;
        }
        // Only a group with as many rules as the one before, whose
        // patterns take enough octets to be worth a look, can share them.
        if let [.., before, this] = *self.groups
            && this.rules.1 - this.rules.0 == before.rules.1 - before.rules.0
            && this.rules.1 > this.rules.0
            && self.arena.len() - this.base as usize >= SHARE_MIN_OCTETS
        {
            self.share_patterns(before, this);
        }
    }

    /// When the group just closed (`this`) repeats the rules of the group
    /// before it (`before`) one for one, as files that give several
    /// crawlers the same rules in groups of their own do, it takes that
    /// group's base, so its rules read the earlier copies of their
    /// patterns, and the arena gives its own back (about 5% of the corpus's
    /// body bytes). Each rule keeps its own index, line and flags.
    ///
    /// Arena offsets must still order rules as the file does wherever they
    /// break a tie (`Hit::at`). Only the group right before is compared, so
    /// no group lies between the two; and each shared rule has the same
    /// kind as its twin, so a match of the later rule is a match, as
    /// strong and at the same offset, of the earlier one, which wins the
    /// tie when both groups apply (`matcher::rule_index`).
    #[inline(never)]
    fn share_patterns(&mut self, before: Group, this: Group) {
        let earlier = &self.rules[before.rules.0 as usize..before.rules.1 as usize];
        let later = &self.rules[this.rules.0 as usize..this.rules.1 as usize];
        if earlier
            .iter()
            .zip(later)
            .any(|(a, b)| a.len != b.len || a.allow() != b.allow())
        {
            return;
        }
        // Each group's patterns are back to back from its base, and this
        // group's are the arena's last octets.
        let (from, first) = (before.base as usize, this.base as usize);
        let len = self.arena.len() - first;
        if self.arena[from..from + len] != self.arena[first..] {
            return;
        }
        self.groups
            .last_mut()
            .expect("`this` is the last group")
            .base = before.base;
        self.arena.truncate(first);
    }

    fn finish(mut self, body_len: usize) -> (Parsed, Scratch) {
        self.close_group();
        // Only `empty_user_agent` makes a group without an agent, and only
        // the last can still lack one.
        // (A crawl-delay or request-rate line after it did end the group
        // above: those lines apply to no crawler.)
        let last = self.groups.len().wrapping_sub(1);
        if !self.rule_seen
            && let Some(g) = self.groups.last()
            && g.agents.0 == g.agents.1
            && self.extras.last().is_none_or(|e| e.group as usize != last)
        {
            self.only_an_empty_value(g.line);
        }
        // The agent values and sitemap URLs go after the patterns. (No
        // overflow: the arena is at most three octets a body octet.)
        let shift = self.arena.len() as u32;
        self.arena.extend_from_slice(&self.text);
        for a in &mut self.agents {
            a.start += shift;
        }
        for s in &mut self.sitemaps {
            *s = (s.0 + shift, s.1 + shift);
        }
        let mut keyed = std::mem::take(&mut self.keyed);
        let token = |i: u32| {
            let a = &self.agents[i as usize];
            &self.arena[a.start as usize..a.start as usize + a.token_len as usize]
        };
        // The named agents with a product token, sorted by (token, any case;
        // group; index). Each is keyed by one integer: `agent::token_key` of
        // its token (its first 8 octets, lower-cased), group and index,
        // which decides every comparison but those between tokens that
        // share their first 8 octets.
        let mut long = false;
        for (i, a) in self.agents.iter().enumerate() {
            if a.star || a.token_len == 0 {
                continue;
            }
            long |= a.token_len > 8;
            let key = token_key_at(&self.arena, a.start as usize, a.token_len as usize);
            keyed.push((key as u128) << 64 | (a.group as u128) << 32 | i as u128);
        }
        // Agents come in index order, and groups never decrease with the
        // index: a stable sort by the token key alone gives the order of
        // the whole key, with cheaper compares (and runs of one group's
        // agents are often already in order).
        keyed.sort_by_key(|&k| (k >> 64) as u64);
        if long {
            // Runs of one key: by the whole token first.
            for run in keyed.chunk_by_mut(|x, y| x >> 64 == y >> 64) {
                if run.len() > 1 && run.iter().any(|&k| token(k as u32).len() > 8) {
                    run.sort_unstable_by(|&x, &y| {
                        crate::agent::cmp_ignore_case(token(x as u32), token(y as u32))
                            .then(x.cmp(&y))
                    });
                }
            }
        }
        // One entry per token and group.
        keyed.dedup_by(|x, y| {
            *x >> 32 == *y >> 32 && token(*x as u32).eq_ignore_ascii_case(token(*y as u32))
        });
        // Two entries of one token's run (one entry a group naming it).
        let same_token = |x: &u128, y: &u128| {
            x >> 64 == y >> 64 && token(*x as u32).eq_ignore_ascii_case(token(*y as u32))
        };
        let named_filter = keyed
            .iter()
            .fold(0, |f, &k| f | crate::model::token_bit((k >> 64) as u64));
        // The groups of the `*` agents, each once (groups never decrease
        // along the agents), counted first so that the array is allocated
        // once, at its size.
        let star_groups_in = || {
            let mut last = None;
            self.agents
                .iter()
                .filter(|a| a.star)
                .map(|a| a.group)
                .filter(move |&g| last.replace(g) != Some(g))
        };
        if !self.rule_seen
            && let Some(line) =
                group_without_rules(&self.groups, keyed.chunk_by(same_token), star_groups_in())
        {
            self.notes
                .warn_earlier(line, WarningKind::GroupWithoutRules);
        }
        let star_count = star_groups_in().count();
        let star_group = match star_count {
            1 => star_groups_in().next().map_or(usize::MAX, |g| g as usize),
            _ => usize::MAX,
        };
        // An index slot for each group large enough to get an index: the
        // one `*` group's is `Parsed::star_slot`, the others are numbered.
        let mut slots = 0;
        for (i, g) in self.groups.iter_mut().enumerate() {
            if g.rules.1 - g.rules.0 > crate::matcher::INDEX_MIN_RULES {
                g.index = if i == star_group {
                    STAR_SLOT
                } else {
                    slots += 1;
                    slots - 1
                };
            }
        }
        // And one for the `*` groups together, when several apply (also
        // `Parsed::star_slot`).
        let groups = &self.groups;
        // What a merged check without an index walks: every group, and
        // every rule of each (a name in thousands of empty groups costs as
        // much as thousands of rules).
        let rules_in = |of: &mut dyn Iterator<Item = u32>| -> u32 {
            of.map(|g| groups[g as usize].rules.1 - groups[g as usize].rules.0 + 1)
                .fold(0, u32::saturating_add)
        };
        let star_index = if star_count > 1
            && rules_in(&mut star_groups_in()) > crate::matcher::INDEX_MIN_RULES
        {
            STAR_SLOT
        } else {
            NO_INDEX
        };
        // And one for each crawler name in several groups (section 2.2.1
        // merges them) with enough rules between them: its run of
        // `lookup_groups`, the slice `agent::select` returns for it. Names
        // in the same groups share one (8,000 names in the same two groups
        // of 8,000 rules built 1.5 GB of indexes, one a name, for a 589 KB
        // file checked under each name).
        let mut shared: std::collections::HashMap<Vec<u32>, u32> = Default::default();
        let mut named_indexes = Vec::new();
        // And for each crawler name in many groups, a place to keep its
        // crawl-delay and request-rate once asked (see
        // `Parsed::extension_entry`), if the file has any.
        let mut named_extensions = Vec::new();
        let mut start = 0;
        for run in keyed.chunk_by(same_token) {
            let end = start + run.len();
            let in_run = || run.iter().map(|&k| (k >> 32) as u32);
            if run.len() > 1 && rules_in(&mut in_run()) > crate::matcher::INDEX_MIN_RULES {
                let slot = *shared.entry(in_run().collect()).or_insert_with(|| {
                    slots += 1;
                    slots - 1
                });
                named_indexes.push((start as u32, end as u32, slot));
            }
            if run.len() > EXTENSION_WALK_MAX && !self.extras.is_empty() {
                named_extensions.push((start as u32, OnceLock::new()));
            }
            start = end;
        }
        let star_one = StarOne::new((star_group != usize::MAX).then(|| {
            let g = &self.groups[star_group];
            StarGroup {
                rules: g.rules,
                base: g.base,
                slot: g.index,
            }
        }));
        // Where each group's first valid values are, whichever runs they
        // follow. (No overflow: an entry takes a line.)
        let mut firsts = Vec::new();
        let mut start = 0;
        for runs in self.extras.chunk_by(|x, y| x.group == y.group) {
            let at = |valid: fn(&GroupExtras) -> bool| {
                runs.iter()
                    .position(valid)
                    .map_or(u32::MAX, |i| (start + i) as u32)
            };
            let delay = at(|e| e.crawl_delay.is_some());
            let rate = at(|e| e.request_rate.is_some());
            firsts.push([runs[0].group, delay.min(rate), delay.max(rate)]);
            start += runs.len();
        }
        let rare = Rare {
            extras: self.extras.into_boxed_slice(),
            firsts: firsts.into_boxed_slice(),
            written: Written {
                ends: self.written.into_boxed_slice(),
                text: self.written_text.into_boxed_str(),
            },
            host: self.host,
            notes: self.notes.finish(),
            named_indexes: named_indexes.into_boxed_slice(),
            star_extension: OnceLock::new(),
            named_extensions: named_extensions.into_boxed_slice(),
        };
        // The small arrays, copied out into one allocation at its size.
        let (line_words, line_delta) = self.rule_lines.words();
        let mut table = TableBuilder::with_capacity(
            keyed.len() * 4
                + star_count
                + self.groups.len() * Group::WORDS
                + self.agents.len() * AgentName::WORDS
                + self.sitemaps.len() * 2
                + line_words
                + line_delta,
        );
        table.section(Section::LookupKeys, |w| {
            w.extend(
                keyed
                    .iter()
                    .flat_map(|&k| [(k >> 96) as u32, (k >> 64) as u32]),
            );
        });
        table.section(Section::Lookup, |w| {
            w.extend(keyed.iter().map(|&k| k as u32))
        });
        table.section(Section::LookupGroups, |w| {
            w.extend(keyed.iter().map(|&k| (k >> 32) as u32));
        });
        table.section(Section::StarGroups, |w| w.extend(star_groups_in()));
        table.section(Section::Groups, |w| {
            w.extend(self.groups.iter().flat_map(|g| g.to_words()));
        });
        table.section(Section::Agents, |w| {
            w.extend(self.agents.iter().flat_map(|a| a.to_words()));
        });
        table.section(Section::Sitemaps, |w| {
            w.extend(self.sitemaps.iter().flat_map(|&(start, end)| [start, end]));
        });
        self.rule_lines.write(&mut table);
        // Copied out at their size, unless the scratch array is too large to
        // keep (`Scratch::emptied`): then it is shrunk in place, as copying
        // hundreds of KB would cost more than the allocation it saves.
        let rules: Box<[Rule]> = if Scratch::keeps(&self.rules) {
            self.rules.as_slice().into()
        } else {
            std::mem::take(&mut self.rules).into_boxed_slice()
        };
        let parsed = Parsed {
            arena: self.arena.into_boxed_slice(),
            rules,
            table: table.finish(),
            indexes: (0..slots).map(|_| IndexSlot::default()).collect(),
            star_one,
            star_slot: IndexSlot::default(),
            spent: Default::default(),
            named_filter,
            star_index,
            rare: rare.boxed(),
            // At most `MAX_BODY_LEN` (2^30): see `capped`.
            body_len: body_len as u32,
        };
        let scratch = Scratch {
            rules: self.rules,
            rule_lines: self.rule_lines,
            groups: self.groups,
            agents: self.agents,
            sitemaps: self.sitemaps,
            text: self.text,
            keyed,
        };
        (parsed, scratch)
    }
}

/// The first line of the last group when it is one
/// [`GroupWithoutRules`](WarningKind::GroupWithoutRules) warns about:
/// called when it has no rule line (only the last group can lack one:
/// `start_group` is called after rules), with the named agents' sort keys
/// in runs of one token (`tokens`: one entry per group naming it) and the
/// groups holding a `*` agent (`star`).
#[cold]
fn group_without_rules<'k>(
    groups: &[Group],
    mut tokens: impl Iterator<Item = &'k [u128]>,
    mut star: impl Iterator<Item = u32>,
) -> Option<u32> {
    let last = groups.len().checked_sub(1)? as u32;
    // A `*` group's rules that a crawler named only here goes without.
    if !star.any(|g| groups[g as usize].rules.1 > groups[g as usize].rules.0) {
        return None;
    }
    // A token of the last group no other group names: its run is that
    // group's entry alone.
    tokens
        .any(|run| matches!(run, [k] if (k >> 32) as u32 == last))
        .then(|| groups[last as usize].line)
}

/// `agent::token_key` of the `len`-octet token at `arena[start..]`: its
/// first 8 octets, lower-cased and zero-padded, as a big-endian integer.
fn token_key_at(arena: &[u8], start: usize, len: usize) -> u64 {
    match arena.get(start..start + 8) {
        // Eight octets at once, those past the token cleared.
        Some(w) => {
            let w = u64::from_be_bytes(w.try_into().expect("8 octets"));
            let past = u64::MAX.checked_shr(8 * len.min(8) as u32).unwrap_or(0);
            crate::agent::lower8(w) & !past
        }
        None => crate::agent::token_key(&arena[start..start + len]),
    }
}

/// A value as text: as written when it is UTF-8, otherwise with every octet
/// that is not ASCII percent-encoded (nothing is dropped).
fn text_or_escaped(value: &[u8]) -> Box<str> {
    let mut out = Vec::with_capacity(value.len());
    push_text_or_escaped(&mut out, value);
    // Always UTF-8 (see below): the lossy conversion copies nothing else.
    String::from_utf8_lossy(&out).into()
}

/// Appends [`text_or_escaped`] of `value` to `out`, which stays UTF-8 if it
/// was.
fn push_text_or_escaped(out: &mut Vec<u8>, value: &[u8]) {
    if value.is_ascii() || std::str::from_utf8(value).is_ok() {
        out.extend_from_slice(value);
        return;
    }
    for &b in value {
        if b.is_ascii() {
            out.push(b);
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
    }
}

/// Everything parsed from `body`, as text (`Debug` of the whole parse), with
/// the lexer's fast path and the builder's repeated-block path on, then off:
/// the two must be equal. For the tests and the `fast_path` fuzz target.
#[cfg(any(test, feature = "__fuzz"))]
pub(crate) fn parsed_both_ways(body: &[u8], mk1996: bool) -> (String, String) {
    let options = ParseOptions::new().mk1996(mk1996);
    let run = |fast: bool| {
        let mut b = Builder::new(&options, Scratch::default());
        b.fast = fast;
        format!("{:?}", b.run(body).0)
    };
    (run(true), run(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_lines_end_at_the_last_line_end() {
        let text = b"Disallow: /a\nDisallow: /b\r\nDisallow: /c";
        assert_eq!(complete_lines(text), b"Disallow: /a\nDisallow: /b\r\n");
        assert_eq!(complete_lines(b"Disallow: /a\r"), b"Disallow: /a\r");
        assert_eq!(complete_lines(b"no line end at all"), b"");
    }

    thread_local! {
        /// Blocks `repeat_block` has taken on this thread.
        pub(super) static REPEATED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
        /// Warnings `repeat_block` has read on this thread.
        pub(super) static WARNINGS_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

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
        // The word-at-a-time path agrees with the plain one, whatever octet
        // replaces any octet of the keys it knows.
        for key in ["Disallow", "allow", "User-agent", "SITEMAP"] {
            for at in 0..key.len() {
                for b in 0..=255u8 {
                    let mut k = key.as_bytes().to_vec();
                    k[at] = b;
                    assert_eq!(classify(&k), classify_rare(&k), "{k:?}");
                }
            }
        }
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token(b"Googlebot/2.1 (+http://x)"), b"Googlebot");
        assert_eq!(product_token(b"Foo Bar"), b"Foo");
        assert_eq!(product_token(b"MJ12bot"), b"MJ12bot");
        assert_eq!(product_token(b"ia_archiver/1.0"), b"ia_archiver");
        assert_eq!(product_token(b"Yandex-Images;x"), b"Yandex-Images");
        assert_eq!(product_token(b"(compatible)"), b"");
        assert!(is_star(b"*") && is_star(b"* Disallow: /") && !is_star(b"*bot"));
    }

    #[test]
    fn fast_path_agrees_with_general_path_on_keys_split_by_a_line_end() {
        for body in [
            &b"User\ragent: x\nDisallow: /a\n"[..],
            b"USER-AGENT: x\nDISALLOW: /a\nALLOW: /b\n",
            b"User-agent: *\nDis\rallow: /a\nAll\row: /b\n",
        ] {
            let (fast, general) = parsed_both_ways(body, false);
            assert_eq!(fast, general, "{body:?}");
        }
    }

    /// Groups that repeat the rules of a group before them are read by
    /// `repeat_block`, with the outcome of reading them line by line.
    #[test]
    fn repeated_groups_are_taken_again_with_their_own_lines() {
        let rules = "Disallow: /private/\nAllow: /private/ok\nDisallow: /a b\n\
                     Disallow: /search?q=*\nDisallow: /*.pdf$\n";
        let body = format!(
            "User-agent: a\n{rules}\nUser-agent: b\nUser-agent: c\n{rules}\
             Sitemap: https://example.com/s.xml\n\nUser-agent: d\n{rules}Disallow: /more\n"
        );
        REPEATED.with(|n| n.set(0));
        let robots = Robots::parse(&body);
        assert_eq!(REPEATED.with(|n| n.get()), 2);
        let (fast, general) = parsed_both_ways(body.as_bytes(), false);
        assert_eq!(fast, general);
        // Each repeated rule has its own line, and its pattern as written.
        let d = robots.explain("d", "https://example.com/a%20b");
        assert_eq!(
            d.rule().map(|r| (r.line(), r.pattern())),
            Some((20, "/a b"))
        );
        let c = robots.explain("c", "https://example.com/x.pdf");
        assert_eq!(c.rule().map(|r| r.line()), Some(14));
        assert!(!robots.is_allowed("d", "https://example.com/more"));
        assert!(robots.is_allowed("c", "https://example.com/more"));
    }

    /// Whether a repeated block's lines have a warning is found by a binary
    /// search over the warnings, not by a walk back over all those since
    /// the block: a file of thousands of groups repeating the first one's
    /// rules, each with lines that warn, parses in linear time.
    #[test]
    fn repeated_groups_with_warnings_read_few_warnings() {
        let block = "Disallow: /private/directory/one/\nDisallow: /private/directory/two/\n";
        let groups = 2_000;
        let mut body = format!("User-agent: a\n{block}");
        for _ in 0..groups {
            body.push_str("User-agent: b\nx:\ny:\nz:\n");
            body.push_str(block);
        }
        REPEATED.with(|n| n.set(0));
        WARNINGS_READ.with(|n| n.set(0));
        let robots = Robots::parse(&body);
        assert_eq!(robots.warnings().len(), 3 * groups);
        assert_eq!(REPEATED.with(|n| n.get()), groups as u32);
        // About log2(6,000) per group; the walk read 6,000,000 in all.
        let read = WARNINGS_READ.with(|n| n.get());
        assert!(read <= 16 * groups as u64, "{read} warnings read");
        let (fast, general) = parsed_both_ways(body.as_bytes(), false);
        assert_eq!(fast, general);
        // A warning on a block's own line still stops the repeat.
        let block = "Disallow: /private/directory/one/\nDisallow: private\nDisallow: /two/\n";
        let body = format!("User-agent: a\n{block}User-agent: b\n{block}");
        REPEATED.with(|n| n.set(0));
        let robots = Robots::parse(&body);
        assert_eq!(REPEATED.with(|n| n.get()), 0);
        let lines: Vec<_> = robots.warnings().iter().map(|w| w.line).collect();
        assert_eq!(lines, [3, 7]);
    }

    /// Sitemap values, which the lexer copies as it scans them sixteen
    /// octets a step: of every length up to three steps, with a non-ASCII
    /// octet (of valid UTF-8 or not) at every place, trailing spaces, and
    /// each way a value can end.
    #[test]
    fn fast_path_agrees_with_general_path_on_sitemap_values() {
        for len in 0..48 {
            for odd in [None, Some(&b"\xC3\xA9"[..]), Some(b"\xFF")] {
                for at in 0..=len {
                    for end in [&b"\n"[..], b"\r\n", b" \t# c\n", b"\0x\n", b"  ", b""] {
                        let mut body = b"Sitemap: ".to_vec();
                        body.extend(std::iter::repeat_n(b'a', at));
                        body.extend_from_slice(odd.unwrap_or_default());
                        body.extend(std::iter::repeat_n(b'b', len - at));
                        body.extend_from_slice(end);
                        body.extend_from_slice(b"User-agent: *\nDisallow: /x\n");
                        let (fast, general) = parsed_both_ways(&body, false);
                        assert_eq!(fast, general, "{:?}", String::from_utf8_lossy(&body));
                    }
                    if odd.is_none() {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn fast_path_agrees_with_general_path_on_the_corpus() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let body = std::fs::read(&path).unwrap();
            let (fast, general) = parsed_both_ways(&body, false);
            assert!(fast == general, "{}", path.display());
        }
    }

    /// The agent lookup as first written: every named agent with a token,
    /// sorted by (token in any case, group, index), one per token and group.
    fn naive_lookup(p: &Parsed) -> Vec<u32> {
        let agents: Vec<AgentName> = p.agents().collect();
        let token = |i: u32| p.agent_token(&agents[i as usize]);
        let mut v: Vec<u32> = (0..agents.len() as u32)
            .filter(|&i| !agents[i as usize].star && !token(i).is_empty())
            .collect();
        v.sort_by(|&x, &y| {
            crate::agent::cmp_ignore_case(token(x), token(y))
                .then(agents[x as usize].group.cmp(&agents[y as usize].group))
                .then(x.cmp(&y))
        });
        v.dedup_by(|x, y| {
            agents[*x as usize].group == agents[*y as usize].group
                && token(*x).eq_ignore_ascii_case(token(*y))
        });
        v
    }

    /// The arena's layout: each group's patterns back to back from its
    /// base, bases never decreasing, all before the agent values and
    /// sitemap URLs; a group has its own copies unless it repeats the group
    /// before.
    fn check_layout(p: &Parsed) {
        let groups: Vec<Group> = p.groups().collect();
        let (mut end, mut len_before) = (0, 0);
        for (i, g) in groups.iter().enumerate() {
            let len: u32 = p.rules[g.rules.0 as usize..g.rules.1 as usize]
                .iter()
                .map(|r| r.len as u32)
                .sum();
            let shared = len > 0 && len == len_before && g.base == groups[i - 1].base;
            len_before = len;
            assert!(
                g.base == end || shared,
                "group {i}: base {} after {end}",
                g.base
            );
            if !shared {
                end = g.base + len;
            }
        }
        let mut text = p.agents().map(|a| a.start);
        let mut sitemaps = p.sitemap_spans().iter().map(|s| s[0]);
        assert!(text.all(|t| t >= end) && sitemaps.all(|t| t >= end));
    }

    fn check_lookup(body: &[u8]) {
        let p = parse(body, &ParseOptions::new());
        let agents: Vec<AgentName> = p.agents().collect();
        let groups: Vec<Group> = p.groups().collect();
        let want = naive_lookup(&p);
        assert_eq!(p.lookup(), &want[..]);
        // The filter has every named token's bit; the one `*` group is
        // kept inline when there is exactly one.
        for &[high, low] in p.lookup_keys() {
            let k = (high as u64) << 32 | low as u64;
            assert_ne!(p.named_filter & crate::model::token_bit(k), 0);
        }
        let star_one = match *p.star_groups() {
            [g] => Some(StarGroup {
                rules: groups[g as usize].rules,
                base: groups[g as usize].base,
                slot: groups[g as usize].index,
            }),
            _ => None,
        };
        assert_eq!(p.star_one.get(), star_one);
        check_layout(&p);
        // The index slot in `Parsed` is the one `*` group's, or the merged
        // `*` groups', and no other's.
        for (i, g) in groups.iter().enumerate() {
            let large = g.rules.1 - g.rules.0 > crate::matcher::INDEX_MIN_RULES;
            let star = *p.star_groups() == [i as u32];
            assert_eq!(g.index == STAR_SLOT, large && star);
            assert_eq!(g.index == NO_INDEX, !large);
        }
        assert!(
            p.star_index == NO_INDEX || (p.star_index == STAR_SLOT && p.star_groups().len() > 1)
        );
        // The `*` groups: each group with a `*` agent, once, in order.
        let mut stars: Vec<u32> = agents.iter().filter(|a| a.star).map(|a| a.group).collect();
        stars.dedup();
        assert_eq!(p.star_groups(), &stars[..]);
        for (k, &i) in p.lookup().iter().enumerate() {
            let a = &agents[i as usize];
            let key = crate::agent::token_key(p.agent_token(a));
            assert_eq!(p.lookup_keys()[k], [(key >> 32) as u32, key as u32]);
            assert_eq!(p.lookup_groups()[k], a.group);
            // The groups the token selects have a merged index exactly when
            // they are several with enough rules and groups between them.
            let token = std::str::from_utf8(p.agent_token(a)).unwrap();
            let (selected, _) = crate::agent::select(&p, token);
            let rules: u32 = selected
                .iter()
                .map(|&g| groups[g as usize].rules.1 - groups[g as usize].rules.0)
                .sum();
            let merged = selected.len() > 1
                && rules + selected.len() as u32 > crate::matcher::INDEX_MIN_RULES;
            assert_eq!(p.merged_slot(selected).is_some(), merged, "{token}");
        }
    }

    #[test]
    fn a_crawler_in_several_groups_gets_one_merged_index() {
        let mut body = String::new();
        for g in 0..3 {
            body.push_str(&format!("User-agent: bot\nUser-agent: g{g}\n"));
            for r in 0..4 {
                body.push_str(&format!("Disallow: /{g}/{r}\n"));
            }
        }
        check_lookup(body.as_bytes());
        let p = parse(body.as_bytes(), &ParseOptions::new());
        let (groups, _) = crate::agent::select(&p, "BOT");
        assert_eq!(groups.len(), 3);
        assert!(p.merged_slot(groups).is_some());
        // Its sub-slices are not its run: no index.
        assert!(p.merged_slot(&groups[..2]).is_none());
        assert!(p.merged_slot(&groups[1..]).is_none());
        let (one, _) = crate::agent::select(&p, "g1");
        assert!(p.merged_slot(one).is_none());
    }

    /// The scratch arrays a thread keeps between parses carry nothing from
    /// one file into the next: a file parses the same after others as on a
    /// fresh thread, whether the scratch was kept or dropped as too large.
    #[test]
    fn a_parse_owes_nothing_to_the_parses_before_it_on_its_thread() {
        let mut big = String::from("User-agent: a\nUser-agent: b\nSitemap: /s\n");
        for i in 0..6000 {
            big.push_str(&format!("Disallow: /p{i}\n\n\nAllow: /q{i}$\n"));
        }
        let small = "User-agent: *\nDisallow: /x\nSitemap: https://e.com/s.xml\n\
                     User-agent: c\nAllow: /y\n";
        let fresh = |body: String| {
            std::thread::spawn(move || {
                format!("{:?}", parse(body.as_bytes(), &ParseOptions::new()))
            })
            .join()
            .unwrap()
        };
        let want_small = fresh(small.to_owned());
        let want_big = fresh(big.clone());
        for body in [&big, small, small, &big, small] {
            let got = format!("{:?}", parse(body.as_bytes(), &ParseOptions::new()));
            let want = if body == small {
                &want_small
            } else {
                &want_big
            };
            assert!(&got == want, "{}", &body[..40]);
        }
    }

    #[test]
    fn star_groups_are_each_group_with_a_star_once() {
        let body = "User-agent: *\nUser-agent: bot\nUser-agent: *\nDisallow: /a\n\
                    User-agent: other\nDisallow: /b\n\
                    User-agent: *\nUser-agent: *\nDisallow: /c\n";
        check_lookup(body.as_bytes());
        assert_eq!(
            parse(body.as_bytes(), &ParseOptions::new()).star_groups(),
            [0, 2]
        );
        // Only `*`: no table of names.
        let p = parse(b"User-agent: *\nDisallow: /a\n", &ParseOptions::new());
        assert!(p.lookup().is_empty() && p.lookup_keys().is_empty());
        assert_eq!(p.star_groups(), [0]);
    }

    /// A crawler named in thousands of empty groups (or thousands of empty
    /// `*` groups) gets a merged index like one named in groups of rules:
    /// without it each check would walk every group.
    #[test]
    fn many_empty_groups_get_a_merged_index() {
        for star in [false, true] {
            let name = if star { "*" } else { "bot" };
            let mut body = format!("User-agent: {name}\nDisallow: /a\n");
            for _ in 0..5_000 {
                body.push_str(&format!("User-agent: {name}\nDisallow:\n"));
            }
            body.push_str(&format!("User-agent: {name}\nAllow: /a/b\n"));
            check_lookup(body.as_bytes());
            let p = parse(body.as_bytes(), &ParseOptions::new());
            let (groups, _) = crate::agent::select(&p, "bot");
            assert_eq!(groups.len(), 5_002);
            assert!(p.merged_slot(groups).is_some());
            // Checks scan until they have cost about what the build does,
            // then build it; the answers are the same before and after.
            let allows = |path: &str| {
                crate::matcher::best(&p, groups, path.as_bytes()).is_none_or(|hit| hit.allow)
            };
            for _ in 0..crate::matcher::INDEX_PRICE_SCANS + 1 {
                assert!(!allows("/a"));
                assert!(allows("/a/b"));
                assert!(allows("/c"));
            }
            assert!(p.merged_slot(groups).unwrap().get().is_some(), "{name}");
        }
    }

    #[test]
    fn agent_lookup_is_sorted_and_deduplicated() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus");
        for entry in std::fs::read_dir(dir).unwrap() {
            check_lookup(&std::fs::read(entry.unwrap().path()).unwrap());
        }
        // Tokens sharing their first 8 or 16 octets, in mixed case, over
        // several groups, some repeated within a group; one at the arena's
        // very end.
        let names = [
            "Googlebot-Image",
            "googlebot",
            "GOOGLEBOT-news",
            "Googlebo",
            "a",
            "A",
            "averyveryverylongbotname-b",
            "AVeryVeryVeryLongBotName-a",
            "x-y_z9",
            "googlebot-image",
        ];
        let mut body = String::new();
        for g in 0..4 {
            for (j, n) in names.iter().enumerate() {
                if (j + g) % 3 != 0 {
                    body.push_str(&format!("User-agent: {n}\n"));
                }
            }
            body.push_str("User-agent: Googlebot\nDisallow: /x\n");
        }
        body.push_str("User-agent: GoogleBot-Image/2.0");
        check_lookup(body.as_bytes());
    }

    proptest::proptest! {
        #[test]
        fn fast_path_agrees_with_general_path(
            lines in proptest::collection::vec(
                (
                    proptest::sample::select(&["", " ", "\t", "\x0b"][..]),
                    proptest::sample::select(&[
                        "User-agent", "user-agent", "Allow", "Disallow", "disALLOW", "Disalow",
                        "Sitemap", "Crawl-delay", "Noindex", "Dis allow", "#", "", "Allowed",
                        "DISALLOWx", "ALLOW", "allow1", "Disallow-", "Disallow\u{0}",
                    ][..]),
                    proptest::sample::select(&[":", ": ", " : ", " ", "", "#:"][..]),
                    proptest::collection::vec(
                        proptest::sample::select(&[
                            "/", "a", "*", "$", "%", "%2f", "%41", "%4", "é", " ", "\t", "\u{1}",
                            "\u{0}", "#", ":",
                        ][..]),
                        0..6,
                    ),
                    proptest::sample::select(&["", " ", "  \t", " # c", "#", "\x0c"][..]),
                    proptest::sample::select(&["\n", "\r\n", "\r", "\n\n", ""][..]),
                ),
                0..16,
            ),
            long in 0..8usize,
            mk1996 in proptest::bool::weighted(0.2),
        ) {
            let pieces: Vec<String> = lines
                .into_iter()
                .map(|(lead, key, sep, value, tail, end)| {
                    format!("{lead}{key}{sep}{}{tail}{end}", value.concat())
                })
                .collect();
            let mut body = Vec::new();
            for (i, line) in pieces.iter().enumerate() {
                if long > 0 && i == pieces.len() / 2 {
                    // A rule line around the length limit, in a group.
                    body.extend_from_slice(b"\nUser-agent: *\nDisallow: /");
                    body.resize(body.len() + crate::limits::MAX_LINE_LEN - 15 + long, b'a');
                    body.extend_from_slice(if long % 2 == 0 { b" # x\n" } else { b"\n" });
                }
                body.extend_from_slice(line.as_bytes());
            }
            let (fast, general) = parsed_both_ways(&body, mk1996);
            proptest::prop_assert_eq!(fast, general);
            check_layout(&parse(&body, &ParseOptions::new().mk1996(mk1996)));
        }
    }

    proptest::proptest! {
        /// A body limit keeps complete lines only, never more than the
        /// limit of a body that is not UTF-16, whatever the octets.
        #[test]
        fn a_body_limit_keeps_whole_lines_within_it(
            body in proptest::collection::vec(
                proptest::sample::select(&b"ab:/*$ \t\r\n\0\xff\xfe"[..]),
                0..200,
            ),
            limit in 0usize..220,
        ) {
            let debug = |parsed: Parsed| format!("{parsed:?}");
            let parsed = debug(parse(&body, &ParseOptions::new().body_limit(limit)));
            let utf16 = charset::detect(&body, None, false).is_some();
            if body.len() <= limit {
                proptest::prop_assert_eq!(parsed, debug(parse(&body, &ParseOptions::new())));
            } else if !utf16 {
                // Read as the whole body is, as UTF-8: what is kept may
                // look like UTF-16 on its own (`\0a\0a\0a\r` of
                // `\0a\0a\0a\raaa`), but the whole body decides.
                let kept = complete_lines(&body[..limit]);
                let whole = parse_in(kept, None, false, &ParseOptions::new());
                proptest::prop_assert_eq!(parsed, debug(whole));
            }
        }
    }

    proptest::proptest! {
        /// Groups drawn from a few blocks of rule lines, so that many
        /// repeat one before them, in part or whole, with any line ends,
        /// comments, warnings, rewritten patterns and empty rules: reading
        /// them with `repeat_block` gives what reading every line does.
        #[test]
        fn repeated_groups_agree_with_the_general_path(
            groups in proptest::collection::vec(
                (
                    0..3usize,
                    proptest::collection::vec(
                        proptest::sample::select(&[
                            "Disallow: /private/directory/", "Allow: /private/directory/ok",
                            "Disallow: /a b/with spaces", "Disallow: /*.pdf$", "Disallow:",
                            "Disallow: relative/path/here", "Allow: /x # a comment here",
                            "Disallow: /%e3%83%84/lower", "Disallow: /search?q=*&page=",
                            "Sitemap: https://example.com/sitemap.xml", "# comment", "",
                            "Crawl-delay: 5",
                        ][..]),
                        0..8,
                    ),
                    proptest::sample::select(&["\n", "\r\n", "\r"][..]),
                    proptest::sample::select(&["", "\n", "\r\n", "# c\n"][..]),
                ),
                1..6,
            ),
            pool in proptest::collection::vec(0..3usize, 1..6),
            mk1996 in proptest::bool::weighted(0.2),
        ) {
            // Three blocks of rules; each group takes one of them (by
            // `pool`) after its own user-agent lines.
            let blocks: Vec<String> = groups
                .iter()
                .map(|(_, lines, end, _)| lines.iter().map(|l| format!("{l}{end}")).collect())
                .collect();
            let mut body = String::new();
            for (i, (agents, _, end, after)) in groups.iter().enumerate() {
                for a in 0..=*agents {
                    body.push_str(&format!("User-agent: bot{a}{end}"));
                }
                body.push_str(&blocks[pool[i % pool.len()] % blocks.len()]);
                body.push_str(after);
            }
            let (fast, general) = parsed_both_ways(body.as_bytes(), mk1996);
            proptest::prop_assert_eq!(fast, general);
            check_layout(&parse(body.as_bytes(), &ParseOptions::new().mk1996(mk1996)));
        }
    }

    #[test]
    fn a_group_repeating_the_one_before_shares_its_patterns() {
        let body = "User-agent: a\nDisallow: /private/\nAllow: /private/yes$\n\n\
                    User-agent: b\nDisallow: /private/\nAllow: /private/yes$\n\n\
                    User-agent: c\nDisallow: /private/\nDisallow: /private/yes$\n\n\
                    User-agent: d\nDisallow: /private/and/more/\n\
                    Sitemap: https://example.com/s.xml\n\n\
                    User-agent: e\nDisallow: /private/and/more/\n\n\
                    User-agent: f\nDisallow: /\n\n\
                    User-agent: g\nDisallow: /\n";
        let p = parse(body.as_bytes(), &ParseOptions::new());
        let starts: Vec<u32> = (0..p.rules.len() as u32).map(|r| p.rule_at(r)).collect();
        // b repeats a: shared. c differs from b in a rule's kind, d from c
        // in its number of rules: their own copies. e repeats d (the
        // sitemap URL between them is kept apart): shared. g repeats f,
        // but one octet is not worth a look.
        assert_eq!(starts[2..4], starts[0..2]);
        assert!(starts[4..7].iter().all(|s| !starts[..4].contains(s)));
        assert_eq!(starts[7], starts[6]);
        assert_ne!(starts[9], starts[8]);
        let robots = Robots::parse(body);
        let line = |agent: &str, url: &str| robots.explain(agent, url).rule().map(|r| r.line());
        let yes = "https://example.com/private/yes";
        assert_eq!(line("a", yes), Some(3));
        assert_eq!(line("b", yes), Some(7));
        assert_eq!(line("b", "https://example.com/private/x"), Some(6));
        assert_eq!(line("c", yes), Some(11));
        assert_eq!(line("d", "https://example.com/private/and/more/"), Some(14));
        assert_eq!(line("e", "https://example.com/private/and/more/"), Some(18));
        assert!(!robots.is_allowed("b", "https://example.com/private/x"));
        assert!(robots.is_allowed("b", yes));
        assert!(!robots.is_allowed("c", yes));
        // What the parse kept is the same as without sharing, rule by rule.
        for g in robots.groups() {
            for r in g.rules() {
                let text = body.lines().nth(r.line() as usize - 1).unwrap();
                assert!(text.ends_with(r.pattern()), "{text:?} {r:?}");
            }
        }
    }

    #[test]
    fn non_utf8_values_are_escaped_not_dropped() {
        assert_eq!(&*text_or_escaped(b"http://x/caf\xe9"), "http://x/caf%E9");
        assert_eq!(&*text_or_escaped("http://x/ü".as_bytes()), "http://x/ü");
        // Sitemaps live in the arena after the patterns, with the agent
        // values.
        let body: &[u8] =
            b"User-agent: x\nSitemap: http://x/caf\xe9\nDisallow: /a\nsitemap: http://y/\n";
        let robots = ParseOptions::new().parse(body);
        let sitemaps: Vec<&str> = robots.sitemaps().collect();
        assert_eq!(sitemaps, ["http://x/caf%E9", "http://y/"]);
        assert_eq!(robots.sitemaps().next_back(), Some("http://y/"));
        assert!(!robots.is_allowed("x", "/a"));
    }
}
