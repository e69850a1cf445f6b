/*!
The template executor: text/template's `exec.go` semantics on [`Value`]s.

Evaluation follows Go step for step, including the bookkeeping that shows up in error messages:
which node the executor was "at" when it failed (`executing "tpl" at <.a.b>`), the static type
of a value read from an `interface{}` slot (`can't evaluate field x in type interface {}`),
argument conversion against the callee's parameter types (`wrong type for value; expected
string; got float64`), and Go's `missingkey` modes.

Statements (lists, if, with, range, template calls) run on an explicit stack of frames instead
of native recursion, so recursive `{{template}}` calls reach Go's depth limit of 100000 with
Go's error rather than overflowing the stack; expressions recurse natively, bounded by the
parser's nesting limit.

Limits that Go does not have, all deliberate and reported as execution errors:
- output larger than [`MAX_OUTPUT`] bytes, and any function result string that large;
- more work than the budget of [`cost::BUDGET`] units (about a second): every step (node,
  command, loop iteration) costs [`cost::STEP`], every function call what [`cost`] prices it at
  before it runs, so `{{range 1000000000}}` and a loop of `derivePassword` both stop with
  "template execution budget exceeded"; and, when the CLI has set run-wide limits
  ([`cost::limit_run`]), the work and output of all executions of the run together;
- function results with more than [`MAX_ITEMS`] items or nested deeper than [`MAX_VALUE_DEPTH`]
  (printing and dropping values recurse over their structure).

Other deliberate differences, from the value model: complex-number constants (`1i`) are
rejected at execution (Go prints them as `(0+1i)`); indexing a string yields a `uint64` byte
where Go yields `uint8`; strings are UTF-8, so bytes that are not valid UTF-8 (from `"\xff"` or
from slicing inside a character) become U+FFFD; slices have no capacity beyond their length.
*/

use std::collections::HashSet;
use std::sync::Arc;

use super::builtins::{ArgType, Builtin, ExecValue, truth, zero_of};
use super::cost;
use super::func::Param;
use super::node::{Arg, BranchNode, Callee, CommandNode, Node, NumberNode, PipeNode};
use super::parse::TreeSet;
use super::print;
use super::value::{GoType, Value};
use crate::go::strconv::quote;

/// What a field access on a map does when the key is missing (Go's `missingkey` option).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MissingKey {
    /// Go's default (`missingkey=default` / `invalid`): no value, printed `<no value>`.
    #[default]
    Default,
    /// `missingkey=zero`: the zero value of the map's element type.
    Zero,
    /// `missingkey=error`: execution stops with `map has no entry for key "k"`.
    Error,
}

/// Go's `maxExecDepth`: nested `{{template}}` calls.
pub const MAX_TEMPLATE_DEPTH: usize = 100_000;
/// Largest output (and largest string a function may return), in bytes.
/// Sprig functions that modify the map passed as their first argument (Go maps are references).
const MUTATES_FIRST_ARGUMENT: &[&str] = &[
    "set",
    "unset",
    "merge",
    "mergeOverwrite",
    "mustMerge",
    "mustMergeOverwrite",
];

pub const MAX_OUTPUT: usize = 64 << 20;
/// Evaluation steps (nodes walked, commands evaluated, loop iterations) per execution, when
/// nothing else is charged: the budget divided by the price of a step.
pub const MAX_STEPS: u64 = cost::BUDGET / cost::STEP;
/// Items in a collection returned by a function.
pub const MAX_ITEMS: usize = 1 << 22;
/// Nesting depth of a collection returned by a function.
pub const MAX_VALUE_DEPTH: usize = 1000;

type V = ExecValue;

/// Where execution is, for error context (Go's `state.node`).
#[derive(Clone, Copy)]
enum At<'t> {
    None,
    Node(&'t Node),
    Pipe(&'t PipeNode),
    Cmd(&'t CommandNode),
    Arg(&'t Arg),
}

impl At<'_> {
    fn pos(&self) -> usize {
        match self {
            At::None => 0,
            At::Node(n) => match n {
                Node::Text { pos, .. }
                | Node::Action { pos, .. }
                | Node::Template { pos, .. }
                | Node::Break { pos }
                | Node::Continue { pos } => *pos,
                Node::If(b) | Node::Range(b) | Node::With(b) => b.pos,
            },
            At::Pipe(p) => p.pos,
            At::Cmd(c) => c.pos,
            At::Arg(a) => a.pos(),
        }
    }

    fn context(&self) -> String {
        match self {
            At::None => String::new(),
            At::Node(n) => n.to_string(),
            At::Pipe(p) => p.to_string(),
            At::Cmd(c) => c.to_string(),
            At::Arg(a) => a.to_string(),
        }
    }
}

/// An execution failure: the message is Go's `err.Error()`.
pub(crate) struct ExecError(pub String);

type R<T> = Result<T, ExecError>;

/// What the pipeline passes to the next command (Go's `final`): absent for the first.
type Final = Option<V>;

struct Var<'t> {
    name: &'t str,
    value: V,
}

enum Frame<'t> {
    List {
        nodes: &'t [Node],
        idx: usize,
        dot: V,
    },
    PopVars(usize),
    Range(Box<RangeState<'t>>),
    Template {
        vars: Vec<Var<'t>>,
        name: &'t str,
        at: At<'t>,
    },
}

enum Items {
    Int { n: i64, int64: bool },
    Uint(u64),
    Slice(Arc<super::value::Slice>),
    Map(Vec<(Value, V)>),
}

struct RangeState<'t> {
    node: &'t BranchNode,
    outer_mark: usize,
    mark: usize,
    items: Items,
    idx: usize,
}

pub(crate) struct Exec<'t> {
    set: &'t TreeSet,
    text: &'t str,
    parse_name: &'t str,
    missing_key: MissingKey,
    out: String,
    vars: Vec<Var<'t>>,
    name: &'t str,
    at: At<'t>,
    depth: usize,
    /// Units of work spent, and how many this execution may spend (less than
    /// [`cost::BUDGET`] when the run has less left).
    spent: u64,
    budget: u64,
    stack: Vec<Frame<'t>>,
    /// How many times an action printed `<no value>` (a missing key or nil).
    no_value: usize,
}

