//! Hostile, broken and strange HTTP servers, in one place (issue 7).
//!
//! Every server here is a raw loopback `TcpListener` running a script of
//! bytes, pauses, stalls and resets per request ([`serve`]), so it can break
//! HTTP in ways a mock server cannot. Each test checks four things:
//!
//! 1. the RFC 9309 outcome ([`FetchResult`] with its reason);
//! 2. the rules that follow from it, through `is_allowed` on a path the
//!    served rules disallow (`/private/x`) and one they allow (`/public/x`);
//! 3. that the fetch returned within the fetcher's timeout plus a margin;
//! 4. for bodies, that no more than the body cap was read: `body_bytes()` is
//!    at most the cap, and the server could not push more than the cap plus
//!    what the kernel's socket buffers hold.
//!
//! `tests/fetch_socket.rs` already covers a stall after the headers, a body
//! dribbled every 20 ms, a short body closed early, resets mid-body, an
//! endless chunked body in large chunks, a gzip bomb, TLS, refused and DNS
//! failures; the cases here are the rest of the issue's list.
//!
//! | issue item | tests |
//! |---|---|
//! | redirect loops and chains to http/https/ftp/data:/file: | `redirect_chain_http_http_https_ends_at_the_tls_failure`, `redirect_loop_between_two_ports_is_unavailable`, `endless_redirect_chain_stops_after_the_limit`, `redirects_to_other_schemes_are_unavailable_and_not_followed`, `redirect_with_an_endless_body_is_followed_without_reading_it` |
//! | relative, empty, garbage `Location` | `relative_and_scheme_relative_locations_are_resolved`, `empty_location_is_unavailable`, `garbage_location_is_unavailable`, `control_bytes_in_location` |
//! | stall after the status line | `stall_after_the_status_line_times_out`, `silent_server_times_out` |
//! | one byte per second | `body_dribbled_one_byte_per_second_times_out`, `head_dribbled_one_byte_per_second_times_out` |
//! | endless chunked body | `endless_body_in_tiny_chunks_is_cut_at_the_cap`, `endless_line_is_cut_at_the_cap_and_dropped`, `error_status_with_an_endless_body_is_not_read` |
//! | gzip bomb | `deflate_bomb_chunked_is_inflated_only_to_the_cap`, `brotli_bomb_is_inflated_only_to_the_cap`, and the reverse, `gzip_that_inflates_to_nothing_is_downloaded_only_to_the_cap` |
//! | Content-Length smaller / larger | `content_length_smaller_than_the_body_ignores_the_rest`, `content_length_larger_than_the_body_is_truncated`, `content_length_with_the_limit_raised_is_no_allocation_either`, `content_length_beyond_the_cap_reads_only_the_cap`, `invalid_content_length_is_unreachable` |
//! | reset mid-body | `reset_mid_headers_is_unreachable`, `reset_mid_compressed_body_is_unreachable` |
//! | invalid HTTP | `invalid_status_lines_are_unreachable`, `undefined_status_999_is_unreachable`, `binary_noise_is_unreachable`, `http09_body_without_status_line_is_unreachable`, `malformed_chunking_is_unreachable`, `lenient_but_valid_framing_is_fetched` |
//! | 1xx responses | `informational_responses_then_ok_is_fetched`, `processing_forever_times_out`, `unsolicited_switching_protocols_is_unreachable` |
//! | huge headers | `endless_header_lines_are_refused`, `one_huge_header_line_is_refused`, `too_many_headers_are_refused` |
//! | (also) hostile caching headers | `hostile_caching_headers_are_capped_at_a_day` |
#![cfg(feature = "fetch")]

use std::io::{Read as _, Write as _};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::StatusCode;
use keepout::Robots;
use keepout::fetch::{FetchResult, Fetcher, UnavailableReason, UnreachableReason};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What well-behaved parts of the servers serve: `/private` is off limits.
mod common;
use common::{RULES, assert_allow_all, assert_disallow_all, assert_rules, result};
/// The fetcher timeout where a timeout is the expected outcome.
const SHORT: Duration = Duration::from_millis(300);
/// The fetcher timeout where the fetch should end on its own long before
/// (it takes milliseconds; this only bounds a failing test on a loaded box).
const LONG: Duration = Duration::from_secs(10);
/// How late past its timeout a fetch may return on a loaded machine.
const MARGIN: Duration = Duration::from_secs(2);

/// Bounds that make every server stop by itself.
const MAX_CONNECTIONS: usize = 32;
const MAX_REQUESTS_PER_CONNECTION: usize = 16;
const CONNECTION_LIFETIME: Duration = Duration::from_secs(20);
/// The most an endless stream writes if nobody hangs up.
const ENDLESS: usize = 1 << 30;

// ---------------------------------------------------------------------------
// The scripted server

/// One thing a server does while answering a request.
enum Step {
    /// Write these bytes.
    Send(Vec<u8>),
    /// Write each piece in turn, until they run out or the client hangs up.
    Stream(Box<dyn Iterator<Item = Vec<u8>> + Send>),
    /// Write these bytes one at a time, pausing before each.
    Dribble(Vec<u8>, Duration),
    /// Wait, then go on.
    Pause(Duration),
    /// Say nothing more; wait for the client to hang up.
    Hold,
    /// Close the connection (FIN).
    Close,
    /// Abort the connection (RST).
    Reset,
}

fn send(bytes: impl AsRef<[u8]>) -> Step {
    Step::Send(bytes.as_ref().to_vec())
}

/// `piece` written over and over, `times` times at most.
fn repeat(piece: impl AsRef<[u8]>, times: usize) -> Step {
    Step::Stream(Box::new(std::iter::repeat_n(
        piece.as_ref().to_vec(),
        times,
    )))
}

/// A request as the server saw it.
struct Request {
    /// Which connection (0, 1, ...) it came on.
    connection: usize,
    /// The request target, e.g. `/robots.txt`.
    path: String,
}

/// What a server did, for assertions.
#[derive(Default)]
struct Log {
    connections: AtomicUsize,
    /// Bytes the server managed to hand to the kernel.
    written: AtomicU64,
    paths: Mutex<Vec<String>>,
}

struct Server {
    addr: SocketAddr,
    log: Arc<Log>,
}

impl Server {
    fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn port(&self) -> u16 {
        self.addr.port()
    }

