//! `topoplan plan`: flags, their resolution into [`PlanOptions`], and printing the result.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{Failure, report, stdout_color, write_stdout, write_stdout_with};
use crate::diag::Diagnostic;
use crate::load::source::SourceFile;
use crate::load::{LoadOptions, envfile};
use crate::output;
use crate::plan::{self, PlanOptions};

/// Arguments of `topoplan plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Input files or directories (recursive, *.yaml|*.yml|*.json, sorted); - reads stdin.
    #[arg(short = 'f', long = "filename", value_name = "PATH", required = true)]
    pub files: Vec<PathBuf>,

    /// Namespace for objects that have none [default: with --substitute the NAMESPACE
    /// variable if set, as clusterctl's target namespace; otherwise "default"].
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Plan only this Cluster (NAMESPACE/NAME); repeatable.
    #[arg(long = "cluster", value_name = "NAMESPACE/NAME")]
    pub clusters: Vec<String>,

    /// Substitute clusterctl-style ${VAR} variables in the input before parsing.
    #[arg(long)]
    pub substitute: bool,

    /// KEY=VALUE file of variables for --substitute; the environment overrides it.
    #[arg(long, value_name = "FILE", requires = "substitute")]
    pub env_file: Option<PathBuf>,

    /// Write one YAML file per object under DIR (replaces a previous topoplan output there).
    #[arg(short = 'o', long = "output-dir", value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    /// What to print on stdout.
    #[arg(long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Output formats of `plan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table per Cluster.
    Table,
    /// The plan document as JSON.
    Json,
    /// The plan document as YAML.
    Yaml,
}

/// Where and how the plan is shown.
#[derive(Debug, Clone)]
pub struct OutputOptions {
    /// stdout format.
    pub format: Format,
    /// Directory for per-object files.
    pub dir: Option<PathBuf>,
    /// Colour the table.
    pub color: bool,
}

/// Resolve the flags into library options.
pub fn resolve(args: PlanArgs) -> Result<(PlanOptions, OutputOptions), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut clusters = Vec::new();
    for c in &args.clusters {
        match c.split_once('/') {
            Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => {
                clusters.push((ns.to_string(), name.to_string()));
            }
            _ => errors.push(
                Diagnostic::error(format!("--cluster {c:?}: expected NAMESPACE/NAME"))
                    .with_help("for example --cluster default/my-cluster"),
            ),
        }
    }
    let substitute = if args.substitute {
        let mut vars = BTreeMap::new();
        if let Some(path) = &args.env_file {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    match envfile::parse(&SourceFile::new(path.display().to_string(), text)) {
                        Ok(v) => vars = v,
                        Err(e) => errors.push(e),
                    }
                }
                Err(e) => errors.push(Diagnostic::error(format!(
                    "cannot read --env-file {}: {e}",
                    path.display()
                ))),
            }
        }
        // Like clusterctl, the environment wins over the file.
        for (k, v) in std::env::vars_os() {
            if let (Some(k), Some(v)) = (k.to_str(), v.to_str()) {
                vars.insert(k.to_string(), v.to_string());
            }
        }
        Some(vars)
    } else {
        None
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let default_namespace = args
        .namespace
        .or_else(|| {
            substitute
                .as_ref()
                .and_then(|v| v.get("NAMESPACE"))
                .filter(|n| !n.is_empty())
                .cloned()
        })
        .unwrap_or_else(|| "default".to_string());
    Ok((
        PlanOptions {
            load: LoadOptions {
                paths: args.files,
                default_namespace,
                substitute,
            },
            clusters,
        },
        OutputOptions {
            format: args.format,
            dir: args.output_dir,
            color: stdout_color(),
        },
    ))
}

/// Run `plan`.
pub fn run(args: PlanArgs) -> Result<ExitCode, Failure> {
    let (opts, out) = resolve(args)?;
    let (plan, inputs) = plan::plan_with_inputs(&opts).map_err(|d| Failure::Diagnostics(d.0))?;
    report(&plan.warnings);
    // Files first: if the directory cannot be written, nothing claims success on stdout.
    if let Some(dir) = &out.dir {
        output::files::write(&plan, dir)?;
    }
    match out.format {
        Format::Table => write_stdout(&output::table::render(&plan, out.color))?,
        Format::Yaml => write_stdout(&output::document::to_yaml(&plan))?,
        Format::Json => write_stdout_with(|w| output::document::write_json(&plan, w))?,
    }
    // The process exits next: freeing a fleet's worth of JSON trees would only cost time.
    std::mem::forget(plan);
    std::mem::forget(inputs);
    Ok(ExitCode::SUCCESS)
}
