/*!
A fleet ready to plan: what every Cluster shares, resolved once, and the list of Clusters to plan
one at a time.

Owns the step from admitted objects to planned Clusters: recognising ClusterClasses and topology
Clusters, the checks that need the whole input (`--cluster` names, unknown classes, references
only an existing Cluster has, flavors defined twice), resolving each used class's blueprint, and
handing any one Cluster to the driver on demand. A Cluster is decoded only when it is planned and nothing
of it is kept here afterwards, so a caller streaming the plans holds one fleet's inputs and only
the Clusters in flight. The order of the list is the order of the plan: namespace, name, file.
Planning one Cluster is the driver's ([`crate::pipeline::cluster`]).
*/

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use super::stored::with_stored;
use super::{Extensions, State};
use crate::api::{self, Cluster, ClusterClass};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::Object;
use crate::topology::{Blueprint, Catalog};

/// The ClusterClasses of an admitted input, decoded, by (namespace, name).
pub type Classes = BTreeMap<(String, String), ClusterClass>;

/// Decode the ClusterClasses of `objects` (in parallel; few, but large).
pub fn classes(objects: &[Object]) -> Result<Classes, Diagnostics> {
    let decoded: Vec<Result<Option<ClusterClass>, Diagnostic>> = objects
        .par_iter()
        .filter(|o| o.kind == "ClusterClass")
        .map(|o| {
            let Some(api) = api::check_core_object(o)? else {
                return Ok(None);
            };
            ClusterClass::parse(o, api).map(Some)
        })
        .collect();
    let mut out = Classes::new();
    let mut errors = Vec::new();
    for d in decoded {
        match d {
            Ok(Some(c)) => {
                out.insert((c.object.namespace.clone(), c.object.name.clone()), c);
            }
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(errors))
    }
}

/// One Cluster to plan: where it is in the input, and what the whole-input checks read of it.
#[derive(Debug, Clone)]
struct Entry {
    /// Index in the admitted objects.
    index: usize,
    namespace: String,
    name: String,
    file: String,
    class: (String, String),
    /// References only an existing Cluster has, on a Cluster planned as new.
    refs: Vec<Diagnostic>,
    /// The class is not in the input.
    unknown: Option<Diagnostic>,
}

/// Everything planning a Cluster shares, and the Clusters to plan, in plan order.
pub struct Fleet<'a> {
    objects: &'a [Object],
    blueprints: BTreeMap<(String, String), Blueprint<'a>>,
    clusters: Vec<Entry>,
    /// Clusters defined in several files (flavors): each plan names its file.
    ambiguous: BTreeSet<(String, String)>,
    ext: Extensions<'a>,
    state: State<'a>,
    /// Warnings of the classes, told before any Cluster's.
    warnings: Vec<Diagnostic>,
    /// Warnings about the fleet as a whole, told after every Cluster's.
    closing: Vec<Diagnostic>,
    /// Template paths that are no variable (also among `warnings`): told with a failed run's
    /// errors too, since such a path is the likely cause of a template that fails to render.
    lint: Vec<crate::lint::UnknownPath>,
    /// What explains a path a patch finds missing in a template.
    defaulting: crate::patches::Defaulting,
    /// Generated contents already found to pass their CRDs.
    clean: crate::crd::Clean,
}

