//! The leniency real files need: encodings, line ends, misspellings, odd
//! syntax, junk. Each test writes the oddity into a small file and checks
//! both that the rule is understood and what warning is recorded.

use std::time::Duration;

use keepout::{Directive, ParseOptions, Robots, WarningKind};

/// The line and kind of each of `robots`' warnings.
fn kinds(robots: &Robots) -> Vec<(u32, &WarningKind)> {
    robots
        .warnings()
        .iter()
        .map(|w| (w.line, &w.kind))
        .collect()
}

fn blocks(body: impl AsRef<[u8]>, agent: &str, url: &str) -> bool {
    !Robots::parse(body).is_allowed(agent, url)
}

#[test]
fn utf8_byte_order_mark_is_skipped() {
    assert!(blocks(
        b"\xEF\xBB\xBFUser-agent: *\nDisallow: /x\n",
        "bot",
        "/x"
    ));
}

#[test]
fn a_byte_order_mark_cut_short_is_skipped_too() {
    // As in Google's parser: `EF` or `EF BB` at the start is no key's.
    for start in [&b"\xEF\xBB"[..], b"\xEF"] {
        let body = [start, b"User-agent: *\nDisallow: /x\n"].concat();
        assert!(blocks(&body, "bot", "/x"), "{start:?}");
    }
    // Elsewhere it is data: a key of its own, which nothing reads.
    assert!(!blocks(b"\xBBUser-agent: *\nDisallow: /x\n", "bot", "/x"));
}

#[test]
fn an_empty_user_agent_line_after_rules_ends_the_group() {
    // RFC 9309 section 2.1 ends a group at a user-agent line; Google's
    // parser does so for an empty one too, so `/y` belongs to no crawler.
    for empty in ["User-agent:", "User-agent: # no one", "User-agent:   "] {
        let body = format!("User-agent: a\nDisallow: /x\n{empty}\nDisallow: /y\n");
        let robots = Robots::parse(&body);
        assert!(!robots.is_allowed("a", "/x"), "{empty}");
        assert!(robots.is_allowed("a", "/y"), "{empty}");
        assert!(robots.is_allowed("b", "/y"), "{empty}");
        // Its group names no crawler, and says so when displayed.
        let group = robots.groups().nth(1).unwrap();
        assert_eq!(group.to_string(), "group at line 3: User-agent: (empty)");
    }
    // Before any rule it only names no one: the group goes on.
    let robots = Robots::parse("User-agent: a\nUser-agent:\nDisallow: /x\n");
    assert!(!robots.is_allowed("a", "/x"));
    // Followed by a crawler's name, it starts that crawler's group, as any
    // user-agent line after rules would: only its value is missing.
    let robots =
        Robots::parse("User-agent: a\nDisallow: /\nUser-agent:\nUser-agent: b\nDisallow: /x\n");
    assert!(!robots.is_allowed("a", "/x"));
    assert!(robots.is_allowed("b", "/y"));
    let d = robots.explain("b", "/x");
    assert!(!d.allowed());
    assert_eq!(d.rule().unwrap().group().line(), 4, "{d}");
    let warnings: Vec<_> = robots
        .warnings()
        .iter()
        .map(|w| (w.line, w.kind.clone()))
        .collect();
    let directive = keepout::Directive::UserAgent;
    assert_eq!(warnings, [(3, WarningKind::EmptyValue { directive })]);
    // Followed by no rule line (the file ends, or only a sitemap
    // follows), it takes nothing from anyone: again only its value is
    // missing.
    for rest in ["", "Sitemap: https://example.com/s.xml\n"] {
        let body = format!("User-agent: a\nDisallow: /x\nUser-agent:\n{rest}");
        let robots = Robots::parse(&body);
        assert_eq!(
            kinds(&robots),
            [(3, &WarningKind::EmptyValue { directive })],
            "{rest:?}"
        );
        assert!(!robots.is_allowed("a", "/x"));
    }
    // Followed by a crawl-delay, it ended the group above: the delay
    // applies to no crawler.
    let robots = Robots::parse("User-agent: a\nDisallow: /x\nUser-agent:\nCrawl-delay: 3\n");
    assert_eq!(kinds(&robots), [(3, &WarningKind::EmptyUserAgentEndsGroup)]);
    assert_eq!(robots.crawl_delay("a"), None);
    // Followed by an empty rule line, it ended the group above all the same.
    let robots = Robots::parse("User-agent: a\nDisallow: /x\nUser-agent:\nDisallow:\n");
    assert_eq!(
        robots.warnings()[0].kind,
        WarningKind::EmptyUserAgentEndsGroup
    );
}

/// An extension line with no value is an empty value, as a sitemap or
/// host line with none is, not an unreadable one; the line still sits in
/// its group (a user-agent line after it joins the group).
#[test]
fn empty_extension_values_are_empty_not_invalid() {
    let robots = Robots::parse(
        "User-agent: a\nCrawl-delay:\nRequest-rate:   \nCrawl-delay: soon\nSitemap:\n",
    );
    assert_eq!(robots.crawl_delay("a"), None);
    let warnings: Vec<_> = robots
        .warnings()
        .iter()
        .map(|w| (w.line, w.kind.clone()))
        .collect();
    use keepout::Directive::{CrawlDelay, RequestRate, Sitemap};
    assert_eq!(
        warnings,
        [
            (
                2,
                WarningKind::EmptyValue {
                    directive: CrawlDelay
                }
            ),
            (
                3,
                WarningKind::EmptyValue {
                    directive: RequestRate
                }
            ),
            (
                4,
                WarningKind::InvalidValue {
                    directive: CrawlDelay
                }
            ),
            (5, WarningKind::EmptyValue { directive: Sitemap }),
        ]
    );
}

#[test]
fn utf16_with_byte_order_mark_is_transcoded() {
    let text = "User-agent: *\r\nDisallow: /private\r\n";
    let mut le = vec![0xFF, 0xFE];
    le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert!(blocks(&le, "bot", "/private"));
    let mut be = vec![0xFE, 0xFF];
    be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    assert!(blocks(&be, "bot", "/private"));
    // RFC 9309 section 2.2 asks for UTF-8: said once, at line 1.
    for (body, encoding) in [(&le, "UTF-16LE"), (&be, "UTF-16BE")] {
        let warnings = Robots::parse(body).warnings().to_vec();
        assert_eq!(warnings.len(), 1);
        assert_eq!(
            (warnings[0].line, &warnings[0].kind),
            (1, &WarningKind::NotUtf8 { encoding })
        );
        assert!(
            warnings[0]
                .to_string()
                .starts_with(&format!("line 1: file in {encoding}, not UTF-8 (RFC 9309")),
            "{}",
            warnings[0]
        );
    }
    // A UTF-8 byte order mark is UTF-8.
    assert!(
        Robots::parse(format!("\u{feff}{text}"))
            .warnings()
            .is_empty()
    );
}

