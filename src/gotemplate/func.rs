/*!
Functions callable from templates: their Go signatures and Rust implementations.

text/template checks and converts every argument against the function's Go parameter types
before calling it (`evalArg`): a float64 passed to a `string` parameter is the error
`wrong type for value; expected string; got float64`, a number literal passed to a `float64`
parameter becomes a float64, a missing value passed to `interface{}` becomes nil. [`Param`]
records each parameter's type so the executor can do exactly that; implementations then receive
arguments already converted.

A function that returns an error or panics in Go ends execution with
`error calling NAME: MESSAGE`; implementations return `Err(MESSAGE)` for both.
*/

use std::collections::HashMap;

use super::value::{GoType, Value};

/// The Go type of one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// `interface{}`: any value; a missing value arrives as `Value::Nil`.
    Any,
    /// `string`.
    String,
    /// `int`.
    Int,
    /// `int64`.
    Int64,
    /// `float64`.
    Float64,
    /// `bool`.
    Bool,
    /// `[]interface{}`.
    List,
    /// `[]string`.
    StringList,
    /// `map[string]interface{}`.
    Dict,
    /// `*semver.Version`.
    Semver,
}

impl Param {
    /// The Go type name, for error messages (`expected string`).
    pub fn go_type(self) -> GoType {
        match self {
            Param::Any => GoType::Interface,
            Param::String => GoType::String,
            Param::Int => GoType::Int,
            Param::Int64 => GoType::Int64,
            Param::Float64 => GoType::Float64,
            Param::Bool => GoType::Bool,
            Param::List => GoType::Slice(Box::new(GoType::Interface)),
            Param::StringList => GoType::Slice(Box::new(GoType::String)),
            Param::Dict => GoType::Map(Box::new(GoType::Interface)),
            Param::Semver => GoType::SemverPtr,
        }
    }
}

/// A function's implementation: arguments already converted to the declared types.
pub type Impl = fn(&[Value]) -> Result<Value, String>;

/// One function of a function map.
#[derive(Debug, Clone, Copy)]
pub struct Func {
    /// Name in templates.
    pub name: &'static str,
    /// Fixed parameters.
    pub params: &'static [Param],
    /// Type of the trailing `...` parameter, if the function is variadic.
    pub variadic: Option<Param>,
    /// The implementation.
    pub imp: Impl,
}

impl Func {
    /// A function with fixed parameters only.
    pub const fn fixed(name: &'static str, params: &'static [Param], imp: Impl) -> Func {
        Func {
            name,
            params,
            variadic: None,
            imp,
        }
    }

    /// A function whose last parameter is `...variadic`.
    pub const fn variadic(
        name: &'static str,
        params: &'static [Param],
        variadic: Param,
        imp: Impl,
    ) -> Func {
        Func {
            name,
            params,
            variadic: Some(variadic),
            imp,
        }
    }
}

/// A set of functions by name (Sprig's map, or none).
#[derive(Debug, Default)]
pub struct FuncMap {
    funcs: HashMap<&'static str, Func>,
}

impl FuncMap {
    /// An empty map (naming templates: only text/template's built-ins).
    pub fn new() -> FuncMap {
        FuncMap::default()
    }

    /// Add functions; a later definition replaces an earlier one with the same name.
    pub fn extend(&mut self, funcs: &[Func]) {
        for f in funcs {
            self.funcs.insert(f.name, *f);
        }
    }

    /// Look a function up.
    pub fn get(&self, name: &str) -> Option<&Func> {
        self.funcs.get(name)
    }

    /// Every name, sorted.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.funcs.keys().copied().collect();
        v.sort_unstable();
        v
    }
}
