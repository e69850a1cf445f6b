//! Builtin variables for every template holder of the bundled quick-start examples, in both API
//! versions (v1beta2 follows Cluster API main, v1beta1 follows v1.10.0), pinned by snapshots.

use std::path::PathBuf;

use serde_json::{Value, json};
use topoplan::api::{self, Cluster, ClusterClass};
use topoplan::load::{self, LoadOptions};
use topoplan::topology::{Blueprint, Catalog};
use topoplan::variables::builtins;

/// Load an example directory and return, for its one Cluster, every holder with its builtins.
fn builtins_of(example: &str) -> Value {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/examples")
        .join(example);
    let inputs = load::load(&LoadOptions {
        paths: vec![dir],
        default_namespace: "default".into(),
        substitute: None,
        ..LoadOptions::default()
    })
    .unwrap_or_else(|e| panic!("{e:?}"));
    let mut classes = Vec::new();
    let mut clusters = Vec::new();
    for o in &inputs.objects {
        let Some(version) = api::check_core_object(o).unwrap_or_else(|e| panic!("{e}")) else {
            continue;
        };
        match o.kind.as_str() {
            "ClusterClass" => {
                classes.push(ClusterClass::parse(o, version).unwrap_or_else(|e| panic!("{e}")))
            }
            "Cluster" => {
                clusters.push(Cluster::parse(o, version).unwrap_or_else(|e| panic!("{e}")))
            }
            _ => {}
        }
    }
    let [class] = classes.as_slice() else {
        panic!("expected one ClusterClass in {example}");
    };
    let [cluster] = clusters.as_slice() else {
        panic!("expected one Cluster in {example}");
    };
    let catalog = Catalog::new(&inputs.objects);
    let bp = Blueprint::resolve(class, &catalog).unwrap_or_else(|e| panic!("{e:?}"));
    let desired = topoplan::topology::compute(cluster, &bp).unwrap_or_else(|e| panic!("{e:?}"));
    let all = builtins::all(cluster, &desired).unwrap_or_else(|e| panic!("{e}"));
    // `all` is for_holder for each holder, and the holder's item is part of what it sees.
    for h in &all {
        let one =
            builtins::for_holder(cluster, &desired, &h.holder).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one, h.builtins, "{}", h.holder.id());
    }
    Value::Array(
        all.into_iter()
            .map(|h| json!({ "holder": h.holder.id(), "variables": h.builtins }))
            .collect(),
    )
}

#[test]
fn quick_start() {
    insta::assert_json_snapshot!(builtins_of("quick-start"));
}

#[test]
fn quick_start_v1beta1() {
    insta::assert_json_snapshot!(builtins_of("quick-start-v1beta1"));
}
