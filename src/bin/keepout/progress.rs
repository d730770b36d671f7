//! A one-line progress bar on stderr, drawn only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the bar is redrawn at most.
const REDRAW: Duration = Duration::from_millis(80);
const WIDTH: usize = 30;

/// Counts finished items out of a total that grows as items are found.
pub struct Progress {
    label: &'static str,
    total: usize,
    done: usize,
    enabled: bool,
    drawn: Option<Instant>,
}

impl Progress {
    /// A bar, shown when `wanted` and stderr is a terminal, and only once
    /// there are two items or more (one needs no bar).
    pub fn new(label: &'static str, wanted: bool) -> Progress {
        Progress {
            label,
            total: 0,
            done: 0,
            enabled: wanted && std::io::stderr().is_terminal(),
            drawn: None,
        }
    }

    /// One more item to do.
    pub fn grow(&mut self) {
        self.total += 1;
    }

    /// One more item finished.
    pub fn inc(&mut self) {
        self.done += 1;
        if self.enabled
            && self.total > 1
            && (self.done == self.total || self.drawn.is_none_or(|t| t.elapsed() >= REDRAW))
        {
            self.draw();
        }
    }

    fn draw(&mut self) {
        let filled = WIDTH * self.done.min(self.total) / self.total;
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH - filled));
        let mut err = std::io::stderr().lock();
        // A progress bar that cannot be drawn is not worth failing for.
        let _ = write!(err, "\r{} [{bar}] {}/{}", self.label, self.done, self.total);
        let _ = err.flush();
        self.drawn = Some(Instant::now());
    }

    /// Erases the bar, leaving the terminal line clean for the output.
    pub fn finish(&mut self) {
        if self.enabled && self.drawn.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = None;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
