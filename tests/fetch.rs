//! The fetcher against local HTTP servers (wiremock): statuses, redirects,
//! encodings, caps, expiry and conditional refresh (RFC 9309 section 2.3).
#![cfg(feature = "fetch")]

use std::io::Write;
use std::time::{Duration, SystemTime};

use http::StatusCode;
use keepout::fetch::{FetchResult, Fetcher, UnavailableReason, UnreachableReason};
use keepout::{Access, Error, ParseOptions, Robots, WarningKind};
use wiremock::matchers::{header, header_exists, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// What most servers below serve: `/private` is off limits to everyone.
mod common;
use common::{AGENT, RULES, assert_allow_all, assert_disallow_all, assert_rules, result};

/// A server answering `/robots.txt` with `response`.
async fn serve(response: ResponseTemplate) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(response)
        .mount(&server)
        .await;
    server
}

fn rules_200() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_string(RULES)
}

fn redirect(status: u16, location: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).insert_header("location", location)
}

/// A fetcher whose timeout keeps a broken test from hanging.
fn fetcher() -> Fetcher {
    Fetcher::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap()
}

#[tokio::test]
async fn ok_200_is_parsed_and_the_request_is_right() {
    let server = serve(rules_200()).await;
    let base = server.uri();
    let page = base.replace("http://", "http://user:secret@") + "/some/page?q=1#frag";

    let robots = Robots::fetch(&page).await.unwrap();

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert_eq!(outcome.status(), Some(StatusCode::OK));
    assert_eq!(outcome.robots_url().as_str(), format!("{base}/robots.txt"));
    assert_eq!(outcome.final_url(), outcome.robots_url());
    assert_eq!(outcome.redirects(), 0);
    assert_eq!(outcome.body_bytes(), RULES.len());
    assert!(!outcome.truncated_at_cap());
    assert!(outcome.fetched_at() <= SystemTime::now());
    assert!(!outcome.is_expired());

    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1);
    let seen = &requests[0];
    assert_eq!(seen.url.path(), "/robots.txt");
    assert_eq!(seen.url.query(), None);
    assert!(!seen.headers.contains_key("authorization"));
    let ua = seen.headers.get("user-agent").unwrap().to_str().unwrap();
    assert_eq!(ua, keepout::fetch::DEFAULT_USER_AGENT);
    assert!(ua.starts_with(&format!("keepout/{}", env!("CARGO_PKG_VERSION"))));
    assert_eq!(seen.headers.get("accept").unwrap(), "text/plain");
    let encodings = seen
        .headers
        .get("accept-encoding")
        .unwrap()
        .to_str()
        .unwrap();
    for coding in ["gzip", "deflate"] {
        assert!(encodings.contains(coding), "{encodings}");
    }
    // Not brotli, whose decoder holds the window the stream declares, up
    // to 16 MiB, however little of the body is read.
    assert!(!encodings.contains("br"), "{encodings}");

    assert_rules(&robots, &base);
}

#[tokio::test]
async fn url_inputs_and_errors() {
    let server = serve(rules_200()).await;
    let url = url::Url::parse(&format!("{}/a/b", server.uri())).unwrap();
    assert_rules(&Robots::fetch(&url).await.unwrap(), &server.uri());
    assert_rules(
        &Robots::fetch(url.to_string()).await.unwrap(),
        &server.uri(),
    );

    assert!(matches!(
        Robots::fetch("not a url").await,
        Err(Error::InvalidUrl { .. })
    ));
    let err = Robots::fetch("ftp://127.0.0.1/x").await.unwrap_err();
    assert!(matches!(&err, Error::UnsupportedScheme { scheme, .. } if scheme == "ftp"));
    assert!(err.to_string().contains("ftp"), "{err}");
    assert!(matches!(
        fetcher().refresh(&Robots::parse(RULES)).await,
        Err(Error::NotFetched)
    ));
    assert_eq!(
        fetcher()
            .robots_url("https://u@a.example:81/x?y#z")
            .unwrap()
            .as_str(),
        "https://a.example:81/robots.txt"
    );
}

#[tokio::test]
async fn user_agent_and_product_token_are_configurable() {
    let ua = "ExampleBot/1.2 (+https://example.invalid/bot)";
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .and(header("user-agent", ua))
        .respond_with(
            ResponseTemplate::new(200).set_body_string(
                "User-agent: examplebot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
            ),
        )
        .mount(&server)
        .await;
    let fetcher = Fetcher::builder().user_agent(ua).build().unwrap();
    assert_eq!(fetcher.product_token(), "ExampleBot");

    let robots = fetcher.fetch(server.uri()).await.unwrap();

    assert_eq!(result(&robots), &FetchResult::Fetched);
    let page = format!("{}/page", server.uri());
    assert!(!robots.is_allowed(fetcher.product_token(), &page));
    assert!(robots.is_allowed("OtherBot", &page));
}

#[tokio::test]
async fn client_errors_are_unavailable_allow_all() {
    for code in [400, 401, 403, 404, 410, 451, 300, 305] {
        let server = serve(ResponseTemplate::new(code)).await;
        let robots = fetcher().fetch(server.uri()).await.unwrap();
        let status = StatusCode::from_u16(code).unwrap();
        assert_eq!(
            result(&robots),
            &FetchResult::Unavailable(UnavailableReason::Status(status)),
            "{code}"
        );
        assert_eq!(robots.fetch_outcome().unwrap().status(), Some(status));
        assert_allow_all(&robots, &server.uri());
    }
}

#[tokio::test]
async fn server_errors_and_429_are_unreachable_disallow_all() {
    for code in [500, 502, 503, 504, 429] {
        let server = serve(ResponseTemplate::new(code).insert_header("retry-after", "120")).await;
        let robots = fetcher().fetch(server.uri()).await.unwrap();
        let status = StatusCode::from_u16(code).unwrap();
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(
            outcome.result(),
            &FetchResult::Unreachable(UnreachableReason::Status(status)),
            "{code}"
        );
        // Retry-After decides when to try again.
        let ttl = outcome
            .expires_at()
            .duration_since(outcome.fetched_at())
            .unwrap();
        assert_eq!(ttl, Duration::from_secs(120));
        assert_eq!(outcome.retry_after(), Some(Duration::from_secs(120)));
        assert_disallow_all(&robots, &server.uri());
    }
}

