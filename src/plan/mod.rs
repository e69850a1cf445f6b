/*!
Plan: for every topology Cluster in the input, what the topology controller would do.

Owns the run from loaded objects to a [`Plan`]: recognising ClusterClasses and Clusters,
resolving blueprints once per class, computing each Cluster's desired state (in parallel) and
classifying every object as created / modified / unchanged / deleted. Without current state every
generated object is `created`; the Cluster itself is `modified` when the topology changes its
labels or references. Rendering the plan belongs to `output`.
*/

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde_json::Value;

use crate::api::{self, ApiVersion, Cluster, ClusterClass};
use crate::diag::{Diagnostic, Diagnostics};
use crate::load::{self, LoadOptions, Object};
use crate::topology::{self, Blueprint, Catalog, Role};
use crate::validate::run::{Mode, Settings, validate_objects};

pub mod extensions;
pub mod upgrade;

/// Resolved options for `topoplan plan`.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// How to read the input.
    pub load: LoadOptions,
    /// Only these Clusters (namespace, name); empty means all.
    pub clusters: Vec<(String, String)>,
    /// Feature gates for admission.
    pub gates: crate::validate::Gates,
    /// Runtime extensions from the command line (resolved, not yet contacted).
    pub extensions: crate::runtime::ExtensionOptions,
}

/// What happens to an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// The object does not exist and will be created.
    Created,
    /// The object exists and will be changed.
    Modified,
    /// The object exists and stays as it is.
    Unchanged,
    /// The object exists and will be deleted.
    Deleted,
}

impl Action {
    /// The word used in tables and documents.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Created => "created",
            Action::Modified => "modified",
            Action::Unchanged => "unchanged",
            Action::Deleted => "deleted",
        }
    }
}

/// `metadata.<field>` as a string, `""` when absent. (Not `Value::pointer`: this is on the hot
/// path of sorting and printing, and pointer parsing allocates.)
pub fn metadata_str<'v>(v: &'v Value, field: &str) -> &'v str {
    v.get("metadata")
        .and_then(|m| m.get(field))
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// One object of a cluster's plan.
#[derive(Debug, Clone)]
pub struct PlannedObject {
    /// What happens to it.
    pub action: Action,
    /// What it is for.
    pub role: Role,
    /// The object as it would be after the change (or as it is, when deleted).
    pub object: Value,
}

