/*!
The driver of `topoplan eval`: render one template as Cluster API renders `valueFrom.template`,
or answer one case line of the Go oracle (`--jsonl`) with its result line, byte for byte.
*/

use serde_json::Value;

use crate::go::json as gojson;
use crate::gotemplate::capi::{self, RenderError};
use crate::gotemplate::func::FuncMap;
use crate::gotemplate::{MissingKey, sprig};

/// Render `template` with `vars`: the JSON value Cluster API would use, or with `text` the
/// rendered text; either way ending in a newline.
pub fn render(template: &str, vars: &Value, text: bool) -> Result<String, RenderError> {
    if text {
        capi::render_text(template, vars, sprig::hermetic(), MissingKey::Default).map(|mut t| {
            t.push('\n');
            t
        })
    } else {
        capi::render_value_template(template, vars).map(|r| r.json + "\n")
    }
}

/// One oracle result line for one case line (without the newline).
pub fn answer(line: &str) -> String {
    let case: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return failure("input", &e.to_string(), None),
    };
    let template = case.get("template").and_then(Value::as_str).unwrap_or("");
    let data = case.get("data").cloned().unwrap_or(Value::Null);
    let none = FuncMap::new();
    let funcs = match case.get("funcs").and_then(Value::as_str).unwrap_or("") {
        "" | "hermetic" => sprig::hermetic(),
        "none" => &none,
        other => {
            return failure(
                "input",
                &format!("unknown funcs {other:?} (topoplan has only the hermetic map)"),
                None,
            );
        }
    };
    let missing_key = match case.get("missingkey").and_then(Value::as_str).unwrap_or("") {
        "" | "default" | "invalid" => MissingKey::Default,
        "zero" => MissingKey::Zero,
        "error" => MissingKey::Error,
        other => {
            return failure(
                "parse",
                &format!("unrecognized option: missingkey={other}"),
                None,
            );
        }
    };
    if case.get("useNumber").and_then(Value::as_bool) == Some(true) {
        return failure(
            "input",
            "useNumber is not supported: Cluster API decodes numbers as float64",
            None,
        );
    }
    let text = match capi::render_text(template, &data, funcs, missing_key) {
        Ok(t) => t,
        Err(e) => return failure(e.stage(), e.message(), None),
    };
    let mut out = String::from("{\"ok\":");
    if case.get("yamlToJSON").and_then(Value::as_bool) == Some(true) {
        match capi::yaml_to_json(&text) {
            Ok(v) => {
                out.push_str("true,\"output\":");
                out.push_str(&gojson::string(&text, false));
                out.push_str(",\"json\":");
                out.push_str(&gojson::marshal(&v));
            }
            Err(e) => return failure("yaml", e.message(), Some(&text)),
        }
    } else {
        out.push_str("true,\"output\":");
        out.push_str(&gojson::string(&text, false));
    }
    out.push('}');
    out
}

fn failure(stage: &str, message: &str, output: Option<&str>) -> String {
    let mut out = String::from("{\"ok\":false,");
    if let Some(o) = output {
        out.push_str("\"output\":");
        out.push_str(&gojson::string(o, false));
        out.push(',');
    }
    out.push_str("\"stage\":");
    out.push_str(&gojson::string(stage, false));
    out.push_str(",\"error\":");
    out.push_str(&gojson::string(message, false));
    out.push('}');
    out
}