impl<'a> Fleet<'a> {
    /// Check the whole input and resolve the blueprints of the classes in use. `only`: plan
    /// just these Clusters (namespace, name); empty means all.
    pub fn prepare(
        objects: &'a [Object],
        classes: &'a Classes,
        catalog: &'a Catalog<'a>,
        only: &[(String, String)],
        ext: Extensions<'a>,
        state: State<'a>,
    ) -> Result<Fleet<'a>, Diagnostics> {
        let mut errors = Vec::new();
        // Each Cluster is decoded here for the checks below, in parallel, then dropped: only
        // its entry stays.
        let decoded: Vec<Result<Option<Entry>, Diagnostic>> = objects
            .par_iter()
            .enumerate()
            .filter(|(_, o)| o.kind == "Cluster")
            .map(|(index, o)| {
                let Some(api) = api::check_core_object(o)? else {
                    return Ok(None);
                };
                let stored = state
                    .index
                    .and_then(|ix| Some((ix.cluster(&o.namespace, &o.name)?, ix)));
                let merged = match stored {
                    Some((s, ix)) => std::borrow::Cow::Owned(with_stored(o, s, ix)?),
                    None => std::borrow::Cow::Borrowed(o),
                };
                let c = Cluster::parse(&merged, api)?;
                if c.spec.topology.is_none() {
                    return Ok(None);
                }
                let refs = if state.index.is_none() {
                    new_cluster_refs(&c)
                } else {
                    Vec::new()
                };
                let class = c.class_key();
                let unknown = (!classes.contains_key(&class)).then(|| unknown_class(&c, classes));
                Ok(Some(Entry {
                    index,
                    namespace: c.namespace().to_string(),
                    name: c.name().to_string(),
                    file: c.object.origin.file.name.clone(),
                    class,
                    refs,
                    unknown,
                }))
            })
            .collect();
        let mut clusters = Vec::new();
        for d in decoded {
            match d {
                Ok(Some(e)) => clusters.push(e),
                Ok(None) => {}
                Err(e) => errors.push(e),
            }
        }

        if !only.is_empty() {
            let (wanted, mut unknown) = selected(only, &clusters);
            errors.append(&mut unknown);
            clusters.retain(|c| wanted.contains(&(c.namespace.clone(), c.name.clone())));
        }
        // Against stored state (`--current`, or the state `diff`'s old side settles in) a
        // change may plan no Cluster: an empty plan, which says what it affected.
        if clusters.is_empty() && errors.is_empty() && state.index.is_none() {
            errors.push(
                Diagnostic::error(Code::PlanNoCluster, "no Cluster with spec.topology found in the input").with_help(
                    "pass the ClusterClass, its templates and at least one Cluster that uses the class",
                ),
            );
        }

        for c in &mut clusters {
            errors.append(&mut c.refs);
        }
        // Resolve each used class once; Clusters of a broken class are not planned.
        let mut blueprints = BTreeMap::new();
        let mut warnings = Vec::new();
        let mut lint = Vec::new();
        let used: BTreeSet<&(String, String)> = clusters.iter().map(|c| &c.class).collect();
        for key in used {
            let Some(class) = classes.get(key) else {
                continue;
            };
            warnings.extend(class.warnings.iter().cloned());
            match Blueprint::resolve(class, catalog) {
                Ok(bp) => {
                    warnings.extend(crate::lint::non_deterministic_templates(class));
                    let found = crate::lint::unknown_template_paths(class);
                    warnings.extend(found.iter().map(|u| u.warning.clone()));
                    lint.extend(found);
                    let (lost, unseen) = crate::lint::ineffective_operations(class);
                    warnings.extend(unseen);
                    if lost.is_empty() {
                        blueprints.insert(key.clone(), bp);
                    } else {
                        errors.extend(lost);
                    }
                }
                Err(mut e) => errors.append(&mut e),
            }
        }
        errors.extend(clusters.iter_mut().filter_map(|c| c.unknown.take()));
        if !errors.is_empty() {
            return Err(Diagnostics(errors));
        }

