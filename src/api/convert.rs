/*!
v1beta1 → v1beta2 conversion of ClusterClass and Cluster specs, on JSON.

Cluster API's own conversion (`api/core/v1beta1/conversion.go`) maps field by field; this does the
same for the fields the planner reads (Cluster API's `api/core/v1beta1/conversion.go`), so every later stage sees one
shape. Durations become whole seconds, as `ConvertToSeconds` does. It never fails: a field with
an unexpected type is left for the typed decoding to report.
*/

use serde_json::{Map, Value, json};

/// Private key carrying a v1beta1 remediation template's namespace through the v1beta2 model.
pub const V1BETA1_NAMESPACE: &str = "v1beta1Namespace";

/// Fields of the v1beta1 ClusterClass that Cluster API v1.10 did not have (later releases
/// backported them from v1beta2); v1.10's API server pruned them. `*` matches a list index.
const CLASS_FIELDS_AFTER_V1_10: &[&str] = &[
    "/spec/controlPlane/taints",
    "/spec/controlPlane/machineHealthCheck/unhealthyMachineConditions",
    "/spec/workers/machineDeployments/*/taints",
    "/spec/workers/machineDeployments/*/machineHealthCheck/unhealthyMachineConditions",
    "/spec/workers/machinePools/*/taints",
    "/spec/kubernetesVersions",
    "/spec/upgrade",
];

/// The same for the v1beta1 Cluster.
const CLUSTER_FIELDS_AFTER_V1_10: &[&str] = &[
    "/spec/topology/controlPlane/taints",
    "/spec/topology/controlPlane/rollout",
    "/spec/topology/controlPlane/machineHealthCheck/unhealthyMachineConditions",
    "/spec/topology/workers/machineDeployments/*/taints",
    "/spec/topology/workers/machineDeployments/*/rollout",
    "/spec/topology/workers/machineDeployments/*/rolloutAfter",
    "/spec/topology/workers/machineDeployments/*/machineHealthCheck/unhealthyMachineConditions",
    "/spec/topology/workers/machinePools/*/taints",
];

/// Pointers of fields in a v1beta1 ClusterClass that v1.10 would have pruned.
pub fn class_fields_after_v1_10(object: &Value) -> Vec<String> {
    find_all(object, CLASS_FIELDS_AFTER_V1_10)
}

/// Pointers of fields in a v1beta1 Cluster that v1.10 would have pruned.
pub fn cluster_fields_after_v1_10(object: &Value) -> Vec<String> {
    find_all(object, CLUSTER_FIELDS_AFTER_V1_10)
}

fn find_all(object: &Value, patterns: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for p in patterns {
        let tokens: Vec<&str> = p.trim_start_matches('/').split('/').collect();
        walk(object, &tokens, String::new(), &mut out);
    }
    out
}

fn walk(v: &Value, tokens: &[&str], at: String, out: &mut Vec<String>) {
    let Some((first, rest)) = tokens.split_first() else {
        out.push(at);
        return;
    };
    if *first == "*" {
        for (i, item) in v.as_array().into_iter().flatten().enumerate() {
            walk(item, rest, format!("{at}/{i}"), out);
        }
    } else if let Some(next) = v.get(*first) {
        walk(next, rest, format!("{at}/{first}"), out);
    }
}

