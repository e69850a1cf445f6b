/*!
The input as applied over what is stored: what admission and planning see when `--current` gives
the objects as they are in the management cluster.

Owns turning each `-f` Cluster into the update of its stored form (it keeps what only the stored
Cluster knows: its uid, the references and the endpoint controllers set), bringing in the
topology Clusters that exist only in the current state, planned as stored, and applying each
`-f` template and ClusterClass over its stored form, as the user's apply would
([`applied_over_stored`]). It does not find a Cluster's objects ([`super::current`]) nor compare
anything ([`super::ssa`]).
*/

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::Value;

use crate::api;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::Object;

use super::affected::{self, Affected, Key};
use super::{current, ssa};

/// The objects `diff`'s new side admits against the state its old side settles in: each input
/// Cluster carries what only its settled form knows, and the settled topology Clusters the new
/// side does not redefine are planned as settled (they pass admission with the rest, as they
/// once did).
pub(crate) fn with_settled(
    inputs: Vec<Object>,
    settled: &[Object],
) -> Result<Vec<Object>, Diagnostics> {
    let given: BTreeSet<(String, String)> = inputs
        .iter()
        .filter(|o| o.kind == "Cluster" && o.group() == api::GROUP)
        .map(|o| (o.namespace.clone(), o.name.clone()))
        .collect();
    let only: Vec<Object> = settled
        .iter()
        .filter(|o| {
            o.kind == "Cluster"
                && o.group() == api::GROUP
                && affected::has_topology(&o.value)
                && !given.contains(&(o.namespace.clone(), o.name.clone()))
        })
        .cloned()
        .collect();
    let mut out = clusters_with_stored(inputs, settled)?;
    out.extend(only);
    Ok(out)
}

