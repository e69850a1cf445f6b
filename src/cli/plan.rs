//! `topoplan plan`: flags, their resolution into [`PlanOptions`], and printing the result.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::input::{AdmissionArgs, ExtensionArgs, InputArgs};
use super::{Failure, report, stdout_color, stdout_failure};
use crate::diag::{Code, Diagnostic};
use crate::output;
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
        Ok((l, p)) => (Some(l), p),
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
            external_diff: super::external_diff(args.format == Format::Table && !args.stat),
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

/// What one planned Cluster becomes, rendered on a worker thread.
struct Chunk {
    /// Its part of stdout.
    text: Vec<u8>,
    /// With `--explain` and a table: its explanation, printed after the whole table.
    explain: String,
    /// With `--output-dir`: its files.
    files: Option<Vec<output::files::Piece>>,
    /// With `-o markdown`: what the comment needs of it.
    markdown: Option<output::markdown::Piece>,
    /// With `-o junit`: its test case.
    junit: Option<output::junit::Case>,
    /// With `KUBECTL_EXTERNAL_DIFF`: the files of its changes.
    diff_files: Option<Vec<output::external_diff::Pair>>,
    /// With `--output-dir`: the Cluster's (namespace, name, flavor file), placing its files.
    plan_key: Option<(String, String, Option<String>)>,
}

/// Run `plan`.
pub fn run(args: PlanArgs) -> Result<ExitCode, Failure> {
    use output::replace::{Staging, WriteError};
    use output::stream::Syntax;
    let (opts, out) = resolve(args)?;
    let bar = super::progress("planning");
    let progress = |s: Step| match s {
        Step::Total(n) => bar.add_total(n),
        Step::Done(n) => bar.inc(n),
    };
    let cancel = match &out.dir {
        Some(_) => Some(super::interrupt::catch()?),
        None => None,
    };
    let syntax = match out.format {
        Format::Table => None,
        Format::Json => Some(Syntax::Json),
        Format::Yaml => Some(Syntax::Yaml),
        Format::Markdown | Format::Junit => None,
    };
    let head = syntax.map(|s| output::document::frame(s, &[], None).head);
    let render = |i: usize, c: &plan::ClusterPlan| Chunk {
        text: match out.format {
            Format::Table if out.stat => {
                output::review::cluster(c, &Default::default(), false, output::review::Detail::Stat)
                    .into_bytes()
            }
            Format::Table => output::table::cluster(
                i,
                c,
                out.color,
                out.external_diff.is_none(),
                out.show_unchanged,
            )
            .into_bytes(),
            Format::Json => output::document::json_cluster(i, c, out.show),
            Format::Yaml => output::document::yaml_cluster(c, out.show),
            Format::Markdown | Format::Junit => Vec::new(),
        },
        markdown: (out.format == Format::Markdown).then(|| output::markdown::piece(c, None)),
        junit: (out.format == Format::Junit).then(|| output::junit::cluster_case(c)),
        explain: if out.explain && out.format == Format::Table {
            crate::patches::explain::render(&format!("{}/{}", c.namespace, c.name), &c.patches)
        } else {
            String::new()
        },
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
    let mut held = super::held_stdout(&stdout);
    let mut explained = String::new();
    let mut comment = output::markdown::Comment::default();
    let mut cases: Vec<output::junit::Case> = Vec::new();
    let mut staging: Option<Staging<'_>> = None;
    let mut layout = output::files::Layout::default();
    let mut stdout_error: Option<std::io::Error> = None;
    let mut dir_error: Option<WriteError> = None;
    let mut emitted = 0usize;
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
        if let Some(p) = chunk.markdown {
            comment.add(p);
        }
        cases.extend(chunk.junit);
        let mut w = || -> std::io::Result<()> {
            if emitted == 0
                && let Some(h) = &head
            {
                held.write(h.as_bytes())?;
            }
            held.write(&chunk.text)
        };
        if let Err(e) = w() {
            let d = Diagnostic::error(
                Code::OutputWrite,
                format!("cannot write to standard output: {e}"),
            );
            stdout_error = Some(e);
            return Err(d);
        }
        explained.push_str(&chunk.explain);
        emitted += 1;
        Ok(())
    };
    let result = pipeline::plan(&opts, render, emit, &progress);
    bar.finish();
    let outcome = match result {
        Ok(o) => o,
        Err(f) => {
            drop(staging);
            if let Some(e) = stdout_error {
                let _ = held.abandon();
                return Err(stdout_failure(e));
            }
            // Nothing printed yet: with a document format, a document of the failure takes the
            // place of the plan.
            let instead = match (syntax, out.format) {
                (Some(s), _) => Some(output::document::failed(s, &f.diagnostics)),
                (None, Format::Junit) => {
                    Some(output::junit::failed("topoplan plan", &f.diagnostics))
                }
                (None, Format::Markdown) => {
                    Some(output::markdown::failed("topoplan plan", &f.diagnostics))
                }
                _ => None,
            };
            // (Once output flows, it can only stop short: `abandon_for` writes nothing then.)
            let _ = match instead {
                Some(text) => held.abandon_for(text.as_bytes()),
                None => held.abandon(),
            };
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
                let _ = held.abandon();
                return Err(match e {
                    WriteError::Failed(d) => d.into(),
                    WriteError::Interrupted(d) => Failure::Interrupted(d),
                });
            }
        }
    }
    let tail = (|| -> std::io::Result<()> {
        if let Some(s) = syntax {
            let frame = output::document::frame_affected(
                s,
                &outcome.warnings,
                Some(&outcome.summary),
                outcome.affected.as_ref(),
            );
            held.write(if emitted == 0 {
                frame.empty.as_bytes()
            } else {
                frame.tail.as_bytes()
            })?;
        }
        if out.format == Format::Markdown {
            if let Some(a) = &outcome.affected {
                comment.affected(a);
            }
            let summary = output::table::totals(&outcome.summary);
            held.write(
                comment
                    .finish("topoplan plan", &summary, &outcome.warnings)
                    .as_bytes(),
            )?;
        }
        if out.format == Format::Junit {
            let properties = outcome
                .affected
                .as_ref()
                .map(output::affected::properties)
                .unwrap_or_default();
            let report =
                output::junit::render_with("topoplan plan", &cases, &outcome.warnings, &properties);
            held.write(report.as_bytes())?;
        }
        // Against the management cluster: what the change affects (before the sum, which
        // counts only the planned Clusters).
        if out.format == Format::Table
            && let Some(a) = &outcome.affected
        {
            let sep = if emitted == 0 { "" } else { "\n" };
            held.write(format!("{sep}{}", output::affected::text(a)).as_bytes())?;
        }
        // Several Clusters (or --stat): the fleet summed up, as `diff` ends.
        if out.format == Format::Table && (outcome.summary.clusters > 1 || out.stat) {
            held.write(format!("\n{}", output::table::totals(&outcome.summary)).as_bytes())?;
        }
        // With a plan document, the explanation is part of it.
        if out.explain && out.format == Format::Table {
            held.write(format!("\n{explained}").as_bytes())?;
        }
        held.finish()
    })();
    tail.map_err(stdout_failure)?;
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
    let changes = outcome.summary.changes;
    std::mem::forget(outcome);
    Ok(if out.fail_on_warn && warned {
        ExitCode::from(1)
    } else if out.detailed_exitcode && changes {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
