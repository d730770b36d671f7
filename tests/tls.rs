//! Fetches over TLS from a real TLS server on loopback, with the
//! certificates in `tests/data/tls` (`make.sh` there says how they were
//! made): a certificate the fetcher is told to trust is fetched from, and
//! each kind of certificate failure is unreachable (disallow all, RFC 9309
//! section 2.3.1.4) with a reason that says in words what was wrong.
#![cfg(feature = "fetch")]

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use common::{RULES, assert_disallow_all, assert_rules, result};
use keepout::fetch::{FetchResult, UnreachableReason};
use keepout::{Fetcher, Robots};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::aws_lc_rs;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

const CA: &[u8] = include_bytes!("data/tls/ca.pem");
const KEY: &[u8] = include_bytes!("data/tls/leaf.key");
/// For 127.0.0.1 and `localhost`, signed by the test authority.
const LOCALHOST: &[u8] = include_bytes!("data/tls/localhost.pem");
/// For `other.test` only.
const OTHER: &[u8] = include_bytes!("data/tls/other.pem");
/// For 127.0.0.1, valid in the year 2000 only.
const EXPIRED: &[u8] = include_bytes!("data/tls/expired.pem");

/// A TLS server on loopback presenting `leaf` (then the authority's
/// certificate), answering every request with [`RULES`].
async fn tls_server(leaf: &[u8]) -> SocketAddr {
    let chain = [leaf, CA]
        .iter()
        .map(|pem| CertificateDer::from_pem_slice(pem).unwrap())
        .collect();
    let key = PrivateKeyDer::from_pem_slice(KEY).unwrap();
    let config = ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(socket).await else {
                    return;
                };
                let _ = tls.read(&mut [0u8; 4096]).await;
                let response = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{RULES}",
                    RULES.len()
                );
                let _ = tls.write_all(response.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    addr
}

/// A fetcher whose client trusts the test authority besides the system's.
fn trusting_fetcher() -> Fetcher {
    let ca = reqwest::Certificate::from_pem(CA).unwrap();
    let client = Fetcher::client_builder()
        .tls_certs_merge([ca])
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    Fetcher::builder().client(client).build().unwrap()
}

/// A fetcher trusting the system's authorities only.
fn system_fetcher() -> Fetcher {
    Fetcher::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap()
}

async fn fetch(fetcher: &Fetcher, base: &str) -> Robots {
    fetcher.fetch(format!("{base}/page")).await.unwrap()
}

/// The reason of a fetch that failed in the TLS layer.
fn tls_reason(robots: &Robots) -> &str {
    match result(robots) {
        FetchResult::Unreachable(UnreachableReason::Tls(text)) => text,
        other => panic!("not a TLS failure: {other:?}"),
    }
}

#[tokio::test]
async fn a_certificate_from_a_trusted_authority_is_fetched_from() {
    let base = format!("https://{}", tls_server(LOCALHOST).await);

    let robots = fetch(&trusting_fetcher(), &base).await;

    assert_eq!(result(&robots), &FetchResult::Fetched);
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn an_unknown_issuer_is_unreachable_and_says_why() {
    let base = format!("https://{}", tls_server(LOCALHOST).await);

    let robots = fetch(&system_fetcher(), &base).await;

    assert_eq!(
        tls_reason(&robots),
        "certificate not trusted: its issuer is unknown or self-signed, or the server \
         left out an intermediate certificate (invalid peer certificate: UnknownIssuer)"
    );
    assert_disallow_all(&robots, &base);
    let outcome = robots.fetch_outcome().unwrap().to_string();
    assert!(
        outcome.contains("TLS failed: certificate not trusted"),
        "{outcome}"
    );
}

#[tokio::test]
async fn a_certificate_for_another_name_names_both() {
    let addr = tls_server(OTHER).await;
    for host in ["127.0.0.1", "localhost"] {
        let base = format!("https://{host}:{}", addr.port());

        let robots = fetch(&trusting_fetcher(), &base).await;

        assert_eq!(
            tls_reason(&robots),
            format!("certificate for other.test, not for {host}")
        );
        assert_disallow_all(&robots, &base);
    }
}

#[tokio::test]
async fn an_expired_certificate_gives_its_date_and_this_machines() {
    let base = format!("https://{}", tls_server(EXPIRED).await);

    // Trusted or not, the dates are reported: a wrong clock is the cause
    // the reader must be able to see.
    for fetcher in [trusting_fetcher(), system_fetcher()] {
        let robots = fetch(&fetcher, &base).await;

        let reason = tls_reason(&robots);
        assert!(
            reason.starts_with(
                "certificate expired Mon, 01 Jan 2001 00:00:00 GMT (this machine's clock reads "
            ) && reason.ends_with(" GMT)"),
            "{reason}"
        );
        assert_disallow_all(&robots, &base);
    }
}
