/*!
Reading the management cluster's state from a live API server, read-only: the other source of
`--current`, beside files.

Owns what a live read does and nothing the plan decides: [`api`] speaks the API server's read
verbs (discovery, get, paged list) over a [`Transport`] that has a GET and nothing else, under
the run's byte budget and deadlines; [`gather`] decides what to read from the plan's scope (the
affected Clusters and classes, as [`crate::plan::scope`] decides for files); [`save`] writes
`--save-current`. What was read becomes YAML texts the loader reads exactly as it reads files
(`crate::load::load_texts`), so a plan from the cluster and a plan from the saved files are the
same plan. The client itself (kubeconfig, authentication, TLS, proxies) is kube-rs's, behind
the `live` cargo feature (`kube.rs`); without it a live read is refused with a clear error.

A cluster is contacted only when the user asks for it (`--live`, `--kubeconfig` or
`--context`): a `KUBECONFIG` in a CI job's environment alone never starts a read.
*/

pub mod api;
pub mod gather;
#[cfg(feature = "live")]
mod kube;
pub mod save;
pub mod transport;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::load::{self, Inputs, LiveRequest, LoadOptions, Object};
pub use transport::{Answer, Failed, Transport};

/// Connect to the cluster `req` names (kubeconfig, context), as kubectl would.
#[cfg(feature = "live")]
pub fn connect(req: &LiveRequest) -> Result<Box<dyn Transport>, Diagnostic> {
    kube::Kube::connect(req).map(|k| Box::new(k) as Box<dyn Transport>)
}

/// Without the `live` feature there is no client: the read is refused.
#[cfg(not(feature = "live"))]
pub fn connect(_req: &LiveRequest) -> Result<Box<dyn Transport>, Diagnostic> {
    Err(Diagnostic::error(
        Code::LiveKubeconfig,
        "this topoplan was built without the `live` feature: it cannot read a management cluster",
    )
    .with_help(
        "export the state with kubectl and pass it with --current, or build with the default features",
    ))
}

/// Read what the change (`change`, the `-f` objects) needs of the cluster `opts.live` names,
/// save it with `--save-current`, and return it as the loader's objects (read as files named
/// `live/<resource>.yaml`). `inputs`: the run's input paths, which `--save-current` may not
/// replace.
pub fn read(
    opts: &LoadOptions,
    change: &[Object],
    all_current: bool,
    inputs: &[PathBuf],
) -> Result<Inputs, Diagnostics> {
    let Some(req) = &opts.live else {
        return Ok(Inputs::default());
    };
    if let Some(dir) = &req.save {
        // Refused before the cluster is contacted.
        save::check(dir, inputs).map_err(Diagnostics::from)?;
    }
    let mut transport = connect(req).map_err(Diagnostics::from)?;
    let mut api = api::Api::new(
        transport.as_mut(),
        opts.input_limit.clone(),
        req.request_timeout,
        req.deadline,
    );
    let read = gather::gather(&mut api, change, all_current).map_err(Diagnostics::from)?;
    let files = gather::files(&read);
    if let Some(dir) = &req.save {
        save::write(dir, &files, inputs).map_err(Diagnostics::from)?;
    }
    let texts = files
        .into_iter()
        .map(|(name, text)| (format!("live/{name}"), text))
        .collect();
    load::load_texts(opts, texts)
}

/// The stored state from files and from the cluster together: for an object in both, the
/// file's copy is used, with one warning naming them.
pub fn merge(files: Option<Inputs>, live: Inputs) -> Inputs {
    let Some(mut files) = files else {
        return live;
    };
    let key = |o: &Object| {
        (
            o.group().to_string(),
            o.kind.clone(),
            o.namespace.clone(),
            o.name.clone(),
        )
    };
    let in_files: BTreeSet<_> = files.objects.iter().map(key).collect();
    let mut both = Vec::new();
    for o in live.objects {
        if in_files.contains(&key(&o)) {
            both.push(format!("{} {}/{}", o.kind, o.namespace, o.name));
        } else {
            files.objects.push(o);
        }
    }
    files.runtime_messages.extend(live.runtime_messages);
    files.warnings.extend(live.warnings);
    if !both.is_empty() {
        let shown: Vec<&str> = both.iter().take(10).map(String::as_str).collect();
        let more = if both.len() > 10 {
            format!(" and {} more", both.len() - 10)
        } else {
            String::new()
        };
        files.warnings.push(
            Diagnostic::warning(
                Code::InputDuplicate,
                format!(
                    "{} object(s) read from the cluster are also in --current files; the files' copies are used: {}{more}",
                    both.len(),
                    shown.join(", ")
                ),
            )
            .with_help("leave them out of --current to plan against the cluster's copies"),
        );
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(not(feature = "live"))]
    #[test]
    fn without_the_feature_a_live_read_is_refused() {
        let e = connect(&LiveRequest::default()).err().expect("refused");
        assert_eq!(e.code, Code::LiveKubeconfig);
        assert!(
            e.message.contains("without the `live` feature"),
            "{}",
            e.message
        );
    }

    fn object(kind: &str, name: &str) -> Object {
        let origin = crate::source::Origin {
            file: crate::source::SourceFile::new("t", String::new()),
            spans: std::sync::Arc::new(crate::source::SpanTable::default()),
        };
        let v = serde_json::json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "namespace": "ns"}});
        Object::new(v, origin, "ns").expect("object")
    }

    #[test]
    fn files_win_over_the_cluster() {
        let files = Inputs {
            objects: vec![object("ConfigMap", "a")],
            ..Inputs::default()
        };
        let live = Inputs {
            objects: vec![object("ConfigMap", "a"), object("ConfigMap", "b")],
            ..Inputs::default()
        };
        let merged = merge(Some(files), live);
        let names: Vec<&str> = merged.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(merged.warnings.len(), 1);
        assert!(merged.warnings[0].message.contains("ConfigMap ns/a"));
    }
}
