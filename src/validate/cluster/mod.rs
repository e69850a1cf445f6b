/*!
The Cluster webhooks (Cluster API's `core/webhooks/admission/cluster.go`): the mutating
`Default`, then the validating `validate`, as the API server runs them for one request.

`Default` (only when `spec.topology` is set): prefix the version with `v`; reject an empty
`classRef.name`; then default and validate the variable values against the class (injected,
see [`super::Options::cluster_variables`]). Any error rejects the request before validation. A
v1beta1 value's deprecated `definitionFrom`, which the conversion to v1beta2 drops, is put back
first ([`super::definition_from`]), so v1.10's refusal of it still applies.

`validate`: the name as a label value, references not removed, one of the references or a
topology, CIDR blocks, then the topology: gate, class name, version syntax, metadata, rollout,
taints, the upgrade-concurrency annotation, the class itself (`ValidateClusterForClusterClass`:
versions, worker topologies, health checks), autoscaler annotations and, on update, class
addition, version changes and class changes; finally a topology cannot be removed.

Offline differences, each by necessity: the ClusterClass is whatever the caller passes (a
class that is passed counts as reconciled; none means "not found", a warning); the version
update rules that read the control plane, MachineDeployments and MachinePools ([`rollout`])
read the stored objects given with the Cluster, and what is not among them does not refuse
the change.
*/

use std::cmp::Ordering;
use std::collections::HashSet;

use serde_json::Value;

use super::options::{Options, Outcome};
use super::read::{TemplateRef, classes, get, health_check_defined, list_at, str_at};
use super::{compatibility, machines};
use crate::api::{ApiVersion, Cluster, ClusterClass};
use crate::go::ip::parse_cidr;
use crate::k8s::field::{BadValue, FieldError, Path, go_quote};
use crate::k8s::validation::label_value;
use crate::k8s::values::{self as k8s, atoi};
use crate::k8s::version::blang::{
    BuildCompare, Version, compare_with_build_tags, compare_without_pre,
};
use crate::variables::values::default_and_validate;

const UPGRADE_CONCURRENCY: &str = "topology.cluster.x-k8s.io/upgrade-concurrency";
const UNSAFE_CLASS_NAME: &str = "unsafe.topology.cluster.x-k8s.io/disable-update-class-name-check";
const UNSAFE_VERSION: &str = "unsafe.topology.cluster.x-k8s.io/disable-update-version-check";
const AUTOSCALER_MIN: &str = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
const AUTOSCALER_MAX: &str = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";
const PENDING_HOOKS: &str = "runtime.cluster.x-k8s.io/pending-hooks";

/// The parts of a Cluster the rules read: identity, annotations and the (defaulted) spec.
struct View<'a> {
    cluster: &'a Cluster,
    name: &'a str,
    namespace: &'a str,
    annotations: &'a Value,
    spec: &'a Value,
}

impl<'a> View<'a> {
    fn of(c: &'a Cluster, spec: &'a Value) -> View<'a> {
        View {
            cluster: c,
            name: c.name(),
            namespace: c.namespace(),
            annotations: get(&c.object.value, &["metadata", "annotations"]).unwrap_or(&Value::Null),
            spec,
        }
    }

    fn annotation(&self, key: &str) -> Option<&'a str> {
        self.annotations.get(key).and_then(Value::as_str)
    }

    fn topology(&self) -> Option<&'a Value> {
        topology_of(self.spec)
    }

    fn version(&self) -> &'a str {
        str_at(self.spec, &["topology", "version"])
    }

    /// `GetClassKey` rendered `namespace/name` (empty name without a topology).
    fn class_key(&self) -> (String, &'a str) {
        let ns = str_at(self.spec, &["topology", "classRef", "namespace"]);
        let ns = if ns.is_empty() { self.namespace } else { ns };
        let name = str_at(self.spec, &["topology", "classRef", "name"]);
        (format!("{ns}/{name}"), name)
    }
}

/// `Topology.IsDefined`: the topology, when set to anything but its zero value.
fn topology_of(spec: &Value) -> Option<&Value> {
    get(spec, &["topology"]).filter(|t| !crate::api::is_zero(t))
}

/// `ContractVersionedObjectReference.IsDefined`.
fn ref_defined(spec: &Value, field: &str) -> bool {
    ["kind", "name", "apiGroup"]
        .iter()
        .any(|k| !str_at(spec, &[field, k]).is_empty())
}