/// Convert a v1beta1 ClusterClass `spec` into the v1beta2 shape.
pub fn cluster_class_spec(spec: &Value) -> Value {
    let mut out = Map::new();
    let Some(spec) = spec.as_object() else {
        return Value::Object(out);
    };
    let mut infra = Map::new();
    if let Some(r) = spec.pointer_ref("/infrastructure/ref") {
        infra.insert("templateRef".into(), template_ref(r));
    }
    if let Some(t) = spec.pointer_ref("/infrastructureNamingStrategy/template") {
        infra.insert("naming".into(), json!({ "template": t }));
    }
    out.insert("infrastructure".into(), Value::Object(infra));

    if let Some(cp) = spec.get("controlPlane").and_then(Value::as_object) {
        let mut o = Map::new();
        copy(cp, &mut o, &["metadata", "readinessGates"]);
        if let Some(r) = cp.get("ref") {
            o.insert("templateRef".into(), template_ref(r));
        }
        if let Some(r) = cp.get("machineInfrastructure").and_then(|m| m.get("ref")) {
            o.insert(
                "machineInfrastructure".into(),
                json!({ "templateRef": template_ref(r) }),
            );
        }
        naming(cp, &mut o);
        if let Some(mhc) = cp.get("machineHealthCheck") {
            o.insert("healthCheck".into(), health_check(mhc, None));
        }
        o.insert("deletion".into(), deletion(cp, None));
        out.insert("controlPlane".into(), Value::Object(o));
    }

    let mut workers = Map::new();
    if let Some(mds) = spec
        .pointer_ref("/workers/machineDeployments")
        .and_then(Value::as_array)
    {
        let list = mds.iter().map(md_class).collect();
        workers.insert("machineDeployments".into(), Value::Array(list));
    }
    if let Some(mps) = spec
        .pointer_ref("/workers/machinePools")
        .and_then(Value::as_array)
    {
        let list = mps.iter().map(mp_class).collect();
        workers.insert("machinePools".into(), Value::Array(list));
    }
    out.insert("workers".into(), Value::Object(workers));
    copy(spec, &mut out, &["kubernetesVersions", "upgrade"]);
    if let Some(vars) = spec.get("variables").and_then(Value::as_array) {
        let list = vars.iter().map(class_variable).collect();
        out.insert("variables".into(), Value::Array(list));
    }
    if let Some(patches) = spec.get("patches").and_then(Value::as_array) {
        let list = patches.iter().map(patch).collect();
        out.insert("patches".into(), Value::Array(list));
    }
    Value::Object(out)
}

/// v1beta1 variable definition: `metadata` became `deprecatedV1Beta1Metadata`.
fn class_variable(v: &Value) -> Value {
    let Some(m) = v.as_object() else {
        return v.clone();
    };
    let mut o = Map::new();
    for (k, val) in m {
        let key = if k == "metadata" {
            "deprecatedV1Beta1Metadata"
        } else {
            k
        };
        o.insert(key.into(), val.clone());
    }
    Value::Object(o)
}

/// v1beta1 patch: the external hooks were `generateExtension` and `validateExtension`.
fn patch(p: &Value) -> Value {
    let mut p = p.clone();
    if let Some(ext) = p.get_mut("external").and_then(Value::as_object_mut) {
        for (from, to) in [
            ("generateExtension", "generatePatchesExtension"),
            ("validateExtension", "validateTopologyExtension"),
        ] {
            if let Some(v) = ext.remove(from) {
                ext.insert(to.into(), v);
            }
        }
    }
    p
}

/// v1beta1 Cluster variable values: `definitionFrom` has no v1beta2 counterpart (conversion
/// drops it; v1.10's webhook rejects it, which the validator checks on the original object).
fn cluster_variables(v: &Value) -> Value {
    match v.as_array() {
        Some(list) => Value::Array(
            list.iter()
                .map(|item| match item.as_object() {
                    Some(m) => {
                        let mut m = m.clone();
                        m.remove("definitionFrom");
                        Value::Object(m)
                    }
                    None => item.clone(),
                })
                .collect(),
        ),
        None => v.clone(),
    }
}

fn md_class(md: &Value) -> Value {
    let Some(md) = md.as_object() else {
        return md.clone();
    };
    let mut o = Map::new();
    copy(
        md,
        &mut o,
        &[
            "class",
            "failureDomain",
            "minReadySeconds",
            "readinessGates",
        ],
    );
    template_parts(md, &mut o);
    naming(md, &mut o);
    md_strategy_and_health_check(md, &mut o, false);
    Value::Object(o)
}

/// What a v1beta1 MachineDeployment class or topology says in `strategy` and
/// `machineHealthCheck`, in v1beta2 places: `rollout.strategy`, `deletion` (with the strategy's
/// deletePolicy as order) and `healthCheck` (with the strategy's remediation.maxInFlight).
/// Topologies also carry the health check's `enable`.
fn md_strategy_and_health_check(
    md: &Map<String, Value>,
    o: &mut Map<String, Value>,
    topology: bool,
) {
    let strategy = md.get("strategy");
    let mut hc = md
        .get("machineHealthCheck")
        .map(|m| health_check(m, if topology { m.get("enable") } else { None }))
        .unwrap_or_else(|| json!({ "v1beta1Present": false }));
    if let (Some(m), Some(hc)) = (
        strategy.and_then(|s| s.pointer("/remediation/maxInFlight")),
        hc.as_object_mut(),
    ) {
        let rem = hc.entry("remediation").or_insert_with(|| json!({}));
        if let Some(rem) = rem.as_object_mut() {
            rem.insert("maxInFlight".into(), m.clone());
        }
    }
    o.insert("healthCheck".into(), hc);
    o.insert("deletion".into(), deletion(md, strategy));
    if let Some(s) = strategy {
        o.insert("rollout".into(), json!({ "strategy": rollout_strategy(s) }));
    }
    if strategy.is_some_and(|s| !s.is_null()) {
        o.insert("v1beta1StrategySet".into(), Value::Bool(true));
    }
}

