/*!
Sprig's encoding functions: JSON (`fromJson`, `mustFromJson`, `toJson`, `mustToJson`,
`toPrettyJson`, `mustToPrettyJson`, `toRawJson`, `mustToRawJson`) and base64/base32 (`b64enc`,
`b64dec`, `b32enc`, `b32dec`), written to give Go's `encoding/json`, `encoding/base64` and
`encoding/base32` output and error texts byte for byte.

JSON out: map keys sorted, floats as Go prints them (`1e+21`, `1e-7`, `3` for 3.0), `<`, `>`, `&`
escaped as `\u003c`… except in `toRawJson`, U+2028/U+2029 always escaped, `[]byte` as base64,
semantic versions as their string; NaN and ±Inf are errors (`toJson` then gives "", `toRawJson`
fails like `mustToRawJson`).

JSON in: a scanner with Go's states, so errors read exactly like Go's (`invalid character 'x'
looking for beginning of value`, `unexpected end of JSON input`, nesting over 10000 levels…);
numbers become float64, one too large for it is Go's `cannot unmarshal number … into Go value of
type float64` (and nil in `fromJson`, which ignores errors). No recursion: deep documents cannot
overflow the stack.

The decoders return Go's error text *as the result* on bad input, as Sprig does.
*/

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::cast::{arg_any, arg_str, go_lossy};
use super::strings::{MAX_STRING_BYTES, too_large};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("fromJson", &[Param::String], from_json),
    Func::fixed("mustFromJson", &[Param::String], must_from_json),
    Func::fixed("toJson", &[Param::Any], to_json),
    Func::fixed("mustToJson", &[Param::Any], must_to_json),
    Func::fixed("toPrettyJson", &[Param::Any], to_pretty_json),
    Func::fixed("mustToPrettyJson", &[Param::Any], must_to_pretty_json),
    Func::fixed("toRawJson", &[Param::Any], to_raw_json),
    Func::fixed("mustToRawJson", &[Param::Any], to_raw_json),
    Func::fixed("b64enc", &[Param::String], b64enc),
    Func::fixed("b64dec", &[Param::String], b64dec),
    Func::fixed("b32enc", &[Param::String], b32enc),
    Func::fixed("b32dec", &[Param::String], b32dec),
];

// ---- JSON encoding ----

/// How to write JSON.
#[derive(Debug, Clone, Copy)]
struct Style {
    /// Escape `<`, `>`, `&` (json.Marshal; not the raw encoder).
    html: bool,
    /// Indent by two spaces per level (json.MarshalIndent with prefix "" and indent "  ").
    pretty: bool,
}

/// Why encoding failed.
#[derive(Debug)]
enum EncodeError {
    /// Go's error (NaN or an infinity): `toJson` and `toPrettyJson` swallow it.
    Go(String),
    /// The output would pass [`MAX_STRING_BYTES`]: our limit, always reported.
    TooLarge,
}

impl From<EncodeError> for String {
    fn from(e: EncodeError) -> String {
        match e {
            EncodeError::Go(msg) => msg,
            EncodeError::TooLarge => too_large(),
        }
    }
}

/// Go's `json.Marshal` family.
fn encode(v: &Value, style: Style) -> Result<String, EncodeError> {
    encode_limited(v, style, MAX_STRING_BYTES)
}

