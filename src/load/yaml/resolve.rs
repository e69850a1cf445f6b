/*!
YAML 1.1 scalar resolution exactly as gopkg.in/yaml.v2 (v2.4.0, `resolve.go` + `decode.go`)
does it when decoding into `interface{}`, plus the Go number formatting that sigs.k8s.io/yaml's
`YAMLToJSON` relies on. The numbers themselves are parsed by `go::strconv`, as yaml.v2 calls
Go's `strconv`.

This is a port, not a re-interpretation: every rule here cites the Go behaviour it copies, because
kubectl applies exactly these rules to the files topoplan reads, and any difference would make a
plan disagree with what the cluster receives.
*/

use serde_json::{Number, Value};

use crate::go::strconv;

/// Long forms of the core tags yaml.v2 knows (libyaml expands `!!x` to these).
pub(super) const STR_TAG: &str = "tag:yaml.org,2002:str";
const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
const INT_TAG: &str = "tag:yaml.org,2002:int";
const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
const NULL_TAG: &str = "tag:yaml.org,2002:null";
const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
pub(super) const MERGE_TAG: &str = "tag:yaml.org,2002:merge";

/// The tag yaml.v2's `resolve` settles on (`rtag`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Str,
    Bool,
    Int,
    Float,
    Null,
    Timestamp,
}

impl Kind {
    fn long(self) -> &'static str {
        match self {
            Kind::Str => STR_TAG,
            Kind::Bool => BOOL_TAG,
            Kind::Int => INT_TAG,
            Kind::Float => FLOAT_TAG,
            Kind::Null => NULL_TAG,
            Kind::Timestamp => TIMESTAMP_TAG,
        }
    }
}

/// A scalar as the Go value yaml.v2 hands to sigs.k8s.io/yaml (`nil`, `bool`, `int`, `uint64`,
/// `float64`, `string`). Timestamps and `!!binary` already became strings, as in yaml.v2's
/// `interface{}` decoding.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Resolved {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

/// Resolve one scalar node like yaml.v2's `decoder.scalar` into an `interface{}`.
///
/// `implicit` is libyaml's `plain_implicit`: true for an untagged plain scalar and for the
/// non-specific tag `!`. `tag` is the expanded tag (`tag:yaml.org,2002:int`, `!foo`, `!`).
pub(super) fn resolve_scalar(
    value: &str,
    implicit: bool,
    tag: Option<&str>,
) -> Result<Resolved, String> {
    // Quoted and block scalars without a tag are strings, whatever they look like.
    if tag.is_none() && !implicit {
        return Ok(Resolved::Str(value.to_string()));
    }
    let tag = tag.unwrap_or("");
    if tag == BINARY_TAG {
        return decode_base64(value)
            .map(|bytes| Resolved::Str(go_string_from_bytes(&bytes)))
            .ok_or_else(|| "!!binary value contains invalid base64 data".to_string());
    }
    // Unknown and custom tags (`!foo`, `!`, `!!map` on a scalar) leave the text as a string.
    if !resolvable_tag(tag) {
        return Ok(Resolved::Str(value.to_string()));
    }
    let (kind, out) = resolve(tag, value);
    // The deferred check at the top of Go's `resolve`: an explicit tag must agree with what the
    // text resolves to, except that `!!float` accepts an int.
    if tag.is_empty() || tag == kind.long() || tag == STR_TAG {
        return Ok(out);
    }
    if tag == FLOAT_TAG && kind == Kind::Int {
        // Go converts only `int`/`int64` here; a `uint64` falls through to the error.
        if let Resolved::Int(i) = out {
            return Ok(Resolved::Float(i as f64));
        }
    }
    Err(format!(
        "cannot decode {} `{}` as a {}",
        short_tag(kind.long()),
        value,
        short_tag(tag)
    ))
}

/// What an untagged plain scalar with this text resolves to (used by the emitter to decide
/// whether a string may be written without quotes).
pub(super) fn plain_kind(value: &str) -> Kind {
    resolve("", value).0
}

fn resolvable_tag(tag: &str) -> bool {
    matches!(
        tag,
        "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG
    )
}

fn short_tag(tag: &str) -> String {
    match tag.strip_prefix("tag:yaml.org,2002:") {
        Some(rest) => format!("!!{rest}"),
        None => tag.to_string(),
    }
}

