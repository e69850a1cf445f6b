/*!
Admission over a whole input: what `topoplan validate` reports and what `plan` checks first.

Owns the run from loaded objects to [`Validation`]: pairing each ClusterClass and Cluster with its
old version (`--old`), building each class's `status.variables`, running the webhooks' defaulting
and validation in Cluster API's order, and turning every Kubernetes field error into a diagnostic
at the offending line. The rules themselves live in the sibling modules; this file only drives
them.
*/

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde_json::Value;

use crate::api::{self, ApiVersion, Cluster, ClusterClass};
use crate::diag::{Code, Diagnostic, Severity};
use crate::k8s::field::FieldError;
use crate::load::Object;
use crate::source::Origin;

use super::options::{Options, Outcome};
use super::stored;
use crate::k8s::field::Path;
use crate::variables::definitions::StatusVariables;
use crate::variables::status::{Discovery, NotReconciled, status_variables};

/// Whether the run serves `validate` or `plan`: a class whose templates are missing from the
/// input is fine for the webhook (it never reads them) but cannot be planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `topoplan validate`: missing templates are warnings.
    Validate,
    /// `topoplan plan`: missing templates are left to the planner, which rejects them.
    Plan,
}

/// How admission runs.
#[derive(Debug, Clone, Copy)]
pub struct Settings<'a> {
    /// `validate` or `plan`.
    pub mode: Mode,
    /// Feature gates (`--feature-gates`).
    pub gates: super::Gates,
    /// The Runtime extensions that answer DiscoverVariables; without them, recorded
    /// DiscoverVariablesResponse documents of the input stand in.
    pub registry: Option<&'a crate::runtime::Registry>,
    /// The CustomResourceDefinitions objects are admitted with (the input's, `--crds`,
    /// `--current`'s, and Cluster API's built in).
    pub crds: &'a crate::crd::Crds,
    /// Every stored object (`--current`), for the CRDs' transition rules; `None`: `old`.
    pub stored: Option<&'a [Object]>,
}

impl Settings<'_> {
    /// Default gates for `mode`, no extensions, Cluster API's built-in CRDs.
    pub fn new(mode: Mode) -> Settings<'static> {
        Settings {
            mode,
            gates: super::Gates::default(),
            registry: None,
            crds: crate::crd::Crds::builtin(),
            stored: None,
        }
    }
}

/// One problem found, with the object it belongs to.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Kind of the object (`Cluster`, `ClusterClass`), empty for input-level findings.
    pub kind: String,
    /// Namespace of the object.
    pub namespace: String,
    /// Name of the object.
    pub name: String,
    /// The field path as Cluster API prints it (`spec.topology.version`), empty if none.
    pub path: String,
    /// Cluster API's message for the field (`<path>: <type>: <value>: <detail>`) or the warning.
    pub message: String,
    /// The diagnostic shown to people (located in the input).
    pub diagnostic: Diagnostic,
}

impl Finding {
    /// Error or warning.
    pub fn severity(&self) -> Severity {
        self.diagnostic.severity
    }
}

/// The result of running admission over an input.
#[derive(Debug, Default)]
pub struct Validation {
    /// Every error and warning, in input order of the objects.
    pub findings: Vec<Finding>,
    /// Each ClusterClass's `status.variables`, for the classes whose variables reconciled.
    pub status_variables: BTreeMap<(String, String), StatusVariables>,
}

impl Validation {
    /// `validate --strict`: a field the schema prunes is an error, as the API server's strict
    /// field validation (`kubectl --validate=strict`) refuses an unknown field.
    pub fn strict(&mut self) {
        for f in &mut self.findings {
            if f.diagnostic.code == Code::SchemaPruned {
                f.diagnostic.severity = Severity::Error;
            }
        }
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings
            .iter()
            .any(|f| f.severity() == Severity::Error)
    }

    /// The findings as diagnostics.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.findings.iter().map(|f| f.diagnostic.clone()).collect()
    }
}

