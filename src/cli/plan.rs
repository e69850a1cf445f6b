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

    /// Write one YAML file per object under DIR, creating it and its parents if missing; an
    /// earlier plan there is replaced atomically, and only if nothing was added to it.
    #[arg(
        long = "output-dir",
        visible_alias = "output-directory",
        value_name = "DIR"
    )]
    pub output_dir: Option<PathBuf>,

    /// What to print on stdout.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Also show what each ClusterClass patch did to each template: the operations with their
    /// values, or why it was skipped (after the table; in the plan document with -o
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
    /// Every input path (`-f`, `--current`): the directory may not hold one.
    pub inputs: Vec<PathBuf>,
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
    let Some(mut load) = load.filter(|_| errors.is_empty()) else {
        return Err(errors);
    };
    let inputs: Vec<PathBuf> = load.paths.iter().chain(&args.current).cloned().collect();
    if let Some(dir) = &args.output_dir {
        // Refuse a directory that cannot be replaced safely before spending time on a plan.
        crate::output::replace::check(dir, &inputs).map_err(|d| vec![d])?;
        // `plan -f . --output-dir out` must not read an earlier plan in out/ as input.
        load.exclude.push(dir.clone());
    }
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
            inputs,
            color: stdout_color(),
            explain: args.explain,
            detailed_exitcode: args.detailed_exitcode,
        },
    ))
}

/// Write the output directory, catching SIGINT/SIGTERM meanwhile (see [`super::interrupt`]).
fn write_dir(plan: &plan::Plan, dir: &std::path::Path, inputs: &[PathBuf]) -> Result<(), Failure> {
    use output::replace::{TestHook, WriteError, WriteOptions};
    let cancel = super::interrupt::catch()?;
    // Test-only: lets the tests hit the windows a signal or a failed rename matter in.
    let hook = std::env::var("TOPOPLAN_TEST_WRITE_HOOK")
        .ok()
        .and_then(|v| TestHook::parse(&v));
    let opts = WriteOptions {
        inputs,
        cancel: Some(cancel),
        hook,
    };
    match output::replace::write(plan, dir, opts) {
        Ok(warnings) => {
            report(&warnings);
            Ok(())
        }
        Err(WriteError::Failed(d)) => Err(d.into()),
        Err(WriteError::Interrupted(d)) => Err(Failure::Interrupted(d)),
    }
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
        write_dir(&plan, dir, &out.inputs)?;
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
    // A signal after the directory was written: it is whole; stop as the user asked.
    if super::interrupt::raised() {
        return Err(Failure::Interrupted(Diagnostic::error(
            "interrupted after the plan was written",
        )));
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
