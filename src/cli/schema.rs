//! `topoplan schema KIND`: print the JSON Schema of a document topoplan prints.

use std::process::ExitCode;

use clap::Args;

use super::terminal::{Failure, write_stdout};
use crate::output::schema::{Kind, text};

/// Arguments of `topoplan schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which document: plan, review (diff), validation or extension-check.
    #[arg(value_enum)]
    pub kind: Kind,
}

/// Print the schema.
pub fn run(args: &SchemaArgs) -> Result<ExitCode, Failure> {
    write_stdout(text(args.kind))?;
    Ok(ExitCode::SUCCESS)
}
