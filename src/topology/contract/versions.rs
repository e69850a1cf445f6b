/*!
Reading the version inputs from current objects the way Cluster API does: the ControlPlane
contract's `spec.version`, `status.version` and `status.versions` (`internal/contract/controlplane.go`,
identical for both provider contracts), and whether a MachineDeployment or MachinePool is rolling
out (`internal/topology/check/upgrade.go`).

Malformed objects get Cluster API's accessor messages ([`super::accessor`]) rather than a panic
or a silent default.

Two callers read the same Cluster API functions: the Cluster webhook's version-change rule
(`crate::validate::cluster::rollout`) and the upgrade sequencing (`crate::plan::upgrade`).
*/

use std::cmp::Ordering;

use serde_json::Value;

use super::accessor::{GetError, get_string, go_type, go_value, json_path, nested};
use crate::k8s::field::go_quote;
use crate::k8s::version::blang::{BuildCompare, Version, compare_with_build_tags};

/// Which worker kind: MachineDeployments and MachinePools are read and worded alike, by the
/// webhook's rollout rule and by the upgrade sequencing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorkerKind {
    MachineDeployment,
    MachinePool,
}

impl WorkerKind {
    /// The kind's name, as messages print it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            WorkerKind::MachineDeployment => "MachineDeployment",
            WorkerKind::MachinePool => "MachinePool",
        }
    }
}

/// The ControlPlane's `spec.version`.
pub(crate) fn spec_version(cp: &Value) -> Result<&str, String> {
    get_string(cp, &["spec", "version"]).map_err(|e| e.to_string())
}

/// `contract.StatusVersions.Get`: the versions (validated as Cluster API does).
fn status_versions(cp: &Value) -> Result<Vec<String>, GetError> {
    const PATH: &[&str] = &["status", "versions"];
    let p = json_path(PATH);
    let items = match nested(cp, PATH) {
        Err(e) => {
            return Err(GetError::Other(format!(
                "failed to get {p} from object: {e}"
            )));
        }
        Ok(None) => return Err(GetError::NotFound(format!("path {p}: field not found"))),
        Ok(Some(Value::Array(items))) => items,
        Ok(Some(other)) => {
            return Err(GetError::Other(format!(
                "failed to get {p} from object: {p} accessor error: {} is of the type {}, expected []interface{{}}",
                go_value(other),
                go_type(other)
            )));
        }
    };
    let unmarshal =
        |e: String| GetError::Other(format!("failed to unmarshall field at {p} to json: {e}"));
    let mut versions: Vec<(String, i64)> = Vec::with_capacity(items.len());
    for item in items {
        // encoding/json into StatusVersion{version string; replicas int32}; null is the zero value.
        let (version, replicas) = match item {
            Value::Null => (String::new(), 0),
            Value::Object(m) => {
                let version = match m.get("version") {
                    None | Some(Value::Null) => String::new(),
                    Some(Value::String(s)) => s.clone(),
                    Some(other) => {
                        return Err(unmarshal(format!(
                            "json: cannot unmarshal {} into Go struct field StatusVersion.version of type string",
                            crate::go::json::kind_name(other)
                        )));
                    }
                };
                let replicas = match m.get("replicas") {
                    None | Some(Value::Null) => 0,
                    Some(Value::Number(n)) => {
                        match n.as_i64().filter(|r| i32::try_from(*r).is_ok()) {
                            Some(r) => r,
                            None => {
                                return Err(unmarshal(format!(
                                    "json: cannot unmarshal number {n} into Go struct field StatusVersion.replicas of type int32"
                                )));
                            }
                        }
                    }
                    Some(other) => {
                        return Err(unmarshal(format!(
                            "json: cannot unmarshal {} into Go struct field StatusVersion.replicas of type int32",
                            crate::go::json::kind_name(other)
                        )));
                    }
                };
                (version, replicas)
            }
            other => {
                return Err(unmarshal(format!(
                    "json: cannot unmarshal {} into Go value of type v1beta2.StatusVersion",
                    crate::go::json::kind_name(other)
                )));
            }
        };
        versions.push((version, replicas));
    }

    let mut previous: Option<(&str, Version)> = None;
    for (i, (version, replicas)) in versions.iter().enumerate() {
        let parsed = Version::parse_tolerant_err(version).map_err(|e| {
            GetError::Other(format!("failed to parse {p}[{i}].version from object: {e}"))
        })?;
        if let Some((prev, prev_parsed)) = &previous
            && !prev.is_empty()
            && compare_with_build_tags(&parsed, prev_parsed)
                == BuildCompare::Ordered(Ordering::Less)
        {
            return Err(GetError::Other(format!(
                "version {} and {} are in the wrong order",
                go_quote(prev),
                go_quote(version)
            )));
        }
        if *replicas < 0 {
            return Err(GetError::Other(format!(
                "{p}[{i}].replicas must not be negative"
            )));
        }
        previous = Some((version, parsed));
    }
    Ok(versions.into_iter().map(|(v, _)| v).collect())
}