impl PlannedObject {
    /// `apiVersion`.
    pub fn api_version(&self) -> &str {
        self.object
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    /// `kind`.
    pub fn kind(&self) -> &str {
        self.object
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
    /// `metadata.name`.
    pub fn name(&self) -> &str {
        metadata_str(&self.object, "name")
    }
    /// `metadata.namespace`.
    pub fn namespace(&self) -> &str {
        metadata_str(&self.object, "namespace")
    }
}

/// The plan for one Cluster.
#[derive(Debug, Clone)]
pub struct ClusterPlan {
    /// Namespace of the Cluster.
    pub namespace: String,
    /// Name of the Cluster.
    pub name: String,
    /// The ClusterClass (namespace, name).
    pub class: (String, String),
    /// API version of the Cluster (and of the generated core objects).
    pub api: ApiVersion,
    /// The file the Cluster came from, when several files define a Cluster of this name
    /// (alternative flavors, planned side by side).
    pub source: Option<String>,
    /// Objects in display order: created, modified, unchanged, deleted; then kind, then name.
    pub objects: Vec<PlannedObject>,
    /// What each ClusterClass patch did to each template (for `--explain`).
    pub patches: Vec<crate::patches::explain::PatchTrace>,
}

impl ClusterPlan {
    /// Whether anything changes.
    pub fn has_changes(&self) -> bool {
        self.objects.iter().any(|o| o.action != Action::Unchanged)
    }
}

/// The whole plan.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// One entry per planned Cluster, ordered by namespace then name.
    pub clusters: Vec<ClusterPlan>,
    /// Warnings for the user (e.g. skipped patches).
    pub warnings: Vec<Diagnostic>,
}

/// How many Clusters are planned at once when they call Runtime extensions (their calls
/// overlap; Cluster API's controller, too, reconciles Clusters concurrently).
const EXTENSION_CONCURRENCY: usize = 16;

/// Read the input and plan every topology Cluster in it.
pub fn plan(opts: &PlanOptions) -> Result<Plan, Diagnostics> {
    let inputs = load::load(&opts.load)?;
    plan_inputs(&inputs, opts)
}

/// Like [`plan`], but also hands back the loaded input (the CLI keeps it alive until exit
/// instead of paying to free it).
pub fn plan_with_inputs(opts: &PlanOptions) -> Result<(Plan, load::Inputs), Diagnostics> {
    let inputs = load::load(&opts.load)?;
    let plan = plan_inputs(&inputs, opts)?;
    Ok((plan, inputs))
}

/// Run admission over the loaded input (as `topoplan validate` does), then plan the objects as
/// the API server would have stored them. Invalid input is refused: Cluster API would never
/// reconcile it. Runtime extensions are contacted only when a ClusterClass of the input has
/// external patches.
pub fn plan_inputs(inputs: &load::Inputs, opts: &PlanOptions) -> Result<Plan, Diagnostics> {
    let registry = extensions::connect(&inputs.objects, &opts.extensions, extensions::Need::Plan)?;
    let settings = Settings {
        mode: Mode::Plan,
        gates: opts.gates,
        registry: registry.as_ref(),
    };
    let v = validate_objects(&inputs.objects, &[], &inputs.runtime_messages, &settings);
    if v.has_errors() {
        let mut d = v.diagnostics();
        d.extend(extensions::ignored(registry.as_ref()));
        return Err(Diagnostics(d));
    }
    let ctx = Extensions {
        registry: registry.as_ref(),
        status: &v.status_variables,
    };
    let planned = plan_objects_with(&v.objects, &opts.clusters, &ctx);
    let ignored = extensions::ignored(registry.as_ref());
    let mut plan = match planned {
        Ok(p) => p,
        Err(Diagnostics(mut e)) => {
            e.extend(ignored);
            return Err(Diagnostics(e));
        }
    };
    let mut warnings = v.diagnostics();
    warnings.extend(ignored);
    warnings.append(&mut plan.warnings);
    plan.warnings = warnings;
    Ok(plan)
}

/// What planning needs from admission and the Runtime extensions.
#[derive(Debug, Clone, Copy)]
pub struct Extensions<'a> {
    /// The connected extensions, when the input has external patches.
    pub registry: Option<&'a crate::runtime::Registry>,
    /// Each admitted ClusterClass's `status.variables`.
    pub status: &'a BTreeMap<(String, String), crate::variables::definitions::StatusVariables>,
}

/// Plan the given objects (already loaded and admitted) with inline patches only.
pub fn plan_objects(objects: &[Object], only: &[(String, String)]) -> Result<Plan, Diagnostics> {
    let status = BTreeMap::new();
    plan_objects_with(
        objects,
        only,
        &Extensions {
            registry: None,
            status: &status,
        },
    )
}