#[tokio::test]
async fn unreachable_results_expire_within_the_ttl() {
    let server = serve(ResponseTemplate::new(503)).await;
    let robots = Fetcher::builder()
        .unreachable_ttl(Duration::from_secs(90))
        .build()
        .unwrap()
        .fetch(server.uri())
        .await
        .unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    let ttl = outcome
        .expires_at()
        .duration_since(outcome.fetched_at())
        .unwrap();
    assert_eq!(ttl, Duration::from_secs(90));
    assert_eq!(outcome.retry_after(), None);
    assert_disallow_all(&robots, &server.uri());
}

#[tokio::test]
async fn policy_options_for_429_and_auth_errors() {
    let fetcher = Fetcher::builder()
        .too_many_requests_as_unavailable(true)
        .auth_errors_disallow(true)
        .build()
        .unwrap();

    let server = serve(ResponseTemplate::new(429)).await;
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::Status(StatusCode::TOO_MANY_REQUESTS))
    );
    assert_allow_all(&robots, &server.uri());

    for code in [401, 403] {
        let server = serve(ResponseTemplate::new(code)).await;
        let robots = fetcher.fetch(server.uri()).await.unwrap();
        let status = StatusCode::from_u16(code).unwrap();
        assert_eq!(
            result(&robots),
            &FetchResult::Unreachable(UnreachableReason::Status(status))
        );
        assert_disallow_all(&robots, &server.uri());
    }
}

/// Mounts `/robots.txt` -> `/r1` -> ... -> `/r{hops}` (relative Locations,
/// each redirect status in turn), the last serving `RULES`.
async fn redirect_chain(hops: usize) -> MockServer {
    let server = MockServer::start().await;
    let codes = [301, 302, 303, 307, 308];
    for hop in 0..hops {
        let from = if hop == 0 {
            "/robots.txt".to_owned()
        } else {
            format!("/r{hop}")
        };
        Mock::given(path(from))
            .respond_with(redirect(
                codes[hop % codes.len()],
                &format!("/r{}", hop + 1),
            ))
            .mount(&server)
            .await;
    }
    Mock::given(path(format!("/r{hops}")))
        .respond_with(rules_200())
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn five_redirects_are_followed() {
    let server = redirect_chain(5).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert_eq!(outcome.redirects(), 5);
    assert_eq!(outcome.final_url().as_str(), format!("{}/r5", server.uri()));
    assert_eq!(
        outcome.robots_url().as_str(),
        format!("{}/robots.txt", server.uri())
    );
    assert_eq!(outcome.status(), Some(StatusCode::OK));
    assert_eq!(server.received_requests().await.unwrap().len(), 6);
    assert_rules(&robots, &server.uri());
}

/// Sitemap values ready to fetch: paths resolved against the URL the file
/// came from (after its redirect), absolute URLs as written; repeats, and
/// values that are neither paths nor http(s) URLs, left out.
#[tokio::test]
async fn sitemap_urls_resolve_against_the_url_the_file_came_from() {
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .respond_with(redirect(301, "/site/robots.txt"))
        .mount(&server)
        .await;
    let body = "Sitemap: /a.xml\nSitemap: b.xml\nSitemap: https://other.example/c.xml\n\
                Sitemap: ftp://other.example/d.xml\nSitemap: /a.xml\nSitemap: http://[bad/\n\
                Sitemap: not a url\nSitemap: ?q\nSitemap: /with space.xml\nSitemap: //cdn.example/e.xml\n";
    Mock::given(path("/site/robots.txt"))
        .respond_with(ResponseTemplate::new(200).set_body_string(body))
        .mount(&server)
        .await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(robots.sitemaps().len(), 10);
    let urls: Vec<String> = robots
        .sitemap_urls()
        .iter()
        .map(|u| u.to_string())
        .collect();
    let base = server.uri();
    assert_eq!(
        urls,
        [
            format!("{base}/a.xml"),
            "https://other.example/c.xml".to_owned(),
            "http://cdn.example/e.xml".to_owned(),
        ]
    );
    // Parsed, not fetched: no base, so the relative ones are left out.
    let parsed = Robots::parse(body);
    let urls: Vec<String> = parsed
        .sitemap_urls()
        .iter()
        .map(|u| u.to_string())
        .collect();
    assert_eq!(urls, ["https://other.example/c.xml"]);
}

#[tokio::test]
async fn a_sixth_redirect_is_unavailable() {
    let server = redirect_chain(6).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(
        outcome.result(),
        &FetchResult::Unavailable(UnavailableReason::TooManyRedirects)
    );
    assert_eq!(outcome.redirects(), 5);
    // The sixth redirect was not followed.
    assert_eq!(server.received_requests().await.unwrap().len(), 6);
    assert_allow_all(&robots, &server.uri());

    // The limit is configurable.
    let robots = Fetcher::builder()
        .max_redirects(6)
        .build()
        .unwrap()
        .fetch(server.uri())
        .await
        .unwrap();
    assert_eq!(robots.fetch_outcome().unwrap().redirects(), 6);
    assert_rules(&robots, &server.uri());
}

/// A client of the caller's that follows redirects itself: when it gives
/// up on them, the result is as when the fetcher does (allow all), with
/// the URL it got to.
#[tokio::test]
async fn a_user_client_giving_up_on_redirects_is_unavailable() {
    let server = redirect_chain(6).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(3))
        .build()
        .unwrap();
    let fetcher = Fetcher::builder().client(client).build().unwrap();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(
        outcome.result(),
        &FetchResult::Unavailable(UnavailableReason::TooManyRedirects)
    );
    // Three redirects followed; /r3 redirected once more.
    assert_eq!(outcome.final_url().as_str(), format!("{}/r3", server.uri()));
    assert_eq!(outcome.redirects(), 1);
    assert_allow_all(&robots, &server.uri());
}

/// A client of the caller's that follows redirects itself and fails at a
/// later hop: unreachable. reqwest's error names the URL first requested,
/// not the hop, so the outcome does too (as `FetcherBuilder::client` says).
#[tokio::test]
async fn a_user_client_failing_after_a_redirect_is_unreachable() {
    // A port nothing listens on (bound, then let go).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = closed.local_addr().unwrap();
    drop(closed);
    let server = serve(redirect(301, &format!("http://{address}/robots.txt"))).await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let fetcher = Fetcher::builder().client(client).build().unwrap();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert!(
        matches!(outcome.result(), FetchResult::Unreachable(_)),
        "{outcome}"
    );
    assert_eq!(
        outcome.final_url().as_str(),
        format!("{}/robots.txt", server.uri())
    );
    assert_eq!(outcome.redirects(), 0);
    assert_disallow_all(&robots, &server.uri());
}

