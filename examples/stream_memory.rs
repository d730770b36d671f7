//! Measures the memory a fetch costs when the server streams 1 GiB: once as
//! plain text, once as a gzip bomb (1 GiB of zeros, compressed on the fly);
//! and when it sends a brotli bomb (64 MiB of line ends in a few hundred
//! octets, compressed before the fetch) declaring a 1 MiB window, the most
//! the fetcher decodes, or a 16 MiB one, which it refuses. The servers run
//! on loopback in this process.
//!
//! ```text
//! cargo run --example stream_memory -- [plain|gzip|br|br24]
//! ```
//!
//! With no mode it runs all four in turn; an unknown one ends it with
//! status 2.
//!
//! Prints the process's peak (VmHWM) and current (VmRSS) resident memory from
//! `/proc/self/status` (Linux) before and after the fetch; run one mode per
//! process to see each peak on its own. (The peak is reset, through
//! `/proc/self/clear_refs`, after a brotli bomb is compressed and before
//! the fetch.) The body is a robots.txt group followed by comment lines
//! (line ends, for brotli), so the figure is the cost of reading, not of
//! parsing many rules.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use keepout::fetch::Fetcher;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const GIB: u64 = 1 << 30;

/// Body bytes the server managed to write (compressed, for the gzip bomb)
/// before the client hung up; most sit unread in socket buffers.
static SENT: AtomicU64 = AtomicU64::new(0);

/// Peak and current resident memory, in KiB.
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// What a server sends.
#[derive(Clone, Copy)]
enum Mode {
    Plain,
    Gzip,
    /// A brotli bomb declaring a window of 2^n octets.
    Brotli(u32),
}

/// A robots.txt group and 64 MiB of line ends, brotli-compressed in one
/// stream declaring a window of 2^`lgwin` octets: a few hundred octets.
fn brotli_bomb(lgwin: u32) -> Vec<u8> {
    let mut br = brotli::CompressorWriter::new(Vec::new(), 4096, 5, lgwin);
    br.write_all(b"User-agent: *\nDisallow: /private\n")
        .unwrap();
    let line_ends = vec![b'\n'; 1 << 20];
    for _ in 0..64 {
        br.write_all(&line_ends).unwrap();
    }
    br.into_inner()
}

async fn serve(mode: Mode, body: Arc<Vec<u8>>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(respond(socket, mode, body.clone()));
        }
    });
    addr
}

async fn respond(mut socket: TcpStream, mode: Mode, body: Arc<Vec<u8>>) {
    let mut request = [0u8; 4096];
    let _ = socket.read(&mut request).await;
    let mut lines = String::from("User-agent: *\nDisallow: /private\n");
    lines.push_str(&"# an endless stream of comment lines\n".repeat(1024));
    if let Mode::Brotli(_) = mode {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        if socket.write_all(head.as_bytes()).await.is_ok() && socket.write_all(&body).await.is_ok()
        {
            SENT.fetch_add(body.len() as u64, Ordering::Relaxed);
        }
    } else if let Mode::Gzip = mode {
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n";
        if socket.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(lines.as_bytes()).unwrap();
        let zeros = vec![0u8; 256 << 10];
        for _ in 0..GIB / zeros.len() as u64 {
            gz.write_all(&zeros).unwrap();
            gz.flush().unwrap();
            let compressed = std::mem::take(gz.get_mut());
            if socket.write_all(&compressed).await.is_err() {
                return;
            }
            SENT.fetch_add(compressed.len() as u64, Ordering::Relaxed);
        }
        let _ = socket.write_all(&gz.finish().unwrap()).await;
    } else {
        let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {GIB}\r\n\r\n");
        if socket.write_all(head.as_bytes()).await.is_err() {
            return;
        }
        let chunk = lines.as_bytes();
        let mut sent = 0u64;
        while sent < GIB {
            let n = chunk.len().min((GIB - sent) as usize);
            if socket.write_all(&chunk[..n]).await.is_err() {
                return;
            }
            sent += n as u64;
            SENT.fetch_add(n as u64, Ordering::Relaxed);
        }
    }
}

/// Each mode's argument, what it sends, and its name in the report.
const MODES: [(&str, Mode, &str); 4] = [
    ("plain", Mode::Plain, "1 GiB plain body"),
    ("gzip", Mode::Gzip, "1 GiB gzip bomb"),
    ("br", Mode::Brotli(20), "64 MiB brotli bomb, 1 MiB window"),
    (
        "br24",
        Mode::Brotli(24),
        "64 MiB brotli bomb, 16 MiB window",
    ),
];

#[tokio::main]
async fn main() {
    let modes = match std::env::args_os().nth(1) {
        Some(arg) => match MODES.iter().find(|(name, ..)| *name == arg) {
            Some(&mode) => vec![mode],
            None => {
                eprintln!("unknown mode {arg:?}: use plain, gzip, br or br24");
                eprintln!("usage: stream_memory [plain|gzip|br|br24]");
                std::process::exit(2);
            }
        },
        None => MODES.to_vec(),
    };
    let fetcher = Fetcher::new();
    // Warm up the client, runtime and allocator with a refused connection.
    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let _ = fetcher.fetch(format!("http://{closed}/")).await;

    for (_, mode, name) in modes {
        let body = Arc::new(match mode {
            Mode::Brotli(lgwin) => {
                let body = brotli_bomb(lgwin);
                // The compressor's peak is not the fetch's (Linux: "5"
                // resets VmHWM to the current resident size).
                let _ = std::fs::write("/proc/self/clear_refs", "5");
                body
            }
            _ => Vec::new(),
        });
        let addr = serve(mode, body).await;
        let (hwm_before, rss_before) = memory();
        let started = Instant::now();
        let robots = fetcher.fetch(format!("http://{addr}/")).await.unwrap();
        let took = started.elapsed();
        let (hwm_after, rss_after) = memory();
        // Let the server notice the hang-up.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let sent = SENT.swap(0, Ordering::Relaxed);
        let outcome = robots.fetch_outcome().unwrap();
        println!("{name}: {outcome}");
        println!(
            "  took {took:?}; VmHWM {hwm_before} -> {hwm_after} KiB (+{} KiB); \
             VmRSS {rss_before} -> {rss_after} KiB; server wrote {sent} bytes before the hang-up",
            hwm_after.saturating_sub(hwm_before),
        );
    }
}
