//! A builder for scenario tests: a minimal but valid v1beta2 ClusterClass with its templates and a
//! Cluster using it, customised one call at a time, then planned.
//!
//! ```ignore
//! let plan = Plan::new()
//!     .variable("image", json!({"type": "string"}))
//!     .value("image", json!("registry.example/kindest"))
//!     .patch("image", md_infrastructure(&["default-worker"]), json!([
//!         {"op": "add", "path": "/spec/template/spec/customImage", "valueFrom": {"variable": "image"}}
//!     ]))
//!     .machine_deployment("md-0", "default-worker", 2)
//!     .plan(&[]);
//! assert_eq!(plan.at("MachineDeployment/md-0/InfrastructureMachineTemplate",
//!     "/spec/template/spec/customImage"), "registry.example/kindest");
//! ```
//!
//! The class (`class.yaml`) has a DockerClusterTemplate for the infrastructure cluster, a
//! KubeadmControlPlaneTemplate for the control plane, and worker classes (`default-worker` unless
//! `worker_class` adds more) whose bootstrap is a KubeadmConfigTemplate and whose
//! infrastructure is a DockerMachineTemplate; the templates are shared by every worker class.
//! MachinePool classes (none unless `machine_pool` names one) share the bootstrap template and
//! have a DockerMachinePoolTemplate. `infrastructure_provider` swaps the Docker kinds for
//! another provider's (the test extension of tests/extension_server knows only the Dev ones).
//! The Cluster (`cluster.yaml`) has only what a topology needs unless told more. Both are
//! written as YAML, so diagnostics point at readable lines.

use serde_json::{Map, Value, json};

use super::{Output, Test};

/// The worker class every scenario starts with.
pub const WORKER_CLASS: &str = "default-worker";

/// A ClusterClass, its templates and a Cluster, under construction.
#[derive(Clone)]
pub struct Plan {
    namespace: Option<String>,
    class_name: String,
    cluster_name: String,
    version: String,
    control_plane_replicas: Option<i64>,
    worker_classes: Vec<String>,
    pool_classes: Vec<String>,
    infrastructure: String,
    variables: Vec<Value>,
    values: Vec<Value>,
    patches: Vec<Value>,
    machine_deployments: Vec<Value>,
    machine_pools: Vec<Value>,
    files: Vec<(String, String)>,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan::new()
    }
}