/// Run admission over `objects`, leaving each ClusterClass and Cluster as the API server would
/// store it (Cluster API's defaults applied, in place: a fleet's Clusters are not copied); `old`
/// holds the objects as they are now (`--old`), which turns creates into updates;
/// `runtime_messages` may hold recorded DiscoverVariables responses.
///
/// Findings come in Cluster API's order whatever the scheduling: objects that do not decode (in
/// input order), then each ClusterClass (by namespace and name), then each Cluster (in input
/// order).
pub fn admit(
    objects: &mut [Object],
    old: &[Object],
    runtime_messages: &[(Value, Origin)],
    settings: &Settings,
) -> Validation {
    let mut findings = Vec::new();

    // The API server's schema stage comes before any webhook: every object a CRD serves is
    // pruned, defaulted and validated in place; one it refuses goes no further.
    let (schema_findings, refused) =
        schema_stage(objects, settings.stored.unwrap_or(old), settings.crds);
    findings.extend(schema_findings);

    let DecodedInput {
        classes,
        cluster_at,
        defaulted,
        mut undecoded,
    } = decode_input(objects, &refused);
    let (old_classes, old_clusters) = decode_stored(old);

    // ClusterClasses first: a Cluster's variables are only checked against a class the API
    // server would have accepted.
    let users = class_users(objects, &cluster_at, &classes, &old_classes, &old_clusters);
    let Admitted {
        class_ok,
        status_vars,
        findings: class_findings,
    } = admit_classes(
        &classes,
        &old_classes,
        &users,
        &refused,
        objects,
        runtime_messages,
        settings,
    );
    findings.extend(class_findings);
    drop(users);
    // What a Cluster's version change is checked against: every stored object, read only
    // when a version changes.
    let live = super::cluster::rollout::Live::new(settings.stored.unwrap_or(old));
    let clusters = ClusterAdmission {
        settings,
        refused: &refused,
        classes: &classes,
        old_classes: &old_classes,
        old_clusters: &old_clusters,
        class_ok: &class_ok,
        status_vars: &status_vars,
        live: &live,
    };
    // ClusterClasses take their stored form now that every rule has read them as written.
    for (i, v) in defaulted {
        if let Some(o) = objects.get_mut(i) {
            o.value = v;
        }
    }
    let (mut cluster_findings, cluster_undecoded) =
        admit_clusters(objects, &cluster_at, &refused, &clusters);
    undecoded.extend(cluster_undecoded);
    undecoded.sort_by_key(|(i, _)| *i);
    let mut all: Vec<Finding> = undecoded.into_iter().map(|(_, f)| f).collect();
    all.append(&mut findings);
    all.append(&mut cluster_findings);
    Validation {
        findings: all,
        status_variables: status_vars,
    }
}

/// The input's ClusterClasses, decoded, and where its Clusters are.
struct DecodedInput {
    classes: BTreeMap<(String, String), ClusterClass>,
    /// Input index of every Cluster (decoded one at a time when admitted, so that a fleet's
    /// worth of typed Clusters never exists at once).
    cluster_at: Vec<usize>,
    /// Stored forms of the classes defaulting changed, by input index.
    defaulted: BTreeMap<usize, Value>,
    /// Findings of objects that do not decode, by input index (Clusters' join them later).
    undecoded: Vec<(usize, Finding)>,
}

/// Decode every ClusterClass (and find every Cluster); a type error in a spec is already a
/// located diagnostic.
fn decode_input(objects: &[Object], refused: &std::collections::HashSet<String>) -> DecodedInput {
    let mut out = DecodedInput {
        classes: BTreeMap::new(),
        cluster_at: Vec::new(),
        defaulted: BTreeMap::new(),
        undecoded: Vec::new(),
    };
    // Decoding is per object and independent: in parallel, then gathered in input order.
    let decoded: Vec<Decoded> = objects
        .par_iter()
        .enumerate()
        .map(|(i, o)| decode(i, o))
        .collect();
    for (i, d) in decoded.into_iter().enumerate() {
        match d {
            Decoded::Skip => {}
            // An object the CRD's schema refused never reached Cluster API: its decoding
            // errors would only repeat the API server's.
            Decoded::Finding(_) if refused.contains(&objects[i].key_with_kind()) => {}
            Decoded::Finding(f) => out.undecoded.push((i, *f)),
            Decoded::Class(c, stored) => {
                if let Some((i, v)) = stored {
                    out.defaulted.insert(i, v);
                }
                out.classes
                    .insert((c.object.namespace.clone(), c.object.name.clone()), *c);
            }
            Decoded::Cluster(i) => out.cluster_at.push(i),
        }
    }
    out
}