/// The mutating webhook, then the validating one.
pub fn admit(
    opts: &Options<'_>,
    new: &Cluster,
    old: Option<&Cluster>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
) -> Outcome {
    let mut spec = new.spec_value.clone();
    if let Err(errors) = default(opts, &mut spec, new, old, class) {
        return Outcome {
            errors,
            ..Outcome::default()
        };
    }
    let view = View::of(new, &spec);
    let old_view = old.map(|o| View::of(o, &o.spec_value));
    let (warnings, errors) = validate(opts, &view, old_view.as_ref(), class, old_class);
    let defaulted = (spec != new.spec_value).then_some(spec);
    Outcome {
        errors,
        warnings,
        defaulted,
    }
}

/// `Cluster.Default`, on the v1beta2 spec in place.
fn default(
    opts: &Options<'_>,
    spec: &mut Value,
    new: &Cluster,
    old: Option<&Cluster>,
    class: Option<&ClusterClass>,
) -> Result<(), Vec<FieldError>> {
    if topology_of(spec).is_none() {
        return Ok(());
    }
    let version = str_at(spec, &["topology", "version"]);
    if !version.starts_with('v') {
        let prefixed = format!("v{version}");
        if let Some(t) = spec.get_mut("topology").and_then(Value::as_object_mut) {
            t.insert("version".into(), Value::String(prefixed));
        }
    }
    if str_at(spec, &["topology", "classRef", "name"]).is_empty() {
        return Err(vec![FieldError::required(
            &Path::of(&["spec", "topology", "classRef", "name"]),
            "cannot be empty",
        )]);
    }
    // Without the class there is nothing to default or validate variables against.
    if class.is_none() {
        return Ok(());
    }
    // Variable defaulting and validation against the class's status (Cluster API's
    // `DefaultAndValidateVariables`, `crate::variables::values`'s).
    if let Some(status) = opts.cluster_variables {
        let restored = super::definition_from::restore(new, spec);
        let old_spec = old.map(super::definition_from::with_restored);
        let errs = default_and_validate(spec, status, old_spec.as_ref());
        if !errs.is_empty() {
            return Err(errs);
        }
        if restored {
            crate::api::convert::prune_definition_from(spec);
        }
    }
    Ok(())
}

/// `Cluster.validate`: (warnings, errors).
fn validate(
    opts: &Options<'_>,
    new: &View<'_>,
    old: Option<&View<'_>>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
) -> (Vec<String>, Vec<FieldError>) {
    let mut errs = Vec::new();
    let mut warnings = Vec::new();
    for msg in label_value(new.name) {
        errs.push(FieldError::invalid(
            &Path::of(&["metadata", "name"]),
            new.name,
            format!("must be a valid label value {msg}"),
        ));
    }
    let spec_path = Path::new("spec");
    let infra = ref_defined(new.spec, "infrastructureRef");
    let cp = ref_defined(new.spec, "controlPlaneRef");
    if !infra && old.is_some_and(|o| ref_defined(o.spec, "infrastructureRef")) {
        errs.push(FieldError::forbidden(
            &spec_path.child("infrastructureRef"),
            "cannot be removed",
        ));
    }
    if !cp && !infra && new.topology().is_none() {
        errs.push(FieldError::forbidden(
            &spec_path,
            "one of spec.controlPlaneRef, spec.infrastructureRef or spec.topology must be set",
        ));
    }
    if !cp && old.is_some_and(|o| ref_defined(o.spec, "controlPlaneRef")) {
        errs.push(FieldError::forbidden(
            &spec_path.child("controlPlaneRef"),
            "cannot be removed",
        ));
    }
    for network in ["pods", "services"] {
        let path = spec_path
            .child("clusterNetwork")
            .child(network)
            .child("cidrBlocks");
        for (i, cidr) in list_at(new.spec, &["clusterNetwork", network, "cidrBlocks"])
            .iter()
            .enumerate()
        {
            let cidr = cidr.as_str().unwrap_or("");
            if let Err(e) = parse_cidr(cidr) {
                errs.push(FieldError::invalid(&path.index(i), cidr, e));
            }
        }
    }
    let topology_path = spec_path.child("topology");
    if new.topology().is_some() {
        let (w, e) = validate_topology(opts, new, old, class, old_class, &topology_path);
        warnings.extend(w);
        errs.extend(e);
    }
    if old.is_some_and(|o| o.topology().is_some()) && new.topology().is_none() {
        errs.push(FieldError::forbidden(
            &topology_path,
            "cannot be removed from an existing Cluster",
        ));
    }
    (warnings, errs)
}

