//! Hostile inputs: run-wide budgets. Inputs small on disk whose product is large — a topology
//! multiplying templates, many documents each under the per-document bound, answers of
//! extensions within their byte bound, CEL rules each within Kubernetes' limits, a slow
//! extension under `extension check`, a fleet's current state — must end within seconds and
//! well under 1 GiB: refused with a message naming the bound and its flag, or planned.

use std::time::Duration;

#[allow(unused_imports)]
use crate::harness::*;

/// The quick-start Cluster with `n` MachineDeployments of class `general` (and no others).
fn many_machine_deployments(text: String, n: usize) -> String {
    let mds: String = (0..n)
        .map(|i| format!("      - class: general\n        name: md-{i}\n        replicas: 1\n"))
        .collect();
    let start = text.find("      machineDeployments:\n").expect("workers");
    let end = text.find("      machinePools:\n").expect("pools");
    format!(
        "{}      machineDeployments:\n{mds}{}",
        &text[..start],
        &text[end..]
    )
}

/// The quick-start example under `in/`: one Cluster with `mds` MachineDeployments whose worker
/// machine template carries `mounts` extra mounts (about 110 bytes each).
fn expanding(h: Hostile, mds: usize, mounts: usize) -> Hostile {
    example(h, "quick-start", "in", &|file, text| match file {
        "cluster.yaml" => many_machine_deployments(text, mds),
        "templates.yaml" => {
            let extra: String = (0..mounts)
                .map(|i| {
                    format!(
                        "      - containerPath: /data/volume-{i:04}/with/a/rather/long/path\n        \
                         hostPath: /mnt/host/volume-{i:04}/with/a/long/path\n"
                    )
                })
                .collect();
            text.replacen(
                "    spec:\n      customImage: kindest/node:v1.34.1\n---",
                &format!(
                    "    spec:\n      customImage: kindest/node:v1.34.1\n      extraMounts:\n{extra}---"
                ),
                1,
            )
        }
        _ => text,
    })
}

// ---------------------------------------------------------------------------------------------
// What a plan generates

/// The issue's case: one Cluster of 2,000 MachineDeployments over a 15 KB worker template
/// (130 KB of input) asks for 60 MB of objects; it took 5.6 GB and 16 s. Refused by the
/// per-Cluster byte bound at the MachineDeployment that passes it, before the rest is built.
#[test]
fn topology_expansion_is_bounded_per_cluster() {
    let r = expanding(Hostile::new(), 2_000, 130)
        .args(["plan", "-f", "in"])
        .timeout(Duration::from_secs(30))
        .run();
    r.within(20.0, 400);
    let err = r.refused(
        "Cluster team-a/dev: its plan generates more than 33554432 bytes of objects \
         (--max-cluster-bytes)",
    );
    assert!(err.contains("topoplan::plan::limit"), "{}", head(err));
    assert!(err.contains("in/cluster.yaml:"), "{}", head(err));
}

/// The object bound, lowered by its flag: the 101st object is the 24th MachineDeployment's
/// (six for the Cluster and control plane, four per MachineDeployment), located at its entry.
#[test]
fn topology_expansion_object_bound_names_the_machine_deployment() {
    let r = expanding(Hostile::new(), 40, 0)
        .args(["plan", "-f", "in", "--max-cluster-objects", "100"])
        .run();
    r.within(10.0, 300);
    let err = r.refused(
        "Cluster team-a/dev: its plan generates more than 100 objects (--max-cluster-objects)",
    );
    // md-23's entry: line 28 starts the list, three lines per entry.
    assert!(
        err.contains(&format!("in/cluster.yaml:{}:", 29 + 23 * 3)),
        "{}",
        head(err)
    );
}

