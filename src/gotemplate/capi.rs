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
use super::{ErrorKind, MissingKey, Options, parse, sprig};
use crate::go::json as gojson;

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
    /// How many actions printed `<no value>` (see [`super::Template::execute_noting`]).
    pub no_value: usize,
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
    let parsed = parsed_value_template(template);
    let tpl = match &*parsed {
        Ok(tpl) => tpl,
        Err(m) => return Err(RenderError::Parse(m.clone())),
    };
    let (text, no_value) =
        tpl.execute_noting(&Value::from_json(vars))
            .map_err(|e| match e.kind {
                ErrorKind::Parse => RenderError::Parse(e.message),
                ErrorKind::Exec => RenderError::Exec(e.message),
            })?;
    let value = yaml_to_json(&text)?;
    let json = gojson::marshal(&value);
    Ok(Rendered {
        text,
        value,
        json,
        no_value,
    })
}

/// Most texts a thread keeps parsed; past it the cache starts over, so a process that sees
/// many distinct templates (say, a long `eval` session) does not grow without bound.
const PARSED_CACHE_LIMIT: usize = 1024;

/// A parsed value template, or the parse error's text.
type Parsed = std::rc::Rc<Result<super::Template, String>>;

thread_local! {
    /// `valueFrom.template` and `enabledIf` texts already parsed on this thread. A fleet of
    /// Clusters of one class renders the same few texts thousands of times; parsing them once
    /// per rayon worker instead of once per Cluster and template removes the lexer and parser
    /// from the hot path. Per thread, so the workers never contend for a lock; keyed by the
    /// text alone, because the name, function map and missing-key mode are fixed here.
    static PARSED: std::cell::RefCell<std::collections::HashMap<Box<str>, Parsed>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Parse `template` as Cluster API parses a value template, through the per-thread cache.
fn parsed_value_template(template: &str) -> Parsed {
    let cached = PARSED.with(|c| c.borrow().get(template).cloned());
    match cached {
        Some(p) => p,
        None => {
            let opts = Options {
                name: "tpl",
                funcs: sprig::hermetic(),
                missing_key: MissingKey::Default,
            };
            let p = std::rc::Rc::new(parse(template, &opts).map_err(|e| e.message));
            PARSED.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() >= PARSED_CACHE_LIMIT {
                    c.clear();
                }
                c.insert(template.into(), p.clone());
            });
            p
        }
    }
}

/// Parse rendered text as `sigs.k8s.io/yaml` does: YAML 1.1, first document; empty → null.
pub fn yaml_to_json(text: &str) -> Result<Json, RenderError> {
    if text.trim().is_empty() {
        return Ok(Json::Null);
    }
    crate::load::yaml::parse_value_go(text).map_err(|message| RenderError::Yaml {
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

/// Sprig functions in the hermetic map whose results differ from call to call (random
/// values, keys, salts, the clock): a class that uses them cannot be planned exactly.
pub const NON_DETERMINISTIC: &[&str] = &[
    "ago",
    "bcrypt",
    "buildCustomCert",
    "encryptAES",
    "genCA",
    "genCAWithKey",
    "genPrivateKey",
    "genSelfSignedCert",
    "genSelfSignedCertWithKey",
    "genSignedCert",
    "genSignedCertWithKey",
    "htpasswd",
    "randInt",
    "shuffle",
];

/// The non-deterministic functions a template calls, found in its actions (`{{ … }}`) as whole
/// words outside string literals; sorted, unique.
pub fn non_deterministic_functions(template: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for action in template.split("{{").skip(1) {
        let action = action.split("}}").next().unwrap_or("");
        let mut code = String::new();
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in action.chars() {
            match quote {
                Some(q) => {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' && q == '"' {
                        escaped = true;
                    } else if c == q {
                        quote = None;
                    }
                    code.push(' ');
                }
                None if c == '"' || c == '`' || c == '\'' => {
                    quote = Some(c);
                    code.push(' ');
                }
                None => code.push(c),
            }
        }
        for word in code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
        {
            if let Some(f) = NON_DETERMINISTIC.iter().find(|f| **f == word) {
                found.push(*f);
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn enabled_if_needs_the_boolean_true() {
        for (t, on) in [
            ("true", true),
            (" True ", true),
            ("yes", true),
            ("y", true),
            ("\"true\"", false),
            ("false", false),
            ("", false),
            ("{{ ne .x \"\" }}", true),
        ] {
            assert_eq!(enabled_if(t, &json!({"x": "a"})), Ok(on), "{t:?}");
        }
    }

    #[test]
    fn value_templates_become_go_json() {
        let r = render_value_template(
            "a: {{ .n }}\nb: <{{ .s }}>\nc: on\n",
            &json!({"n": 1000000, "s": "x"}),
        );
        let r = r.unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(r.text, "a: 1e+06\nb: <x>\nc: on\n");
        assert_eq!(r.json, r#"{"a":1000000,"b":"\u003cx\u003e","c":true}"#);
        assert_eq!(
            render_value_template("", &json!({})).map(|r| r.json),
            Ok("null".to_string())
        );
        assert!(matches!(
            render_value_template("{{ .a.b }", &json!({})),
            Err(RenderError::Parse(_))
        ));
        assert!(matches!(
            render_value_template("a: [", &json!({})),
            Err(RenderError::Yaml { .. })
        ));
    }

    #[test]
    fn cached_templates_render_like_fresh_ones() {
        // The second call of each text comes from the per-thread cache: same results, and a
        // parse error stays an error (with its text) instead of being cached as a success.
        for _ in 0..2 {
            assert_eq!(
                render_value_template("{{ .a }}-{{ .b }}", &json!({"a": 1, "b": "x"}))
                    .map(|r| r.json),
                Ok("\"1-x\"".to_string())
            );
            assert_eq!(
                render_value_template("{{ .a }}-{{ .b }}", &json!({"a": 2})).map(|r| r.json),
                Ok("\"2-\\u003cno value\\u003e\"".to_string())
            );
            assert!(matches!(
                render_value_template("{{ .a.b }", &json!({})),
                Err(RenderError::Parse(m)) if m.starts_with("template: tpl:1:")
            ));
        }
    }

    #[test]
    fn expensive_functions_fit_the_budget_a_few_times() {
        let render = |t: &str| render_value_template(t, &json!({})).map(|r| r.text);
        let pw = r#"{{ derivePassword 1 "long" "password" "user" "example.com" }}"#;
        // One RSA-4096 key, or two scrypt derivations, are legitimate and render.
        let key = render(r#"{{ genPrivateKey "rsa" }}"#).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(key.starts_with("-----BEGIN RSA PRIVATE KEY-----"), "{key}");
        assert!(render(&pw.repeat(2)).is_ok());
        // A third derivation is refused before scrypt runs, located at the call.
        match render(&pw.repeat(3)) {
            Err(RenderError::Exec(m)) => {
                assert!(
                    m.starts_with("template: tpl:1:125: executing \"tpl\" at <derivePassword 1")
                        && m.contains("template execution budget exceeded"),
                    "{m}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn finds_random_functions_in_actions_only() {
        assert_eq!(
            non_deterministic_functions("randInt {{ randInt 1 5 }} {{ \"shuffle\" }}"),
            vec!["randInt"]
        );
        assert_eq!(
            non_deterministic_functions(
                "{{- genCA \"x\" 3 | toJson }}{{ .a | shuffle }}{{ ago .t }}"
            ),
            vec!["ago", "genCA", "shuffle"]
        );
        assert!(non_deterministic_functions("{{ .randInt }}{{ $shuffle }}").is_empty());
    }
}
