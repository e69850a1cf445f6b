/*!
The driver: one entry per command, the stages in order, Clusters streamed.

```text
load → admit (validate) → fleet (classes, blueprints, Clusters to plan)
     → per Cluster, in parallel ([`cluster`]): stored merge → decode → current objects
       → upgrade decision → desired state → patches → CRD check → compare
     → render (in the worker) → emit (in order, on the caller's thread) → drop
```

Owns the order of the stages and what is kept between them: the loaded inputs (admitted in
place) and, per Cluster, only what the summary needs. Every planned Cluster is rendered by the
caller's `render` on a worker thread and handed to `emit` in plan order (namespace, name, file)
as soon as it and its predecessors are done ([`ordered`]); a fleet's plans never exist at once.
Diagnostics keep the order and content a whole-input run gives them.

The command line resolves flags into options and chooses the rendering; nothing here prints.
*/

use std::path::PathBuf;

use crate::api;
use crate::diag::{Diagnostic, Diagnostics};
use crate::load::{self, LoadOptions, Object};
use crate::plan::fleet::{self, Fleet};
use crate::plan::{ClusterPlan, Extensions, PlanOptions, State, Totals, current, extensions, ssa};
use crate::topology::Catalog;
use crate::validate::run::{Mode, Settings, admit};

pub mod cluster;
pub mod diff;
pub mod eval;
pub mod extension_check;
pub mod generate;
pub mod ordered;
pub mod threads;
pub mod validate;

/// How many Clusters are planned at once when they call Runtime extensions (their calls
/// overlap; Cluster API's controller, too, reconciles Clusters concurrently).
const EXTENSION_CONCURRENCY: usize = 16;

/// How far planning may run ahead of the Cluster being emitted, per worker thread: enough to
/// keep every thread busy past a slow Cluster and while the writer waits for a core (with 8,
/// two cores planned a 10,000-Cluster fleet 6% slower), few enough that what waits stays small
/// (a rendered Cluster is some tens of kilobytes; the plan itself is dropped once rendered).
const WINDOW_PER_THREAD: usize = 64;

/// Progress of a run, for a bar: more Clusters to plan, or Clusters planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// This many more Clusters will be planned.
    Total(u64),
    /// This many Clusters were planned.
    Done(u64),
}

/// Where a run reports its [`Step`]s.
pub type Progress<'a> = &'a (dyn Fn(Step) + Sync);

/// What a plan leaves once its Clusters were emitted.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Warnings for the user, in the order a whole-input run tells them.
    pub warnings: Vec<Diagnostic>,
    /// The fleet's totals (Clusters planned, whether anything changes, …).
    pub summary: Totals,
    /// Against the management cluster (`--current`): the ClusterClasses and Clusters the change
    /// affects, and how many stored Clusters it leaves alone.
    pub affected: Option<crate::plan::affected::Affected>,
    /// The admitted inputs, handed back so a caller about to exit can skip freeing them (a
    /// fleet's worth of JSON trees takes a noticeable time to free).
    pub inputs: Vec<Object>,
}

/// Errors of a run that emitted some Clusters first, or none.
#[derive(Debug)]
pub struct Failed {
    /// What went wrong, in the order a whole-input run tells it.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether `emit` was called at least once before the run failed.
    pub emitted: bool,
}

impl From<Diagnostics> for Failed {
    fn from(d: Diagnostics) -> Failed {
        Failed {
            diagnostics: d.0,
            emitted: false,
        }
    }
}

/// Start the CEL parser in the background ([`crate::schema::cel::warm_up`]) when the run is
/// about to compile rules: CRDs are to be read (`crds_to_read`), or a ClusterClass or a CRD among
/// `objects` spells `x-kubernetes-validations` in its file. Admission compiles those rules up
/// front; the built-in schemas' rules compile only when an object reaches them, which few runs
/// do, and a warm-up nothing uses costs a thread and half a millisecond of a core.
pub(crate) fn warm_up_cel<'a>(crds_to_read: bool, objects: impl IntoIterator<Item = &'a Object>) {
    if crds_to_read || rules_spelled(objects) {
        crate::schema::cel::warm_up();
    }
}

