/*!
Inline patches: `spec.patches[].definitions` turned into RFC 6902 documents, as Cluster API's
`jsonPatchGenerator` does (`core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go`,
`patches/variables/value.go`).

Owns selector matching (apiVersion/kind plus `matchResources`, with `*` wildcards on worker
class names), `enabledIf`, value calculation (`value`, `valueFrom.variable` with its path syntax
and error texts, `valueFrom.template`), and the per-item variable merge (`MergeVariableMaps`:
later wins per name, `builtin` merges field by field).
*/

use serde_json::{Map, Value};

use super::generator::{Answer, Failure, PatchGenerator, PatchType, ResponseItem};
use super::jsonpatch::atoi;
use super::request::{Request, RequestItem};
use crate::gotemplate::capi;
use crate::variables::builtins;

/// The generator for one inline patch (its JSON, v1beta2 shape).
pub struct InlineGenerator<'p> {
    /// The patch.
    pub patch: &'p Value,
    /// Items the patch skipped (uid, reason), filled by `generate` for `--explain`.
    pub skipped: std::cell::RefCell<Vec<(String, String)>>,
    /// Where the first error arose: a JSON pointer inside the patch (`/enabledIf`,
    /// `/definitions/0/jsonPatches/1`) and the uid of the item being generated.
    pub failure: std::cell::RefCell<Option<(String, String)>>,
    /// The merged variables of each request item, when the caller already has them (every
    /// inline patch sees the same variables).
    pub merged: Option<&'p [std::cell::OnceCell<Value>]>,
    /// Templates that printed `<no value>`: (uid of the item, pointer of the
    /// `valueFrom.template` inside the patch).
    pub no_value: std::cell::RefCell<Vec<(String, String)>>,
}

impl<'p> InlineGenerator<'p> {
    /// The generator for `patch`.
    pub fn new(patch: &'p Value) -> Self {
        InlineGenerator {
            patch,
            skipped: std::cell::RefCell::new(Vec::new()),
            failure: std::cell::RefCell::new(None),
            merged: None,
            no_value: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// Remember where the first error came from (a JSON pointer inside the patch) and for
    /// which item, so the diagnostic can point at it.
    fn fail(&self, pointer: &str, uid: &str) {
        let mut f = self.failure.borrow_mut();
        if f.is_none() {
            *f = Some((pointer.to_string(), uid.to_string()));
        }
    }

    fn skip(&self, uid: &str, why: &str) {
        self.skipped
            .borrow_mut()
            .push((uid.to_string(), why.to_string()));
    }
}

fn arr<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
}

impl PatchGenerator for InlineGenerator<'_> {
    fn generate(&self, req: &Request) -> Result<Vec<Box<dyn Answer>>, Failure> {
        match self.patches(req) {
            Ok(items) => Ok(items
                .into_iter()
                .map(|r| Box::new(r) as Box<dyn Answer>)
                .collect()),
            Err(message) => Err(Failure {
                message,
                at: self.failure.borrow().clone(),
                code: None,
            }),
        }
    }

    fn skipped(&self) -> Vec<(String, String)> {
        self.skipped.borrow().clone()
    }

    fn nothing_generated(&self) -> &'static str {
        "no patch generated"
    }

    fn no_values(&self) -> Vec<(String, String)> {
        self.no_value.borrow().clone()
    }
}

