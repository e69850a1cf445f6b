//! `topoplan plan`: flags, their resolution into [`PlanOptions`], and printing the result.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::{Failure, report, stdout_color, write_stdout, write_stdout_with};
use crate::diag::Diagnostic;
use crate::output;
use crate::plan::{self, PlanOptions};

/// Arguments of `topoplan plan`.
#[derive(Debug, Args)]
pub struct PlanArgs {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// Admission.
    #[command(flatten)]
    pub admission: AdmissionArgs,

    /// Runtime extensions.
    #[command(flatten)]
    pub extensions: ExtensionArgs,

    /// The objects as they are now (files, directories or -), e.g. the output of `kubectl get
    /// cluster,machinedeployments,machinepools,machinehealthchecks,machines,<provider kinds>
    /// -A -o yaml`: existing objects keep their names and are compared the way the topology
    /// controller compares them (server-side apply); repeatable.
    #[arg(long = "current", value_name = "PATH")]
    pub current: Vec<PathBuf>,

    /// Exit with 2 when the plan changes anything (0 when it changes nothing, 1 on error).
    #[arg(long = "detailed-exitcode")]
    pub detailed_exitcode: bool,

    /// Plan only this Cluster (NAMESPACE/NAME); repeatable.
    #[arg(long = "cluster", value_name = "NAMESPACE/NAME")]
    pub clusters: Vec<String>,

    /// Write one YAML file per object under DIR (replaces a previous topoplan output there).
    #[arg(short = 'o', long = "output-dir", value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    /// What to print on stdout.
    #[arg(long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also show what each ClusterClass patch did to each template: the operations with their
    /// values, or why it was skipped (after the table; in the plan document with --output
    /// json/yaml).
    #[arg(long = "explain")]
    pub explain: bool,
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
    /// Show the patch trace.
    pub explain: bool,
    /// Exit 2 on changes.
    pub detailed_exitcode: bool,
}

/// `--cluster NAMESPACE/NAME` values; malformed ones become errors.
pub fn parse_clusters(values: &[String], errors: &mut Vec<Diagnostic>) -> Vec<(String, String)> {
    let mut clusters = Vec::new();
    for c in values {
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
    clusters
}

/// Resolve the flags into library options.
pub fn resolve(args: PlanArgs) -> Result<(PlanOptions, OutputOptions), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let clusters = parse_clusters(&args.clusters, &mut errors);
    let load = match args.input.resolve() {
        Ok(l) => Some(l),
        Err(mut e) => {
            errors.append(&mut e);
            None
        }
    };
    let gates = match args.admission.gates() {
        Ok(g) => g,
        Err(e) => {
            errors.push(e);
            crate::validate::Gates::default()
        }
    };
    let extensions = match args.extensions.resolve(&args.input.limits.limit()) {
        Ok(x) => x,
        Err(mut e) => {
            errors.append(&mut e);
            Default::default()
        }
    };
    let Some(load) = load.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    // Stored objects are read as they are: no ${VAR} substitution.
    let current = (!args.current.is_empty()).then(|| crate::load::LoadOptions {
        paths: args.current.clone(),
        default_namespace: load.default_namespace.clone(),
        substitute: None,
        input_limit: load.input_limit.clone(),
        ..Default::default()
    });
    Ok((
        PlanOptions {
            load,
            clusters,
            gates,
            extensions,
            current,
        },
        OutputOptions {
            format: args.format,
            dir: args.output_dir,
            color: stdout_color(),
            explain: args.explain,
            detailed_exitcode: args.detailed_exitcode,
        },
    ))
}

/// Run `plan`.
pub fn run(args: PlanArgs) -> Result<ExitCode, Failure> {
    let (opts, out) = resolve(args)?;
    let progress = output::progress::Progress::new(0, "planning");
    let result = plan::plan_with_progress(&opts, &progress);
    progress.finish();
    let (plan, inputs) = result.map_err(|d| Failure::Diagnostics(d.0))?;
    report(&plan.warnings);
    // Files first: if the directory cannot be written, nothing claims success on stdout.
    if let Some(dir) = &out.dir {
        output::files::write(&plan, dir)?;
    }
    match out.format {
        Format::Table => write_stdout(&output::table::render(&plan, out.color))?,
        Format::Yaml => write_stdout(&output::document::to_yaml(&plan, out.explain))?,
        Format::Json => write_stdout_with(|w| output::document::write_json(&plan, out.explain, w))?,
    }
    // With a plan document, the explanation is part of it.
    if out.explain && out.format == Format::Table {
        let text: String = plan
            .clusters
            .iter()
            .map(|c| {
                crate::patches::explain::render(&format!("{}/{}", c.namespace, c.name), &c.patches)
            })
            .collect();
        write_stdout(&format!("\n{text}"))?;
    }
    // The process exits next: freeing a fleet's worth of JSON trees would only cost time.
    let changes = plan.clusters.iter().any(plan::ClusterPlan::has_changes);
    std::mem::forget(plan);
    std::mem::forget(inputs);
    Ok(if out.detailed_exitcode && changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
