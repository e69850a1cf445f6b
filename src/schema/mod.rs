/*!
Variable schemas: the Kubernetes structural OpenAPI v3 subset Cluster API accepts for
ClusterClass variables.

Owns reading a variable schema ([`props`]), checking that it is well formed ([`structural`]),
validating values against it ([`value`], [`formats`]), defaulting ([`default`]), unknown-field
detection ([`prune`]), evaluating its CEL rules ([`cel`]), and the Kubernetes field-error shape
every message takes ([`field`]). Knows nothing of ClusterClasses or Clusters:
[`crate::variables`] and [`crate::validate`] call in with values and paths.
*/

pub mod cel;
pub mod default;
pub mod formats;
pub mod props;
pub mod prune;
pub mod structural;
pub mod value;

pub use cel::{PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};

/// Random schemas and values never make any stage panic.
#[cfg(test)]
pub(crate) mod proptests {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    use super::props::Schema;
    use crate::k8s::field::Path;

    pub(crate) fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "[a-z0-9.:@/ -]{0,12}".prop_map(Value::String),
            Just(json!("1.2.3.4")),
            Just(json!("2024-01-02T15:04:05Z")),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::btree_map("[a-c]", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
            ]
        })
    }

    fn keyword() -> impl Strategy<Value = (String, Value)> {
        let types = prop_oneof![
            Just("string"),
            Just("integer"),
            Just("number"),
            Just("boolean"),
            Just("object"),
            Just("array"),
            Just("bogus")
        ];
        prop_oneof![
            types.prop_map(|t| ("type".to_string(), json!(t))),
            (0i64..5).prop_map(|n| ("maxLength".to_string(), json!(n))),
            (0i64..5).prop_map(|n| ("minItems".to_string(), json!(n))),
            (0i64..5).prop_map(|n| ("maxProperties".to_string(), json!(n))),
            (-5i64..5).prop_map(|n| ("maximum".to_string(), json!(n))),
            (-5i64..5).prop_map(|n| ("minimum".to_string(), json!(n))),
            any::<bool>().prop_map(|b| ("exclusiveMaximum".to_string(), json!(b))),
            any::<bool>().prop_map(|b| ("uniqueItems".to_string(), json!(b))),
            any::<bool>().prop_map(|b| ("x-kubernetes-int-or-string".to_string(), json!(b))),
            any::<bool>()
                .prop_map(|b| ("x-kubernetes-preserve-unknown-fields".to_string(), json!(b))),
            prop_oneof![Just("^a"), Just("("), Just("[0-9]+"), Just("\\d")]
                .prop_map(|p| ("pattern".to_string(), json!(p))),
            prop_oneof![
                Just("uri"),
                Just("email"),
                Just("int32"),
                Just("date-time"),
                Just("x")
            ]
            .prop_map(|f| ("format".to_string(), json!(f))),
            prop::collection::vec(json_value(), 0..3)
                .prop_map(|v| ("enum".to_string(), Value::Array(v))),
            json_value().prop_map(|v| ("default".to_string(), v)),
            json_value().prop_map(|v| ("example".to_string(), v)),
            Just(("required".to_string(), json!(["a", "b"]))),
            Just((
                "x-kubernetes-validations".to_string(),
                json!([{"rule": "self", "fieldPath": ".a"}])
            )),
            json_value().prop_map(|v| ("x-metadata".to_string(), v)),
            json_value().prop_map(|v| ("maxItems".to_string(), v)),
        ]
    }

    pub(crate) fn schema_json() -> impl Strategy<Value = Value> {
        let leaf = prop::collection::vec(keyword(), 0..5)
            .prop_map(|kws| Value::Object(kws.into_iter().collect::<Map<_, _>>()));
        leaf.prop_recursive(3, 24, 4, |inner| {
            (
                prop::collection::vec(keyword(), 0..4),
                prop::collection::btree_map("[a-c]|metadata", inner.clone(), 0..3),
                prop::option::of(inner.clone()),
                prop::option::of(inner.clone()),
                prop::collection::vec(inner.clone(), 0..3),
                prop::collection::vec(inner, 0..2),
            )
                .prop_map(|(kws, props, items, ap, any_of, all_of)| {
                    let mut m: Map<String, Value> = kws.into_iter().collect();
                    if !props.is_empty() {
                        m.insert(
                            "properties".into(),
                            Value::Object(props.into_iter().collect()),
                        );
                    }
                    if let Some(i) = items {
                        m.insert("items".into(), i);
                    }
                    if let Some(a) = ap {
                        m.insert("additionalProperties".into(), a);
                    }
                    if !any_of.is_empty() {
                        m.insert("anyOf".into(), Value::Array(any_of));
                    }
                    if !all_of.is_empty() {
                        m.insert("allOf".into(), Value::Array(all_of));
                    }
                    Value::Object(m)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn nothing_panics(raw in schema_json(), value in json_value()) {
            let p = Path::new("spec").child("variables").key("v").child("schema").child("openAPIV3Schema");
            if let Ok(s) = Schema::parse(&raw, &p) {
                let _ = super::value::validate(&s, &value, super::value::Mode::CustomResource);
                let _ = super::value::validate(&s, &value, super::value::Mode::Structural);
                let _ = super::default::apply(Some(value.clone()), &s);
                let _ = super::prune::unknown_fields(&value, &s);
                let _ = super::structural::validate_structural(&s, &p);
                let _ = super::structural::validate_schema(&s, &raw, &p, Some(&raw));
                let _ = super::default::validate_defaults(&s, &raw, &p);
            }
        }

        #[test]
        fn formats_never_panic(s in "\\PC{0,24}", f in prop_oneof![Just("uri"), Just("email"), Just("hostname"),
                Just("ipv4"), Just("ipv6"), Just("cidr"), Just("mac"), Just("date"), Just("date-time"),
                Just("duration"), Just("isbn"), Just("creditcard"), Just("byte")]) {
            let _ = super::formats::validates(f, &s);
        }
    }
}
