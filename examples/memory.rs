//! How much memory a parsed robots.txt keeps, against its body size, over the
//! real corpus: `cargo run --release --example memory [-- --all]`. It reads
//! the 346 robots.txt files; `--all` adds the 3 that are not (an icon and
//! two HTML pages served as robots.txt).
//!
//! For every file it prints the body size, `Robots::heap_bytes()`, and the
//! truth measured by a counting global allocator: the heap bytes still live
//! after `Robots::parse` returned (the parse's temporaries are freed by
//! then), which includes the `Arc` that holds the parsed value (each file
//! is parsed once before, so that the parser's per-thread scratch arrays
//! are not counted as its own). Then the
//! median ratios and the totals, and the bytes of the prefix indexes that
//! an agent handle builds for the `*` groups.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

use keepout::Robots;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// wrapper only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Relaxed);
        // SAFETY: same layout as our caller gave us.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Relaxed);
        // SAFETY: same layout as our caller gave us.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Relaxed);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Relaxed);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn live() -> isize {
    LIVE.load(Relaxed)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

const NOT_ROBOTS: [&str; 3] = [
    "301_www.pch.com.txt",
    "302_www.regmovies.com.txt",
    "303_www.efirstbank.com.txt",
];

fn main() {
    let all = std::env::args_os().any(|a| a == "--all");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data/corpus")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt") && (all || !NOT_ROBOTS.contains(&n.as_str())))
        .collect();
    names.sort();

    println!(
        "{:<40} {:>9} {:>10} {:>10} {:>7} {:>7} {:>10}",
        "file", "body", "heap_bytes", "measured", "h/body", "m/body", "index"
    );
    let (mut body_total, mut heap_total, mut measured_total, mut index_total) = (0, 0, 0, 0);
    let (mut heap_ratios, mut measured_ratios) = (Vec::new(), Vec::new());
    let mut worst_gap = (0isize, String::new());
    for name in &names {
        let body = std::fs::read(dir.join(name)).unwrap();
        // Parsed once first: the parser's scratch arrays, kept per thread
        // between parses (at most 32 KiB each), grow to this file's needs
        // then, and are not counted as what the second parse keeps.
        drop(Robots::parse(&body));
        let before = live();
        let robots = Robots::parse(&body);
        let measured = live() - before;
        let heap = robots.heap_bytes() as isize;
        let before = live();
        let _ = robots.agent("x");
        let index = live() - before;
        let body_len = body.len() as isize;
        if (measured - heap).abs() > worst_gap.0.abs() {
            worst_gap = (measured - heap, name.clone());
        }
        body_total += body_len;
        heap_total += heap;
        measured_total += measured;
        index_total += index;
        if body_len > 0 {
            heap_ratios.push(heap as f64 / body_len as f64);
            measured_ratios.push(measured as f64 / body_len as f64);
        }
        println!(
            "{:<40} {:>9} {:>10} {:>10} {:>7.3} {:>7.3} {:>10}",
            name,
            body_len,
            heap,
            measured,
            heap as f64 / body_len.max(1) as f64,
            measured as f64 / body_len.max(1) as f64,
            index
        );
    }
    println!();
    println!("files: {}", names.len());
    println!(
        "median retained/body: heap_bytes() {:.3}, measured {:.3}",
        median(heap_ratios),
        median(measured_ratios)
    );
    println!(
        "total: body {body_total} B, heap_bytes() {heap_total} B ({:.3} of body), measured {measured_total} B ({:.3} of body)",
        heap_total as f64 / body_total as f64,
        measured_total as f64 / body_total as f64
    );
    println!(
        "prefix indexes of the `*` groups (built by robots.agent(\"x\")): {index_total} B in total ({:.3} of body)",
        index_total as f64 / body_total as f64
    );
    println!(
        "largest gap between measured and heap_bytes(): {} B ({})",
        worst_gap.0, worst_gap.1
    );
}
