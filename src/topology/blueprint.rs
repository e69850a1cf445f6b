/*!
Blueprint: a ClusterClass with every template it references resolved.

Cluster API's `getBlueprint` fetches every template of the class — also those of worker classes no
topology uses — at exactly the apiVersion written in the class, from the class's namespace, and
fails the reconcile if any is missing. This module does the same against the input, and turns
each failure into a diagnostic at the referencing field. A blueprint is built once per class and
shared by every Cluster that uses it.
*/

use std::collections::{BTreeMap, HashMap};

use crate::api::{ClusterClass, RefSite, TemplateRefSpec};
use crate::diag::{Code, Diagnostic};
use crate::load::Object;
use crate::load::object::group_of;
use crate::topology::contract::{self, Contract};

/// Index of the input's objects by (group, kind, namespace, name).
#[derive(Debug, Default)]
pub struct Catalog<'a> {
    by_key: HashMap<(String, String, String, String), &'a Object>,
    by_name: HashMap<(String, String), Vec<&'a Object>>,
    crds: Vec<&'a Object>,
}

impl<'a> Catalog<'a> {
    /// Index every object.
    pub fn new(objects: &'a [Object]) -> Catalog<'a> {
        let by_key = objects
            .iter()
            .map(|o| {
                (
                    (
                        o.group().to_string(),
                        o.kind.clone(),
                        o.namespace.clone(),
                        o.name.clone(),
                    ),
                    o,
                )
            })
            .collect();
        let mut by_name: HashMap<(String, String), Vec<&'a Object>> = HashMap::new();
        for o in objects {
            by_name
                .entry((o.namespace.clone(), o.name.clone()))
                .or_default()
                .push(o);
        }
        let crds = objects
            .iter()
            .filter(|o| o.kind == "CustomResourceDefinition" && o.group() == "apiextensions.k8s.io")
            .collect();
        Catalog {
            by_key,
            by_name,
            crds,
        }
    }

    /// CustomResourceDefinitions in the input.
    pub fn crds(&self) -> impl Iterator<Item = &'a Object> + '_ {
        self.crds.iter().copied()
    }

    /// Objects of any kind with this namespace and name (for "did you mean" hints).
    pub fn named(&self, namespace: &str, name: &str) -> &[&'a Object] {
        self.by_name
            .get(&(namespace.to_string(), name.to_string()))
            .map_or(&[], Vec::as_slice)
    }

    /// The object with this group, kind, namespace and name.
    pub fn get(&self, group: &str, kind: &str, namespace: &str, name: &str) -> Option<&'a Object> {
        self.by_key
            .get(&(
                group.to_string(),
                kind.to_string(),
                namespace.to_string(),
                name.to_string(),
            ))
            .copied()
    }
}

/// Templates of one MachineDeployment class.
#[derive(Debug, Clone)]
pub struct MachineDeploymentBlueprint<'a> {
    /// Index in `spec.workers.machineDeployments`.
    pub index: usize,
    /// Bootstrap config template.
    pub bootstrap: &'a Object,
    /// Infrastructure machine template.
    pub infrastructure: &'a Object,
}

/// Templates of one MachinePool class.
#[derive(Debug, Clone)]
pub struct MachinePoolBlueprint<'a> {
    /// Index in `spec.workers.machinePools`.
    pub index: usize,
    /// Bootstrap config template.
    pub bootstrap: &'a Object,
    /// Infrastructure machine pool template.
    pub infrastructure: &'a Object,
}

/// A ClusterClass and its resolved templates.
#[derive(Debug, Clone)]
pub struct Blueprint<'a> {
    /// The class.
    pub class: &'a ClusterClass,
    /// InfrastructureCluster template.
    pub infrastructure_cluster: &'a Object,
    /// ControlPlane template.
    pub control_plane: &'a Object,
    /// Control plane machines' infrastructure template, when the class has one.
    pub control_plane_machine_infrastructure: Option<&'a Object>,
    /// MachineDeployment classes by class name.
    pub machine_deployments: BTreeMap<String, MachineDeploymentBlueprint<'a>>,
    /// MachinePool classes by class name.
    pub machine_pools: BTreeMap<String, MachinePoolBlueprint<'a>>,
    /// The provider contract the ControlPlane follows (its field paths).
    pub control_plane_contract: Contract,
}