fn mp_class(mp: &Value) -> Value {
    let Some(mp) = mp.as_object() else {
        return mp.clone();
    };
    let mut o = Map::new();
    copy(mp, &mut o, &["class", "failureDomains", "minReadySeconds"]);
    template_parts(mp, &mut o);
    naming(mp, &mut o);
    o.insert("deletion".into(), deletion(mp, None));
    Value::Object(o)
}

/// `template.{metadata, bootstrap.ref, infrastructure.ref}` → `metadata`, `*.templateRef`.
fn template_parts(class: &Map<String, Value>, o: &mut Map<String, Value>) {
    let Some(t) = class.get("template") else {
        return;
    };
    if let Some(m) = t.get("metadata") {
        o.insert("metadata".into(), m.clone());
    }
    for part in ["bootstrap", "infrastructure"] {
        if let Some(r) = t.get(part).and_then(|p| p.get("ref")) {
            o.insert(part.into(), json!({ "templateRef": template_ref(r) }));
        }
    }
}

fn naming(class: &Map<String, Value>, o: &mut Map<String, Value>) {
    if let Some(t) = class.get("namingStrategy").and_then(|n| n.get("template")) {
        o.insert("naming".into(), json!({ "template": t }));
    }
}

/// Convert a v1beta1 Cluster `spec` into the v1beta2 shape.
pub fn cluster_spec(spec: &Value) -> Value {
    let mut out = Map::new();
    let Some(spec) = spec.as_object() else {
        return Value::Object(out);
    };
    for field in ["infrastructureRef", "controlPlaneRef"] {
        if let Some(r) = spec.get(field) {
            out.insert(field.into(), contract_ref(r));
        }
    }
    if let Some(t) = spec.get("topology").and_then(Value::as_object) {
        let mut o = Map::new();
        copy(t, &mut o, &["version"]);
        if let Some(v) = t.get("variables") {
            o.insert("variables".into(), cluster_variables(v));
        }
        let mut class_ref = Map::new();
        if let Some(c) = t.get("class") {
            class_ref.insert("name".into(), c.clone());
        }
        if let Some(c) = t.get("classNamespace") {
            class_ref.insert("namespace".into(), c.clone());
        }
        o.insert("classRef".into(), Value::Object(class_ref));
        if let Some(cp) = t.get("controlPlane").and_then(Value::as_object) {
            let mut c = Map::new();
            copy(cp, &mut c, &["metadata", "replicas", "readinessGates"]);
            if let Some(mhc) = cp.get("machineHealthCheck") {
                c.insert("healthCheck".into(), health_check(mhc, mhc.get("enable")));
            }
            c.insert("deletion".into(), deletion(cp, None));
            if let Some(v) = cp.pointer_ref("/variables/overrides") {
                c.insert(
                    "variables".into(),
                    json!({ "overrides": cluster_variables(v) }),
                );
            }
            o.insert("controlPlane".into(), Value::Object(c));
        }
        if let Some(w) = t.get("workers").and_then(Value::as_object) {
            let mut wo = Map::new();
            if let Some(mds) = w.get("machineDeployments").and_then(Value::as_array) {
                wo.insert(
                    "machineDeployments".into(),
                    Value::Array(mds.iter().map(md_topology).collect()),
                );
            }
            if let Some(mps) = w.get("machinePools").and_then(Value::as_array) {
                wo.insert(
                    "machinePools".into(),
                    Value::Array(mps.iter().map(mp_topology).collect()),
                );
            }
            o.insert("workers".into(), Value::Object(wo));
        }
        out.insert("topology".into(), Value::Object(o));
    }
    Value::Object(out)
}

