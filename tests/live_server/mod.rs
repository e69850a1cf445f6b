/*!
A Kubernetes API server stand-in for the live-read tests, on 127.0.0.1 over HTTPS with a test CA.

It answers in one of two ways:
- **replay**: from a recording (a folder of `testdata/live/`, a JSON list of exchanges: method, path
  with its query, status, body), each exchange once and in order per request (the last one
  repeats); a request the recording does not hold gets a 404 and is remembered as missing;
- **fake** (to make the recordings, `TOPOPLAN_BLESS=1`): from a set of objects, as the API
  server's documented wire format has it: discovery (`/api`, `/api/v1`, `/apis`, each group
  version's `APIResourceList`), get, list with `limit`/`continue` (pages of at most two
  objects, so lists page), `labelSelector` (`k=v`, `k in (a,b)`), a `410 Gone` `Status` the
  first time a chosen list's continue token is used, a `403 Forbidden` `Status` for chosen
  resources. Every exchange is recorded.

It authenticates as the test asks (a bearer token, a client certificate signed by its CA, or
nothing), records every request's method and target, can delay answers, and can count
connections. [`Proxy`] is an HTTP CONNECT proxy on 127.0.0.1 that records the targets it
tunnels to.
*/

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use serde_json::{Value, json};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A test CA, the server's certificate, and a client certificate the server accepts.
pub struct Pki {
    pub ca_pem: String,
    pub client_cert_pem: String,
    pub client_key_pem: String,
    server: Arc<rustls::ServerConfig>,
}

pub fn pki() -> Pki {
    let ca_key = KeyPair::generate().expect("ca key");
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("ca params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "topoplan test API CA");
    let ca_cert = ca_params.self_signed(&ca_key).expect("ca cert");
    let issuer = rcgen::Issuer::new(ca_params, ca_key);

    let key = KeyPair::generate().expect("server key");
    let mut params = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
        .expect("server params");
    params
        .distinguished_name
        .push(DnType::CommonName, "kube-apiserver");
    let cert = params.signed_by(&key, &issuer).expect("server cert");

    let client_key = KeyPair::generate().expect("client key");
    let mut client_params = CertificateParams::new(Vec::<String>::new()).expect("client params");
    client_params
        .distinguished_name
        .push(DnType::CommonName, "ci-reader");
    let client_cert = client_params
        .signed_by(&client_key, &issuer)
        .expect("client cert");

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca_cert.der().clone()).expect("root");
    let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
        Arc::new(roots),
        provider.clone(),
    )
    .allow_unauthenticated()
    .build()
    .expect("client verifier");
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_client_cert_verifier(verifier)
        .with_single_cert(
            vec![cert.der().clone(), ca_cert.der().clone()],
            rustls_pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .expect("server config");
    Pki {
        ca_pem: ca_cert.pem(),
        client_cert_pem: client_cert.pem(),
        client_key_pem: client_key.serialize_pem(),
        server: Arc::new(config),
    }
}

/// What the server requires of a request.
#[derive(Debug, Clone, PartialEq)]
pub enum Auth {
    None,
    Token(String),
    ClientCert,
}

/// One exchange of a recording.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub body: Value,
}

/// What the fake serves.
#[derive(Debug, Clone, Default)]
pub struct Fake {
    pub objects: Vec<Value>,
    /// Resources (plural) whose lists are refused with a 403.
    pub forbid: BTreeSet<String>,
    /// Resources (plural) whose first continue token is answered with a 410.
    pub expire_once: BTreeSet<String>,
}

enum Source {
    Replay(Vec<(Exchange, bool)>),
    Fake(Fake, BTreeSet<String>),
}

#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub target: String,
    pub authorization: Option<String>,
    pub client_cert: bool,
}

struct State {
    source: Mutex<Source>,
    auth: Mutex<Auth>,
    delay: Mutex<Option<Duration>>,
    seen: Mutex<Vec<Seen>>,
    recorded: Mutex<Vec<Exchange>>,
    missing: Mutex<Vec<String>>,
}

