/*!
Emitting: a JSON value → YAML text that sigs.k8s.io/yaml (YAML 1.1, what kubectl reads with)
and our own parser read back as the same value.

A hand-written emitter rather than serde-saphyr: we need one quoting rule that provably agrees
with our resolver (a string is written plain only if [`super::resolve`] says the plain text
resolves back to that very string), and byte-for-byte stable output.

Layout (the shape `kubectl get -o yaml` prints): block style, 2-space indent, keys sorted, a
sequence's `- ` at its key's indentation, `{}` / `[]` for empty collections, multi-line strings as
literal block scalars (`|` / `|-`) when that reads back exactly, double-quoted JSON-style escapes
otherwise.
*/

use serde_json::{Map, Number, Value};

use super::resolve::{self, Kind};

/// Keys longer than this (in bytes, as written) use the explicit `? key` form: YAML limits
/// implicit keys to 1024 characters.
const MAX_IMPLICIT_KEY: usize = 1000;

/// Emit `value` as a YAML document (without `---`), ending in a newline.
///
/// Numbers are written as Go's encoding/json prints them, so a float with an integral value
/// (`3.0`) reads back as the integer `3` — as it would through kubectl.
pub fn to_yaml(value: &Value) -> String {
    let mut e = Emitter { out: String::new() };
    match value {
        Value::Object(m) if !m.is_empty() => e.mapping(m, 0, false),
        Value::Array(a) if !a.is_empty() => e.sequence(a, 0, false),
        // A root block scalar is indented like any other so its content never sits at column 0.
        Value::String(s) if literal_ok(s) => {
            e.literal(s, 0);
        }
        _ => {
            e.out.push_str(&inline_scalar(value));
            e.out.push('\n');
        }
    }
    e.out
}

struct Emitter {
    out: String,
}

impl Emitter {
    fn pad(&mut self, indent: usize) {
        self.out.extend(std::iter::repeat_n(' ', indent));
    }

    /// A block mapping at `indent`; with `inline`, the first key continues the current line
    /// (after `- ` or an explicit `: `).
    fn mapping(&mut self, m: &Map<String, Value>, indent: usize, mut inline: bool) {
        for (k, v) in m {
            if !inline {
                self.pad(indent);
            }
            inline = false;
            let key = key_token(k);
            if key.len() > MAX_IMPLICIT_KEY {
                self.out.push_str("? ");
                self.out.push_str(&key);
                self.out.push('\n');
                self.pad(indent);
                self.out.push(':');
                self.after_indicator(v, indent);
            } else {
                self.out.push_str(&key);
                self.out.push(':');
                match v {
                    Value::Object(m) if !m.is_empty() => {
                        self.out.push('\n');
                        self.mapping(m, indent + 2, false);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        self.out.push('\n');
                        self.sequence(a, indent, false);
                    }
                    _ => self.scalar(v, indent),
                }
            }
        }
    }

    fn sequence(&mut self, a: &[Value], indent: usize, mut inline: bool) {
        for item in a {
            if !inline {
                self.pad(indent);
            }
            inline = false;
            self.out.push('-');
            self.after_indicator(item, indent);
        }
    }

    /// The node after a `-` (or an explicit-key `:`) written at column `indent`.
    fn after_indicator(&mut self, v: &Value, indent: usize) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                self.out.push(' ');
                self.mapping(m, indent + 2, true);
            }
            Value::Array(a) if !a.is_empty() => {
                self.out.push(' ');
                self.sequence(a, indent + 2, true);
            }
            _ => self.scalar(v, indent),
        }
    }

    /// A scalar (or empty collection) after `key:` / `-` / `:`, whose parent sits at `indent`.
    fn scalar(&mut self, v: &Value, indent: usize) {
        if let Value::String(s) = v
            && literal_ok(s)
        {
            self.out.push(' ');
            self.literal(s, indent);
            return;
        }
        self.out.push(' ');
        self.out.push_str(&inline_scalar(v));
        self.out.push('\n');
    }

    /// `|` / `|-` and the lines at `indent + 2`; empty lines stay empty (no trailing spaces).
    fn literal(&mut self, s: &str, indent: usize) {
        let (header, body) = match s.strip_suffix('\n') {
            Some(body) => ("|", body),
            None => ("|-", s),
        };
        self.out.push_str(header);
        self.out.push('\n');
        for line in body.split('\n') {
            if !line.is_empty() {
                self.pad(indent + 2);
                self.out.push_str(line);
            }
            self.out.push('\n');
        }
    }
}

fn key_token(k: &str) -> String {
    if plain_ok(k) {
        k.to_string()
    } else {
        double_quoted(k)
    }
}

fn inline_scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n),
        Value::String(s) if plain_ok(s) => s.clone(),
        Value::String(s) => double_quoted(s),
        Value::Array(_) => "[]".to_string(),
        Value::Object(_) => "{}".to_string(),
    }
}

