/*!
Finding a provider's local repository by name and type, as `generate cluster --infrastructure
NAME` needs: `--provider-repo DIR` when it has the provider's directory (a flag beats the
configuration), else the clusterctl configuration's entry for it.

A configuration entry's URL is read as clusterctl's `repositoryFactory` reads it
(`cmd/clusterctl/client/repository/client.go`): `file://` (or no scheme) is a local repository
whose path names `{basepath}/{provider-label}/{version}/{components file}`, checked as
`newLocalRepository` checks it (`repository_local.go`); `https://` is GitHub or GitLab, which
an offline tool refuses with directions to make a local repository instead. clusterctl's built-in
list of providers points at GitHub releases only, so a provider neither place names is refused
the same way.
*/

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::config::{ConfigFile, ProviderEntry};
use super::label::{self, ProviderType};
use super::repository::{LATEST, LocalRepository, repository_help};
use crate::diag::{Code, Diagnostic};
use crate::k8s::version::apimachinery::Version;

/// The local repository of provider `name` of type `t`.
pub fn locate(
    name: &str,
    t: ProviderType,
    repository: Option<&Path>,
    config: Option<&ConfigFile>,
    env: &BTreeMap<String, String>,
) -> Result<LocalRepository, Diagnostic> {
    let label = label::manifest_label(name, t);
    if let Some(dir) = repository {
        let repo = LocalRepository::new(dir, name, t)?;
        if repo.exists() {
            return Ok(repo);
        }
    }
    let entry = match config {
        Some(c) => c
            .providers(env)?
            .into_iter()
            .find(|e| e.name == name && e.provider_type == t),
        None => None,
    };
    match entry {
        Some(e) => from_url(&e, &label),
        None => Err(not_found(name, t, &label, repository, config)),
    }
}

/// The local repository a configuration entry's `file://` URL names.
fn from_url(entry: &ProviderEntry, label: &str) -> Result<LocalRepository, Diagnostic> {
    let t = entry.provider_type;
    let url = match crate::go::url::parse(&entry.url) {
        Ok(u) => u,
        Err(_) => {
            return Err(Diagnostic::error(
                Code::ConfigInvalid,
                format!("failed to parse repository url {:?}", entry.url),
            )
            .at(&entry.origin, "/url", "this url"));
        }
    };
    match url.scheme.as_str() {
        "file" | "" => {}
        scheme => return Err(remote(entry, label, scheme)),
    }
    let invalid = |problem: String| {
        Diagnostic::error(
            Code::ProviderRepository,
            format!("error creating the local filesystem repository client: {problem}"),
        )
        .at(&entry.origin, "/url", "this url")
        .with_help(format!(
            "a local provider's url is file:///<absolute path to the repository>/{label}/<version or latest>/<components file>"
        ))
    };
    let path = url.path.as_str();
    if !path.starts_with('/') {
        return Err(invalid(format!(
            "invalid path: path {:?} must be an absolute path",
            entry.url
        )));
    }
    let parts: Vec<&str> = path.split('/').collect();
    let [.., provider_id, version, components] = parts.as_slice() else {
        return Err(invalid(
            "invalid path: path should be in the form {basepath}/{provider-name}/{version}/{components.yaml}".into(),
        ));
    };
    if *version != LATEST && Version::parse(version).is_err() {
        return Err(invalid(format!(
            "invalid version: {version:?}. Version must obey the syntax and semantics of the \"Semantic Versioning\" specification (http://semver.org/) and path format {{basepath}}/{{provider-name}}/{{version}}/{{components.yaml}}"
        )));
    }
    if *provider_id != label {
        return Err(invalid(format!(
            "invalid path: path {:?} must contain provider {label:?} in the format {{basepath}}/{{provider-label}}/{{version}}/{{components.yaml}}",
            entry.url
        )));
    }
    let suffix = format!("{provider_id}/{version}/{components}");
    let base = path.strip_suffix(&suffix).unwrap_or(path);
    let base = crate::go::path::clean(base);
    let mut repo = LocalRepository::new(&PathBuf::from(base), &entry.name, t)?;
    repo.components = Some((*components).to_string());
    repo.default_version = Some((*version).to_string());
    Ok(repo)
}

/// The refusal of a provider configured with a remote repository.
fn remote(entry: &ProviderEntry, label: &str, scheme: &str) -> Diagnostic {
    let message = if scheme == "https" {
        format!(
            "the {} {} is configured with the remote repository {}; topoplan works offline and reads only local repositories",
            entry.provider_type.config_name(),
            entry.name,
            entry.url
        )
    } else {
        // clusterctl's words for a scheme it has no repository for.
        format!("invalid provider url. there are no provider implementation for {scheme:?} schema")
    };
    Diagnostic::error(Code::ProviderRemote, message)
        .at(&entry.origin, "/url", "a remote repository")
        .with_help(make_local(
            label,
            entry.provider_type,
            Some(&entry.origin.file.name),
        ))
}

