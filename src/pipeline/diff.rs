/*!
The driver of `topoplan diff OLD NEW`, Cluster by Cluster (what a diff means is
[`crate::plan::review`]'s).

Two passes over the old inputs' fleet keep memory flat: the first plans every old Cluster and
keeps only the Cluster object it converges to (the new inputs' admission compares with those,
as an update); the second plans each Cluster again on a worker, settles it, and plans the new
inputs' Cluster against that state alone, then renders it and lets it go. Planning an old
Cluster twice costs time; holding every settled object of a fleet cost gigabytes.
*/

use std::collections::{BTreeMap, BTreeSet};

use super::{Against, Failed, Progress, Side, Totals, stream};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::{self, Inputs, Object};
use crate::plan::fleet::Fleet;
pub use crate::plan::review::Membership;
use crate::plan::review::{self, ReviewOptions};
use crate::plan::{Action, ClusterPlan, State, current};
use crate::topology::{Catalog, Role};

/// What a review leaves once its Clusters were emitted.
#[derive(Debug, Clone, Default)]
pub struct ReviewOutcome {
    /// Warnings for the user.
    pub warnings: Vec<Diagnostic>,
    /// Added and removed Clusters.
    pub membership: Membership,
    /// Counts over the emitted Clusters.
    pub counts: review::Counts,
    /// Both admitted inputs and the settled state, handed back so a caller about to exit can
    /// skip freeing them.
    pub inputs: Vec<Object>,
}

/// One Cluster of the review: of the new inputs, or removed from the old ones.
#[derive(Debug, Clone, Copy)]
enum Item {
    New(usize),
    Removed(usize),
}

/// Review the change from `opts.old` to `opts.plan.load`: `begin` learns which Clusters are
/// added and removed, then every Cluster (new inputs' ones and removed ones, in namespace/name
/// order) is rendered by `render` on a worker thread and handed to `emit` in order.
pub fn diff<C, B, R, E>(
    opts: &ReviewOptions,
    begin: B,
    render: R,
    emit: E,
    progress: Progress<'_>,
) -> Result<ReviewOutcome, Failed>
where
    C: Send,
    B: FnOnce(&Membership),
    R: Fn(usize, &ClusterPlan) -> C + Sync,
    E: FnMut(C) -> Result<(), Diagnostic>,
{
    let (old, new, skipped) = read_sides(opts)?;
    let p = &opts.plan;
    super::warm_up_cel(
        p.crds.is_some() || p.providers.is_some(),
        old.objects.iter().chain(&new.objects),
    );
    let reviewed = review(opts, old, new, begin, render, emit, progress);
    let reviewed = super::recorded(&opts.plan.extensions, reviewed, |r| &mut r.warnings);
    super::told_first(skipped, reviewed, |r| &mut r.warnings)
}

/// Both sides' inputs, each completed with what it lacks of the management cluster's state and
/// with the repository's CRDs, and what reading them skipped or lent (told first, whether or
/// not the review succeeds).
fn read_sides(opts: &ReviewOptions) -> Result<(Inputs, Inputs, Vec<Diagnostic>), Failed> {
    let (mut old, mut new, stored) = load_sides(opts)?;
    let mut lent_warnings = Vec::new();
    if let Some(stored) = &stored {
        lent_warnings = lend_stored(stored, &mut old, &mut new);
    }
    // The repository's CRDs join each side, at the release each side's contract selects.
    super::add_provider_crds(opts.plan.providers.as_ref(), &mut old).map_err(Diagnostics)?;
    super::add_provider_crds(opts.plan.providers.as_ref(), &mut new).map_err(Diagnostics)?;
    // What the loader skipped (special files) is told first, whether or not the review succeeds.
    let mut skipped: Vec<Diagnostic> = old.warnings.iter().chain(&new.warnings).cloned().collect();
    skipped.append(&mut lent_warnings);
    Ok((old, new, skipped))
}

