/*!
Rules on machine settings that ClusterClass classes and Cluster topologies share: the rolling
update strategy (`validateRolloutStrategy`), health-check values
(`validateMachineHealthCheckNodeStartupTimeoutSeconds`, `…UnhealthyLessThanOrEqualTo`,
`validateRemediationMaxInFlight`) and machine taints (`taints.ValidateMachineTaints`).

Callers pass the JSON of the class or topology entry and the path it is reported under.
*/

use serde_json::Value;

use super::read::{get, list_at, str_at};
use crate::k8s::field::{BadValue, FieldError, Path};
use crate::k8s::validation::qualified_name;
use crate::k8s::values::IntOrString;

/// `nodeStartupTimeoutSeconds` of 0 disables the check.
const DISABLED_NODE_STARTUP_TIMEOUT: i64 = 0;
/// Shortest enabled `nodeStartupTimeoutSeconds`.
const MIN_NODE_STARTUP_TIMEOUT: i64 = 30;

fn int_or_percent(path: &Path, v: Option<&Value>) -> Option<FieldError> {
    let v = IntOrString::from_json(v)?;
    let err = v.scaled_error()?;
    Some(FieldError::invalid(
        path,
        v.text(),
        format!("must be either an int or a percentage: {err}"),
    ))
}

/// `validateRolloutStrategy` for the `rollout.strategy` of `entry`, reported at
/// `<path>.strategy` (`path` is the `rollout` path).
pub fn rollout_strategy(entry: &Value, rollout_path: &Path) -> Vec<FieldError> {
    let path = rollout_path.child("strategy");
    let ru = get(entry, &["rollout", "strategy", "rollingUpdate"]);
    let max_unavailable = ru.and_then(|r| r.get("maxUnavailable"));
    let max_surge = ru.and_then(|r| r.get("maxSurge"));
    let ru_path = path.child("rollingUpdate");
    let mut errs = Vec::new();
    errs.extend(int_or_percent(
        &ru_path.child("maxUnavailable"),
        max_unavailable,
    ));
    errs.extend(int_or_percent(&ru_path.child("maxSurge"), max_surge));
    if let (Some(IntOrString::Int(0)), Some(IntOrString::Int(0))) = (
        IntOrString::from_json(max_unavailable),
        IntOrString::from_json(max_surge),
    ) {
        errs.push(FieldError::invalid(
            &ru_path,
            "0",
            "maxUnavailable and maxSurge cannot both be 0",
        ));
    }
    errs
}

/// The value checks of a health check at `path` (`…healthCheck`): the node startup timeout
/// and `unhealthyLessThanOrEqualTo`, plus `maxInFlight` when `with_max_in_flight` (worker
/// health checks).
pub fn health_check_values(
    hc: Option<&Value>,
    path: &Path,
    with_max_in_flight: bool,
) -> Vec<FieldError> {
    let hc = hc.unwrap_or(&Value::Null);
    let mut errs = Vec::new();
    if let Some(t) = get(hc, &["checks", "nodeStartupTimeoutSeconds"]).and_then(Value::as_i64)
        && t != DISABLED_NODE_STARTUP_TIMEOUT
        && t < MIN_NODE_STARTUP_TIMEOUT
    {
        errs.push(FieldError::invalid(
            &path.child("checks").child("nodeStartupTimeoutSeconds"),
            BadValue::Int(t),
            "must be at least 30s",
        ));
    }
    errs.extend(int_or_percent(
        &path
            .child("remediation")
            .child("triggerIf")
            .child("unhealthyLessThanOrEqualTo"),
        get(
            hc,
            &["remediation", "triggerIf", "unhealthyLessThanOrEqualTo"],
        ),
    ));
    if with_max_in_flight {
        errs.extend(int_or_percent(
            &path.child("remediation").child("maxInFlight"),
            get(hc, &["remediation", "maxInFlight"]),
        ));
    }
    errs
}

