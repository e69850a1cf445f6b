/*!
Where a clusterctl variable (`${NAME}`) gets its value, in clusterctl's order.

clusterctl asks viper for every variable (`cmd/clusterctl/client/config/reader_viper.go`,
`viperReader.Get`): a value set by the command itself (`Set`, e.g. `CLUSTER_NAME` from
`generate cluster NAME`) wins, then the environment, then the clusterctl configuration file.
Viper folds keys to lower case, so file keys match whatever their case, and it looks the
environment up under the *upper-cased* name: `${cluster_name}` reads `CLUSTER_NAME`, never
`cluster_name`. An environment variable set to the empty string counts as set
(`AllowEmptyEnv(true)`).

topoplan adds one layer clusterctl does not have: `--env-file`, the environment written down,
read between the environment (which overrides it, as before) and the configuration file. Its
keys match without regard to case, like the file's.

Owns the lookup only: reading the environment, the env file and the configuration file is the
command line's business.
*/

use std::collections::BTreeMap;

/// The values of clusterctl variables for one run, layered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VariableValues {
    /// Set by the command (`generate cluster`'s built-ins), keyed in lower case.
    overrides: BTreeMap<String, String>,
    /// The process environment, keyed as it is.
    environment: BTreeMap<String, String>,
    /// `--env-file`, keyed in lower case.
    env_file: BTreeMap<String, String>,
    /// The clusterctl configuration file's scalar keys, keyed in lower case.
    config: BTreeMap<String, String>,
}

/// Which layer a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// Set by the command itself (a flag, the cluster name).
    Override,
    /// The process environment.
    Environment,
    /// `--env-file`.
    EnvFile,
    /// The clusterctl configuration file.
    Config,
}

impl VariableValues {
    /// Values from the environment (as given), an env file and the configuration file (keys of
    /// either in any case).
    pub fn new(
        environment: BTreeMap<String, String>,
        env_file: BTreeMap<String, String>,
        config: BTreeMap<String, String>,
    ) -> VariableValues {
        VariableValues {
            overrides: BTreeMap::new(),
            environment,
            env_file: lower_keys(env_file),
            config: lower_keys(config),
        }
    }

    /// Set `name` as the command's own value, above every other layer (clusterctl's
    /// `VariablesClient.Set`).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.overrides.insert(name.to_lowercase(), value.into());
    }

    /// The value of `name`, if any layer sets it.
    pub fn get(&self, name: &str) -> Option<String> {
        self.lookup(name).map(|(v, _)| v.to_string())
    }

    /// The value of `name` and the layer it came from.
    pub fn lookup(&self, name: &str) -> Option<(&str, Layer)> {
        let lower = name.to_lowercase();
        if let Some(v) = self.overrides.get(&lower) {
            return Some((v, Layer::Override));
        }
        // Viper's AutomaticEnv: the key upper-cased, `-` read as `_`.
        let env_name = name.to_uppercase().replace('-', "_");
        if let Some(v) = self.environment.get(&env_name) {
            return Some((v, Layer::Environment));
        }
        if let Some(v) = self.env_file.get(&lower) {
            return Some((v, Layer::EnvFile));
        }
        self.config.get(&lower).map(|v| (v.as_str(), Layer::Config))
    }
}

/// This process's environment, UTF-8 entries only.
pub fn process_environment() -> BTreeMap<String, String> {
    std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect()
}

fn lower_keys(map: BTreeMap<String, String>) -> BTreeMap<String, String> {
    map.into_iter()
        .map(|(k, v)| (k.to_lowercase(), v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn layers_in_clusterctl_order() {
        let mut v = VariableValues::new(
            map(&[("A", "env"), ("EMPTY", "")]),
            map(&[("A", "file"), ("B", "file")]),
            map(&[("a", "config"), ("b", "config"), ("C", "config")]),
        );
        assert_eq!(v.lookup("A"), Some(("env", Layer::Environment)));
        assert_eq!(v.lookup("B"), Some(("file", Layer::EnvFile)));
        assert_eq!(v.lookup("C"), Some(("config", Layer::Config)));
        // Set but empty is set.
        assert_eq!(v.get("EMPTY"), Some(String::new()));
        assert_eq!(v.get("D"), None);
        v.set("A", "flag");
        assert_eq!(v.lookup("a"), Some(("flag", Layer::Override)));
    }

    #[test]
    fn the_environment_is_read_upper_cased() {
        let v = VariableValues::new(
            map(&[("lower", "no"), ("UPPER", "yes")]),
            BTreeMap::new(),
            map(&[("MiXeD", "config")]),
        );
        assert_eq!(v.get("lower"), None);
        assert_eq!(v.get("upper"), Some("yes".into()));
        assert_eq!(v.get("mixed"), Some("config".into()));
        assert_eq!(v.get("MIXED"), Some("config".into()));
    }
}
