/*!
The plan document printed by `--output json|yaml`.

Format `topoplan.dev/v1alpha1`, kind `Plan` (documented in the README, "Plan document"):

```yaml
apiVersion: topoplan.dev/v1alpha1
kind: Plan
clusters:
- namespace: default
  name: my-cluster
  clusterClass: {namespace: default, name: quick-start}
  source: flavor.yaml          # only when several files define this Cluster (flavors)
  summary: {created: 10, modified: 1, unchanged: 0, deleted: 0}
  objects:
  - action: created            # created | modified | unchanged | deleted
    role: ControlPlane         # what the object is for in the topology
    apiVersion: ...
    kind: ...
    namespace: ...
    name: ...
    object: {...}              # the full object (after the plan; as it is when unchanged or
                               # deleted); left out with --no-objects
    note: ...                  # why, when it needs saying (held, rotated, topology entry removed)
    rotatedFrom: ...           # a template created by rotation: the name it replaces
    diff: ...                  # modified objects with --current: unified diff of the managed fields;
                               # a template created by rotation: its diff from the one it replaces
  rollouts:                    # machines replaced; only when there are any
  - {role: MachineDeployment/md-0, kind: MachineDeployment, name: ..., when: now,  # or deferred
     reasons: ["Version v1.30.0, v1.31.0 required"]}
  deferred:                    # changes the upgrade sequencing holds back this pass
  - {role: ControlPlane, object: KubeadmControlPlane x, reason: ...}
  patches:                     # only with --explain: what each ClusterClass patch did
  - name: my-patch
    index: 0                   # position in spec.patches
    templates:
    - object: ControlPlane     # the role of the object the template generates
      kind: KubeadmControlPlaneTemplate
      applied: true
      operations: [{op: add, path: /spec/..., value: ...}]   # merge patches: {op: merge, value}
    - object: InfrastructureCluster
      kind: DockerClusterTemplate
      applied: false
      reason: no definition selects it
summary:                       # the fleet's totals (after every Cluster, as they stream)
  {clusters: 2, changed: 2, unchanged: 0, created: 30, modified: 2, deleted: 0,
   rollouts: 0, clustersRollingOut: 0, deferredRollouts: 0}
warnings:
- message: ...
  file: ...                    # present when the warning has a location
  line: 1
  column: 1
errors:                        # only when the run failed before any Cluster was printed
- {severity: error, message: ..., file: ..., line: 1, column: 1}
```
Fields are only ever added within a version; a change that removes or renames one bumps it.
*/

use std::io::Write;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::stream::{self, Frame, Syntax};
use crate::diag::Diagnostic;
use crate::plan::{Action, ClusterPlan, Plan};

/// The document's apiVersion.
pub const API_VERSION: &str = "topoplan.dev/v1alpha1";

/// The document, borrowing the plan: serialising it streams the objects without copying them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document<C> {
    api_version: &'static str,
    kind: &'static str,
    clusters: C,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<Totals>,
    #[serde(skip_serializing_if = "Option::is_none")]
    affected: Option<crate::output::affected::Entry>,
    warnings: Vec<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterEntry<'a> {
    namespace: &'a str,
    name: &'a str,
    cluster_class: ClassRef<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    summary: Summary,
    objects: Vec<ObjectEntry<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rollouts: Vec<RolloutEntry<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    deferred: Vec<DeferredEntry<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patches: Option<Value>,
}

#[derive(Serialize)]
struct ClassRef<'a> {
    namespace: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct Summary {
    created: usize,
    modified: usize,
    unchanged: usize,
    deleted: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ObjectEntry<'a> {
    action: &'static str,
    role: String,
    api_version: &'a str,
    kind: &'a str,
    namespace: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    object: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rotated_from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RolloutEntry<'a> {
    role: String,
    kind: &'a str,
    name: &'a str,
    when: &'static str,
    reasons: &'a [String],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DeferredEntry<'a> {
    role: String,
    object: &'a str,
    reason: &'a str,
}

/// What the document shows of each Cluster besides the verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Show {
    /// Each Cluster's patch trace (`--explain`).
    pub explain: bool,
    /// Each object whole (`--no-objects` leaves them out; diffs stay).
    pub objects: bool,
}

impl Default for Show {
    fn default() -> Show {
        Show {
            explain: false,
            objects: true,
        }
    }
}

/// One Cluster's entry of the document.
fn entry(c: &ClusterPlan, show: Show) -> ClusterEntry<'_> {
    let explain = show.explain;
    let count = |a: Action| c.objects.iter().filter(|o| o.action == a).count();
    ClusterEntry {
        namespace: &c.namespace,
        name: &c.name,
        cluster_class: ClassRef {
            namespace: &c.class.0,
            name: &c.class.1,
        },
        source: c.source.as_deref(),
        summary: Summary {
            created: count(Action::Created),
            modified: count(Action::Modified),
            unchanged: count(Action::Unchanged),
            deleted: count(Action::Deleted),
        },
        objects: c
            .objects
            .iter()
            .map(|o| ObjectEntry {
                action: o.action.as_str(),
                role: o.role.id(),
                api_version: o.api_version(),
                kind: o.kind(),
                namespace: o.namespace(),
                name: o.name(),
                object: show.objects.then_some(&o.object),
                note: o.note.as_deref(),
                rotated_from: o.rotated_from.as_deref(),
                diff: crate::output::table::object_diff(o, false),
            })
            .collect(),
        rollouts: c
            .rollouts
            .iter()
            .map(|r| RolloutEntry {
                role: r.role.id(),
                kind: &r.kind,
                name: &r.name,
                when: if r.deferred { "deferred" } else { "now" },
                reasons: &r.reasons,
            })
            .collect(),
        deferred: c
            .deferred
            .iter()
            .map(|(role, object, reason)| DeferredEntry {
                role: role.id(),
                object,
                reason,
            })
            .collect(),
        patches: explain.then(|| crate::patches::explain::to_json(&c.patches)),
    }
}