/// The bound is charged as the desired state is computed, so what a refusal costs follows the
/// bound, not the input's product: templates four times larger pass the same bound at a
/// quarter of the MachineDeployments and cost about the same (charged only after the whole
/// topology was built, they cost four times as much).
#[test]
fn topology_expansion_refusal_costs_the_bound_not_the_product() {
    let run = |mounts: usize| {
        let r = expanding(Hostile::new(), 2_000, mounts)
            .args(["plan", "-f", "in", "--max-cluster-bytes", "8Mi"])
            .timeout(Duration::from_secs(60))
            .run();
        r.refused(
            "Cluster team-a/dev: its plan generates more than 8388608 bytes of objects \
             (--max-cluster-bytes)",
        );
        r
    };
    let small = run(130);
    let large = run(520);
    // Where each stopped: the larger templates pass the bound about four times sooner.
    let stopped = |r: &Bounded| {
        let err = &r.stderr;
        let at = err
            .find("name: md-")
            .expect("the MachineDeployment's entry");
        err[at + 9..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse::<usize>().ok())
            .expect("its index")
    };
    let (s, l) = (stopped(&small), stopped(&large));
    assert!(s > 3 * l && l > 0, "stopped at md-{s} and md-{l}");
    assert!(
        large.peak_rss_kib * 2 < small.peak_rss_kib * 3,
        "four times the product cost {} KiB against {} KiB",
        large.peak_rss_kib,
        small.peak_rss_kib
    );
}

/// The accepted case holds its templates once: while patches run, each template's spec is
/// moved between the desired object and the request item rather than copied (it was held
/// twice, and the class's patches nearly doubled the plan's peak). Measured against the same
/// topology planned without patches; a copy of every template is about 0.8 of that.
#[test]
fn topology_expansion_patches_do_not_copy_every_template() {
    let run = |patches: bool| {
        let h = expanding(Hostile::new(), 2_000, 130);
        let h = if patches {
            h
        } else {
            let class =
                std::fs::read_to_string(h.path().join("in/clusterclass.yaml")).expect("class");
            let cut = class.find("  patches:\n").expect("the class has patches");
            h.file("in/clusterclass.yaml", &class[..cut])
        };
        let r = h
            .args(["plan", "-f", "in", "--max-cluster-bytes", "1Gi"])
            .timeout(Duration::from_secs(90))
            .run();
        assert_eq!(r.code, 0, "{}", head(&r.stderr));
        r
    };
    let without = run(false);
    let with = run(true);
    assert!(
        with.peak_rss_kib * 4 < without.peak_rss_kib * 6,
        "with patches {} KiB, without {} KiB",
        with.peak_rss_kib,
        without.peak_rss_kib
    );
}

/// The run-wide bounds count every Cluster: ten Clusters of 16 objects pass 100 objects in
/// all at the seventh, whichever thread planned which first.
#[test]
fn generated_objects_are_bounded_per_run() {
    let r = example(Hostile::new(), "quick-start", "in", &|file, text| {
        if file != "cluster.yaml" {
            return text;
        }
        (0..10)
            .map(|i| text.replacen("name: dev\n", &format!("name: dev-{i}\n"), 1))
            .collect::<Vec<_>>()
            .join("---\n")
    })
    .args(["plan", "-f", "in", "--max-generated-objects", "100"])
    .run();
    r.within(10.0, 300);
    let err = r.refused("the run generates more than 100 objects in all (--max-generated-objects)");
    // Named and located at the Cluster whose objects passed the bound.
    assert!(err.contains("topoplan::plan::limit"), "{}", head(err));
    assert!(err.contains("× Cluster team-a/dev-"), "{}", head(err));
    assert!(err.contains("in/cluster.yaml:"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// YAML nodes of a whole run

/// Twenty documents of 100,000 items each, every one under the per-document bound: the
/// run-wide bound stops the run once all of them together pass it, located in a document.
#[test]
fn yaml_nodes_are_bounded_per_run() {
    let items = "[".to_string() + &"1,".repeat(100_000) + "1]";
    let mut h = Hostile::new();
    for i in 0..20 {
        h = h.file(
            &format!("in/cm-{i:02}.yaml"),
            format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\ndata: {items}\n"),
        );
    }
    let r = h
        .args(["plan", "-f", "in", "--max-yaml-nodes", "500000"])
        .run();
    r.within(10.0, 400);
    let err = r.refused(
        "input too large: the inputs of this run hold more than 500000 YAML nodes \
         (--max-yaml-nodes)",
    );
    assert!(err.contains("topoplan::input::limit"), "{}", head(err));
    assert!(err.contains("in/cm-"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// Runtime SDK answers

/// A minimal HTTP/1.1 extension on 127.0.0.1 answering Discovery with `discovery` (raw bytes)
/// and nothing else. Returns its base URL.
fn discovery_extension(discovery: std::sync::Arc<Vec<u8>>) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            let body = std::sync::Arc::clone(&discovery);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                let mut length = 0usize;
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                    let l = line.trim_end().to_ascii_lowercase();
                    if let Some(v) = l.strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    if l.is_empty() {
                        break;
                    }
                    line.clear();
                }
                let mut request = vec![0; length];
                let _ = reader.read_exact(&mut request);
                let mut stream = reader.into_inner();
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(&body);
            });
        }
    });
    url
}

