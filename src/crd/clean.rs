/*!
Contents already admitted cleanly: the memory that lets a fleet skip admitting the same content
again.

A fleet's Clusters, and the objects each generates, are mostly the same content under other
names. [`Clean`] remembers, by schema and a hash of the content (less what [`Skip`] leaves out),
the objects whose admission changed nothing and found nothing; one seen again is known to pass
as it is. Only outcomes that are certain are remembered: an object that was pruned, defaulted or
refused is always admitted in full, so messages and the stored form never come from memory.
*/

use std::collections::HashSet;
use std::hash::Hasher as _;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::structural::Structural;
use crate::json::hash::{content_hasher, hash_value};

/// Most contents remembered; past it, memory starts over (a fleet of distinct contents gains
/// nothing from remembering, and memory stays bounded).
const LIMIT: usize = 65_536;

/// What of an object its key leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// All of `metadata`: for objects topoplan generates, whose names and labels are valid by
    /// construction (Cluster API's admission checked the labels and annotations they come from).
    Metadata,
    /// `metadata.name` and `metadata.namespace` only: for objects of the input, whose other
    /// metadata the API server decodes and checks. Only for schemas whose rules do not read
    /// the name (Cluster API's own).
    Identity,
}

/// Contents found clean, shared by the threads of a run.
#[derive(Debug, Default)]
pub struct Clean(Mutex<HashSet<(usize, u64)>>);

impl Clean {
    /// The key of `object` under schema `s`.
    pub fn key(s: &Arc<Structural>, object: &Value, skip: Skip) -> (usize, u64) {
        let mut h = content_hasher();
        match object {
            Value::Object(m) => {
                for (k, v) in m {
                    if k == "metadata" {
                        match (skip, v) {
                            (Skip::Metadata, _) => continue,
                            (Skip::Identity, Value::Object(meta)) => {
                                h.write(k.as_bytes());
                                h.write_u8(6);
                                for (mk, mv) in meta
                                    .iter()
                                    .filter(|(mk, _)| !matches!(mk.as_str(), "name" | "namespace"))
                                {
                                    h.write_usize(mk.len());
                                    h.write(mk.as_bytes());
                                    hash_value(mv, &mut h);
                                }
                                continue;
                            }
                            (Skip::Identity, _) => {}
                        }
                    }
                    h.write_usize(k.len());
                    h.write(k.as_bytes());
                    hash_value(v, &mut h);
                }
            }
            other => hash_value(other, &mut h),
        }
        (Arc::as_ptr(s) as usize, h.finish())
    }

    /// Whether `key` was found clean.
    pub fn contains(&self, key: &(usize, u64)) -> bool {
        self.0.lock().map(|s| s.contains(key)).unwrap_or(false)
    }

    /// Remember `key` as clean.
    pub fn insert(&self, key: (usize, u64)) {
        if let Ok(mut s) = self.0.lock() {
            if s.len() >= LIMIT {
                s.clear();
            }
            s.insert(key);
        }
    }
}
