//! `topoplan diff`: flags, their resolution into [`ReviewOptions`], and printing the review.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::plan::Format;
use super::{Failure, report, stdout_color, stdout_failure};
use crate::diag::{Code, Diagnostic};
use crate::output;
use crate::pipeline::{self, Step};
use crate::plan::review::ReviewOptions;
use crate::plan::{ClusterPlan, PlanOptions};

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

    /// KEY=VALUE file of variables for --substitute (and --provider-repo's components); the
    /// environment variables --env (or --env-all) lets through override it, it overrides the
    /// clusterctl config file.
    #[arg(long, value_name = "FILE")]
    pub env_file: Option<PathBuf>,

    /// Provider repository (read for both sides) and clusterctl configuration.
    #[command(flatten)]
    pub providers: super::input::ProviderArgs,

    /// Input size limit (both sides together).
    #[command(flatten)]
    pub limits: super::input::InputLimitArgs,

    /// Run bounds (both sides together).
    #[command(flatten)]
    pub run: super::input::RunLimitArgs,

    /// Admission.
    #[command(flatten)]
    pub admission: AdmissionArgs,

    /// Runtime extensions (called for both sides).
    #[command(flatten)]
    pub extensions: ExtensionArgs,

    /// Review only this Cluster: NAMESPACE/NAME, or NAME (in -n's namespace when given, else
    /// the one Cluster of that name); repeatable.
    #[arg(long = "cluster", value_name = "[NAMESPACE/]NAME")]
    pub clusters: Vec<String>,

    /// The management cluster's objects (files, directories or -), as `plan --current` reads
    /// them: OLD and NEW are then changes, and each side takes the ClusterClasses, templates and
    /// affected Clusters it lacks from here; repeatable.
    #[arg(long = "current", value_name = "PATH")]
    pub current: Vec<PathBuf>,

    /// The live management cluster.
    #[command(flatten)]
    pub live: super::input::LiveArgs,

    /// What to print on stdout.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// One line per changed Cluster instead of its objects and diffs.
    #[arg(long = "stat")]
    pub stat: bool,

    /// Exit with 2 when the change does anything (0 when nothing, 1 on error).
    #[arg(long = "detailed-exitcode")]
    pub detailed_exitcode: bool,

    /// Exit with 1 when any warning was reported, after printing everything (as conftest's
    /// flag does): a CI gate that treats warnings as errors.
    #[arg(long = "fail-on-warn")]
    pub fail_on_warn: bool,

    /// Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay): a
    /// fleet's document shrinks to what a reviewer reads.
    #[arg(long = "no-objects")]
    pub no_objects: bool,
}