/// yaml.v2's `resolveMap`.
fn keyword(s: &str) -> Option<(Kind, Resolved)> {
    let r = match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            (Kind::Bool, Resolved::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            (Kind::Bool, Resolved::Bool(false))
        }
        "" | "~" | "null" | "Null" | "NULL" => (Kind::Null, Resolved::Null),
        ".nan" | ".NaN" | ".NAN" => (Kind::Float, Resolved::Float(f64::NAN)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            (Kind::Float, Resolved::Float(f64::INFINITY))
        }
        "-.inf" | "-.Inf" | "-.INF" => (Kind::Float, Resolved::Float(f64::NEG_INFINITY)),
        // Go's table also lists "<<", but `<` has no hint so the entry is never consulted: `<<`
        // resolves to a string, and the mapping decoder recognises a merge key by its text.
        _ => return None,
    };
    Some(r)
}

/// yaml.v2's `resolve(tag, in)` without the deferred tag check.
fn resolve(tag: &str, input: &str) -> (Kind, Resolved) {
    let str_result = || (Kind::Str, Resolved::Str(input.to_string()));
    // The first byte picks which rules may apply (`resolveTable`).
    let hint = match input.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => return str_result(),
    };
    if tag == STR_TAG || tag == BINARY_TAG {
        return str_result();
    }
    if let Some(found) = keyword(input) {
        return found;
    }
    match hint {
        b'.' => {
            if let Ok(f) = strconv::parse_float(input) {
                return (Kind::Float, Resolved::Float(f));
            }
        }
        b'D' | b'S' => {
            // Timestamps are tried first but only for untagged or `!!timestamp` scalars; into an
            // `interface{}` they come back as the original text.
            if (tag.is_empty() || tag == TIMESTAMP_TAG) && parse_timestamp(input) {
                return (Kind::Timestamp, Resolved::Str(input.to_string()));
            }
            let plain: String = input.chars().filter(|&c| c != '_').collect();
            if let Ok(i) = strconv::parse_int(&plain, 0, 64) {
                return (Kind::Int, Resolved::Int(i));
            }
            if let Ok(u) = strconv::parse_uint(&plain, 0, 64) {
                return (Kind::Int, Resolved::Uint(u));
            }
            if yaml_style_float(&plain) {
                // Go's ParseFloat fails with ErrRange on overflow; the text then stays a string.
                if let Ok(f) = strconv::parse_float(&plain) {
                    return (Kind::Float, Resolved::Float(f));
                }
            }
            // Go's extra `0b`/`-0b` branches only re-try what ParseInt with base 0 already
            // covered, so they can never succeed here and are omitted.
        }
        _ => {}
    }
    str_result()
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// yaml.v2's `parseTimestamp`: `YYYY-` followed by one of the layouts
/// `2006-1-2T15:4:5.999999999Z07:00`, the same with `t`, `2006-1-2 15:4:5.999999999` and
/// `2006-1-2`, with Go `time.Parse`'s field widths and range checks.
fn parse_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let [y0, y1, y2, y3, b'-', ..] = *b else {
        return false;
    };
    let year_digits = [y0, y1, y2, y3];
    if !year_digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let year = year_digits
        .iter()
        .fold(0u32, |acc, &c| acc * 10 + u32::from(c - b'0'));
    let mut p = Cursor { b, i: 5 };
    let Some(month) = p.num(1, 12) else {
        return false;
    };
    if !p.eat(b'-') {
        return false;
    }
    let Some(day) = p.num(1, 31) else {
        return false;
    };
    if day > days_in(month, year) {
        return false;
    }
    if p.done() {
        return true;
    }
    // Which separator decides whether a zone is required (`T`/`t` layouts) or forbidden (space).
    let zoned = match p.next() {
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        _ => return false,
    };
    if p.num(0, 23).is_none() || !p.eat(b':') || p.num(0, 59).is_none() || !p.eat(b':') {
        return false;
    }
    if p.num(0, 59).is_none() {
        return false;
    }
    // Optional fraction: `.` or `,` followed by at least one digit.
    if matches!(p.peek(), Some(b'.' | b',')) && p.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
        p.i += 1;
        while p.peek().is_some_and(|c| c.is_ascii_digit()) {
            p.i += 1;
        }
    }
    if !zoned {
        return p.done();
    }
    if p.eat(b'Z') {
        return p.done();
    }
    // ±hh:mm with exactly two digits each.
    let Some(&[b'+' | b'-', h1, h2, b':', m1, m2]) = b.get(p.i..) else {
        return false;
    };
    [h1, h2, m1, m2].iter().all(u8::is_ascii_digit)
        && (h1 - b'0') * 10 + (h2 - b'0') <= 24
        && (m1 - b'0') * 10 + (m2 - b'0') <= 60
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        self.i += 1;
        c
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn done(&self) -> bool {
        self.i >= self.b.len()
    }
    /// Go's `getnum(s, false)`: one or two digits, then a range check.
    fn num(&mut self, min: u32, max: u32) -> Option<u32> {
        let d0 = self.peek().filter(u8::is_ascii_digit)?;
        self.i += 1;
        let mut n = u32::from(d0 - b'0');
        if let Some(d1) = self.peek().filter(u8::is_ascii_digit) {
            self.i += 1;
            n = n * 10 + u32::from(d1 - b'0');
        }
        (min..=max).contains(&n).then_some(n)
    }
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Go's `base64.StdEncoding.DecodeString`: padded standard alphabet; `\r` and `\n` are skipped.
fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let clean: Vec<u8> = s.bytes().filter(|&c| c != b'\r' && c != b'\n').collect();
    if !clean.len().is_multiple_of(4) {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    let quads = clean.len() / 4;
    for (qi, q) in clean.chunks_exact(4).enumerate() {
        let last = qi + 1 == quads;
        let pad = q.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut acc: u32 = 0;
        for &c in q.get(..4 - pad)? {
            acc = (acc << 6) | val(c)?;
        }
        acc <<= 6 * pad as u32;
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(bytes.get(1..4 - pad)?);
    }
    Some(out)
}

