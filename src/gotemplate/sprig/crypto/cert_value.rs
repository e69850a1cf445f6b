/*!
The template value of a certificate: Sprig's `certificate` struct `{Cert, Key}`, built and read.
*/

use std::collections::BTreeMap;

use crate::gotemplate::value::{GoType, Map, Value};

/// Sprig's `certificate` struct `{Cert, Key string}` as a template value.
///
/// Interim: a `map[string]interface{}` with `Cert` and `Key`, so `.Cert`/`.Key` work. Go's type
/// is the struct `sprig.certificate` (`%T`; `%v` prints `{CERT KEY}`; `genSignedCert` refuses
/// a map with `wrong type for value; expected sprig.certificate; got map[string]interface {}`),
/// which needs a value-model variant (see the report of this work).
pub fn certificate_value(cert: String, key: String) -> Value {
    let mut entries = BTreeMap::new();
    entries.insert("Cert".to_string(), Value::str(cert));
    entries.insert("Key".to_string(), Value::str(key));
    Value::dict(entries)
}

/// The `Cert` and `Key` of a certificate value (interim: a map with string fields).
pub fn certificate_of(v: &Value) -> Result<(String, String), String> {
    let wrong = || {
        format!(
            "wrong type for value; expected sprig.certificate; got {}",
            v.go_type()
                .map_or_else(|| "<nil>".to_string(), |t| t.name())
        )
    };
    let Value::Map(m) = v else {
        return Err(wrong());
    };
    let field = |m: &Map, k: &str| match m.entries.get(k) {
        Some(Value::String(s)) => Some(s.to_string()),
        None => Some(String::new()),
        _ => None,
    };
    if m.elem != GoType::Interface && m.elem != GoType::String {
        return Err(wrong());
    }
    match (field(m, "Cert"), field(m, "Key")) {
        (Some(c), Some(k)) => Ok((c, k)),
        _ => Err(wrong()),
    }
}
