/*!
Sprig's value conversions, shared by every group: `strval` (a value as Sprig stringifies it),
and spf13/cast's `ToInt64`, `ToInt`, `ToFloat64` (what `add`, `int`, `atoi`, `max`, … accept;
Sprig ignores their errors, so an unconvertible value counts as 0).
*/

use crate::gotemplate::print::sprint_value;
use crate::gotemplate::value::Value;

/// Sprig's `strval`: a string as it is, `[]byte` as text, a `fmt.Stringer` (`*semver.Version`)
/// through `String()`, anything else as `fmt.Sprintf("%v")`.
pub fn strval(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => sprint_value(other),
    }
}

/// spf13/cast `ToInt64E`; `None` where cast returns an error.
pub fn try_to_int64(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) | Value::Int64(i) => Some(*i),
        // Go converts with a wrapping bit cast; values above i64::MAX are rare enough here.
        Value::Uint64(u) => Some(*u as i64),
        // Go truncates toward zero; Rust's `as` does the same (and saturates where Go's result
        // is unspecified).
        Value::Float(f) => Some(*f as i64),
        Value::String(s) => parse_go_int(trim_zero_decimal(s)),
        Value::Bool(b) => Some(i64::from(*b)),
        Value::Nil | Value::Invalid => Some(0),
        _ => None,
    }
}

/// spf13/cast `ToInt64` (error → 0).
pub fn to_int64(v: &Value) -> i64 {
    try_to_int64(v).unwrap_or(0)
}

/// spf13/cast `ToInt` (same rules as `ToInt64` on a 64-bit platform).
pub fn to_int(v: &Value) -> i64 {
    to_int64(v)
}

/// spf13/cast `ToFloat64E`; `None` where cast returns an error.
pub fn try_to_float64(v: &Value) -> Option<f64> {
    match v {
        Value::Float(f) => Some(*f),
        Value::Int(i) | Value::Int64(i) => Some(*i as f64),
        Value::Uint64(u) => Some(*u as f64),
        Value::String(s) => parse_go_float(s),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::Nil | Value::Invalid => Some(0.0),
        _ => None,
    }
}

/// spf13/cast `ToFloat64` (error → 0).
pub fn to_float64(v: &Value) -> f64 {
    try_to_float64(v).unwrap_or(0.0)
}

/// cast's `trimZeroDecimal`: `"3.000"` → `"3"`, so whole-number decimals parse as integers.
fn trim_zero_decimal(s: &str) -> &str {
    let bytes = s.as_bytes();
    let mut found_zero = false;
    for i in (0..bytes.len()).rev() {
        match bytes[i] {
            b'.' if found_zero => return &s[..i],
            b'.' => return s,
            b'0' => found_zero = true,
            _ => return s,
        }
    }
    s
}

/// `strconv.ParseInt(s, 0, 64)`: optional sign, `0x`/`0o`/`0b`/leading-`0` prefixes,
/// underscores only between digits and only with a prefix (Go's rule for base 0).
pub fn parse_go_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = body.to_ascii_lowercase();
    let (radix, digits, prefixed) = if let Some(r) = lower.strip_prefix("0x") {
        (16, r.to_string(), true)
    } else if let Some(r) = lower.strip_prefix("0o") {
        (8, r.to_string(), true)
    } else if let Some(r) = lower.strip_prefix("0b") {
        (2, r.to_string(), true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, lower[1..].to_string(), true)
    } else {
        (10, lower.clone(), false)
    };
    // Base 0 allows underscores between digits, or between a prefix and a digit.
    if digits.contains('_')
        && (digits.ends_with('_')
            || digits.contains("__")
            || (digits.starts_with('_') && !prefixed))
    {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    if clean.is_empty() {
        return None;
    }
    let magnitude = u64::from_str_radix(&clean, radix).ok()?;
    if neg {
        if magnitude > (i64::MAX as u64) + 1 {
            None
        } else {
            Some((magnitude as i128).wrapping_neg() as i64)
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// `strconv.ParseFloat(s, 64)`: decimal and hex floats, `inf`/`infinity`/`nan` in any case,
/// underscores between digits.
pub fn parse_go_float(s: &str) -> Option<f64> {
    let t = s.to_ascii_lowercase();
    let unsigned = t.trim_start_matches(['+', '-']);
    if matches!(unsigned, "inf" | "infinity") {
        return Some(if t.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    if unsigned == "nan" {
        return Some(f64::NAN);
    }
    if t.contains('_') && (t.starts_with('_') || t.ends_with('_') || t.contains("__")) {
        return None;
    }
    let clean: String = t.chars().filter(|c| *c != '_').collect();
    if clean.contains("0x") {
        return parse_hex_float(&clean);
    }
    // Rust accepts "inf"/"nan" spellings Go rejects and vice versa; those were handled above.
    if clean.is_empty() || clean.chars().any(|c| c.is_ascii_alphabetic() && c != 'e') {
        return None;
    }
    clean.parse::<f64>().ok()
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let body = body.strip_prefix("0x")?;
    let (mantissa, exp) = match body.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (body, 0),
    };
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int_part.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    let v = value * 2f64.powi(exp);
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_like_cast() {
        assert_eq!(to_int64(&Value::Float(3.9)), 3);
        assert_eq!(to_int64(&Value::Float(-3.9)), -3);
        assert_eq!(to_int64(&Value::str("42")), 42);
        assert_eq!(to_int64(&Value::str("42.000")), 42);
        assert_eq!(to_int64(&Value::str("42.5")), 0);
        assert_eq!(to_int64(&Value::str("0x1F")), 31);
        assert_eq!(to_int64(&Value::str("0755")), 493);
        assert_eq!(to_int64(&Value::str("-0b101")), -5);
        assert_eq!(to_int64(&Value::str("0x_1F")), 31);
        assert_eq!(to_int64(&Value::str("1_000")), 1000);
        assert_eq!(to_int64(&Value::str("1__000")), 0);
        assert_eq!(to_int64(&Value::str("_1")), 0);
        assert_eq!(to_int64(&Value::str("abc")), 0);
        assert_eq!(to_int64(&Value::Bool(true)), 1);
        assert_eq!(to_int64(&Value::Nil), 0);
        assert_eq!(to_int64(&Value::str("-9223372036854775808")), i64::MIN);
        assert_eq!(to_int64(&Value::str("9223372036854775808")), 0);
    }

    #[test]
    fn floats_like_cast() {
        assert_eq!(to_float64(&Value::str("1.5")), 1.5);
        assert_eq!(to_float64(&Value::str("1e3")), 1000.0);
        assert_eq!(to_float64(&Value::str("x")), 0.0);
        assert_eq!(to_float64(&Value::str("0x1p-2")), 0.25);
        assert!(to_float64(&Value::str("NaN")).is_nan());
        assert_eq!(to_float64(&Value::Int64(7)), 7.0);
    }
}