fn md_topology(md: &Value) -> Value {
    let Some(md) = md.as_object() else {
        return md.clone();
    };
    let mut o = Map::new();
    copy(
        md,
        &mut o,
        &[
            "metadata",
            "class",
            "name",
            "failureDomain",
            "replicas",
            "minReadySeconds",
            "readinessGates",
            "variables",
        ],
    );
    md_strategy_and_health_check(md, &mut o, true);
    strip_definition_from(&mut o);
    Value::Object(o)
}

fn mp_topology(mp: &Value) -> Value {
    let Some(mp) = mp.as_object() else {
        return mp.clone();
    };
    let mut o = Map::new();
    copy(
        mp,
        &mut o,
        &[
            "metadata",
            "class",
            "name",
            "failureDomains",
            "replicas",
            "minReadySeconds",
            "variables",
        ],
    );
    o.insert("deletion".into(), deletion(mp, None));
    strip_definition_from(&mut o);
    Value::Object(o)
}

/// Every variable-value list of a Cluster spec (the same paths in v1beta1 and v1beta2), each
/// applied to `f` with the list as a JSON pointer below the spec.
fn variable_lists_mut(spec: &mut Value, f: &mut dyn FnMut(&str, &mut Vec<Value>)) {
    let Some(t) = spec.get_mut("topology") else {
        return;
    };
    if let Some(l) = t.get_mut("variables").and_then(Value::as_array_mut) {
        f("/topology/variables", l);
    }
    if let Some(l) = t
        .pointer_mut("/controlPlane/variables/overrides")
        .and_then(Value::as_array_mut)
    {
        f("/topology/controlPlane/variables/overrides", l);
    }
    for kind in ["machineDeployments", "machinePools"] {
        let Some(list) = t
            .get_mut("workers")
            .and_then(|w| w.get_mut(kind))
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for (i, w) in list.iter_mut().enumerate() {
            if let Some(l) = w
                .pointer_mut("/variables/overrides")
                .and_then(Value::as_array_mut)
            {
                f(
                    &format!("/topology/workers/{kind}/{i}/variables/overrides"),
                    l,
                );
            }
        }
    }
}

/// Drop `definitionFrom` from every variable value of a v1beta2 Cluster spec (v1beta2 has no
/// such field; see [`restore_definition_from`]).
pub fn prune_definition_from(spec: &mut Value) {
    variable_lists_mut(spec, &mut |_, list| {
        for item in list.iter_mut() {
            if let Some(m) = item.as_object_mut() {
                m.remove("definitionFrom");
            }
        }
    });
}

/// Put back, into the v1beta2 form `spec` of a v1beta1 Cluster spec `original`, every non-empty
/// `definitionFrom` of its variable values (conversion keeps list order), so that the variable
/// checks refuse it as Cluster API v1.10's webhooks did. Whether any was put back.
pub fn restore_definition_from(original: &Value, spec: &mut Value) -> bool {
    let mut any = false;
    variable_lists_mut(spec, &mut |pointer, list| {
        let Some(orig) = original.pointer(pointer).and_then(Value::as_array) else {
            return;
        };
        for (item, o) in list.iter_mut().zip(orig) {
            let from = o
                .get("definitionFrom")
                .and_then(Value::as_str)
                .unwrap_or("");
            if let (false, Some(m)) = (from.is_empty(), item.as_object_mut()) {
                m.insert("definitionFrom".into(), Value::String(from.to_string()));
                any = true;
            }
        }
    });
    any
}

/// Drop `definitionFrom` from a worker topology's `variables.overrides`.
fn strip_definition_from(o: &mut Map<String, Value>) {
    if let Some(ov) = o.get_mut("variables").and_then(|v| v.get_mut("overrides")) {
        *ov = cluster_variables(ov);
    }
}

