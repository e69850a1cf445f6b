/*!
Which ClusterClass changes the Clusters using it can survive (Cluster API's
`internal/topology/check/compatibility.go`): `ClusterClassesAreCompatible`, used when a
ClusterClass is updated and when a Cluster is rebased onto another class, and
`ClusterClassTemplatesAreValid`, the shape of every template reference.

Only the group and kind of a template reference are compared: its version and name may change.
A MachineDeployment or MachinePool class is compared only with the class of the same name; the
reported index is the one in the new class. Adding or removing the control plane's
`machineInfrastructure` fails, because an absent reference has an empty group and kind.
*/

use serde_json::Value;

use super::read::{TemplateRef, list_at, str_at};
use crate::api::ClusterClass;
use crate::k8s::field::{FieldError, Path};
use crate::k8s::values::{group_of, parse_group_version};

/// `ClusterClassTemplateAreCompatible`: the group and kind must stay.
fn template_compatible(cur: TemplateRef<'_>, des: TemplateRef<'_>, path: &Path) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let (cur_group, des_group) = (group_of(cur.api_version), group_of(des.api_version));
    if cur_group != des_group {
        errs.push(FieldError::forbidden(
            &path.child("apiVersion"),
            format!(
                "group of apiVersion cannot be changed from {} to {} to prevent incompatible changes in the Clusters",
                q(cur_group),
                q(des_group)
            ),
        ));
    }
    if cur.kind != des.kind {
        errs.push(FieldError::forbidden(
            &path.child("kind"),
            format!(
                "kind cannot be changed from {} to {} to prevent incompatible changes in the Clusters",
                q(cur.kind),
                q(des.kind)
            ),
        ));
    }
    errs
}

fn q(s: &str) -> String {
    crate::k8s::field::go_quote(s)
}

/// `ClusterClassesAreCompatible(current, desired)`; `None` stands for Go's nil.
pub fn classes_compatible(
    current: Option<&ClusterClass>,
    desired: Option<&ClusterClass>,
) -> Vec<FieldError> {
    let (Some(current), Some(desired)) = (current, desired) else {
        let which = if current.is_none() {
            "current"
        } else {
            "desired"
        };
        return vec![FieldError::invalid(
            &Path::new(""),
            "",
            format!(
                "could not compare ClusterClass compatibility: {which} ClusterClass must not be nil"
            ),
        )];
    };
    specs_compatible(&current.spec_value, &desired.spec_value)
}

/// [`classes_compatible`] on two v1beta2 specs.
pub fn specs_compatible(cur: &Value, des: &Value) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let spec = Path::new("spec");
    errs.extend(template_compatible(
        TemplateRef::at(cur, &["infrastructure", "templateRef"]),
        TemplateRef::at(des, &["infrastructure", "templateRef"]),
        &spec.child("infrastructure").child("templateRef"),
    ));
    errs.extend(template_compatible(
        TemplateRef::at(cur, &["controlPlane", "templateRef"]),
        TemplateRef::at(des, &["controlPlane", "templateRef"]),
        &spec.child("controlPlane").child("templateRef"),
    ));
    let mi = ["controlPlane", "machineInfrastructure", "templateRef"];
    let (cur_mi, des_mi) = (TemplateRef::at(cur, &mi), TemplateRef::at(des, &mi));
    if cur_mi.is_defined() || des_mi.is_defined() {
        errs.extend(template_compatible(
            cur_mi,
            des_mi,
            &spec
                .child("controlPlane")
                .child("machineInfrastructure")
                .child("templateRef"),
        ));
    }
    for list in ["machineDeployments", "machinePools"] {
        let old_classes = list_at(cur, &["workers", list]);
        for (i, class) in list_at(des, &["workers", list]).iter().enumerate() {
            let name = str_at(class, &["class"]);
            for old in old_classes.iter().filter(|o| str_at(o, &["class"]) == name) {
                errs.extend(template_compatible(
                    TemplateRef::at(old, &["infrastructure", "templateRef"]),
                    TemplateRef::at(class, &["infrastructure", "templateRef"]),
                    &spec
                        .child("workers")
                        .child(list)
                        .index(i)
                        .child("infrastructure")
                        .child("templateRef"),
                ));
            }
        }
    }
    errs
}

