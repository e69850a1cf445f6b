/*!
Sprig's type conversion functions: `toString`, `toStrings`, `atoi`, `int`, `int64`, `float64`,
`toDecimal`, and `seq` (integers to a string). The number rules live in `cast`; this file gives
them their Go signatures and result types (`atoi` and `int` return `int`, `int64` and
`toDecimal` return `int64`, `seq` a `string`, `toStrings` a `[]string`).
*/

use super::cast::{
    MAX_STRING_BYTES, arg_any, arg_str, strslice, strval, to_float64, to_int, to_int64, too_large,
};
use crate::go::strconv;
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::print::sprint_value;
use crate::gotemplate::value::Value;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("toString", &[Param::Any], to_string),
    Func::fixed("toStrings", &[Param::Any], to_strings),
    Func::fixed("atoi", &[Param::String], atoi),
    Func::fixed("int", &[Param::Any], int),
    Func::fixed("int64", &[Param::Any], int64),
    Func::fixed("float64", &[Param::Any], float64),
    Func::fixed("toDecimal", &[Param::Any], to_decimal),
    Func {
        name: "seq",
        params: &[],
        variadic: Some(Param::Int),
        imp: seq,
    },
];

fn to_string(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(strval(arg_any(args, 0))))
}

fn to_strings(args: &[Value]) -> Result<Value, String> {
    Ok(Value::string_list(strslice(arg_any(args, 0))))
}

/// `strconv.Atoi` with the error dropped: a syntax error gives 0, an out-of-range number the
/// nearest `int`.
fn atoi(args: &[Value]) -> Result<Value, String> {
    let (n, _) = strconv::atoi(arg_str(args, 0)?);
    Ok(Value::Int(n))
}

fn int(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int(to_int(arg_any(args, 0))))
}

fn int64(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(to_int64(arg_any(args, 0))))
}

fn float64(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Float(to_float64(arg_any(args, 0))))
}

/// `toDecimal`: the value printed with `fmt.Sprint`, read as an octal integer; 0 on any error.
fn to_decimal(args: &[Value]) -> Result<Value, String> {
    let text = match arg_any(args, 0) {
        Value::String(s) => s.to_string(),
        other => sprint_value(other),
    };
    Ok(Value::Int64(strconv::parse_int(&text, 8, 64).unwrap_or(0)))
}

/// Sprig's `seq`, like the shell's: `seq END` counts from 1, `seq START END` by ±1,
/// `seq START STEP END` by STEP; numbers separated by spaces. Go's `int` arithmetic wraps, and so
/// does this; the output is bounded by [`MAX_STRING_BYTES`] (Go would loop until memory ran out
/// when a wrapped counter never reaches the end).
fn seq(args: &[Value]) -> Result<Value, String> {
    let mut p = Vec::with_capacity(args.len());
    for v in args {
        match v {
            Value::Int(n) | Value::Int64(n) => p.push(*n),
            _ => return Err("internal error: seq arguments should be int".into()),
        }
    }
    let out = match p[..] {
        [end] => {
            let inc = if end < 1 { -1 } else { 1 };
            until_step(1, end.wrapping_add(inc), inc, MAX_STRING_BYTES)?
        }
        [start, end] => {
            let step = if end < start { -1 } else { 1 };
            until_step(start, end.wrapping_add(step), step, MAX_STRING_BYTES)?
        }
        [start, step, end] => {
            let mut inc = 1;
            if end < start {
                inc = -1;
                if step > 0 {
                    return Ok(Value::str(""));
                }
            }
            until_step(start, end.wrapping_add(inc), step, MAX_STRING_BYTES)?
        }
        _ => String::new(),
    };
    Ok(Value::str(out))
}

