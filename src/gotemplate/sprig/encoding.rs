/*!
Sprig's encoding functions: JSON (`fromJson`, `mustFromJson`, `toJson`, `mustToJson`,
`toPrettyJson`, `mustToPrettyJson`, `toRawJson`, `mustToRawJson`) and base64/base32 (`b64enc`,
`b64dec`, `b32enc`, `b32dec`), over Go's `encoding/json`, `encoding/base64` and
`encoding/base32` ([`crate::go::json`], [`crate::go::base64`], [`crate::go::base32`]), so output
and error texts match Go byte for byte.

JSON out: template values walked without recursion, map keys sorted, strings and floats as Go
writes them, `[]byte` as base64, semantic versions as their string; NaN and ±Inf are errors
(`toJson` then gives "", `toRawJson` fails like `mustToRawJson`); `toPrettyJson` indents by two
spaces, and every encoder stops at [`MAX_STRING_BYTES`].

JSON in: `json.Unmarshal` into an `interface{}`, numbers as float64, one too large for it Go's
`cannot unmarshal number … into Go value of type float64` (and nil in `fromJson`, which ignores
errors).

The decoders return Go's error text *as the result* on bad input, as Sprig does.
*/

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::cast::{MAX_STRING_BYTES, arg_any, arg_str, go_lossy, too_large};
use crate::go::{base32, base64, json};
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
                    json::write_string(&mut out, k, style.html);
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
        Value::Float(x) => out.push_str(&json::encode_float(*x)?),
        Value::String(s) => json::write_string(out, s, style.html),
        Value::Bytes(b) => {
            out.push('"');
            out.push_str(&base64::encode(b));
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
            json::write_string(out, &s, style.html);
        }
    }
    Ok(())
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

/// What `json.Unmarshal` into an `interface{}` makes, as template values.
impl json::Decoded for Value {
    fn null() -> Value {
        Value::Nil
    }
    fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    fn float64(f: f64) -> Value {
        Value::Float(f)
    }
    fn string(s: String) -> Value {
        Value::str(s)
    }
    fn array(items: Vec<Value>) -> Value {
        Value::list(items)
    }
    fn object(entries: BTreeMap<String, Value>) -> Value {
        Value::dict(entries)
    }
}

fn from_json(args: &[Value]) -> Result<Value, String> {
    Ok(json::unmarshal::<Value>(arg_str(args, 0)?).0)
}

fn must_from_json(args: &[Value]) -> Result<Value, String> {
    match json::unmarshal::<Value>(arg_str(args, 0)?) {
        (_, Some(e)) => Err(e),
        (v, None) => Ok(v),
    }
}

// ---- base64 and base32 ----

fn b64enc(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(base64::encode(arg_str(args, 0)?.as_bytes())))
}

/// The decoded text, or Go's error text as the result.
fn b64dec(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(
        match base64::decode(arg_str(args, 0)?.as_bytes()) {
            Ok(data) => go_lossy(&data),
            Err(e) => e.to_string(),
        },
    ))
}

fn b32enc(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(base32::encode(arg_str(args, 0)?.as_bytes())))
}

/// The decoded text, or Go's error text as the result.
fn b32dec(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(
        match base32::decode(arg_str(args, 0)?.as_bytes()) {
            Ok(data) => go_lossy(&data),
            Err(e) => e.to_string(),
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
                let deep = "[".repeat(json::MAX_DEPTH) + &"]".repeat(json::MAX_DEPTH);
                call("mustFromJson", &[Value::str(deep.as_str())]).is_ok()
            })
            .expect("thread")
            .join();
        assert!(matches!(deep, Ok(true)));
        let deeper = "[".repeat(json::MAX_DEPTH + 1);
        assert_eq!(
            call("mustFromJson", &[Value::str(deeper)]),
            Err("invalid character '[' exceeded max depth".into())
        );
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