/// Stored ClusterClasses by (namespace, name).
type StoredClasses = BTreeMap<(String, String), ClusterClass>;
/// Stored Clusters by (namespace, name), decoded when admission reads them (a fleet's worth
/// of typed Clusters at once would cost more than the objects themselves).
type StoredClusters<'o> = BTreeMap<(String, String), (&'o Object, ApiVersion)>;

/// The stored (`--old`) ClusterClasses, decoded, and Clusters, found; what does not decode is
/// ignored (it is not the input's to report).
fn decode_stored(old: &[Object]) -> (StoredClasses, StoredClusters<'_>) {
    let mut old_classes = BTreeMap::new();
    let mut old_clusters = BTreeMap::new();
    for o in old {
        let Ok(Some(api)) = api::check_core_object(o) else {
            continue;
        };
        let k = (o.namespace.clone(), o.name.clone());
        match o.kind.as_str() {
            "ClusterClass" => {
                if let Ok(c) = ClusterClass::parse(o, api) {
                    old_classes.insert(k, c);
                }
            }
            "Cluster" => {
                old_clusters.insert(k, (o, api));
            }
            _ => {}
        }
    }
    (old_classes, old_clusters)
}

/// The Clusters an update of a class is checked against: the input's (decoded all at once,
/// only when some class is an update; those that do not decode are reported with the
/// Clusters), then the stored ones the input does not replace, which still use their classes.
fn class_users(
    objects: &[Object],
    cluster_at: &[usize],
    classes: &BTreeMap<(String, String), ClusterClass>,
    old_classes: &StoredClasses,
    old_clusters: &StoredClusters<'_>,
) -> Vec<Cluster> {
    if !classes.keys().any(|k| old_classes.contains_key(k)) {
        return Vec::new();
    }
    // Only what the class rules read is kept of them (names and spec, not the whole object).
    let slim = |c: Cluster| Cluster {
        object: Object {
            value: Value::Null,
            ..c.object
        },
        ..c
    };
    let mut users: Vec<Cluster> = cluster_at
        .par_iter()
        .filter_map(|&i| {
            let o = &objects[i];
            let api = api::check_core_object(o).ok().flatten()?;
            Cluster::parse(o, api).ok().map(slim)
        })
        .collect();
    let input_keys: std::collections::BTreeSet<(&str, &str)> =
        users.iter().map(|c| (c.namespace(), c.name())).collect();
    let kept_old: Vec<Cluster> = old_clusters
        .iter()
        .filter(|(k, _)| !input_keys.contains(&(k.0.as_str(), k.1.as_str())))
        .filter_map(|(_, (o, api))| Cluster::parse(o, *api).ok().map(slim))
        .collect();
    drop(input_keys);
    users.extend(kept_old);
    users
}

/// What admitting the ClusterClasses leaves for their Clusters.
struct Admitted {
    /// Whether each class was admitted without error.
    class_ok: BTreeMap<(String, String), bool>,
    /// Each class's `status.variables`, for the classes whose variables reconciled.
    status_vars: BTreeMap<(String, String), StatusVariables>,
    /// The classes' findings, by namespace and name.
    findings: Vec<Finding>,
}

/// Admit every ClusterClass (by namespace and name).
fn admit_classes(
    classes: &BTreeMap<(String, String), ClusterClass>,
    old_classes: &StoredClasses,
    users: &[Cluster],
    refused: &std::collections::HashSet<String>,
    objects: &[Object],
    runtime_messages: &[(Value, Origin)],
    settings: &Settings,
) -> Admitted {
    let mut out = Admitted {
        class_ok: BTreeMap::new(),
        status_vars: BTreeMap::new(),
        findings: Vec::new(),
    };
    for (k, class) in classes {
        // Refused by the CRD's schema: no webhook runs.
        if refused.contains(&class.object.key_with_kind()) {
            out.class_ok.insert(k.clone(), false);
            continue;
        }
        let (ok, vars) = admit_class(
            class,
            old_classes.get(k),
            users,
            &mut out.findings,
            objects,
            runtime_messages,
            settings,
        );
        out.class_ok.insert(k.clone(), ok);
        if let Some(sv) = vars {
            out.status_vars.insert(k.clone(), sv);
        }
    }
    out
}

