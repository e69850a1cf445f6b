//! The Runtime SDK client against the test extension server (tests/extension_server).

mod extension_server;

use std::time::{Duration, Instant};

use extension_server::{ExtensionServer, Hook, Mode, discovery_with_test_handlers, test_pki};
use serde_json::{Value, json};
use topoplan::runtime::types::decode_response;
use topoplan::runtime::{
    CallError, DiscoverVariablesRequest, Error, ExtensionOptions, ExtensionSource, FailurePolicy,
    GeneratePatchesRequest, GeneratePatchesRequestItem, GeneratePatchesResponse, HolderReference,
    Registry, ValidateTopologyRequest, ValidateTopologyRequestItem, Variable,
    from_extension_config, parse_extension_flag,
};

/// One extension, named on the command line (so its URL may be called).
fn opts(name: &str, url: &str) -> ExtensionOptions {
    ExtensionOptions {
        extensions: vec![ExtensionSource {
            name: name.into(),
            url: url.into(),
            named: true,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A server that also announces handlers with short timeouts, the Ignore policy and a lifecycle
/// hook, for client tests.
fn test_server() -> ExtensionServer {
    let server = ExtensionServer::http();
    server.set_discovery(discovery_with_test_handlers());
    server
}

fn registry(server: &ExtensionServer) -> Registry {
    match Registry::connect(&opts("test-ext", &server.url)) {
        Ok(r) => r,
        Err(e) => panic!("connect: {e:?}"),
    }
}

fn holder(kind: &str, field_path: &str) -> HolderReference {
    HolderReference {
        api_version: "cluster.x-k8s.io/v1beta2".into(),
        kind: kind.into(),
        namespace: "default".into(),
        name: "my-cluster".into(),
        field_path: field_path.into(),
    }
}

fn patches_request() -> GeneratePatchesRequest {
    GeneratePatchesRequest {
        settings: [("from-class".to_string(), "yes".to_string())].into(),
        variables: vec![
            Variable {
                name: "imageRepository".into(),
                value: json!("registry.example/kind"),
            },
            Variable {
                name: "builtin".into(),
                value: json!({"cluster": {"name": "my-cluster", "namespace": "default"}}),
            },
        ],
        items: vec![
            GeneratePatchesRequestItem {
                uid: "uid-infra".into(),
                holder_reference: holder("Cluster", "spec.infrastructureRef"),
                object: json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
                    "kind": "DevClusterTemplate", "metadata": {"name": "t"},
                    "spec": {"template": {"spec": {}}}}),
                variables: vec![],
            },
            GeneratePatchesRequestItem {
                uid: "uid-cp".into(),
                holder_reference: holder("Cluster", "spec.controlPlaneRef"),
                object: json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
                    "kind": "KubeadmControlPlaneTemplate", "metadata": {"name": "cp"},
                    "spec": {"template": {"spec": {}}}}),
                variables: vec![Variable {
                    name: "builtin".into(),
                    value: json!({"controlPlane": {"version": "v1.33.0+k3s"}}),
                }],
            },
        ],
        ..Default::default()
    }
}

fn patch_json(resp: &GeneratePatchesResponse, uid: &str) -> Value {
    let item = resp
        .items
        .iter()
        .find(|i| i.uid == uid)
        .unwrap_or_else(|| panic!("no patch for {uid}"));
    serde_json::from_slice(&item.patch).expect("patch JSON")
}