/// The old inputs, the new ones and, with `--current`, the stored state (the live cluster's
/// included, read for what both sides need of it).
fn load_sides(opts: &ReviewOptions) -> Result<(Inputs, Inputs, Option<Inputs>), Failed> {
    // Both sides at once: files they share are parsed once.
    let mut sets = vec![opts.old.clone(), opts.plan.load.clone()];
    sets.extend(opts.plan.current.as_ref().map(super::expand_plan_outputs));
    let mut loaded = load::load_many(&sets).into_iter();
    let (old, new, mut stored) = match (loaded.next(), loaded.next(), loaded.next()) {
        (Some(Ok(o)), Some(Ok(n)), None) => (o, n, None),
        (Some(Ok(o)), Some(Ok(n)), Some(Ok(c))) => (o, n, Some(c)),
        (o, n, c) => {
            let mut errors = Vec::new();
            for e in [o, n, c].into_iter().flatten().filter_map(Result::err) {
                errors.extend(e.0);
            }
            return Err(Diagnostics(errors).into());
        }
    };
    if let Some(current) = &opts.plan.current
        && current.live.is_some()
    {
        let change: Vec<Object> = old.objects.iter().chain(&new.objects).cloned().collect();
        let paths: Vec<std::path::PathBuf> = [&opts.old, &opts.plan.load, current]
            .iter()
            .flat_map(|o| o.paths.iter().cloned())
            .collect();
        let files = stored.take().unwrap_or_default();
        stored = Some(super::with_live(current, files, &change, false, &paths)?);
    }
    Ok((old, new, stored))
}

/// Against the management cluster, OLD and NEW are changes: each side takes the classes,
/// templates and affected Clusters it lacks from the store, so the review is of what the
/// change does to the Clusters it affects. Returns the warnings of lending and of the store.
fn lend_stored(stored: &Inputs, old: &mut Inputs, new: &mut Inputs) -> Vec<Diagnostic> {
    let mut lent_warnings = Vec::new();
    let affected = crate::plan::affected::find(
        old.objects.iter().chain(&new.objects),
        &stored.objects,
        false,
    );
    for side in [old, new] {
        let (objects, warnings) = crate::plan::stored::lend_for_review(
            std::mem::take(&mut side.objects),
            &stored.objects,
            &affected,
        );
        side.objects = objects;
        lent_warnings.extend(warnings);
    }
    lent_warnings.extend(stored.warnings.iter().cloned());
    lent_warnings
}