/// A Go string (arbitrary bytes) as encoding/json writes it: each byte that is not part of valid
/// UTF-8 becomes U+FFFD.
fn go_string_from_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    out
}

/// The JSON value sigs.k8s.io/yaml produces for a scalar: Go's `json.Marshal` prints a float64
/// without a fraction when it is integral (`1.0` → `1`), so a JSON reader then sees an integer.
/// NaN and infinities have no JSON form: the error names which one it is.
pub(super) fn to_json(r: Resolved) -> Result<Value, String> {
    Ok(match r {
        Resolved::Null => Value::Null,
        Resolved::Bool(b) => Value::Bool(b),
        Resolved::Int(i) => Value::Number(i.into()),
        Resolved::Uint(u) => Value::Number(u.into()),
        Resolved::Str(s) => Value::String(s),
        // Go fails here with `json: unsupported value: NaN` / `+Inf`.
        Resolved::Float(f) => Value::Number(go_json_float(f).ok_or_else(|| {
            if f.is_nan() {
                "not-a-number"
            } else {
                "infinity"
            }
            .to_string()
        })?),
    })
}

/// The JSON number Go's `json.Marshal(float64)` writes, as a JSON reader sees it.
///
/// Go prints the shortest round-trip digits, in positional notation for 1e-6 <= |f| < 1e21:
/// an integral value therefore comes out as digits padded with zeros (`1234567890123456800` for
/// 1234567890123456789.0), which a reader takes for an integer when it fits 64 bits. Everything
/// else stays the exact float64 Go had (we do not re-parse the text: serde_json's default float
/// parser is not correctly rounded for long digit strings).
pub(super) fn go_json_float(f: f64) -> Option<Number> {
    if !f.is_finite() {
        return None;
    }
    if f == 0.0 {
        // Go prints "-0", which a JSON reader takes for the float -0.0.
        return if f.is_sign_negative() {
            Number::from_f64(f)
        } else {
            Some(0u64.into())
        };
    }
    if f.fract() == 0.0 && f.abs() < 1e21 {
        // Rust's `{:e}` yields the same shortest digits as Go's shortest formatting.
        let sci = format!("{:e}", f.abs());
        if let Some((mant, exp)) = sci.split_once('e') {
            let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
            let zeros = exp
                .parse::<usize>()
                .ok()
                .and_then(|e| (e + 1).checked_sub(digits.len()));
            if let Some(zeros) = zeros {
                let text = format!("{digits}{}", "0".repeat(zeros));
                if f > 0.0 {
                    if let Ok(u) = text.parse::<u64>() {
                        return Some(u.into());
                    }
                } else if let Ok(i) = format!("-{text}").parse::<i64>() {
                    return Some(i.into());
                }
            }
        }
    }
    Number::from_f64(f)
}