/// A Discovery answer of `n` empty handlers.
fn empty_handlers(n: usize) -> Vec<u8> {
    let mut body = br#"{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryResponse","status":"Success","handlers":["#.to_vec();
    for i in 0..n {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(b"{}");
    }
    body.extend_from_slice(b"]}");
    body
}

/// 60 MiB of `{}` handlers, within the 64 MiB response bound: decoded whole it took 8.5 GB.
/// Refused at the first handler past the bound on handlers, while the answer is decoded.
#[test]
fn discovery_of_millions_of_handlers_is_bounded() {
    let url = discovery_extension(std::sync::Arc::new(empty_handlers(20_000_000)));
    let r = runtime_sdk_example(Hostile::new())
        .args(["plan", "-f", "ex", "--extension"])
        .args([format!("test-extension={url}")])
        .timeout(Duration::from_secs(30))
        .run();
    r.within(20.0, 500);
    let err = r.refused("handlers: more than 1000 items, the most topoplan accepts");
    assert!(err.contains("topoplan::extension::call"), "{}", head(err));
    assert!(err.contains("ex/clusterclass.yaml:64:33"), "{}", head(err));
}

/// Keys no field has are skipped, not built: one unknown key holding 60 MiB of `{}` is read
/// within a few times its size, and the bound on the values of one answer is not reached by
/// what is never built.
#[test]
fn unknown_keys_of_an_answer_are_not_built() {
    let mut body = br#"{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryResponse","status":"Success","junk":["#.to_vec();
    for i in 0..20_000_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(b"{}");
    }
    body.extend_from_slice(b"]}");
    let url = discovery_extension(std::sync::Arc::new(body));
    let r = runtime_sdk_example(Hostile::new())
        .args(["plan", "-f", "ex", "--extension"])
        .args([format!("test-extension={url}")])
        .timeout(Duration::from_secs(30))
        .run();
    r.within(20.0, 500);
    // The answer decodes (to no handlers): the class's handlers are then unknown.
    r.refused("discover-variables.test-extension");
}

/// A recorded DiscoverVariablesResponse in the input stands in for every class's discovery:
/// validated once per run, not once per class. Eight classes sharing one response of 5,000
/// variables take less than three times what one class takes (it was eight times as long).
#[test]
fn recorded_discovered_variables_are_read_once_per_run() {
    let vars: Vec<String> = (0..5_000)
        .map(|i| {
            format!(
                r#"{{"name":"v{i}","required":false,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"a":{{"type":"string","maxLength":10}},"b":{{"type":"integer","minimum":1}}}}}}}}}}"#
            )
        })
        .collect();
    let response = format!(
        r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoverVariablesResponse","status":"Success","variables":[{}]}}"#,
        vars.join(",")
    );
    let classes = |n: usize| {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/examples/runtime-sdk/clusterclass.yaml");
        let text = std::fs::read_to_string(base).expect("class");
        (0..n)
            .map(|i| {
                if i == 0 {
                    text.clone()
                } else {
                    text.replacen("  name: ", &format!("  name: c{i}-"), 1)
                }
            })
            .collect::<Vec<_>>()
            .join("\n---\n")
    };
    let run = |n: usize| {
        let r = runtime_sdk_example(Hostile::new())
            .file("ex/clusterclass.yaml", classes(n))
            .file("ex/response.json", &response)
            .args(["validate", "-f", "ex"])
            .timeout(Duration::from_secs(60))
            .run();
        r.within(60.0, 600);
        r.refused("variable is not defined");
        r.cpu
    };
    let one = run(1);
    let eight = run(8);
    assert!(
        eight < one * 3,
        "8 classes took {eight:?}, 1 class {one:?}: the response is read per class"
    );
}