/// `taints.ValidateMachineTaints` for the `taints` of `entry`, reported at `path`.
pub fn taints(entry: &Value, path: &Path, gate_enabled: bool) -> Vec<FieldError> {
    let list = list_at(entry, &["taints"]);
    let mut errs = Vec::new();
    if !gate_enabled && !list.is_empty() {
        errs.push(FieldError::forbidden(
            path,
            "taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled",
        ));
    }
    for (i, taint) in list.iter().enumerate() {
        let key = str_at(taint, &["key"]);
        let key_path = path.index(i).child("key");
        let reserved = match key {
            "node.cluster.x-k8s.io/uninitialized" | "node.cluster.x-k8s.io/outdated-revision" => {
                Some("taint key is not allowed")
            }
            k if k.starts_with("node.kubernetes.io/")
                && k != "node.kubernetes.io/out-of-service" =>
            {
                Some(
                    "taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service",
                )
            }
            k if k.starts_with("node.cloudprovider.kubernetes.io/") => {
                Some("taint key must not have the prefix node.cloudprovider.kubernetes.io/")
            }
            "node-role.kubernetes.io/master" => {
                Some("taint is deprecated since 1.24 and should not be used anymore")
            }
            _ => None,
        };
        if let Some(msg) = reserved {
            errs.push(FieldError::invalid(&key_path, key, msg));
        }
        for msg in qualified_name(key) {
            errs.push(FieldError::invalid(&key_path, key, msg));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::testutil::msgs;
    use serde_json::json;

    fn p() -> Path {
        Path::of(&["spec", "x"])
    }

    #[test]
    fn rollout() {
        let ok = json!({"rollout": {"strategy": {"rollingUpdate": {"maxUnavailable": "10%", "maxSurge": 1}}}});
        assert!(rollout_strategy(&ok, &p().child("rollout")).is_empty());
        let bad = json!({"rollout": {"strategy": {"rollingUpdate": {"maxUnavailable": "10", "maxSurge": "a%"}}}});
        assert_eq!(
            msgs(&rollout_strategy(&bad, &p().child("rollout"))),
            [
                "spec.x.rollout.strategy.rollingUpdate.maxUnavailable: Invalid value: \"10\": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage",
                "spec.x.rollout.strategy.rollingUpdate.maxSurge: Invalid value: \"a%\": must be either an int or a percentage: invalid value for IntOrString: invalid value \"a%\": strconv.Atoi: parsing \"a\": invalid syntax",
            ]
        );
        let zero = json!({"rollout": {"strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}}});
        assert_eq!(
            msgs(&rollout_strategy(&zero, &p().child("rollout"))),
            [
                "spec.x.rollout.strategy.rollingUpdate: Invalid value: \"0\": maxUnavailable and maxSurge cannot both be 0"
            ]
        );
        let zero_pct = json!({"rollout": {"strategy": {"rollingUpdate": {"maxUnavailable": "0%", "maxSurge": 0}}}});
        assert!(rollout_strategy(&zero_pct, &p().child("rollout")).is_empty());
    }

    #[test]
    fn health_checks() {
        let ok = json!({"checks": {"nodeStartupTimeoutSeconds": 0}, "remediation": {"maxInFlight": 3, "triggerIf": {"unhealthyLessThanOrEqualTo": "40%"}}});
        assert!(health_check_values(Some(&ok), &p(), true).is_empty());
        let bad = json!({"checks": {"nodeStartupTimeoutSeconds": 29}, "remediation": {"maxInFlight": "x", "triggerIf": {"unhealthyLessThanOrEqualTo": "1"}}});
        assert_eq!(
            msgs(&health_check_values(Some(&bad), &p(), true)),
            [
                "spec.x.checks.nodeStartupTimeoutSeconds: Invalid value: 29: must be at least 30s",
                "spec.x.remediation.triggerIf.unhealthyLessThanOrEqualTo: Invalid value: \"1\": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage",
                "spec.x.remediation.maxInFlight: Invalid value: \"x\": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage",
            ]
        );
        assert_eq!(health_check_values(Some(&bad), &p(), false).len(), 2);
    }

    #[test]
    fn taint_rules() {
        let e = json!({"taints": [
            {"key": "node.cluster.x-k8s.io/uninitialized", "effect": "NoSchedule"},
            {"key": "node.kubernetes.io/out-of-service", "effect": "NoExecute"},
            {"key": "node.kubernetes.io/foo", "effect": "NoExecute"},
            {"key": "node.cloudprovider.kubernetes.io/x", "effect": "NoExecute"},
            {"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"},
            {"key": "-bad", "effect": "NoSchedule"},
            {"key": "example.com/ok", "effect": "NoSchedule"}
        ]});
        let path = p().child("taints");
        assert_eq!(
            msgs(&taints(&e, &path, true)),
            [
                "spec.x.taints[0].key: Invalid value: \"node.cluster.x-k8s.io/uninitialized\": taint key is not allowed",
                "spec.x.taints[2].key: Invalid value: \"node.kubernetes.io/foo\": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service",
                "spec.x.taints[3].key: Invalid value: \"node.cloudprovider.kubernetes.io/x\": taint key must not have the prefix node.cloudprovider.kubernetes.io/",
                "spec.x.taints[4].key: Invalid value: \"node-role.kubernetes.io/master\": taint is deprecated since 1.24 and should not be used anymore",
                "spec.x.taints[5].key: Invalid value: \"-bad\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            ]
        );
        let one = json!({"taints": [{"key": "a", "effect": "NoSchedule"}]});
        assert_eq!(
            msgs(&taints(&one, &path, false)),
            [
                "spec.x.taints: Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled"
            ]
        );
        assert!(taints(&json!({"taints": []}), &path, false).is_empty());
    }
}
