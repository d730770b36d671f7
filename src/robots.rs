//! The parsed robots.txt and the questions a crawler asks of it (skeleton).
use crate::fetch::FetchOutcome;

/// Which rules govern a [`Robots`] value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The parsed rules decide.
    Rules,
    /// Everything is allowed (robots.txt unavailable: 4xx, RFC 9309 section 2.3.1.3).
    AllowAll,
    /// Everything is disallowed (robots.txt unreachable: 5xx, network; section 2.3.1.4).
    DisallowAll,
}

/// A parsed robots.txt.
#[derive(Debug, Clone)]
pub struct Robots {
    access: Access,
    fetch: Option<Box<FetchOutcome>>,
}

impl Robots {
    /// Parses robots.txt bytes. Never fails, never panics.
    pub fn parse(body: impl AsRef<[u8]>) -> Robots {
        let _ = body.as_ref();
        Robots {
            access: Access::Rules,
            fetch: None,
        }
    }
    /// A value that allows everything.
    pub fn allow_all() -> Robots {
        Robots {
            access: Access::AllowAll,
            fetch: None,
        }
    }
    /// A value that disallows everything but `/robots.txt`.
    pub fn disallow_all() -> Robots {
        Robots {
            access: Access::DisallowAll,
            fetch: None,
        }
    }
    /// Which rules govern this value.
    pub fn access(&self) -> Access {
        self.access
    }
    /// May `agent` fetch `url`?
    pub fn is_allowed(&self, _agent: &str, _url: &str) -> bool {
        self.access != Access::DisallowAll
    }
    /// How this value was fetched, if it was.
    pub fn fetch_outcome(&self) -> Option<&FetchOutcome> {
        self.fetch.as_deref()
    }
    /// Attaches a fetch outcome (used by the fetcher).
    pub(crate) fn with_fetch_outcome(mut self, outcome: FetchOutcome) -> Robots {
        self.fetch = Some(Box::new(outcome));
        self
    }
}
