/*!
A conservative CEL type checker: the compile-time errors cel-go's checker gives, where they are
certain.

The `cel` crate only parses; names and types are checked when the expression runs. The API
server type-checks every rule when the ClusterClass is written, so this module infers types
bottom-up (with `self`/`oldSelf` typed from the schema, see [`super::types`]) and reports, in
cel-go's words and at cel-go's positions:

- `undeclared reference to 'x' (in container '')` for unknown variables and functions (the
  functions of the Kubernetes environment for the requested [`super::Env`]);
- `undefined field 'x'` on schema objects, `type 'int' does not support field selection`;
- `found no matching overload for '_+_' applied to '(string, int)'` for the standard operators,
  `size` and receiver-style string and list functions, when every operand type is known;
- `expected type 'bool' but found 'int'` for `&&`/`||` operands and macro predicates;
- `expected type 'int' but found 'string'` for mixed list or map literals (the API server enables
  homogeneous aggregate literals);
- `expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)`.

Whatever it cannot type is `dyn` and accepted, so it never rejects what the API server accepts
for typing reasons it does not model; it does miss some rejections (argument types of most library
functions, type identifiers like `int` used as values, optional types).
*/

use std::collections::BTreeMap;

use kube_cel::cel::IdedExpr;
use kube_cel::cel::common::ast::{EntryExpr, Expr, LiteralValue};

use super::env::Env;
use super::parse::{Issue, Parsed, line_col};
use super::types::{Decl, Kind};

