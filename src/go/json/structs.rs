/*!
Go structs as `encoding/json` writes them, for the few messages that embed a whole Cluster API
struct: `json.Marshal` (a field error's value) and `json.MarshalIndent(v, "", "  ")` (Cluster
API's `prettyPrint`).

A [`serde_json::Value`] keeps object keys sorted, while Go writes struct fields in declaration
order and skips `omitempty` ones; [`GoValue`] is the small ordered model the callers fill in
field by field. Strings and free-form JSON inside are written by [`crate::go::json`],
so escaping and number formatting are Go's.
*/

use serde_json::Value;

use crate::go::json as gojson;

/// A value about to be encoded the way Go encodes structs.
#[derive(Debug, Clone, PartialEq)]
pub enum GoValue {
    /// A string.
    Str(String),
    /// A bool.
    Bool(bool),
    /// Free-form JSON (`apiextensionsv1.JSON`, maps): written with sorted keys.
    Json(Value),
    /// A list.
    List(Vec<GoValue>),
    /// A struct: fields in declaration order, omitted ones already left out.
    Struct(Vec<(&'static str, GoValue)>),
}

/// Fields of a struct under construction, honouring `omitempty`.
#[derive(Debug, Default)]
pub struct Fields(Vec<(&'static str, GoValue)>);

impl Fields {
    /// An empty field list.
    pub fn new() -> Fields {
        Fields::default()
    }

    /// A `string` field with `omitempty`.
    pub fn str(mut self, name: &'static str, v: &str) -> Fields {
        if !v.is_empty() {
            self.0.push((name, GoValue::Str(v.to_string())));
        }
        self
    }

    /// A pointer or `omitempty`/`omitzero` field: written only when `Some`.
    pub fn opt(mut self, name: &'static str, v: Option<GoValue>) -> Fields {
        if let Some(v) = v {
            self.0.push((name, v));
        }
        self
    }

    /// The struct.
    pub fn build(self) -> GoValue {
        GoValue::Struct(self.0)
    }

    /// Whether no field was written (the struct is Go's zero value for `omitzero`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl GoValue {
    /// `json.Marshal`: compact, HTML characters escaped.
    pub fn marshal(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// `json.MarshalIndent(v, "", "  ")`.
    pub fn marshal_indent(&self) -> String {
        indent(&self.marshal())
    }

    fn write(&self, out: &mut String) {
        match self {
            GoValue::Str(s) => gojson::write_string(out, s, true),
            GoValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            GoValue::Json(v) => gojson::write_value(out, v, true),
            GoValue::List(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            GoValue::Struct(fields) => {
                out.push('{');
                for (i, (name, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    gojson::write_string(out, name, true);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// `json.Indent(dst, compact, "", "  ")` on compact JSON: one member per line, `": "` after
/// keys, empty objects and arrays kept as `{}` / `[]`.
pub fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut need_indent = false;
    let mut in_string = false;
    let mut escaped = false;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    for c in compact.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            continue;
        }
        if need_indent && c != '}' && c != ']' {
            need_indent = false;
            depth += 1;
            newline(&mut out, depth);
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                need_indent = true;
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            '}' | ']' => {
                if need_indent {
                    need_indent = false;
                } else {
                    depth = depth.saturating_sub(1);
                    newline(&mut out, depth);
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn structs_keep_field_order_and_indent_like_go() {
        let v = Fields::new()
            .str("op", "add")
            .str("path", "/spec/<x>")
            .str("skipped", "")
            .opt("value", Some(GoValue::Json(json!({"b": [], "a": {}}))))
            .build();
        assert_eq!(
            v.marshal(),
            r#"{"op":"add","path":"/spec/\u003cx\u003e","value":{"a":{},"b":[]}}"#
        );
        assert_eq!(
            v.marshal_indent(),
            "{\n  \"op\": \"add\",\n  \"path\": \"/spec/\\u003cx\\u003e\",\n  \"value\": {\n    \"a\": {},\n    \"b\": []\n  }\n}"
        );
        assert_eq!(Fields::new().build().marshal_indent(), "{}");
        assert_eq!(
            GoValue::List(vec![GoValue::Str("a,:{".into()), GoValue::Bool(true)]).marshal_indent(),
            "[\n  \"a,:{\",\n  true\n]"
        );
    }
}
