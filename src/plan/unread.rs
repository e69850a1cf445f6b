/*!
Which documents of the change (`-f`) a plan never reads: the test that lets the loader check
their YAML syntax without building their values ([`crate::load::LoadOptions::pass_over`]).

A folder handed to `plan -f` often holds more than Cluster API objects: the ConfigMaps of a
ClusterResourceSet (whole CNI manifests), Services, ServiceAccounts. Nothing of the topology
reads them, yet each became a value with a span for every node: four ConfigMaps of 900,000
items each (14 MB) took 766 MB. The rule is narrow on purpose, so that passing over a document
can never change a plan:

- its `apiVersion` is `v1`: a core object. A ClusterClass cannot reference one as a template
  (Cluster API's `ClusterClassTemplateReference.apiVersion` must be `group/version`), and no
  CRD can define one (a CRD's group has a dot);
- its kind is none of those a plan reads from the core group: `Node` (a MachinePool's Machines
  are matched against them), `Namespace` (providers' namespaces) and `Secret` (the bootstrap
  shim the topology controller keeps);
- it spells `x-k8s.io` nowhere: an object that carries a Cluster API label or owner reference
  (which tell a stored Cluster's uid) is read;
- its text is plain enough to be sure of all that: every line at column 0 is a plain `key:`
  (no quoted, tagged, aliased, merge or complex keys, nor a second document), `apiVersion` and
  `kind` appear once each with plain values, and no scalar could spell a word other than
  literally ([`may_hide_words`]).

Such a document is still composed: its syntax errors are located, and its nodes count against
the run's `--max-yaml-nodes`. It is not decoded, so what only decoding finds (a key repeated in
a mapping, an alias loop) goes unreported, and it is not an object of the run: it is not checked
for duplicates or for a namespace contradicting `-n`. `validate` reads everything.
*/

use std::sync::Arc;

use crate::crd::prefilter::may_hide_words;
use crate::load::KeepDocument;

/// [`never_read`] as the loader's pass-over test.
pub fn pass_over() -> KeepDocument {
    KeepDocument(Arc::new(never_read))
}

/// Core kinds a plan reads (see the module docs).
const READ_CORE_KINDS: &[&str] = &["Node", "Namespace", "Secret"];

/// Whether the one-document YAML `text` is one a plan never reads (see the module docs).
pub fn never_read(text: &str) -> bool {
    let Some((api_version, kind)) = plain_root(text) else {
        return false;
    };
    api_version == "v1"
        && !READ_CORE_KINDS.contains(&kind)
        && memchr::memmem::find(text.as_bytes(), b"x-k8s.io").is_none()
        && !may_hide_words(text)
}

/// The `apiVersion` and `kind` of a document whose every line at column 0 is a plain
/// `key: value` or `key:` (or a comment, or the one document marker it starts with), each of
/// the two written once with a plain value. `None` for anything else.
fn plain_root(text: &str) -> Option<(&str, &str)> {
    let mut api_version = None;
    let mut kind = None;
    let mut first = true;
    // Whether the last root key had no value on its line: its value may be a sequence whose
    // items start at column 0.
    let mut open_key = false;
    for line in text.lines() {
        let starts_at_0 = line.bytes().next().is_some_and(|b| b != b' ');
        if !starts_at_0 {
            continue;
        }
        let leading = std::mem::take(&mut first);
        if line.starts_with('#') {
            continue;
        }
        if line.starts_with("---") || line.starts_with("...") || line.starts_with('%') {
            // Only the marker a piece starts with, written bare.
            if leading && line.trim_end() == "---" {
                continue;
            }
            return None;
        }
        if open_key && (line == "-" || line.starts_with("- ")) {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        if !(value.is_empty() || value.starts_with(' ')) || !plain(key) || key.is_empty() {
            return None;
        }
        let value = value.split_once(" #").map_or(value, |(v, _)| v).trim();
        open_key = value.is_empty();
        let slot = match key {
            "apiVersion" => &mut api_version,
            "kind" => &mut kind,
            _ => continue,
        };
        if slot.is_some() || value.is_empty() || !plain(value) {
            return None;
        }
        *slot = Some(value);
    }
    Some((api_version?, kind?))
}

/// Letters, digits and `-_./`: a word YAML reads as written.
fn plain(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cni\n  namespace: default\ndata:\n  calico.yaml: |\n    kind: Deployment\n";

    #[test]
    fn a_plain_core_object_is_never_read() {
        assert!(never_read(CM));
        assert!(never_read(&format!("---\n# a comment\n{CM}")));
        assert!(never_read(
            "kind: Service # trailing\napiVersion: v1\nspec: {}\n"
        ));
        // A sequence under a root key may start its items at column 0.
        assert!(never_read(
            "apiVersion: v1\nkind: ConfigMap\nitems:\n- a\n-\n- b: c\n"
        ));
    }

    #[test]
    fn kinds_a_plan_reads_and_other_groups_are_read() {
        for kind in ["Node", "Namespace", "Secret"] {
            assert!(!never_read(&format!(
                "apiVersion: v1\nkind: {kind}\nmetadata:\n  name: x\n"
            )));
        }
        assert!(!never_read(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n"
        ));
        assert!(!never_read(
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\n"
        ));
    }

    #[test]
    fn a_cluster_api_label_or_owner_is_read() {
        let labelled = CM.replace(
            "  namespace: default\n",
            "  namespace: default\n  labels:\n    cluster.x-k8s.io/cluster-name: dev\n",
        );
        assert!(!never_read(&labelled));
    }

    #[test]
    fn anything_the_line_test_cannot_be_sure_of_is_read() {
        for odd in [
            // A second kind, in any spelling a root line can have.
            "apiVersion: v1\nkind: ConfigMap\nkind: Cluster\n",
            "apiVersion: v1\nkind: ConfigMap\n\"kind\": Cluster\n",
            "apiVersion: v1\nkind: ConfigMap\n<<: {kind: Cluster}\n",
            "apiVersion: v1\nkind: ConfigMap\n*k : Cluster\n",
            "apiVersion: v1\nkind: ConfigMap\n? kind\n: Cluster\n",
            "apiVersion: v1\nkind: ConfigMap\n!!str kind: Cluster\n",
            // A continuation line of a quoted scalar at column 0.
            "apiVersion: v1\nkind: ConfigMap\ndata: \"a\nb\"\n",
            // Not plain values.
            "apiVersion: \"v1\"\nkind: ConfigMap\n",
            "apiVersion: v1\nkind: 'ConfigMap'\n",
            // An escape that may spell anything.
            "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"\\x78-k8s.io\"\n",
            // Two documents, directives, a missing kind.
            "apiVersion: v1\nkind: ConfigMap\n---\nkind: Cluster\n",
            "%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\n",
            "apiVersion: v1\nmetadata: {}\n",
            "- apiVersion: v1\n",
            "apiVersion: v1\nkind: ConfigMap\ndata: x\n- a\n",
        ] {
            assert!(!never_read(odd), "{odd:?}");
        }
    }
}