/// A UTF-16 byte order mark before text that is not UTF-16 (no zero octet
/// where every ASCII character would have one) is a stray one: the file is
/// read as octets, as Google's parser reads it, and only its first line
/// holds the mark. Read as UTF-16, every rule was lost.
#[test]
fn a_stray_utf16_byte_order_mark_is_not_utf16() {
    for bom in [[0xFF, 0xFE], [0xFE, 0xFF]] {
        let mut body = bom.to_vec();
        body.extend_from_slice("# robots.txt\nUser-agent: *\nDisallow: /café\n".as_bytes());
        let robots = Robots::parse(&body);
        assert!(!robots.is_allowed("bot", "/caf%C3%A9"), "{bom:x?}");
        assert!(robots.is_allowed("bot", "/x"), "{bom:x?}");
        assert!(
            !robots
                .warnings()
                .iter()
                .any(|w| matches!(w.kind, WarningKind::NotUtf8 { .. })),
            "{bom:x?}: {:?}",
            robots.warnings()
        );
        // Nor does a UTF-16 label make it UTF-16.
        let robots = ParseOptions::new()
            .content_type("text/plain; charset=utf-16")
            .parse(&body);
        assert!(!robots.is_allowed("bot", "/caf%C3%A9"), "{bom:x?}");
    }
    // A mark alone, or before UTF-16 text, is UTF-16's.
    assert_eq!(
        Robots::parse([0xFF, 0xFE]).warnings()[0].kind,
        WarningKind::NotUtf8 {
            encoding: "UTF-16LE"
        }
    );
    let mut le = vec![0xFF, 0xFE];
    le.extend("Disallow: /\n".encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(
        Robots::parse(&le).warnings()[0].kind,
        WarningKind::NotUtf8 {
            encoding: "UTF-16LE"
        }
    );
}

/// `ParseOptions::body_limit`: of a longer body, the complete lines within
/// the limit (RFC 9309 section 2.5), as the fetcher parses a body cut at
/// its limit. A line cut short is dropped, not read for what is left of it.
#[test]
fn a_body_limit_keeps_the_complete_lines_within_it() {
    let cut = |body: &[u8], limit: usize| ParseOptions::new().body_limit(limit).parse(body);
    let body = b"User-agent: *\nDisallow: /a\nDisallow: /admin\n";
    // Cut inside `Disallow: /admin`: read as `Disallow: /`, it would
    // disallow everything.
    for limit in 27..body.len() {
        let robots = cut(body, limit);
        assert_eq!(robots.body_len(), 27, "{limit}");
        assert!(robots.is_allowed("bot", "/b"), "{limit}");
        assert!(!robots.is_allowed("bot", "/a"), "{limit}");
        assert!(robots.warnings().is_empty(), "{limit}");
    }
    // A body of the limit's length, or shorter, is whole, line end or not.
    let unended = &body[..body.len() - 1];
    assert!(!cut(unended, unended.len()).is_allowed("bot", "/admin"));
    assert!(!cut(body, usize::MAX).is_allowed("bot", "/admin"));
    assert_eq!(cut(body, 0).body_len(), 0);
    // CR ends a line as LF does; a cut between CR and LF keeps the line.
    let crlf = b"User-agent: *\r\nDisallow: /a\r\nDisallow: /admin";
    assert_eq!(cut(crlf, 28).body_len(), 28);
    assert_eq!(cut(crlf, 29).body_len(), 29);
    assert_eq!(cut(crlf, 35).body_len(), 29);
    assert!(cut(crlf, 35).is_allowed("bot", "/b"));
    let cr = b"User-agent: *\rDisallow: /a\rDisallow: /admin";
    assert_eq!(cut(cr, 30).body_len(), 27);
}

/// A UTF-16 body is cut in octets, then transcoded, then dropped to its
/// last line end: neither half a character nor an `0A` octet inside
/// another character (`Ċ` is U+010A) makes a line.
#[test]
fn a_body_limit_cuts_utf16_at_a_whole_line() {
    let text = "User-agent: *\nDisallow: /\u{10a}\nDisallow: /admin\n";
    let line_ends = [14, 27]; // characters up to the end of lines 1 and 2
    for le in [true, false] {
        let units: Vec<u8> = text
            .encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect();
        for bom in [true, false] {
            let mut body = match (bom, le) {
                (false, _) => vec![],
                (true, true) => vec![0xFF, 0xFE],
                (true, false) => vec![0xFE, 0xFF],
            };
            let start = body.len();
            body.extend(&units);
            // From the middle of line 2 to the middle of line 3.
            for limit in start + 2 * 20..body.len() {
                let robots = ParseOptions::new().body_limit(limit).parse(&body);
                let whole = if limit >= start + 2 * line_ends[1] {
                    27
                } else {
                    14
                };
                // `Ċ` is two octets in UTF-8.
                let parsed = if whole == 27 { whole + 1 } else { whole };
                assert_eq!(robots.body_len(), parsed, "le {le}, bom {bom}, {limit}");
                assert!(
                    robots.is_allowed("bot", "/admin"),
                    "le {le}, bom {bom}, {limit}"
                );
                let kinds: Vec<_> = robots.warnings().iter().map(|w| &w.kind).collect();
                assert!(
                    matches!(kinds[..], [WarningKind::NotUtf8 { .. }]),
                    "le {le}, bom {bom}, {limit}: {kinds:?}"
                );
            }
        }
    }
}

/// Whether a body is UTF-16 is told from the body, not from what a limit
/// keeps of it: four octets shaped as UTF-16 start a file that is not.
/// (Found by fuzzing.)
#[test]
fn a_body_limit_does_not_change_the_encoding() {
    let mut body = b"\0U\0s".to_vec();
    body.extend_from_slice(format!("{}\nUser-agent: *\nDisallow: /\n", "x".repeat(600)).as_bytes());
    let not_utf8 = |robots: &Robots| {
        robots
            .warnings()
            .iter()
            .any(|w| matches!(w.kind, WarningKind::NotUtf8 { .. }))
    };
    assert!(!not_utf8(&Robots::parse(&body)));
    for limit in [4, 5, 8, 600, body.len() - 1] {
        let robots = ParseOptions::new().body_limit(limit).parse(&body);
        assert!(!not_utf8(&robots), "{limit}");
        // Read as octets: the complete lines within the limit.
        assert!(robots.body_len() <= limit, "{limit}");
    }
}

/// A client of one's own reads the limit and one octet more, to tell a body
/// that goes on: when that octet starts a UTF-8 character, what was read
/// ends inside it, and is still UTF-8 under a single-byte label. (Read as
/// windows-1252, `/café` became `/cafÃ©` and allowed `/café`.)
#[test]
fn a_body_read_one_octet_past_the_limit_stays_utf8() {
    let file = "User-agent: *\nDisallow: /café\n# é\n".as_bytes();
    let limit = file.len() - 3; // up to `# `
    let read = &file[..limit + 1]; // and the first octet of `é`
    assert!(std::str::from_utf8(read).is_err());
    let robots = ParseOptions::new()
        .body_limit(limit)
        .content_type("text/plain; charset=ISO-8859-1")
        .parse(read);
    assert!(!robots.is_allowed("bot", "/caf%C3%A9"));
    assert!(robots.warnings().is_empty(), "{:?}", robots.warnings());
    // Not cut: an octet that starts a character and ends the body shows the
    // body is not UTF-8, and the label is obeyed.
    let robots = ParseOptions::new()
        .content_type("text/plain; charset=ISO-8859-1")
        .parse(read);
    assert!(!robots.is_allowed("bot", "/caf%C3%83%C2%A9"));
}

/// A body fetched by a client of one's own is read in the charset its
/// `Content-Type` names (as the fetcher reads one: tests/fetch.rs), but
/// only where the body does not show the label wrong.
#[test]
fn a_content_type_names_the_charset() {
    let encoding = |robots: &Robots| {
        let found: Vec<_> = robots
            .warnings()
            .iter()
            .filter_map(|w| match w.kind {
                WarningKind::NotUtf8 { encoding } => Some((w.line, encoding)),
                _ => None,
            })
            .collect();
        found
    };
    let latin1 = b"User-agent: *\nDisallow: /caf\xE9\n";
    // Unlabelled, the octet is read as written: `%E9`.
    assert!(blocks(latin1, "bot", "/caf%E9"));
    assert!(!blocks(latin1, "bot", "/caf%C3%A9"));
    let header = http::HeaderValue::from_static("text/plain; charset=ISO-8859-1");
    for robots in [
        ParseOptions::new().content_type(&header).parse(latin1),
        ParseOptions::new()
            .content_type("text/plain;charset=\"windows-1252\"")
            .parse(latin1),
        ParseOptions::new()
            .content_type(b"TEXT/PLAIN; format=flowed; Charset = latin1")
            .parse(latin1),
    ] {
        assert!(!robots.is_allowed("bot", "/caf%C3%A9"));
        assert!(!robots.is_allowed("bot", "/café"));
        assert!(robots.is_allowed("bot", "/caf%E9"));
        assert_eq!(encoding(&robots), [(1, "windows-1252")]);
    }

    // Labels that change nothing: none, unknown, the Encoding Standard's
    // "replacement" ones (which would decode the file to one U+FFFD and so
    // allow everything), UTF-8.
    let ascii = b"User-agent: *\nDisallow: /\n";
    for value in [
        "text/plain",
        "text/plain; charset=bogus",
        "text/plain; charset=",
        "text/plain; charset=iso-2022-kr",
        "text/plain; charset=hz-gb-2312",
        "text/plain; charset=utf-8",
        "charset=latin1",
        "",
    ] {
        let robots = ParseOptions::new().content_type(value).parse(latin1);
        assert!(robots.is_allowed("bot", "/caf%C3%A9"), "{value}");
        assert!(encoding(&robots).is_empty(), "{value}");
        let robots = ParseOptions::new().content_type(value).parse(ascii);
        assert!(!robots.is_allowed("bot", "/x"), "{value}");
    }

    // The body overrules a label that does not fit it: UTF-8 under a
    // single-byte label stays UTF-8; a UTF-16 label on a file without
    // UTF-16's zero octets (a stray NUL is not one) is ignored.
    let utf8 = "User-agent: *\nDisallow: /café\n";
    let robots = ParseOptions::new()
        .content_type("text/plain; charset=ISO-8859-1")
        .parse(utf8);
    assert!(!robots.is_allowed("bot", "/caf%C3%A9"));
    assert!(encoding(&robots).is_empty());
    for label in ["utf-16", "utf-16le", "UTF-16BE"] {
        let value = format!("text/plain; charset={label}");
        for body in [&ascii[..], b"User-agent: *\nDisallow: /\n\0"] {
            let robots = ParseOptions::new().content_type(&value).parse(body);
            assert!(!robots.is_allowed("bot", "/x"), "{label}");
            assert!(encoding(&robots).is_empty(), "{label}");
        }
    }

    // UTF-16 with more than a quarter of its first 256 characters outside
    // Latin-1 is not known by its shape, but by its label; `utf-16` names
    // no byte order, which the line ends then show.
    let text = format!(
        "# {}\nUser-agent: *\nDisallow: /x\n",
        "日本語のコメント".repeat(3)
    );
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    assert!(!blocks(&be, "bot", "/x"));
    for (body, label, name) in [
        (&be, "utf-16", "UTF-16BE"),
        (&be, "utf-16be", "UTF-16BE"),
        (&le, "utf-16", "UTF-16LE"),
        (&le, "utf-16le", "UTF-16LE"),
    ] {
        let value = format!("text/plain; charset={label}");
        let robots = ParseOptions::new().content_type(&value).parse(body);
        assert!(!robots.is_allowed("bot", "/x"), "{label} {name}");
        assert_eq!(encoding(&robots), [(1, name)], "{label}");
    }

    // A multi-byte label is followed where the body is not UTF-8 (GBK's
    // `搜索`)...
    let gbk = "text/plain; charset=gbk";
    let robots = ParseOptions::new()
        .content_type(gbk)
        .parse(b"User-agent: *\nDisallow: /\xCB\xD1\xCB\xF7\n");
    assert!(!robots.is_allowed("bot", "/搜索"));
    assert_eq!(encoding(&robots), [(1, "GBK")]);
    // ...but not where it is: a UTF-8 file served under a server-wide
    // CJK label keeps its rules, as Google reads them (until session 59
    // `/搜索` was read in GBK as `/鎼滅储`, and the URL allowed), and an
    // ASCII one gets no warning.
    for label in ["gbk", "gb18030", "shift_jis", "big5", "euc-kr", "euc-jp"] {
        let value = format!("text/plain; charset={label}");
        for path in ["/搜索/", "/検索/", "/café/", "/über/"] {
            let body = format!("User-agent: *\nDisallow: {path}\n");
            let robots = ParseOptions::new().content_type(&value).parse(&body);
            assert!(
                !robots.is_allowed("bot", format!("{path}x")),
                "{label} {path}"
            );
            assert_eq!(encoding(&robots), [], "{label} {path}");
        }
        let robots = ParseOptions::new()
            .content_type(&value)
            .parse("User-agent: *\nDisallow: /x\n");
        assert!(robots.warnings().is_empty(), "{label}");
    }
}

/// With a body limit too, the whole body decides the charset; the cut
/// keeps the complete lines within the limit, in octets of the body as
/// sent.
#[test]
fn a_content_type_and_a_body_limit_together() {
    // The first line is ASCII; the second, past the limit, shows Latin-1.
    let body = b"User-agent: *\nDisallow: /caf\xE9\nDisallow: /th\xE9\n";
    let options = ParseOptions::new().content_type("text/plain; charset=latin1");
    let robots = options.clone().body_limit(30).parse(body);
    assert!(!robots.is_allowed("bot", "/café"));
    assert!(robots.is_allowed("bot", "/thé"));
    // A cut inside the second line keeps the first only.
    let robots = options.clone().body_limit(29).parse(body);
    assert!(robots.is_allowed("bot", "/café"));
    // UTF-8 cut inside a character is still UTF-8: the whole body decides.
    let utf8 = "User-agent: *\nDisallow: /café\nDisallow: /thé\n".as_bytes();
    let cut_inside = utf8.iter().position(|&b| b == 0xC3).unwrap() + 1;
    for limit in [cut_inside, utf8.len() - 2, utf8.len() - 1] {
        let robots = options.clone().body_limit(limit).parse(utf8);
        assert!(
            !robots
                .warnings()
                .iter()
                .any(|w| matches!(w.kind, WarningKind::NotUtf8 { .. })),
            "{limit}"
        );
    }
    let robots = options.body_limit(utf8.len() - 1).parse(utf8);
    assert!(!robots.is_allowed("bot", "/caf%C3%A9"));
}

/// Without a BOM, a UTF-16 body is known by its every other octet being
/// zero; text that is not shaped so is read as bytes, as before.
#[test]
fn utf16_without_byte_order_mark_is_transcoded() {
    let text = "# caf\u{e9}\nUser-agent: *\r\nDisallow: /private\r\nDisallow: /caf\u{e9}\n";
    let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for body in [&le, &be] {
        assert!(blocks(body, "bot", "/private"));
        assert!(blocks(body, "bot", "/caf%C3%A9"));
        let robots = Robots::parse(body);
        let rule = robots.groups().next().unwrap().rules().nth(1).unwrap();
        assert_eq!(
            (rule.line(), rule.to_string()),
            (4, "Disallow: /caf\u{e9}".into())
        );
    }
    // Cut after an odd number of octets: the last half character is U+FFFD.
    assert!(blocks(&le[..le.len() - 1], "bot", "/private"));
    // The encoding's warning comes first, before those of the lines.
    let mut with_typo = text.replace("Disallow: /private", "Disalow: /private");
    with_typo.push_str("Disallow /x\n");
    let le: Vec<u8> = with_typo
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let kinds: Vec<_> = Robots::parse(&le)
        .warnings()
        .iter()
        .map(|w| (w.line, w.kind.clone()))
        .collect();
    assert!(
        matches!(
            &kinds[..],
            [
                (
                    1,
                    WarningKind::NotUtf8 {
                        encoding: "UTF-16LE"
                    }
                ),
                (3, WarningKind::Misspelled { .. }),
                (5, WarningKind::MissingColon),
            ]
        ),
        "{kinds:?}"
    );

    // Not UTF-16: NUL bytes, but not every other octet.
    for body in [
        &b"D\0i\0sallow: /x\nUser-agent: *\nDisallow: /private\n"[..],
        b"\0\0\0\0User-agent: *\nDisallow: /private\n",
        b"a\0",
        b"\0a\0",
    ] {
        assert_eq!(Robots::parse(body).body_len(), body.len(), "{body:?}");
    }
}

#[test]
fn every_line_ending_works() {
    for eol in ["\n", "\r\n", "\r"] {
        let body = [
            "User-agent: a",
            "Disallow: /a",
            "",
            "User-agent: b",
            "Disallow: /b",
        ]
        .join(eol);
        let robots = Robots::parse(&body);
        assert!(
            !robots.is_allowed("a", "/a") && robots.is_allowed("a", "/b"),
            "{eol:?}"
        );
        assert!(
            !robots.is_allowed("b", "/b") && robots.is_allowed("b", "/a"),
            "{eol:?}"
        );
        // Line numbers count a CRLF once.
        let d = robots.explain("b", "/b");
        assert_eq!(d.rule().unwrap().line(), 5, "{eol:?}");
    }
}

#[test]
fn nul_bytes_end_the_line() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /a\0junk\nDisallow: /b\n");
    assert!(!robots.is_allowed("bot", "/a"));
    assert!(!robots.is_allowed("bot", "/b"));
    assert!(robots.is_allowed("bot", "/c"));
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| w.line == 2 && w.kind == WarningKind::NulByte)
    );
}

