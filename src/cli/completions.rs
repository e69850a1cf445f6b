//! `topoplan completions SHELL`: print a completion script generated from the clap definition.

use std::process::ExitCode;

use clap::Args;
use clap_complete::Shell;

use super::{Failure, write_stdout};

/// Arguments of `topoplan completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to generate completions for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Print the script.
pub fn run(args: &CompletionsArgs) -> Result<ExitCode, Failure> {
    write_stdout(&super::generated::completion(args.shell))?;
    Ok(ExitCode::SUCCESS)
}
