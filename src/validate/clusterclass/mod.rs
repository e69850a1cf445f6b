/*!
The ClusterClass webhook (Cluster API's `core/webhooks/admission/clusterclass.go`): create and
update validation in Cluster API's order, and the delete check.

1. template references valid;
2. MachineDeployment and MachinePool classes unique;
3. rollout strategies;
4. health checks;
5. naming templates;
6. taints;
7. variable definitions (injected, see [`super::Options::class_variables`]);
8. patches ([`super::patches`]);
9. metadata;
10. `kubernetesVersions`;
11. on update only: compatibility with the old class ([`super::compatibility`]), then,
    against the Clusters using the class: their versions, removed classes still in use,
    removed health checks still relied on, autoscaler annotations.

All errors accumulate; none stops the later checks (except the ClusterTopology gate).
*/

use std::collections::HashSet;

use serde_json::Value;

use super::options::Options;
use super::read::{TemplateRef, classes, get, health_check_defined, list_at, str_at};
use super::{compatibility, machines, patches};
use crate::api::{Cluster, ClusterClass};
use crate::k8s::field::{FieldError, Path, go_quote};
use crate::k8s::validation::dns1123_subdomain;
use crate::k8s::values as k8s;
use crate::k8s::version::blang::{BuildCompare, Version, compare_with_build_tags};
use crate::topology::names::{NameTarget, from_template};
use crate::variables::definitions::validate_cluster_class_variables;

/// `ClusterClass.validate`.
pub fn validate(
    opts: &Options<'_>,
    new: &ClusterClass,
    old: Option<&ClusterClass>,
    clusters: &[&Cluster],
) -> Vec<FieldError> {
    let spec_path = Path::new("spec");
    if !opts.gates.cluster_topology {
        return vec![FieldError::forbidden(
            &spec_path,
            "can be set only if the ClusterTopology feature flag is enabled",
        )];
    }
    let spec = &new.spec_value;
    let mut errs = compatibility::templates_valid(spec);
    errs.extend(classes_unique(
        spec,
        "machineDeployments",
        "MachineDeployment",
    ));
    errs.extend(classes_unique(spec, "machinePools", "MachinePool"));
    for (i, md) in list_at(spec, &["workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        errs.extend(machines::rollout_strategy(
            md,
            &worker_path("machineDeployments", md, i).child("rollout"),
        ));
    }
    errs.extend(health_checks(spec));
    errs.extend(naming_strategies(spec));
    errs.extend(taints(spec, opts.gates.machine_taint_propagation));

    // Step 7: variable definitions (Cluster API's `variables.ValidateClusterClassVariables`,
    // `crate::variables::definitions`'s).
    if opts.class_variables {
        let old_vars = old.map(|o| list_at(&o.spec_value, &["variables"]));
        errs.extend(validate_cluster_class_variables(
            old_vars.unwrap_or(&[]),
            list_at(spec, &["variables"]),
            &spec_path.child("variables"),
        ));
    }

    errs.extend(patches::validate(new, opts.gates.runtime_sdk));
    errs.extend(metadata(spec));
    errs.extend(kubernetes_versions(list_at(spec, &["kubernetesVersions"])));

    if let Some(old) = old {
        errs.extend(compatibility::classes_compatible(Some(old), Some(new)));
        errs.extend(versions_of_clusters(spec, clusters));
        for (list, kind) in [
            ("machineDeployments", "MachineDeploymentClass"),
            ("machinePools", "MachinePoolClass"),
        ] {
            errs.extend(removed_classes_in_use(
                &old.spec_value,
                spec,
                clusters,
                list,
                kind,
            ));
        }
        errs.extend(removed_health_checks(&old.spec_value, spec, clusters));
        for c in clusters {
            errs.extend(super::cluster::autoscaler_annotations(c, Some(new)));
        }
    }
    errs
}

/// `ValidateDelete`: the API server's Forbidden message while Clusters use the class.
pub fn validate_delete(class: &ClusterClass, clusters: &[&Cluster]) -> Option<String> {
    if clusters.is_empty() {
        return None;
    }
    let mut names: Vec<String> = clusters
        .iter()
        .take(3)
        .map(|c| format!("{}/{}", c.namespace(), c.name()))
        .collect();
    if clusters.len() > 3 {
        names.push(format!("... ({} more)", clusters.len() - 3));
    }
    Some(format!(
        "ClusterClass.cluster.x-k8s.io {} is forbidden: ClusterClass cannot be deleted because it is used by Cluster(s): {}",
        go_quote(&class.object.name),
        names.join(", ")
    ))
}

/// `spec.workers.<list>[<class>]`, pointing at entry `i`.
fn worker_path(list: &str, entry: &Value, i: usize) -> Path {
    Path::new("spec")
        .child("workers")
        .child(list)
        .key_at(str_at(entry, &["class"]), i)
}