#[test]
fn keys_in_any_case_and_whitespace_anywhere() {
    let body = "  uSeR-AgEnT \t:\tBot  \n\tDISALLOW:/x   \n  allow :  /x/y  \n";
    let robots = Robots::parse(body);
    assert!(!robots.is_allowed("bot", "/x/z"));
    assert!(robots.is_allowed("bot", "/x/y"));
}

#[test]
fn comments_are_removed() {
    let body = "# header\nUser-agent: * # everyone\nDisallow: /a # not /b\n#Disallow: /c\n";
    let robots = Robots::parse(body);
    assert!(!robots.is_allowed("bot", "/a"));
    assert!(robots.is_allowed("bot", "/b") && robots.is_allowed("bot", "/c"));
}

#[test]
fn common_misspellings_are_accepted_with_a_warning() {
    for (ua, dis) in [
        ("useragent", "disalow"),
        ("user agent", "dissallow"),
        ("User-Agent", "Dissalow"),
        // Google's parser reads these keys by their start.
        ("User-agent-name", "Disallowed"),
        ("USERAGENTS", "disallow\u{a0}"),
        (
            "user-agent-of-a-very-long-key",
            "Disallowance-of-a-very-long-key",
        ),
    ] {
        let body = format!("{ua}: *\n{dis}: /x\n");
        let robots = Robots::parse(&body);
        assert!(!robots.is_allowed("bot", "/x"), "{body}");
        let understood: Vec<Directive> = robots
            .warnings()
            .iter()
            .filter_map(|w| match &w.kind {
                WarningKind::Misspelled { understood_as, .. } => Some(*understood_as),
                _ => None,
            })
            .collect();
        assert!(understood.contains(&Directive::Disallow), "{body}");
    }
}

