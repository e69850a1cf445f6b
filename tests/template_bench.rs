//! Timing of parse + render for typical ClusterClass templates (target: <= 5 µs each in a
//! release build). Ignored by default; run with
//! `cargo test --release --test template_bench -- --ignored --nocapture`.

use std::time::Instant;

use topoplan::gotemplate::func::FuncMap;
use topoplan::gotemplate::value::Value;
use topoplan::gotemplate::{self, MissingKey, Options};

fn data() -> Value {
    Value::from_json(&serde_json::json!({
        "builtin": {
            "cluster": {"name": "dev-cluster", "namespace": "default",
                        "topology": {"version": "v1.31.0", "class": "quick-start"}},
            "controlPlane": {"version": "v1.31.0+rke2r1", "replicas": 3, "name": "dev-cp"},
            "machineDeployment": {"version": "v1.31.0", "class": "default-worker", "name": "md-0"}
        },
        "imageRepository": "registry.k8s.io",
        "etcdImageTag": "",
        "kubeletLogLevel": 4,
        "controlPlaneTaint": true
    }))
}

/// Best per-iteration time over many short batches: the minimum filters out the time slices
/// lost to other processes on a busy machine.
fn best_of(iterations: u32, mut f: impl FnMut() -> usize) -> f64 {
    const BATCH: u32 = 100;
    let mut best = f64::INFINITY;
    let mut sink = 0usize;
    for _ in 0..iterations / BATCH {
        let start = Instant::now();
        for _ in 0..BATCH {
            sink = sink.wrapping_add(f());
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e6 / f64::from(BATCH));
    }
    assert!(sink > 0);
    best
}

fn time(label: &str, text: &str, iterations: u32) -> f64 {
    let funcs = FuncMap::new();
    let opts = Options {
        name: "tpl",
        funcs: &funcs,
        missing_key: MissingKey::Default,
    };
    let d = data();
    let per = best_of(iterations, || {
        let t = gotemplate::parse(text, &opts).expect("parse");
        t.execute(&d).expect("render").len()
    });
    let t = gotemplate::parse(text, &opts).expect("parse");
    let exec = best_of(iterations, || t.execute(&d).expect("render").len());
    println!("{label}: parse+render {per:.2} µs, render only {exec:.2} µs");
    per
}

#[test]
#[ignore = "timing; run in release with --ignored --nocapture"]
fn parse_and_render_timing() {
    let n = 200_000;
    let a = time(
        "printf pipeline",
        "kindest/node:{{ .builtin.controlPlane.version | printf \"%s\" }}",
        n,
    );
    let b = time("field", "{{ .builtin.cluster.name }}", n);
    let c = time(
        "if/else",
        "{{ if .kubeletLogLevel }}true{{ else }}{{ .builtin.cluster.name }}-vnet{{ end }}",
        n,
    );
    let d = time("ne", "{{ ne .etcdImageTag \"\" }}", n);
    let e = time(
        "range+index",
        "{{ range $k, $v := .builtin }}{{ $k }}={{ index $v \"name\" }};{{ end }}",
        n,
    );
    for (label, v) in [
        ("printf", a),
        ("field", b),
        ("if", c),
        ("ne", d),
        ("range", e),
    ] {
        assert!(v < 50.0, "{label} took {v} µs");
    }
}
