//! Parse arbitrary bytes (RFC 9309 and MK1996 options) and ask arbitrary
//! questions: nothing panics, and every way of asking agrees.
//!
//! Input: `body [0x1F agent [0x1F url]...]`; a plain robots.txt is a body.
#![no_main]

use keepout::{ParseOptions, Robots};
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
    assert_eq!(default.warnings(), mk1996.warnings());
    for (a, b) in default.groups().zip(mk1996.groups()) {
        assert_eq!(a.rules().len(), b.rules().len());
        assert!(
            a.rules()
                .zip(b.rules())
                .all(|(x, y)| x.line() == y.line() && x.kind() == y.kind())
        );
    }
});