/// Cluster API's `version.Compare(a, b, WithBuildTags()) >= 1`: `a` is newer, or differs from
/// `b` only in build identifiers that have no order.
fn newer(a: &Version, b: &Version) -> bool {
    matches!(
        compare_with_build_tags(a, b),
        BuildCompare::Ordered(Ordering::Greater) | BuildCompare::Different
    )
}

/// `IsProvisioning`: no version reported in status yet. Main reads `status.versions[0]` first,
/// v1.10 only `status.version`.
pub(crate) fn is_provisioning(cp: &Value, main: bool) -> Result<bool, String> {
    if main {
        match status_versions(cp) {
            Ok(v) if !v.is_empty() => return Ok(v[0].is_empty()),
            Ok(_) | Err(GetError::NotFound(_)) => {}
            Err(GetError::Other(e)) => {
                return Err(format!(
                    "failed to get control plane status version(s): {e}"
                ));
            }
        }
    }
    match get_string(cp, &["status", "version"]) {
        Ok(v) => Ok(v.is_empty()),
        Err(GetError::NotFound(_)) => Ok(true),
        Err(GetError::Other(e)) if main => Err(format!(
            "failed to get control plane status version(s): {e}"
        )),
        Err(GetError::Other(e)) => Err(format!("failed to get control plane status version: {e}")),
    }
}

/// `IsUpgrading`: some status version is behind `spec.version` (or differs only in
/// non-numeric build identifiers). Returns the lowest status version and its field when so.
pub(crate) fn is_upgrading(
    cp: &Value,
    main: bool,
) -> Result<Option<(String, &'static str)>, String> {
    let spec = get_string(cp, &["spec", "version"])
        .map_err(|e| format!("failed to get control plane spec version: {e}"))?;
    let spec_v = Version::parse_tolerant_err(spec)
        .map_err(|e| format!("failed to parse control plane spec version: {e}"))?;

    if main {
        match status_versions(cp) {
            Ok(versions) if !versions.is_empty() => {
                for v in &versions {
                    let status_v = Version::parse_tolerant_err(v).map_err(|e| {
                        format!("failed to parse control plane status version: {e}")
                    })?;
                    if newer(&spec_v, &status_v) {
                        // Oldest first, so [0] is the version still to be replaced.
                        return Ok(Some((versions[0].clone(), "status.versions")));
                    }
                }
                return Ok(None);
            }
            Ok(_) | Err(GetError::NotFound(_)) => {}
            Err(GetError::Other(e)) => {
                return Err(format!("failed to get control plane status.versions: {e}"));
            }
        }
    }

    let status = match get_string(cp, &["status", "version"]) {
        Ok(s) => s,
        // No status yet: the first machine is provisioning, not upgrading.
        Err(GetError::NotFound(_)) => return Ok(None),
        Err(GetError::Other(e)) if main => {
            return Err(format!("failed to get control plane status.version: {e}"));
        }
        Err(GetError::Other(e)) => {
            return Err(format!("failed to get control plane status version: {e}"));
        }
    };
    if main && status.is_empty() {
        return Ok(None);
    }
    let status_v = Version::parse_tolerant_err(status)
        .map_err(|e| format!("failed to parse control plane status version: {e}"))?;
    Ok((newer(&spec_v, &status_v)).then(|| (status.to_string(), "status.version")))
}