/// The review proper: the old side admitted and planned (first pass), the new side admitted
/// against the Clusters the old one converges to, then every Cluster planned and emitted
/// (second pass).
fn review<C, B, R, E>(
    opts: &ReviewOptions,
    old: Inputs,
    new: Inputs,
    begin: B,
    render: R,
    emit: E,
    progress: Progress<'_>,
) -> Result<ReviewOutcome, Failed>
where
    C: Send,
    B: FnOnce(&Membership),
    R: Fn(usize, &ClusterPlan) -> C + Sync,
    E: FnMut(C) -> Result<(), Diagnostic>,
{
    // No old input at all (a folder read at a revision that lacks it): nothing to plan there.
    let old_empty = old.objects.is_empty();
    let plan_opts = &opts.plan;
    let new_keys = topology_cluster_keys(&new.objects);

    // The old inputs, admitted and planned once: only the Clusters they converge to are kept.
    let extra_crds = super::load_crds(
        plan_opts.crds.as_ref(),
        old.objects.iter().chain(&new.objects),
    )
    .map_err(Failed::from)?;
    let old_side =
        Side::admit(plan_opts, old, Against::Nothing, &extra_crds).map_err(old_failed)?;
    let old_catalog = Catalog::new(&old_side.objects);
    let old_lists = crate::plan::ssa::ListTypes::builtin();
    // No old inputs (a folder the change adds, read at a revision that lacks it) plan
    // nothing: every new Cluster is added.
    let old_fleet_owned = if !old_empty {
        Some(
            Fleet::prepare(
                &old_side.objects,
                &old_side.classes,
                &old_catalog,
                &plan_opts.clusters,
                old_side.extensions(),
                State {
                    index: None,
                    lists: &old_lists,
                    sole_owner: false,
                },
            )
            .map_err(|d| old_failed(d.0))?,
        )
    } else {
        None
    };
    let old_fleet = old_fleet_owned.as_ref();
    let settled_clusters = settle_old_clusters(old_fleet, &old_side, progress)?;
    let old_by_key = old_clusters_by_key(old_fleet);
    let old_keys: BTreeSet<(String, String)> = old_by_key.keys().cloned().collect();
    let membership = Membership {
        removed: old_keys.difference(&new_keys).cloned().collect(),
        added: new_keys.difference(&old_keys).cloned().collect(),
    };

    let state = admission_state(&old_side.objects, settled_clusters, old_fleet, &membership);
    let new_side =
        Side::admit(plan_opts, new, Against::Settled(&state), &extra_crds).map_err(|d| Failed {
            diagnostics: d,
            emitted: false,
        })?;
    let index = current::Index::new(&state);
    let new_catalog = Catalog::new(&new_side.objects);
    let new_fleet = Fleet::prepare(
        &new_side.objects,
        &new_side.classes,
        &new_catalog,
        &plan_opts.clusters,
        new_side.extensions(),
        State {
            index: Some(&index),
            lists: &new_side.lists,
            sole_owner: true,
        },
    )
    .map_err(|d| {
        let mut d = d.0;
        d.extend(new_side.told_with_errors());
        Failed {
            diagnostics: d,
            emitted: false,
        }
    })?;

    let items = review_items(&new_fleet, old_fleet, &membership);
    begin(&membership);

    // The second pass: each new Cluster planned against the state its old self settles to.
    let work = |k: usize| -> Result<(C, Totals, Vec<Diagnostic>), Vec<Diagnostic>> {
        let (ns, name, _, item) = items[k];
        let key = (ns.to_string(), name.to_string());
        let (p, warnings) = match item {
            Item::Removed(i) => (
                review::removed_cluster(plan_old(old_fleet, i)?.0),
                Vec::new(),
            ),
            Item::New(i) => {
                let settled = settle(old_fleet, &old_by_key, &key)?;
                let added = membership.added.contains(&key);
                plan_new_cluster(&new_fleet, i, &settled, &new_side.lists, added)?
            }
        };
        Ok((render(k, &p), Totals::of(&p), warnings))
    };
    let streamed = stream(items.len(), new_side.threads(), progress, work, emit);
    let (warnings, s) = streamed.finish(&new_side, &new_fleet)?;
    let counts = review::Counts {
        clusters: s.clusters,
        changed: s.changed,
        added: membership.added.len(),
        removed: membership.removed.len(),
        clusters_rolling_out: s.clusters_rolling_out,
        rollouts: s.rollouts,
        deferred_rollouts: s.deferred_rollouts,
    };
    // What borrows the inputs goes first, so they can be handed back.
    drop(items);
    drop(new_fleet);
    drop(old_fleet_owned);
    drop(new_catalog);
    drop(old_catalog);
    drop(index);
    let mut inputs = state;
    inputs.extend(old_side.objects);
    inputs.extend(new_side.objects);
    Ok(ReviewOutcome {
        warnings,
        membership,
        counts,
        inputs,
    })
}

/// The (namespace, name) of every Cluster with a managed topology among `objects`.
fn topology_cluster_keys(objects: &[Object]) -> BTreeSet<(String, String)> {
    objects
        .iter()
        .filter(|o| review::is_topology_cluster(o))
        .map(|o| (o.namespace.clone(), o.name.clone()))
        .collect()
}

/// Plan the old inputs' Cluster `i`; no old fleet (no old inputs) plans nothing.
fn plan_old(
    fleet: Option<&Fleet<'_>>,
    i: usize,
) -> Result<(ClusterPlan, Vec<Diagnostic>), Vec<Diagnostic>> {
    match fleet {
        Some(f) => super::cluster::plan(f, i),
        None => Err(Vec::new()),
    }
}

/// The first pass: every old Cluster planned, keeping only the Cluster object it converges
/// to (in fleet order), which the new inputs' admission compares with.
fn settle_old_clusters(
    fleet: Option<&Fleet<'_>>,
    side: &Side,
    progress: Progress<'_>,
) -> Result<Vec<Option<Object>>, Failed> {
    let len = fleet.map_or(0, Fleet::len);
    let mut settled_clusters: Vec<Option<Object>> = Vec::with_capacity(len);
    let first = stream(
        len,
        side.threads(),
        progress,
        |i| {
            plan_old(fleet, i).map(|(p, _)| {
                let cluster = review::converged(&p)
                    .into_iter()
                    .find(|o| o.kind == "Cluster");
                (cluster, Totals::default(), Vec::new())
            })
        },
        |c| {
            settled_clusters.push(c);
            Ok(())
        },
    );
    if !first.errors.is_empty() {
        let mut d = first.errors;
        d.extend(side.ignored());
        return Err(old_failed(d));
    }
    Ok(settled_clusters)
}

