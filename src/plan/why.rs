/*!
Why a Cluster is `modified` when its user changed nothing: the topology controller writes
labels and references onto the Cluster (Cluster API's topology reconciler sets the
`topology.cluster.x-k8s.io/owned` label, `spec.infrastructureRef` and `spec.controlPlaneRef`).
Owns the note that names those fields; a Cluster whose change goes beyond them gets no note (its
diff says what changes).
*/

use serde_json::Value;

/// The most field names a note lists before counting the rest.
const MAX_NAMED: usize = 6;

/// The note for a Cluster that goes from `before` to `after`, when every difference is in its
/// labels, annotations, `spec.infrastructureRef` or `spec.controlPlaneRef`; `None` otherwise.
pub fn cluster_note(before: &Value, after: &Value) -> Option<String> {
    let (Some(b), Some(a)) = (before.as_object(), after.as_object()) else {
        return None;
    };
    let mut named: Vec<String> = Vec::new();
    for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
        let (x, y) = (b.get(key), a.get(key));
        if x == y {
            continue;
        }
        match key.as_str() {
            "metadata" => metadata(x, y, &mut named)?,
            "spec" => spec(x, y, &mut named)?,
            _ => return None,
        }
    }
    if named.is_empty() {
        return None;
    }
    let more = named.len().saturating_sub(MAX_NAMED);
    named.truncate(MAX_NAMED);
    let mut note = format!("set by the topology controller: {}", named.join(", "));
    if more > 0 {
        note.push_str(&format!(" and {more} more"));
    }
    Some(note)
}

/// The labels and annotations that differ; `None` when another metadata field does.
fn metadata(before: Option<&Value>, after: Option<&Value>, named: &mut Vec<String>) -> Option<()> {
    let empty = serde_json::Map::new();
    let b = before.and_then(Value::as_object).unwrap_or(&empty);
    let a = after.and_then(Value::as_object).unwrap_or(&empty);
    for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
        let (x, y) = (b.get(key), a.get(key));
        if x == y {
            continue;
        }
        let what = match key.as_str() {
            "labels" => "label",
            "annotations" => "annotation",
            _ => return None,
        };
        let xs = x.and_then(Value::as_object).unwrap_or(&empty);
        let ys = y.and_then(Value::as_object).unwrap_or(&empty);
        for k in ys.keys().chain(xs.keys().filter(|k| !ys.contains_key(*k))) {
            if xs.get(k) != ys.get(k) {
                named.push(format!("{what} {k}"));
            }
        }
    }
    Some(())
}

/// The references that differ; `None` when another spec field does.
fn spec(before: Option<&Value>, after: Option<&Value>, named: &mut Vec<String>) -> Option<()> {
    let empty = serde_json::Map::new();
    let b = before.and_then(Value::as_object).unwrap_or(&empty);
    let a = after.and_then(Value::as_object).unwrap_or(&empty);
    for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
        if b.get(key) == a.get(key) {
            continue;
        }
        match key.as_str() {
            "infrastructureRef" | "controlPlaneRef" => named.push(format!("spec.{key}")),
            _ => return None,
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_and_references_the_controller_adds_are_named() {
        let before = json!({"metadata": {"name": "c"}, "spec": {"topology": {"version": "v1"}}});
        let after = json!({
            "metadata": {"name": "c", "labels": {"topology.cluster.x-k8s.io/owned": ""}},
            "spec": {"topology": {"version": "v1"}, "infrastructureRef": {"name": "x"}},
        });
        assert_eq!(
            cluster_note(&before, &after).as_deref(),
            Some(
                "set by the topology controller: label topology.cluster.x-k8s.io/owned, spec.infrastructureRef"
            )
        );
    }

    #[test]
    fn a_change_beyond_them_has_no_note() {
        let before = json!({"metadata": {"name": "c"}, "spec": {"topology": {"version": "v1"}}});
        let after = json!({"metadata": {"name": "c"}, "spec": {"topology": {"version": "v2"}}});
        assert_eq!(cluster_note(&before, &after), None);
        assert_eq!(cluster_note(&before, &before), None);
    }
}