impl InlineGenerator<'_> {
    /// The patches for `req`'s items (Cluster API's `jsonPatchGenerator.Generate`); the error
    /// is its text, and [`InlineGenerator::failure`] says where it arose.
    pub fn patches(&self, req: &Request) -> Result<Vec<ResponseItem>, String> {
        let mut out = Vec::new();
        let mut errors: Vec<String> = Vec::new();
        // A variable's value is copied into every operation that uses it: a large value used by
        // many operations, on many templates, is bounded as the patches applying it are.
        let mut all_left = super::jsonpatch::MAX_OBJECT_GROWTH;
        let enabled_if = self
            .patch
            .get("enabledIf")
            .and_then(Value::as_str)
            .unwrap_or("");
        for (index, item) in req.items.iter().enumerate() {
            let defs: Vec<(usize, &Value)> = arr(self.patch, "definitions")
                .iter()
                .enumerate()
                .filter(|(_, d)| matches_selector(item, d.get("selector").unwrap_or(&Value::Null)))
                .collect();
            if defs.is_empty() {
                self.skip(
                    &item.uid,
                    &why_not_selected(item, arr(self.patch, "definitions")),
                );
                continue;
            }
            let owned;
            let merge = || Value::Object(merge_variables(&req.variables, &item.variables));
            let data = match self.merged.and_then(|m| m.get(index)) {
                Some(cell) => cell.get_or_init(merge),
                None => {
                    owned = merge();
                    &owned
                }
            };
            if !enabled_if.is_empty() {
                match capi::enabled_if(enabled_if, data) {
                    Ok(true) => {}
                    Ok(false) => {
                        self.skip(&item.uid, "enabledIf is not true");
                        continue;
                    }
                    Err(e) => {
                        self.fail("/enabledIf", &item.uid);
                        errors.push(format!(
                            "failed to calculate if patch is enabled for {:?}: failed to calculate value for enabledIf: {}",
                            kind(&item.object),
                            render_error_text(enabled_if, &e)
                        ));
                        continue;
                    }
                }
            }
            let mut item_left = super::jsonpatch::MAX_PATCH_GROWTH;
            for (j, d) in defs {
                let mut printed_no_value = Vec::new();
                let generated = generate_json_patches(
                    arr(d, "jsonPatches"),
                    data,
                    &mut item_left,
                    &mut all_left,
                    &mut printed_no_value,
                );
                self.no_value
                    .borrow_mut()
                    .extend(printed_no_value.into_iter().map(|k| {
                        (
                            item.uid.clone(),
                            format!("/definitions/{j}/jsonPatches/{k}/valueFrom/template"),
                        )
                    }));
                match generated {
                    Ok(p) => out.push(ResponseItem {
                        uid: item.uid.clone(),
                        patch_type: PatchType::JsonPatch,
                        patch: p,
                    }),
                    Err((k, e)) => {
                        self.fail(&format!("/definitions/{j}/jsonPatches/{k}"), &item.uid);
                        errors.push(format!(
                            "failed to generate JSON patches for {:?}: {e}",
                            kind(&item.object)
                        ));
                    }
                }
            }
        }
        // `kerrors.NewAggregate(...).Error()`: identical messages once, brackets for several.
        let mut seen: Vec<String> = Vec::new();
        for e in errors {
            if !seen.contains(&e) {
                seen.push(e);
            }
        }
        match seen.len() {
            0 => Ok(out),
            1 => Err(seen.remove(0)),
            _ => Err(format!("[{}]", seen.join(", "))),
        }
    }
}

fn kind(v: &Value) -> &str {
    v.get("kind").and_then(Value::as_str).unwrap_or("")
}

/// Cluster API's wrapping of template failures (`failed to parse template: "<tpl>": …`).
fn render_error_text(template: &str, e: &capi::RenderError) -> String {
    match e {
        capi::RenderError::Parse(m) => format!("failed to parse template: {template:?}: {m}"),
        capi::RenderError::Exec(m) => format!("failed to render template: {template:?}: {m}"),
        capi::RenderError::Yaml { output, message } => {
            format!("failed to unmarshal rendered template: {output:?}: {message}")
        }
    }
}

/// `MergeVariableMaps(global, item)`.
pub fn merge_variables(
    global: &Map<String, Value>,
    item: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = global.clone();
    for (k, v) in item {
        if k == builtins::BUILTIN
            && let Some(g) = out.remove(k)
        {
            // The global builtin is moved into the wrapper and the merged one moved out of
            // the result: one copy of the (Cluster-wide) builtin per item instead of four.
            let merged = builtins::merge(
                &Value::Object(Map::from_iter([(k.clone(), g)])),
                &Value::Object(Map::from_iter([(k.clone(), v.clone())])),
            );
            if let Value::Object(mut m) = merged
                && let Some(b) = m.remove(builtins::BUILTIN)
            {
                out.insert(k.clone(), b);
            }
            continue;
        }
        out.insert(k.clone(), v.clone());
    }
    out
}

