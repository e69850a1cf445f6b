//! Hostile inputs: resources. Inputs small on disk that would make a run take minutes or
//! gigabytes: each must be refused (or finish) within seconds and well under 1 GiB.

#[allow(unused_imports)]
use crate::harness::*;

// ---------------------------------------------------------------------------------------------
// envsubst (`--substitute`)

/// 100,000 `${BIG}` of a 100 KB value is 10 GB of text: refused at the expression where the
/// substituted text passes the input cap, before any of it is built.
#[test]
fn envsubst_expansion_is_capped() {
    let template = format!("a: \"{}\"\n", "${BIG}".repeat(100_000));
    let r = Hostile::new()
        .file("big.env", format!("BIG={}\n", "x".repeat(100_000)))
        .file("t.yaml", template)
        .args([
            "plan",
            "--substitute",
            "--env-file",
            "big.env",
            "-f",
            "t.yaml",
        ])
        .run();
    r.within(2.0, 300);
    let err =
        r.refused("cannot substitute variables: the substituted text would exceed 268435456 bytes");
    // 2,684 values of 100,000 bytes fit; the next one, at column 5 + 2,684 × 6, does not.
    assert!(err.contains("t.yaml:1:16109"), "{}", head(err));
}

/// What substitution adds counts against `--max-input-bytes` for all files together: eight
/// files of 70 bytes (560 read) that each grow by 294 pass a 2,000-byte budget at the fifth
/// (560 + 5 × 294 = 2,030), whichever thread substituted which file first, and the message
/// always names that fifth file, alone.
#[test]
fn envsubst_growth_of_all_files_is_charged_to_the_input_budget() {
    let mut h = Hostile::new().env("BIG", &"x".repeat(300));
    for i in 0..8 {
        h = h.file(
            &format!("in/f{i}.yaml"),
            format!(
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\ndata:\n  k: ${{BIG}}\n"
            ),
        );
    }
    let r = h
        .args([
            "plan",
            "--substitute",
            "--env",
            "BIG",
            "--max-input-bytes",
            "2000",
            "-f",
            "in",
        ])
        .run();
    r.within(2.0, 300);
    let err = r.refused("input too large: in/f4.yaml exceeds the 2000-byte limit on input");
    assert_eq!(err.matches(" × ").count(), 1, "{}", head(err));
}

/// 20,000 unset variables on one line: each located occurrence used to render the whole line.
#[test]
fn envsubst_many_unset_variables_on_one_line() {
    let line: String = (0..20_000).map(|i| format!("${{V{i}}}")).collect();
    let r = Hostile::new()
        .file("t.yaml", format!("a: \"{line}\"\n"))
        .args(["plan", "--substitute", "-f", "t.yaml"])
        .run();
    r.within(2.0, 300);
    let err = r.refused("value for variables [V0, V1, V10, V100, V1000, V10000,");
    assert!(
        err.contains(", … and 19900 more] is not set"),
        "{}",
        head(err)
    );
    // Twenty uses are located; the others are counted.
    assert!(err.contains("… and 19980 more"), "{}", head(err));
}

/// 40,000 unset variables, one per line: the report used to take over a minute.
#[test]
fn envsubst_many_unset_variables_on_many_lines() {
    let text: String = (0..40_000).map(|i| format!("a{i}: ${{V{i}}}\n")).collect();
    let r = Hostile::new()
        .file("t.yaml", text)
        .args(["plan", "--substitute", "-f", "t.yaml"])
        .run();
    r.within(2.0, 300);
    let err = r.refused("… and 39980 more");
    assert!(err.contains("t.yaml:20:6"), "{}", head(err));
    assert!(
        !err.contains("t.yaml:21:"),
        "only 20 occurrences are located"
    );
}

// ---------------------------------------------------------------------------------------------
// Extension responses

/// How a hostile extension answers every hook but Discovery.
#[derive(Clone, Copy)]
enum Answer {
    /// 200 with a chunked body that never ends.
    EndlessChunked,
    /// 200 announcing (in Content-Length) a body of this many bytes, then sending none.
    ContentLength(u64),
}