/// Integers as integers; floats as Go's encoding/json prints them (`1.5`, `1e+21`, `1e-7`), which
/// always matches YAML's float pattern and reads back to the same f64.
fn number(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        // "-0" would read back as the integer 0.
        return if f.is_sign_negative() { "-0.0" } else { "0" }.to_string();
    }
    let a = f.abs();
    if (1e-6..1e21).contains(&a) {
        return format!("{f}");
    }
    let s = format!("{f:e}");
    match s.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => s,
    }
}

/// Characters that may appear unescaped: printable per libyaml's reader (which rejects other
/// control characters anywhere in the input) and not a YAML 1.1 line break (NEL, LS, PS), nor a
/// BOM, nor a tab (legal inside scalars but easy to mangle; escaping is always safe), nor a bidi
/// control (legal, but it reorders what a reviewer reads on a terminal).
fn printable(c: char) -> bool {
    let u = u32::from(c);
    matches!(u, 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..)
        && !matches!(u, 0x2028 | 0x2029 | 0xFEFF)
        && !crate::escape::is_unsafe(c)
}

/// Whether `s` may be written as a plain scalar in block context and read back as this string.
fn plain_ok(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let second = chars.next();
    match first {
        // `-x` is a plain scalar, `- x` a sequence entry; `---` may be a document marker.
        '-' if second.is_none_or(|c| c == ' ') || s.starts_with("---") => return false,
        '?' | ':' | ',' | '[' | ']' | '{' | '}' | '#' | '&' | '*' | '!' | '|' | '>' | '\''
        | '"' | '%' | '@' | '`' | ' ' => return false,
        _ => {}
    }
    if s.starts_with("...") || s.ends_with(' ') || s.ends_with(':') {
        return false;
    }
    if !s.chars().all(printable) || s.contains(": ") || s.contains(" #") || s.contains("##[") {
        return false;
    }
    resolve::plain_kind(s) == Kind::Str && !ambiguous_elsewhere(s)
}

/// Strings that resolve to themselves but must still be quoted: `<<` (a merge key when plain),
/// other spellings of the YAML 1.1 keywords, and sexagesimal numbers (`1:20`, an int in YAML 1.1
/// proper) which other readers may not treat as strings.
fn ambiguous_elsewhere(s: &str) -> bool {
    if s == "<<" {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "y" | "yes"
            | "n"
            | "no"
            | "true"
            | "false"
            | "on"
            | "off"
            | "null"
            | ".inf"
            | "+.inf"
            | "-.inf"
            | ".nan"
            | "="
    ) {
        return true;
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut parts = body.split(':');
    let head_is_number = parts
        .next()
        .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_digit() || c == '_'));
    let mut any = false;
    let rest_ok = parts.all(|p| {
        any = true;
        let p = p.split_once('.').map_or(p, |(a, _)| a);
        !p.is_empty() && p.len() <= 2 && p.chars().all(|c| c.is_ascii_digit())
    });
    head_is_number && any && rest_ok
}

/// A JSON-style double-quoted scalar.
fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            // GitHub's runner reads `##[name]` anywhere in a line as a legacy workflow
            // command; escaped, the same string never holds it.
            '[' if out.ends_with("##") => out.push_str("\\x5b"),
            c if printable(c) => out.push(c),
            c => {
                let u = u32::from(c);
                if u > 0xFFFF {
                    out.push_str(&format!("\\U{u:08X}"));
                } else {
                    out.push_str(&format!("\\u{u:04X}"));
                }
            }
        }
    }
    out.push('"');
    out
}

