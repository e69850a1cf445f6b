/*!
The size a CRD schema may have before anything recurses into it: at most [`MAX_DEPTH`] levels of
JSON nesting and [`MAX_NODES`] JSON values per version (Cluster API's largest CRDs nest about 60
levels and hold a few tens of thousands of values). Checked without recursion, so any input is
safe to check.
*/

use serde_json::Value;

/// JSON nesting a version's schema may have (a schema level is two JSON levels:
/// `properties` / name).
pub const MAX_DEPTH: usize = 256;
/// JSON values a version's schema may have.
pub const MAX_NODES: usize = 2_000_000;

/// The depth and size of a JSON value, walked without recursion; `Err` with a reason once a bound
/// is passed.
pub fn check_bounds(v: &Value) -> Result<(), String> {
    let mut stack: Vec<(&Value, usize)> = vec![(v, 1)];
    let mut nodes = 0usize;
    while let Some((v, depth)) = stack.pop() {
        nodes += 1;
        if nodes > MAX_NODES {
            return Err(format!("the schema has more than {MAX_NODES} values"));
        }
        if depth > MAX_DEPTH {
            return Err(format!("the schema nests deeper than {MAX_DEPTH} levels"));
        }
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, depth + 1))),
            Value::Object(m) => stack.extend(m.values().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bounds_are_checked_without_recursion() {
        let mut deep = json!(1);
        for _ in 0..(MAX_DEPTH + 10) {
            deep = json!({"properties": deep});
        }
        assert!(check_bounds(&deep).is_err());
        assert!(check_bounds(&json!({"type": "object", "properties": {"a": {}}})).is_ok());
    }
}