/// A client of the caller's that follows redirects itself refuses a
/// non-http(s) target: unavailable, as when the fetcher refuses one.
#[tokio::test]
async fn a_user_client_refusing_a_redirect_scheme_is_unavailable() {
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let fetcher = Fetcher::builder().client(client).build().unwrap();

    let server = serve(redirect(301, "ftp://files.invalid/robots.txt")).await;
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::UnsupportedRedirectScheme("ftp".into()))
    );
    assert_allow_all(&robots, &server.uri());
}

/// A client built from `Fetcher::client_builder` leaves redirects to the
/// fetcher, which counts them against its own limit.
#[tokio::test]
async fn a_client_from_client_builder_leaves_redirects_to_the_fetcher() {
    let server = redirect_chain(6).await;
    let client = Fetcher::client_builder().no_proxy().build().unwrap();
    let fetcher = Fetcher::builder()
        .client(client.clone())
        .max_redirects(4)
        .build()
        .unwrap();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(
        outcome.result(),
        &FetchResult::Unavailable(UnavailableReason::TooManyRedirects)
    );
    assert_eq!(outcome.redirects(), 4);

    // A client's own connect timeout applies: the fetcher's is refused.
    let err = Fetcher::builder()
        .client(client)
        .connect_timeout(Duration::from_secs(1))
        .build()
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::InvalidConfig {
                option: "connect_timeout",
                ..
            }
        ),
        "{err}"
    );
}

#[tokio::test]
async fn cross_host_redirect_rules_apply_to_the_original_host() {
    let other = serve(rules_200()).await;
    let other_port = other.address().port();
    let origin = serve(redirect(
        301,
        &format!("http://b.test:{other_port}/robots.txt"),
    ))
    .await;
    // Two host names on loopback, through a client of our own (direct,
    // whatever proxy the environment names).
    let client = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .resolve("a.test", *origin.address())
        .resolve("b.test", *other.address())
        .build()
        .unwrap();
    let fetcher = Fetcher::builder().client(client).build().unwrap();
    let base = format!("http://a.test:{}", origin.address().port());

    let robots = fetcher.fetch(format!("{base}/page")).await.unwrap();

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert_eq!(outcome.redirects(), 1);
    assert_eq!(outcome.robots_url().as_str(), format!("{base}/robots.txt"));
    assert_eq!(
        outcome.final_url().as_str(),
        format!("http://b.test:{other_port}/robots.txt")
    );
    let seen = &other.received_requests().await.unwrap()[0];
    assert_eq!(
        seen.headers.get("host").unwrap(),
        &format!("b.test:{other_port}")
    );
    // The fetcher's User-Agent is sent through a user-supplied client too.
    assert_eq!(
        seen.headers.get("user-agent").unwrap(),
        keepout::fetch::DEFAULT_USER_AGENT
    );
    assert_rules(&robots, &base);
}

#[tokio::test]
async fn user_info_in_a_location_is_dropped() {
    // Credentials a server names are not sent, and each hop counts once.
    let server = MockServer::start().await;
    let host = server.uri().replace("http://", "");
    for (from, to) in [
        ("/robots.txt", "/r1"),
        ("/r1", "/r2"),
        ("/r2", "/r3"),
        ("/r3", "/r4"),
    ] {
        Mock::given(path(from))
            .respond_with(redirect(301, &format!("http://user:secret@{host}{to}")))
            .mount(&server)
            .await;
    }
    Mock::given(path("/r4"))
        .respond_with(rules_200())
        .mount(&server)
        .await;

    let robots = fetcher().fetch(server.uri()).await.unwrap();

    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{outcome}");
    assert_eq!(outcome.redirects(), 4);
    assert_eq!(outcome.final_url().as_str(), format!("{}/r4", server.uri()));
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 5);
    assert!(
        requests
            .iter()
            .all(|r| !r.headers.contains_key("authorization"))
    );
    assert_rules(&robots, &server.uri());
}

#[tokio::test]
async fn redirect_loop_is_unavailable() {
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .respond_with(redirect(302, "/elsewhere"))
        .mount(&server)
        .await;
    Mock::given(path("/elsewhere"))
        .respond_with(redirect(307, &format!("{}/robots.txt", server.uri())))
        .mount(&server)
        .await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::RedirectLoop)
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    assert_allow_all(&robots, &server.uri());
}

#[tokio::test]
async fn redirect_to_ftp_is_unavailable() {
    let server = serve(redirect(301, "ftp://127.0.0.1/robots.txt")).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::UnsupportedRedirectScheme("ftp".into()))
    );
    assert_allow_all(&robots, &server.uri());
}

#[tokio::test]
async fn missing_or_invalid_location_is_unavailable() {
    let server = serve(ResponseTemplate::new(302)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::MissingLocation)
    );
    assert_allow_all(&robots, &server.uri());

    let server = serve(redirect(308, "http://[::1")).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::InvalidLocation("http://[::1".into()))
    );
    assert_allow_all(&robots, &server.uri());

    // Port 0, which no server listens on: refused as in a URL given, not
    // requested and taken for an unreachable site (until session 58).
    let server = serve(redirect(301, "http://127.0.0.1:0/robots.txt")).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::InvalidLocation(
            "http://127.0.0.1:0/robots.txt".into()
        ))
    );
    assert_allow_all(&robots, &server.uri());
}

#[tokio::test]
async fn latin1_body_is_transcoded() {
    let body = b"User-agent: *\nDisallow: /caf\xE9\n".to_vec();
    let server =
        serve(ResponseTemplate::new(200).set_body_raw(body, "text/plain; charset=ISO-8859-1"))
            .await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(result(&robots), &FetchResult::Fetched);
    let base = server.uri();
    assert!(!robots.is_allowed(AGENT, format!("{base}/caf%C3%A9")));
    assert!(!robots.is_allowed(AGENT, format!("{base}/café/menu")));
    assert!(robots.is_allowed(AGENT, format!("{base}/cafe")));
    // The Encoding Standard reads the label as windows-1252.
    assert_eq!(encoding_warnings(&robots), ["windows-1252"]);
}

