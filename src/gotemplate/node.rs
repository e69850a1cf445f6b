/*!
The parse tree: text/template's node types, with positions for error messages and Go's
`String()` rendering of every node (exec errors quote the node they stopped at, e.g.
`executing "tpl" at <.a.b>`, and parse errors quote `{{end}}` or a literal).

Identifiers are resolved to their function when parsing (the function map is fixed for the
template's lifetime), and string literals already hold their runtime value, so executing a tree
allocates nothing for them.
*/

use std::fmt::{self, Write};

use super::builtins::Builtin;
use super::func::Func;
use super::value::Value;

/// A function an identifier names: the template's map is searched before the built-ins.
#[derive(Debug, Clone, Copy)]
pub enum Callee {
    /// From the function map given to `parse`.
    User(Func),
    /// A text/template built-in.
    Builtin(Builtin),
}

/// A list of nodes (a template body, or an if/range/with branch).
#[derive(Debug, Clone)]
pub struct ListNode {
    /// The nodes.
    pub nodes: Vec<Node>,
}

/// A statement-level node.
#[derive(Debug, Clone)]
pub enum Node {
    /// Plain text.
    Text {
        /// Position.
        pos: usize,
        /// The text.
        text: String,
    },
    /// `{{pipeline}}`.
    Action {
        /// Position.
        pos: usize,
        /// The pipeline.
        pipe: PipeNode,
    },
    /// `{{if}}`.
    If(Box<BranchNode>),
    /// `{{range}}`.
    Range(Box<BranchNode>),
    /// `{{with}}`.
    With(Box<BranchNode>),
    /// `{{template "name" pipeline}}`.
    Template {
        /// Position.
        pos: usize,
        /// Template name.
        name: String,
        /// Argument pipeline.
        pipe: Option<PipeNode>,
    },
    /// `{{break}}`.
    Break {
        /// Position.
        pos: usize,
    },
    /// `{{continue}}`.
    Continue {
        /// Position.
        pos: usize,
    },
}

/// The common shape of if, range and with.
#[derive(Debug, Clone)]
pub struct BranchNode {
    /// Position (of the pipeline).
    pub pos: usize,
    /// The condition / range expression.
    pub pipe: PipeNode,
    /// Body.
    pub list: ListNode,
    /// `{{else}}` body.
    pub else_list: Option<ListNode>,
}

/// A pipeline with optional declarations.
#[derive(Debug, Clone)]
pub struct PipeNode {
    /// Position.
    pub pos: usize,
    /// `=` rather than `:=`.
    pub is_assign: bool,
    /// Declared or assigned variables (names include the `$`).
    pub decl: Vec<VariableNode>,
    /// The commands.
    pub cmds: Vec<CommandNode>,
}

/// `$x` or `$x.Field.Chain`.
#[derive(Debug, Clone)]
pub struct VariableNode {
    /// Position.
    pub pos: usize,
    /// `$x`, then field names.
    pub ident: Vec<String>,
}

/// One command: an operand followed by arguments.
#[derive(Debug, Clone)]
pub struct CommandNode {
    /// Position.
    pub pos: usize,
    /// The words.
    pub args: Vec<Arg>,
}

/// A number literal, stored under every Go type that can represent it (Go's ideal constant).
#[derive(Debug, Clone, Default)]
pub struct NumberNode {
    /// Position.
    pub pos: usize,
    /// Has an integral value.
    pub is_int: bool,
    /// Has an unsigned integral value.
    pub is_uint: bool,
    /// Has a float value.
    pub is_float: bool,
    /// Is complex.
    pub is_complex: bool,
    /// Signed value.
    pub int64: i64,
    /// Unsigned value.
    pub uint64: u64,
    /// Float value.
    pub float64: f64,
    /// Complex value (real, imaginary).
    pub complex: (f64, f64),
    /// Source text.
    pub text: String,
}

