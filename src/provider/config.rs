/*!
clusterctl's configuration file (`clusterctl.yaml`): its variables and its `providers:` list.

Where it is found follows clusterctl's `viperReader.Init`
(`cmd/clusterctl/client/config/reader_viper.go`): `--config FILE` when given (an `http(s)://`
one clusterctl downloads; topoplan, offline, refuses it), otherwise the first
`clusterctl.<ext>` in `$XDG_CONFIG_HOME/cluster-api` (`~/.config/cluster-api` when
`XDG_CONFIG_HOME` is unset or not absolute, as the `adrg/xdg` library resolves it) and then in
`~/.cluster-api`, trying viper's extensions in viper's order. topoplan reads YAML and JSON; a file
in one of viper's other formats (TOML, HCL, INI, …) is refused rather than misread.

Values are what viper's `GetString` makes of them: strings as written, numbers as Go prints them
(`1.30` is `1.3`), booleans `true`/`false`, mappings and sequences the empty string; a null
value is unset. Keys match without regard to case ([`crate::load::VariableValues`]).

`providers:` entries are checked as clusterctl's `providersClient.List` checks them
(`validateProvider`, in `providers_client.go`), when a command needs a provider; their `url` is
expanded with the environment first, as clusterctl does.
*/

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::label::{self, ProviderType};
use crate::diag::{Code, Diagnostic};
use crate::load::limit::{InputLimit, ReadError};
use crate::source::{Origin, SourceFile};

/// The configuration directory's name under `$XDG_CONFIG_HOME`.
pub const FOLDER_XDG: &str = "cluster-api";
/// The older configuration directory's name under the home directory.
pub const FOLDER_HOME: &str = ".cluster-api";
/// The file's name, without extension.
pub const NAME: &str = "clusterctl";

/// The extensions viper tries, in its order (`viper.SupportedExts`).
const VIPER_EXTENSIONS: &[&str] = &[
    "json",
    "toml",
    "yaml",
    "yml",
    "properties",
    "props",
    "prop",
    "hcl",
    "tfvars",
    "dotenv",
    "env",
    "ini",
];

/// The extensions topoplan reads (YAML, and JSON as YAML).
const READABLE: &[&str] = &["json", "yaml", "yml"];

/// A clusterctl configuration file, read.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    /// The file as read (for locations).
    pub file: Arc<SourceFile>,
    /// Its variables, as viper's `GetString` gives them (keys as written).
    pub variables: BTreeMap<String, String>,
    /// Its `providers:` entries, unchecked.
    entries: Vec<(Value, Origin)>,
}

/// One `providers:` entry, checked.
#[derive(Debug, Clone)]
pub struct ProviderEntry {
    /// `name`.
    pub name: String,
    /// `type`.
    pub provider_type: ProviderType,
    /// `url`, expanded with the environment.
    pub url: String,
    /// Where the entry is written.
    pub origin: Origin,
}