/// Whether a ClusterClass or a CRD among `objects` spells `x-kubernetes-validations` in its
/// file (each file searched once).
fn rules_spelled<'a>(objects: impl IntoIterator<Item = &'a Object>) -> bool {
    let mut files = std::collections::HashSet::new();
    objects
        .into_iter()
        .filter(|o| o.kind == "ClusterClass" || o.kind == "CustomResourceDefinition")
        .filter(|o| files.insert(std::sync::Arc::as_ptr(&o.origin.file)))
        .any(|o| o.origin.file.text.contains("x-kubernetes-validations"))
}

/// Read the input (and the current objects, with `--current`), admit it and plan every topology
/// Cluster: each is rendered by `render` (on a worker thread) and handed to `emit` in plan order.
/// `emit` failing stops the run with its diagnostic.
pub fn plan<C, R, E>(
    opts: &PlanOptions,
    render: R,
    emit: E,
    progress: Progress<'_>,
) -> Result<Outcome, Failed>
where
    C: Send,
    R: Fn(usize, &ClusterPlan) -> C + Sync,
    E: FnMut(C) -> Result<(), Diagnostic>,
{
    let (mut inputs, current) = load_change(opts)?;
    let crds_to_read = opts.crds.is_some() || opts.providers.is_some();
    warm_up_cel(
        crds_to_read,
        inputs
            .objects
            .iter()
            .chain(current.iter().flat_map(|c| &c.objects)),
    );
    add_provider_crds(opts.providers.as_ref(), &mut inputs).map_err(Diagnostics)?;
    // What the loader skipped (special files) is told first, whether or not the plan succeeds.
    let skipped: Vec<Diagnostic> = inputs
        .warnings
        .iter()
        .chain(current.iter().flat_map(|c| &c.warnings))
        .cloned()
        .collect();
    let current = current.as_ref().map(|c| c.objects.as_slice());
    let extra_crds = load_crds(
        opts.crds.as_ref(),
        current.unwrap_or(&[]).iter().chain(&inputs.objects),
    )
    .map_err(Failed::from)?;
    let planned = (|| -> Result<Outcome, Failed> {
        let against = current.map_or(Against::Nothing, Against::Stored);
        let side = Side::admit(opts, inputs, against, &extra_crds).map_err(|d| Failed {
            diagnostics: d,
            emitted: false,
        })?;
        let fail = |mut d: Vec<Diagnostic>, emitted: bool| {
            d.extend(side.told_with_errors());
            Failed {
                diagnostics: d,
                emitted,
            }
        };
        if let Some(a) = &side.affected {
            let outside = not_affected(&opts.clusters, a);
            if !outside.is_empty() {
                return Err(fail(outside, false));
            }
        }
        let index = current.map(current::Index::new);
        let state = State {
            index: index.as_ref(),
            lists: &side.lists,
            sole_owner: false,
        };
        let catalog = Catalog::new(&side.objects);
        let fleet = Fleet::prepare(
            &side.objects,
            &side.classes,
            &catalog,
            &opts.clusters,
            side.extensions(),
            state,
        )
        .map_err(|d| fail(d.0, false))?;
        let streamed = stream(
            fleet.len(),
            side.threads(),
            progress,
            |i| {
                cluster::plan(&fleet, i)
                    .map(|(p, warnings)| (render(i, &p), Totals::of(&p), warnings))
            },
            emit,
        );
        let (warnings, summary) = streamed.finish(&side, &fleet)?;
        drop(fleet);
        drop(catalog);
        Ok(Outcome {
            warnings,
            summary,
            affected: side.affected,
            inputs: side.objects,
        })
    })();
    let planned = recorded(&opts.extensions, planned, |o| &mut o.warnings);
    told_first(skipped, planned, |o| &mut o.warnings)
}

