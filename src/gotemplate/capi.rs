/*!
Templates the way Cluster API runs them.

- `valueFrom.template` and `enabledIf` (`patches/inline/json_patch_generator.go`): template
  `tpl`, Sprig's hermetic functions, `missingkey` default, data decoded by encoding/json (every
  number a float64); the output is parsed as YAML 1.1 (first document) and stored as the bytes
  `json.Marshal` writes. `enabledIf` is on when that value is the JSON `true`.
- Naming templates (`internal/topology/names`): template `template name generator`, no
  functions beyond text/template's, `missingkey=error`.

Owns those three wrappers and their error texts; the engine lives in the sibling modules.
*/

use serde_json::Value as Json;

use super::func::FuncMap;
use super::value::Value;
use super::{ErrorKind, MissingKey, Options, gojson, parse, sprig};

/// Where rendering a `valueFrom.template` failed, with the engine's or the YAML reader's text.
#[derive(Debug, Clone, PartialEq)]
pub enum RenderError {
    /// The template did not parse (Go's `template: tpl:…` text).
    Parse(String),
    /// Execution failed (Go's `template: tpl:1:3: executing "tpl" at <…>: …`).
    Exec(String),
    /// The output is not valid YAML (with the rendered text).
    Yaml { output: String, message: String },
}

impl RenderError {
    /// The oracle's stage name: `parse`, `exec` or `yaml`.
    pub fn stage(&self) -> &'static str {
        match self {
            RenderError::Parse(_) => "parse",
            RenderError::Exec(_) => "exec",
            RenderError::Yaml { .. } => "yaml",
        }
    }

    /// The error text.
    pub fn message(&self) -> &str {
        match self {
            RenderError::Parse(m) | RenderError::Exec(m) => m,
            RenderError::Yaml { message, .. } => message,
        }
    }
}

/// A rendered `valueFrom.template`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// What the template printed.
    pub text: String,
    /// The value after YAML 1.1 parsing (`null` for empty output).
    pub value: Json,
    /// `json.Marshal` of the value: the bytes Cluster API puts into the patch.
    pub json: String,
}

/// Render text only (no YAML step), with the given function set and missing-key mode.
pub fn render_text(
    template: &str,
    data: &Json,
    funcs: &FuncMap,
    missing_key: MissingKey,
) -> Result<String, RenderError> {
    let opts = Options {
        name: "tpl",
        funcs,
        missing_key,
    };
    let tpl = parse(template, &opts).map_err(|e| RenderError::Parse(e.message))?;
    tpl.execute(&Value::from_json(data))
        .map_err(|e| match e.kind {
            ErrorKind::Parse => RenderError::Parse(e.message),
            ErrorKind::Exec => RenderError::Exec(e.message),
        })
}

/// Render a `valueFrom.template` with the variables Cluster API passes (`vars` is the JSON
/// object of variable name → value).
pub fn render_value_template(template: &str, vars: &Json) -> Result<Rendered, RenderError> {
    let text = render_text(template, vars, sprig::hermetic(), MissingKey::Default)?;
    let value = yaml_to_json(&text)?;
    let json = gojson::marshal(&value);
    Ok(Rendered { text, value, json })
}

/// Parse rendered text as `sigs.k8s.io/yaml` does: YAML 1.1, first document; empty → null.
pub fn yaml_to_json(text: &str) -> Result<Json, RenderError> {
    if text.trim().is_empty() {
        return Ok(Json::Null);
    }
    crate::load::yaml::parse_value(text).map_err(|message| RenderError::Yaml {
        output: text.to_string(),
        message,
    })
}

/// Evaluate an `enabledIf`: rendered, parsed as YAML, on only when it is the boolean `true`
/// (so `true`, ` True `, `yes`, `y` enable and the string `"true"` does not).
pub fn enabled_if(template: &str, vars: &Json) -> Result<bool, RenderError> {
    Ok(render_value_template(template, vars)?.value == Json::Bool(true))
}

/// Render a naming template: Go's text/template built-ins only, `missingkey=error`.
pub fn render_name(template: &str, data: &Json) -> Result<String, RenderError> {
    static NO_FUNCS: std::sync::OnceLock<FuncMap> = std::sync::OnceLock::new();
    let funcs = NO_FUNCS.get_or_init(FuncMap::new);
    let opts = Options {
        name: "template name generator",
        funcs,
        missing_key: MissingKey::Error,
    };
    let tpl = parse(template, &opts).map_err(|e| RenderError::Parse(e.message))?;
    tpl.execute(&Value::from_json(data))
        .map_err(|e| RenderError::Exec(e.message))
}