/// The encodings that `robots`'s `NotUtf8` warnings name.
fn encoding_warnings(robots: &Robots) -> Vec<&'static str> {
    robots
        .warnings()
        .iter()
        .filter_map(|w| match w.kind {
            WarningKind::NotUtf8 { encoding } => {
                assert_eq!(w.line, 1);
                Some(encoding)
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn utf8_body_labelled_latin1_stays_utf8() {
    let body = "User-agent: *\nDisallow: /café\n".as_bytes().to_vec();
    let server =
        serve(ResponseTemplate::new(200).set_body_raw(body, "text/plain; charset=ISO-8859-1"))
            .await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let base = server.uri();
    assert!(!robots.is_allowed(AGENT, format!("{base}/caf%C3%A9")));
    assert!(robots.is_allowed(AGENT, format!("{base}/cafe")));
    let rule = robots.groups().next().unwrap().rules().next().unwrap();
    assert_eq!(rule.to_string(), "Disallow: /café");
    assert!(robots.warnings().is_empty(), "{:?}", robots.warnings());
}

#[tokio::test]
async fn utf16_body_with_bom_is_transcoded() {
    let body: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(RULES.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let server = serve(ResponseTemplate::new(200).set_body_raw(body, "text/plain")).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(result(&robots), &FetchResult::Fetched);
    assert_rules(&robots, &server.uri());
    assert_eq!(encoding_warnings(&robots), ["UTF-16LE"]);
}

/// Without a BOM or a right label: known by its shape (see
/// `tests/leniency.rs`), even with a non-ASCII character that a
/// single-byte label would read as two.
#[tokio::test]
async fn utf16_body_without_bom_or_label_is_transcoded() {
    let text = format!("# caf\u{e9}\n{RULES}");
    for big_endian in [false, true] {
        let body: Vec<u8> = text
            .encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect();
        for content_type in [
            "text/plain",
            "text/plain; charset=utf-8",
            "text/plain; charset=ISO-8859-1",
            "text/plain; charset=windows-1252",
        ] {
            let server =
                serve(ResponseTemplate::new(200).set_body_raw(body.clone(), content_type)).await;
            let robots = fetcher().fetch(server.uri()).await.unwrap();
            assert_eq!(result(&robots), &FetchResult::Fetched);
            assert_rules(&robots, &server.uri());
            let encoding = if big_endian { "UTF-16BE" } else { "UTF-16LE" };
            assert_eq!(encoding_warnings(&robots), [encoding]);
        }
    }
}

/// A UTF-16 label does not turn an ASCII file with a stray NUL into
/// UTF-16 text with no rules (which would allow everything).
#[tokio::test]
async fn utf16_label_on_ascii_with_a_nul_is_ignored() {
    let body = format!("{RULES}\0").into_bytes();
    for label in ["utf-16", "utf-16le", "utf-16be"] {
        let content_type = format!("text/plain; charset={label}");
        let server =
            serve(ResponseTemplate::new(200).set_body_raw(body.clone(), &content_type)).await;
        let robots = fetcher().fetch(server.uri()).await.unwrap();
        assert_eq!(result(&robots), &FetchResult::Fetched);
        assert_rules(&robots, &server.uri());
        assert!(encoding_warnings(&robots).is_empty());
    }
}

/// A client of one's own gets the fetcher's reading of a body by handing
/// `ParseOptions::content_type` the response's `Content-Type`.
#[tokio::test]
async fn content_type_option_reads_bodies_as_the_fetcher_does() {
    let utf16 = |text: &str, big_endian: bool| -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let wide = format!("# {}\n{RULES}", "日本語のコメント".repeat(3));
    let bodies: Vec<Vec<u8>> = vec![
        RULES.as_bytes().to_vec(),
        format!("{RULES}Disallow: /caf\u{e9}\n").into_bytes(),
        [RULES.as_bytes(), b"Disallow: /caf\xE9\nDisallow: /\x80\n"].concat(),
        [RULES.as_bytes(), b"Disallow: /\xCB\xB5\n"].concat(),
        format!("{RULES}\0").into_bytes(),
        utf16(&wide, false),
        utf16(&wide, true),
        [&[0xFE, 0xFF][..], &utf16(RULES, true)].concat(),
    ];
    let reading = |robots: &Robots| -> Vec<String> {
        let rules = robots
            .groups()
            .flat_map(|g| g.rules().map(|r| r.to_string()));
        let warnings = robots.warnings().iter().map(|w| w.to_string());
        rules.chain(warnings).collect()
    };
    let server = MockServer::start().await;
    let fetcher = fetcher();
    for content_type in [
        "text/plain",
        "text/plain; charset=utf-8",
        "text/plain; charset=ISO-8859-1",
        "text/plain; charset=windows-1252",
        "text/plain; charset=gbk",
        "text/plain; charset=utf-16",
        "text/plain; charset=utf-16be",
        "text/plain; charset=iso-2022-kr",
    ] {
        for body in &bodies {
            server.reset().await;
            Mock::given(method("GET"))
                .and(path("/robots.txt"))
                .respond_with(ResponseTemplate::new(200).set_body_raw(body.clone(), content_type))
                .mount(&server)
                .await;
            let fetched = fetcher.fetch(server.uri()).await.unwrap();
            assert_eq!(result(&fetched), &FetchResult::Fetched);
            let parsed = ParseOptions::new().content_type(content_type).parse(body);
            assert_eq!(
                reading(&fetched),
                reading(&parsed),
                "{content_type} {body:?}"
            );
            assert!(!reading(&parsed).is_empty());
        }
    }
}

#[tokio::test]
async fn utf8_bom_is_skipped() {
    let body = format!("\u{FEFF}{RULES}");
    let server = serve(ResponseTemplate::new(200).set_body_string(body)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(result(&robots), &FetchResult::Fetched);
    assert_rules(&robots, &server.uri());
    assert!(robots.warnings().is_empty(), "{:?}", robots.warnings());
}

#[tokio::test]
async fn empty_200_allows_everything() {
    let server = serve(ResponseTemplate::new(200)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert_eq!(outcome.body_bytes(), 0);
    assert_eq!(robots.access(), Access::Rules);
    assert!(robots.is_allowed(AGENT, format!("{}/private/x", server.uri())));
    assert!(robots.is_allowed(AGENT, format!("{}/public/x", server.uri())));
}

#[tokio::test]
async fn gzip_body_is_decoded() {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(RULES.as_bytes()).unwrap();
    let gzipped = encoder.finish().unwrap();
    let (server, robots) = fetch_coded("gzip", gzipped).await;
    assert_eq!(robots.fetch_outcome().unwrap().body_bytes(), RULES.len());
    assert_rules(&robots, &server.uri());
}

/// Serves `body` as a 200 with `Content-Encoding: coding`, and fetches it.
async fn fetch_coded(coding: &str, body: Vec<u8>) -> (MockServer, Robots) {
    let server = serve(
        ResponseTemplate::new(200)
            .set_body_raw(body, "text/plain")
            .insert_header("content-encoding", coding),
    )
    .await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    (server, robots)
}

/// `RULES` in `coding` (as HTTP names it: `gzip`, `deflate` for zlib,
/// `raw-deflate` for the headerless form some servers send, `br`).
fn encoded(coding: &str) -> Vec<u8> {
    let data = RULES.as_bytes();
    let mut out = Vec::new();
    match coding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(&mut out, flate2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap();
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(&mut out, flate2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap();
        }
        "raw-deflate" => {
            let mut e =
                flate2::write::DeflateEncoder::new(&mut out, flate2::Compression::default());
            e.write_all(data).unwrap();
            e.finish().unwrap();
        }
        "br" => {
            let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 20);
            e.write_all(data).unwrap();
            e.flush().unwrap();
            drop(e);
        }
        _ => unreachable!("{coding}"),
    }
    out
}

/// RFC 9110 section 8.4.1: coding names are case-insensitive, and `x-gzip`
/// is `gzip`. (Until session 12 the HTTP client decoded only the exact
/// lower-case names, and a `Disallow: /` sent as `GZIP` was parsed as
/// compressed bytes: everything allowed.)
#[tokio::test]
async fn content_codings_are_decoded_whatever_their_case() {
    for (header_value, coding) in [
        ("gzip", "gzip"),
        ("GZIP", "gzip"),
        ("x-gzip", "gzip"),
        ("gzip, identity", "gzip"),
        ("deflate", "deflate"),
        ("Deflate", "raw-deflate"),
        ("br", "br"),
        ("BR", "br"),
    ] {
        let (server, robots) = fetch_coded(header_value, encoded(coding)).await;
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.result(), &FetchResult::Fetched, "{header_value}");
        assert_eq!(outcome.body_bytes(), RULES.len(), "{header_value}");
        assert_rules(&robots, &server.uri());
        let request = &server.received_requests().await.unwrap()[0];
        assert_eq!(
            request.headers.get("accept-encoding").unwrap(),
            "gzip, deflate"
        );
    }
}

/// A client of the caller's asks for gzip and deflate too, and a gzip body
/// is decoded once, whoever decodes it: the fetcher, for a client from
/// `client_builder`, or reqwest, for one that decodes itself. (A client from
/// `client_builder` sent no `Accept-Encoding`, so servers sent plain text.)
#[tokio::test]
async fn a_client_of_the_callers_asks_for_compressed_bodies() {
    let clients = [
        Fetcher::client_builder().no_proxy().build().unwrap(),
        reqwest::Client::builder().no_proxy().build().unwrap(),
    ];
    for (which, client) in clients.into_iter().enumerate() {
        let server = serve(
            ResponseTemplate::new(200)
                .set_body_raw(encoded("gzip"), "text/plain")
                .insert_header("content-encoding", "gzip"),
        )
        .await;
        let fetcher = Fetcher::builder().client(client).build().unwrap();

        let robots = fetcher.fetch(server.uri()).await.unwrap();

        assert_eq!(result(&robots), &FetchResult::Fetched, "client {which}");
        assert_eq!(robots.fetch_outcome().unwrap().body_bytes(), RULES.len());
        assert_rules(&robots, &server.uri());
        let request = &server.received_requests().await.unwrap()[0];
        let encodings = request.headers.get("accept-encoding").unwrap();
        assert_eq!(encodings, "gzip, deflate", "client {which}");
    }
}

/// `RULES`, in `coding` (or as they are), served under `Content-Encoding:
/// header_value`, are fetched and read.
async fn fetches_the_rules(header_value: &str, coding: Option<&str>) {
    let body = coding.map_or_else(|| RULES.as_bytes().to_vec(), encoded);
    let (server, robots) = fetch_coded(header_value, body).await;
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched, "{header_value:?}");
    assert_eq!(outcome.body_bytes(), RULES.len(), "{header_value:?}");
    assert_rules(&robots, &server.uri());
}

/// Empty elements of the `Content-Encoding` list, and an empty header, add
/// no coding: RFC 9110 section 5.6.1.2 has a recipient ignore them. (They
/// were read as a coding named "", not supported: a plain or gzip file
/// was unreachable, disallow all.)
#[tokio::test]
async fn empty_content_coding_list_elements_are_ignored() {
    for (header_value, coding) in [
        ("", None),
        (" , identity,", None),
        ("gzip,", Some("gzip")),
        (", gzip", Some("gzip")),
        ("br, ,", Some("br")),
    ] {
        fetches_the_rules(header_value, coding).await;
    }
}

/// A `Content-Encoding` name that is no coding at all (`utf-8`, `none`:
/// servers send them on plain text) is ignored, as browsers and reqwest's
/// own decoder ignore it, when the body looks like text; beside a real
/// coding, that coding is decoded. (Until session 58 such a file was
/// unreachable: the whole site disallowed.)
#[tokio::test]
async fn a_name_that_is_no_content_coding_is_ignored_on_text() {
    for (header_value, coding) in [
        ("utf-8", None),
        ("UTF-8", None),
        ("none", None),
        ("binary, identity", None),
        ("gzip, utf-8", Some("gzip")),
    ] {
        fetches_the_rules(header_value, coding).await;
    }
}

/// A body the fetcher cannot decode gives no rules: unreachable, disallow
/// all, saying why.
#[tokio::test]
async fn undecodable_bodies_are_unreachable() {
    let mut cut = encoded("gzip");
    cut.truncate(cut.len() - 8);
    let mut corrupt = encoded("gzip");
    corrupt[12] ^= 0xFF;
    for (coding, body, why) in [
        (
            "compress",
            RULES.as_bytes().to_vec(),
            "\"compress\" is not supported",
        ),
        (
            "ZSTD",
            RULES.as_bytes().to_vec(),
            "\"ZSTD\" is not supported",
        ),
        // A name that is no coding, on data that is not text.
        ("utf-8", encoded("gzip"), "\"utf-8\" is not supported"),
        ("gzip, br", encoded("gzip"), "several content codings"),
        ("gzip", cut, "gzip data"),
        ("gzip", corrupt, "gzip data"),
        (
            "gzip",
            encoded("gzip").repeat(257),
            "gzip data: more than 256 members",
        ),
        ("br", b"not brotli at all".to_vec(), "brotli data"),
    ] {
        let (server, robots) = fetch_coded(coding, body).await;
        let outcome = robots.fetch_outcome().unwrap();
        match outcome.result() {
            FetchResult::Unreachable(UnreachableReason::Body(text)) => {
                assert!(text.contains(why), "{coding}: {text}")
            }
            other => panic!("{coding}: {other:?}"),
        }
        assert_disallow_all(&robots, &server.uri());
    }
}

/// A body with no octets is an empty file (no rules: allow all), whatever
/// coding its header names: it is not coded data cut short. (Until session
/// 32, an empty 200 or a 204 labelled `gzip` or `br` was unreachable:
/// disallow all; until session 36, one labelled with a coding keepout
/// does not decode.)
#[tokio::test]
async fn empty_bodies_are_empty_files_whatever_their_coding() {
    for (status, coding) in [
        (200, "gzip"),
        (200, "br"),
        (200, "deflate"),
        (200, "compress"),
        (204, "gzip"),
        (204, "br"),
        (204, "gzip, gzip"),
    ] {
        let server =
            serve(ResponseTemplate::new(status).insert_header("content-encoding", coding)).await;
        let robots = fetcher().fetch(server.uri()).await.unwrap();
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.result(), &FetchResult::Fetched, "{status} {coding}");
        assert_eq!(outcome.body_bytes(), 0);
        assert!(!outcome.truncated_at_cap());
        assert!(robots.is_allowed(AGENT, format!("{}/private/x", server.uri())));
    }
}

/// What follows a complete coded stream (a line end, zero padding: some
/// servers append them) is ignored, as browsers and reqwest's own decoder
/// do; another gzip member is still read. (Until session 32 these were
/// unreachable: disallow all.)
#[tokio::test]
async fn bytes_after_the_coded_data_are_ignored() {
    let gzip = encoded("gzip");
    let two_members = [gzip.clone(), encoded("gzip")].concat();
    for (coding, body, bytes) in [
        ("gzip", [gzip.clone(), b"\n".to_vec()].concat(), RULES.len()),
        (
            "gzip",
            [gzip.clone(), b"\r\n".to_vec()].concat(),
            RULES.len(),
        ),
        ("gzip", [gzip.clone(), vec![0; 100]].concat(), RULES.len()),
        (
            "gzip",
            [two_members, b"\n".to_vec()].concat(),
            2 * RULES.len(),
        ),
        (
            "deflate",
            [encoded("deflate"), b"\n".to_vec()].concat(),
            RULES.len(),
        ),
        (
            "deflate",
            [encoded("raw-deflate"), b"\n\n".to_vec()].concat(),
            RULES.len(),
        ),
        ("br", [encoded("br"), b"\n".to_vec()].concat(), RULES.len()),
    ] {
        let (server, robots) = fetch_coded(coding, body).await;
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.result(), &FetchResult::Fetched, "{coding}");
        assert_eq!(outcome.body_bytes(), bytes, "{coding}");
        assert!(!outcome.truncated_at_cap());
        assert_rules(&robots, &server.uri());
    }

    // A second member that starts as gzip does but is not is still an
    // error: only what cannot begin a member is taken as padding.
    let (_server, robots) = fetch_coded("gzip", [gzip, vec![0x1F, 0x00, 0, 0]].concat()).await;
    match robots.fetch_outcome().unwrap().result() {
        FetchResult::Unreachable(UnreachableReason::Body(text)) => {
            assert!(text.contains("gzip data"), "{text}")
        }
        other => panic!("{other:?}"),
    }
}

/// A 2 MiB body whose byte 512,000 (the default cap) falls inside a line
/// that, cut there, would read `Disallow: /`.
fn oversized_body(cap: usize) -> String {
    let mut body = String::from(RULES);
    while body.len() < cap - 11 {
        body.push_str("# filler\n");
    }
    body.truncate(cap - 11);
    body.pop();
    body.push('\n');
    body.push_str("Disallow: /");
    assert_eq!(body.len(), cap);
    body.push_str("never-read\nDisallow: /public\n");
    while body.len() < 2 << 20 {
        body.push_str("Disallow: /public\n");
    }
    body
}

#[tokio::test]
async fn body_is_capped_and_the_partial_line_dropped() {
    let cap = keepout::fetch::MIN_BODY_LIMIT;
    let body = oversized_body(cap);
    let body_len = body.len();
    let server = serve(ResponseTemplate::new(200).set_body_string(body)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert!(outcome.truncated_at_cap());
    assert_eq!(outcome.body_bytes(), cap);
    // Rules within the cap apply; the cut line (`Disallow: /`) and
    // everything after it do not.
    assert_rules(&robots, &server.uri());

    // A higher limit reads further.
    let fetcher = Fetcher::builder().body_limit(4 << 20).build().unwrap();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert!(!outcome.truncated_at_cap());
    assert_eq!(outcome.body_bytes(), body_len);
    assert!(!robots.is_allowed(AGENT, format!("{}/public/x", server.uri())));
}

/// A body of exactly the limit is read whole: nothing was cut, so its last
/// line applies even without a line end.
#[tokio::test]
async fn a_body_of_exactly_the_limit_is_read_whole() {
    let cap = keepout::fetch::MIN_BODY_LIMIT;
    let last = "Disallow: /last";
    let mut body = String::from("User-agent: *\n");
    while body.len() + last.len() < cap {
        body.push_str("# filler\n");
    }
    body.truncate(cap - last.len() - 1);
    body.push('\n');
    body.push_str(last);
    assert_eq!(body.len(), cap);
    let server = serve(ResponseTemplate::new(200).set_body_string(body)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.body_bytes(), cap);
    assert!(!outcome.truncated_at_cap());
    assert!(!robots.is_allowed(AGENT, format!("{}/last", server.uri())));
}

#[tokio::test]
async fn expiry_follows_cache_headers_capped_at_a_day() {
    let cases = [
        (None, 86_400),
        (Some("max-age=3600"), 3600),
        (Some("public, max-age=31536000"), 86_400),
        (Some("max-age=0"), 0),
        (Some("no-store"), 0),
    ];
    for (cache_control, want) in cases {
        let mut response = rules_200();
        if let Some(value) = cache_control {
            response = response.insert_header("cache-control", value);
        }
        let server = serve(response).await;
        let robots = fetcher().fetch(server.uri()).await.unwrap();
        let outcome = robots.fetch_outcome().unwrap();
        let ttl = outcome
            .expires_at()
            .duration_since(outcome.fetched_at())
            .unwrap();
        assert_eq!(ttl, Duration::from_secs(want), "{cache_control:?}");
        assert_eq!(outcome.is_expired(), want == 0, "{cache_control:?}");
        assert_rules(&robots, &server.uri());
    }
    let date = httpdate::fmt_http_date(SystemTime::now());
    let expires = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(600));
    let server = serve(
        rules_200()
            .insert_header("date", date.as_str())
            .insert_header("expires", expires.as_str()),
    )
    .await;
    let outcome = fetcher().fetch(server.uri()).await.unwrap();
    let outcome = outcome.fetch_outcome().unwrap();
    let ttl = outcome
        .expires_at()
        .duration_since(outcome.fetched_at())
        .unwrap();
    assert!(
        ttl <= Duration::from_secs(600) && ttl >= Duration::from_secs(598),
        "{ttl:?}"
    );
}

/// An `ETag` holding octets past ASCII (`obs-text`, which RFC 9110 allows
/// in an entity tag) is kept, and sent back as the same octets: the
/// refresh stays conditional.
#[tokio::test]
async fn an_etag_with_octets_past_ascii_still_makes_the_refresh_conditional() {
    let octets = b"W/\"caf\xe9-\xff\"";
    let etag = http::HeaderValue::from_bytes(octets).unwrap();
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .and(header_exists("if-none-match"))
        .respond_with(ResponseTemplate::new(304))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(path("/robots.txt"))
        .respond_with(rules_200().insert_header("etag", etag.clone()))
        .mount(&server)
        .await;
    let fetcher = fetcher();
    let first = fetcher.fetch(server.uri()).await.unwrap();
    assert_eq!(
        first.fetch_outcome().unwrap().etag(),
        Some("W/\"café-\u{ff}\"")
    );
    let second = fetcher.refresh(&first).await.unwrap();
    let outcome = second.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::NotModified);
    assert_eq!(outcome.etag(), first.fetch_outcome().unwrap().etag());
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].headers.get("if-none-match").unwrap().as_bytes(),
        octets
    );
    assert_rules(&second, &server.uri());
}