/// A running stand-in API server.
pub struct ApiServer {
    pub url: String,
    pub pki: Pki,
    state: Arc<State>,
}

impl ApiServer {
    /// Replay `exchanges`.
    pub fn replay(exchanges: Vec<Exchange>) -> ApiServer {
        Self::start(Source::Replay(
            exchanges.into_iter().map(|e| (e, false)).collect(),
        ))
    }

    /// Replay the recording at `path`.
    pub fn replay_file(path: &Path) -> ApiServer {
        let text = std::fs::read_to_string(path).expect("read the recording");
        Self::replay(serde_json::from_str(&text).expect("a recording"))
    }

    /// Serve `fake`, recording every exchange.
    pub fn fake(fake: Fake) -> ApiServer {
        Self::start(Source::Fake(fake, BTreeSet::new()))
    }

    fn start(source: Source) -> ApiServer {
        let pki = pki();
        let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
        let port = listener.local_addr().expect("addr").port();
        let state = Arc::new(State {
            source: Mutex::new(source),
            auth: Mutex::new(Auth::None),
            delay: Mutex::new(None),
            seen: Mutex::new(Vec::new()),
            recorded: Mutex::new(Vec::new()),
            missing: Mutex::new(Vec::new()),
        });
        let st = state.clone();
        let config = pki.server.clone();
        thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let st = st.clone();
                let config = config.clone();
                thread::spawn(move || {
                    let Ok(sc) = rustls::ServerConnection::new(config) else {
                        return;
                    };
                    serve(rustls::StreamOwned::new(sc, conn), &st);
                });
            }
        });
        ApiServer {
            url: format!("https://127.0.0.1:{port}"),
            pki,
            state,
        }
    }

    pub fn set_auth(&self, auth: Auth) {
        *lock(&self.state.auth) = auth;
    }

    pub fn set_delay(&self, d: Option<Duration>) {
        *lock(&self.state.delay) = d;
    }

    /// Every request seen.
    pub fn seen(&self) -> Vec<Seen> {
        lock(&self.state.seen).clone()
    }

    /// Requests a replay had no exchange for.
    pub fn missing(&self) -> Vec<String> {
        lock(&self.state.missing).clone()
    }

    /// Every exchange answered (what a recording holds).
    pub fn recorded(&self) -> Vec<Exchange> {
        lock(&self.state.recorded).clone()
    }
}

fn serve(stream: rustls::StreamOwned<rustls::ServerConnection, TcpStream>, st: &State) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_string();
        let target = parts.next().unwrap_or_default().to_string();
        let mut authorization = None;
        let mut len = 0usize;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                let k = k.trim().to_ascii_lowercase();
                if k == "content-length" {
                    len = v.trim().parse().unwrap_or(0);
                }
                if k == "authorization" {
                    authorization = Some(v.trim().to_string());
                }
            }
        }
        let mut body = vec![0u8; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let client_cert = reader
            .get_ref()
            .conn
            .peer_certificates()
            .is_some_and(|c| !c.is_empty());
        lock(&st.seen).push(Seen {
            method: method.clone(),
            target: target.clone(),
            authorization: authorization.clone(),
            client_cert,
        });
        if let Some(d) = *lock(&st.delay) {
            thread::sleep(d);
        }
        let auth = lock(&st.auth).clone();
        let allowed = match &auth {
            Auth::None => true,
            Auth::Token(t) => authorization.as_deref() == Some(&format!("Bearer {t}")),
            Auth::ClientCert => client_cert,
        };
        let (status, out) = if !allowed {
            (401, status_body(401, "Unauthorized", "Unauthorized"))
        } else if method != "GET" {
            (
                405,
                status_body(405, "MethodNotAllowed", "the test server answers GET only"),
            )
        } else {
            let mut source = lock(&st.source);
            match &mut *source {
                Source::Replay(exchanges) => replay(exchanges, &target, st),
                Source::Fake(fake, expired) => {
                    let (status, body) = fake_answer(fake, expired, &target);
                    lock(&st.recorded).push(Exchange {
                        method: method.clone(),
                        path: target.clone(),
                        status,
                        body: body.clone(),
                    });
                    (status, body)
                }
            }
        };
        let bytes = out.to_string().into_bytes();
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            bytes.len()
        );
        let s = reader.get_mut();
        if s.write_all(head.as_bytes()).is_err()
            || s.write_all(&bytes).is_err()
            || s.flush().is_err()
        {
            return;
        }
    }
}