    fn connections(&self) -> usize {
        self.log.connections.load(Ordering::SeqCst)
    }

    fn written(&self) -> u64 {
        self.log.written.load(Ordering::SeqCst)
    }

    fn paths(&self) -> Vec<String> {
        self.log.paths.lock().unwrap().clone()
    }
}

/// Starts a loopback server that answers each request with the steps
/// `script` returns for it. After the steps the connection stays open for
/// the next request (keep-alive) unless a step ended it. Accepting, requests
/// per connection and each connection's life are bounded, and everything
/// ends with the test's runtime.
async fn serve<F>(script: F) -> Server
where
    F: Fn(&Request) -> Vec<Step> + Send + Sync + 'static,
{
    start(TcpListener::bind("127.0.0.1:0").await.unwrap(), script)
}

/// Runs [`serve`]'s loop on a listener already bound.
fn start<F>(listener: TcpListener, script: F) -> Server
where
    F: Fn(&Request) -> Vec<Step> + Send + Sync + 'static,
{
    let addr = listener.local_addr().unwrap();
    let log = Arc::new(Log::default());
    let script = Arc::new(script);
    let server_log = Arc::clone(&log);
    tokio::spawn(async move {
        for connection in 0..MAX_CONNECTIONS {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            server_log.connections.fetch_add(1, Ordering::SeqCst);
            let script = Arc::clone(&script);
            let log = Arc::clone(&server_log);
            tokio::spawn(tokio::time::timeout(
                CONNECTION_LIFETIME,
                run_connection(socket, connection, script, log),
            ));
        }
    });
    Server { addr, log }
}

async fn run_connection<F>(mut socket: TcpStream, connection: usize, script: Arc<F>, log: Arc<Log>)
where
    F: Fn(&Request) -> Vec<Step>,
{
    for _ in 0..MAX_REQUESTS_PER_CONNECTION {
        let Some(path) = read_request(&mut socket).await else {
            return;
        };
        log.paths.lock().unwrap().push(path.clone());
        for step in script(&Request { connection, path }) {
            match step {
                Step::Send(bytes) => {
                    if !write_counted(&mut socket, &bytes, &log).await {
                        return;
                    }
                }
                Step::Stream(pieces) => {
                    for piece in pieces {
                        if !write_counted(&mut socket, &piece, &log).await {
                            return;
                        }
                        // Let the client run on a single-threaded runtime.
                        tokio::task::yield_now().await;
                    }
                }
                Step::Dribble(bytes, gap) => {
                    for byte in bytes {
                        tokio::time::sleep(gap).await;
                        if !write_counted(&mut socket, &[byte], &log).await {
                            return;
                        }
                    }
                }
                Step::Pause(pause) => tokio::time::sleep(pause).await,
                Step::Hold => {
                    let mut sink = [0u8; 4096];
                    while let Ok(1..) = socket.read(&mut sink).await {}
                    return;
                }
                Step::Close => {
                    let _ = socket.shutdown().await;
                    return;
                }
                Step::Reset => {
                    let _ = socket.set_zero_linger();
                    return;
                }
            }
        }
    }
}

/// Reads one request head; returns its target, or `None` once the client
/// has hung up. Bytes that do not start like an HTTP request (a TLS
/// handshake) are answered at once, as a request for `<not http>`.
async fn read_request(socket: &mut TcpStream) -> Option<String> {
    let mut head: Vec<u8> = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        if head.first().is_some_and(|b| !b.is_ascii_uppercase()) {
            return Some("<not http>".into());
        }
        if head.len() > 16 * 1024 {
            return None;
        }
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let line = String::from_utf8_lossy(&head);
    Some(line.split(' ').nth(1).unwrap_or_default().to_owned())
}

/// Writes `bytes`, counting what the kernel accepted; false once the client
/// is gone.
async fn write_counted(socket: &mut TcpStream, mut bytes: &[u8], log: &Log) -> bool {
    while !bytes.is_empty() {
        match socket.write(bytes).await {
            Ok(0) | Err(_) => return false,
            Ok(n) => {
                log.written.fetch_add(n as u64, Ordering::SeqCst);
                bytes = &bytes[n..];
            }
        }
    }
    true
}

// ---------------------------------------------------------------------------
// Responses and checks

/// A response head: status line, then `headers` (raw lines without CRLF).
fn head(status: &str, headers: &[&str]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status}\r\n");
    for header in headers {
        out.push_str(header);
        out.push_str("\r\n");
    }
    out.push_str("\r\n");
    out.into_bytes()
}

/// A complete `200 OK` response with `body`.
fn ok(body: &str) -> Step {
    let mut response = head(
        "200 OK",
        &[
            "Content-Type: text/plain",
            &format!("Content-Length: {}", body.len()),
        ],
    );
    response.extend_from_slice(body.as_bytes());
    Step::Send(response)
}

/// A redirect with a `Location` given as raw bytes, and no body.
fn redirect(status: u16, location: &[u8]) -> Step {
    let mut response = format!("HTTP/1.1 {status} Redirect\r\nLocation: ").into_bytes();
    response.extend_from_slice(location);
    response.extend_from_slice(b"\r\nContent-Length: 0\r\n\r\n");
    Step::Send(response)
}

fn fetcher(timeout: Duration) -> Fetcher {
    Fetcher::builder().timeout(timeout).build().unwrap()
}

/// Fetches the robots.txt of `base`, checking it ended within the fetcher's
/// timeout (plus a margin for a loaded machine).
async fn fetch(fetcher: &Fetcher, base: &str) -> Robots {
    let started = Instant::now();
    let robots = fetcher.fetch(format!("{base}/page")).await.unwrap();
    let took = started.elapsed();
    assert!(
        took < fetcher.timeout() + MARGIN,
        "{base}: fetch took {took:?} with a timeout of {:?}",
        fetcher.timeout()
    );
    robots
}

fn assert_unavailable(robots: &Robots, base: &str, reason: &UnavailableReason) {
    assert_eq!(
        result(robots),
        &FetchResult::Unavailable(reason.clone()),
        "{base}"
    );
    assert_allow_all(robots, base);
}

fn assert_timeout(robots: &Robots, base: &str) {
    assert_eq!(
        result(robots),
        &FetchResult::Unreachable(UnreachableReason::Timeout),
        "{base}"
    );
    assert_disallow_all(robots, base);
}

