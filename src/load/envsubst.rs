/*!
clusterctl-compatible variable substitution in template files.

Owns everything `clusterctl generate cluster` does to a template before it is YAML: the
"SimpleProcessor" of `cmd/clusterctl/client/yamlprocessor/simple_processor.go` (Cluster API) on
top of `github.com/drone/envsubst/v2` (the version Cluster API pins, commit 1790424). The rules
are reproduced from reading that code — not from bash, which differs in many places:

1. Legacy spacing: `${ NAME }`, `${ NAME}` and `${NAME }` (names of `[A-Za-z0-9_$]`, space being
   `[ \t\n\f\r]`) are rewritten to `${NAME}` over the whole text first, even inside `$${…}`.
2. Only `${` opens an expression; a bare `$NAME` is plain text. Outside expressions (and inside
   the pattern and replacement of `${NAME/…/…}`) `$$` stands for one `$`, so `$${x}` gives
   `${x}` and `$$version` gives `$version`. Inside `/…/…` `\/` and `\\` are escapes as well.
3. Forms: `${N}`, `${#N}` (length in bytes), `${N^}` `${N^^}` `${N,}` `${N,,}`, `${N:=w}`
   `${N=w}` `${N:-w}` `${N:?w}` `${N:+w}` (all five mean "w when N is empty or unset"),
   `${N:pos}` `${N:pos:len}` (bytes), `${N#p}` `${N##p}` `${N%p}` `${N%%p}` (glob),
   `${N/p/r}` `${N//p/r}` `${N/#p/r}` `${N/%p/r}`. Arguments may contain nested `${…}`.
   `${N-w}`, `${N+w}`, `${N?w}`, an unterminated `${` and anything else are syntax errors.
4. A variable is *missing* when the lookup does not know it and its first top-level occurrence
   has no argument (clusterctl calls any argument a "default", so `${N#x}` counts). Variables
   nested inside an argument are never reported: they just expand to the empty string.
5. Evaluation cannot tell unset from empty: both expand to `""`, and defaults apply to both.
*/

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use crate::diag::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

/// How deep `${…}` may nest inside arguments. drone has no limit, but recursion on untrusted
/// input must not be able to exhaust the stack; no real template nests more than two levels.
const MAX_DEPTH: usize = 64;

/// The default cap on one substituted text, in bytes: the same as the cap on all inputs
/// together (`--max-input-bytes`), since the substituted text is what gets parsed. Without it a
/// small template of many `${BIG}` expands without bound (100,000 × 100 KB is 10 GB).
pub const MAX_SUBSTITUTED_BYTES: usize = 256 << 20;

/// How many unset variables a report names; the rest are counted. (Located occurrences are
/// bounded by [`crate::diag::MAX_RELATED`]: each renders a snippet, so an unbounded list costs
/// time and output quadratic in it.)
pub const MAX_MISSING_REPORTED: usize = 100;

/// A variable that has no value and no default, at one place it is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The variable name.
    pub name: String,
    /// The whole `${…}` expression in the input text.
    pub span: Span,
}

/// Why a text could not be substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubstError {
    /// Variables without value or default, one entry per occurrence, in order of appearance.
    Missing(Vec<Missing>),
    /// The text is not valid for drone/envsubst (or would crash it).
    Syntax {
        /// drone's error text, followed by what exactly went wrong.
        message: String,
        /// From the start of the innermost open `${` to the offending character.
        span: Span,
    },
    /// The substituted text would exceed the size cap.
    TooLarge {
        /// The cap, in bytes.
        limit: usize,
        /// The expression whose value crossed the cap.
        span: Span,
    },
}