/// [`encode`] with an output limit.
fn encode_limited(v: &Value, style: Style, limit: usize) -> Result<String, EncodeError> {
    enum Frame<'a> {
        List(std::slice::Iter<'a, Value>),
        Dict(std::collections::btree_map::Iter<'a, String, Value>),
    }
    let mut out = String::new();
    let mut stack: Vec<(Frame, bool)> = Vec::new();
    let newline = |out: &mut String, depth: usize| {
        if style.pretty {
            out.push('\n');
            for _ in 0..depth {
                out.push_str("  ");
            }
        }
    };
    let mut next = Some(v);
    loop {
        // Checked every step: indentation alone grows quadratically with nesting depth.
        if out.len() > limit {
            return Err(EncodeError::TooLarge);
        }
        if let Some(v) = next.take() {
            match v {
                Value::Slice(l) if !l.items.is_empty() => {
                    out.push('[');
                    stack.push((Frame::List(l.items.iter()), true));
                }
                Value::Map(m) if !m.entries.is_empty() => {
                    out.push('{');
                    stack.push((Frame::Dict(m.entries.iter()), true));
                }
                scalar => encode_scalar(scalar, style, &mut out).map_err(EncodeError::Go)?,
            }
        }
        let depth = stack.len();
        let Some((frame, first)) = stack.last_mut() else {
            return Ok(out);
        };
        let was_first = std::mem::replace(first, false);
        let item = match frame {
            Frame::List(items) => items.next().map(|v| (None, v)),
            Frame::Dict(entries) => entries.next().map(|(k, v)| (Some(k), v)),
        };
        match item {
            Some((key, v)) => {
                if !was_first {
                    out.push(',');
                }
                newline(&mut out, depth);
                if let Some(k) = key {
                    encode_string(k, style.html, &mut out);
                    out.push(':');
                    if style.pretty {
                        out.push(' ');
                    }
                }
                next = Some(v);
            }
            None => {
                let close = if matches!(frame, Frame::List(_)) {
                    ']'
                } else {
                    '}'
                };
                stack.pop();
                newline(&mut out, depth - 1);
                out.push(close);
            }
        }
    }
}

fn encode_scalar(v: &Value, style: Style, out: &mut String) -> Result<(), String> {
    match v {
        Value::Invalid | Value::Nil => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) | Value::Int64(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Uint64(u) => {
            let _ = write!(out, "{u}");
        }
        Value::Float(x) => out.push_str(&json_float(*x)?),
        Value::String(s) => encode_string(s, style.html, out),
        Value::Bytes(b) => {
            out.push('"');
            out.push_str(&base64_encode(b));
            out.push('"');
        }
        // Empty collections (non-empty ones are opened by the caller).
        Value::Slice(_) => out.push_str("[]"),
        Value::Map(_) => out.push_str("{}"),
        // semver.Version's MarshalJSON: its String() as a JSON string.
        Value::Semver(ver, _) => {
            let mut s = format!("{}.{}.{}", ver.major, ver.minor, ver.patch);
            if !ver.pre.is_empty() {
                let _ = write!(s, "-{}", ver.pre);
            }
            if !ver.metadata.is_empty() {
                let _ = write!(s, "+{}", ver.metadata);
            }
            encode_string(&s, style.html, out);
        }
    }
    Ok(())
}

/// A float64 as `encoding/json` writes it: shortest round-trip digits, plain notation for
/// magnitudes in [1e-6, 1e21), exponent notation (`1e+21`, `1e-7`) outside.
fn json_float(x: f64) -> Result<String, String> {
    if !x.is_finite() {
        let name = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "+Inf"
        } else {
            "-Inf"
        };
        return Err(format!("json: unsupported value: {name}"));
    }
    let abs = x.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let e = format!("{x:e}");
        if let Some((mantissa, exp)) = e.split_once('e') {
            let sign = if exp.starts_with('-') { "" } else { "+" };
            return Ok(format!("{mantissa}e{sign}{exp}"));
        }
    }
    Ok(format!("{x}"))
}

/// A JSON string literal as Go writes it.
fn encode_string(s: &str, html: bool, out: &mut String) {
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
            '<' | '>' | '&' if html => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            // JavaScript line terminators, escaped even without HTML escaping.
            '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

const MARSHAL: Style = Style {
    html: true,
    pretty: false,
};

/// `toJson`/`toPrettyJson`: Go's errors give "", ours still fail.
fn lenient(r: Result<String, EncodeError>) -> Result<Value, String> {
    match r {
        Err(EncodeError::Go(_)) => Ok(Value::str("")),
        other => Ok(Value::str(other?)),
    }
}

fn to_json(args: &[Value]) -> Result<Value, String> {
    lenient(encode(arg_any(args, 0), MARSHAL))
}

fn must_to_json(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(encode(arg_any(args, 0), MARSHAL)?))
}