/// The change (`-f`) and, with `--current`, what of the management cluster's state it needs:
/// the export is read in rounds that parse only the documents the change can concern
/// ([`crate::plan::scope`]); `--all-current` reads it all.
fn load_change(opts: &PlanOptions) -> Result<(load::Inputs, Option<load::Inputs>), Failed> {
    let inputs = load::load(&opts.load);
    let Some(current_opts) = opts.current.as_ref().map(expand_plan_outputs) else {
        return Ok((inputs?, None));
    };
    let change: &[Object] = inputs.as_ref().map_or(&[], |i| i.objects.as_slice());
    let current = load::scoped::load_scoped(
        &current_opts,
        crate::plan::scope::rounds(change, opts.all_current),
    );
    let current = current.and_then(|files| {
        let paths: Vec<PathBuf> = opts
            .load
            .paths
            .iter()
            .chain(&current_opts.paths)
            .cloned()
            .collect();
        with_live(&current_opts, files, change, opts.all_current, &paths)
    });
    match (inputs, current) {
        (Ok(i), Ok(c)) => Ok((i, Some(c))),
        (i, c) => {
            let mut errors = Vec::new();
            errors.extend(i.err().into_iter().flat_map(|e| e.0));
            errors.extend(c.err().into_iter().flat_map(|e| e.0));
            Err(Diagnostics(errors).into())
        }
    }
}

/// The stored state from `--current` files (`files`) and, when asked for, the live cluster:
/// what the change needs of it is read ([`crate::live`]) and joins the files' objects, which
/// win for an object in both. `inputs`: the run's input paths (`--save-current` may not
/// replace one).
pub(crate) fn with_live(
    current: &LoadOptions,
    files: load::Inputs,
    change: &[Object],
    all_current: bool,
    inputs: &[PathBuf],
) -> Result<load::Inputs, Diagnostics> {
    if current.live.is_none() {
        return Ok(files);
    }
    let live = crate::live::read(current, change, all_current, inputs)?;
    Ok(crate::live::merge(Some(files), live))
}

/// `--cluster` values the change does not affect: against the management cluster only the
/// affected Clusters can be planned (Cluster API's words for the old command's target).
fn not_affected(
    clusters: &[(String, String)],
    affected: &crate::plan::affected::Affected,
) -> Vec<Diagnostic> {
    clusters
        .iter()
        .filter(|(ns, name)| !affected.has_cluster(ns, name))
        .map(|(ns, name)| {
            let target = if ns.is_empty() {
                name.clone()
            } else {
                format!("{ns}/{name}")
            };
            let mut d = Diagnostic::error(
                crate::diag::Code::PlanNotAffected,
                format!("target cluster {target:?} is not among the list of affected clusters"),
            );
            let listed: Vec<String> = affected
                .clusters
                .iter()
                .take(10)
                .map(|(n, c)| format!("{n}/{c}"))
                .collect();
            d = d.with_help(if listed.is_empty() {
                "the change affects no Cluster; --all-current plans every stored Cluster"
                    .to_string()
            } else {
                format!(
                    "the affected Clusters are: {}{}; --all-current plans every stored Cluster",
                    listed.join(", "),
                    if affected.clusters.len() > 10 {
                        ", …"
                    } else {
                        ""
                    }
                )
            });
            d
        })
        .collect()
}

/// End the run's recording of extension calls (`--record-extensions`): its errors fail the run,
/// its warnings join the run's.
pub(crate) fn recorded<T>(
    ext: &crate::runtime::ExtensionOptions,
    result: Result<T, Failed>,
    warnings: impl FnOnce(&mut T) -> &mut Vec<Diagnostic>,
) -> Result<T, Failed> {
    let finished = extensions::finish(ext, result.is_ok());
    if finished.is_empty() {
        return result;
    }
    let errors = finished.iter().any(Diagnostic::is_error);
    match result {
        Ok(mut t) if !errors => {
            warnings(&mut t).extend(finished);
            Ok(t)
        }
        Ok(_) => Err(Failed {
            diagnostics: finished,
            emitted: true,
        }),
        Err(mut f) => {
            f.diagnostics.extend(finished);
            Err(f)
        }
    }
}