        clusters.sort_by(|a, b| {
            (&a.namespace, &a.name, &a.file).cmp(&(&b.namespace, &b.name, &b.file))
        });
        // Clusters that share a name come from different files (flavors): label each with its
        // file.
        let mut closing = Vec::new();
        let mut ambiguous = BTreeSet::new();
        for group in clusters.chunk_by(|a, b| (&a.namespace, &a.name) == (&b.namespace, &b.name)) {
            if group.len() > 1 {
                let files: Vec<&str> = group.iter().map(|c| c.file.as_str()).collect();
                closing.push(
                    Diagnostic::warning(Code::InputFlavor, format!(
                        "Cluster {}/{} is defined in {} files ({}); each is planned separately as an alternative flavor",
                        group[0].namespace,
                        group[0].name,
                        files.len(),
                        files.join(", ")
                    ))
                    .with_help("pass one flavor at a time (-f class.yaml -f flavor.yaml) to plan a single Cluster"),
                );
                ambiguous.insert((group[0].namespace.clone(), group[0].name.clone()));
            }
        }
        closing.extend(unchecked_kinds(blueprints.values(), ext.crds));
        let defaulting =
            crate::patches::Defaulting::new(objects, stored_templates(&blueprints, &state));
        Ok(Fleet {
            defaulting,
            objects,
            blueprints,
            clusters,
            ambiguous,
            ext,
            state,
            warnings,
            closing,
            lint,
            clean: Default::default(),
        })
    }

    /// How many Clusters the fleet plans.
    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    /// Whether the fleet plans no Cluster.
    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// Warnings of the classes in use, told before any Cluster's.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The template-path warnings, told with a failed run's errors too.
    pub fn lint(&self) -> &[crate::lint::UnknownPath] {
        &self.lint
    }

    /// Warnings about the fleet as a whole, told after every Cluster's.
    pub fn closing_warnings(&self) -> &[Diagnostic] {
        &self.closing
    }

    /// (namespace, name, file) of the `i`-th Cluster in plan order.
    pub fn entry(&self, i: usize) -> Option<(&str, &str, &str)> {
        self.clusters
            .get(i)
            .map(|e| (e.namespace.as_str(), e.name.as_str(), e.file.as_str()))
    }

    /// The fleet's own current state.
    pub fn state(&self) -> &State<'a> {
        &self.state
    }

    /// What planning needs from admission and the Runtime extensions.
    pub fn extensions(&self) -> &Extensions<'a> {
        &self.ext
    }

    /// What explains a path a patch finds missing in a template.
    pub fn defaulting(&self) -> &crate::patches::Defaulting {
        &self.defaulting
    }

    /// Generated contents already found to pass their CRDs.
    pub fn clean(&self) -> &crate::crd::Clean {
        &self.clean
    }

    /// The `i`-th Cluster's object (in plan order), as admitted.
    pub fn cluster_object(&self, i: usize) -> Result<&'a Object, Vec<Diagnostic>> {
        let entry = self.clusters.get(i).ok_or_else(|| {
            vec![Diagnostic::error(
                Code::Internal,
                format!("no Cluster at position {i}"),
            )]
        })?;
        self.objects.get(entry.index).ok_or_else(|| {
            vec![Diagnostic::error(
                Code::Internal,
                format!("no object at index {}", entry.index),
            )]
        })
    }

    /// The resolved blueprint of `c`'s class.
    pub fn blueprint(&self, c: &Cluster) -> Result<&Blueprint<'a>, Vec<Diagnostic>> {
        self.blueprints.get(&c.class_key()).ok_or_else(|| {
            vec![Diagnostic::error(
                Code::Internal,
                format!("Cluster {}: no blueprint", c.object.key()),
            )]
        })
    }

    /// Whether `w` is at the place of a template path the class's lint already warned of.
    pub fn linted(&self, w: &Diagnostic) -> bool {
        self.lint
            .iter()
            .any(|u| match (&u.warning.location, &w.location) {
                (Some(a), Some(b)) => std::sync::Arc::ptr_eq(&a.file, &b.file) && a.span == b.span,
                _ => false,
            })
    }

    /// Whether several files define the Cluster `namespace/name` (flavors): each plan names
    /// its file.
    pub fn is_flavor(&self, namespace: &str, name: &str) -> bool {
        self.ambiguous
            .contains(&(namespace.to_string(), name.to_string()))
    }
}