/// Each input Cluster that `current` stores, carrying what only its stored form knows (see
/// [`with_current`]); `validate --current` admits this, as the user's apply would send it.
pub(crate) fn clusters_with_stored(
    inputs: Vec<Object>,
    current: &[Object],
) -> Result<Vec<Object>, Diagnostics> {
    let index = current::Index::new(current);
    let mut errors = Vec::new();
    let out: Vec<Object> = inputs
        .into_iter()
        .map(|o| {
            let stored = (o.kind == "Cluster" && o.group() == api::GROUP)
                .then(|| index.cluster(&o.namespace, &o.name))
                .flatten();
            match stored {
                Some(s) => with_stored(&o, s, &index).unwrap_or_else(|e| {
                    errors.push(e);
                    o
                }),
                None => o,
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(errors))
    }
}

/// The objects a plan against the management cluster admits and plans: the change (`-f`, each
/// Cluster carrying what only its stored form knows), then what the store must lend it
/// ([`Lent`]).
#[derive(Debug, Default)]
pub(crate) struct ForChange {
    /// The change's objects, then the stored ones lent to the run.
    pub(crate) objects: Vec<Object>,
    /// `objects[lent..]` came from the store: admitted when they were written, so what
    /// today's rules find wrong with them is a warning, never an error.
    pub(crate) lent: usize,
    /// Affected stored objects that cannot be planned (a class or template the export lacks).
    pub(crate) warnings: Vec<Diagnostic>,
}

/// Kinds of the store every run reads whatever it plans: the extensions the controller would
/// call and the mutating webhooks that explain a stored template's defaults.
fn always_lent(o: &Object) -> bool {
    matches!(
        (o.group(), o.kind.as_str()),
        ("runtime.cluster.x-k8s.io", "ExtensionConfig")
            | (
                "admissionregistration.k8s.io",
                "MutatingWebhookConfiguration"
            )
    )
}

/// The objects to admit and plan for a change (`inputs`, the `-f` objects already applied over
/// their stored forms) against the management cluster (`current`), given what it affects.
///
/// The store lends the run what the change does not hold: the ClusterClasses the affected
/// Clusters use, the templates those classes reference, the CRDs of those templates' kinds
/// (their contract labels), the affected stored Clusters, and every ExtensionConfig and
/// MutatingWebhookConfiguration. An affected stored Cluster whose class, or one of whose class's
/// templates, neither `-f` nor `--current` holds is left out with a warning naming the object
/// and the `kubectl get` that would add it to the export; a Cluster of `-f` in that state fails
/// later as it always did (its class or template is not found).
pub(crate) fn for_change(
    inputs: Vec<Object>,
    current: &[Object],
    affected: &Affected,
) -> Result<ForChange, Diagnostics> {
    Ok(lend(
        clusters_with_stored(inputs, current)?,
        current,
        affected,
    ))
}

/// [`for_change`] past applying the input Clusters over their stored forms.
fn lend(inputs: Vec<Object>, current: &[Object], affected: &Affected) -> ForChange {
    let given: HashSet<Id<'_>> = inputs.iter().map(id).collect();
    // Each stored object by identity, as its index in the store.
    let stored: HashMap<Id<'_>, usize> = current
        .iter()
        .enumerate()
        .map(|(i, o)| (id(o), i))
        .collect();
    let core = |o: &Object, kind: &str| o.kind == kind && o.group() == api::GROUP;

    // The classes of the affected Clusters, and the affected classes themselves.
    let mut users: BTreeMap<Key, BTreeSet<Key>> = BTreeMap::new();
    for o in inputs.iter().chain(current) {
        if core(o, "Cluster") && affected::has_topology(&o.value) {
            let key = (o.namespace.clone(), o.name.clone());
            if affected.clusters.contains(&key) {
                users.entry(affected::class_of(o)).or_default().insert(key);
            }
        }
    }
    for c in &affected.classes {
        users.entry(c.clone()).or_default();
    }
    let change_clusters: HashSet<(&str, &str)> = inputs
        .iter()
        .filter(|o| core(o, "Cluster"))
        .map(|o| (o.namespace.as_str(), o.name.as_str()))
        .collect();
    let in_change = |k: &Key| change_clusters.contains(&(k.0.as_str(), k.1.as_str()));

    let mut warnings = Vec::new();
    // What the store lends, by index: lent in the store's order (admission reports in input
    // order), each once.
    let mut lent: BTreeSet<usize> = BTreeSet::new();
    let mut left_out: BTreeSet<Key> = BTreeSet::new();
    let mut crd_kinds: BTreeSet<(String, String)> = BTreeSet::new();
    for (class_key, using) in &users {
        let class_id = (
            api::GROUP,
            "ClusterClass",
            class_key.0.as_str(),
            class_key.1.as_str(),
        );
        let from_store = !given.contains(&class_id);
        let stored_class: Option<usize> = stored.get(&class_id).copied().filter(|_| from_store);
        let class_value = match stored_class {
            Some(i) => Some(&current[i].value),
            None => inputs.iter().find(|o| id(o) == class_id).map(|o| &o.value),
        };
        let Some(class_value) = class_value else {
            // A Cluster of `-f` fails as it always did: its class is not found.
            for c in using.iter().filter(|c| !in_change(c)) {
                warnings.push(not_planned(
                    c,
                    &format!(
                        "its ClusterClass {}/{} is not in -f or --current",
                        class_key.0, class_key.1
                    ),
                    &format!(
                        "kubectl get clusterclass {} -n {} -o yaml --show-managed-fields",
                        class_key.1, class_key.0
                    ),
                ));
                left_out.insert(c.clone());
            }
            continue;
        };
        let mut missing = None;
        let mut templates = Vec::new();
        for (g, k, n) in affected::template_refs(class_value) {
            crd_kinds.insert((g.clone(), k.clone()));
            let t = (g.as_str(), k.as_str(), class_key.0.as_str(), n.as_str());
            if given.contains(&t) {
                continue;
            }
            match stored.get(&t) {
                Some(s) => templates.push(*s),
                None => {
                    missing.get_or_insert((g.clone(), k.clone(), n.clone()));
                }
            }
        }
        if let (Some((g, k, n)), true) = (&missing, from_store) {
            // A stored class the export holds without its templates: its stored Clusters
            // cannot be planned; the change's own Clusters fail on the template as always.
            for c in using.iter().filter(|c| !in_change(c)) {
                warnings.push(not_planned(
                    c,
                    &format!(
                        "its ClusterClass {}/{} references {k} {}/{n}, which is not in -f or --current",
                        class_key.0, class_key.1, class_key.0
                    ),
                    &format!("kubectl get {}.{g} {n} -n {} -o yaml --show-managed-fields", k.to_lowercase(), class_key.0),
                ));
                left_out.insert(c.clone());
            }
            if using.iter().all(|c| !in_change(c)) {
                continue;
            }
        }
        lent.extend(stored_class);
        lent.extend(templates);
    }
    for o in &inputs {
        crd_kinds.insert((o.group().to_string(), o.kind.clone()));
    }
    for (i, o) in current.iter().enumerate() {
        let lend = if core(o, "Cluster") {
            let k = (o.namespace.clone(), o.name.clone());
            affected.clusters.contains(&k)
                && affected::has_topology(&o.value)
                && !left_out.contains(&k)
                && !given.contains(&id(o))
        } else if o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io" {
            let s = |p: &str| o.value.pointer(p).and_then(Value::as_str).unwrap_or("");
            crd_kinds.contains(&(
                s("/spec/group").to_string(),
                s("/spec/names/kind").to_string(),
            )) && !given.contains(&id(o))
        } else {
            always_lent(o) && !given.contains(&id(o))
        };
        if lend {
            lent.insert(i);
        }
    }
    let start = inputs.len();
    let mut objects = inputs;
    objects.extend(lent.into_iter().filter_map(|i| current.get(i).cloned()));
    ForChange {
        objects,
        lent: start,
        warnings,
    }
}

