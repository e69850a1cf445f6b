/*!
Cluster API's contract accessors over unstructured objects (`internal/contract`: `String.Get`,
`Int64.Get`, on top of apimachinery's `unstructured.NestedFieldNoCopy`), with their error texts,
so that a malformed provider object produces Cluster API's message rather than a panic or a
silent default. Read by the version inputs ([`super::versions`]) and the builtin variables of
the control plane (`crate::variables::builtins`).
*/

use serde_json::Value;

/// `.a.b.c`.
pub(crate) fn json_path(path: &[&str]) -> String {
    format!(".{}", path.join("."))
}

/// `%v` of such a value (close enough for scalars; containers print as JSON).
pub(crate) fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `unstructured.NestedFieldNoCopy`: `Ok(None)` when absent (or an intermediate is null),
/// `Ok(Some(Null))` when the leaf itself is null.
pub(crate) fn nested<'v>(obj: &'v Value, path: &[&str]) -> Result<Option<&'v Value>, String> {
    let mut val = obj;
    for (i, field) in path.iter().enumerate() {
        match val {
            Value::Null => return Ok(None),
            Value::Object(m) => match m.get(*field) {
                Some(v) => val = v,
                None => return Ok(None),
            },
            other => {
                return Err(format!(
                    "{} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                    json_path(&path[..=i]),
                    go_value(other),
                    go_type(other)
                ));
            }
        }
    }
    Ok(Some(val))
}

/// A contract accessor's failure: the field is absent (`ErrFieldNotFound`) or malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GetError {
    NotFound(String),
    Other(String),
}

impl std::fmt::Display for GetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GetError::NotFound(m) | GetError::Other(m) => f.write_str(m),
        }
    }
}

/// `contract.String.Get`.
pub(crate) fn get_string<'v>(obj: &'v Value, path: &[&str]) -> Result<&'v str, GetError> {
    let p = json_path(path);
    match nested(obj, path) {
        Err(e) => Err(GetError::Other(format!(
            "failed to get {p} from object: {e}"
        ))),
        Ok(None) => Err(GetError::NotFound(format!("path {p}: field not found"))),
        Ok(Some(Value::String(s))) => Ok(s),
        Ok(Some(other)) => Err(GetError::Other(format!(
            "failed to get {p} from object: {p} accessor error: {} is of the type {}, expected string",
            go_value(other),
            go_type(other)
        ))),
    }
}

/// `%T` of a value decoded into `interface{}`.
pub(crate) fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `contract.Int64.Get` (and `Int32.Get`) before the conversion.
pub(crate) fn get_int(obj: &Value, path: &[&str]) -> Result<i64, GetError> {
    let p = json_path(path);
    match nested(obj, path) {
        Err(e) => Err(GetError::Other(format!(
            "failed to get {p} from object: {e}"
        ))),
        Ok(None) => Err(GetError::NotFound(format!("path {p}: field not found"))),
        Ok(Some(found)) => found.as_i64().ok_or_else(|| {
            GetError::Other(format!(
                "failed to get {p} from object: {p} accessor error: {} is of the type {}, expected int64",
                go_value(found),
                go_type(found)
            ))
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_and_ints_read_as_cluster_api_reads_them() {
        let cp = json!({"spec": {"version": "v1.31.0", "replicas": 3, "x": "y"}});
        assert_eq!(get_string(&cp, &["spec", "version"]), Ok("v1.31.0"));
        assert_eq!(get_int(&cp, &["spec", "replicas"]), Ok(3));
        assert_eq!(
            get_string(&cp, &["spec", "missing"]),
            Err(GetError::NotFound(
                "path .spec.missing: field not found".into()
            ))
        );
        assert_eq!(
            get_int(&cp, &["spec", "version"]).map_err(|e| e.to_string()),
            Err("failed to get .spec.version from object: .spec.version accessor error: v1.31.0 is of the type string, expected int64".into())
        );
        assert_eq!(
            get_string(&cp, &["spec", "replicas"]).map_err(|e| e.to_string()),
            Err("failed to get .spec.replicas from object: .spec.replicas accessor error: 3 is of the type int64, expected string".into())
        );
    }

    #[test]
    fn a_field_under_a_scalar_is_an_accessor_error_not_a_missing_field() {
        // apimachinery's NestedFieldNoCopy: an intermediate that is no map is an error, named
        // by the path up to the field it could not look up (`jsonPath(fields[:i+1])`).
        let cp = json!({"spec": "flat"});
        assert_eq!(
            get_string(&cp, &["spec", "version"]).map_err(|e| e.to_string()),
            Err("failed to get .spec.version from object: .spec.version accessor error: flat is of the type string, expected map[string]interface{}".into())
        );
        // A null intermediate reads as absent.
        let cp = json!({"spec": null});
        assert!(matches!(
            get_int(&cp, &["spec", "replicas"]),
            Err(GetError::NotFound(_))
        ));
    }
}
