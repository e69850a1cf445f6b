/*!
Custom resources as the API server treats them on create and update: the CustomResourceDefinitions
of the input read into a registry, and each object pruned, defaulted and validated against the
schema of the version it is written in, in the API server's order, with its messages.

Owns reading `apiextensions.k8s.io/v1` CustomResourceDefinitions ([`definition`]) into
[`Crds`], keyed by group, version and kind, one entry per served version; each entry is a
[`Structural`]: the schema decoded once (the CRD dialect of [`crate::schema::props`]) with its
CEL rules compiled once, shared behind an `Arc` by every object of that kind; and which documents of `--crds` are worth
parsing at all ([`prefilter`]). And owns the
operations on an object, each in its file, in the order the API server runs them
(`k8s.io/apiextensions-apiserver`, v0.34 and later):

1. [`prune()`] — decoding (`unstructuredSchemaCoercer.apply`): the root ObjectMeta decoded
   ([`objectmeta`]), unknown fields dropped (`structuralpruning.PruneWithOptions`, never
   `apiVersion`, `kind` or `metadata` at the root or at an embedded resource; [`mod@prune`]),
   `null`s of non-nullable fields without default dropped ([`nulls`]), and the ObjectMeta of
   embedded resources decoded ([`objectmeta`]); it returns every dropped field's path.
2. [`default()`] — structural defaulting (`structuraldefaulting.Default`; [`mod@default`]).
3. [`validate()`] — `customResourceStrategy.Validate` / `ValidateUpdate`: the OpenAPI schema
   (kube-openapi, [`crate::schema::value`]), embedded resources' `apiVersion`, `kind` and
   ObjectMeta ([`embedded`]), list-type sets and maps ([`listtype`]), then, unless an error
   already blocks them, the `x-kubernetes-validations` rules ([`crate::schema::cel::Validator`]).

Between defaulting and validation, an object of a kind a provider's MutatingWebhookConfiguration
covers goes through the webhook's round trip through its Go type ([`webhooks`]: absent required
fields get their zero values), and is defaulted again as the API server does after a mutating
webhook.

[`admit()`] runs the three and words the result as the API server's `Invalid` status
(`Kind.group "name" is invalid: [...]`). Where the input comes from is not known here: callers
locate errors themselves with [`crate::k8s::field::Path::pointer`].

Must not: plan, compare or write anything, nor touch an object of a kind it has no CRD for.
What of the API server is not emulated (ObjectMeta rules of the resource root, status and scale
subresources, conversion between versions, validation ratcheting) is listed in
[`validate`](validate/index.html)'s docs.
*/

pub mod admit;
pub mod bounds;
pub mod builtin;
pub mod clean;
pub mod default;
pub mod definition;
pub mod embedded;
pub mod listtype;
pub mod nulls;
pub mod objectmeta;
pub mod prefilter;
pub mod prune;
pub mod structural;
pub mod validate;
pub mod webhooks;

#[cfg(test)]
mod golden;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::load::Object;

pub use admit::{Admitted, admit, admit_with};
pub use clean::{Clean, Skip};
pub use default::default;
pub use prefilter::may_define;
pub use prune::prune;
pub use structural::{Gvk, Structural};
pub use validate::validate;

/// The kinds a run over `objects` can admit or generate, for [`Crds::from_objects_wanted`]:
/// each object's own, the kind a template generates (`DevClusterTemplate` → `DevCluster`), and
/// the objects Cluster API generates (MachineDeployment, MachinePool, MachineHealthCheck) at
/// every Cluster API version the objects use.
pub fn wanted_by<'a>(objects: impl IntoIterator<Item = &'a Object>) -> HashSet<Gvk> {
    let mut out = HashSet::new();
    let mut capi = HashSet::new();
    for o in objects {
        let (group, version) = (o.group(), o.version());
        out.insert(Gvk::new(group, version, &o.kind));
        if let Some(k) = o.kind.strip_suffix("Template") {
            out.insert(Gvk::new(group, version, k));
        }
        if group == crate::api::GROUP {
            capi.insert(version.to_string());
        }
    }
    for v in capi {
        for k in ["MachineDeployment", "MachinePool", "MachineHealthCheck"] {
            out.insert(Gvk::new(crate::api::GROUP, &v, k));
        }
    }
    out
}