/// `ClusterClassTemplateIsValid` for the reference at `ref_at` (a `templateRef` object), reported
/// under `prefix` with Cluster API's legacy `ref` name (pointing at `templateRef`).
fn template_valid(r: TemplateRef<'_>, prefix: &Path) -> Vec<FieldError> {
    let ref_path = prefix.child_as("ref", &["templateRef"]);
    let mut errs = Vec::new();
    if r.name.is_empty() {
        errs.push(FieldError::required(
            &ref_path.child("name"),
            "template name must be defined",
        ));
    }
    if r.kind.len() <= "Template".len() || !r.kind.ends_with("Template") {
        errs.push(FieldError::invalid(
            &ref_path.child("kind"),
            r.kind,
            "template kind must be of form \"<name>Template\"",
        ));
    }
    match parse_group_version(r.api_version) {
        Err(e) => errs.push(FieldError::invalid(
            &ref_path.child("apiVersion"),
            r.api_version,
            format!("template apiVersion must be a valid Kubernetes apiVersion: {e}"),
        )),
        Ok(("", "")) => errs.push(FieldError::required(
            &ref_path.child("apiVersion"),
            "template apiVersion must be defined",
        )),
        Ok(_) => {}
    }
    errs
}

/// `ClusterClassTemplatesAreValid`: every template reference of the class. Worker references
/// are reported at `spec.workers.<list>[i].template.<bootstrap|infrastructure>.ref`, Cluster
/// API's legacy names; the pointers reach the v1beta2 fields.
pub fn templates_valid(spec: &Value) -> Vec<FieldError> {
    let root = Path::new("spec");
    let mut errs = Vec::new();
    errs.extend(template_valid(
        TemplateRef::at(spec, &["infrastructure", "templateRef"]),
        &root.child("infrastructure"),
    ));
    errs.extend(template_valid(
        TemplateRef::at(spec, &["controlPlane", "templateRef"]),
        &root.child("controlPlane"),
    ));
    let mi = TemplateRef::at(
        spec,
        &["controlPlane", "machineInfrastructure", "templateRef"],
    );
    if mi.is_defined() {
        errs.extend(template_valid(
            mi,
            &root.child("controlPlane").child("machineInfrastructure"),
        ));
    }
    for list in ["machineDeployments", "machinePools"] {
        for (i, class) in list_at(spec, &["workers", list]).iter().enumerate() {
            let base = root.child("workers").child(list).index(i);
            for part in ["bootstrap", "infrastructure"] {
                errs.extend(template_valid(
                    TemplateRef::at(class, &[part, "templateRef"]),
                    &base.child_as("template", &[]).child(part),
                ));
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::testutil::{class_with, msgs};

    #[test]
    fn nil_classes() {
        let c = class_with("{}");
        assert_eq!(
            msgs(&classes_compatible(None, Some(&c))),
            [
                ": Invalid value: \"\": could not compare ClusterClass compatibility: current ClusterClass must not be nil"
            ]
        );
        assert_eq!(
            msgs(&classes_compatible(Some(&c), None)),
            [
                ": Invalid value: \"\": could not compare ClusterClass compatibility: desired ClusterClass must not be nil"
            ]
        );
    }

    #[test]
    fn group_and_kind_must_stay() {
        let old = class_with(
            "
workers:
  machineDeployments:
  - class: aa
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: i}}
  machinePools:
  - class: pp
    bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachinePoolTemplate, name: i}}
",
        );
        // Version and name changes, bootstrap changes and new classes are compatible.
        let ok = class_with(
            "
infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta3, kind: DockerClusterTemplate, name: other}}
workers:
  machineDeployments:
  - class: new
    infrastructure: {templateRef: {apiVersion: x.io/v1, kind: XTemplate, name: i}}
  - class: aa
    bootstrap: {templateRef: {apiVersion: other.io/v1, kind: OtherTemplate, name: b}}
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta3, kind: DockerMachineTemplate, name: j}}
",
        );
        assert!(classes_compatible(Some(&old), Some(&ok)).is_empty());
        let bad = class_with(
            "
infrastructure: {templateRef: {apiVersion: foo.io/v1, kind: DockerClusterTemplate, name: infra1}}
controlPlane:
  templateRef: {kind: KCPTemplate}
  machineInfrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DockerMachineTemplate, name: m}}
