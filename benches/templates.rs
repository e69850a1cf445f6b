//! Template rendering: topoplan's engine against Go's, on the `valueFrom.template` and
//! `enabledIf` strings of real ClusterClasses.
//!
//! ```sh
//! cargo bench --bench templates -- ../shared/examples [/path/to/gooracle]
//! ```
//! Extracts every template from the examples' ClusterClasses, renders each with a realistic
//! variable map, and reports (1) in-process parse + render time per template, (2) end-to-end
//! throughput of `topoplan eval --jsonl` and of the Go oracle (`gooracle -jsonl`, the real
//! text/template + Sprig) on the same case lines, and their ratio. Without the oracle path only
//! topoplan is measured.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};
use topoplan::gotemplate::capi;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let examples = PathBuf::from(args.first().map_or("../shared/examples", String::as_str));
    let oracle = args.get(1).map(PathBuf::from);
    let templates = collect(&examples);
    if templates.is_empty() {
        eprintln!("no templates found under {}", examples.display());
        return;
    }
    let vars = variables();
    println!("{} templates from {}", templates.len(), examples.display());

    // (1) In-process: parse + render + YAML + JSON, as the patch engine will call it.
    let rounds = 2000;
    let start = Instant::now();
    let mut bytes = 0usize;
    for _ in 0..rounds {
        for t in &templates {
            bytes += capi::render_value_template(t, &vars)
                .map(|r| r.json.len())
                .unwrap_or(0);
        }
    }
    let per = start.elapsed().as_secs_f64() / f64::from(rounds) / templates.len() as f64;
    println!(
        "in-process parse+render+yaml+json: {:.2} µs per template ({bytes} bytes)",
        per * 1e6
    );

    // (2) The same case lines through both programs.
    let repeat = 3000;
    let mut input = String::new();
    for _ in 0..repeat {
        for t in &templates {
            let case =
                json!({"template": t, "data": vars, "funcs": "hermetic", "yamlToJSON": true});
            input.push_str(&case.to_string());
            input.push('\n');
        }
    }
    let cases = repeat * templates.len();
    let ours = env!("CARGO_BIN_EXE_topoplan");
    let t_ours = run(Path::new(ours), &["eval", "--jsonl"], &input);
    println!(
        "topoplan eval --jsonl: {cases} cases in {t_ours:.3} s = {:.0} cases/s",
        cases as f64 / t_ours
    );
    if let Some(oracle) = oracle {
        let t_go = run(&oracle, &["-jsonl"], &input);
        println!(
            "Go gooracle -jsonl:    {cases} cases in {t_go:.3} s = {:.0} cases/s",
            cases as f64 / t_go
        );
        println!("throughput ratio topoplan/Go: {:.2}x", t_go / t_ours);
    }
}

/// Best of three wall-clock runs of `program args < input`.
fn run(program: &Path, args: &[&str], input: &str) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let start = Instant::now();
        let Ok(mut child) = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
        else {
            eprintln!("cannot run {}", program.display());
            return f64::NAN;
        };
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(input.as_bytes());
        }
        let _ = child.wait();
        best = best.min(start.elapsed().as_secs_f64());
    }
    best
}

/// Every `enabledIf` and `valueFrom.template` of the ClusterClasses under `dir`.
fn collect(dir: &Path) -> Vec<String> {
    let opts = topoplan::load::LoadOptions {
        paths: vec![dir.to_path_buf()],
        default_namespace: "default".into(),
        substitute: None,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let file = topoplan::source::SourceFile::new(f.display().to_string(), text);
        let Ok(docs) = topoplan::load::yaml::parse_stream(&file) else {
            continue;
        };
        for d in docs {
            if d.value.get("kind").and_then(Value::as_str) != Some("ClusterClass") {
                continue;
            }
            for p in d
                .value
                .pointer("/spec/patches")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(e) = p.get("enabledIf").and_then(Value::as_str) {
                    out.push(e.to_string());
                }
                for def in p
                    .get("definitions")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    for op in def
                        .get("jsonPatches")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(t) = op.pointer("/valueFrom/template").and_then(Value::as_str) {
                            out.push(t.to_string());
                        }
                    }
                }
            }
        }
    }
    let _ = opts;
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

/// Variables as Cluster API passes them to a MachineDeployment's patches.
fn variables() -> Value {
    json!({
        "imageRepository": "registry.example.com",
        "etcdImageTag": "3.5.3-0",
        "coreDNSImageTag": "v1.8.5",
        "kubeadmControlPlaneMaxSurge": "1",
        "podSecurityStandard": {"enabled": true, "enforce": "baseline", "audit": "restricted", "warn": "restricted"},
        "preKubeadmCommands": ["echo a", "echo b"],
        "kubeadmConfigTemplateAnnotations": {"a": "b"},
        "builtin": {
            "cluster": {"name": "c1", "namespace": "default", "topology": {"version": "v1.34.1", "class": "quick-start"}},
            "controlPlane": {"version": "v1.34.1", "name": "c1-cp", "replicas": 3},
            "machineDeployment": {"version": "v1.34.1", "class": "default-worker", "name": "c1-md-0", "topologyName": "md-0", "replicas": 2},
            "machinePool": {"version": "v1.34.1", "class": "default-worker", "name": "c1-mp-0", "topologyName": "mp-0", "replicas": 2}
        }
    })
}