/// An operand (argument) node.
#[derive(Debug, Clone)]
pub enum Arg {
    /// A function name.
    Identifier {
        /// Position.
        pos: usize,
        /// Name.
        name: String,
        /// What it calls.
        callee: Callee,
    },
    /// `.`.
    Dot(usize),
    /// `nil`.
    Nil(usize),
    /// `true` / `false`.
    Bool(usize, bool),
    /// A number.
    Number(Box<NumberNode>),
    /// A string literal.
    String {
        /// Position.
        pos: usize,
        /// As written, with quotes.
        quoted: String,
        /// The value (a Go string).
        value: Value,
    },
    /// `$x.a.b`.
    Variable(VariableNode),
    /// `.a.b`.
    Field {
        /// Position.
        pos: usize,
        /// Field names.
        ident: Vec<String>,
    },
    /// `(pipe).a.b` or `fn.a`.
    Chain {
        /// Position.
        pos: usize,
        /// The term.
        node: Box<Arg>,
        /// Field names.
        fields: Vec<String>,
    },
    /// `(pipeline)`.
    Pipe(Box<PipeNode>),
}

impl Arg {
    /// Byte offset in the template text.
    pub fn pos(&self) -> usize {
        match self {
            Arg::Identifier { pos, .. }
            | Arg::Dot(pos)
            | Arg::Nil(pos)
            | Arg::Bool(pos, _)
            | Arg::String { pos, .. }
            | Arg::Field { pos, .. }
            | Arg::Chain { pos, .. } => *pos,
            Arg::Number(n) => n.pos,
            Arg::Variable(v) => v.pos,
            Arg::Pipe(p) => p.pos,
        }
    }
}

// ---- Go's String() ------------------------------------------------------------------------------

impl fmt::Display for ListNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.nodes {
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Text { text, .. } => f.write_str(text),
            Node::Action { pipe, .. } => write!(f, "{{{{{pipe}}}}}"),
            Node::If(b) => b.write("if", f),
            Node::Range(b) => b.write("range", f),
            Node::With(b) => b.write("with", f),
            Node::Template { name, pipe, .. } => {
                f.write_str("{{template ")?;
                f.write_str(&crate::go::strconv::quote(name, false))?;
                if let Some(p) = pipe {
                    write!(f, " {p}")?;
                }
                f.write_str("}}")
            }
            Node::Break { .. } => f.write_str("{{break}}"),
            Node::Continue { .. } => f.write_str("{{continue}}"),
        }
    }
}

impl BranchNode {
    fn write(&self, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{{{name} {}}}}}{}", self.pipe, self.list)?;
        if let Some(e) = &self.else_list {
            write!(f, "{{{{else}}}}{e}")?;
        }
        f.write_str("{{end}}")
    }
}

impl fmt::Display for PipeNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.decl.is_empty() {
            for (i, v) in self.decl.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{v}")?;
            }
            f.write_str(if self.is_assign { " = " } else { " := " })?;
        }
        for (i, c) in self.cmds.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for VariableNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, id) in self.ident.iter().enumerate() {
            if i > 0 {
                f.write_char('.')?;
            }
            f.write_str(id)?;
        }
        Ok(())
    }
}

impl fmt::Display for CommandNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            if let Arg::Pipe(p) = a {
                write!(f, "({p})")?;
            } else {
                write!(f, "{a}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Identifier { name, .. } => f.write_str(name),
            Arg::Dot(_) => f.write_char('.'),
            Arg::Nil(_) => f.write_str("nil"),
            Arg::Bool(_, b) => f.write_str(if *b { "true" } else { "false" }),
            Arg::Number(n) => f.write_str(&n.text),
            Arg::String { quoted, .. } => f.write_str(quoted),
            Arg::Variable(v) => write!(f, "{v}"),
            Arg::Field { ident, .. } => {
                for id in ident {
                    write!(f, ".{id}")?;
                }
                Ok(())
            }
            Arg::Chain { node, fields, .. } => {
                if let Arg::Pipe(p) = node.as_ref() {
                    write!(f, "({p})")?;
                } else {
                    write!(f, "{node}")?;
                }
                for id in fields {
                    write!(f, ".{id}")?;
                }
                Ok(())
            }
            Arg::Pipe(p) => write!(f, "{p}"),
        }
    }
}