/// One warning naming the template kinds (and the kinds generated from them) no CRD describes,
/// when some provider CRD was given: their objects are planned unchecked. With no provider CRD
/// at all nothing is said, as before CRDs were read (docs/reference/crd-schemas.md says how to give them).
fn unchecked_kinds<'b>(
    blueprints: impl Iterator<Item = &'b Blueprint<'b>>,
    crds: &crate::crd::Crds,
) -> Option<Diagnostic> {
    let provider = crds
        .served()
        .iter()
        .any(|g| !crds.is_builtin(&g.api_version(), &g.kind));
    if !provider {
        return None;
    }
    let mut missing = BTreeSet::new();
    for bp in blueprints {
        let mut templates = vec![bp.infrastructure_cluster, bp.control_plane];
        templates.extend(bp.control_plane_machine_infrastructure);
        for md in bp.machine_deployments.values() {
            templates.extend([md.bootstrap, md.infrastructure]);
        }
        for mp in bp.machine_pools.values() {
            templates.extend([mp.bootstrap, mp.infrastructure]);
        }
        for t in templates {
            if crds.get(&t.api_version, &t.kind).is_none() {
                missing.insert(format!("{} {}", t.api_version, t.kind));
            }
        }
    }
    (!missing.is_empty()).then(|| {
        Diagnostic::warning(
            Code::SchemaUnchecked,
            format!(
                "no CustomResourceDefinition for {}: these templates and the objects generated from them were planned without schema checks",
                missing.into_iter().collect::<Vec<_>>().join(", ")
            ),
        )
        .with_help("pass the provider's CRDs with --crds (or in -f, --current), e.g. from its components YAML")
    })
}

/// The templates of `blueprints` that the current state holds at the class's API version: they
/// were planned as the user's file applied over the stored object (`plan::stored`), as
/// (apiVersion, kind, namespace, name).
fn stored_templates(
    blueprints: &BTreeMap<(String, String), Blueprint<'_>>,
    state: &State<'_>,
) -> BTreeSet<(String, String, String, String)> {
    let Some(ix) = state.index else {
        return BTreeSet::new();
    };
    let mut out = BTreeSet::new();
    for bp in blueprints.values() {
        let workers = bp
            .machine_deployments
            .values()
            .flat_map(|m| [m.bootstrap, m.infrastructure])
            .chain(
                bp.machine_pools
                    .values()
                    .flat_map(|m| [m.bootstrap, m.infrastructure]),
            );
        let templates = [bp.infrastructure_cluster, bp.control_plane]
            .into_iter()
            .chain(bp.control_plane_machine_infrastructure)
            .chain(workers);
        for t in templates {
            if ix
                .get(t.group(), &t.kind, &t.namespace, &t.name)
                .is_some_and(|s| s.api_version == t.api_version)
            {
                out.insert((
                    t.api_version.clone(),
                    t.kind.clone(),
                    t.namespace.clone(),
                    t.name.clone(),
                ));
            }
        }
    }
    out
}