/// Every misspelling the parser knows, each read as its key with a
/// `Misspelled` warning saying so.
#[test]
fn every_known_misspelling_is_read_as_its_key() {
    let understood = |robots: &Robots| -> Vec<Directive> {
        robots
            .warnings()
            .iter()
            .filter_map(|w| match &w.kind {
                WarningKind::Misspelled { understood_as, .. } => Some(*understood_as),
                _ => None,
            })
            .collect()
    };
    for key in ["useragent", "user agent", "user_agent", "user-agents"] {
        let robots = Robots::parse(format!("{key}: *\nDisallow: /x\n"));
        assert!(!robots.is_allowed("bot", "/x"), "{key}");
        assert_eq!(understood(&robots), [Directive::UserAgent], "{key}");
    }
    for key in [
        "disalow",
        "dissallow",
        "dissalow",
        "diasllow",
        "disallaw",
        "dis-allow",
    ] {
        let robots = Robots::parse(format!("User-agent: *\n{key}: /x\n"));
        assert!(!robots.is_allowed("bot", "/x"), "{key}");
        assert_eq!(understood(&robots), [Directive::Disallow], "{key}");
    }
    for key in ["site-map", "site map", "sitemaps"] {
        let robots = Robots::parse(format!("{key}: https://example.com/s.xml\n"));
        assert_eq!(
            robots.sitemaps().collect::<Vec<_>>(),
            ["https://example.com/s.xml"],
            "{key}"
        );
        assert_eq!(understood(&robots), [Directive::Sitemap], "{key}");
    }
    for key in ["crawldelay", "crawl delay", "crawl_delay"] {
        let robots = Robots::parse(format!("User-agent: *\n{key}: 5\n"));
        assert_eq!(
            robots.crawl_delay("bot"),
            Some(Duration::from_secs(5)),
            "{key}"
        );
        assert_eq!(understood(&robots), [Directive::CrawlDelay], "{key}");
    }
    for key in ["requestrate", "request rate", "request_rate"] {
        let robots = Robots::parse(format!("User-agent: *\n{key}: 1/10\n"));
        let rate = robots.request_rate("bot").expect(key);
        assert_eq!(rate.delay(), Duration::from_secs(10), "{key}");
        assert_eq!(understood(&robots), [Directive::RequestRate], "{key}");
    }
}

