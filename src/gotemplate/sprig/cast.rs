/*!
Sprig's value conversions, shared by every group: `strval` (a value as Sprig stringifies it),
and spf13/cast's `ToInt64`, `ToInt`, `ToFloat64` (what `add`, `int`, `atoi`, `max`, … accept).
(Placeholder signatures until the Sprig work lands.)
*/

use crate::gotemplate::print::sprint_value;
use crate::gotemplate::value::Value;

/// Sprig's `strval`: strings as they are, `[]byte` as text, `error`/`Stringer` via their
/// method, everything else `fmt.Sprintf("%v")`.
pub fn strval(v: &Value) -> String {
    sprint_value(v)
}

/// spf13/cast `ToInt64` (errors ignored, as Sprig does: unconvertible values give 0).
pub fn to_int64(v: &Value) -> i64 {
    match v {
        Value::Int(i) | Value::Int64(i) => *i,
        _ => 0,
    }
}

/// spf13/cast `ToInt`.
pub fn to_int(v: &Value) -> i64 {
    to_int64(v)
}

/// spf13/cast `ToFloat64`.
pub fn to_float64(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f,
        _ => 0.0,
    }
}
