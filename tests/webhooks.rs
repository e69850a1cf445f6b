//! Providers' defaulting webhooks (issue 26): a kind a MutatingWebhookConfiguration covers goes
//! through the webhook's round trip through its Go type before the schema check, so the
//! `required` fields a template leaves out are stored with their zero values. Fixtures are the
//! published CRDs and webhook configurations of CAPZ, CAPA and RKE2 (testdata/webhooks, made by
//! scripts/gen-webhook-fixtures.py).

mod common;

use common::{Test, repo};

const QUICK_START: &str = "testdata/examples/quick-start";

fn fixture(name: &str) -> String {
    std::fs::read_to_string(repo().join("testdata/webhooks").join(name)).expect("fixture")
}

/// The fixture's documents without its MutatingWebhookConfiguration: the CRDs alone.
fn crds_only(name: &str) -> String {
    fixture(name)
        .split("\n---\n")
        .filter(|d| !d.contains("kind: MutatingWebhookConfiguration"))
        .collect::<Vec<_>>()
        .join("\n---\n")
}

/// The fixture's MutatingWebhookConfiguration documents alone.
fn hooks_only(name: &str) -> String {
    fixture(name)
        .split("\n---\n")
        .filter(|d| d.contains("kind: MutatingWebhookConfiguration"))
        .map(|d| format!("---\n{d}"))
        .collect::<String>()
}

/// CAPZ's AKS control plane template as the AKS ClusterClass writes it: no
/// `resourceGroupName`, which the webhook's round trip writes as `""`.
const AKS_TEMPLATE: &str = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: AzureManagedControlPlaneTemplate
metadata:
  name: aks-control-plane
  namespace: default
spec:
  template:
    spec:
      identityRef:
        apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
        kind: AzureClusterIdentity
        name: cluster-identity
      location: westeurope
      version: v1.33.0
";

const REQUIRED: &str = "AzureManagedControlPlaneTemplate.infrastructure.cluster.x-k8s.io \"aks-control-plane\" is invalid: spec.template.spec.resourceGroupName: Required value";

#[test]
fn without_the_webhook_a_required_field_is_refused_with_a_hint() {
    Test::new()
        .file("in/aks.yaml", AKS_TEMPLATE)
        .file("crds.yaml", &crds_only("capz.yaml"))
        .args(["validate", "-f", "in", "--crds", "crds.yaml"])
        .status(1)
        .stderr_contains(REQUIRED)
        .stderr_contains("a provider's defaulting webhook may fill this field")
        .stderr_contains("--provider-repo DIR, or --crds COMPONENTS.yaml")
        .stderr_lacks("topoplan::schema::webhook-defaulted")
        .run();
}

#[test]
fn the_capz_webhook_fills_required_fields_from_crds_input_or_current() {
    // --crds with the components (CRDs and the MutatingWebhookConfiguration).
    let out = Test::new()
        .file("in/aks.yaml", AKS_TEMPLATE)
        .file("components.yaml", &fixture("capz.yaml"))
        .args([
            "validate",
            "-f",
            "in",
            "--crds",
            "components.yaml",
            "-o",
            "yaml",
        ])
        .status(0)
        .stderr_lacks(REQUIRED)
        .stderr_contains("topoplan::schema::webhook-defaulted")
        .stderr_contains("AzureManagedControlPlaneTemplate.infrastructure.cluster.x-k8s.io")
        .run();
    assert!(
        out.stdout.contains("resourceGroupName: \"\""),
        "{}",
        out.stdout
    );
    // One warning per run.
    assert_eq!(
        out.stderr
            .matches("topoplan::schema::webhook-defaulted")
            .count(),
        1,
        "{}",
        out.stderr
    );
    // The webhook configuration in the input.
    Test::new()
        .file("in/aks.yaml", AKS_TEMPLATE)
        .file("in/hooks.yaml", &hooks_only("capz.yaml"))
        .file("crds.yaml", &crds_only("capz.yaml"))
        .args(["validate", "-f", "in", "--crds", "crds.yaml"])
        .status(0)
        .stderr_lacks(REQUIRED)
        .stderr_contains("topoplan::schema::webhook-defaulted")
        .run();
    // The webhook configuration in the management cluster (--current).
    Test::new()
        .file("in/aks.yaml", AKS_TEMPLATE)
        .file("current/hooks.yaml", &hooks_only("capz.yaml"))
        .file("crds.yaml", &crds_only("capz.yaml"))
        .args([
            "validate",
            "-f",
            "in",
            "--crds",
            "crds.yaml",
            "--current",
            "current",
        ])
        .status(0)
        .stderr_lacks(REQUIRED)
        .run();
}

#[test]
fn a_webhook_for_other_operations_or_resources_fills_nothing() {
    // Only DELETE, or another resource: the template is refused as before.
    for (from, to) in [
        ("    - CREATE\n    - UPDATE\n", "    - DELETE\n"),
        (
            "    - azuremanagedcontrolplanetemplates\n",
            "    - somethingelse\n",
        ),
    ] {
        let hooks = hooks_only("capz.yaml").replace(from, to);
        assert_ne!(hooks, hooks_only("capz.yaml"), "{from:?}");
        Test::new()
            .file("in/aks.yaml", AKS_TEMPLATE)
            .file("in/hooks.yaml", &hooks)
            .file("crds.yaml", &crds_only("capz.yaml"))
            .args(["validate", "-f", "in", "--crds", "crds.yaml"])
            .status(1)
            .stderr_contains(REQUIRED)
            .run();
    }
}

