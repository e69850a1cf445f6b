/*!
`generate cluster --list-variables`: the variables a template uses, printed as clusterctl's
`printVariablesOutput` prints them (`cmd/clusterctl/cmd/util.go`): required ones (no default)
first, then optional ones with their defaults aligned as Go's `tabwriter` aligns them
(padding 2), each list sorted, a blank line at the end.

A default from the template is shown quoted (Go's `%q`) unless it starts with a quote; the
well-known variables show the value `generate cluster` gives them instead, unquoted.
*/

use std::collections::BTreeMap;

/// The values `generate cluster` gives its well-known variables, where it gives one.
#[derive(Debug, Clone, Default)]
pub struct WellKnown {
    /// `CLUSTER_NAME`.
    pub cluster_name: String,
    /// `NAMESPACE`.
    pub namespace: String,
    /// `CONTROL_PLANE_MACHINE_COUNT`.
    pub control_plane_machine_count: String,
    /// `WORKER_MACHINE_COUNT`.
    pub worker_machine_count: String,
    /// `KUBERNETES_VERSION`, when the flag or a variable sets it.
    pub kubernetes_version: Option<String>,
}

/// Render the listing of `variables` (name → template default, `None` when required).
pub fn render(variables: &BTreeMap<String, Option<String>>, known: &WellKnown) -> String {
    let mut required = Vec::new();
    let mut optional: Vec<(&str, String)> = Vec::new();
    for (name, default) in variables {
        let mut shown = default.as_ref().map(|v| {
            if !v.is_empty() && !v.starts_with('"') {
                crate::go::strconv::quote(v, false)
            } else {
                v.clone()
            }
        });
        match name.as_str() {
            "CLUSTER_NAME" => shown = Some(known.cluster_name.clone()),
            "NAMESPACE" => shown = Some(known.namespace.clone()),
            "CONTROL_PLANE_MACHINE_COUNT" => {
                shown = Some(known.control_plane_machine_count.clone())
            }
            "WORKER_MACHINE_COUNT" => shown = Some(known.worker_machine_count.clone()),
            "KUBERNETES_VERSION" => {
                if let Some(v) = &known.kubernetes_version {
                    shown = Some(v.clone());
                }
            }
            _ => {}
        }
        match shown {
            Some(v) => optional.push((name, v)),
            None => required.push(name.as_str()),
        }
    }
    let mut out = String::new();
    if !required.is_empty() {
        out.push_str("Required Variables:\n");
        for name in &required {
            out.push_str(&format!("  - {name}\n"));
        }
    }
    if !optional.is_empty() {
        out.push_str("\nOptional Variables:\n");
        // tabwriter: the first cell is padded to the widest plus 2 (widths in characters).
        let width = optional
            .iter()
            .map(|(n, _)| format!("  - {n}").chars().count())
            .max()
            .unwrap_or(0)
            + 2;
        for (name, value) in &optional {
            let cell = format!("  - {name}");
            let pad = width - cell.chars().count();
            out.push_str(&format!("{cell}{}(defaults to {value})\n", " ".repeat(pad)));
        }
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_like_clusterctl() {
        let vars: BTreeMap<String, Option<String>> = [
            ("CLUSTER_NAME", None),
            ("NAMESPACE", None),
            ("POD_CIDR", Some("192.168.0.0/16")),
            ("QUOTED", Some("\"x\"")),
            ("SSH_KEY", None),
            ("CONTROL_PLANE_MACHINE_COUNT", None),
            ("KUBERNETES_VERSION", None),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
        .collect();
        let known = WellKnown {
            cluster_name: "c1".into(),
            namespace: "default".into(),
            control_plane_machine_count: "1".into(),
            worker_machine_count: "0".into(),
            kubernetes_version: None,
        };
        assert_eq!(
            render(&vars, &known),
            "Required Variables:\n  - KUBERNETES_VERSION\n  - SSH_KEY\n\nOptional Variables:\n  - CLUSTER_NAME                 (defaults to c1)\n  - CONTROL_PLANE_MACHINE_COUNT  (defaults to 1)\n  - NAMESPACE                    (defaults to default)\n  - POD_CIDR                     (defaults to \"192.168.0.0/16\")\n  - QUOTED                       (defaults to \"x\")\n\n"
        );
        assert_eq!(render(&BTreeMap::new(), &known), "\n");
    }
}