workers:
  machineDeployments:
  - class: new
  - class: aa
    infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: OtherMachineTemplate, name: i}}
  machinePools:
  - class: pp
    infrastructure: {templateRef: {apiVersion: bar.io/v1, kind: DockerMachinePoolTemplate, name: i}}
",
        );
        let errs = classes_compatible(Some(&old), Some(&bad));
        assert_eq!(
            msgs(&errs),
            [
                "spec.infrastructure.templateRef.apiVersion: Forbidden: group of apiVersion cannot be changed from \"infrastructure.cluster.x-k8s.io\" to \"foo.io\" to prevent incompatible changes in the Clusters",
                "spec.controlPlane.templateRef.kind: Forbidden: kind cannot be changed from \"KubeadmControlPlaneTemplate\" to \"KCPTemplate\" to prevent incompatible changes in the Clusters",
                "spec.controlPlane.machineInfrastructure.templateRef.apiVersion: Forbidden: group of apiVersion cannot be changed from \"\" to \"infrastructure.cluster.x-k8s.io\" to prevent incompatible changes in the Clusters",
                "spec.controlPlane.machineInfrastructure.templateRef.kind: Forbidden: kind cannot be changed from \"\" to \"DockerMachineTemplate\" to prevent incompatible changes in the Clusters",
                "spec.workers.machineDeployments[1].infrastructure.templateRef.kind: Forbidden: kind cannot be changed from \"DockerMachineTemplate\" to \"OtherMachineTemplate\" to prevent incompatible changes in the Clusters",
                "spec.workers.machinePools[0].infrastructure.templateRef.apiVersion: Forbidden: group of apiVersion cannot be changed from \"infrastructure.cluster.x-k8s.io\" to \"bar.io\" to prevent incompatible changes in the Clusters",
            ]
        );
        assert_eq!(
            errs[4].path.pointer(),
            "/spec/workers/machineDeployments/1/infrastructure/templateRef/kind"
        );
    }

    #[test]
    fn template_refs_must_be_valid() {
        let c = class_with(
            "
infrastructure: {templateRef: {apiVersion: a/b/c, kind: Template, name: ''}}
controlPlane:
  templateRef: {apiVersion: '/', kind: KubeadmControlPlaneTemplate, name: cp}
  machineInfrastructure: {templateRef: {kind: DockerMachineTemplate}}
workers:
  machineDeployments:
  - class: aa
    infrastructure: {templateRef: {apiVersion: x.io/v1, kind: XTemplate, name: i}}
",
        );
        let errs = templates_valid(&c.spec_value);
        assert_eq!(
            msgs(&errs),
            [
                "spec.infrastructure.ref.name: Required value: template name must be defined",
                "spec.infrastructure.ref.kind: Invalid value: \"Template\": template kind must be of form \"<name>Template\"",
                "spec.infrastructure.ref.apiVersion: Invalid value: \"a/b/c\": template apiVersion must be a valid Kubernetes apiVersion: unexpected GroupVersion string: a/b/c",
                "spec.controlPlane.ref.apiVersion: Required value: template apiVersion must be defined",
                "spec.controlPlane.machineInfrastructure.ref.name: Required value: template name must be defined",
                "spec.controlPlane.machineInfrastructure.ref.apiVersion: Required value: template apiVersion must be defined",
                "spec.workers.machineDeployments[0].template.bootstrap.ref.name: Required value: template name must be defined",
                "spec.workers.machineDeployments[0].template.bootstrap.ref.kind: Invalid value: \"\": template kind must be of form \"<name>Template\"",
                "spec.workers.machineDeployments[0].template.bootstrap.ref.apiVersion: Required value: template apiVersion must be defined",
            ]
        );
        assert_eq!(
            errs[0].path.pointer(),
            "/spec/infrastructure/templateRef/name"
        );
        assert_eq!(
            errs[6].path.pointer(),
            "/spec/workers/machineDeployments/0/bootstrap/templateRef/name"
        );
    }
}
