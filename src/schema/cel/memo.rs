/*!
The rules that passed, remembered: a fleet's generated objects repeat the same values under the
same rules (every KubeadmControlPlane's `extraArgs` lists), and evaluating a rule costs more than
hashing the value it sees.

Owns the memory of one thread (no locks: rayon's workers each keep theirs). An entry says that
the rules of one schema node, in one [`super::Validator`], let `self` (and `oldSelf`) with these
content hashes pass, at this runtime cost. Only full passes are remembered: a value that fails or
errors is evaluated again, so messages never come from memory, and a hit charges the cost the
evaluation charged, so the cost budget runs out exactly where it would. Hashes are keyed at
random per process ([`crate::json::hash`]), so crafted input cannot collide with a passing value.
*/

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

/// Entries per thread; past it the memory starts over (distinct values gain nothing from it,
/// and memory stays bounded).
const LIMIT: usize = 16_384;

/// A memory key: which validator, which node's rules, which values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Key {
    validator: u64,
    rules: usize,
    this: u64,
    old: Option<u64>,
}

thread_local! {
    static PASSED: RefCell<HashMap<Key, u64>> = RefCell::new(HashMap::new());
}

/// A fresh validator identity: a key never outlives the meaning of its rule pointer, even when
/// a dropped schema's memory is reused by another.
pub(super) fn next_validator_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Key {
    /// The key of the rules at `rules` (the address of a node's rule list) of validator
    /// `validator`, seeing `this` and `old`.
    pub(super) fn new(validator: u64, rules: usize, this: &Value, old: Option<&Value>) -> Key {
        Key {
            validator,
            rules,
            this: crate::json::hash::of(this),
            old: old.map(crate::json::hash::of),
        }
    }
}

/// The cost charged when these rules last passed these values, if they did.
pub(super) fn passed(key: &Key) -> Option<u64> {
    PASSED.with(|m| m.borrow().get(key).copied())
}

/// Remember that the rules passed at `cost`.
pub(super) fn remember(key: Key, cost: u64) {
    PASSED.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= LIMIT {
            m.clear();
        }
        m.insert(key, cost);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_tell_validators_nodes_and_values_apart() {
        let v = json!({"a": 1});
        let k = Key::new(1, 8, &v, None);
        remember(k, 7);
        assert_eq!(passed(&Key::new(1, 8, &json!({"a": 1}), None)), Some(7));
        assert_eq!(passed(&Key::new(2, 8, &v, None)), None);
        assert_eq!(passed(&Key::new(1, 16, &v, None)), None);
        assert_eq!(passed(&Key::new(1, 8, &json!({"a": 2}), None)), None);
        assert_eq!(passed(&Key::new(1, 8, &v, Some(&v))), None);
        assert_ne!(next_validator_id(), next_validator_id());
    }
}