/// Resolve the flags.
pub fn resolve(args: &DiffArgs) -> Result<ReviewOptions, Vec<Diagnostic>> {
    let input = InputArgs {
        files: Vec::new(),
        namespace: args.namespace.clone(),
        substitute: args.substitute,
        env_file: args.env_file.clone(),
        providers: args.providers.clone(),
        limits: args.limits.clone(),
        run: args.run.clone(),
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
                Diagnostic::error(Code::Usage, format!(
                    "diff needs two paths, OLD and NEW; got {}",
                    args.paths.len()
                ))
                .with_help("topoplan diff OLD NEW, or topoplan diff --base-ref REV PATH... to compare PATH at REV with the working tree"),
            ]);
        }
    };
    let clusters =
        super::plan::parse_clusters(&args.clusters, args.namespace.as_deref(), &mut errors);
    // Both sides succeeded in reading the variables when this runs, so it cannot fail anew.
    let providers = |values: Option<crate::load::VariableValues>| {
        args.providers
            .provider_repo
            .clone()
            .map(|repository| crate::provider::ProviderOptions {
                repository,
                variables: values.unwrap_or_default(),
                limit: args.limits.limit(),
            })
    };
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
    // Recorded and traced calls are never input, on either side.
    let (old, new) = (
        old.map(|mut o| {
            o.exclude.extend(args.extensions.dirs());
            o
        }),
        new.map(|mut n| {
            n.exclude.extend(args.extensions.dirs());
            n
        }),
    );
    let current = match &new {
        Ok(n) => super::input::current_load(n, &args.current, &args.live).unwrap_or_else(|e| {
            errors.push(e);
            None
        }),
        Err(_) => None,
    };
    match (old, new) {
        (Ok(old), Ok(new)) if errors.is_empty() => Ok(ReviewOptions {
            old,
            plan: PlanOptions {
                crds: args.admission.crds(&new),
                load: new,
                clusters,
                gates,
                extensions,
                current,
                providers: providers(input.values()?),
                all_current: false,
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
    use output::stream::Syntax;
    let opts = resolve(&args)?;
    let bar = super::progress("planning");
    let progress = |s: Step| match s {
        Step::Total(n) => bar.add_total(n),
        Step::Done(n) => bar.inc(n),
    };
    let syntax = match args.format {
        Format::Table => None,
        Format::Json => Some(Syntax::Json),
        Format::Yaml => Some(Syntax::Yaml),
        Format::Markdown | Format::Junit => None,
    };
    let color = stdout_color();
    // --stat asks for one line per Cluster: no diffs, by any program.
    let external = super::external_diff(args.format == Format::Table && !args.stat);
    let show = output::document::Show {
        explain: false,
        objects: !args.no_objects,
    };
    let membership = std::sync::OnceLock::new();
    type Extra = (
        Option<output::markdown::Piece>,
        Option<output::junit::Case>,
        Option<Vec<output::external_diff::Pair>>,
    );
    let render = |i: usize, c: &ClusterPlan| -> (Vec<u8>, Extra) {
        match args.format {
            Format::Table => {
                let m = membership.get().cloned().unwrap_or_default();
                let detail = match (&external, args.stat) {
                    (_, true) => output::review::Detail::Stat,
                    (Some(_), false) => output::review::Detail::Objects,
                    (None, false) => output::review::Detail::Diffs,
                };
                (
                    output::review::cluster(c, &m, color, detail).into_bytes(),
                    (
                        None,
                        None,
                        external.as_ref().map(|_| output::external_diff::pairs(c)),
                    ),
                )
            }
            Format::Json => (output::review::json_cluster(i, c, show), (None, None, None)),
            Format::Yaml => (output::review::yaml_cluster(c, show), (None, None, None)),
            Format::Markdown => (
                Vec::new(),
                (
                    Some(output::markdown::piece(c, membership.get())),
                    None,
                    None,
                ),
            ),
            Format::Junit => (
                Vec::new(),
                (None, Some(output::junit::cluster_case(c)), None),
            ),
        }
    };
    let mut comment = output::markdown::Comment::default();
    let mut cases: Vec<output::junit::Case> = Vec::new();
    let stdout = std::io::stdout();
    let mut held = super::held_stdout(&stdout);
    let mut emitted = 0usize;
    let mut stdout_error: Option<std::io::Error> = None;
    let mut diff_tree: Option<output::external_diff::Tree> = None;
    let emit = |(chunk, (piece, case, pairs)): (Vec<u8>, Extra)| -> Result<(), Diagnostic> {
        if let Some(pairs) = pairs {
            output::external_diff::add(&mut diff_tree, pairs)?;
        }
        if let Some(p) = piece {
            comment.add(p);
        }
        cases.extend(case);
        let mut w = || -> std::io::Result<()> {
            if emitted == 0
                && let (Some(s), Some(m)) = (syntax, membership.get())
            {
                let head = output::review::frame(s, m, &Default::default(), &[]).head;
                held.write(head.as_bytes())?;
            }
            held.write(&chunk)
        };
        match w() {
            Ok(()) => {
                emitted += 1;
                Ok(())
            }
            Err(e) => {
                let d = Diagnostic::error(
                    Code::OutputWrite,
                    format!("cannot write to standard output: {e}"),
                );
                stdout_error = Some(e);
                Err(d)
            }
        }
    };
    let begin = |m: &pipeline::diff::Membership| {
        let _ = membership.set(m.clone());
    };
    let result = pipeline::diff::diff(&opts, begin, render, emit, &progress);
    bar.finish();
    let r = match result {
        Ok(r) => r,
        Err(f) => {
            if let Some(e) = stdout_error {
                let _ = held.abandon();
                return Err(stdout_failure(e));
            }
            // Nothing printed yet: with a document format, a document of the failure takes the
            // place of the plan.
            let instead = match (syntax, args.format) {
                (Some(s), _) => Some(output::review::failed(s, &f.diagnostics)),
                (None, Format::Junit) => {
                    Some(output::junit::failed("topoplan diff", &f.diagnostics))
                }
                (None, Format::Markdown) => {
                    Some(output::markdown::failed("topoplan diff", &f.diagnostics))
                }
                _ => None,
            };
            // (Once output flows, it can only stop short: `abandon_for` writes nothing then.)
            let _ = match instead {
                Some(text) => held.abandon_for(text.as_bytes()),
                None => held.abandon(),
            };
            return Err(Failure::Diagnostics(f.diagnostics));
        }
    };
    report(&r.warnings);
    let tail = (|| -> std::io::Result<()> {
        match syntax {
            Some(s) => {
                let frame = output::review::frame(s, &r.membership, &r.counts, &r.warnings);
                held.write(if emitted == 0 {
                    frame.empty.as_bytes()
                } else {
                    frame.tail.as_bytes()
                })?;
            }
            None if args.format == Format::Junit => {
                let report = output::junit::render("topoplan diff", &cases, &r.warnings);
                held.write(report.as_bytes())?;
            }
            None if args.format == Format::Markdown => {
                let summary = output::review::closing(&r.counts);
                held.write(
                    comment
                        .finish("topoplan diff", &summary, &r.warnings)
                        .as_bytes(),
                )?;
            }
            None => held.write(output::review::closing(&r.counts).as_bytes())?,
        }
        held.finish()
    })();
    tail.map_err(stdout_failure)?;
    if let (Some(cmd), Some(tree)) = (&external, &diff_tree) {
        report(&cmd.warning().into_iter().collect::<Vec<_>>());
        tree.run(cmd)?;
    }
    // The process exits next: freeing a fleet's worth of JSON trees would only cost time.
    let changed = r.counts.changed > 0;
    let warned = !r.warnings.is_empty();
    std::mem::forget(r);
    Ok(if args.fail_on_warn && warned {
        ExitCode::from(1)
    } else if args.detailed_exitcode && changed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
