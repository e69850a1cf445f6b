//! The `topoplan` binary: everything lives in the library; this only maps the result to an
//! exit code.

// Planning a fleet allocates and frees millions of small JSON nodes from several threads;
// mimalloc does that markedly faster than the system allocator (see docs/reference/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its number in `mimalloc.h`; mimalloc keeps option
/// numbers stable, deprecated ones included, as they are its ABI).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() -> std::process::ExitCode {
    // By default mimalloc gives freed pages back to the OS 10 ms later. A run frees the YAML
    // parser's temporary trees in waves, and each wave's pages were then faulted in (and zeroed
    // by the kernel) again: reading a 2,000-Cluster export spent a third of its time there. A
    // run is short and its peak is what counts, so freed memory stays for reuse.
    // SAFETY: mi_option_set only stores an integer in mimalloc's option table; any value is
    // valid for this option (-1: never purge).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    topoplan::cli::run()
}
