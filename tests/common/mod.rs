//! Helpers shared by the fetch test files (`fetch`, `fetch_socket`, `tls`,
//! `adversarial`, `cli`): the rules every test server serves, the checks of
//! what a fetched `Robots` allows, and a SOCKS5 proxy.

// Each test binary uses its own subset of these helpers.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use keepout::fetch::FetchResult;
use keepout::{Access, Robots};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the test servers serve: `/private` is disallowed, the rest allowed.
pub const RULES: &str = "User-agent: *\nDisallow: /private\n";
/// The crawler every test asks about.
pub const AGENT: &str = "keepout";

/// The result of a fetch.
pub fn result(robots: &Robots) -> &FetchResult {
    robots.fetch_outcome().expect("fetched").result()
}

/// `RULES` apply to `base`: `/private` is disallowed, the rest allowed.
pub fn assert_rules(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::Rules);
    assert!(!robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(robots.is_allowed(AGENT, format!("{base}/public/x")));
}

/// Everything is allowed (robots.txt unavailable).
pub fn assert_allow_all(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::AllowAll);
    assert!(robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(robots.is_allowed(AGENT, format!("{base}/public/x")));
}

/// Everything is disallowed (robots.txt unreachable).
pub fn assert_disallow_all(robots: &Robots, base: &str) {
    assert_eq!(robots.access(), Access::DisallowAll);
    assert!(!robots.is_allowed(AGENT, format!("{base}/private/x")));
    assert!(!robots.is_allowed(AGENT, format!("{base}/public/x")));
}

/// A SOCKS5 proxy (RFC 1928, no authentication) on loopback that connects
/// every `CONNECT` to `origin`, whatever it names, so host names need not
/// resolve. Returns its address and the destinations asked for, as
/// `host:port` in the form the client sent them (a name for `socks5h`, an
/// address for `socks5`).
pub async fn socks5_proxy(origin: SocketAddr) -> (SocketAddr, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let log = Arc::clone(&log);
            tokio::spawn(socks5_session(client, origin, log));
        }
    });
    (addr, asked)
}

/// One SOCKS5 session: the method choice, a `CONNECT` request (its
/// destination logged), then bytes relayed both ways between the client and
/// `origin` until either closes.
async fn socks5_session(
    mut client: TcpStream,
    origin: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
) -> std::io::Result<()> {
    // Greeting: version 5, then the methods offered; choose 0, none.
    let mut head = [0u8; 2];
    client.read_exact(&mut head).await?;
    let mut methods = vec![0u8; usize::from(head[1])];
    client.read_exact(&mut methods).await?;
    assert_eq!(head[0], 5, "a SOCKS5 greeting");
    assert!(methods.contains(&0), "no authentication offered");
    client.write_all(&[5, 0]).await?;
    // Request: version, command (1: CONNECT), reserved, address type.
    let mut request = [0u8; 4];
    client.read_exact(&mut request).await?;
    assert_eq!(request[..2], [5, 1], "a CONNECT request");
    let host = match request[3] {
        1 => {
            let mut ip = [0u8; 4];
            client.read_exact(&mut ip).await?;
            std::net::Ipv4Addr::from(ip).to_string()
        }
        3 => {
            let len = usize::from(client.read_u8().await?);
            let mut name = vec![0u8; len];
            client.read_exact(&mut name).await?;
            String::from_utf8(name).expect("an ASCII host name")
        }
        4 => {
            let mut ip = [0u8; 16];
            client.read_exact(&mut ip).await?;
            format!("[{}]", std::net::Ipv6Addr::from(ip))
        }
        other => panic!("address type {other}"),
    };
    let port = client.read_u16().await?;
    log.lock().unwrap().push(format!("{host}:{port}"));
    let mut upstream = TcpStream::connect(origin).await?;
    // Succeeded, bound to 0.0.0.0:0.
    client.write_all(&[5, 0, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
    Ok(())
}
