//! keepout: robots.txt for async crawlers (skeleton; crate docs come with the core).
#![forbid(unsafe_code)]

mod error;
pub mod fetch;
mod robots;

pub use error::Error;
pub use fetch::{FetchOutcome, FetchResult, Fetcher, FetcherBuilder};
pub use robots::{Access, Robots};
