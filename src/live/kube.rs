/*!
The live read's client: kube-rs's (`kube-client`, over rustls), so the kubeconfig is read and
used as kubectl uses it: contexts, client certificates and keys (files or data), bearer tokens
and token files, `exec` credential plugins, `certificate-authority(-data)`, `tls-server-name`,
`insecure-skip-tls-verify` only when the kubeconfig says so, `proxy-url`.

Three choices of ours: a token file's content is trimmed of surrounding whitespace, as kubectl
trims it (kube-rs sends it as it is); a `HTTPS_PROXY` from the environment is not used for an API server on a
loopback address (Go's proxy rules, which kubectl follows, never proxy loopback; a kubeconfig's
own `proxy-url` still is); and no request is retried (a read that fails says so). kube-rs is
asynchronous: one current-thread tokio runtime lives as long as the read, and nowhere else.
*/

use std::time::Duration;

use http_body_util::BodyExt;
use kube_client::config::{KubeConfigOptions, Kubeconfig};
use kube_client::{Client, Config};

use super::transport::{Answer, Failed, Transport};
use crate::diag::{Code, Diagnostic};
use crate::load::LiveRequest;

/// Largest token file read (a service account token is about 1 KiB).
const MAX_TOKEN_FILE_BYTES: u64 = 1 << 20;

/// A connected client and the runtime it runs on.
pub struct Kube {
    rt: tokio::runtime::Runtime,
    client: Client,
    server: String,
}

/// `e` and its causes, one sentence (TLS and connection errors say what failed in a cause).
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    let mut depth = 0;
    while let Some(c) = cause {
        let s = c.to_string();
        if !out.contains(&s) {
            out.push_str(": ");
            out.push_str(&s);
        }
        cause = c.source();
        depth += 1;
        if depth > 8 {
            break;
        }
    }
    out
}

fn kubeconfig_error(what: String) -> Diagnostic {
    Diagnostic::error(Code::LiveKubeconfig, what)
}

impl Kube {
    /// Read the kubeconfig `req` names and build a client for its context.
    pub fn connect(req: &LiveRequest) -> Result<Kube, Diagnostic> {
        let (read, shown) = match &req.kubeconfig {
            Some(p) => (
                Kubeconfig::read_from(p),
                format!("--kubeconfig {}", p.display()),
            ),
            None => (
                Kubeconfig::read(),
                "the kubeconfig (KUBECONFIG, else ~/.kube/config)".to_string(),
            ),
        };
        let kubeconfig = read.map_err(|e| {
            kubeconfig_error(format!("cannot read {shown}: {}", chain(&e)))
                .with_help("name a kubeconfig with --kubeconfig PATH")
        })?;
        let Some(context) = req
            .context
            .clone()
            .or_else(|| kubeconfig.current_context.clone())
            .filter(|c| !c.is_empty())
        else {
            return Err(kubeconfig_error(format!("{shown} has no current context"))
                .with_help("name one with --context NAME"));
        };
        let Some(named) = kubeconfig.contexts.iter().find(|c| c.name == context) else {
            let known: Vec<&str> = kubeconfig
                .contexts
                .iter()
                .take(10)
                .map(|c| c.name.as_str())
                .collect();
            return Err(
                kubeconfig_error(format!("context {context:?} is not in {shown}"))
                    .with_help(format!("its contexts: {}", known.join(", "))),
            );
        };
        let cluster = named.context.as_ref().map(|c| c.cluster.clone());
        let own_proxy = kubeconfig
            .clusters
            .iter()
            .find(|c| Some(&c.name) == cluster.as_ref())
            .and_then(|c| c.cluster.as_ref())
            .and_then(|c| c.proxy_url.as_deref())
            .is_some_and(|p| !p.is_empty());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                Diagnostic::error(
                    Code::LiveConnect,
                    format!("cannot start the live read's runtime: {e}"),
                )
            })?;
        let options = KubeConfigOptions {
            context: Some(context.clone()),
            cluster: None,
            user: None,
        };
        let mut config = rt
            .block_on(Config::from_custom_kubeconfig(kubeconfig, &options))
            .map_err(|e| {
                kubeconfig_error(format!("{shown}, context {context:?}: {}", chain(&e)))
            })?;
        // kubectl trims the whitespace around a token file's content (a file written with a
        // trailing newline works there); kube-rs sends it as it is. Read once, as kubectl
        // would for a read this short.
        if config.auth_info.token.is_none()
            && let Some(path) = config.auth_info.token_file.take()
        {
            let limit = crate::load::limit::InputLimit::new(MAX_TOKEN_FILE_BYTES);
            let bytes = limit
                .read_path(std::path::Path::new(&path), &path)
                .map_err(|e| match e {
                    crate::load::limit::ReadError::TooLarge(d) => d,
                    crate::load::limit::ReadError::Io(e) => kubeconfig_error(format!(
                        "{shown}, context {context:?}: cannot read the token file {path}: {e}"
                    )),
                })?;
            let token = String::from_utf8_lossy(&bytes).trim().to_string();
            config.auth_info.token = Some(secrecy::SecretString::from(token));
        }
        if !own_proxy && loopback(&config.cluster_url) {
            config.proxy_url = None;
        }
        // Our own deadline covers each whole request ([`Transport::get`]'s timeout).
        config.read_timeout = None;
        if let Some(t) = req.request_timeout {
            config.connect_timeout = Some(t);
        }
        config.default_retry = false;
        let server = config
            .cluster_url
            .to_string()
            .trim_end_matches('/')
            .to_string();
        let client = rt
            .block_on(async { Client::try_from(config) })
            .map_err(|e| {
                kubeconfig_error(format!(
                    "{shown}, context {context:?}: cannot build a client: {}",
                    chain(&e)
                ))
            })?;
        Ok(Kube { rt, client, server })
    }
}

/// Whether the API server's host is a loopback address (or `localhost`).
fn loopback(url: &http::Uri) -> bool {
    match url.host() {
        Some("localhost") => true,
        Some(h) => h
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback()),
        None => false,
    }
}

impl Transport for Kube {
    fn get(&mut self, path: &str, max: u64, timeout: Option<Duration>) -> Result<Answer, Failed> {
        let request = http::Request::get(path)
            .body(kube_client::client::Body::empty())
            .map_err(|e| Failed::Other(e.to_string()))?;
        let client = self.client.clone();
        let exchange = async move {
            let response = client
                .send(request)
                .await
                .map_err(|e| Failed::Other(chain(&e)))?;
            let status = response.status().as_u16();
            let mut body = response.into_body();
            let mut out: Vec<u8> = Vec::new();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| Failed::Other(chain(&e)))?;
                if let Ok(data) = frame.into_data() {
                    if (out.len() as u64).saturating_add(data.len() as u64) > max {
                        return Err(Failed::TooLarge);
                    }
                    out.extend_from_slice(&data);
                }
            }
            Ok(Answer { status, body: out })
        };
        self.rt.block_on(async move {
            match timeout {
                Some(t) => tokio::time::timeout(t, exchange)
                    .await
                    .unwrap_or(Err(Failed::TimedOut)),
                None => exchange.await,
            }
        })
    }

    fn server(&self) -> String {
        self.server.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        let u = |s: &str| s.parse::<http::Uri>().expect("uri");
        assert!(loopback(&u("https://127.0.0.1:6443")));
        assert!(loopback(&u("https://localhost:6443")));
        assert!(loopback(&u("https://[::1]:6443")));
        assert!(!loopback(&u("https://10.0.0.1:6443")));
        assert!(!loopback(&u("https://api.example.com")));
    }
}