/// Unreachable for a broken response (not a timeout: the fetch must have
/// noticed the breakage itself), with no status.
fn assert_broken(robots: &Robots, base: &str, case: &str) {
    let outcome = robots.fetch_outcome().unwrap();
    assert!(
        outcome.result().is_unreachable()
            && outcome.result() != &FetchResult::Unreachable(UnreachableReason::Timeout),
        "{case}: {outcome}"
    );
    assert_eq!(outcome.status(), None, "{case}: {outcome}");
    assert_disallow_all(robots, base);
}

/// A body cut at the cap: fetched, truncated, exactly `cap` bytes read, and
/// the server could push no more than the cap (times `expansion`, for
/// framing) plus the socket buffers between it and the fetcher.
fn assert_cut_at_cap(robots: &Robots, fetcher: &Fetcher, server: &Server, expansion: u64) {
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
    assert!(outcome.truncated_at_cap(), "{outcome}");
    assert!(outcome.body_bytes() <= fetcher.body_limit(), "{outcome}");
    let bound = fetcher.body_limit() as u64 * expansion + socket_slack();
    assert!(
        server.written() <= bound,
        "the server pushed {} bytes; bound {bound}",
        server.written()
    );
}

/// The most bytes that can sit between a server and a client that stopped
/// reading: the largest loopback send and receive buffers the kernel
/// autotunes to (`tcp_wmem`, `tcp_rmem` maxima), plus hyper's read buffer
/// and decoder buffers (well under 2 MiB).
fn socket_slack() -> u64 {
    let max_of = |file: &str| {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| text.split_whitespace().nth(2)?.parse::<u64>().ok())
            .unwrap_or(32 << 20)
    };
    max_of("/proc/sys/net/ipv4/tcp_rmem") + max_of("/proc/sys/net/ipv4/tcp_wmem") + (2 << 20)
}

// ---------------------------------------------------------------------------
// Redirects

#[tokio::test]
async fn redirect_chain_http_http_https_ends_at_the_tls_failure() {
    // The last hop speaks plain HTTP on an https URL: the handshake fails,
    // which is unreachable, and shows the chain was followed to its end.
    let tls = serve(|_| vec![send(head("400 Bad Request", &[])), Step::Close]).await;
    let tls_port = tls.port();
    let middle = serve(move |_| {
        let target = format!("https://127.0.0.1:{tls_port}/robots.txt");
        vec![redirect(302, target.as_bytes())]
    })
    .await;
    let middle_port = middle.port();
    let origin = serve(move |_| {
        let target = format!("http://127.0.0.1:{middle_port}/hop");
        vec![redirect(301, target.as_bytes())]
    })
    .await;
    let base = origin.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert!(
        matches!(
            outcome.result(),
            FetchResult::Unreachable(UnreachableReason::Tls(_))
        ),
        "{outcome}"
    );
    assert_eq!(outcome.redirects(), 2);
    assert_eq!(
        outcome.final_url().as_str(),
        format!("https://127.0.0.1:{tls_port}/robots.txt")
    );
    assert_eq!(origin.paths(), ["/robots.txt"]);
    assert_eq!(middle.paths(), ["/hop"]);
    assert_eq!(tls.paths(), ["<not http>"]);
    assert_disallow_all(&robots, &base);
}

#[tokio::test]
async fn relative_and_scheme_relative_locations_are_resolved() {
    // /robots.txt -> /real.txt -> ../x (= /x) -> //127.0.0.1:B/y
    //   -> z.txt?from=y#frag (= /z.txt?from=y on B) -> the rules.
    let second = serve(|request| match request.path.as_str() {
        "/y" => vec![redirect(308, b"z.txt?from=y#frag")],
        "/z.txt?from=y" => vec![ok(RULES)],
        _ => vec![send(head("404 Not Found", &["Content-Length: 0"]))],
    })
    .await;
    let second_port = second.port();
    let first = serve(move |request| match request.path.as_str() {
        "/robots.txt" => vec![redirect(301, b"/real.txt")],
        "/real.txt" => vec![redirect(302, b"../x")],
        "/x" => {
            let target = format!("//127.0.0.1:{second_port}/y");
            vec![redirect(307, target.as_bytes())]
        }
        _ => vec![send(head("404 Not Found", &["Content-Length: 0"]))],
    })
    .await;
    let base = first.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
    assert_eq!(outcome.redirects(), 4);
    assert_eq!(
        outcome.final_url().as_str(),
        format!("http://127.0.0.1:{second_port}/z.txt?from=y")
    );
    assert_eq!(first.paths(), ["/robots.txt", "/real.txt", "/x"]);
    assert_eq!(second.paths(), ["/y", "/z.txt?from=y"]);
    // The rules govern the site asked about, not the one that served them.
    assert_eq!(outcome.robots_url().as_str(), format!("{base}/robots.txt"));
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn redirects_to_other_schemes_are_unavailable_and_not_followed() {
    // A listener that must never see a connection, as the target of the
    // ftp redirect.
    let bystander = serve(|_| vec![ok(RULES)]).await;
    let cases = [
        (
            format!("ftp://127.0.0.1:{}/robots.txt", bystander.port()),
            "ftp",
        ),
        (
            "data:text/plain,User-agent:%20*%0ADisallow:%20/public".to_owned(),
            "data",
        ),
        ("file:///etc/passwd".to_owned(), "file"),
        ("file://localhost/etc/hostname".to_owned(), "file"),
        ("javascript:alert(1)".to_owned(), "javascript"),
        ("mailto:robots@example.com".to_owned(), "mailto"),
    ];
    for (location, scheme) in cases {
        let server = serve(move |_| vec![redirect(302, location.as_bytes())]).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        assert_unavailable(
            &robots,
            &base,
            &UnavailableReason::UnsupportedRedirectScheme(scheme.into()),
        );
        // Nothing was fetched from the target: a `file:` or `data:` body
        // would have shown up as rules.
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.redirects(), 0);
        assert_eq!(outcome.body_bytes(), 0);
        assert_eq!(server.paths(), ["/robots.txt"]);
    }
    assert_eq!(bystander.connections(), 0);
}

#[tokio::test]
async fn empty_location_is_unavailable() {
    for location in [&b""[..], b"   ", b"\t"] {
        let server = serve(move |_| vec![redirect(301, location)]).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        assert_unavailable(&robots, &base, &UnavailableReason::MissingLocation);
        assert_eq!(server.paths(), ["/robots.txt"]);
    }
}

