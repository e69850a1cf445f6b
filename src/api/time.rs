//! `metav1.Time` values (`rollout.after`): parsed as RFC 3339 like Kubernetes decodes them and
//! written back as Kubernetes encodes them — in UTC, to the second (`2030-01-01T10:00:00Z`).

use serde_json::Value;

/// Normalise a `metav1.Time` JSON value; the error says what was expected.
pub fn normalize(v: &Value) -> Result<Value, String> {
    let Some(s) = v.as_str() else {
        return Err(format!("expected an RFC 3339 time string, found {v}"));
    };
    let ts: jiff::Timestamp = s
        .parse()
        .map_err(|e| format!("{s:?} is not an RFC 3339 time: {e}"))?;
    Ok(Value::String(ts.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn utc_whole_seconds() {
        assert_eq!(
            normalize(&json!("2030-01-01T12:00:00+02:00")),
            Ok(json!("2030-01-01T10:00:00Z"))
        );
        assert_eq!(
            normalize(&json!("2030-01-01T12:00:00.5Z")),
            Ok(json!("2030-01-01T12:00:00Z"))
        );
        assert_eq!(
            normalize(&json!("2029-12-31T23:30:00-01:00")),
            Ok(json!("2030-01-01T00:30:00Z"))
        );
        assert!(normalize(&json!("tomorrow")).is_err());
        assert!(normalize(&json!(5)).is_err());
    }
}