/// `spec.topology.class`, pointing at `classRef.name`.
fn class_path(topology: &Path) -> Path {
    topology.child_as("class", &["classRef", "name"])
}

/// `validateTopology`.
fn validate_topology(
    opts: &Options<'_>,
    new: &View<'_>,
    old: Option<&View<'_>>,
    class: Option<&ClusterClass>,
    old_class: Option<&ClusterClass>,
    path: &Path,
) -> (Vec<String>, Vec<FieldError>) {
    let mut warnings = Vec::new();
    if !opts.gates.cluster_topology {
        return (
            warnings,
            vec![FieldError::forbidden(
                path,
                "can be set only if the ClusterTopology feature flag is enabled",
            )],
        );
    }
    let (class_key, class_name) = new.class_key();
    if class_name.is_empty() {
        return (
            warnings,
            vec![FieldError::required(
                &class_path(path),
                "classRef.name cannot be empty",
            )],
        );
    }
    let mut errs = topology_version_format(new.version(), &path.child("version"));
    errs.extend(topology_metadata(new.spec, path));
    errs.extend(super::definition_from::topology_errors(new.cluster, path));
    for (i, md) in list_at(new.spec, &["topology", "workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        errs.extend(machines::rollout_strategy(
            md,
            &topology_worker_path(path, "machineDeployments", md, i).child("rollout"),
        ));
    }
    errs.extend(topology_taints(
        new.spec,
        path,
        opts.gates.machine_taint_propagation,
    ));
    errs.extend(upgrade_concurrency(new));
    match class {
        None => warnings.push(format!(
            "Cluster refers to ClusterClass {class_key}, but this ClusterClass does not exist. \
             Cluster topology has not been fully validated. \
             The ClusterClass must be created to reconcile the Cluster"
        )),
        Some(class) => errs.extend(validate_for_class(new.spec, class)),
    }
    errs.extend(autoscaler_for(new.name, new.namespace, new.spec, class));

    let Some(old) = old else {
        return (warnings, errs);
    };
    let Some(class) = class else {
        errs.push(FieldError::internal(
            &class_path(path),
            format!("ClusterClass {class_key} not found"),
        ));
        return (warnings, errs);
    };
    let update = Update {
        opts,
        new,
        old,
        class,
        old_class,
        class_key: &class_key,
        path,
    };
    update.validate(&mut warnings, &mut errs);
    (warnings, errs)
}

/// The topology's version must be `v` and a semantic version.
fn topology_version_format(version: &str, version_path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if !version.starts_with('v') {
        errs.push(FieldError::invalid(
            version_path,
            version,
            "must start with v",
        ));
    }
    if Version::parse(version.strip_prefix('v').unwrap_or(version)).is_none() {
        errs.push(FieldError::invalid(
            version_path,
            version,
            "version must be a valid semantic version",
        ));
    }
    errs
}

/// The upgrade concurrency annotation, when set, must be an integer of at least 1.
fn upgrade_concurrency(new: &View<'_>) -> Option<FieldError> {
    let concurrency = new.annotation(UPGRADE_CONCURRENCY)?;
    let field = Path::of(&["metadata", "annotations"])
        .child_as(UPGRADE_CONCURRENCY, &[UPGRADE_CONCURRENCY]);
    match atoi(concurrency) {
        Err(e) => Some(FieldError::invalid(
            &field,
            concurrency,
            format!("could not parse the value of the annotation: {e}"),
        )),
        Ok(n) if n < 1 => Some(FieldError::invalid(
            &field,
            concurrency,
            "value cannot be less than 1",
        )),
        Ok(_) => None,
    }
}

/// The update half of `validateTopology`: a Cluster that had a topology, checked against its
/// old self and (when the reference changes) its old class.
struct Update<'a> {
    opts: &'a Options<'a>,
    new: &'a View<'a>,
    old: &'a View<'a>,
    class: &'a ClusterClass,
    old_class: Option<&'a ClusterClass>,
    /// The new class's key (namespace/name).
    class_key: &'a str,
    /// `spec.topology`.
    path: &'a Path,
}