/// One side of `diff --current`: its objects, plus what the store lends it ([`for_change`]'s
/// rule, whatever the side lacks) with each lent Cluster as its owner wrote it: a review plans
/// both sides from their files, so the references and endpoint controllers set are dropped
/// from the lent Clusters (otherwise they would be existing Clusters without their objects).
/// Returns the objects and the warnings for affected Clusters that cannot be planned.
pub(crate) fn lend_for_review(
    inputs: Vec<Object>,
    current: &[Object],
    affected: &Affected,
) -> (Vec<Object>, Vec<Diagnostic>) {
    // The side's own Clusters stay as its files hold them (the store's of the same name are
    // not lent: the side redefines them).
    let mut change = lend(inputs, current, affected);
    for o in change.objects.iter_mut().skip(change.lent) {
        if o.kind == "Cluster" && o.group() == api::GROUP {
            as_written(&mut o.value);
        }
    }
    (change.objects, change.warnings)
}

/// A stored Cluster as its owner wrote it: without what controllers set (references,
/// endpoint, uid, status).
fn as_written(cluster: &mut Value) {
    if let Some(spec) = cluster.get_mut("spec").and_then(Value::as_object_mut) {
        spec.remove("infrastructureRef");
        spec.remove("controlPlaneRef");
        spec.remove("controlPlaneEndpoint");
    }
    if let Some(meta) = cluster.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("uid");
        meta.remove("resourceVersion");
        meta.remove("managedFields");
    }
    if let Some(o) = cluster.as_object_mut() {
        o.remove("status");
    }
}