/// Add the CRDs of `--provider-repo`'s providers to `inputs` (at the release the input's
/// Cluster API contract selects); the repository's warnings join the loader's, and on failure
/// the loader's warnings come first, as always.
pub(crate) fn add_provider_crds(
    providers: Option<&crate::provider::ProviderOptions>,
    inputs: &mut load::Inputs,
) -> Result<Vec<std::sync::Arc<crate::source::SourceFile>>, Vec<Diagnostic>> {
    let Some(p) = providers else {
        return Ok(Vec::new());
    };
    match crate::provider::crds_for(p, &inputs.objects) {
        Ok(crds) => {
            let mut files: Vec<std::sync::Arc<crate::source::SourceFile>> = Vec::new();
            for o in &crds.objects {
                if !files
                    .iter()
                    .any(|f| std::sync::Arc::ptr_eq(f, &o.origin.file))
                {
                    files.push(std::sync::Arc::clone(&o.origin.file));
                }
            }
            inputs.objects.extend(crds.objects);
            inputs.warnings.extend(crds.warnings);
            Ok(files)
        }
        Err(mut errors) => {
            errors.splice(0..0, inputs.warnings.iter().cloned());
            Err(errors)
        }
    }
}

/// `told` (what the loader skipped) goes first among a run's warnings, or its errors.
pub(crate) fn told_first<T>(
    told: Vec<Diagnostic>,
    result: Result<T, Failed>,
    warnings: impl FnOnce(&mut T) -> &mut Vec<Diagnostic>,
) -> Result<T, Failed> {
    match result {
        Ok(mut t) => {
            warnings(&mut t).splice(0..0, told);
            Ok(t)
        }
        Err(mut f) => {
            f.diagnostics.splice(0..0, told);
            Err(f)
        }
    }
}

/// `--current DIR` where DIR was written by `plan --output-dir`: the state after that plan (its
/// `deleted/` objects are gone). The loader still walks DIR, under its rules for links and
/// special files; it only never enters the `deleted` directories (in the same walk: a second
/// walk to find them first cost as much as the first on a 2,000-Cluster export).
pub(crate) fn expand_plan_outputs(c: &LoadOptions) -> LoadOptions {
    let plan_outputs = c
        .paths
        .iter()
        .filter(|p| load::is_plan_output(p))
        .cloned()
        .collect();
    LoadOptions {
        plan_outputs,
        ..c.clone()
    }
}

/// The CustomResourceDefinitions and MutatingWebhookConfigurations of `--crds` (other objects
/// there are ignored: the flag adds schemas, not objects to plan). Only documents that may define a kind the run meets with
/// `objects` ([`crate::crd::wanted_by`]) are parsed ([`crate::crd::may_define`]): a provider's
/// CRDs are mostly of kinds a run never meets, and reading their YAML was most of what `--crds`
/// cost.
pub(crate) fn load_crds<'a>(
    opts: Option<&LoadOptions>,
    objects: impl IntoIterator<Item = &'a Object>,
) -> Result<Vec<Object>, Diagnostics> {
    let Some(o) = opts else {
        return Ok(Vec::new());
    };
    // A provider's components file holds its MutatingWebhookConfiguration beside its CRDs: it
    // says which kinds go through a defaulting webhook's round trip.
    let wanted = crate::crd::wanted_by(objects);
    let kinds: Vec<String> = wanted
        .iter()
        .map(|g| g.kind.clone())
        .chain(["MutatingWebhookConfiguration".to_string()])
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let keep = load::KeepDocument(std::sync::Arc::new(move |text: &str| {
        crate::crd::may_define(text, &kinds)
    }));
    // The admission that reads these CRDs compiles only the versions of `wanted`, the same
    // set (its objects are these): the others' schemas need not be read at all.
    let skip = crate::crd::prefilter::unused_version_schemas(move |g| wanted.contains(g));
    let o = LoadOptions {
        keep_document: Some(keep),
        skip_value: Some(skip),
        ..o.clone()
    };
    let loaded = load::load(&o)?;
    Ok(loaded
        .objects
        .into_iter()
        .filter(|o| {
            crate::crd::definition::is_crd(o)
                || crate::crd::webhooks::is_mutating_webhook_configuration(o)
        })
        .collect())
}