/// `MachineDeploymentClassesAreUnique` / `MachinePoolClassesAreUnique`.
fn classes_unique(spec: &Value, list: &str, kind: &str) -> Vec<FieldError> {
    let mut seen = HashSet::new();
    let mut errs = Vec::new();
    for (i, class) in classes(list_at(spec, &["workers", list])).enumerate() {
        if !seen.insert(class) {
            errs.push(FieldError::invalid(
                &Path::new("spec")
                    .child("workers")
                    .child(list)
                    .index(i)
                    .child("class"),
                class,
                format!(
                    "{kind} class must be unique. {kind} with class {} is defined more than once",
                    go_quote(class)
                ),
            ));
        }
    }
    errs
}

/// `validateMachineHealthCheckClasses`.
fn health_checks(spec: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let cp_hc = get(spec, &["controlPlane", "healthCheck"]);
    if health_check_defined(cp_hc) {
        let path = Path::of(&["spec", "controlPlane", "healthCheck"]);
        errs.extend(machines::health_check_values(cp_hc, &path, false));
        let mi = TemplateRef::at(
            spec,
            &["controlPlane", "machineInfrastructure", "templateRef"],
        );
        if !mi.is_defined() {
            errs.push(FieldError::forbidden(
                &path,
                "can be only set if spec.controlPlane.machineInfrastructure is set",
            ));
        }
    }
    for (i, md) in list_at(spec, &["workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        let hc = get(md, &["healthCheck"]);
        if health_check_defined(hc) {
            let path = worker_path("machineDeployments", md, i).child("healthCheck");
            errs.extend(machines::health_check_values(hc, &path, true));
        }
    }
    errs
}

/// One naming template: render errors, then DNS-1123 subdomain violations.
fn naming_template(
    template: &str,
    target: &NameTarget<'_>,
    kind: &str,
    path: &Path,
) -> Vec<FieldError> {
    if template.is_empty() {
        return Vec::new();
    }
    let path = path.child("naming").child("template");
    match from_template(template, "cluster", target, "topoplan admission check") {
        Err(e) => vec![FieldError::invalid(
            &path,
            template,
            format!("invalid {kind} name template: {e}"),
        )],
        Ok(name) => dns1123_subdomain(&name)
            .into_iter()
            .map(|m| FieldError::invalid(&path, template, m))
            .collect(),
    }
}

/// `validateNamingStrategies`.
fn naming_strategies(spec: &Value) -> Vec<FieldError> {
    let root = Path::new("spec");
    let mut errs = naming_template(
        str_at(spec, &["infrastructure", "naming", "template"]),
        &NameTarget::InfrastructureCluster,
        "InfraCluster",
        &root.child("infrastructure"),
    );
    errs.extend(naming_template(
        str_at(spec, &["controlPlane", "naming", "template"]),
        &NameTarget::ControlPlane,
        "ControlPlane",
        &root.child("controlPlane"),
    ));
    for (i, md) in list_at(spec, &["workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        errs.extend(naming_template(
            str_at(md, &["naming", "template"]),
            &NameTarget::MachineDeployment("mdtopology"),
            "MachineDeployment",
            &worker_path("machineDeployments", md, i),
        ));
    }
    for (i, mp) in list_at(spec, &["workers", "machinePools"])
        .iter()
        .enumerate()
    {
        errs.extend(naming_template(
            str_at(mp, &["naming", "template"]),
            &NameTarget::MachinePool("mptopology"),
            "MachinePool",
            &worker_path("machinePools", mp, i),
        ));
    }
    errs
}

/// `validateTaints`.
fn taints(spec: &Value, gate: bool) -> Vec<FieldError> {
    let cp = get(spec, &["controlPlane"]).unwrap_or(&Value::Null);
    let mut errs = machines::taints(cp, &Path::of(&["spec", "controlPlane", "taints"]), gate);
    for list in ["machineDeployments", "machinePools"] {
        for (i, entry) in list_at(spec, &["workers", list]).iter().enumerate() {
            errs.extend(machines::taints(
                entry,
                &worker_path(list, entry, i).child("taints"),
                gate,
            ));
        }
    }
    errs
}

/// `validateClusterClassMetadata`: worker metadata is reported under Cluster API's legacy
/// `…[<class>].template.metadata` path (pointing at `…/metadata`).
fn metadata(spec: &Value) -> Vec<FieldError> {
    let mut errs = k8s::validate_metadata(
        get(spec, &["controlPlane", "metadata"]),
        &Path::of(&["spec", "controlPlane", "metadata"]),
    );
    for list in ["machineDeployments", "machinePools"] {
        for (i, entry) in list_at(spec, &["workers", list]).iter().enumerate() {
            errs.extend(k8s::validate_metadata(
                get(entry, &["metadata"]),
                &worker_path(list, entry, i)
                    .child_as("template", &[])
                    .child("metadata"),
            ));
        }
    }
    errs
}

