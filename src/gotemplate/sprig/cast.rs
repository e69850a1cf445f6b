/*!
Sprig's value conversions, shared by every group: `strval` (a value as Sprig stringifies it),
`strslice` (a value as a list of strings), spf13/cast's `ToInt64`, `ToInt`, `ToFloat64` (what
`add`, `int`, `atoi`, `max`, … accept; Sprig ignores their errors, so an unconvertible value
counts as 0), Go's `strconv` number
parsers they rest on, Go's `int64(float64)` conversion, Go's view of byte strings that are not
UTF-8, small accessors for already converted function arguments, and the limit on the strings
the functions build ([`MAX_STRING_BYTES`]).

Checked against spf13/cast 1.6 (the oracle's) and 1.7.1 (Cluster API's): the functions used here
did not change between them.
*/

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
        Value::String(s) => parse_int(trim_zero_decimal(s), 0).ok(),
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

/// Why a `strconv` integer parse failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumError {
    /// `strconv.ErrSyntax` (the value is 0).
    Syntax,
    /// `strconv.ErrRange`, with the clamped value Go returns alongside the error.
    Range(i64),
}

/// `strconv.ParseInt(s, base, 64)` for base 0 (prefixes `0x`/`0o`/`0b`/`0`, underscores) or a
/// base from 2 to 36.
pub fn parse_int(s: &str, base: u32) -> Result<i64, NumError> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    const CUTOFF: u64 = 1 << 63;
    match parse_uint(body, base) {
        Err(NumError::Syntax) => Err(NumError::Syntax),
        Err(NumError::Range(_)) => Err(NumError::Range(if neg { i64::MIN } else { i64::MAX })),
        Ok(u) if !neg && u >= CUTOFF => Err(NumError::Range(i64::MAX)),
        Ok(u) if neg && u > CUTOFF => Err(NumError::Range(i64::MIN)),
        Ok(u) if neg => Ok((u as i64).wrapping_neg()),
        Ok(u) => Ok(u as i64),
    }
}

/// `strconv.ParseUint(s, base, 64)`; a range error carries no useful value (callers clamp).
fn parse_uint(s: &str, base: u32) -> Result<u64, NumError> {
    let bytes = s.as_bytes();
    if bytes.is_empty() || !(base == 0 || (2..=36).contains(&base)) {
        return Err(NumError::Syntax);
    }
    let base0 = base == 0;
    let (base, digits) = if base0 {
        match bytes {
            [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'b') => (2, &bytes[2..]),
            [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'o') => (8, &bytes[2..]),
            [b'0', p, _, ..] if p.eq_ignore_ascii_case(&b'x') => (16, &bytes[2..]),
            [b'0', ..] => (8, &bytes[1..]),
            _ => (10, bytes),
        }
    } else {
        (base, bytes)
    };
    let base = u64::from(base);
    let mut n: u64 = 0;
    let mut underscores = false;
    for &c in digits {
        let d = match c {
            b'_' if base0 => {
                underscores = true;
                continue;
            }
            b'0'..=b'9' => c - b'0',
            _ if c.is_ascii_alphabetic() => c.to_ascii_lowercase() - b'a' + 10,
            _ => return Err(NumError::Syntax),
        };
        if u64::from(d) >= base {
            return Err(NumError::Syntax);
        }
        // Go reports overflow as soon as it happens, before looking at later characters.
        n = n
            .checked_mul(base)
            .and_then(|m| m.checked_add(u64::from(d)))
            .ok_or(NumError::Range(0))?;
    }
    if underscores && !underscore_ok(s) {
        return Err(NumError::Syntax);
    }
    Ok(n)
}

