/*!
Names of generated objects: Cluster API's naming templates and name prefixes, with a
deterministic suffix in place of the random one.

Cluster API (`internal/topology/names`) appends 5 characters from k8s `util/rand`'s alphabet.
topoplan draws them from a SHA-256 of the Cluster's namespace and name and the object's role, so
the same input always plans the same names, and two roles never share a seed. The shape
(`<prefix><5 chars from bcdfghjklmnpqrstvwxz2456789>`) and the length rule (cut to 58 bytes, then
5 more characters, once the name passes 63) are Cluster API's.

Naming templates are Go text/template with `missingkey=error` and no Sprig, rendered by
[`crate::gotemplate`] in that mode.
*/

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::gotemplate::capi::{self, RenderError};

/// k8s `util/rand` alphabet (no vowels, no confusable digits).
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
/// Longest valid name.
const MAX_NAME_LENGTH: usize = 63;
/// Length of the suffix.
const RANDOM_LENGTH: usize = 5;
/// Longest base before a suffix is appended.
const MAX_GENERATED_NAME_LENGTH: usize = MAX_NAME_LENGTH - RANDOM_LENGTH;

/// Five characters from the k8s alphabet, derived from `seed`.
pub fn suffix(seed: &str) -> String {
    let digest = Sha256::digest(seed.as_bytes());
    digest
        .iter()
        .take(RANDOM_LENGTH)
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect()
}

/// Cut `s` to at most `max` bytes without splitting a character (Go slices bytes; names are
/// ASCII in any valid input, so this only matters for invalid ones, which must not panic).
fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `names.SimpleNameGenerator(prefix)`: prefix cut to 58 bytes plus 5 characters.
pub fn simple(prefix: &str, seed: &str) -> String {
    format!("{}{}", cut(prefix, MAX_GENERATED_NAME_LENGTH), suffix(seed))
}

/// Which object a naming template names, and the extra data it sees.
#[derive(Debug, Clone)]
pub enum NameTarget<'a> {
    /// InfrastructureCluster.
    InfrastructureCluster,
    /// ControlPlane.
    ControlPlane,
    /// MachineDeployment with this topology name.
    MachineDeployment(&'a str),
    /// MachinePool with this topology name.
    MachinePool(&'a str),
}

impl NameTarget<'_> {
    /// The default template when the class sets none.
    pub fn default_template(&self) -> &'static str {
        match self {
            NameTarget::InfrastructureCluster | NameTarget::ControlPlane => {
                "{{ .cluster.name }}-{{ .random }}"
            }
            NameTarget::MachineDeployment(_) => {
                "{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}"
            }
            NameTarget::MachinePool(_) => {
                "{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}"
            }
        }
    }
}

/// Render a naming template (`template` empty means the default) the way Cluster API's
/// template generator does. `seed` identifies the object; errors carry Go's wording.
pub fn from_template(
    template: &str,
    cluster_name: &str,
    target: &NameTarget<'_>,
    seed: &str,
) -> Result<String, String> {
    let template = if template.is_empty() {
        target.default_template()
    } else {
        template
    };
    let mut data = Map::new();
    data.insert("cluster".into(), json!({ "name": cluster_name }));
    // Drawn once per generator: two uses of .random print the same value.
    data.insert("random".into(), Value::String(suffix(seed)));
    match target {
        NameTarget::MachineDeployment(t) => {
            data.insert("machineDeployment".into(), json!({ "topologyName": t }));
        }
        NameTarget::MachinePool(t) => {
            data.insert("machinePool".into(), json!({ "topologyName": t }));
        }
        _ => {}
    }
    let name = render(template, &Value::Object(data))?;
    if name.len() > MAX_NAME_LENGTH {
        return Ok(format!(
            "{}{}",
            cut(&name, MAX_GENERATED_NAME_LENGTH),
            suffix(&format!("{seed}#overlong"))
        ));
    }
    Ok(name)
}