/// Why no definition of a patch selects `item`, for `--explain`: no selector names its
/// apiVersion and kind, or those that do match other holders (which `matchResources` lists).
fn why_not_selected(item: &RequestItem, definitions: &[Value]) -> String {
    let api = item
        .object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    let k = kind(&item.object);
    let same_kind: Vec<&Value> = definitions
        .iter()
        .filter_map(|d| d.get("selector"))
        .filter(|s| {
            s.get("apiVersion").and_then(Value::as_str) == Some(api)
                && s.get("kind").and_then(Value::as_str) == Some(k)
        })
        .collect();
    if same_kind.is_empty() {
        return "no definition selects it".into();
    }
    let h = &item.holder_ref;
    let (holder, class) = match h.kind.as_str() {
        "MachineDeployment" => (
            "machineDeploymentClass",
            get_variable_value(&item.variables, "builtin.machineDeployment.class").ok(),
        ),
        "MachinePool" => (
            "machinePoolClass",
            get_variable_value(&item.variables, "builtin.machinePool.class").ok(),
        ),
        _ if h.field_path == "spec.infrastructureRef" => ("infrastructureCluster", None),
        _ => ("controlPlane", None),
    };
    match class.as_ref().and_then(Value::as_str) {
        Some(class) => {
            let mut names: Vec<String> = Vec::new();
            for s in &same_kind {
                for n in s
                    .pointer(&format!("/matchResources/{holder}/names"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    let q = format!("{n:?}");
                    if !names.contains(&q) {
                        names.push(q);
                    }
                }
            }
            if names.is_empty() {
                format!("the selectors for {k} name no {holder}")
            } else {
                format!(
                    "{holder}.names [{}] do not match class {class:?}",
                    names.join(", ")
                )
            }
        }
        None => format!("the selectors for {k} do not set matchResources.{holder}"),
    }
}

/// `matchesSelector`.
pub fn matches_selector(item: &RequestItem, selector: &Value) -> bool {
    let s = |k: &str| selector.get(k).and_then(Value::as_str).unwrap_or("");
    if item
        .object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        != s("apiVersion")
    {
        return false;
    }
    if kind(&item.object) != s("kind") {
        return false;
    }
    let Some(mr) = selector.get("matchResources") else {
        return false;
    };
    let h = &item.holder_ref;
    let flag = |k: &str| mr.get(k).and_then(Value::as_bool).unwrap_or(false);
    if flag("controlPlane")
        && ((h.kind == "Cluster" && h.field_path == "spec.controlPlaneRef")
            || h.field_path == "spec.machineTemplate.infrastructureRef"
            || h.field_path == "spec.machineTemplate.spec.infrastructureRef")
    {
        return true;
    }
    if flag("infrastructureCluster")
        && h.kind == "Cluster"
        && h.field_path == "spec.infrastructureRef"
    {
        return true;
    }
    let worker_paths = |p: &str| {
        p == "spec.template.spec.bootstrap.configRef" || p == "spec.template.spec.infrastructureRef"
    };
    for (field, holder_kind, var) in [
        (
            "machineDeploymentClass",
            "MachineDeployment",
            "builtin.machineDeployment.class",
        ),
        (
            "machinePoolClass",
            "MachinePool",
            "builtin.machinePool.class",
        ),
    ] {
        let Some(names) = mr.get(field).map(|c| arr(c, "names")) else {
            continue;
        };
        if h.kind != holder_kind || !worker_paths(&h.field_path) {
            continue;
        }
        let Ok(Value::String(class)) = get_variable_value(&item.variables, var) else {
            continue;
        };
        for n in names.iter().filter_map(Value::as_str) {
            if n == "*" || n == class {
                return true;
            }
            if let Some(suffix) = n.strip_prefix('*')
                && class.ends_with(suffix)
            {
                return true;
            }
            if let Some(prefix) = n.strip_suffix('*')
                && class.starts_with(prefix)
            {
                return true;
            }
        }
    }
    false
}

/// `generateJSONPatches`: the RFC 6902 document for one definition.
/// The RFC 6902 document of one definition; an error comes with the index of its operation.
/// The values may add up to `item_left` bytes (compact JSON) for this template and `all_left`
/// for the whole patch; both are decremented. The index of each operation whose template
/// printed `<no value>` is added to `no_value`.
fn generate_json_patches(
    ops: &[Value],
    data: &Value,
    item_left: &mut u64,
    all_left: &mut u64,
    no_value: &mut Vec<usize>,
) -> Result<Value, (usize, String)> {
    let mut out = Vec::with_capacity(ops.len());
    for (k, op) in ops.iter().enumerate() {
        let name = op.get("op").and_then(Value::as_str).unwrap_or("");
        let mut o = Map::new();
        o.insert("op".into(), Value::String(name.into()));
        o.insert(
            "path".into(),
            Value::String(op.get("path").and_then(Value::as_str).unwrap_or("").into()),
        );
        if name == "add" || name == "replace" {
            let (value, printed_no_value) = calculate_value(op, data).map_err(|e| (k, e))?;
            if printed_no_value {
                no_value.push(k);
            }
            let left = (*item_left).min(*all_left);
            let Some(n) = super::jsonpatch::json_size_within(&value, left) else {
                let (limit, scope) = if *item_left <= *all_left {
                    (super::jsonpatch::MAX_PATCH_GROWTH, "for this template")
                } else {
                    (super::jsonpatch::MAX_OBJECT_GROWTH, "for all templates")
                };
                return Err((
                    k,
                    format!(
                        "failed to calculate value: the values of this patch's operations \
                         {scope} add up to more than {limit} bytes"
                    ),
                ));
            };
            *item_left -= n;
            *all_left -= n;
            o.insert("value".into(), value);
        }
        out.push(Value::Object(o));
    }
    Ok(Value::Array(out))
}

/// `calculateValue`; `data` is the object of merged variables. With the value, whether a
/// template printed `<no value>`.
fn calculate_value(op: &Value, data: &Value) -> Result<(Value, bool), String> {
    let empty = Map::new();
    let vars = data.as_object().unwrap_or(&empty);
    let value = op.get("value").filter(|v| !v.is_null());
    let from = op.get("valueFrom").filter(|v| !v.is_null());
    match (value, from) {
        (None, None) => {
            return Err("failed to calculate value: neither .value nor .valueFrom are set".into());
        }
        (Some(_), Some(_)) => {
            return Err("failed to calculate value: both .value and .valueFrom are set".into());
        }
        (Some(v), None) => return Ok((v.clone(), false)),
        (None, Some(_)) => {}
    }
    let from = from.unwrap_or(&Value::Null);
    let variable = from
        .get("variable")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let template = from
        .get("template")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    match (variable, template) {
        (None, None) => Err("failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set".into()),
        (Some(_), Some(_)) => Err("failed to calculate value: .valueFrom is set, but both .valueFrom.variable and .valueFrom.template are set".into()),
        (Some(v), None) => get_variable_value(vars, v)
            .map(|v| (v, false))
            .map_err(|e| format!("failed to calculate value: {e}")),
        (None, Some(t)) => capi::render_value_template(t, data)
            .map(|r| (r.value, r.no_value > 0))
            .map_err(|e| format!("failed to calculate value for template: {}", render_error_text(t, &e))),
    }
}

struct Segment<'s> {
    path: &'s str,
    index: Option<usize>,
}