impl Update<'_> {
    fn validate(&self, warnings: &mut Vec<String>, errs: &mut Vec<FieldError>) {
        let Update {
            new,
            old,
            class_key,
            path,
            ..
        } = *self;
        let (old_key, old_name) = old.class_key();
        if old.topology().is_none() || old_name.is_empty() {
            if new.annotation(UNSAFE_CLASS_NAME).is_none() {
                errs.push(FieldError::forbidden(
                    &class_path(path),
                    "classRef cannot be set on an existing Cluster",
                ));
            }
            return;
        }
        self.version_change(warnings, errs);
        if old_key != class_key {
            match self.old_class {
                None => errs.push(FieldError::forbidden(
                    &class_path(path),
                    format!(
                        "valid ClusterClass with name {q_old} could not be retrieved, change from class {q_old} to class {} cannot be validated. Error: clusterclasses.cluster.x-k8s.io {} not found",
                        go_quote(class_key),
                        go_quote(old_name),
                        q_old = go_quote(&old_key),
                    ),
                )),
                Some(old_class) => errs.extend(compatibility::classes_compatible(
                    Some(old_class),
                    Some(self.class),
                )),
            }
        }
    }

    /// Both versions must parse; the change between them is checked unless the Cluster's
    /// annotation skips it.
    fn version_change(&self, warnings: &mut Vec<String>, errs: &mut Vec<FieldError>) {
        let Update { new, old, path, .. } = *self;
        let version = new.version();
        let version_path = path.child("version");
        let in_version = Version::parse_tolerant(version);
        if in_version.is_none() {
            errs.push(FieldError::invalid(
                &version_path,
                version,
                "version must be a valid semantic version",
            ));
        }
        let old_version = Version::parse_tolerant(old.version());
        if old_version.is_none() {
            errs.push(FieldError::invalid(
                &version_path,
                old.version(),
                "old version must be a valid semantic version",
            ));
        }
        if new.annotation(UNSAFE_VERSION).is_some() {
            warnings.push(format!(
                "Skipping version validation for Cluster because annotation {} is set.",
                go_quote(UNSAFE_VERSION)
            ));
            return;
        }
        let ceiling = list_at(&self.class.spec_value, &["kubernetesVersions"]).is_empty()
            && str_at(
                &self.class.spec_value,
                &["upgrade", "external", "generateUpgradePlanExtension"],
            )
            .is_empty();
        errs.extend(version_update(
            &version_path,
            version,
            &in_version.unwrap_or_default(),
            &old_version.unwrap_or_default(),
            (new, old),
            ceiling,
            self.opts.live,
        ));
    }
}

/// `validateTopologyVersionUpdate`; the rules reading stored objects ([`rollout`]) run only when
/// `live` holds them.
fn version_update(
    path: &Path,
    value: &str,
    new: &Version,
    old: &Version,
    (cluster, stored): (&View<'_>, &View<'_>),
    ceiling: bool,
    live: Option<&rollout::Live<'_>>,
) -> Option<FieldError> {
    // Cluster API v1.10 (v1beta1) compares with build tags and pre-releases, applies the
    // ceiling always (its classes have no kubernetesVersions) and has no hook check; main
    // compares the printed versions, then without pre-releases.
    let v110 = cluster.cluster.api == ApiVersion::V1Beta1;
    let by_build_tags = compare_with_build_tags(new, old);
    let unchanged = if v110 {
        by_build_tags == BuildCompare::Ordered(Ordering::Equal)
    } else {
        new.to_string() == old.to_string()
    };
    if unchanged {
        return None;
    }
    let decreased = if v110 {
        by_build_tags == BuildCompare::Ordered(Ordering::Less)
    } else {
        compare_without_pre(new, old).is_lt()
    };
    if !new.is_zero() && !old.is_zero() && decreased {
        return Some(FieldError::invalid(
            path,
            value,
            format!(
                "version cannot be decreased from {} to {}",
                go_quote(&old.to_string()),
                go_quote(&new.to_string())
            ),
        ));
    }
    if ceiling || v110 {
        let ceil = Version::new(old.major, old.minor.wrapping_add(2), 0);
        let over = if v110 {
            new.compare(&ceil).is_ge()
        } else {
            compare_without_pre(new, &ceil).is_ge()
        };
        if over {
            return Some(FieldError::invalid(
                path,
                value,
                format!(
                    "version cannot be increased from {} to {}",
                    go_quote(&old.to_string()),
                    go_quote(&new.to_string())
                ),
            ));
        }
    }
    let pending = !v110
        && cluster
            .annotation(PENDING_HOOKS)
            .is_some_and(|l| l.split(',').any(|h| h == "AfterClusterUpgrade"));
    if pending {
        return Some(FieldError::invalid(
            path,
            value,
            "version cannot be changed when the \"AfterClusterUpgrade\" hook is still blocking",
        ));
    }
    // The stored Cluster names the objects to read; the new Cluster's API version picks main's
    // or v1.10's reading of them. A change within one MAJOR.MINOR.PATCH's pre-releases
    // (`v1.2.3-xyz.2` to `v1.2.3-xyz.1`), which main's comparison above lets through, is
    // refused here only when the stored objects show a rollout (Cluster API also refuses it
    // when it cannot read the control plane).
    let live = live?;
    let owner = rollout::Stored {
        name: stored.name,
        namespace: stored.namespace,
        spec: stored.spec,
    };
    let reasons = rollout::reasons(cluster.cluster.api, &owner, old, live);
    rollout::refusal(&reasons).map(|msg| FieldError::invalid(path, value, msg))
}

