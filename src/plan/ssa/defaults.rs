/*!
Admission defaults the server applies to an object before storing it, for the kinds whose
defaults are known offline: the MachineDeployment defaulting webhook (v1beta2 shape of Cluster
API main, v1beta1 shape of v1.10).

Owns nothing but that rewrite. Why it is needed: the dry-run comparison sees the object after
the webhook ran, so without the defaults every MachineDeployment whose topology leaves
`replicas` or the rollout strategy open would look modified against a current object that
holds them. Provider CRD defaults cannot be known offline and are not simulated.
*/

use serde_json::{Map, Value, json};

/// `cluster.x-k8s.io/cluster-name`.
const CLUSTER_NAME_LABEL: &str = "cluster.x-k8s.io/cluster-name";
/// `cluster.x-k8s.io/deployment-name`.
const DEPLOYMENT_NAME_LABEL: &str = "cluster.x-k8s.io/deployment-name";
/// The cluster autoscaler's node-group size annotations.
const AUTOSCALER_MIN: &str = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size";
const AUTOSCALER_MAX: &str = "cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size";

/// Whether `v` is a Cluster API MachineDeployment (any version).
pub fn is_machine_deployment(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some("MachineDeployment")
        && v.get("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(|a| a.starts_with("cluster.x-k8s.io/"))
}

/// Apply the MachineDeployment defaulting webhook to `after` (the object as the apply would
/// store it), for an update of `current`. The shape follows `after`'s apiVersion: v1beta1 has
/// `spec.strategy` and the v1.10 extra defaults, anything else the v1beta2 `spec.rollout`.
/// Replicas default only when `after` has none (another manager's value survives the apply and
/// so is kept). Where the webhook would reject the object (unparsable autoscaler annotations)
/// replicas are left unset. Objects that are not mappings are left alone.
pub fn default_machine_deployment(after: &mut Value, current: &Value) {
    let Some(obj) = after.as_object_mut() else {
        return;
    };
    let v1beta1 = obj.get("apiVersion").and_then(Value::as_str) == Some("cluster.x-k8s.io/v1beta1");
    let name = obj
        .get("metadata")
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let namespace = obj
        .get("metadata")
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let annotations = obj
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let Some(spec) = mapping(obj, "spec") else {
        return;
    };
    let cluster_name = Value::String(
        spec.get("clusterName")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
    );

    if spec.get("replicas").is_none_or(Value::is_null)
        && let Some(replicas) = default_replicas(&annotations, current)
    {
        spec.insert("replicas".into(), json!(replicas));
    }

    if v1beta1 {
        for (field, value) in [
            ("minReadySeconds", 0),
            ("revisionHistoryLimit", 1),
            ("progressDeadlineSeconds", 600),
        ] {
            set_if_absent(spec, field, json!(value));
        }
        if let Some(strategy) = mapping(spec, "strategy") {
            default_strategy(strategy);
        }
    } else if let Some(strategy) = mapping(spec, "rollout").and_then(|r| mapping(r, "strategy")) {
        default_strategy(strategy);
    }

    // Selector: a deployment-name default only when nothing selects; cluster-name always.
    let has_selector = spec
        .get("selector")
        .map(|s| {
            let labels = s
                .get("matchLabels")
                .and_then(Value::as_object)
                .is_some_and(|m| !m.is_empty());
            let exprs = s
                .get("matchExpressions")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            labels || exprs
        })
        .unwrap_or(false);
    if let Some(selector) = mapping(spec, "selector").and_then(|s| mapping(s, "matchLabels")) {
        if !has_selector {
            selector.insert(DEPLOYMENT_NAME_LABEL.into(), Value::String(name.clone()));
        }
        selector.insert(CLUSTER_NAME_LABEL.into(), cluster_name.clone());
    }
    if let Some(template) = mapping(spec, "template") {
        if let Some(labels) = mapping(template, "metadata").and_then(|m| mapping(m, "labels")) {
            if !has_selector {
                labels.insert(DEPLOYMENT_NAME_LABEL.into(), Value::String(name.clone()));
            }
            labels.insert(CLUSTER_NAME_LABEL.into(), cluster_name.clone());
        }
        // Only an existing machine spec is touched: the fields defaulted there are optional.
        if let Some(machine) = template.get_mut("spec").and_then(Value::as_object_mut) {
            if let Some(Value::String(version)) = machine.get_mut("version")
                && !version.is_empty()
                && !version.starts_with('v')
            {
                version.insert(0, 'v');
            }
            if v1beta1 {
                if let Some(bootstrap_ref) = machine
                    .get_mut("bootstrap")
                    .and_then(Value::as_object_mut)
                    .and_then(|b| b.get_mut("configRef"))
                    .and_then(Value::as_object_mut)
                {
                    set_if_empty(bootstrap_ref, "namespace", &namespace);
                }
                if let Some(infra_ref) = mapping(machine, "infrastructureRef") {
                    set_if_empty(infra_ref, "namespace", &namespace);
                }
            }
        }
    }

    if let Some(labels) = mapping(obj, "metadata").and_then(|m| mapping(m, "labels")) {
        labels.insert(CLUSTER_NAME_LABEL.into(), cluster_name);
    }
}

/// The replicas the webhook picks when the object has none: with both autoscaler annotations,
/// the minimum for a new object, otherwise the old value clamped into [min, max]; without them
/// 1. `None` when the annotations do not parse (the webhook rejects the object).
fn default_replicas(annotations: &Map<String, Value>, current: &Value) -> Option<i64> {
    let min = annotations.get(AUTOSCALER_MIN).and_then(Value::as_str);
    let max = annotations.get(AUTOSCALER_MAX).and_then(Value::as_str);
    let (Some(min), Some(max)) = (min, max) else {
        return Some(1);
    };
    let min: i32 = min.parse().ok()?;
    let max: i32 = max.parse().ok()?;
    let (min, max) = (i64::from(min), i64::from(max));
    let old = if current.is_object() {
        current.pointer("/spec/replicas").and_then(Value::as_i64)
    } else {
        None
    };
    Some(match old {
        None => min,
        Some(old) if old < min => min,
        Some(old) if old > max => max,
        Some(old) => old,
    })
}

/// `type: RollingUpdate` when unset; for a rolling update `maxSurge: 1`, `maxUnavailable: 0`.
fn default_strategy(strategy: &mut Map<String, Value>) {
    if strategy
        .get("type")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        strategy.insert("type".into(), json!("RollingUpdate"));
    }
    if strategy.get("type").and_then(Value::as_str) == Some("RollingUpdate")
        && let Some(rolling) = mapping(strategy, "rollingUpdate")
    {
        set_if_absent(rolling, "maxSurge", json!(1));
        set_if_absent(rolling, "maxUnavailable", json!(0));
    }
}