/// The string sigs.k8s.io/yaml makes of a non-string mapping key. `Null` and `Uint` keys have
/// none (the caller reports them); they are given a placeholder here.
pub(super) fn key_string(r: Resolved) -> String {
    match r {
        Resolved::Str(s) => s,
        Resolved::Int(i) => i.to_string(),
        Resolved::Uint(u) => u.to_string(),
        Resolved::Bool(b) => b.to_string(),
        Resolved::Float(f) => go_format_float32_g(f),
        Resolved::Null => "null".to_string(),
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)` with yaml.v2's names for the special values — the
/// (lossy, float32!) way sigs.k8s.io/yaml turns a float key into a string.
pub(super) fn go_format_float32_g(f: f64) -> String {
    let x = f as f32;
    if x.is_nan() {
        return ".nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    let neg = x.is_sign_negative();
    let sign = if neg { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0");
    }
    // Rust's `{:e}` gives the shortest digits that round-trip as f32, like Go's shortest mode.
    let sci = format!("{:e}", x.abs());
    let Some((mant, exp)) = sci.split_once('e') else {
        return format!("{sign}{sci}");
    };
    let digits: String = mant.chars().filter(char::is_ascii_digit).collect();
    let Ok(exp) = exp.parse::<i32>() else {
        return format!("{sign}{sci}");
    };
    let nd = digits.len() as i32;
    if !(-4..6).contains(&exp) {
        // %e: d[.ddd]e±XX with at least two exponent digits.
        let Some((first, rest)) = digits.split_at_checked(1) else {
            return format!("{sign}{sci}");
        };
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{frac}e{esign}{:02}", exp.abs());
    }
    // %f with just enough decimals for the digits.
    let dp = exp + 1;
    let mut s = String::from(sign);
    if dp <= 0 {
        s.push_str("0.");
        for _ in 0..-dp {
            s.push('0');
        }
        s.push_str(&digits);
    } else if dp >= nd {
        s.push_str(&digits);
        for _ in 0..dp - nd {
            s.push('0');
        }
    } else {
        let Some((int, frac)) = digits.split_at_checked(dp as usize) else {
            return format!("{sign}{sci}");
        };
        s.push_str(int);
        s.push('.');
        s.push_str(frac);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(s: &str) -> Resolved {
        resolve_scalar(s, true, None).unwrap()
    }

    #[test]
    fn booleans_are_yaml_1_1() {
        for t in [
            "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
        ] {
            assert_eq!(plain(t), Resolved::Bool(true), "{t}");
        }
        for f in [
            "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
        ] {
            assert_eq!(plain(f), Resolved::Bool(false), "{f}");
        }
        for s in ["yEs", "tRUE", "oN", "nO", "Off ", "yes!"] {
            assert!(matches!(plain(s), Resolved::Str(_)), "{s}");
        }
    }

    #[test]
    fn nulls() {
        for n in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(n), Resolved::Null, "{n:?}");
        }
        assert_eq!(plain("nULL"), Resolved::Str("nULL".into()));
    }

    #[test]
    fn integers() {
        assert_eq!(plain("0"), Resolved::Int(0));
        assert_eq!(plain("-0"), Resolved::Int(0));
        assert_eq!(plain("+12"), Resolved::Int(12));
        assert_eq!(plain("0755"), Resolved::Int(493));
        assert_eq!(plain("0o17"), Resolved::Int(15));
        assert_eq!(plain("0x1F"), Resolved::Int(31));
        assert_eq!(plain("-0x1f"), Resolved::Int(-31));
        assert_eq!(plain("0b101"), Resolved::Int(5));
        assert_eq!(plain("-0b101"), Resolved::Int(-5));
        assert_eq!(plain("1_000"), Resolved::Int(1000));
        assert_eq!(plain("0x_1F"), Resolved::Int(31));
        assert_eq!(plain("9223372036854775807"), Resolved::Int(i64::MAX));
        assert_eq!(plain("-9223372036854775808"), Resolved::Int(i64::MIN));
        assert_eq!(
            plain("9223372036854775808"),
            Resolved::Uint(9_223_372_036_854_775_808)
        );
        assert_eq!(plain("18446744073709551615"), Resolved::Uint(u64::MAX));
        assert_eq!(
            plain("18446744073709551616"),
            Resolved::Float(1.8446744073709552e19)
        );
        assert_eq!(
            plain("-9223372036854775809"),
            Resolved::Float(-9.223_372_036_854_776e18)
        );
        // Out of range hex is neither int nor a decimal float: a string.
        assert_eq!(
            plain("0x1FFFFFFFFFFFFFFFF"),
            Resolved::Str("0x1FFFFFFFFFFFFFFFF".into())
        );
        // Invalid octal digits fall through to the float rule.
        assert_eq!(plain("09"), Resolved::Float(9.0));
        assert_eq!(plain("0o9"), Resolved::Str("0o9".into()));
        assert_eq!(plain("0x"), Resolved::Str("0x".into()));
    }

    #[test]
    fn floats() {
        assert_eq!(plain("1.5"), Resolved::Float(1.5));
        assert_eq!(plain("1.20"), Resolved::Float(1.2));
        assert_eq!(plain("1."), Resolved::Float(1.0));
        assert_eq!(plain(".5"), Resolved::Float(0.5));
        assert_eq!(plain("-.5"), Resolved::Float(-0.5));
        assert_eq!(plain("1e3"), Resolved::Float(1000.0));
        assert_eq!(plain("1E-2"), Resolved::Float(0.01));
        assert_eq!(plain("1_0.5"), Resolved::Float(10.5));
        assert_eq!(plain(".5_5"), Resolved::Float(0.55));
        assert_eq!(plain("1e400"), Resolved::Str("1e400".into()));
        assert_eq!(plain("1e-400"), Resolved::Float(0.0));
        assert!(matches!(plain(".nan"), Resolved::Float(f) if f.is_nan()));
        assert_eq!(plain("-.Inf"), Resolved::Float(f64::NEG_INFINITY));
        assert_eq!(plain("+.INF"), Resolved::Float(f64::INFINITY));
        for s in [
            ".",
            "1e",
            "1.2.3",
            "._5",
            ".inF",
            "1:20",
            "190:20:30.15",
            "0x1p3",
        ] {
            assert_eq!(plain(s), Resolved::Str(s.into()), "{s}");
        }
    }

    #[test]
    fn timestamps_stay_strings() {
        for s in [
            "2024-01-01",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10",
        ] {
            assert!(parse_timestamp(s), "{s}");
            assert_eq!(plain(s), Resolved::Str(s.into()));
        }
        for s in [
            "2024-13-01",
            "2023-02-29",
            "2024-1-1T10:00:00",
            "20240-01-01",
            "2024-01-01x",
        ] {
            assert!(!parse_timestamp(s), "{s}");
        }
        assert!(parse_timestamp("2024-02-29"));
        let ts = Some(TIMESTAMP_TAG);
        assert_eq!(
            resolve_scalar("2024-01-01T10:00:00Z", true, ts),
            Ok(Resolved::Str("2024-01-01T10:00:00Z".into()))
        );
        assert!(resolve_scalar("12", true, ts).is_err());
    }

    #[test]
    fn quoted_and_tagged() {
        assert_eq!(
            resolve_scalar("yes", false, None),
            Ok(Resolved::Str("yes".into()))
        );
        assert_eq!(
            resolve_scalar("12", true, Some(STR_TAG)),
            Ok(Resolved::Str("12".into()))
        );
        assert_eq!(
            resolve_scalar("12", false, Some(INT_TAG)),
            Ok(Resolved::Int(12))
        );
        assert_eq!(
            resolve_scalar("3", true, Some(FLOAT_TAG)),
            Ok(Resolved::Float(3.0))
        );
        assert_eq!(
            resolve_scalar("yes", true, Some(BOOL_TAG)),
            Ok(Resolved::Bool(true))
        );
        assert_eq!(
            resolve_scalar("~", true, Some(NULL_TAG)),
            Ok(Resolved::Null)
        );
        assert!(resolve_scalar("1.5", true, Some(INT_TAG)).is_err());
        assert!(resolve_scalar("1", true, Some(BOOL_TAG)).is_err());
        assert!(resolve_scalar("x", true, Some(NULL_TAG)).is_err());
        assert!(resolve_scalar("18446744073709551615", true, Some(FLOAT_TAG)).is_err());
        // Non-specific and custom tags keep the text.
        assert_eq!(
            resolve_scalar("12", true, Some("!")),
            Ok(Resolved::Str("12".into()))
        );
        assert_eq!(
            resolve_scalar("12", true, Some("!foo")),
            Ok(Resolved::Str("12".into()))
        );
        assert_eq!(
            resolve_scalar("aGVsbG8=", true, Some(BINARY_TAG)),
            Ok(Resolved::Str("hello".into()))
        );
        assert_eq!(
            resolve_scalar("aGVs\nbG8=", true, Some(BINARY_TAG)),
            Ok(Resolved::Str("hello".into()))
        );
        assert_eq!(
            resolve_scalar("/w==", true, Some(BINARY_TAG)),
            Ok(Resolved::Str("\u{FFFD}".into()))
        );
        assert!(resolve_scalar("aGVsbG8", true, Some(BINARY_TAG)).is_err());
    }

    #[test]
    fn json_float_normalisation() {
        assert_eq!(go_json_float(3.0), Some(3u64.into()));
        assert_eq!(go_json_float(-3.0), Some((-3i64).into()));
        assert_eq!(go_json_float(1.5), Number::from_f64(1.5));
        assert_eq!(go_json_float(1e20), Number::from_f64(1e20));
        assert_eq!(
            go_json_float(1e19),
            Some(10_000_000_000_000_000_000u64.into())
        );
        assert_eq!(go_json_float(1e21), Number::from_f64(1e21));
        assert_eq!(go_json_float(f64::INFINITY), None);
        assert!(go_json_float(-0.0).is_some_and(|n| n.is_f64()));
        // Exactly what serde_json reads from Go's text for the same value.
        assert_eq!(
            go_json_float(1234567890123456789.0),
            Some(1_234_567_890_123_456_800u64.into())
        );
        assert!(go_json_float(-9223372036854775808.0).is_some_and(|n| n.is_f64()));
        for (f, text) in [
            (3.0, "3"),
            (-0.0, "-0"),
            (1e20, "100000000000000000000"),
            (-9223372036854775808.0, "-9223372036854776000"),
            (12345678901234567.0, "12345678901234568"),
        ] {
            let parsed: Value = serde_json::from_str(text).unwrap();
            assert_eq!(Value::Number(go_json_float(f).unwrap()), parsed);
        }
    }

    #[test]
    fn float_keys_use_go_float32_formatting() {
        assert_eq!(go_format_float32_g(1.5), "1.5");
        assert_eq!(go_format_float32_g(1.0), "1");
        assert_eq!(go_format_float32_g(0.1), "0.1");
        assert_eq!(go_format_float32_g(1e6), "1e+06");
        assert_eq!(go_format_float32_g(123456.0), "123456");
        assert_eq!(go_format_float32_g(1234567.0), "1.234567e+06");
        assert_eq!(go_format_float32_g(0.0001), "0.0001");
        assert_eq!(go_format_float32_g(0.00001), "1e-05");
        assert_eq!(go_format_float32_g(std::f64::consts::PI), "3.1415927");
        assert_eq!(go_format_float32_g(-0.0), "-0");
        assert_eq!(go_format_float32_g(1e39), ".inf");
        assert_eq!(go_format_float32_g(f64::NAN), ".nan");
        assert_eq!(go_format_float32_g(1e100), ".inf");
        assert_eq!(go_format_float32_g(-1e100), "-.inf");
        assert_eq!(go_format_float32_g(1e-300), "0");
    }

    #[test]
    fn plain_kind_for_emitter() {
        assert_eq!(plain_kind("<<"), Kind::Str);
        assert_eq!(plain_kind("2024-01-01"), Kind::Timestamp);
        assert_eq!(plain_kind("hello"), Kind::Str);
        assert_eq!(plain_kind("0x1F"), Kind::Int);
    }
}
