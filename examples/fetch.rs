//! Fetches a site's robots.txt and says whether an agent may fetch URLs.
//!
//! ```text
//! cargo run --example fetch -- https://example.com/some/page [agent] [url-or-path...]
//! ```
//!
//! With no URLs after the agent, the first URL is checked. The agent
//! defaults to `keepout`. A URL may be a path (`/private/x`), taken on the
//! site as a link would be. Each is checked as an HTTP client will request
//! it (resolved into a `url::Url`, so `/a/../private` is checked as
//! `/private`); a URL on another origin is not checked, as its own
//! robots.txt governs it.

use keepout::Robots;
use keepout::fetch::origin_key;
use url::Url;

#[tokio::main]
async fn main() {
    let usage = || -> ! {
        eprintln!("usage: fetch URL [AGENT] [URL...]");
        std::process::exit(2);
    };
    let mut args = std::env::args_os().skip(1).map(|arg| {
        arg.into_string().unwrap_or_else(|arg| {
            eprintln!("not UTF-8: {arg:?}");
            usage()
        })
    });
    let Some(site) = args.next() else { usage() };
    if site.starts_with('-') {
        // `--help`, `-h`: no URL starts with a dash.
        usage();
    }
    let agent = args.next().unwrap_or_else(|| "keepout".to_owned());
    let mut urls: Vec<String> = args.collect();
    if urls.is_empty() {
        urls.push(site.clone());
    }

    let robots = match Robots::fetch(&site).await {
        Ok(robots) => robots,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    };
    if let Some(outcome) = robots.fetch_outcome() {
        println!("{outcome}");
    }
    // `fetch` accepted it: a URL with an http(s) origin.
    let (Ok(site_url), Ok(site_origin)) = (Url::parse(&site), origin_key(&site)) else {
        return;
    };
    for arg in &urls {
        // A path (`/private/x`) or any reference is resolved against the
        // site's URL, as a crawler resolves links; the result is checked as
        // the HTTP client will request it.
        let url = match site_url.join(arg) {
            Ok(url) => url,
            Err(error) => {
                println!("{:>10}  {arg}: {error}", "skipped");
                continue;
            }
        };
        match origin_key(&url) {
            Err(error) => println!("{:>10}  {arg}: {error}", "skipped"),
            Ok(origin) if origin != site_origin => {
                println!("{:>10}  {arg}: {origin} has its own robots.txt", "skipped");
            }
            Ok(_) => {
                let verdict = if robots.is_allowed(&agent, &url) {
                    "allowed"
                } else {
                    "disallowed"
                };
                println!("{verdict:>10}  {agent}  {url}");
            }
        }
    }
}