#[tokio::test]
async fn refresh_with_validators_304_keeps_the_rules() {
    let etag = "\"v1\"";
    let modified = "Wed, 21 Oct 2015 07:28:00 GMT";
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .and(header("if-none-match", etag))
        // (wiremock splits values at commas, so the date is checked below)
        .and(header_exists("if-modified-since"))
        .respond_with(ResponseTemplate::new(304).insert_header("cache-control", "max-age=60"))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(path("/robots.txt"))
        .respond_with(
            rules_200()
                .insert_header("etag", etag)
                .insert_header("last-modified", modified)
                .insert_header("cache-control", "no-cache"),
        )
        .mount(&server)
        .await;
    let fetcher = fetcher();

    let first = fetcher.fetch(server.uri()).await.unwrap();
    let outcome = first.fetch_outcome().unwrap();
    assert_eq!(outcome.etag(), Some(etag));
    assert_eq!(outcome.last_modified(), Some(modified));
    assert!(outcome.is_expired());

    let second = fetcher.refresh(&first).await.unwrap();

    let outcome = second.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::NotModified);
    assert_eq!(outcome.status(), Some(StatusCode::NOT_MODIFIED));
    assert_eq!(outcome.etag(), Some(etag));
    assert_eq!(outcome.body_bytes(), RULES.len());
    assert!(!outcome.is_expired());
    let ttl = outcome
        .expires_at()
        .duration_since(outcome.fetched_at())
        .unwrap();
    assert_eq!(ttl, Duration::from_secs(60));
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    assert!(!requests[0].headers.contains_key("if-none-match"));
    assert_eq!(requests[1].headers.get("if-none-match").unwrap(), etag);
    assert_eq!(
        requests[1].headers.get("if-modified-since").unwrap(),
        modified
    );
    assert_rules(&second, &server.uri());
}