#[test]
fn discovery_registers_handlers_with_extension_suffix_defaults_and_policies() {
    // The default answer: the handlers of Cluster API's test extension.
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let names: Vec<&str> = reg.handlers().map(|h| h.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "discover-variables.test-ext",
            "generate-patches.test-ext",
            "generate-upgrade-plan.test-ext",
            "validate-topology.test-ext",
        ]
    );
    for h in reg.handlers() {
        assert_eq!(h.timeout_seconds, 10);
        assert_eq!(h.failure_policy, FailurePolicy::Fail);
    }

    let server = test_server();
    let reg = registry(&server);
    let names: Vec<&str> = reg.handlers().map(|h| h.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "before-cluster-create.test-ext",
            "discover-variables.test-ext",
            "generate-patches-fast.test-ext",
            "generate-patches-ignore.test-ext",
            "generate-patches.test-ext",
            "generate-upgrade-plan.test-ext",
            "validate-topology.test-ext",
        ]
    );
    let gp = reg
        .handler("generate-patches.test-ext")
        .expect("registered");
    assert_eq!(gp.timeout_seconds, 10);
    assert_eq!(gp.failure_policy, FailurePolicy::Fail);
    assert_eq!(gp.hook, "GeneratePatches");
    let ig = reg
        .handler("generate-patches-ignore.test-ext")
        .expect("registered");
    assert_eq!(ig.timeout_seconds, 1);
    assert_eq!(ig.failure_policy, FailurePolicy::Ignore);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(reqs[0].method, "POST");
    assert_eq!(
        reqs[0].target,
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s"
    );
    assert_eq!(
        reqs[0].body,
        json!({"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "kind": "DiscoveryRequest"})
    );
    // No Content-Type of ours, as Cluster API sets none.
    assert!(reqs[0].headers.iter().all(|(k, _)| k != "content-type"));
}

#[test]
fn discovery_response_is_validated() {
    let server = ExtensionServer::http();
    server.set_discovery(json!({"status": "Success", "handlers": [
        {"name": "Bad_Name", "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "GeneratePatches"}},
        {"name": "x", "requestHook": {"apiVersion": "hooks.runtime.cluster.x-k8s.io/v1alpha1", "hook": "NoSuchHook"},
         "timeoutSeconds": 31, "failurePolicy": "Sometimes"},
        {"name": "x", "requestHook": {"apiVersion": "a/b/c", "hook": "GeneratePatches"}}
    ]}));
    let err = Registry::connect(&opts("ext", &server.url)).expect_err("invalid");
    let text = err[0].to_string();
    assert!(text.starts_with("failed to discover extension \"ext\": failed to validate discovery response: [handler name Bad_Name is not valid: [a lowercase RFC 1123 label"), "{text}");
    for want in [
        "handler x timeoutSeconds 31 must be between 0 and 30",
        "handler x failurePolicy Sometimes must equal \"Ignore\" or \"Fail\"",
        "handler x requestHook hooks.runtime.cluster.x-k8s.io/v1alpha1/NoSuchHook is not in the Runtime SDK catalog",
        "duplicate name for handler x found",
        "handler x requestHook APIVersion a/b/c is not valid: unexpected GroupVersion string: a/b/c",
    ] {
        assert!(text.contains(want), "{want} not in {text}");
    }
}

#[test]
fn discovery_failures_are_reported() {
    let server = ExtensionServer::http();
    server.set_discovery_mode(Mode::Failure("not today".into()));
    let err = Registry::connect(&opts("ext", &server.url)).expect_err("failure");
    assert_eq!(
        err[0].to_string(),
        "failed to discover extension \"ext\": got failure response with message: not today"
    );
    server.set_discovery_mode(Mode::Status(503, "busy".into()));
    let err = Registry::connect(&opts("ext", &server.url)).expect_err("503");
    // Cluster API's words, then the URL that answered.
    assert_eq!(
        err[0].to_string(),
        format!(
            "failed to discover extension \"ext\": http call failed: got response with status code 503 != 200: response : \"busy\" (POST {}/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s: 503 Service Unavailable)",
            server.url
        )
    );
}

#[test]
fn generate_patches_round_trip() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let resp = reg
        .generate_patches("generate-patches.test-ext", patches_request())
        .expect("patches");
    assert!(resp.status.is_success());
    assert_eq!(resp.items.len(), 2);
    assert_eq!(resp.items[0].uid, "uid-infra");
    assert_eq!(resp.items[0].patch_type.0, "JSONPatch");
    // No docker backend in the template: only its metadata is patched.
    assert_eq!(
        patch_json(&resp, "uid-infra"),
        json!([
            {"op": "add", "path": "/spec/template/metadata",
             "value": {"labels": {"top-level-label-1": "top-level-label-value-1"},
                       "annotations": {"top-level-annotation-1": "top-level-annotation-value-1"}}}
        ])
    );
    assert_eq!(resp.items[1].patch_type.0, "JSONPatch");
    let cp = patch_json(&resp, "uid-cp");
    assert_eq!(
        cp.pointer("/1/value/initConfiguration/nodeRegistration/kubeletExtraArgs/1/value"),
        Some(&json!("kubernetesVersion=v1.33.0_k3s")),
        "{cp}"
    );

    let req = &server.requests()[1];
    assert_eq!(
        req.target,
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches?timeout=10s"
    );
    assert_eq!(
        req.body["apiVersion"],
        "hooks.runtime.cluster.x-k8s.io/v1alpha1"
    );
    assert_eq!(req.body["kind"], "GeneratePatchesRequest");
    assert_eq!(req.body["settings"], json!({"from-class": "yes"}));
    assert_eq!(
        req.body["items"][0]["holderReference"],
        json!({"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
               "namespace": "default", "name": "my-cluster", "fieldPath": "spec.infrastructureRef"})
    );
    assert_eq!(req.body["items"][0]["uid"], "uid-infra");
    assert!(req.body["items"][0].get("variables").is_none());
}

#[test]
fn settings_of_the_extension_config_are_overridden_by_the_request() {
    let server = ExtensionServer::http();
    let mut o = opts("test-ext", &server.url);
    o.extensions[0].settings = [
        ("from-class".to_string(), "no".to_string()),
        ("from-config".to_string(), "yes".to_string()),
    ]
    .into();
    let reg = Registry::connect(&o).expect("connect");
    reg.generate_patches("generate-patches.test-ext", patches_request())
        .expect("patches");
    assert_eq!(
        server.requests()[1].body["settings"],
        json!({"from-class": "yes", "from-config": "yes"})
    );
}

#[test]
fn validate_topology_and_discover_variables_round_trip() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let req = ValidateTopologyRequest {
        items: vec![ValidateTopologyRequestItem {
            holder_reference: holder("Cluster", "spec.infrastructureRef"),
            object: json!({"kind": "DevClusterTemplate", "metadata": {"name": "ok"}}),
            variables: vec![],
        }],
        ..Default::default()
    };
    let ok = reg
        .validate_topology("validate-topology.test-ext", req.clone())
        .expect("valid");
    assert!(ok.status.is_success());
    let body = &server.requests()[1].body;
    assert_eq!(body["kind"], "ValidateTopologyRequest");
    assert!(body["items"][0].get("uid").is_none());

    // ValidateTopology alone can be made to fail; GeneratePatches still answers.
    server.set_hook_mode(
        Hook::ValidateTopology,
        Mode::Failure("bad is invalid".into()),
    );
    let err = reg
        .validate_topology("validate-topology.test-ext", req.clone())
        .expect_err("invalid");
    assert_eq!(
        err.to_string(),
        "failed to call extension handler \"validate-topology.test-ext\": got failure response with message: bad is invalid"
    );
    assert!(
        reg.generate_patches("generate-patches.test-ext", patches_request())
            .is_ok()
    );
    server.set_mode(Mode::Normal);

    let vars = reg
        .discover_variables(
            "discover-variables.test-ext",
            DiscoverVariablesRequest::default(),
        )
        .expect("variables");
    let names: Vec<&str> = vars
        .variables
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "kubeadmControlPlaneMaxSurge",
            "files",
            "preKubeadmCommands",
            "kubeadmConfigTemplateAnnotations",
            "imageRepository"
        ]
    );
    assert_eq!(
        vars.variables[1]["schema"]["openAPIV3Schema"]["type"],
        json!("array")
    );
    assert_eq!(
        server.requests()[4].target,
        "/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovervariables/discover-variables?timeout=10s"
    );
}