#[tokio::test]
async fn garbage_location_is_unavailable() {
    let cases: [&[u8]; 6] = [
        b"http://[::1",
        b"http://exa mple.com/robots.txt",
        b"http://",
        b"http://127.0.0.1:99999/robots.txt",
        b"http://%zz/",
        // Octets that are not UTF-8 in the host.
        b"http://\xff\xfe/robots.txt",
    ];
    for location in cases {
        let server = serve(move |_| vec![redirect(302, location)]).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        let shown = String::from_utf8_lossy(location);
        assert!(
            matches!(
                result(&robots),
                FetchResult::Unavailable(UnavailableReason::InvalidLocation(_))
            ),
            "{shown:?}: {:?}",
            result(&robots)
        );
        assert_allow_all(&robots, &base);
        assert_eq!(server.paths(), ["/robots.txt"], "{shown:?}");
    }
}

#[tokio::test]
async fn control_bytes_in_location() {
    // A control byte (C0 or DEL) in a header value is not HTTP: the
    // response is refused as a whole, so nothing says it was a redirect.
    for location in [&b"/a\x01b.txt"[..], b"/a\x7fb.txt", b"/a\x00b.txt"] {
        let server = serve(move |_| vec![redirect(301, location)]).await;
        let base = server.base();
        let robots = fetch(&fetcher(LONG), &base).await;
        assert_broken(&robots, &base, &format!("{location:?}"));
    }

    // Raw UTF-8 (not allowed in a URL, but common) is percent-encoded and
    // followed.
    let server = serve(|request| match request.path.as_str() {
        "/robots.txt" => vec![redirect(301, "/caf\u{e9}.txt".as_bytes())],
        _ => vec![ok(RULES)],
    })
    .await;
    let base = server.base();
    let robots = fetch(&fetcher(LONG), &base).await;
    assert_eq!(result(&robots), &FetchResult::Fetched);
    assert_eq!(server.paths(), ["/robots.txt", "/caf%C3%A9.txt"]);
    assert_rules(&robots, &base);

    // So are octets that are not UTF-8 (Latin-1), as sent: the server gets
    // back the octets it named.
    for (location, requested) in [
        (&b"/caf\xe9.txt"[..], "/caf%E9.txt"),
        (b"\xff\xfe/robots.txt", "/%FF%FE/robots.txt"),
    ] {
        let server = serve(|request| match request.path.as_str() {
            "/robots.txt" => vec![redirect(301, location)],
            _ => vec![ok(RULES)],
        })
        .await;
        let base = server.base();
        let robots = fetch(&fetcher(LONG), &base).await;
        assert_eq!(result(&robots), &FetchResult::Fetched);
        assert_eq!(server.paths(), ["/robots.txt", requested]);
        assert_rules(&robots, &base);
    }
}

#[tokio::test]
async fn redirect_loop_between_two_ports_is_unavailable() {
    let a_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let a_port = a_listener.local_addr().unwrap().port();
    // B sends everything back to A's robots.txt; A sends it to B's.
    let b = serve(move |_| {
        let target = format!("http://127.0.0.1:{a_port}/robots.txt");
        vec![redirect(302, target.as_bytes())]
    })
    .await;
    let b_port = b.port();
    let a = start(a_listener, move |_| {
        let target = format!("http://127.0.0.1:{b_port}/robots.txt");
        vec![redirect(301, target.as_bytes())]
    });
    let base = a.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_unavailable(&robots, &base, &UnavailableReason::RedirectLoop);
    assert_eq!(robots.fetch_outcome().unwrap().redirects(), 1);
    // One request each: the loop was seen before going round again.
    assert_eq!(a.paths(), ["/robots.txt"]);
    assert_eq!(b.paths(), ["/robots.txt"]);
}

