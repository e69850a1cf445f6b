/*!
Go's text/template with Sprig, byte-identical to what Cluster API renders.

Cluster API evaluates `enabledIf`, `valueFrom.template` (text/template + Sprig's hermetic map,
data decoded by encoding/json) and naming templates (text/template, `missingkey=error`, no
Sprig). This module is our own engine for all three: [`value`] (Go values), [`lex`] / [`mod@parse`]
(the template language), [`exec`] and `builtins` (execution, built-in functions, Go's error
texts), [`mod@print`] (Go's fmt, over [`crate::go::strconv`]) and [`sprig`] (the
function map). It must not read the environment, files or the network: templates are hermetic.

The public API is small: [`parse()`] a text once with [`Options`], then [`Template::execute`] it
on any number of data values, from any number of threads. Errors carry Go's `err.Error()` text
exactly.

Deliberate differences from Go 1.24 (details in the [`exec`], [`mod@parse`] and [`mod@print`] docs):
- bounds Go does not have, each an error instead of unbounded work or memory: nesting of
  control structures and parentheses (parse), a budget of work in which every step and every
  function call is priced by what it costs ([`cost`]), output size, size and depth of values
  returned by functions (exec), and optionally run-wide totals of work and output;
- from the value model: complex constants (`1i`) are an execution error; a byte indexed out of
  a string is a `uint64` (Go: `uint8`); strings are UTF-8, so bytes that are not valid UTF-8
  become U+FFFD; slices have no capacity beyond their length; nil maps and slices are empty
  ones;
- `%p` and pointers nested in printed collections show a fixed fake address.
*/

pub(crate) mod builtins;
pub mod capi;
pub mod cost;
pub mod exec;
pub mod func;
pub mod lex;
pub(crate) mod node;
pub mod parse;
pub mod paths;
pub mod print;
pub mod sprig;
pub mod value;

use std::fmt;

pub use exec::MissingKey;

/// How to parse a template.
#[derive(Debug, Clone, Copy)]
pub struct Options<'f> {
    /// Template name (Cluster API uses `tpl`); it appears in every error message.
    pub name: &'f str,
    /// Functions callable besides the built-ins (they shadow built-ins of the same name).
    pub funcs: &'f func::FuncMap,
    /// Missing map key behaviour.
    pub missing_key: MissingKey,
}

/// Whether an error happened while parsing or while executing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// `Parse` returned the error.
    Parse,
    /// `Execute` returned the error.
    Exec,
}

/// A template error with Go's exact message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Parse or exec.
    pub kind: ErrorKind,
    /// Go's `err.Error()`, e.g. `template: tpl:1: unexpected "}" in operand`.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A parsed template (with the templates it defines), ready to execute any number of times.
#[derive(Debug)]
pub struct Template {
    name: String,
    text: String,
    set: parse::TreeSet,
    missing_key: MissingKey,
}

/// Parse `text` as a template named `opts.name`.
pub fn parse(text: &str, opts: &Options<'_>) -> Result<Template, Error> {
    match parse::parse(opts.name, text, opts.funcs) {
        Ok(set) => Ok(Template {
            name: opts.name.to_string(),
            text: text.to_string(),
            set,
            missing_key: opts.missing_key,
        }),
        Err(message) => Err(Error {
            kind: ErrorKind::Parse,
            message,
        }),
    }
}

impl Template {
    /// Execute on `data` (Go's `Execute`); on error Go's partial output is discarded.
    pub fn execute(&self, data: &value::Value) -> Result<String, Error> {
        self.execute_noting(data).map(|(text, _)| text)
    }

    /// [`Template::execute`], also counting the actions that printed `<no value>` (what Go
    /// prints, without failing, for a path with no value in the data).
    pub fn execute_noting(&self, data: &value::Value) -> Result<(String, usize), Error> {
        exec::execute(
            &self.set,
            &self.text,
            &self.name,
            &self.name,
            self.missing_key,
            data,
        )
        .map(|e| (e.text, e.no_value))
        .map_err(|e| Error {
            kind: ErrorKind::Exec,
            message: e.0,
        })
    }

    /// The template's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use value::Value;

    fn run(t: &str, data: serde_json::Value) -> Result<String, String> {
        let funcs = func::FuncMap::new();
        let opts = Options {
            name: "tpl",
            funcs: &funcs,
            missing_key: MissingKey::Default,
        };
        let tpl = parse(t, &opts).map_err(|e| e.message)?;
        tpl.execute(&Value::from_json(&data)).map_err(|e| e.message)
    }

    #[test]
    fn template_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Template>();
    }

    #[test]
    fn basics() {
        let d = serde_json::json!({"n": 1000000, "s": "x", "l": [1, 2], "m": {"b": 2, "a": 1}});
        assert_eq!(
            run("{{.n}} {{.s}} {{.l}} {{.m}} {{.missing}}", d.clone()),
            Ok("1e+06 x [1 2] map[a:1 b:2] <no value>".into())
        );
        assert_eq!(
            run("{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}", d.clone()),
            Ok("a=1;b=2;".into())
        );
        assert_eq!(
            run("{{if eq .s \"x\"}}yes{{else}}no{{end}}", d.clone()),
            Ok("yes".into())
        );
        assert_eq!(
            run("{{eq .n 3}}", d.clone()),
            Err("template: tpl:1:2: executing \"tpl\" at <eq .n 3>: error calling eq: incompatible types for comparison".into())
        );
        assert_eq!(run("{{range 3}}{{.}}{{end}}", d), Ok("012".into()));
    }

    #[test]
    fn recursion_hits_go_depth_limit() {
        let r = run(
            "{{define \"x\"}}{{template \"x\"}}{{end}}{{template \"x\"}}",
            serde_json::json!(null),
        );
        assert_eq!(
            r,
            Err("template: tpl:1:25: executing \"x\" at <{{template \"x\"}}>: exceeded maximum template depth (100000)".into())
        );
    }
}