#[test]
fn url_path_prefix_and_query_are_kept() {
    let server = ExtensionServer::http_with_prefix("/prefix");
    let reg = Registry::connect(&opts("Ext", &format!("{}/", server.url)));
    // An upper-case name is not an ExtensionConfig name, but the registry does not judge it.
    let reg = reg.expect("connect");
    reg.generate_patches("generate-patches.Ext", GeneratePatchesRequest::default())
        .expect("patches");
    let targets: Vec<String> = server.requests().into_iter().map(|r| r.target).collect();
    assert_eq!(
        targets,
        [
            "/prefix/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=10s",
            "/prefix/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches?timeout=10s",
        ]
    );
}

#[test]
fn lifecycle_and_unknown_handlers_cannot_be_called() {
    let server = test_server();
    let reg = registry(&server);
    let err = reg
        .generate_patches(
            "before-cluster-create.test-ext",
            GeneratePatchesRequest::default(),
        )
        .expect_err("lifecycle");
    assert_eq!(
        err.to_string(),
        "failed to call extension handler \"before-cluster-create.test-ext\": handler does not match GroupHook \"GeneratePatches.hooks.runtime.cluster.x-k8s.io\""
    );
    let err = reg
        .validate_topology(
            "generate-patches.test-ext",
            ValidateTopologyRequest::default(),
        )
        .expect_err("wrong hook");
    assert!(matches!(err, Error::HookMismatch { .. }));
    let err = reg
        .generate_patches("nope.test-ext", GeneratePatchesRequest::default())
        .expect_err("unknown");
    assert_eq!(
        err.to_string(),
        "failed to call extension handler \"nope.test-ext\": failed to get extension handler \"nope.test-ext\" from registry: handler with name \"nope.test-ext\" has not been registered"
    );
    // Only Discovery reached the server.
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn timeout_fails_with_fail_policy_and_is_forgiven_with_ignore() {
    let server = test_server();
    let reg = registry(&server);
    server.set_mode(Mode::Delay(Duration::from_millis(1500)));
    let start = Instant::now();
    let err = reg
        .generate_patches("generate-patches-fast.test-ext", patches_request())
        .expect_err("timeout");
    let took = start.elapsed();
    // Not before the handler's 1 s timeout. That the call did not wait for the answer (1.5 s)
    // is the error's kind below: an answer would have been a success. (An upper bound on the
    // wall clock failed on a busy machine.)
    assert!(took >= Duration::from_millis(950), "{took:?}");
    assert!(
        matches!(err.call_error(), Some(CallError::Timeout { .. })),
        "{err:?}"
    );
    let url = format!(
        "{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches-fast?timeout=1s",
        server.url
    );
    assert_eq!(
        err.to_string(),
        format!(
            "failed to call extension handler \"generate-patches-fast.test-ext\": http call failed: Post \"{url}\": context deadline exceeded"
        )
    );

    let resp = reg
        .generate_patches("generate-patches-ignore.test-ext", patches_request())
        .expect("ignored");
    assert!(resp.status.is_success());
    assert!(resp.items.is_empty());
    assert_eq!(reg.take_ignored().len(), 1);
    assert!(reg.take_ignored().is_empty());
}

#[test]
fn non_200_is_an_error_with_the_body_excerpt() {
    let server = test_server();
    let reg = registry(&server);
    server.set_mode(Mode::Status(500, "x".repeat(600)));
    let err = reg
        .generate_patches("generate-patches.test-ext", patches_request())
        .expect_err("500");
    let url = format!(
        "{}/hooks.runtime.cluster.x-k8s.io/v1alpha1/generatepatches/generate-patches?timeout=10s",
        server.url
    );
    assert_eq!(
        err.to_string(),
        format!(
            "failed to call extension handler \"generate-patches.test-ext\": http call failed: got response with status code 500 != 200: response : \"{}...\" (POST {url}: 500 Internal Server Error)",
            "x".repeat(512),
        )
    );
    // Redirects are not followed: a 3xx is a non-200.
    server.set_mode(Mode::Status(307, String::new()));
    let err = reg
        .generate_patches("generate-patches.test-ext", patches_request())
        .expect_err("307");
    assert!(matches!(
        err.call_error(),
        Some(CallError::Status { code: 307, .. })
    ));
    // Ignore forgives it.
    let resp = reg
        .generate_patches("generate-patches-ignore.test-ext", patches_request())
        .expect("ignored");
    assert!(resp.status.is_success());
}

#[test]
fn garbage_body_is_a_decode_error_and_ignore_forgives_it() {
    let server = test_server();
    let reg = registry(&server);
    server.set_mode(Mode::Garbage);
    let err = reg
        .generate_patches("generate-patches.test-ext", patches_request())
        .expect_err("garbage");
    assert!(
        err.to_string().starts_with(
            "failed to call extension handler \"generate-patches.test-ext\": http call failed: failed to decode response: "
        ),
        "{err}"
    );
    assert!(
        reg.generate_patches("generate-patches-ignore.test-ext", patches_request())
            .is_ok()
    );
}

#[test]
fn failure_status_is_never_ignored_and_unknown_status_is_an_error() {
    let server = test_server();
    let reg = registry(&server);
    server.set_mode(Mode::Failure("no patches for you".into()));
    for h in [
        "generate-patches.test-ext",
        "generate-patches-ignore.test-ext",
    ] {
        let err = reg
            .generate_patches(h, patches_request())
            .expect_err("failure");
        assert_eq!(
            err.to_string(),
            format!(
                "failed to call extension handler \"{h}\": got failure response with message: no patches for you"
            )
        );
    }
    server.set_mode(Mode::UnknownStatus);
    let err = reg
        .generate_patches("generate-patches-ignore.test-ext", patches_request())
        .expect_err("unknown");
    assert_eq!(
        err.to_string(),
        "failed to call extension handler \"generate-patches-ignore.test-ext\": got unknown response status \"Maybe\" with message: hmm"
    );
}

#[test]
fn connection_refused_is_a_transport_error() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let err =
        Registry::connect(&opts("gone", &format!("http://127.0.0.1:{port}"))).expect_err("refused");
    assert!(
        matches!(err[0].call_error(), Some(CallError::Transport { .. })),
        "{err:?}"
    );
    assert!(
        err[0]
            .to_string()
            .starts_with("failed to discover extension \"gone\": http call failed: Post \""),
        "{}",
        err[0]
    );
}