#[test]
fn keys_read_by_their_start_are_only_those_google_reads_so() {
    // `Allowance` is `Allow`; `Sitemaps-index` a sitemap; but `Hostname`
    // and `Crawl-delayed` are unknown keys, as Google has no such rule.
    let robots = Robots::parse(
        "User-agent: *\nDisallow: /a\nAllowance: /a/b\nSite-maps: https://e.com/s.xml\n\
         Crawl-delayed: 5\nHostname: e.com\n",
    );
    assert!(!robots.is_allowed("bot", "/a/c"));
    assert!(robots.is_allowed("bot", "/a/b"));
    assert_eq!(
        robots.sitemaps().collect::<Vec<_>>(),
        ["https://e.com/s.xml"]
    );
    assert_eq!(robots.crawl_delay("bot"), None);
    assert_eq!(robots.host(), None);
}

#[test]
fn a_missing_colon_is_accepted() {
    let robots = Robots::parse("User-agent *\nDisallow /x\n");
    assert!(!robots.is_allowed("bot", "/x"));
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| w.kind == WarningKind::MissingColon)
    );
    // More than two words without a colon is not a record.
    let robots = Robots::parse("User-agent: *\nDisallow /x /y\n");
    assert!(robots.is_allowed("bot", "/x"));
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| w.line == 2 && w.kind == WarningKind::Unparsable)
    );
    // Only a space or tab stands for the colon, as in Google's parser: a
    // vertical tab or form feed inside is part of a word.
    for (odd, escaped) in [("\x0b", "%0B"), ("\x0c", "%0C")] {
        let robots = Robots::parse(format!("User-agent: *\nDisallow{odd}/x\n"));
        assert!(robots.is_allowed("bot", "/x"));
        assert_eq!(robots.warnings()[0].kind, WarningKind::Unparsable);
        let robots = Robots::parse(format!("User-agent: *\nDisallow /x{odd}y\n"));
        assert!(!robots.is_allowed("bot", format!("/x{escaped}y")));
        assert!(robots.is_allowed("bot", "/x"));
        let robots = Robots::parse(format!("User-agent: *\nDisallow{odd} /x\n"));
        assert!(!robots.is_allowed("bot", "/x"));
        // Between two spaces it is a third word.
        let robots = Robots::parse(format!("User-agent: *\nDisallow {odd} /x\n"));
        assert!(robots.is_allowed("bot", "/x"));
        assert_eq!(robots.warnings()[0].kind, WarningKind::Unparsable);
    }
}

/// A pattern whose text ends with a `%` (eBay's file has `Disallow:
/// /itm/*/%`) matches any percent-escape left there in normal form, as
/// Google's library reads it; a `%` that starts no escape elsewhere is
/// data, `%25`.
#[test]
fn a_pattern_ending_in_a_percent_sign_matches_any_escape() {
    let robots = Robots::parse(
        "User-agent: *\nDisallow: /itm/*/% # eBay\nDisallow: /q%*x\nDisallow: /100%$\nDisallow: /b%E\n",
    );
    for blocked in [
        "/itm/123/%E2%80%A6",
        "/itm/123/%e2%80%a6",
        "/itm/123/ツ",
        "/itm/123/%",
        "/itm/123/%zz",
        "/q%2Fx",
        "/100%",
        "/b%E",
    ] {
        assert!(!robots.is_allowed("bot", blocked), "{blocked}");
    }
    // `%41` is `A` in normal form; `/b%E` is data, not a cut escape.
    for allowed in ["/itm/123/%41", "/itm/123/x", "/100%/x", "/b%E9"] {
        assert!(robots.is_allowed("bot", allowed), "{allowed}");
    }
    let rules: Vec<_> = robots
        .groups()
        .next()
        .unwrap()
        .rules()
        .map(|r| r.normalized().to_owned())
        .collect();
    assert_eq!(rules, ["/itm/*/%", "/q%*x", "/100%25$", "/b%25E"]);
}

#[test]
fn very_long_lines_are_cut_like_googles_parser() {
    // Google's parser's limit, 2083 × 8 − 1, written out: the test must
    // not take its expectation from the constant it checks.
    let limit = 16_663;
    assert_eq!(keepout::limits::MAX_LINE_LEN, limit);
    let long_path = format!("/{}", "a".repeat(limit));
    let body = format!("User-agent: *\nDisallow: {long_path}\nDisallow: /after\n");
    let robots = Robots::parse(&body);
    // The line was cut at the limit, so the rule is a shorter prefix ...
    let kept = limit - "Disallow: ".len();
    assert!(!robots.is_allowed("bot", format!("/{}", "a".repeat(kept - 1))));
    assert!(robots.is_allowed("bot", format!("/{}", "a".repeat(kept - 2))));
    // ... and the next line is still read.
    assert!(!robots.is_allowed("bot", "/after"));
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| w.line == 2 && w.kind == WarningKind::LineTooLong)
    );
    // A line whose cut falls in its comment loses nothing: no warning.
    let body = format!("User-agent: *\nDisallow: /x # {}\n", "why ".repeat(limit));
    let robots = Robots::parse(&body);
    assert!(!robots.is_allowed("bot", "/x"));
    assert!(robots.warnings().is_empty(), "{:?}", robots.warnings());
    // Nor does one cut in the spaces that trimming drops, then a comment.
    let body = format!("User-agent: *\nDisallow: /x{}# why\n", " ".repeat(limit));
    let robots = Robots::parse(&body);
    assert!(!robots.is_allowed("bot", "/x"));
    assert!(robots.warnings().is_empty(), "{:?}", robots.warnings());
}

#[test]
fn bytes_that_are_not_utf8_are_percent_encoded_not_dropped() {
    // Latin-1 "/café" and "/caf\xE9" URLs: the byte is kept as %E9.
    let robots = Robots::parse(b"User-agent: *\nDisallow: /caf\xE9\n");
    assert!(!robots.is_allowed("bot", "/caf%E9"));
    assert!(!robots.is_allowed("bot", "/caf%e9/menu"));
    assert!(robots.is_allowed("bot", "/caf"));
    let rule = robots.groups().next().unwrap().rules().next().unwrap();
    assert_eq!(rule.normalized(), "/caf%E9");
    assert_eq!(rule.pattern(), "/caf\u{FFFD}");
}

