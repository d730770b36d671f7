//! Fetches a site's robots.txt and says whether an agent may fetch URLs.
//!
//! ```text
//! cargo run --example fetch -- https://example.com/some/page [agent] [url...]
//! ```
//!
//! With no URLs after the agent, the first URL is checked. The agent
//! defaults to `keepout`.

use keepout::Robots;

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
    for url in &urls {
        let verdict = if robots.is_allowed(&agent, url) {
            "allowed"
        } else {
            "disallowed"
        };
        println!("{verdict:>10}  {agent}  {url}");
    }
}