const PRETTY: Style = Style {
    html: true,
    pretty: true,
};

fn to_pretty_json(args: &[Value]) -> Result<Value, String> {
    lenient(encode(arg_any(args, 0), PRETTY))
}

fn must_to_pretty_json(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(encode(arg_any(args, 0), PRETTY)?))
}

/// `toRawJson` panics with the error `mustToRawJson` returns, so both fail alike.
fn to_raw_json(args: &[Value]) -> Result<Value, String> {
    let raw = Style {
        html: false,
        pretty: false,
    };
    Ok(Value::str(encode(arg_any(args, 0), raw)?))
}

// ---- JSON decoding ----

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

const MAX_DEPTH: usize = 10_000;

struct Scanner {
    step: St,
    parse: Vec<Ps>,
    end_top: bool,
}

fn is_json_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a Latin-1 rune in single quotes, escaped like `strconv.Quote`.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".into(),
        b'"' => "'\"'".into(),
        b'\\' => "'\\\\'".into(),
        0x07 => "'\\a'".into(),
        0x08 => "'\\b'".into(),
        0x0c => "'\\f'".into(),
        b'\n' => "'\\n'".into(),
        b'\r' => "'\\r'".into(),
        b'\t' => "'\\t'".into(),
        0x0b => "'\\v'".into(),
        c if c < 0x20 || c == 0x7f => format!("'\\x{c:02x}'"),
        // C1 controls, no-break space and soft hyphen are not printable for strconv.
        c if (0x80..=0xa0).contains(&c) || c == 0xad => format!("'\\u{:04x}'", u32::from(c)),
        c => format!("'{}'", char::from(c)),
    }
}

