/*!
Sprig's value conversions, shared by every group: `strval` (a value as Sprig stringifies it),
`strslice` (a value as a list of strings), spf13/cast's `ToInt64`, `ToInt`, `ToFloat64` (what
`add`, `int`, `max`, … accept; Sprig ignores their errors, so an unconvertible value counts as
0; the number parsing itself is `go::strconv`'s), Go's `int64(float64)` conversion, Go's view
of byte strings that are not UTF-8, small accessors for already converted function arguments, and the limit on the strings
the functions build ([`MAX_STRING_BYTES`]).

Checked against spf13/cast 1.6 (the oracle's) and 1.7.1 (Cluster API's): the functions used here
did not change between them.
*/

use crate::go::strconv;
use crate::gotemplate::print::sprint_value;
use crate::gotemplate::value::Value;

/// The largest string these functions build (64 MiB). Go has no such limit; a template asking
/// for more is a mistake or an attack, and an error is better than exhausting memory.
pub const MAX_STRING_BYTES: usize = 64 << 20;

/// The error for a result over [`MAX_STRING_BYTES`].
pub fn too_large() -> String {
    format!(
        "result would exceed {} MiB (a topoplan limit; Go has none)",
        MAX_STRING_BYTES >> 20
    )
}

/// Sprig's `strslice`: a `[]string` as it is; the non-nil items of any other list through
/// `strval` (a `[]byte` gives its numbers); nil gives an empty list; anything else a list of one.
pub fn strslice(v: &Value) -> Vec<String> {
    match v {
        Value::Slice(l) => l
            .items
            .iter()
            .filter(|item| !matches!(item, Value::Nil | Value::Invalid))
            .map(strval)
            .collect(),
        Value::Bytes(b) => b.iter().map(u8::to_string).collect(),
        Value::Nil | Value::Invalid => Vec::new(),
        other => vec![strval(other)],
    }
}

/// Sprig's `strval`: a string as it is, `[]byte` as text, a `fmt.Stringer` (`*semver.Version`)
/// through `String()`, anything else as `fmt.Sprintf("%v")`.
pub fn strval(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Bytes(b) => go_lossy(b),
        other => sprint_value(other),
    }
}

/// Go bytes as a Rust string. Go strings may hold any bytes; ours must be UTF-8, so every byte
/// that does not start a valid UTF-8 sequence becomes U+FFFD, one per byte — exactly what Go's
/// `encoding/json` (and so Cluster API's patch) later makes of such a string.
pub fn go_lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                // `valid` is UTF-8 by construction.
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                // Go's decoder rejects one byte at a time.
                rest = after.get(1..).unwrap_or_default();
            }
        }
    }
}

/// Go's `int64(f)` for a float64 on amd64 (where Cluster API runs): truncation toward zero;
/// NaN and values out of range give the "integer indefinite" value, `math.MinInt64`.
pub fn go_float_to_int64(f: f64) -> i64 {
    // -2^63 is representable; 2^63 is the first value out of range.
    if f.is_nan() || !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// spf13/cast `ToInt64E`; `None` where cast returns an error.
pub fn try_to_int64(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) | Value::Int64(i) => Some(*i),
        // Go converts uint64 to int64 with a wrapping bit cast.
        Value::Uint64(u) => Some(*u as i64),
        Value::Float(f) => Some(go_float_to_int64(*f)),
        Value::String(s) => strconv::parse_int(trim_zero_decimal(s), 0, 0).ok(),
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
        // Every error counts, overflow to ±Inf included.
        Value::String(s) => strconv::parse_float(s).ok(),
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
/// Scanning from the end, zeros are skipped, a `.` after at least one zero cuts there, a `.`
/// before any zero is skipped too (so `"5.0."` → `"5"`), anything else keeps the string whole.
fn trim_zero_decimal(s: &str) -> &str {
    let mut found_zero = false;
    for (i, b) in s.bytes().enumerate().rev() {
        match b {
            b'.' if found_zero => return &s[..i],
            b'.' => {}
            b'0' => found_zero = true,
            _ => return s,
        }
    }
    s
}

/// The `string` argument `i` (the executor has converted it already).
pub fn arg_str(args: &[Value], i: usize) -> Result<&str, String> {
    match args.get(i) {
        Some(Value::String(s)) => Ok(s),
        other => Err(bad_arg(i, "string", other)),
    }
}

/// The `int` argument `i`.
pub fn arg_int(args: &[Value], i: usize) -> Result<i64, String> {
    match args.get(i) {
        Some(Value::Int(n) | Value::Int64(n)) => Ok(*n),
        other => Err(bad_arg(i, "int", other)),
    }
}

/// The `bool` argument `i`.
pub fn arg_bool(args: &[Value], i: usize) -> Result<bool, String> {
    match args.get(i) {
        Some(Value::Bool(b)) => Ok(*b),
        other => Err(bad_arg(i, "bool", other)),
    }
}

/// The `interface{}` argument `i` (a missing one counts as nil).
pub fn arg_any(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Nil)
}

