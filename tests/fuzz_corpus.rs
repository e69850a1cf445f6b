/*!
Replays every fuzz corpus on the stable toolchain: each file of `fuzz/corpus/<target>/` (seeds,
fuzzer finds and crash reproducers) and of `fuzz/artifacts/<target>/` (a local fuzzing run's
crashes, if any) goes through the same `topoplan::fuzzing` function the cargo-fuzz target
calls. A panic is caught per input and the test fails naming every file that panicked, so a
bug found by fuzzing stays fixed without nightly or libFuzzer.
*/

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    out.retain(|p| p.is_file());
    out.sort();
    out
}

/// Run `target` on every file of its corpus and artifacts; the files that panicked, with the
/// panic message, and how many files ran.
fn replay(name: &str, target: topoplan::fuzzing::Target) -> (Vec<String>, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs = files(&root.join("corpus").join(name));
    inputs.extend(files(&root.join("artifacts").join(name)));
    let mut failed = Vec::new();
    for path in &inputs {
        let data = match std::fs::read(path) {
            Ok(d) => d,
            Err(e) => {
                failed.push(format!("{}: cannot read: {e}", path.display()));
                continue;
            }
        };
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| target(&data))) {
            let msg = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("(no message)");
            failed.push(format!("{}: {msg}", path.display()));
        }
    }
    (failed, inputs.len())
}

#[test]
fn every_corpus_file_runs_without_panic() {
    let mut failed = Vec::new();
    for &(name, target) in topoplan::fuzzing::TARGETS {
        let (mut f, n) = replay(name, target);
        assert!(n > 0, "fuzz/corpus/{name} is empty");
        failed.append(&mut f);
    }
    assert!(failed.is_empty(), "panicked on:\n{}", failed.join("\n"));
}

/// The two crashes fuzzing found (miette panicked on a label past column 65535, and on a span
/// starting one byte past the end of the text) are in the corpus; this keeps them there.
#[test]
fn the_crashes_fuzzing_found_stay_in_the_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/diag_render");
    for f in [
        "crash-miette-column-past-65535",
        "crash-miette-span-one-past-end",
    ] {
        assert!(dir.join(f).is_file(), "{f} is missing");
    }
}

#[test]
fn every_target_has_a_corpus_and_a_cargo_fuzz_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap_or_default();
    for &(name, _) in topoplan::fuzzing::TARGETS {
        assert!(
            root.join("fuzz_targets")
                .join(format!("{name}.rs"))
                .is_file(),
            "fuzz/fuzz_targets/{name}.rs is missing"
        );
        assert!(
            manifest.contains(&format!("name = \"{name}\"")),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
    }
}
