/*!
Go's `fmt` for template values: `%v` printing and `Sprintf` with every verb and flag.

text/template prints every action result with `fmt.Fprint`, and `print`, `printf`, `println`
and many Sprig functions go through `fmt` too, so this is where `1e+06`, `map[a:1 b:2]`,
`%!d(float64=3)` and `%!(EXTRA …)` come from. (Placeholder until the fmt work lands.)
*/

use super::value::Value;

/// `fmt.Sprint(v)` of one value (`%v`). (The executor prints `<no value>` for a missing value
/// itself; `fmt` of an invalid reflect.Value would print `<invalid reflect.Value>`.)
pub fn sprint_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        other => format!("{other:?}"),
    }
}

/// `fmt.Sprint(args...)`: spaces between operands when neither side is a string.
pub fn sprint(args: &[Value]) -> String {
    args.iter().map(sprint_value).collect::<Vec<_>>().join(" ")
}

/// `fmt.Sprintln(args...)`: always spaces, newline at the end.
pub fn sprintln(args: &[Value]) -> String {
    let mut s = args.iter().map(sprint_value).collect::<Vec<_>>().join(" ");
    s.push('\n');
    s
}

/// `fmt.Sprintf(format, args...)`.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    let _ = args;
    format.to_string()
}
