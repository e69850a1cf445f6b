/*!
One Cluster through the stages, in order: the stored Cluster merged under the input's, its
current objects found, the upgrade decided, the desired state computed and the decision written
into it, the ClusterClass's patches applied, the generated objects checked against their CRDs,
and each object judged against its stored form.

```text
stored merge → decode → current objects → upgrade decision → desired state → upgrade step
             → patches (inline, external) → CRD check → verdicts (or: all created) → ClusterPlan
```

Owns that order and nothing else: each stage is its module's (`plan::stored`, `plan::current`,
`plan::upgrade::for_cluster`, `topology`, `patches`, `plan::generated`, `plan::verdict`). The
fleet ([`Fleet`]) holds what every Cluster shares; the run ([`super`]) plans Clusters in
parallel and streams their plans.
*/

use std::borrow::Cow;

use crate::api::{self, Cluster};
use crate::diag::{Code, Diagnostic};
use crate::plan::cluster_plan::{classify, sort_objects};
use crate::plan::fleet::Fleet;
use crate::plan::stored::with_stored;
use crate::plan::upgrade::for_cluster;
use crate::plan::{ClusterPlan, State, current, generated, rollout, verdict};
use crate::topology;

/// Plan the `i`-th Cluster of `fleet` (in plan order) against the fleet's own current state.
/// Its decode warnings come back with the plan.
pub fn plan(
    fleet: &Fleet<'_>,
    i: usize,
) -> Result<(ClusterPlan, Vec<Diagnostic>), Vec<Diagnostic>> {
    plan_in(fleet, i, fleet.state())
}

/// [`plan`] against another current state (`diff` gives each Cluster its own).
pub fn plan_in(
    fleet: &Fleet<'_>,
    i: usize,
    state: &State<'_>,
) -> Result<(ClusterPlan, Vec<Diagnostic>), Vec<Diagnostic>> {
    let o = fleet.cluster_object(i)?;
    let api = api::check_core_object(o)
        .map_err(|e| vec![e])?
        .ok_or_else(|| {
            vec![Diagnostic::error(
                Code::Internal,
                format!("{} is not a Cluster", o.key()),
            )]
        })?;
    // The stored Cluster under the input's, as the user's apply leaves it.
    let stored = state
        .index
        .and_then(|ix| Some((ix.cluster(&o.namespace, &o.name)?, ix)));
    let merged = match stored {
        Some((s, ix)) => Cow::Owned(with_stored(o, s, ix).map_err(|e| vec![e])?),
        None => Cow::Borrowed(o),
    };
    let c = Cluster::parse(&merged, api).map_err(|e| vec![e])?;
    let mut warnings = c.warnings.clone();
    let (mut p, rendered) = stages(fleet, &c, state)?;
    // A template the lint already warned of (a path that names nothing) prints `<no value>`
    // for every Cluster: the class's warning says it once.
    warnings.extend(rendered.into_iter().filter(|w| !fleet.linted(w)));
    if fleet.is_flavor(&p.namespace, &p.name) {
        p.source = Some(c.object.origin.file.name.clone());
    }
    Ok((p, warnings))
}

/// The stages from a decoded Cluster to its plan, and the warnings of its templates' renders.
fn stages(
    fleet: &Fleet<'_>,
    c: &Cluster,
    state: &State<'_>,
) -> Result<(ClusterPlan, Vec<Diagnostic>), Vec<Diagnostic>> {
    let ext = fleet.extensions();
    let bp = fleet.blueprint(c)?;
    let nodes = state.index.map(|ix| ix.nodes());
    // What exists: the stored Cluster (or the given one, when it carries the references only
    // an existing Cluster has) and everything found from it.
    let current = match state.index {
        Some(ix) => {
            let given_refs = ["/spec/infrastructureRef", "/spec/controlPlaneRef"]
                .iter()
                .any(|p| c.object.value.pointer(p).is_some_and(|v| !api::is_zero(v)));
            let stored = ix
                .cluster(c.namespace(), c.name())
                .or(given_refs.then_some(&c.object));
            match stored {
                Some(s) => Some(current::find(s, c.api, ix)?),
                None => {
                    current::orphans(c, ix)?;
                    None
                }
            }
        }
        None => None,
    };
    let decision = match &current {
        Some(cur) => Some(for_cluster::upgrade_decision(c, bp, cur, nodes, ext)?),
        None => None,
    };
    let existing = match (&current, &decision) {
        (Some(cur), Some(d)) => topology::Existing {
            names: verdict::existing_names(cur),
            versions: for_cluster::versions_of(d),
        },
        _ => topology::Existing::default(),
    };
    let mut desired = topology::compute_with(c, bp, &existing)?;
    if let Some(d) = &decision {
        for_cluster::upgrade_step(&mut desired, &d.upgrade_step, c);
    }
    let ctx = crate::patches::PatchContext {
        registry: ext.registry,
        status: ext.status.get(&c.class_key()),
        defaulting: Some(fleet.defaulting()),
        capture: ext.capture,
    };
    let applied = crate::patches::apply(c, bp.class, bp, &mut desired, ctx)?;
    let checked = generated::check(
        c,
        bp.class,
        &desired,
        &applied.traces,
        ext.crds,
        fleet.clean(),
    );
    if !checked.errors.is_empty() {
        return Err(checked.errors);
    }
    let mut warnings = applied.warnings;
    warnings.extend(checked.warnings);
    let mut p = match (&current, &decision) {
        (Some(cur), Some(decision)) => {
            let seed = format!("{}/{}", c.namespace(), c.name());
            let v = verdict::judge(
                c.name(),
                &seed,
                desired.objects,
                &verdict::Input {
                    api: c.api,
                    current: cur,
                    upgrade: decision,
                    topology_version: &for_cluster::normalized_version(c),
                    lists: state.lists,
                    sole_owner: state.sole_owner,
                },
            )?;
            let mut p = classify(
                c,
                topology::DesiredState {
                    objects: Vec::new(),
                },
            );
            p.objects = v.objects;
            sort_objects(&mut p.objects);
            p.deferred = v.deferred;
            p.inexact = v.inexact;
            p.rollouts = rollout::merge(rollout::rollouts(&p.objects), v.rollouts);
            p
        }
        _ => classify(c, desired),
    };
    p.patches = applied.traces;
    Ok((p, warnings))
}