#[tokio::test]
async fn a_304_without_caching_headers_keeps_the_stored_lifetime() {
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .and(header("if-none-match", "\"v1\""))
        .respond_with(ResponseTemplate::new(304))
        .with_priority(1)
        .mount(&server)
        .await;
    Mock::given(path("/robots.txt"))
        .respond_with(
            rules_200()
                .insert_header("etag", "\"v1\"")
                .insert_header("cache-control", "max-age=60"),
        )
        .mount(&server)
        .await;
    let fetcher = fetcher();
    let ttl = |robots: &Robots| {
        let outcome = robots.fetch_outcome().unwrap();
        outcome
            .expires_at()
            .duration_since(outcome.fetched_at())
            .unwrap()
    };

    let first = fetcher.fetch(server.uri()).await.unwrap();
    assert_eq!(ttl(&first), Duration::from_secs(60));
    let second = fetcher.refresh(&first).await.unwrap();

    assert_eq!(result(&second), &FetchResult::NotModified);
    assert_eq!(ttl(&second), Duration::from_secs(60));
}

#[tokio::test]
async fn refresh_gets_new_rules_when_changed() {
    let server = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .respond_with(rules_200().insert_header("etag", "\"v1\""))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(path("/robots.txt"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_string("User-agent: *\nDisallow: /public\n")
                .insert_header("etag", "\"v2\""),
        )
        .mount(&server)
        .await;
    let fetcher = fetcher();
    let first = fetcher.fetch(server.uri()).await.unwrap();
    assert_rules(&first, &server.uri());

    let second = fetcher.refresh(&first).await.unwrap();

    let outcome = second.fetch_outcome().unwrap();
    assert_eq!(outcome.result(), &FetchResult::Fetched);
    assert_eq!(outcome.etag(), Some("\"v2\""));
    assert!(second.is_allowed(AGENT, format!("{}/private/x", server.uri())));
    assert!(!second.is_allowed(AGENT, format!("{}/public/x", server.uri())));
}

#[tokio::test]
async fn unasked_304_is_unavailable() {
    let server = serve(ResponseTemplate::new(304)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    assert_eq!(
        result(&robots),
        &FetchResult::Unavailable(UnavailableReason::Status(StatusCode::NOT_MODIFIED))
    );
    assert_allow_all(&robots, &server.uri());
}

#[tokio::test]
async fn slow_server_times_out_as_unreachable() {
    let server = serve(rules_200().set_delay(Duration::from_secs(10))).await;
    let fetcher = Fetcher::builder()
        .timeout(Duration::from_millis(250))
        .build()
        .unwrap();
    let started = std::time::Instant::now();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(
        result(&robots),
        &FetchResult::Unreachable(UnreachableReason::Timeout)
    );
    assert_disallow_all(&robots, &server.uri());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetcher_is_shared_across_spawned_tasks() {
    let server = serve(rules_200()).await;
    let fetcher = fetcher();
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let fetcher = fetcher.clone();
            let url = format!("{}/page/{i}", server.uri());
            tokio::spawn(async move { fetcher.fetch(url).await })
        })
        .collect();
    // A future on its own is spawnable too.
    let direct = tokio::spawn(Robots::fetch(server.uri()));
    for task in tasks {
        assert_rules(&task.await.unwrap().unwrap(), &server.uri());
    }
    assert_rules(&direct.await.unwrap().unwrap(), &server.uri());
}

#[tokio::test]
async fn outcome_displays_for_logs() {
    let server = serve(ResponseTemplate::new(503)).await;
    let robots = fetcher().fetch(server.uri()).await.unwrap();
    let line = robots.fetch_outcome().unwrap().to_string();
    assert!(line.contains("/robots.txt"), "{line}");
    assert!(line.contains("unreachable"), "{line}");
    assert!(line.contains("503"), "{line}");
}

// --- proxies ---

#[tokio::test]
async fn a_given_proxy_carries_every_request_and_is_named() {
    // The server plays the proxy: requests for hosts that do not resolve
    // reach it in absolute form, redirects included.
    let proxy = MockServer::start().await;
    Mock::given(path("/robots.txt"))
        .respond_with(redirect(301, "http://other.invalid/rules.txt"))
        .mount(&proxy)
        .await;
    Mock::given(path("/rules.txt"))
        .respond_with(rules_200())
        .mount(&proxy)
        .await;
    let fetcher = Fetcher::builder().proxy(proxy.uri()).build().unwrap();

    let robots = fetcher.fetch("http://robots.invalid/page").await.unwrap();

    assert_eq!(result(&robots), &FetchResult::Fetched);
    assert!(!robots.is_allowed(AGENT, "http://robots.invalid/private/x"));
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(
        outcome.final_url().as_str(),
        "http://other.invalid/rules.txt"
    );
    assert_eq!(outcome.proxy(), Some(proxy.uri().as_str()));
    assert!(
        outcome
            .to_string()
            .ends_with(&format!(", via proxy {}", proxy.uri())),
        "{outcome}"
    );
    let asked: Vec<String> = proxy
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.url.to_string())
        .collect();
    assert_eq!(
        asked,
        [
            "http://robots.invalid/robots.txt",
            "http://other.invalid/rules.txt"
        ]
    );
}