impl<'a> Blueprint<'a> {
    /// Resolve every template of `class`; all failures are returned together.
    pub fn resolve(
        class: &'a ClusterClass,
        catalog: &Catalog<'a>,
    ) -> Result<Blueprint<'a>, Vec<Diagnostic>> {
        let mut errors = Vec::new();
        let spec = &class.spec;
        let mut get = |r: &TemplateRefSpec, site: RefSite, what: &str| -> Option<&'a Object> {
            match resolve_ref(class, catalog, r, site, what) {
                Ok(o) => Some(o),
                Err(e) => {
                    errors.push(e);
                    None
                }
            }
        };
        let infra = get(
            &spec.infrastructure.template_ref,
            RefSite::Infrastructure,
            "infrastructure",
        );
        let cp = get(
            &spec.control_plane.template_ref,
            RefSite::ControlPlane,
            "controlPlane",
        );
        let cp_mi = if spec
            .control_plane
            .machine_infrastructure
            .template_ref
            .is_defined()
        {
            get(
                &spec.control_plane.machine_infrastructure.template_ref,
                RefSite::ControlPlaneMachineInfrastructure,
                "controlPlane.machineInfrastructure",
            )
        } else {
            None
        };
        let mut mds = BTreeMap::new();
        for (i, md) in spec.workers.machine_deployments.iter().enumerate() {
            let b = get(
                &md.bootstrap.template_ref,
                RefSite::MachineDeploymentBootstrap(i),
                &format!("workers.machineDeployments[{}].bootstrap", md.class),
            );
            let inf = get(
                &md.infrastructure.template_ref,
                RefSite::MachineDeploymentInfrastructure(i),
                &format!("workers.machineDeployments[{}].infrastructure", md.class),
            );
            if let (Some(bootstrap), Some(infrastructure)) = (b, inf) {
                mds.insert(
                    md.class.clone(),
                    MachineDeploymentBlueprint {
                        index: i,
                        bootstrap,
                        infrastructure,
                    },
                );
            }
        }
        let mut mps = BTreeMap::new();
        for (i, mp) in spec.workers.machine_pools.iter().enumerate() {
            let b = get(
                &mp.bootstrap.template_ref,
                RefSite::MachinePoolBootstrap(i),
                &format!("workers.machinePools[{}].bootstrap", mp.class),
            );
            let inf = get(
                &mp.infrastructure.template_ref,
                RefSite::MachinePoolInfrastructure(i),
                &format!("workers.machinePools[{}].infrastructure", mp.class),
            );
            if let (Some(bootstrap), Some(infrastructure)) = (b, inf) {
                mps.insert(
                    mp.class.clone(),
                    MachinePoolBlueprint {
                        index: i,
                        bootstrap,
                        infrastructure,
                    },
                );
            }
        }
        let control_plane_contract = match cp {
            Some(tpl) => {
                let kind = tpl.kind.strip_suffix("Template").unwrap_or(&tpl.kind);
                match contract::resolve(catalog.crds(), &tpl.api_version, kind) {
                    Ok(c) => c,
                    Err(e) => {
                        errors.push(
                            Diagnostic::error(Code::ClassTemplateReference, format!("ClusterClass {}: {e}", class.key()))
                                .at(
                                    &class.object.origin,
                                    &class.ref_pointer(RefSite::ControlPlane),
                                    "ControlPlane template",
                                )
                                .with_help(
                                    "the CRD's cluster.x-k8s.io/<contract> labels must list this API version",
                                ),
                        );
                        Contract::V1Beta1
                    }
                }
            }
            None => Contract::V1Beta1,
        };
        match (infra, cp) {
            (Some(infrastructure_cluster), Some(control_plane)) if errors.is_empty() => {
                Ok(Blueprint {
                    control_plane_contract,
                    class,
                    infrastructure_cluster,
                    control_plane,
                    control_plane_machine_infrastructure: cp_mi,
                    machine_deployments: mds,
                    machine_pools: mps,
                })
            }
            _ => Err(errors),
        }
    }
}

/// Find the template a reference names, in the class's namespace.
fn resolve_ref<'a>(
    class: &ClusterClass,
    catalog: &Catalog<'a>,
    r: &TemplateRefSpec,
    site: RefSite,
    what: &str,
) -> Result<&'a Object, Diagnostic> {
    let ptr = class.ref_pointer(site);
    let ns = &class.object.namespace;
    if r.name.is_empty() || r.kind.is_empty() || r.api_version.is_empty() {
        let missing: Vec<&str> = [
            ("apiVersion", &r.api_version),
            ("kind", &r.kind),
            ("name", &r.name),
        ]
        .into_iter()
        .filter(|(_, v)| v.is_empty())
        .map(|(k, _)| k)
        .collect();
        return Err(Diagnostic::error(
            Code::ClassTemplateReference,
            format!(
                "ClusterClass {}: the {what} template reference has no {}",
                class.key(),
                missing.join(", ")
            ),
        )
        .at(&class.object.origin, &ptr, "incomplete reference")
        .with_help("a template reference needs apiVersion, kind and name"));
    }
    let group = group_of(&r.api_version);
    match catalog.get(group, &r.kind, ns, &r.name) {
        Some(o) if o.api_version == r.api_version => Ok(o),
        Some(o) => Err(Diagnostic::error(Code::ClassTemplateReference, format!(
            "ClusterClass {}: the {what} template {} {ns}/{} is {} in the input, but the class references {}",
            class.key(),
            r.kind,
            r.name,
            o.api_version,
            r.api_version
        ))
        .at(&class.object.origin, &format!("{ptr}/apiVersion"), "version mismatch")
        .with_help(format!(
            "Cluster API fetches templates at the apiVersion written in the class; found at {}",
            o.origin.location("/apiVersion")
        ))),
        None => {
            let other_kinds: Vec<String> = catalog
                .named(ns, &r.name)
                .iter()
                .map(|o| format!("{} ({}) at {}", o.kind, o.api_version, o.origin.location("/kind")))
                .collect();
            let help = if other_kinds.is_empty() {
                format!(
                    "add a {} named {:?} in namespace {ns:?} to the input (templates live in the ClusterClass namespace)",
                    r.kind, r.name
                )
            } else {
                format!(
                    "kind mismatch: the input has {ns}/{} as {}, but the class references a {}",
                    r.name,
                    other_kinds.join(", "),
                    r.kind
                )
            };
            Err(Diagnostic::error(Code::ClassTemplateNotFound, format!(
                "ClusterClass {}: {what} template {} {ns}/{} ({}) not found in the input",
                class.key(),
                r.kind,
                r.name,
                r.api_version
            ))
            .at(&class.object.origin, &format!("{ptr}/kind"), "references a missing template")
            .with_help(help))
        }
    }
}