/// What one side of a run is admitted against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Against<'a> {
    /// Nothing exists yet: every Cluster is new.
    Nothing,
    /// The objects as the management cluster stores them (`plan --current`): the input's
    /// Clusters, templates and ClusterClasses are applied over their stored forms.
    Stored(&'a [Object]),
    /// The state `diff`'s old inputs settle in: its classes are the old files themselves, which
    /// the new files replace whole; only Clusters are applied over it.
    Settled(&'a [Object]),
}

impl<'a> Against<'a> {
    fn objects(self) -> Option<&'a [Object]> {
        match self {
            Against::Nothing => None,
            Against::Stored(c) | Against::Settled(c) => Some(c),
        }
    }
}

/// One side of a run, admitted: the objects as the API server would store them, and what
/// planning them needs besides.
pub(crate) struct Side {
    pub(crate) objects: Vec<Object>,
    pub(crate) registry: Option<crate::runtime::Registry>,
    pub(crate) validation: crate::validate::run::Validation,
    pub(crate) classes: fleet::Classes,
    pub(crate) lists: ssa::ListTypes,
    pub(crate) list_warnings: Vec<Diagnostic>,
    /// The CRDs objects are admitted with and generated objects checked against.
    pub(crate) crds: crate::crd::Crds,
    /// What reading the CRDs found wrong.
    pub(crate) crd_warnings: Vec<Diagnostic>,
    /// Input objects that could not be applied over their stored forms, and affected stored
    /// objects that are not planned or fail today's admission.
    pub(crate) stored_warnings: Vec<Diagnostic>,
    /// Against the management cluster: what the change affects.
    pub(crate) affected: Option<crate::plan::affected::Affected>,
    /// The `RuntimeSDK` feature gate.
    pub(crate) runtime_sdk: bool,
}

impl Side {
    /// Connect the extensions and admit `inputs` against what exists. Stored ClusterClasses and
    /// Clusters among the current objects make admission an update, as the API server would
    /// run it (class compatibility, Cluster topology changes). Errors come with the extensions'
    /// forgiven failures.
    pub(crate) fn admit(
        opts: &PlanOptions,
        mut inputs: load::Inputs,
        against: Against<'_>,
        extra_crds: &[Object],
    ) -> Result<Side, Vec<Diagnostic>> {
        let current = against.objects();
        // The current objects' CRDs first: the input's own, read later, replace them.
        // Only the versions the run can meet are compiled (a provider's CRDs hold many).
        let wanted = crate::crd::wanted_by(current.unwrap_or(&[]).iter().chain(&inputs.objects));
        let wanted = |g: &crate::crd::Gvk| wanted.contains(g);
        let (crds, mut crd_warnings) = crate::crd::Crds::from_objects_wanted(
            current
                .unwrap_or(&[])
                .iter()
                .chain(extra_crds)
                .chain(inputs.objects.iter()),
            &wanted,
        );
        let crds = crds.with_builtin_wanted(&wanted);
        crd_warnings.extend(crds.round_trip_warning());
        // List semantics first: applying the input over the stored objects merges by them.
        let mut lists = ssa::ListTypes::builtin();
        let mut list_warnings = Vec::new();
        if let Some(c) = current {
            let (l, w) = lists.with_crds(&inputs.objects, c);
            lists = l;
            list_warnings = w;
        }
        let stored_warnings = match against {
            Against::Stored(c) => {
                crate::plan::stored::applied_over_stored(&mut inputs.objects, c, &lists)
            }
            Against::Nothing | Against::Settled(_) => Vec::new(),
        };
        // Whatever fails from here, the warnings found so far are told with the errors.
        let told = |d: Vec<Diagnostic>,
                    stored: &[Diagnostic],
                    registry: Option<&crate::runtime::Registry>| {
            let mut d = d;
            d.extend(extensions::ignored(registry));
            d.extend(crd_warnings.iter().cloned());
            d.extend(list_warnings.iter().cloned());
            d.extend(stored.iter().cloned());
            d
        };
        // Against the management cluster, `-f` is the change: the store lends the run the
        // classes, templates and Clusters the change affects; nothing else of it is admitted
        // or planned.
        let (mut objects, lent, affected, mut stored_warnings) = match against {
            Against::Stored(c) => {
                let affected =
                    crate::plan::affected::find(inputs.objects.iter(), c, opts.all_current);
                let change = crate::plan::stored::for_change(inputs.objects, c, &affected)
                    .map_err(|d| told(d.0, &stored_warnings, None))?;
                let mut w = stored_warnings;
                w.extend(change.warnings);
                (change.objects, Some(change.lent), Some(affected), w)
            }
            Against::Settled(c) => (
                crate::plan::stored::with_settled(inputs.objects, c)
                    .map_err(|d| told(d.0, &stored_warnings, None))?,
                None,
                None,
                stored_warnings,
            ),
            Against::Nothing => (inputs.objects, None, None, stored_warnings),
        };
        // The extensions of the change and of the store: what the controller would call.
        let registry = extensions::connect(&objects, &opts.extensions, extensions::Need::Plan)
            .map_err(|d| told(d.0, &stored_warnings, None))?;
        let settings = Settings {
            mode: Mode::Plan,
            gates: opts.gates,
            registry: registry.as_ref(),
            crds: &crds,
            stored: current,
        };
        // Admission compares with the stored ClusterClasses and Clusters only.
        let stored: Vec<Object> = current
            .unwrap_or(&[])
            .iter()
            .filter(|o| {
                matches!(o.kind.as_str(), "Cluster" | "ClusterClass") && o.group() == api::GROUP
            })
            .cloned()
            .collect();
        let mut validation = admit(&mut objects, &stored, &inputs.runtime_messages, &settings);
        drop(stored);
        if let Some(lent) = lent {
            stored_warnings.extend(crate::plan::stored::forgive_lent(
                &mut objects,
                lent,
                &mut validation,
            ));
        }
        if validation.has_errors() {
            return Err(told(
                validation.diagnostics(),
                &stored_warnings,
                registry.as_ref(),
            ));
        }
        let classes = fleet::classes(&objects).map_err(|d| {
            let mut all = validation.diagnostics();
            all.extend(d.0);
            told(all, &stored_warnings, registry.as_ref())
        })?;
        Ok(Side {
            objects,
            registry,
            validation,
            classes,
            lists,
            list_warnings,
            crds,
            crd_warnings,
            stored_warnings,
            affected,
            runtime_sdk: opts.gates.runtime_sdk,
        })
    }

