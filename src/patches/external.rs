/*!
External patches: a ClusterClass patch served by a Runtime extension
(`spec.patches[].external`), as Cluster API's `externalPatchGenerator` and `externalValidator`
call it (`core/reconcilers/topology/cluster/patches/external/`).

Owns the translation between the engine's [`Request`] and the Runtime SDK wire types: variables
as `{name, value}` lists in Cluster API's order (the Cluster's own order, `builtin` last), the
patch's `settings` on every request, and the response items decoded as the engine will apply
them. Undecodable patch bytes are not an error here: Cluster API only notices them when it
applies the item, after the items before it, so [`Generated::decode`] is called by the engine in
that order.

The HTTP client, discovery, timeouts and `failurePolicy` belong to `crate::runtime`.
*/

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::generator::{Answer, Failure, PatchGenerator, PatchType, ResponseItem};
use super::request::Request;
use crate::api::external::settings;
use crate::go::json::syntax_error as json_syntax_error;
use crate::runtime::{
    GeneratePatchesRequest, GeneratePatchesRequestItem, GeneratePatchesResponseItem,
    HolderReference, Registry, ValidateTopologyRequest, ValidateTopologyRequestItem, Variable,
};
use crate::variables::builtins;

/// `vars` as a wire list: the names in the order `order` (a `[{name, value}]` list of the
/// Cluster) gives them, any others by name, and `builtin` last, as Cluster API appends it.
fn wire_variables(vars: &Map<String, Value>, order: Option<&Value>) -> Vec<Variable> {
    let mut out: Vec<Variable> = Vec::with_capacity(vars.len());
    let mut taken: Vec<&str> = Vec::new();
    for name in order
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(|v| v.get("name").and_then(Value::as_str))
    {
        if name == builtins::BUILTIN || taken.contains(&name) {
            continue;
        }
        if let Some(value) = vars.get(name) {
            taken.push(name);
            out.push(Variable {
                name: name.to_string(),
                value: value.clone(),
            });
        }
    }
    for (name, value) in vars {
        if name != builtins::BUILTIN && !taken.contains(&name.as_str()) {
            out.push(Variable {
                name: name.clone(),
                value: value.clone(),
            });
        }
    }
    if let Some(b) = vars.get(builtins::BUILTIN) {
        out.push(Variable {
            name: builtins::BUILTIN.to_string(),
            value: b.clone(),
        });
    }
    out
}

fn holder(item: &super::request::RequestItem) -> HolderReference {
    HolderReference {
        api_version: item.holder_ref.api_version.clone(),
        kind: item.holder_ref.kind.clone(),
        namespace: item.holder_ref.namespace.clone(),
        name: item.holder_ref.name.clone(),
        field_path: item.holder_ref.field_path.clone(),
    }
}

/// Where a request's variables come from in the Cluster, for their wire order.
#[derive(Debug, Clone, Default)]
pub struct VariableOrder<'c> {
    /// The Cluster's `[{name, value}]` list the global variables come from.
    pub global: Option<&'c Value>,
    /// Per request item, the list its variables come from (its overrides).
    pub items: Vec<Option<&'c Value>>,
}

impl VariableOrder<'_> {
    fn item(&self, index: usize) -> Option<&Value> {
        self.items.get(index).copied().flatten()
    }
}

/// The GeneratePatches request for `req`, with the patch's settings.
pub fn generate_request(
    req: &Request,
    settings: BTreeMap<String, String>,
    order: &VariableOrder<'_>,
) -> GeneratePatchesRequest {
    GeneratePatchesRequest {
        settings,
        variables: wire_variables(&req.variables, order.global),
        items: req
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| GeneratePatchesRequestItem {
                uid: item.uid.clone(),
                holder_reference: holder(item),
                object: item.object.clone(),
                variables: wire_variables(&item.variables, order.item(i)),
            })
            .collect(),
        ..GeneratePatchesRequest::default()
    }
}