/// The mapping at `key`, created when absent or null (the webhook works on typed objects whose
/// structs always exist). `None` when something else sits there.
fn mapping<'m>(m: &'m mut Map<String, Value>, key: &str) -> Option<&'m mut Map<String, Value>> {
    let slot = m
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if slot.is_null() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut()
}

fn set_if_absent(m: &mut Map<String, Value>, key: &str, value: Value) {
    if m.get(key).is_none_or(Value::is_null) {
        m.insert(key.to_string(), value);
    }
}

fn set_if_empty(m: &mut Map<String, Value>, key: &str, value: &str) {
    if m.get(key).and_then(Value::as_str).is_none_or(str::is_empty) {
        m.insert(key.to_string(), Value::String(value.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(api: &str, spec: Value, annotations: Value) -> Value {
        json!({"apiVersion": api, "kind": "MachineDeployment",
               "metadata": {"name": "md", "namespace": "ns", "annotations": annotations}, "spec": spec})
    }

    #[test]
    fn v1beta2_defaults() {
        let mut after = md(
            "cluster.x-k8s.io/v1beta2",
            json!({"clusterName": "c1", "selector": {"matchLabels": {"x": "y"}},
                   "template": {"spec": {"version": "1.30.0"}}}),
            json!({}),
        );
        default_machine_deployment(&mut after, &json!(null));
        assert_eq!(
            after["metadata"]["labels"],
            json!({CLUSTER_NAME_LABEL: "c1"})
        );
        assert_eq!(after["spec"]["replicas"], json!(1));
        assert_eq!(
            after["spec"]["rollout"],
            json!({"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}}})
        );
        assert_eq!(
            after["spec"]["selector"]["matchLabels"],
            json!({"x": "y", CLUSTER_NAME_LABEL: "c1"})
        );
        assert_eq!(
            after["spec"]["template"]["metadata"]["labels"],
            json!({CLUSTER_NAME_LABEL: "c1"})
        );
        assert_eq!(
            after["spec"]["template"]["spec"]["version"],
            json!("v1.30.0")
        );
        assert!(after["spec"].get("strategy").is_none());
        assert!(after["spec"].get("minReadySeconds").is_none());
    }

    #[test]
    fn v1beta1_defaults() {
        let mut after = md(
            "cluster.x-k8s.io/v1beta1",
            json!({"clusterName": "c1", "strategy": {"type": "OnDelete"},
                   "template": {"spec": {"bootstrap": {"configRef": {"name": "b"}}, "infrastructureRef": {"name": "i", "namespace": "other"}}}}),
            json!({}),
        );
        default_machine_deployment(&mut after, &json!(null));
        let spec = &after["spec"];
        assert_eq!(spec["minReadySeconds"], json!(0));
        assert_eq!(spec["revisionHistoryLimit"], json!(1));
        assert_eq!(spec["progressDeadlineSeconds"], json!(600));
        // OnDelete gets no rolling-update parameters.
        assert_eq!(spec["strategy"], json!({"type": "OnDelete"}));
        assert_eq!(
            spec["template"]["spec"]["bootstrap"]["configRef"]["namespace"],
            json!("ns")
        );
        assert_eq!(
            spec["template"]["spec"]["infrastructureRef"]["namespace"],
            json!("other")
        );
        // No selector at all: the deployment-name label selects.
        assert_eq!(
            spec["selector"]["matchLabels"],
            json!({DEPLOYMENT_NAME_LABEL: "md", CLUSTER_NAME_LABEL: "c1"})
        );
        assert_eq!(
            spec["template"]["metadata"]["labels"][DEPLOYMENT_NAME_LABEL],
            json!("md")
        );
    }

    #[test]
    fn replicas_defaulting() {
        let auto = json!({AUTOSCALER_MIN: "2", AUTOSCALER_MAX: "5"});
        // (replicas in after, annotations, current replicas, expected)
        let cases: Vec<(Option<i64>, Value, Option<i64>, Value)> = vec![
            (Some(7), auto.clone(), Some(3), json!(7)),
            (None, json!({}), Some(3), json!(1)),
            (None, auto.clone(), None, json!(2)),
            (None, auto.clone(), Some(1), json!(2)),
            (None, auto.clone(), Some(9), json!(5)),
            (None, auto.clone(), Some(4), json!(4)),
            (None, json!({AUTOSCALER_MIN: "2"}), Some(4), json!(1)),
            (
                None,
                json!({AUTOSCALER_MIN: "x", AUTOSCALER_MAX: "5"}),
                Some(4),
                Value::Null,
            ),
            (
                None,
                json!({AUTOSCALER_MIN: "2", AUTOSCALER_MAX: "99999999999"}),
                Some(4),
                Value::Null,
            ),
        ];
        for (replicas, annotations, old, want) in cases {
            let mut spec = json!({"clusterName": "c"});
            if let Some(r) = replicas {
                spec["replicas"] = json!(r);
            }
            let mut after = md("cluster.x-k8s.io/v1beta2", spec, annotations.clone());
            let current = match old {
                Some(r) => md(
                    "cluster.x-k8s.io/v1beta2",
                    json!({"replicas": r}),
                    json!({}),
                ),
                None => json!(null),
            };
            default_machine_deployment(&mut after, &current);
            assert_eq!(
                after["spec"]
                    .get("replicas")
                    .cloned()
                    .unwrap_or(Value::Null),
                want,
                "{replicas:?} {annotations} {old:?}"
            );
        }
    }

    #[test]
    fn odd_shapes_do_not_panic() {
        for mut v in [
            json!(null),
            json!([]),
            json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "spec": 3}),
            json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "metadata": "x", "spec": {"strategy": [1], "selector": "s",
                   "template": {"metadata": {"labels": 1}, "spec": {"version": 1, "bootstrap": 2, "infrastructureRef": 3}}}}),
            json!({"spec": {"rollout": {"strategy": {"type": "RollingUpdate", "rollingUpdate": null}}, "template": null}}),
        ] {
            let before = v.clone();
            default_machine_deployment(&mut v, &json!({"spec": {"replicas": "x"}}));
            if !before.is_object() || !before["spec"].is_object() {
                assert_eq!(v, before);
            }
        }
    }

    #[test]
    fn recognises_machine_deployments() {
        assert!(is_machine_deployment(
            &json!({"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "MachineDeployment"})
        ));
        assert!(!is_machine_deployment(
            &json!({"apiVersion": "apps/v1", "kind": "MachineDeployment"})
        ));
        assert!(!is_machine_deployment(
            &json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineSet"})
        ));
    }
}