/// v1beta1 `MachineHealthCheckClass` (+ `enable` on topologies) → v1beta2 health check.
fn health_check(mhc: &Value, enable: Option<&Value>) -> Value {
    let mut checks = Map::new();
    let mut remediation = Map::new();
    let mut trigger = Map::new();
    if let Some(t) = mhc.get("nodeStartupTimeout").and_then(duration_seconds) {
        checks.insert("nodeStartupTimeoutSeconds".into(), json!(t));
    }
    for (from, to) in [("unhealthyConditions", "unhealthyNodeConditions")] {
        if let Some(list) = mhc.get(from).and_then(Value::as_array) {
            let conv = list.iter().map(condition).collect();
            checks.insert(to.into(), Value::Array(conv));
        }
    }
    if let Some(m) = mhc.get("maxUnhealthy") {
        trigger.insert("unhealthyLessThanOrEqualTo".into(), m.clone());
    }
    if let Some(r) = mhc.get("unhealthyRange") {
        trigger.insert("unhealthyInRange".into(), r.clone());
    }
    if !trigger.is_empty() {
        remediation.insert("triggerIf".into(), Value::Object(trigger));
    }
    if let Some(r) = mhc.get("remediationTemplate").and_then(Value::as_object) {
        let mut t = Map::new();
        copy(r, &mut t, &["apiVersion", "kind", "name"]);
        // v1.10 kept the namespace (defaulted by the ClusterClass / Cluster webhook);
        // v1beta2 has none, so it travels under a private key only v1beta1 output reads.
        if let Some(ns) = r.get("namespace") {
            t.insert(V1BETA1_NAMESPACE.into(), ns.clone());
        }
        remediation.insert("templateRef".into(), Value::Object(t));
    }
    let mut out = Map::new();
    if let Some(e) = enable {
        out.insert("enabled".into(), e.clone());
    }
    out.insert("checks".into(), Value::Object(checks));
    out.insert("remediation".into(), Value::Object(remediation));
    // v1.10 enabled a health check whenever the field was present, even when empty.
    out.insert("v1beta1Present".into(), Value::Bool(!mhc.is_null()));
    Value::Object(out)
}

fn condition(c: &Value) -> Value {
    let Some(c) = c.as_object() else {
        return c.clone();
    };
    let mut o = Map::new();
    copy(c, &mut o, &["type", "status"]);
    if let Some(t) = c.get("timeout").and_then(duration_seconds) {
        o.insert("timeoutSeconds".into(), json!(t));
    }
    Value::Object(o)
}

/// Node timeouts (durations) and, from a strategy, the deletion order.
fn deletion(src: &Map<String, Value>, strategy: Option<&Value>) -> Value {
    let mut o = Map::new();
    for (from, to) in [
        ("nodeDrainTimeout", "nodeDrainTimeoutSeconds"),
        ("nodeVolumeDetachTimeout", "nodeVolumeDetachTimeoutSeconds"),
        ("nodeDeletionTimeout", "nodeDeletionTimeoutSeconds"),
    ] {
        if let Some(s) = src.get(from).and_then(duration_seconds) {
            o.insert(to.into(), json!(s));
        }
    }
    if let Some(p) = strategy.and_then(|s| s.pointer("/rollingUpdate/deletePolicy")) {
        o.insert("order".into(), p.clone());
    }
    Value::Object(o)
}

fn rollout_strategy(s: &Value) -> Value {
    let mut o = Map::new();
    if let Some(t) = s.get("type") {
        o.insert("type".into(), t.clone());
    }
    if let Some(ru) = s.get("rollingUpdate").and_then(Value::as_object) {
        let mut r = Map::new();
        copy(ru, &mut r, &["maxUnavailable", "maxSurge"]);
        o.insert("rollingUpdate".into(), Value::Object(r));
    }
    Value::Object(o)
}

/// v1beta1 `ObjectReference` to a template → `{apiVersion, kind, name}`.
fn template_ref(r: &Value) -> Value {
    let mut o = Map::new();
    if let Some(r) = r.as_object() {
        copy(r, &mut o, &["apiVersion", "kind", "name"]);
    }
    Value::Object(o)
}

/// v1beta1 `ObjectReference` → v1beta2 `{apiGroup, kind, name}`.
fn contract_ref(r: &Value) -> Value {
    let mut o = Map::new();
    if let Some(r) = r.as_object() {
        if let Some(av) = r.get("apiVersion").and_then(Value::as_str) {
            o.insert("apiGroup".into(), json!(crate::load::object::group_of(av)));
        }
        copy(r, &mut o, &["kind", "name"]);
    }
    Value::Object(o)
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, fields: &[&str]) {
    for f in fields {
        if let Some(v) = from.get(*f) {
            to.insert((*f).to_string(), v.clone());
        }
    }
}

trait PointerRef {
    fn pointer_ref(&self, p: &str) -> Option<&Value>;
}

impl PointerRef for Map<String, Value> {
    fn pointer_ref(&self, p: &str) -> Option<&Value> {
        let mut parts = p.trim_start_matches('/').splitn(2, '/');
        let first = parts.next()?;
        let v = self.get(first)?;
        match parts.next() {
            Some(rest) => v.pointer(&format!("/{rest}")),
            None => Some(v),
        }
    }
}

