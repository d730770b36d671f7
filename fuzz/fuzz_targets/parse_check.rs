//! Parse arbitrary bytes (RFC 9309 and MK1996 options, a body limit, a
//! charset label) and ask arbitrary questions: nothing panics, and every
//! way of asking agrees.
//!
//! Input: `body [0x1F agent [0x1F url]...]`; a plain robots.txt is a body.
#![no_main]

use keepout::{ParseOptions, Robots, WarningKind};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let input = common::split(data);
    let default = Robots::parse(input.body);
    let mk1996 = ParseOptions::new().mk1996(true).parse(input.body);
    for robots in [&default, &mk1996] {
        common::check_structure(robots, input.body);
        let (agents, urls) = common::probes(robots, &input);
        for agent in &agents {
            for url in &urls {
                common::check_question(robots, agent, url);
            }
        }
    }
    // Both options read the same lines into the same groups and rules.
    assert_eq!(default.groups().len(), mk1996.groups().len());
    // And warn alike, but that under MK1996 a pattern may also be unrooted
    // for starting with `*`, which is no wildcard there.
    let unrooted = |r: &Robots| -> Vec<u32> {
        r.warnings()
            .iter()
            .filter(|w| w.kind == WarningKind::PatternNotRooted)
            .map(|w| w.line)
            .collect()
    };
    let others = |r: &Robots| -> Vec<keepout::Warning> {
        r.warnings()
            .iter()
            .filter(|w| w.kind != WarningKind::PatternNotRooted)
            .cloned()
            .collect()
    };
    assert_eq!(others(&default), others(&mk1996));
    let literal = unrooted(&mk1996);
    assert!(unrooted(&default).iter().all(|l| literal.contains(l)));
    for (a, b) in default.groups().zip(mk1996.groups()) {
        assert_eq!(a.rules().len(), b.rules().len());
        assert!(
            a.rules()
                .zip(b.rules())
                .all(|(x, y)| x.line() == y.line() && x.kind() == y.kind())
        );
    }
    // A body limit somewhere in the body (chosen by its length): no panic,
    // and the parsed text never runs past the limit (but for UTF-16, whose
    // text is transcoded after the cut) nor ends inside a line.
    let limit = input.body.len() / 2 + input.body.len() % 7;
    let cut = ParseOptions::new().body_limit(limit).parse(input.body);
    common::check_structure(&cut, input.body);
    let utf16 = cut
        .warnings()
        .iter()
        .any(|w| matches!(w.kind, WarningKind::NotUtf8 { .. }));
    if input.body.len() <= limit {
        assert_eq!(cut.body_len(), default.body_len());
    } else if !utf16 {
        assert!(cut.body_len() <= limit);
        if cut.body_len() > 0 {
            assert!(matches!(input.body[cut.body_len() - 1], b'\n' | b'\r'));
        }
    }

    // A charset label (chosen by the body's length): a body it does not
    // transcode reads as without it; one it does reads as its UTF-8 text
    // (as the fetcher makes it) would.
    const LABELS: [&str; 6] = [
        "text/plain; charset=latin1",
        "text/plain; charset=utf-16",
        "text/plain; charset=UTF-16BE",
        "text/plain; charset=gbk",
        "text/plain; charset=shift_jis",
        "text/plain; charset=utf-8",
    ];
    let label = LABELS[input.body.len() % LABELS.len()];
    let labelled = ParseOptions::new().content_type(label).parse(input.body);
    let encoding = |r: &Robots| {
        r.warnings().iter().find_map(|w| match w.kind {
            WarningKind::NotUtf8 { encoding } => Some(encoding),
            _ => None,
        })
    };
    let reading = |r: &Robots| -> Vec<String> {
        let rules = r.groups().flat_map(|g| g.rules().map(|x| x.to_string()));
        let warnings = r
            .warnings()
            .iter()
            .filter(|w| !matches!(w.kind, WarningKind::NotUtf8 { .. }))
            .map(|w| w.to_string());
        rules.chain(warnings).collect()
    };
    if encoding(&labelled) == encoding(&default) {
        assert_eq!(reading(&labelled), reading(&default));
    } else {
        let header = http::HeaderValue::from_static(label);
        let text = keepout::__fuzz::to_utf8(input.body.to_vec(), Some(&header), false);
        // Text that the parser would take for UTF-16 again is left out.
        if keepout::__fuzz::utf16_by_shape(&text).is_none() {
            let again = Robots::parse(&text);
            common::check_structure(&again, &text);
            assert_eq!(reading(&labelled), reading(&again));
        }
    }
});
