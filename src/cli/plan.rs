//! `topoplan plan`: flags, their resolution into [`PlanOptions`], and printing the result.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::terminal::{Failure, report, stdout_color, stdout_failure};
use crate::diag::{Code, Diagnostic};
use crate::output::{self, render};
use crate::pipeline::{self, Step};
use crate::plan::{self, PlanOptions};

/// Arguments of `topoplan plan`.
#[derive(Debug, Args)]
// Where the stored state comes from (files or the live cluster): what --all-current needs.
#[command(group(clap::ArgGroup::new("stored").args(["current", "live", "kubeconfig", "context"]).multiple(true)))]
pub struct PlanArgs {
    /// What to read.
    #[command(flatten, next_help_heading = "Input")]
    pub input: InputArgs,

    /// Admission.
    #[command(flatten, next_help_heading = "Input")]
    pub admission: AdmissionArgs,

    /// Runtime extensions.
    #[command(flatten, next_help_heading = "Extensions")]
    pub extensions: ExtensionArgs,

    /// The management cluster's objects (files, directories, - or an earlier --output-dir);
    /// -f is then the change; repeatable.
    ///
    /// ClusterClasses and templates -f lacks are read from here, and only the Clusters the
    /// change affects are planned (those in -f, and the stored ones whose class is in -f or
    /// uses a template in -f); existing objects keep their names and are compared as the
    /// topology controller compares them (server-side apply). Export with: kubectl get
    /// $(kubectl api-resources --verbs=list -o name | grep -E 'cluster\.x-k8s\.io$' | paste
    /// -sd, -),customresourcedefinitions,mutatingwebhookconfigurations -A -o yaml
    /// --show-managed-fields > state.yaml
    #[arg(long = "current", value_name = "PATH", help_heading = "Current state")]
    pub current: Vec<PathBuf>,

    /// With --current or --live: plan every stored Cluster, not only those the change in -f
    /// affects (a drift check: what the topology controller would do now).
    #[arg(
        long = "all-current",
        requires = "stored",
        help_heading = "Current state"
    )]
    pub all_current: bool,

    /// The live management cluster.
    #[command(flatten)]
    pub live: super::input::LiveArgs,

    /// Exit with 2 when the plan changes anything (0 when it changes nothing, 1 on error).
    #[arg(long = "detailed-exitcode", help_heading = "Output")]
    pub detailed_exitcode: bool,

    /// Exit with 1 when any warning was reported, after printing everything.
    ///
    /// As conftest's flag does: a CI gate that treats warnings as errors.
    #[arg(long = "fail-on-warn", help_heading = "Output")]
    pub fail_on_warn: bool,

    /// Leave each object out of the JSON/YAML document (verdicts, notes and diffs stay).
    ///
    /// A fleet's document shrinks to what a reviewer reads.
    #[arg(long = "no-objects", help_heading = "Output")]
    pub no_objects: bool,

    /// Plan only this Cluster; repeatable.
    ///
    /// NAMESPACE/NAME, or NAME (in -n's namespace when given, else the one Cluster of that
    /// name).
    #[arg(
        long = "cluster",
        value_name = "[NAMESPACE/]NAME",
        help_heading = "Input"
    )]
    pub clusters: Vec<String>,

    /// Write one YAML file per object under DIR.
    ///
    /// DIR and its parents are created if missing; an earlier plan there is replaced
    /// atomically, and only if nothing was added to it.
    #[arg(
        long = "output-dir",
        visible_alias = "output-directory",
        value_name = "DIR",
        help_heading = "Output"
    )]
    pub output_dir: Option<PathBuf>,

    /// What to print on stdout.
    #[arg(short = 'o', long = "output", value_enum, default_value_t = Format::Table, help_heading = "Output")]
    pub format: Format,

    /// Also show what each ClusterClass patch did to each template.
    ///
    /// The operations with their values, or why it was skipped (after the table; in the plan
    /// document with -o json/yaml).
    #[arg(long = "explain", help_heading = "Output")]
    pub explain: bool,

    /// List unchanged objects in the table too (hidden by default, counted in the summary).
    #[arg(long = "show-unchanged", help_heading = "Output")]
    pub show_unchanged: bool,

    /// Print only how many objects each Cluster creates, modifies and deletes.
    ///
    /// One line per Cluster that changes, then the totals, like `diff --stat`; with the table
    /// format only.
    #[arg(long = "stat", help_heading = "Output", conflicts_with_all = ["format", "explain"])]
    pub stat: bool,
}

/// `plan -h`'s examples (also the man page's EXAMPLES).
pub const EXAMPLES: &str = "\
Examples:
  topoplan plan -f class/ -f clusters/                 what every Cluster would get
  topoplan plan -f . --cluster team-a/dev --explain    one Cluster, with each patch's work
  topoplan plan -f . --current live.yaml               against what is in the cluster now
  topoplan plan -f . --extension my-ext=http://127.0.0.1:8443 -o json
  topoplan plan -f . -o markdown --detailed-exitcode > comment.md";

