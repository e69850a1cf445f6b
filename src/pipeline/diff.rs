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
use crate::load::{self, Object};
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
    // Overlaps the CEL parser's start with reading the input (admission compiles rules).
    crate::schema::cel::warm_up();
    // Both sides at once: files they share are parsed once.
    let mut sets = vec![opts.old.clone(), opts.plan.load.clone()];
    sets.extend(opts.plan.current.as_ref().map(super::expand_plan_outputs));
    let mut loaded = load::load_many(&sets).into_iter();
    let (mut old, mut new, mut stored) = match (loaded.next(), loaded.next(), loaded.next()) {
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
    // The live cluster, read for what both sides need of it.
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
    // Against the management cluster, OLD and NEW are changes: each side takes the classes,
    // templates and affected Clusters it lacks from the store, so the review is of what the
    // change does to the Clusters it affects.
    let mut lent_warnings = Vec::new();
    if let Some(stored) = &stored {
        let affected = crate::plan::affected::find(
            old.objects.iter().chain(&new.objects),
            &stored.objects,
            false,
        );
        for side in [&mut old, &mut new] {
            let (objects, warnings) = crate::plan::stored::lend_for_review(
                std::mem::take(&mut side.objects),
                &stored.objects,
                &affected,
            );
            side.objects = objects;
            lent_warnings.extend(warnings);
        }
        lent_warnings.extend(stored.warnings.iter().cloned());
    }
    // The repository's CRDs join each side, at the release each side's contract selects.
    super::add_provider_crds(opts.plan.providers.as_ref(), &mut old).map_err(Diagnostics)?;
    super::add_provider_crds(opts.plan.providers.as_ref(), &mut new).map_err(Diagnostics)?;
    // What the loader skipped (special files) is told first, whether or not the review succeeds.
    let mut skipped: Vec<Diagnostic> = old.warnings.iter().chain(&new.warnings).cloned().collect();
    skipped.append(&mut lent_warnings);
    // No old input at all (a folder read at a revision that lacks it): nothing to plan there.
    let old_empty = old.objects.is_empty();
    let reviewed =
        (|| -> Result<ReviewOutcome, Failed> {
            let plan_opts = &opts.plan;
            let new_keys: BTreeSet<(String, String)> = new
                .objects
                .iter()
                .filter(|o| review::is_topology_cluster(o))
                .map(|o| (o.namespace.clone(), o.name.clone()))
                .collect();

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
            let old_fleet = if !old_empty {
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
            let old_len = old_fleet.as_ref().map_or(0, Fleet::len);
            let old_plan = |i: usize| match &old_fleet {
                Some(f) => super::cluster::plan(f, i),
                None => Err(Vec::new()),
            };
            let old_entry = |i: usize| old_fleet.as_ref().and_then(|f| f.entry(i));
            let mut settled_clusters: Vec<Option<Object>> = Vec::with_capacity(old_len);
            let first = stream(
                old_len,
                old_side.threads(),
                progress,
                |i| {
                    old_plan(i).map(|(p, _)| {
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
                d.extend(old_side.ignored());
                return Err(old_failed(d));
            }
            let mut old_by_key: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
            for i in 0..old_len {
                if let Some((ns, name, _)) = old_entry(i) {
                    old_by_key
                        .entry((ns.to_string(), name.to_string()))
                        .or_default()
                        .push(i);
                }
            }
            let old_keys: BTreeSet<(String, String)> = old_by_key.keys().cloned().collect();
            let membership = Membership {
                removed: old_keys.difference(&new_keys).cloned().collect(),
                added: new_keys.difference(&old_keys).cloned().collect(),
            };

            // The state the new inputs are admitted against: the old classes, and the Cluster each
            // remaining old Cluster converged to. The Cluster webhook's version-change rule reads
            // this state as the stored objects; a settled state rolls nothing out, and holds no
            // ControlPlane or workers, so that rule refuses no version change here.
            let mut state: Vec<Object> = old_side
                .objects
                .iter()
                .filter(|o| o.kind == "ClusterClass" && o.group() == crate::api::GROUP)
                .cloned()
                .collect();
            for (i, c) in settled_clusters.into_iter().enumerate() {
                let removed = old_entry(i).is_some_and(|(ns, n, _)| {
                    membership
                        .removed
                        .contains(&(ns.to_string(), n.to_string()))
                });
                if !removed {
                    state.extend(c);
                }
            }
            let new_side = Side::admit(plan_opts, new, Against::Settled(&state), &extra_crds)
                .map_err(|d| Failed {
                    diagnostics: d,
                    emitted: false,
                })?;
            let fail = |mut d: Vec<Diagnostic>, emitted: bool| {
                d.extend(new_side.told_with_errors());
                Failed {
                    diagnostics: d,
                    emitted,
                }
            };
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
            .map_err(|d| fail(d.0, false))?;

            // New inputs' Clusters and removed ones, in namespace, name, file order.
            let mut items: Vec<(&str, &str, &str, Item)> = Vec::new();
            for i in 0..new_fleet.len() {
                if let Some((ns, name, file)) = new_fleet.entry(i) {
                    items.push((ns, name, file, Item::New(i)));
                }
            }
            for i in 0..old_len {
                if let Some((ns, name, file)) = old_entry(i)
                    && membership
                        .removed
                        .contains(&(ns.to_string(), name.to_string()))
                {
                    items.push((ns, name, file, Item::Removed(i)));
                }
            }
            items.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
            begin(&membership);

            let settle = |ns: &str, name: &str| -> Result<Vec<Object>, Vec<Diagnostic>> {
                let mut objects = Vec::new();
                for &i in old_by_key
                    .get(&(ns.to_string(), name.to_string()))
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                {
                    let (p, _) = old_plan(i)?;
                    objects.extend(review::converged(&p));
                }
                Ok(objects)
            };
            let work = |k: usize| -> Result<(C, Totals, Vec<Diagnostic>), Vec<Diagnostic>> {
                let (ns, name, _, item) = items[k];
                let (p, warnings) = match item {
                    Item::Removed(i) => (review::removed_cluster(old_plan(i)?.0), Vec::new()),
                    Item::New(i) => {
                        let settled = settle(ns, name)?;
                        let index = current::Index::new(&settled);
                        let state = State {
                            index: Some(&index),
                            lists: &new_side.lists,
                            sole_owner: true,
                        };
                        let (mut p, warnings) = super::cluster::plan_in(&new_fleet, i, &state)?;
                        if membership
                            .added
                            .contains(&(ns.to_string(), name.to_string()))
                        {
                            for o in &mut p.objects {
                                if o.role == Role::Cluster {
                                    o.action = Action::Created;
                                    o.note = Some("new Cluster".into());
                                }
                            }
                        }
                        (p, warnings)
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
            drop(old_fleet);
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
        })();
    let reviewed = super::recorded(&opts.plan.extensions, reviewed, |r| &mut r.warnings);
    super::told_first(skipped, reviewed, |r| &mut r.warnings)
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