/// `IsMachineDeploymentUpgrading` over the Machines the caller selected: some Machine's
/// `spec.version` (and on main its kubelet's version) differs from the MD's.
pub(crate) fn machine_deployment_upgrading(
    main: bool,
    md_name: &str,
    md_version: &str,
    machines: &[&Value],
) -> Result<bool, String> {
    // Without a version there is nothing to compare with (Cluster API: "should not happen").
    if md_version.is_empty() {
        return Ok(false);
    }
    for machine in machines {
        let machine_name = machine
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let version = machine.pointer("/spec/version").and_then(Value::as_str);
        // Main's typed field is a plain string ("" = unset); v1.10's is a pointer.
        let missing = match version {
            None => true,
            Some(v) => main && v.is_empty(),
        };
        if missing {
            return Err(format!(
                "failed to check if MachineDeployment {md_name} is upgrading: Machine {machine_name} has no version"
            ));
        }
        if version != Some(md_version) {
            return Ok(true);
        }
        // Main also catches in-place upgrades, where only the kubelet reports the change.
        if main {
            let kubelet = machine
                .pointer("/status/nodeInfo/kubeletVersion")
                .and_then(Value::as_str)
                .unwrap_or("");
            if !kubelet.is_empty() && kubelet != md_version {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// `IsMachinePoolUpgrading` with the Nodes the caller has: a node named in `status.nodeRefs`
/// whose kubelet is not at the pool's version. A nodeRef without a known Node counts as not
/// upgrading (Cluster API would read it from the workload cluster).
pub(crate) fn machine_pool_upgrading(mp_version: &str, mp: &Value, nodes: &[&Value]) -> bool {
    if mp_version.is_empty() {
        return false;
    }
    let refs = mp
        .pointer("/status/nodeRefs")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    refs.iter()
        .filter_map(|r| r.get("name").and_then(Value::as_str))
        .filter_map(|name| {
            nodes
                .iter()
                .find(|n| n.pointer("/metadata/name").and_then(Value::as_str) == Some(name))
        })
        .any(|node| {
            node.pointer("/status/nodeInfo/kubeletVersion")
                .and_then(Value::as_str)
                .unwrap_or("")
                != mp_version
        })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn provisioning_and_upgrading() {
        // (control plane, main?, want provisioning, want upgrading status)
        type Case = (
            Value,
            bool,
            Result<bool, &'static str>,
            Result<Option<&'static str>, &'static str>,
        );
        let cases: Vec<Case> = vec![
            (
                json!({"spec": {"version": "v1.31.0"}}),
                true,
                Ok(true),
                Ok(None),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": ""}}),
                true,
                Ok(true),
                Ok(None),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": "v1.30.2"}}),
                true,
                Ok(false),
                Ok(Some("v1.30.2")),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": "v1.31.0"}}),
                true,
                Ok(false),
                Ok(None),
            ),
            // Differing non-numeric build tags count as upgrading.
            (
                json!({"spec": {"version": "v1.31.0+a"}, "status": {"version": "v1.31.0+b"}}),
                true,
                Ok(false),
                Ok(Some("v1.31.0+b")),
            ),
            // status.versions wins over status.version on main; any entry behind spec counts.
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": "v1.31.0",
                "versions": [{"version": "v1.30.2", "replicas": 1}, {"version": "v1.31.0", "replicas": 2}]}}),
                true,
                Ok(false),
                Ok(Some("v1.30.2")),
            ),
            // v1.10 knows only status.version.
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": "v1.31.0",
                "versions": [{"version": "v1.30.2"}]}}),
                false,
                Ok(false),
                Ok(None),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"versions": []}}),
                true,
                Ok(true),
                Ok(None),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"versions": [{"version": "v1.31.0"}, {"version": "v1.30.0"}]}}),
                true,
                Err(
                    "failed to get control plane status version(s): version \"v1.31.0\" and \"v1.30.0\" are in the wrong order",
                ),
                Err(
                    "failed to get control plane status.versions: version \"v1.31.0\" and \"v1.30.0\" are in the wrong order",
                ),
            ),
            (
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": 3}}),
                false,
                Err(
                    "failed to get control plane status version: failed to get .status.version from object: .status.version accessor error: 3 is of the type int64, expected string",
                ),
                Err(
                    "failed to get control plane status version: failed to get .status.version from object: .status.version accessor error: 3 is of the type int64, expected string",
                ),
            ),
            (
                json!({"spec": {"version": "bad"}, "status": {"version": "v1.30.0"}}),
                true,
                Ok(false),
                Err(
                    "failed to parse control plane spec version: Invalid character(s) found in major number \"0bad\"",
                ),
            ),
            (
                json!({"spec": {}, "status": "x"}),
                true,
                Err(
                    "failed to get control plane status version(s): failed to get .status.versions from object: .status.versions accessor error: x is of the type string, expected map[string]interface{}",
                ),
                Err(
                    "failed to get control plane spec version: path .spec.version: field not found",
                ),
            ),
        ];
        for (cp, main, want_prov, want_upg) in cases {
            assert_eq!(
                is_provisioning(&cp, main),
                want_prov.map_err(str::to_string),
                "provisioning {cp}"
            );
            let got = is_upgrading(&cp, main).map(|o| o.map(|(v, _)| v));
            assert_eq!(
                got,
                want_upg
                    .map(|o| o.map(str::to_string))
                    .map_err(str::to_string),
                "upgrading {cp}"
            );
        }
    }

    #[test]
    fn machine_deployment_upgrading_cases() {
        let m = |spec: Option<&str>, kubelet: Option<&str>| json!({"metadata": {"name": "m-1"}, "spec": {"version": spec}, "status": {"nodeInfo": {"kubeletVersion": kubelet}}});
        // (main, md version, machines, want)
        type Case<'a> = (bool, &'a str, Vec<Value>, Result<bool, &'a str>);
        let cases: Vec<Case> = vec![
            (true, "v1.31.0", vec![], Ok(false)),
            (
                true,
                "v1.31.0",
                vec![m(Some("v1.31.0"), Some("v1.31.0"))],
                Ok(false),
            ),
            (
                true,
                "v1.31.0",
                vec![m(Some("v1.30.0"), Some("v1.30.0"))],
                Ok(true),
            ),
            // In-place upgrade: spec moved, kubelet not yet (main only).
            (
                true,
                "v1.31.0",
                vec![m(Some("v1.31.0"), Some("v1.30.0"))],
                Ok(true),
            ),
            (
                false,
                "v1.31.0",
                vec![m(Some("v1.31.0"), Some("v1.30.0"))],
                Ok(false),
            ),
            (
                true,
                "v1.31.0",
                vec![m(None, None)],
                Err(
                    "failed to check if MachineDeployment md is upgrading: Machine m-1 has no version",
                ),
            ),
            (true, "", vec![m(None, None)], Ok(false)),
        ];
        for (main, version, machines, want) in cases {
            let refs: Vec<&Value> = machines.iter().collect();
            assert_eq!(
                machine_deployment_upgrading(main, "md", version, &refs),
                want.map_err(str::to_string),
                "main={main} {machines:?}"
            );
        }
    }

    #[test]
    fn machine_pool_upgrading_cases() {
        let mp = json!({"status": {"nodeRefs": [{"name": "n-1"}, {"name": "n-2"}]}});
        let node = |name: &str, v: &str| json!({"metadata": {"name": name}, "status": {"nodeInfo": {"kubeletVersion": v}}});
        let old = node("n-2", "v1.30.0");
        let new = node("n-1", "v1.31.0");
        let stranger = node("n-9", "v1.29.0");
        assert!(machine_pool_upgrading("v1.31.0", &mp, &[&new, &old]));
        assert!(!machine_pool_upgrading("v1.31.0", &mp, &[&new]));
        // Nodes not named by nodeRefs do not count.
        assert!(!machine_pool_upgrading("v1.31.0", &mp, &[&new, &stranger]));
        assert!(!machine_pool_upgrading("", &mp, &[&old]));
    }
}