/// After admission: what today's rules found wrong with the objects the store lent the run
/// (`objects[lent..]`) is forgiven, as they were admitted when they were written. Each such
/// object becomes one warning carrying its findings; a lent Cluster or ClusterClass with errors
/// leaves the run (with the lent Clusters of such a class), so the plan of every other Cluster
/// goes on. Lent templates stay: a plan of their class is still what the controller would do.
pub(crate) fn forgive_lent(
    objects: &mut Vec<Object>,
    lent: usize,
    validation: &mut crate::validate::run::Validation,
) -> Vec<Diagnostic> {
    use crate::diag::Severity;
    let lent_keys: BTreeSet<(String, String, String)> = objects
        .get(lent..)
        .unwrap_or(&[])
        .iter()
        .map(|o| (o.kind.clone(), o.namespace.clone(), o.name.clone()))
        .collect();
    if lent_keys.is_empty() {
        return Vec::new();
    }
    // Per lent object (kind, namespace, name), in the order admission told them: its findings,
    // and whether any was an error.
    type Forgiven = ((String, String, String), Vec<Diagnostic>, bool);
    let mut forgiven: Vec<Forgiven> = Vec::new();
    let mut at: HashMap<(String, String, String), usize> = HashMap::new();
    validation.findings.retain(|f| {
        let key = (f.kind.clone(), f.namespace.clone(), f.name.clone());
        if !lent_keys.contains(&key) {
            return true;
        }
        let error = f.severity() == Severity::Error;
        let mut d = f.diagnostic.clone();
        d.severity = Severity::Warning;
        match at.get(&key).and_then(|&i| forgiven.get_mut(i)) {
            Some((_, ds, e)) => {
                ds.push(d);
                *e |= error;
            }
            None => {
                at.insert(key.clone(), forgiven.len());
                forgiven.push((key, vec![d], error));
            }
        }
        false
    });
    let mut removed_classes: BTreeSet<Key> = BTreeSet::new();
    let mut removed: BTreeSet<(String, String, String)> = BTreeSet::new();
    for ((kind, ns, name), _, error) in &forgiven {
        if *error && (kind == "Cluster" || kind == "ClusterClass") {
            removed.insert((kind.clone(), ns.clone(), name.clone()));
            if kind == "ClusterClass" {
                removed_classes.insert((ns.clone(), name.clone()));
            }
        }
    }
    let mut warnings: Vec<Diagnostic> = forgiven
        .into_iter()
        .map(|((kind, ns, name), related, error)| {
            let what = match (error, kind == "Cluster" || kind == "ClusterClass") {
                (true, true) => "does not pass today's admission rules; it is not planned",
                (true, false) => "does not pass today's admission rules",
                (false, _) => "draws warnings from today's admission rules",
            };
            let mut w = Diagnostic::warning(
                Code::CurrentStoredInvalid,
                format!("stored {kind} {ns}/{name}, affected by the change, {what}"),
            )
            .with_help(
                "the object is not in -f: it was admitted when it was written, so this does not fail the plan",
            );
            w.related = related;
            w
        })
        .collect();
    let mut dropped_users: Vec<Key> = Vec::new();
    let mut i = 0usize;
    objects.retain(|o| {
        let is_lent = i >= lent;
        i += 1;
        if !is_lent {
            return true;
        }
        let key = (o.kind.clone(), o.namespace.clone(), o.name.clone());
        if removed.contains(&key) {
            return false;
        }
        if o.kind == "Cluster"
            && o.group() == api::GROUP
            && removed_classes.contains(&affected::class_of(o))
        {
            dropped_users.push((o.namespace.clone(), o.name.clone()));
            return false;
        }
        true
    });
    for (ns, name) in dropped_users {
        warnings.push(Diagnostic::warning(
            Code::CurrentStoredInvalid,
            format!(
                "stored Cluster {ns}/{name} is affected by the change but not planned: its stored ClusterClass does not pass today's admission rules"
            ),
        ));
    }
    warnings
}

/// An object's identity: (group, kind, namespace, name).
type Id<'a> = (&'a str, &'a str, &'a str, &'a str);

fn id(o: &Object) -> Id<'_> {
    (
        o.group(),
        o.kind.as_str(),
        o.namespace.as_str(),
        o.name.as_str(),
    )
}

/// The warning for an affected stored Cluster that is left out of the plan.
fn not_planned(cluster: &Key, why: &str, export: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::CurrentNotFound,
        format!(
            "Cluster {}/{} is affected by the change but not planned: {why}",
            cluster.0, cluster.1
        ),
    )
    .with_help(format!("add it to the export: {export}"))
}

/// Whether an input object is applied over its stored form: ClusterClasses, and templates by
/// clusterctl's own rule for the offline plan (`getTemplates`: a kind ending in `Template`).
/// Clusters have their own rule ([`with_stored`]); generated objects are never in `-f`.
fn applied_over_stored_kind(o: &Object) -> bool {
    (o.kind == "ClusterClass" && o.group() == api::GROUP) || o.kind.ends_with("Template")
}