/// The old fleet's Clusters by (namespace, name): several when flavors define one Cluster in
/// several files.
fn old_clusters_by_key(fleet: Option<&Fleet<'_>>) -> BTreeMap<(String, String), Vec<usize>> {
    let mut by_key: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for i in 0..fleet.map_or(0, Fleet::len) {
        if let Some((ns, name, _)) = fleet.and_then(|f| f.entry(i)) {
            by_key
                .entry((ns.to_string(), name.to_string()))
                .or_default()
                .push(i);
        }
    }
    by_key
}

/// The state the new inputs are admitted against: the old classes, and the Cluster each
/// remaining old Cluster converged to. The Cluster webhook's version-change rule reads this
/// state as the stored objects; a settled state rolls nothing out, and holds no ControlPlane
/// or workers, so that rule refuses no version change here.
fn admission_state(
    old_objects: &[Object],
    settled_clusters: Vec<Option<Object>>,
    old_fleet: Option<&Fleet<'_>>,
    membership: &Membership,
) -> Vec<Object> {
    let mut state: Vec<Object> = old_objects
        .iter()
        .filter(|o| o.kind == "ClusterClass" && o.group() == crate::api::GROUP)
        .cloned()
        .collect();
    for (i, c) in settled_clusters.into_iter().enumerate() {
        let removed = old_fleet
            .and_then(|f| f.entry(i))
            .is_some_and(|(ns, n, _)| {
                membership
                    .removed
                    .contains(&(ns.to_string(), n.to_string()))
            });
        if !removed {
            state.extend(c);
        }
    }
    state
}

/// New inputs' Clusters and removed ones, in namespace, name, file order.
fn review_items<'f>(
    new_fleet: &'f Fleet<'_>,
    old_fleet: Option<&'f Fleet<'_>>,
    membership: &Membership,
) -> Vec<(&'f str, &'f str, &'f str, Item)> {
    let mut items: Vec<(&str, &str, &str, Item)> = Vec::new();
    for i in 0..new_fleet.len() {
        if let Some((ns, name, file)) = new_fleet.entry(i) {
            items.push((ns, name, file, Item::New(i)));
        }
    }
    for i in 0..old_fleet.map_or(0, Fleet::len) {
        if let Some((ns, name, file)) = old_fleet.and_then(|f| f.entry(i))
            && membership
                .removed
                .contains(&(ns.to_string(), name.to_string()))
        {
            items.push((ns, name, file, Item::Removed(i)));
        }
    }
    items.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    items
}

/// What the old inputs' Clusters named `key` converge to (planned again here, on the worker,
/// rather than held from the first pass: holding a fleet's settled objects cost gigabytes).
fn settle(
    old_fleet: Option<&Fleet<'_>>,
    old_by_key: &BTreeMap<(String, String), Vec<usize>>,
    key: &(String, String),
) -> Result<Vec<Object>, Vec<Diagnostic>> {
    let mut objects = Vec::new();
    for &i in old_by_key.get(key).map(Vec::as_slice).unwrap_or(&[]) {
        let (p, _) = plan_old(old_fleet, i)?;
        objects.extend(review::converged(&p));
    }
    Ok(objects)
}

/// Plan the new inputs' Cluster `i` against `settled` (what its old self converges to); an
/// `added` Cluster's Cluster object is marked created.
fn plan_new_cluster(
    new_fleet: &Fleet<'_>,
    i: usize,
    settled: &[Object],
    lists: &crate::plan::ssa::ListTypes,
    added: bool,
) -> Result<(ClusterPlan, Vec<Diagnostic>), Vec<Diagnostic>> {
    let index = current::Index::new(settled);
    let state = State {
        index: Some(&index),
        lists,
        sole_owner: true,
    };
    let (mut p, warnings) = super::cluster::plan_in(new_fleet, i, &state)?;
    if added {
        for o in &mut p.objects {
            if o.role == Role::Cluster {
                o.action = Action::Created;
                o.note = Some("new Cluster".into());
            }
        }
    }
    Ok((p, warnings))
}

fn old_failed(d: Vec<Diagnostic>) -> Failed {
    let mut out = vec![Diagnostic::error(
        Code::DiffOldSide,
        "the old inputs do not plan: a diff needs both sides to be valid",
    )];
    out.extend(d);
    Failed {
        diagnostics: out,
        emitted: false,
    }
}
