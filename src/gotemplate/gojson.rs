/*!
JSON bytes exactly as Go's `encoding/json` writes them.

Cluster API stores a rendered template as the bytes `json.Marshal` produced (after YAML 1.1
parsing), and our `eval --jsonl` must write result lines byte-for-byte like the Go oracle's
encoder. Both differ from serde_json: Go escapes `<`, `>` and `&` as `\u003c` … (unless HTML
escaping is off), always escapes U+2028 and U+2029, writes `\b`/`\f`, and formats floats with
its own rule (`1e+21`, `1e-7`, shortest digits). Object keys come sorted, as Go sorts map keys.
*/

use serde_json::Value;

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
/// the magnitude is below 1e-6 or at least 1e21, then `e` notation with a trimmed exponent.
/// Digits come from our port of Go's strconv, which breaks exact ties as Go does.
pub fn float(f: f64) -> String {
    if !f.is_finite() {
        // json.Marshal refuses these (UnsupportedValueError); callers never pass them because
        // the YAML reader rejects .inf/.nan first.
        return "null".into();
    }
    let abs = f.abs();
    let e_format = abs != 0.0 && !(1e-6..1e21).contains(&abs);
    let mut s = crate::go::strconv::format_float(f, if e_format { b'e' } else { b'f' }, -1);
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
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    fn objects_sorted_and_compact() {
        assert_eq!(
            marshal(&json!({"b": [1, 2.5, null], "a": {"z": true}})),
            r#"{"a":{"z":true},"b":[1,2.5,null]}"#
        );
    }
}

#[cfg(test)]
mod golden {
    /// 409 floats as Go's sigs.k8s.io/yaml + encoding/json printed them (generated with
    /// `gooracle yaml2json` from random magnitudes between 1e-30 and 1e30 plus edge values).
    #[test]
    fn floats_match_go() {
        let text = include_str!("../../testdata/golden/gojson-floats.json");
        let cases: Vec<(String, String)> = serde_json::from_str(text).unwrap_or_default();
        assert!(cases.len() > 400);
        let mut bad = Vec::new();
        for (input, go) in cases {
            let v = crate::load::yaml::parse_value(&format!("v: {input}\n")).unwrap_or_default();
            let ours = super::marshal(&v);
            if ours != go {
                bad.push(format!("{input}: go {go} ours {ours}"));
            }
        }
        assert!(bad.is_empty(), "{bad:#?}");
    }
}