/// `spec.topology.workers.<list>[<name>]`, pointing at entry `i`.
fn topology_worker_path(topology: &Path, list: &str, entry: &Value, i: usize) -> Path {
    topology
        .child("workers")
        .child(list)
        .key_at(str_at(entry, &["name"]), i)
}

/// `validateTopologyMetadata`.
fn topology_metadata(spec: &Value, path: &Path) -> Vec<FieldError> {
    let mut errs = k8s::validate_metadata(
        get(spec, &["topology", "controlPlane", "metadata"]),
        &path.child("controlPlane").child("metadata"),
    );
    for list in ["machineDeployments", "machinePools"] {
        for (i, e) in list_at(spec, &["topology", "workers", list])
            .iter()
            .enumerate()
        {
            errs.extend(k8s::validate_metadata(
                get(e, &["metadata"]),
                &topology_worker_path(path, list, e, i).child("metadata"),
            ));
        }
    }
    errs
}

/// `validateTopologyTaints`.
fn topology_taints(spec: &Value, path: &Path, gate: bool) -> Vec<FieldError> {
    let cp = get(spec, &["topology", "controlPlane"]).unwrap_or(&Value::Null);
    let mut errs = machines::taints(cp, &path.child("controlPlane").child("taints"), gate);
    for list in ["machineDeployments", "machinePools"] {
        for (i, e) in list_at(spec, &["topology", "workers", list])
            .iter()
            .enumerate()
        {
            errs.extend(machines::taints(
                e,
                &topology_worker_path(path, list, e, i).child("taints"),
                gate,
            ));
        }
    }
    errs
}

/// `ValidateClusterForClusterClass`.
pub fn validate_for_class(spec: &Value, class: &ClusterClass) -> Vec<FieldError> {
    let cc = &class.spec_value;
    let mut errs = Vec::new();
    let versions = list_at(cc, &["kubernetesVersions"]);
    let version = str_at(spec, &["topology", "version"]);
    if !versions.is_empty() && !versions.iter().any(|v| v.as_str() == Some(version)) {
        errs.push(FieldError::invalid(
            &Path::of(&["spec", "topology", "version"]),
            version,
            "version must match one of the versions defined in the ClusterClass",
        ));
    }
    for (list, kind) in [
        ("machineDeployments", "MachineDeployment"),
        ("machinePools", "MachinePool"),
    ] {
        errs.extend(worker_topologies(
            list_at(spec, &["topology", "workers", list]),
            list_at(cc, &["workers", list]),
            &class.object.name,
            list,
            kind,
        ));
    }
    errs.extend(health_checks(spec, cc));
    errs
}

/// `MachineDeploymentTopologiesAreValidAndDefinedInClusterClass` and its MachinePool twin.
fn worker_topologies(
    topologies: &[Value],
    class_entries: &[Value],
    class_name: &str,
    list: &str,
    kind: &str,
) -> Vec<FieldError> {
    let defined: HashSet<&str> = classes(class_entries).collect();
    let mut names = HashSet::new();
    let mut errs = Vec::new();
    for (i, t) in topologies.iter().enumerate() {
        let path = Path::of(&["spec", "topology", "workers", list]).index(i);
        let class = str_at(t, &["class"]);
        if !defined.contains(class) {
            errs.push(FieldError::invalid(
                &path.child("class"),
                class,
                format!(
                    "{kind}Class with name {} does not exist in ClusterClass {}",
                    go_quote(class),
                    go_quote(class_name)
                ),
            ));
        }
        let name = str_at(t, &["name"]);
        if name.is_empty() {
            errs.push(FieldError::required(
                &path.child("name"),
                "name must not be empty",
            ));
            continue;
        }
        if !names.insert(name) {
            errs.push(FieldError::invalid(
                &path.child("name"),
                name,
                format!(
                    "name must be unique. {kind} with name {} is defined more than once",
                    go_quote(name)
                ),
            ));
        }
    }
    errs
}

