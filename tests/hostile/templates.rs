//! Hostile inputs: templates. Every function call pays for its work before it runs, so a loop
//! of expensive calls (scrypt, bcrypt, key generation, regexes over long strings, quadratic
//! list functions, wide printf) stops with a located "template execution budget exceeded"
//! after a call or a few, and all templates of one run share a cap on rendered output.

use crate::harness::*;

const BUDGET: &str = "template execution budget exceeded";

/// A minimal ClusterClass with its templates; `patch_template` (if any) is the
/// `valueFrom.template` of an inline patch on the InfrastructureCluster, `naming` (if any) the
/// MachineDeployment class's naming template. Both are single-quoted YAML scalars.
fn class(patch_template: Option<&str>, naming: Option<&str>) -> String {
    let naming = naming
        .map(|t| format!("      naming:\n        template: '{t}'\n"))
        .unwrap_or_default();
    let patches = patch_template
        .map(|t| {
            format!(
                "  patches:
  - name: p
    definitions:
    - selector:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
        kind: DockerClusterTemplate
        matchResources: {{infrastructureCluster: true}}
      jsonPatches:
      - op: add
        path: /spec/template/spec/x
        valueFrom:
          template: '{t}'
"
            )
        })
        .unwrap_or_default();
    format!(
        "apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata:
  name: c
spec:
  infrastructure:
    templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerClusterTemplate, name: infra}}
  controlPlane:
    templateRef: {{apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}}
  workers:
    machineDeployments:
    - class: w
{naming}      bootstrap:
        templateRef: {{apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: boot}}
      infrastructure:
        templateRef: {{apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}}
{patches}---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerClusterTemplate
metadata: {{name: infra}}
spec: {{template: {{spec: {{}}}}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {{name: cp}}
spec: {{template: {{spec: {{kubeadmConfigSpec: {{}}}}}}}}
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {{name: boot}}
spec: {{template: {{spec: {{}}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DockerMachineTemplate
metadata: {{name: m}}
spec: {{template: {{spec: {{}}}}}}
"
    )
}

fn clusters(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "---\napiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: c{i}\nspec:\n  topology:\n    classRef: {{name: c}}\n    version: v1.34.0\n    workers:\n      machineDeployments:\n      - {{class: w, name: md-0, replicas: 1}}\n"
            )
        })
        .collect()
}

/// `plan` of one Cluster whose class patches with `template`: refused with the budget error,
/// located at the patch's template in class.yaml.
fn plan_refuses(template: &str, secs: f64) -> Bounded {
    let out = Hostile::new()
        .file("class.yaml", class(Some(template), None))
        .file("cluster.yaml", clusters(1))
        .args(["plan", "-f", "class.yaml", "-f", "cluster.yaml"])
        .run();
    out.within(secs, 512);
    let err = out.refused(BUDGET);
    assert!(err.contains("class.yaml:"), "not located:\n{}", head(err));
    assert!(
        err.contains(&format!("template: '{}", &template[..20])),
        "the snippet should show the template line:\n{}",
        head(err)
    );
    out.no_control_bytes();
    out
}

#[test]
fn derive_password_in_a_loop_stops_at_the_third_call() {
    // scrypt (N=32768, r=8) per call: two fit the budget, the third is refused before it runs.
    plan_refuses(
        r#"{{ range until 1000000 }}{{ derivePassword 1 "long" "password" "user" "example.com" }}{{ end }}"#,
        2.0,
    );
}

#[test]
fn bcrypt_and_htpasswd_in_a_loop_stop_early() {
    plan_refuses(r#"{{ range until 1000000 }}{{ bcrypt "x" }}{{ end }}"#, 2.0);
    plan_refuses(
        r#"{{ range until 1000000 }}{{ htpasswd "u" "p" }}{{ end }}"#,
        2.0,
    );
}

#[test]
fn key_generation_in_a_loop_stops_early() {
    // Small keys have a fixed large price: twenty fit.
    plan_refuses(
        r#"{{ range until 1000000 }}{{ genPrivateKey "ed25519" }}{{ end }}"#,
        2.0,
    );
    // An RSA-4096 key costs more than half the budget: with three bcrypt hashes paid for, the
    // first one is refused without generating anything (one takes seconds in a debug build).
    plan_refuses(
        r#"{{ $a := bcrypt "a" }}{{ $b := bcrypt "b" }}{{ $c := bcrypt "c" }}{{ range until 1000000 }}{{ genPrivateKey "rsa" }}{{ end }}"#,
        2.0,
    );
}

#[test]
fn regex_over_a_long_string_pays_per_byte() {
    // 20 MB haystack: a regexReplaceAll may match at every byte, so it is priced at about
    // 70 units a byte, more than the budget: the first call is refused before it runs.
    plan_refuses(
        r#"{{ $s := repeat 20000000 "x" }}{{ range until 1000000 }}{{ regexReplaceAll "x+y|z" $s "w" }}{{ end }}"#,
        2.0,
    );
}

#[test]
fn uniq_over_a_long_list_of_lists_is_refused_before_its_quadratic_loop() {
    // 20,000 distinct one-item lists: Sprig's uniq compares each with every kept one (2e8
    // deep comparisons); priced quadratically, the first call is refused.
    plan_refuses(
        r#"{{ $l := chunk 1 (until 20000) }}{{ range until 1000000 }}{{ uniq $l | len }}{{ end }}"#,
        1.0,
    );
}

#[test]
fn naming_template_in_validate_is_bounded_too() {
    // Naming templates have only text/template's built-ins; printf with a 1e6 width builds a
    // megabyte per call. The budget is lowered (test-only variable) so that a debug build
    // reaches it in a fraction of a second; the default stops the same loop after ~250 calls.
    let out = Hostile::new()
        .file(
            "class.yaml",
            class(
                None,
                Some(r#"{{ range 1000000 }}{{ $s := printf "%0999999d" 0 }}{{ end }}"#),
            ),
        )
        .env("TOPOPLAN_TEST_TEMPLATE_BUDGET", "50000000")
        .args(["validate", "-f", "class.yaml"])
        .run();
    out.within(2.0, 512);
    let err = out.refused(BUDGET);
    assert!(err.contains("naming.template"), "{}", head(err));
    assert!(err.contains("class.yaml:"), "not located:\n{}", head(err));
    assert!(
        err.contains("template: '{{ range 1000000 }}"),
        "the snippet should show the naming template:\n{}",
        head(err)
    );
}

#[test]
fn wide_printf_in_a_naming_template_is_refused_before_it_runs() {
    // Six hundred 1e6-wide verbs: priced at 600 MB of output, refused at the default budget
    // without formatting anything.
    let template = format!("{{{{ printf \"{}\" }}}}", "%0999999d".repeat(600));
    let out = Hostile::new()
        .file("class.yaml", class(None, Some(&template)))
        .args(["validate", "-f", "class.yaml"])
        // Cluster API's CRD caps a naming template at 1,024 bytes; the budget stands behind it.
        .without_crd_limits()
        .run();
    out.within(1.0, 256);
    out.refused(BUDGET);
}

#[test]
fn eval_is_bounded_too() {
    let out = Hostile::new()
        .args([
            "eval",
            r#"{{ range until 1000000 }}{{ derivePassword 1 "long" "password" "user" "example.com" }}{{ end }}"#,
        ])
        .run();
    out.within(2.0, 512);
    let err = out.refused(BUDGET);
    assert!(err.contains("at <derivePassword"), "{}", head(err));
}

#[test]
fn rendered_output_is_capped_for_the_whole_run() {
    // Ten Clusters rendering 1 MB each: under the per-value limit, over a run-wide cap of
    // 4 MB (lowered by a test-only variable from the default 256 MiB).
    let out = Hostile::new()
        .file(
            "class.yaml",
            class(Some(r#"{{ repeat 1000000 "x" }}"#), None),
        )
        .file("clusters.yaml", clusters(10))
        .env("TOPOPLAN_TEST_MAX_RENDERED_BYTES", "4000000")
        .args(["plan", "-f", "class.yaml", "-f", "clusters.yaml"])
        .run();
    out.within(5.0, 512);
    let err = out.refused("rendered template output exceeds the 4000000-byte limit for one run");
    assert!(err.contains("class.yaml:"), "not located:\n{}", head(err));
}

#[test]
fn template_work_is_capped_for_the_whole_run() {
    // Each Cluster's template spends ~20M units (a 10 MB repeat) in a few milliseconds; with
    // the run's total lowered to 50M (test-only variable; the default is 300 executions'
    // worth), the Clusters past the third find the run's work used up.
    let out = Hostile::new()
        .file(
            "class.yaml",
            class(Some(r#"{{ repeat 10000000 "x" | len }}"#), None),
        )
        .file("clusters.yaml", clusters(10))
        .env("TOPOPLAN_TEST_RUN_BUDGET", "50000000")
        .args(["plan", "-f", "class.yaml", "-f", "clusters.yaml"])
        .run();
    out.within(5.0, 512);
    let err = out.refused("template execution budget exceeded: the templates of this run");
    assert!(err.contains("class.yaml:"), "not located:\n{}", head(err));
}