#[test]
fn https_with_the_generated_ca_is_verified() {
    let server = ExtensionServer::https();
    let mut o = opts("tls-ext", &server.url);
    o.ca_pem = server.ca_pem.clone().map(String::into_bytes);
    let reg = Registry::connect(&o).expect("verified");
    let resp = reg
        .generate_patches("generate-patches.tls-ext", patches_request())
        .expect("patches");
    assert_eq!(resp.items.len(), 2);

    // A per-extension caBundle works too.
    let mut o = opts("tls-ext", &server.url);
    o.extensions[0].ca_bundle = server.ca_pem.clone().map(String::into_bytes);
    assert!(Registry::connect(&o).is_ok());
}

#[test]
fn https_with_a_wrong_ca_or_system_roots_is_rejected() {
    let server = ExtensionServer::https();
    let other = test_pki();
    let mut o = opts("tls-ext", &server.url);
    o.ca_pem = Some(other.ca_pem.into_bytes());
    let err = Registry::connect(&o).expect_err("wrong CA");
    let text = err[0].to_string();
    assert!(
        matches!(err[0].call_error(), Some(CallError::Transport { .. })),
        "{text}"
    );
    assert!(
        text.contains("UnknownIssuer") || text.contains("certificate"),
        "{text}"
    );

    let err = Registry::connect(&opts("tls-ext", &server.url)).expect_err("system roots");
    assert!(
        err[0].to_string().contains("failed to discover extension"),
        "{}",
        err[0]
    );
}

