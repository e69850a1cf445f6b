/*!
Hashes of JSON content, for the memories that let a fleet skip work on content already seen
(admission's clean objects, CEL rules that passed).

A hash there stands for "known to pass", so input crafted to collide with a clean content's hash
must not be able to skip a check. The hasher is SipHash under keys drawn at random once per
process ([`content_hasher`]): fixed keys (`DefaultHasher::new`'s) would let anyone who reads
this code compute collisions. No output depends on the keys.
*/

use std::hash::{BuildHasher as _, DefaultHasher, Hasher as _, RandomState};
use std::sync::OnceLock;

use serde_json::Value;

/// A hasher under this process's random keys.
pub fn content_hasher() -> DefaultHasher {
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    KEYS.get_or_init(RandomState::new).build_hasher()
}

/// The hash of `v` under this process's keys.
pub fn of(v: &Value) -> u64 {
    let mut h = content_hasher();
    hash_value(v, &mut h);
    h.finish()
}

/// Feed `v` to `h`, with a tag per JSON type so that `"1"` and `1` differ.
pub fn hash_value(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => h.write_u8(if *b { 2 } else { 1 }),
        // Without formatting the number (this runs for every node of a fleet's objects).
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => {
                h.write_u8(3);
                h.write_i64(i);
            }
            (None, Some(u)) => {
                h.write_u8(7);
                h.write_u64(u);
            }
            _ => {
                h.write_u8(8);
                h.write_u64(n.as_f64().unwrap_or(0.0).to_bits());
            }
        },
        Value::String(s) => {
            h.write_u8(4);
            h.write_usize(s.len());
            h.write(s.as_bytes());
        }
        Value::Array(a) => {
            h.write_u8(5);
            h.write_usize(a.len());
            for x in a {
                hash_value(x, h);
            }
        }
        Value::Object(m) => {
            h.write_u8(6);
            h.write_usize(m.len());
            for (k, x) in m {
                h.write_usize(k.len());
                h.write(k.as_bytes());
                hash_value(x, h);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn types_and_structure_tell_values_apart() {
        let all = [
            json!(null),
            json!(false),
            json!(true),
            json!(1),
            json!("1"),
            json!(1.5),
            json!(u64::MAX),
            json!([1]),
            json!([[1]]),
            json!({"a": 1}),
            json!({"a": "1"}),
            json!({"ab": 1}),
            json!([]),
            json!({}),
        ];
        let hashes: std::collections::HashSet<u64> = all.iter().map(of).collect();
        assert_eq!(hashes.len(), all.len());
        assert_eq!(
            of(&json!({"a": [1, {"b": null}]})),
            of(&json!({"a": [1, {"b": null}]}))
        );
    }
}
