/*!
Rollout impact: which machines a plan replaces, said the way an operator needs it.

Owns reading a Cluster's verdicts for what they mean to its machines. A MachineDeployment rolls
out when the fields its controller compares to decide on a rollout change
(`MachineTemplateUpToDate`: version, the bootstrap and infrastructure references — which a
template rotation re-points — and the failure domain) or `rollout.after` is set anew; changes to
everything else in its machine template (labels, annotations, node timeouts, readiness gates)
are propagated in place. A control plane rolls out on a version change, a rotated machine
template, and — for a KubeadmControlPlane — a changed `kubeadmConfigSpec`. A MachinePool rolls
out on a version change; what its provider does with other changes is the provider's business.
Changes the upgrade sequencing holds back are reported as deferred rollouts.
*/

use serde_json::Value;

use super::object::{Action, PlannedObject};
use crate::topology::Role;

/// One object whose machines are replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollout {
    /// The ControlPlane, MachineDeployment or MachinePool.
    pub role: Role,
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Held back by the upgrade sequencing: happens on a later pass.
    pub deferred: bool,
    /// Why, in Cluster API's words where it has them ("Version v1.30.0, v1.31.0 required").
    pub reasons: Vec<String>,
}

fn at<'v>(v: &'v Value, ptr: &str) -> &'v Value {
    v.pointer(ptr).unwrap_or(&Value::Null)
}

fn str_at<'v>(v: &'v Value, ptr: &str) -> &'v str {
    at(v, ptr).as_str().unwrap_or("")
}

/// A reference reduced to what identifies its target (the API version is not a reason to roll
/// out: Cluster API drops it before comparing).
fn ref_identity(r: &Value) -> (String, String, String) {
    let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let group = match s("apiGroup") {
        g if !g.is_empty() => g,
        _ => crate::load::object::group_of(&s("apiVersion")).to_string(),
    };
    (group, s("kind"), s("name"))
}

fn kind_without_template(kind: &str) -> &str {
    kind.strip_suffix("Template").unwrap_or(kind)
}

/// The rollout reasons of a machine template (`spec.template` of a MachineDeployment).
fn machine_template_reasons(before: &Value, after: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let (b, a) = (
        at(before, "/spec/template/spec"),
        at(after, "/spec/template/spec"),
    );
    let (bv, av) = (str_at(b, "/version"), str_at(a, "/version"));
    if bv != av {
        out.push(format!("Version {bv}, {av} required"));
    }
    let (bb, ab) = (at(b, "/bootstrap"), at(a, "/bootstrap"));
    let (bref, aref) = (at(bb, "/configRef"), at(ab, "/configRef"));
    if !bref.is_null() {
        if ref_identity(bref) != ref_identity(aref)
            || at(bb, "/dataSecretName") != at(ab, "/dataSecretName")
        {
            out.push(format!(
                "{} is not up-to-date",
                kind_without_template(str_at(bref, "/kind"))
            ));
        }
    } else if bb != ab {
        out.push(format!(
            "spec.bootstrap.dataSecretName {}, {} required",
            at(bb, "/dataSecretName").as_str().unwrap_or("nil"),
            at(ab, "/dataSecretName").as_str().unwrap_or("nil")
        ));
    }
    let (bi, ai) = (at(b, "/infrastructureRef"), at(a, "/infrastructureRef"));
    if ref_identity(bi) != ref_identity(ai) {
        out.push(format!(
            "{} is not up-to-date",
            kind_without_template(str_at(bi, "/kind"))
        ));
    }
    let (bf, af) = (str_at(b, "/failureDomain"), str_at(a, "/failureDomain"));
    if bf != af {
        out.push(format!("Failure domain {bf}, {af} required"));
    }
    out
}

/// `rollout.after` (v1beta2) or `rolloutAfter` (v1beta1 and v1beta1-contract control planes)
/// newly set or moved.
fn rollout_after(before: &Value, after: &Value) -> Option<String> {
    for ptr in ["/spec/rollout/after", "/spec/rolloutAfter"] {
        let (b, a) = (at(before, ptr), at(after, ptr));
        if b != a && !a.is_null() {
            return Some(format!(
                "rollout.after set to {}",
                a.as_str().unwrap_or_default()
            ));
        }
    }
    None
}

/// The rollout reasons of a control plane.
fn control_plane_reasons(before: &Value, after: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let (bv, av) = (
        str_at(before, "/spec/version"),
        str_at(after, "/spec/version"),
    );
    if bv != av {
        out.push(format!("Version {bv}, {av} required"));
    }
    for ptr in [
        "/spec/machineTemplate/spec/infrastructureRef",
        "/spec/machineTemplate/infrastructureRef",
    ] {
        let (b, a) = (at(before, ptr), at(after, ptr));
        if !(b.is_null() && a.is_null()) && ref_identity(b) != ref_identity(a) {
            out.push(format!(
                "{} is not up-to-date",
                kind_without_template(str_at(b, "/kind"))
            ));
            break;
        }
    }
    if after.get("kind").and_then(Value::as_str) == Some("KubeadmControlPlane")
        && at(before, "/spec/kubeadmConfigSpec") != at(after, "/spec/kubeadmConfigSpec")
    {
        out.push("KubeadmConfig is not up-to-date".into());
    }
    out.extend(rollout_after(before, after));
    out
}