/// A minimal HTTP/1.1 extension on 127.0.0.1 that answers Discovery honestly and every other
/// hook with `answer`; one request per connection. Returns its base URL.
fn hostile_extension(answer: Answer) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { return };
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                let mut target = String::new();
                let mut length = 0usize;
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
                    if target.is_empty() {
                        target = line.clone();
                    }
                    let l = line.trim_end().to_ascii_lowercase();
                    if let Some(v) = l.strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                    if l.is_empty() {
                        break;
                    }
                    line.clear();
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                let mut stream = reader.into_inner();
                if target.contains("/discovery") {
                    let handlers: Vec<String> =
                        ["DiscoverVariables", "GeneratePatches", "ValidateTopology"]
                            .iter()
                            .map(|hook| {
                                format!(
                                    r#"{{"name":"{}","requestHook":{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","hook":"{hook}"}}}}"#,
                                    match *hook {
                                        "DiscoverVariables" => "discover-variables",
                                        "GeneratePatches" => "generate-patches",
                                        _ => "validate-topology",
                                    }
                                )
                            })
                            .collect();
                    let body = format!(
                        r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoveryResponse","status":"Success","handlers":[{}]}}"#,
                        handlers.join(",")
                    );
                    let _ = write!(
                        stream,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    return;
                }
                match answer {
                    Answer::EndlessChunked => {
                        let _ = stream.write_all(
                            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
                        );
                        let mut chunk = format!("{:x}\r\n", 1 << 16).into_bytes();
                        chunk.extend(std::iter::repeat_n(b' ', 1 << 16));
                        chunk.extend_from_slice(b"\r\n");
                        // Until the client hangs up.
                        while stream.write_all(&chunk).is_ok() {}
                    }
                    Answer::ContentLength(n) => {
                        let _ = write!(
                            stream,
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n"
                        );
                        // Hold the connection open: a client waiting for the body would hang.
                        std::thread::sleep(std::time::Duration::from_secs(30));
                    }
                }
            });
        }
    });
    url
}

/// An extension streaming an endless chunked body (no Content-Length) is cut off at the
/// default 64 MiB while reading, not read until the 10 s deadline or memory runs out.
#[test]
fn extension_endless_chunked_body_is_capped() {
    let url = hostile_extension(Answer::EndlessChunked);
    let r = runtime_sdk_example(Hostile::new())
        .args([
            "plan",
            "-f",
            "ex",
            "--extension",
            &format!("test-extension={url}"),
        ])
        .run();
    r.within(2.0, 500);
    r.refused(
        "failed to call extension handler \"discover-variables.test-extension\": http call \
         failed: the DiscoverVariables response body exceeds the limit of 67108864 bytes \
         (--max-extension-response-bytes)",
    );
}

/// A Content-Length above the limit is refused before any of the body is read (the server
/// never sends it). `validate` reports failed variable discovery as a warning, as Cluster API
/// reports it in the ClusterClass' status.
#[test]
fn extension_content_length_over_the_limit_is_refused_early() {
    let url = hostile_extension(Answer::ContentLength(1 << 40));
    let r = runtime_sdk_example(Hostile::new())
        .args([
            "validate",
            "-f",
            "ex",
            "--extension",
            &format!("test-extension={url}"),
        ])
        .args(["--max-extension-response-bytes", "1000"])
        .run();
    // Waiting for the body costs no CPU time: the bound is on the wall clock.
    r.within_wall(5.0, 300);
    assert!(
        r.stderr.contains(
            "failed to call extension handler \"discover-variables.test-extension\": http call \
             failed: the DiscoverVariables response body exceeds the limit of 1000 bytes"
        ),
        "{}",
        head(&r.stderr)
    );
}

/// The quick-start example under `in/`, its class planning upgrades with the test extension's
/// GenerateUpgradePlan handler and its Cluster two minors ahead, over the stored objects of
/// `testdata/current/base` (control plane stable at v1.34.1) under `cur/`: a plan that calls
/// the extension.
fn upgrade_with_extension(h: Hostile) -> Hostile {
    let h = example(h, "quick-start", "in", &|file, text| {
        match file {
        "clusterclass.yaml" => text.replacen(
            "spec:\n  infrastructure:\n",
            "spec:\n  upgrade:\n    external:\n      generateUpgradePlanExtension: generate-upgrade-plan.test-extension\n  infrastructure:\n",
            1,
        ),
        "cluster.yaml" => text.replacen("version: 1.34.1", "version: 1.36.2", 1),
        _ => text,
    }
    });
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/current");
    ["base", "stable-cp"].iter().fold(h, |h, overlay| {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(overlay))
            .expect("current dir")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        paths.into_iter().fold(h, |h, p| {
            let file = p.file_name().expect("name").to_string_lossy().into_owned();
            h.file(
                &format!("cur/{file}"),
                std::fs::read(&p).expect("read current"),
            )
        })
    })
}