/// Sprig's `untilStep`, its numbers joined by spaces, in at most `limit` bytes.
fn until_step(start: i64, stop: i64, step: i64, limit: usize) -> Result<String, String> {
    let mut out = String::new();
    let mut push = |i: i64| -> Result<(), String> {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&i.to_string());
        if out.len() > limit {
            return Err(too_large());
        }
        Ok(())
    };
    let mut i = start;
    if stop < start {
        if step >= 0 {
            return Ok(String::new());
        }
        while i > stop {
            push(i)?;
            i = i.wrapping_add(step);
        }
    } else {
        if step <= 0 {
            return Ok(String::new());
        }
        while i < stop {
            push(i)?;
            i = i.wrapping_add(step);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gotemplate::value::GoType;

    fn call(name: &str, args: &[Value]) -> Result<Value, String> {
        let func = FUNCS
            .iter()
            .find(|f| f.name == name)
            .expect("function exists");
        (func.imp)(args)
    }

    fn seq_of(args: &[i64]) -> String {
        let args: Vec<Value> = args.iter().map(|n| Value::Int(*n)).collect();
        match call("seq", &args) {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{other:?}"),
        }
    }

    fn fmt_ready() -> bool {
        sprint_value(&Value::Int(1)) == "1"
    }

    #[test]
    fn numbers_keep_their_go_types() {
        assert_eq!(call("atoi", &[Value::str("42")]), Ok(Value::Int(42)));
        assert_eq!(call("atoi", &[Value::str(" 1")]), Ok(Value::Int(0)));
        assert_eq!(call("atoi", &[Value::str("+5")]), Ok(Value::Int(5)));
        assert_eq!(call("atoi", &[Value::str("1_0")]), Ok(Value::Int(0)));
        assert_eq!(call("atoi", &[Value::str("0x10")]), Ok(Value::Int(0)));
        assert_eq!(call("atoi", &[Value::str("007")]), Ok(Value::Int(7)));
        assert_eq!(
            call("atoi", &[Value::str("99999999999999999999x")]),
            Ok(Value::Int(i64::MAX))
        );
        assert_eq!(
            call("atoi", &[Value::str("-99999999999999999999")]),
            Ok(Value::Int(i64::MIN))
        );
        assert_eq!(call("int", &[Value::Float(3.7)]), Ok(Value::Int(3)));
        assert_eq!(call("int", &[Value::str("0x10")]), Ok(Value::Int(16)));
        assert_eq!(call("int64", &[Value::Float(-3.99)]), Ok(Value::Int64(-3)));
        assert_eq!(call("int64", &[Value::Nil]), Ok(Value::Int64(0)));
        assert_eq!(call("int64", &[Value::list(vec![])]), Ok(Value::Int64(0)));
        assert_eq!(call("float64", &[Value::str("1.5")]), Ok(Value::Float(1.5)));
        assert_eq!(call("float64", &[Value::Int(2)]), Ok(Value::Float(2.0)));
        assert_eq!(call("float64", &[Value::Bool(true)]), Ok(Value::Float(1.0)));
        assert_eq!(
            call("toDecimal", &[Value::str("0777")]),
            Ok(Value::Int64(511))
        );
        assert_eq!(
            call("toDecimal", &[Value::str("-17")]),
            Ok(Value::Int64(-15))
        );
        assert_eq!(call("toDecimal", &[Value::str("1_7")]), Ok(Value::Int64(0)));
        assert_eq!(call("toDecimal", &[Value::str("8")]), Ok(Value::Int64(0)));
        assert_eq!(call("toString", &[Value::str("x")]), Ok(Value::str("x")));
        if fmt_ready() {
            assert_eq!(
                call("toDecimal", &[Value::Float(777.0)]),
                Ok(Value::Int64(511))
            );
            assert_eq!(call("toDecimal", &[Value::Nil]), Ok(Value::Int64(0)));
            assert_eq!(
                call("toString", &[Value::Float(1.5)]),
                Ok(Value::str("1.5"))
            );
            assert_eq!(call("toString", &[Value::Nil]), Ok(Value::str("<nil>")));
        }
    }

    #[test]
    fn to_strings_like_strslice() {
        let strings = |v: Value| match call("toStrings", &[v]) {
            Ok(Value::Slice(l)) => {
                assert_eq!(l.elem, GoType::String);
                l.items
                    .iter()
                    .map(|v| v.as_str().unwrap_or("?").to_string())
                    .collect::<Vec<_>>()
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(strings(Value::Nil), Vec::<String>::new());
        assert_eq!(
            strings(Value::list(vec![Value::str("a"), Value::Nil])),
            ["a"]
        );
        assert_eq!(strings(Value::string_list(["x", ""])), ["x", ""]);
        assert_eq!(strings(Value::str("s")), ["s"]);
        assert_eq!(
            strings(Value::Bytes(b"hi".as_slice().into())),
            ["104", "105"]
        );
    }

    #[test]
    fn seq_like_sprig() {
        assert_eq!(seq_of(&[]), "");
        assert_eq!(seq_of(&[3]), "1 2 3");
        assert_eq!(seq_of(&[1]), "1");
        assert_eq!(seq_of(&[0]), "1 0");
        assert_eq!(seq_of(&[-2]), "1 0 -1 -2");
        assert_eq!(seq_of(&[2, 5]), "2 3 4 5");
        assert_eq!(seq_of(&[5, 2]), "5 4 3 2");
        assert_eq!(seq_of(&[3, 3]), "3");
        assert_eq!(seq_of(&[1, 2, 7]), "1 3 5 7");
        assert_eq!(seq_of(&[1, 2, 8]), "1 3 5 7");
        assert_eq!(seq_of(&[7, -2, 1]), "7 5 3 1");
        assert_eq!(seq_of(&[7, 2, 1]), "");
        assert_eq!(seq_of(&[1, 0, 7]), "");
        assert_eq!(seq_of(&[1, -1, 7]), "");
        assert_eq!(seq_of(&[7, 0, 1]), "");
        assert_eq!(seq_of(&[1, 2, 3, 4]), "");
        assert_eq!(seq_of(&[i64::MAX - 1, i64::MAX]), "");
        // Output is bounded (tested with a small limit; seq uses 64 MiB).
        assert!(until_step(1, 1 << 40, 1, 1000).unwrap_err().contains("MiB"));
        // seq 0 2^62 MaxInt64-1: the counter wraps past the end and never reaches it, so Go
        // loops until memory runs out.
        let wrapping = until_step(0, i64::MAX, 1 << 62, 1000);
        assert!(wrapping.unwrap_err().contains("MiB"));
    }
}
