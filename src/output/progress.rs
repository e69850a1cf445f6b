/*!
Progress on stderr for long runs (planning or diffing a fleet of Clusters).

Owns one thing: a counter that may draw an `indicatif` bar on stderr. It draws only for a person
watching: stderr must be a terminal and `TERM` must not be `dumb` (such a terminal cannot redraw
a line in place); `NO_COLOR` keeps the bar but drops its colour. Everywhere else (CI logs,
pipes, tests) a [`Progress`] is inert: no bar is created, and `inc`/`finish` are a branch on a
`None`. It never writes to stdout, so the planner's output stays byte-for-byte the same with or
without a terminal.

Thread safety: a [`Progress`] is `Send + Sync`; the planner calls [`Progress::inc`] from rayon
worker threads. `indicatif` keeps the position in an atomic and rate-limits redraws, so an
increment per Cluster costs no lock on the hot path.
*/

use std::ffi::OsStr;
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress counter that draws a bar on stderr when someone can see it.
#[derive(Debug, Clone)]
pub struct Progress {
    /// `None` when nothing is drawn: the counter is then free.
    bar: Option<ProgressBar>,
    /// The bar appears once the total reaches this (a run of a handful of Clusters finishes
    /// before a bar would mean anything); 0 draws from the start.
    from: u64,
}

/// What decides whether a bar is drawn; read from the process by [`Terminal::detect`], built
/// by hand in tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terminal {
    /// stderr is a terminal.
    pub stderr_is_terminal: bool,
    /// `TERM=dumb`: no cursor movement, so no bar.
    pub dumb: bool,
    /// `NO_COLOR` is set (and not empty): a bar without colour.
    pub no_color: bool,
}

impl Terminal {
    /// The current process's stderr and environment.
    pub fn detect() -> Terminal {
        Terminal {
            stderr_is_terminal: std::io::stderr().is_terminal(),
            dumb: std::env::var_os("TERM").is_some_and(|t| t == OsStr::new("dumb")),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
    }

    /// Whether a bar may be drawn.
    pub fn draws(self) -> bool {
        self.stderr_is_terminal && !self.dumb
    }
}

impl Progress {
    /// A counter of `total` steps labelled `label` (e.g. `planning`), drawn on stderr when it
    /// is a terminal that can show it.
    pub fn new(total: u64, label: &str) -> Progress {
        Progress::for_terminal(total, label, Terminal::detect())
    }

    /// A counter that never draws.
    pub fn hidden() -> Progress {
        Progress { bar: None, from: 0 }
    }

    /// [`Progress::new`], but drawn only once the total reaches `from` steps.
    pub fn from_total(from: u64, label: &str) -> Progress {
        let mut p = Progress::new(0, label);
        if let Some(bar) = &p.bar
            && from > 0
        {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        p.from = from;
        p
    }

    /// [`Progress::new`] for an explicit terminal description.
    pub fn for_terminal(total: u64, label: &str, terminal: Terminal) -> Progress {
        if !terminal.draws() {
            return Progress::hidden();
        }
        Progress::with_target(total, label, terminal, ProgressDrawTarget::stderr())
    }

    fn with_target(
        total: u64,
        label: &str,
        terminal: Terminal,
        target: ProgressDrawTarget,
    ) -> Progress {
        let template = if terminal.no_color {
            "{prefix} [{bar:30}] {pos}/{len} ({elapsed})"
        } else {
            "{prefix} [{bar:30.cyan/blue}] {pos}/{len} ({elapsed})"
        };
        // A template that does not parse is our bug, not the user's: fall back to the default
        // style rather than fail a plan over its decoration.
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = ProgressBar::with_draw_target(Some(total), target)
            .with_style(style)
            .with_prefix(label.to_string());
        Progress {
            bar: Some(bar),
            from: 0,
        }
    }

    /// Whether a bar is being drawn.
    pub fn is_active(&self) -> bool {
        self.bar.is_some()
    }

    /// Steps done so far (always 0 when inactive: nothing is counted).
    pub fn position(&self) -> u64 {
        self.bar.as_ref().map_or(0, ProgressBar::position)
    }

    /// Add `n` steps to the total (for work whose size is learnt as it goes).
    pub fn add_total(&self, n: u64) {
        if let Some(bar) = &self.bar {
            let before = bar.length().unwrap_or(0);
            bar.inc_length(n);
            if reaches(before, n, self.from) {
                bar.set_draw_target(ProgressDrawTarget::stderr());
            }
        }
    }

    /// Count `n` more steps done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Remove the bar from the terminal; later calls do nothing.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Whether adding `n` steps to a total of `before` makes it reach `from` (a bar hidden until
/// then appears).
fn reaches(before: u64, n: u64, from: u64) -> bool {
    from > 0 && before < from && before.saturating_add(n) >= from
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    const PIPE: Terminal = Terminal {
        stderr_is_terminal: false,
        dumb: false,
        no_color: false,
    };
    const TTY: Terminal = Terminal {
        stderr_is_terminal: true,
        dumb: false,
        no_color: false,
    };

    #[test]
    fn a_bar_appears_once_the_total_reaches_its_threshold() {
        assert!(!reaches(0, 5, 20));
        assert!(reaches(5, 15, 20));
        assert!(!reaches(20, 5, 20), "only once");
        assert!(
            !reaches(0, 100, 0),
            "0: drawn from the start, never switched"
        );
        let p = Progress::from_total(20, "planning");
        p.add_total(30);
        p.inc(3);
        p.finish();
    }

    #[test]
    fn no_terminal_means_no_bar() {
        let p = Progress::for_terminal(10, "planning", PIPE);
        assert!(!p.is_active());
        p.inc(3);
        p.finish();
        // Nothing was counted: there is no bar to count into.
        assert_eq!(p.position(), 0);
    }

    #[test]
    fn dumb_terminal_means_no_bar() {
        let dumb = Terminal { dumb: true, ..TTY };
        assert!(!dumb.draws());
        assert!(!Progress::for_terminal(10, "planning", dumb).is_active());
        // NO_COLOR alone still draws (without colour).
        let plain = Terminal {
            no_color: true,
            ..TTY
        };
        assert!(plain.draws());
    }

    #[test]
    fn increments_from_many_threads_all_count() {
        // A real bar drawn nowhere: what a terminal would get, minus the drawing.
        for terminal in [
            TTY,
            Terminal {
                no_color: true,
                ..TTY
            },
        ] {
            let p = Progress::with_target(2000, "planning", terminal, ProgressDrawTarget::hidden());
            assert!(p.is_active());
            (0..2000).into_par_iter().for_each(|_| p.inc(1));
            assert_eq!(p.position(), 2000);
            p.finish();
        }
    }
}