/// An extension answering GenerateUpgradePlan with 700,000 steps (16 MiB, within the response
/// bound; decoded whole they would take hundreds of MiB): refused at the first step over the
/// bound on a plan's length, while the answer is read.
#[test]
fn extension_upgrade_plan_with_millions_of_steps_is_bounded() {
    use crate::extension_server::{ExtensionServer, Hook, Mode};
    let server = ExtensionServer::http();
    let steps = vec![serde_json::json!({"version": "v1.35.0"}); 700_000];
    server.set_hook_mode(
        Hook::GenerateUpgradePlan,
        Mode::Respond(serde_json::json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "GenerateUpgradePlanResponse",
            "status": "Success",
            "controlPlaneUpgrades": steps,
        })),
    );
    let r = upgrade_with_extension(Hostile::new())
        .args(["plan", "-f", "in", "--current", "cur", "--extension"])
        .args([format!("test-extension={}", server.url)])
        .run();
    r.within(5.0, 300);
    let err = r.refused("controlPlaneUpgrades: more than 1024 items, the most topoplan accepts");
    assert!(err.contains("topoplan::extension::call"), "{}", head(err));
    assert!(err.contains("in/clusterclass.yaml:12:37"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// JSON patches that grow

/// The doubling patch: an array, then 40 `copy` operations that append it to itself (2^40
/// times its size, from a ~3 KB patch).
fn doubling_patch(path: &str) -> serde_json::Value {
    let mut ops =
        vec![serde_json::json!({"op": "add", "path": path, "value": ["0123456789abcdef"]})];
    for _ in 0..40 {
        ops.push(serde_json::json!({"op": "copy", "from": path, "path": format!("{path}/-")}));
    }
    serde_json::Value::Array(ops)
}

/// An extension answering GeneratePatches with the doubling patch: refused by the bound on
/// what one patch may insert, naming the extension's handler.
#[test]
fn extension_doubling_json_patch_is_bounded() {
    use crate::extension_server::{ExtensionServer, Hook, Mode};
    let server = ExtensionServer::http();
    let patch = serde_json::to_vec(&doubling_patch("/spec/x")).expect("patch");
    assert!(patch.len() < 3000);
    server.set_hook_mode(
        Hook::GeneratePatches,
        Mode::Respond(serde_json::json!({
            "apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1",
            "kind": "GeneratePatchesResponse",
            "status": "Success",
            "items": [{
                "uid": "InfrastructureCluster/spec.infrastructureRef",
                "patchType": "JSONPatch",
                "patch": topoplan::go::base64::encode(&patch),
            }],
        })),
    );
    let r = runtime_sdk_example(Hostile::new())
        .args(["plan", "-f", "ex", "--extension"])
        .args([format!("test-extension={}", server.url)])
        .run();
    r.within(2.0, 300);
    let err = r.refused(
        "error applying json patch (RFC6902): unable to copy, the accumulated size increase of \
         copy and add in this patch exceeds the limit 16777216",
    );
    assert!(
        err.contains("generate-patches.test-extension"),
        "{}",
        head(err)
    );
}

/// A ClusterClass whose inline patch adds one large variable many times: the values are copied
/// into each operation, so they are bounded while the patch is generated, at the operation.
#[test]
fn inline_patch_values_are_bounded() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/examples/quick-start");
    let class = std::fs::read_to_string(dir.join("clusterclass.yaml")).expect("class");
    let cluster = std::fs::read_to_string(dir.join("cluster.yaml")).expect("cluster");
    let templates = std::fs::read_to_string(dir.join("templates.yaml")).expect("templates");
    // A string variable, and a patch adding it 1,000 times (1 GB at 1 MB).
    let ops: String = (0..1000)
        .map(|i| format!("      - op: add\n        path: /spec/template/spec/x{i}\n        valueFrom:\n          variable: big\n"))
        .collect();
    let class = class
        .replacen(
            "  patches:\n",
            &format!(
                "  patches:\n  - name: big\n    definitions:\n    - selector:\n        \
                 apiVersion: controlplane.cluster.x-k8s.io/v1beta2\n        kind: \
                 KubeadmControlPlaneTemplate\n        matchResources:\n          \
                 controlPlane: true\n      jsonPatches:\n{ops}"
            ),
            1,
        )
        .replacen(
            "  variables:\n",
            "  variables:\n  - name: big\n    required: false\n    schema:\n      \
             openAPIV3Schema:\n        type: string\n",
            1,
        );
    let cluster = cluster.replacen(
        "    variables:\n",
        &format!(
            "    variables:\n    - name: big\n      value: {}\n",
            "x".repeat(1 << 20)
        ),
        1,
    );
    let r = Hostile::new()
        .file("qs/clusterclass.yaml", class)
        .file("qs/cluster.yaml", cluster)
        .file("qs/templates.yaml", templates)
        .args(["plan", "-f", "qs"])
        // Cluster API's CRD caps these item counts; topoplan's own bounds stand behind it.
        .without_crd_limits()
        .run();
    r.within(2.0, 400);
    let err = r.refused(
        "failed to calculate value: the values of this patch's operations for this template add \
         up to more than 16777216 bytes",
    );
    // At the operation that crosses the bound, the 16th.
    assert!(err.contains("qs/clusterclass.yaml:185:9"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// YAML documents of millions of nodes

/// A flow sequence of 1.5 million items is refused while it is read, at the node that passes
/// the per-document bound, exactly as its block form is (here in lines of 1,000 items; the
/// one-line form is the next test). Reading a million nodes takes about 2 s in a debug build
/// (more on a loaded machine), hence the generous time bound; without the bound the input is
/// not refused for its size at all.
#[test]
fn yaml_flow_sequence_of_millions_is_refused_like_block() {
    let line = vec!["1"; 1000].join(",");
    let flow = format!("[{}]\n", vec![line; 1500].join(",\n"));
    let r = Hostile::new()
        .file("flow.yaml", flow)
        .args(["plan", "-f", "flow.yaml"])
        .run();
    r.within(9.0, 450);
    let err = r.refused("document too large: more than 1000000 nodes");
    // Item 1,000,000 is the last of line 1,000.
    assert!(err.contains("flow.yaml:1000:1999"), "{}", head(err));
}

/// The issue's case: one line of 1.5 million items. The error is located at column 2,000,000,
/// which used to panic in the diagnostic renderer (past column 65,535).
#[test]
fn yaml_flow_sequence_on_one_line_is_refused() {
    let flow = format!("[{}]\n", vec!["1"; 1_500_000].join(","));
    let r = Hostile::new()
        .file("flow.yaml", flow)
        .args(["plan", "-f", "flow.yaml"])
        .run();
    r.within(9.0, 450);
    let err = r.refused("document too large: more than 1000000 nodes");
    assert!(err.contains("flow.yaml:1:2000000"), "{}", head(err));
}

/// The block form, for comparison: the same bound, at the same node.
#[test]
fn yaml_block_sequence_of_millions_is_refused() {
    let block: String = "- 1\n".repeat(1_500_000);
    let r = Hostile::new()
        .file("block.yaml", block)
        .args(["plan", "-f", "block.yaml"])
        .run();
    r.within(9.0, 450);
    let err = r.refused("document too large: more than 1000000 nodes");
    assert!(err.contains("block.yaml:1000000:3"), "{}", head(err));
}

// ---------------------------------------------------------------------------------------------
// Quadratic paths

/// A variable whose schema has an enum of 100,000 entries: each entry used to be checked
/// against all the others.
#[test]
fn large_enum_is_linear() {
    let entries: Vec<String> = (0..100_000).map(|i| format!("\"v{i}\"")).collect();
    let variable = format!(
        "  variables:\n  - name: big\n    required: false\n    schema:\n      openAPIV3Schema:\n        \
         type: string\n        enum: [{}]\n",
        entries.join(",")
    );
    let r = example(Hostile::new(), "quick-start", "qs", &|file, text| {
        if file == "clusterclass.yaml" {
            text.replacen("  variables:\n", &variable, 1)
        } else {
            text
        }
    })
    .args(["plan", "-f", "qs"])
    // Cluster API's CRD caps these item counts; topoplan's own bounds stand behind it.
    .without_crd_limits()
    .run();
    r.within(2.0, 300);
    assert_eq!(r.code, 0, "{}", head(&r.stderr));
}

/// How much longer a run on 4N items takes than on N, each the faster of two runs (noise from
/// a busy machine only ever adds time). Linear work gives about 4 (less, with the fixed cost
/// of a run); quadratic work up to 16. Times are CPU times: wall-clock ones failed whenever the
/// machine was loaded.
fn growth(run: &dyn Fn(usize) -> Bounded, n: usize) -> f64 {
    let best = |n: usize| {
        (0..2)
            .map(|_| {
                let r = run(n);
                assert!(!r.timed_out && r.signal.is_none(), "{}", head(&r.stderr));
                r.cpu.as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (small, large) = (best(n), best(4 * n));
    eprintln!("N={n}: {small:.2} s, 4N: {large:.2} s of CPU time");
    large / small
}

/// An object in `--current` whose managedFields give two other managers and capi-topology
/// N labels each: merging the records and looking one up in another used to be quadratic
/// (48 s at 30,000 in a debug build). 4N takes well under 16 times N.
#[test]
fn many_managed_fields_are_linear() {
    let run = |n: usize| {
        let entry = |manager: &str, operation: &str, from: usize| {
            let labels: Vec<String> = (from..from + n)
                .map(|i| format!("\"f:l{i}\": {{}}"))
                .collect();
            format!(
                "  - {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, fieldsType: FieldsV1, \
                 manager: {manager}, operation: {operation}, fieldsV1: {{f:metadata: {{f:labels: \
                 {{{}}}}}}}}}\n",
                labels.join(", ")
            )
        };
        let entries = [
            entry("m0", "Update", 0),
            entry("m1", "Update", n),
            entry("capi-topology", "Apply", 2 * n),
        ]
        .concat();
        let h = example(Hostile::new(), "quick-start", "in", &|_, text| text);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/current/base");
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("base dir")
            .map(|e| e.expect("entry").path())
            .collect();
        paths.sort();
        let h = paths.into_iter().fold(h, |h, p| {
            let file = p.file_name().expect("name").to_string_lossy().into_owned();
            let mut text = std::fs::read_to_string(&p).expect("read base");
            if file == "DockerMachineTemplate_team-a_dev-md-1-b2vrj.yaml" {
                text = text.replacen(
                    "metadata:\n",
                    &format!("metadata:\n  managedFields:\n{entries}"),
                    1,
                );
            }
            h.file(&format!("cur/{file}"), text)
        });
        let r = h
            .args(["plan", "-f", "in", "--current", "cur"])
            .timeout(std::time::Duration::from_secs(120))
            .run();
        r.within(120.0, 600);
        assert_eq!(r.code, 0, "{}", head(&r.stderr));
        assert!(r.stdout.contains("1 to modify"), "{}", head(&r.stdout));
        r
    };
    // Linear work measured 3.4 to 3.8 times N (0.16 s against 0.61 s); the old merge (48 s at
    // 30,000) would take 1.3 s at N and 21 s at 4N.
    let g = growth(&run, 5_000);
    assert!(g < 6.0, "4N took {g:.1} times N: not linear");
}

/// A recorded DiscoverVariablesResponse of N variables: each used to be looked up among
/// those added before it (quadratic; 14 s for 100,000). 4N takes well under 16 times N.
#[test]
fn many_discovered_variables_are_linear() {
    let run = |n: usize| {
        let vars: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"name":"v{i}","required":false,"schema":{{"openAPIV3Schema":{{"type":"string"}}}}}}"#
                )
            })
            .collect();
        let response = format!(
            r#"{{"apiVersion":"hooks.runtime.cluster.x-k8s.io/v1alpha1","kind":"DiscoverVariablesResponse","status":"Success","variables":[{}]}}"#,
            vars.join(",")
        );
        let r = runtime_sdk_example(Hostile::new())
            .file("ex/response.json", response)
            .args(["validate", "-f", "ex"])
            .timeout(std::time::Duration::from_secs(120))
            .run();
        r.within(120.0, 800);
        // The example's Cluster sets variables this response does not define.
        r.refused("variable is not defined");
        r
    };
    // 4N stays under the 50,000 variables one answer may hold. Linear work measured 3.9 times
    // N (0.66 s against 2.60 s in a debug build); the old lookup (14 s at 100,000) would add
    // 0.2 s to N and 3.5 s to 4N: about 7 times.
    let g = growth(&run, 12_500);
    assert!(g < 5.5, "4N took {g:.1} times N: not linear");
}

/// An `--env-file` of 40,000 malformed lines: every line used to be reported with a snippet,
/// which took minutes to render.
#[test]
fn env_file_many_malformed_lines() {
    let text: String = (0..40_000).map(|i| format!("bad line {i}\n")).collect();
    let r = Hostile::new()
        .file("bad.env", text)
        .file("t.yaml", "a: b\n")
        .args([
            "plan",
            "--substitute",
            "--env-file",
            "bad.env",
            "-f",
            "t.yaml",
        ])
        .run();
    r.within(2.0, 300);
    // The first line is the error, twenty more are located, the rest counted.
    let err = r.refused("… and 39979 more");
    assert!(err.contains("bad.env:21:1"), "{}", head(err));
    assert!(!err.contains("bad.env:22:"), "{}", head(err));
}

/// The documented figure for YAML nesting as written (docs/reference/limits.md).
fn documented_nesting_limit() -> usize {
    let limits = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference/limits.md"),
    )
    .expect("docs/reference/limits.md");
    let row = limits
        .lines()
        .find(|l| l.starts_with("| YAML: nodes per document;"))
        .expect("the YAML row of the Limits table");
    let defaults = row.split('|').nth(2).expect("the default column");
    defaults
        .split(';')
        .nth(1)
        .and_then(|n| n.trim().replace(',', "").parse().ok())
        .expect("a nesting figure")
}

#[test]
fn yaml_nesting_is_refused_where_the_limits_page_says() {
    // The Limits table once said 512 while the parser stopped at 255.
    let limit = documented_nesting_limit();
    let flow = |n: usize| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nx: {}1{}\n",
            "[".repeat(n),
            "]".repeat(n)
        )
    };
    // Block mappings: the document's own is the first level.
    let block = |n: usize| {
        let mut s = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n".to_string();
        for i in 1..=n {
            s.push_str(&" ".repeat(i - 1));
            s.push_str(if i == n { "k: 1\n" } else { "k:\n" });
        }
        s
    };
    for (kind, text) in [("flow", flow as fn(usize) -> String), ("block", block)] {
        let ok = Hostile::new()
            .file("x.yaml", text(limit))
            .args(["validate", "-f", "x.yaml"])
            .run();
        ok.within(2.0, 256);
        assert_eq!(
            ok.code,
            0,
            "{kind} nesting of {limit}: {}",
            head(&ok.stderr)
        );
        let deeper = Hostile::new()
            .file("x.yaml", text(limit + 1))
            .args(["validate", "-f", "x.yaml"])
            .run();
        deeper.within(2.0, 256);
        deeper.refused(&format!("nested at most {limit} levels deep"));
    }
}