    /// What planning needs from admission and the extensions.
    pub(crate) fn extensions(&self) -> Extensions<'_> {
        Extensions {
            registry: self.registry.as_ref(),
            status: &self.validation.status_variables,
            crds: &self.crds,
            capture: None,
            runtime_sdk: self.runtime_sdk,
        }
    }

    /// The extensions' forgiven failures, as warnings.
    pub(crate) fn ignored(&self) -> Vec<Diagnostic> {
        extensions::ignored(self.registry.as_ref())
    }

    /// The warnings told with a failed run's errors: every warning of this side (a run that
    /// fails still tells what it found, in every format).
    pub(crate) fn told_with_errors(&self) -> Vec<Diagnostic> {
        self.warnings()
    }

    /// Warnings up to the first Cluster's: admission's, the extensions', the list types', the
    /// input's applied over the stored objects.
    pub(crate) fn warnings(&self) -> Vec<Diagnostic> {
        let mut w = self.validation.diagnostics();
        w.extend(self.ignored());
        w.extend(self.crd_warnings.iter().cloned());
        w.extend(self.list_warnings.iter().cloned());
        w.extend(self.stored_warnings.iter().cloned());
        w
    }

    /// How many threads plan Clusters at once: a core each ([`threads::cores`], also for a
    /// small input, whose other stages run on one thread), more with extensions to call.
    pub(crate) fn threads(&self) -> usize {
        if self.registry.is_some() {
            EXTENSION_CONCURRENCY.max(threads::cores())
        } else {
            threads::cores()
        }
    }
}

