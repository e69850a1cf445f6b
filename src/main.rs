//! The `topoplan` binary: everything lives in the library; this only maps the result to an
//! exit code.

// Planning a fleet allocates and frees millions of small JSON nodes from several threads;
// mimalloc does that markedly faster than the system allocator (see docs/reference/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    topoplan::cli::run()
}