/// Go's `underscoreOK`: underscores only between digits, or between a base prefix and a digit.
fn underscore_ok(s: &str) -> bool {
    let mut s = s.as_bytes();
    if let [b'+' | b'-', rest @ ..] = s {
        s = rest;
    }
    // What came last: '^' start, '0' digit or prefix, '_' underscore, '!' anything else.
    let mut saw = b'^';
    let mut hex = false;
    if let [b'0', p, rest @ ..] = s
        && matches!(p.to_ascii_lowercase(), b'b' | b'o' | b'x')
    {
        saw = b'0';
        hex = p.eq_ignore_ascii_case(&b'x');
        s = rest;
    }
    for &c in s {
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// `strconv.ParseInt(s, 0, 64)` where it succeeds.
pub fn parse_go_int(s: &str) -> Option<i64> {
    parse_int(s, 0).ok()
}

/// `strconv.ParseFloat(s, 64)` where it succeeds (cast treats every error, including overflow
/// to ±Inf, as a failure): decimal and hexadecimal (`p` exponent required) floats, underscores
/// as Go's syntax allows, `inf`/`infinity`/`nan` in any case (signs only on infinities).
pub fn parse_go_float(s: &str) -> Option<f64> {
    if let Some(v) = parse_special(s) {
        return Some(v);
    }
    let f = read_float(s)?;
    if f.is_infinite() { None } else { Some(f) }
}

/// Go's `special`: the whole string must be an infinity or NaN spelling.
fn parse_special(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    let (neg, body) = match lower.as_bytes().first() {
        Some(b'+') => (false, &lower[1..]),
        Some(b'-') => (true, &lower[1..]),
        _ => (false, lower.as_str()),
    };
    match body {
        "inf" | "infinity" => Some(if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        "nan" if body.len() == lower.len() => Some(f64::NAN),
        _ => None,
    }
}

/// Go's `readFloat` syntax, then the value: decimal through Rust's correctly rounded parser
/// (the same result as Go's), hexadecimal by exact binary scaling.
fn read_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut neg = false;
    match b.first() {
        Some(b'+') => i = 1,
        Some(b'-') => {
            neg = true;
            i = 1;
        }
        _ => {}
    }
    let hex = i + 2 < b.len() && b[i] == b'0' && b[i + 1].eq_ignore_ascii_case(&b'x');
    if hex {
        i += 2;
    }
    let mant_start = i;
    let mut saw_dot = false;
    let mut saw_digits = false;
    let mut underscores = false;
    while i < b.len() {
        let c = b[i];
        if c == b'_' {
            underscores = true;
        } else if c == b'.' {
            if saw_dot {
                break;
            }
            saw_dot = true;
        } else if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw_digits = true;
        } else {
            break;
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    let mant_end = i;
    let exp_char = if hex { b'p' } else { b'e' };
    let mut exp: i64 = 0;
    if i < b.len() && b[i].to_ascii_lowercase() == exp_char {
        i += 1;
        let mut esign = 1;
        match b.get(i) {
            Some(b'+') => i += 1,
            Some(b'-') => {
                esign = -1;
                i += 1;
            }
            _ => {}
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            if b[i] == b'_' {
                underscores = true;
            } else if exp < 100_000 {
                exp = exp * 10 + i64::from(b[i] - b'0');
            }
            i += 1;
        }
        exp *= esign;
    } else if hex {
        // A hexadecimal mantissa needs a 'p' exponent.
        return None;
    }
    if i != b.len() || (underscores && !underscore_ok(&s[..i])) {
        return None;
    }
    let mantissa: String = s[mant_start..mant_end]
        .chars()
        .filter(|c| *c != '_')
        .collect();
    let v = if hex {
        hex_float(&mantissa, exp)?
    } else {
        format!("{mantissa}e{exp}").parse::<f64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The value of hexadecimal mantissa digits (with an optional '.') times 2^exp, rounded to
/// nearest even like Go's `atofHex`.
fn hex_float(mantissa: &str, exp: i64) -> Option<f64> {
    // Keep up to 16 significant hex digits (64 bits) and remember whether anything nonzero was
    // dropped (the sticky bit for rounding).
    let mut m: u64 = 0;
    let mut e2 = exp;
    let mut sticky = false;
    let mut after_dot = false;
    let mut sig_digits = 0;
    for c in mantissa.chars() {
        if c == '.' {
            after_dot = true;
            continue;
        }
        let d = u64::from(c.to_digit(16)?);
        if sig_digits < 16 {
            if m != 0 || d != 0 {
                sig_digits += 1;
            }
            m = m * 16 + d;
            if after_dot {
                e2 -= 4;
            }
        } else {
            sticky |= d != 0;
            if !after_dot {
                e2 += 4;
            }
        }
    }
    if m == 0 {
        return Some(0.0);
    }
    // Normalize so that the top bit is bit 63, then round to the 53 bits a double holds (fewer
    // for subnormals).
    let shift = m.leading_zeros();
    m <<= shift;
    e2 -= i64::from(shift);
    // Value is m * 2^e2 with m in [2^63, 2^64): its binary exponent is e2 + 63.
    let top_exp = e2 + 63;
    if top_exp > 1023 {
        return Some(f64::INFINITY);
    }
    let keep = if top_exp >= -1022 {
        53
    } else {
        53 - (-1022 - top_exp)
    };
    if keep <= 0 {
        // Below half the smallest subnormal, or exactly half with nothing else: round to 0 or
        // to the smallest subnormal.
        let half_min = keep == 0 && (m > 1 << 63 || sticky);
        return Some(if half_min { f64::from_bits(1) } else { 0.0 });
    }
    let drop = 64 - keep as u32;
    let kept = m >> drop;
    let rem = m & ((1u64 << drop) - 1);
    let half = 1u64 << (drop - 1);
    let round_up = rem > half || (rem == half && (sticky || kept & 1 == 1));
    let kept = kept + u64::from(round_up);
    // kept * 2^(e2 + drop); multiply in two steps so intermediate powers stay in range.
    let scale = e2 + i64::from(drop);
    let v = (kept as f64) * pow2(scale / 2) * pow2(scale - scale / 2);
    Some(v)
}

fn pow2(e: i64) -> f64 {
    let e = e.clamp(-1100, 1100) as i32;
    2f64.powi(e)
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
    fn parse_int_errors_like_strconv() {
        assert_eq!(
            parse_int("99999999999999999999x", 10),
            Err(NumError::Range(i64::MAX))
        );
        assert_eq!(
            parse_int("-99999999999999999999", 10),
            Err(NumError::Range(i64::MIN))
        );
        assert_eq!(parse_int("1_0", 10), Err(NumError::Syntax));
        assert_eq!(parse_int("-", 10), Err(NumError::Syntax));
        assert_eq!(parse_int("", 10), Err(NumError::Syntax));
        assert_eq!(parse_int("0777", 8), Ok(511));
        assert_eq!(parse_int("-17", 8), Ok(-15));
        assert_eq!(parse_int("8", 8), Err(NumError::Syntax));
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