#[tokio::test]
async fn socks_proxies_carry_requests_and_are_named() {
    // The SOCKS proxy connects every request to `origin`: with `socks5h` it
    // is given the host name to resolve; with `socks5`, the fetcher
    // resolves it and gives the address.
    let origin = serve(rules_200()).await;
    let (proxy, asked) = common::socks5_proxy(*origin.address()).await;
    for (scheme, url, destination) in [
        ("socks5h", "http://robots.invalid/page", "robots.invalid:80"),
        ("socks5", "http://127.0.0.1:8080/page", "127.0.0.1:8080"),
    ] {
        let given = format!("{scheme}://{proxy}");
        let fetcher = Fetcher::builder().proxy(&given).build().unwrap();
        let robots = fetcher.fetch(url).await.unwrap();
        let base = url.trim_end_matches("/page");
        assert_eq!(result(&robots), &FetchResult::Fetched, "{scheme}");
        assert_rules(&robots, base);
        let outcome = robots.fetch_outcome().unwrap();
        assert_eq!(outcome.proxy(), Some(given.as_str()));
        assert!(
            outcome
                .to_string()
                .ends_with(&format!(", via proxy {given}")),
            "{outcome}"
        );
        assert_eq!(asked.lock().unwrap().pop().as_deref(), Some(destination));
    }
    let requested = origin.received_requests().await.unwrap();
    let hosts: Vec<_> = requested
        .iter()
        .map(|r| r.headers["host"].to_str().unwrap().to_owned())
        .collect();
    assert_eq!(hosts, ["robots.invalid", "127.0.0.1:8080"]);
}

