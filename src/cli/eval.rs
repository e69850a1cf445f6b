//! `topoplan eval`: render one template as Cluster API renders `valueFrom.template`, or replay
//! the Go oracle's case lines (`--jsonl`) and answer with its result lines, byte for byte.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use super::terminal::{Failure, write_stdout, write_stdout_with};
use crate::diag::{Code, Diagnostic};
use crate::gotemplate::capi::RenderError;
use crate::load::limit::{InputLimit, ReadError};
use crate::source::SourceFile;

/// Arguments of `topoplan eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The template text (a `valueFrom.template` or `enabledIf`).
    #[arg(required_unless_present = "jsonl", conflicts_with = "jsonl")]
    pub template: Option<String>,

    /// YAML or JSON file with the variables (a mapping of name to value), e.g.
    /// `{builtin: {cluster: {name: c1}}, replicas: 3}`.
    #[arg(long, value_name = "FILE", conflicts_with = "jsonl")]
    pub vars: Option<PathBuf>,

    /// Print the rendered text instead of the JSON value Cluster API would use.
    #[arg(long, conflicts_with = "jsonl")]
    pub text: bool,

    /// Read oracle case lines on stdin (`{"template", "data", "funcs", "missingkey",
    /// "yamlToJSON"}`) and write one result line per case (`{"ok", "output", "json", "stage",
    /// "error"}`), as the Go oracle does.
    #[arg(long)]
    pub jsonl: bool,

    /// Input size limit (--vars, or the case lines of --jsonl).
    #[command(flatten)]
    pub limits: super::input::InputLimitArgs,
}

/// Run `eval`.
pub fn run(args: EvalArgs) -> Result<ExitCode, Failure> {
    let limit = args.limits.limit();
    if args.jsonl {
        return jsonl(&limit);
    }
    let template = args.template.unwrap_or_default();
    let vars = match &args.vars {
        Some(path) => read_vars(path, &limit)?,
        None => Value::Object(serde_json::Map::new()),
    };
    match crate::pipeline::eval::render(&template, &vars, args.text) {
        Ok(out) => {
            write_stdout(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(Diagnostic::error(Code::TemplateRender, e.message().to_string())
            .with_help(match e {
                RenderError::Parse(_) => "the template does not parse as Go text/template",
                RenderError::Exec(_) => "the template failed while rendering",
                RenderError::Yaml { .. } => {
                    "the rendered text is not valid YAML, so Cluster API cannot use it as a value"
                }
            })
            .into()),
    }
}

fn read_vars(path: &std::path::Path, limit: &InputLimit) -> Result<Value, Failure> {
    let text = super::input::read_text(limit, path, "--vars")?;
    let file = SourceFile::new(path.display().to_string(), text);
    let docs = crate::load::yaml::parse_stream(&file)?;
    match docs.into_iter().next().map(|d| d.value) {
        Some(v @ Value::Object(_)) => Ok(v),
        None => Ok(Value::Object(serde_json::Map::new())),
        Some(_) => Err(Diagnostic::error(
            Code::Usage,
            format!(
                "--vars {}: expected a mapping of variable names to values",
                path.display()
            ),
        )
        .into()),
    }
}

/// Answer every case line on stdin.
fn jsonl(limit: &InputLimit) -> Result<ExitCode, Failure> {
    let stdin = limit
        .read(std::io::stdin().lock(), "<stdin>", None)
        .map_err(|e| match e {
            ReadError::Io(e) => {
                Diagnostic::error(Code::InputRead, format!("cannot read standard input: {e}"))
            }
            ReadError::TooLarge(d) => d,
        })?;
    let mut lines = Vec::new();
    for line in stdin.lines() {
        let line = line.map_err(|e| {
            Diagnostic::error(Code::InputRead, format!("cannot read standard input: {e}"))
        })?;
        if !line.trim().is_empty() {
            lines.push(line);
        }
    }
    write_stdout_with(|w| {
        for line in &lines {
            let mut out = crate::pipeline::eval::answer(line);
            out.push('\n');
            w.write_all(out.as_bytes())?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