/// The quick-start with its DockerClusterTemplate replaced by CAPZ's AzureClusterTemplate
/// whose subnet has a security group without a name: the template's schema allows it, the
/// generated AzureCluster's requires `securityGroup.name`, which CAPZ's webhook fills.
fn azure_quick_start() -> Test {
    let dir = repo().join(QUICK_START);
    let templates = std::fs::read_to_string(dir.join("templates.yaml")).expect("fixture");
    let class = std::fs::read_to_string(dir.join("clusterclass.yaml")).expect("fixture");
    let (_, rest) = templates.split_once("\n---\n").expect("documents");
    let azure = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: AzureClusterTemplate
metadata:
  name: docker-small-cluster
  namespace: fleet
spec:
  template:
    spec:
      location: westeurope
      networkSpec:
        subnets:
        - name: node-subnet
          role: node
          securityGroup: {}
";
    let class = class.replacen(
        "      apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\n      kind: DockerClusterTemplate",
        "      apiVersion: infrastructure.cluster.x-k8s.io/v1beta1\n      kind: AzureClusterTemplate",
        1,
    );
    assert!(class.contains("AzureClusterTemplate"));
    Test::new()
        .fixture(QUICK_START, "in")
        .file("in/clusterclass.yaml", &class)
        .file("in/templates.yaml", &format!("{azure}---\n{rest}"))
}

#[test]
fn generated_objects_of_covered_kinds_go_through_the_round_trip() {
    let refused = "spec.networkSpec.subnets[0].securityGroup.name: Required value";
    azure_quick_start()
        .file("crds.yaml", &crds_only("capz.yaml"))
        .args(["plan", "-f", "in", "--crds", "crds.yaml"])
        .status(1)
        .stderr_contains("AzureCluster team-a/")
        .stderr_contains(refused)
        .stderr_contains("a provider's defaulting webhook may fill this field")
        .run();
    let out = azure_quick_start()
        .file("components.yaml", &fixture("capz.yaml"))
        .args([
            "plan",
            "-f",
            "in",
            "--crds",
            "components.yaml",
            "-o",
            "json",
        ])
        .status(0)
        .stderr_lacks(refused)
        .stderr_contains("topoplan::schema::webhook-defaulted")
        .stderr_contains("AzureCluster.infrastructure.cluster.x-k8s.io")
        .run();
    // The plan shows the object as generated (the webhook's result is the API server's).
    assert!(out.stdout.contains("node-subnet"), "{}", out.stdout);
}

#[test]
fn capa_and_rke2_webhooks_cover_their_templates() {
    // CAPA: a subnet written by its CIDR only (`id` is required, without omitempty).
    let capa = "apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: AWSClusterTemplate
metadata:
  name: aws
  namespace: default
spec:
  template:
    spec:
      region: eu-west-1
      network:
        subnets:
        - cidrBlock: 10.0.0.0/24
";
    let required = "spec.template.spec.network.subnets[0].id: Required value";
    Test::new()
        .file("in/t.yaml", capa)
        .file("crds.yaml", &crds_only("capa.yaml"))
        .args(["validate", "-f", "in", "--crds", "crds.yaml"])
        .status(1)
        .stderr_contains(required)
        .run();
    Test::new()
        .file("in/t.yaml", capa)
        .file("components.yaml", &fixture("capa.yaml"))
        .args(["validate", "-f", "in", "--crds", "components.yaml"])
        .status(0)
        .stderr_lacks(required)
        .stderr_contains("AWSClusterTemplate.infrastructure.cluster.x-k8s.io")
        .run();
    // RKE2: a file's content from a Secret, the Secret's key and name left to the webhook.
    let rke2 = "apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: RKE2ConfigTemplate
metadata:
  name: rke2
  namespace: default
spec:
  template:
    spec:
      files:
      - path: /etc/x
        contentFrom:
          secret: {}
";
    let required = "spec.template.spec.files[0].contentFrom.secret.key: Required value";
    Test::new()
        .file("in/t.yaml", rke2)
        .file("crds.yaml", &crds_only("rke2.yaml"))
        .args(["validate", "-f", "in", "--crds", "crds.yaml"])
        .status(1)
        .stderr_contains(required)
        .run();
    let out = Test::new()
        .file("in/t.yaml", rke2)
        .file("components.yaml", &fixture("rke2.yaml"))
        .args([
            "validate",
            "-f",
            "in",
            "--crds",
            "components.yaml",
            "-o",
            "yaml",
        ])
        .stderr_lacks(required)
        .stderr_contains("RKE2ConfigTemplate.bootstrap.cluster.x-k8s.io")
        .run();
    assert!(out.stdout.contains("key: \"\""), "{}", out.stdout);
}

#[test]
fn the_webhook_of_a_provider_repository_release_is_read() {
    let metadata = "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3\nkind: Metadata\nreleaseSeries:\n- {major: 1, minor: 0, contract: v1beta2}\n";
    let t = Test::new();
    let home = t.path().join("home").display().to_string();
    t.env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .file("repo/infrastructure-azure/v1.0.0/metadata.yaml", metadata)
        .file(
            "repo/infrastructure-azure/v1.0.0/infrastructure-components.yaml",
            &fixture("capz.yaml"),
        )
        .file("in/aks.yaml", AKS_TEMPLATE)
        .args([
            "validate",
            "-f",
            "in",
            "--provider-repo",
            "repo",
            "-o",
            "yaml",
        ])
        .status(0)
        .stderr_lacks(REQUIRED)
        .stderr_contains("topoplan::schema::webhook-defaulted")
        .stdout_contains("resourceGroupName: \"\"")
        .stdout_lacks("MutatingWebhookConfiguration")
        .run();
}
