/*!
The API server's read verbs, as its documentation defines them on the wire: discovery (`/api`,
`/apis`, each group version's resource list), get, and list in pages (`limit`/`continue`; a
`410 Gone` for an expired continue token restarts the list from its start, a bounded number of
times). Every body is charged to the run's byte budget (`--max-input-bytes`) as it is read;
every request has the per-request deadline (`--request-timeout`) cut to what is left of the
read's (`--live-deadline`). Owns turning statuses into diagnostics: a 403 names the `kubectl
auth can-i` check of the verb and resource refused.

Only [`super::Transport::get`] reaches the server.
*/

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::transport::{Answer, Failed, Transport};
use crate::diag::{Code, Diagnostic};
use crate::load::limit::InputLimit;

/// Objects asked for per page (kubectl's `--chunk-size` default).
pub const PAGE: usize = 500;
/// Most pages of one list: past it the server is paging without end.
pub const MAX_PAGES: usize = 100_000;
/// Most times one list restarts after its continue token expired (410 Gone).
pub const MAX_RESTARTS: usize = 3;
/// Most requests of one read (every list page and get counts): a bound on a server or an
/// input that would make the read go on without end.
pub const MAX_REQUESTS: usize = 200_000;

/// A kind the server serves: where its objects are.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Resource {
    /// API group (`""` for the core group).
    pub group: String,
    /// The version read (the group's preferred one, as kubectl reads it).
    pub version: String,
    /// The kind.
    pub kind: String,
    /// The resource name (plural).
    pub plural: String,
    /// Whether its objects live in namespaces.
    pub namespaced: bool,
}

impl Resource {
    /// `group/version`, or `version` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// `plural.group`, or `plural` for the core group: how kubectl names the resource.
    pub fn name(&self) -> String {
        if self.group.is_empty() {
            self.plural.clone()
        } else {
            format!("{}.{}", self.plural, self.group)
        }
    }

    /// The collection's path, in `namespace` or across all of them.
    fn path(&self, namespace: Option<&str>) -> String {
        let base = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        match namespace.filter(|_| self.namespaced) {
            Some(ns) => format!("{base}/namespaces/{}/{}", segment(ns), self.plural),
            None => format!("{base}/{}", self.plural),
        }
    }
}

/// A path segment: names are DNS-1123, but a stored object may say anything.
fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The read verbs over a transport, with the read's bounds and what discovery learnt.
pub struct Api<'t> {
    transport: &'t mut dyn Transport,
    limit: InputLimit,
    request_timeout: Option<Duration>,
    deadline: Duration,
    started: Instant,
    requests: usize,
    /// Each group's preferred version (`None` until `/apis` was read).
    groups: Option<BTreeMap<String, String>>,
    /// Each group version's resources, by kind.
    resources: BTreeMap<String, BTreeMap<String, Resource>>,
}

