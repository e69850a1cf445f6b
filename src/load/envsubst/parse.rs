/*!
The parser for drone/envsubst's expression language, and its syntax errors.

drone's scanner is a set of modes and accept functions over a buffer it edits in place to drop
escape characters. The parser here follows the same decisions in the same order (checking for
`${` before escapes, escapes before the accept function), because that order is what decides
edge cases such as `$${` and `${N/\//x}`. Owns the syntax error's text and its diagnostic.
*/

use std::sync::Arc;

use super::error::SubstError;
use super::legacy::Normalized;
use super::tree::{Func, Node, Op, ReplaceKind};
use crate::diag::{Code, Diagnostic};
use crate::source::{SourceFile, Span};

/// How deep `${…}` may nest inside arguments. drone has no limit, but recursion on untrusted
/// input must not be able to exhaust the stack; no real template nests more than two levels.
const MAX_DEPTH: usize = 64;

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
pub(super) struct RawError {
    pub(super) message: String,
    /// Innermost open `${`.
    pub(super) open: usize,
    /// `[at, at + len)`: the offending character (empty at the end of the text).
    pub(super) at: usize,
    pub(super) len: usize,
}

impl RawError {
    pub(super) fn into_subst_error(self, norm: &Normalized) -> SubstError {
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

pub(super) struct Parser<'a> {
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
    pub(super) fn new(text: &'a str) -> Parser<'a> {
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
    pub(super) fn parse_template(&mut self, nodes: &mut Vec<Node>) -> Result<(), RawError> {
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

pub(super) fn syntax_diagnostic(message: &str, span: Span, file: &Arc<SourceFile>) -> Diagnostic {
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