/// `validateKubernetesVersions`, reported at `spec.kubernetesVersion[i]` (Cluster API's
/// spelling; the pointer reaches `spec.kubernetesVersions[i]`).
pub fn kubernetes_versions(versions: &[Value]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut previous: Option<Version> = None;
    for (i, v) in versions.iter().enumerate() {
        let text = v.as_str().unwrap_or("");
        let path = Path::new("spec")
            .child_as("kubernetesVersion", &["kubernetesVersions"])
            .index(i);
        let Some(version) = Version::parse_tolerant(text) else {
            errs.push(FieldError::invalid(
                &path,
                text,
                "version must be a valid semantic version",
            ));
            continue;
        };
        if let Some(prev) = &previous {
            if matches!(
                compare_with_build_tags(&version, prev),
                BuildCompare::Ordered(o) if o.is_le()
            ) {
                errs.push(FieldError::invalid(
                    &path,
                    text,
                    format!("version must be greater than v{prev}"),
                ));
            }
            if prev.minor != version.minor && prev.minor.wrapping_add(1) != version.minor {
                errs.push(FieldError::invalid(
                    &path,
                    text,
                    format!(
                        "expecting a version with minor {} or {}, found version {version}",
                        prev.minor,
                        prev.minor.wrapping_add(1)
                    ),
                ));
            }
        }
        previous = Some(version);
    }
    errs
}

/// `validateKubernetesVersionsOfClusters`.
fn versions_of_clusters(spec: &Value, clusters: &[&Cluster]) -> Vec<FieldError> {
    let versions = list_at(spec, &["kubernetesVersions"]);
    if versions.is_empty() {
        return Vec::new();
    }
    let set: HashSet<&str> = versions.iter().filter_map(Value::as_str).collect();
    clusters
        .iter()
        .filter_map(|c| {
            let v = str_at(&c.spec_value, &["topology", "version"]);
            (!set.contains(v)).then(|| {
                FieldError::forbidden(
                    &Path::of(&["spec", "kubernetesVersions"]),
                    format!(
                        "Kubernetes Version {v} is used by Cluster {} but not set in ClusterClass",
                        go_quote(c.name())
                    ),
                )
            })
        })
        .collect()
}

/// `validateRemovedMachineDeploymentClassesAreNotUsed` / `…MachinePoolClasses…`.
fn removed_classes_in_use(
    old: &Value,
    new: &Value,
    clusters: &[&Cluster],
    list: &str,
    kind: &str,
) -> Vec<FieldError> {
    let kept: HashSet<&str> = classes(list_at(new, &["workers", list])).collect();
    let removed: HashSet<&str> = classes(list_at(old, &["workers", list]))
        .filter(|c| !kept.contains(c))
        .collect();
    let mut errs = Vec::new();
    if removed.is_empty() {
        return errs;
    }
    for c in clusters {
        for class in classes(list_at(&c.spec_value, &["topology", "workers", list])) {
            if removed.contains(class) {
                errs.push(FieldError::forbidden(
                    &Path::of(&["spec", "workers", list]),
                    format!(
                        "{kind} {} cannot be deleted because it is used by Cluster {}",
                        go_quote(class),
                        go_quote(c.name())
                    ),
                ));
            }
        }
    }
    errs
}

/// Whether a topology health check is explicitly enabled without its own definition.
fn relies_on_class_health_check(hc: Option<&Value>) -> bool {
    hc.and_then(|hc| get(hc, &["enabled"]))
        .and_then(Value::as_bool)
        == Some(true)
        && !health_check_defined(hc)
}

/// `validateUpdatesToMachineHealthCheckClasses`.
fn removed_health_checks(old: &Value, new: &Value, clusters: &[&Cluster]) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let msg = |users: &[&str]| {
        format!(
            "healthCheck cannot be deleted because it is used by Cluster(s) {}",
            go_quote(&users.join(","))
        )
    };
    if health_check_defined(get(old, &["controlPlane", "healthCheck"]))
        && !health_check_defined(get(new, &["controlPlane", "healthCheck"]))
    {
        let users: Vec<&str> = clusters
            .iter()
            .filter(|c| {
                relies_on_class_health_check(get(
                    &c.spec_value,
                    &["topology", "controlPlane", "healthCheck"],
                ))
            })
            .map(|c| c.name())
            .collect();
        if !users.is_empty() {
            errs.push(FieldError::forbidden(
                &Path::of(&["spec", "controlPlane", "healthCheck"]),
                msg(&users),
            ));
        }
    }
    let old_mds = list_at(old, &["workers", "machineDeployments"]);
    for (i, md) in list_at(new, &["workers", "machineDeployments"])
        .iter()
        .enumerate()
    {
        let name = str_at(md, &["class"]);
        let Some(old_md) = old_mds.iter().find(|o| str_at(o, &["class"]) == name) else {
            continue;
        };
        if !health_check_defined(get(old_md, &["healthCheck"]))
            || health_check_defined(get(md, &["healthCheck"]))
        {
            continue;
        }
        let users: Vec<&str> = clusters
            .iter()
            .filter(|c| {
                list_at(
                    &c.spec_value,
                    &["topology", "workers", "machineDeployments"],
                )
                .iter()
                .any(|t| {
                    str_at(t, &["class"]) == name
                        && relies_on_class_health_check(get(t, &["healthCheck"]))
                })
            })
            .map(|c| c.name())
            .collect();
        if !users.is_empty() {
            errs.push(FieldError::forbidden(
                &worker_path("machineDeployments", md, i).child("healthCheck"),
                msg(&users),
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests;
