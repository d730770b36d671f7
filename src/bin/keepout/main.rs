//! `keepout`: ask whether a crawler may fetch URLs and which robots.txt line
//! says so, and lint robots.txt files (RFC 9309).
//!
//! Exit codes: 0 when every URL checked is allowed (and for a `show` that
//! ran), 1 when `check` finds any URL disallowed, 2 on bad input or a fetch
//! this machine could not make, with a one-line `keepout: error: ...` on
//! stderr (or, for a bad option or a missing command, the argument
//! parser's `error: ...` and usage). Each command's `--help` gives the
//! details.

mod check;
mod output;
mod progress;
mod show;
mod source;
mod urls;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// Check URLs against robots.txt and explain the deciding line, or lint a
/// robots.txt file (RFC 9309).
#[derive(Parser)]
#[command(name = "keepout", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// For each URL: ALLOWED or DISALLOWED, the deciding line and its
    /// group, or why no rule applies.
    #[command(after_help = check::AFTER_HELP)]
    Check(check::Args),
    /// Show a robots.txt: how it was fetched, its groups, rules, crawl
    /// delays, request rates, sitemaps, records and lint warnings.
    #[command(after_help = show::AFTER_HELP)]
    Show(show::Args),
}

/// Options for fetching robots.txt over HTTP, shared by both commands.
#[derive(clap::Args, Clone, Debug)]
struct FetchArgs {
    /// Seconds allowed for each robots.txt fetch, redirects included.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// How many robots.txt files to fetch at once.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..))]
    concurrency: u16,
    /// The User-Agent header to fetch robots.txt with, as your crawler
    /// sends it (servers may answer crawlers differently). Default:
    /// keepout's own.
    #[arg(long, value_name = "UA")]
    user_agent: Option<String>,
}

impl FetchArgs {
    /// A fetcher with these options (keepout's own User-Agent by default).
    fn fetcher(&self) -> Result<keepout::Fetcher, Failure> {
        let mut builder = keepout::Fetcher::builder().timeout(Duration::from_secs(self.timeout));
        if let Some(user_agent) = &self.user_agent {
            // Groups are chosen by `--agent`, not by the fetcher's product
            // token: any header value will do, whatever its first word.
            builder = builder.user_agent(user_agent).product_token("keepout");
        }
        builder.build().map_err(|e| match (e, &self.user_agent) {
            (keepout::Error::InvalidConfig { reason, .. }, Some(user_agent)) => {
                Failure::Input(format!("--user-agent {user_agent:?}: {reason}"))
            }
            (e, _) => Failure::Input(e.to_string()),
        })
    }
}

/// Why the command stopped early.
#[derive(Debug)]
enum Failure {
    /// Bad input: printed as one line, exit code 2.
    Input(String),
    /// Writing the output failed.
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match runtime() {
        Ok(runtime) => runtime,
        Err(e) => return fail(&format!("cannot start the async runtime: {e}")),
    };
    let result = run_to_end(runtime, async {
        match cli.command {
            Command::Check(args) => check::run(args).await,
            Command::Show(args) => show::run(args).await,
        }
    });
    match result {
        Ok(code) => code,
        Err(Failure::Input(message)) => fail(&message),
        // `keepout check ... | head`: the reader has all it wants.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => fail(&format!("cannot write the output: {e}")),
    }
}

/// The runtime the commands run on. Fetches run on worker threads, so
/// that output written to a slow reader (`| less`) or input read from a
/// slow stdin, both blocking on this thread, never stall a fetch under way
/// into its timeout.
fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
}

/// Runs `work` on `runtime` to its end, then ends the runtime without
/// waiting for its blocking threads: a DNS lookup whose fetch timed out
/// runs on (`getaddrinfo` cannot be stopped), and waiting for it would
/// hold the exit up past `--timeout` for as long as the resolver tries
/// (the output is all written by then).
fn run_to_end<T>(
    runtime: tokio::runtime::Runtime,
    work: impl std::future::Future<Output = T>,
) -> T {
    let result = runtime.block_on(work);
    runtime.shutdown_background();
    result
}

/// Prints the one-line error and returns exit code 2.
fn fail(message: &str) -> ExitCode {
    // Not `eprintln!`, which panics when stderr is closed (`2>&1 | head`).
    // Escaped as all output from input is (`output::clean`): the message
    // may quote a server's or a file's text.
    let _ = writeln!(io::stderr(), "keepout: error: {}", output::clean(message));
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    /// A blocking task still running when the work is done (a DNS lookup
    /// whose fetch timed out: the resolver runs `getaddrinfo` on a
    /// blocking thread, which a timeout cannot stop) does not hold up the
    /// end of the run.
    #[test]
    fn a_blocking_task_left_running_does_not_hold_up_the_end() {
        let started = Instant::now();
        super::run_to_end(super::runtime().unwrap(), async {
            drop(tokio::task::spawn_blocking(|| {
                std::thread::sleep(Duration::from_secs(5))
            }));
            tokio::task::yield_now().await;
        });
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
}
