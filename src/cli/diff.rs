//! `topoplan diff`: flags, their resolution into [`ReviewOptions`], and printing the review.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::plan::Format;
use super::terminal::{Failure, report, stdout_color, stdout_failure};
use crate::diag::{Code, Diagnostic};
use crate::output::{self, render};
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
    // Each side is planned: neither reads what a plan never reads.
    let pass_over = |side: Result<crate::load::LoadOptions, Vec<Diagnostic>>| {
        side.map(|mut o| {
            o.pass_over = Some(crate::plan::unread::pass_over());
            o
        })
    };
    let (old, new) = (pass_over(old), pass_over(new));
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
    let opts = resolve(&args)?;
    let bar = super::terminal::progress("planning");
    let progress = |s: Step| match s {
        Step::Total(n) => bar.add_total(n),
        Step::Done(n) => bar.inc(n),
    };
    // --stat asks for one line per Cluster: no diffs, by any program.
    let external = super::terminal::external_diff(args.format == Format::Table && !args.stat);
    let membership = std::sync::OnceLock::new();
    let renderer = render::review::renderer(
        args.format.kind(),
        &membership,
        stdout_color(),
        match (&external, args.stat) {
            (_, true) => output::review::Detail::Stat,
            (Some(_), false) => output::review::Detail::Objects,
            (None, false) => output::review::Detail::Diffs,
        },
        output::document::Show {
            explain: false,
            objects: !args.no_objects,
        },
    );
    let render = |i: usize, c: &ClusterPlan| {
        (
            renderer.cluster(i, c),
            external.as_ref().map(|_| output::external_diff::pairs(c)),
        )
    };
    let stdout = std::io::stdout();
    let mut sink = render::Sink::new(&*renderer, super::terminal::held_stdout(&stdout));
    let mut diff_tree: Option<output::external_diff::Tree> = None;
    let emit = |(piece, pairs): (render::Piece, Option<Vec<output::external_diff::Pair>>)| {
        if let Some(pairs) = pairs {
            output::external_diff::add(&mut diff_tree, pairs)?;
        }
        sink.emit(piece)
    };
    let begin = |m: &pipeline::diff::Membership| {
        let _ = membership.set(m.clone());
    };
    let p = &opts.plan;
    pipeline::threads::configure(pipeline::threads::is_small(
        &[
            Some(&opts.old),
            Some(&p.load),
            p.current.as_ref(),
            p.crds.as_ref(),
        ],
        p.providers.is_some(),
    ));
    let result = pipeline::diff::diff(&opts, begin, render, emit, &progress);
    bar.finish();
    let r = match result {
        Ok(r) => r,
        Err(f) => {
            if let Some(e) = sink.fail(&f.diagnostics) {
                return Err(stdout_failure(e));
            }
            return Err(Failure::Diagnostics(f.diagnostics));
        }
    };
    report(&r.warnings);
    let pipeline::diff::ReviewOutcome {
        warnings,
        membership,
        counts,
        inputs,
    } = r;
    let warned = !warnings.is_empty();
    sink.finish(&render::review::End {
        warnings,
        membership,
        counts,
    })
    .map_err(stdout_failure)?;
    if let (Some(cmd), Some(tree)) = (&external, &diff_tree) {
        report(&cmd.warning().into_iter().collect::<Vec<_>>());
        tree.run(cmd)?;
    }
    // The process exits next: freeing a fleet's worth of JSON trees would only cost time.
    std::mem::forget(inputs);
    Ok(if args.fail_on_warn && warned {
        ExitCode::from(1)
    } else if args.detailed_exitcode && counts.changed > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