/// Admit one ClusterClass (against `users`, the Clusters using it), appending its findings;
/// returns whether it was admitted without error, and its `status.variables` if they
/// reconciled.
fn admit_class(
    class: &ClusterClass,
    old_class: Option<&ClusterClass>,
    users: &[Cluster],
    findings: &mut Vec<Finding>,
    objects: &[Object],
    runtime_messages: &[(Value, Origin)],
    settings: &Settings,
) -> (bool, Option<StatusVariables>) {
    let k = (class.object.namespace.clone(), class.object.name.clone());
    let using: Vec<&Cluster> = users
        .iter()
        .filter(|c| c.spec.topology.is_some() && c.class_key() == k)
        .collect();
    let opts = Options {
        gates: settings.gates,
        class_variables: true,
        ..Options::default()
    };
    let outcome = super::cluster_class_with(&opts, class, old_class, &using);
    let before = findings.len();
    push_outcome(findings, &class.object, class.api, outcome);
    let ok = findings[before..]
        .iter()
        .all(|f| f.severity() != Severity::Error);
    if settings.mode == Mode::Validate {
        findings.extend(missing_templates(class, objects));
        // What admission accepts but Cluster API would render as `<no value>`, or
        // differently on every reconcile (`plan` warns of the same).
        let lint = crate::lint::unknown_template_paths(class)
            .into_iter()
            .map(|u| u.warning)
            .chain(crate::lint::non_deterministic_templates(class));
        findings.extend(lint.map(|d| plain(&class.object, d)));
    }
    let discovery = match settings.registry {
        Some(r) => Discovery::Live(r),
        None => Discovery::Recorded(runtime_messages),
    };
    match status_variables(class, discovery) {
        Ok(sv) => (ok, Some(sv)),
        // The topology controller does not reconcile a Cluster whose class did not: a plan
        // cannot go on.
        Err(NotReconciled(mut d)) => {
            if settings.mode == Mode::Plan {
                d.severity = Severity::Error;
            }
            findings.push(plain(&class.object, d));
            (ok, None)
        }
    }
}

/// The shared, finished state each Cluster's admission reads.
struct ClusterAdmission<'a> {
    settings: &'a Settings<'a>,
    refused: &'a std::collections::HashSet<String>,
    classes: &'a BTreeMap<(String, String), ClusterClass>,
    old_classes: &'a StoredClasses,
    old_clusters: &'a StoredClusters<'a>,
    class_ok: &'a BTreeMap<(String, String), bool>,
    status_vars: &'a BTreeMap<(String, String), StatusVariables>,
    live: &'a super::cluster::rollout::Live<'a>,
}

impl ClusterAdmission<'_> {
    /// The mutating webhook (defaults, variables) then the validating one over `cluster`:
    /// its findings, and its stored form when defaulting changed it.
    fn admit(&self, cluster: &Cluster) -> (Vec<Finding>, Option<Value>) {
        let mut findings = Vec::new();
        let k = (cluster.namespace().to_string(), cluster.name().to_string());
        let old_cluster = self
            .old_clusters
            .get(&k)
            .and_then(|(o, api)| Cluster::parse(o, *api).ok());
        let old_cluster = old_cluster.as_ref();
        if self.refused.contains(&cluster.object.key_with_kind()) {
            return (findings, None);
        }
        let class_key = cluster.class_key();
        let class = self.classes.get(&class_key);
        // The class the Cluster used before: only consulted when the reference changes.
        let old_class = old_cluster.and_then(|c| {
            let ok = c.class_key();
            self.old_classes.get(&ok).or_else(|| self.classes.get(&ok))
        });
        let class_admitted = self.class_ok.get(&class_key).copied().unwrap_or(false);
        let vars = self.status_vars.get(&class_key).filter(|_| class_admitted);
        let opts = Options {
            gates: self.settings.gates,
            class_variables: false,
            cluster_variables: vars,
            live: Some(self.live),
        };
        let mut outcome = super::cluster_with(&opts, cluster, old_cluster, class, old_class);
        if class.is_some() && class_admitted && vars.is_none() && cluster.spec.topology.is_some() {
            // Cluster API's warning for a class whose variables did not reconcile.
            outcome.warnings.push(format!(
                "Cluster refers to ClusterClass {}/{}, but this ClusterClass hasn't been successfully reconciled. \
                 Cluster topology has not been fully validated. Please take a look at the ClusterClass status",
                class_key.0, class_key.1
            ));
        }
        let stored = outcome
            .defaulted
            .as_ref()
            .and_then(|spec| stored::cluster(&cluster.object.value, cluster.api, spec));
        push_outcome(&mut findings, &cluster.object, cluster.api, outcome);
        (findings, stored)
    }
}