/// Plan `n` items with `work` on `threads` threads, handing each rendered result to `emit` in
/// order; after a failed item nothing more is emitted, but every item is still planned so that
/// all errors are told. Returns (the rendered items' warnings and summaries in order, errors,
/// whether anything was emitted, the error `emit` stopped with).
pub(crate) fn stream<C, W, E>(
    n: usize,
    threads: usize,
    progress: Progress<'_>,
    work: W,
    mut emit: E,
) -> Streamed
where
    C: Send,
    W: Fn(usize) -> Result<(C, Totals, Vec<Diagnostic>), Vec<Diagnostic>> + Sync,
    E: FnMut(C) -> Result<(), Diagnostic>,
{
    let mut out = Streamed::default();
    progress(Step::Total(n as u64));
    ordered::for_each(
        n,
        threads,
        threads * WINDOW_PER_THREAD,
        |i| {
            let r = work(i);
            progress(Step::Done(1));
            r
        },
        |_, planned| {
            match planned {
                Ok((chunk, s, mut w)) => {
                    out.warnings.append(&mut w);
                    out.summary.add(&s);
                    // After a failed Cluster nothing more is written: the output is abandoned,
                    // only the diagnostics of the rest are gathered.
                    if out.errors.is_empty() {
                        out.emitted = true;
                        if let Err(e) = emit(chunk) {
                            out.stopped = Some(e);
                            return false;
                        }
                    }
                }
                Err(mut e) => out.errors.append(&mut e),
            }
            true
        },
    );
    out
}

/// What [`stream`] gathered.
#[derive(Debug, Default)]
pub(crate) struct Streamed {
    pub(crate) warnings: Vec<Diagnostic>,
    pub(crate) summary: Totals,
    pub(crate) errors: Vec<Diagnostic>,
    pub(crate) emitted: bool,
    pub(crate) stopped: Option<Diagnostic>,
}

impl Streamed {
    /// The end of a run over `fleet` of `side`: the error `emit` stopped with; the Clusters'
    /// errors (with the extensions' forgiven failures, as a whole-input run tells them); or
    /// every warning in that order and the summary.
    pub(crate) fn finish(
        self,
        side: &Side,
        fleet: &Fleet<'_>,
    ) -> Result<(Vec<Diagnostic>, Totals), Failed> {
        if let Some(e) = self.stopped {
            return Err(Failed {
                diagnostics: vec![e],
                emitted: self.emitted,
            });
        }
        if !self.errors.is_empty() {
            let mut d = self.errors;
            // A misspelt template path is the likely cause of a template that failed: the
            // error's help says so, and the lint's warnings follow the errors.
            crate::lint::explain_failures(&mut d, fleet.lint());
            // Every warning follows, as a successful run tells them (the lint's among the
            // fleet's).
            d.extend(side.told_with_errors());
            d.extend(fleet.warnings().iter().cloned());
            d.extend(self.warnings);
            d.extend(fleet.closing_warnings().iter().cloned());
            return Err(Failed {
                diagnostics: d,
                emitted: self.emitted,
            });
        }
        let mut warnings = side.warnings();
        warnings.extend(fleet.warnings().iter().cloned());
        warnings.extend(self.warnings);
        warnings.extend(fleet.closing_warnings().iter().cloned());
        warnings.extend(self.summary.inexact_warning());
        Ok((warnings, self.summary))
    }
}

#[cfg(test)]
mod warm_up_tests {
    use super::*;

    fn objects(text: &str) -> Vec<Object> {
        let value = crate::load::yaml::parse_value(text).unwrap();
        let origin = crate::source::Origin {
            file: crate::source::SourceFile::new("in.yaml", text),
            spans: std::sync::Arc::new(crate::source::SpanTable::default()),
        };
        vec![Object::new(value, origin, "default").unwrap()]
    }

    #[test]
    fn only_classes_and_crds_that_spell_rules_warm_cel_up() {
        let class =
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: ClusterClass\nmetadata: {name: c}\n";
        let rule = "spec: {variables: [{name: v, required: false, schema: {openAPIV3Schema: \
            {type: string, x-kubernetes-validations: [{rule: 'self != \"\"'}]}}}]}\n";
        assert!(rules_spelled(&objects(&format!("{class}{rule}"))));
        assert!(!rules_spelled(&objects(class)));
        // A Cluster's text spelling the word compiles nothing up front.
        let cluster = "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\n\
            metadata: {name: c, annotations: {note: x-kubernetes-validations}}\n";
        assert!(!rules_spelled(&objects(cluster)));
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
            metadata: {name: a.b}\nspec: {x-kubernetes-validations: []}\n";
        assert!(rules_spelled(&objects(crd)));
    }
}