/// The served versions of every CustomResourceDefinition read, by group, version and kind.
#[derive(Debug, Clone, Default)]
pub struct Crds {
    by_gvk: HashMap<Gvk, Served>,
    /// The mutating webhooks read with the CRDs ([`webhooks`]).
    hooks: webhooks::Hooks,
    /// Resource names (plurals) of the CRDs read: (group, kind) → plural.
    plurals: HashMap<(String, String), String>,
    /// The served versions a defaulting webhook covers, and the webhook: their objects go
    /// through [`webhooks::round_trip`] before the schema check.
    covered: BTreeMap<Gvk, String>,
}

/// Where a served version's schema comes from.
#[derive(Debug, Clone)]
enum Served {
    /// A CRD of the input, compiled when read.
    Read(Arc<Structural>),
    /// Cluster API's built-in schema, compiled on the first lookup: a run names the kinds it may
    /// meet up front, but meets fewer (generated MachineDeployments are never re-checked), and
    /// compiling a schema it never looks up cost more than checking the ones it does.
    Builtin,
}

impl Crds {
    /// An empty registry.
    pub fn new() -> Crds {
        Crds::default()
    }

    /// Read every CustomResourceDefinition among `objects` (other objects are skipped). A CRD
    /// that cannot be read, wholly or in one version, gives a located warning and contributes
    /// what could be read; a later definition of the same group and kind replaces an earlier one.
    pub fn from_objects<'a>(
        objects: impl IntoIterator<Item = &'a Object>,
    ) -> (Crds, Vec<Diagnostic>) {
        let mut crds = Crds::new();
        let mut warnings = Vec::new();
        for o in objects {
            if definition::is_crd(o) {
                warnings.extend(crds.add(o));
            } else {
                crds.hooks.add(o);
            }
        }
        crds.cover();
        (crds, warnings)
    }

    /// [`Crds::from_objects`], compiling only the versions and kinds `wanted` accepts.
    ///
    /// The CRDs are compiled in parallel (decoding a schema and compiling its CEL rules is most
    /// of what a provider's CRD costs once it is read, and a run needs a dozen of them), then
    /// registered in input order, as one pass would: a later definition still replaces an
    /// earlier one, and the warnings come in input order.
    pub fn from_objects_wanted<'a>(
        objects: impl IntoIterator<Item = &'a Object>,
        wanted: &(dyn Fn(&Gvk) -> bool + Sync),
    ) -> (Crds, Vec<Diagnostic>) {
        use rayon::prelude::*;
        let objects: Vec<&Object> = objects.into_iter().collect();
        let read_one =
            |o: &&Object| definition::is_crd(o).then(|| definition::read_wanted(o, wanted));
        // A run without CRDs (built-in schemas only) does not wake the pool for nothing.
        let several = objects
            .iter()
            .filter(|o| definition::is_crd(o))
            .nth(1)
            .is_some();
        let read: Vec<Option<(Vec<Structural>, Vec<Diagnostic>)>> = if several {
            objects.par_iter().map(read_one).collect()
        } else {
            objects.iter().map(read_one).collect()
        };
        let mut crds = Crds::new();
        let mut warnings = Vec::new();
        for (o, read) in objects.into_iter().zip(read) {
            match read {
                Some((served, w)) => {
                    crds.add_plural(o);
                    for s in served {
                        crds.by_gvk
                            .insert(s.gvk().clone(), Served::Read(Arc::new(s)));
                    }
                    warnings.extend(w);
                }
                None => crds.hooks.add(o),
            }
        }
        crds.cover();
        (crds, warnings)
    }

    /// Remember the resource name `crd` gives its kind, for the webhooks' rules.
    fn add_plural(&mut self, crd: &Object) {
        let s = |p: &str| crd.value.pointer(p).and_then(Value::as_str);
        if let (Some(group), Some(kind), Some(plural)) = (
            s("/spec/group"),
            s("/spec/names/kind"),
            s("/spec/names/plural"),
        ) {
            self.plurals
                .insert((group.to_string(), kind.to_string()), plural.to_string());
        }
    }

    /// Which served versions a defaulting webhook covers (see [`Crds::round_trips`]).
    fn cover(&mut self) {
        self.covered.clear();
        if self.hooks.is_empty() {
            return;
        }
        for gvk in self.by_gvk.keys() {
            let resource = self
                .plurals
                .get(&(gvk.group.clone(), gvk.kind.clone()))
                .cloned()
                .unwrap_or_else(|| webhooks::guess_resource(&gvk.kind));
            if let Some(w) = self.hooks.covering(gvk, &resource) {
                self.covered.insert(gvk.clone(), w);
            }
        }
    }

    /// Whether objects of `api_version` and `kind` go through a defaulting webhook's round trip
    /// ([`webhooks::round_trip`]) before their schema check: a MutatingWebhookConfiguration
    /// read with the CRDs covers them.
    pub fn round_trips(&self, api_version: &str, kind: &str) -> bool {
        !self.covered.is_empty() && self.covered.contains_key(&Gvk::of(api_version, kind))
    }

    /// The run's one warning naming the kinds that go through a webhook's round trip.
    pub fn round_trip_warning(&self) -> Option<Diagnostic> {
        webhooks::round_trip_warning(&self.covered)
    }

    /// Read one CustomResourceDefinition (see [`Crds::from_objects`]); returns its warnings.
    pub fn add(&mut self, crd: &Object) -> Vec<Diagnostic> {
        self.add_plural(crd);
        let (served, warnings) = definition::read(crd);
        for s in served {
            self.by_gvk
                .insert(s.gvk().clone(), Served::Read(Arc::new(s)));
        }
        warnings
    }

    /// The schema objects of `api_version` (`group/version`) and `kind` are admitted with, when a
    /// CRD serves that version.
    pub fn get(&self, api_version: &str, kind: &str) -> Option<&Arc<Structural>> {
        let gvk = Gvk::of(api_version, kind);
        match self.by_gvk.get(&gvk)? {
            Served::Read(s) => Some(s),
            Served::Builtin => builtin::compiled(&gvk),
        }
    }

    /// The schema of `object`'s `apiVersion` and `kind`, if a CRD serves them.
    pub fn for_object(&self, object: &Value) -> Option<&Arc<Structural>> {
        let api_version = object.get("apiVersion").and_then(Value::as_str)?;
        let kind = object.get("kind").and_then(Value::as_str)?;
        self.get(api_version, kind)
    }

    /// [`admit()`] `object` against its CRD; `None` when no CRD serves its version and kind
    /// (the object is left untouched).
    pub fn admit(&self, object: &mut Value, old: Option<&Value>) -> Option<Admitted> {
        let s = Arc::clone(self.for_object(object)?);
        let round_trip = self.round_trips(s.gvk().api_version().as_str(), &s.gvk().kind);
        Some(admit_with(object, old, &s, round_trip))
    }

    /// The built-in registry, every version compiled (for callers that do not know what they
    /// need; the pipeline asks for what its input uses, [`Crds::with_builtin_wanted`]).
    pub fn builtin() -> &'static Crds {
        static CRDS: std::sync::OnceLock<Crds> = std::sync::OnceLock::new();
        CRDS.get_or_init(|| Crds::new().with_builtin())
    }

    /// This registry, plus Cluster API's built-in schemas ([`builtin`]) for the versions and
    /// kinds it does not serve itself: the input's own CRD of a kind wins.
    pub fn with_builtin(self) -> Crds {
        self.with_builtin_wanted(&|_| true)
    }

    /// [`Crds::with_builtin`] for the versions and kinds `wanted` accepts: each built-in schema
    /// is compiled on first use, once per process.
    pub fn with_builtin_wanted(mut self, wanted: &dyn Fn(&Gvk) -> bool) -> Crds {
        for gvk in builtin::served() {
            if !wanted(gvk) || self.by_gvk.contains_key(gvk) {
                continue;
            }
            self.by_gvk.insert(gvk.clone(), Served::Builtin);
        }
        self.cover();
        self
    }

    /// Whether the schema of `api_version` and `kind` is Cluster API's built-in one.
    pub fn is_builtin(&self, api_version: &str, kind: &str) -> bool {
        matches!(
            self.by_gvk.get(&Gvk::of(api_version, kind)),
            Some(Served::Builtin)
        )
    }

    /// How many group-version-kinds are served.
    pub fn len(&self) -> usize {
        self.by_gvk.len()
    }

    /// No CRD was read.
    pub fn is_empty(&self) -> bool {
        self.by_gvk.is_empty()
    }

    /// Every served group-version-kind, sorted.
    pub fn served(&self) -> Vec<&Gvk> {
        let mut v: Vec<&Gvk> = self.by_gvk.keys().collect();
        v.sort();
        v
    }
}