/// What an execution printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Executed {
    /// The output.
    pub text: String,
    /// How many actions printed `<no value>`: a path with no value in the data (a typo or an
    /// unset variable), which Go prints without failing.
    pub no_value: usize,
}

/// Run template `name` of `set` (parsed from `text` as `parse_name`) on `data`.
pub(crate) fn execute<'t>(
    set: &'t TreeSet,
    text: &'t str,
    parse_name: &'t str,
    name: &'t str,
    missing_key: MissingKey,
    data: &Value,
) -> Result<Executed, ExecError> {
    let dot = match data {
        Value::Nil | Value::Invalid => V::INVALID,
        v => V::concrete(v.clone()),
    };
    let mut e = Exec {
        set,
        text,
        parse_name,
        missing_key,
        out: String::new(),
        vars: vec![Var {
            name: "$",
            value: dot.clone(),
        }],
        name,
        at: At::None,
        depth: 0,
        spent: 0,
        budget: cost::execution_budget(),
        stack: Vec::new(),
        no_value: 0,
    };
    let Some(root) = set.get(name) else {
        return Err(e.err(format!(
            "{} is an incomplete or empty template",
            quote(name, false)
        )));
    };
    e.stack.push(Frame::List {
        nodes: &root.nodes,
        idx: 0,
        dot,
    });
    let result = e.run();
    let rendered = if result.is_ok() { e.out.len() } else { 0 };
    if let Err(msg) = cost::charge_run(e.spent, rendered as u64) {
        // Only an execution that ran to its end is refused for the run's output cap; one
        // that failed keeps its own error.
        result?;
        e.at = At::None;
        return Err(e.err(msg));
    }
    result?;
    Ok(Executed {
        text: e.out,
        no_value: e.no_value,
    })
}

impl<'t> Exec<'t> {
    // ---- errors -------------------------------------------------------------------------------

    fn err(&self, msg: impl std::fmt::Display) -> ExecError {
        if let At::None = self.at {
            return ExecError(format!("template: {}: {}", self.name, msg));
        }
        let pos = self.at.pos().min(self.text.len());
        let before = self.text.get(..pos).unwrap_or("");
        let line = 1 + before.matches('\n').count();
        let col = match before.rfind('\n') {
            Some(i) => pos - (i + 1),
            None => pos,
        };
        ExecError(format!(
            "template: {}:{}:{}: executing {} at <{}>: {}",
            self.parse_name,
            line,
            col,
            quote(self.name, false),
            self.at.context(),
            msg
        ))
    }

    fn errorf<T>(&self, msg: impl std::fmt::Display) -> R<T> {
        Err(self.err(msg))
    }

    fn step(&mut self) -> R<()> {
        self.charge(cost::STEP)
    }

    /// Spend `units` of the budget, or fail with the budget error at the current node.
    fn charge(&mut self, units: u64) -> R<()> {
        self.spent = self.spent.saturating_add(units);
        if self.spent > self.budget {
            return self.errorf(cost::exceeded_message(self.budget));
        }
        Ok(())
    }

    /// Price a call before it runs (refusing it when the budget cannot pay), at `node`.
    fn charge_call(&mut self, node: At<'t>, name: &str, argv: &[V]) -> R<()> {
        static NIL: Value = Value::Nil;
        let left = self.budget.saturating_sub(self.spent);
        // Calls are the hot path of a fleet's templates: no allocation for the usual few
        // arguments.
        let units = if argv.len() <= 8 {
            let mut args = [&NIL; 8];
            for (slot, v) in args.iter_mut().zip(argv) {
                *slot = &v.val;
            }
            cost::call_cost(name, &args[..argv.len()], left)
        } else {
            let args: Vec<&Value> = argv.iter().map(|v| &v.val).collect();
            cost::call_cost(name, &args, left)
        };
        if units > left {
            self.at = node;
        }
        self.charge(units)
    }

    fn write(&mut self, s: &str) -> R<()> {
        self.out.push_str(s);
        self.check_output()?;
        self.charge(cost::output_cost(s.len()))
    }

    fn check_output(&self) -> R<()> {
        if self.out.len() > MAX_OUTPUT {
            return self.errorf(format!(
                "output exceeds {MAX_OUTPUT} bytes (a limit of this engine)"
            ));
        }
        Ok(())
    }

    // ---- variables ----------------------------------------------------------------------------

    fn set_var(&mut self, name: &str, value: V) -> R<()> {
        for v in self.vars.iter_mut().rev() {
            if v.name == name {
                v.value = value;
                return Ok(());
            }
        }
        self.errorf(format!("undefined variable: {name}"))
    }

    fn set_top_var(&mut self, n: usize, value: V) {
        let len = self.vars.len();
        if let Some(v) = len.checked_sub(n).and_then(|i| self.vars.get_mut(i)) {
            v.value = value;
        }
    }

    fn var_value(&self, name: &str) -> R<V> {
        for v in self.vars.iter().rev() {
            if v.name == name {
                return Ok(v.value.clone());
            }
        }
        self.errorf(format!("undefined variable: {name}"))
    }

    // ---- statements ---------------------------------------------------------------------------

    fn run(&mut self) -> R<()> {
        while let Some(top) = self.stack.last_mut() {
            match top {
                Frame::List { nodes, idx, dot } => {
                    let nodes: &'t [Node] = nodes;
                    let Some(node) = nodes.get(*idx) else {
                        self.stack.pop();
                        continue;
                    };
                    *idx += 1;
                    let dot = dot.clone();
                    self.step()?;
                    self.walk(node, dot)?;
                }
                Frame::PopVars(mark) => {
                    let mark = *mark;
                    self.vars.truncate(mark);
                    self.stack.pop();
                }
                Frame::Range(_) => self.next_iteration()?,
                Frame::Template { .. } => {
                    if let Some(Frame::Template { vars, name, at }) = self.stack.pop() {
                        self.vars = vars;
                        self.name = name;
                        self.at = at;
                        self.depth -= 1;
                    }
                }
            }
        }
        Ok(())
    }

