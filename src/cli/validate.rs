//! `topoplan validate`: flags, their resolution into [`ValidateOptions`], and printing findings.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde_json::{Value, json};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::{Failure, report, write_stdout};
use crate::diag::Severity;
use crate::load::{self, LoadOptions};
use crate::plan::extensions::Need;
use crate::validate::run::{Mode, Settings, Validation, admit};

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

    /// The objects as they are now (files or directories): ClusterClasses and Clusters found
    /// here are validated as updates, with Cluster API's update rules; repeatable.
    #[arg(long = "old", value_name = "PATH")]
    pub old: Vec<PathBuf>,

    /// What to print on stdout: diagnostics only (text), findings as JSON, or the defaulted
    /// objects as YAML.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
}

/// Resolved options for `validate`.
#[derive(Debug, Clone)]
pub struct ValidateOptions {
    /// The input.
    pub load: LoadOptions,
    /// The current objects, if any.
    pub old: Option<LoadOptions>,
    /// stdout format.
    pub format: Format,
    /// Feature gates.
    pub gates: crate::validate::Gates,
    /// Runtime extensions (resolved, not yet contacted).
    pub extensions: crate::runtime::ExtensionOptions,
}

/// Resolve the flags.
pub fn resolve(args: ValidateArgs) -> Result<ValidateOptions, Failure> {
    let load = args.input.resolve()?;
    let old = if args.old.is_empty() {
        None
    } else {
        Some(args.input.resolve_paths(args.old.clone())?)
    };
    Ok(ValidateOptions {
        load,
        old,
        format: args.format,
        gates: args.admission.gates()?,
        extensions: args
            .extensions
            .resolve(&args.input.limits.limit())
            .map_err(Failure::Diagnostics)?,
    })
}

/// Run `validate`.
pub fn run(args: ValidateArgs) -> Result<ExitCode, Failure> {
    let opts = resolve(args)?;
    let mut inputs = load::load(&opts.load).map_err(|d| Failure::Diagnostics(d.0))?;
    report(&inputs.warnings);
    let old = match &opts.old {
        Some(o) => {
            let old = load::load(o).map_err(|d| Failure::Diagnostics(d.0))?;
            report(&old.warnings);
            old.objects
        }
        None => Vec::new(),
    };
    let registry =
        crate::plan::extensions::connect(&inputs.objects, &opts.extensions, Need::Validate)
            .map_err(|d| Failure::Diagnostics(d.0))?;
    let settings = Settings {
        mode: Mode::Validate,
        gates: opts.gates,
        registry: registry.as_ref(),
    };
    let v = admit(
        &mut inputs.objects,
        &old,
        &inputs.runtime_messages,
        &settings,
    );
    report(&crate::plan::extensions::ignored(registry.as_ref()));
    match opts.format {
        Format::Text => report(&v.diagnostics()),
        Format::Json => {
            let mut text = serde_json::to_string_pretty(&document(&v))
                .map_err(|e| crate::diag::Diagnostic::error(format!("cannot encode JSON: {e}")))?;
            text.push('\n');
            write_stdout(&text)?;
        }
        Format::Yaml => {
            report(&v.diagnostics());
            if !v.has_errors() {
                let docs: Vec<String> = inputs
                    .objects
                    .iter()
                    .map(|o| crate::load::yaml::to_yaml(&o.value))
                    .collect();
                write_stdout(&docs.join("---\n"))?;
            }
        }
    }
    Ok(if v.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `--output json` document (format `topoplan.dev/v1alpha1`, kind `Validation`).
pub fn document(v: &Validation) -> Value {
    let findings: Vec<Value> = v
        .findings
        .iter()
        .map(|f| {
            let mut o = json!({
                "severity": match f.severity() { Severity::Error => "error", Severity::Warning => "warning" },
                "kind": f.kind,
                "namespace": f.namespace,
                "name": f.name,
                "path": f.path,
                "message": f.message,
            });
            if let (Some((file, line, column)), Some(m)) = (f.diagnostic.position(), o.as_object_mut()) {
                m.insert("file".into(), json!(file));
                m.insert("line".into(), json!(line));
                m.insert("column".into(), json!(column));
            }
            o
        })
        .collect();
    json!({
        "apiVersion": crate::output::document::API_VERSION,
        "kind": "Validation",
        "valid": !v.has_errors(),
        "findings": findings,
    })
}