#[test]
fn https_insecure_skips_verification() {
    let server = ExtensionServer::https();
    let mut o = opts("tls-ext", &server.url);
    o.insecure_skip_tls_verify = true;
    let reg = Registry::connect(&o).expect("insecure");
    assert!(
        reg.generate_patches("generate-patches.tls-ext", patches_request())
            .is_ok()
    );
}

#[test]
fn connections_are_reused_across_calls() {
    for server in [ExtensionServer::http(), ExtensionServer::https()] {
        let mut o = opts("ext", &server.url);
        o.ca_pem = server.ca_pem.clone().map(String::into_bytes);
        let reg = Registry::connect(&o).expect("connect");
        for _ in 0..20 {
            reg.generate_patches("generate-patches.ext", patches_request())
                .expect("patches");
            reg.validate_topology("validate-topology.ext", ValidateTopologyRequest::default())
                .expect("valid");
        }
        assert_eq!(server.requests().len(), 41);
        assert_eq!(server.connections(), 1, "{}", server.url);
    }
}

#[test]
fn decoding_is_case_insensitive_ignores_unknown_fields_and_trailing_data() {
    let body = br#"{"STATUS":"Failure","Status":"Success","ITEMS":[{"UID":"a","PatchType":"JSONPatch","patch":"W10=","extra":1},null],"unknown":{"x":1},"message":null} trailing"#;
    let r: GeneratePatchesResponse = decode_response(body).expect("decodes");
    assert!(r.status.is_success());
    assert_eq!(r.items.len(), 2);
    assert_eq!(r.items[0].uid, "a");
    assert_eq!(r.items[0].patch, b"[]");
    assert_eq!(r.items[1].uid, "");
    // Go's folding: long s and the Kelvin sign.
    let r: GeneratePatchesResponse =
        decode_response("{\"\u{17f}tatus\":\"Success\"}".as_bytes()).expect("decodes");
    assert!(r.status.is_success());
    let r: GeneratePatchesResponse = decode_response(b"null").expect("null");
    assert_eq!(r, GeneratePatchesResponse::default());
    assert!(decode_response::<GeneratePatchesResponse>(br#"{"items":[{"patch":"!!"}]}"#).is_err());
    assert!(decode_response::<GeneratePatchesResponse>(br#"{"status":1}"#).is_err());
    assert!(decode_response::<GeneratePatchesResponse>(b"").is_err());
}

#[test]
fn extension_flags_and_configs_are_validated() {
    let src = parse_extension_flag("my-ext=https://127.0.0.1:8443/base").expect("ok");
    assert_eq!(src.name, "my-ext");
    assert_eq!(src.url, "https://127.0.0.1:8443/base");
    assert!(parse_extension_flag("my-ext=http://localhost:1").is_ok());
    for (bad, want) in [
        ("my-ext", "expected NAME=URL"),
        ("my-ext=ftp://x", "expected http or https scheme, got ftp"),
        (
            "my-ext=localhost:80",
            "expected http or https scheme, got localhost",
        ),
        (
            "my-ext=127.0.0.1:80",
            "first path segment in URL cannot contain colon",
        ),
        ("My_Ext=https://x", "is not a valid ExtensionConfig name"),
        ("my-ext=https://", "the URL has no host"),
    ] {
        let e = parse_extension_flag(bad).expect_err(bad);
        assert!(e.contains(want), "{bad}: {e}");
    }

    let cfg = json!({"apiVersion": "runtime.cluster.x-k8s.io/v1beta2", "kind": "ExtensionConfig",
        "metadata": {"name": "ext"},
        "spec": {"clientConfig": {"service": {"name": "svc", "namespace": "ns", "path": "/p"},
                                  "caBundle": "UEVN"},
                 "settings": {"a": "b"}}});
    let src = from_extension_config(&cfg).expect("config");
    assert_eq!(src.url, "https://svc.ns.svc:443/p");
    assert_eq!(src.ca_bundle.as_deref(), Some(&b"PEM"[..]));
    assert_eq!(src.settings.get("a").map(String::as_str), Some("b"));
    let http = json!({"metadata": {"name": "ext"}, "spec": {"clientConfig": {"url": "http://x"}}});
    let e = from_extension_config(&http).expect_err("http");
    assert!(e.contains("expected https scheme, got http"), "{e}");
    let none = json!({"metadata": {"name": "ext"}, "spec": {"clientConfig": {}}});
    let e = from_extension_config(&none).expect_err("none");
    assert!(
        e.contains("at least one of service and url should be defined"),
        "{e}"
    );

    // A flag overrides the URL of a config of the same name and keeps its settings.
    let o = ExtensionOptions::with_extension_configs(
        vec![parse_extension_flag("ext=http://127.0.0.1:1").expect("flag")],
        &[cfg],
        None,
        false,
    )
    .expect("merged");
    assert_eq!(o.extensions.len(), 1);
    assert_eq!(o.extensions[0].url, "http://127.0.0.1:1");
    assert_eq!(o.extensions[0].settings.len(), 1);
    assert!(o.extensions[0].named);

    // An ExtensionConfig's URL is called only when the command line allows it, and refused
    // before any I/O otherwise.
    let cfg = json!({"metadata": {"name": "ext"},
        "spec": {"clientConfig": {"url": "https://127.0.0.1:1/x"}}});
    let mut o =
        ExtensionOptions::with_extension_configs(Vec::new(), &[cfg], None, false).expect("config");
    assert!(!o.extensions[0].named);
    let e = Registry::new(&o).expect_err("not allowed");
    assert!(
        matches!(&e[0], Error::NotAllowed { extension, .. } if extension == "ext"),
        "{e:?}"
    );
    o.allowed_urls = vec!["https://127.0.0.2".into()];
    assert!(Registry::new(&o).is_err());
    o.allowed_urls = vec!["https://127.0.0.1:1/".into()];
    assert!(Registry::new(&o).is_ok());

    // A bad CA bundle fails at setup, before any I/O.
    let mut o = opts("ext", "https://127.0.0.1:1");
    o.ca_pem = Some(b"not pem".to_vec());
    let e = Registry::new(&o).expect_err("bad CA");
    assert!(
        e[0].to_string()
            .contains("unable to load root certificates"),
        "{}",
        e[0]
    );
}

/// Client overhead per call over the server's own handling time, against a local extension.
/// Run: `cargo test --release --test runtime -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_client_overhead_per_call() {
    for server in [ExtensionServer::http(), ExtensionServer::https()] {
        let mut o = opts("ext", &server.url);
        o.ca_pem = server.ca_pem.clone().map(String::into_bytes);
        let reg = Registry::connect(&o).expect("connect");
        let req = patches_request();
        for _ in 0..50 {
            reg.generate_patches("generate-patches.ext", req.clone())
                .expect("warm-up");
        }
        server.reset_handling_time();
        let n = 2000u32;
        let start = Instant::now();
        for _ in 0..n {
            reg.generate_patches("generate-patches.ext", req.clone())
                .expect("call");
        }
        let total = start.elapsed();
        let server_time = server.handling_time();
        let per_call = total / n;
        let overhead = total.saturating_sub(server_time) / n;
        println!(
            "{}: {n} calls, {per_call:?}/call wall, server {:?}/call, client overhead {overhead:?}/call, {} connection(s)",
            if server.ca_pem.is_some() {
                "https"
            } else {
                "http"
            },
            server_time / n,
            server.connections()
        );
        assert!(
            overhead < Duration::from_millis(1),
            "overhead {overhead:?} over 1 ms"
        );
    }
}

#[test]
fn registry_can_be_shared_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Registry>();
    let server = ExtensionServer::http();
    let reg = registry(&server);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                reg.generate_patches("generate-patches.test-ext", patches_request())
                    .expect("patches")
            });
        }
    });
    assert_eq!(server.requests().len(), 5);
}