/// `validateMachineHealthChecks`.
fn health_checks(spec: &Value, cc: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let enabled_msg = "cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass";
    let path = Path::of(&["spec", "topology", "controlPlane", "healthCheck"]);
    let cp_hc = get(spec, &["topology", "controlPlane", "healthCheck"]);
    if health_check_defined(cp_hc) {
        let mi = TemplateRef::at(
            cc,
            &["controlPlane", "machineInfrastructure", "templateRef"],
        );
        if !mi.is_defined() {
            errs.push(FieldError::forbidden(
                &path,
                "can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass",
            ));
        }
        errs.extend(machines::health_check_values(cp_hc, &path, false));
    }
    let enabled = |hc: Option<&Value>| {
        hc.and_then(|h| get(h, &["enabled"]))
            .and_then(Value::as_bool)
            == Some(true)
    };
    if enabled(cp_hc)
        && !health_check_defined(cp_hc)
        && !health_check_defined(get(cc, &["controlPlane", "healthCheck"]))
    {
        errs.push(FieldError::forbidden(
            &path.child_as("enable", &["enabled"]),
            enabled_msg,
        ));
    }
    let class_mds = list_at(cc, &["workers", "machineDeployments"]);
    let topo = Path::of(&["spec", "topology"]);
    for (i, md) in list_at(spec, &["topology", "workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        let path = topology_worker_path(&topo, "machineDeployments", md, i).child("healthCheck");
        let hc = get(md, &["healthCheck"]);
        if health_check_defined(hc) {
            errs.extend(machines::health_check_values(hc, &path, true));
        }
        let class = str_at(md, &["class"]);
        if let Some(class_md) = class_mds.iter().find(|c| str_at(c, &["class"]) == class)
            && enabled(hc)
            && !health_check_defined(hc)
            && !health_check_defined(get(class_md, &["healthCheck"]))
        {
            errs.push(FieldError::forbidden(
                &path.child_as("enable", &["enabled"]),
                enabled_msg,
            ));
        }
    }
    errs
}

/// `validateAutoscalerAnnotationsForCluster` for a Cluster as given.
pub(crate) fn autoscaler_annotations(
    cluster: &Cluster,
    class: Option<&ClusterClass>,
) -> Vec<FieldError> {
    autoscaler_for(
        cluster.name(),
        cluster.namespace(),
        &cluster.spec_value,
        class,
    )
}

fn has_autoscaler_annotation(metadata_owner: &Value) -> bool {
    let annotations = k8s::string_map(get(metadata_owner, &["metadata", "annotations"]));
    annotations.contains_key(AUTOSCALER_MIN) || annotations.contains_key(AUTOSCALER_MAX)
}

fn autoscaler_for(
    name: &str,
    namespace: &str,
    spec: &Value,
    class: Option<&ClusterClass>,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if topology_of(spec).is_none() {
        return errs;
    }
    let topo = Path::of(&["spec", "topology"]);
    let class_mds = class.map_or(&[][..], |c| {
        list_at(&c.spec_value, &["workers", "machineDeployments"])
    });
    for (i, md) in list_at(spec, &["topology", "workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        let Some(replicas) = get(md, &["replicas"]) else {
            continue;
        };
        let replicas = BadValue::from_json_int(replicas);
        let path = topology_worker_path(&topo, "machineDeployments", md, i).child("replicas");
        if has_autoscaler_annotation(md) {
            errs.push(FieldError::invalid(
                &path,
                replicas.clone(),
                format!(
                    "cannot be set for cluster {} in namespace {} if the same MachineDeploymentTopology has autoscaler annotations",
                    go_quote(name),
                    go_quote(namespace)
                ),
            ));
        }
        let class_name = str_at(md, &["class"]);
        for class_md in class_mds
            .iter()
            .filter(|c| str_at(c, &["class"]) == class_name)
        {
            if has_autoscaler_annotation(class_md) {
                errs.push(FieldError::invalid(
                    &path,
                    replicas.clone(),
                    format!(
                        "cannot be set for cluster {} in namespace {} if the source class {} of this MachineDeploymentTopology has autoscaler annotations",
                        go_quote(name),
                        go_quote(namespace),
                        go_quote(class_name)
                    ),
                ));
            }
        }
    }
    errs
}

pub mod rollout;

#[cfg(test)]
mod tests;