#[tokio::test]
async fn endless_redirect_chain_stops_after_the_limit() {
    // Every answer is a redirect to a URL not seen before.
    let server = serve(|request| {
        let n: u32 = request.path.trim_start_matches("/hop").parse().unwrap_or(0);
        let next = format!("/hop{}", n + 1);
        vec![redirect(307, next.as_bytes())]
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_unavailable(&robots, &base, &UnavailableReason::TooManyRedirects);
    let limit = usize::from(fetcher.max_redirects());
    assert_eq!(
        robots.fetch_outcome().unwrap().redirects(),
        fetcher.max_redirects()
    );
    // The first request and `limit` redirects; the last one is not followed.
    assert_eq!(server.paths().len(), 1 + limit);
}

#[tokio::test]
async fn redirect_with_an_endless_body_is_followed_without_reading_it() {
    let server = serve(|request| match request.path.as_str() {
        "/robots.txt" => vec![
            send(head(
                "301 Moved Permanently",
                &["Location: /real.txt", "Transfer-Encoding: chunked"],
            )),
            repeat(format!("4000\r\n{}\r\n", "#".repeat(0x4000)), ENDLESS >> 14),
        ],
        _ => vec![ok(RULES)],
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
    assert_eq!(outcome.redirects(), 1);
    assert_rules(&robots, &base);
    // The redirect's body was dropped unread, so its connection could not
    // be reused: the rules came on a second one.
    assert_eq!(server.connections(), 2);
    assert!(server.written() <= socket_slack(), "{}", server.written());
}

// ---------------------------------------------------------------------------
// Stalls and dribbles

#[tokio::test]
async fn stall_after_the_status_line_times_out() {
    let server = serve(|_| vec![send("HTTP/1.1 200 OK\r\n"), Step::Hold]).await;
    let base = server.base();

    let robots = fetch(&fetcher(SHORT), &base).await;

    assert_timeout(&robots, &base);
    // The head never completed, so there is no status.
    assert_eq!(robots.fetch_outcome().unwrap().status(), None);
}

#[tokio::test]
async fn silent_server_times_out() {
    let server = serve(|_| vec![Step::Hold]).await;
    let base = server.base();

    let robots = fetch(&fetcher(SHORT), &base).await;

    assert_timeout(&robots, &base);
    assert_eq!(server.paths(), ["/robots.txt"]);
}

#[tokio::test]
async fn body_dribbled_one_byte_per_second_times_out() {
    let server = serve(|_| {
        vec![
            send(head(
                "200 OK",
                &[&format!("Content-Length: {}", RULES.len())],
            )),
            Step::Dribble(RULES.into(), Duration::from_secs(1)),
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(SHORT), &base).await;

    assert_timeout(&robots, &base);
    assert_eq!(
        robots.fetch_outcome().unwrap().status(),
        Some(StatusCode::OK)
    );
    assert_eq!(robots.fetch_outcome().unwrap().body_bytes(), 0);
}

#[tokio::test]
async fn head_dribbled_one_byte_per_second_times_out() {
    let server = serve(|_| {
        let mut response = head("200 OK", &[&format!("Content-Length: {}", RULES.len())]);
        response.extend_from_slice(RULES.as_bytes());
        vec![Step::Dribble(response, Duration::from_secs(1))]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(SHORT), &base).await;

    assert_timeout(&robots, &base);
    assert_eq!(robots.fetch_outcome().unwrap().status(), None);
}

// ---------------------------------------------------------------------------
// Endless bodies and bombs

/// The rules, then `Disallow: /private/...` lines of 64 bytes in one chunk
/// each, forever.
#[tokio::test]
async fn endless_body_in_tiny_chunks_is_cut_at_the_cap() {
    let line = format!("Disallow: /private/{}\n", "x".repeat(44));
    let chunk = format!("{:x}\r\n{line}\r\n", line.len());
    let server = serve(move |_| {
        vec![
            send(head("200 OK", &["Transfer-Encoding: chunked"])),
            send(format!("{:x}\r\n{RULES}\r\n", RULES.len())),
            // Many chunks per write, so the server is not the bottleneck.
            repeat(chunk.repeat(256), ENDLESS / (chunk.len() * 256)),
        ]
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    // Chunk framing adds 6 bytes to each 64-byte line: under 2x.
    assert_cut_at_cap(&robots, &fetcher, &server, 2);
    assert_eq!(
        robots.fetch_outcome().unwrap().body_bytes(),
        fetcher.body_limit()
    );
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn endless_line_is_cut_at_the_cap_and_dropped() {
    // One line that never ends: cut at the cap, and as a partial line it is
    // dropped, so `/public` (named in it) stays allowed.
    let server = serve(|_| {
        vec![
            send(head("200 OK", &["Connection: close"])),
            send(format!("{RULES}Disallow: /public")),
            repeat("x".repeat(64 << 10), ENDLESS >> 16),
        ]
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_cut_at_cap(&robots, &fetcher, &server, 1);
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn error_status_with_an_endless_body_is_not_read() {
    for (status, unreachable) in [("404 Not Found", false), ("503 Service Unavailable", true)] {
        let server = serve(move |_| {
            vec![
                send(head(status, &["Content-Length: 1099511627776"])),
                repeat("Disallow: /\n".repeat(4096), ENDLESS / (12 * 4096)),
            ]
        })
        .await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.body_bytes(), 0);
        if unreachable {
            assert_eq!(
                outcome.result(),
                &FetchResult::Unreachable(UnreachableReason::Status(
                    StatusCode::SERVICE_UNAVAILABLE
                ))
            );
            assert_disallow_all(&robots, &base);
        } else {
            assert_unavailable(
                &robots,
                &base,
                &UnavailableReason::Status(StatusCode::NOT_FOUND),
            );
        }
        assert!(server.written() <= socket_slack(), "{}", server.written());
    }
}

/// How a bomb is compressed.
#[derive(Clone, Copy, Debug)]
enum Bomb {
    /// zlib, as HTTP `deflate` means.
    Deflate,
    Brotli,
}

/// The two pieces of a compressed stream that inflates to `RULES` and then
/// as many zero bytes as wanted: a prefix (`RULES` and 64 KiB of zeros),
/// and one flushed segment inflating to 1 MiB of zeros, to be sent over and
/// over. A segment only refers back to earlier zeros, so it decodes the same
/// after any number of copies of itself. The stream's end (and checksum) is
/// never sent: the client must hang up long before.
fn bomb(kind: Bomb) -> (Vec<u8>, Vec<u8>) {
    let zeros = vec![0u8; 1 << 20];
    match kind {
        Bomb::Deflate => {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(RULES.as_bytes()).unwrap();
            z.write_all(&zeros[..64 << 10]).unwrap();
            z.flush().unwrap();
            let prefix = std::mem::take(z.get_mut());
            z.write_all(&zeros).unwrap();
            z.flush().unwrap();
            (prefix, std::mem::take(z.get_mut()))
        }
        Bomb::Brotli => {
            let mut b = brotli::CompressorWriter::new(Vec::new(), 4096, 9, 20);
            b.write_all(RULES.as_bytes()).unwrap();
            b.write_all(&zeros[..64 << 10]).unwrap();
            b.flush().unwrap();
            let prefix = std::mem::take(b.get_mut());
            b.write_all(&zeros).unwrap();
            b.flush().unwrap();
            (prefix, std::mem::take(b.get_mut()))
        }
    }
}

#[test]
fn bomb_streams_inflate_as_claimed() {
    // Decode prefix + 3 segments: `RULES`, then 64 KiB + 3 MiB of zeros.
    for kind in [Bomb::Deflate, Bomb::Brotli] {
        let (prefix, segment) = bomb(kind);
        let mut stream = prefix;
        for _ in 0..3 {
            stream.extend_from_slice(&segment);
        }
        let mut out = Vec::new();
        let want = RULES.len() + (64 << 10) + (3 << 20);
        let mut reader: Box<dyn std::io::Read> = match kind {
            Bomb::Deflate => Box::new(flate2::read::ZlibDecoder::new(&stream[..])),
            Bomb::Brotli => Box::new(brotli::Decompressor::new(&stream[..], 4096)),
        };
        // The stream has no end, so read exactly what it must hold.
        let mut buf = vec![0u8; want];
        reader.read_exact(&mut buf).unwrap();
        out.extend_from_slice(&buf);
        assert!(out.starts_with(RULES.as_bytes()), "{kind:?}");
        assert!(out[RULES.len()..].iter().all(|&b| b == 0), "{kind:?}");
        assert!(segment.len() < 4096, "{kind:?}: {} bytes", segment.len());
    }
}

async fn bomb_server(kind: Bomb, chunked: bool) -> Server {
    let (prefix, segment) = bomb(kind);
    let encoding = match kind {
        Bomb::Deflate => "Content-Encoding: deflate",
        Bomb::Brotli => "Content-Encoding: br",
    };
    let framing = if chunked {
        "Transfer-Encoding: chunked"
    } else {
        "Connection: close"
    };
    let frame = move |bytes: &[u8]| {
        if chunked {
            let mut out = format!("{:x}\r\n", bytes.len()).into_bytes();
            out.extend_from_slice(bytes);
            out.extend_from_slice(b"\r\n");
            out
        } else {
            bytes.to_vec()
        }
    };
    serve(move |_| {
        vec![
            send(head(
                "200 OK",
                &["Content-Type: text/plain", encoding, framing],
            )),
            send(frame(&prefix)),
            repeat(frame(&segment), 1024),
        ]
    })
    .await
}

#[tokio::test]
async fn deflate_bomb_chunked_is_inflated_only_to_the_cap() {
    // 1 GiB of zeros in about 1 MiB of chunked zlib.
    let server = bomb_server(Bomb::Deflate, true).await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_cut_at_cap(&robots, &fetcher, &server, 1);
    assert_eq!(
        robots.fetch_outcome().unwrap().body_bytes(),
        fetcher.body_limit()
    );
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn brotli_bomb_is_inflated_only_to_the_cap() {
    // 1 GiB of zeros in a few KiB of brotli, read until the client hangs up.
    let server = bomb_server(Bomb::Brotli, false).await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_cut_at_cap(&robots, &fetcher, &server, 1);
    assert_eq!(
        robots.fetch_outcome().unwrap().body_bytes(),
        fetcher.body_limit()
    );
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn gzip_that_inflates_to_nothing_is_downloaded_only_to_the_cap() {
    // A gzip header, then empty stored deflate blocks (RFC 1951 section
    // 3.2.4: not final, stored, length 0), five octets each, forever: valid
    // data, and nothing comes out of it. Counted after decoding alone (as
    // until session 12), it was downloaded until the timeout, hundreds of
    // MiB; the cap now counts the octets as they arrive too.
    let server = serve(|_| {
        vec![
            send(head(
                "200 OK",
                &["Content-Encoding: gzip", "Connection: close"],
            )),
            send([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]),
            repeat([0u8, 0, 0, 0xff, 0xff].repeat(13 << 10), ENDLESS >> 16),
        ]
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_cut_at_cap(&robots, &fetcher, &server, 1);
    // Nothing was inflated: an empty file, no rules.
    assert_eq!(robots.fetch_outcome().unwrap().body_bytes(), 0);
    assert_eq!(robots.groups().count(), 0);
    assert!(robots.is_allowed("keepout", format!("{base}/private/x")));
}

// ---------------------------------------------------------------------------
// Content-Length

#[tokio::test]
async fn content_length_smaller_than_the_body_ignores_the_rest() {
    // After the declared length come a line that would disallow /public,
    // and then a whole second response disallowing everything. Neither may
    // count: not for this fetch, and not for the next one, which must not
    // take the leftovers on the connection for its answer.
    let server = serve(|request| {
        if request.connection == 0 {
            let mut bytes = head("200 OK", &[&format!("Content-Length: {}", RULES.len())]);
            bytes.extend_from_slice(RULES.as_bytes());
            bytes.extend_from_slice(b"Disallow: /public\n");
            bytes.extend_from_slice(&head("200 OK", &["Content-Length: 25"]));
            bytes.extend_from_slice(b"User-agent: *\nDisallow: /");
            vec![Step::Send(bytes), Step::Pause(Duration::from_millis(100))]
        } else {
            vec![ok(RULES)]
        }
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    for _ in 0..2 {
        let robots = fetch(&fetcher, &base).await;

        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
        assert_eq!(outcome.body_bytes(), RULES.len());
        assert!(!outcome.truncated_at_cap());
        assert_rules(&robots, &base);
    }
    // The leftovers made the first connection unusable: the second fetch
    // opened a new one.
    assert_eq!(server.connections(), 2);
}

#[tokio::test]
async fn content_length_larger_than_the_body_is_truncated() {
    // 1 TiB announced, a short body, then the end: nothing may trust the
    // length with an allocation, and the body is cut short.
    let server = serve(|_| {
        vec![
            send(head("200 OK", &["Content-Length: 1099511627776"])),
            send(RULES),
            Step::Close,
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_eq!(
        result(&robots),
        &FetchResult::Unreachable(UnreachableReason::TruncatedBody {
            expected: 1 << 40,
            received: RULES.len() as u64,
        })
    );
    assert_disallow_all(&robots, &base);
}

#[tokio::test]
async fn content_length_with_the_limit_raised_is_no_allocation_either() {
    // With no body limit to bound it, 2^62 announced must not become an
    // allocation (that would abort the process, not panic).
    let server = serve(|_| {
        vec![
            send(head("200 OK", &["Content-Length: 4611686018427387904"])),
            send(RULES),
            Step::Close,
        ]
    })
    .await;
    let base = server.base();
    let fetcher = Fetcher::builder()
        .timeout(LONG)
        .body_limit(usize::MAX)
        .build()
        .unwrap();

    let robots = fetch(&fetcher, &base).await;

    assert_eq!(
        result(&robots),
        &FetchResult::Unreachable(UnreachableReason::TruncatedBody {
            expected: 1 << 62,
            received: RULES.len() as u64,
        })
    );
    assert_disallow_all(&robots, &base);
}

#[tokio::test]
async fn content_length_beyond_the_cap_reads_only_the_cap() {
    // 1 TiB announced, and the body keeps coming: only the cap is read.
    let server = serve(|_| {
        vec![
            send(head("200 OK", &["Content-Length: 1099511627776"])),
            send(RULES),
            repeat("# filler\n".repeat(8192), ENDLESS / (9 * 8192)),
        ]
    })
    .await;
    let base = server.base();
    let fetcher = fetcher(LONG);

    let robots = fetch(&fetcher, &base).await;

    assert_cut_at_cap(&robots, &fetcher, &server, 1);
    assert_eq!(
        robots.fetch_outcome().unwrap().body_bytes(),
        fetcher.body_limit()
    );
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn invalid_content_length_is_unreachable() {
    let cases: [&[&str]; 5] = [
        &["Content-Length: 5", "Content-Length: 10"],
        &["Content-Length: -1"],
        &["Content-Length: lots"],
        // u64::MAX, which hyper reserves, and past it.
        &["Content-Length: 18446744073709551615"],
        &["Content-Length: 99999999999999999999999"],
    ];
    for headers in cases {
        let server =
            serve(move |_| vec![send(head("200 OK", headers)), send(RULES), Step::Close]).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        assert_broken(&robots, &base, &format!("{headers:?}"));
    }
}

// ---------------------------------------------------------------------------
// Resets

#[tokio::test]
async fn reset_mid_headers_is_unreachable() {
    let server = serve(|_| {
        vec![
            send("HTTP/1.1 200 OK\r\nContent-Type: text/pl"),
            Step::Pause(Duration::from_millis(20)),
            Step::Reset,
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "reset mid-headers");
}

#[tokio::test]
async fn reset_mid_compressed_body_is_unreachable() {
    // The rules and comment lines, compressed, of which only the first half
    // arrives: the inflater is mid-stream when the connection is reset.
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(RULES.as_bytes()).unwrap();
    for n in 0..2000 {
        writeln!(z, "# comment line {n}").unwrap();
    }
    let compressed = z.finish().unwrap();
    let server = serve(move |_| {
        vec![
            send(head(
                "200 OK",
                &["Content-Encoding: deflate", "Connection: close"],
            )),
            send(&compressed[..compressed.len() / 2]),
            Step::Pause(Duration::from_millis(20)),
            Step::Reset,
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert!(
        matches!(
            outcome.result(),
            FetchResult::Unreachable(UnreachableReason::Body(_))
        ),
        "{outcome}"
    );
    assert_eq!(outcome.status(), Some(StatusCode::OK));
    assert_disallow_all(&robots, &base);
}

// ---------------------------------------------------------------------------
// Invalid HTTP

#[tokio::test]
async fn invalid_status_lines_are_unreachable() {
    let cases: [&[u8]; 9] = [
        b"HTTP/1.1 OK\r\n\r\n",
        b"HTTP/1.1 000 Zero\r\n\r\n",
        b"HTTP/1.1 20 OK\r\n\r\n",
        b"HTTP/1.1 2000 OK\r\n\r\n",
        b"HTTP/2.0 200 OK\r\n\r\n",
        b"HTTP/1.1200 OK\r\n\r\n",
        b"ICY 200 OK\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
    ];
    for response in cases {
        let server = serve(move |_| vec![send(response), send(RULES), Step::Close]).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        assert_broken(&robots, &base, &String::from_utf8_lossy(response));
    }
}

#[tokio::test]
async fn undefined_status_999_is_unreachable() {
    // Three digits, so valid HTTP, but no defined class: treated like a
    // server error, and its body is not read.
    let server = serve(|_| {
        vec![
            send(head(
                "999 Whatever",
                &[&format!("Content-Length: {}", RULES.len())],
            )),
            send(RULES),
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_eq!(
        result(&robots),
        &FetchResult::Unreachable(UnreachableReason::Status(
            StatusCode::from_u16(999).unwrap()
        ))
    );
    assert_eq!(robots.fetch_outcome().unwrap().body_bytes(), 0);
    assert_disallow_all(&robots, &base);
}

/// `len` bytes from a fixed xorshift sequence.
fn noise(len: usize) -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

#[tokio::test]
async fn binary_noise_is_unreachable() {
    let server = serve(|_| vec![send(noise(64 << 10)), Step::Hold]).await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "binary noise");
}

#[tokio::test]
async fn http09_body_without_status_line_is_unreachable() {
    // HTTP/0.9 sent the body alone. Nothing says it is robots.txt, or that
    // the exchange succeeded, so it counts as a broken response.
    let server = serve(|_| vec![send(RULES), Step::Close]).await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "HTTP/0.9");
}

#[tokio::test]
async fn malformed_chunking_is_unreachable() {
    let cases: [(&str, Vec<u8>); 3] = [
        ("chunk size not hex", b"zz\r\nUser-agent: *\r\n".to_vec()),
        (
            "chunk size overflowing 64 bits",
            b"fffffffffffffffffffff\r\nUser-agent: *\r\n".to_vec(),
        ),
        (
            "endless chunk extension",
            [b"1;".to_vec(), "x".repeat(1 << 20).into_bytes()].concat(),
        ),
    ];
    for (case, body) in cases {
        let server = serve(move |_| {
            vec![
                send(head("200 OK", &["Transfer-Encoding: chunked"])),
                send(format!("{:x}\r\n{RULES}\r\n", RULES.len())),
                send(&body),
                Step::Hold,
            ]
        })
        .await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        let outcome = robots.fetch_outcome().unwrap();
        assert!(
            matches!(
                outcome.result(),
                FetchResult::Unreachable(UnreachableReason::Body(_))
            ),
            "{case}: {outcome}"
        );
        assert_disallow_all(&robots, &base);
    }
}

#[tokio::test]
async fn lenient_but_valid_framing_is_fetched() {
    let cases: [(&str, Vec<Step>); 3] = [
        (
            "HTTP/1.0, body until close",
            vec![send(format!("HTTP/1.0 200 OK\r\n\r\n{RULES}")), Step::Close],
        ),
        (
            "bare LF line ends",
            vec![send(format!(
                "HTTP/1.1 200 OK\nContent-Length: {}\n\n{RULES}",
                RULES.len()
            ))],
        ),
        (
            "chunked and Content-Length: chunked wins",
            vec![
                send(head(
                    "200 OK",
                    &["Content-Length: 3", "Transfer-Encoding: chunked"],
                )),
                send(format!("{:x}\r\n{RULES}\r\n0\r\n\r\n", RULES.len())),
                Step::Close,
            ],
        ),
    ];
    for (case, steps) in cases {
        let steps = Mutex::new(Some(steps));
        let server = serve(move |_| steps.lock().unwrap().take().unwrap_or_default()).await;
        let base = server.base();

        let robots = fetch(&fetcher(LONG), &base).await;

        assert_eq!(result(&robots), &FetchResult::Fetched, "{case}");
        assert_eq!(
            robots.fetch_outcome().unwrap().body_bytes(),
            RULES.len(),
            "{case}"
        );
        assert_rules(&robots, &base);
    }
}

// ---------------------------------------------------------------------------
// 1xx responses

#[tokio::test]
async fn informational_responses_then_ok_is_fetched() {
    let server = serve(|_| {
        let mut early = head("100 Continue", &[]);
        early.extend(head("102 Processing", &[]));
        early.extend(head(
            "103 Early Hints",
            &["Link: </style.css>; rel=preload; as=style"],
        ));
        vec![
            send(early),
            Step::Pause(Duration::from_millis(20)),
            ok(RULES),
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
    assert_eq!(outcome.status(), Some(StatusCode::OK));
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn processing_forever_times_out() {
    // A `102 Processing` every 10 ms, never a final response; also a flood
    // of them as fast as the socket takes them.
    for pause in [Some(Duration::from_millis(10)), None] {
        let server = serve(move |_| {
            let processing = head("102 Processing", &[]);
            let mut steps = Vec::new();
            match pause {
                Some(pause) => {
                    for _ in 0..1000 {
                        steps.push(send(&processing));
                        steps.push(Step::Pause(pause));
                    }
                }
                None => steps.push(repeat(processing.repeat(1024), ENDLESS / (1024 * 30))),
            }
            steps
        })
        .await;
        let base = server.base();

        let robots = fetch(&fetcher(SHORT), &base).await;

        assert_timeout(&robots, &base);
        assert_eq!(robots.fetch_outcome().unwrap().status(), None);
    }
}

#[tokio::test]
async fn unsolicited_switching_protocols_is_unreachable() {
    // A 101 nobody asked for: not a final answer to a GET, and not a
    // defined class for robots.txt, so it counts as a server error.
    let server = serve(|_| {
        vec![
            send(head(
                "101 Switching Protocols",
                &["Upgrade: websocket", "Connection: Upgrade"],
            )),
            send(RULES),
            Step::Hold,
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(
        outcome.result(),
        &FetchResult::Unreachable(UnreachableReason::Status(StatusCode::SWITCHING_PROTOCOLS))
    );
    assert_eq!(outcome.body_bytes(), 0);
    assert_disallow_all(&robots, &base);
}

// ---------------------------------------------------------------------------
// Huge headers

#[tokio::test]
async fn endless_header_lines_are_refused() {
    // 1 KiB header lines, forever. hyper refuses a response head over about
    // 400 KiB, so the fetch ends with an error long before the timeout and
    // the server can push little more than that.
    let server = serve(|_| {
        let line = format!("X-Padding: {}\r\n", "a".repeat(1010));
        vec![
            send("HTTP/1.1 200 OK\r\n"),
            repeat(line.repeat(64), ENDLESS / (1024 * 64)),
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "endless headers");
    assert!(
        server.written() <= (1 << 20) + socket_slack(),
        "{}",
        server.written()
    );
}

#[tokio::test]
async fn one_huge_header_line_is_refused() {
    let server = serve(|_| {
        vec![
            send("HTTP/1.1 200 OK\r\nX-Huge: "),
            send("a".repeat(1 << 20)),
            send(format!(
                "\r\nContent-Length: {}\r\n\r\n{RULES}",
                RULES.len()
            )),
            Step::Hold,
        ]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "1 MiB header line");
}

#[tokio::test]
async fn too_many_headers_are_refused() {
    // 10,000 tiny headers (about 60 KiB): hyper allows 100.
    let server = serve(|_| {
        let mut response = b"HTTP/1.1 200 OK\r\n".to_vec();
        response.extend("a: b\r\n".repeat(10_000).bytes());
        response.extend(format!("Content-Length: {}\r\n\r\n{RULES}", RULES.len()).bytes());
        vec![Step::Send(response), Step::Hold]
    })
    .await;
    let base = server.base();

    let robots = fetch(&fetcher(LONG), &base).await;

    assert_broken(&robots, &base, "10,000 headers");
}

// ---------------------------------------------------------------------------
// Caching headers

/// Lifetimes past any clock's range, in every header that sets one, and a
/// configured unreachable TTL of `Duration::MAX`: nothing overflows, and
/// nothing stays fresh for more than a day (RFC 9309 section 2.4).
#[tokio::test]
async fn hostile_caching_headers_are_capped_at_a_day() {
    const DAY: Duration = Duration::from_secs(24 * 60 * 60);
    // Each case with how long it stays fresh.
    let cases: [(&str, &[&str], Duration); 7] = [
        (
            "200 OK",
            &["Cache-Control: max-age=18446744073709551615"],
            DAY,
        ),
        (
            "200 OK",
            &["Cache-Control: max-age=99999999999999999999999"],
            DAY,
        ),
        (
            "200 OK",
            &[
                "Expires: Fri, 31 Dec 9999 23:59:59 GMT",
                "Date: Thu, 01 Jan 1970 00:00:00 GMT",
            ],
            DAY,
        ),
        // Older than its max-age when it arrived: stale at once.
        (
            "200 OK",
            &["Age: 18446744073709551615", "Cache-Control: max-age=60"],
            Duration::ZERO,
        ),
        (
            "503 Service Unavailable",
            &["Retry-After: 18446744073709551615"],
            DAY,
        ),
        (
            "503 Service Unavailable",
            &["Retry-After: Fri, 31 Dec 9999 23:59:59 GMT"],
            DAY,
        ),
        ("503 Service Unavailable", &[], DAY),
    ];
    for (status, headers, lifetime) in cases {
        let server = serve(move |_| {
            let mut lines = headers.to_vec();
            let length = format!("Content-Length: {}", RULES.len());
            lines.push(&length);
            let mut response = head(status, &lines);
            response.extend_from_slice(RULES.as_bytes());
            vec![Step::Send(response)]
        })
        .await;
        let base = server.base();
        // The longest unreachable TTL there is: it must not overflow either.
        let fetcher = Fetcher::builder()
            .timeout(LONG)
            .unreachable_ttl(Duration::MAX)
            .build()
            .unwrap();

        let robots = fetch(&fetcher, &base).await;

        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(
            outcome.result().is_unreachable(),
            status.starts_with("503"),
            "{headers:?}: {:?}",
            outcome.result()
        );
        // Not before the fetch either (an overflow saturating to the past
        // would have it fetched again at every lookup).
        let fresh = outcome.expires_at().duration_since(outcome.fetched_at());
        assert_eq!(fresh.ok(), Some(lifetime), "{headers:?}");
    }
}
