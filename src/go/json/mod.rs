/*!
Go's `encoding/json`: what it writes and how it reads, byte for byte.

Writing: Go escapes `<`, `>` and `&` as `\u003c` … (unless HTML escaping is off), always escapes
U+2028 and U+2029, writes `\b`/`\f`, sorts map keys by their bytes and formats floats with its
own rule (`1e+21`, `1e-7`, shortest digits with Go's tie-breaking from [`super::strconv`]); NaN
and the infinities are its `UnsupportedValueError`. Cluster API stores a rendered template as
the bytes `json.Marshal` produced, and `eval --jsonl` writes lines like the Go oracle's encoder;
[`marshal`] does both for a `serde_json::Value`, [`write_string`] and [`encode_float`] serve
encoders of other value trees (Sprig's `toJson`).

Reading: [`Scanner`] is Go's scanner state machine, so syntax errors read exactly like Go's
(`invalid character 'x' looking for beginning of value`, `unexpected end of JSON input`, nesting
over 10000 levels…); [`syntax_error`] is its `checkValid` pass and [`unmarshal`] is
`json.Unmarshal` into an `interface{}`, building the caller's value type ([`Decoded`]) without
recursion, so deep documents cannot overflow the stack.
*/

use std::collections::BTreeMap;

pub mod structs;

use serde_json::Value;

use super::strconv::{format_float, quote_rune};

/// The name `encoding/json` gives a JSON value's kind in an `UnmarshalTypeError` (`cannot
/// unmarshal <name> into Go value of type …`).
pub fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

// ---- Encoding ----

/// `json.Marshal(v)` (HTML escaping on), compact.
pub fn marshal(v: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, v, true);
    out
}

/// A JSON string literal as Go's encoder writes it.
pub fn string(s: &str, escape_html: bool) -> String {
    let mut out = String::new();
    write_string(&mut out, s, escape_html);
    out
}

/// Append `v` to `out`.
pub fn write_value(out: &mut String, v: &Value, escape_html: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                out.push_str(&i.to_string());
            } else if let Some(u) = n.as_u64() {
                out.push_str(&u.to_string());
            } else {
                out.push_str(&float(n.as_f64().unwrap_or(0.0)));
            }
        }
        Value::String(s) => write_string(out, s, escape_html),
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item, escape_html);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            let mut keys: Vec<&String> = m.keys().collect();
            // Go sorts map keys by their UTF-8 bytes.
            keys.sort_unstable();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k, escape_html);
                out.push(':');
                if let Some(v) = m.get(k) {
                    write_value(out, v, escape_html);
                }
            }
            out.push('}');
        }
    }
}

