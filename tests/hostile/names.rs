//! Hostile inputs: names. Names and namespaces the API server refuses are refused at load, with
//! its messages (apimachinery's `ValidateObjectMeta`), before they reach file names, labels or
//! the terminal.

#[allow(unused_imports)]
use crate::harness::*;

/// A Secret with `name` and `namespace` (YAML double-quoted scalars): a core kind `plan` reads
/// (it passes over ConfigMaps and most other core kinds; see the last test).
fn secret(name: &str, namespace: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: \"{name}\"\n  namespace: \"{namespace}\"\n"
    )
}

const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

fn plan(text: String) -> Bounded {
    let out = Hostile::new()
        .file("in.yaml", text)
        .args(["plan", "-f", "in.yaml"])
        .run();
    out.within(2.0, 512);
    out
}

#[test]
fn a_namespace_that_climbs_directories_is_refused() {
    let out = plan(secret("c", "../../etc"));
    let err = out.refused(&format!(
        "Secret \"c\" is invalid: metadata.namespace: Invalid value: \"../../etc\": {LABEL_MSG}"
    ));
    assert!(err.contains("[in.yaml:5:14]"), "{err}");
}

#[test]
fn a_namespace_with_nul_is_refused() {
    let out = plan(secret("c", "a\\0b"));
    out.refused("metadata.namespace: Invalid value: \"a\\x00b\": a lowercase RFC 1123 label");
    out.no_control_bytes();
}

#[test]
fn a_300_character_namespace_and_name_are_refused() {
    let long = "a".repeat(300);
    let out = plan(secret(&long, &long));
    out.refused("metadata.name: Invalid value: \"aaaa");
    out.refused("must be no more than 253 characters");
    out.refused("must be no more than 63 characters");
}

#[test]
fn an_upper_case_name_is_refused() {
    let out = plan(secret("DEV", "default"));
    out.refused(&format!(
        "Secret \"DEV\" is invalid: metadata.name: Invalid value: \"DEV\": {SUBDOMAIN_MSG}"
    ));
}

#[test]
fn a_cluster_name_is_checked_too() {
    let text = "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: Prod\n";
    let out = plan(text.to_string());
    out.refused(&format!(
        "Cluster.cluster.x-k8s.io \"Prod\" is invalid: metadata.name: Invalid value: \"Prod\": {SUBDOMAIN_MSG}"
    ));
}

#[test]
fn a_default_namespace_that_is_not_a_name_is_refused() {
    let out = Hostile::new()
        .file(
            "in.yaml",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
        )
        .args(["plan", "-f", "in.yaml", "-n", "../x"])
        .run();
    out.within(2.0, 512);
    out.refused(&format!(
        "invalid namespace for objects without one: metadata.namespace: Invalid value: \"../x\": {LABEL_MSG}"
    ));
}

#[test]
fn a_config_map_plan_never_reads_is_passed_over_and_validate_refuses_it() {
    // `plan` does not make objects of core kinds it never reads (`plan::unread`): the name
    // reaches no file name, label or terminal. `validate` reads everything.
    let cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: DEV\n  namespace: default\n";
    let out = plan(cm.to_string());
    let err = out.refused("no Cluster with spec.topology found in the input");
    assert!(!err.contains("DEV"), "{err}");
    let out = Hostile::new()
        .file("in.yaml", cm)
        .args(["validate", "-f", "in.yaml"])
        .run();
    out.within(2.0, 512);
    out.refused(&format!(
        "ConfigMap \"DEV\" is invalid: metadata.name: Invalid value: \"DEV\": {SUBDOMAIN_MSG}"
    ));
}
