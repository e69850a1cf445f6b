/*!
What of the management cluster's state (`--current`) a change needs read: the tests that decide,
from a document's text alone, whether [`crate::load::scoped`] parses it.

A 2,000-Cluster export is some 30,000 objects, and a change to one template concerns the
Clusters of the classes that use it; parsing the rest was most of what such a plan cost. The
rounds follow what [`super::affected`] and [`super::stored`] read:

1. the kinds that decide what is affected and what the store always lends: Clusters,
   ClusterClasses, ExtensionConfigs, MutatingWebhookConfigurations (and Nodes, which a
   MachinePool's Machines are matched against), and the stored forms of the change's own
   objects (applied over them as the user's apply would be);
2. everything that names an affected Cluster (its objects carry its name in their
   `cluster.x-k8s.io/cluster-name` label, their owner references or their own names) or a
   template an affected class references;
3. then, for as long as it finds more, whatever the objects read last reference by name
   (`…Ref.name`): an object the topology made under a naming template that leaves the
   Cluster's name out, and without the label, is still reached as the controller reaches it;
4. last, the CustomResourceDefinitions of the kinds read.

A document is passed over only when a test can rule it out: its top-level `kind` is read from
its first lines when they are written plainly (every `kubectl get -o yaml` and `plan
--output-dir` document is), and a name counts as found wherever it is spelled as a whole word
(see [`crate::crd::prefilter`] for why a literal test on YAML text is safe; documents with
escapes in double-quoted scalars are always kept). Any document it cannot tell is parsed in the
first round. With `--all-current` everything is read.
*/

use std::collections::BTreeSet;

use aho_corasick::AhoCorasick;
use serde_json::Value;

use crate::api;
use crate::crd::prefilter::{may_hide_words, spelled, top_kind, whole_word};
use crate::load::Object;
use crate::load::scoped::Test;

use super::affected;

/// Kinds read whatever the change: they decide what is affected, or the store always lends
/// them. (Matched by kind alone; a same-named kind of another group only costs a parse.)
const ALWAYS: &[&str] = &[
    "Cluster",
    "ClusterClass",
    "ExtensionConfig",
    "MutatingWebhookConfiguration",
    "Node",
];

const CRD: &str = "CustomResourceDefinition";

/// The rounds' tests for a change (`change`, the `-f` objects) against the store, as a
/// function for [`crate::load::scoped::load_scoped`].
pub fn rounds(
    change: &[Object],
    all_current: bool,
) -> impl FnMut(usize, &[Object]) -> Option<Test> + '_ {
    let mut state = Rounds {
        change,
        all_current,
        read_before: 0,
        words: BTreeSet::new(),
        crds_done: false,
    };
    move |round, objects| state.next(round, objects)
}

struct Rounds<'a> {
    change: &'a [Object],
    all_current: bool,
    /// How many objects had been read before the last round (the last round's are after).
    read_before: usize,
    /// Names already searched for.
    words: BTreeSet<String>,
    crds_done: bool,
}