/// How to turn a remote provider into a local one.
fn make_local(label: &str, t: ProviderType, config: Option<&str>) -> String {
    let components = t.components_file();
    let mut help = format!(
        "make a local repository: put the release's {components}, metadata.yaml, cluster-template*.yaml and clusterclass-*.yaml (from its GitHub release assets) in DIR/{label}/<version>/ — the layout of clusterctl's local repositories and of its overrides folder — then pass --provider-repo DIR"
    );
    if let Some(c) = config {
        help.push_str(&format!(
            ", or set the provider's url in {c} to file:///<absolute DIR>/{label}/<version>/{components}"
        ));
    }
    help
}

/// The error for a provider no repository or configuration names.
fn not_found(
    name: &str,
    t: ProviderType,
    label: &str,
    repository: Option<&Path>,
    config: Option<&ConfigFile>,
) -> Diagnostic {
    let where_ = match repository {
        Some(dir) => format!("{} has no {label} directory", dir.display()),
        None => "no --provider-repo was given".to_string(),
    };
    let config_part = match config {
        Some(c) => format!(" and {} names no such provider", c.file.name),
        None => " and no clusterctl configuration names it".to_string(),
    };
    Diagnostic::error(
        Code::ProviderNotFound,
        format!(
            "failed to get configuration for the {} with name {name}: {where_}{config_part}",
            t.config_name()
        ),
    )
    .with_help(format!(
        "{}; clusterctl would fetch the providers it knows from GitHub, which topoplan, working offline, does not ({})",
        make_local(label, t, config.map(|c| c.file.name.as_str())),
        repository_help()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn config(providers: &str) -> ConfigFile {
        ConfigFile::parse(SourceFile::new(
            "clusterctl.yaml",
            format!("providers:\n{providers}"),
        ))
        .expect("parses")
    }

    #[test]
    fn a_file_url_names_base_version_and_components() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("infrastructure-sandbox/v1.0.0")).expect("mkdir");
        let c = config(&format!(
            "- name: sandbox\n  type: InfrastructureProvider\n  url: file://{}/infrastructure-sandbox/v1.0.0/components.yaml\n",
            dir.path().display()
        ));
        let r = locate(
            "sandbox",
            ProviderType::Infrastructure,
            None,
            Some(&c),
            &BTreeMap::new(),
        )
        .expect("found");
        assert_eq!(r.label, "infrastructure-sandbox");
        assert_eq!(r.default_version.as_deref(), Some("v1.0.0"));
        assert_eq!(r.components.as_deref(), Some("components.yaml"));
        assert!(r.exists());
    }

    #[test]
    fn remote_and_malformed_urls_are_refused() {
        let c = config(
            "- name: docker\n  type: InfrastructureProvider\n  url: https://github.com/kubernetes-sigs/cluster-api/releases/latest/infrastructure-components.yaml\n",
        );
        let e = locate(
            "docker",
            ProviderType::Infrastructure,
            None,
            Some(&c),
            &BTreeMap::new(),
        )
        .expect_err("refused");
        assert_eq!(e.code, Code::ProviderRemote);
        assert!(
            e.help
                .as_deref()
                .is_some_and(|h| h.contains("DIR/infrastructure-docker/<version>/"))
        );
        let c = config(
            "- name: docker\n  type: InfrastructureProvider\n  url: file:///r/infrastructure-aws/v1.0.0/c.yaml\n",
        );
        let e = locate(
            "docker",
            ProviderType::Infrastructure,
            None,
            Some(&c),
            &BTreeMap::new(),
        )
        .expect_err("refused");
        assert!(
            e.message
                .contains("must contain provider \"infrastructure-docker\""),
            "{}",
            e.message
        );
        let c = config(
            "- name: docker\n  type: InfrastructureProvider\n  url: file:///r/infrastructure-docker/main/c.yaml\n",
        );
        let e = locate(
            "docker",
            ProviderType::Infrastructure,
            None,
            Some(&c),
            &BTreeMap::new(),
        )
        .expect_err("refused");
        assert!(
            e.message.contains("invalid version: \"main\""),
            "{}",
            e.message
        );
        let e = locate(
            "docker",
            ProviderType::Infrastructure,
            None,
            None,
            &BTreeMap::new(),
        )
        .expect_err("not found");
        assert_eq!(e.code, Code::ProviderNotFound);
    }
}