/// The directories clusterctl searches for its configuration, in order, given the
/// environment (`XDG_CONFIG_HOME`, `HOME`).
pub fn default_directories(env: &BTreeMap<String, String>) -> Vec<PathBuf> {
    let home = env.get("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    // adrg/xdg: `~` is expanded, and only an absolute path counts.
    let xdg = env.get("XDG_CONFIG_HOME").and_then(|x| {
        let expanded = match (x.strip_prefix('~'), &home) {
            (Some(rest), Some(h)) if rest.is_empty() || rest.starts_with('/') => {
                PathBuf::from(format!("{}{rest}", h.display()))
            }
            _ => PathBuf::from(x),
        };
        expanded.is_absolute().then_some(expanded)
    });
    let config_home = xdg.or_else(|| home.as_ref().map(|h| h.join(".config")));
    config_home
        .map(|c| c.join(FOLDER_XDG))
        .into_iter()
        .chain(home.map(|h| h.join(FOLDER_HOME)))
        .collect()
}

/// The default configuration file, if one exists (viper's search over
/// [`default_directories`] and its extensions).
pub fn find_default(env: &BTreeMap<String, String>) -> Option<PathBuf> {
    default_directories(env).into_iter().find_map(|dir| {
        // No directory, no file in it: one lookup instead of one per extension (every run
        // with `--substitute` asks, and most machines have neither directory).
        if !dir.is_dir() {
            return None;
        }
        VIPER_EXTENSIONS
            .iter()
            .map(|ext| dir.join(format!("{NAME}.{ext}")))
            .find(|p| std::fs::metadata(p).is_ok())
    })
}

impl ConfigFile {
    /// Read the configuration: `explicit` (`--config`) when given, else the default file if
    /// there is one. Draws on `limit`.
    pub fn load(
        explicit: Option<&Path>,
        env: &BTreeMap<String, String>,
        limit: &InputLimit,
    ) -> Result<Option<ConfigFile>, Diagnostic> {
        let path = match explicit {
            Some(p) => {
                let s = p.to_string_lossy();
                if s.starts_with("https://") || s.starts_with("http://") {
                    return Err(Diagnostic::error(
                        Code::ConfigInvalid,
                        format!(
                            "--config {s}: topoplan does not download the clusterctl configuration"
                        ),
                    )
                    .with_help(
                        "topoplan works offline: download the file and pass its path to --config",
                    ));
                }
                if let Err(e) = std::fs::metadata(p) {
                    return Err(Diagnostic::error(
                        Code::ConfigInvalid,
                        format!(
                            "failed to check if clusterctl config file exists: stat {}: {e}",
                            p.display()
                        ),
                    ));
                }
                p.to_path_buf()
            }
            None => match find_default(env) {
                Some(p) => p,
                None => return Ok(None),
            },
        };
        ConfigFile::read(&path, limit).map(Some)
    }

    /// Read the configuration file at `path`.
    pub fn read(path: &Path, limit: &InputLimit) -> Result<ConfigFile, Diagnostic> {
        let shown = path.display().to_string();
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_string();
        if !READABLE.contains(&ext.as_str()) {
            let why = if VIPER_EXTENSIONS.contains(&ext.as_str()) {
                format!(
                    "{shown}: topoplan reads clusterctl configuration files in YAML or JSON, not {ext}"
                )
            } else {
                // viper's own error for a file it has no decoder for.
                format!("{shown}: Unsupported Config Type {ext:?}")
            };
            return Err(Diagnostic::error(Code::ConfigInvalid, why)
                .with_help("name the file clusterctl.yaml (or .yml, .json) and write it in YAML"));
        }
        let bytes = limit.read_path(path, &shown).map_err(|e| match e {
            ReadError::Io(e) => Diagnostic::error(
                Code::ConfigInvalid,
                format!("cannot read the clusterctl configuration {shown}: {e}"),
            ),
            ReadError::TooLarge(d) => d,
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            Diagnostic::error(
                Code::ConfigInvalid,
                format!(
                    "{shown} is not UTF-8 text (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        ConfigFile::parse(SourceFile::new(shown, text))
    }

    /// Parse configuration text.
    pub fn parse(file: Arc<SourceFile>) -> Result<ConfigFile, Diagnostic> {
        let docs = crate::load::yaml::parse_stream(&file)?;
        let Some(doc) = docs.into_iter().next() else {
            return Ok(ConfigFile {
                file,
                variables: BTreeMap::new(),
                entries: Vec::new(),
            });
        };
        let origin = Origin {
            file: Arc::clone(&file),
            spans: Arc::new(doc.spans),
        };
        let Value::Object(map) = doc.value else {
            return Err(Diagnostic::error(
                Code::ConfigInvalid,
                format!(
                    "{}: the clusterctl configuration must be a mapping of keys to values",
                    file.name
                ),
            )
            .at(&origin, "", "not a mapping"));
        };
        let mut variables = BTreeMap::new();
        let mut entries = Vec::new();
        for (key, value) in &map {
            if let Some(s) = viper_string(value) {
                variables.insert(key.clone(), s);
            }
        }
        // Viper's keys are case-insensitive.
        if let Some((key, value)) = map
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("providers"))
        {
            let pointer = crate::source::pointer([key.as_str()]);
            match value {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let item_origin = Origin {
                            file: Arc::clone(&file),
                            spans: Arc::new(origin.spans.subtree(&format!("{pointer}/{i}"))),
                        };
                        entries.push((item.clone(), item_origin));
                    }
                }
                Value::Null => {}
                _ => {
                    return Err(Diagnostic::error(
                        Code::ConfigInvalid,
                        "failed to unmarshal providers from the clusterctl configuration file: expected a list of providers",
                    )
                    .at(&origin, &pointer, "expected a list"));
                }
            }
        }
        Ok(ConfigFile {
            file,
            variables,
            entries,
        })
    }

    /// The `providers:` entries, checked as clusterctl checks them; a later entry for the same
    /// name and type replaces an earlier one. `env` expands the URLs.
    pub fn providers(
        &self,
        env: &BTreeMap<String, String>,
    ) -> Result<Vec<ProviderEntry>, Diagnostic> {
        let mut out: Vec<ProviderEntry> = Vec::new();
        for (value, origin) in &self.entries {
            let entry = provider_entry(value, origin, env)?;
            match out
                .iter_mut()
                .find(|e| e.name == entry.name && e.provider_type == entry.provider_type)
            {
                Some(slot) => *slot = entry,
                None => out.push(entry),
            }
        }
        Ok(out)
    }
}

/// What viper's `GetString` returns for a value; `None` for a null (unset).
fn viper_string(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => crate::go::strconv::format_float(f, b'f', -1),
            _ => n.to_string(),
        }),
        // cast.ToString has no conversion for collections: the empty string.
        Value::Array(_) | Value::Object(_) => Some(String::new()),
    }
}

