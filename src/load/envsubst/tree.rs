/*!
The syntax tree of a substituted text: literal runs and `${…}` expressions.

Owns the data the parser builds and the evaluator and the missing-variable check read; no
behaviour beyond spelling an expression's default back as clusterctl lists it.
*/

#[derive(Debug)]
pub(super) enum Node {
    /// Literal bytes, escapes already resolved.
    Text(Vec<u8>),
    Func(Func),
}

/// One `${…}` expression.
#[derive(Debug)]
pub(super) struct Func {
    pub(super) param: String,
    pub(super) op: Op,
    pub(super) args: Vec<Node>,
    /// `[start, end)` in the rewritten text.
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Func {
    /// clusterctl's notion of the default: the arguments with nested expressions written as
    /// `${NAME}`. Non-empty exactly when there is an argument, since none can be empty.
    pub(super) fn default_text(&self) -> String {
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
pub(super) enum Op {
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
pub(super) enum ReplaceKind {
    First,
    All,
    Prefix,
    Suffix,
}
