//! Custom-resource admission: how long pruning, defaulting and validating one Cluster's objects
//! against Cluster API's CRDs takes.
//!
//! ```sh
//! topoplan plan -f testdata/examples/quick-start --output-dir /tmp/qs-out
//! cargo bench --bench crd -- CLUSTER_API_CHECKOUT /tmp/qs-out
//! ```
//! Reads every `config/crd/bases` CRD of the Cluster API checkout (compiling schemas and CEL
//! rules once, timed apart), then admits the objects of the plan's output directory, with the
//! KubeadmControlPlane's `files` grown to about 50 KB, 200 times, and prints the time per round
//! (one Cluster's objects) and per object, and each object's errors. Budget (issue 15): about
//! 2 ms per Cluster of ~10 objects of 5–50 KB.

use std::path::PathBuf;
use std::time::Instant;

use serde_json::{Value, json};
use topoplan::crd::Crds;
use topoplan::load::{self, LoadOptions};

fn load(paths: Vec<PathBuf>) -> Vec<topoplan::load::Object> {
    match load::load(&LoadOptions {
        paths,
        default_namespace: "default".into(),
        ..LoadOptions::default()
    }) {
        Ok(i) => i.objects,
        Err(e) => {
            eprintln!("cannot load: {:?}", e.0.first().map(|d| &d.message));
            Vec::new()
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let (Some(capi), Some(objects)) = (args.first(), args.get(1)) else {
        eprintln!("usage: cargo bench --bench crd -- CLUSTER_API_CHECKOUT OBJECTS_DIR");
        return;
    };
    let capi = PathBuf::from(capi);
    let dirs: Vec<PathBuf> = [
        "core/config/crd/bases",
        "bootstrap/kubeadm/config/crd/bases",
        "controlplane/kubeadm/config/crd/bases",
        "test/infrastructure/docker/config/crd/bases",
    ]
    .iter()
    .map(|d| capi.join(d))
    .filter(|d| d.is_dir())
    .collect();
    let crd_objects = load(dirs);
    let t = Instant::now();
    let (crds, warnings) = Crds::from_objects(&crd_objects);
    println!(
        "{} CRDs read, {} served kinds, {} warnings, in {:.1} ms",
        crd_objects.len(),
        crds.len(),
        warnings.len(),
        t.elapsed().as_secs_f64() * 1e3
    );
    for w in &warnings {
        println!("  warning: {}", w.message);
    }
    let mut objs: Vec<Value> = load(vec![PathBuf::from(objects)])
        .into_iter()
        .map(|o| o.value)
        .filter(|v| crds.for_object(v).is_some())
        .collect();
    // Grow the control plane to the size of a real one with files.
    for o in &mut objs {
        if o["kind"] == "KubeadmControlPlane" {
            let files: Vec<Value> = (0..40)
                .map(|i| {
                    json!({"path": format!("/etc/kubernetes/extra-{i}.yaml"), "owner": "root:root",
                    "permissions": "0644", "content": "x: y\n".repeat(250)})
                })
                .collect();
            o["spec"]["kubeadmConfigSpec"]["files"] = Value::Array(files);
        }
    }
    let bytes: usize = objs.iter().map(|o| o.to_string().len()).sum();
    println!(
        "{} objects with a CRD, {} KB in all",
        objs.len(),
        bytes / 1024
    );
    for o in &objs {
        let mut c = o.clone();
        if let Some(a) = crds.admit(&mut c, None) {
            println!(
                "  {:<24} {:>6} B  pruned {:?}  {}",
                o["kind"].as_str().unwrap_or(""),
                o.to_string().len(),
                a.pruned,
                a.message().unwrap_or_else(|| "valid".into())
            );
        }
    }
    let rounds = 200;
    let mut per_kind = std::collections::BTreeMap::<String, f64>::new();
    let t = Instant::now();
    for _ in 0..rounds {
        for o in &objs {
            let mut c = o.clone();
            let start = Instant::now();
            let _ = crds.admit(&mut c, None);
            *per_kind
                .entry(o["kind"].as_str().unwrap_or("").to_string())
                .or_default() += start.elapsed().as_secs_f64();
        }
    }
    let total = t.elapsed().as_secs_f64();
    println!(
        "admit, one Cluster's objects: {:.3} ms per round (clone included), {rounds} rounds",
        total / f64::from(rounds) * 1e3
    );
    for (k, s) in per_kind {
        println!("  {k:<24} {:.1} µs per round", s / f64::from(rounds) * 1e6);
    }
}
