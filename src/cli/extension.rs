//! `topoplan extension check`: flags, their resolution into [`CheckOptions`], and printing the
//! report (a table, or a JSON document with `-o json`). Exit 0 when every check passed (or was
//! skipped), 1 when one failed or the input could not be planned.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand, ValueEnum};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs, read_text};
use super::terminal::{Failure, report, write_stdout};
use crate::diag::{Code, Diagnostic};
use crate::extension_check::{
    Baseline, CheckOptions, DEFAULT_CALLS, DEFAULT_DEADLINE_SECS, MAX_CALLS,
};
use crate::plan::PlanOptions;

/// Arguments of `topoplan extension`.
#[derive(Debug, Args)]
pub struct ExtensionCommand {
    /// What to do.
    #[command(subcommand)]
    pub command: ExtensionSubcommand,
}

/// Subcommands of `topoplan extension`.
#[derive(Debug, Subcommand)]
pub enum ExtensionSubcommand {
    /// Check a Runtime extension against the topology-mutation guidelines (deterministic,
    /// idempotent, validating its input, stable errors, fast, valid answers and variables),
    /// with the requests a plan of the input sends.
    Check(CheckArgs),
}

/// Arguments of `topoplan extension check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// What to read: ClusterClasses with external patches, their templates, Clusters using them.
    #[command(flatten)]
    pub input: InputArgs,

    /// Admission.
    #[command(flatten)]
    pub admission: AdmissionArgs,

    /// The extensions to check (at least one --extension NAME=URL).
    #[command(flatten)]
    pub extensions: ExtensionArgs,

    /// What to print on stdout.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Calls per handler for the latency figures (p50, p99).
    #[arg(long = "calls", value_name = "N", default_value_t = DEFAULT_CALLS)]
    pub calls: usize,

    /// The previous version's DiscoverVariablesResponse (YAML or JSON): report breaking changes
    /// of the discovered variables (removed, narrowed, newly required without default).
    #[arg(long = "baseline", value_name = "FILE")]
    pub baseline: Option<PathBuf>,

    /// Stop after this many seconds (planning and checks together): no call starts later, and
    /// the report says which checks ran; the run then fails.
    #[arg(long = "deadline", value_name = "SECONDS", default_value_t = DEFAULT_DEADLINE_SECS)]
    pub deadline: u64,
}

/// Output formats of `extension check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One row per check, then the evidence of each failed check.
    Table,
    /// A document with every check: name, passed, status, message, warnings, evidence.
    Json,
}

/// Read `--baseline`.
fn baseline(args: &CheckArgs) -> Result<Option<Baseline>, Vec<Diagnostic>> {
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    let text = read_text(&args.input.limits.limit(), path, "--baseline").map_err(|d| vec![d])?;
    let shown = path.display().to_string();
    let bad = |why: String| {
        vec![
            Diagnostic::error(Code::ExtensionBaseline, format!("--baseline {shown}: {why}"))
                .with_help("save the previous version's answer, e.g. kind: DiscoverVariablesResponse with its variables list"),
        ]
    };
    let doc = crate::load::yaml::parse_value(&text).map_err(bad)?;
    let kind = doc.get("kind").and_then(serde_json::Value::as_str);
    if kind.is_some_and(|k| k != "DiscoverVariablesResponse") {
        return Err(bad(format!(
            "expected kind DiscoverVariablesResponse, got {}",
            kind.unwrap_or_default()
        )));
    }
    let Some(vars) = doc.get("variables").and_then(serde_json::Value::as_array) else {
        return Err(bad("no variables list".into()));
    };
    Ok(Some(Baseline {
        source: shown,
        variables: vars.clone(),
    }))
}

/// Resolve the flags.
pub fn resolve(args: CheckArgs) -> Result<(CheckOptions, Format), Failure> {
    let mut errors = Vec::new();
    if args.extensions.extensions.is_empty() {
        errors.push(
            Diagnostic::error(Code::Usage, "extension check needs --extension NAME=URL")
                .with_help("name the extension the ClusterClass refers to, e.g. --extension test-extension=http://127.0.0.1:8080"),
        );
    }
    // A check sends what no plan sends (repeats, variations) and times the answers: it talks to
    // the live extension only. Its calls can still be traced.
    for (flag, set) in [
        (
            "--record-extensions",
            args.extensions.record_extensions.is_some(),
        ),
        (
            "--replay-extensions",
            args.extensions.replay_extensions.is_some(),
        ),
    ] {
        if set {
            errors.push(
                Diagnostic::error(
                    Code::Usage,
                    format!("extension check cannot use {flag}: it checks the live extension"),
                )
                .with_help("record and replay with plan, diff or validate; --trace-extensions shows a check's calls"),
            );
        }
    }
    if !(1..=MAX_CALLS).contains(&args.calls) {
        errors.push(Diagnostic::error(
            Code::Usage,
            format!("--calls {}: must be between 1 and {MAX_CALLS}", args.calls),
        ));
    }
    let baseline = baseline(&args).unwrap_or_else(|e| {
        errors.extend(e);
        None
    });
    if !errors.is_empty() {
        return Err(Failure::Diagnostics(errors));
    }
    let (load, providers) = args.input.resolve()?;
    Ok((
        CheckOptions {
            plan: PlanOptions {
                crds: args.admission.crds(&load),
                load,
                gates: args.admission.gates()?,
                extensions: args
                    .extensions
                    .resolve(&args.input.limits.limit())
                    .map_err(Failure::Diagnostics)?,
                providers,
                all_current: false,
                ..PlanOptions::default()
            },
            calls: args.calls,
            baseline,
            deadline: Some(std::time::Duration::from_secs(args.deadline)),
        },
        args.format,
    ))
}

/// Run `topoplan extension`.
pub fn run(args: ExtensionCommand) -> Result<ExitCode, Failure> {
    match args.command {
        ExtensionSubcommand::Check(a) => check(a),
    }
}

fn check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let (opts, format) = resolve(args)?;
    let checked =
        crate::pipeline::extension_check::check(&opts).map_err(|d| Failure::Diagnostics(d.0))?;
    report(&checked.warnings);
    let r = &checked.report;
    let text = match format {
        Format::Table => r.to_table(),
        Format::Json => {
            let mut t = serde_json::to_string_pretty(&r.to_json())
                .map(crate::output::actions::json_safe)
                .map_err(|e| {
                    Diagnostic::error(Code::Internal, format!("cannot encode JSON: {e}"))
                })?;
            t.push('\n');
            t
        }
    };
    write_stdout(&text)?;
    let mut errors = checked.errors;
    if !r.passed() {
        errors.push(
            Diagnostic::error(
                Code::ExtensionCheckFailed,
                format!(
                    "{} of {} checks failed: {}",
                    r.failed().len(),
                    r.checks.len(),
                    r.failed().join(", ")
                ),
            )
            .with_help(
                "the report on stdout shows each failed check's evidence (-o json shows it whole)",
            ),
        );
    }
    if errors.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        report(&errors);
        Ok(ExitCode::from(1))
    }
}