fn replay(exchanges: &mut [(Exchange, bool)], target: &str, st: &State) -> (u16, Value) {
    let mut last = None;
    for (i, (e, used)) in exchanges.iter_mut().enumerate() {
        if e.path == target {
            if !*used {
                *used = true;
                return (e.status, e.body.clone());
            }
            last = Some(i);
        }
    }
    if let Some(i) = last
        && let Some((e, _)) = exchanges.get(i)
    {
        return (e.status, e.body.clone());
    }
    lock(&st.missing).push(target.to_string());
    (404, status_body(404, "NotFound", "not in the recording"))
}

pub fn status_body(code: u16, reason: &str, message: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
           "message": message, "reason": reason, "code": code})
}

/// (group, version) of an apiVersion.
fn gv(api_version: &str) -> (String, String) {
    match api_version.split_once('/') {
        Some((g, v)) => (g.to_string(), v.to_string()),
        None => (String::new(), api_version.to_string()),
    }
}

fn plural(kind: &str) -> String {
    let l = kind.to_ascii_lowercase();
    if l.ends_with('s') {
        format!("{l}es")
    } else {
        format!("{l}s")
    }
}

const CLUSTER_SCOPED: &[&str] = &[
    "MutatingWebhookConfiguration",
    "CustomResourceDefinition",
    "Node",
    "Namespace",
    "ExtensionConfig",
];

/// Groups built into a real server, whose list items carry no apiVersion and kind.
const BUILT_IN: &[&str] = &["", "admissionregistration.k8s.io", "apiextensions.k8s.io"];

