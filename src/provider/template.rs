/*!
A cluster template (`cluster-template[-FLAVOR].yaml`) or ClusterClass file
(`clusterclass-NAME.yaml`) as clusterctl processes it (`NewTemplate` in
`cmd/clusterctl/client/repository/template.go`): its variables with their defaults, then — unless
only the variables are wanted — every variable substituted (one without value or default fails,
in clusterctl's words), the YAML parsed into objects, and every object put into the target
namespace. [`merge`] joins several as clusterctl's `MergeTemplates` does.
*/

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::namespace;
use crate::diag::{Code, Diagnostic};
use crate::load::VariableValues;
use crate::load::envsubst::{self, SubstError};
use crate::load::limit::InputLimit;
use crate::source::{Origin, SourceFile};

/// A processed template.
#[derive(Debug, Clone, Default)]
pub struct Template {
    /// Each variable with its default as clusterctl spells it (`None`: required).
    pub variables: BTreeMap<String, Option<String>>,
    /// The objects, in file order, each with where it was read (none when only the variables
    /// were wanted).
    pub objects: Vec<(Value, Origin)>,
}

/// Process `file` with `vars` into `target_namespace`; with `variables_only`, stop after
/// reading the variables (clusterctl's `SkipTemplateProcess`).
pub fn process(
    file: &Arc<SourceFile>,
    vars: &VariableValues,
    target_namespace: &str,
    variables_only: bool,
    limit: &InputLimit,
) -> Result<Template, Diagnostic> {
    let max = usize::try_from(limit.max()).unwrap_or(usize::MAX);
    let variables = envsubst::variable_defaults(&file.text);
    if variables_only {
        // clusterctl parses the expressions even when it substitutes nothing, and reports a
        // malformed one.
        let permissive = |_: &str| Some(String::new());
        if let Err(e @ SubstError::Syntax { .. }) =
            envsubst::substitute_with_limit(&file.text, &permissive, max)
        {
            return Err(envsubst::to_diagnostic(e, file));
        }
        return Ok(Template {
            variables,
            objects: Vec::new(),
        });
    }
    let lookup = |k: &str| vars.get(k);
    let text = envsubst::substitute_with_limit(&file.text, &lookup, max)
        .map_err(|e| envsubst::to_diagnostic(e, file))?;
    limit.charge(
        text.len().saturating_sub(file.text.len()) as u64,
        &file.name,
    )?;
    let processed = SourceFile::new(file.name.clone(), text);
    let docs = crate::load::yaml::parse_stream(&processed)?;
    let mut objects = Vec::with_capacity(docs.len());
    for (i, doc) in docs.into_iter().enumerate() {
        let origin = Origin {
            file: Arc::clone(&processed),
            spans: Arc::new(doc.spans),
        };
        let mut value = doc.value;
        if !value.is_object() {
            return Err(Diagnostic::error(
                Code::InputObject,
                format!(
                    "failed to parse yaml: failed to unmarshal the {} yaml document: expected a mapping",
                    ordinal(i + 1)
                ),
            )
            .at(&origin, "", "not a mapping"));
        }
        if !target_namespace.is_empty() {
            namespace::fix(&mut value, target_namespace).map_err(|e| {
                Diagnostic::error(
                    Code::InputObject,
                    format!("failed to set the TargetNamespace in the template: {e}"),
                )
                .at(&origin, "", "this object")
            })?;
        }
        objects.push((value, origin));
    }
    Ok(Template { variables, objects })
}

/// clusterctl's `MergeTemplates`: the union of the variables (a default from the first
/// template that has one: a later template's default also fills a variable an earlier one
/// requires), and every object in order.
pub fn merge(templates: Vec<Template>) -> Template {
    let mut merged = Template::default();
    for t in templates {
        for (name, default) in t.variables {
            match merged.variables.get(&name) {
                Some(Some(_)) => {}
                _ => {
                    merged.variables.insert(name, default);
                }
            }
        }
        merged.objects.extend(t.objects);
    }
    merged
}

/// Cluster API's `util.Ordinalize`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(entries: &[(&str, &str)]) -> VariableValues {
        VariableValues::new(
            BTreeMap::new(),
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            BTreeMap::new(),
        )
    }

    #[test]
    fn objects_are_substituted_and_moved_into_the_namespace() {
        let file = SourceFile::new(
            "cluster-template.yaml",
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: ${CLUSTER_NAME}\n  namespace: elsewhere\nspec:\n  topology:\n    version: ${KUBERNETES_VERSION:=v1.34.0}\n",
        );
        let limit = InputLimit::new(1 << 20);
        let t = process(
            &file,
            &vars(&[("CLUSTER_NAME", "c1")]),
            "team-a",
            false,
            &limit,
        )
        .expect("processes");
        assert_eq!(t.objects.len(), 1);
        assert_eq!(
            t.objects[0].0.pointer("/metadata/name"),
            Some(&Value::from("c1"))
        );
        assert_eq!(
            t.objects[0].0.pointer("/metadata/namespace"),
            Some(&Value::from("team-a"))
        );
        assert_eq!(
            t.objects[0].0.pointer("/spec/topology/version"),
            Some(&Value::from("v1.34.0"))
        );
        assert_eq!(t.variables.get("CLUSTER_NAME"), Some(&None));
        let e = process(&file, &vars(&[]), "team-a", false, &limit).expect_err("unset");
        assert!(
            e.message
                .starts_with("value for variables [CLUSTER_NAME] is not set"),
            "{}",
            e.message
        );
        // Listing variables needs no values.
        assert!(process(&file, &vars(&[]), "team-a", true, &limit).is_ok());
    }

    #[test]
    fn merged_defaults_come_from_the_first_that_has_one() {
        let t = |vars: &[(&str, Option<&str>)]| Template {
            variables: vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
                .collect(),
            objects: Vec::new(),
        };
        let m = merge(vec![
            t(&[("A", Some("class")), ("B", None)]),
            t(&[("A", Some("template")), ("B", Some("b")), ("C", None)]),
        ]);
        assert_eq!(m.variables.get("A"), Some(&Some("class".into())));
        assert_eq!(m.variables.get("B"), Some(&Some("b".into())));
        assert_eq!(m.variables.get("C"), Some(&None));
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
    }
}
