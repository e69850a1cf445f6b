/*!
ClusterClass variables: definitions, the `status.variables` view, Cluster values with their
defaulting and validation, and the builtin variables each template holder sees.
*/

pub mod builtins;
pub mod definitions;
pub mod ip_family;
pub mod status;
pub mod values;

/// Random variable schemas and values never make definitions or values panic.
#[cfg(test)]
mod proptests {
    use proptest::prelude::*;
    use serde_json::json;

    use crate::k8s::field::Path;
    use crate::schema::proptests::{json_value, schema_json};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn nothing_panics(raw in schema_json(), value in json_value(), old in json_value()) {
            let vars = vec![json!({"name": "v", "schema": {"openAPIV3Schema": raw}})];
            let _ = super::definitions::validate_cluster_class_variables(&vars, &vars, &Path::new("spec").child("variables"));
            let status = super::definitions::StatusVariables::from_inline(&vars);
            let mut spec = json!({"topology": {"variables": [{"name": "v", "value": value}, {"name": "w", "value": 1}],
                "workers": {"machineDeployments": [{"name": "m", "variables": {"overrides": [{"name": "v", "value": old}]}}]}}});
            let old_spec = spec.clone();
            let _ = super::values::default_and_validate(&mut spec, &status, Some(&old_spec));
        }
    }
}