impl<'t> Api<'t> {
    /// The verbs over `transport`, each body charged to `limit`.
    pub fn new(
        transport: &'t mut dyn Transport,
        limit: InputLimit,
        request_timeout: Option<Duration>,
        deadline: Duration,
    ) -> Api<'t> {
        Api {
            transport,
            limit,
            request_timeout,
            deadline,
            started: Instant::now(),
            requests: 0,
            groups: None,
            resources: BTreeMap::new(),
        }
    }

    /// The server, for messages.
    pub fn server(&self) -> String {
        self.transport.server()
    }

    /// GET `path`: its answer, the body charged to the budget.
    fn fetch(&mut self, path: &str) -> Result<Answer, Diagnostic> {
        let server = self.transport.server();
        let left = self.deadline.saturating_sub(self.started.elapsed());
        if left.is_zero() {
            return Err(self.past_deadline(path));
        }
        self.requests += 1;
        if self.requests > MAX_REQUESTS {
            return Err(Diagnostic::error(
                Code::LiveResponse,
                format!(
                    "{server}: the live read made more than {MAX_REQUESTS} requests, the most topoplan makes"
                ),
            ));
        }
        // Which deadline a timeout is: the read's when it is the nearer one.
        let by_deadline = self.request_timeout.is_none_or(|t| t >= left);
        let timeout = Some(self.request_timeout.map_or(left, |t| t.min(left)));
        let max = self.limit.max().saturating_sub(self.limit.used());
        let shown = format!("{server}{path}");
        match self.transport.get(path, max, timeout) {
            Ok(answer) => {
                self.limit.charge(answer.body.len() as u64, &shown)?;
                Ok(answer)
            }
            Err(Failed::TooLarge) => Err(self.limit.too_large(&shown)),
            Err(Failed::TimedOut) if by_deadline => Err(self.past_deadline(path)),
            Err(Failed::TimedOut) => Err(Diagnostic::error(
                Code::LiveConnect,
                format!(
                    "GET {shown}: no answer within {} (--request-timeout)",
                    seconds(self.request_timeout.unwrap_or_default())
                ),
            )
            .with_help("a larger --request-timeout (e.g. 2m) gives a slow server more time")),
            Err(Failed::Other(e)) => Err(Diagnostic::error(
                Code::LiveConnect,
                format!("GET {shown}: {e}"),
            )
            .with_help(
                "check that `kubectl get --raw /version` works with the same kubeconfig and context",
            )),
        }
    }

    fn past_deadline(&self, path: &str) -> Diagnostic {
        Diagnostic::error(
            Code::LiveConnect,
            format!(
                "the live read of {} passed its deadline of {} (--live-deadline), at GET {path}",
                self.transport.server(),
                seconds(self.deadline)
            ),
        )
        .with_help("a larger --live-deadline gives a large cluster more time; or export the state once and plan with --current")
    }

    /// GET `path` as JSON: `None` on 404. `what` says what was asked, for a 403.
    fn json(&mut self, path: &str, what: &Refused<'_>) -> Result<Option<Value>, Diagnostic> {
        let answer = self.fetch(path)?;
        let server = self.transport.server();
        match answer.status {
            200 => serde_json::from_slice(&answer.body).map(Some).map_err(|e| {
                Diagnostic::error(
                    Code::LiveResponse,
                    format!(
                        "GET {server}{path}: the answer is not the JSON the API documents: {e}"
                    ),
                )
            }),
            404 => Ok(None),
            403 => Err(what.forbidden(&server, status_message(&answer.body))),
            401 => Err(Diagnostic::error(
                Code::LiveConnect,
                format!(
                    "GET {server}{path}: 401 Unauthorized: {}",
                    status_message(&answer.body)
                ),
            )
            .with_help(
                "the kubeconfig's credentials were refused; check them with `kubectl auth whoami`",
            )),
            code => Err(unexpected(&server, path, code, &answer.body)),
        }
    }

    /// The resource serving `kind` of `group`, at the group's preferred version; `None` when
    /// the server does not serve it.
    pub fn resource(&mut self, group: &str, kind: &str) -> Result<Option<Resource>, Diagnostic> {
        let version = if group.is_empty() {
            "v1".to_string()
        } else {
            match self.preferred(group)? {
                Some(v) => v,
                None => return Ok(None),
            }
        };
        let gv = if group.is_empty() {
            version.clone()
        } else {
            format!("{group}/{version}")
        };
        if !self.resources.contains_key(&gv) {
            let path = if group.is_empty() {
                format!("/api/{version}")
            } else {
                format!("/apis/{gv}")
            };
            let list = self
                .json(&path, &Refused::Discovery)?
                .unwrap_or(Value::Null);
            let mut kinds = BTreeMap::new();
            for r in list
                .get("resources")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let s = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or_default();
                // Subresources (`clusters/status`) are not collections.
                if s("name").is_empty() || s("name").contains('/') || s("kind").is_empty() {
                    continue;
                }
                kinds
                    .entry(s("kind").to_string())
                    .or_insert_with(|| Resource {
                        group: group.to_string(),
                        version: version.clone(),
                        kind: s("kind").to_string(),
                        plural: s("name").to_string(),
                        namespaced: r.get("namespaced").and_then(Value::as_bool) == Some(true),
                    });
            }
            self.resources.insert(gv.clone(), kinds);
        }
        Ok(self.resources.get(&gv).and_then(|k| k.get(kind)).cloned())
    }

    /// The preferred version of `group` (`/apis`, read once); `None` when it is not served.
    fn preferred(&mut self, group: &str) -> Result<Option<String>, Diagnostic> {
        if self.groups.is_none() {
            let list = self
                .json("/apis", &Refused::Discovery)?
                .unwrap_or(Value::Null);
            let mut groups = BTreeMap::new();
            for g in list
                .get("groups")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = g.get("name").and_then(Value::as_str).unwrap_or_default();
                let version = g
                    .pointer("/preferredVersion/version")
                    .and_then(Value::as_str)
                    .or_else(|| g.pointer("/versions/0/version").and_then(Value::as_str))
                    .unwrap_or_default();
                if !name.is_empty() && !version.is_empty() {
                    groups.insert(name.to_string(), version.to_string());
                }
            }
            self.groups = Some(groups);
        }
        Ok(self.groups.as_ref().and_then(|g| g.get(group)).cloned())
    }

    /// One object, `None` when there is none.
    pub fn get(
        &mut self,
        r: &Resource,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Option<Value>, Diagnostic> {
        let path = format!("{}/{}", r.path(namespace), segment(name));
        let refused = Refused::Get(r, namespace);
        let mut v = self.json(&path, &refused)?;
        if let Some(v) = &mut v {
            typed(v, r);
        }
        Ok(v)
    }

    /// Every object of `r` (in `namespace`, or all), matching `selector` when given: page by
    /// page, restarting when the continue token expired.
    pub fn list(
        &mut self,
        r: &Resource,
        namespace: Option<&str>,
        selector: Option<&str>,
    ) -> Result<Vec<Value>, Diagnostic> {
        let refused = Refused::List(r, namespace);
        let base = r.path(namespace);
        let server = self.transport.server();
        let mut restarts = 0;
        'list: loop {
            let mut items = Vec::new();
            let mut token: Option<String> = None;
            for _ in 0..MAX_PAGES {
                let mut path = format!("{base}?limit={PAGE}");
                if let Some(s) = selector {
                    path.push_str("&labelSelector=");
                    path.push_str(&query(s));
                }
                if let Some(t) = &token {
                    path.push_str("&continue=");
                    path.push_str(&query(t));
                }
                let answer = self.fetch(&path)?;
                match answer.status {
                    200 => {}
                    404 => return Ok(Vec::new()),
                    403 => return Err(refused.forbidden(&server, status_message(&answer.body))),
                    // The continue token expired (the server compacted past it): the list
                    // starts again, as kubectl's pager does.
                    410 if token.is_some() => {
                        restarts += 1;
                        if restarts > MAX_RESTARTS {
                            return Err(Diagnostic::error(
                                Code::LiveResponse,
                                format!(
                                    "list {} on {server}: the continue token expired {restarts} times (410 Gone): {}",
                                    r.name(),
                                    status_message(&answer.body)
                                ),
                            )
                            .with_help("the cluster changes faster than it can be listed; retry, or export the state with kubectl and plan with --current"));
                        }
                        continue 'list;
                    }
                    code => return Err(unexpected(&server, &path, code, &answer.body)),
                }
                let mut page: Value = serde_json::from_slice(&answer.body).map_err(|e| {
                    Diagnostic::error(
                        Code::LiveResponse,
                        format!(
                            "GET {server}{path}: the answer is not the JSON the API documents: {e}"
                        ),
                    )
                })?;
                if let Some(Value::Array(found)) = page.get_mut("items").map(Value::take) {
                    for mut item in found {
                        typed(&mut item, r);
                        items.push(item);
                    }
                }
                token = page
                    .pointer("/metadata/continue")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                    .map(str::to_string);
                if token.is_none() {
                    return Ok(items);
                }
            }
            return Err(Diagnostic::error(
                Code::LiveResponse,
                format!(
                    "list {} on {server}: more than {MAX_PAGES} pages of {PAGE}",
                    r.name()
                ),
            ));
        }
    }
}