/// Each value a crawler uses that holds octets that are not UTF-8 is
/// warned of at its line, through the fast path and the general one
/// (a misspelled key); comments, unknown records, UTF-8 text and a file
/// transcoded from the encoding its `Content-Type` names are not.
#[test]
fn values_that_are_not_utf8_are_warned_about() {
    let body: &[u8] = b"# caf\xE9 comment\n\
        User-agent: Ha\xA2\xE6bot\n\
        Disallow: /caf\xE9\n\
        Disalow: /th\xE9*\n\
        Allow: /caf\xC3\xA9 # \xFF\n\
        Sitemap: https://example.com/caf\xE9.xml\n\
        Sitemap: https://example.com/caf\xC3\xA9.xml\n\
        Host: caf\xE9.example\n\
        Tag: caf\xE9\n\
        Crawl-delay: 1\n\
        User-agent: *\n\
        Disallow: /\x80\n\
        Allow: /ok\n";
    let invalid = |robots: &Robots| -> Vec<u32> {
        let invalid = robots
            .warnings()
            .iter()
            .filter(|w| w.kind == WarningKind::InvalidUtf8);
        invalid.map(|w| w.line).collect()
    };
    let robots = Robots::parse(body);
    assert_eq!(invalid(&robots), [2, 3, 4, 6, 8, 12]);
    let w = robots.warnings().iter().find(|w| w.line == 3).unwrap();
    assert!(
        w.to_string()
            .starts_with("line 3: value holds octets that are not UTF-8"),
        "{w}"
    );
    // The rules are read all the same.
    assert!(!robots.is_allowed("Ha", "/caf%E9"));
    assert!(!robots.is_allowed("bot", "/%80"));
    // Read in the encoding its `Content-Type` names, the file is text.
    let robots = ParseOptions::new()
        .content_type("text/plain; charset=windows-1252")
        .parse(body);
    assert_eq!(invalid(&robots), [], "{:?}", robots.warnings());
    assert!(!robots.is_allowed("Ha", "/café"));
    // UTF-8 cut inside a character by the line length limit is not
    // warned of as such: only `LineTooLong` is.
    let long = format!("User-agent: {}\nDisallow: /x\n", "é".repeat(9_000));
    let robots = Robots::parse(&long);
    assert_eq!(invalid(&robots), [], "{:?}", kinds(&robots));
    assert_eq!(robots.warnings()[0].kind, WarningKind::LineTooLong);
    // But a character made invalid before the cut is.
    let mut long = b"User-agent: bot\nDisallow: /\xE9".to_vec();
    long.extend_from_slice("é".repeat(9_000).as_bytes());
    let robots = Robots::parse(&long);
    assert_eq!(invalid(&robots), [2]);
}

#[test]
fn an_html_page_served_as_robots_txt_allows_everything() {
    let html = "<!DOCTYPE html>\n<html><head><title>Blocked</title></head>\n<body>\n<p>Access denied: contact us.</p>\n</body></html>\n";
    let robots = Robots::parse(html);
    assert!(robots.is_allowed("bot", "/anything"));
    assert_eq!(robots.groups().len(), 0);
}

#[test]
fn html_line_breaks_between_the_lines_are_skipped() {
    // A robots.txt rendered through an HTML template: a `<br />` after
    // every line. Each is a record of no known key (split at its space, as
    // a line without a colon is), which neither ends a group nor starts
    // one: every group keeps its rules.
    let body = "User-agent: *\n<br />\nAllow: /\n<br />\n\
                User-agent: BarBot\n<br />\nDisallow: /\n<br />\n\
                User-agent: MJ12bot\n<br />\nDisallow: /private\n<br />\n\
                Sitemap: https://example.com/sitemap.xml\n";
    let robots = Robots::parse(body);
    assert!(!robots.is_allowed("BarBot", "/x"));
    assert!(!robots.is_allowed("MJ12bot", "/private/x"));
    assert!(robots.is_allowed("MJ12bot", "/x"));
    // `MJ` is not `MJ12bot`: digits belong to the product token.
    assert!(robots.is_allowed("MJ", "/private"));
    assert!(robots.is_allowed("OtherBot", "/private"));
    assert_eq!(
        robots.explain("BarBot", "/x").to_string(),
        "disallowed by line 7 'Disallow: /' (group at line 5: User-agent: BarBot)"
    );
    assert_eq!(
        robots.sitemaps().collect::<Vec<_>>(),
        ["https://example.com/sitemap.xml"]
    );
    // Each tag line is reported, as a line with no colon and an unknown key.
    let tags: Vec<_> = robots
        .warnings()
        .iter()
        .map(|w| (w.line, w.kind.clone()))
        .collect();
    let unknown = WarningKind::UnknownKey { key: "<br".into() };
    let expected: Vec<_> = [2, 4, 6, 8, 10, 12]
        .into_iter()
        .flat_map(|line| [(line, WarningKind::MissingColon), (line, unknown.clone())])
        .collect();
    assert_eq!(tags, expected);
}

#[test]
fn a_group_on_one_line_is_a_star_group_with_no_rules() {
    // Google reads `* anything` as `*`; the rest of the line is its value.
    let robots = Robots::parse("User-agent: * Disallow: /\n");
    assert!(robots.is_allowed("bot", "/x"));
    assert!(robots.groups().next().unwrap().is_global());
}

#[test]
fn garbage_never_panics() {
    let inputs: [&[u8]; 8] = [
        b"",
        b"\xFF\xFE",
        b"\xFE\xFF\x00",
        b":::\n:\n::x",
        b"User-agent:\nDisallow:\nAllow:\n",
        b"\r\r\r\n\n\n\0\0\0",
        b"User-agent: *\nDisallow: %\nDisallow: %%%\nDisallow: %F\nDisallow: *$*$\n",
        b"User-agent: *\nCrawl-delay: -1\nCrawl-delay: 1e999\nRequest-rate: 0/0\n",
    ];
    for input in inputs {
        let robots = Robots::parse(input);
        for url in ["", "/", "%", "*", "$", "/%zz", "http://", "://", "\u{0}"] {
            let _ = robots.is_allowed("bot", url);
            let _ = robots.explain("bot", url).to_string();
        }
        for w in robots.warnings() {
            let _ = w.to_string();
        }
    }
}

/// Lint messages that say what the parser did (session 32's review): an
/// empty user-agent line after rules ends a group rather than being
/// ignored; under MK1996 a leading `*` is no wildcard; rules that match the
/// same paths are not "repeats" unless their normal forms are equal.
#[test]
fn lint_messages_say_what_happened() {
    let text = |robots: &Robots| -> Vec<String> {
        robots.warnings().iter().map(|w| w.to_string()).collect()
    };
    let robots =
        Robots::parse("User-agent: a\nUser-agent:\nDisallow: /x\nUser-agent:\nDisallow: /y\n");
    assert_eq!(
        text(&robots),
        [
            "line 2: empty User-agent value; ignored",
            "line 4: empty User-agent value after rules: it ends the group above, and the rules after it apply to no crawler",
        ]
    );
    assert!(!robots.is_allowed("a", "/x"));
    assert!(robots.is_allowed("a", "/y"));

    let body = "User-agent: *\nDisallow: *\nDisallow: *.pdf\n";
    assert!(Robots::parse(body).warnings().is_empty());
    let literal = ParseOptions::new().mk1996(true).parse(body);
    let lines: Vec<u32> = literal.warnings().iter().map(|w| w.line).collect();
    assert_eq!(lines, [2, 3]);
    assert!(literal.is_allowed("bot", "/x.pdf"));

    // Sitemaps are kept as written, but a value that is not UTF-8 has its
    // octets past ASCII percent-encoded, as a URL carries them.
    let robots = Robots::parse(
        &b"Sitemap: https://example.com/\xFFs\xC3\xA9.xml\nSitemap: https://example.com/\xC3\xA9\n"
            [..],
    );
    let sitemaps: Vec<&str> = robots.sitemaps().collect();
    assert_eq!(
        sitemaps,
        [
            "https://example.com/%FFs%C3%A9.xml",
            "https://example.com/\u{e9}"
        ]
    );

    let robots = Robots::parse(
        "User-agent: *\nDisallow: /a**\nDisallow: /a*$\nDisallow: /%61**\nDisallow: /a**\n",
    );
    let shadowed: Vec<String> = robots
        .shadowed_rules()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(
        shadowed,
        [
            "'Disallow: /a*$' never decides: line 2 'Disallow: /a**' matches the same paths and, earlier, wins the tie",
            "'Disallow: /%61**' never decides: it repeats line 2 'Disallow: /a**' once percent-encoding is normalised (RFC 9309 section 2.2.2)",
            "'Disallow: /a**' never decides: it repeats line 2 'Disallow: /a**'",
        ]
    );
}

