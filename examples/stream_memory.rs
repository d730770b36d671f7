//! Measures the memory a fetch costs when the server streams 1 GiB: once as
//! plain text, once as a gzip bomb (1 GiB of zeros, compressed on the fly).
//! Both servers run on loopback in this process.
//!
//! ```text
//! cargo run --example stream_memory -- [plain|gzip]
//! ```
//!
//! Prints the process's peak (VmHWM) and current (VmRSS) resident memory from
//! `/proc/self/status` (Linux) before and after the fetch; run one mode per
//! process to see each peak on its own. The body is a robots.txt group
//! followed by comment lines, so the figure is the cost of reading, not of
//! parsing many rules.

use std::io::Write;
use std::net::SocketAddr;
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

async fn serve(gzip: bool) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(respond(socket, gzip));
        }
    });
    addr
}

async fn respond(mut socket: TcpStream, gzip: bool) {
    let mut request = [0u8; 4096];
    let _ = socket.read(&mut request).await;
    let mut lines = String::from("User-agent: *\nDisallow: /private\n");
    lines.push_str(&"# an endless stream of comment lines\n".repeat(1024));
    if gzip {
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

#[tokio::main]
async fn main() {
    let modes: Vec<String> = match std::env::args().nth(1) {
        Some(mode) => vec![mode],
        None => vec!["plain".into(), "gzip".into()],
    };
    let fetcher = Fetcher::new();
    // Warm up the client, runtime and allocator with a refused connection.
    let closed = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let _ = fetcher.fetch(format!("http://{closed}/")).await;

    for mode in modes {
        let gzip = match mode.as_str() {
            "plain" => false,
            "gzip" => true,
            other => panic!("unknown mode {other:?}: use plain or gzip"),
        };
        let name = if gzip {
            "1 GiB gzip bomb"
        } else {
            "1 GiB plain body"
        };
        let addr = serve(gzip).await;
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
             VmRSS {rss_before} -> {rss_after} KiB; server wrote {} KiB before the hang-up",
            hwm_after.saturating_sub(hwm_before),
            sent / 1024
        );
    }
}
