//! `topoplan validate`: flags, their resolution into [`ValidateOptions`], and printing findings.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::terminal::{Failure, report, write_stdout};
use crate::pipeline::validate::ValidateOptions;

/// Arguments of `topoplan validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// Admission.
    #[command(flatten)]
    pub admission: AdmissionArgs,

    /// Runtime extensions (for DiscoverVariables).
    #[command(flatten)]
    pub extensions: ExtensionArgs,

    /// The objects as they are now (files, directories or -), read as `plan --current` reads
    /// them, with the input applied over them as `plan --current` applies it (a Cluster keeps
    /// the references and uid only its stored form holds; a template or ClusterClass keeps the
    /// fields its file never set): ClusterClasses and Clusters found here are validated as
    /// updates, with Cluster API's update rules, and a Cluster's version change is refused
    /// while the stored ControlPlane, MachineDeployments or MachinePools still roll out the
    /// previous one; repeatable.
    #[arg(long = "current", value_name = "PATH", conflicts_with = "old")]
    pub current: Vec<PathBuf>,

    /// The live management cluster.
    #[command(flatten)]
    pub live: super::input::LiveArgs,

    /// Like --current, but each input object replaces its stored form whole, as `kubectl
    /// replace` would: a reference the stored Cluster has and the input lacks is a removal
    /// ("cannot be removed"); repeatable.
    #[arg(long = "old", value_name = "PATH")]
    pub old: Vec<PathBuf>,

    /// What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted
    /// objects as YAML.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Exit with 1 when any warning was reported, after printing everything (as conftest's
    /// flag does): a CI gate that treats warnings as errors.
    #[arg(long = "fail-on-warn")]
    pub fail_on_warn: bool,

    /// Leave out the files a directory walk finds that match GLOB; repeatable.
    ///
    /// Without a `/` the pattern matches a file or directory name anywhere
    /// (kustomization.yaml, *.json, docs); with one, the path below the directory given
    /// (docs/**, overlays/*/patch.yaml). `*` and `?` stay within a name, `**` spans
    /// directories. Documents with neither apiVersion nor kind are passed over anyway (one
    /// warning counts them).
    #[arg(long = "exclude", value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// A field the CustomResourceDefinition does not declare (schema::pruned, often a
    /// misindented field) is an error, not a warning, as kubectl's strict field validation.
    #[arg(long = "strict")]
    pub strict: bool,
}

/// Output formats of `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Diagnostics on stderr, nothing on stdout.
    Text,
    /// A findings document on stdout.
    Json,
    /// The input objects with Cluster API's defaults applied, as a server-side dry-run apply
    /// would store them.
    Yaml,
    /// JUnit XML: a test case per ClusterClass and Cluster, a failure per error.
    Junit,
}

/// Resolve the flags.
pub fn resolve(args: ValidateArgs) -> Result<(ValidateOptions, Format), Failure> {
    let (mut load, providers) = args.input.resolve()?;
    load.exclude.extend(args.extensions.dirs());
    // A repository read whole holds other YAML (kustomization.yaml, mkdocs.yml, CI files).
    load.skip_foreign = true;
    let globs: Vec<_> = args
        .exclude
        .iter()
        .map(|g| crate::load::glob::Glob::new(g))
        .collect();
    let bad: Vec<crate::diag::Diagnostic> = globs.iter().filter_map(|g| g.clone().err()).collect();
    if !bad.is_empty() {
        return Err(Failure::Diagnostics(bad));
    }
    load.exclude_globs = globs.into_iter().filter_map(Result::ok).collect();
    let replace = args.current.is_empty() && !args.old.is_empty();
    let stored = if replace { &args.old } else { &args.current };
    let current = super::input::current_load(&load, stored, &args.live)?;
    Ok((
        ValidateOptions {
            crds: args.admission.crds(&load),
            load,
            current,
            replace,
            gates: args.admission.gates()?,
            extensions: args
                .extensions
                .resolve(&args.input.limits.limit())
                .map_err(Failure::Diagnostics)?,
            providers,
        },
        args.format,
    ))
}

/// Run `validate`.
pub fn run(args: ValidateArgs) -> Result<ExitCode, Failure> {
    let fail_on_warn = args.fail_on_warn;
    let strict = args.strict;
    let (opts, format) = resolve(args)?;
    crate::pipeline::threads::configure(crate::pipeline::threads::is_small(
        &[Some(&opts.load), opts.current.as_ref(), opts.crds.as_ref()],
        opts.providers.is_some(),
    ));
    let mut validated =
        crate::pipeline::validate::validate(&opts).map_err(|d| Failure::Diagnostics(d.0))?;
    if strict {
        validated.validation.strict();
    }
    report(&validated.skipped);
    report(&validated.ignored);
    let v = &validated.validation;
    match format {
        Format::Text => report(&v.diagnostics()),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&crate::output::validation::document(v))
                .map(crate::output::actions::json_safe)
                .map_err(|e| {
                    crate::diag::Diagnostic::error(
                        crate::diag::Code::Internal,
                        format!("cannot encode JSON: {e}"),
                    )
                })?;
            text.push('\n');
            write_stdout(&text)?;
        }
        Format::Junit => {
            report(&v.diagnostics());
            write_stdout(&crate::output::validation::junit(v, &validated.objects))?;
        }
        Format::Yaml => {
            report(&v.diagnostics());
            if !v.has_errors() {
                write_stdout(&crate::output::validation::objects_yaml(&validated.objects))?;
            }
        }
    }
    let warned = !validated.skipped.is_empty()
        || !validated.ignored.is_empty()
        || v.findings.iter().any(|f| !f.diagnostic.is_error());
    Ok(if v.has_errors() || fail_on_warn && warned {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
