/*!
JSON values as CEL sees them (`UnstructuredToVal`): typed by the node's [`Decl`].

Integers stay `int` unless the schema says `number` (then `double`); a `number` value written
without a fraction is still a double there, as the API server converts it. Strings with format
`date-time`/`date` become timestamps, `duration` durations and `byte` bytes (a value that does not
parse stays a string, so the rule sees what the user wrote). Objects with properties are maps keyed
by the CEL-escaped property names; additionalProperties maps keep their keys as written.
*/

use std::collections::HashMap;
use std::sync::Arc;

use kube_cel::cel::Value as Cel;
use kube_cel::cel::objects::{Key, Map};
use serde_json::Value;

use super::types::{Decl, Kind, escape};

/// `value` as a CEL value of type `decl` (`None`: as dynamic JSON).
pub(crate) fn to_cel(value: &Value, decl: Option<&Decl>) -> Cel {
    let kind = decl.map(|d| &d.kind);
    match value {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => {
            if kind == Some(&Kind::Double) {
                return Cel::Float(n.as_f64().unwrap_or(0.0));
            }
            match n.as_i64() {
                Some(i) => Cel::Int(i),
                None => Cel::Float(n.as_f64().unwrap_or(0.0)),
            }
        }
        Value::String(s) => string_value(s, kind),
        Value::Array(items) => {
            let elem = decl.and_then(Decl::elem);
            Cel::List(Arc::new(items.iter().map(|v| to_cel(v, elem)).collect()))
        }
        Value::Object(obj) => {
            let mut map: HashMap<Key, Cel> = HashMap::with_capacity(obj.len());
            match kind {
                Some(Kind::Object(fields)) => {
                    for (k, v) in obj {
                        let name = escape(k).unwrap_or_else(|| k.clone());
                        let field = fields.get(&name);
                        let value = to_cel(v, field);
                        // A keyword property is selected by its own name too (Kubernetes 1.32).
                        if let Some(plain) = super::types::keyword_field(k) {
                            map.insert(Key::String(Arc::new(plain.to_string())), value.clone());
                        }
                        map.insert(Key::String(Arc::new(name)), value);
                    }
                }
                Some(Kind::Map(elem)) => {
                    for (k, v) in obj {
                        map.insert(Key::String(Arc::new(k.clone())), to_cel(v, Some(elem)));
                    }
                }
                _ => {
                    for (k, v) in obj {
                        map.insert(Key::String(Arc::new(k.clone())), to_cel(v, None));
                    }
                }
            }
            Cel::Map(Map { map: Arc::new(map) })
        }
    }
}

fn string_value(s: &str, kind: Option<&Kind>) -> Cel {
    let plain = || Cel::String(Arc::new(s.to_string()));
    match kind {
        Some(Kind::Timestamp) => parse_timestamp(s).map_or_else(plain, Cel::Timestamp),
        Some(Kind::Duration) => parse_go_duration(s).map_or_else(plain, Cel::Duration),
        Some(Kind::Bytes) => crate::go::base64::decode(s.as_bytes())
            .map_or_else(|_| plain(), |b| Cel::Bytes(Arc::new(b))),
        _ => plain(),
    }
}

/// An RFC 3339 date-time, or a full date (midnight UTC).
fn parse_timestamp(s: &str) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t);
    }
    let d = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    let t = d.and_hms_opt(0, 0, 0)?;
    Some(t.and_utc().fixed_offset())
}

/// Go's `time.ParseDuration`, as a chrono duration.
pub(crate) fn parse_go_duration(input: &str) -> Option<chrono::Duration> {
    crate::go::time::parse_duration(input)
        .ok()
        .map(chrono::Duration::nanoseconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::cel::types::decl_of;
    use serde_json::json;

    fn key(s: &str) -> Key {
        Key::String(Arc::new(s.to_string()))
    }

    #[test]
    fn numbers_follow_the_schema() {
        let int = decl_of(&json!({"type": "integer"}));
        let num = decl_of(&json!({"type": "number"}));
        assert_eq!(to_cel(&json!(3), int.as_ref()), Cel::Int(3));
        assert_eq!(to_cel(&json!(3), num.as_ref()), Cel::Float(3.0));
        assert_eq!(to_cel(&json!(3.5), None), Cel::Float(3.5));
        assert_eq!(to_cel(&json!(3), None), Cel::Int(3));
    }

    #[test]
    fn objects_use_escaped_names_and_formats_convert() {
        let s = json!({"type": "object", "properties": {
            "a-b": {"type": "string", "format": "duration"},
            "t": {"type": "string", "format": "date-time"},
            "d": {"type": "string", "format": "byte"},
            "m": {"type": "object", "additionalProperties": {"type": "number"}}}});
        let d = decl_of(&s);
        let v = to_cel(
            &json!({"a-b": "1m30s", "t": "2024-01-02T03:04:05Z", "d": "aGk=", "m": {"x-y": 1}}),
            d.as_ref(),
        );
        let Cel::Map(m) = v else { panic!() };
        assert_eq!(
            m.map.get(&key("a__dash__b")),
            Some(&Cel::Duration(chrono::Duration::seconds(90)))
        );
        assert!(matches!(m.map.get(&key("t")), Some(Cel::Timestamp(_))));
        assert_eq!(
            m.map.get(&key("d")),
            Some(&Cel::Bytes(Arc::new(b"hi".to_vec())))
        );
        let Some(Cel::Map(inner)) = m.map.get(&key("m")) else {
            panic!()
        };
        assert_eq!(inner.map.get(&key("x-y")), Some(&Cel::Float(1.0)));
    }

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("1h"), Some(chrono::Duration::hours(1)));
        assert_eq!(
            parse_go_duration("-1.5s"),
            Some(chrono::Duration::milliseconds(-1500))
        );
        assert_eq!(parse_go_duration("0"), Some(chrono::Duration::zero()));
        assert_eq!(parse_go_duration("1"), None);
        assert_eq!(parse_go_duration(""), None);
        assert_eq!(parse_go_duration("1x"), None);
    }
}
