//! The `topoplan` binary: everything lives in the library; this only maps the result to an
//! exit code.

fn main() -> std::process::ExitCode {
    topoplan::cli::run()
}