/// A CEL type as far as the checker knows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Ty<'d> {
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    Str,
    Bytes,
    Duration,
    Timestamp,
    /// A type value: `type(int)` for `int` or `type(1)`; `None` for the type of types.
    Type(Option<Box<Ty<'d>>>),
    List(Box<Ty<'d>>),
    Map(Box<Ty<'d>>, Box<Ty<'d>>),
    /// A schema object: its fields.
    Object(&'d BTreeMap<String, Decl>),
    /// A library type (`net.IP`, `kubernetes.Quantity`, ...).
    Opaque(&'static str),
}

impl<'d> Ty<'d> {
    /// The type of a schema node.
    pub(crate) fn of_decl(d: &'d Decl) -> Ty<'d> {
        match &d.kind {
            Kind::Dyn => Ty::Dyn,
            Kind::Bool => Ty::Bool,
            Kind::Int => Ty::Int,
            Kind::Double => Ty::Double,
            Kind::String => Ty::Str,
            Kind::Bytes => Ty::Bytes,
            Kind::Duration => Ty::Duration,
            Kind::Timestamp => Ty::Timestamp,
            Kind::List(e) => Ty::List(Box::new(Ty::of_decl(e))),
            Kind::Map(e) => Ty::Map(Box::new(Ty::Str), Box::new(Ty::of_decl(e))),
            Kind::Object(f) => Ty::Object(f),
        }
    }

    /// cel-go's name for the type; `None` for schema objects (whose generated names are not
    /// stable), so no message mentions them.
    fn name(&self) -> Option<String> {
        Some(match self {
            Ty::Dyn => "dyn".into(),
            Ty::Null => "null".into(),
            Ty::Bool => "bool".into(),
            Ty::Int => "int".into(),
            Ty::Uint => "uint".into(),
            Ty::Double => "double".into(),
            Ty::Str => "string".into(),
            Ty::Bytes => "bytes".into(),
            Ty::Duration => "google.protobuf.Duration".into(),
            Ty::Timestamp => "google.protobuf.Timestamp".into(),
            Ty::Type(None) => "type".into(),
            Ty::Type(Some(t)) => match **t {
                // cel-go's short names inside a type's parameter.
                Ty::Timestamp => "type(timestamp)".into(),
                Ty::Duration => "type(duration)".into(),
                ref t => format!("type({})", t.name()?),
            },
            Ty::List(e) => format!("list({})", e.name()?),
            Ty::Map(k, v) => format!("map({}, {})", k.name()?, v.name()?),
            Ty::Object(_) => return None,
            Ty::Opaque(n) => (*n).into(),
        })
    }

    /// Known well enough to reject an overload on (no `dyn` anywhere, not a schema object).
    fn is_concrete(&self) -> bool {
        match self {
            Ty::Dyn | Ty::Object(_) | Ty::Null => false,
            Ty::List(e) => e.is_concrete(),
            Ty::Map(k, v) => k.is_concrete() && v.is_concrete(),
            _ => true,
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Ty::Int | Ty::Uint | Ty::Double)
    }

    /// Can a value of `self` be passed where `other` is expected (`dyn` matches anything).
    fn assignable(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Dyn, _) | (_, Ty::Dyn) => true,
            (Ty::List(a), Ty::List(b)) => a.assignable(b),
            (Ty::Map(a, b), Ty::Map(c, d)) => a.assignable(c) && b.assignable(d),
            (Ty::Object(_), Ty::Object(_)) | (Ty::Type(_), Ty::Type(_)) => true,
            (a, b) => a == b,
        }
    }

    /// The more specific of two assignable types.
    fn join(self, other: Ty<'d>) -> Ty<'d> {
        if self == Ty::Dyn { other } else { self }
    }
}

/// Functions of the Kubernetes CEL environment: name, the Kubernetes minor version that added
/// it, receiver kind and result.
#[derive(Clone, Copy, PartialEq)]
enum Recv {
    /// Global call only.
    Global,
    /// Either global or on any receiver.
    Any,
    Str,
    List,
    /// A string or a list.
    StrOrList,
    /// A library type or a timestamp/duration: checked only by name of the receiver type.
    Lib,
}

#[derive(Clone, Copy)]
enum Ret {
    Dyn,
    Bool,
    Int,
    Uint,
    Double,
    Str,
    Bytes,
    Duration,
    Timestamp,
    Type,
    ListStr,
    /// Same as the receiver.
    Same,
    /// The receiver's element type.
    Elem,
    Opaque(&'static str),
}

const URL: &str = "kubernetes.URL";
const QUANTITY: &str = "kubernetes.Quantity";
const IP: &str = "net.IP";
const CIDR: &str = "net.IPPrefix";
const SEMVER: &str = "kubernetes.Semver";
const FORMAT: &str = "kubernetes.NamedFormat";

/// Whether `args` (all of a known type) fit one of the overloads of ext.Strings (version 2, the
/// Kubernetes base environment's) member function `name` on a string; other names are not
/// checked here.
fn string_member_args(name: &str, args: &[Ty<'_>]) -> bool {
    match name {
        "charAt" => matches!(args, [Ty::Int]),
        "indexOf" | "lastIndexOf" => matches!(args, [Ty::Str] | [Ty::Str, Ty::Int]),
        "lowerAscii" | "upperAscii" | "trim" => args.is_empty(),
        "replace" => matches!(args, [Ty::Str, Ty::Str] | [Ty::Str, Ty::Str, Ty::Int]),
        "split" => matches!(args, [Ty::Str] | [Ty::Str, Ty::Int]),
        "substring" => matches!(args, [Ty::Int] | [Ty::Int, Ty::Int]),
        "format" => matches!(args, [Ty::List(_)]),
        _ => true,
    }
}

#[rustfmt::skip]
const FUNCTIONS: &[(&str, u32, Recv, Ret)] = &[
    // Core.
    ("size", 0, Recv::Any, Ret::Int),
    ("int", 0, Recv::Global, Ret::Int),
    ("uint", 0, Recv::Global, Ret::Uint),
    ("double", 0, Recv::Global, Ret::Double),
    ("string", 0, Recv::Any, Ret::Str),
    ("bytes", 0, Recv::Global, Ret::Bytes),
    ("bool", 0, Recv::Global, Ret::Bool),
    ("dyn", 0, Recv::Global, Ret::Dyn),
    ("type", 0, Recv::Global, Ret::Type),
    ("duration", 0, Recv::Global, Ret::Duration),
    ("timestamp", 0, Recv::Global, Ret::Timestamp),
    ("matches", 0, Recv::Any, Ret::Bool),
    ("contains", 0, Recv::Str, Ret::Bool),
    ("startsWith", 0, Recv::Str, Ret::Bool),
    ("endsWith", 0, Recv::Str, Ret::Bool),
    ("getFullYear", 0, Recv::Lib, Ret::Int),
    ("getMonth", 0, Recv::Lib, Ret::Int),
    ("getDate", 0, Recv::Lib, Ret::Int),
    ("getDayOfMonth", 0, Recv::Lib, Ret::Int),
    ("getDayOfWeek", 0, Recv::Lib, Ret::Int),
    ("getDayOfYear", 0, Recv::Lib, Ret::Int),
    ("getHours", 0, Recv::Lib, Ret::Int),
    ("getMinutes", 0, Recv::Lib, Ret::Int),
    ("getSeconds", 0, Recv::Lib, Ret::Int),
    ("getMilliseconds", 0, Recv::Lib, Ret::Int),
    // ext.Strings (v0, v2 from 1.29).
    ("charAt", 0, Recv::Str, Ret::Str),
    ("indexOf", 0, Recv::StrOrList, Ret::Int),
    ("lastIndexOf", 0, Recv::StrOrList, Ret::Int),
    ("lowerAscii", 0, Recv::Str, Ret::Str),
    ("upperAscii", 0, Recv::Str, Ret::Str),
    ("replace", 0, Recv::Str, Ret::Str),
    ("split", 0, Recv::Str, Ret::ListStr),
    ("substring", 0, Recv::Str, Ret::Str),
    ("trim", 0, Recv::Str, Ret::Str),
    ("join", 29, Recv::List, Ret::Str),
    ("format", 29, Recv::Str, Ret::Str),
    ("strings.quote", 29, Recv::Global, Ret::Str),
    // Kubernetes lists (v0).
    ("isSorted", 0, Recv::List, Ret::Bool),
    ("sum", 0, Recv::List, Ret::Elem),
    ("min", 0, Recv::List, Ret::Elem),
    ("max", 0, Recv::List, Ret::Elem),
    // Regex, URLs.
    ("find", 0, Recv::Str, Ret::Str),
    ("findAll", 0, Recv::Str, Ret::ListStr),
    ("url", 0, Recv::Global, Ret::Opaque(URL)),
    ("isURL", 0, Recv::Global, Ret::Bool),
    ("getScheme", 0, Recv::Lib, Ret::Str),
    ("getHost", 0, Recv::Lib, Ret::Str),
    ("getHostname", 0, Recv::Lib, Ret::Str),
    ("getPort", 0, Recv::Lib, Ret::Str),
    ("getEscapedPath", 0, Recv::Lib, Ret::Str),
    ("getQuery", 0, Recv::Lib, Ret::Dyn),
    // 1.28: optional types, quantity.
    ("optional.of", 28, Recv::Global, Ret::Dyn),
    ("optional.ofNonZeroValue", 28, Recv::Global, Ret::Dyn),
    ("optional.none", 28, Recv::Global, Ret::Dyn),
    ("hasValue", 28, Recv::Lib, Ret::Bool),
    ("value", 28, Recv::Lib, Ret::Dyn),
    ("orValue", 28, Recv::Lib, Ret::Dyn),
    ("or", 28, Recv::Lib, Ret::Dyn),
    ("quantity", 28, Recv::Global, Ret::Opaque(QUANTITY)),
    ("isQuantity", 28, Recv::Global, Ret::Bool),
    ("sign", 28, Recv::Lib, Ret::Int),
    ("isGreaterThan", 28, Recv::Lib, Ret::Bool),
    ("isLessThan", 28, Recv::Lib, Ret::Bool),
    ("compareTo", 28, Recv::Lib, Ret::Int),
    ("add", 28, Recv::Lib, Ret::Same),
    ("sub", 28, Recv::Lib, Ret::Same),
    ("asInteger", 28, Recv::Lib, Ret::Int),
    ("isInteger", 28, Recv::Lib, Ret::Bool),
    ("asApproximateFloat", 28, Recv::Lib, Ret::Double),
    // 1.29: sets.
    ("sets.contains", 29, Recv::Global, Ret::Bool),
    ("sets.equivalent", 29, Recv::Global, Ret::Bool),
    ("sets.intersects", 29, Recv::Global, Ret::Bool),
    // 1.30: IP and CIDR.
    ("ip", 30, Recv::Any, Ret::Opaque(IP)),
    ("isIP", 30, Recv::Global, Ret::Bool),
    ("ip.isCanonical", 30, Recv::Global, Ret::Bool),
    ("family", 30, Recv::Lib, Ret::Int),
    ("isUnspecified", 30, Recv::Lib, Ret::Bool),
    ("isLoopback", 30, Recv::Lib, Ret::Bool),
    ("isLinkLocalMulticast", 30, Recv::Lib, Ret::Bool),
    ("isLinkLocalUnicast", 30, Recv::Lib, Ret::Bool),
    ("isGlobalUnicast", 30, Recv::Lib, Ret::Bool),
    ("cidr", 30, Recv::Global, Ret::Opaque(CIDR)),
    ("isCIDR", 30, Recv::Global, Ret::Bool),
    ("containsIP", 30, Recv::Lib, Ret::Bool),
    ("containsCIDR", 30, Recv::Lib, Ret::Bool),
    ("masked", 30, Recv::Lib, Ret::Opaque(CIDR)),
    ("prefixLength", 30, Recv::Lib, Ret::Int),
    // 1.31: named formats.
    ("format.named", 31, Recv::Global, Ret::Dyn),
    ("format.dns1123Label", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.dns1123Subdomain", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.dns1035Label", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.qualifiedName", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.dns1123LabelPrefix", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.dns1123SubdomainPrefix", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.dns1035LabelPrefix", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.labelValue", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.uri", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.uuid", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.byte", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.date", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("format.datetime", 31, Recv::Global, Ret::Opaque(FORMAT)),
    ("validate", 31, Recv::Lib, Ret::Dyn),
    // 1.32: two-variable comprehensions.
    ("transformList", 32, Recv::Lib, Ret::Dyn),
    ("transformMap", 32, Recv::Lib, Ret::Dyn),
    ("transformMapEntry", 32, Recv::Lib, Ret::Dyn),
    // 1.33: semver.
    ("semver", 33, Recv::Global, Ret::Opaque(SEMVER)),
    ("isSemver", 33, Recv::Global, Ret::Bool),
    ("major", 33, Recv::Lib, Ret::Int),
    ("minor", 33, Recv::Lib, Ret::Int),
    ("patch", 33, Recv::Lib, Ret::Int),
    // 1.34: ext.Lists v3.
    ("lists.range", 34, Recv::Global, Ret::Dyn),
    ("slice", 34, Recv::List, Ret::Same),
    ("flatten", 34, Recv::List, Ret::Dyn),
    ("distinct", 34, Recv::List, Ret::Same),
    ("reverse", 34, Recv::List, Ret::Same),
    ("sort", 34, Recv::List, Ret::Same),
    ("sortBy", 34, Recv::List, Ret::Same),
    ("first", 34, Recv::List, Ret::Dyn),
    ("last", 34, Recv::List, Ret::Dyn),
];

fn lookup(name: &str, env: Env) -> Option<(Recv, Ret)> {
    FUNCTIONS
        .iter()
        .find(|(n, since, _, _)| *n == name && *since <= env.minor())
        .map(|(_, _, r, t)| (*r, *t))
}

/// Namespaces of qualified global functions (`sets.contains`).
const NAMESPACES: &[&str] = &["sets", "strings", "optional", "format", "lists", "ip"];

/// Type-check `parsed`, with `self` (and `oldSelf`) of type `self_decl` (`None`: dyn).
/// Returns the expression's type, or the issues found.
/// With `optional_old_self`, `oldSelf` is an optional (typed `dyn` here).
pub(crate) fn check<'d>(
    parsed: &Parsed,
    src: &str,
    self_decl: Option<&'d Decl>,
    optional_old_self: bool,
    env: Env,
) -> Result<Ty<'d>, Vec<Issue>> {
    let self_ty = self_decl.map_or(Ty::Dyn, Ty::of_decl);
    let old_ty = if optional_old_self {
        Ty::Dyn
    } else {
        self_ty.clone()
    };
    let mut c = Checker {
        src,
        parsed,
        env,
        issues: Vec::new(),
        scopes: vec![("self".into(), self_ty), ("oldSelf".into(), old_ty)],
    };
    let t = c.expr(parsed.expr());
    if c.issues.is_empty() {
        Ok(t)
    } else {
        c.issues.sort_by_key(|i| i.pos);
        c.issues.dedup();
        Err(c.issues)
    }
}

struct Checker<'s, 'd> {
    src: &'s str,
    parsed: &'s Parsed,
    env: Env,
    issues: Vec<Issue>,
    scopes: Vec<(String, Ty<'d>)>,
}

impl<'d> Checker<'_, 'd> {
    fn report(&mut self, id: u64, msg: String) {
        let pos = self
            .parsed
            .offsets()
            .get(&id)
            .map(|&o| line_col(self.src, o));
        self.issues.push(Issue { pos, msg });
    }

    fn lookup_var(&self, name: &str) -> Option<Ty<'d>> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.clone())
    }

    fn expr(&mut self, e: &IdedExpr) -> Ty<'d> {
        match &e.expr {
            Expr::Literal(l) => match l {
                LiteralValue::Boolean(_) => Ty::Bool,
                LiteralValue::Bytes(_) => Ty::Bytes,
                LiteralValue::Double(_) => Ty::Double,
                LiteralValue::Int(_) => Ty::Int,
                LiteralValue::Null => Ty::Null,
                LiteralValue::String(_) => Ty::Str,
                LiteralValue::UInt(_) => Ty::Uint,
            },
            Expr::Ident(name) => self.ident(e.id, name),
            Expr::Select(s) => {
                if let Some(name) = qualified_name(e)
                    && self.lookup_var(root_ident(e)).is_none()
                {
                    if !s.test
                        && let Some(t) = type_ident(&name)
                    {
                        return t;
                    }
                    // `a.b` with `a` undeclared: cel-go names the root.
                    if type_ident(root_ident(e)).is_none() && qualified_type_prefix(&name).is_none()
                    {
                        return self.expr(&s.operand);
                    }
                }
                let operand = self.expr(&s.operand);
                let t = self.select(e.id, &operand, &s.field);
                if s.test { Ty::Bool } else { t }
            }
            Expr::Call(call) => self.call(e, call),
            Expr::List(l) => {
                let mut elem: Option<Ty> = None;
                for x in &l.elements {
                    let t = self.expr(x);
                    elem = Some(self.homogeneous(x.id, elem, t));
                }
                Ty::List(Box::new(elem.unwrap_or(Ty::Dyn)))
            }
            Expr::Map(m) => {
                let mut key: Option<Ty> = None;
                let mut val: Option<Ty> = None;
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        let k = self.expr(&me.key);
                        key = Some(self.homogeneous(me.key.id, key, k));
                        let v = self.expr(&me.value);
                        val = Some(self.homogeneous(me.value.id, val, v));
                    }
                }
                Ty::Map(
                    Box::new(key.unwrap_or(Ty::Dyn)),
                    Box::new(val.unwrap_or(Ty::Dyn)),
                )
            }
            Expr::Comprehension(c) => {
                let range = self.expr(&c.iter_range);
                let iter_ty = match &range {
                    Ty::List(e) => (**e).clone(),
                    Ty::Map(k, _) => (**k).clone(),
                    Ty::Dyn | Ty::Object(_) => Ty::Dyn,
                    other => {
                        if let Some(n) = other.name() {
                            self.report(
                                c.iter_range.id,
                                format!("expression of type '{n}' cannot be range of a comprehension (must be list, map, or dynamic)"),
                            );
                        }
                        Ty::Dyn
                    }
                };
                let accu = self.expr(&c.accu_init);
                self.scopes.push((c.accu_var.clone(), accu.clone()));
                self.scopes.push((c.iter_var.clone(), iter_ty));
                if let Some(v2) = &c.iter_var2 {
                    self.scopes.push((v2.clone(), Ty::Dyn));
                }
                self.expr(&c.loop_cond);
                let step = self.expr(&c.loop_step);
                if c.iter_var2.is_some() {
                    self.scopes.pop();
                }
                self.scopes.pop();
                self.scopes.pop();
                let accu = if accu.is_concrete() { accu } else { step };
                self.scopes.push((c.accu_var.clone(), accu));
                let result = self.expr(&c.result);
                self.scopes.pop();
                result
            }
            Expr::Struct(_) | Expr::Unspecified => Ty::Dyn,
        }
    }

    /// The element type of a literal so far, reporting a second type (homogeneous literals).
    fn homogeneous(&mut self, id: u64, so_far: Option<Ty<'d>>, t: Ty<'d>) -> Ty<'d> {
        match so_far {
            None => t,
            Some(prev) => {
                if prev.is_concrete() && t.is_concrete() && !t.assignable(&prev) {
                    if let (Some(a), Some(b)) = (prev.name(), t.name()) {
                        self.report(id, format!("expected type '{a}' but found '{b}'"));
                    }
                    prev
                } else {
                    prev.join(t)
                }
            }
        }
    }

    fn ident(&mut self, id: u64, name: &str) -> Ty<'d> {
        if let Some(t) = self.lookup_var(name) {
            return t;
        }
        match type_ident(name) {
            Some(t) => t,
            None => {
                self.report(
                    id,
                    format!("undeclared reference to '{name}' (in container '')"),
                );
                Ty::Dyn
            }
        }
    }

    fn select(&mut self, id: u64, operand: &Ty<'d>, field: &str) -> Ty<'d> {
        match operand {
            Ty::Object(fields) => match fields.get(field) {
                Some(d) => Ty::of_decl(d),
                None => {
                    self.report(id, format!("undefined field '{field}'"));
                    Ty::Dyn
                }
            },
            Ty::Map(k, v) => {
                if matches!(**k, Ty::Str | Ty::Dyn) {
                    (**v).clone()
                } else {
                    Ty::Dyn
                }
            }
            Ty::Dyn | Ty::Null => Ty::Dyn,
            other => {
                if let Some(n) = other.name() {
                    self.report(id, format!("type '{n}' does not support field selection"));
                }
                Ty::Dyn
            }
        }
    }

    fn overload_error(&mut self, id: u64, func: &str, recv: Option<&Ty>, args: &[Ty]) {
        let names: Option<Vec<String>> = args.iter().map(Ty::name).collect();
        let Some(names) = names else { return };
        let list = format!("({})", names.join(", "));
        let applied = match recv {
            Some(r) => match r.name() {
                Some(n) => format!("{n}.{list}"),
                None => return,
            },
            None => list,
        };
        self.report(
            id,
            format!("found no matching overload for '{func}' applied to '{applied}'"),
        );
    }

    fn call(&mut self, e: &IdedExpr, call: &kube_cel::cel::common::ast::CallExpr) -> Ty<'d> {
        let name = call.func_name.as_str();
        if let Some(t) = self.operator(e, call) {
            return t;
        }
        // Receiver-style call: `x.f(...)`, or a qualified global (`sets.contains(...)`).
        if let Some(target) = &call.target {
            if let Some(q) = qualified_name(target)
                && self.lookup_var(root_ident(target)).is_none()
            {
                let full = format!("{q}.{name}");
                if let Some((Recv::Global | Recv::Any, ret)) = lookup(&full, self.env) {
                    let args: Vec<Ty> = call.args.iter().map(|a| self.expr(a)).collect();
                    return self.ret(ret, None, &args);
                }
                if NAMESPACES.contains(&root_ident(target)) {
                    let _ = self.expr(target);
                }
            }
            let recv = self.expr(target);
            if let Some(t) = self.unexpanded_macro(name, &recv, &call.args) {
                return t;
            }
            let args: Vec<Ty> = call.args.iter().map(|a| self.expr(a)).collect();
            if let Some((Recv::Global, _)) = lookup(name, self.env) {
                // A global function called as a method: no overload takes a receiver.
                self.overload_error(e.id, name, Some(&recv), &args);
                return Ty::Dyn;
            }
            let Some((kind, ret)) = lookup(name, self.env).filter(|(k, _)| *k != Recv::Global)
            else {
                self.report(
                    e.id,
                    format!("undeclared reference to '{name}' (in container '')"),
                );
                return Ty::Dyn;
            };
            let ok = match (kind, &recv) {
                (_, t) if !t.is_concrete() => true,
                (Recv::Str, t) => *t == Ty::Str,
                (Recv::List, t) => matches!(t, Ty::List(_)),
                (Recv::StrOrList, t) => matches!(t, Ty::Str | Ty::List(_)),
                (Recv::Any, t) if name == "size" => {
                    matches!(t, Ty::Str | Ty::Bytes | Ty::List(_) | Ty::Map(..))
                }
                (Recv::Lib, t) => {
                    !matches!(t, Ty::Bool | Ty::Int | Ty::Uint | Ty::Double | Ty::Null)
                }
                _ => true,
            };
            // Functions whose arguments are all strings.
            let string_args = matches!(
                name,
                "contains" | "startsWith" | "endsWith" | "matches" | "find" | "findAll"
            );
            // `findAll` takes a limit as its second argument.
            let args_ok = !string_args
                || args.iter().enumerate().all(|(i, a)| {
                    !a.is_concrete()
                        || *a == Ty::Str
                        || (name == "findAll" && i == 1 && *a == Ty::Int)
                });
            let signature_ok = recv != Ty::Str
                || !args.iter().all(Ty::is_concrete)
                || string_member_args(name, &args);
            if !ok || !args_ok || !signature_ok {
                self.overload_error(e.id, name, Some(&recv), &args);
                return Ty::Dyn;
            }
            return self.ret(ret, Some(&recv), &args);
        }
        let args: Vec<Ty> = call.args.iter().map(|a| self.expr(a)).collect();
        let Some((kind, ret)) = lookup(name, self.env).filter(|(k, _)| *k != Recv::Lib) else {
            self.report(
                e.id,
                format!("undeclared reference to '{name}' (in container '')"),
            );
            return Ty::Dyn;
        };
        if name == "size"
            && let [a] = args.as_slice()
            && a.is_concrete()
            && !matches!(a, Ty::Str | Ty::Bytes | Ty::List(_) | Ty::Map(..))
        {
            self.overload_error(e.id, name, None, &args);
            return Ty::Int;
        }
        let bad_args = match (name, args.as_slice()) {
            ("type", [_]) => false,
            ("type", _) => true,
            ("string", [a]) => {
                a.is_concrete() && matches!(a, Ty::Type(_) | Ty::List(_) | Ty::Map(..))
            }
            _ => false,
        };
        if bad_args {
            self.overload_error(e.id, name, None, &args);
            return Ty::Dyn;
        }
        let _ = kind;
        self.ret(ret, None, &args)
    }

    /// Macros of the Kubernetes environment the `cel` crate leaves as plain calls (`sortBy`,
    /// the two-variable comprehensions): their leading identifiers are variables of the last
    /// argument. They fail when run.
    fn unexpanded_macro(&mut self, name: &str, recv: &Ty<'d>, args: &[IdedExpr]) -> Option<Ty<'d>> {
        let vars = match (name, args.len()) {
            ("sortBy", 2) => 1,
            (
                "all" | "exists" | "existsOne" | "exists_one" | "transformList" | "transformMap",
                3,
            ) => 2,
            ("transformList" | "transformMap", 4) => 2,
            ("transformMapEntry", 3) => 2,
            ("transformMapEntry", 4) => 2,
            _ => return None,
        };
        let names: Vec<String> = args[..vars]
            .iter()
            .filter_map(|a| match &a.expr {
                Expr::Ident(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        if names.len() != vars {
            return None;
        }
        for n in &names {
            self.scopes.push((n.clone(), Ty::Dyn));
        }
        for a in &args[vars..] {
            self.expr(a);
        }
        for _ in &names {
            self.scopes.pop();
        }
        Some(match name {
            "sortBy" => recv.clone(),
            "all" | "exists" | "existsOne" | "exists_one" => Ty::Bool,
            _ => Ty::Dyn,
        })
    }

    fn ret(&self, ret: Ret, recv: Option<&Ty<'d>>, _args: &[Ty<'d>]) -> Ty<'d> {
        match ret {
            Ret::Dyn => Ty::Dyn,
            Ret::Bool => Ty::Bool,
            Ret::Int => Ty::Int,
            Ret::Uint => Ty::Uint,
            Ret::Double => Ty::Double,
            Ret::Str => Ty::Str,
            Ret::Bytes => Ty::Bytes,
            Ret::Duration => Ty::Duration,
            Ret::Timestamp => Ty::Timestamp,
            Ret::Type => Ty::Type(Some(Box::new(_args.first().cloned().unwrap_or(Ty::Dyn)))),
            Ret::ListStr => Ty::List(Box::new(Ty::Str)),
            Ret::Same => recv.cloned().unwrap_or(Ty::Dyn),
            Ret::Elem => match recv {
                Some(Ty::List(e)) => (**e).clone(),
                _ => Ty::Dyn,
            },
            Ret::Opaque(n) => Ty::Opaque(n),
        }
    }

    /// The standard operators; `None` when `call` is not one.
    fn operator(
        &mut self,
        e: &IdedExpr,
        call: &kube_cel::cel::common::ast::CallExpr,
    ) -> Option<Ty<'d>> {
        let name = call.func_name.as_str();
        let is_op = matches!(
            name,
            "_+_"
                | "_-_"
                | "_*_"
                | "_/_"
                | "_%_"
                | "_==_"
                | "_!=_"
                | "_<_"
                | "_<=_"
                | "_>_"
                | "_>=_"
                | "_&&_"
                | "_||_"
                | "!_"
                | "-_"
                | "_?_:_"
                | "@in"
                | "_[_]"
                | "@not_strictly_false"
        );
        if !is_op || call.target.is_some() {
            return None;
        }
        let args: Vec<Ty> = call.args.iter().map(|a| self.expr(a)).collect();
        let all_concrete = args.iter().all(Ty::is_concrete);
        let t = match (name, args.as_slice()) {
            ("_&&_" | "_||_", [a, b]) => {
                for (arg, t) in call.args.iter().zip([a, b]) {
                    if t.is_concrete() && *t != Ty::Bool {
                        if let Some(n) = t.name() {
                            self.report(arg.id, format!("expected type 'bool' but found '{n}'"));
                        }
                    } else if *t == Ty::Null {
                        self.report(arg.id, "expected type 'bool' but found 'null'".into());
                    }
                }
                Ty::Bool
            }
            ("@not_strictly_false", _) => Ty::Bool,
            ("!_", [a]) => {
                if a.is_concrete() && *a != Ty::Bool {
                    self.overload_error(e.id, name, None, &args);
                }
                Ty::Bool
            }
            ("-_", [a]) => {
                if a.is_concrete() && !matches!(a, Ty::Int | Ty::Double) {
                    self.overload_error(e.id, name, None, &args);
                }
                a.clone()
            }
            ("_==_" | "_!=_", [a, b]) => {
                let null_mix =
                    (*a == Ty::Null && b.is_concrete()) || (*b == Ty::Null && a.is_concrete());
                if (all_concrete && !a.assignable(b)) || null_mix {
                    self.overload_error(e.id, name, None, &args);
                }
                Ty::Bool
            }
            ("_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) => {
                let ok = (a.is_numeric() && b.is_numeric())
                    || (a == b
                        && matches!(
                            a,
                            Ty::Str | Ty::Bytes | Ty::Bool | Ty::Timestamp | Ty::Duration
                        ));
                if all_concrete && !ok {
                    self.overload_error(e.id, name, None, &args);
                }
                Ty::Bool
            }
            ("_+_", [a, b]) => {
                if !all_concrete {
                    return Some(match (a, b) {
                        (Ty::List(x), Ty::List(y)) if !x.is_concrete() => Ty::List(y.clone()),
                        (Ty::Dyn, t) | (t, Ty::Dyn) if !matches!(t, Ty::Object(_)) => t.clone(),
                        _ => Ty::Dyn,
                    });
                }
                match (a, b) {
                    (Ty::Int, Ty::Int)
                    | (Ty::Uint, Ty::Uint)
                    | (Ty::Double, Ty::Double)
                    | (Ty::Str, Ty::Str)
                    | (Ty::Bytes, Ty::Bytes)
                    | (Ty::Duration, Ty::Duration) => a.clone(),
                    (Ty::List(x), Ty::List(y)) if x == y => a.clone(),
                    (Ty::Timestamp, Ty::Duration) | (Ty::Duration, Ty::Timestamp) => Ty::Timestamp,
                    _ => {
                        self.overload_error(e.id, name, None, &args);
                        Ty::Dyn
                    }
                }
            }
            ("_-_", [a, b]) => {
                if !all_concrete {
                    return Some(Ty::Dyn);
                }
                match (a, b) {
                    (Ty::Int, Ty::Int)
                    | (Ty::Uint, Ty::Uint)
                    | (Ty::Double, Ty::Double)
                    | (Ty::Duration, Ty::Duration) => a.clone(),
                    (Ty::Timestamp, Ty::Timestamp) => Ty::Duration,
                    (Ty::Timestamp, Ty::Duration) => Ty::Timestamp,
                    _ => {
                        self.overload_error(e.id, name, None, &args);
                        Ty::Dyn
                    }
                }
            }
            ("_*_" | "_/_" | "_%_", [a, b]) => {
                let ok = a == b
                    && (matches!(a, Ty::Int | Ty::Uint) || (*a == Ty::Double && name != "_%_"));
                if all_concrete && !ok {
                    self.overload_error(e.id, name, None, &args);
                    Ty::Dyn
                } else if all_concrete || a.is_concrete() {
                    a.clone()
                } else {
                    b.clone()
                }
            }
            ("_?_:_", [c, t, f]) => {
                let cond_bad = c.is_concrete() && *c != Ty::Bool;
                let branches_bad = t.is_concrete() && f.is_concrete() && !t.assignable(f);
                if cond_bad || branches_bad {
                    self.overload_error(e.id, name, None, &args);
                    Ty::Dyn
                } else if t.is_concrete() {
                    t.clone()
                } else {
                    f.clone()
                }
            }
            ("@in", [a, b]) => {
                let ok = match b {
                    Ty::List(x) => a.assignable(x),
                    Ty::Map(k, _) => a.assignable(k),
                    _ => false,
                };
                if all_concrete && !ok {
                    self.overload_error(e.id, name, None, &args);
                }
                Ty::Bool
            }
            ("_[_]", [a, b]) => match a {
                Ty::List(x) => {
                    if b.is_concrete() && !matches!(b, Ty::Int | Ty::Uint) {
                        self.overload_error(e.id, name, None, &args);
                    }
                    (**x).clone()
                }
                Ty::Map(k, v) => {
                    if b.is_concrete() && k.is_concrete() && !b.assignable(k) {
                        self.overload_error(e.id, name, None, &args);
                    }
                    (**v).clone()
                }
                Ty::Object(fields) => {
                    if let Some(field) = string_literal(&call.args[1]) {
                        match fields.get(&field) {
                            Some(d) => Ty::of_decl(d),
                            None => Ty::Dyn,
                        }
                    } else {
                        Ty::Dyn
                    }
                }
                t if t.is_concrete() => {
                    self.overload_error(e.id, name, None, &args);
                    Ty::Dyn
                }
                _ => Ty::Dyn,
            },
            _ => Ty::Dyn,
        };
        Some(t)
    }
}