/// Admit every Cluster of the input: each one's admission reads only shared, finished state,
/// so they run in parallel, each storing its defaulted form in place. Returns the findings of
/// the Clusters that decoded, in input order, and those of the ones that did not, by input
/// index.
fn admit_clusters(
    objects: &mut [Object],
    cluster_at: &[usize],
    refused: &std::collections::HashSet<String>,
    admission: &ClusterAdmission<'_>,
) -> (Vec<Finding>, Vec<(usize, Finding)>) {
    let is_cluster: Vec<bool> = {
        let mut v = vec![false; objects.len()];
        for &i in cluster_at {
            // A Cluster the CRD's schema refused never reaches the webhooks.
            v[i] = !refused.contains(&objects[i].key_with_kind());
        }
        v
    };
    // (input index, whether the Cluster decoded, its findings)
    let admitted: Vec<(usize, bool, Vec<Finding>)> = objects
        .par_iter_mut()
        .enumerate()
        .filter(|(i, _)| is_cluster[*i])
        .map(|(i, o)| {
            let decoded = api::check_core_object(o)
                .and_then(|api| api.map(|api| Cluster::parse(o, api)).transpose());
            match decoded {
                Ok(Some(cluster)) => {
                    let (findings, stored) = admission.admit(&cluster);
                    drop(cluster);
                    if let Some(v) = stored {
                        o.value = v;
                    }
                    (i, true, findings)
                }
                Ok(None) => (i, true, Vec::new()),
                Err(e) => (i, false, vec![plain(o, e)]),
            }
        })
        .collect();
    let mut cluster_findings = Vec::new();
    let mut undecoded = Vec::new();
    for (i, decoded, mut f) in admitted {
        if decoded {
            cluster_findings.append(&mut f);
        } else {
            undecoded.extend(f.into_iter().map(|f| (i, f)));
        }
    }
    (cluster_findings, undecoded)
}

/// One input object, decoded for admission.
enum Decoded {
    /// Not a ClusterClass or Cluster of Cluster API.
    Skip,
    /// It could not be decoded.
    Finding(Box<Finding>),
    /// A ClusterClass, with its stored form (index, value) when defaulting changed it.
    Class(Box<ClusterClass>, Option<(usize, Value)>),
    /// A Cluster at this index (decoded when it is admitted).
    Cluster(usize),
}

fn decode(i: usize, o: &Object) -> Decoded {
    let api = match api::check_core_object(o) {
        Ok(Some(api)) => api,
        Ok(None) => return Decoded::Skip,
        Err(e) => return Decoded::Finding(Box::new(plain(o, e))),
    };
    match o.kind.as_str() {
        "ClusterClass" => match ClusterClass::parse(o, api) {
            Ok(c) => {
                let stored = stored::cluster_class(&o.value, api).map(|v| (i, v));
                Decoded::Class(Box::new(c), stored)
            }
            Err(e) => Decoded::Finding(Box::new(plain(o, e))),
        },
        "Cluster" => Decoded::Cluster(i),
        _ => Decoded::Skip,
    }
}

fn push_outcome(findings: &mut Vec<Finding>, object: &Object, api: ApiVersion, outcome: Outcome) {
    // The API server's aggregate drops repeated messages (defaulting and validation of the
    // same variable can report the same error); so do we.
    let mut seen = std::collections::HashSet::new();
    for e in &outcome.errors {
        if seen.insert(e.to_string()) {
            findings.push(field_finding(object, api, e));
        }
    }
    for w in outcome.warnings {
        let d = Diagnostic::warning(
            Code::AdmissionWarning,
            format!("{} {}: {w}", object.kind, object.key()),
        )
        .at_key(&object.origin, "", "");
        findings.push(Finding {
            kind: object.kind.clone(),
            namespace: object.namespace.clone(),
            name: object.name.clone(),
            path: String::new(),
            message: w,
            diagnostic: d,
        });
    }
}