/// Substitute variables in `text`. `lookup` returns the value of a variable if it is set.
///
/// A variable with no value and no default (per clusterctl's rules) is collected; if any are
/// missing, all of them are returned (each with its span, in order of appearance).
pub fn substitute(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, SubstError> {
    substitute_with_limit(text, lookup, MAX_SUBSTITUTED_BYTES)
}

/// [`substitute`], refusing (with [`SubstError::TooLarge`], at the expression that crossed it)
/// a result longer than `max` bytes. The cap holds while expanding, so nothing larger is ever
/// built.
pub fn substitute_with_limit(
    text: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
    max: usize,
) -> Result<String, SubstError> {
    let norm = Normalized::new(text);
    let mut nodes = Vec::new();
    Parser::new(&norm.text)
        .parse_template(&mut nodes)
        .map_err(|e| e.into_subst_error(&norm))?;

    let missing = missing_variables(&nodes, lookup, &norm);
    if !missing.is_empty() {
        return Err(SubstError::Missing(missing));
    }

    // Literal text is never larger than the input, so when it tips the output over the cap the
    // expression before it is to blame.
    let mut last_expr = (0, 0);
    let error = |e: EvalError, last_expr: (usize, usize)| match e {
        EvalError::Raw(e) => e.into_subst_error(&norm),
        EvalError::TooLarge(at) => {
            let (start, end) = at.unwrap_or(last_expr);
            SubstError::TooLarge {
                limit: max,
                span: norm.span(start, end),
            }
        }
    };
    // Measured first, one expression at a time, then built at its exact size: a text refused
    // for its size costs no more memory than its largest expression, and one accepted is never
    // copied while growing (a growing buffer's earlier copies stay resident with the allocator).
    let mut total = 0usize;
    let mut scratch = Vec::new();
    for node in &nodes {
        scratch.clear();
        eval_node(node, lookup, &mut scratch, max - total).map_err(|e| error(e, last_expr))?;
        total += scratch.len();
        if let Node::Func(f) = node {
            last_expr = (f.start, f.end);
        }
    }
    drop(scratch);
    let mut out = Vec::with_capacity(total);
    for node in &nodes {
        eval_node(node, lookup, &mut out, max).map_err(|e| error(e, last_expr))?;
    }
    // drone works on bytes: `${N:0:1}` of a non-ASCII value can split a character. Go would
    // carry the broken bytes on; a Rust string cannot, so they become U+FFFD.
    Ok(match String::from_utf8(out) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Turn a [`SubstError`] for `file` into one [`Diagnostic`].
pub fn to_diagnostic(err: SubstError, file: &Arc<SourceFile>) -> Diagnostic {
    match err {
        SubstError::Missing(list) => missing_diagnostic(&list, file),
        SubstError::Syntax { message, span } => syntax_diagnostic(&message, span, file),
        SubstError::TooLarge { limit, span } => Diagnostic::error(
            Code::InputSubstitution,
            format!("cannot substitute variables: the substituted text would exceed {limit} bytes"),
        )
        .with_help("the limit on input is --max-input-bytes")
        .with_span(file, span, "the text grows past the limit here")
        .with_help(
            "variable values are expanded in full at every use; use fewer or shorter values, \
             or raise the limit with --max-input-bytes",
        ),
    }
}

/// All variable names clusterctl sees in `text` (sorted, unique), as `clusterctl generate
/// cluster --list-variables` lists them: only top-level expressions count, so `NAMESPACE` in
/// `${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}` is not listed. A syntax error ends the list
/// where it occurs (clusterctl reports the error instead).
pub fn variables(text: &str) -> Vec<String> {
    variable_defaults(text).into_keys().collect()
}

/// Each variable of [`variables`] with its default as clusterctl spells it (`None`: required),
/// taken from its first occurrence; nested expressions in a default are shown as `${NAME}`.
/// This is clusterctl's `GetVariableMap`, which splits `--list-variables` into required and
/// optional ones.
pub fn variable_defaults(text: &str) -> BTreeMap<String, Option<String>> {
    let norm = Normalized::new(text);
    let mut nodes = Vec::new();
    // The nodes parsed before an error are kept; see `variables`.
    let _ = Parser::new(&norm.text).parse_template(&mut nodes);
    let mut out = BTreeMap::new();
    for node in &nodes {
        if let Node::Func(f) = node {
            out.entry(f.param.clone()).or_insert_with(|| {
                let d = f.default_text();
                (!d.is_empty()).then_some(d)
            });
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Legacy spacing

/// The text after clusterctl's legacy rewrite, and how to map its offsets back to the input.
struct Normalized {
    text: String,
    /// `(offset in text, offset in input)` at the start of each run copied unchanged;
    /// strictly increasing, starting with `(0, 0)`.
    runs: Vec<(usize, usize)>,
}

impl Normalized {
    fn new(input: &str) -> Normalized {
        let b = input.as_bytes();
        let mut text = String::new();
        let mut runs = vec![(0, 0)];
        let mut copied = 0;
        let mut i = 0;
        while i + 1 < b.len() {
            if b[i] == b'$'
                && b[i + 1] == b'{'
                && let Some((name, close)) = legacy_at(b, i)
            {
                // All offsets here sit on ASCII bytes, hence on character boundaries.
                text.push_str(&input[copied..i + 2]);
                runs.push((text.len(), name.start));
                text.push_str(&input[name]);
                runs.push((text.len(), close));
                text.push('}');
                copied = close + 1;
                i = copied;
            } else {
                i += 1;
            }
        }
        if runs.len() == 1 {
            return Normalized {
                text: input.to_string(),
                runs,
            };
        }
        text.push_str(&input[copied..]);
        Normalized { text, runs }
    }

    /// The input offset of an offset in the rewritten text.
    fn original(&self, at: usize) -> usize {
        let idx = self.runs.partition_point(|&(n, _)| n <= at);
        match idx.checked_sub(1).and_then(|i| self.runs.get(i)) {
            Some(&(n, o)) => o + (at - n),
            None => at,
        }
    }

    /// The input span of `[start, end)` in the rewritten text.
    fn span(&self, start: usize, end: usize) -> Span {
        let s = self.original(start);
        let e = self.original(end).max(s);
        Span::new(s, e - s)
    }
}

/// Go's regexp `\s` (RE2: ASCII only, no vertical tab).
fn is_go_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// If `${` at `i` starts `${ NAME }` with space on at least one side, the name's byte range and
/// the offset of `}`. This is clusterctl's `legacyVariableRegEx`; its three alternatives
/// together mean exactly that.
fn legacy_at(b: &[u8], i: usize) -> Option<(std::ops::Range<usize>, usize)> {
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut j = i + 2;
    while j < b.len() && is_go_space(b[j]) {
        j += 1;
    }
    let name_start = j;
    while j < b.len() && is_name(b[j]) {
        j += 1;
    }
    let name_end = j;
    while j < b.len() && is_go_space(b[j]) {
        j += 1;
    }
    let spaced = name_start > i + 2 || j > name_end;
    (name_end > name_start && spaced && b.get(j) == Some(&b'}'))
        .then_some((name_start..name_end, j))
}

// ---------------------------------------------------------------------------------------------
// Syntax tree

#[derive(Debug)]
enum Node {
    /// Literal bytes, escapes already resolved.
    Text(Vec<u8>),
    Func(Func),
}

/// One `${…}` expression.
#[derive(Debug)]
struct Func {
    param: String,
    op: Op,
    args: Vec<Node>,
    /// `[start, end)` in the rewritten text.
    start: usize,
    end: usize,
}

impl Func {
    /// clusterctl's notion of the default: the arguments with nested expressions written as
    /// `${NAME}`. Non-empty exactly when there is an argument, since none can be empty.
    fn default_text(&self) -> String {
        let mut s = String::new();
        for a in &self.args {
            match a {
                Node::Text(t) => s.push_str(&String::from_utf8_lossy(t)),
                Node::Func(f) => {
                    s.push_str("${");
                    s.push_str(&f.param);
                    s.push('}');
                }
            }
        }
        s
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `${N}`, and casing operators drone does not know (`${N,^}`), which leave the value as is.
    Value,
    /// `${N=w}`, `${N:=w}`, `${N:-w}`, `${N:?w}`, `${N:+w}`.
    Default,
    /// `${#N}`.
    Length,
    /// `${N,}` / `${N,,}` / `${N^}` / `${N^^}`.
    Case { upper: bool, all: bool },
    /// `${N:pos}` / `${N:pos:len}`.
    Substr,
    /// `${N#p}` / `${N##p}`.
    TrimPrefix { longest: bool },
    /// `${N%p}` / `${N%%p}`.
    TrimSuffix { longest: bool },
    /// `${N/p/r}`, `${N//p/r}`, `${N/#p/r}`, `${N/%p/r}`.
    Replace(ReplaceKind),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplaceKind {
    First,
    All,
    Prefix,
    Suffix,
}

// ---------------------------------------------------------------------------------------------
// Parser
//
// drone's scanner is a set of modes and accept functions over a buffer it edits in place to drop
// escape characters. The parser below follows the same decisions in the same order (checking
// for `${` before escapes, escapes before the accept function), because that order is what
// decides edge cases such as `$${` and `${N/\//x}`.

#[derive(Debug, Clone, Copy)]
enum ErrKind {
    /// "unable to parse variable name"
    VariableName,
    /// "missing closing brace"
    MissingClosingBrace,
    /// "bad substitution"
    BadSubstitution,
    /// "unable to parse substitution within function"
    FuncSubstitution,
}

/// A syntax or evaluation error in rewritten-text offsets.
#[derive(Debug)]
struct RawError {
    message: String,
    /// Innermost open `${`.
    open: usize,
    /// `[at, at + len)`: the offending character (empty at the end of the text).
    at: usize,
    len: usize,
}

impl RawError {
    fn into_subst_error(self, norm: &Normalized) -> SubstError {
        let end = (self.at + self.len).max(self.open);
        SubstError::Syntax {
            message: self.message,
            span: norm.span(self.open.min(self.at), end),
        }
    }
}

/// Which escapes a run of text honours.
#[derive(Clone, Copy)]
struct Escapes {
    /// `$$` → `$`.
    dollar: bool,
    /// `\/` → `/` and `\\` → `\`.
    backslash: bool,
}

const NO_ESCAPES: Escapes = Escapes {
    dollar: false,
    backslash: false,
};

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    /// Start offsets of the `${` currently open, innermost last.
    open: Vec<usize>,
}

/// drone's identifier characters: Go's `unicode.IsLetter`, `unicode.IsDigit` and `_`. Rust's
/// `is_alphabetic`/`is_numeric` are slightly wider outside the letter and decimal-digit
/// categories (e.g. `²`, `Ⅳ`); no template uses such names.
fn is_ident(c: char) -> bool {
    c.is_alphabetic() || c.is_numeric() || c == '_'
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser {
            text,
            pos: 0,
            open: Vec::new(),
        }
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.rest().as_bytes().first().copied()
    }

    fn at_open(&self) -> bool {
        self.rest().starts_with("${")
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    /// Whether the scanner sits on an escape pair it must honour.
    fn at_escape(&self, esc: Escapes) -> bool {
        let r = self.rest().as_bytes();
        match (r.first(), r.get(1)) {
            (Some(b'$'), Some(b'$')) => esc.dollar,
            (Some(b'\\'), Some(b'/' | b'\\')) => esc.backslash,
            _ => false,
        }
    }

    /// A run of characters: `accept(c, i)` sees each character with `i` the byte length of the
    /// run including it (after escape removal, as drone counts). With `stop_at_open` the run
    /// ends before `${`. Returns `None` when the first character is not accepted.
    fn scan_run(
        &mut self,
        accept: &dyn Fn(char, usize) -> bool,
        esc: Escapes,
        stop_at_open: bool,
    ) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        let mut first = true;
        while let Some(c) = self.peek() {
            if !first && stop_at_open && self.at_open() {
                break;
            }
            if self.at_escape(esc) {
                // The escaped character is taken without being looked at again: in `$${`
                // the second `$` never gets the chance to open an expression.
                out.push(self.rest().as_bytes()[1]);
                self.pos += 2;
            } else if accept(c, out.len() + c.len_utf8()) {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                self.pos += c.len_utf8();
            } else if first {
                return None;
            } else {
                break;
            }
            first = false;
        }
        (!first).then_some(out)
    }

    fn error(&self, kind: ErrKind, detail: String) -> RawError {
        let head = match kind {
            ErrKind::VariableName => "unable to parse variable name",
            ErrKind::MissingClosingBrace => "missing closing brace",
            ErrKind::BadSubstitution => "bad substitution",
            ErrKind::FuncSubstitution => "unable to parse substitution within function",
        };
        RawError {
            message: format!("{head}: {detail}"),
            open: self.open.last().copied().unwrap_or(self.pos),
            at: self.pos,
            len: self.peek().map_or(0, char::len_utf8),
        }
    }

    /// "unexpected `c`" or "the text ends inside `${…}`", for the character under the scanner.
    fn unexpected(&self) -> String {
        match self.peek() {
            Some(c) => format!("unexpected `{}`", c.escape_debug()),
            None => "the text ends inside `${…}`".to_string(),
        }
    }

    /// The whole text: literal runs and top-level expressions, pushed to `nodes` as they are
    /// parsed so that a caller can use the part before an error.
    fn parse_template(&mut self, nodes: &mut Vec<Node>) -> Result<(), RawError> {
        let top = Escapes {
            dollar: true,
            backslash: false,
        };
        while self.pos < self.text.len() {
            if self.at_open() {
                nodes.push(Node::Func(self.parse_expr()?));
            } else {
                // Every character is accepted at top level, so a run is never empty; the
                // `bump` only guarantees progress.
                match self.scan_run(&|_, _| true, top, true) {
                    Some(run) => nodes.push(Node::Text(run)),
                    None => self.bump(),
                }
            }
        }
        Ok(())
    }

    /// An expression; the scanner is on its `${`.
    fn parse_expr(&mut self) -> Result<Func, RawError> {
        let start = self.pos;
        if self.open.len() >= MAX_DEPTH {
            return Err(RawError {
                message: format!("variable expressions are nested more than {MAX_DEPTH} deep"),
                open: start,
                at: start,
                len: 2,
            });
        }
        self.open.push(start);
        self.pos += 2;
        let mut f = self.parse_body()?;
        self.open.pop();
        f.start = start;
        f.end = self.pos;
        Ok(f)
    }

    fn func(param: String, op: Op, args: Vec<Node>) -> Func {
        Func {
            param,
            op,
            args,
            start: 0,
            end: 0,
        }
    }

    fn parse_body(&mut self) -> Result<Func, RawError> {
        if self.peek() == Some('#') {
            return self.parse_length();
        }
        let Some(name) = self.scan_run(&|c, _| is_ident(c), NO_ESCAPES, false) else {
            let detail = match self.peek() {
                Some(c) if c.is_whitespace() => "spaces are only allowed around a plain name, \
                     as in `${ NAME }`"
                    .to_string(),
                Some(_) => format!(
                    "{} where a name (letters, digits, `_`) must follow `${{`; \
                     write `$${{` for a literal `${{`",
                    self.unexpected()
                ),
                None => self.unexpected(),
            };
            return Err(self.error(ErrKind::VariableName, detail));
        };
        let name = String::from_utf8_lossy(&name).into_owned();
        match self.peek() {
            Some(':') => self.parse_colon(name),
            Some('=') => self.parse_default(name),
            Some(',' | '^') => self.parse_case(name),
            Some('/') => self.parse_replace(name),
            Some('#') => self.parse_trim(name, '#'),
            Some('%') => self.parse_trim(name, '%'),
            Some('}') => {
                self.pos += 1;
                Ok(Self::func(name, Op::Value, Vec::new()))
            }
            other => {
                let detail = match other {
                    Some(c @ ('-' | '+' | '?')) => format!(
                        "`${{{name}{c}…}}` is not supported by clusterctl; write `${{{name}:{c}…}}`"
                    ),
                    Some(c) if c.is_whitespace() => {
                        format!("unexpected space after `${{{name}`")
                    }
                    _ => self.unexpected(),
                };
                Err(self.error(ErrKind::MissingClosingBrace, detail))
            }
        }
    }

    /// `}` closing a function form.
    fn expect_close(&mut self) -> Result<(), RawError> {
        if self.peek() == Some('}') {
            self.pos += 1;
            Ok(())
        } else {
            let detail = format!("{} where `}}` was expected", self.unexpected());
            Err(self.error(ErrKind::BadSubstitution, detail))
        }
    }

    /// One argument: a nested expression or a run of accepted characters.
    fn parse_arg(
        &mut self,
        accept: &dyn Fn(char, usize) -> bool,
        esc: Escapes,
    ) -> Result<Node, RawError> {
        if self.at_open() {
            return Ok(Node::Func(self.parse_expr()?));
        }
        match self.scan_run(accept, esc, true) {
            Some(run) => Ok(Node::Text(run)),
            None => {
                let detail = match self.peek() {
                    Some('}') => "an argument is empty".to_string(),
                    _ => self.unexpected(),
                };
                Err(self.error(ErrKind::FuncSubstitution, detail))
            }
        }
    }

    /// `${#N}`; the scanner is on `#`.
    fn parse_length(&mut self) -> Result<Func, RawError> {
        self.pos += 1;
        let Some(name) = self.scan_run(&|c, _| is_ident(c), NO_ESCAPES, false) else {
            let detail = format!("{} where a name must follow `${{#`", self.unexpected());
            return Err(self.error(ErrKind::BadSubstitution, detail));
        };
        self.expect_close()?;
        let name = String::from_utf8_lossy(&name).into_owned();
        Ok(Self::func(name, Op::Length, Vec::new()))
    }

    /// After `${N`, on `:`: a default (`:=`, `:-`, `:?`, `:+`) or a substring.
    fn parse_colon(&mut self, name: String) -> Result<Func, RawError> {
        let next = self.rest().get(1..).and_then(|r| r.chars().next());
        match next {
            Some('=' | '-' | '?' | '+') => self.parse_default(name),
            // drone peeks past `:` and steps back by the width of the character it peeked,
            // which lands before `:` when that character is not ASCII; the substring parser
            // then fails. Reproduce the failure, pointing at that character.
            Some(c) if !c.is_ascii() => {
                self.pos += 1;
                let detail = "clusterctl cannot read a non-ASCII character right after `:`";
                Err(self.error(ErrKind::BadSubstitution, detail.to_string()))
            }
            // At the end of the text the same step-back does nothing and drone fails on the
            // missing offset with "bad substitution" rather than the argument error.
            None => {
                self.pos += 1;
                let detail = self.unexpected();
                Err(self.error(ErrKind::BadSubstitution, detail))
            }
            _ => self.parse_substr(name),
        }
    }

    /// `${N=w}` or `${N:Xw}`; the scanner is on `=` or `:`.
    fn parse_default(&mut self, name: String) -> Result<Func, RawError> {
        self.pos += if self.peek_byte() == Some(b'=') { 1 } else { 2 };
        let mut args = Vec::new();
        loop {
            if self.peek() == Some('}') {
                self.pos += 1;
                return Ok(Self::func(name, Op::Default, args));
            }
            args.push(self.parse_arg(&|c, _| c != '}', NO_ESCAPES)?);
        }
    }

    /// `${N:pos}` or `${N:pos:len}`; the scanner is on `:`.
    fn parse_substr(&mut self, name: String) -> Result<Func, RawError> {
        self.pos += 1;
        let mut args = vec![self.parse_arg(&|c, _| c != ':' && c != '}', NO_ESCAPES)?];
        match self.peek() {
            Some('}') => {
                self.pos += 1;
                return Ok(Self::func(name, Op::Substr, args));
            }
            // drone takes any number of colons as the separator.
            Some(':') => {
                while self.peek() == Some(':') {
                    self.pos += 1;
                }
            }
            _ => {
                let detail = format!("{} after the substring offset", self.unexpected());
                return Err(self.error(ErrKind::BadSubstitution, detail));
            }
        }
        args.push(self.parse_arg(&|c, _| c != '}', NO_ESCAPES)?);
        self.expect_close()?;
        Ok(Self::func(name, Op::Substr, args))
    }

    /// `${N#p}`, `${N##p}`, `${N%p}`, `${N%%p}`; the scanner is on the first `mark`.
    fn parse_trim(&mut self, name: String, mark: char) -> Result<Func, RawError> {
        self.pos += 1;
        let longest = self.peek() == Some(mark);
        if longest {
            self.pos += 1;
        }
        let args = vec![self.parse_arg(&|c, _| c != '}', NO_ESCAPES)?];
        self.expect_close()?;
        let op = if mark == '#' {
            Op::TrimPrefix { longest }
        } else {
            Op::TrimSuffix { longest }
        };
        Ok(Self::func(name, op, args))
    }

    /// `${N/p/r}` and friends; the scanner is on the first `/`.
    fn parse_replace(&mut self, name: String) -> Result<Func, RawError> {
        self.pos += 1;
        let kind = match self.peek() {
            Some('/') => ReplaceKind::All,
            Some('#') => ReplaceKind::Prefix,
            Some('%') => ReplaceKind::Suffix,
            _ => ReplaceKind::First,
        };
        if kind != ReplaceKind::First {
            self.pos += 1;
        }
        let all = Escapes {
            dollar: true,
            backslash: true,
        };
        let mut args = vec![self.parse_arg(&|c, _| c != '/', all)?];
        if self.peek() != Some('/') {
            let detail = format!(
                "{} where `/` was expected (write `${{{name}/pattern/}}` to delete)",
                self.unexpected()
            );
            return Err(self.error(ErrKind::BadSubstitution, detail));
        }
        // drone takes any number of slashes as the separator.
        while self.peek() == Some('/') {
            self.pos += 1;
        }
        if self.peek() != Some('}') {
            args.push(self.parse_arg(&|c, _| c != '}', all)?);
        }
        self.expect_close()?;
        Ok(Self::func(name, Op::Replace(kind), args))
    }

    /// `${N,}`, `${N,,}`, `${N^}`, `${N^^}`; the scanner is on the first mark.
    fn parse_case(&mut self, name: String) -> Result<Func, RawError> {
        let mut marks = String::new();
        while marks.len() < 2
            && let Some(c @ (',' | '^')) = self.peek()
        {
            marks.push(c);
            self.bump();
        }
        self.expect_close()?;
        let op = match marks.as_str() {
            "," => Op::Case {
                upper: false,
                all: false,
            },
            ",," => Op::Case {
                upper: false,
                all: true,
            },
            "^" => Op::Case {
                upper: true,
                all: false,
            },
            "^^" => Op::Case {
                upper: true,
                all: true,
            },
            // `,^` and `^,` parse but name no function; drone then returns the value.
            _ => Op::Value,
        };
        Ok(Self::func(name, op, Vec::new()))
    }
}

// ---------------------------------------------------------------------------------------------
// Missing variables

/// clusterctl's check before evaluating: every top-level variable whose first occurrence has no
/// argument and that the lookup does not know. Each occurrence without an argument is listed.
fn missing_variables(
    nodes: &[Node],
    lookup: &dyn Fn(&str) -> Option<String>,
    norm: &Normalized,
) -> Vec<Missing> {
    let mut first_has_default: HashMap<&str, bool> = HashMap::new();
    for node in nodes {
        if let Node::Func(f) = node {
            first_has_default
                .entry(f.param.as_str())
                .or_insert(!f.args.is_empty());
        }
    }
    let missing: BTreeSet<&str> = first_has_default
        .iter()
        .filter(|(name, has_default)| !**has_default && lookup(name).is_none())
        .map(|(name, _)| *name)
        .collect();
    nodes
        .iter()
        .filter_map(|n| match n {
            Node::Func(f) if f.args.is_empty() && missing.contains(f.param.as_str()) => {
                Some(Missing {
                    name: f.param.clone(),
                    span: norm.span(f.start, f.end),
                })
            }
            _ => None,
        })
        .collect()
}

fn missing_diagnostic(list: &[Missing], file: &Arc<SourceFile>) -> Diagnostic {
    let names: BTreeSet<&str> = list.iter().map(|m| m.name.as_str()).collect();
    let mut shown: Vec<&str> = names.iter().copied().take(MAX_MISSING_REPORTED).collect();
    let more_names = names.len() - shown.len();
    let more = format!("… and {more_names} more");
    if more_names > 0 {
        shown.push(&more);
    }
    let mut d = Diagnostic::error(
        Code::InputUnsetVariable,
        format!(
            "value for variables [{}] is not set. Please set the value using os environment \
             variables, the clusterctl config file or a file passed with --env-file",
            shown.join(", ")
        ),
    )
    .with_help(
        "give each variable a value (export NAME=value and pass --env NAME, a NAME=value line \
         in the --env-file, or NAME: value in the clusterctl config file), or a default in the \
         template: ${NAME:=default}",
    );
    if let Some(first) = list.first() {
        d = d.with_span(file, first.span, format!("`{}` is not set", first.name));
    }
    // One located entry per use, built only for those shown.
    let related = list.iter().take(crate::diag::MAX_RELATED).map(|m| {
        Diagnostic::error(
            Code::InputUnsetVariable,
            format!("variable {} is not set", m.name),
        )
        .with_span(file, m.span, "no value and no default")
    });
    d.with_related_bounded(related, list.len())
}

fn syntax_diagnostic(message: &str, span: Span, file: &Arc<SourceFile>) -> Diagnostic {
    let d = Diagnostic::error(
        Code::InputSubstitution,
        format!("cannot substitute variables: {message}"),
    )
    .with_help(
        "clusterctl (drone/envsubst) understands ${NAME}, ${NAME:=default}, ${NAME=default}, \
         ${NAME:-default}, ${#NAME}, ${NAME^}, ${NAME,,}, ${NAME:1:2}, ${NAME#prefix}, \
         ${NAME%suffix}, ${NAME/from/to}; write $${ for a literal ${",
    );
    // A span ending on the newline that stopped the parser reads better without it.
    let mut span = span;
    let text = file
        .text
        .get(span.offset..span.offset + span.len)
        .unwrap_or("");
    let trimmed = text.trim_end_matches(['\n', '\r']);
    if !trimmed.is_empty() {
        span.len = trimmed.len();
    }
    if !trimmed.contains('\n') {
        return d.with_span(file, span, "here");
    }
    // An expression that runs over lines would underline half the file: point at its start
    // and, separately, at where parsing gave up.
    let end = span.offset + span.len;
    let stop = match trimmed.chars().next_back() {
        Some(c) if end < file.text.len() => Span::new(end - c.len_utf8(), c.len_utf8()),
        _ => Span::new(end, 0),
    };
    d.with_span(file, Span::new(span.offset, 2), "this expression")
        .with_related(vec![
            Diagnostic::error(
                Code::InputSubstitution,
                "parsing the expression stopped here",
            )
            .with_span(file, stop, "here"),
        ])
}

// ---------------------------------------------------------------------------------------------
// Evaluation (on bytes, like Go strings)

/// Why evaluation stopped.
enum EvalError {
    Raw(RawError),
    /// The output would pass the cap at this expression (rewritten offsets), or at literal
    /// text (`None`).
    TooLarge(Option<(usize, usize)>),
}

impl From<RawError> for EvalError {
    fn from(e: RawError) -> Self {
        EvalError::Raw(e)
    }
}

/// Appends `node`'s value to `out`, which may hold at most `max` bytes.
fn eval_node(
    node: &Node,
    lookup: &dyn Fn(&str) -> Option<String>,
    out: &mut Vec<u8>,
    max: usize,
) -> Result<(), EvalError> {
    match node {
        Node::Text(t) => {
            if out.len().saturating_add(t.len()) > max {
                return Err(EvalError::TooLarge(None));
            }
            out.extend_from_slice(t)
        }
        Node::Func(f) => {
            let too_large = || EvalError::TooLarge(Some((f.start, f.end)));
            let room = max.saturating_sub(out.len());
            let mut args = Vec::with_capacity(f.args.len());
            for a in &f.args {
                let mut buf = Vec::new();
                // An argument larger than the room left could only be used whole or grown.
                eval_node(a, lookup, &mut buf, room).map_err(|e| match e {
                    EvalError::TooLarge(_) => too_large(),
                    e => e,
                })?;
                args.push(buf);
            }
            let value = lookup(&f.param).unwrap_or_default();
            let v = apply(f, &value, &args, room)?.ok_or_else(too_large)?;
            if v.len() > room {
                return Err(too_large());
            }
            out.extend(v);
        }
    }
    Ok(())
}

/// `f` applied to `value`; `None` when only a replacement could grow the result past `room`
/// bytes (checked while it is built; every other form is at most a few times its inputs).
fn apply(
    f: &Func,
    value: &str,
    args: &[Vec<u8>],
    room: usize,
) -> Result<Option<Vec<u8>>, RawError> {
    let v = value.as_bytes();
    let arg = |i: usize| args.get(i).map_or(&[][..], Vec::as_slice);
    Ok(Some(match f.op {
        Op::Value => v.to_vec(),
        Op::Default if v.is_empty() && !args.is_empty() => args.concat(),
        Op::Default => v.to_vec(),
        Op::Length => v.len().to_string().into_bytes(),
        Op::Case { upper, all } => change_case(value, upper, all).into_bytes(),
        Op::Substr => substr(v, args).map_err(|length| RawError {
            message: format!(
                "bad substitution: substring length {length} ends before the offset \
                 (clusterctl crashes on this expression)"
            ),
            open: f.start,
            at: f.start,
            len: f.end - f.start,
        })?,
        Op::TrimPrefix { longest } => trim_prefix(v, arg(0), longest),
        Op::TrimSuffix { longest } => {
            // drone trims a suffix by reversing value and pattern (as characters) and trimming
            // a prefix, so `[a-c]` patterns turn into `]c-a[`: reproduced, not fixed.
            let r = reverse_runes(v);
            let p = reverse_runes(arg(0));
            reverse_runes(&trim_prefix(&r, &p, longest))
        }
        Op::Replace(kind) => match (kind, args.len()) {
            (ReplaceKind::First | ReplaceKind::All, 0) => v.to_vec(),
            (ReplaceKind::First, _) => match go_replace(v, arg(0), arg(1), Some(1), room) {
                Some(r) => r,
                None => return Ok(None),
            },
            (ReplaceKind::All, _) => match go_replace(v, arg(0), arg(1), None, room) {
                Some(r) => r,
                None => return Ok(None),
            },
            // Prefix and suffix forms need both arguments; `${N/#p/}` leaves the value alone.
            (_, n) if n != 2 => v.to_vec(),
            (ReplaceKind::Prefix, _) => match v.strip_prefix(arg(0)) {
                Some(rest) => [arg(1), rest].concat(),
                None => v.to_vec(),
            },
            (ReplaceKind::Suffix, _) => match v.strip_suffix(arg(0)) {
                Some(rest) => [rest, arg(1)].concat(),
                None => v.to_vec(),
            },
        },
    }))
}

/// Go's `unicode.ToUpper`/`ToLower` use the one-to-one mappings; Rust's may give several
/// characters, in which case the character is kept (the lowercase of `İ` is the exception:
/// Go gives `i`, the first of Rust's two).
fn simple_case(c: char, upper: bool) -> char {
    if upper {
        let mut it = c.to_uppercase();
        match (it.next(), it.next()) {
            (Some(u), None) => u,
            _ => upper_special(c),
        }
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

/// Characters whose full uppercase is several characters but whose simple uppercase is one:
/// Greek letters with ypogegrammeni (U+1F80–U+1FF3) map to their prosgegrammeni forms.
fn upper_special(c: char) -> char {
    let u = c as u32;
    let mapped = match u {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => u + 8,
        0x1FB3 | 0x1FC3 | 0x1FF3 => u + 9,
        _ => u,
    };
    char::from_u32(mapped).unwrap_or(c)
}

fn change_case(s: &str, upper: bool, all: bool) -> String {
    if all {
        return s.chars().map(|c| simple_case(c, upper)).collect();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => {
            let mut out = String::with_capacity(s.len());
            out.push(simple_case(c, upper));
            out.push_str(chars.as_str());
            out
        }
        None => String::new(),
    }
}

/// drone's `${N:pos}` / `${N:pos:len}` on bytes: an unparsable number returns the value, a
/// negative offset counts from the end. `Err(len)` where Go would panic on a negative length.
fn substr(v: &[u8], args: &[Vec<u8>]) -> Result<Vec<u8>, i64> {
    let parse = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<i64>().ok();
    let Some(mut pos) = args.first().and_then(|a| parse(a)) else {
        return Ok(v.to_vec());
    };
    let len = i64::try_from(v.len()).unwrap_or(i64::MAX);
    if pos < 0 {
        pos = (len + pos).max(0);
    }
    let from = |p: i64| -> Vec<u8> {
        usize::try_from(p)
            .ok()
            .and_then(|p| v.get(p..))
            .map_or_else(Vec::new, <[u8]>::to_vec)
    };
    let Some(length) = args.get(1) else {
        return Ok(from(pos));
    };
    let Some(length) = parse(length) else {
        return Ok(v.to_vec());
    };
    // Go adds with wrap-around; a wrapped (negative) end panics there like a negative length.
    let end = pos.wrapping_add(length);
    if end >= len {
        return Ok(from(pos));
    }
    if end < pos {
        return Err(length);
    }
    let range = usize::try_from(pos).ok().zip(usize::try_from(end).ok());
    Ok(range
        .and_then(|(a, b)| v.get(a..b))
        .map_or_else(Vec::new, <[u8]>::to_vec))
}

/// Go's `utf8.DecodeRune`: an invalid or truncated sequence is U+FFFD of width 1.
fn decode_rune(b: &[u8]) -> (char, usize) {
    let head = &b[..b.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    match valid.chars().next() {
        Some(c) => (c, c.len_utf8()),
        None => ('\u{FFFD}', usize::from(!b.is_empty())),
    }
}

/// Go's `reverse` in drone: runes reversed, invalid bytes becoming U+FFFD.
fn reverse_runes(b: &[u8]) -> Vec<u8> {
    let mut runes = Vec::new();
    let mut rest = b;
    while !rest.is_empty() {
        let (c, n) = decode_rune(rest);
        runes.push(c);
        rest = &rest[n.max(1)..];
    }
    runes.iter().rev().collect::<String>().into_bytes()
}

/// drone's `trimShortest`/`trimLongest`: remove the shortest or longest non-empty prefix (cut at
/// any byte) that the glob matches; a malformed pattern leaves the value alone.
fn trim_prefix(s: &[u8], pattern: &[u8], longest: bool) -> Vec<u8> {
    let mut found = None;
    for cut in (1..=s.len()).rev() {
        match glob_match(pattern, &s[..cut]) {
            Err(BadPattern) => return s.to_vec(),
            Ok(true) => {
                found = Some(cut);
                if longest {
                    break;
                }
            }
            Ok(false) => {}
        }
    }
    found.map_or_else(|| s.to_vec(), |cut| s[cut..].to_vec())
}

/// Go's `strings.Replace` on bytes (`limit` None: all). An empty `old` matches before every
/// character and at the end. `None` as soon as the result would pass `max` bytes.
fn go_replace(
    s: &[u8],
    old: &[u8],
    new: &[u8],
    limit: Option<usize>,
    max: usize,
) -> Option<Vec<u8>> {
    if old == new {
        return Some(s.to_vec());
    }
    let limit = limit.unwrap_or(usize::MAX);
    let mut out = Vec::with_capacity(s.len());
    let mut start = 0;
    let mut done = 0;
    if old.is_empty() {
        while done < limit {
            if done > 0 {
                if start >= s.len() {
                    break;
                }
                let (_, n) = decode_rune(&s[start..]);
                out.extend_from_slice(&s[start..start + n]);
                start += n;
            }
            if out.len() + new.len() > max {
                return None;
            }
            out.extend_from_slice(new);
            done += 1;
        }
    } else {
        while done < limit {
            // memmem, not a window scan: a long pattern over a long value would be quadratic.
            let Some(i) = memchr::memmem::find(&s[start..], old) else {
                break;
            };
            out.extend_from_slice(&s[start..start + i]);
            if out.len() + new.len() > max {
                return None;
            }
            out.extend_from_slice(new);
            start += i + old.len();
            done += 1;
        }
    }
    out.extend_from_slice(&s[start..]);
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// Glob matching: drone's copy of Go's `path.Match`, which it changed so that `*` and `?` also
// match `/` and a trailing `*` matches everything. Works on bytes; `?` and classes take one
// (Go-decoded) character.

#[derive(Debug)]
struct BadPattern;

fn glob_match(mut pattern: &[u8], mut name: &[u8]) -> Result<bool, BadPattern> {
    'chunks: while !pattern.is_empty() {
        let (star, chunk, rest) = split_chunk(pattern);
        pattern = rest;
        if star && chunk.is_empty() {
            return Ok(true);
        }
        match match_chunk(chunk, name) {
            // The last chunk must use up the name; otherwise a star may still skip ahead.
            Ok(Some(t)) if t.is_empty() || !pattern.is_empty() => {
                name = t;
                continue;
            }
            Err(e) => return Err(e),
            _ => {}
        }
        if star {
            for i in 0..name.len() {
                match match_chunk(chunk, &name[i + 1..]) {
                    Ok(Some(t)) => {
                        if pattern.is_empty() && !t.is_empty() {
                            continue;
                        }
                        name = t;
                        continue 'chunks;
                    }
                    Err(e) => return Err(e),
                    Ok(None) => {}
                }
            }
        }
        return Ok(false);
    }
    Ok(name.is_empty())
}

/// Leading stars, then the pattern up to the next star outside a class.
fn split_chunk(pattern: &[u8]) -> (bool, &[u8], &[u8]) {
    let mut p = pattern;
    let mut star = false;
    while let [b'*', rest @ ..] = p {
        p = rest;
        star = true;
    }
    let mut in_class = false;
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            b'\\' if i + 1 < p.len() => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'*' if !in_class => break,
            _ => {}
        }
        i += 1;
    }
    (star, &p[..i], &p[i..])
}

/// Match a star-free chunk at the start of `s`: `Some(rest)` on a match.
fn match_chunk<'s>(mut chunk: &[u8], mut s: &'s [u8]) -> Result<Option<&'s [u8]>, BadPattern> {
    while let Some(&c) = chunk.first() {
        let Some(&first) = s.first() else {
            return Ok(None);
        };
        match c {
            b'[' => {
                let (r, n) = decode_rune(s);
                s = &s[n.max(1)..];
                chunk = &chunk[1..];
                let negated = chunk.first() == Some(&b'^');
                if negated {
                    chunk = &chunk[1..];
                }
                let mut matched = false;
                let mut ranges = 0;
                loop {
                    if chunk.first() == Some(&b']') && ranges > 0 {
                        chunk = &chunk[1..];
                        break;
                    }
                    let (lo, rest) = class_char(chunk)?;
                    chunk = rest;
                    let mut hi = lo;
                    if chunk.first() == Some(&b'-') {
                        let (h, rest) = class_char(&chunk[1..])?;
                        hi = h;
                        chunk = rest;
                    }
                    if lo <= r && r <= hi {
                        matched = true;
                    }
                    ranges += 1;
                }
                if matched == negated {
                    return Ok(None);
                }
            }
            b'?' => {
                let (_, n) = decode_rune(s);
                s = &s[n.max(1)..];
                chunk = &chunk[1..];
            }
            _ => {
                let lit = if c == b'\\' {
                    chunk = &chunk[1..];
                    *chunk.first().ok_or(BadPattern)?
                } else {
                    c
                };
                if lit != first {
                    return Ok(None);
                }
                s = &s[1..];
                chunk = &chunk[1..];
            }
        }
    }
    Ok(Some(s))
}

/// One possibly escaped character of a class; the class must go on after it.
fn class_char(chunk: &[u8]) -> Result<(char, &[u8]), BadPattern> {
    let chunk = match chunk {
        [] | [b'-' | b']', ..] => return Err(BadPattern),
        [b'\\'] => return Err(BadPattern),
        [b'\\', rest @ ..] => rest,
        _ => chunk,
    };
    let (r, n) = decode_rune(chunk);
    let rest = &chunk[n.max(1)..];
    if (r == '\u{FFFD}' && n == 1) || rest.is_empty() {
        return Err(BadPattern);
    }
    Ok((r, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn run(text: &str, vars: &[(&str, &str)]) -> Result<String, SubstError> {
        let lookup = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| (*v).to_string())
        };
        substitute(text, &lookup)
    }

    #[track_caller]
    fn ok(text: &str, vars: &[(&str, &str)]) -> String {
        match run(text, vars) {
            Ok(s) => s,
            Err(e) => panic!("{text:?}: {e:?}"),
        }
    }

    /// The names reported missing, in order of occurrence.
    #[track_caller]
    fn missing(text: &str, vars: &[(&str, &str)]) -> Vec<String> {
        match run(text, vars) {
            Err(SubstError::Missing(m)) => m.into_iter().map(|m| m.name).collect(),
            other => panic!("{text:?}: expected missing variables, got {other:?}"),
        }
    }

    /// The message and the text the span covers.
    #[track_caller]
    fn syntax(text: &str, vars: &[(&str, &str)]) -> (String, String) {
        match run(text, vars) {
            Err(SubstError::Syntax { message, span }) => {
                let covered = text[span.offset..span.offset + span.len].to_string();
                (message, covered)
            }
            other => panic!("{text:?}: expected a syntax error, got {other:?}"),
        }
    }

    const SET: &[(&str, &str)] = &[("A", "value"), ("E", "")];

    #[test]
    fn plain_variable_set_empty_unset() {
        assert_eq!(ok("x ${A} y", SET), "x value y");
        assert_eq!(ok("x ${E} y", SET), "x  y");
        assert_eq!(missing("x ${U} y", SET), ["U"]);
        assert_eq!(ok("${A}${A}", SET), "valuevalue");
    }

    #[test]
    fn bare_dollar_name_is_text() {
        // clusterctl documents only ${VAR}; drone's scanner indeed opens nothing on a bare `$`.
        assert_eq!(ok("$A $U a$ $ $1 ${A}$", SET), "$A $U a$ $ $1 value$");
        assert_eq!(ok("$", &[]), "$");
        assert_eq!(ok("{A} }", &[]), "{A} }");
    }

    #[test]
    fn default_forms_set_empty_unset() {
        for op in [":=", "=", ":-", ":?", ":+"] {
            let t = format!("${{A{op}d}}|${{E{op}d}}|${{U{op}d}}");
            // drone maps every one of them to "the default when the value is empty", and
            // clusterctl's lookup turns unset into empty.
            assert_eq!(ok(&t, SET), "value|d|d", "{op}");
        }
        // An empty default is no default: the variable is required.
        assert_eq!(missing("${U:-}", SET), ["U"]);
        assert_eq!(missing("${U=}", SET), ["U"]);
        assert_eq!(ok("${E:-}", SET), "");
        // The default runs to the first `}` and may hold any other character.
        assert_eq!(ok("${U:-a:b=c-d #e %f /g ,^}", &[]), "a:b=c-d #e %f /g ,^");
        assert_eq!(ok(r#"${U:=""}"#, &[]), r#""""#);
        assert_eq!(ok("${U:-line1\nline2}", &[]), "line1\nline2");
        // `$$` is not an escape inside a default.
        assert_eq!(ok("${U:-$$}", &[]), "$$");
    }

    #[test]
    fn shell_defaults_without_colon_are_errors() {
        for (t, hint) in [
            ("${A-d}", "${A:-…}"),
            ("${A+d}", "${A:+…}"),
            ("${A?d}", "${A:?…}"),
        ] {
            let (msg, covered) = syntax(t, SET);
            assert!(msg.starts_with("missing closing brace"), "{msg}");
            assert!(msg.contains(hint), "{msg}");
            assert_eq!(covered, &t[..4]);
        }
    }

    #[test]
    fn nested_defaults() {
        let t = "${A:-${B}}";
        assert_eq!(ok(t, &[("A", "a"), ("B", "b")]), "a");
        assert_eq!(ok(t, &[("B", "b")]), "b");
        assert_eq!(ok(t, &[("A", ""), ("B", "b")]), "b");
        // clusterctl never looks inside a default, so an unset nested variable is not reported
        // and expands to nothing.
        assert_eq!(ok(t, &[]), "");
        assert_eq!(ok("${A:-${B:-${C:-deep}}}", &[]), "deep");
        assert_eq!(ok("${A:-${B:-${C:-deep}}}", &[("B", "b")]), "b");
        // Text and expressions mix in a default (clusterctl's own test case).
        assert_eq!(
            ok(
                "foo ${BAR=default_bar} ${BAZ:=prefix${DEF}-suffix} ${CAZ=${DEF}}",
                &[("BAR", "ba$r"), ("DEF", "football")]
            ),
            "foo ba$r prefixfootball-suffix football"
        );
        // Any function may be nested.
        assert_eq!(ok("${U:-${A^^}}", SET), "VALUE");
        assert_eq!(ok("${U:-$${A}}", SET), "$value");
    }

    #[test]
    fn length() {
        assert_eq!(ok("${#A}", SET), "5");
        assert_eq!(ok("${#E}", SET), "0");
        // Bytes, as Go's len.
        assert_eq!(ok("${#V}", &[("V", "héllo")]), "6");
        assert_eq!(missing("${#U}", SET), ["U"]);
        assert!(syntax("${#}", SET).0.starts_with("bad substitution"));
        assert!(syntax("${#A:-x}", SET).0.starts_with("bad substitution"));
        assert!(syntax("${##A}", SET).0.starts_with("bad substitution"));
    }

    #[test]
    fn case_changes() {
        let v = &[("V", "élan Vital"), ("W", "ÉLAN"), ("S", "straße")];
        assert_eq!(ok("${V^}", v), "Élan Vital");
        assert_eq!(ok("${V^^}", v), "ÉLAN VITAL");
        assert_eq!(ok("${W,}", v), "éLAN");
        assert_eq!(ok("${W,,}", v), "élan");
        // One-to-one mappings as Go: ß stays, İ lowers to i.
        assert_eq!(ok("${S^^}", v), "STRAßE");
        assert_eq!(ok("${I,,}", &[("I", "İ")]), "i");
        // Mixed marks name no function: the value is kept.
        assert_eq!(ok("${V,^}|${V^,}", v), "élan Vital|élan Vital");
        assert_eq!(ok("${E^}", SET), "");
        assert_eq!(missing("${U^^}", SET), ["U"]);
        assert!(syntax("${V^^^}", v).0.starts_with("bad substitution"));
    }

    #[test]
    fn substrings() {
        let p = &[("P", "/home/bozo/ideas/thoughts.for.today"), ("N", "-5")];
        assert_eq!(ok("${P:11}", p), "ideas/thoughts.for.today");
        assert_eq!(ok("${P:11:5}", p), "ideas");
        assert_eq!(ok("${P:11:500}", p), "ideas/thoughts.for.today");
        assert_eq!(ok("${P:500}", p), "");
        assert_eq!(ok("${P:500:1}", p), "");
        assert_eq!(ok("${P:0:0}", p), "");
        // A negative offset is only reachable through a nested expression: `${P:-5}` is a
        // default and `${P: -5}` does not parse as a number, which returns the value.
        assert_eq!(ok("${P:${N}}", p), "today");
        assert_eq!(ok("${P:-5}", p), "/home/bozo/ideas/thoughts.for.today");
        assert_eq!(ok("${P: -5}", p), "/home/bozo/ideas/thoughts.for.today");
        assert_eq!(ok("${P:x}", p), "/home/bozo/ideas/thoughts.for.today");
        assert_eq!(ok("${P:+3}", p), "/home/bozo/ideas/thoughts.for.today");
        // Any run of colons separates offset and length.
        assert_eq!(ok("${P:1::4}", p), "home");
        // Bytes: a cut inside a character leaves U+FFFD.
        assert_eq!(ok("${V:0:1}|${V:1}", &[("V", "éa")]), "\u{fffd}|\u{fffd}a");
        assert_eq!(ok("${V:0:1}${V:1}", &[("V", "éa")]), "éa");
        // An argument counts as a default for clusterctl: no missing variable, empty result.
        assert_eq!(ok("${U:1}", &[]), "");
        // drone panics on a length that ends before the offset; that is an error here.
        let (msg, covered) = syntax("x ${P:0:-1} y", p);
        assert!(msg.contains("crashes"), "{msg}");
        assert_eq!(covered, "${P:0:-1}");
        assert!(
            syntax("${P:}", p)
                .0
                .starts_with("unable to parse substitution")
        );
        assert!(
            syntax("${P:1:}", p)
                .0
                .starts_with("unable to parse substitution")
        );
        assert_eq!(ok("${P:1x}", p), "/home/bozo/ideas/thoughts.for.today");
        assert!(syntax("${P:é}", p).0.starts_with("bad substitution"));
        assert!(syntax("${P:", p).0.starts_with("bad substitution"));
    }

    #[test]
    fn trims() {
        let f = &[("F", "bash.string.txt"), ("D", "/path/to/file")];
        assert_eq!(ok("${F#*.}", f), "string.txt");
        assert_eq!(ok("${F##*.}", f), "txt");
        assert_eq!(ok("${F%.*}", f), "bash.string");
        assert_eq!(ok("${F%%.*}", f), "bash");
        assert_eq!(ok("${D#*/}", f), "path/to/file");
        assert_eq!(ok("${D##*/}", f), "file");
        assert_eq!(ok("${F#nomatch}", f), "bash.string.txt");
        assert_eq!(ok("${F#b?sh.}", f), "string.txt");
        assert_eq!(ok("${F#[a-c]}", f), "ash.string.txt");
        assert_eq!(ok("${F#[^a-c]}", f), "bash.string.txt");
        assert_eq!(ok("${F#\\b}", f), "ash.string.txt");
        // A malformed pattern leaves the value alone.
        assert_eq!(ok("${F#[}", f), "bash.string.txt");
        // The pattern may be an expression.
        assert_eq!(ok("${F#${P}}", &[("F", "v1.2"), ("P", "v")]), "1.2");
        assert_eq!(ok("${U#x}", &[]), "");
        assert!(
            syntax("${F#}", f)
                .0
                .starts_with("unable to parse substitution")
        );
        assert!(syntax("${F#a${P}}", f).0.starts_with("bad substitution"));
    }

    #[test]
    fn replacements() {
        let z = &[
            ("Z", "abcABC123ABCabc"),
            ("S", "foo/bar/baz"),
            ("D", "foo.bar"),
        ];
        assert_eq!(ok("${Z/abc/xyz}", z), "xyzABC123ABCabc");
        assert_eq!(ok("${Z//abc/xyz}", z), "xyzABC123ABCxyz");
        assert_eq!(ok("${Z/#abc/XYZ}", z), "XYZABC123ABCabc");
        assert_eq!(ok("${Z/%abc/XYZ}", z), "abcABC123ABCXYZ");
        assert_eq!(ok("${Z/#ABC/XYZ}", z), "abcABC123ABCabc");
        assert_eq!(ok("${D/./}", z), "foobar");
        assert_eq!(ok("${Z//abc/}", z), "ABC123ABC");
        // Prefix and suffix forms need a replacement to do anything.
        assert_eq!(ok("${Z/#abc/}", z), "abcABC123ABCabc");
        // Escapes: `\/`, `\\` and `$$`; other backslashes are literal.
        assert_eq!(ok(r"${S/\//-}", z), "foo-bar/baz");
        assert_eq!(ok(r"${S//\//-}", z), "foo-bar-baz");
        assert_eq!(ok(r"${S//\//\\}", z), r"foo\bar\baz");
        assert_eq!(ok(r"${D/./\n}", z), r"foo\nbar");
        assert_eq!(ok("${D/./$$}", z), "foo$bar");
        // Patterns are literal here, not globs.
        assert_eq!(ok("${D/*/x}", z), "foo.bar");
        // Any run of slashes separates pattern and replacement.
        assert_eq!(ok("${D/.//x}", z), "fooxbar");
        assert_eq!(ok("${D/${P}/-}", &[("D", "a.b"), ("P", ".")]), "a-b");
        assert!(syntax("${D/x}", z).0.starts_with("bad substitution"));
        // `}` is a pattern character, so this runs out of text looking for the separator.
        assert!(syntax("${D//}", z).0.starts_with("bad substitution"));
        assert!(syntax("${D/a${P}/b}", z).0.starts_with("bad substitution"));
    }

    #[test]
    fn dollar_escapes() {
        assert_eq!(ok("$${A}", SET), "${A}");
        assert_eq!(ok("$$A", SET), "$A");
        assert_eq!(ok("$$$A", SET), "$$A");
        assert_eq!(ok("$$$${A}", SET), "$${A}");
        assert_eq!(ok("$$${A}", SET), "$value");
        assert_eq!(ok("$$", SET), "$");
        assert_eq!(ok("$$$", SET), "$$");
        // drone's own example.
        assert_eq!(
            ok(
                "some text ${V}$${var$${V}$var01${V}",
                &[("V", "abcdEFGH28ij")]
            ),
            "some text abcdEFGH28ij${var${V}$var01abcdEFGH28ij"
        );
        assert_eq!(
            ok("something $${var=${D}}", &[("D", "foo")]),
            "something ${var=foo}"
        );
        // Backslashes are not escapes outside `/…/…`.
        assert_eq!(ok(r"\\something ${A}", SET), r"\\something value");
        // An escaped expression is never looked up, so it cannot be missing.
        assert_eq!(ok("$${UNSET}", &[]), "${UNSET}");
    }

    #[test]
    fn unterminated_and_malformed() {
        let (msg, covered) = syntax("a: ${A\nb: c\n", SET);
        assert!(msg.starts_with("missing closing brace"), "{msg}");
        assert_eq!(covered, "${A\n");
        let (msg, covered) = syntax("a: ${A", SET);
        assert!(msg.contains("ends inside"), "{msg}");
        assert_eq!(covered, "${A");
        let (msg, covered) = syntax("a: ${", SET);
        assert!(msg.starts_with("unable to parse variable name"), "{msg}");
        assert_eq!(covered, "${");
        let (msg, _) = syntax("${}", SET);
        assert!(msg.starts_with("unable to parse variable name"), "{msg}");
        let (msg, _) = syntax("${A:-x", SET);
        assert!(
            msg.starts_with("unable to parse substitution within function"),
            "{msg}"
        );
        let (msg, _) = syntax("${A.B}", SET);
        assert!(msg.starts_with("missing closing brace"), "{msg}");
        assert!(msg.contains("`.`"), "{msg}");
        let (msg, _) = syntax("${ A:-x }", SET);
        assert!(msg.contains("spaces"), "{msg}");
        let (msg, _) = syntax("${A :-x}", SET);
        assert!(msg.contains("space"), "{msg}");
        // The innermost open expression is the one reported.
        let (_, covered) = syntax("${A:-${B!}}", SET);
        assert_eq!(covered, "${B!");
        // A default may span lines, so an unclosed one runs to the end of the text.
        assert_eq!(ok("${U:-a\nb}", &[]), "a\nb");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = "${A:-".repeat(100) + &"}".repeat(100);
        let (msg, _) = syntax(&deep, &[]);
        assert!(msg.contains("nested"), "{msg}");
        let fine = "${A:-".repeat(20) + "x" + &"}".repeat(20);
        assert_eq!(ok(&fine, &[]), "x");
    }

    #[test]
    fn legacy_spacing() {
        assert_eq!(
            ok("${ A } ${A } ${ A} ${\tA\n}", SET),
            "value value value value"
        );
        assert_eq!(
            missing("foo ${ BAR} ${BAZ} ${CAR }", &[]),
            ["BAR", "BAZ", "CAR"]
        );
        // The rewrite is textual, so it reaches into escapes too.
        assert_eq!(ok("$${ A }", SET), "${A}");
        // `$` is a name character for the rewrite; drone then rejects the name.
        assert!(
            syntax("${ BA$R }", SET)
                .0
                .starts_with("missing closing brace")
        );
        // Spans point into the original text.
        let t = "x: ${  U  }\ny: ${U}";
        match run(t, &[]) {
            Err(SubstError::Missing(m)) => {
                assert_eq!(
                    &t[m[0].span.offset..m[0].span.offset + m[0].span.len],
                    "${  U  }"
                );
                assert_eq!(
                    &t[m[1].span.offset..m[1].span.offset + m[1].span.len],
                    "${U}"
                );
            }
            other => panic!("{other:?}"),
        }
        let (_, covered) = syntax("${ A } ${ B }${C-x}", SET);
        assert_eq!(covered, "${C-");
    }

    #[test]
    fn missing_report_order_and_spans() {
        let text = "a: ${B}\nb: ${A}\nc: ${B:-x} ${B}\nd: ${C:-x} ${C}\né: «${D}»\n";
        let file = SourceFile::new("t.yaml", text);
        let err = run(text, &[]).unwrap_err();
        let SubstError::Missing(list) = &err else {
            panic!("{err:?}");
        };
        // C is not missing: its first occurrence has a default. B's occurrence with a default
        // is not listed, the others are, in order of appearance.
        let got: Vec<(String, usize, usize)> = list
            .iter()
            .map(|m| {
                let (l, c) = file.line_col(m.span.offset);
                (m.name.clone(), l, c)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("B".to_string(), 1, 4),
                ("A".to_string(), 2, 4),
                ("B".to_string(), 3, 12),
                ("D".to_string(), 5, 5),
            ]
        );
        assert!(list.iter().all(|m| text[m.span.offset..].starts_with("${")));
        assert_eq!(list[3].span.len, "${D}".len());

        let d = to_diagnostic(err, &file);
        assert_eq!(
            d.message,
            "value for variables [A, B, D] is not set. Please set the value using os environment \
             variables, the clusterctl config file or a file passed with --env-file"
        );
        assert_eq!(d.position(), Some(("t.yaml".to_string(), 1, 4)));
        assert_eq!(d.related.len(), 4);
        assert_eq!(d.related[2].position(), Some(("t.yaml".to_string(), 3, 12)));
        assert!(d.help.as_deref().is_some_and(|h| h.contains("--env-file")));
        assert!(d.is_error());
    }

    #[test]
    fn expansion_is_capped_at_the_expression_that_crosses_it() {
        let lookup = |k: &str| match k {
            "BIG" => Some("x".repeat(10)),
            "R" => Some("y".repeat(30)),
            _ => None,
        };
        let limit = |text: &str, max| substitute_with_limit(text, &lookup, max);
        assert_eq!(limit("${BIG}${BIG}", 20).unwrap().len(), 20);
        let err = limit("a ${BIG} ${BIG}${BIG}", 25).unwrap_err();
        let SubstError::TooLarge { limit: 25, span } = err else {
            panic!("{err:?}");
        };
        // 2 + 10 + 1 + 10 = 23 fit; the third `${BIG}` does not.
        assert_eq!((span.offset, span.len), (15, 6));
        // Literal text that tips it over is blamed on the expression before it.
        let SubstError::TooLarge { span, .. } = limit("${BIG}${BIG}-----", 22).unwrap_err() else {
            panic!()
        };
        assert_eq!((span.offset, span.len), (6, 6));
        // A replacement that multiplies the value stops while it is built.
        let err = limit("v: ${BIG//x/${R}}", 200).unwrap_err();
        let SubstError::TooLarge { span, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!(span.offset, 3);
        assert!(limit("v: ${BIG//x/${R}}", 400).is_ok());
        // An argument that alone is too large blames its expression.
        let err = limit("${U:-${BIG}${BIG}}", 15).unwrap_err();
        let SubstError::TooLarge { span, .. } = err else {
            panic!("{err:?}")
        };
        assert_eq!((span.offset, span.len), (0, 18));
        let file = SourceFile::new("t.yaml", "${BIG}${BIG}");
        let d = to_diagnostic(limit("${BIG}${BIG}", 15).unwrap_err(), &file);
        assert_eq!(
            d.message,
            "cannot substitute variables: the substituted text would exceed 15 bytes"
        );
        assert_eq!(d.position(), Some(("t.yaml".to_string(), 1, 7)));
    }

    #[test]
    fn missing_report_is_bounded() {
        let n = MAX_MISSING_REPORTED + 50;
        let text: String = (0..n).map(|i| format!("${{V{i}}}${{V{i}}}")).collect();
        let file = SourceFile::new("t.yaml", text.as_str());
        let err = run(&text, &[]).unwrap_err();
        let d = to_diagnostic(err, &file);
        assert!(
            d.message.contains("V0, V1, V10, V100, V101,"),
            "{}",
            d.message
        );
        assert!(
            d.message.contains(", … and 50 more] is not set"),
            "{}",
            d.message
        );
        assert_eq!(d.related.len(), crate::diag::MAX_RELATED);
        assert_eq!(d.omitted_related, 2 * n - crate::diag::MAX_RELATED);
    }

    #[test]
    fn first_occurrence_decides_default() {
        // clusterctl keeps the first occurrence's default for each name.
        assert_eq!(missing("${A} ${A:-x}", &[]), ["A"]);
        assert_eq!(ok("${A:-x} ${A}", &[]), "x ");
        // Syntax errors win over missing variables.
        assert!(
            syntax("${A} ${", &[])
                .0
                .starts_with("unable to parse variable name")
        );
    }

    #[test]
    fn syntax_diagnostic_locations() {
        let text = "kind: X\nname: ${NAME-x}\n";
        let file = SourceFile::new("f.yaml", text);
        let d = to_diagnostic(run(text, &[]).unwrap_err(), &file);
        assert!(
            d.message
                .starts_with("cannot substitute variables: missing closing brace")
        );
        assert_eq!(d.position(), Some(("f.yaml".to_string(), 2, 7)));
        assert!(d.related.is_empty());
        let loc = d.location.as_ref().map(|l| l.span);
        assert_eq!(loc, Some(Span::new(14, "${NAME-".len())));

        // An error several lines below its `${` points at both places.
        let text = "a: ${U:-one\ntwo\n";
        let file = SourceFile::new("g.yaml", text);
        let d = to_diagnostic(run(text, &[]).unwrap_err(), &file);
        assert_eq!(d.position(), Some(("g.yaml".to_string(), 1, 4)));
        assert_eq!(d.related.len(), 1);
        assert_eq!(d.related[0].position().map(|p| p.1), Some(2));
    }

    #[test]
    fn unicode_around_expressions() {
        let v = &[("A", "ü"), ("日本", "語")];
        assert_eq!(ok("日本${A}語é${A}", v), "日本ü語éü");
        assert_eq!(ok("«${U:-défaut}»", v), "«défaut»");
        // drone's names are Unicode letters and digits.
        assert_eq!(ok("${日本}", v), "語");
        let text = "ß: «${X}»";
        let file = SourceFile::new("u", text);
        let err = run(text, v).unwrap_err();
        let d = to_diagnostic(err, &file);
        assert_eq!(d.position(), Some(("u".to_string(), 1, 5)));
        let (_, covered) = syntax("é${A:-${B€}}", v);
        assert_eq!(covered, "${B€");
    }

    #[test]
    fn variables_lists_top_level_names() {
        assert_eq!(
            variables("${C:=default}\n${B}\n${A=foobar}\n${ D }\n${B}"),
            ["A", "B", "C", "D"]
        );
        // Nested names and escaped expressions are not listed, as in clusterctl.
        assert_eq!(variables("${X:-${NESTED}} $${ESCAPED} $BARE"), ["X"]);
        assert_eq!(
            variables("${A} ${B:0:1} ${#C} ${D^^} ${E/a/b}"),
            ["A", "B", "C", "D", "E"]
        );
        // Up to a syntax error.
        assert_eq!(variables("${B} ${A} ${"), ["A", "B"]);
        assert!(variables("no variables $here").is_empty());

        let d = variable_defaults(r#"${C:=default} ${B} ${A=foobar} ${E=""} ${D:=${A}} ${B:-x}"#);
        let want: BTreeMap<String, Option<String>> = [
            ("A", Some("foobar")),
            ("B", None),
            ("C", Some("default")),
            ("D", Some("${A}")),
            ("E", Some(r#""""#)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
        .collect();
        assert_eq!(d, want);
    }

    #[test]
    fn real_template_snippets() {
        let vars = &[
            ("CLUSTER_CLASS_NAMESPACE", "cc-ns"),
            ("NAMESPACE", "ns"),
            ("EXTENSION_CONFIG_NAME", "ext"),
        ];
        let t = "      namespace: '${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}'";
        assert_eq!(ok(t, vars), "      namespace: 'cc-ns'");
        assert_eq!(ok(t, &vars[1..]), "      namespace: 'ns'");
        let t = "generatePatchesExtension: generate-patches.${EXTENSION_CONFIG_NAME:-k8s-upgrade-with-runtimesdk}";
        assert_eq!(
            ok(t, vars),
            "generatePatchesExtension: generate-patches.ext"
        );
        assert_eq!(
            ok(t, &[]),
            "generatePatchesExtension: generate-patches.k8s-upgrade-with-runtimesdk"
        );
        assert_eq!(
            ok("cidrBlocks: ${SERVICE_CIDR:=[\"10.128.0.0/12\"]}", &[]),
            "cidrBlocks: [\"10.128.0.0/12\"]"
        );
        assert_eq!(
            ok("preLoadImages: ${DOCKER_PRELOAD_IMAGES:-[]}", &[]),
            "preLoadImages: []"
        );
        assert_eq!(
            ok(
                r#"echo "fetch-kubeadm.sh: raw version from template: '$$version'""#,
                &[]
            ),
            r#"echo "fetch-kubeadm.sh: raw version from template: '$version'""#
        );
        assert_eq!(
            ok(
                "current_version=$$($$KUBEADM_INSTALL version -o short 2>/dev/null || true)",
                &[]
            ),
            "current_version=$($KUBEADM_INSTALL version -o short 2>/dev/null || true)"
        );
        assert_eq!(
            ok(
                r#"if [[ "$${version}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then"#,
                &[]
            ),
            r#"if [[ "${version}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then"#
        );
        assert_eq!(
            ok(
                r#"url="$${BASE_URL}/$${version}/bin/linux/$${arch}/kubeadm""#,
                &[]
            ),
            r#"url="${BASE_URL}/${version}/bin/linux/${arch}/kubeadm""#
        );
        assert_eq!(ok("rc=$$?", &[]), "rc=$?");
    }

    /// The example folders shipped beside the repository (`shared/examples`), if present.
    fn examples_dir() -> Option<std::path::PathBuf> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/examples");
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!("skipped: {} not found", dir.display());
            None
        }
    }

    fn example(
        dir: &std::path::Path,
        folder: &str,
        file: &str,
    ) -> (String, BTreeMap<String, String>) {
        let read = |name: &str| std::fs::read_to_string(dir.join(folder).join(name)).unwrap();
        let env = SourceFile::new("vars.env", read("vars.env"));
        let vars = crate::load::envfile::parse(&env).unwrap();
        (read(file), vars)
    }

    fn subst_with(text: &str, vars: &BTreeMap<String, String>) -> Result<String, SubstError> {
        substitute(text, &|k: &str| vars.get(k).cloned())
    }

    #[test]
    fn example_runtimesdk_kubeadm_version() {
        let Some(dir) = examples_dir() else { return };
        let (text, vars) = example(
            &dir,
            "e2e-quick-start-runtimesdk",
            "cluster-topology-kubeadm-version.yaml",
        );
        let out = subst_with(&text, &vars).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), text.lines().count());
        assert_eq!(lines[3], "  name: 'k8s-upgrade-with-runtimesdk-x1y2z3'");
        assert_eq!(
            lines[6],
            "    cni: \"k8s-upgrade-with-runtimesdk-x1y2z3-crs-0\""
        );
        assert_eq!(lines[10], "      cidrBlocks: ['10.128.0.0/12']");
        assert_eq!(
            lines[17],
            "      namespace: 'k8s-upgrade-with-runtimesdk-ns'"
        );
        assert_eq!(lines[18], "    version: \"v1.34.1\"");
        assert_eq!(
            lines[45].trim(),
            "echo \"fetch-kubeadm.sh: raw version from template: '$version'\""
        );
        assert_eq!(
            lines[56].trim(),
            "current_version=$($KUBEADM_INSTALL version -o short 2>/dev/null || true)"
        );
        assert_eq!(
            lines[69].trim(),
            "if [[ \"${version}\" =~ ^v[0-9]+\\.[0-9]+\\.[0-9]+$ ]] || \
             [[ \"${version}\" =~ ^v[0-9]+\\.[0-9]+\\.[0-9]+-(beta|rc).[0-9]+$ ]]; then"
        );
        assert_eq!(
            lines[72].trim(),
            "url=\"${BASE_URL}/${version}/bin/linux/${arch}/kubeadm\""
        );
        assert_eq!(lines[82].trim(), "rc=$?");
        assert!(!out.contains("$$"));

        // Without values: the top-level required names, sorted in the message. NAMESPACE only
        // appears inside a default and CLUSTER_CLASS_NAMESPACE has one, so neither is missing.
        let err = subst_with(&text, &BTreeMap::new()).unwrap_err();
        let file = SourceFile::new("cluster-topology-kubeadm-version.yaml", text.clone());
        let d = to_diagnostic(err, &file);
        assert_eq!(
            d.message,
            "value for variables [CLUSTER_NAME, CONTROL_PLANE_MACHINE_COUNT, DOCKER_POD_CIDRS, \
             DOCKER_SERVICE_CIDRS, DOCKER_SERVICE_DOMAIN, KUBERNETES_VERSION, \
             WORKER_MACHINE_COUNT] is not set. Please set the value using os environment \
             variables, the clusterctl config file or a file passed with --env-file"
        );
        assert_eq!(
            d.position(),
            Some(("cluster-topology-kubeadm-version.yaml".to_string(), 4, 10))
        );
        assert_eq!(d.related.len(), 8);
    }

    #[test]
    fn example_dev_quick_start() {
        let Some(dir) = examples_dir() else { return };
        let (text, vars) = example(&dir, "dev-quick-start", "cluster-template-development.yaml");
        let out = subst_with(&text, &vars).unwrap();
        assert!(out.contains("\n      cidrBlocks: [\"192.168.0.0/16\"]\n"));
        assert!(out.contains("\n    serviceDomain: \"cluster.local\"\n"));
        assert!(out.contains("\n  name: \"capi-quickstart\"\n"));
        // The defaults apply when the variables are unset.
        let required: BTreeMap<String, String> = vars
            .into_iter()
            .filter(|(k, _)| !["POD_CIDR", "SERVICE_DOMAIN"].contains(&k.as_str()))
            .collect();
        let out = subst_with(&text, &required).unwrap();
        assert!(out.contains("\n    serviceDomain: \"cluster.local\"\n"));
        assert_eq!(
            variables(&text),
            [
                "CLUSTER_NAME",
                "CONTROL_PLANE_MACHINE_COUNT",
                "KUBERNETES_VERSION",
                "NAMESPACE",
                "POD_CIDR",
                "POD_SECURITY_STANDARD_ENABLED",
                "SERVICE_CIDR",
                "SERVICE_DOMAIN",
                "WORKER_MACHINE_COUNT"
            ]
        );
    }

    #[test]
    fn every_example_substitutes_with_its_env_file() {
        let Some(dir) = examples_dir() else { return };
        let mut seen = 0;
        for folder in std::fs::read_dir(&dir).unwrap() {
            let folder = folder.unwrap().path();
            let Ok(env) = std::fs::read_to_string(folder.join("vars.env")) else {
                continue;
            };
            let vars = crate::load::envfile::parse(&SourceFile::new("vars.env", env)).unwrap();
            for f in std::fs::read_dir(&folder).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "yaml") {
                    let text = std::fs::read_to_string(&f).unwrap();
                    let out = subst_with(&text, &vars);
                    assert!(out.is_ok(), "{}: {out:?}", f.display());
                    seen += 1;
                }
            }
        }
        assert!(seen >= 10, "{seen}");
    }

    /// Cases from drone/envsubst's own table (eval_test.go), rewritten.
    #[test]
    fn drone_reference_cases() {
        type Vars = &'static [(&'static str, &'static str)];
        let cases: &[(Vars, &str, &str)] = &[
            (&[], "abcdEFGH28ij", "abcdEFGH28ij"),
            (&[("v", "abcdEFGH28ij")], "${#v}", "12"),
            (&[("v", "abcdEFGH28ij")], "${v^}", "AbcdEFGH28ij"),
            (&[("v", "abcdEFGH28ij")], "${v^^}", "ABCDEFGH28IJ"),
            (&[("v", "ABCDEFGH28IJ")], "${v,}", "aBCDEFGH28IJ"),
            (&[("v", "ABCDEFGH28IJ")], "${v,,}", "abcdefgh28ij"),
            (&[("v", "abc")], "${v=xyz}", "abc"),
            (
                &[("d", "foo1")],
                "foo: ${v=${d}-suffix}",
                "foo: foo1-suffix",
            ),
            (
                &[("d", "foo1")],
                "foo: ${v=prefix${d}-suffix}",
                "foo: prefixfoo1-suffix",
            ),
            (&[("v", "abcdEFGH28ij")], "${x=${v^^}}", "ABCDEFGH28IJ"),
            (&[("f", "path/to/file")], "${f#*/}", "to/file"),
            (&[("f", "path/to/file")], "${f##*/}", "file"),
        ];
        for (vars, input, want) in cases {
            // drone's table treats unset as empty, which clusterctl's check would reject.
            let lookup = |k: &str| {
                Some(
                    vars.iter()
                        .find(|(n, _)| *n == k)
                        .map_or(String::new(), |(_, v)| (*v).to_string()),
                )
            };
            assert_eq!(substitute(input, &lookup).as_deref(), Ok(*want), "{input}");
        }
    }

    #[test]
    fn glob_matching() {
        let m = |p: &str, n: &str| glob_match(p.as_bytes(), n.as_bytes()).ok();
        assert_eq!(m("*", "a/b"), Some(true));
        assert_eq!(m("a?c", "a/c"), Some(true));
        assert_eq!(m("a*c", "abxc"), Some(true));
        assert_eq!(m("a*c", "abxd"), Some(false));
        assert_eq!(m("[a-c]x", "bx"), Some(true));
        assert_eq!(m("[^a-c]x", "bx"), Some(false));
        assert_eq!(m("[é]", "é"), Some(true));
        assert_eq!(m("\\*", "*"), Some(true));
        assert_eq!(m("[", "a"), None);
        assert_eq!(m("[]", "a"), None);
        assert_eq!(m("a\\", "a"), Some(false));
    }

    fn special_text() -> impl Strategy<Value = String> {
        let piece = prop::sample::select(vec![
            "$", "${", "}", "{", ":", "=", "-", "?", "+", "#", "%", "/", "\\", ",", "^", "*", "[",
            "]", "A", "B", "0", "-1", " ", "\n", "é", "日", "${A}", "${B:-", "$$", "${ A }",
        ]);
        prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn never_panics(text in any::<String>(), other in special_text()) {
            for t in [&text, &other] {
                let _ = substitute(t, &|_: &str| None);
                let _ = substitute(t, &|k: &str| Some(format!("<{k}>")));
                let _ = variables(t);
                if let Err(e) = substitute(t, &|_: &str| None) {
                    let file = SourceFile::new("p", t.clone());
                    let d = to_diagnostic(e, &file);
                    let spans = d.location.iter().map(|l| l.span)
                        .chain(d.related.iter().filter_map(|r| r.location.as_ref().map(|l| l.span)));
                    for s in spans {
                        prop_assert!(t.get(s.offset..s.offset + s.len).is_some(), "{s:?}");
                    }
                }
            }
        }

        #[test]
        fn text_without_dollar_is_unchanged(text in "[^$]*") {
            prop_assert_eq!(substitute(&text, &|_: &str| None), Ok(text.clone()));
        }

        #[test]
        fn doubled_dollars_give_the_text_back(text in "[^ \t\n\r\x0c]*") {
            // With every `$` doubled nothing is an expression any more. (Without ASCII spaces,
            // as clusterctl's legacy rewrite would edit `$${ A }`.)
            let doubled = text.replace('$', "$$");
            prop_assert_eq!(substitute(&doubled, &|_: &str| None), Ok(text.clone()));
        }
    }
}