    fn walk(&mut self, node: &'t Node, dot: V) -> R<()> {
        self.at = At::Node(node);
        match node {
            Node::Text { text, .. } => self.write(text),
            Node::Action { pipe, .. } => {
                let val = self.eval_pipeline(&dot, pipe)?;
                if pipe.decl.is_empty() {
                    self.at = At::Node(node);
                    self.print_value(&val)?;
                }
                Ok(())
            }
            Node::If(b) | Node::With(b) => {
                let mark = self.vars.len();
                let val = self.eval_pipeline(&dot, &b.pipe)?;
                self.stack.push(Frame::PopVars(mark));
                if truth(&val) {
                    let d = if matches!(node, Node::With(_)) {
                        val
                    } else {
                        dot
                    };
                    self.stack.push(Frame::List {
                        nodes: &b.list.nodes,
                        idx: 0,
                        dot: d,
                    });
                } else if let Some(e) = &b.else_list {
                    self.stack.push(Frame::List {
                        nodes: &e.nodes,
                        idx: 0,
                        dot,
                    });
                }
                Ok(())
            }
            Node::Range(b) => self.walk_range(b, dot),
            Node::Template { name, pipe, .. } => {
                let Some(root) = self.set.get(name.as_str()) else {
                    return self.errorf(format!("template {} not defined", quote(name, false)));
                };
                if self.depth == MAX_TEMPLATE_DEPTH {
                    return self.errorf(format!(
                        "exceeded maximum template depth ({MAX_TEMPLATE_DEPTH})"
                    ));
                }
                let new_dot = match pipe {
                    Some(p) => self.eval_pipeline(&dot, p)?,
                    None => V::INVALID,
                };
                let vars = std::mem::replace(
                    &mut self.vars,
                    vec![Var {
                        name: "$",
                        value: new_dot.clone(),
                    }],
                );
                let tname = self
                    .set
                    .get_key_value(name.as_str())
                    .map(|(k, _)| k.as_str())
                    .unwrap_or("");
                self.stack.push(Frame::Template {
                    vars,
                    name: std::mem::replace(&mut self.name, tname),
                    at: self.at,
                });
                self.depth += 1;
                self.stack.push(Frame::List {
                    nodes: &root.nodes,
                    idx: 0,
                    dot: new_dot,
                });
                Ok(())
            }
            Node::Break { .. } => self.unwind(true),
            Node::Continue { .. } => self.unwind(false),
        }
    }

    /// `{{break}}` / `{{continue}}`: drop frames up to the innermost range, running their
    /// variable pops.
    fn unwind(&mut self, is_break: bool) -> R<()> {
        while let Some(top) = self.stack.last_mut() {
            match top {
                Frame::Range(r) => {
                    if is_break {
                        let m = r.outer_mark;
                        self.vars.truncate(m);
                        self.stack.pop();
                    } else {
                        let m = r.mark;
                        self.vars.truncate(m);
                    }
                    return Ok(());
                }
                Frame::PopVars(m) => {
                    let m = *m;
                    self.vars.truncate(m);
                    self.stack.pop();
                }
                Frame::List { .. } => {
                    self.stack.pop();
                }
                Frame::Template { .. } => break,
            }
        }
        self.errorf("internal error: break or continue outside range")
    }

    fn walk_range(&mut self, b: &'t BranchNode, dot: V) -> R<()> {
        let outer_mark = self.vars.len();
        let val = self.eval_pipeline(&dot, &b.pipe)?;
        let val = val.indirect_interface();
        let mark = self.vars.len();
        let two = b.pipe.decl.len() > 1;
        let items = match &val.val {
            Value::Int(n) | Value::Int64(n) => {
                if two {
                    let s = print::sprint_value(&val.val);
                    return self.errorf(format!(
                        "can't use {s} to iterate over more than one variable"
                    ));
                }
                (*n > 0).then_some(Items::Int {
                    n: *n,
                    int64: matches!(val.val, Value::Int64(_)),
                })
            }
            Value::Uint64(n) => {
                if two {
                    let s = print::sprint_value(&val.val);
                    return self.errorf(format!(
                        "can't use {s} to iterate over more than one variable"
                    ));
                }
                (*n > 0).then_some(Items::Uint(*n))
            }
            Value::Slice(s) => (!s.items.is_empty()).then(|| Items::Slice(s.clone())),
            Value::Bytes(bs) => (!bs.is_empty()).then(|| {
                Items::Slice(Arc::new(super::value::Slice {
                    elem: GoType::Uint64,
                    items: bs.iter().map(|&c| Value::Uint64(u64::from(c))).collect(),
                }))
            }),
            Value::Map(m) => (!m.entries.is_empty()).then(|| {
                Items::Map(
                    m.entries
                        .iter()
                        .map(|(k, v)| (Value::str(k.as_str()), V::in_slot(v.clone(), &m.elem)))
                        .collect(),
                )
            }),
            Value::Invalid => None,
            other => {
                let s = print::sprint_value(other);
                return self.errorf(format!("range can't iterate over {s}"));
            }
        };
        match items {
            Some(items) => {
                self.stack.push(Frame::Range(Box::new(RangeState {
                    node: b,
                    outer_mark,
                    mark,
                    items,
                    idx: 0,
                })));
            }
            None => {
                self.stack.push(Frame::PopVars(outer_mark));
                if let Some(e) = &b.else_list {
                    self.stack.push(Frame::List {
                        nodes: &e.nodes,
                        idx: 0,
                        dot,
                    });
                }
            }
        }
        Ok(())
    }