impl Plan {
    /// ClusterClass `demo-class` and Cluster `demo` in the default namespace, version v1.34.0, no
    /// variables, no patches, no MachineDeployments.
    pub fn new() -> Plan {
        Plan {
            namespace: None,
            class_name: "demo-class".into(),
            cluster_name: "demo".into(),
            version: "v1.34.0".into(),
            control_plane_replicas: None,
            worker_classes: vec![WORKER_CLASS.into()],
            pool_classes: Vec::new(),
            infrastructure: "Docker".into(),
            variables: Vec::new(),
            values: Vec::new(),
            patches: Vec::new(),
            machine_deployments: Vec::new(),
            machine_pools: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Put the class, its templates and the Cluster in namespace `ns`.
    pub fn namespace(mut self, ns: &str) -> Plan {
        self.namespace = Some(ns.into());
        self
    }

    /// Name the ClusterClass (the Cluster's classRef follows).
    pub fn class_name(mut self, name: &str) -> Plan {
        self.class_name = name.into();
        self
    }

    /// Name the Cluster.
    pub fn cluster_name(mut self, name: &str) -> Plan {
        self.cluster_name = name.into();
        self
    }

    /// The Cluster's `spec.topology.version`.
    pub fn version(mut self, v: &str) -> Plan {
        self.version = v.into();
        self
    }

    /// The Cluster's `spec.topology.controlPlane.replicas`.
    pub fn control_plane_replicas(mut self, n: i64) -> Plan {
        self.control_plane_replicas = Some(n);
        self
    }

    /// Add a MachineDeployment class to the ClusterClass (same templates as the default one).
    pub fn worker_class(mut self, class: &str) -> Plan {
        self.worker_classes.push(class.into());
        self
    }

    /// Use provider `prefix`'s infrastructure kinds (`{prefix}ClusterTemplate`,
    /// `{prefix}MachineTemplate`, `{prefix}MachinePoolTemplate`) instead of Docker's; for `Dev`,
    /// each template's spec is `backend: {docker: {}}`, as Cluster API's Dev provider nests it.
    /// The selector helpers below still name Docker's kinds.
    pub fn infrastructure_provider(mut self, prefix: &str) -> Plan {
        self.infrastructure = prefix.into();
        self
    }

    /// Define an optional variable in the class with `schema` as its `openAPIV3Schema`.
    pub fn variable(self, name: &str, schema: Value) -> Plan {
        self.variable_def(name, false, schema)
    }

    /// Define a required variable in the class.
    pub fn required_variable(self, name: &str, schema: Value) -> Plan {
        self.variable_def(name, true, schema)
    }

    fn variable_def(mut self, name: &str, required: bool, schema: Value) -> Plan {
        self.variables.push(json!({
            "name": name,
            "required": required,
            "schema": {"openAPIV3Schema": schema},
        }));
        self
    }

    /// Set variable `name` to `value` in the Cluster's `spec.topology.variables`.
    pub fn value(mut self, name: &str, value: Value) -> Plan {
        self.values.push(json!({"name": name, "value": value}));
        self
    }

    /// Add an inline patch with one definition: `selector` (see [`control_plane`] and friends)
    /// and `json_patches` (an array of operations).
    pub fn patch(self, name: &str, selector: Value, json_patches: Value) -> Plan {
        self.raw_patch(json!({
            "name": name,
            "definitions": [{"selector": selector, "jsonPatches": json_patches}],
        }))
    }

    /// Add an external patch served by Runtime extension `extension`, naming its
    /// GeneratePatches, ValidateTopology and DiscoverVariables handlers as the test extension
    /// (tests/extension_server) registers them: `generate-patches.<extension>`,
    /// `validate-topology.<extension>`, `discover-variables.<extension>`; `settings` (an object
    /// of strings) is the patch's `external.settings`, left out when empty.
    pub fn external_patch(self, name: &str, extension: &str, settings: Value) -> Plan {
        let mut external = json!({
            "generatePatchesExtension": format!("generate-patches.{extension}"),
            "validateTopologyExtension": format!("validate-topology.{extension}"),
            "discoverVariablesExtension": format!("discover-variables.{extension}"),
        });
        if settings.as_object().is_some_and(|s| !s.is_empty()) {
            external["settings"] = settings;
        }
        self.raw_patch(json!({"name": name, "external": external}))
    }

    /// Add a patch written in full (for `enabledIf`, several definitions).
    pub fn raw_patch(mut self, patch: Value) -> Plan {
        self.patches.push(patch);
        self
    }

    /// Add a MachineDeployment topology `name` of worker class `class`.
    pub fn machine_deployment(mut self, name: &str, class: &str, replicas: i64) -> Plan {
        self.machine_deployments
            .push(json!({"class": class, "name": name, "replicas": replicas}));
        self
    }

    /// Add a MachinePool topology `name` of MachinePool class `class`, which the ClusterClass
    /// gets (bootstrap: the worker KubeadmConfigTemplate; infrastructure: a
    /// MachinePoolTemplate of the provider) unless an earlier pool declared it.
    pub fn machine_pool(mut self, name: &str, class: &str, replicas: i64) -> Plan {
        if !self.pool_classes.iter().any(|c| c == class) {
            self.pool_classes.push(class.into());
        }
        self.machine_pools
            .push(json!({"class": class, "name": name, "replicas": replicas}));
        self
    }

    /// Add an extra input file (relative to the working directory, which `plan` reads whole).
    pub fn file(mut self, name: &str, content: &str) -> Plan {
        self.files.push((name.into(), content.into()));
        self
    }

    /// The ClusterClass and its templates, as written to `class.yaml`.
    pub fn class_yaml(&self) -> String {
        let api = |group: &str| format!("{group}.cluster.x-k8s.io/v1beta2");
        let reference = |group: &str, kind: &str, name: &str| json!({"templateRef": {"apiVersion": api(group), "kind": kind, "name": name}});
        let mut spec = Map::new();
        let infra = |kind: &str| format!("{}{kind}", self.infrastructure);
        spec.insert(
            "infrastructure".into(),
            reference("infrastructure", &infra("ClusterTemplate"), "infra"),
        );
        spec.insert(
            "controlPlane".into(),
            reference(
                "controlplane",
                "KubeadmControlPlaneTemplate",
                "control-plane",
            ),
        );
        let workers: Vec<Value> = self
            .worker_classes
            .iter()
            .map(|class| {
                json!({
                    "class": class,
                    "bootstrap": reference("bootstrap", "KubeadmConfigTemplate", "worker-bootstrap"),
                    "infrastructure": reference("infrastructure", &infra("MachineTemplate"), "worker"),
                })
            })
            .collect();
        let mut worker_classes = json!({"machineDeployments": workers});
        if !self.pool_classes.is_empty() {
            let pools: Vec<Value> = self
                .pool_classes
                .iter()
                .map(|class| {
                    json!({
                        "class": class,
                        "bootstrap": reference("bootstrap", "KubeadmConfigTemplate", "worker-bootstrap"),
                        "infrastructure": reference("infrastructure", &infra("MachinePoolTemplate"), "pool"),
                    })
                })
                .collect();
            worker_classes["machinePools"] = Value::Array(pools);
        }
        spec.insert("workers".into(), worker_classes);
        if !self.variables.is_empty() {
            spec.insert("variables".into(), Value::Array(self.variables.clone()));
        }
        if !self.patches.is_empty() {
            spec.insert("patches".into(), Value::Array(self.patches.clone()));
        }
        let class = json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "ClusterClass",
            "metadata": self.metadata(&self.class_name),
            "spec": spec,
        });
        let template = |group: &str, kind: &str, name: &str, spec: Value| {
            json!({
                "apiVersion": api(group),
                "kind": kind,
                "metadata": self.metadata(name),
                "spec": {"template": {"spec": spec}},
            })
        };
        // Cluster API's Dev provider nests a backend; Docker's templates need nothing.
        let infra_spec = if self.infrastructure == "Dev" {
            json!({"backend": {"docker": {}}})
        } else {
            json!({})
        };
        let mut docs = vec![
            class,
            template(
                "infrastructure",
                &infra("ClusterTemplate"),
                "infra",
                infra_spec.clone(),
            ),
            template(
                "controlplane",
                "KubeadmControlPlaneTemplate",
                "control-plane",
                json!({"kubeadmConfigSpec": {}}),
            ),
            template(
                "bootstrap",
                "KubeadmConfigTemplate",
                "worker-bootstrap",
                json!({}),
            ),
            template(
                "infrastructure",
                &infra("MachineTemplate"),
                "worker",
                infra_spec.clone(),
            ),
        ];
        if !self.pool_classes.is_empty() {
            docs.push(template(
                "infrastructure",
                &infra("MachinePoolTemplate"),
                "pool",
                infra_spec,
            ));
        }
        yaml_documents(&docs)
    }