/// The kinds the fake serves: (group, version, kind).
fn kinds(fake: &Fake) -> BTreeSet<(String, String, String)> {
    let mut out: BTreeSet<(String, String, String)> = [
        ("", "v1", "Secret"),
        ("", "v1", "ConfigMap"),
        ("", "v1", "Node"),
        ("", "v1", "Namespace"),
        (
            "admissionregistration.k8s.io",
            "v1",
            "MutatingWebhookConfiguration",
        ),
        ("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
        ("runtime.cluster.x-k8s.io", "v1alpha1", "ExtensionConfig"),
        ("cluster.x-k8s.io", "v1beta2", "MachineSet"),
        ("cluster.x-k8s.io", "v1beta2", "Machine"),
        ("cluster.x-k8s.io", "v1beta2", "MachineDeployment"),
        ("cluster.x-k8s.io", "v1beta2", "MachinePool"),
        ("cluster.x-k8s.io", "v1beta2", "MachineHealthCheck"),
        ("cluster.x-k8s.io", "v1beta2", "Cluster"),
        ("cluster.x-k8s.io", "v1beta2", "ClusterClass"),
    ]
    .iter()
    .map(|(g, v, k)| (g.to_string(), v.to_string(), k.to_string()))
    .collect();
    for o in &fake.objects {
        let (g, v) = gv(o["apiVersion"].as_str().unwrap_or_default());
        let k = o["kind"].as_str().unwrap_or_default().to_string();
        if !out.iter().any(|(g2, _, k2)| *g2 == g && *k2 == k) {
            out.insert((g, v, k));
        }
    }
    out
}

fn fake_answer(fake: &Fake, expired: &mut BTreeSet<String>, target: &str) -> (u16, Value) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let q: BTreeMap<String, String> = query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k.to_string(), decode(v))
        })
        .collect();
    let kinds = kinds(fake);
    let resources = |g: &str, v: &str| -> Value {
        let list: Vec<Value> = kinds
            .iter()
            .filter(|(g2, v2, _)| g2 == g && v2 == v)
            .map(|(_, _, k)| {
                json!({"name": plural(k), "singularName": k.to_ascii_lowercase(), "namespaced": !CLUSTER_SCOPED.contains(&k.as_str()),
                       "kind": k, "verbs": ["get", "list", "watch", "create", "update", "patch", "delete"]})
            })
            .collect();
        let gv = if g.is_empty() {
            v.to_string()
        } else {
            format!("{g}/{v}")
        };
        json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list})
    };
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (group, version, rest) = match segs.as_slice() {
        ["api"] => {
            return (
                200,
                json!({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]}),
            );
        }
        ["apis"] => {
            let groups: BTreeMap<&str, &str> = kinds
                .iter()
                .filter(|(g, ..)| !g.is_empty())
                .map(|(g, v, _)| (g.as_str(), v.as_str()))
                .collect();
            let list: Vec<Value> = groups
                .iter()
                .map(|(g, v)| {
                    let gv = json!({"groupVersion": format!("{g}/{v}"), "version": v});
                    json!({"name": g, "versions": [gv.clone()], "preferredVersion": gv})
                })
                .collect();
            return (
                200,
                json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": list}),
            );
        }
        ["api", v] => return (200, resources("", v)),
        ["apis", g, v] => return (200, resources(g, v)),
        ["api", v, rest @ ..] => (String::new(), v.to_string(), rest.to_vec()),
        ["apis", g, v, rest @ ..] => (g.to_string(), v.to_string(), rest.to_vec()),
        _ => {
            return (
                404,
                status_body(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                ),
            );
        }
    };
    let (namespace, plural_name, name) = match rest.as_slice() {
        ["namespaces", ns, p] => (Some(ns.to_string()), p.to_string(), None),
        ["namespaces", ns, p, n] => (Some(ns.to_string()), p.to_string(), Some(decode(n))),
        [p] => (None, p.to_string(), None),
        [p, n] => (None, p.to_string(), Some(decode(n))),
        _ => {
            return (
                404,
                status_body(
                    404,
                    "NotFound",
                    "the server could not find the requested resource",
                ),
            );
        }
    };
    let Some((_, _, kind)) = kinds
        .iter()
        .find(|(g, v, k)| *g == group && *v == version && plural(k) == plural_name)
    else {
        return (
            404,
            status_body(
                404,
                "NotFound",
                "the server could not find the requested resource",
            ),
        );
    };
    let resource = if group.is_empty() {
        plural_name.clone()
    } else {
        format!("{plural_name}.{group}")
    };
    if fake.forbid.contains(&plural_name) {
        let verb = if name.is_some() { "get" } else { "list" };
        let scope = match &namespace {
            Some(ns) => format!("in the namespace \"{ns}\""),
            None => "at the cluster scope".to_string(),
        };
        return (
            403,
            status_body(
                403,
                "Forbidden",
                &format!(
                    "{resource} is forbidden: User \"ci-reader\" cannot {verb} resource \"{plural_name}\" in API group \"{group}\" {scope}"
                ),
            ),
        );
    }
    let matches = |o: &&Value| {
        let (g, _) = gv(o["apiVersion"].as_str().unwrap_or_default());
        g == group
            && o["kind"] == json!(kind)
            && namespace
                .as_ref()
                .is_none_or(|ns| o["metadata"]["namespace"] == json!(ns))
    };
    let strip = |o: &Value| {
        let mut o = o.clone();
        if BUILT_IN.contains(&group.as_str())
            && let Some(m) = o.as_object_mut()
        {
            m.remove("apiVersion");
            m.remove("kind");
        }
        o
    };
    if let Some(name) = name {
        return match fake
            .objects
            .iter()
            .filter(matches)
            .find(|o| o["metadata"]["name"] == json!(name))
        {
            Some(o) => (200, o.clone()),
            None => (
                404,
                status_body(404, "NotFound", &format!("{resource} \"{name}\" not found")),
            ),
        };
    }
    let selector = q.get("labelSelector").cloned().unwrap_or_default();
    let mut items: Vec<&Value> = fake
        .objects
        .iter()
        .filter(matches)
        .filter(|o| selects(&selector, &o["metadata"]["labels"]))
        .collect();
    items.sort_by_key(|o| {
        (
            o["metadata"]["namespace"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            o["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        )
    });
    let offset: usize = match q.get("continue") {
        None => 0,
        Some(token) => {
            if fake.expire_once.contains(&plural_name) && expired.insert(plural_name.clone()) {
                return (
                    410,
                    status_body(
                        410,
                        "Expired",
                        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
                    ),
                );
            }
            token
                .rsplit(':')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        }
    };
    let limit: usize = q
        .get("limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(usize::MAX)
        .min(2);
    let page: Vec<Value> = items
        .iter()
        .skip(offset)
        .take(limit)
        .map(|o| strip(o))
        .collect();
    let next = offset + page.len();
    let mut meta = json!({"resourceVersion": "4242"});
    if next < items.len() {
        meta["continue"] = json!(format!("{plural_name}:{next}"));
        meta["remainingItemCount"] = json!(items.len() - next);
    }
    let api_version = if group.is_empty() {
        version.clone()
    } else {
        format!("{group}/{version}")
    };
    (
        200,
        json!({"apiVersion": api_version, "kind": format!("{kind}List"), "metadata": meta, "items": page}),
    )
}

/// Whether `labels` match a selector of `k=v` / `k in (a,b)` terms.
fn selects(selector: &str, labels: &Value) -> bool {
    if selector.is_empty() {
        return true;
    }
    let label = |k: &str| labels.get(k).and_then(Value::as_str).map(str::to_string);
    if let Some((k, set)) = selector.split_once(" in ") {
        let set = set.trim().trim_start_matches('(').trim_end_matches(')');
        return label(k.trim()).is_some_and(|v| set.split(',').any(|s| s.trim() == v));
    }
    match selector.split_once('=') {
        Some((k, v)) => label(k) == Some(v.to_string()),
        None => label(selector).is_some(),
    }
}

fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(n) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(n);
            i += 3;
            continue;
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An HTTP CONNECT proxy on 127.0.0.1 that records where it tunnels to.
pub struct Proxy {
    pub url: String,
    targets: Arc<Mutex<Vec<String>>>,
}

impl Proxy {
    pub fn start() -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
        let port = listener.local_addr().expect("addr").port();
        let targets = Arc::new(Mutex::new(Vec::new()));
        let t = targets.clone();
        thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let t = t.clone();
                thread::spawn(move || tunnel(conn, &t));
            }
        });
        Proxy {
            url: format!("http://127.0.0.1:{port}"),
            targets,
        }
    }

    pub fn targets(&self) -> Vec<String> {
        lock(&self.targets).clone()
    }
}

fn tunnel(conn: TcpStream, targets: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(conn);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    if parts.next() != Some("CONNECT") {
        return;
    }
    let target = parts.next().unwrap_or_default().to_string();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim_end().is_empty() {
            break;
        }
    }
    lock(targets).push(target.clone());
    let Ok(upstream) = TcpStream::connect(&target) else {
        return;
    };
    let mut client = reader.into_inner();
    if client
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .is_err()
    {
        return;
    }
    let (Ok(mut c2), Ok(mut u2)) = (client.try_clone(), upstream.try_clone()) else {
        return;
    };
    let mut upstream = upstream;
    let a = thread::spawn(move || {
        let _ = std::io::copy(&mut c2, &mut upstream);
        let _ = upstream.shutdown(std::net::Shutdown::Write);
    });
    let _ = std::io::copy(&mut u2, &mut client);
    let _ = client.shutdown(std::net::Shutdown::Write);
    let _ = a.join();
}