    /// Start the next iteration of the range on top of the stack, or finish it.
    fn next_iteration(&mut self) -> R<()> {
        let Some(Frame::Range(r)) = self.stack.last_mut() else {
            return Ok(());
        };
        let i = r.idx;
        let (index, elem) = match &r.items {
            Items::Int { n, int64 } => {
                if (i as i64) < *n {
                    let v = if *int64 {
                        Value::Int64(i as i64)
                    } else {
                        Value::Int(i as i64)
                    };
                    (None, Some(V::concrete(v)))
                } else {
                    (None, None)
                }
            }
            Items::Uint(n) => {
                if (i as u64) < *n {
                    (None, Some(V::concrete(Value::Uint64(i as u64))))
                } else {
                    (None, None)
                }
            }
            Items::Slice(s) => match s.items.get(i) {
                Some(v) => (
                    Some(V::concrete(Value::Int(i as i64))),
                    Some(V::in_slot(v.clone(), &s.elem)),
                ),
                None => (None, None),
            },
            Items::Map(m) => match m.get(i) {
                Some((k, v)) => (Some(V::concrete(k.clone())), Some(v.clone())),
                None => (None, None),
            },
        };
        let mark = r.mark;
        let outer_mark = r.outer_mark;
        let node = r.node;
        r.idx += 1;
        self.vars.truncate(mark);
        let Some(elem) = elem else {
            self.vars.truncate(outer_mark);
            self.stack.pop();
            return Ok(());
        };
        self.step()?;
        let index = index.unwrap_or(V::INVALID);
        let decl = &node.pipe.decl;
        if !decl.is_empty() {
            if node.pipe.is_assign {
                if decl.len() > 1 {
                    self.set_var(&decl[0].ident[0], index.clone())?;
                } else {
                    self.set_var(&decl[0].ident[0], elem.clone())?;
                }
            } else {
                self.set_top_var(1, elem.clone());
            }
        }
        if decl.len() > 1 {
            if node.pipe.is_assign {
                self.set_var(&decl[1].ident[0], elem.clone())?;
            } else {
                self.set_top_var(2, index);
            }
        }
        self.stack.push(Frame::List {
            nodes: &node.list.nodes,
            idx: 0,
            dot: elem,
        });
        Ok(())
    }

    fn print_value(&mut self, v: &V) -> R<()> {
        match &v.val {
            Value::Invalid | Value::Nil => {
                self.no_value += 1;
                self.write("<no value>")
            }
            val => {
                let before = self.out.len();
                print::fprint_value(&mut self.out, val, MAX_OUTPUT);
                self.check_output()?;
                self.charge(cost::output_cost(self.out.len().saturating_sub(before)))
            }
        }
    }

    // ---- expressions --------------------------------------------------------------------------