/// `convertToValidationRequest`: the request as the last patch left it (its variables included),
/// without uids.
pub fn validation_request(
    req: &Request,
    settings: BTreeMap<String, String>,
    order: &VariableOrder<'_>,
) -> ValidateTopologyRequest {
    ValidateTopologyRequest {
        settings,
        variables: wire_variables(&req.variables, order.global),
        items: req
            .items
            .iter()
            .enumerate()
            .map(|(i, item)| ValidateTopologyRequestItem {
                holder_reference: holder(item),
                object: item.object.clone(),
                variables: wire_variables(&item.variables, order.item(i)),
            })
            .collect(),
        ..ValidateTopologyRequest::default()
    }
}

/// One item of a GeneratePatches response, not yet decoded.
#[derive(Debug, Clone)]
pub struct Generated(pub GeneratePatchesResponseItem);

impl Generated {
    /// The item's uid.
    pub fn uid(&self) -> &str {
        &self.0.uid
    }

    /// The patch as the engine applies it, or `Ok(None)` when Cluster API would skip it (an
    /// empty merge patch). Errors are worded as `applyPatchToRequest` words them.
    pub fn decode(&self) -> Result<Option<ResponseItem>, String> {
        let bytes = &self.0.patch;
        // Counted before it is decoded: within the answer's byte bound, a patch of millions of
        // `{}` would take gigabytes as values.
        let max = crate::runtime::types::MAX_PATCH_VALUES;
        if !crate::runtime::types::json_values_within(bytes, max) {
            return Err(format!(
                "failed to apply patch: the patch holds more than {max} JSON values, the most topoplan accepts"
            ));
        }
        let (patch_type, patch) = match self.0.patch_type.0.as_str() {
            "JSONPatch" => {
                if let Some(e) = json_syntax_error(bytes) {
                    return Err(format!(
                        "failed to apply patch: error decoding json patch (RFC6902): {e}"
                    ));
                }
                let v: Value = serde_json::from_slice(bytes).map_err(|e| {
                    format!("failed to apply patch: error decoding json patch (RFC6902): {e}")
                })?;
                (PatchType::JsonPatch, v)
            }
            "JSONMergePatch" => {
                if bytes.is_empty() || bytes.as_slice() == b"{}" {
                    return Ok(None);
                }
                // evanphx's MergePatch reports any undecodable patch as this one error.
                let v: Value = match json_syntax_error(bytes) {
                    Some(_) => None,
                    None => serde_json::from_slice(bytes).ok(),
                }
                .ok_or_else(|| {
                    "failed to apply patch: error applying json merge patch (RFC7386): Invalid JSON Patch"
                        .to_string()
                })?;
                (PatchType::JsonMergePatch, v)
            }
            // Cluster API has no case for other types: it goes on with no patched object, which
            // cannot be decoded.
            _ => {
                return Err("failed to apply patch to template: failed to convert patched object to Unstructured: unexpected end of JSON input".into());
            }
        };
        Ok(Some(ResponseItem {
            uid: self.0.uid.clone(),
            patch_type,
            patch,
        }))
    }
}

/// An external patch as a generator: Cluster API's `externalPatchGenerator`.
pub struct ExternalGenerator<'a> {
    /// The extensions to call.
    pub registry: &'a Registry,
    /// The GeneratePatches handler the patch names.
    pub handler: &'a str,
    /// The patch (its `external.settings` go with every request).
    pub patch: &'a Value,
    /// Where the request's variables come from, for their wire order.
    pub order: &'a VariableOrder<'a>,
}

impl PatchGenerator for ExternalGenerator<'_> {
    fn generate(&self, req: &Request) -> Result<Vec<Box<dyn Answer>>, Failure> {
        let request = generate_request(req, settings(self.patch), self.order);
        self.registry
            .generate_patches(self.handler, request)
            .map(|r| {
                r.items
                    .into_iter()
                    .map(|g| Box::new(Generated(g)) as Box<dyn Answer>)
                    .collect()
            })
            .map_err(Failure::from)
    }

    fn nothing_generated(&self) -> &'static str {
        "the extension answered no patch for it"
    }
}