/// What a 403 refused: the `kubectl auth can-i` check that tells the rule missing.
enum Refused<'a> {
    Discovery,
    Get(&'a Resource, Option<&'a str>),
    List(&'a Resource, Option<&'a str>),
}

impl Refused<'_> {
    fn forbidden(&self, server: &str, message: String) -> Diagnostic {
        let (verb, resource, ns) = match self {
            Refused::Discovery => {
                return Diagnostic::error(
                    Code::LiveForbidden,
                    format!("{server}: discovery is forbidden: {message}"),
                )
                .with_help("the credentials need the system:discovery ClusterRole (every authenticated user has it by default)");
            }
            Refused::Get(r, ns) => ("get", r, ns.filter(|_| r.namespaced)),
            Refused::List(r, ns) => ("list", r, ns.filter(|_| r.namespaced)),
        };
        let scope = match ns {
            Some(ns) => format!("-n {ns}"),
            None if resource.namespaced => "-A".to_string(),
            None => String::new(),
        };
        let check = format!("kubectl auth can-i {verb} {} {scope}", resource.name());
        Diagnostic::error(
            Code::LiveForbidden,
            format!(
                "{server}: {verb} {} is forbidden: {message}",
                resource.name()
            ),
        )
        .with_help(format!(
            "the plan needs to read {}; check with `{}`; docs/live.md gives a read-only ClusterRole",
            resource.name(),
            check.trim_end()
        ))
    }
}