/// Errors found on the object as written (its own version's field names, no conversion).
/// The API server's schema stage for every object a CRD of `crds` serves, in parallel: pruned,
/// defaulted and validated in place (with the stored object of `old`, when there is one, for
/// transition rules). Returns the findings in input order (a warning per pruned field, the
/// errors of each refused object) and the refused objects' keys.
fn schema_stage(
    objects: &mut [Object],
    old: &[Object],
    crds: &crate::crd::Crds,
) -> (Vec<Finding>, std::collections::HashSet<String>) {
    let stored: std::collections::HashMap<String, &Value> =
        old.iter().map(|o| (o.key_with_kind(), &o.value)).collect();
    // A fleet's Clusters are mostly one content under many names: one that Cluster API's own
    // schema (whose rules never read the name) admitted without a change or a finding is not
    // admitted again. Updates (a stored object) are always admitted in full.
    let clean = crate::crd::Clean::default();
    let results: Vec<Vec<Finding>> = objects
        .par_iter_mut()
        .map(|o| {
            let Some(s) = crds.for_object(&o.value).cloned() else {
                return Vec::new();
            };
            let old_value = stored.get(&o.key_with_kind()).copied();
            let key = (old_value.is_none() && crds.is_builtin(&o.api_version, &o.kind))
                .then(|| crate::crd::Clean::key(&s, &o.value, crate::crd::Skip::Identity));
            if key.is_some_and(|k| clean.contains(&k)) {
                return Vec::new();
            }
            let round_trip = crds.round_trips(&o.api_version, &o.kind);
            let admitted = crate::crd::admit_with(&mut o.value, old_value, &s, round_trip);
            if let Some(k) = key
                && admitted.pruned.is_empty()
                && admitted.is_valid()
                && crate::crd::Clean::key(&s, &o.value, crate::crd::Skip::Identity) == k
            {
                clean.insert(k);
            }
            let mut out: Vec<Finding> = admitted
                .pruned
                .iter()
                .map(|p| pruned_finding(o, p))
                .collect();
            if !admitted.is_valid() {
                // A required field a provider's file leaves out may be one its defaulting
                // webhook's round trip writes, when topoplan does not know the webhook.
                let hint = !round_trip && !crds.is_builtin(&o.api_version, &o.kind);
                let mut seen = std::collections::HashSet::new();
                for e in &admitted.errors {
                    if !seen.insert(e.to_string()) {
                        continue;
                    }
                    let mut f = located(o, e, e.path.pointer());
                    f.diagnostic.code = Code::SchemaInvalid;
                    if hint && e.kind == crate::k8s::field::ErrorType::Required {
                        f.diagnostic = f.diagnostic.with_help(crate::crd::webhooks::REQUIRED_HELP);
                    }
                    out.push(f);
                }
            }
            out
        })
        .collect();
    let mut refused = std::collections::HashSet::new();
    let mut findings = Vec::new();
    for (o, fs) in objects.iter().zip(results) {
        if fs.iter().any(|f| f.severity() == Severity::Error) {
            refused.insert(o.key_with_kind());
        }
        findings.extend(fs);
    }
    (findings, refused)
}

/// The warning for a field the API server drops from `object` (`path` as it words it,
/// `spec.template.spec.foo`, `spec.list[0].x`), at the field in the user's file.
fn pruned_finding(object: &Object, path: &str) -> Finding {
    let pointer = Path::dotted_pointer(path);
    let d = Diagnostic::warning(
        Code::SchemaPruned,
        format!(
            "{} {}: unknown field \"{path}\": its CustomResourceDefinition does not declare it, so the API server drops it",
            object.kind,
            object.key()
        ),
    )
    .at_key(&object.origin, &pointer, "not in the schema");
    Finding {
        kind: object.kind.clone(),
        namespace: object.namespace.clone(),
        name: object.name.clone(),
        path: path.to_string(),
        message: d.message.clone(),
        diagnostic: d,
    }
}