fn document(plan: &Plan, explain: bool) -> Document<Vec<ClusterEntry<'_>>> {
    Document {
        api_version: API_VERSION,
        kind: "Plan",
        clusters: plan
            .clusters
            .iter()
            .map(|c| {
                entry(
                    c,
                    Show {
                        explain,
                        ..Show::default()
                    },
                )
            })
            .collect(),
        summary: None,
        affected: None,
        warnings: plan.warnings.iter().map(diagnostic).collect(),
        errors: Vec::new(),
    }
}

/// One Cluster's entry as a JSON value (keys sorted), as [`build`] holds it.
pub fn entry_value(c: &ClusterPlan, show: Show) -> Value {
    serde_json::to_value(entry(c, show)).unwrap_or(Value::Null)
}

/// The `i`-th Cluster of the JSON document, streamed (see [`super::stream`]).
pub fn json_cluster(i: usize, c: &ClusterPlan, show: Show) -> Vec<u8> {
    stream::cluster_json(i, &entry(c, show))
}

/// A Cluster of the YAML document, streamed.
pub fn yaml_cluster(c: &ClusterPlan, show: Show) -> Vec<u8> {
    stream::cluster_yaml(entry_value(c, show))
}

/// The document around its Clusters, with these warnings and, once known, the fleet's totals
/// (they follow the Clusters, so the head never needs them).
pub fn frame(
    syntax: Syntax,
    warnings: &[Diagnostic],
    totals: Option<&crate::plan::Totals>,
) -> Frame {
    frame_affected(syntax, warnings, totals, None)
}

/// [`frame`], with what the change affects when planned against the management cluster (it
/// follows the summary, so the head never needs it either).
pub fn frame_affected(
    syntax: Syntax,
    warnings: &[Diagnostic],
    totals: Option<&crate::plan::Totals>,
    affected: Option<&crate::plan::affected::Affected>,
) -> Frame {
    let warnings: Vec<Value> = warnings.iter().map(diagnostic).collect();
    let summary = totals.map(Totals::of);
    let affected = affected.map(crate::output::affected::Entry::of);
    Frame::cut(syntax, |clusters| Document {
        api_version: API_VERSION,
        kind: "Plan",
        clusters,
        summary,
        affected: affected.clone(),
        warnings: warnings.clone(),
        errors: Vec::new(),
    })
}

/// The fleet's totals in the document (`summary`).
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
struct Totals {
    clusters: usize,
    changed: usize,
    unchanged: usize,
    created: usize,
    modified: usize,
    deleted: usize,
    rollouts: usize,
    clusters_rolling_out: usize,
    deferred_rollouts: usize,
}

impl Totals {
    fn of(t: &crate::plan::Totals) -> Totals {
        Totals {
            clusters: t.clusters,
            changed: t.changed,
            unchanged: t.clusters - t.changed,
            created: t.created,
            modified: t.modified,
            deleted: t.deleted,
            rollouts: t.rollouts,
            clusters_rolling_out: t.clusters_rolling_out,
            deferred_rollouts: t.deferred_rollouts,
        }
    }
}

/// The document of a run that failed before any Cluster was printed: no Clusters, its
/// warnings, and its `errors` (a CI job reading stdout learns why, not only that).
pub fn failed(syntax: Syntax, diagnostics: &[Diagnostic]) -> String {
    let (errors, warnings): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
        diagnostics.iter().partition(|d| d.is_error());
    let doc = Document {
        api_version: API_VERSION,
        kind: "Plan",
        clusters: Vec::<Value>::new(),
        summary: None,
        affected: None,
        warnings: warnings.into_iter().map(diagnostic).collect(),
        errors: errors.into_iter().map(diagnostic).collect(),
    };
    stream::render(syntax, &doc)
}

/// The plan document as a JSON value (keys sorted); `explain` adds each Cluster's patches.
pub fn build(plan: &Plan, explain: bool) -> Value {
    serde_json::to_value(document(plan, explain)).unwrap_or(Value::Null)
}

/// A diagnostic as a JSON object (message, severity, help, file, line, column).
pub fn diagnostic(d: &Diagnostic) -> Value {
    let mut m = Map::new();
    m.insert(
        "severity".into(),
        json!(if d.is_error() { "error" } else { "warning" }),
    );
    m.insert("code".into(), json!(d.code.name()));
    m.insert("message".into(), json!(d.message));
    if let Some(h) = &d.help {
        m.insert("help".into(), json!(h));
    }
    if let Some((file, line, column)) = d.position() {
        m.insert("file".into(), json!(file));
        m.insert("line".into(), json!(line));
        m.insert("column".into(), json!(column));
    }
    Value::Object(m)
}

/// Write the document as pretty JSON with a trailing newline, streaming.
pub fn write_json(
    plan: &Plan,
    explain: bool,
    out: &mut (impl Write + ?Sized),
) -> std::io::Result<()> {
    serde_json::to_writer_pretty(
        super::actions::JsonSafe::new(&mut *out),
        &document(plan, explain),
    )
    .map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// The document as YAML.
pub fn to_yaml(plan: &Plan, explain: bool) -> String {
    crate::load::yaml::to_yaml(&build(plan, explain))
}