    /// The Cluster, as written to `cluster.yaml`.
    pub fn cluster_yaml(&self) -> String {
        let mut topology = Map::new();
        topology.insert("classRef".into(), json!({"name": self.class_name}));
        topology.insert("version".into(), json!(self.version));
        if let Some(n) = self.control_plane_replicas {
            topology.insert("controlPlane".into(), json!({"replicas": n}));
        }
        if !self.values.is_empty() {
            topology.insert("variables".into(), Value::Array(self.values.clone()));
        }
        let mut workers = Map::new();
        if !self.machine_deployments.is_empty() {
            workers.insert(
                "machineDeployments".into(),
                Value::Array(self.machine_deployments.clone()),
            );
        }
        if !self.machine_pools.is_empty() {
            workers.insert(
                "machinePools".into(),
                Value::Array(self.machine_pools.clone()),
            );
        }
        if !workers.is_empty() {
            topology.insert("workers".into(), Value::Object(workers));
        }
        yaml_documents(&[json!({
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "metadata": self.metadata(&self.cluster_name),
            "spec": {"topology": topology},
        })])
    }

    fn metadata(&self, name: &str) -> Value {
        match &self.namespace {
            Some(ns) => json!({"name": name, "namespace": ns}),
            None => json!({"name": name}),
        }
    }

    /// A [`Test`] with `class.yaml`, `cluster.yaml` and the extra files written and no
    /// arguments yet (for other commands, or expectations of a failure).
    pub fn test(&self) -> Test {
        self.files()
            .iter()
            .fold(Test::new(), |t, (name, content)| t.file(name, content))
    }

    /// A [`Test`] with the input files under `dir/` (so that the test's other files, a baseline
    /// or a current state, are not read as input) and no arguments yet.
    pub fn test_in(&self, dir: &str) -> Test {
        self.files().iter().fold(Test::new(), |t, (name, content)| {
            t.file(&format!("{dir}/{name}"), content)
        })
    }

    /// Every input file as (name, content): `class.yaml`, `cluster.yaml` and the extra files
    /// (for runners other than [`Test`], e.g. the bounded one of the hostile tests).
    pub fn files(&self) -> Vec<(String, String)> {
        let mut files = vec![
            ("class.yaml".to_string(), self.class_yaml()),
            ("cluster.yaml".to_string(), self.cluster_yaml()),
        ];
        files.extend(self.files.iter().cloned());
        files
    }

    /// A [`Test`] of `topoplan plan -f .` with `args` appended, to add expectations to.
    pub fn plan_test(&self, args: &[&str]) -> Test {
        self.test()
            .args(["plan", "-f", "."])
            .args(args.iter().copied())
    }

    /// Run `topoplan plan -f . -o json` with `args` appended, expect success, and return the
    /// plan document.
    #[track_caller]
    pub fn plan(&self, args: &[&str]) -> Planned {
        let out = self
            .plan_test(&["-o", "json"])
            .args(args.iter().copied())
            .run();
        match serde_json::from_str(&out.stdout) {
            Ok(doc) => Planned { out, doc },
            Err(e) => panic!("plan -o json printed no JSON ({e}):\n{}", out.stdout),
        }
    }
}

