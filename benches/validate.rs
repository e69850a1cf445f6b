//! Admission: how long `validate` takes on one real Cluster and on a fleet of 1,000.
//!
//! ```sh
//! cargo bench --bench validate -- ../shared/examples/dev-quick-start
//! ```
//! Loads the example's ClusterClass and MachineDeployment flavor (substituted with its
//! vars.env) once, then times the admission run alone, in process: (1) the class and its one
//! Cluster, and the Cluster's share (the same run minus a run over the class alone); (2) the class
//! and 1,000 Clusters that differ by name. Budgets (issue 4): ≤ 1 ms for the Cluster, ≤ 0.5 s
//! for the fleet.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use topoplan::load::{self, LoadOptions};
use topoplan::validate::run::{Mode, Settings, admit};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let example = PathBuf::from(
        args.first()
            .map_or("../shared/examples/dev-quick-start", String::as_str),
    );
    let vars = read_env(&example.join("vars.env"));
    let class = example.join("clusterclass-quick-start.yaml");
    let flavor = example.join("cluster-template-development.yaml");
    let opts = |paths: Vec<PathBuf>| LoadOptions {
        paths,
        default_namespace: vars
            .get("NAMESPACE")
            .cloned()
            .unwrap_or_else(|| "default".into()),
        substitute: Some(load::VariableValues::new(
            Default::default(),
            vars.clone(),
            Default::default(),
        )),
        ..LoadOptions::default()
    };
    let one = match load::load(&opts(vec![class.clone(), flavor.clone()])) {
        Ok(i) => i,
        Err(e) => {
            eprintln!(
                "cannot load {}: {:?}",
                example.display(),
                e.0.first().map(|d| &d.message)
            );
            return;
        }
    };
    let class_only = match load::load(&opts(vec![class.clone()])) {
        Ok(i) => i,
        Err(_) => return,
    };
    let v = admit(
        &mut one.objects.clone(),
        &[],
        &one.runtime_messages,
        &Settings::new(Mode::Validate),
    );
    println!(
        "{}: {} objects, {} findings ({} errors)",
        example.display(),
        one.objects.len(),
        v.findings.len(),
        v.findings
            .iter()
            .filter(|f| f.diagnostic.is_error())
            .count()
    );

    let rounds = 2000;
    // Admission defaults in place; defaulting again what is already defaulted does the same
    // work and changes nothing, so one copy serves every round.
    let time = |objects: &[topoplan::load::Object]| {
        let mut objects = objects.to_vec();
        let start = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(admit(
                &mut objects,
                &[],
                &one.runtime_messages,
                &Settings::new(Mode::Validate),
            ));
        }
        start.elapsed().as_secs_f64() / f64::from(rounds)
    };
    let both = time(&one.objects);
    let alone = time(&class_only.objects);
    println!(
        "class + Cluster: {:.1} µs; class alone: {:.1} µs; the Cluster's share: {:.1} µs",
        both * 1e6,
        alone * 1e6,
        (both - alone) * 1e6
    );

    // The fleet: the flavor 1,000 times under different names, in one file.
    let flavor_text = std::fs::read_to_string(&flavor).unwrap_or_default();
    let class_text = std::fs::read_to_string(&class).unwrap_or_default();
    let mut fleet = class_text;
    for i in 0..1000 {
        fleet.push_str("\n---\n");
        fleet.push_str(&flavor_text.replace("${CLUSTER_NAME}", &format!("bench-{i}")));
    }
    let dir = std::env::temp_dir().join(format!("topoplan-bench-validate-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("fleet.yaml");
    if std::fs::write(&path, fleet).is_err() {
        return;
    }
    let mut fleet = match load::load(&opts(vec![path])) {
        Ok(i) => i,
        Err(_) => return,
    };
    let runs = 10;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(admit(
            &mut fleet.objects,
            &[],
            &fleet.runtime_messages,
            &Settings::new(Mode::Validate),
        ));
    }
    let per = start.elapsed().as_secs_f64() / f64::from(runs);
    println!("class + 1,000 Clusters: {:.1} ms per run", per * 1e3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example's vars.env, read as `--env-file` reads it.
fn read_env(path: &std::path::Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let file = topoplan::source::SourceFile::new(path.display().to_string(), text);
    topoplan::load::envfile::parse(&file).unwrap_or_default()
}
