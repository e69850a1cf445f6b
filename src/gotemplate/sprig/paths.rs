/*!
Sprig's path functions: `base`, `dir`, `clean`, `ext`, `isAbs` (Go's `path` package: purely
lexical, forward slashes) and `osBase`, `osDir`, `osClean`, `osExt`, `osIsAbs` (Go's
`path/filepath`). Cluster API runs on Linux, where `filepath` uses `/` and no volume names, so
both families compute the same results; both are [`crate::go::path`].
*/

use crate::go::path;
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

const S: &[Param] = &[Param::String];

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("base", S, base_fn),
    Func::fixed("dir", S, dir_fn),
    Func::fixed("clean", S, clean_fn),
    Func::fixed("ext", S, ext_fn),
    Func::fixed("isAbs", S, is_abs_fn),
    Func::fixed("osBase", S, base_fn),
    Func::fixed("osClean", S, clean_fn),
    Func::fixed("osDir", S, dir_fn),
    Func::fixed("osExt", S, ext_fn),
    Func::fixed("osIsAbs", S, is_abs_fn),
];

fn text(args: &[Value]) -> &str {
    args.first().and_then(Value::as_str).unwrap_or("")
}

fn base_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(path::base(text(args))))
}

fn dir_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(path::dir(text(args))))
}

fn clean_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(path::clean(text(args))))
}

fn ext_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(path::ext(text(args))))
}

fn is_abs_fn(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Bool(path::is_abs(text(args))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_from_go() {
        assert!(super::super::regex::golden::check(FUNCS) > 50);
    }

    #[test]
    fn is_abs_like_go() {
        assert_eq!(is_abs_fn(&[Value::str("/x")]), Ok(Value::Bool(true)));
        assert_eq!(is_abs_fn(&[Value::str("x")]), Ok(Value::Bool(false)));
    }
}
