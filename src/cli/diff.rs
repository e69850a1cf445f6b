//! `topoplan diff`: flags, their resolution into [`ReviewOptions`], and printing the review.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::plan::Format;
use super::{Failure, report, stdout_color, write_stdout};
use crate::diag::Diagnostic;
use crate::output;
use crate::plan::PlanOptions;
use crate::plan::review::{self, ReviewOptions};

/// Arguments of `topoplan diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// OLD and NEW inputs (files or directories, read as -f reads them); with --base-ref, the
    /// PATHs to read both at REV (old) and in the working tree (new).
    #[arg(value_name = "PATH", num_args = 1.., required = true)]
    pub paths: Vec<PathBuf>,

    /// Read the old inputs from this git revision (e.g. origin/main) of the repository holding
    /// the PATHs, the new ones from the working tree.
    #[arg(long = "base-ref", value_name = "REV")]
    pub base_ref: Option<String>,

    /// Namespace for objects that have none [default: with --substitute the NAMESPACE
    /// variable if set; otherwise "default"].
    #[arg(short = 'n', long, value_name = "NAMESPACE")]
    pub namespace: Option<String>,

    /// Substitute clusterctl-style ${VAR} variables in both inputs before parsing.
    #[arg(long)]
    pub substitute: bool,

    /// KEY=VALUE file of variables for --substitute; the environment overrides it.
    #[arg(long, value_name = "FILE", requires = "substitute")]
    pub env_file: Option<PathBuf>,

    /// Input size limit (both sides together).
    #[command(flatten)]
    pub limits: super::input::InputLimitArgs,

    /// Admission.
    #[command(flatten)]
    pub admission: AdmissionArgs,

    /// Runtime extensions (called for both sides).
    #[command(flatten)]
    pub extensions: ExtensionArgs,

    /// Review only this Cluster (NAMESPACE/NAME); repeatable.
    #[arg(long = "cluster", value_name = "NAMESPACE/NAME")]
    pub clusters: Vec<String>,

    /// What to print on stdout.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// One line per changed Cluster instead of its objects and diffs.
    #[arg(long = "stat")]
    pub stat: bool,

    /// Exit with 2 when the change does anything (0 when nothing, 1 on error).
    #[arg(long = "detailed-exitcode")]
    pub detailed_exitcode: bool,
}

/// Resolve the flags.
pub fn resolve(args: &DiffArgs) -> Result<ReviewOptions, Vec<Diagnostic>> {
    let input = InputArgs {
        files: Vec::new(),
        namespace: args.namespace.clone(),
        substitute: args.substitute,
        env_file: args.env_file.clone(),
        limits: args.limits.clone(),
    };
    let mut errors = Vec::new();
    let (old, new) = match (&args.base_ref, args.paths.as_slice()) {
        (Some(rev), paths) => (
            input.resolve_paths(paths.to_vec()).map(|mut o| {
                o.git_rev = Some(rev.clone());
                o
            }),
            input.resolve_paths(paths.to_vec()).map(|mut o| {
                o.working_tree_of = Some(rev.clone());
                o
            }),
        ),
        (None, [old, new]) => (
            input.resolve_paths(vec![old.clone()]),
            input.resolve_paths(vec![new.clone()]),
        ),
        (None, _) => {
            return Err(vec![
                Diagnostic::error(format!(
                    "diff needs two paths, OLD and NEW; got {}",
                    args.paths.len()
                ))
                .with_help("topoplan diff OLD NEW, or topoplan diff --base-ref REV PATH... to compare PATH at REV with the working tree"),
            ]);
        }
    };
    let clusters = super::plan::parse_clusters(&args.clusters, &mut errors);
    let gates = args.admission.gates().unwrap_or_else(|e| {
        errors.push(e);
        crate::validate::Gates::default()
    });
    let extensions = args
        .extensions
        .resolve(&args.limits.limit())
        .unwrap_or_else(|mut e| {
            errors.append(&mut e);
            Default::default()
        });
    match (old, new) {
        (Ok(old), Ok(new)) if errors.is_empty() => Ok(ReviewOptions {
            old,
            plan: PlanOptions {
                load: new,
                clusters,
                gates,
                extensions,
                current: None,
            },
        }),
        (old, new) => {
            for e in [old.err(), new.err()].into_iter().flatten() {
                errors.extend(e);
            }
            Err(errors)
        }
    }
}

/// Run `diff`.
pub fn run(args: DiffArgs) -> Result<ExitCode, Failure> {
    let opts = resolve(&args)?;
    let progress = output::progress::Progress::new(0, "planning");
    let result = review::review_with(&opts, &progress);
    progress.finish();
    let r = result.map_err(|d| Failure::Diagnostics(d.0))?;
    report(&r.plan.warnings);
    match args.format {
        Format::Table => write_stdout(&output::review::render(&r, stdout_color(), args.stat))?,
        Format::Json => {
            let mut text =
                serde_json::to_string_pretty(&output::review::document(&r)).unwrap_or_default();
            text.push('\n');
            write_stdout(&text)?;
        }
        Format::Yaml => {
            write_stdout(&crate::load::yaml::to_yaml(&output::review::document(&r)))?;
        }
    }
    let changes = r.has_changes();
    std::mem::forget(r);
    Ok(if args.detailed_exitcode && changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