/// Each template and ClusterClass of `inputs` that `current` holds too, replaced by what the
/// user's apply of its file makes of the stored object ([`ssa::apply_file`]): the API server
/// stored the object defaulted by its provider's webhooks, which topoplan cannot run, and an
/// apply keeps what the file never set (a class patch that replaces a defaulted field then
/// finds it, as it does in the cluster). Returns warnings: an object stored at another API
/// version than the file's is planned as the file has it (the server would convert it; topoplan
/// cannot).
pub(crate) fn applied_over_stored(
    inputs: &mut [Object],
    current: &[Object],
    lists: &ssa::ListTypes,
) -> Vec<Diagnostic> {
    let stored: HashMap<(&str, &str, &str, &str), &Object> = current
        .iter()
        .filter(|o| applied_over_stored_kind(o))
        .map(|o| {
            (
                (
                    o.group(),
                    o.kind.as_str(),
                    o.namespace.as_str(),
                    o.name.as_str(),
                ),
                o,
            )
        })
        .collect();
    let mut warnings = Vec::new();
    if stored.is_empty() {
        return warnings;
    }
    for o in inputs.iter_mut().filter(|o| applied_over_stored_kind(o)) {
        let key = (
            o.group(),
            o.kind.as_str(),
            o.namespace.as_str(),
            o.name.as_str(),
        );
        let Some(s) = stored.get(&key) else {
            continue;
        };
        if s.api_version != o.api_version {
            warnings.push(
                Diagnostic::warning(
                    Code::CurrentNotApplied,
                    format!(
                        "{} {}/{} is {} in the input and {} as stored ({}): planned as the file has it, without the fields only the stored object holds",
                        o.kind, o.namespace, o.name, o.api_version, s.api_version, s.origin.file.name
                    ),
                )
                .at(&o.origin, "/apiVersion", "another API version than stored")
                .with_help(format!(
                    "export the stored object in {} (for example: kubectl get {}.{}.{} {} -n {} -o yaml)",
                    o.api_version,
                    o.kind.to_lowercase(),
                    o.version(),
                    o.group(),
                    o.name,
                    o.namespace
                )),
            );
            continue;
        }
        let (after, _) = ssa::apply_file(&s.value, &o.value, lists);
        o.value = after;
    }
    warnings
}

/// The Cluster to plan: the `-f` Cluster as the user's apply leaves it over the stored one. The
/// user's file is the whole of what they want, except for what controllers write and the file
/// never holds, which the apply keeps: the references the topology controller set, the control
/// plane endpoint the Cluster controller copied from the provider (`spec.controlPlaneEndpoint`,
/// written by Cluster API's `reconcileInfrastructure` and `reconcileControlPlane`), and the uid the API
/// server gave it — the stored Cluster's, or the one its objects' owner references carry
/// ([`current::Index::cluster_uid`]). Status is the stored Cluster's anyway: the Cluster's plan
/// starts from the stored object (`verdict`). A reference the two disagree on is an error: the
/// input contradicts the current state.
pub(crate) fn with_stored(
    given: &Object,
    stored: &Object,
    ix: &current::Index<'_>,
) -> Result<Object, Diagnostic> {
    if std::ptr::eq(given, stored) {
        return Ok(given.clone());
    }
    let mut merged = given.clone();
    for ptr in ["/spec/infrastructureRef", "/spec/controlPlaneRef"] {
        let Some(s) = stored.value.pointer(ptr).filter(|v| !api::is_zero(v)) else {
            continue;
        };
        match given.value.pointer(ptr).filter(|v| !api::is_zero(v)) {
            None => set(&mut merged.value, ptr, s.clone()),
            Some(g) if current::read_ref(Some(g)) != current::read_ref(Some(s)) => {
                return Err(Diagnostic::error(Code::CurrentInconsistent, format!(
                    "Cluster {}: {} differs from the stored Cluster's ({})",
                    given.key(),
                    ptr.trim_start_matches('/').replace('/', "."),
                    stored.origin.file.name
                ))
                .at(&given.origin, ptr, "contradicts the current state")
                .with_help("the topology controller sets this reference; drop it from the input or export the Cluster again"));
            }
            Some(_) => {}
        }
    }
    const ENDPOINT: &str = "/spec/controlPlaneEndpoint";
    if let Some(s) = stored
        .value
        .pointer(ENDPOINT)
        .filter(|v| !endpoint_unset(v))
        && given.value.pointer(ENDPOINT).is_none_or(endpoint_unset)
    {
        set(&mut merged.value, ENDPOINT, s.clone());
    }
    if given.value.pointer("/metadata/uid").is_none()
        && let Some(uid) = ix.cluster_uid(&stored.namespace, &stored.name)
    {
        set(
            &mut merged.value,
            "/metadata/uid",
            Value::String(uid.to_string()),
        );
    }
    Ok(merged)
}

/// An endpoint nobody filled in: absent parts, an empty host, port 0 (the Go zero value).
fn endpoint_unset(v: &Value) -> bool {
    let host = v.get("host").and_then(Value::as_str).unwrap_or("");
    let port = v.get("port").and_then(Value::as_i64).unwrap_or(0);
    api::is_zero(v) || (host.is_empty() && port == 0)
}