/// Items of a list carry no `apiVersion` and `kind` for built-in kinds: set them, as kubectl
/// does when it prints them.
fn typed(v: &mut Value, r: &Resource) {
    if let Some(map) = v.as_object_mut() {
        if !map.get("apiVersion").is_some_and(Value::is_string) {
            map.insert("apiVersion".into(), Value::String(r.api_version()));
        }
        if !map.get("kind").is_some_and(Value::is_string) {
            map.insert("kind".into(), Value::String(r.kind.clone()));
        }
    }
}

/// A query value, percent-encoded.
fn query(s: &str) -> String {
    segment(s)
}

/// The message of a `Status` body, or the start of whatever the body is.
fn status_message(body: &[u8]) -> String {
    let v: Option<Value> = serde_json::from_slice(body).ok();
    match v
        .as_ref()
        .and_then(|v| v.get("message"))
        .and_then(Value::as_str)
    {
        Some(m) => m.chars().take(512).collect(),
        None => {
            String::from_utf8_lossy(body.get(..body.len().min(512)).unwrap_or(&[])).into_owned()
        }
    }
}

fn unexpected(server: &str, path: &str, code: u16, body: &[u8]) -> Diagnostic {
    Diagnostic::error(
        Code::LiveResponse,
        format!("GET {server}{path}: {code}: {}", status_message(body)),
    )
}

