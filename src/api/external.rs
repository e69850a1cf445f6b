/*!
External patches of a ClusterClass (`spec.patches[].external`), read as Cluster API reads them:
the handler each hook names, the extension a handler belongs to, and the settings passed along
with every request.

Shared by admission (which discovers variables through them), the patch engine (which calls
them) and the extension registry (which checks they were given); none of those owns them.
*/

use std::collections::BTreeMap;

use serde_json::Value;

/// One patch's `external` block.
#[derive(Debug, Clone, Copy)]
pub struct ExternalPatch<'p> {
    /// The whole patch (`{name, external: {...}}`).
    patch: &'p Value,
}

impl<'p> ExternalPatch<'p> {
    /// The patch, when it is external.
    pub fn of(patch: &'p Value) -> Option<ExternalPatch<'p>> {
        patch
            .get("external")
            .filter(|e| e.is_object())
            .map(|_| ExternalPatch { patch })
    }

    /// The handler named for a hook field (`generatePatchesExtension`, …), when set.
    pub fn handler(&self, field: &str) -> Option<&'p str> {
        handler(self.patch, field)
    }

    /// `external.settings`: the string values, sent with every request.
    pub fn settings(&self) -> BTreeMap<String, String> {
        settings(self.patch)
    }
}

/// The handler a patch names for a hook field (`generatePatchesExtension`, …), when set.
pub fn handler<'p>(patch: &'p Value, field: &str) -> Option<&'p str> {
    patch
        .get("external")
        .and_then(|e| e.get(field))
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The extension (ExtensionConfig) name of a handler name `<handler>.<extension>`.
pub fn extension_of(handler: &str) -> &str {
    handler.split_once('.').map_or(handler, |(_, e)| e)
}

/// The v1beta1 (Cluster API v1.10) spelling of an external-patch field.
pub fn v1beta1_field(field: &str) -> &str {
    match field {
        "generatePatchesExtension" => "generateExtension",
        "validateTopologyExtension" => "validateExtension",
        other => other,
    }
}

/// `external.settings` of a patch: its string values (others are not settings).
pub fn settings(patch: &Value) -> BTreeMap<String, String> {
    patch
        .pointer("/external/settings")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn handlers_extensions_and_settings() {
        let p = json!({"name": "p", "external": {"generatePatchesExtension": "gen.ext", "settings": {"a": "1", "b": 2}}});
        let e = ExternalPatch::of(&p).unwrap();
        assert_eq!(e.handler("generatePatchesExtension"), Some("gen.ext"));
        assert_eq!(e.handler("validateTopologyExtension"), None);
        assert_eq!(extension_of("gen.ext"), "ext");
        assert_eq!(extension_of("plain"), "plain");
        assert_eq!(
            e.settings(),
            BTreeMap::from([("a".to_string(), "1".to_string())])
        );
        assert!(ExternalPatch::of(&json!({"name": "inline"})).is_none());
        assert_eq!(
            v1beta1_field("generatePatchesExtension"),
            "generateExtension"
        );
    }
}
