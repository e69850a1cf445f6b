//! `topoplan eval`: render one template as Cluster API renders `valueFrom.template`, or replay
//! the Go oracle's case lines (`--jsonl`) and answer with its result lines, byte for byte.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use super::{Failure, write_stdout, write_stdout_with};
use crate::diag::Diagnostic;
use crate::go::json as gojson;
use crate::gotemplate::capi::{self, RenderError};
use crate::gotemplate::func::FuncMap;
use crate::gotemplate::{MissingKey, sprig};
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
    let result = if args.text {
        capi::render_text(&template, &vars, sprig::hermetic(), MissingKey::Default).map(|mut t| {
            t.push('\n');
            t
        })
    } else {
        capi::render_value_template(&template, &vars).map(|r| r.json + "\n")
    };
    match result {
        Ok(out) => {
            write_stdout(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(Diagnostic::error(e.message().to_string())
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
        Some(_) => Err(Diagnostic::error(format!(
            "--vars {}: expected a mapping of variable names to values",
            path.display()
        ))
        .into()),
    }
}

/// Answer every case line on stdin.
fn jsonl(limit: &InputLimit) -> Result<ExitCode, Failure> {
    let stdin = limit
        .read(std::io::stdin().lock(), "<stdin>", None)
        .map_err(|e| match e {
            ReadError::Io(e) => Diagnostic::error(format!("cannot read standard input: {e}")),
            ReadError::TooLarge(d) => d,
        })?;
    let mut lines = Vec::new();
    for line in stdin.lines() {
        let line =
            line.map_err(|e| Diagnostic::error(format!("cannot read standard input: {e}")))?;
        if !line.trim().is_empty() {
            lines.push(line);
        }
    }
    write_stdout_with(|w| {
        for line in &lines {
            let mut out = answer(line);
            out.push('\n');
            w.write_all(out.as_bytes())?;
        }
        Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// One oracle result line for one case line (without the newline).
pub fn answer(line: &str) -> String {
    let case: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return failure("input", &e.to_string(), None),
    };
    let template = case.get("template").and_then(Value::as_str).unwrap_or("");
    let data = case.get("data").cloned().unwrap_or(Value::Null);
    let none = FuncMap::new();
    let funcs = match case.get("funcs").and_then(Value::as_str).unwrap_or("") {
        "" | "hermetic" => sprig::hermetic(),
        "none" => &none,
        other => {
            return failure(
                "input",
                &format!("unknown funcs {other:?} (topoplan has only the hermetic map)"),
                None,
            );
        }
    };
    let missing_key = match case.get("missingkey").and_then(Value::as_str).unwrap_or("") {
        "" | "default" | "invalid" => MissingKey::Default,
        "zero" => MissingKey::Zero,
        "error" => MissingKey::Error,
        other => {
            return failure(
                "parse",
                &format!("unrecognized option: missingkey={other}"),
                None,
            );
        }
    };
    if case.get("useNumber").and_then(Value::as_bool) == Some(true) {
        return failure(
            "input",
            "useNumber is not supported: Cluster API decodes numbers as float64",
            None,
        );
    }
    let text = match capi::render_text(template, &data, funcs, missing_key) {
        Ok(t) => t,
        Err(e) => return failure(e.stage(), e.message(), None),
    };
    let mut out = String::from("{\"ok\":");
    if case.get("yamlToJSON").and_then(Value::as_bool) == Some(true) {
        match capi::yaml_to_json(&text) {
            Ok(v) => {
                out.push_str("true,\"output\":");
                out.push_str(&gojson::string(&text, false));
                out.push_str(",\"json\":");
                out.push_str(&gojson::marshal(&v));
            }
            Err(e) => return failure("yaml", e.message(), Some(&text)),
        }
    } else {
        out.push_str("true,\"output\":");
        out.push_str(&gojson::string(&text, false));
    }
    out.push('}');
    out
}

fn failure(stage: &str, message: &str, output: Option<&str>) -> String {
    let mut out = String::from("{\"ok\":false,");
    if let Some(o) = output {
        out.push_str("\"output\":");
        out.push_str(&gojson::string(o, false));
        out.push(',');
    }
    out.push_str("\"stage\":");
    out.push_str(&gojson::string(stage, false));
    out.push_str(",\"error\":");
    out.push_str(&gojson::string(message, false));
    out.push('}');
    out
}
