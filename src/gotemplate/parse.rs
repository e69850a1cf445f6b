/*!
The template parser: text/template/parse's recursive descent, error for error.

Go's parser keeps a three-token lookahead buffer per tree and reports errors with the line of
the most recently scanned token (`template: tpl:LINE: …`); both are reproduced exactly, because
which line an error names depends on how far the parser had looked ahead. `{{define}}` and
`{{block}}` bodies are parsed as separate trees sharing the lexer, as in Go, and collected into
one set keyed by name.

Beyond Go: nesting (control structures, `else if` chains, blocks and parentheses) is limited to
[`MAX_NESTING`] levels so that parsing and execution of a hostile template cannot exhaust the
stack; Go has no such limit.
*/

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::builtins::Builtin;
use super::func::FuncMap;
use super::lex::{Item, ItemType, Lexer};
use super::node::{
    Arg, BranchNode, Callee, CommandNode, ListNode, Node, NumberNode, PipeNode, VariableNode,
};
use super::value::Value;
use crate::go::strconv;

/// Deepest nesting of control structures and parentheses accepted (a deliberate limit; Go has
/// none). Real templates nest a handful of levels.
pub const MAX_NESTING: usize = 100;

/// The parsed templates: name → body. Bodies hold their nodes by value; the set is immutable
/// after parsing.
pub(crate) type TreeSet = BTreeMap<String, ListNode>;

/// What `action` returns: a node, or the `{{end}}` / `{{else}}` that closes a list.
enum Parsed {
    Node(Node),
    End,
    Else,
}

impl Parsed {
    fn describe(&self) -> String {
        match self {
            Parsed::Node(n) => n.to_string(),
            Parsed::End => "{{end}}".into(),
            Parsed::Else => "{{else}}".into(),
        }
    }
}

/// Per-tree parsing state (Go's `Tree` fields that matter while parsing).
struct TreeState<'a> {
    name: String,
    token: [Item<'a>; 3],
    peek_count: usize,
    vars: Vec<Cow<'a, str>>,
    action_line: usize,
    range_depth: usize,
}

fn blank_item<'a>() -> Item<'a> {
    Item {
        typ: ItemType::Eof,
        pos: 0,
        val: Cow::Borrowed(""),
        line: 0,
    }
}

impl<'a> TreeState<'a> {
    fn new(name: String) -> TreeState<'a> {
        TreeState {
            name,
            token: [blank_item(), blank_item(), blank_item()],
            peek_count: 0,
            vars: vec![Cow::Borrowed("$")],
            action_line: 0,
            range_depth: 0,
        }
    }
}

/// A parse error's message (already in Go's `template: NAME:LINE: …` form).
pub(crate) type PErr = String;

pub(crate) struct Parser<'a, 'f> {
    lex: Lexer<'a>,
    t: TreeState<'a>,
    parse_name: &'a str,
    funcs: &'f FuncMap,
    set: TreeSet,
    nesting: usize,
}

/// Parse `text` as template `name`; the result maps every defined template to its body.
pub(crate) fn parse(name: &str, text: &str, funcs: &FuncMap) -> Result<TreeSet, PErr> {
    let mut lex = Lexer::new(text);
    lex.break_ok = !has_function(funcs, "break");
    lex.continue_ok = !has_function(funcs, "continue");
    let mut p = Parser {
        lex,
        t: TreeState::new(name.to_string()),
        parse_name: name,
        funcs,
        set: BTreeMap::new(),
        nesting: 0,
    };
    let root = p.parse_top()?;
    p.add(root)?;
    Ok(p.set)
}

fn has_function(funcs: &FuncMap, name: &str) -> bool {
    funcs.get(name).is_some() || Builtin::from_name(name).is_some()
}

/// Go's `IsEmptyTree`: only space-only text (and comments) inside.
fn is_empty_list(l: &ListNode) -> bool {
    l.nodes.iter().all(|n| match n {
        // Go's bytes.TrimSpace uses unicode.IsSpace, the White_Space property, as str::trim does.
        Node::Text { text, .. } => text.trim().is_empty(),
        _ => false,
    })
}