/// `d` as kubectl prints a duration (`30s`, `1m30s`).
pub fn seconds(d: Duration) -> String {
    let s = d.as_secs();
    let ms = d.subsec_millis();
    match (s / 60, s % 60) {
        (0, s) if ms > 0 => format!("{s}.{ms:03}s"),
        (0, s) => format!("{s}s"),
        (m, 0) => format!("{m}m"),
        (m, s) => format!("{m}m{s}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transport answering from a table, counting requests.
    struct Table {
        answers: Vec<(String, u16, Value)>,
        seen: Vec<String>,
    }

    impl Transport for Table {
        fn get(&mut self, path: &str, _max: u64, _t: Option<Duration>) -> Result<Answer, Failed> {
            self.seen.push(path.to_string());
            let pos = self.answers.iter().position(|(p, ..)| p == path);
            match pos {
                Some(i) => {
                    let (_, status, body) = self.answers.remove(i);
                    Ok(Answer {
                        status,
                        body: body.to_string().into_bytes(),
                    })
                }
                None => Ok(Answer {
                    status: 404,
                    body: Vec::new(),
                }),
            }
        }
        fn server(&self) -> String {
            "https://test".into()
        }
    }

    fn cms() -> Resource {
        Resource {
            group: String::new(),
            version: "v1".into(),
            kind: "ConfigMap".into(),
            plural: "configmaps".into(),
            namespaced: true,
        }
    }

    fn page(names: &[&str], cont: &str) -> Value {
        let items: Vec<Value> = names
            .iter()
            .map(|n| serde_json::json!({"metadata": {"name": n}}))
            .collect();
        serde_json::json!({"kind": "ConfigMapList", "metadata": {"continue": cont}, "items": items})
    }

    #[test]
    fn an_expired_continue_token_restarts_the_list() {
        let p = "/api/v1/configmaps?limit=500";
        let mut t = Table {
            answers: vec![
                (p.into(), 200, page(&["a"], "t1")),
                (
                    format!("{p}&continue=t1"),
                    410,
                    serde_json::json!({"kind": "Status", "code": 410, "reason": "Expired", "message": "too old resource version"}),
                ),
                (p.into(), 200, page(&["a"], "t2")),
                (format!("{p}&continue=t2"), 200, page(&["b"], "")),
            ],
            seen: Vec::new(),
        };
        let mut api = Api::new(
            &mut t,
            InputLimit::new(1 << 20),
            None,
            Duration::from_secs(60),
        );
        let items = api.list(&cms(), None, None).expect("lists");
        let names: Vec<&str> = items
            .iter()
            .filter_map(|i| i.pointer("/metadata/name").and_then(Value::as_str))
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(items[0]["kind"], "ConfigMap");
        assert_eq!(items[0]["apiVersion"], "v1");
        assert_eq!(t.seen.len(), 4);
    }

    #[test]
    fn restarts_are_bounded() {
        let p = "/api/v1/configmaps?limit=500";
        let mut answers = Vec::new();
        for _ in 0..=MAX_RESTARTS {
            answers.push((p.to_string(), 200, page(&["a"], "t")));
            answers.push((
                format!("{p}&continue=t"),
                410,
                serde_json::json!({"message": "expired"}),
            ));
        }
        let mut t = Table {
            answers,
            seen: Vec::new(),
        };
        let mut api = Api::new(
            &mut t,
            InputLimit::new(1 << 20),
            None,
            Duration::from_secs(60),
        );
        let e = api.list(&cms(), None, None).expect_err("gives up");
        assert_eq!(e.code, Code::LiveResponse);
        assert!(e.message.contains("expired 4 times"), "{}", e.message);
    }

    #[test]
    fn a_403_names_the_rbac_check() {
        let mut t = Table {
            answers: vec![(
                "/api/v1/configmaps?limit=500".into(),
                403,
                serde_json::json!({"kind": "Status", "message": "configmaps is forbidden: User \"ci\" cannot list resource \"configmaps\""}),
            )],
            seen: Vec::new(),
        };
        let mut api = Api::new(
            &mut t,
            InputLimit::new(1 << 20),
            None,
            Duration::from_secs(60),
        );
        let e = api.list(&cms(), None, None).expect_err("forbidden");
        assert_eq!(e.code, Code::LiveForbidden);
        assert!(
            e.help
                .as_deref()
                .is_some_and(|h| h.contains("`kubectl auth can-i list configmaps -A`")),
            "{:?}",
            e.help
        );
    }

    #[test]
    fn bodies_are_charged_to_the_budget() {
        let mut t = Table {
            answers: vec![("/api/v1/configmaps?limit=500".into(), 200, page(&["a"], ""))],
            seen: Vec::new(),
        };
        let mut api = Api::new(&mut t, InputLimit::new(10), None, Duration::from_secs(60));
        let e = api.list(&cms(), None, None).expect_err("over the budget");
        assert_eq!(e.code, Code::InputLimit);
    }

    #[test]
    fn a_deeply_nested_answer_is_refused() {
        struct Deep;
        impl Transport for Deep {
            fn get(&mut self, _: &str, _: u64, _: Option<Duration>) -> Result<Answer, Failed> {
                let n = 100_000;
                let body = format!("{{\"items\":{}{}}}", "[".repeat(n), "]".repeat(n));
                Ok(Answer {
                    status: 200,
                    body: body.into_bytes(),
                })
            }
            fn server(&self) -> String {
                "https://test".into()
            }
        }
        let mut t = Deep;
        let mut api = Api::new(
            &mut t,
            InputLimit::new(1 << 20),
            None,
            Duration::from_secs(60),
        );
        let e = api.list(&cms(), None, None).expect_err("too deep");
        assert_eq!(e.code, Code::LiveResponse);
        assert!(e.message.contains("recursion limit"), "{}", e.message);
    }

    #[test]
    fn durations_read_as_kubectl_prints_them() {
        assert_eq!(seconds(Duration::from_secs(30)), "30s");
        assert_eq!(seconds(Duration::from_secs(90)), "1m30s");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.500s");
    }
}