/// Append a string literal.
pub fn write_string(out: &mut String, s: &str, escape_html: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' if escape_html => out.push_str(&format!("\\u{:04x}", c as u32)),
            // JSONP-breaking line separators are escaped whatever the HTML setting.
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A float64 as `encoding/json` formats it: shortest round-trip digits, plain notation unless
/// the magnitude is below 1e-6 or at least 1e21, then `e` notation with a trimmed exponent; NaN
/// and the infinities are Go's `json: unsupported value: …` error.
pub fn encode_float(f: f64) -> Result<String, String> {
    if !f.is_finite() {
        let name = if f.is_nan() {
            "NaN"
        } else if f > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        return Err(format!("json: unsupported value: {name}"));
    }
    let abs = f.abs();
    let e_format = abs != 0.0 && !(1e-6..1e21).contains(&abs);
    let mut s = format_float(f, if e_format { b'e' } else { b'f' }, -1);
    if e_format {
        // Go's clean-up: "e-07" becomes "e-7".
        let n = s.len();
        if n >= 4
            && s.as_bytes()[n - 4] == b'e'
            && s.as_bytes()[n - 3] == b'-'
            && s.as_bytes()[n - 2] == b'0'
        {
            s.remove(n - 2);
        }
    }
    Ok(s)
}

/// [`encode_float`] for values that cannot be NaN or infinite (YAML-read numbers: the reader
/// rejects `.inf` and `.nan` first); should one come, it is written `null`.
pub fn float(f: f64) -> String {
    encode_float(f).unwrap_or_else(|_| "null".into())
}

// ---- Decoding ----

/// Go's `encoding/json` scanner states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    BeginValue,
    BeginValueOrEmpty,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// Inside `true`, `false` or `null`: the literal and how many bytes matched.
    Word(&'static [u8], usize),
}

/// What a scanned byte did (Go's `scan*` codes, less the ones nobody reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Continue,
    BeginLiteral,
    BeginObject,
    ObjectKey,
    ObjectValue,
    EndObject,
    BeginArray,
    ArrayValue,
    EndArray,
    SkipSpace,
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ps {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// How deeply arrays and objects may nest (Go's `maxNestingDepth`).
pub const MAX_DEPTH: usize = 10_000;

struct Scanner {
    step: St,
    parse: Vec<Ps>,
    end_top: bool,
}

fn is_json_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a Latin-1 rune in single quotes, escaped like `strconv.Quote`
/// (which is `strconv.QuoteRune`: `'` escaped, `"` not).
fn quote_char(c: u8) -> String {
    quote_rune(u32::from(c), false)
}

fn invalid_character(c: u8, context: &str) -> String {
    format!("invalid character {} {context}", quote_char(c))
}

impl Scanner {
    fn new() -> Scanner {
        Scanner {
            step: St::BeginValue,
            parse: Vec::new(),
            end_top: false,
        }
    }

    fn push(&mut self, c: u8, ps: Ps, op: Op) -> Result<Op, String> {
        self.parse.push(ps);
        if self.parse.len() > MAX_DEPTH {
            return Err(invalid_character(c, "exceeded max depth"));
        }
        Ok(op)
    }

    fn pop(&mut self) {
        self.parse.pop();
        if self.parse.is_empty() {
            self.step = St::EndTop;
            self.end_top = true;
        } else {
            self.step = St::EndValue;
        }
    }

    fn begin_value(&mut self, c: u8) -> Result<Op, String> {
        if is_json_space(c) {
            return Ok(Op::SkipSpace);
        }
        let (step, op) = match c {
            b'{' => {
                self.step = St::BeginStringOrEmpty;
                return self.push(c, Ps::ObjectKey, Op::BeginObject);
            }
            b'[' => {
                self.step = St::BeginValueOrEmpty;
                return self.push(c, Ps::ArrayValue, Op::BeginArray);
            }
            b'"' => (St::InString, Op::BeginLiteral),
            b'-' => (St::Neg, Op::BeginLiteral),
            b'0' => (St::Zero, Op::BeginLiteral),
            b't' => (St::Word(b"true", 1), Op::BeginLiteral),
            b'f' => (St::Word(b"false", 1), Op::BeginLiteral),
            b'n' => (St::Word(b"null", 1), Op::BeginLiteral),
            b'1'..=b'9' => (St::One, Op::BeginLiteral),
            _ => return Err(invalid_character(c, "looking for beginning of value")),
        };
        self.step = step;
        Ok(op)
    }

    fn end_value(&mut self, c: u8) -> Result<Op, String> {
        let Some(&ps) = self.parse.last() else {
            self.step = St::EndTop;
            self.end_top = true;
            return self.end_top(c);
        };
        if is_json_space(c) {
            self.step = St::EndValue;
            return Ok(Op::SkipSpace);
        }
        let last = self.parse.len() - 1;
        match (ps, c) {
            (Ps::ObjectKey, b':') => {
                self.parse[last] = Ps::ObjectValue;
                self.step = St::BeginValue;
                Ok(Op::ObjectKey)
            }
            (Ps::ObjectKey, _) => Err(invalid_character(c, "after object key")),
            (Ps::ObjectValue, b',') => {
                self.parse[last] = Ps::ObjectKey;
                self.step = St::BeginString;
                Ok(Op::ObjectValue)
            }
            (Ps::ObjectValue, b'}') => {
                self.pop();
                Ok(Op::EndObject)
            }
            (Ps::ObjectValue, _) => Err(invalid_character(c, "after object key:value pair")),
            (Ps::ArrayValue, b',') => {
                self.step = St::BeginValue;
                Ok(Op::ArrayValue)
            }
            (Ps::ArrayValue, b']') => {
                self.pop();
                Ok(Op::EndArray)
            }
            (Ps::ArrayValue, _) => Err(invalid_character(c, "after array element")),
        }
    }

    fn end_top(&mut self, c: u8) -> Result<Op, String> {
        if is_json_space(c) {
            Ok(Op::End)
        } else {
            Err(invalid_character(c, "after top-level value"))
        }
    }

    /// One byte through the current state.
    fn step(&mut self, c: u8) -> Result<Op, String> {
        let set = |s: &mut Scanner, st: St| {
            s.step = st;
            Ok(Op::Continue)
        };
        match self.step {
            St::BeginValue => self.begin_value(c),
            St::BeginValueOrEmpty => {
                if is_json_space(c) {
                    Ok(Op::SkipSpace)
                } else if c == b']' {
                    self.end_value(c)
                } else {
                    self.begin_value(c)
                }
            }
            St::BeginStringOrEmpty => {
                if is_json_space(c) {
                    Ok(Op::SkipSpace)
                } else if c == b'}' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Ps::ObjectValue;
                    }
                    self.end_value(c)
                } else {
                    self.begin_string(c)
                }
            }
            St::BeginString => self.begin_string(c),
            St::EndValue => self.end_value(c),
            St::EndTop => self.end_top(c),
            St::InString => match c {
                b'"' => set(self, St::EndValue),
                b'\\' => set(self, St::InStringEsc),
                c if c < 0x20 => Err(invalid_character(c, "in string literal")),
                _ => Ok(Op::Continue),
            },
            St::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => set(self, St::InString),
                b'u' => set(self, St::InStringEscU(0)),
                _ => Err(invalid_character(c, "in string escape code")),
            },
            St::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return Err(invalid_character(c, "in \\u hexadecimal character escape"));
                }
                set(
                    self,
                    if n == 3 {
                        St::InString
                    } else {
                        St::InStringEscU(n + 1)
                    },
                )
            }
            St::Neg => match c {
                b'0' => set(self, St::Zero),
                b'1'..=b'9' => set(self, St::One),
                _ => Err(invalid_character(c, "in numeric literal")),
            },
            St::One if c.is_ascii_digit() => Ok(Op::Continue),
            St::One | St::Zero => match c {
                b'.' => set(self, St::Dot),
                b'e' | b'E' => set(self, St::E),
                _ => self.end_value(c),
            },
            St::Dot => {
                if c.is_ascii_digit() {
                    set(self, St::Dot0)
                } else {
                    Err(invalid_character(
                        c,
                        "after decimal point in numeric literal",
                    ))
                }
            }
            St::Dot0 => match c {
                b'0'..=b'9' => Ok(Op::Continue),
                b'e' | b'E' => set(self, St::E),
                _ => self.end_value(c),
            },
            St::E if c == b'+' || c == b'-' => set(self, St::ESign),
            St::E | St::ESign => {
                if c.is_ascii_digit() {
                    set(self, St::E0)
                } else {
                    Err(invalid_character(c, "in exponent of numeric literal"))
                }
            }
            St::E0 => {
                if c.is_ascii_digit() {
                    Ok(Op::Continue)
                } else {
                    self.end_value(c)
                }
            }
            St::Word(word, n) => {
                let want = word.get(n).copied().unwrap_or(b' ');
                if c != want {
                    let name = std::str::from_utf8(word).unwrap_or_default();
                    let context = format!("in literal {name} (expecting {})", quote_char(want));
                    return Err(invalid_character(c, &context));
                }
                set(
                    self,
                    if n + 1 == word.len() {
                        St::EndValue
                    } else {
                        St::Word(word, n + 1)
                    },
                )
            }
        }
    }

    fn begin_string(&mut self, c: u8) -> Result<Op, String> {
        if is_json_space(c) {
            Ok(Op::SkipSpace)
        } else if c == b'"' {
            self.step = St::InString;
            Ok(Op::BeginLiteral)
        } else {
            Err(invalid_character(
                c,
                "looking for beginning of object key string",
            ))
        }
    }

    /// End of input: a final space settles numbers, anything unfinished is an error.
    fn eof(&mut self) -> Result<(), String> {
        if self.end_top {
            return Ok(());
        }
        self.step(b' ')?;
        if self.end_top {
            Ok(())
        } else {
            Err("unexpected end of JSON input".into())
        }
    }
}