fn parse_segment(seg: &str) -> Result<Segment<'_>, String> {
    let (l, r) = (seg.find('['), seg.find(']'));
    match (l, r) {
        (None, None) => Ok(Segment {
            path: seg,
            index: None,
        }),
        (Some(l), Some(r)) if l < r => {
            let idx = atoi(&seg[l + 1..r])
                .map_err(|e| format!("failed to parse array index in path segment {seg:?}: {e}"))?;
            if idx < 0 {
                return Err(format!("invalid array index {idx} in path segment {seg:?}"));
            }
            Ok(Segment {
                path: &seg[..l],
                index: usize::try_from(idx).ok(),
            })
        }
        // Go would panic slicing `]…[`; report it as unparsable.
        _ => Err(format!("failed to parse path segment {seg:?}")),
    }
}

fn fastjson_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn array_element(v: &Value, seg: &Segment<'_>, full: &str) -> Result<Value, String> {
    let Value::Array(a) = v else {
        return Err(format!(
            "variable {full:?} is invalid: failed to get array {:?}: value doesn't contain array; it contains {}",
            seg.path,
            fastjson_type(v)
        ));
    };
    let i = seg.index.unwrap_or(0);
    // Cluster API prints a pointer here (an address); the index is printed instead.
    a.get(i)
        .cloned()
        .ok_or_else(|| format!("variable {full:?} is invalid: array does not have index {i}"))
}

