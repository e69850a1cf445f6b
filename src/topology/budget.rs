/*!
What a plan may generate: objects and bytes per Cluster and per run.

A Cluster's topology multiplies its class's templates: each MachineDeployment gets its own copy
of two templates, so a 200 KB input naming 2,000 MachineDeployments of a class with 15 KB
templates asks for 60 MB of objects, and a fleet multiplies that again. The desired state is
charged as it is computed, object by object, so the bound is hit before the objects past it are
built: per Cluster ([`GenerateLimits::cluster_objects`], [`GenerateLimits::cluster_bytes`]),
and for all Clusters of a run together (`diff` counts both sides), through process-wide
counters set once by the CLI. Bytes are those of the objects as compact JSON, as they leave
the desired-state stage (patches then change them within their own bounds).
*/

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

/// The bounds on generated objects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateLimits {
    /// Objects of one Cluster's desired state.
    pub cluster_objects: u64,
    /// Bytes (compact JSON) of one Cluster's desired state.
    pub cluster_bytes: u64,
    /// Objects of all Clusters of the run.
    pub run_objects: u64,
    /// Bytes of all Clusters of the run.
    pub run_bytes: u64,
}

impl Default for GenerateLimits {
    /// A real Cluster has tens of MachineDeployments (four objects each, a few KB apiece): 10,000
    /// objects and 32 MiB are some hundred times that. A 10,000-Cluster fleet of the bundled
    /// quick-start generates 120,000 objects and about 200 MB, within the run's 2,000,000 and
    /// 2 GiB; what a run keeps in memory at once is a window of Clusters, not the whole run.
    fn default() -> Self {
        GenerateLimits {
            cluster_objects: 10_000,
            cluster_bytes: 32 << 20,
            run_objects: 2_000_000,
            run_bytes: 2 << 30,
        }
    }
}

struct Run {
    limits: GenerateLimits,
    objects: AtomicU64,
    bytes: AtomicU64,
}

/// Process-wide, as one process is one run and Clusters are planned on rayon workers. Set once
/// by the CLI; without it the per-Cluster defaults apply and there is no run-wide bound.
static RUN: OnceLock<Run> = OnceLock::new();

/// Set this process's bounds. The first call wins; false if already set.
pub fn limit_run(limits: GenerateLimits) -> bool {
    RUN.set(Run {
        limits,
        objects: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
    })
    .is_ok()
}

/// One Cluster's running total.
#[derive(Debug, Default)]
pub struct Tally {
    objects: u64,
    bytes: u64,
}

/// Which bound an object passed, in words for the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exceeded(pub String);

impl Tally {
    /// Charge one generated object to the Cluster and the run.
    pub fn charge(&mut self, object: &Value) -> Result<(), Exceeded> {
        let limits = RUN.get().map_or_else(GenerateLimits::default, |r| r.limits);
        let bytes = json_len(object);
        self.objects += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        if self.objects > limits.cluster_objects {
            return Err(Exceeded(format!(
                "its plan generates more than {} objects (--max-cluster-objects)",
                limits.cluster_objects
            )));
        }
        if self.bytes > limits.cluster_bytes {
            return Err(Exceeded(format!(
                "its plan generates more than {} bytes of objects (--max-cluster-bytes)",
                limits.cluster_bytes
            )));
        }
        let Some(run) = RUN.get() else {
            return Ok(());
        };
        let objects = run
            .objects
            .fetch_add(1, Ordering::Relaxed)
            .saturating_add(1);
        let total = run
            .bytes
            .fetch_add(bytes, Ordering::Relaxed)
            .saturating_add(bytes);
        if objects > limits.run_objects {
            return Err(Exceeded(format!(
                "the run generates more than {} objects in all (--max-generated-objects)",
                limits.run_objects
            )));
        }
        if total > limits.run_bytes {
            return Err(Exceeded(format!(
                "the run generates more than {} bytes of objects in all (--max-generated-bytes)",
                limits.run_bytes
            )));
        }
        Ok(())
    }
}

/// The length of `v` as compact JSON, without building the text.
fn json_len(v: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    // Writing to a counter cannot fail; a value serde cannot write counts what it wrote.
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_is_refused_at_the_object_past_its_bound() {
        let mut t = Tally::default();
        let big = Value::String("x".repeat(1 << 20));
        let mut refused = None;
        for i in 0..40 {
            if let Err(e) = t.charge(&big) {
                refused = Some((i, e));
                break;
            }
        }
        let (i, e) = refused.expect("refused");
        assert_eq!(i, 31, "{e:?}");
        assert!(e.0.contains("more than 33554432 bytes"), "{e:?}");
    }

    #[test]
    fn json_len_is_the_compact_length() {
        let v = serde_json::json!({"a": [1, "b"], "c": null});
        assert_eq!(
            json_len(&v),
            serde_json::to_string(&v).unwrap_or_default().len() as u64
        );
    }
}