/// Whole seconds of a Go duration string (`"300s"`, `"5m"`, `"1h2m3.5s"`), as Cluster API's
/// `ConvertToSeconds` truncates. Numbers are taken as nanoseconds, like a JSON-encoded
/// `time.Duration`. `None` for anything unparsable.
pub fn duration_seconds(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => parse_go_duration(s).map(|ns| ns / 1_000_000_000),
        Value::Number(n) => n.as_i64().map(|ns| ns / 1_000_000_000),
        _ => None,
    }
}

/// Parse a Go duration into nanoseconds (`time.ParseDuration`).
pub fn parse_go_duration(s: &str) -> Option<i64> {
    crate::go::time::parse_duration(s).ok()
}

/// Go's `time.Duration.String()` for whole seconds (`300` → `5m0s`, `0` → `0s`).
pub fn go_duration_string(seconds: i64) -> String {
    crate::go::time::format_duration(seconds.saturating_mul(1_000_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("300s"), Some(300_000_000_000));
        assert_eq!(parse_go_duration("5m"), Some(300_000_000_000));
        assert_eq!(parse_go_duration("1h2m3.5s"), Some(3_723_500_000_000));
        assert_eq!(parse_go_duration("0"), Some(0));
        assert_eq!(parse_go_duration("10"), None);
        assert_eq!(parse_go_duration(""), None);
        assert_eq!(parse_go_duration("1x"), None);
        assert_eq!(duration_seconds(&json!("1.9s")), Some(1));
        assert_eq!(go_duration_string(300), "5m0s");
        assert_eq!(go_duration_string(10), "10s");
        assert_eq!(go_duration_string(3600), "1h0m0s");
        assert_eq!(go_duration_string(0), "0s");
    }

    #[test]
    fn md_class_strategy_is_split() {
        let spec = json!({"workers": {"machineDeployments": [{
            "class": "w",
            "template": {"metadata": {"labels": {"a": "b"}},
                         "bootstrap": {"ref": {"apiVersion": "b/v1", "kind": "K", "name": "n", "namespace": "x"}}},
            "strategy": {"type": "RollingUpdate",
                         "rollingUpdate": {"maxSurge": 1, "deletePolicy": "Oldest"},
                         "remediation": {"maxInFlight": 2}},
            "nodeDrainTimeout": "5m"
        }]}});
        let out = cluster_class_spec(&spec);
        let md = &out["workers"]["machineDeployments"][0];
        assert_eq!(md["metadata"]["labels"]["a"], "b");
        assert_eq!(
            md["bootstrap"]["templateRef"],
            json!({"apiVersion": "b/v1", "kind": "K", "name": "n"})
        );
        assert_eq!(
            md["rollout"]["strategy"],
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}})
        );
        assert_eq!(
            md["deletion"],
            json!({"order": "Oldest", "nodeDrainTimeoutSeconds": 300})
        );
        assert_eq!(md["healthCheck"]["remediation"]["maxInFlight"], 2);
    }

    #[test]
    fn mhc_class_is_converted() {
        let hc = health_check(
            &json!({"unhealthyConditions": [{"type": "Ready", "status": "Unknown", "timeout": "300s"}],
                    "maxUnhealthy": "40%", "nodeStartupTimeout": "10m"}),
            Some(&json!(false)),
        );
        assert_eq!(hc["enabled"], false);
        assert_eq!(hc["checks"]["nodeStartupTimeoutSeconds"], 600);
        assert_eq!(
            hc["checks"]["unhealthyNodeConditions"][0]["timeoutSeconds"],
            300
        );
        assert_eq!(
            hc["remediation"]["triggerIf"]["unhealthyLessThanOrEqualTo"],
            "40%"
        );
    }
}