/// Whether a multi-line string reads back exactly from a literal block scalar: at most one
/// trailing newline (`|` / `|-`; `|+` is avoided), a first line that neither is empty nor starts
/// with a space (both would change indentation detection), no trailing spaces on any line, and
/// only printable characters. Nor a line that, stripped of its leading whitespace, starts with
/// `::`: printed on its own line in a CI log, the GitHub Actions runner reads it as a workflow
/// command (`::error …`, `::stop-commands::…`) however deeply it is indented; double-quoted, the
/// string stays on one line and reads back the same.
fn literal_ok(s: &str) -> bool {
    if !s.contains('\n') {
        return false;
    }
    let body = s.strip_suffix('\n').unwrap_or(s);
    if body.ends_with('\n') || body.starts_with([' ', '\n']) || body.is_empty() {
        return false;
    }
    body.split('\n').all(|line| {
        !line.ends_with(' ')
            && line.chars().all(printable)
            && !line.trim_start().starts_with("::")
            && !line.contains("##[")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_line_a_ci_runner_would_read_as_a_command_is_never_written_alone() {
        let s = "first\n    ::stop-commands::x\n::error file=a::b\n";
        let out = to_yaml(&json!({ "k": s }));
        assert_eq!(out, format!("k: {}\n", double_quoted(s)));
        assert!(
            out.lines().all(|l| !l.trim_start().starts_with("::")),
            "{out}"
        );
        assert_eq!(to_yaml(&json!({ "k": "a\n:b\n" })), "k: |\n  a\n  :b\n");
    }

    #[test]
    fn the_runner_legacy_command_prefix_is_never_written() {
        let v = json!({ "k": "a ##[error]b", "##[x]": "l\n##[add-mask]c\n", "p": "###[y]" });
        let out = to_yaml(&v);
        assert!(!out.contains("##["), "{out}");
        assert_eq!(super::super::parse_value(&out).ok(), Some(v), "{out}");
    }

    #[test]
    fn layout_is_kubectl_like() {
        let v = json!({
            "b": {"x": 1, "w": [1, {"p": "q", "r": [true]}], "z": {}},
            "a": [],
            "c": [[1, 2], []],
            "d": null,
        });
        assert_eq!(
            to_yaml(&v),
            "a: []\n\
             b:\n  w:\n  - 1\n  - p: q\n    r:\n    - true\n  x: 1\n  z: {}\n\
             c:\n- - 1\n  - 2\n- []\n\
             d: null\n"
        );
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        for s in [
            "on",
            "yes",
            "y",
            "Y",
            "n",
            "off",
            "no",
            "true",
            "null",
            "~",
            "1.20",
            "0755",
            "0x1F",
            "1_000",
            "2024-01-01",
            "",
            "<<",
            ".inf",
            "-1",
            "+1",
            "1e3",
            "yEs",
            "NO",
            "12:30",
            "- a",
            "-",
            "---",
            "...",
            "a: b",
            "a #b",
            "#c",
            " lead",
            "trail ",
            "key:",
            "@x",
            "`x",
            "!x",
            "&x",
            "*x",
            "|",
            ">",
            "%x",
            "'q'",
            "\"q\"",
            "[a]",
            "{a}",
            "?x",
            ":x",
            "tab\there",
            "\u{85}",
            "\u{2028}",
            "\u{feff}x",
            "\u{7f}",
        ] {
            let out = to_yaml(&json!(s));
            assert!(out.starts_with('"'), "{s:?} -> {out:?}");
        }
        for s in [
            "hello",
            "nginx:1.14",
            "a-b",
            "-x",
            "10Gi",
            "a#b",
            "a:b",
            "café",
            "x y",
        ] {
            assert_eq!(to_yaml(&json!(s)), format!("{s}\n"), "{s:?}");
        }
    }

    #[test]
    fn multi_line_strings() {
        assert_eq!(
            to_yaml(&json!({"k": "line1\nline2\n"})),
            "k: |\n  line1\n  line2\n"
        );
        assert_eq!(to_yaml(&json!({"k": "a\n\nb"})), "k: |-\n  a\n\n  b\n");
        assert_eq!(to_yaml(&json!(["a\n  b"])), "- |-\n  a\n    b\n");
        // Not representable as a literal block: double quotes.
        assert_eq!(to_yaml(&json!({"k": " a\nb"})), "k: \" a\\nb\"\n");
        assert_eq!(to_yaml(&json!({"k": "a \nb"})), "k: \"a \\nb\"\n");
        assert_eq!(to_yaml(&json!({"k": "a\n\n"})), "k: \"a\\n\\n\"\n");
        assert_eq!(to_yaml(&json!({"k": "\n"})), "k: \"\\n\"\n");
        assert_eq!(to_yaml(&json!("a\nb")), "|-\n  a\n  b\n");
    }

    #[test]
    fn numbers() {
        assert_eq!(to_yaml(&json!(1.5)), "1.5\n");
        assert_eq!(to_yaml(&json!(1e21)), "1e+21\n");
        assert_eq!(to_yaml(&json!(1e-7)), "1e-7\n");
        assert_eq!(to_yaml(&json!(-0.0)), "-0.0\n");
        assert_eq!(to_yaml(&json!(u64::MAX)), "18446744073709551615\n");
        assert_eq!(to_yaml(&json!(i64::MIN)), "-9223372036854775808\n");
    }

    #[test]
    fn long_keys_are_explicit() {
        let k = "k".repeat(1500);
        let out = to_yaml(&json!({ k.clone(): {"a": 1} }));
        assert_eq!(out, format!("? {k}\n: a: 1\n"));
    }

    #[test]
    fn bidi_controls_are_escaped() {
        assert_eq!(
            to_yaml(&json!("\u{202e}x\u{2066}")),
            "\"\\u202Ex\\u2066\"\n"
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(
            to_yaml(&json!("a\u{1}\u{85}\u{10FFFF}\"\\")),
            "\"a\\u0001\\u0085\u{10FFFF}\\\"\\\\\"\n"
        );
    }
}