/// Render a naming template as Cluster API's template generator does, with its error texts:
/// `parsing template "<t>": …` and `rendering template: …`.
fn render(template: &str, data: &Value) -> Result<String, String> {
    match capi::render_name(template, data) {
        Ok(s) => Ok(s),
        Err(RenderError::Parse(m)) => Err(format!(
            "parsing template {}: {m}",
            crate::go::strconv::quote(template, false)
        )),
        Err(e) => Err(format!("rendering template: {}", e.message())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_has_the_k8s_shape_and_is_stable() {
        let s = suffix("default/c1/ControlPlane");
        assert_eq!(s.len(), 5);
        assert!(s.bytes().all(|b| ALPHABET.contains(&b)));
        assert_eq!(s, suffix("default/c1/ControlPlane"));
        assert_ne!(s, suffix("default/c1/InfrastructureCluster"));
    }

    #[test]
    fn default_templates() {
        let n = from_template("", "c1", &NameTarget::MachineDeployment("md-0"), "seed");
        let n = n.unwrap_or_default();
        assert!(n.starts_with("c1-md-0-"), "{n}");
        assert_eq!(n.len(), "c1-md-0-".len() + 5);
    }

    #[test]
    fn random_is_drawn_once_per_generator() {
        let n = from_template(
            "{{ .random }}-{{.random}}",
            "c",
            &NameTarget::ControlPlane,
            "s",
        )
        .unwrap_or_default();
        let (a, b) = n.split_once('-').unwrap_or_default();
        assert_eq!(a, b);
    }

    #[test]
    fn trim_markers_and_comments() {
        let n = from_template(
            "x- {{- .cluster.name -}} -y{{/* c */}}",
            "c",
            &NameTarget::ControlPlane,
            "s",
        );
        assert_eq!(n.as_deref(), Ok("x-c-y"));
    }

    #[test]
    fn overlong_names_are_cut_and_suffixed() {
        let long = "a".repeat(70);
        let n = from_template("{{ .cluster.name }}", &long, &NameTarget::ControlPlane, "s")
            .unwrap_or_default();
        assert_eq!(n.len(), 63);
        assert!(n.starts_with(&"a".repeat(58)));
        let p = simple(&format!("{long}-"), "s");
        assert_eq!(p.len(), 63);
    }

    #[test]
    fn missing_key_is_go_error() {
        let e = from_template("{{ .cluster.nam }}", "c", &NameTarget::ControlPlane, "s")
            .err()
            .unwrap_or_default();
        assert_eq!(
            e,
            "rendering template: template: template name generator:1:11: executing \"template name generator\" at <.cluster.nam>: map has no entry for key \"nam\""
        );
        let e = from_template(
            "{{ .machineDeployment.topologyName }}",
            "c",
            &NameTarget::ControlPlane,
            "s",
        )
        .err()
        .unwrap_or_default();
        assert!(
            e.contains("map has no entry for key \"machineDeployment\""),
            "{e}"
        );
    }

    #[test]
    fn go_functions_work_in_names() {
        let n = from_template(
            "{{ printf \"%s-x\" .cluster.name }}-{{ len .random }}",
            "c",
            &NameTarget::ControlPlane,
            "s",
        );
        assert_eq!(n.as_deref(), Ok("c-x-5"));
        // No Sprig in naming templates.
        let e = from_template(
            "{{ .cluster.name | upper }}",
            "c",
            &NameTarget::ControlPlane,
            "s",
        );
        assert_eq!(
            e.err().as_deref(),
            Some(
                "parsing template \"{{ .cluster.name | upper }}\": template: template name generator:1: function \"upper\" not defined"
            )
        );
    }

    #[test]
    fn never_panics_on_odd_input() {
        for t in [
            "{{",
            "}}",
            "{{-}}",
            "{{- -}}",
            "{{ . }}",
            "{{ .. }}",
            "é{{ .cluster.name }}é",
            "{{-\n.cluster.name\n-}}",
        ] {
            let _ = from_template(t, "c", &NameTarget::ControlPlane, "s");
        }
    }

    proptest::proptest! {
        #[test]
        fn rendering_never_panics_and_names_stay_short(template in "\\PC{0,40}", cluster in "[a-z0-9-]{0,80}") {
            if let Ok(name) = from_template(&template, &cluster, &NameTarget::MachineDeployment("md"), "seed") {
                proptest::prop_assert!(name.len() <= MAX_NAME_LENGTH);
            }
            let _ = from_template(&format!("{{{{ {template} }}}}"), &cluster, &NameTarget::ControlPlane, "seed");
            proptest::prop_assert!(simple(&cluster, "s").len() <= MAX_NAME_LENGTH);
        }
    }
}