/// A field error as the API server reports it, located at the field in the user's file. The
/// rules read the v1beta2 form of the spec; for a v1beta1 object the path is mapped back to
/// the field the user wrote.
pub fn field_finding(object: &Object, api: ApiVersion, e: &FieldError) -> Finding {
    let pointer = e.path.pointer();
    let source = match api {
        ApiVersion::V1Beta2 => pointer,
        ApiVersion::V1Beta1 => api::convert::v1beta1_source_pointer(&pointer),
    };
    located(object, e, source)
}

fn located(object: &Object, e: &FieldError, source: String) -> Finding {
    let message = e.to_string();
    let group = object.group();
    let d = Diagnostic::error(
        Code::AdmissionInvalid,
        crate::k8s::field::invalid_object(
            &object.kind,
            group,
            &object.name,
            std::slice::from_ref(e),
        ),
    );
    // A whole list or mapping is pointed at by its key; a scalar by its value.
    let container = object
        .value
        .pointer(&source)
        .is_some_and(|v| v.is_array() || v.is_object());
    let d = if container {
        d.at_key(&object.origin, &source, label(e))
    } else {
        d.at(&object.origin, &source, label(e))
    };
    let d = match &e.help {
        Some(h) => d.with_help(h.clone()),
        None => d,
    };
    Finding {
        kind: object.kind.clone(),
        namespace: object.namespace.clone(),
        name: object.name.clone(),
        path: e.path.to_string(),
        message,
        diagnostic: d,
    }
}

fn label(e: &FieldError) -> String {
    e.kind.as_str().to_lowercase()
}

fn plain(object: &Object, d: Diagnostic) -> Finding {
    Finding {
        kind: object.kind.clone(),
        namespace: object.namespace.clone(),
        name: object.name.clone(),
        path: String::new(),
        message: d.message.clone(),
        diagnostic: d,
    }
}

/// Warnings for template references of `class` that no object of the input satisfies.
fn missing_templates(class: &ClusterClass, objects: &[Object]) -> Vec<Finding> {
    let spec = &class.spec;
    let mut refs = vec![
        (
            api::RefSite::Infrastructure,
            &spec.infrastructure.template_ref,
        ),
        (api::RefSite::ControlPlane, &spec.control_plane.template_ref),
    ];
    refs.push((
        api::RefSite::ControlPlaneMachineInfrastructure,
        &spec.control_plane.machine_infrastructure.template_ref,
    ));
    for (i, md) in spec.workers.machine_deployments.iter().enumerate() {
        refs.push((
            api::RefSite::MachineDeploymentBootstrap(i),
            &md.bootstrap.template_ref,
        ));
        refs.push((
            api::RefSite::MachineDeploymentInfrastructure(i),
            &md.infrastructure.template_ref,
        ));
    }
    for (i, mp) in spec.workers.machine_pools.iter().enumerate() {
        refs.push((
            api::RefSite::MachinePoolBootstrap(i),
            &mp.bootstrap.template_ref,
        ));
        refs.push((
            api::RefSite::MachinePoolInfrastructure(i),
            &mp.infrastructure.template_ref,
        ));
    }
    let catalog = crate::topology::Catalog::new(objects);
    let mut missing: Vec<String> = Vec::new();
    let mut first = None;
    for (site, r) in refs {
        if !r.is_defined() {
            continue;
        }
        let group = crate::load::object::group_of(&r.api_version);
        if catalog
            .get(group, &r.kind, &class.object.namespace, &r.name)
            .is_none()
        {
            let what = format!("{} {}", r.kind, r.name);
            if !missing.contains(&what) {
                missing.push(what);
            }
            first.get_or_insert(site);
        }
    }
    let Some(site) = first else {
        return Vec::new();
    };
    // One warning per class: a class checked on its own lacks every template at once.
    let d = Diagnostic::warning(Code::ClassTemplateNotFound, format!(
        "ClusterClass {}: {} template(s) not in the input: {}; admission does not read them, but the class cannot be planned without them",
        class.key(),
        missing.len(),
        missing.join(", ")
    ))
    .at(&class.object.origin, &class.ref_pointer(site), "not in the input")
    .with_help("pass the provider templates with -f to plan Clusters of this class");
    vec![plain(&class.object, d)]
}
