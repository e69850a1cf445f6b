/*!
The test extension's GenerateUpgradePlan answer. Upstream's test extension
(`test/extension/handlers/upgradeplan`) lists the Kubernetes versions its kind mapper knows, adds
`v1.<minor>.0` for newer minors up to the target, and keeps the last version of every minor on
the way (`GetUpgradePlanFromClusterClassVersions`). This one keeps the same shape without the
table: one step per minor, `v<major>.<minor>.0` for each minor after the control plane's and
before the target's, then the target itself; a patch upgrade is the target alone. Like upstream
it leaves `workersUpgrades` empty, so Cluster API computes the workers plan (a step every three
minors, then the target).

Refused with `status: Failure` (as upstream does when its plan function fails): versions that do
not parse, a downgrade, and a change of major.
*/

// Shared by the test binary and the example; each uses a subset.
#![allow(dead_code)]

use serde_json::{Value, json};

use super::kind::parse_tolerant;

const HOOKS_API_VERSION: &str = "hooks.runtime.cluster.x-k8s.io/v1alpha1";

/// The control-plane steps from `from` to `to`.
pub fn control_plane_steps(from: &str, to: &str) -> Result<Vec<String>, String> {
    let f = parse_tolerant(from).map_err(|e| format!("failed to parse version {from}: {e}"))?;
    let t = parse_tolerant(to).map_err(|e| format!("failed to parse version {to}: {e}"))?;
    if f.to_string() == t.to_string() {
        return Ok(Vec::new());
    }
    let key = |v: &super::kind::Version| (v.major, v.minor, v.patch);
    if f.major != t.major || key(&t) < key(&f) {
        return Err(format!(
            "cannot compute an upgrade plan from {from} to {to}"
        ));
    }
    // Far more minors than Kubernetes has: not a plan worth listing.
    if t.minor - f.minor > 1000 {
        return Err(format!(
            "cannot compute an upgrade plan from {from} to {to}"
        ));
    }
    let mut steps: Vec<String> = (f.minor.saturating_add(1)..t.minor)
        .map(|m| format!("v{}.{m}.0", t.major))
        .collect();
    steps.push(to.to_string());
    Ok(steps)
}

/// The answer to a GenerateUpgradePlan request.
pub fn generate_upgrade_plan(req: &Value) -> Value {
    let field = |k: &str| req.get(k).and_then(Value::as_str).unwrap_or_default();
    match control_plane_steps(
        field("fromControlPlaneKubernetesVersion"),
        field("toKubernetesVersion"),
    ) {
        Ok(steps) => json!({
            "apiVersion": HOOKS_API_VERSION,
            "kind": "GenerateUpgradePlanResponse",
            "status": "Success",
            "controlPlaneUpgrades": steps.iter().map(|v| json!({"version": v})).collect::<Vec<_>>(),
        }),
        Err(message) => json!({
            "apiVersion": HOOKS_API_VERSION,
            "kind": "GenerateUpgradePlanResponse",
            "status": "Failure",
            "message": message,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_per_minor_then_the_target() {
        let steps = |f: &str, t: &str| control_plane_steps(f, t);
        assert_eq!(
            steps("v1.34.1", "v1.37.2"),
            Ok(vec![
                "v1.35.0".to_string(),
                "v1.36.0".to_string(),
                "v1.37.2".to_string()
            ])
        );
        assert_eq!(steps("v1.34.1", "v1.34.3"), Ok(vec!["v1.34.3".to_string()]));
        assert_eq!(steps("v1.34.1", "v1.34.1"), Ok(Vec::new()));
        assert_eq!(
            steps("v1.34.1", "v1.33.0"),
            Err("cannot compute an upgrade plan from v1.34.1 to v1.33.0".to_string())
        );
        assert!(steps("v1.34.1", "2.0.0").is_err());
        assert!(steps("", "v1.35.0").is_err());
    }

    #[test]
    fn answers_like_the_hook() {
        let ok = generate_upgrade_plan(&json!({
            "fromControlPlaneKubernetesVersion": "v1.30.0",
            "toKubernetesVersion": "v1.32.1"
        }));
        assert_eq!(ok["status"], "Success");
        assert_eq!(
            ok["controlPlaneUpgrades"],
            json!([{"version": "v1.31.0"}, {"version": "v1.32.1"}])
        );
        assert!(ok.get("workersUpgrades").is_none());
        let failed = generate_upgrade_plan(&json!({"toKubernetesVersion": "v1.32.1"}));
        assert_eq!(failed["status"], "Failure");
    }
}