/// Plan the given objects (already loaded and admitted; see [`plan_inputs`]).
pub fn plan_objects_with(
    objects: &[Object],
    only: &[(String, String)],
    ext: &Extensions<'_>,
) -> Result<Plan, Diagnostics> {
    let mut errors = Vec::new();
    let mut classes: BTreeMap<(String, String), ClusterClass> = BTreeMap::new();
    let mut clusters: Vec<Cluster> = Vec::new();
    for o in objects {
        let api = match api::check_core_object(o) {
            Ok(Some(api)) => api,
            Ok(None) => continue,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        match o.kind.as_str() {
            "ClusterClass" => match ClusterClass::parse(o, api) {
                Ok(c) => {
                    classes.insert((o.namespace.clone(), o.name.clone()), c);
                }
                Err(e) => errors.push(e),
            },
            "Cluster" => match Cluster::parse(o, api) {
                Ok(c) if c.spec.topology.is_some() => clusters.push(c),
                Ok(_) => {}
                Err(e) => errors.push(e),
            },
            _ => {}
        }
    }

    if !only.is_empty() {
        let wanted: BTreeSet<(String, String)> = only.iter().cloned().collect();
        let present: BTreeSet<(String, String)> = clusters
            .iter()
            .map(|c| (c.namespace().to_string(), c.name().to_string()))
            .collect();
        clusters.retain(|c| wanted.contains(&(c.namespace().to_string(), c.name().to_string())));
        for (ns, name) in wanted.difference(&present) {
            errors.push(
                Diagnostic::error(format!(
                    "--cluster {ns}/{name}: no Cluster with a topology of that name in the input"
                ))
                .with_help("--cluster takes NAMESPACE/NAME of a Cluster that has spec.topology"),
            );
        }
    }
    if clusters.is_empty() && errors.is_empty() {
        errors.push(
            Diagnostic::error("no Cluster with spec.topology found in the input").with_help(
                "pass the ClusterClass, its templates and at least one Cluster that uses the class",
            ),
        );
    }

    for c in &clusters {
        for (field, ptr) in [
            ("infrastructureRef", "/spec/infrastructureRef"),
            ("controlPlaneRef", "/spec/controlPlaneRef"),
        ] {
            if c.object
                .value
                .pointer(ptr)
                .is_some_and(|v| !api::is_zero(v))
            {
                errors.push(
                    Diagnostic::error(format!(
                        "Cluster {} has spec.topology and also spec.{field}: the topology controller sets that reference itself, \
                         so this Cluster already exists and cannot be planned as a new one",
                        c.object.key()
                    ))
                    .at(&c.object.origin, ptr, "set by the topology controller")
                    .with_help(format!(
                        "remove spec.{field} to plan the Cluster from scratch; planning against existing objects needs their current state"
                    )),
                );
            }
        }
    }

    // Resolve each used class once; Clusters of a broken class are not planned.
    let catalog = Catalog::new(objects);
    let mut blueprints: BTreeMap<(String, String), Blueprint<'_>> = BTreeMap::new();
    let mut warnings = Vec::new();
    let used: BTreeSet<(String, String)> = clusters.iter().map(Cluster::class_key).collect();
    for key in &used {
        let Some(class) = classes.get(key) else {
            continue;
        };
        warnings.extend(class.warnings.iter().cloned());
        match Blueprint::resolve(class, &catalog) {
            Ok(bp) => {
                warnings.extend(non_deterministic_templates(class));
                let (lost, unseen) = ineffective_operations(class);
                warnings.extend(unseen);
                if lost.is_empty() {
                    blueprints.insert(key.clone(), bp);
                } else {
                    errors.extend(lost);
                }
            }
            Err(mut e) => errors.append(&mut e),
        }
    }
    for c in &clusters {
        let key = c.class_key();
        if !classes.contains_key(&key) {
            let known: Vec<String> = classes.keys().map(|(ns, n)| format!("{ns}/{n}")).collect();
            errors.push(
                Diagnostic::error(format!(
                    "Cluster {}: ClusterClass {}/{} not found in the input",
                    c.object.key(),
                    key.0,
                    key.1
                ))
                .at(&c.object.origin, &c.class_pointer(), "unknown ClusterClass")
                .with_help(if known.is_empty() {
                    "the input holds no ClusterClass; add the class with -f".to_string()
                } else {
                    format!("the input holds: {}", known.join(", "))
                }),
            );
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }

    clusters.sort_by(|a, b| {
        (a.namespace(), a.name(), &a.object.origin.file.name).cmp(&(
            b.namespace(),
            b.name(),
            &b.object.origin.file.name,
        ))
    });
    for c in &clusters {
        warnings.extend(c.warnings.iter().cloned());
    }
    // Clusters that share a name come from different files (flavors): label each with its file.
    let mut by_key: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for c in &clusters {
        by_key
            .entry((c.namespace(), c.name()))
            .or_default()
            .push(c.object.origin.file.name.as_str());
    }
    for ((ns, name), files) in &by_key {
        if files.len() > 1 {
            warnings.push(
                Diagnostic::warning(format!(
                    "Cluster {ns}/{name} is defined in {} files ({}); each is planned separately as an alternative flavor",
                    files.len(),
                    files.join(", ")
                ))
                .with_help("pass one flavor at a time (-f class.yaml -f flavor.yaml) to plan a single Cluster"),
            );
        }
    }
    let ambiguous: BTreeSet<(String, String)> = by_key
        .iter()
        .filter(|(_, f)| f.len() > 1)
        .map(|((ns, n), _)| (ns.to_string(), n.to_string()))
        .collect();
    let plan_one = |c: &Cluster| -> Result<ClusterPlan, Vec<Diagnostic>> {
        let bp = blueprints.get(&c.class_key()).ok_or_else(|| {
            vec![Diagnostic::error(format!(
                "Cluster {}: no blueprint",
                c.object.key()
            ))]
        })?;
        let mut desired = topology::compute(c, bp)?;
        let ctx = crate::patches::PatchContext {
            registry: ext.registry,
            status: ext.status.get(&c.class_key()),
        };
        let traces = crate::patches::apply(c, bp.class, bp, &mut desired, ctx)?;
        let mut p = classify(c, desired);
        p.patches = traces;
        if ambiguous.contains(&(p.namespace.clone(), p.name.clone())) {
            p.source = Some(c.object.origin.file.name.clone());
        }
        Ok(p)
    };
    // Clusters that call extensions spend most of their time waiting on the network: plan
    // them on a wider pool so calls overlap (results keep their order either way).
    let pool = if ext.registry.is_some() && clusters.len() > 1 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(EXTENSION_CONCURRENCY)
            .build()
            .ok()
    } else {
        None
    };
    let run = || clusters.par_iter().map(&plan_one).collect::<Vec<_>>();
    let results: Vec<Result<ClusterPlan, Vec<Diagnostic>>> = match &pool {
        Some(p) => p.install(run),
        None => run(),
    };
    let mut plans = Vec::new();
    for r in results {
        match r {
            Ok(p) => plans.push(p),
            Err(mut e) => errors.append(&mut e),
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    Ok(Plan {
        clusters: plans,
        warnings,
    })
}

/// Every inline operation of `class` as read: `(patch index, patch name, operation pointer,
/// operation)`, the pointer being `/spec/patches/i/definitions/j/jsonPatches/k`.
fn inline_operations(class: &ClusterClass) -> Vec<(usize, &str, String, &Value)> {
    fn arr(v: Option<&Value>) -> &[Value] {
        v.and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
    }
    let mut out = Vec::new();
    for (i, p) in arr(class.object.value.pointer("/spec/patches"))
        .iter()
        .enumerate()
    {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        for (j, d) in arr(p.get("definitions")).iter().enumerate() {
            for (k, op) in arr(d.get("jsonPatches")).iter().enumerate() {
                out.push((
                    i,
                    name,
                    format!("/spec/patches/{i}/definitions/{j}/jsonPatches/{k}"),
                    op,
                ));
            }
        }
    }
    out
}

/// One error per inline operation whose path lies under `/spec` but outside
/// `/spec/template`. Admission accepts it, but Cluster API writes back only the template part
/// of every patched template (`spec.template.spec`, and on main its metadata), so the change
/// would silently vanish from every Cluster: the class cannot mean it. Second, warnings for
/// operations under `/spec/template/metadata` of a v1beta1 class: Cluster API v1.10 wrote back
/// only `spec.template.spec`, so they have no effect there either.
fn ineffective_operations(class: &ClusterClass) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for (_, name, at, op) in inline_operations(class) {
        let Some(path) = op.get("path").and_then(Value::as_str) else {
            continue;
        };
        let pointer = format!("{at}/path");
        let metadata =
            path == "/spec/template/metadata" || path.starts_with("/spec/template/metadata/");
        if metadata && class.api == ApiVersion::V1Beta1 {
            warnings.push(
                Diagnostic::warning(format!(
                    "ClusterClass {}: patch {name:?} writes {path}: Cluster API v1.10 (v1beta1) copies only spec.template.spec of a patched template into the objects, so this operation has no effect",
                    class.key()
                ))
                .at(&class.object.origin, &pointer, "dropped by Cluster API v1.10"),
            );
            continue;
        }
        let kept = path == "/spec/template" || path.starts_with("/spec/template/");
        if kept || !path.starts_with("/spec/") {
            continue;
        }
        out.push(
            Diagnostic::error(format!(
                "ClusterClass {}: patch {name:?} writes {path}, outside spec.template: Cluster API keeps only spec.template of a patched template, so this operation would have no effect",
                class.key()
            ))
            .at(&class.object.origin, &pointer, "dropped by Cluster API")
            .with_help("patch a field under /spec/template/spec (or /spec/template/metadata); Cluster API accepts this class and silently ignores the operation, topoplan refuses it"),
        );
    }
    (out, warnings)
}

/// One warning per patch template that calls a function whose result changes from run to run:
/// Cluster API would render a different value on every reconcile, so no plan can predict it.
fn non_deterministic_templates(class: &ClusterClass) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let patches = class
        .object
        .value
        .pointer("/spec/patches")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut check = |template: Option<&Value>, pointer: String, patch: &str| {
        let Some(t) = template.and_then(Value::as_str) else {
            return;
        };
        let funcs = crate::gotemplate::capi::non_deterministic_functions(t);
        if !funcs.is_empty() {
            out.push(
                Diagnostic::warning(format!(
                    "ClusterClass {}: patch {patch:?} calls {}, whose result changes on every render: the class cannot be planned deterministically",
                    class.key(),
                    funcs.join(", ")
                ))
                .at(&class.object.origin, &pointer, "not deterministic"),
            );
        }
    };
    for (i, p) in patches.iter().enumerate() {
        let name = p.get("name").and_then(Value::as_str).unwrap_or("");
        check(
            p.get("enabledIf"),
            format!("/spec/patches/{i}/enabledIf"),
            name,
        );
    }
    for (_, name, at, op) in inline_operations(class) {
        check(
            op.pointer("/valueFrom/template"),
            format!("{at}/valueFrom/template"),
            name,
        );
    }
    out
}

/// Without current state: everything is created except the Cluster, which exists already.
fn classify(cluster: &Cluster, desired: topology::DesiredState) -> ClusterPlan {
    let mut objects: Vec<PlannedObject> = desired
        .objects
        .into_iter()
        .map(|d| {
            let action = if d.role == Role::Cluster {
                if d.value == cluster.object.value {
                    Action::Unchanged
                } else {
                    Action::Modified
                }
            } else {
                Action::Created
            };
            PlannedObject {
                action,
                role: d.role,
                object: d.value,
            }
        })
        .collect();
    objects.sort_by_cached_key(|o| {
        (
            o.action,
            o.kind().to_string(),
            o.name().to_string(),
            o.namespace().to_string(),
        )
    });
    ClusterPlan {
        namespace: cluster.namespace().to_string(),
        name: cluster.name().to_string(),
        class: cluster.class_key(),
        api: cluster.api,
        source: None,
        objects,
        patches: Vec::new(),
    }
}