/// The syntax error Go's `encoding/json` reports for `bytes` (its `checkValid` pass, which runs
/// before any decoding), or `None` when `bytes` is one well-formed JSON value.
pub fn syntax_error(bytes: &[u8]) -> Option<String> {
    let mut scanner = Scanner::new();
    for &c in bytes {
        if let Err(e) = scanner.step(c) {
            return Some(e);
        }
    }
    scanner.eof().err()
}

/// The values `json.Unmarshal` makes of JSON when decoding into an `interface{}`, in the
/// caller's value type.
pub trait Decoded: Sized {
    /// `null` (and a number too large for a float64, after Go's error).
    fn null() -> Self;
    /// `true` or `false`.
    fn bool(b: bool) -> Self;
    /// Every number.
    fn float64(f: f64) -> Self;
    /// A string.
    fn string(s: String) -> Self;
    /// An array (`[]interface{}`).
    fn array(items: Vec<Self>) -> Self;
    /// An object (`map[string]interface{}`; a repeated key keeps its last value).
    fn object(entries: BTreeMap<String, Self>) -> Self;
}

/// A container being filled.
enum Open<V> {
    Array(Vec<V>),
    Object(BTreeMap<String, V>, Option<String>),
}

/// `json.Unmarshal` into an `interface{}`: the value (null where a number did not fit a float64,
/// and null altogether on a syntax error) and the first error.
pub fn unmarshal<V: Decoded>(text: &str) -> (V, Option<String>) {
    let bytes = text.as_bytes();
    let mut scanner = Scanner::new();
    let mut open: Vec<Open<V>> = Vec::new();
    let mut done: Option<V> = None;
    // The text of the literal being scanned, then of the one just scanned.
    let mut literal: Option<usize> = None;
    let mut scanned: Option<&str> = None;
    let mut first_error: Option<String> = None;
    for (i, &c) in bytes.iter().enumerate() {
        let op = match scanner.step(c) {
            Ok(op) => op,
            Err(e) => return (V::null(), Some(e)),
        };
        if op == Op::Continue {
            continue;
        }
        if let Some(start) = literal.take() {
            scanned = Some(&text[start..i]);
        }
        match op {
            Op::BeginLiteral => literal = Some(i),
            Op::BeginObject => open.push(Open::Object(BTreeMap::new(), None)),
            Op::BeginArray => open.push(Open::Array(Vec::new())),
            Op::ObjectKey => {
                if let (Some(Open::Object(_, key)), Some(lit)) = (open.last_mut(), scanned.take()) {
                    *key = Some(unquote(lit));
                }
            }
            Op::ObjectValue | Op::EndObject | Op::ArrayValue | Op::EndArray => {
                if let Some(lit) = scanned.take() {
                    done = Some(decode_literal(lit, &mut first_error));
                }
                match (open.last_mut(), done.take()) {
                    (Some(Open::Array(items)), Some(v)) => items.push(v),
                    (Some(Open::Object(entries, key)), Some(v)) => {
                        if let Some(k) = key.take() {
                            entries.insert(k, v);
                        }
                    }
                    _ => {}
                }
                if matches!(op, Op::EndObject | Op::EndArray) {
                    done = open.pop().map(|o| match o {
                        Open::Array(items) => V::array(items),
                        Open::Object(entries, _) => V::object(entries),
                    });
                }
            }
            Op::Continue | Op::SkipSpace | Op::End => {}
        }
    }
    if let Err(e) = scanner.eof() {
        return (V::null(), Some(e));
    }
    if let Some(start) = literal.take() {
        scanned = Some(&text[start..]);
    }
    if let Some(lit) = scanned.take() {
        done = Some(decode_literal(lit, &mut first_error));
    }
    (done.unwrap_or_else(V::null), first_error)
}