/// Output formats of `plan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table per Cluster.
    Table,
    /// The plan document as JSON.
    Json,
    /// The plan document as YAML.
    Yaml,
    /// A pull-request comment: the fleet summed up, a table of the Clusters that change, and
    /// their diffs (identical changes grouped), within GitHub's comment size.
    Markdown,
    /// JUnit XML: a test case per Cluster planned; a failing run is one failing case.
    Junit,
}

impl Format {
    /// The renderers' name for the format.
    pub fn kind(self) -> render::Kind {
        match self {
            Format::Table => render::Kind::Table,
            Format::Json => render::Kind::Json,
            Format::Yaml => render::Kind::Yaml,
            Format::Markdown => render::Kind::Markdown,
            Format::Junit => render::Kind::Junit,
        }
    }
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
    /// Show the changes with `KUBECTL_EXTERNAL_DIFF`'s program instead of inline diffs.
    pub external_diff: Option<output::external_diff::Command>,
    /// Show the patch trace.
    pub explain: bool,
    /// List unchanged objects in the table.
    pub show_unchanged: bool,
    /// One line per changing Cluster instead of its table.
    pub stat: bool,
    /// Exit 2 on changes.
    pub detailed_exitcode: bool,
    /// Exit 1 when any warning was reported.
    pub fail_on_warn: bool,
    /// What the document shows.
    pub show: output::document::Show,
}

/// `--cluster` values: `NAMESPACE/NAME`, or `NAME` (in `-n`'s namespace when given; else in
/// whichever namespace holds it, an empty namespace here); malformed ones become errors.
pub fn parse_clusters(
    values: &[String],
    namespace: Option<&str>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, String)> {
    let mut clusters = Vec::new();
    for c in values {
        match c.split_once('/') {
            Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => {
                clusters.push((ns.to_string(), name.to_string()));
            }
            None if !c.is_empty() => {
                clusters.push((namespace.unwrap_or("").to_string(), c.clone()));
            }
            _ => errors.push(
                Diagnostic::error(
                    Code::Usage,
                    format!("--cluster {c:?}: expected NAME or NAMESPACE/NAME"),
                )
                .with_help("for example --cluster my-cluster or --cluster default/my-cluster"),
            ),
        }
    }
    clusters
}

/// Resolve the flags into library options.
pub fn resolve(args: PlanArgs) -> Result<(PlanOptions, OutputOptions), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let clusters = parse_clusters(&args.clusters, args.input.namespace.as_deref(), &mut errors);
    let (load, providers) = match args.input.resolve() {
        Ok((mut l, p)) => {
            l.pass_over = Some(crate::plan::unread::pass_over());
            (Some(l), p)
        }
        Err(mut e) => {
            errors.append(&mut e);
            (None, None)
        }
    };
    let gates = match args.admission.gates() {
        Ok(g) => g,
        Err(e) => {
            errors.push(e);
            crate::validate::Gates::default()
        }
    };
    // Before the recording's directory is opened (created).
    if let Some(d) = super::input::record_into_output_dir(
        args.extensions.record_extensions.as_deref(),
        args.output_dir.as_deref(),
    ) {
        errors.push(d);
        return Err(errors);
    }
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
    load.exclude.extend(args.extensions.dirs());
    let current =
        super::input::current_load(&load, &args.current, &args.live).map_err(|d| vec![d])?;
    let crds = args.admission.crds(&load);
    Ok((
        PlanOptions {
            load,
            clusters,
            gates,
            extensions,
            current,
            crds,
            providers,
            all_current: args.all_current,
        },
        OutputOptions {
            format: args.format,
            dir: args.output_dir,
            inputs,
            color: stdout_color(),
            external_diff: super::terminal::external_diff(
                args.format == Format::Table && !args.stat,
            ),
            explain: args.explain,
            show_unchanged: args.show_unchanged,
            stat: args.stat,
            detailed_exitcode: args.detailed_exitcode,
            fail_on_warn: args.fail_on_warn,
            show: output::document::Show {
                explain: args.explain,
                objects: !args.no_objects,
            },
        },
    ))
}

/// The run's `--output-dir` options, catching SIGINT/SIGTERM meanwhile (see
/// [`super::interrupt`]).
fn write_options<'a>(
    inputs: &'a [PathBuf],
    cancel: &'a std::sync::atomic::AtomicBool,
) -> output::replace::WriteOptions<'a> {
    use output::replace::{TestHook, WriteOptions};
    // Test-only: lets the tests hit the windows a signal or a failed rename matter in.
    let hook = std::env::var("TOPOPLAN_TEST_WRITE_HOOK")
        .ok()
        .and_then(|v| TestHook::parse(&v));
    WriteOptions {
        inputs,
        cancel: Some(cancel),
        hook,
    }
}

/// One Cluster's output, made on a worker thread: the format's piece and what the output
/// directory and an external diff program need of it.
struct Chunk {
    /// What the format makes of it.
    piece: render::Piece,
    /// With `--output-dir`: its files.
    files: Option<Vec<output::files::Piece>>,
    /// With `KUBECTL_EXTERNAL_DIFF`: the files of its changes.
    diff_files: Option<Vec<output::external_diff::Pair>>,
    /// With `--output-dir`: the Cluster's (namespace, name, flavor file), placing its files.
    plan_key: Option<(String, String, Option<String>)>,
}