impl<'a> Parser<'a, '_> {
    // ---- errors -------------------------------------------------------------------------------

    fn errorf<T>(&self, msg: impl AsRef<str>) -> Result<T, PErr> {
        Err(format!(
            "template: {}:{}: {}",
            self.parse_name,
            self.t.token[0].line,
            msg.as_ref()
        ))
    }

    fn unexpected<T>(&self, token: &Item<'_>, context: &str) -> Result<T, PErr> {
        if token.typ == ItemType::Error {
            let mut extra = String::new();
            if self.t.action_line != 0 && self.t.action_line != token.line {
                extra = format!(
                    " in action started at {}:{}",
                    self.parse_name, self.t.action_line
                );
                if token.val.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.errorf(format!("{}{}", token.describe(), extra));
        }
        self.errorf(format!("unexpected {} in {}", token.describe(), context))
    }

    // ---- token buffer -------------------------------------------------------------------------

    fn next(&mut self) -> Item<'a> {
        if self.t.peek_count > 0 {
            self.t.peek_count -= 1;
        } else {
            self.t.token[0] = self.lex.next_item();
        }
        self.t.token[self.t.peek_count].clone()
    }

    fn backup(&mut self) {
        self.t.peek_count += 1;
    }

    fn backup2(&mut self, t1: Item<'a>) {
        self.t.token[1] = t1;
        self.t.peek_count = 2;
    }

    fn backup3(&mut self, t2: Item<'a>, t1: Item<'a>) {
        self.t.token[1] = t1;
        self.t.token[2] = t2;
        self.t.peek_count = 3;
    }

    fn peek(&mut self) -> Item<'a> {
        if self.t.peek_count > 0 {
            return self.t.token[self.t.peek_count - 1].clone();
        }
        self.t.peek_count = 1;
        self.t.token[0] = self.lex.next_item();
        self.t.token[0].clone()
    }

    fn peek_typ(&mut self) -> ItemType {
        if self.t.peek_count > 0 {
            return self.t.token[self.t.peek_count - 1].typ;
        }
        self.peek().typ
    }

    fn next_non_space(&mut self) -> Item<'a> {
        loop {
            let t = self.next();
            if t.typ != ItemType::Space {
                return t;
            }
        }
    }

    fn peek_non_space(&mut self) -> Item<'a> {
        let t = self.next_non_space();
        self.backup();
        t
    }

    fn expect(&mut self, expected: ItemType, context: &str) -> Result<Item<'a>, PErr> {
        let token = self.next_non_space();
        if token.typ != expected {
            return self.unexpected(&token, context);
        }
        Ok(token)
    }

    fn enter(&mut self) -> Result<(), PErr> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return self.errorf(format!(
                "nesting too deep (more than {MAX_NESTING} levels of control structures and parentheses)"
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    // ---- trees --------------------------------------------------------------------------------

    /// Install the current tree's body under its name (Go's `Tree.add`).
    fn add(&mut self, root: ListNode) -> Result<(), PErr> {
        match self.set.get(&self.t.name) {
            Some(existing) if !is_empty_list(existing) => {
                if !is_empty_list(&root) {
                    return self.errorf(format!(
                        "template: multiple definition of template {}",
                        strconv::quote(&self.t.name, false)
                    ));
                }
                Ok(())
            }
            _ => {
                self.set.insert(self.t.name.clone(), root);
                Ok(())
            }
        }
    }

    fn parse_top(&mut self) -> Result<ListNode, PErr> {
        // Go records the position of the first token; the peek matters for the lookahead.
        self.peek();
        let mut root = ListNode { nodes: Vec::new() };
        while self.peek_typ() != ItemType::Eof {
            if self.peek_typ() == ItemType::LeftDelim {
                let delim = self.next();
                if self.next_non_space().typ == ItemType::Define {
                    let saved = std::mem::replace(&mut self.t, TreeState::new("definition".into()));
                    let r = self.parse_definition();
                    self.t = saved;
                    r?;
                    continue;
                }
                self.backup2(delim);
            }
            match self.text_or_action()? {
                p @ (Parsed::End | Parsed::Else) => {
                    return self.errorf(format!("unexpected {}", p.describe()));
                }
                Parsed::Node(n) => root.nodes.push(n),
            }
        }
        Ok(root)
    }

    fn parse_definition(&mut self) -> Result<(), PErr> {
        let context = "define clause";
        let token = self.next_non_space();
        if token.typ != ItemType::String && token.typ != ItemType::RawString {
            return self.unexpected(&token, context);
        }
        match strconv::unquote(&token.val) {
            Ok(b) => self.t.name = strconv::bytes_to_string(b),
            Err(_) => return self.errorf("invalid syntax"),
        }
        self.expect(ItemType::RightDelim, context)?;
        let (root, end) = self.item_list()?;
        if !matches!(end, Parsed::End) {
            return self.errorf(format!("unexpected {} in {}", end.describe(), context));
        }
        self.add(root)
    }

    fn item_list(&mut self) -> Result<(ListNode, Parsed), PErr> {
        // Go records the position of the first token; the peek matters for the lookahead.
        self.peek_non_space();
        let mut list = ListNode { nodes: Vec::new() };
        while self.peek_non_space().typ != ItemType::Eof {
            match self.text_or_action()? {
                p @ (Parsed::End | Parsed::Else) => return Ok((list, p)),
                Parsed::Node(n) => list.nodes.push(n),
            }
        }
        self.errorf("unexpected EOF")
    }

    fn text_or_action(&mut self) -> Result<Parsed, PErr> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Text => Ok(Parsed::Node(Node::Text {
                pos: token.pos,
                text: token.val.into_owned(),
            })),
            ItemType::LeftDelim => {
                self.t.action_line = token.line;
                let r = self.action();
                self.t.action_line = 0;
                r
            }
            _ => self.unexpected(&token, "input"),
        }
    }

    fn action(&mut self) -> Result<Parsed, PErr> {
        let token = self.next_non_space();
        match token.typ {
            ItemType::Block => return self.block_control(),
            ItemType::Break => return self.break_control(token.pos, "{{break}}", true),
            ItemType::Continue => return self.break_control(token.pos, "{{continue}}", false),
            ItemType::Else => return self.else_control(),
            ItemType::End => {
                self.expect(ItemType::RightDelim, "end")?;
                return Ok(Parsed::End);
            }
            ItemType::If => return self.control(ControlKind::If).map(Parsed::Node),
            ItemType::Range => return self.control(ControlKind::Range).map(Parsed::Node),
            ItemType::Template => return self.template_control(),
            ItemType::With => return self.control(ControlKind::With).map(Parsed::Node),
            _ => {}
        }
        self.backup();
        let token = self.peek();
        let pipe = self.pipeline("command", ItemType::RightDelim)?;
        Ok(Parsed::Node(Node::Action {
            pos: token.pos,
            pipe,
        }))
    }

    fn break_control(&mut self, pos: usize, what: &str, is_break: bool) -> Result<Parsed, PErr> {
        let token = self.next_non_space();
        if token.typ != ItemType::RightDelim {
            return self.unexpected(&token, what);
        }
        if self.t.range_depth == 0 {
            return self.errorf(format!("{what} outside {{{{range}}}}"));
        }
        Ok(Parsed::Node(if is_break {
            Node::Break { pos }
        } else {
            Node::Continue { pos }
        }))
    }

    fn else_control(&mut self) -> Result<Parsed, PErr> {
        let peek = self.peek_non_space();
        if peek.typ == ItemType::If || peek.typ == ItemType::With {
            return Ok(Parsed::Else);
        }
        self.expect(ItemType::RightDelim, "else")?;
        Ok(Parsed::Else)
    }

    fn control(&mut self, kind: ControlKind) -> Result<Node, PErr> {
        self.enter()?;
        let r = self.parse_control(kind);
        self.leave();
        let b = Box::new(r?);
        Ok(match kind {
            ControlKind::If => Node::If(b),
            ControlKind::Range => Node::Range(b),
            ControlKind::With => Node::With(b),
        })
    }

    fn parse_control(&mut self, kind: ControlKind) -> Result<BranchNode, PErr> {
        let context = kind.name();
        let nvars = self.t.vars.len();
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        if kind == ControlKind::Range {
            self.t.range_depth += 1;
        }
        let (list, next) = self.item_list()?;
        if kind == ControlKind::Range {
            self.t.range_depth -= 1;
        }
        let mut else_list = None;
        if let Parsed::Else = next {
            if kind == ControlKind::If && self.peek_typ() == ItemType::If {
                self.next();
                let n = self.control(ControlKind::If)?;
                else_list = Some(ListNode { nodes: vec![n] });
            } else if kind == ControlKind::With && self.peek_typ() == ItemType::With {
                self.next();
                let n = self.control(ControlKind::With)?;
                else_list = Some(ListNode { nodes: vec![n] });
            } else {
                let (l, next) = self.item_list()?;
                if !matches!(next, Parsed::End) {
                    return self.errorf(format!("expected end; found {}", next.describe()));
                }
                else_list = Some(l);
            }
        }
        self.t.vars.truncate(nvars);
        Ok(BranchNode {
            pos: pipe.pos,
            pipe,
            list,
            else_list,
        })
    }

    fn parse_template_name(&mut self, token: &Item<'_>, context: &str) -> Result<String, PErr> {
        match token.typ {
            ItemType::String | ItemType::RawString => match strconv::unquote(&token.val) {
                Ok(b) => Ok(strconv::bytes_to_string(b)),
                Err(_) => self.errorf("invalid syntax"),
            },
            _ => self.unexpected(token, context),
        }
    }

    fn block_control(&mut self) -> Result<Parsed, PErr> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let pipe = self.pipeline(context, ItemType::RightDelim)?;
        self.enter()?;
        let saved = std::mem::replace(&mut self.t, TreeState::new(name.clone()));
        let r = self.item_list();
        let r = match r {
            Ok((root, end)) => {
                if matches!(end, Parsed::End) {
                    self.add(root).map(|()| None)
                } else {
                    Ok(Some(end.describe()))
                }
            }
            Err(e) => Err(e),
        };
        self.t = saved;
        self.leave();
        if let Some(end) = r? {
            // Go reports this with the enclosing tree's lookahead.
            return self.errorf(format!("unexpected {end} in {context}"));
        }
        Ok(Parsed::Node(Node::Template {
            pos: token.pos,
            name,
            pipe: Some(pipe),
        }))
    }

    fn template_control(&mut self) -> Result<Parsed, PErr> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.parse_template_name(&token, context)?;
        let mut pipe = None;
        if self.next_non_space().typ != ItemType::RightDelim {
            self.backup();
            pipe = Some(self.pipeline(context, ItemType::RightDelim)?);
        }
        Ok(Parsed::Node(Node::Template {
            pos: token.pos,
            name,
            pipe,
        }))
    }

    fn pipeline(&mut self, context: &str, end: ItemType) -> Result<PipeNode, PErr> {
        let token = self.peek_non_space();
        let mut pipe = PipeNode {
            pos: token.pos,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        'decls: loop {
            let v = self.peek_non_space();
            if v.typ != ItemType::Variable {
                break 'decls;
            }
            self.next();
            let after = self.peek();
            let next = self.peek_non_space();
            if next.typ == ItemType::Assign || next.typ == ItemType::Declare {
                pipe.is_assign = next.typ == ItemType::Assign;
                self.next_non_space();
                pipe.decl.push(VariableNode {
                    pos: v.pos,
                    ident: vec![v.val.to_string()],
                });
                self.t.vars.push(v.val.clone());
            } else if next.typ == ItemType::Char && next.val == "," {
                self.next_non_space();
                pipe.decl.push(VariableNode {
                    pos: v.pos,
                    ident: vec![v.val.to_string()],
                });
                self.t.vars.push(v.val.clone());
                if context == "range" && pipe.decl.len() < 2 {
                    match self.peek_non_space().typ {
                        ItemType::Variable | ItemType::RightDelim | ItemType::RightParen => {
                            continue 'decls;
                        }
                        _ => return self.errorf("range can only initialize variables"),
                    }
                }
                return self.errorf(format!("too many declarations in {context}"));
            } else if after.typ == ItemType::Space {
                self.backup3(v, after);
            } else {
                self.backup2(v);
            }
            break 'decls;
        }
        loop {
            let token = self.next_non_space();
            match token.typ {
                t if t == end => {
                    self.check_pipeline(&pipe, context)?;
                    return Ok(pipe);
                }
                ItemType::Bool
                | ItemType::CharConstant
                | ItemType::Complex
                | ItemType::Dot
                | ItemType::Field
                | ItemType::Identifier
                | ItemType::Number
                | ItemType::Nil
                | ItemType::RawString
                | ItemType::String
                | ItemType::Variable
                | ItemType::LeftParen => {
                    self.backup();
                    let c = self.command()?;
                    pipe.cmds.push(c);
                }
                _ => return self.unexpected(&token, context),
            }
        }
    }

    fn check_pipeline(&self, pipe: &PipeNode, context: &str) -> Result<(), PErr> {
        if pipe.cmds.is_empty() {
            return self.errorf(format!("missing value for {context}"));
        }
        for (i, c) in pipe.cmds.iter().enumerate().skip(1) {
            if matches!(
                c.args.first(),
                Some(
                    Arg::Bool(..) | Arg::Dot(_) | Arg::Nil(_) | Arg::Number(_) | Arg::String { .. }
                )
            ) {
                return self.errorf(format!(
                    "non executable command in pipeline stage {}",
                    i + 1
                ));
            }
        }
        Ok(())
    }

    fn command(&mut self) -> Result<CommandNode, PErr> {
        let pos = self.peek_non_space().pos;
        let mut cmd = CommandNode {
            pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space();
            if let Some(op) = self.operand()? {
                cmd.args.push(op);
            }
            let token = self.next();
            match token.typ {
                ItemType::Space => continue,
                ItemType::RightDelim | ItemType::RightParen => self.backup(),
                ItemType::Pipe => {}
                _ => return self.unexpected(&token, "operand"),
            }
            break;
        }
        if cmd.args.is_empty() {
            return self.errorf("empty command");
        }
        Ok(cmd)
    }

    fn operand(&mut self) -> Result<Option<Arg>, PErr> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek_typ() != ItemType::Field {
            return Ok(Some(node));
        }
        let pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek_typ() == ItemType::Field {
            let t = self.next();
            fields.push(t.val[1..].to_string());
        }
        Ok(Some(match node {
            Arg::Field { mut ident, .. } => {
                ident.extend(fields);
                Arg::Field { pos, ident }
            }
            Arg::Variable(mut v) => {
                v.ident.extend(fields);
                v.pos = pos;
                Arg::Variable(v)
            }
            Arg::Bool(..) | Arg::String { .. } | Arg::Number(_) | Arg::Nil(_) | Arg::Dot(_) => {
                let s = node.to_string();
                return self.errorf(format!(
                    "unexpected . after term {}",
                    strconv::quote(&s, false)
                ));
            }
            other => Arg::Chain {
                pos,
                node: Box::new(other),
                fields,
            },
        }))
    }

    fn term(&mut self) -> Result<Option<Arg>, PErr> {
        let token = self.next_non_space();
        Ok(Some(match token.typ {
            ItemType::Identifier => {
                let name = token.val.as_ref();
                let callee = if let Some(f) = self.funcs.get(name) {
                    Callee::User(*f)
                } else if let Some(b) = Builtin::from_name(name) {
                    Callee::Builtin(b)
                } else {
                    return self.errorf(format!(
                        "function {} not defined",
                        strconv::quote(name, false)
                    ));
                };
                Arg::Identifier {
                    pos: token.pos,
                    name: name.to_string(),
                    callee,
                }
            }
            ItemType::Dot => Arg::Dot(token.pos),
            ItemType::Nil => Arg::Nil(token.pos),
            ItemType::Variable => {
                if !self.t.vars.contains(&token.val) {
                    return self.errorf(format!(
                        "undefined variable {}",
                        strconv::quote(&token.val, false)
                    ));
                }
                Arg::Variable(VariableNode {
                    pos: token.pos,
                    ident: vec![token.val.to_string()],
                })
            }
            ItemType::Field => Arg::Field {
                pos: token.pos,
                ident: vec![token.val[1..].to_string()],
            },
            ItemType::Bool => Arg::Bool(token.pos, token.val == "true"),
            ItemType::CharConstant | ItemType::Complex | ItemType::Number => {
                match new_number(token.pos, &token.val, token.typ) {
                    Ok(n) => Arg::Number(Box::new(n)),
                    Err(e) => return self.errorf(e),
                }
            }
            ItemType::LeftParen => {
                self.enter()?;
                let p = self.pipeline("parenthesized pipeline", ItemType::RightParen);
                self.leave();
                Arg::Pipe(Box::new(p?))
            }
            ItemType::String | ItemType::RawString => match strconv::unquote(&token.val) {
                Ok(b) => Arg::String {
                    pos: token.pos,
                    quoted: token.val.to_string(),
                    value: Value::str(strconv::bytes_to_string(b)),
                },
                Err(_) => return self.errorf("invalid syntax"),
            },
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ControlKind {
    If,
    Range,
    With,
}

impl ControlKind {
    fn name(self) -> &'static str {
        match self {
            ControlKind::If => "if",
            ControlKind::Range => "range",
            ControlKind::With => "with",
        }
    }
}

/// Whether `f` converts to int64 and back unchanged (Go's `float64(int64(f)) == f` on amd64,
/// where out-of-range conversions yield the minimum int64).
fn float_is_int64(f: f64) -> bool {
    f.is_finite()
        && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f)
        && f.trunc() == f
}

fn float_is_uint64(f: f64) -> bool {
    f.is_finite() && (0.0..18_446_744_073_709_551_616.0).contains(&f) && f.trunc() == f
}

fn simplify_complex(n: &mut NumberNode) {
    n.is_float = n.complex.1 == 0.0;
    if n.is_float {
        n.float64 = n.complex.0;
        n.is_int = float_is_int64(n.float64);
        if n.is_int {
            n.int64 = n.float64 as i64;
        }
        n.is_uint = float_is_uint64(n.float64);
        if n.is_uint {
            n.uint64 = n.float64 as u64;
        }
    }
}

/// `fmt.Sscan` of a complex literal such as `1+2i` (how Go's parser reads one), with its
/// error texts.
fn scan_complex(text: &str) -> Result<(f64, f64), String> {
    const ERR: &str = "syntax error scanning complex number";
    let b = text.as_bytes();
    let mut pos = 0;
    let accept = |pos: &mut usize, set: &[u8]| -> bool {
        match b.get(*pos) {
            Some(c) if set.contains(c) => {
                *pos += 1;
                true
            }
            _ => false,
        }
    };
    // fmt's floatToken.
    let float_token = |pos: &mut usize| -> String {
        let start = *pos;
        if accept(pos, b"nN") && accept(pos, b"aA") && accept(pos, b"nN") {
            return text[start..*pos].to_string();
        }
        accept(pos, b"+-");
        if accept(pos, b"iI") && accept(pos, b"nN") && accept(pos, b"fF") {
            return text[start..*pos].to_string();
        }
        let mut digits: &[u8] = b"0123456789_";
        let mut exp: &[u8] = b"eEpP";
        if accept(pos, b"0") && accept(pos, b"xX") {
            digits = b"0123456789aAbBcCdDeEfF_";
            exp = b"pP";
        }
        while accept(pos, digits) {}
        if accept(pos, b".") {
            while accept(pos, digits) {}
        }
        if accept(pos, exp) {
            accept(pos, b"+-");
            while accept(pos, b"0123456789_") {}
        }
        text[start..*pos].to_string()
    };
    let real = float_token(&mut pos);
    let sign_at = pos;
    if !accept(&mut pos, b"+-") {
        return Err(ERR.into());
    }
    let imag = format!("{}{}", &text[sign_at..pos], float_token(&mut pos));
    if !accept(&mut pos, b"i") {
        return Err(ERR.into());
    }
    let convert = |s: &str| -> Result<f64, String> {
        if let Some(p) = s.find('p')
            && !s.contains(['x', 'X'])
        {
            let f = strconv::parse_float(&s[..p]).map_err(|e| {
                format!(
                    "strconv.ParseFloat: parsing {}: {}",
                    strconv::quote(s, false),
                    e.err
                )
            })?;
            let m: i32 = strconv::parse_int(&s[p + 1..], 0, 64)
                .ok()
                .and_then(|m| i32::try_from(m).ok())
                .ok_or_else(|| {
                    format!(
                        "strconv.Atoi: parsing {}: invalid syntax",
                        strconv::quote(s, false)
                    )
                })?;
            return Ok(f * 2f64.powi(m));
        }
        strconv::parse_float(s).map_err(|e| e.to_string())
    };
    Ok((convert(&real)?, convert(&imag)?))
}

/// Go's `newNumber`: classify a number literal under every type it fits.
pub(crate) fn new_number(pos: usize, text: &str, typ: ItemType) -> Result<NumberNode, String> {
    let mut n = NumberNode {
        pos,
        text: text.to_string(),
        ..NumberNode::default()
    };
    match typ {
        ItemType::CharConstant => {
            let q = text.as_bytes().first().copied().unwrap_or(b'\'');
            let ch = strconv::unquote_char(&text[1..], q).map_err(|e| e.to_string())?;
            if ch.tail != "'" {
                return Err(format!("malformed character constant: {text}"));
            }
            n.int64 = i64::from(ch.value);
            n.is_int = true;
            n.uint64 = u64::from(ch.value);
            n.is_uint = true;
            n.float64 = f64::from(ch.value);
            n.is_float = true;
            return Ok(n);
        }
        ItemType::Complex => {
            let c = scan_complex(text)?;
            n.is_complex = true;
            n.complex = c;
            simplify_complex(&mut n);
            return Ok(n);
        }
        _ => {}
    }
    if let Some(body) = text.strip_suffix('i')
        && let Ok(f) = strconv::parse_float(body)
    {
        n.is_complex = true;
        n.complex = (0.0, f);
        simplify_complex(&mut n);
        return Ok(n);
    }
    let u = strconv::parse_uint(text, 0, 64);
    if let Ok(u) = u {
        n.is_uint = true;
        n.uint64 = u;
    }
    if let Ok(i) = strconv::parse_int(text, 0, 64) {
        n.is_int = true;
        n.int64 = i;
        if i == 0 {
            n.is_uint = true;
            n.uint64 = u.unwrap_or(0);
        }
    }
    if n.is_int {
        n.is_float = true;
        n.float64 = n.int64 as f64;
    } else if n.is_uint {
        n.is_float = true;
        n.float64 = n.uint64 as f64;
    } else if let Ok(f) = strconv::parse_float(text) {
        if !text.contains(['.', 'e', 'E', 'p', 'P']) {
            return Err(format!("integer overflow: {}", strconv::quote(text, false)));
        }
        n.is_float = true;
        n.float64 = f;
        if float_is_int64(f) {
            n.is_int = true;
            n.int64 = f as i64;
        }
        if float_is_uint64(f) {
            n.is_uint = true;
            n.uint64 = f as u64;
        }
    }
    if !n.is_int && !n.is_uint && !n.is_float {
        return Err(format!(
            "illegal number syntax: {}",
            strconv::quote(text, false)
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn perr(s: &str) -> String {
        match parse("tpl", s, &FuncMap::new()) {
            Ok(_) => "ok".into(),
            Err(e) => e,
        }
    }

    #[test]
    fn errors() {
        assert_eq!(
            perr("{{.a }"),
            "template: tpl:1: unexpected \"}\" in operand"
        );
        assert_eq!(perr("{{.a}"), "template: tpl:1: bad character U+007D '}'");
        assert_eq!(perr("{{if}}"), "template: tpl:1: missing value for if");
        assert_eq!(perr("{{end}}"), "template: tpl:1: unexpected {{end}}");
        assert_eq!(
            perr("{{foo}}"),
            "template: tpl:1: function \"foo\" not defined"
        );
        assert_eq!(perr("{{$x}}"), "template: tpl:1: undefined variable \"$x\"");
        assert_eq!(
            perr("{{break}}"),
            "template: tpl:1: {{break}} outside {{range}}"
        );
        assert_eq!(
            perr("{{if .}}\n{{else}}"),
            "template: tpl:2: unexpected EOF"
        );
        assert_eq!(
            perr("{{.x | 3}}"),
            "template: tpl:1: non executable command in pipeline stage 2"
        );
        assert_eq!(
            perr("{{3.x}}"),
            "template: tpl:1: bad number syntax: \"3.x\""
        );
        assert_eq!(
            perr("{{\"a\".x}}"),
            "template: tpl:1: unexpected . after term \"\\\"a\\\"\""
        );
    }

    #[test]
    fn defines() {
        let set = parse("tpl", "{{define \"a\"}}x{{end}}y", &FuncMap::new()).unwrap_or_default();
        assert!(set.contains_key("a") && set.contains_key("tpl"));
        assert_eq!(
            perr("{{define \"a\"}}x{{end}}{{define \"a\"}}y{{end}}"),
            "template: tpl:1: template: multiple definition of template \"a\""
        );
    }

    #[test]
    fn numbers() {
        let n = new_number(0, "1e3", ItemType::Number).unwrap_or_default();
        assert!(n.is_float && n.is_int && n.int64 == 1000);
        let n = new_number(0, "'a'", ItemType::CharConstant).unwrap_or_default();
        assert_eq!(n.int64, 97);
        assert_eq!(
            new_number(0, "08", ItemType::Number).err().as_deref(),
            Some("integer overflow: \"08\"")
        );
        let n = new_number(0, "1+2i", ItemType::Complex).unwrap_or_default();
        assert!(n.is_complex && !n.is_float);
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let s = "{{if 1}}".repeat(MAX_NESTING + 1);
        assert!(perr(&s).contains("nesting too deep"));
        let s = format!(
            "{{{{{}1{}}}}}",
            "(".repeat(MAX_NESTING + 1),
            ")".repeat(MAX_NESTING + 1)
        );
        assert!(perr(&s).contains("nesting too deep"));
    }
}