#[test]
fn warnings_name_the_line_and_problem() {
    let body = "Disallow: /early\nUser-agent: *\nDisallow: relative\nCrawl-delay: soon\nFrobnicate: yes\nUser-agent: (none)\n";
    let robots = Robots::parse(body);
    let got: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        got,
        [
            "line 1: in no group (no user-agent line naming a crawler before it); ignored",
            "line 3: pattern starts with neither '/' nor a wildcard; it matches no path",
            "line 4: invalid Crawl-delay value; ignored",
            "line 5: unknown key \"Frobnicate\" (kept as a record)",
            "line 6: user-agent value has no product token; no crawler matches it",
        ]
    );
    // Two unknown keys common in real files, and what they are.
    let robots = Robots::parse("Noindex: /drafts/\nhttp://example.com/sitemap.xml\n");
    let got: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        got,
        [
            "line 1: unknown key \"Noindex\" (kept as a record): no robots.txt rule, which crawlers ignore (Google since 2019); noindex belongs in a page's robots meta tag or X-Robots-Tag header",
            "line 2: a URL with no key (read as key \"http\", kept as a record); a Sitemap line?",
        ]
    );
    // Not only a rule: any line that needs a group; and an empty
    // user-agent line names no crawler, so begins none.
    let robots = Robots::parse("Crawl-delay: 5\nUser-agent:\nRequest-rate: 1/5\nUser-agent: *\n");
    let got: Vec<String> = robots.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        got,
        [
            "line 1: in no group (no user-agent line naming a crawler before it); ignored",
            "line 2: empty User-agent value; ignored",
            "line 3: in no group (no user-agent line naming a crawler before it); ignored",
        ]
    );
}

/// The last group can end a file with no rule line (only the last: a
/// user-agent line after anything but a rule joins the group). A crawler
/// it alone names obeys it, so may fetch everything, while a `*` group's
/// rules would have kept it out (theguardian.com's `bingbot` and
/// walmart.com's `Adsbot-Google` in the corpus): warned, and said by
/// `explain`.
#[test]
fn a_last_group_without_rules_is_warned_about() {
    let warned = |body: &str| -> Vec<u32> {
        Robots::parse(body)
            .warnings()
            .iter()
            .filter(|w| w.kind == WarningKind::GroupWithoutRules)
            .map(|w| w.line)
            .collect()
    };
    let star = "User-agent: *\nDisallow: /search\n\n";
    let body = format!("{star}User-agent: bingbot\nCrawl-delay: 1\nCrawl-delay: 2\n");
    let robots = Robots::parse(&body);
    // In line order, though found once the file is read.
    assert_eq!(
        kinds(&robots),
        [
            (4, &WarningKind::GroupWithoutRules),
            (
                6,
                &WarningKind::Duplicate {
                    directive: Directive::CrawlDelay
                }
            ),
        ]
    );
    assert_eq!(
        robots.warnings()[0].to_string(),
        "line 4: last group has no allow or disallow line: a crawler named only here may fetch everything, as the '*' group's rules do not apply to a crawler a group names (an empty 'Disallow:' says so on purpose)"
    );
    assert!(robots.is_allowed("bingbot", "https://example.com/search"));
    assert!(!robots.is_allowed("OtherBot", "https://example.com/search"));
    let d = robots.explain("bingbot", "https://example.com/search");
    assert!(d.star_rules_skipped());
    assert!(
        d.to_string()
            .ends_with("(the '*' group's rules do not apply: a group names this crawler)")
    );

    // Several user-agent lines, blank lines and comments between: one group.
    assert_eq!(
        warned(&format!(
            "{star}User-agent: a\n\n# b too\nUser-agent: b\nCrawl-delay: 5\n"
        )),
        [4]
    );
    // A group at the end with nothing after its user-agent line.
    assert_eq!(warned(&format!("{star}User-agent: a")), [4]);
    // Its crawler has rules in another group (merged, RFC 9309 section
    // 2.2.1), in any case; or only some of its crawlers do.
    let named = "User-agent: a\nUser-agent: LongCrawlerName\nDisallow: /x\n";
    assert!(
        warned(&format!(
            "{star}{named}User-agent: A\nUser-agent: longcrawlername\n"
        ))
        .is_empty()
    );
    assert_eq!(
        warned(&format!("{star}{named}User-agent: a\nUser-agent: c\n")),
        [7]
    );
    assert_eq!(
        warned(&format!("{star}{named}User-agent: LongCrawlerNamf\n")),
        [7]
    );
    // Not warned: an empty `Disallow:` is a rule line, saying "allow all"
    // on purpose; no `*` group has rules; the group names only `*`, or no
    // crawler at all.
    assert!(warned(&format!("{star}User-agent: a\nDisallow:\n")).is_empty());
    assert!(warned("User-agent: a\nCrawl-delay: 1\n").is_empty());
    assert!(warned("User-agent: *\nDisallow:\nUser-agent: a\n").is_empty());
    assert!(warned(&format!("{star}User-agent: *\nCrawl-delay: 1\n")).is_empty());
    assert!(warned(&format!("{star}User-agent: (none)\nCrawl-delay: 1\n")).is_empty());
    // A `*` group later in the file, and a group naming `*` beside the
    // crawler: the crawler still goes without the `*` rules.
    let robots = Robots::parse("User-agent: *\nDisallow: /x\nUser-agent: a\nUser-agent: *\n");
    assert_eq!(
        robots.warnings().iter().map(|w| w.line).collect::<Vec<_>>(),
        [3]
    );
    assert!(robots.is_allowed("a", "/x") && !robots.is_allowed("b", "/x"));
    // No `*` rules skipped for a crawler the `*` group governs, or one
    // whose own rules decide nothing while no `*` group has rules.
    assert!(!robots.explain("b", "/y").star_rules_skipped());
    let robots = Robots::parse("User-agent: a\nDisallow: /x\n");
    assert!(!robots.explain("a", "/y").star_rules_skipped());
    // Nor for a crawler named in the `*` group itself, whose rules then
    // apply; but a second `*` group's do not.
    let robots = Robots::parse("User-agent: a\nUser-agent: *\nDisallow: /x\n");
    let d = robots.explain("a", "/y");
    assert!(!d.star_rules_skipped() && !d.to_string().contains("do not apply"));
    let robots =
        Robots::parse("User-agent: a\nUser-agent: *\nDisallow: /x\nUser-agent: *\nDisallow: /y\n");
    assert!(robots.explain("a", "/z").star_rules_skipped());
    assert!(robots.is_allowed("a", "/y") && !robots.is_allowed("b", "/y"));
}