/// The type of a type identifier (`int`: `type(int)`), when `name` is one.
fn type_ident<'d>(name: &str) -> Option<Ty<'d>> {
    let of = |t: Ty<'d>| Some(Ty::Type(Some(Box::new(t))));
    match name {
        "int" => of(Ty::Int),
        "uint" => of(Ty::Uint),
        "double" => of(Ty::Double),
        "string" => of(Ty::Str),
        "bytes" => of(Ty::Bytes),
        "bool" => of(Ty::Bool),
        "list" => of(Ty::List(Box::new(Ty::Dyn))),
        "map" => of(Ty::Map(Box::new(Ty::Dyn), Box::new(Ty::Dyn))),
        "null_type" => of(Ty::Null),
        "type" => of(Ty::Type(None)),
        "optional_type" => of(Ty::Opaque("optional_type")),
        "google.protobuf.Timestamp" => of(Ty::Timestamp),
        "google.protobuf.Duration" => of(Ty::Duration),
        _ => None,
    }
}

fn string_literal(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Literal(LiteralValue::String(s)) => Some(s.inner().to_string()),
        _ => None,
    }
}

/// `a.b.c` as a dotted name, when `e` is only identifiers and selections.
fn qualified_name(e: &IdedExpr) -> Option<String> {
    match &e.expr {
        Expr::Ident(n) => Some(n.clone()),
        Expr::Select(s) if !s.test => Some(format!("{}.{}", qualified_name(&s.operand)?, s.field)),
        _ => None,
    }
}

/// The longest prefix of the dotted `name` that is a qualified type name.
fn qualified_type_prefix(name: &str) -> Option<&'static str> {
    super::rewrite::QUALIFIED_TYPE_NAMES
        .iter()
        .find(|q| name.starts_with(*q) && name[q.len()..].starts_with('.'))
        .copied()
}

fn root_ident(e: &IdedExpr) -> &str {
    match &e.expr {
        Expr::Ident(n) => n,
        Expr::Select(s) => root_ident(&s.operand),
        _ => "",
    }
}