fn syntax_error(c: u8, context: &str) -> String {
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
            return Err(syntax_error(c, "exceeded max depth"));
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
            _ => return Err(syntax_error(c, "looking for beginning of value")),
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
            (Ps::ObjectKey, _) => Err(syntax_error(c, "after object key")),
            (Ps::ObjectValue, b',') => {
                self.parse[last] = Ps::ObjectKey;
                self.step = St::BeginString;
                Ok(Op::ObjectValue)
            }
            (Ps::ObjectValue, b'}') => {
                self.pop();
                Ok(Op::EndObject)
            }
            (Ps::ObjectValue, _) => Err(syntax_error(c, "after object key:value pair")),
            (Ps::ArrayValue, b',') => {
                self.step = St::BeginValue;
                Ok(Op::ArrayValue)
            }
            (Ps::ArrayValue, b']') => {
                self.pop();
                Ok(Op::EndArray)
            }
            (Ps::ArrayValue, _) => Err(syntax_error(c, "after array element")),
        }
    }

    fn end_top(&mut self, c: u8) -> Result<Op, String> {
        if is_json_space(c) {
            Ok(Op::End)
        } else {
            Err(syntax_error(c, "after top-level value"))
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
                c if c < 0x20 => Err(syntax_error(c, "in string literal")),
                _ => Ok(Op::Continue),
            },
            St::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => set(self, St::InString),
                b'u' => set(self, St::InStringEscU(0)),
                _ => Err(syntax_error(c, "in string escape code")),
            },
            St::InStringEscU(n) => {
                if !c.is_ascii_hexdigit() {
                    return Err(syntax_error(c, "in \\u hexadecimal character escape"));
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
                _ => Err(syntax_error(c, "in numeric literal")),
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
                    Err(syntax_error(c, "after decimal point in numeric literal"))
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
                    Err(syntax_error(c, "in exponent of numeric literal"))
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
                    return Err(syntax_error(c, &context));
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
            Err(syntax_error(
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

/// A container being filled.
enum Open {
    List(Vec<Value>),
    Dict(BTreeMap<String, Value>, Option<String>),
}

/// Go's `json.Unmarshal` into an `interface{}`: the value (with nil where a number did not fit
/// a float64) and the first error.
fn decode(text: &str) -> (Value, Option<String>) {
    let bytes = text.as_bytes();
    let mut scanner = Scanner::new();
    let mut open: Vec<Open> = Vec::new();
    let mut done: Option<Value> = None;
    let mut literal: Option<usize> = None;
    let mut first_error: Option<String> = None;
    for (i, &c) in bytes.iter().enumerate() {
        let op = match scanner.step(c) {
            Ok(op) => op,
            Err(e) => return (Value::Nil, Some(e)),
        };
        if op == Op::Continue {
            continue;
        }
        if let Some(start) = literal.take() {
            done = Some(decode_literal(&text[start..i], &mut first_error));
        }
        match op {
            Op::BeginLiteral => literal = Some(i),
            Op::BeginObject => open.push(Open::Dict(BTreeMap::new(), None)),
            Op::BeginArray => open.push(Open::List(Vec::new())),
            Op::ObjectKey => {
                if let (Some(Open::Dict(_, key)), Some(Value::String(k))) =
                    (open.last_mut(), done.take())
                {
                    *key = Some(k.to_string());
                }
            }
            Op::ObjectValue | Op::EndObject | Op::ArrayValue | Op::EndArray => {
                match (open.last_mut(), done.take()) {
                    (Some(Open::List(items)), Some(v)) => items.push(v),
                    (Some(Open::Dict(entries, key)), Some(v)) => {
                        if let Some(k) = key.take() {
                            entries.insert(k, v);
                        }
                    }
                    _ => {}
                }
                if matches!(op, Op::EndObject | Op::EndArray) {
                    done = open.pop().map(|o| match o {
                        Open::List(items) => Value::list(items),
                        Open::Dict(entries, _) => Value::dict(entries),
                    });
                }
            }
            Op::Continue | Op::SkipSpace | Op::End => {}
        }
    }
    if let Err(e) = scanner.eof() {
        return (Value::Nil, Some(e));
    }
    if let Some(start) = literal.take() {
        done = Some(decode_literal(&text[start..], &mut first_error));
    }
    (done.unwrap_or(Value::Nil), first_error)
}

/// The syntax error Go's `encoding/json` reports for `bytes` (its `checkValid` pass, which runs
/// before any decoding), or `None` when `bytes` is one well-formed JSON value.
pub fn json_syntax_error(bytes: &[u8]) -> Option<String> {
    let mut scanner = Scanner::new();
    for &c in bytes {
        if let Err(e) = scanner.step(c) {
            return Some(e);
        }
    }
    scanner.eof().err()
}

/// A scanned (so well-formed) literal's value.
fn decode_literal(lit: &str, first_error: &mut Option<String>) -> Value {
    match lit.as_bytes().first() {
        Some(b'"') => Value::str(unquote(lit)),
        Some(b't') => Value::Bool(true),
        Some(b'f') => Value::Bool(false),
        Some(b'n') => Value::Nil,
        _ => match lit.parse::<f64>() {
            Ok(x) if x.is_finite() => Value::Float(x),
            _ => {
                if first_error.is_none() {
                    *first_error = Some(format!(
                        "json: cannot unmarshal number {lit} into Go value of type float64"
                    ));
                }
                Value::Nil
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

fn from_json(args: &[Value]) -> Result<Value, String> {
    Ok(decode(arg_str(args, 0)?).0)
}

fn must_from_json(args: &[Value]) -> Result<Value, String> {
    match decode(arg_str(args, 0)?) {
        (_, Some(e)) => Err(e),
        (v, None) => Ok(v),
    }
}

// ---- base64 and base32 (standard alphabets, padded) ----

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// `base64.StdEncoding.EncodeToString`.
pub fn base64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(B64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u8> {
    B64.iter().position(|&x| x == c).map(|p| p as u8)
}

/// `base64.StdEncoding.DecodeString`, with Go's error offsets: newlines are skipped, a quantum
/// cut short by the end of input or by bad padding is an error.
pub(crate) fn base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    let is_nl = |c: u8| c == b'\n' || c == b'\r';
    while si < src.len() {
        let mut buf = [0u8; 4];
        let mut len = 4;
        let mut j = 0;
        let mut trailing: Option<usize> = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = b64_value(c) {
                buf[j] = v;
                j += 1;
                continue;
            }
            if is_nl(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Err(si - 1);
            }
            // Padding: "==" after two symbols, "=" after three, then only newlines.
            if j == 2 {
                while si < src.len() && is_nl(src[si]) {
                    si += 1;
                }
                if si == src.len() {
                    return Err(src.len());
                }
                if src[si] != b'=' {
                    return Err(si - 1);
                }
                si += 1;
            }
            while si < src.len() && is_nl(src[si]) {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            len = j;
            break;
        }
        let n = (u32::from(buf[0]) << 18)
            | (u32::from(buf[1]) << 12)
            | (u32::from(buf[2]) << 6)
            | u32::from(buf[3]);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..len - 1]);
        if let Some(at) = trailing {
            return Err(at);
        }
        if len < 4 {
            break;
        }
    }
    Ok(out)
}

/// `base32.StdEncoding.EncodeToString`.
fn base32_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut b = [0u8; 5];
        b[..chunk.len()].copy_from_slice(chunk);
        let n = b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
        // Symbols that carry input bits: 2, 4, 5, 7 or 8 for 1 to 5 bytes.
        let symbols = [0, 2, 4, 5, 7, 8][chunk.len()];
        for k in 0..8 {
            if k < symbols {
                out.push(char::from(B32[((n >> (35 - 5 * k)) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base32.StdEncoding.DecodeString`: newlines are removed first (error offsets count the
/// input without them), then 8-symbol quanta with Go's padding rules.
fn base32_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let src: Vec<u8> = src
        .iter()
        .copied()
        .filter(|c| *c != b'\n' && *c != b'\r')
        .collect();
    let olen = src.len();
    let mut rest = &src[..];
    let mut out = Vec::with_capacity(olen / 8 * 5);
    let mut end = false;
    while !rest.is_empty() && !end {
        let mut buf = [0u8; 8];
        let mut len = 8;
        let mut j = 0;
        while j < 8 {
            let Some((&c, tail)) = rest.split_first() else {
                return Err(olen - j);
            };
            rest = tail;
            if c == b'=' && j >= 2 && rest.len() < 8 {
                if rest.len() + j < 7 {
                    return Err(olen);
                }
                for k in 0..7 - j {
                    if rest.len() > k && rest[k] != b'=' {
                        return Err(olen - rest.len() + k - 1);
                    }
                }
                len = j;
                end = true;
                if matches!(len, 1 | 3 | 6) {
                    return Err(olen - rest.len() - 1);
                }
                break;
            }
            match B32.iter().position(|&x| x == c) {
                Some(v) => buf[j] = v as u8,
                None => return Err(olen - rest.len() - 1),
            }
            j += 1;
        }
        let n = buf.iter().fold(0u64, |acc, &x| (acc << 5) | u64::from(x));
        let bytes = [
            (n >> 32) as u8,
            (n >> 24) as u8,
            (n >> 16) as u8,
            (n >> 8) as u8,
            n as u8,
        ];
        let take = match len {
            8 => 5,
            7 => 4,
            5 => 3,
            4 => 2,
            2 => 1,
            _ => 0,
        };
        out.extend_from_slice(&bytes[..take]);
    }
    Ok(out)
}

fn b64enc(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(base64_encode(arg_str(args, 0)?.as_bytes())))
}

fn b64dec(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(
        match base64_decode(arg_str(args, 0)?.as_bytes()) {
            Ok(data) => go_lossy(&data),
            Err(at) => format!("illegal base64 data at input byte {at}"),
        },
    ))
}

fn b32enc(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(base32_encode(arg_str(args, 0)?.as_bytes())))
}

fn b32dec(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(
        match base32_decode(arg_str(args, 0)?.as_bytes()) {
            Ok(data) => go_lossy(&data),
            Err(at) => format!("illegal base32 data at input byte {at}"),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotemplate::value::{GoType, Version};
    use std::sync::Arc;

    fn call(name: &str, args: &[Value]) -> Result<Value, String> {
        let func = FUNCS
            .iter()
            .find(|f| f.name == name)
            .expect("function exists");
        (func.imp)(args)
    }

    fn text(name: &str, arg: Value) -> String {
        match call(name, &[arg]) {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{name}: {other:?}"),
        }
    }

    fn json(v: serde_json::Value) -> Value {
        Value::from_json(&v)
    }

    #[test]
    fn floats_like_go() {
        let cases = [
            (1e-7, "1e-7"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-10, "1.5e-10"),
            (-0.0, "-0"),
            (3.0, "3"),
            (0.1, "0.1"),
            (1e-6, "0.000001"),
            (123456789.125, "123456789.125"),
            (-1.25e300, "-1.25e+300"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
        ];
        for (x, want) in cases {
            assert_eq!(text("toJson", Value::Float(x)), want);
        }
        assert_eq!(text("toJson", Value::Float(f64::NAN)), "");
        assert_eq!(
            call("mustToJson", &[Value::Float(f64::NEG_INFINITY)]),
            Err("json: unsupported value: -Inf".into())
        );
        assert_eq!(
            call("toRawJson", &[Value::Float(f64::NAN)]),
            Err("json: unsupported value: NaN".into())
        );
        assert_eq!(
            call(
                "mustToPrettyJson",
                &[Value::list(vec![Value::Float(f64::INFINITY)])]
            ),
            Err("json: unsupported value: +Inf".into())
        );
    }

    #[test]
    fn strings_and_structure() {
        let s = Value::str("<a&b>\u{2028}\u{8}\u{c}\u{1}\u{7f}\"\\é\n");
        assert_eq!(
            text("toJson", s.clone()),
            "\"\\u003ca\\u0026b\\u003e\\u2028\\b\\f\\u0001\u{7f}\\\"\\\\é\\n\""
        );
        assert_eq!(
            text("toRawJson", s),
            "\"<a&b>\\u2028\\b\\f\\u0001\u{7f}\\\"\\\\é\\n\""
        );
        let v = json(serde_json::json!({"b": [1, "x", null, true, {}], "a": {"k<": []}}));
        assert_eq!(
            text("toJson", v.clone()),
            r#"{"a":{"k\u003c":[]},"b":[1,"x",null,true,{}]}"#
        );
        assert_eq!(
            text("toPrettyJson", v.clone()),
            "{\n  \"a\": {\n    \"k\\u003c\": []\n  },\n  \"b\": [\n    1,\n    \"x\",\n    null,\n    true,\n    {}\n  ]\n}"
        );
        assert_eq!(
            text("mustToRawJson", v),
            r#"{"a":{"k<":[]},"b":[1,"x",null,true,{}]}"#
        );
        assert_eq!(text("toJson", Value::Nil), "null");
        // Our size limit is an error even where Go's errors are swallowed; pretty output grows
        // quadratically with depth.
        let mut deep = Value::Nil;
        for _ in 0..1000 {
            deep = Value::list(vec![deep]);
        }
        let limited = encode_limited(&deep, PRETTY, 100_000);
        assert!(lenient(limited).unwrap_err().contains("MiB"));
        assert!(encode_limited(&deep, MARSHAL, 100_000).is_ok());
        assert!(call("toPrettyJson", std::slice::from_ref(&deep)).is_ok());
        // Value drops nested levels iteratively, so `deep` can simply go out of scope.
        drop(deep);
        assert_eq!(text("toPrettyJson", Value::list(vec![])), "[]");
        assert_eq!(text("toJson", Value::Int64(-5)), "-5");
        assert_eq!(
            text("toJson", Value::Bytes(b"hi".as_slice().into())),
            "\"aGk=\""
        );
        assert_eq!(text("toJson", Value::string_list(["a"])), "[\"a\"]");
        let ver = Version {
            major: 1,
            minor: 2,
            patch: 3,
            pre: "rc.1".into(),
            metadata: "b5".into(),
            original: "v1.2.3-rc.1+b5".into(),
        };
        assert_eq!(
            text("toJson", Value::Semver(Arc::new(ver), true)),
            "\"1.2.3-rc.1+b5\""
        );
    }

    #[test]
    fn decoding() {
        let v = call(
            "fromJson",
            &[Value::str(
                r#" {"a": [1, 2.5e1, "x\u00e9\ud83d\ude00\ud800\n"], "b": null, "a2": {}} "#,
            )],
        );
        let want =
            json(serde_json::json!({"a": [1.0, 25.0, "xé😀\u{FFFD}\n"], "b": null, "a2": {}}));
        assert_eq!(v, Ok(want));
        let Ok(Value::Map(m)) = call("fromJson", &[Value::str("{\"k\":1,\"k\":[true,false]}")])
        else {
            panic!("map")
        };
        assert_eq!(m.elem, GoType::Interface);
        assert_eq!(
            m.entries["k"],
            Value::list(vec![Value::Bool(true), Value::Bool(false)])
        );
        assert_eq!(
            call("fromJson", &[Value::str("\"\\udc00\\ud800x\"")]),
            Ok(Value::str("\u{FFFD}\u{FFFD}x"))
        );
        assert_eq!(
            call("fromJson", &[Value::str("-0")]),
            Ok(Value::Float(-0.0))
        );
        assert_eq!(
            call("fromJson", &[Value::str("1e-400")]),
            Ok(Value::Float(0.0))
        );
        assert_eq!(
            call("fromJson", &[Value::str("[1e400, 2]")]),
            Ok(Value::list(vec![Value::Nil, Value::Float(2.0)]))
        );
        assert_eq!(call("fromJson", &[Value::str("1e400")]), Ok(Value::Nil));
        assert_eq!(call("fromJson", &[Value::str("{")]), Ok(Value::Nil));
        assert_eq!(
            call("mustFromJson", &[Value::str("[1e400, -1e999]")]),
            Err("json: cannot unmarshal number 1e400 into Go value of type float64".into())
        );
    }

    #[test]
    fn decoding_errors_like_go() {
        let cases = [
            (
                "1.",
                "invalid character ' ' after decimal point in numeric literal",
            ),
            ("-", "invalid character ' ' in numeric literal"),
            ("", "unexpected end of JSON input"),
            ("  ", "unexpected end of JSON input"),
            ("[", "unexpected end of JSON input"),
            ("\"abc", "unexpected end of JSON input"),
            (
                "tr",
                "invalid character ' ' in literal true (expecting 'u')",
            ),
            (
                "nul",
                "invalid character ' ' in literal null (expecting 'l')",
            ),
            (
                "fals",
                "invalid character ' ' in literal false (expecting 'e')",
            ),
            (
                "tx",
                "invalid character 'x' in literal true (expecting 'r')",
            ),
            ("é", "invalid character 'Ã' looking for beginning of value"),
            ("x", "invalid character 'x' looking for beginning of value"),
            (
                "{1:2}",
                "invalid character '1' looking for beginning of object key string",
            ),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            (
                "{\"a\":1 2}",
                "invalid character '2' after object key:value pair",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            ("1 2", "invalid character '2' after top-level value"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (
                "{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("\"\\x\"", "invalid character 'x' in string escape code"),
            (
                "\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            ("01", "invalid character '1' after top-level value"),
            ("1e", "invalid character ' ' in exponent of numeric literal"),
            (
                "1e+x",
                "invalid character 'x' in exponent of numeric literal",
            ),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                "\\",
                "invalid character '\\\\' looking for beginning of value",
            ),
            (
                "\u{1}",
                "invalid character '\\x01' looking for beginning of value",
            ),
            (
                "\u{7f}",
                "invalid character '\\x7f' looking for beginning of value",
            ),
            (
                "\u{a0}",
                "invalid character 'Â' looking for beginning of value",
            ),
            ("[1]]", "invalid character ']' after top-level value"),
        ];
        for (input, want) in cases {
            assert_eq!(
                call("mustFromJson", &[Value::str(input)]),
                Err(want.to_string()),
                "{input:?}"
            );
        }
        // Go accepts 10000 levels. Building and dropping such a value recurses (Value's drop),
        // which needs more than a test thread's stack in a debug build.
        let deep = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(|| {
                let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
                call("mustFromJson", &[Value::str(deep.as_str())]).is_ok()
            })
            .expect("thread")
            .join();
        assert!(matches!(deep, Ok(true)));
        let deeper = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(
            call("mustFromJson", &[Value::str(deeper)]),
            Err("invalid character '[' exceeded max depth".into())
        );
        assert_eq!(quote_char(0x85), "'\\u0085'");
        assert_eq!(quote_char(0xad), "'\\u00ad'");
        assert_eq!(quote_char(0xe9), "'é'");
    }

    #[test]
    fn base64_like_go() {
        assert_eq!(text("b64enc", Value::str("")), "");
        assert_eq!(text("b64enc", Value::str("a")), "YQ==");
        assert_eq!(text("b64enc", Value::str("ab")), "YWI=");
        assert_eq!(text("b64enc", Value::str("abc")), "YWJj");
        assert_eq!(
            text("b64enc", Value::str("héllo wörld")),
            "aMOpbGxvIHfDtnJsZA=="
        );
        let dec = |s: &str| text("b64dec", Value::str(s));
        assert_eq!(dec("YQ=="), "a");
        assert_eq!(dec("YWJj"), "abc");
        assert_eq!(dec("YW\nJj\r\n"), "abc");
        assert_eq!(dec(""), "");
        assert_eq!(dec("YQ"), "illegal base64 data at input byte 0");
        assert_eq!(dec("YQ="), "illegal base64 data at input byte 3");
        assert_eq!(dec("YQ==x"), "illegal base64 data at input byte 4");
        assert_eq!(dec("Y"), "illegal base64 data at input byte 0");
        assert_eq!(dec("YWJjY"), "illegal base64 data at input byte 4");
        assert_eq!(dec("Y==="), "illegal base64 data at input byte 1");
        assert_eq!(dec("YQ=x"), "illegal base64 data at input byte 2");
        assert_eq!(dec("YW!j"), "illegal base64 data at input byte 2");
        assert_eq!(dec("YWI="), "ab");
        assert_eq!(dec("YR=="), "a");
        assert_eq!(dec("/w=="), "\u{FFFD}");
        assert_eq!(dec("YQ=\n="), "a");
        assert_eq!(dec("YQ==\nx"), "illegal base64 data at input byte 5");
        assert_eq!(dec("YWJ=YQ=="), "illegal base64 data at input byte 4");
        assert_eq!(dec("\n\n"), "");
        assert_eq!(dec("YQ=\n"), "illegal base64 data at input byte 4");
    }

    #[test]
    fn base32_like_go() {
        assert_eq!(text("b32enc", Value::str("")), "");
        assert_eq!(text("b32enc", Value::str("a")), "ME======");
        assert_eq!(text("b32enc", Value::str("ab")), "MFRA====");
        assert_eq!(text("b32enc", Value::str("abc")), "MFRGG===");
        assert_eq!(text("b32enc", Value::str("abcd")), "MFRGGZA=");
        assert_eq!(text("b32enc", Value::str("abcde")), "MFRGGZDF");
        let dec = |s: &str| text("b32dec", Value::str(s));
        assert_eq!(dec("ME======"), "a");
        assert_eq!(dec("MFRGGZDF"), "abcde");
        assert_eq!(dec("MFRGGZA="), "abcd");
        assert_eq!(dec("MFRG\nGZA=\n"), "abcd");
        assert_eq!(dec("ME"), "illegal base32 data at input byte 0");
        assert_eq!(dec("me======"), "illegal base32 data at input byte 0");
        assert_eq!(dec("M======="), "illegal base32 data at input byte 1");
        assert_eq!(dec("ME====="), "illegal base32 data at input byte 7");
        // Go's offset for bad padding is one short of the bad byte.
        assert_eq!(dec("ME=====X"), "illegal base32 data at input byte 6");
        assert_eq!(dec("MFRGG=A="), "illegal base32 data at input byte 5");
        assert_eq!(dec("MFR====="), "illegal base32 data at input byte 3");
        assert_eq!(dec("MFRGGZDFM"), "illegal base32 data at input byte 8");
        assert_eq!(dec("MFRGGZA=ABC"), "abcd");
        assert_eq!(dec("MFRGG\n==="), "abc");
    }
}