/// What rolls out, from a Cluster's verdicts.
pub fn rollouts(objects: &[PlannedObject]) -> Vec<Rollout> {
    let mut out = Vec::new();
    for o in objects {
        let Some(before) = &o.current else { continue };
        let (after, deferred) = match (o.action, &o.pending) {
            (Action::Modified, _) => (&o.object, false),
            (Action::Unchanged, Some(p)) => (p, true),
            _ => continue,
        };
        let reasons = match o.role {
            Role::ControlPlane => control_plane_reasons(before, after),
            Role::MachineDeployment(_) => {
                let mut r = machine_template_reasons(before, after);
                r.extend(rollout_after(before, after));
                r
            }
            Role::MachinePool(_) => {
                let (bv, av) = (
                    str_at(before, "/spec/template/spec/version"),
                    str_at(after, "/spec/template/spec/version"),
                );
                if bv == av {
                    Vec::new()
                } else {
                    vec![format!("Version {bv}, {av} required")]
                }
            }
            _ => continue,
        };
        if !reasons.is_empty() {
            out.push(Rollout {
                role: o.role.clone(),
                kind: o.kind().to_string(),
                name: o.name().to_string(),
                deferred,
                reasons,
            });
        }
    }
    out
}

/// Rollouts from the verdicts plus the version upgrades held back, one entry per object (a
/// held object's reasons are joined).
pub fn merge(mut found: Vec<Rollout>, held: Vec<Rollout>) -> Vec<Rollout> {
    for h in held {
        match found
            .iter_mut()
            .find(|r| r.role == h.role && r.deferred == h.deferred)
        {
            Some(r) => {
                for reason in h.reasons {
                    if !r.reasons.contains(&reason) {
                        r.reasons.insert(0, reason);
                    }
                }
            }
            None => found.push(h),
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn md(version: &str, infra: &str, labels: Value) -> Value {
        json!({"kind": "MachineDeployment", "metadata": {"name": "md"}, "spec": {"template": {
            "metadata": {"labels": labels},
            "spec": {"version": version,
                "bootstrap": {"configRef": {"apiGroup": "bootstrap.cluster.x-k8s.io", "kind": "KubeadmConfigTemplate", "name": "b"}},
                "infrastructureRef": {"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerMachineTemplate", "name": infra},
                "deletion": {"nodeDrainTimeoutSeconds": 10}}}}})
    }

    fn modified(role: Role, before: Value, after: Value) -> PlannedObject {
        PlannedObject {
            action: Action::Modified,
            role,
            object: after,
            current: Some(before),
            note: None,
            rotated_from: None,
            pending: None,
        }
    }

    #[test]
    fn machine_deployment_reasons() {
        let role = Role::MachineDeployment("md-0".into());
        let base = md("v1.30.0", "i1", json!({"a": "1"}));
        let cases = [
            (
                md("v1.31.0", "i1", json!({"a": "1"})),
                vec!["Version v1.30.0, v1.31.0 required"],
            ),
            (
                md("v1.30.0", "i2", json!({"a": "1"})),
                vec!["DockerMachine is not up-to-date"],
            ),
            // Labels are propagated in place.
            (md("v1.30.0", "i1", json!({"a": "2"})), vec![]),
        ];
        for (after, want) in cases {
            let r = rollouts(&[modified(role.clone(), base.clone(), after)]);
            let got: Vec<String> = r.into_iter().flat_map(|r| r.reasons).collect();
            assert_eq!(got, want);
        }
        // Node timeouts are propagated in place too.
        let mut t = base.clone();
        t["spec"]["template"]["spec"]["deletion"]["nodeDrainTimeoutSeconds"] = json!(20);
        assert!(rollouts(&[modified(role, base, t)]).is_empty());
    }

    #[test]
    fn control_plane_reasons_cover_version_template_and_kubeadm_config() {
        let cp = |v: &str, t: &str, files: Value| {
            json!({"kind": "KubeadmControlPlane", "metadata": {"name": "cp"},
            "spec": {"version": v, "replicas": 1,
                "machineTemplate": {"spec": {"infrastructureRef": {"apiGroup": "infrastructure.cluster.x-k8s.io", "kind": "DockerMachineTemplate", "name": t}}},
                "kubeadmConfigSpec": {"files": files}}})
        };
        let base = cp("v1.30.0", "t1", json!([]));
        let r = rollouts(&[modified(
            Role::ControlPlane,
            base.clone(),
            cp("v1.31.0", "t2", json!([{"path": "/x"}])),
        )]);
        assert_eq!(
            r[0].reasons,
            vec![
                "Version v1.30.0, v1.31.0 required",
                "DockerMachine is not up-to-date",
                "KubeadmConfig is not up-to-date"
            ]
        );
        let mut scaled = base.clone();
        scaled["spec"]["replicas"] = json!(3);
        assert!(rollouts(&[modified(Role::ControlPlane, base, scaled)]).is_empty());
    }

    #[test]
    fn held_changes_are_deferred_rollouts() {
        let role = Role::MachineDeployment("md-0".into());
        let before = md("v1.30.0", "i1", json!({}));
        let o = PlannedObject {
            action: Action::Unchanged,
            role,
            object: before.clone(),
            current: Some(before),
            note: Some("held".into()),
            rotated_from: None,
            pending: Some(md("v1.31.0", "i1", json!({}))),
        };
        let r = rollouts(&[o]);
        assert!(r[0].deferred);
    }
}