/// Run `plan`.
pub fn run(args: PlanArgs) -> Result<ExitCode, Failure> {
    use output::replace::{Staging, WriteError};
    let (opts, out) = resolve(args)?;
    let bar = super::terminal::progress("planning");
    let progress = |s: Step| match s {
        Step::Total(n) => bar.add_total(n),
        Step::Done(n) => bar.inc(n),
    };
    let cancel = match &out.dir {
        Some(_) => Some(super::interrupt::catch()?),
        None => None,
    };
    let renderer = render::plan::renderer(
        out.format.kind(),
        render::plan::TableOptions {
            color: out.color,
            diffs: out.external_diff.is_none(),
            show_unchanged: out.show_unchanged,
            stat: out.stat,
            explain: out.explain,
        },
        out.show,
    );
    let render = |i: usize, c: &plan::ClusterPlan| Chunk {
        piece: renderer.cluster(i, c),
        files: out.dir.as_ref().map(|_| output::files::render(c)),
        diff_files: out
            .external_diff
            .as_ref()
            .map(|_| output::external_diff::pairs(c)),
        plan_key: out
            .dir
            .as_ref()
            .map(|_| (c.namespace.clone(), c.name.clone(), c.source.clone())),
    };
    let stdout = std::io::stdout();
    let mut sink = render::Sink::new(&*renderer, super::terminal::held_stdout(&stdout));
    let mut staging: Option<Staging<'_>> = None;
    let mut layout = output::files::Layout::default();
    let mut dir_error: Option<WriteError> = None;
    let mut diff_tree: Option<output::external_diff::Tree> = None;
    let emit = |chunk: Chunk| -> Result<(), Diagnostic> {
        if let Some(pairs) = chunk.diff_files {
            output::external_diff::add(&mut diff_tree, pairs)?;
        }
        let written = (|| {
            if let (Some(dir), Some(pieces), Some(cancel), Some((ns, name, source))) =
                (&out.dir, chunk.files, cancel, chunk.plan_key)
            {
                if staging.is_none() {
                    staging = Some(Staging::begin(dir, write_options(&out.inputs, cancel))?);
                }
                let placed = layout.place_at(&ns, &name, source.as_deref(), pieces);
                if let Some(s) = staging.as_mut() {
                    s.add(placed)?;
                }
            }
            Ok(())
        })();
        if let Err(e) = written {
            let d = match &e {
                WriteError::Failed(d) | WriteError::Interrupted(d) => d.clone(),
            };
            dir_error = Some(e);
            return Err(d);
        }
        sink.emit(chunk.piece)
    };
    pipeline::threads::configure(pipeline::threads::is_small(
        &[Some(&opts.load), opts.current.as_ref(), opts.crds.as_ref()],
        opts.providers.is_some(),
    ));
    let result = pipeline::plan(&opts, render, emit, &progress);
    bar.finish();
    let outcome = match result {
        Ok(o) => o,
        Err(f) => {
            drop(staging);
            if let Some(e) = sink.fail(&f.diagnostics) {
                return Err(stdout_failure(e));
            }
            if let Some(WriteError::Interrupted(d)) = dir_error {
                return Err(Failure::Interrupted(d));
            }
            return Err(Failure::Diagnostics(f.diagnostics));
        }
    };
    report(&outcome.warnings);
    let mut warned = !outcome.warnings.is_empty();
    // Files first: if the directory cannot be written, nothing held claims success on stdout.
    if let (Some(dir), Some(cancel)) = (&out.dir, cancel) {
        let finished = match staging.take() {
            Some(s) => s.finish(),
            None => {
                Staging::begin(dir, write_options(&out.inputs, cancel)).and_then(Staging::finish)
            }
        };
        match finished {
            Ok(warnings) => {
                report(&warnings);
                warned |= !warnings.is_empty();
            }
            Err(e) => {
                sink.abandon();
                return Err(match e {
                    WriteError::Failed(d) => d.into(),
                    WriteError::Interrupted(d) => Failure::Interrupted(d),
                });
            }
        }
    }
    let pipeline::Outcome {
        warnings,
        summary,
        affected,
        inputs,
    } = outcome;
    sink.finish(&render::plan::End {
        warnings,
        summary,
        affected,
    })
    .map_err(stdout_failure)?;
    if let (Some(cmd), Some(tree)) = (&out.external_diff, &diff_tree) {
        report(&cmd.warning().into_iter().collect::<Vec<_>>());
        tree.run(cmd)?;
    }
    // A signal after the directory was written: it is whole; stop as the user asked.
    if super::interrupt::raised() {
        return Err(Failure::Interrupted(Diagnostic::error(
            Code::OutputInterrupted,
            "interrupted after the plan was written",
        )));
    }
    // The process exits next: freeing a fleet's worth of JSON trees would only cost time.
    std::mem::forget(inputs);
    Ok(if out.fail_on_warn && warned {
        ExitCode::from(1)
    } else if out.detailed_exitcode && summary.changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