/// Core objects `plan` never reads (ConfigMaps of a ClusterResourceSet beside the class, say)
/// are only composed, one at a time per thread: no value or span table is built for them.
/// Eight ConfigMaps of 150,000 items each took 300 MiB in a debug build when they were read
/// as objects, 125 MiB now; a syntax error in one is still found and located.
#[test]
fn core_objects_a_plan_never_reads_build_no_values() {
    let config_map = |i: usize, item: &str| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cni-{i}\n  namespace: team-a\ndata:\n  a: b\nitems:\n{}",
            format!("- {item}\n").repeat(150_000)
        )
    };
    let with = |bad: bool| {
        let mut h = example(Hostile::new(), "quick-start", "ex", &|_, t| t);
        for i in 0..8 {
            let item = if bad && i == 2 { "[1" } else { "1" };
            h = h.file(&format!("ex/cm-{i}.yaml"), config_map(i, item));
        }
        h.args(["plan", "-f", "ex"])
            .timeout(std::time::Duration::from_secs(60))
            .run()
    };
    let ok = with(false);
    assert_eq!(ok.code, 0, "{}", head(&ok.stderr));
    assert!(ok.stdout.contains("16 to create"), "{}", ok.stdout);
    eprintln!("peak {} MiB", ok.peak_rss_kib / 1024);
    ok.within(60.0, 185);
    let bad = with(true);
    let err = bad.refused("invalid YAML: while parsing a flow sequence");
    assert!(err.contains("ex/cm-2.yaml:10:"), "{}", head(err));
}