impl Answer for Generated {
    fn uid(&self) -> &str {
        Generated::uid(self)
    }

    fn decode(&self) -> Result<Option<ResponseItem>, String> {
        Generated::decode(self)
    }
}

/// Call the GeneratePatches handler `handler` (Cluster API's `externalPatchGenerator.Generate`).
pub fn generate(
    registry: &Registry,
    handler: &str,
    patch: &Value,
    req: &Request,
    order: &VariableOrder<'_>,
) -> Result<Vec<Generated>, String> {
    let request = generate_request(req, settings(patch), order);
    registry
        .generate_patches(handler, request)
        .map(|r| r.items.into_iter().map(Generated).collect())
        .map_err(|e| e.to_string())
}

/// Call the ValidateTopology handler `handler` (`externalValidator.Validate`).
pub fn validate(
    registry: &Registry,
    handler: &str,
    patch: &Value,
    req: &Request,
    order: &VariableOrder<'_>,
) -> Result<(), String> {
    validate_call(registry, handler, patch, req, order).map_err(|f| f.message)
}

/// [`validate`], keeping the code of a recording's failure.
pub fn validate_call(
    registry: &Registry,
    handler: &str,
    patch: &Value,
    req: &Request,
    order: &VariableOrder<'_>,
) -> Result<(), Failure> {
    let request = validation_request(req, settings(patch), order);
    registry
        .validate_topology(handler, request)
        .map(|_| ())
        .map_err(Failure::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(patch_type: &str, patch: &[u8]) -> Generated {
        Generated(GeneratePatchesResponseItem {
            uid: "u".into(),
            patch_type: crate::runtime::PatchType(patch_type.into()),
            patch: patch.to_vec(),
        })
    }

    #[test]
    fn decodes_as_cluster_api_applies() {
        let ok = item("JSONPatch", br#"[{"op":"add","path":"/spec/x","value":1}]"#)
            .decode()
            .expect("decodes")
            .expect("a patch");
        assert_eq!(ok.patch_type, PatchType::JsonPatch);
        assert_eq!(
            ok.patch,
            json!([{"op": "add", "path": "/spec/x", "value": 1}])
        );
        assert_eq!(
            item("JSONPatch", b"[{").decode().err().as_deref(),
            Some(
                "failed to apply patch: error decoding json patch (RFC6902): unexpected end of JSON input"
            )
        );
        assert_eq!(
            item("JSONPatch", b"nope").decode().err().as_deref(),
            Some(
                "failed to apply patch: error decoding json patch (RFC6902): invalid character 'o' in literal null (expecting 'u')"
            )
        );
        assert!(matches!(item("JSONMergePatch", b"{}").decode(), Ok(None)));
        assert!(matches!(item("JSONMergePatch", b"").decode(), Ok(None)));
        assert_eq!(
            item("JSONMergePatch", b"{x").decode().err().as_deref(),
            Some(
                "failed to apply patch: error applying json merge patch (RFC7386): Invalid JSON Patch"
            )
        );
        assert!(item("Strategic", b"{}").decode().is_err());
    }

    #[test]
    fn variables_keep_the_cluster_order_with_builtin_last() {
        let mut vars = Map::new();
        vars.insert("builtin".into(), json!({"cluster": {"name": "c"}}));
        vars.insert("a".into(), json!(1));
        vars.insert("z".into(), json!(2));
        vars.insert("m".into(), json!(3));
        let order = json!([{"name": "z"}, {"name": "a"}, {"name": "builtin"}]);
        let names: Vec<String> = wire_variables(&vars, Some(&order))
            .into_iter()
            .map(|v| v.name)
            .collect();
        assert_eq!(names, ["z", "a", "m", "builtin"]);
    }
}
