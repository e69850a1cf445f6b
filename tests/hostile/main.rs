//! Hostile inputs: each test feeds topoplan something an attacker could put in a pull request
//! and checks that the run ends quickly, within a memory bound, with exit code 1, a located
//! message, nothing on stdout and nothing written where it should not be.
//!
//! Every process is spawned under a wall-clock limit (killed when it is exceeded) and its peak
//! resident memory is read from the kernel (`wait4`'s rusage), so a regression shows up as a
//! failed bound rather than a hung or swapping test run.

mod harness;

// The shared CLI test builders, for the `Plan` scenario builder's inputs.
#[path = "../common/mod.rs"]
mod common;

// The project's test extension (a faithful Runtime SDK server on 127.0.0.1), shared.
#[path = "../extension_server/mod.rs"]
mod extension_server;

mod actions;
mod budgets;
mod diagnostics;
mod extensions;
mod filesystem;
mod names;
mod output_dir;
mod provider_repo;
mod resources;
mod templates;