impl Rounds<'_> {
    fn next(&mut self, round: usize, objects: &[Object]) -> Option<Test> {
        if self.all_current {
            return (round == 0).then(|| Box::new(|_: &str| true) as Test);
        }
        let last = objects.get(self.read_before..).unwrap_or(&[]);
        self.read_before = objects.len();
        if round == 0 {
            return Some(self.first());
        }
        // Names to look for: after the first round, the affected Clusters and the templates of
        // the affected classes; after that, what the objects read last reference.
        let found: BTreeSet<String> = if round == 1 {
            self.affected_names(objects)
        } else {
            last.iter()
                .flat_map(|o| referenced_names(&o.value))
                .collect()
        };
        let new: Vec<String> = found
            .into_iter()
            .filter(|w| !w.is_empty() && !self.words.contains(w))
            .collect();
        if new.is_empty() || round + 1 >= crate::load::scoped::MAX_ROUNDS {
            return self.crds(objects);
        }
        self.words.extend(new.iter().cloned());
        let Ok(names) = AhoCorasick::new(&new) else {
            // Too many names for one automaton: read everything left.
            return Some(Box::new(|_: &str| true));
        };
        Some(Box::new(move |text: &str| {
            top_kind(text) != Some(CRD) && spells_any(&names, text)
        }))
    }

    /// The first round: [`ALWAYS`], the stored forms of the change's objects, and whatever
    /// cannot be told from its first lines.
    fn first(&self) -> Test {
        let change: Vec<(String, String)> = self
            .change
            .iter()
            .map(|o| (o.kind.clone(), o.name.clone()))
            .collect();
        Box::new(move |text: &str| match top_kind(text) {
            None => true,
            Some(CRD) => false,
            Some(kind) if ALWAYS.contains(&kind) => true,
            Some(kind) => {
                let mut names = change.iter().filter(|(k, _)| k == kind).peekable();
                names.peek().is_some()
                    && (names.any(|(_, n)| spelled(text, n)) || may_hide_words(text))
            }
        })
    }

    /// The names the first round's objects make worth reading: each affected Cluster's and
    /// what it references, and each template's an affected class references.
    fn affected_names(&self, objects: &[Object]) -> BTreeSet<String> {
        let affected = affected::find(self.change.iter(), objects, false);
        let mut names: BTreeSet<String> =
            affected.clusters.iter().map(|(_, n)| n.clone()).collect();
        // Affected Clusters' classes (a class in another namespace than the change's).
        let mut classes = affected.classes.clone();
        for o in objects.iter().chain(self.change) {
            if o.kind == "Cluster" && o.group() == api::GROUP {
                let key = (o.namespace.clone(), o.name.clone());
                if affected.clusters.contains(&key) {
                    classes.insert(affected::class_of(o));
                    // What the Cluster references (its infrastructure cluster, its control
                    // plane), whatever their names.
                    names.extend(referenced_names(&o.value));
                }
            }
        }
        for o in objects.iter().chain(self.change) {
            if o.kind == "ClusterClass"
                && o.group() == api::GROUP
                && classes.contains(&(o.namespace.clone(), o.name.clone()))
            {
                names.extend(
                    affected::template_refs(&o.value)
                        .into_iter()
                        .map(|(_, _, n)| n),
                );
            }
        }
        names
    }

    /// The last round: the CustomResourceDefinitions of the kinds read (and the change's).
    fn crds(&mut self, objects: &[Object]) -> Option<Test> {
        if std::mem::replace(&mut self.crds_done, true) {
            return None;
        }
        let kinds: Vec<String> = crate::crd::wanted_by(objects.iter().chain(self.change))
            .into_iter()
            .map(|g| g.kind)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        Some(Box::new(move |text: &str| {
            top_kind(text) == Some(CRD) && crate::crd::may_define(text, &kinds)
        }))
    }
}

/// Whether `text` spells one of `names` as a whole word, or may spell one through an escape.
fn spells_any(names: &AhoCorasick, text: &str) -> bool {
    let bytes = text.as_bytes();
    names
        .find_overlapping_iter(text)
        .any(|m| whole_word(bytes, m.start(), m.end()))
        || may_hide_words(text)
}

/// Whether the key `k` holds a reference the controller follows (`…Ref`, `…Refs`, `ref`): the
/// rule every walk over references keeps (this module's rounds, and `crate::live`'s reads).
pub fn is_reference_key(k: &str) -> bool {
    k.ends_with("Ref") || k.ends_with("Refs") || k == "ref"
}

/// Whether a walk over references enters `k`: never an object's owners (they are not what it
/// references) or its field ownership records.
pub fn walks_into(k: &str) -> bool {
    k != "ownerReferences" && k != "managedFields"
}

/// The names an object's references give (`name` under any key ending in `Ref` or `Refs`, and
/// in a `ref`), at any depth: the objects the controller would look up from it.
fn referenced_names(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, bool)> = vec![(value, false)];
    while let Some((v, in_ref)) = stack.pop() {
        match v {
            Value::Object(map) => {
                for (k, child) in map {
                    if in_ref && k == "name" {
                        if let Some(s) = child.as_str() {
                            out.push(s.to_string());
                        }
                        continue;
                    }
                    if walks_into(k) {
                        stack.push((child, is_reference_key(k)));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|i| (i, in_ref))),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_give_names_at_any_depth() {
        let v: Value = serde_json::json!({
            "spec": {
                "infrastructureRef": {"kind": "DockerCluster", "name": "a"},
                "template": {"spec": {"bootstrap": {"configRef": {"name": "b"}}}},
                "machineTemplate": {"spec": {"infrastructureRef": {"name": "c"}}},
                "name": "not-a-reference",
            },
            "metadata": {"ownerReferences": [{"name": "owner"}], "name": "self"},
        });
        let mut names = referenced_names(&v);
        names.sort();
        assert_eq!(names, ["a", "b", "c"]);
    }

    #[test]
    fn names_count_as_whole_words_only() {
        let names = AhoCorasick::new(["dev-1"]).unwrap();
        assert!(spells_any(
            &names,
            "labels:\n  cluster.x-k8s.io/cluster-name: dev-1\n"
        ));
        assert!(spells_any(&names, "name: dev-1-md-0-abcde\n"));
        assert!(!spells_any(&names, "name: dev-10\n"));
        assert!(!spells_any(&names, "name: xdev-1\n"));
        // An escape may spell it: kept.
        assert!(spells_any(&names, "a: \"d\\x65v-1\"\n"));
    }
}