    fn eval_pipeline(&mut self, dot: &V, pipe: &'t PipeNode) -> R<V> {
        self.at = At::Pipe(pipe);
        let mut value: Final = None;
        for cmd in &pipe.cmds {
            let mut v = self.eval_command(dot, cmd, value.take())?;
            // A value of type interface{} is replaced by the value inside it.
            if v.iface {
                v = v.indirect_interface();
            }
            value = Some(v);
        }
        let value = value.unwrap_or(V::INVALID);
        for var in &pipe.decl {
            let name: &'t str = &var.ident[0];
            if pipe.is_assign {
                self.set_var(name, value.clone())?;
            } else {
                self.vars.push(Var {
                    name,
                    value: value.clone(),
                });
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, args: &[Arg], fin: &Final) -> R<()> {
        if args.len() > 1 || fin.is_some() {
            let first = args.first().map(|a| a.to_string()).unwrap_or_default();
            return self.errorf(format!("can't give argument to non-function {first}"));
        }
        Ok(())
    }

    fn eval_command(&mut self, dot: &V, cmd: &'t CommandNode, fin: Final) -> R<V> {
        self.step()?;
        let Some(first) = cmd.args.first() else {
            return self.errorf("empty command");
        };
        match first {
            Arg::Field { ident, .. } => {
                self.at = At::Arg(first);
                self.eval_field_chain(dot, dot.clone(), first, ident, Some(&cmd.args), fin)
            }
            Arg::Chain { .. } => self.eval_chain_node(dot, first, Some(&cmd.args), fin),
            Arg::Identifier { callee, name, .. } => {
                self.at = At::Arg(first);
                self.eval_call(dot, *callee, At::Cmd(cmd), name, Some(&cmd.args), fin)
            }
            Arg::Pipe(p) => {
                self.not_a_function(&cmd.args, &fin)?;
                self.eval_pipeline(dot, p)
            }
            Arg::Variable(_) => self.eval_variable_node(dot, first, Some(&cmd.args), fin),
            _ => {
                self.at = At::Arg(first);
                self.not_a_function(&cmd.args, &fin)?;
                match first {
                    Arg::Bool(_, b) => Ok(V::concrete(Value::Bool(*b))),
                    Arg::Dot(_) => Ok(dot.clone()),
                    Arg::Nil(_) => self.errorf("nil is not a command"),
                    Arg::Number(n) => self.ideal_constant(first, n),
                    Arg::String { value, .. } => Ok(V::concrete(value.clone())),
                    _ => self.errorf(format!(
                        "can't evaluate command {}",
                        quote(&first.to_string(), false)
                    )),
                }
            }
        }
    }

    /// A number literal with no type context: float if written like one, else int.
    fn ideal_constant(&mut self, node: &'t Arg, n: &NumberNode) -> R<V> {
        self.at = At::Arg(node);
        if n.is_complex {
            return self.errorf(format!(
                "complex constant {} is not supported by this engine",
                n.text
            ));
        }
        let t = n.text.as_str();
        let is_hex_int = t.len() > 2
            && t.as_bytes()[0] == b'0'
            && matches!(t.as_bytes()[1], b'x' | b'X')
            && !t.contains(['p', 'P']);
        let is_rune = t.starts_with('\'');
        if n.is_float && !is_hex_int && !is_rune && t.contains(['.', 'e', 'E', 'p', 'P']) {
            return Ok(V::concrete(Value::Float(n.float64)));
        }
        if n.is_int {
            return Ok(V::concrete(Value::Int(n.int64)));
        }
        if n.is_uint {
            return self.errorf(format!("{t} overflows int"));
        }
        Ok(V::INVALID)
    }

    fn eval_chain_node(
        &mut self,
        dot: &V,
        node: &'t Arg,
        args: Option<&'t [Arg]>,
        fin: Final,
    ) -> R<V> {
        self.at = At::Arg(node);
        let Arg::Chain {
            node: inner,
            fields,
            ..
        } = node
        else {
            return self.errorf("internal error: not a chain");
        };
        if fields.is_empty() {
            return self.errorf("internal error: no fields in evalChainNode");
        }
        if let Arg::Nil(_) = inner.as_ref() {
            return self.errorf(format!("indirection through explicit nil in {node}"));
        }
        let pipe = self.eval_arg(dot, None, inner)?;
        self.eval_field_chain(dot, pipe, node, fields, args, fin)
    }

    fn eval_variable_node(
        &mut self,
        dot: &V,
        node: &'t Arg,
        args: Option<&'t [Arg]>,
        fin: Final,
    ) -> R<V> {
        self.at = At::Arg(node);
        let Arg::Variable(var) = node else {
            return self.errorf("internal error: not a variable");
        };
        let value = self.var_value(&var.ident[0])?;
        if var.ident.len() == 1 {
            self.not_a_function(args.unwrap_or(&[]), &fin)?;
            return Ok(value);
        }
        self.eval_field_chain(dot, value, node, &var.ident[1..], args, fin)
    }

    fn eval_field_chain(
        &mut self,
        dot: &V,
        receiver: V,
        node: &'t Arg,
        ident: &'t [String],
        args: Option<&'t [Arg]>,
        fin: Final,
    ) -> R<V> {
        let Some((last, init)) = ident.split_last() else {
            return Ok(receiver);
        };
        let mut receiver = receiver;
        for name in init {
            receiver = self.eval_field(dot, name, node, None, None, receiver)?;
        }
        self.eval_field(dot, last, node, args, fin, receiver)
    }

    fn eval_field(
        &mut self,
        dot: &V,
        name: &'t str,
        node: &'t Arg,
        args: Option<&'t [Arg]>,
        fin: Final,
        receiver: V,
    ) -> R<V> {
        if receiver.is_invalid() {
            if self.missing_key == MissingKey::Error {
                return self.errorf(format!("nil data; no entry for key {}", quote(name, false)));
            }
            return Ok(V::INVALID);
        }
        let typ = receiver.type_string();
        if matches!(receiver.val, Value::Nil) {
            return self.errorf(format!("nil pointer evaluating {typ}.{name}"));
        }
        if let Value::Semver(..) = &receiver.val
            && let Some(v) = self.eval_method(dot, name, node, args, fin.clone(), &receiver.val)?
        {
            return Ok(v);
        }
        let has_args = args.is_some_and(|a| a.len() > 1) || fin.is_some();
        match &receiver.val {
            Value::Map(m) => {
                if has_args {
                    return self.errorf(format!("{name} is not a method but has arguments"));
                }
                match m.entries.get(name) {
                    Some(v) => Ok(V::in_slot(v.clone(), &m.elem)),
                    None => match self.missing_key {
                        MissingKey::Default => Ok(V::INVALID),
                        MissingKey::Zero => Ok(V::in_slot(zero_of(&m.elem), &m.elem)),
                        MissingKey::Error => {
                            self.errorf(format!("map has no entry for key {}", quote(name, false)))
                        }
                    },
                }
            }
            Value::Semver(..)
                if matches!(
                    name,
                    "major" | "minor" | "patch" | "pre" | "metadata" | "original"
                ) =>
            {
                self.errorf(format!(
                    "{name} is an unexported field of struct type {typ}"
                ))
            }
            _ => self.errorf(format!("can't evaluate field {name} in type {typ}")),
        }
    }

    /// A method call on a `*semver.Version` / `semver.Version` (the only Go values with methods
    /// here): arguments are counted and converted against the method's Go signature, then the
    /// Sprig semver hook runs it. `None`: no such method (or the hook does not provide it).
    fn eval_method(
        &mut self,
        dot: &V,
        name: &'t str,
        node: &'t Arg,
        args: Option<&'t [Arg]>,
        fin: Final,
        recv: &Value,
    ) -> R<Option<V>> {
        let is_ptr = matches!(recv, Value::Semver(_, true));
        let Some(m) = SEMVER_METHODS
            .iter()
            .find(|m| m.name == name && (is_ptr || !m.ptr_receiver))
        else {
            return Ok(None);
        };
        if crate::gotemplate::sprig::semver::method(recv, name, &[]).is_none() {
            return Ok(None);
        }
        let sig = Sig::Go(m.params, None);
        let args: &'t [Arg] = args.and_then(|a| a.get(1..)).unwrap_or(&[]);
        let num_fixed = self.check_arity(&sig, name, args.len(), fin.is_some())?;
        let argv = self.build_argv(dot, &sig, num_fixed, args, fin)?;
        self.step()?;
        self.charge_call(At::Arg(node), name, &argv)?;
        let vals: Vec<Value> = argv.into_iter().map(V::into_any).collect();
        let result = guarded(|| crate::gotemplate::sprig::semver::method(recv, name, &vals))
            .unwrap_or_else(|panic| Some(Err(panic)));
        match result {
            None => Ok(None),
            Some(Ok(v)) => Ok(Some(self.check_result(V::concrete(v))?)),
            Some(Err(msg)) => {
                self.at = At::Arg(node);
                self.errorf(format!("error calling {name}: {msg}"))
            }
        }
    }

    /// Guard against results that would make printing or dropping unbounded.
    fn check_result(&self, v: V) -> R<V> {
        match &v.val {
            Value::String(s) if s.len() > MAX_OUTPUT => self.errorf(format!(
                "result larger than {MAX_OUTPUT} bytes (a limit of this engine)"
            )),
            Value::Slice(_) | Value::Map(_) => {
                if let Err(msg) = check_shape(&v.val) {
                    return self.errorf(msg);
                }
                Ok(v)
            }
            _ => Ok(v),
        }
    }

    fn eval_call(
        &mut self,
        dot: &V,
        callee: Callee,
        node: At<'t>,
        name: &str,
        args: Option<&'t [Arg]>,
        fin: Final,
    ) -> R<V> {
        let args: &'t [Arg] = args.and_then(|a| a.get(1..)).unwrap_or(&[]);
        let sig = match callee {
            Callee::User(f) => Sig::Go(f.params, f.variadic),
            Callee::Builtin(b) => {
                let s = b.signature();
                Sig::Builtin(s.params, s.variadic)
            }
        };
        let num_fixed = self.check_arity(&sig, name, args.len(), fin.is_some())?;
        self.step()?;

        if let Callee::Builtin(b @ (Builtin::And | Builtin::Or)) = callee {
            let is_or = b == Builtin::Or;
            let mut v = V::INVALID;
            for a in args {
                v = self.eval_arg(dot, Some(ArgType::Reflect), a)?;
                if truth(&v) == is_or {
                    return Ok(v);
                }
            }
            if let Some(f) = fin {
                v = self.validate_type(f, Some(ArgType::Reflect))?;
            }
            return Ok(v);
        }

        let argv = self.build_argv(dot, &sig, num_fixed, args, fin)?;
        self.charge_call(node, name, &argv)?;
        let result = match callee {
            Callee::Builtin(Builtin::Call) => {
                let callee_name = match args.first() {
                    Some(a) => a.to_string(),
                    None => argv.first().map(reflect_string).unwrap_or_default(),
                };
                let f = argv
                    .first()
                    .map(V::indirect_interface)
                    .unwrap_or(V::INVALID);
                if f.is_invalid() {
                    Err("call of nil".to_string())
                } else {
                    Err(format!(
                        "non-function {callee_name} of type {}",
                        print::type_name(&f.val)
                    ))
                }
            }
            Callee::Builtin(b) => b.call(argv, MAX_OUTPUT),
            Callee::User(f) => {
                let vals: Vec<Value> = argv.into_iter().map(V::into_any).collect();
                guarded(|| (f.imp)(&vals)).and_then(|r| r).map(V::concrete)
            }
        };
        // Sprig's set/unset/merge* change their first argument in place in Go, and templates
        // rely on it (`{{ $_ := set $d "k" 1 }}{{ $d.k }}`). Maps are immutable values here, so
        // when that argument is a plain variable, the variable takes the changed map. (Other
        // references to the same map are not updated — a documented difference.)
        if let (Callee::User(f), Ok(changed), Some(Arg::Variable(var))) =
            (callee, &result, args.first())
            && MUTATES_FIRST_ARGUMENT.contains(&f.name)
            && var.ident.len() == 1
            && matches!(changed.val, Value::Map(_))
            && let Some(name) = var.ident.first()
        {
            self.set_var(name, changed.clone())?;
        }
        if let Ok(v) = &result {
            let units = cost::result_cost(name, &v.val);
            if units > self.budget.saturating_sub(self.spent) {
                self.at = node;
            }
            self.charge(units)?;
        }
        match result {
            // Built-ins only return parts of their arguments or bounded strings; user functions
            // may build new values of any size.
            Ok(v) if matches!(callee, Callee::User(_)) => self.check_result(v),
            Ok(v) => match &v.val {
                Value::String(s) if s.len() > MAX_OUTPUT => self.check_result(v),
                _ => Ok(v),
            },
            Err(msg) => {
                self.at = node;
                self.errorf(format!("error calling {name}: {msg}"))
            }
        }
    }

    /// Go's argument count check; returns the number of fixed parameters to fill from `args`.
    fn check_arity(&self, sig: &Sig, name: &str, nargs: usize, has_final: bool) -> R<usize> {
        let num_in = nargs + usize::from(has_final);
        let nparams = sig.len();
        if sig.variadic().is_some() {
            if num_in < nparams {
                return self.errorf(format!(
                    "wrong number of args for {name}: want at least {nparams} got {nargs}"
                ));
            }
            Ok(nparams)
        } else {
            if num_in != nparams {
                return self.errorf(format!(
                    "wrong number of args for {name}: want {nparams} got {num_in}"
                ));
            }
            Ok(nargs)
        }
    }

    /// Evaluate and convert the arguments (then the piped value) for `sig`.
    fn build_argv(
        &mut self,
        dot: &V,
        sig: &Sig,
        num_fixed: usize,
        args: &'t [Arg],
        fin: Final,
    ) -> R<Vec<V>> {
        let num_in = args.len() + usize::from(fin.is_some());
        let mut argv: Vec<V> = Vec::with_capacity(num_in);
        let mut i = 0;
        while i < num_fixed && i < args.len() {
            argv.push(self.eval_arg(dot, sig.param(i), &args[i])?);
            i += 1;
        }
        if let Some(vt) = sig.variadic() {
            while i < args.len() {
                argv.push(self.eval_arg(dot, Some(vt), &args[i])?);
                i += 1;
            }
        }
        if let Some(f) = fin {
            let t = match sig.variadic() {
                Some(vt) => {
                    if num_in - 1 < num_fixed {
                        sig.param(num_in - 1)
                    } else {
                        Some(vt)
                    }
                }
                None => sig.param(sig.len().wrapping_sub(1)),
            };
            argv.push(self.validate_type(f, t)?);
        }
        Ok(argv)
    }

    /// Go's `validateType`: check that `value` can be passed as `typ` (`None`: no type).
    fn validate_type(&self, value: V, typ: Option<ArgType>) -> R<V> {
        let Some(typ) = typ else {
            return Ok(value);
        };
        if value.is_invalid() {
            return match typ {
                ArgType::Reflect => Ok(V::INVALID),
                ArgType::Go(p) => match nil_of(p) {
                    Some(z) => Ok(V::concrete(z)),
                    None => self.errorf(format!("invalid value; expected {}", typ.name())),
                },
            };
        }
        let ArgType::Go(p) = typ else {
            return Ok(value);
        };
        if p == Param::Any || assignable(&value, p) {
            return Ok(value);
        }
        if value.iface && !matches!(value.val, Value::Nil) {
            let inner = value.indirect_interface();
            if assignable(&inner, p) {
                return Ok(inner);
            }
            return self.errorf(format!(
                "wrong type for value; expected {}; got {}",
                typ.name(),
                inner.type_string()
            ));
        }
        self.errorf(format!(
            "wrong type for value; expected {}; got {}",
            typ.name(),
            value.type_string()
        ))
    }

    /// Go's `evalArg`: evaluate an argument node for a parameter of type `typ`.
    fn eval_arg(&mut self, dot: &V, typ: Option<ArgType>, n: &'t Arg) -> R<V> {
        self.at = At::Arg(n);
        match n {
            Arg::Dot(_) => return self.validate_type(dot.clone(), typ),
            Arg::Nil(_) => {
                return match typ {
                    Some(ArgType::Reflect) => Ok(V::INVALID),
                    Some(ArgType::Go(p)) => match nil_of(p) {
                        Some(z) => Ok(V::concrete(z)),
                        None => self.errorf(format!("cannot assign nil to {}", p.go_type().name())),
                    },
                    None => self.errorf("cannot assign nil to <nil>"),
                };
            }
            Arg::Field { ident, .. } => {
                let v = self.eval_field_chain(
                    dot,
                    dot.clone(),
                    n,
                    ident,
                    Some(std::slice::from_ref(n)),
                    None,
                )?;
                return self.validate_type(v, typ);
            }
            Arg::Variable(_) => {
                let v = self.eval_variable_node(dot, n, None, None)?;
                return self.validate_type(v, typ);
            }
            Arg::Pipe(p) => {
                let v = self.eval_pipeline(dot, p)?;
                return self.validate_type(v, typ);
            }
            Arg::Identifier { callee, name, .. } => {
                self.at = At::Arg(n);
                let v = self.eval_call(dot, *callee, At::Arg(n), name, None, None)?;
                return self.validate_type(v, typ);
            }
            Arg::Chain { .. } => {
                let v = self.eval_chain_node(dot, n, None, None)?;
                return self.validate_type(v, typ);
            }
            _ => {}
        }
        let Some(typ) = typ else {
            return self.eval_empty_interface(n);
        };
        match typ {
            ArgType::Reflect | ArgType::Go(Param::Any) => self.eval_empty_interface(n),
            ArgType::Go(Param::Bool) => match n {
                Arg::Bool(_, b) => Ok(V::concrete(Value::Bool(*b))),
                _ => self.errorf(format!("expected bool; found {n}")),
            },
            ArgType::Go(Param::String) => match n {
                Arg::String { value, .. } => Ok(V::concrete(value.clone())),
                _ => self.errorf(format!("expected string; found {n}")),
            },
            ArgType::Go(Param::Int) => match n {
                Arg::Number(num) if num.is_int => Ok(V::concrete(Value::Int(num.int64))),
                _ => self.errorf(format!("expected integer; found {n}")),
            },
            ArgType::Go(Param::Int64) => match n {
                Arg::Number(num) if num.is_int => Ok(V::concrete(Value::Int64(num.int64))),
                _ => self.errorf(format!("expected integer; found {n}")),
            },
            ArgType::Go(Param::Float64) => match n {
                Arg::Number(num) if num.is_float => Ok(V::concrete(Value::Float(num.float64))),
                _ => self.errorf(format!("expected float; found {n}")),
            },
            ArgType::Go(p) => self.errorf(format!(
                "can't handle {n} for arg of type {}",
                p.go_type().name()
            )),
        }
    }

    fn eval_empty_interface(&mut self, n: &'t Arg) -> R<V> {
        self.at = At::Arg(n);
        match n {
            Arg::Bool(_, b) => Ok(V::concrete(Value::Bool(*b))),
            Arg::Number(num) => self.ideal_constant(n, num),
            Arg::String { value, .. } => Ok(V::concrete(value.clone())),
            _ => self.errorf(format!(
                "can't handle assignment of {n} to empty interface argument"
            )),
        }
    }
}

/// Run a function implementation, turning a Rust panic into an error as Go's `safeCall` does
/// for Go panics: a bug in one function must not take the whole process down.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => Ok(r),
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("internal error: function panicked: {msg}"))
        }
    }
}