fn item(
    uid: &str,
    holder_kind: &str,
    object: Value,
    variables: Vec<Variable>,
) -> GeneratePatchesRequestItem {
    GeneratePatchesRequestItem {
        uid: uid.into(),
        holder_reference: holder(holder_kind, "spec.controlPlaneRef"),
        object,
        variables,
    }
}

fn var(name: &str, value: Value) -> Variable {
    Variable {
        name: name.into(),
        value,
    }
}

#[test]
fn generate_patches_for_a_v1beta2_kubeadm_control_plane_template() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let req = GeneratePatchesRequest {
        variables: vec![
            var(
                "builtin",
                json!({"cluster": {"name": "my-cluster", "namespace": "default"}}),
            ),
            var("kubeadmControlPlaneMaxSurge", json!("1")),
            var(
                "files",
                json!([{"path": "/etc/extra.conf", "content": "x=1"}]),
            ),
            var("preKubeadmCommands", json!(["echo two"])),
        ],
        items: vec![item(
            "uid-kcp",
            "Cluster",
            json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta2",
                "kind": "KubeadmControlPlaneTemplate",
                "metadata": {"name": "cp", "namespace": "default"},
                "spec": {"template": {
                    "metadata": {"labels": {"existing": "yes"}},
                    "spec": {"kubeadmConfigSpec": {
                        "clusterConfiguration": {"apiServer": {"extraArgs": [
                            {"name": "audit-log-maxage", "value": "10"}]}},
                        "initConfiguration": {"nodeRegistration": {}},
                        "joinConfiguration": {"nodeRegistration": {"kubeletExtraArgs": [
                            {"name": "eviction-hard", "value": "nodefs.available<0%"}]}},
                        "preKubeadmCommands": ["echo one"]}}}}}),
            vec![var(
                "builtin",
                json!({"controlPlane": {"version": "v1.34.1+rke2r1", "replicas": 3}}),
            )],
        )],
        ..Default::default()
    };
    let resp = reg
        .generate_patches("generate-patches.test-ext", req.clone())
        .expect("patches");
    assert!(resp.status.is_success());
    assert_eq!(resp.items.len(), 1);
    assert_eq!(resp.items[0].patch_type.0, "JSONPatch");
    let kcs = "/spec/template/spec/kubeadmConfigSpec";
    let v2 = json!({"name": "v", "value": "2"});
    let labels = json!({"name": "node-labels", "value": "kubernetesVersion=v1.34.1_rke2r1"});
    assert_eq!(
        patch_json(&resp, "uid-kcp"),
        json!([
            {"op": "add", "path": "/spec/template/metadata/annotations",
             "value": {"top-level-annotation-1": "top-level-annotation-value-1"}},
            {"op": "add", "path": "/spec/template/metadata/labels/top-level-label-1",
             "value": "top-level-label-value-1"},
            {"op": "add", "path": format!("{kcs}/clusterConfiguration/apiServer/extraArgs/1"),
             "value": v2},
            {"op": "add", "path": format!("{kcs}/clusterConfiguration/controllerManager"),
             "value": {"extraArgs": [v2]}},
            {"op": "add", "path": format!("{kcs}/clusterConfiguration/scheduler"),
             "value": {"extraArgs": [v2]}},
            {"op": "add", "path": format!("{kcs}/files"),
             "value": [{"path": "/etc/extra.conf", "content": "x=1",
                        "owner": "root:root", "permissions": "0600"}]},
            {"op": "add", "path": format!("{kcs}/initConfiguration/nodeRegistration/kubeletExtraArgs"),
             "value": [v2, labels]},
            // Appends to a simple list come out last element first, both at the old length.
            {"op": "add", "path": format!("{kcs}/joinConfiguration/nodeRegistration/kubeletExtraArgs/1"),
             "value": labels},
            {"op": "add", "path": format!("{kcs}/joinConfiguration/nodeRegistration/kubeletExtraArgs/1"),
             "value": v2},
            {"op": "add", "path": format!("{kcs}/preKubeadmCommands/1"), "value": "echo two"},
            {"op": "add", "path": "/spec/template/spec/rollout",
             "value": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}}
        ])
    );
}