/// Classes sharing one recorded DiscoverVariablesResponse share its definitions: each class's
/// `status.variables` held its own copy of every discovered schema (8 classes of 20,000
/// variables took twice what 2 classes took). Eight classes now cost little more than two.
#[test]
fn recorded_discovered_variables_are_shared_between_classes() {
    let vars: Vec<String> = (0..20_000)
        .map(|i| {
            format!(
                r#"{{"name":"v{i}","required":false,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"a":{{"type":"string","maxLength":10}},"b":{{"type":"integer","minimum":1}}}}}}}}}}"#
            )
        })
        .collect();
    let response = format!(
        r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoverVariablesResponse","status":"Success","variables":[{}]}}"#,
        vars.join(",")
    );
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/examples/runtime-sdk/clusterclass.yaml");
    let text = std::fs::read_to_string(base).expect("class");
    let run = |n: usize| {
        let classes = (0..n)
            .map(|i| match i {
                0 => text.clone(),
                _ => text.replacen("  name: ", &format!("  name: c{i}-"), 1),
            })
            .collect::<Vec<_>>()
            .join("\n---\n");
        let r = runtime_sdk_example(Hostile::new())
            .file("ex/clusterclass.yaml", classes)
            .file("ex/response.json", &response)
            .args(["validate", "-f", "ex"])
            .timeout(Duration::from_secs(90))
            .run();
        r.refused("variable is not defined");
        r.peak_rss_kib
    };
    let two = run(2);
    let eight = run(8);
    assert!(
        eight * 4 < two * 5,
        "8 classes peaked at {eight} KiB, 2 classes at {two} KiB: definitions copied per class"
    );
}