/// A callee's Go signature: fixed parameter types and the variadic element type.
enum Sig {
    Go(&'static [Param], Option<Param>),
    Builtin(&'static [ArgType], Option<ArgType>),
}

impl Sig {
    fn len(&self) -> usize {
        match self {
            Sig::Go(p, _) => p.len(),
            Sig::Builtin(p, _) => p.len(),
        }
    }

    fn param(&self, i: usize) -> Option<ArgType> {
        match self {
            Sig::Go(p, _) => p.get(i).map(|p| ArgType::Go(*p)),
            Sig::Builtin(p, _) => p.get(i).copied(),
        }
    }

    fn variadic(&self) -> Option<ArgType> {
        match self {
            Sig::Go(_, v) => v.map(ArgType::Go),
            Sig::Builtin(_, v) => *v,
        }
    }
}

/// A method of Masterminds semver v3's `Version`.
struct MethodSig {
    name: &'static str,
    params: &'static [Param],
    /// Declared on `*Version`: not callable on a (non-addressable) `Version` value.
    ptr_receiver: bool,
}

/// The methods templates can call on semver values (those whose parameters this value model
/// can express; `UnmarshalJSON` and `UnmarshalText` take `[]byte` and are left out).
const SEMVER_METHODS: &[MethodSig] = &[
    MethodSig {
        name: "String",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Original",
        params: &[],
        ptr_receiver: true,
    },
    MethodSig {
        name: "Major",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Minor",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Patch",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Prerelease",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Metadata",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "IncPatch",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "IncMinor",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "IncMajor",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "SetPrerelease",
        params: &[Param::String],
        ptr_receiver: false,
    },
    MethodSig {
        name: "SetMetadata",
        params: &[Param::String],
        ptr_receiver: false,
    },
    MethodSig {
        name: "LessThan",
        params: &[Param::Semver],
        ptr_receiver: true,
    },
    MethodSig {
        name: "GreaterThan",
        params: &[Param::Semver],
        ptr_receiver: true,
    },
    MethodSig {
        name: "Equal",
        params: &[Param::Semver],
        ptr_receiver: true,
    },
    MethodSig {
        name: "Compare",
        params: &[Param::Semver],
        ptr_receiver: true,
    },
    MethodSig {
        name: "MarshalJSON",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "MarshalText",
        params: &[],
        ptr_receiver: false,
    },
    MethodSig {
        name: "Scan",
        params: &[Param::Any],
        ptr_receiver: true,
    },
    MethodSig {
        name: "Value",
        params: &[],
        ptr_receiver: false,
    },
];

/// Whether a value of this (concrete) type can be passed for `p` without conversion.
fn assignable(v: &V, p: Param) -> bool {
    if v.iface {
        return p == Param::Any;
    }
    match (p, &v.val) {
        (Param::Any, _) => true,
        (Param::String, Value::String(_)) => true,
        (Param::Int, Value::Int(_)) => true,
        (Param::Int64, Value::Int64(_)) => true,
        (Param::Float64, Value::Float(_)) => true,
        (Param::Bool, Value::Bool(_)) => true,
        (Param::List, Value::Slice(s)) => s.elem == GoType::Interface,
        (Param::StringList, Value::Slice(s)) => s.elem == GoType::String,
        (Param::Dict, Value::Map(m)) => m.elem == GoType::Interface,
        (Param::Semver, Value::Semver(_, true)) => true,
        _ => false,
    }
}

/// The value a nil (or missing) argument becomes for a parameter of type `p`; `None` when the
/// type cannot be nil.
fn nil_of(p: Param) -> Option<Value> {
    match p {
        Param::Any | Param::Semver => Some(Value::Nil),
        Param::List => Some(Value::list(Vec::new())),
        Param::StringList => Some(Value::string_list(Vec::<&str>::new())),
        Param::Dict => Some(Value::dict(Default::default())),
        Param::String | Param::Int | Param::Int64 | Param::Float64 | Param::Bool => None,
    }
}

/// Go's `reflect.Value.String()` (what `call` names a piped callee by).
fn reflect_string(v: &V) -> String {
    match &v.val {
        Value::Invalid => "<invalid Value>".into(),
        Value::String(s) if !v.iface => s.to_string(),
        _ => format!("<{} Value>", v.type_string()),
    }
}

/// Reject collections too large or too deeply nested to print and drop safely. Shared
/// sub-values are visited once per nesting level, so values built by repeatedly nesting a list
/// in itself stay cheap to check.
fn check_shape(v: &Value) -> Result<(), String> {
    let mut level: Vec<&Value> = vec![v];
    let mut depth = 0usize;
    while !level.is_empty() {
        depth += 1;
        if depth > MAX_VALUE_DEPTH {
            return Err(format!(
                "result nested deeper than {MAX_VALUE_DEPTH} levels (a limit of this engine)"
            ));
        }
        let mut seen: HashSet<usize> = HashSet::new();
        let mut next: Vec<&Value> = Vec::new();
        for v in level {
            let children: &mut dyn Iterator<Item = &Value> = match v {
                Value::Slice(s) => {
                    if s.items.len() > MAX_ITEMS {
                        return Err(too_many());
                    }
                    &mut s.items.iter()
                }
                Value::Map(m) => {
                    if m.entries.len() > MAX_ITEMS {
                        return Err(too_many());
                    }
                    &mut m.entries.values()
                }
                _ => continue,
            };
            for c in children {
                let key = match c {
                    Value::Slice(s) => Arc::as_ptr(s) as usize,
                    Value::Map(m) => Arc::as_ptr(m) as usize,
                    _ => continue,
                };
                if seen.insert(key) {
                    next.push(c);
                }
            }
        }
        level = next;
    }
    Ok(())
}

fn too_many() -> String {
    format!("result has more than {MAX_ITEMS} items (a limit of this engine)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotemplate::func::FuncMap;

    fn run(text: &str, data: serde_json::Value) -> Result<String, String> {
        let set = crate::gotemplate::parse::parse("tpl", text, &FuncMap::new())?;
        execute(
            &set,
            text,
            "tpl",
            "tpl",
            MissingKey::Default,
            &Value::from_json(&data),
        )
        .map(|e| e.text)
        .map_err(|e| e.0)
    }

    #[test]
    fn missing_keys_and_nil_are_counted_as_no_value() {
        let set = crate::gotemplate::parse::parse(
            "tpl",
            "{{ .a }}{{ .missing }}{{ .n }}",
            &FuncMap::new(),
        )
        .unwrap();
        let e = execute(
            &set,
            "",
            "tpl",
            "tpl",
            MissingKey::Default,
            &Value::from_json(&serde_json::json!({"a": 1, "n": null})),
        )
        .map_err(|e| e.0)
        .unwrap();
        assert_eq!(e.text, "1<no value><no value>");
        assert_eq!(e.no_value, 2);
    }

    #[test]
    fn variables_are_scoped_to_their_block() {
        let t = "{{$x := 1}}{{if true}}{{$x := 2}}{{$y := 3}}{{$x}}{{end}}{{$x}}";
        assert_eq!(run(t, serde_json::json!(null)).as_deref(), Ok("21"));
        let t = "{{$x := 0}}{{range $i, $e := .}}{{$x = $e}}{{$z := $i}}{{end}}{{$x}}";
        assert_eq!(run(t, serde_json::json!([1, 2, 3])).as_deref(), Ok("3"));
    }

    #[test]
    fn break_and_continue_unwind_nested_frames() {
        let t = "{{range $i := 5}}{{with $i}}{{if eq . 3}}{{break}}{{end}}{{if eq . 1}}{{continue}}{{end}}{{end}}{{$i}}{{end}}|";
        assert_eq!(run(t, serde_json::json!(null)).as_deref(), Ok("02|"));
        let t = "{{range 2}}{{range 3}}{{if eq . 1}}{{break}}{{end}}{{.}}{{end}}{{.}}{{end}}";
        assert_eq!(run(t, serde_json::json!(null)).as_deref(), Ok("0001"));
    }

    #[test]
    fn template_calls_start_with_fresh_variables() {
        let t = "{{define \"a\"}}{{$}}{{end}}{{$x := 1}}{{template \"a\" 7}}{{$x}}";
        assert_eq!(run(t, serde_json::json!(null)).as_deref(), Ok("71"));
    }

    #[test]
    fn shape_check_counts_depth_and_shares() {
        let mut v = Value::list(vec![]);
        for _ in 0..MAX_VALUE_DEPTH - 1 {
            v = Value::list(vec![v.clone(), v]);
        }
        assert!(check_shape(&v).is_ok());
        let v = Value::list(vec![v]);
        assert!(check_shape(&v).is_err());
    }
}