/// `docs` as a YAML stream.
fn yaml_documents(docs: &[Value]) -> String {
    docs.iter()
        .map(|d| serde_saphyr::to_string(d).expect("YAML"))
        .collect::<Vec<_>>()
        .join("---\n")
}

/// A selector of the control plane's template.
pub fn control_plane() -> Value {
    json!({
        "apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
        "kind": "KubeadmControlPlaneTemplate",
        "matchResources": {"controlPlane": true},
    })
}

/// A selector of the infrastructure cluster's template.
pub fn infrastructure_cluster() -> Value {
    json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DockerClusterTemplate",
        "matchResources": {"infrastructureCluster": true},
    })
}

/// A selector of the infrastructure machine template of the worker classes `classes`.
pub fn md_infrastructure(classes: &[&str]) -> Value {
    json!({
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DockerMachineTemplate",
        "matchResources": {"machineDeploymentClass": {"names": classes}},
    })
}

/// A selector of the bootstrap template of the worker classes `classes`.
pub fn md_bootstrap(classes: &[&str]) -> Value {
    json!({
        "apiVersion": "bootstrap.cluster.x-k8s.io/v1beta2",
        "kind": "KubeadmConfigTemplate",
        "matchResources": {"machineDeploymentClass": {"names": classes}},
    })
}

/// A successful `plan -o json`: the process's output and the parsed document.
pub struct Planned {
    pub out: Output,
    pub doc: Value,
}

impl Planned {
    /// The planned Clusters.
    pub fn clusters(&self) -> &[Value] {
        self.doc["clusters"].as_array().map_or(&[], Vec::as_slice)
    }

    /// The object entries (action, role, kind, name, object) of the only Cluster.
    pub fn objects(&self) -> &[Value] {
        let clusters = self.clusters();
        assert_eq!(clusters.len(), 1, "expected one Cluster in the plan");
        clusters[0]["objects"].as_array().map_or(&[], Vec::as_slice)
    }

    /// `(role, kind, name)` of every object, for failure messages.
    pub fn listing(&self) -> Vec<String> {
        self.objects()
            .iter()
            .map(|o| format!("{} {} {}", o["role"], o["kind"], o["name"]))
            .collect()
    }

    /// The entry with role `role` (e.g. `ControlPlane`, `MachineDeployment/md-0`,
    /// `MachineDeployment/md-0/BootstrapTemplate`).
    #[track_caller]
    pub fn role(&self, role: &str) -> &Value {
        let found: Vec<&Value> = self
            .objects()
            .iter()
            .filter(|o| o["role"] == role)
            .collect();
        match found.as_slice() {
            [one] => one,
            _ => panic!(
                "{} objects with role {role:?}; the plan has:\n{}",
                found.len(),
                self.listing().join("\n")
            ),
        }
    }

    /// The only entry of kind `kind`.
    #[track_caller]
    pub fn kind(&self, kind: &str) -> &Value {
        let found = self.all_of_kind(kind);
        match found.as_slice() {
            [one] => one,
            _ => panic!(
                "{} objects of kind {kind}; the plan has:\n{}",
                found.len(),
                self.listing().join("\n")
            ),
        }
    }

    /// Every entry of kind `kind`.
    pub fn all_of_kind(&self, kind: &str) -> Vec<&Value> {
        self.objects()
            .iter()
            .filter(|o| o["kind"] == kind)
            .collect()
    }

    /// The entry of kind `kind` named `name`.
    #[track_caller]
    pub fn named(&self, kind: &str, name: &str) -> &Value {
        let found = self
            .objects()
            .iter()
            .find(|o| o["kind"] == kind && o["name"] == name);
        match found {
            Some(o) => o,
            None => panic!(
                "no {kind} named {name}; the plan has:\n{}",
                self.listing().join("\n")
            ),
        }
    }

    /// The value at JSON pointer `pointer` in the object of role `role`, if there is one.
    pub fn get(&self, role: &str, pointer: &str) -> Option<&Value> {
        self.role(role)["object"].pointer(pointer)
    }

    /// The value at JSON pointer `pointer` in the object of role `role`; panics with the object
    /// when there is none.
    #[track_caller]
    pub fn at(&self, role: &str, pointer: &str) -> &Value {
        let object = &self.role(role)["object"];
        match object.pointer(pointer) {
            Some(v) => v,
            None => panic!("{role} has nothing at {pointer}:\n{object:#}"),
        }
    }

    /// The plan's warnings.
    pub fn warnings(&self) -> &[Value] {
        self.doc["warnings"].as_array().map_or(&[], Vec::as_slice)
    }
}