#[tokio::test]
async fn a_proxy_that_is_down_is_named_in_the_unreachable_outcome() {
    let fetcher = Fetcher::builder()
        .proxy("http://127.0.0.1:9")
        .build()
        .unwrap();

    let robots = fetcher.fetch("http://robots.invalid/").await.unwrap();

    assert!(matches!(
        result(&robots),
        FetchResult::Unreachable(UnreachableReason::Connect(_))
    ));
    assert_eq!(robots.access(), Access::DisallowAll);
    let outcome = robots.fetch_outcome().unwrap();
    assert_eq!(outcome.proxy(), Some("http://127.0.0.1:9"));
    assert!(
        outcome
            .to_string()
            .ends_with(", via proxy http://127.0.0.1:9"),
        "{outcome}"
    );
}

#[tokio::test]
async fn without_a_proxy_none_is_named() {
    let server = serve(rules_200()).await;
    let fetcher = Fetcher::builder().no_proxy().build().unwrap();
    let robots = fetcher.fetch(server.uri()).await.unwrap();
    assert_rules(&robots, &server.uri());
    assert_eq!(robots.fetch_outcome().unwrap().proxy(), None);
}

#[tokio::test]
async fn a_proxy_asking_for_credentials_is_unreachable_not_unavailable() {
    // A 407 is the proxy's answer, not the site's: its robots.txt is
    // unknown, so everything is disallowed, not allowed as after a 4xx.
    let proxy =
        serve(ResponseTemplate::new(407).insert_header("proxy-authenticate", "Basic realm=\"p\""))
            .await;
    let fetcher = Fetcher::builder().proxy(proxy.uri()).build().unwrap();

    let robots = fetcher.fetch("http://robots.invalid/").await.unwrap();

    assert_eq!(
        result(&robots),
        &FetchResult::Unreachable(UnreachableReason::Status(
            StatusCode::PROXY_AUTHENTICATION_REQUIRED
        ))
    );
    assert_eq!(robots.access(), Access::DisallowAll);
}