fn bad_arg(i: usize, want: &str, got: Option<&Value>) -> String {
    // Only reachable if the executor broke its promise to convert arguments.
    let got = got
        .and_then(Value::go_type)
        .map_or_else(|| "nothing".to_string(), |t| t.name());
    format!(
        "internal error: argument {} should be {want}, got {got}",
        i + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_like_cast() {
        assert_eq!(to_int64(&Value::Float(3.9)), 3);
        assert_eq!(to_int64(&Value::Float(-3.99)), -3);
        assert_eq!(to_int64(&Value::Float(1e300)), i64::MIN);
        assert_eq!(to_int64(&Value::Float(-1e300)), i64::MIN);
        assert_eq!(to_int64(&Value::Float(f64::NAN)), i64::MIN);
        assert_eq!(to_int64(&Value::str("42")), 42);
        assert_eq!(to_int64(&Value::str("42.000")), 42);
        assert_eq!(to_int64(&Value::str("42.5")), 0);
        assert_eq!(to_int64(&Value::str("5.0.")), 5);
        assert_eq!(to_int64(&Value::str("5.")), 0);
        assert_eq!(to_int64(&Value::str(".0")), 0);
        assert_eq!(to_int64(&Value::str("-0.000")), 0);
        assert_eq!(to_int64(&Value::str("0x1F")), 31);
        assert_eq!(to_int64(&Value::str("-0x10")), -16);
        assert_eq!(to_int64(&Value::str("0B11")), 3);
        assert_eq!(to_int64(&Value::str("0b")), 0);
        assert_eq!(to_int64(&Value::str("0x")), 0);
        assert_eq!(to_int64(&Value::str("0755")), 493);
        assert_eq!(to_int64(&Value::str("08")), 0);
        assert_eq!(to_int64(&Value::str("00")), 0);
        assert_eq!(to_int64(&Value::str("-0b101")), -5);
        assert_eq!(to_int64(&Value::str("0x_1F")), 31);
        assert_eq!(to_int64(&Value::str("0_7")), 7);
        assert_eq!(to_int64(&Value::str("1_000")), 1000);
        assert_eq!(to_int64(&Value::str("1__000")), 0);
        assert_eq!(to_int64(&Value::str("1_")), 0);
        assert_eq!(to_int64(&Value::str("_1")), 0);
        assert_eq!(to_int64(&Value::str("++5")), 0);
        assert_eq!(to_int64(&Value::str("-+5")), 0);
        assert_eq!(to_int64(&Value::str("abc")), 0);
        assert_eq!(to_int64(&Value::Bool(true)), 1);
        assert_eq!(to_int64(&Value::Nil), 0);
        assert_eq!(to_int64(&Value::list(vec![])), 0);
        assert_eq!(to_int64(&Value::Uint64(u64::MAX)), -1);
        assert_eq!(to_int64(&Value::str("-9223372036854775808")), i64::MIN);
        assert_eq!(to_int64(&Value::str("9223372036854775807")), i64::MAX);
        assert_eq!(to_int64(&Value::str("9223372036854775808")), 0);
    }

    #[test]
    fn floats_like_cast() {
        assert_eq!(to_float64(&Value::str("1.5")), 1.5);
        assert_eq!(to_float64(&Value::str("1e3")), 1000.0);
        assert_eq!(to_float64(&Value::str("x")), 0.0);
        assert_eq!(to_float64(&Value::str("0x1p-2")), 0.25);
        assert_eq!(to_float64(&Value::str("0x1.8p1")), 3.0);
        assert_eq!(to_float64(&Value::str("0x_1p4")), 16.0);
        assert_eq!(to_float64(&Value::str("0x.8p1")), 1.0);
        assert_eq!(to_float64(&Value::str("0x10")), 0.0);
        assert_eq!(to_float64(&Value::str("0xp1")), 0.0);
        assert_eq!(to_float64(&Value::str("1e1_0")), 1e10);
        assert_eq!(to_float64(&Value::str("1_000.5")), 1000.5);
        assert_eq!(to_float64(&Value::str("1_.5")), 0.0);
        assert_eq!(to_float64(&Value::str("+.5e-1")), 0.05);
        assert_eq!(to_float64(&Value::str(".5")), 0.5);
        assert_eq!(to_float64(&Value::str("5.")), 5.0);
        assert_eq!(to_float64(&Value::str("")), 0.0);
        assert_eq!(to_float64(&Value::str(" 1")), 0.0);
        assert_eq!(to_float64(&Value::str("1e400")), 0.0);
        assert_eq!(to_float64(&Value::str("1e-400")), 0.0);
        assert_eq!(to_float64(&Value::str("Inf")), f64::INFINITY);
        assert_eq!(to_float64(&Value::str("-infinity")), f64::NEG_INFINITY);
        assert_eq!(to_float64(&Value::str("infin")), 0.0);
        assert_eq!(to_float64(&Value::str("+nan")), 0.0);
        assert!(to_float64(&Value::str("NaN")).is_nan());
        assert_eq!(to_float64(&Value::Int64(7)), 7.0);
        assert_eq!(to_float64(&Value::str("0x1p-1074")), f64::from_bits(1));
        assert_eq!(to_float64(&Value::str("0x1p-1075")), 0.0);
        assert_eq!(to_float64(&Value::str("0x1.8p-1075")), f64::from_bits(1));
        assert_eq!(to_float64(&Value::str("0x1p1024")), 0.0);
        assert_eq!(to_float64(&Value::str("0x1.fffffffffffff8p0")), 2.0);
        assert_eq!(
            to_float64(&Value::str("0x1.fffffffffffff7p0")),
            1.9999999999999998
        );
    }

    #[test]
    fn lossy_is_per_byte() {
        assert_eq!(go_lossy(b"a\xc3"), "a\u{FFFD}");
        assert_eq!(go_lossy(b"\xe4\xb8x"), "\u{FFFD}\u{FFFD}x");
        assert_eq!(go_lossy("é".as_bytes()), "é");
        assert_eq!(strval(&Value::Bytes(b"hi".as_slice().into())), "hi");
    }
}