/// The (namespace, name) of each Cluster `only` selects, and an error for each selection that
/// names none. A selection with an empty namespace (`--cluster NAME`) takes the Cluster of that
/// name in whichever namespace holds it, and is an error when several do.
fn selected(
    only: &[(String, String)],
    clusters: &[Entry],
) -> (BTreeSet<(String, String)>, Vec<Diagnostic>) {
    let present: BTreeSet<(&str, &str)> = clusters
        .iter()
        .map(|c| (c.namespace.as_str(), c.name.as_str()))
        .collect();
    let mut wanted = BTreeSet::new();
    let mut errors = Vec::new();
    let mut seen = BTreeSet::new();
    for (ns, name) in only {
        if !seen.insert((ns, name)) {
            continue;
        }
        if !ns.is_empty() {
            if present.contains(&(ns.as_str(), name.as_str())) {
                wanted.insert((ns.clone(), name.clone()));
            } else {
                let keys: Vec<String> = present.iter().map(|(n, c)| format!("{n}/{c}")).collect();
                let typo = crate::diag::suggest::nearest(
                    &format!("{ns}/{name}"),
                    keys.iter().map(String::as_str),
                );
                errors.push(
                    Diagnostic::error(Code::PlanNoCluster, format!(
                        "--cluster {ns}/{name}: no Cluster with a topology of that name in the input"
                    ))
                    .with_help(match typo {
                        Some(k) => format!("did you mean --cluster {k}?"),
                        None => "--cluster takes NAMESPACE/NAME of a Cluster that has spec.topology".to_string(),
                    }),
                );
            }
            continue;
        }
        let namespaces: Vec<&str> = present
            .iter()
            .filter(|(_, n)| *n == name)
            .map(|(ns, _)| *ns)
            .collect();
        match namespaces.as_slice() {
            [] => errors.push(
                Diagnostic::error(
                    Code::PlanNoCluster,
                    format!(
                        "--cluster {name}: no Cluster with a topology of that name in the input"
                    ),
                )
                .with_help(
                    match crate::diag::suggest::nearest(name, present.iter().map(|(_, n)| *n)) {
                        Some(n) => format!("did you mean --cluster {n}?"),
                        None => "--cluster takes NAME (or NAMESPACE/NAME) of a Cluster that has spec.topology".to_string(),
                    },
                ),
            ),
            [one] => {
                wanted.insert(((*one).to_string(), name.clone()));
            }
            several => errors.push(
                Diagnostic::error(
                    Code::PlanNoCluster,
                    format!(
                        "--cluster {name}: Clusters of that name are in {} namespaces ({})",
                        several.len(),
                        several.join(", ")
                    ),
                )
                .with_help(format!(
                    "name one as NAMESPACE/NAME (e.g. --cluster {}/{name}), or pass -n",
                    several[0]
                )),
            ),
        }
    }
    (wanted, errors)
}

/// A Cluster planned as new may not carry the references the topology controller sets.
fn new_cluster_refs(c: &Cluster) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for (field, ptr) in [
        ("infrastructureRef", "/spec/infrastructureRef"),
        ("controlPlaneRef", "/spec/controlPlaneRef"),
    ] {
        if c.object
            .value
            .pointer(ptr)
            .is_some_and(|v| !api::is_zero(v))
        {
            errors.push(Diagnostic::error(Code::PlanExistingCluster, format!(
                "Cluster {} has spec.topology and also spec.{field}: the topology controller sets that reference itself, \
                 so this Cluster already exists and cannot be planned as a new one",
                c.object.key()
            ))
            .at(&c.object.origin, ptr, "set by the topology controller")
            .with_help(format!(
                "pass the current objects with --current (for example: kubectl get cluster,machinedeployments,... -o yaml), or remove spec.{field} to plan the Cluster from scratch"
            )));
        }
    }
    errors
}

fn unknown_class(c: &Cluster, classes: &Classes) -> Diagnostic {
    let key = c.class_key();
    let known: Vec<String> = classes.keys().map(|(ns, n)| format!("{ns}/{n}")).collect();
    Diagnostic::error(
        Code::ClassNotFound,
        format!(
            "Cluster {}: ClusterClass {}/{} not found in the input",
            c.object.key(),
            key.0,
            key.1
        ),
    )
    .at(&c.object.origin, &c.class_pointer(), "unknown ClusterClass")
    .with_help(if known.is_empty() {
        "the input holds no ClusterClass; add the class with -f".to_string()
    } else {
        let wanted = format!("{}/{}", key.0, key.1);
        match crate::diag::suggest::nearest(&wanted, known.iter().map(String::as_str)) {
            Some(k) => format!("did you mean {k}? the input holds: {}", known.join(", ")),
            None => format!("the input holds: {}", known.join(", ")),
        }
    })
}