#[test]
fn generate_patches_picks_kind_images_from_the_mapping() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let machine = json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "DevMachineTemplate", "metadata": {"name": "m"},
        "spec": {"template": {"spec": {"backend": {"docker": {"extraMounts": []}}}}}});
    let req = GeneratePatchesRequest {
        items: vec![
            item(
                "cp",
                "Cluster",
                machine.clone(),
                vec![var(
                    "builtin",
                    json!({"controlPlane": {"version": "v1.34.3"}}),
                )],
            ),
            item(
                "md-known",
                "MachineDeployment",
                machine.clone(),
                vec![var(
                    "builtin",
                    json!({"machineDeployment": {"version": "v1.33.12"}}),
                )],
            ),
            // No v1.34.1 row upstream: newer than the 1.34.0 row, so the fallback image.
            item(
                "md-patch",
                "MachineDeployment",
                machine.clone(),
                vec![var(
                    "builtin",
                    json!({"machineDeployment": {"version": "v1.34.1"}}),
                )],
            ),
            item(
                "md-future",
                "MachineDeployment",
                machine.clone(),
                vec![var(
                    "builtin",
                    json!({"machineDeployment": {"version": "v1.99.2+build.1"}}),
                )],
            ),
        ],
        ..Default::default()
    };
    let resp = reg
        .generate_patches("generate-patches.test-ext", req.clone())
        .expect("patches");
    let image = |uid: &str| {
        let ops = patch_json(&resp, uid);
        let op = ops
            .as_array()
            .expect("ops")
            .iter()
            .find(|o| o["path"] == "/spec/template/spec/backend/docker/customImage")
            .cloned()
            .unwrap_or_else(|| panic!("no customImage op in {ops}"));
        assert_eq!(op["op"], "add");
        op["value"].as_str().expect("image").to_string()
    };
    assert_eq!(
        image("cp"),
        "kindest/node:v1.34.3@sha256:08497ee19eace7b4b5348db5c6a1591d7752b164530a36f855cb0f2bdcbadd48"
    );
    assert_eq!(
        image("md-known"),
        "kindest/node:v1.33.12@sha256:3f5c8443c620245e4d355cfe09e96a91ead32ceaa569d3f1ca9edf0cb2fe2ff4"
    );
    assert_eq!(image("md-patch"), "kindest/node:v1.34.1");
    assert_eq!(image("md-future"), "kindest/node:v1.99.2_build.1");
}