/// Where a field of the converted (v1beta2-shaped) spec stood in the v1beta1 object it came
/// from: the inverse of the renames above, so an error found on the converted spec points at the
/// user's line. `pointer` is rooted at the object (`/spec/...`). Fields without a v1beta1
/// counterpart map to their nearest ancestor when the span table is asked.
pub fn v1beta1_source_pointer(pointer: &str) -> String {
    // (v1beta2 tokens, v1beta1 tokens); `*` matches one token (an index) and is kept.
    const RULES: &[(&[&str], &[&str])] = &[
        (
            &["infrastructure", "templateRef"],
            &["infrastructure", "ref"],
        ),
        (
            &["infrastructure", "naming"],
            &["infrastructureNamingStrategy"],
        ),
        (&["controlPlane", "templateRef"], &["controlPlane", "ref"]),
        (
            &["controlPlane", "machineInfrastructure", "templateRef"],
            &["controlPlane", "machineInfrastructure", "ref"],
        ),
        (
            &["controlPlane", "naming"],
            &["controlPlane", "namingStrategy"],
        ),
        (
            &["controlPlane", "healthCheck"],
            &["controlPlane", "machineHealthCheck"],
        ),
        (
            &["workers", "*", "*", "bootstrap", "templateRef"],
            &["workers", "*", "*", "template", "bootstrap", "ref"],
        ),
        (
            &["workers", "*", "*", "infrastructure", "templateRef"],
            &["workers", "*", "*", "template", "infrastructure", "ref"],
        ),
        (
            &["workers", "*", "*", "naming"],
            &["workers", "*", "*", "namingStrategy"],
        ),
        (
            &["workers", "*", "*", "healthCheck"],
            &["workers", "*", "*", "machineHealthCheck"],
        ),
        (
            &["workers", "*", "*", "rollout", "strategy"],
            &["workers", "*", "*", "strategy"],
        ),
        (
            &["variables", "*", "deprecatedV1Beta1Metadata"],
            &["variables", "*", "metadata"],
        ),
        (
            &["patches", "*", "external", "generatePatchesExtension"],
            &["patches", "*", "external", "generateExtension"],
        ),
        (
            &["patches", "*", "external", "validateTopologyExtension"],
            &["patches", "*", "external", "validateExtension"],
        ),
        (&["topology", "classRef", "name"], &["topology", "class"]),
        (
            &["topology", "classRef", "namespace"],
            &["topology", "classNamespace"],
        ),
        (&["topology", "classRef"], &["topology", "class"]),
        (
            &["topology", "controlPlane", "healthCheck"],
            &["topology", "controlPlane", "machineHealthCheck"],
        ),
        (
            &["topology", "workers", "*", "*", "healthCheck"],
            &["topology", "workers", "*", "*", "machineHealthCheck"],
        ),
        (
            &["topology", "workers", "*", "*", "rollout", "strategy"],
            &["topology", "workers", "*", "*", "strategy"],
        ),
    ];
    let Some(rest) = pointer.strip_prefix("/spec/") else {
        return pointer.to_string();
    };
    let tokens: Vec<&str> = rest.split('/').collect();
    for (from, to) in RULES {
        if tokens.len() < from.len() {
            continue;
        }
        let matches = from.iter().zip(&tokens).all(|(f, t)| *f == "*" || f == t);
        if !matches {
            continue;
        }
        let wild: Vec<&str> = from
            .iter()
            .zip(&tokens)
            .filter(|(f, _)| **f == "*")
            .map(|(_, t)| *t)
            .collect();
        let mut wild = wild.into_iter();
        let mut out: Vec<&str> = to
            .iter()
            .map(|t| {
                if *t == "*" {
                    wild.next().unwrap_or("")
                } else {
                    t
                }
            })
            .collect();
        out.extend(&tokens[from.len()..]);
        return format!("/spec/{}", out.join("/"));
    }
    pointer.to_string()
}

#[cfg(test)]
mod source_pointer_tests {
    use super::v1beta1_source_pointer as p;

    #[test]
    fn renamed_fields_point_at_their_v1beta1_place() {
        assert_eq!(
            p("/spec/workers/machineDeployments/1/infrastructure/templateRef/kind"),
            "/spec/workers/machineDeployments/1/template/infrastructure/ref/kind"
        );
        assert_eq!(p("/spec/topology/classRef/name"), "/spec/topology/class");
        assert_eq!(
            p("/spec/variables/0/deprecatedV1Beta1Metadata/labels"),
            "/spec/variables/0/metadata/labels"
        );
        assert_eq!(
            p("/spec/topology/workers/machineDeployments/0/rollout/strategy/rollingUpdate"),
            "/spec/topology/workers/machineDeployments/0/strategy/rollingUpdate"
        );
        assert_eq!(p("/spec/topology/version"), "/spec/topology/version");
        assert_eq!(p("/metadata/name"), "/metadata/name");
    }
}