/// A value holding a no-break space, a zero-width space or another
/// Unicode space that no parser trims (audible.com's corpus file has nine
/// rules ending in U+00A0): warned, and escaped where rules are displayed.
#[test]
fn unicode_spaces_in_values_are_warned_about_and_shown() {
    let body = "User-agent: *\nDisallow: /library\u{a0}\nAllow: /a\u{200b}b\nDisallow: /\u{3000}x*\nDisallow: /caf\u{e9}\nSitemap: https://example.com/s.xml\u{feff}\nSitemap: https://example.com/\u{e9}.xml\n";
    let robots = Robots::parse(body);
    let space = |character| WarningKind::UnicodeSpace { character };
    assert_eq!(
        kinds(&robots),
        [
            (2, &space('\u{a0}')),
            (3, &space('\u{200b}')),
            (4, &space('\u{3000}')),
            (6, &space('\u{feff}')),
        ]
    );
    assert_eq!(
        robots.warnings()[0].to_string(),
        "line 2: value holds U+00A0, a Unicode space or invisible character that parsers do not trim: it is part of the value (a pattern then matches only paths holding %C2%A0 there, and a sitemap URL names another file)"
    );
    // As Google's parser reads it: the character is part of the pattern.
    assert!(robots.is_allowed("bot", "https://example.com/library"));
    assert!(!robots.is_allowed("bot", "https://example.com/library%C2%A0/x"));
    let d = robots.explain("bot", "https://example.com/library%C2%A0/x");
    assert_eq!(
        d.to_string(),
        "disallowed by line 2 'Disallow: /library\\u{a0}' (group at line 1: User-agent: *)"
    );
    // The pattern as written keeps it.
    assert_eq!(d.rule().unwrap().pattern(), "/library\u{a0}");
    // The same octets written through the general path (a misspelled key).
    let robots = Robots::parse("User-agent: *\nDisalow: /x\u{a0}\n");
    assert!(
        robots
            .warnings()
            .iter()
            .any(|w| (w.line, &w.kind) == (2, &space('\u{a0}')))
    );
    // Written percent-encoded, on purpose: no warning; nor under MK1996.
    assert!(
        Robots::parse("User-agent: *\nDisallow: /x%C2%A0\n")
            .warnings()
            .is_empty()
    );
    let literal = ParseOptions::new()
        .mk1996(true)
        .parse("User-agent: *\nDisallow: /x\u{2009}\n");
    assert_eq!(literal.warnings()[0].kind, space('\u{2009}'));
    // Octets that are not UTF-8 beside it do not hide it.
    let robots = Robots::parse(&b"User-agent: *\nDisallow: /\xff\xc2\xa0\n"[..]);
    assert_eq!(robots.warnings()[0].kind, space('\u{a0}'));
}

/// A pattern holding an ASCII control character (DOS's end-of-file `^Z`
/// after the last rule, say) matches only paths holding it, percent-encoded:
/// warned as an invisible character (until session 60 it was not).
#[test]
fn control_characters_in_patterns_are_warned_about() {
    let body = "User-agent: *\nDisallow: /p\u{1a}\nDisallow: /a\u{1b}[0m\nAllow: /tab\there\nDisallow: /del\u{7f}\n";
    let robots = Robots::parse(body);
    let space = |character| WarningKind::UnicodeSpace { character };
    assert_eq!(
        kinds(&robots),
        [
            (2, &space('\u{1a}')),
            (3, &space('\u{1b}')),
            (5, &space('\u{7f}'))
        ]
    );
    assert_eq!(
        robots.warnings()[0].to_string(),
        "line 2: value holds U+001A, a control character that parsers do not trim: it is part of the value (it matches only paths holding %1A there)"
    );
    assert!(robots.is_allowed("bot", "https://example.com/p"));
    assert!(!robots.is_allowed("bot", "https://example.com/p%1A"));
    // Under MK1996 too; written percent-encoded, no warning.
    let literal = ParseOptions::new().mk1996(true).parse(body);
    assert_eq!(literal.warnings()[0].kind, space('\u{1a}'));
    assert!(
        Robots::parse("User-agent: *\nDisallow: /p%1A\n")
            .warnings()
            .is_empty()
    );
}

/// A byte order mark inside a file, where two files were joined into one,
/// makes the key it precedes unknown (as in Google's parser): the warning
/// says why.
#[test]
fn a_byte_order_mark_inside_a_file_is_named_in_its_warning() {
    let robots =
        Robots::parse("User-agent: *\nDisallow: /a\n\u{feff}User-agent: b\nDisallow: /b\n");
    assert_eq!(
        robots.warnings()[0].to_string(),
        "line 3: unknown key \"\\u{feff}User-agent\" (kept as a record): it starts with a byte order mark (U+FEFF), as where files were joined into one, so the line was not read as \"User-agent\""
    );
    assert!(!robots.is_allowed("OtherBot", "/b"));
}

/// An `'` in a pattern's query is read as a client sends it, `%27`, as a
/// URL's is: on the fast path and the lenient one (a misspelled key), in a
/// small group and in one large enough for a prefix index, before and
/// after a wildcard. The pattern as written is kept for explanations.
#[test]
fn a_quote_in_a_patterns_query_is_read_as_sent() {
    let rules = "Disallow: /find?q='\nDisalow: /a?x='*'y\nAllow: /a?x='ok\n";
    let filler: String = (0..40).map(|i| format!("Disallow: /filler{i}\n")).collect();
    for body in [
        format!("User-agent: *\n{rules}"),
        format!("User-agent: *\n{filler}{rules}"),
    ] {
        let robots = Robots::parse(&body);
        for (url, allowed) in [
            ("/find?q='", false),
            ("/find?q=%27x", false),
            ("https://example.com/find?q='", false),
            ("/a?x='1'y", false),
            ("/a?x=%27-%27y", false),
            ("/a?x='ok", true),
            ("/a?x='1", true),
            ("/find?q=x", true),
        ] {
            assert_eq!(robots.is_allowed("bot", url), allowed, "{url}");
        }
        let d = robots.explain("bot", "/find?q='");
        let rule = d.rule().expect("a rule decides");
        assert_eq!(
            (rule.pattern(), rule.normalized()),
            ("/find?q='", "/find?q=%27")
        );
    }
    // In the last sixteen octets of the body, which are read one by one.
    for end in ["", "\n", " # note"] {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: /z?'{end}"));
        assert!(!robots.is_allowed("bot", "/z?'"), "{end:?}");
    }
}