/// More variables than an answer may hold (in a recorded response of the input): the class's
/// discovery fails with the bound, as an answer's would.
#[test]
fn recorded_discovered_variables_are_bounded() {
    let vars: Vec<String> = (0..50_001)
        .map(|i| format!(r#"{{"name":"v{i}","schema":{{"openAPIV3Schema":{{}}}}}}"#))
        .collect();
    let response = format!(
        r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoverVariablesResponse","status":"Success","variables":[{}]}}"#,
        vars.join(",")
    );
    let r = runtime_sdk_example(Hostile::new())
        .file("ex/response.json", response)
        .args(["validate", "-f", "ex"])
        .timeout(Duration::from_secs(30))
        .run();
    r.within(20.0, 500);
    assert!(
        r.stderr
            .contains("returned 50001 variables, more than 50000, the most topoplan accepts"),
        "{}",
        head(&r.stderr)
    );
    // Cluster API's webhook lets the Cluster through with a warning: its class is not
    // reconciled, so its variables are not checked.
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
    assert!(
        r.stderr.contains("topoplan::variables::discovery"),
        "{}",
        head(&r.stderr)
    );
    assert!(
        r.stderr.contains("ex/clusterclass.yaml:66:35"),
        "{}",
        head(&r.stderr)
    );
}

/// A committed recording replayed with `--replay-extensions` (the CI path) goes through the
/// same decoding as a live answer: its Discovery answer edited to 8 MiB of `{}` handlers is
/// refused at the bound (it took 5.4 GB).
#[test]
fn replayed_recording_is_bounded_like_a_live_answer() {
    use crate::extension_server::ExtensionServer;
    let server = ExtensionServer::http();
    let ext = format!("test-extension={}", server.url);
    let recorded = runtime_sdk_example(Hostile::new())
        .args(["plan", "-f", "ex", "--extension", &ext])
        .args(["--record-extensions", "rec"])
        .run();
    assert_eq!(recorded.code, 0, "{}", head(&recorded.stderr));
    let rec = recorded.dir.path().join("rec");
    let mut edited = 0;
    for e in std::fs::read_dir(&rec).expect("recording") {
        let p = e.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("call file");
        if !text.contains("\"hook\": \"Discovery\"") {
            continue;
        }
        let handlers = String::from_utf8(empty_handlers(2_800_000)).expect("utf-8");
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                if l.starts_with("  \"response\": ") {
                    format!("  \"response\": {handlers}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        std::fs::write(&p, lines.join("\n") + "\n").expect("edit");
        edited += 1;
    }
    assert!(edited >= 1, "a Discovery call file");
    let mut h = runtime_sdk_example(Hostile::new());
    for e in std::fs::read_dir(&rec).expect("recording") {
        let p = e.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        h = h.file(&format!("rec/{name}"), std::fs::read(&p).expect("read"));
    }
    let r = h
        .args(["plan", "-f", "ex", "--replay-extensions", "rec"])
        .timeout(Duration::from_secs(30))
        .run();
    r.within(20.0, 500);
    let err = r.refused("handlers: more than 1000 items, the most topoplan accepts");
    assert!(err.contains("topoplan::extension::call"), "{}", head(err));
    assert!(err.contains("ex/clusterclass.yaml:64:33"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// CEL cost of a whole run

/// Thirty Clusters whose variable is checked by a rule of quadratic cost: each evaluation
/// stays within Kubernetes' limits, all of them together pass the run's budget, which stops
/// the run with a located error naming the flag. The list is a property: a rule at the root of
/// an array variable is one Cluster API cannot type.
#[test]
fn cel_cost_is_bounded_per_run() {
    let items: Vec<String> = (0..60).map(|i| format!("\"i{i}\"")).collect();
    let r = example(Hostile::new(), "quick-start", "in", &|file, text| match file {
        "clusterclass.yaml" => text.replacen(
            "  - name: imageRepository\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: string\n        default: registry.k8s.io\n",
            "  - name: imageRepository\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: string\n        default: registry.k8s.io\n  - name: list\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          l:\n            type: array\n            maxItems: 100\n            items: {type: string, maxLength: 10}\n            x-kubernetes-validations:\n            - rule: self.all(x, self.all(y, x != y || x == y))\n",
            1,
        ),
        "cluster.yaml" => (0..30)
            .map(|i| {
                text.replacen("name: dev\n", &format!("name: dev-{i}\n"), 1)
                    .replacen(
                        "    variables:\n",
                        &format!(
                            "    variables:\n    - name: list\n      value: {{l: [{}, \"c{i}\"]}}\n",
                            items.join(", ")
                        ),
                        1,
                    )
            })
            .collect::<Vec<_>>()
            .join("---\n"),
        _ => text,
    })
    .args(["plan", "-f", "in", "--max-cel-cost", "100000"])
    .run();
    r.within(10.0, 300);
    let err = r.refused(
        "the CEL rules of this run have used up their cost budget of 100000 (--max-cel-cost)",
    );
    assert!(err.contains("in/cluster.yaml:"), "{}", head(err));
    assert!(
        err.contains("topoplan::admission::invalid"),
        "{}",
        head(err)
    );
}

// ---------------------------------------------------------------------------------------------
// --current at fleet scale

/// One Cluster of 2,000 MachinePools planned against its own output and a workload cluster's
/// Nodes in `--current`: every MachinePool was given a copy of the list of all Nodes and
/// scanned it for each of its `status.nodeRefs` (20,000 Nodes took 240 MB more than 5,000).
/// Nodes are indexed by name once; four times the Nodes cost little more.
#[test]
fn current_nodes_are_indexed() {
    let pools: String = (0..2_000)
        .map(|i| format!("      - class: pool\n        name: mp-{i}\n        replicas: 1\n"))
        .collect();
    let input = |h: Hostile| {
        example(h, "quick-start", "in", &|file, text| {
            if file != "cluster.yaml" {
                return text;
            }
            let start = text.find("      machinePools:\n").expect("pools");
            let end = text.find("    variables:\n").expect("variables");
            format!(
                "{}      machinePools:\n{pools}{}",
                &text[..start],
                &text[end..]
            )
        })
    };
    let setup = input(Hostile::new())
        .args(["plan", "-f", "in", "--output-dir", "cur"])
        .timeout(Duration::from_secs(120))
        .run();
    assert_eq!(setup.code, 0, "{}", head(&setup.stderr));
    let cur = setup.dir.path().join("cur");
    let run = |n: usize| {
        let nodes: String = (0..n)
            .map(|i| format!("{{apiVersion: v1, kind: Node, metadata: {{name: node-{i}}}}}\n---\n"))
            .collect();
        let r = input(Hostile::new())
            .file("nodes/nodes.yaml", nodes)
            .args(["plan", "-f", "in", "--current"])
            .args([cur.to_string_lossy().into_owned()])
            .args(["--current", "nodes"])
            .timeout(Duration::from_secs(120))
            .run();
        assert_eq!(r.code, 0, "{}", head(&r.stderr));
        r.peak_rss_kib
    };
    let few = run(5_000);
    let many = run(20_000);
    assert!(
        many * 10 < few * 13,
        "20,000 Nodes peaked at {many} KiB, 5,000 at {few} KiB: Nodes copied per MachinePool"
    );
}

/// One Cluster of 2,000 MachineDeployments over 10,000 Machines in `--current`: each
/// MachineDeployment's Machines were found by scanning all of the Cluster's (23–26 s). The
/// current state is the plan's own output, with five Machines per MachineDeployment added;
/// planned against it, nothing changes.
#[test]
fn current_machines_are_indexed() {
    let setup = expanding(Hostile::new(), 2_000, 0)
        .args(["plan", "-f", "in", "--output-dir", "cur"])
        .timeout(Duration::from_secs(120))
        .run();
    assert_eq!(setup.code, 0, "{}", head(&setup.stderr));
    let cur = setup.dir.path().join("cur");
    // The generated MachineDeployment names, by topology name (md-<i>).
    let created = cur.join("team-a/dev/created");
    let mut names = std::collections::HashMap::new();
    for e in std::fs::read_dir(&created).expect("created") {
        let p = e.expect("entry").path();
        let file = p.file_name().expect("name").to_string_lossy().into_owned();
        let Some(name) = file
            .strip_prefix("MachineDeployment_team-a_")
            .and_then(|f| f.strip_suffix(".yaml"))
        else {
            continue;
        };
        let text = std::fs::read_to_string(&p).expect("read");
        let topology = text
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("topology.cluster.x-k8s.io/deployment-name: ")
            })
            .expect("topology name")
            .to_string();
        names.insert(topology, name.to_string());
    }
    assert_eq!(names.len(), 2_000, "generated MachineDeployments");
    let mut machines = String::new();
    for i in 0..2_000 {
        let md = &names[&format!("md-{i}")];
        for m in 0..5 {
            machines.push_str(&format!(
                "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Machine\nmetadata:\n  name: {md}-m{m}\n  namespace: team-a\n  labels:\n    cluster.x-k8s.io/cluster-name: dev\n    cluster.x-k8s.io/deployment-name: {md}\nspec:\n  clusterName: dev\n  version: v1.34.1\n---\n"
            ));
        }
    }
    let r = expanding(Hostile::new(), 2_000, 0)
        .file("machines/machines.yaml", machines)
        .args(["plan", "-f", "in", "--current"])
        .args([cur.to_string_lossy().into_owned()])
        .args(["--current", "machines"])
        .timeout(Duration::from_secs(60))
        .run();
    r.within(45.0, 900);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
}

// ---------------------------------------------------------------------------------------------
// extension check's deadline

/// An extension answering every hook in a second: the default 20 calls per handler and the
/// repeated requests of the other checks would take minutes. With `--deadline 3` the run stops
/// within a call of it, reports the checks it ran and those it did not, and fails.
#[test]
fn extension_check_stops_at_its_deadline() {
    use crate::extension_server::{ExtensionServer, Mode};
    let server = ExtensionServer::http();
    server.set_mode(Mode::Delay(Duration::from_secs(1)));
    let r = runtime_sdk_example(Hostile::new())
        .args(["extension", "check", "-f", "ex", "--extension"])
        .args([format!("test-extension={}", server.url)])
        .args(["--deadline", "3", "-o", "json"])
        .timeout(Duration::from_secs(30))
        .run();
    // Waiting for the extension costs no CPU time: the deadline is on the wall clock.
    r.within_wall(12.0, 300);
    assert_eq!(r.code, 1, "{}", head(&r.stderr));
    assert!(
        r.stderr
            .contains("extension check stopped at its run deadline of 3 s after"),
        "{}",
        head(&r.stderr)
    );
    assert!(r.stderr.contains("not run: "), "{}", head(&r.stderr));
    let doc: serde_json::Value = serde_json::from_str(&r.stdout).expect("report");
    let skipped = doc["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| {
            c["message"]
                .as_str()
                .is_some_and(|m| m.contains("the run deadline of 3 s (--deadline) was reached"))
        })
        .count();
    assert!(skipped >= 1, "{}", head(&r.stdout));
}