/// A scanned (so well-formed) literal's value.
fn decode_literal<V: Decoded>(lit: &str, first_error: &mut Option<String>) -> V {
    match lit.as_bytes().first() {
        Some(b'"') => V::string(unquote(lit)),
        Some(b't') => V::bool(true),
        Some(b'f') => V::bool(false),
        Some(b'n') => V::null(),
        _ => match lit.parse::<f64>() {
            Ok(x) if x.is_finite() => V::float64(x),
            _ => {
                if first_error.is_none() {
                    *first_error = Some(format!(
                        "json: cannot unmarshal number {lit} into Go value of type float64"
                    ));
                }
                V::null()
            }
        },
    }
}

/// A JSON string literal's text, with Go's handling of surrogates (a pair combines, anything
/// else becomes U+FFFD).
fn unquote(lit: &str) -> String {
    let inner = lit.get(1..lit.len().saturating_sub(1)).unwrap_or_default();
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    let hex4 = |s: &str| -> Option<u32> {
        let h = s.strip_prefix("\\u")?.get(..4)?;
        u32::from_str_radix(h, 16).ok()
    };
    while let Some(pos) = rest.find('\\') {
        out.push_str(&rest[..pos]);
        rest = &rest[pos..];
        let esc = rest.as_bytes().get(1).copied().unwrap_or(b'\\');
        let simple = match esc {
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            b'u' => None,
            other => Some(char::from(other)),
        };
        if let Some(c) = simple {
            out.push(c);
            rest = rest.get(2..).unwrap_or_default();
            continue;
        }
        let r = hex4(rest).unwrap_or(0xFFFD);
        rest = rest.get(6..).unwrap_or_default();
        if (0xD800..0xE000).contains(&r) {
            if (0xD800..0xDC00).contains(&r)
                && let Some(r2) = hex4(rest)
                && (0xDC00..0xE000).contains(&r2)
            {
                let c = 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00);
                out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                rest = rest.get(6..).unwrap_or_default();
            } else {
                out.push('\u{FFFD}');
            }
            continue;
        }
        out.push(char::from_u32(r).unwrap_or('\u{FFFD}'));
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    impl Decoded for Value {
        fn null() -> Value {
            Value::Null
        }
        fn bool(b: bool) -> Value {
            Value::Bool(b)
        }
        fn float64(f: f64) -> Value {
            json!(f)
        }
        fn string(s: String) -> Value {
            Value::String(s)
        }
        fn array(items: Vec<Value>) -> Value {
            Value::Array(items)
        }
        fn object(entries: BTreeMap<String, Value>) -> Value {
            Value::Object(entries.into_iter().collect())
        }
    }

    #[test]
    fn floats_like_go() {
        for (f, want) in [
            (1.0, "1"),
            (1.5, "1.5"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.234e-10, "1.234e-10"),
            (0.1, "0.1"),
            (-2.5, "-2.5"),
            (123456789.0, "123456789"),
            (0.30000000000000004, "0.30000000000000004"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            // An exact tie: Go rounds the shortest digits half to even.
            (678_002_113_398_406.2, "678002113398406.2"),
            (-0.0, "-0"),
        ] {
            assert_eq!(float(f), want, "{f}");
        }
    }

    #[test]
    fn html_escaping_and_separators() {
        assert_eq!(marshal(&json!("<a&b>")), r#""\u003ca\u0026b\u003e""#);
        assert_eq!(string("<a>", false), r#""<a>""#);
        assert_eq!(string("\u{2028}\u{8}\u{1}", false), r#""\u2028\b\u0001""#);
    }

    #[test]
    fn quote_char_like_go() {
        assert_eq!(quote_char(b'\''), "'\\''");
        assert_eq!(quote_char(b'"'), "'\"'");
        assert_eq!(quote_char(b'\\'), "'\\\\'");
        assert_eq!(quote_char(0x0b), "'\\v'");
        assert_eq!(quote_char(0x1b), "'\\x1b'");
        assert_eq!(quote_char(0x7f), "'\\x7f'");
        assert_eq!(quote_char(0x85), "'\\u0085'");
        assert_eq!(quote_char(0xa0), "'\\u00a0'");
        assert_eq!(quote_char(0xad), "'\\u00ad'");
        assert_eq!(quote_char(0xe9), "'é'");
    }

    #[test]
    fn syntax_errors_and_unmarshal() {
        assert_eq!(syntax_error(b" [1, {\"a\": null}] "), None);
        assert_eq!(
            syntax_error(b"[1,]").as_deref(),
            Some("invalid character ']' looking for beginning of value")
        );
        assert_eq!(
            syntax_error(b"{").as_deref(),
            Some("unexpected end of JSON input")
        );
        let (v, e) = unmarshal::<Value>(r#"{"a" : [1, "x\u00e9", true, null, 1e400], "b": {}}"#);
        assert_eq!(v, json!({"a": [1.0, "xé", true, null, null], "b": {}}));
        assert_eq!(
            e.as_deref(),
            Some("json: cannot unmarshal number 1e400 into Go value of type float64")
        );
    }

    #[test]
    fn objects_sorted_and_compact() {
        assert_eq!(
            marshal(&json!({"b": [1, 2.5, null], "a": {"z": true}})),
            r#"{"a":{"z":true},"b":[1,2.5,null]}"#
        );
    }
}