#[test]
fn generate_patches_failures_carry_the_handler_message() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    let call = |object: Value, variables: Vec<Variable>| {
        let req = GeneratePatchesRequest {
            items: vec![item("u", "Cluster", object, variables)],
            ..Default::default()
        };
        reg.generate_patches("generate-patches.test-ext", req.clone())
            .expect_err("failure")
            .to_string()
    };
    let prefix = "failed to call extension handler \"generate-patches.test-ext\": got failure response with message: ";
    assert_eq!(
        call(
            json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "DevMachineTemplate"}),
            vec![var("builtin", json!({"cluster": {"name": "c"}}))]
        ),
        format!(
            "{prefix}error patching DevMachineTemplate: no version variables found for DevMachineTemplate patch"
        )
    );
    assert_eq!(
        call(
            json!({"apiVersion": "controlplane.cluster.x-k8s.io/v1beta1", "kind": "KubeadmControlPlaneTemplate"}),
            vec![]
        ),
        format!(
            "{prefix}error patching KubeadmControlPlaneTemplate: could not patch KubeadmControlPlane: could not get builtin.controlPlane.version: variable \"builtin\" does not exist"
        )
    );
    // Kinds the upstream decoder does not know fail the whole call.
    assert_eq!(
        call(
            json!({"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "DockerClusterTemplate"}),
            vec![]
        ),
        format!(
            "{prefix}no kind \"DockerClusterTemplate\" is registered for version \"infrastructure.cluster.x-k8s.io/v1beta1\" in scheme \"sigs.k8s.io/cluster-api/test/extension/handlers/topologymutation/handler.go:67\""
        )
    );
}

#[test]
fn hook_modes_affect_one_hook_and_set_mode_resets_them() {
    let server = ExtensionServer::http();
    let reg = registry(&server);
    server.set_hook_mode(Hook::GeneratePatches, Mode::Garbage);
    assert!(
        reg.generate_patches("generate-patches.test-ext", patches_request())
            .is_err()
    );
    assert!(
        reg.validate_topology(
            "validate-topology.test-ext",
            ValidateTopologyRequest::default()
        )
        .is_ok()
    );
    server.set_mode(Mode::Normal);
    assert!(
        reg.generate_patches("generate-patches.test-ext", patches_request())
            .is_ok()
    );
}