/// One `providers:` entry, checked (clusterctl's `validateProvider`).
fn provider_entry(
    value: &Value,
    origin: &Origin,
    env: &BTreeMap<String, String>,
) -> Result<ProviderEntry, Diagnostic> {
    let field = |k: &str| -> Result<String, Diagnostic> {
        match value.get(k) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(v @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => {
                Ok(viper_string(v).unwrap_or_default())
            }
            Some(_) => Err(Diagnostic::error(
                Code::ConfigInvalid,
                format!("failed to unmarshal providers from the clusterctl configuration file: {k} must be a string"),
            )
            .at(origin, &format!("/{k}"), "expected a string")),
        }
    };
    if !value.is_object() {
        return Err(Diagnostic::error(
            Code::ConfigInvalid,
            "failed to unmarshal providers from the clusterctl configuration file: each provider is a mapping with name, url and type",
        )
        .at(origin, "", "expected a mapping"));
    }
    let name = field("name")?;
    let raw_url = field("url")?;
    let type_name = field("type")?;
    // clusterctl expands the URL with the environment (drone/envsubst: unset is empty).
    let lookup = |k: &str| Some(env.get(k).cloned().unwrap_or_default());
    let url = crate::load::envsubst::substitute(&raw_url, &lookup).map_err(|_| {
        Diagnostic::error(
            Code::ConfigInvalid,
            format!("unable to evaluate url: {raw_url:?}"),
        )
        .at(origin, "/url", "cannot be expanded")
    })?;
    let provider_type = ProviderType::from_config_name(&type_name);
    let invalid = |pointer: &str, problem: String| {
        Diagnostic::error(
            Code::ConfigInvalid,
            format!(
                "error validating configuration for the {type_name} with name {name}. Please fix the providers value in clusterctl configuration file: {problem}"
            ),
        )
        .at(origin, pointer, "invalid")
    };
    if name.is_empty() {
        return Err(invalid("/name", "name value cannot be empty".into()));
    }
    if name != name.to_lowercase() {
        return Err(invalid(
            "/name",
            format!("provider name {name} must be in lower case"),
        ));
    }
    if (name == label::CORE_NAME) != (provider_type == Some(ProviderType::Core)) {
        return Err(invalid(
            "/name",
            format!(
                "name {} must be used with the CoreProvider type (name: {name}, type: {type_name})",
                label::CORE_NAME
            ),
        ));
    }
    let errs = crate::k8s::validation::dns1123_subdomain(&name);
    if !errs.is_empty() {
        return Err(invalid(
            "/name",
            format!("invalid provider name: {}", errs.join("; ")),
        ));
    }
    if url.is_empty() {
        return Err(invalid("/url", "provider URL value cannot be empty".into()));
    }
    if let Err(e) = crate::go::url::parse(&url) {
        return Err(invalid("/url", format!("error parsing provider URL: {e}")));
    }
    let Some(provider_type) = provider_type else {
        // clusterctl lists them in this order (not its sorting order).
        return Err(invalid(
            "/type",
            "invalid provider type. Allowed values are [CoreProvider, BootstrapProvider, InfrastructureProvider, ControlPlaneProvider, IPAMProvider, RuntimeExtensionProvider, AddonProvider]".into(),
        ));
    };
    Ok(ProviderEntry {
        name,
        provider_type,
        url,
        origin: origin.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn default_directories_follow_xdg_then_home() {
        assert_eq!(
            default_directories(&env(&[("HOME", "/home/u")])),
            [
                PathBuf::from("/home/u/.config/cluster-api"),
                PathBuf::from("/home/u/.cluster-api")
            ]
        );
        assert_eq!(
            default_directories(&env(&[("HOME", "/home/u"), ("XDG_CONFIG_HOME", "/x")]))[0],
            PathBuf::from("/x/cluster-api")
        );
        assert_eq!(
            default_directories(&env(&[("HOME", "/home/u"), ("XDG_CONFIG_HOME", "~/c")]))[0],
            PathBuf::from("/home/u/c/cluster-api")
        );
        // A relative XDG_CONFIG_HOME does not count.
        assert_eq!(
            default_directories(&env(&[("HOME", "/home/u"), ("XDG_CONFIG_HOME", "rel")]))[0],
            PathBuf::from("/home/u/.config/cluster-api")
        );
        assert!(default_directories(&env(&[])).is_empty());
    }

    #[test]
    fn values_are_what_viper_returns() {
        let c = ConfigFile::parse(SourceFile::new(
            "clusterctl.yaml",
            "A: text\nB: 1.30\nC: 3\nD: true\nE: null\nF: {x: 1}\nproviders: []\n",
        ))
        .expect("parses");
        let got: Vec<(&str, &str)> = c
            .variables
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("A", "text"),
                ("B", "1.3"),
                ("C", "3"),
                ("D", "true"),
                ("F", ""),
                ("providers", "")
            ]
        );
    }

    #[test]
    fn provider_entries_are_checked_as_clusterctl_checks_them() {
        let check = |entry: &str| -> Result<Vec<ProviderEntry>, String> {
            ConfigFile::parse(SourceFile::new("c.yaml", format!("providers:\n{entry}")))
                .and_then(|c| c.providers(&env(&[("REPO", "/r")])))
                .map_err(|d| d.message)
        };
        let ok = check("- name: docker\n  url: file://${REPO}/infrastructure-docker/v1.0.0/infrastructure-components.yaml\n  type: InfrastructureProvider\n- name: docker\n  url: file:///other/infrastructure-docker/latest/c.yaml\n  type: InfrastructureProvider\n").expect("valid");
        assert_eq!(ok.len(), 1, "the later entry replaces the earlier");
        assert_eq!(
            ok[0].url,
            "file:///other/infrastructure-docker/latest/c.yaml"
        );
        assert_eq!(
            check("- name: docker\n  url: file:///x\n  type: Infra\n")
                .err()
                .as_deref(),
            Some(
                "error validating configuration for the Infra with name docker. Please fix the providers value in clusterctl configuration file: invalid provider type. Allowed values are [CoreProvider, BootstrapProvider, InfrastructureProvider, ControlPlaneProvider, IPAMProvider, RuntimeExtensionProvider, AddonProvider]"
            )
        );
        assert!(
            check("- name: Docker\n  url: file:///x\n  type: InfrastructureProvider\n")
                .err()
                .is_some_and(|e| e.ends_with("provider name Docker must be in lower case"))
        );
        assert!(
            check("- name: cluster-api\n  url: file:///x\n  type: InfrastructureProvider\n")
                .err()
                .is_some_and(|e| e.contains("must be used with the CoreProvider type"))
        );
        assert!(
            check("- name: docker\n  type: InfrastructureProvider\n")
                .err()
                .is_some_and(|e| e.ends_with("provider URL value cannot be empty"))
        );
    }
}
