//! Fuzz target `diag_render`: the input layout and the code under test are in
//! `topoplan::fuzzing::diag_render`, which the corpus replay in `cargo test` runs too.
//!
//! With `FUZZ_IGNORE_KNOWN_PANICS=1` in the environment, the two miette panics kept in
//! `fuzz/known-crashes/diag_render/` (a label past column 65535; a span starting one byte past
//! the end) count as handled instead of stopping the run, so that a long session can look for
//! other bugs before their fix is in. Every other panic still aborts as usual.
#![no_main]

use std::cell::Cell;
use std::panic::PanicHookInfo;

/// The file and line of each known panic inside miette 7.6.
const KNOWN: &[(&str, u32)] = &[
    ("src/handlers/graphical.rs", 1159),
    ("src/source_impls.rs", 80),
];

thread_local! {
    static KNOWN_PANIC: Cell<bool> = const { Cell::new(false) };
}

fn is_known(info: &PanicHookInfo<'_>) -> bool {
    info.location().is_some_and(|l| {
        l.file().contains("miette-")
            && KNOWN
                .iter()
                .any(|&(file, line)| l.file().ends_with(file) && l.line() == line)
    })
}

fn ignore_known() -> bool {
    std::env::var_os("FUZZ_IGNORE_KNOWN_PANICS").is_some_and(|v| v == "1")
}

libfuzzer_sys::fuzz_target!(
    init: {
        if ignore_known() {
            // libfuzzer-sys's hook prints the panic and aborts; keep it for every other panic.
            let abort = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                if is_known(info) {
                    KNOWN_PANIC.with(|k| k.set(true));
                } else {
                    abort(info);
                }
            }));
        }
    },
    |data: &[u8]| {
        let run = std::panic::catch_unwind(|| topoplan::fuzzing::diag_render(data));
        if run.is_err() && !KNOWN_PANIC.with(|k| k.replace(false)) {
            std::process::abort();
        }
    }
);
