//! Inputs that once broke keepout, or nearly did, found while writing and
//! running the fuzz targets under `fuzz/`. Each test names what went wrong;
//! inputs too awkward to inline live in `tests/data/regressions/`.

use keepout::{GroupView, Robots, RuleView};

/// The views' iterators borrowed the view they came from, not just the
/// parsed file (Rust 2024 captures every lifetime in scope in `impl Trait`),
/// so `robots.groups().flat_map(|g| g.rules())` did not compile. Found
/// writing the fuzz targets; fixed with `use<'a>` bounds.
#[test]
fn view_iterators_outlive_their_views() {
    let robots = Robots::parse("User-agent: a\nUser-agent: b\nDisallow: /x\nAllow: /x/y\n");
    let rules: Vec<RuleView<'_>> = robots.groups().flat_map(|g| g.rules()).collect();
    assert_eq!(rules.len(), 2);
    let agents: Vec<&str> = robots.groups().flat_map(|g| g.agents()).collect();
    assert_eq!(agents, ["a", "b"]);
    let from_agent: Vec<GroupView<'_>> = {
        let bot = robots.agent("a");
        bot.groups().collect()
    };
    assert_eq!(from_agent.len(), 1);
    let from_decision: Vec<GroupView<'_>> = {
        let d = robots.explain("b", "/x/y/z");
        d.groups().collect()
    };
    assert_eq!(from_decision[0].line(), 1);
}