/// Set the field at JSON pointer `ptr` (plain keys, no escapes), creating parents.
fn set(v: &mut Value, ptr: &str, value: Value) {
    let keys: Vec<&str> = ptr.trim_start_matches('/').split('/').collect();
    crate::json::set_path(v, &keys, value);
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;

    use super::*;
    use crate::source::{Origin, SourceFile, SpanTable};

    fn object(v: Value) -> Object {
        let origin = Origin {
            file: SourceFile::new("test.yaml".to_string(), String::new()),
            spans: Arc::new(SpanTable::default()),
        };
        Object::new(v, origin, "ns").expect("object")
    }

    fn cluster(meta: Value, spec: Value) -> Value {
        let mut m = json!({"name": "c1", "namespace": "ns"});
        if let (Some(m), Some(extra)) = (m.as_object_mut(), meta.as_object()) {
            m.extend(extra.clone());
        }
        json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "metadata": m, "spec": spec})
    }

    /// An object of the Cluster's topology with owner references to Clusters.
    fn owned(name: &str, refs: Value) -> Value {
        json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DockerMachineTemplate",
               "metadata": {"name": name, "namespace": "ns", "ownerReferences": refs}})
    }

    fn owner(api: &str, name: &str, uid: &str) -> Value {
        json!({"apiVersion": api, "kind": "Cluster", "name": name, "uid": uid})
    }

    const V2: &str = "cluster.x-k8s.io/v1beta2";

    fn merged(given: Value, current: Vec<Value>) -> Value {
        let current: Vec<Object> = current.into_iter().map(object).collect();
        let ix = current::Index::new(&current);
        let stored = ix.cluster("ns", "c1").expect("stored Cluster");
        with_stored(&object(given), stored, &ix)
            .expect("merged")
            .value
    }

    #[test]
    fn uid_from_the_owner_references_of_its_objects() {
        let given = cluster(json!({}), json!({"topology": {}}));
        let stored = cluster(json!({}), json!({"topology": {}}));
        // (what the current objects say, the uid the Cluster gets)
        let cases: Vec<(&str, Vec<Value>, Option<&str>)> = vec![
            (
                "every reference agrees",
                vec![
                    owned("a", json!([owner(V2, "c1", "u1")])),
                    owned("b", json!([owner("cluster.x-k8s.io/v1beta1", "c1", "u1")])),
                ],
                Some("u1"),
            ),
            (
                "references disagree: an earlier Cluster of that name",
                vec![
                    owned("a", json!([owner(V2, "c1", "u1")])),
                    owned("b", json!([owner(V2, "c1", "u0")])),
                ],
                None,
            ),
            (
                "another Cluster, another kind, another group: none of them",
                vec![owned(
                    "a",
                    json!([owner(V2, "c2", "u2"),
                           {"apiVersion": V2, "kind": "MachineSet", "name": "c1", "uid": "u3"},
                           owner("example.com/v1", "c1", "u4")]),
                )],
                None,
            ),
            (
                "a reference without a uid: topoplan's own state, which would then differ",
                vec![
                    owned("a", json!([owner(V2, "c1", "u1")])),
                    owned(
                        "b",
                        json!([{"apiVersion": V2, "kind": "Cluster", "name": "c1"}]),
                    ),
                ],
                None,
            ),
            (
                "an empty uid is none",
                vec![
                    owned("a", json!([owner(V2, "c1", "")])),
                    owned("b", json!([owner(V2, "c1", "u1")])),
                ],
                None,
            ),
            ("malformed references", vec![owned("a", json!("x"))], None),
        ];
        for (name, objects, want) in cases {
            let mut current = vec![stored.clone()];
            current.extend(objects);
            let got = merged(given.clone(), current);
            assert_eq!(
                got.pointer("/metadata/uid").and_then(Value::as_str),
                want,
                "{name}"
            );
        }
    }

    #[test]
    fn own_uids_come_first() {
        let refs = owned("a", json!([owner(V2, "c1", "from-ref")]));
        let stored = cluster(json!({"uid": "stored"}), json!({}));
        let got = merged(cluster(json!({}), json!({})), vec![stored, refs.clone()]);
        assert_eq!(got["metadata"]["uid"], json!("stored"));
        let stored = cluster(json!({}), json!({}));
        let got = merged(
            cluster(json!({"uid": "given"}), json!({})),
            vec![stored, refs],
        );
        assert_eq!(got["metadata"]["uid"], json!("given"));
    }

    #[test]
    fn controller_fields_are_kept() {
        let endpoint = json!({"host": "10.0.0.1", "port": 6443});
        let infra = json!({"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerCluster", "name": "c1-x"});
        let stored = cluster(
            json!({}),
            json!({"controlPlaneEndpoint": endpoint, "infrastructureRef": infra, "paused": true}),
        );
        let given_endpoint = json!({"host": "lb.example.com", "port": 443});
        // (what the input writes, the endpoint planned)
        let cases = [
            (json!({}), endpoint.clone()),
            (
                json!({"controlPlaneEndpoint": {"host": "", "port": 0}}),
                endpoint.clone(),
            ),
            (json!({"controlPlaneEndpoint": null}), endpoint.clone()),
            (
                json!({"controlPlaneEndpoint": given_endpoint}),
                given_endpoint.clone(),
            ),
        ];
        for (spec, want) in cases {
            let got = merged(cluster(json!({}), spec.clone()), vec![stored.clone()]);
            assert_eq!(got["spec"]["controlPlaneEndpoint"], want, "{spec}");
            assert_eq!(got["spec"]["infrastructureRef"], infra, "{spec}");
            // What the user wrote (or left out) stays theirs.
            assert!(got["spec"].get("paused").is_none(), "{spec}");
        }
        // A stored Cluster with no endpoint gives none.
        let got = merged(
            cluster(json!({}), json!({})),
            vec![cluster(
                json!({}),
                json!({"controlPlaneEndpoint": {"host": "", "port": 0}}),
            )],
        );
        assert!(got["spec"].get("controlPlaneEndpoint").is_none());
    }

    #[test]
    fn templates_and_classes_are_applied_over_their_stored_forms() {
        let template = |api: &str, kind: &str, ns: &str, spec: Value| {
            json!({"apiVersion": api, "kind": kind, "metadata": {"name": "t", "namespace": ns},
                   "spec": {"template": {"spec": spec}}})
        };
        const INFRA: &str = "infrastructure.cluster.x-k8s.io/v1beta2";
        let class = |spec: Value| json!({"apiVersion": V2, "kind": "ClusterClass", "metadata": {"name": "t", "namespace": "ns"}, "spec": spec});
        let mut inputs: Vec<Object> = [
            template(INFRA, "AWSClusterTemplate", "ns", json!({"region": "a"})),
            // Same name, other namespace or kind, or another version than stored.
            template(INFRA, "AWSClusterTemplate", "other", json!({})),
            template(INFRA, "AWSMachineTemplate", "ns", json!({})),
            template("infrastructure.cluster.x-k8s.io/v1beta1", "AWSManagedTemplate", "ns", json!({})),
            class(json!({"a": 1})),
            // Not a template nor a class: as given.
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "t", "namespace": "ns"}, "data": {}}),
        ]
        .into_iter()
        .map(object)
        .collect();
        let current: Vec<Object> = [
            template(INFRA, "AWSClusterTemplate", "ns", json!({"region": "b", "bastion": {"enabled": false}})),
            template(INFRA, "AWSManagedTemplate", "ns", json!({"x": 1})),
            class(json!({"b": 2})),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "t", "namespace": "ns"}, "data": {"k": "v"}}),
        ]
        .into_iter()
        .map(object)
        .collect();
        let before: Vec<Value> = inputs.iter().map(|o| o.value.clone()).collect();
        let warnings = applied_over_stored(&mut inputs, &current, &ssa::ListTypes::builtin());
        assert_eq!(
            inputs[0].value["spec"]["template"]["spec"],
            json!({"region": "a", "bastion": {"enabled": false}})
        );
        assert_eq!(inputs[4].value["spec"], json!({"a": 1, "b": 2}));
        for i in [1, 2, 3, 5] {
            assert_eq!(inputs[i].value, before[i], "input {i}");
        }
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0].code, Code::CurrentNotApplied);
        assert!(
            warnings[0].message.starts_with(
                "AWSManagedTemplate ns/t is infrastructure.cluster.x-k8s.io/v1beta1 in the input and infrastructure.cluster.x-k8s.io/v1beta2 as stored"
            ),
            "{}",
            warnings[0].message
        );
        // Nothing stored: nothing to do.
        let mut again = inputs.clone();
        assert!(applied_over_stored(&mut again, &[], &ssa::ListTypes::builtin()).is_empty());
    }
}
