//! SIGINT and SIGTERM while `plan --output-dir` writes: instead of dying with a half-made
//! staging directory (or, between two renames, no output directory at all), the process raises
//! a flag that the writer checks between steps ([`crate::output::replace`]), cleans up and exits
//! with [`EXIT_CODE`].
//!
//! The handlers are installed only when writing starts: while planning, nothing is on disk yet,
//! and the default action (terminate at once) is what a user pressing Ctrl-C wants.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use crate::diag::{Code, Diagnostic};

/// Exit code of an interrupted run (128 + SIGINT, as shells report it).
pub const EXIT_CODE: u8 = 130;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// Whether a signal arrived since [`catch`] installed the handlers.
pub fn raised() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Catch SIGINT and SIGTERM from now on; the returned flag is raised when one arrives.
pub fn catch() -> Result<&'static AtomicBool, Diagnostic> {
    let installed = INSTALLED.get_or_init(|| {
        for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(sig, &INTERRUPTED).map_err(|e| e.to_string())?;
        }
        Ok(())
    });
    match installed {
        Ok(()) => Ok(&INTERRUPTED),
        Err(e) => Err(Diagnostic::error(
            Code::OutputWrite,
            format!("cannot handle SIGINT and SIGTERM while writing the output directory: {e}"),
        )),
    }
}
