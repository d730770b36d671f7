//! Checks allocate nothing when the URL is already in normal form, and
//! exactly one buffer (the normalised copy of the path) when it is not;
//! and the indexes that checks build stay within a bound of the file.
//!
//! A counting global allocator counts the allocations (and the bytes still
//! held) of the current thread, so tests running in parallel do not
//! disturb each other.

#[path = "../benches/corpus/mod.rs"]
mod corpus;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use keepout::Robots;

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated less bytes freed.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: the slot may be gone while a thread shuts down.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

fn live(delta: isize) {
    let _ = LIVE.try_with(|n| n.set(n.get() + delta));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// wrapper only counts calls in a const-initialised thread-local (which
// itself never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        live(layout.size() as isize);
        // SAFETY: same layout as our caller gave us.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        live(layout.size() as isize);
        // SAFETY: same layout as our caller gave us.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        live(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        live(new_size as isize - layout.size() as isize);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCS.with(Cell::get);
    let out = std::hint::black_box(f());
    (ALLOCS.with(Cell::get) - before, out)
}

/// A conservative test of "already in normal form" for the path and query
/// of an absolute URL: printable ASCII that percent-normalisation keeps as
/// is (RFC 3986 unreserved and reserved characters, less `*` and `$`), and
/// no `%` at all; and read as written by a client: no dot segment, and no
/// `'` in the query (sent as `%27`).
fn plainly_normal(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = &rest[rest.find(['/', '?']).unwrap_or(rest.len())..];
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let dot_segment = path.split('/').any(|s| s == "." || s == "..");
    !path.is_empty()
        && !dot_segment
        && !query.contains('\'')
        && path
            .bytes()
            .chain(query.bytes())
            .all(|b| b.is_ascii_alphanumeric() || b"-._~:/?#[]@!&'()+,;=".contains(&b))
}

#[test]
fn no_allocation_per_check_over_the_corpus() {
    let (mut plain, mut other) = (0usize, 0usize);
    for file in corpus::load() {
        let robots = Robots::parse(&file.body);
        // The handle builds the prefix indexes of its large groups, once
        // (which `robots.is_allowed` then uses too).
        let handle = robots.agent(corpus::AGENT);
        for url in corpus::urls_for(&file.body) {
            let (a, via_handle) = allocations(|| handle.is_allowed(&url));
            let (b, via_robots) = allocations(|| robots.is_allowed(corpus::AGENT, &url));
            assert_eq!(via_handle, via_robots, "{} {url}", file.name);
            if plainly_normal(&url) {
                plain += 1;
                assert_eq!((a, b), (0, 0), "{}: {url}", file.name);
            } else {
                other += 1;
                // At most the normalised copy of the path, and the URL as
                // a client reads it where that differs (`/a/../b`).
                assert!(a <= 2 && b <= 2, "{}: {url}: {a} {b}", file.name);
            }
        }
    }
    assert!(plain > 10_000, "{plain} plain URLs");
    eprintln!("{plain} plain URLs checked without allocating; {other} others");
}

#[test]
fn normalising_a_url_allocates_its_normal_form_once() {
    let body = "User-agent: *\nDisallow: /caf%C3%A9/\nAllow: /a*b$\nDisallow: /%7Euser\n";
    let robots = Robots::parse(body);
    let handle = robots.agent("bot");
    // Already normal: borrowed, nothing allocated.
    for url in [
        "https://example.com/",
        "https://example.com/caf%C3%A9/x",
        "https://example.com/a/%2F/b?x=1&y=2#frag",
        "/relative/path;p?q",
    ] {
        assert_eq!(allocations(|| handle.is_allowed(url)).0, 0, "{url}");
        assert_eq!(allocations(|| robots.is_allowed("bot", url)).0, 0, "{url}");
    }
    // Needs normalising: exactly one allocation, the normal form of the path
    // (and query), whatever the number of octets to rewrite.
    for (url, allowed) in [
        ("https://example.com/café/menu", false),
        ("https://example.com/caf%c3%a9/x", false),
        ("https://example.com/%7euser/x", false),
        ("https://example.com/~user/a b c d", false),
        ("https://example.com/a*b", true),
        ("https://example.com/a%2fb", true),
    ] {
        assert_eq!(
            allocations(|| handle.is_allowed(url)),
            (1, allowed),
            "{url}"
        );
        assert_eq!(
            allocations(|| robots.is_allowed("bot", url)),
            (1, allowed),
            "{url}"
        );
    }
}

/// Bytes still held from what `f` allocated on this thread.
fn held<T>(f: impl FnOnce() -> T) -> (isize, T) {
    let before = LIVE.with(Cell::get);
    let out = std::hint::black_box(f());
    (LIVE.with(Cell::get) - before, out)
}

/// Crawler names each in several groups get one index over their groups
/// (RFC 9309 section 2.2.1 merges them), and names in the same groups share
/// it. Until session 35 each name had its own: 8,000 names in the same two
/// groups of 8,000 rules built 1.5 GB of indexes for a 589 KB file checked
/// under each name. Every answer stays the same.
#[test]
fn names_in_the_same_groups_share_one_index() {
    const NAMES: usize = 1000;
    let agents: String = (0..NAMES)
        .map(|i| format!("User-agent: bot{i}\n"))
        .collect();
    let rules: String = (0..NAMES).map(|i| format!("Disallow: /r{i}/\n")).collect();
    let body =
        format!("{agents}{rules}\nUser-agent: z\nDisallow: /\n\n{agents}Allow: /r1/\n{rules}");
    let robots = Robots::parse(&body);
    let (bytes, answers) = held(|| {
        (0..NAMES)
            .map(|i| {
                let agent = format!("bot{i}");
                let handle = robots.agent(&agent);
                let url = format!("https://example.com/r{i}/open");
                (handle.is_allowed(&url), robots.is_allowed(&agent, &url))
            })
            .collect::<Vec<_>>()
    });
    for (i, &(handle, robots)) in answers.iter().enumerate() {
        // `Allow: /r1/` ties with `Disallow: /r1/`, and wins.
        let want = i == 1;
        assert_eq!((handle, robots), (want, want), "bot{i}");
    }
    // One index over the two groups' 2,001 rules, at 24 bytes a rule: a
    // third of the body (a rule line here is about 15 bytes, and every
    // name is written twice). One a name was 346 times the body.
    let ratio = bytes as f64 / body.len() as f64;
    assert!(
        ratio < 2.0,
        "{bytes} bytes held for a {} byte body",
        body.len()
    );
}