/// `GetVariableValue`: resolve `name[i].key[j]…` in the variables.
pub fn get_variable_value(vars: &Map<String, Value>, path: &str) -> Result<Value, String> {
    let mut split = path.split('.');
    let first = split.next().unwrap_or("");
    let rest: Vec<&str> = split.collect();
    let head = parse_segment(first).map_err(|e| format!("variable {path:?} is invalid: {e}"))?;
    let Some(value) = vars.get(head.path) else {
        return Err(format!("variable {first:?} does not exist"));
    };
    let mut cur = value.clone();
    if head.index.is_some() {
        cur = array_element(&cur, &head, path)?;
    }
    for p in rest {
        let seg =
            parse_segment(p).map_err(|e| format!("variable {path:?} has invalid syntax: {e}"))?;
        let next = match &cur {
            Value::Object(m) => m.get(seg.path).cloned(),
            // fastjson also reads decimal keys of arrays.
            Value::Array(a) => seg
                .path
                .parse::<usize>()
                .ok()
                .and_then(|i| a.get(i).cloned()),
            _ => None,
        };
        let Some(next) = next else {
            return Err(format!(
                "variable {path:?} does not exist: failed to lookup segment {:?}",
                seg.path
            ));
        };
        cur = next;
        if seg.index.is_some() {
            cur = array_element(&cur, &seg, path)?;
        }
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn vars() -> Map<String, Value> {
        json!({"a": {"b": [{"c": 1}, {"c": 2}]}, "list": ["x", "y"], "s": "str"})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn paths() {
        let v = vars();
        assert_eq!(get_variable_value(&v, "a.b[1].c"), Ok(json!(2)));
        assert_eq!(get_variable_value(&v, "list[0]"), Ok(json!("x")));
        assert_eq!(get_variable_value(&v, "list.1"), Ok(json!("y")));
        assert_eq!(
            get_variable_value(&v, "nope.x"),
            Err("variable \"nope\" does not exist".into())
        );
        assert_eq!(
            get_variable_value(&v, "a.x"),
            Err("variable \"a.x\" does not exist: failed to lookup segment \"x\"".into())
        );
        assert_eq!(
            get_variable_value(&v, "list[-1]"),
            Err("variable \"list[-1]\" is invalid: invalid array index -1 in path segment \"list[-1]\"".into())
        );
        assert_eq!(
            get_variable_value(&v, "s[0]"),
            Err("variable \"s[0]\" is invalid: failed to get array \"s\": value doesn't contain array; it contains string".into())
        );
        assert_eq!(
            get_variable_value(&v, "list[x"),
            Err("variable \"list[x\" is invalid: failed to parse path segment \"list[x\"".into())
        );
    }

    #[test]
    fn value_rules() {
        let v = vars();
        assert_eq!(
            calculate_value(&json!({"op": "add"}), &Value::Object(v.clone())),
            Err("failed to calculate value: neither .value nor .valueFrom are set".into())
        );
        assert_eq!(
            calculate_value(
                &json!({"valueFrom": {"template": "{{ .s }}"}}),
                &Value::Object(v.clone())
            ),
            Ok((json!("str"), false))
        );
        // A missing key prints `<no value>`, and says so.
        assert_eq!(
            calculate_value(
                &json!({"valueFrom": {"template": "/etc/{{ .nope }}/pki"}}),
                &Value::Object(v.clone())
            ),
            Ok((json!("/etc/<no value>/pki"), true))
        );
    }

    fn item(uid: &str, class: &str) -> RequestItem {
        RequestItem {
            uid: uid.into(),
            holder_ref: crate::patches::request::HolderRef {
                api_version: "cluster.x-k8s.io/v1beta2".into(),
                kind: "MachineDeployment".into(),
                namespace: "ns".into(),
                name: uid.into(),
                field_path: "spec.template.spec.infrastructureRef".into(),
            },
            holder: builtins::Holder::MachineDeployment {
                topology_name: uid.into(),
            },
            role: crate::topology::Role::MachineDeploymentInfrastructureTemplate(uid.into()),
            object: json!({"apiVersion": "infra/v1", "kind": "T", "spec": {}}),
            variables: json!({"builtin": {"machineDeployment": {"class": class}}})
                .as_object()
                .cloned()
                .unwrap_or_default(),
            grown: 0,
        }
    }

    fn patch(names: Value, enabled_if: &str, path: &str) -> Value {
        json!({"name": "p", "enabledIf": enabled_if, "definitions": [{
            "selector": {"apiVersion": "infra/v1", "kind": "T",
                         "matchResources": {"machineDeploymentClass": {"names": names}}},
            "jsonPatches": [{"op": "add", "path": path, "valueFrom": {"variable": "missing"}}]}]})
    }

    #[test]
    fn selectors_wildcards_and_aggregated_errors() {
        let req = Request {
            variables: Map::new(),
            items: vec![
                item("a", "linux-small"),
                item("b", "linux-large"),
                item("c", "win"),
            ],
        };
        // Both matching items fail with the same message: reported once, without brackets.
        let p = patch(json!(["linux-*"]), "", "/spec/x");
        assert_eq!(
            InlineGenerator::new(&p).patches(&req),
            Err("failed to generate JSON patches for \"T\": failed to calculate value: variable \"missing\" does not exist".into())
        );
        let p = patch(json!(["*-large"]), "{{ if true }}yes{{ end }}", "/spec/x");
        let g = InlineGenerator::new(&p);
        assert!(g.patches(&req).is_err());
        assert_eq!(
            g.skipped
                .borrow()
                .iter()
                .map(|(u, _)| u.as_str())
                .collect::<Vec<_>>(),
            ["a", "c"]
        );
        // A broken enabledIf is an error of its own.
        let p = json!({"name": "p", "enabledIf": "{{ .nope.x }}", "definitions": [{
            "selector": {"apiVersion": "infra/v1", "kind": "T",
                         "matchResources": {"machineDeploymentClass": {"names": ["win"]}}},
            "jsonPatches": []}]});
        let mut r2 = req.clone();
        r2.variables.insert("nope".into(), Value::Null);
        let e = InlineGenerator::new(&p).patches(&r2);
        assert!(
            matches!(&e, Err(m) if m.starts_with("failed to calculate if patch is enabled for \"T\": failed to calculate value for enabledIf: failed to render template: ")),
            "{e:?}"
        );
    }

    #[test]
    fn builtin_merges_by_field() {
        let g = json!({"builtin": {"cluster": {"name": "c"}}, "x": 1});
        let i = json!({"builtin": {"controlPlane": {"replicas": 3}}, "x": 2});
        let m = merge_variables(
            g.as_object().unwrap_or(&Map::new()),
            i.as_object().unwrap_or(&Map::new()),
        );
        assert_eq!(
            Value::Object(m),
            json!({"builtin": {"cluster": {"name": "c"}, "controlPlane": {"replicas": 3}}, "x": 2})
        );
    }
}
