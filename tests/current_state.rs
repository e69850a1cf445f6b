//! `topoplan plan --current`: the scenario table of issue #6, end to end through the CLI.
//!
//! Every row of the table starts from `testdata/current/base/`, the objects Cluster API's topology
//! controller creates for `testdata/examples/quick-start` on its first reconcile (see
//! `testdata/current/regen.sh`), plus the overlays the scenario names; the input is a copy of
//! the quick-start example with the scenario's edits. Expectations are what Cluster API's
//! controller does (`getCurrentState`, `reconcile_state.go`), not what the code happens to print: each row
//! lists the objects whose verdict is not `unchanged` (every other base object must be
//! unchanged), the rollouts, the changes held by the upgrade sequencing, and the exit code under
//! `--detailed-exitcode`.
//!
//! Tests that show a bug in `src/` are `#[ignore = "bug: …"]`, with what Cluster API does.
//!
//! Where the state comes from. `base/` is what `plan --output-dir` wrote for the quick-start,
//! stored so that its generated names are stable and the overlays can be derived from it; the
//! rows that stay on it are those whose point is a stored object: the overlays (the control
//! plane or a MachineDeployment mid-upgrade, Machines of an older version, a managedFields
//! entry, a deletionTimestamp, an adopted shim), the rows that edit the stored files (a
//! v1beta1 object, a contradicting `controlPlaneRef`, a missing Cluster, an exported Cluster
//! with uids and status), the no-op row (the stored state fits its input) and the replicas row
//! (whose state the output-directory rows read back), and the rows that need what the
//! quick-start has and the `Plan` builder does not build (health checks removed with md-1, a
//! MachinePool held by the upgrade sequencing, md-0's `defer-upgrade` annotation, the control
//! plane's machine template rotated, a label on a template object, a rebase onto a second class
//! with templates of its own). The rows on the `Plan` builder (at the end: `enabledIf` flipped on and off) take as
//! their state topoplan's own plan of the scenario before the change (`replan`).

mod common;

use std::path::Path;

use common::scenario::{Plan, Planned, WORKER_CLASS, infrastructure_cluster, md_infrastructure};
use common::{Test, repo};
use serde_json::{Value, json};

/// Generated names of the base state (`testdata/current/regen.sh`).
const DC: &str = "dev-86xbh";
const KCP: &str = "dev-s6cjd";
const CP_DMT: &str = "dev-zdjdz";
const MD0: &str = "dev-md-0-p7p2x";
const MD0_DMT: &str = "dev-md-0-2vxkw";
const MD0_KCT: &str = "dev-md-0-8l7s8";
const MD1: &str = "dev-mem-md-1-4xkpv";
const MD1_DMT: &str = "dev-md-1-b2vrj";
const MD1_KCT: &str = "dev-md-1-4jzp7";
const MP0: &str = "dev-mp-0-xgscx";
const MP0_DMP: &str = "dev-mp-0-zs6jm";
const MP0_KC: &str = "dev-mp-0-h79mv";

/// Every object of the base state, as (kind, name).
const BASE: &[(&str, &str)] = &[
    ("Cluster", "dev"),
    ("DockerCluster", DC),
    ("DockerMachinePool", MP0_DMP),
    ("DockerMachineTemplate", CP_DMT),
    ("DockerMachineTemplate", MD0_DMT),
    ("DockerMachineTemplate", MD1_DMT),
    ("KubeadmConfig", MP0_KC),
    ("KubeadmConfigTemplate", MD0_KCT),
    ("KubeadmConfigTemplate", MD1_KCT),
    ("KubeadmControlPlane", KCP),
    ("MachineDeployment", MD0),
    ("MachineDeployment", MD1),
    ("MachineHealthCheck", KCP),
    ("MachineHealthCheck", MD0),
    ("MachineHealthCheck", MD1),
    ("MachinePool", MP0),
    ("Secret", "dev-shim"),
];

/// An edit of a copied file: `from` must occur exactly once.
#[derive(Clone, Copy)]
struct Edit {
    file: &'static str,
    from: &'static str,
    to: &'static str,
}

const fn edit(file: &'static str, from: &'static str, to: &'static str) -> Edit {
    Edit { file, from, to }
}

/// What must happen to one object.
#[derive(Clone, Copy)]
struct Expect {
    action: &'static str,
    kind: &'static str,
    /// The name; `prefix*` is a name Cluster API generates (`names.SimpleNameGenerator`): the
    /// prefix and five random characters.
    name: &'static str,
    /// A part of the note.
    note: Option<&'static str>,
    rotated_from: Option<&'static str>,
    /// Lines of the diff (modified objects).
    diff: &'static [&'static str],
}

const fn obj(action: &'static str, kind: &'static str, name: &'static str) -> Expect {
    Expect {
        action,
        kind,
        name,
        note: None,
        rotated_from: None,
        diff: &[],
    }
}

impl Expect {
    const fn note(mut self, n: &'static str) -> Expect {
        self.note = Some(n);
        self
    }
    const fn rotated_from(mut self, n: &'static str) -> Expect {
        self.rotated_from = Some(n);
        self
    }
    const fn diff(mut self, d: &'static [&'static str]) -> Expect {
        self.diff = d;
        self
    }
}

/// One rollout: kind, name (or `prefix*`), `now` or `deferred`, reasons (exactly).
type Roll = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
);

/// One deferred change: its role and a part of its reason.
type Defer = (&'static str, &'static str);

/// One row of the table.
#[derive(Clone, Copy)]
struct Scenario {
    /// Directories of `testdata/current/` copied over the base current state.
    overlays: &'static [&'static str],
    /// Fixture files copied into the input directory (next to the quick-start files).
    inputs: &'static [(&'static str, &'static str)],
    /// Edits of the input (`in/…`, a copy of testdata/examples/quick-start).
    edits: &'static [Edit],
    /// Objects whose verdict is not `unchanged`, or whose note matters (the Cluster apart).
    objects: &'static [Expect],
    rollouts: &'static [Roll],
    deferred: &'static [Defer],
    /// Base objects Cluster API does not read in this scenario: absent from the plan, or
    /// unchanged.
    unread: &'static [(&'static str, &'static str)],
    /// What happens to the Cluster: its action and lines of its diff. The Cluster is the
    /// input's as applied over the stored one (the user's change, defaulted by admission), then
    /// patched by the controller (labels, annotations, references; on main the upgrade-step
    /// annotation while an upgrade plan runs).
    cluster: (&'static str, &'static [&'static str]),
    /// Exit code with `--detailed-exitcode`.
    exit: i32,
}

const NONE: Scenario = Scenario {
    overlays: &[],
    inputs: &[],
    edits: &[],
    objects: &[],
    rollouts: &[],
    deferred: &[],
    unread: &[],
    cluster: ("unchanged", &[]),
    exit: 0,
};

/// Copy the input and the current state of a scenario into a fresh test directory: `in/` and
/// `cur/`.
fn setup(s: &Scenario) -> Test {
    let mut t = Test::new()
        .fixture("testdata/examples/quick-start", "in")
        .fixture("testdata/current/base", "cur");
    for o in s.overlays {
        t = t.fixture(&format!("testdata/current/{o}"), "cur");
    }
    for (src, name) in s.inputs {
        let text = std::fs::read_to_string(repo().join(src)).expect("read input fixture");
        t = t.file(&format!("in/{name}"), &text);
    }
    for e in s.edits {
        apply_edit(t.path(), e);
    }
    t
}

fn apply_edit(dir: &Path, e: &Edit) {
    let p = dir.join(e.file);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|_| panic!("read {}", e.file));
    assert_eq!(
        text.matches(e.from).count(),
        1,
        "{}: {:?} must occur exactly once",
        e.file,
        e.from
    );
    std::fs::write(&p, text.replacen(e.from, e.to, 1)).expect("write edit");
}

/// `t` running `plan -f in --current cur` with `args` appended.
fn plan_current(t: Test, args: &[&str]) -> Test {
    t.args(["plan", "-f", "in", "--current", "cur"])
        .args(args.iter().copied())
}

/// Plan with `--current cur --detailed-exitcode`, expecting exit code `exit`; return the plan
/// document.
#[track_caller]
fn run_json(t: Test, extra: &[&str], exit: i32) -> Value {
    let out = plan_current(t, &["--output", "json", "--detailed-exitcode"])
        .args(extra.iter().copied())
        .status(exit)
        .run();
    serde_json::from_str(&out.stdout).expect("plan document")
}

/// `example` (in `in/`) planned from scratch into `out/`: its objects as Cluster API's first
/// reconcile creates them, to plan against as the current state.
fn first_reconcile(example: &str) -> common::Output {
    Test::new()
        .fixture(example, "in")
        .args(["plan", "-f", "in", "--output-dir", "out"])
        .run()
}

/// `example` in `in/` and the plan of `first` (see [`first_reconcile`]) in `cur/`.
fn against(example: &str, first: &common::Output) -> Test {
    Test::new()
        .fixture(example, "in")
        .copy(&first.dir.path().join("out"), "cur")
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Whether `name` matches `pattern` (`prefix*` = a new name: the prefix plus five characters of
/// Cluster API's random alphabet, and no name of the base state).
fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => {
            !BASE.iter().any(|(_, n)| *n == name)
                && name.len() == prefix.len() + 5
                && name.starts_with(prefix)
                && name[prefix.len()..]
                    .chars()
                    .all(|c| "bcdfghjklmnpqrstvwxz2456789".contains(c))
        }
        None => name == pattern,
    }
}

fn objects(doc: &Value) -> &Vec<Value> {
    doc["clusters"][0]["objects"]
        .as_array()
        .expect("one planned Cluster")
}

fn find<'d>(doc: &'d Value, kind: &str, pattern: &str) -> &'d Value {
    let found: Vec<&Value> = objects(doc)
        .iter()
        .filter(|o| s(&o["kind"]) == kind && name_matches(pattern, s(&o["name"])))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "exactly one {kind} {pattern} expected, got {}:\n{}",
        found.len(),
        summary(doc)
    );
    found[0]
}

/// One line per object: action kind name (note).
fn summary(doc: &Value) -> String {
    objects(doc)
        .iter()
        .map(|o| {
            format!(
                "{} {} {} {}\n",
                s(&o["action"]),
                s(&o["kind"]),
                s(&o["name"]),
                s(&o["note"])
            )
        })
        .collect()
}

fn check_object(doc: &Value, e: &Expect) {
    let o = find(doc, e.kind, e.name);
    let what = format!("{} {}", e.kind, s(&o["name"]));
    assert_eq!(s(&o["action"]), e.action, "{what}:\n{}", summary(doc));
    if let Some(n) = e.note {
        assert!(
            s(&o["note"]).contains(n),
            "{what}: note {:?} should contain {n:?}",
            o["note"]
        );
    }
    assert_eq!(
        o.get("rotatedFrom").and_then(Value::as_str),
        e.rotated_from,
        "{what}: rotatedFrom"
    );
    let diff = s(&o["diff"]);
    for line in e.diff {
        assert!(
            diff.lines().any(|l| l == *line),
            "{what}: diff lacks {line:?}:\n{diff}"
        );
    }
    if e.action == "modified" {
        assert!(!diff.is_empty(), "{what}: a modified object has a diff");
    }
    // A template created by rotation shows the change that rotated it.
    if e.rotated_from.is_some() {
        assert!(!diff.is_empty(), "{what}: a rotated template has a diff");
        assert!(
            !diff
                .lines()
                .any(|l| l.starts_with("-  name:") || l.starts_with("+  name:")),
            "{what}: the rename is not part of the diff:
{diff}"
        );
    }
}

/// Check a plan document against a row.
fn check(doc: &Value, sc: &Scenario) {
    for e in sc.objects {
        check_object(doc, e);
    }
    let (action, diff) = sc.cluster;
    check_object(doc, &obj(action, "Cluster", "dev").diff(diff));
    // Every other base object is there, once, unchanged.
    for (kind, name) in BASE {
        if *kind == "Cluster"
            || sc
                .objects
                .iter()
                .any(|e| e.kind == *kind && e.name == *name)
        {
            continue;
        }
        if sc.unread.contains(&(kind, name))
            && !objects(doc)
                .iter()
                .any(|o| s(&o["kind"]) == *kind && s(&o["name"]) == *name)
        {
            continue;
        }
        let o = find(doc, kind, name);
        assert_eq!(
            s(&o["action"]),
            "unchanged",
            "{kind} {name}:\n{}",
            summary(doc)
        );
    }
    // Nothing else appears.
    for o in objects(doc) {
        let (kind, name) = (s(&o["kind"]), s(&o["name"]));
        let expected = sc
            .objects
            .iter()
            .any(|e| e.kind == kind && name_matches(e.name, name))
            || BASE.contains(&(kind, name));
        assert!(expected, "unexpected {kind} {name}:\n{}", summary(doc));
    }
    let rollouts = doc["clusters"][0]["rollouts"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let got: Vec<String> = rollouts
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {:?}",
                s(&r["kind"]),
                s(&r["name"]),
                s(&r["when"]),
                r["reasons"]
                    .as_array()
                    .map(|a| a.iter().map(|x| s(x).to_string()).collect::<Vec<_>>())
                    .unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        rollouts.len(),
        sc.rollouts.len(),
        "rollouts: {got:#?}\n{}",
        summary(doc)
    );
    for (kind, name, when, reasons) in sc.rollouts {
        let r = rollouts
            .iter()
            .find(|r| s(&r["kind"]) == *kind && name_matches(name, s(&r["name"])))
            .unwrap_or_else(|| panic!("no rollout of {kind} {name}: {got:#?}"));
        assert_eq!(s(&r["when"]), *when, "{kind} {name}: {got:#?}");
        let rs: Vec<&str> = r["reasons"]
            .as_array()
            .map(|a| a.iter().map(s).collect())
            .unwrap_or_default();
        assert_eq!(rs, *reasons, "{kind} {name} reasons");
    }
    let deferred = doc["clusters"][0]["deferred"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(deferred.len(), sc.deferred.len(), "deferred: {deferred:#?}");
    for (role, reason) in sc.deferred {
        let d = deferred
            .iter()
            .find(|d| s(&d["role"]) == *role)
            .unwrap_or_else(|| panic!("nothing deferred for {role}: {deferred:#?}"));
        assert!(
            s(&d["reason"]).contains(reason),
            "{role}: reason {:?} should contain {reason:?}",
            d["reason"]
        );
    }
}

/// Run a row: objects, rollouts, deferred changes and exit code.
fn run_row(sc: &Scenario) {
    let doc = run_json(setup(sc), &[], sc.exit);
    check(&doc, sc);
}

// ---------------------------------------------------------------------------------------------
// The rows.

const V1_35: Edit = edit("in/cluster.yaml", "version: 1.34.1", "version: 1.35.0");

/// Cluster API's webhook refuses a version change while the stored objects show the previous
/// upgrade rolling out; this annotation skips its version checks, which is how a Cluster gets
/// into the states the sequencing rows below plan.
const UNSAFE_VERSION: Edit = edit(
    "in/cluster.yaml",
    "  namespace: team-a\n",
    "  namespace: team-a\n  annotations:\n    unsafe.topology.cluster.x-k8s.io/disable-update-version-check: \"\"\n",
);

/// Scenario 1: Re-planning against the state a plan produces: nothing to do.
const NO_OP: Scenario = NONE;

/// Scenario 2: One MachineDeployment scaled: patched, nothing rolls out.
const REPLICAS: Scenario = Scenario {
    edits: &[edit(
        "in/cluster.yaml",
        "name: md-0\n        replicas: 2",
        "name: md-0\n        replicas: 3",
    )],
    objects: &[
        obj("modified", "MachineDeployment", MD0).diff(&["-  replicas: 2", "+  replicas: 3"])
    ],
    cluster: (
        "modified",
        &["-        replicas: 2", "+        replicas: 3"],
    ),
    exit: 2,
    ..NONE
};

/// Scenario 3: The topology version is bumped again while the control plane is still rolling out
/// the previous upgrade (spec v1.34.1, status v1.33.4), past the webhook's version checks: the
/// control plane is not written at all this pass (pending upgrade), and the workers wait for it.
/// Main's OneMinor plan: control plane [v1.35.0], workers [v1.35.0]; the upgrade-step annotation
/// tracks the control plane's written version.
const CP_UPGRADING: Scenario = Scenario {
    overlays: &["cp-upgrading"],
    inputs: &[],
    edits: &[V1_35, UNSAFE_VERSION],
    objects: &[
        obj("unchanged", "KubeadmControlPlane", KCP).note("held: "),
        obj("unchanged", "MachineDeployment", MD0).note("held: "),
        obj("unchanged", "MachineDeployment", MD1).note("held: "),
        obj("unchanged", "MachinePool", MP0).note("held: "),
    ],
    rollouts: &[
        (
            "KubeadmControlPlane",
            KCP,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD0,
            "deferred",
            &["Version v1.33.4, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD1,
            "deferred",
            &["Version v1.33.4, v1.35.0 required"],
        ),
        (
            "MachinePool",
            MP0,
            "deferred",
            &["Version v1.33.4, v1.35.0 required"],
        ),
    ],
    deferred: &[
        ("ControlPlane", "upgrading"),
        ("MachineDeployment/md-0", "defer-upgrade"),
        ("MachineDeployment/md-1", "control plane"),
        ("MachinePool/mp-0", "control plane"),
    ],
    unread: &[],
    cluster: (
        "modified",
        &[
            "-    version: v1.34.1",
            "+    version: v1.35.0",
            "+    topology.internal.cluster.x-k8s.io/upgrade-step: v1.34.1",
        ],
    ),
    exit: 2,
};

/// Scenario 4: A minor upgrade of a stable Cluster: the control plane starts upgrading (and rolls
/// out), the workers are held until it is done — md-0 also by its defer-upgrade annotation.
const UPGRADE: Scenario = Scenario {
    overlays: &["stable-cp"],
    inputs: &[],
    edits: &[V1_35],
    objects: &[
        obj("modified", "KubeadmControlPlane", KCP)
            .diff(&["-  version: v1.34.1", "+  version: v1.35.0"]),
        obj("unchanged", "MachineDeployment", MD0).note("held: "),
        obj("unchanged", "MachineDeployment", MD1).note("held: "),
        obj("unchanged", "MachinePool", MP0).note("held: "),
    ],
    rollouts: &[
        (
            "KubeadmControlPlane",
            KCP,
            "now",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD0,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD1,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachinePool",
            MP0,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
    ],
    deferred: &[
        ("MachineDeployment/md-0", "defer-upgrade"),
        ("MachineDeployment/md-1", "control plane"),
        ("MachinePool/mp-0", "control plane"),
    ],
    unread: &[],
    cluster: (
        "modified",
        &[
            "-    version: v1.34.1",
            "+    version: v1.35.0",
            "+    topology.internal.cluster.x-k8s.io/upgrade-step: v1.35.0",
        ],
    ),
    exit: 2,
};

/// Scenario 4b: The control plane finished upgrading to v1.35.0: it waits for the workers (the
/// workers plan's first step is its version), md-1 and mp-0 pick up v1.35.0 (one MachineDeployment
/// and one MachinePool at a time: upgrade concurrency 1 each), md-0 stays deferred by its
/// annotation.
const WORKERS_FOLLOW: Scenario = Scenario {
    overlays: &["cp-upgraded"],
    inputs: &[],
    edits: &[V1_35],
    objects: &[
        obj("unchanged", "MachineDeployment", MD0).note("held: "),
        obj("modified", "MachineDeployment", MD1)
            .diff(&["-      version: v1.34.1", "+      version: v1.35.0"]),
        obj("modified", "MachinePool", MP0)
            .diff(&["-      version: v1.34.1", "+      version: v1.35.0"]),
    ],
    rollouts: &[
        (
            "MachineDeployment",
            MD0,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD1,
            "now",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachinePool",
            MP0,
            "now",
            &["Version v1.34.1, v1.35.0 required"],
        ),
    ],
    deferred: &[("MachineDeployment/md-0", "defer-upgrade")],
    unread: &[],
    cluster: (
        "modified",
        &["+    topology.internal.cluster.x-k8s.io/upgrade-step: v1.35.0"],
    ),
    exit: 2,
};

/// Scenario 4c: A minor upgrade while md-1 is still rolling out the previous version (one of its
/// Machines runs v1.33.4), past the webhook's version checks: the control plane does not start
/// (`computeControlPlaneVersion`: a MachineDeployment is upgrading), so it is held, and so are
/// the workers.
const MD_STILL_UPGRADING: Scenario = Scenario {
    overlays: &["stable-cp", "md-upgrading"],
    inputs: &[],
    edits: &[V1_35, UNSAFE_VERSION],
    objects: &[
        obj("unchanged", "KubeadmControlPlane", KCP).note("held: "),
        obj("unchanged", "MachineDeployment", MD0).note("held: "),
        obj("unchanged", "MachineDeployment", MD1).note("held: "),
        obj("unchanged", "MachinePool", MP0).note("held: "),
    ],
    rollouts: &[
        (
            "KubeadmControlPlane",
            KCP,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD0,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachineDeployment",
            MD1,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
        (
            "MachinePool",
            MP0,
            "deferred",
            &["Version v1.34.1, v1.35.0 required"],
        ),
    ],
    deferred: &[
        ("ControlPlane", "md-1"),
        ("MachineDeployment/md-0", "defer-upgrade"),
        ("MachineDeployment/md-1", ""),
        ("MachinePool/mp-0", "control plane"),
    ],
    unread: &[],
    cluster: (
        "modified",
        &[
            "-    version: v1.34.1",
            "+    version: v1.35.0",
            "+    topology.internal.cluster.x-k8s.io/upgrade-step: v1.34.1",
        ],
    ),
    exit: 2,
};

/// Scenario 5: A spec change of md-0's and of the control plane's machine templates: both are
/// rotated (a copy under a new name, the holder re-pointed, the old one deleted) and both roll out.
const TEMPLATE_SPEC: Scenario = Scenario {
    edits: &[
        edit(
            "in/templates.yaml",
            "  name: docker-small-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      customImage: kindest/node:v1.34.1\n",
            "  name: docker-small-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      customImage: kindest/node:v1.34.1-custom\n",
        ),
        edit(
            "in/templates.yaml",
            "        hostPath: /var/run/docker.sock\n",
            "        hostPath: /var/run/docker.sock\n      - containerPath: /var/lib/extra\n        hostPath: /var/lib/extra\n",
        ),
    ],
    objects: &[
        obj("created", "DockerMachineTemplate", "dev-md-0-*")
            .rotated_from(MD0_DMT)
            .diff(&[
                "-      customImage: kindest/node:v1.34.1",
                "+      customImage: kindest/node:v1.34.1-custom",
            ]),
        obj("deleted", "DockerMachineTemplate", MD0_DMT).note("MachineSet"),
        obj("modified", "MachineDeployment", MD0).diff(&["-        name: dev-md-0-2vxkw"]),
        obj("created", "DockerMachineTemplate", "dev-*")
            .rotated_from(CP_DMT)
            .diff(&["+      - containerPath: /var/lib/extra"]),
        obj("deleted", "DockerMachineTemplate", CP_DMT).note("after the control plane is patched"),
        obj("modified", "KubeadmControlPlane", KCP).diff(&["-        name: dev-zdjdz"]),
    ],
    rollouts: &[
        (
            "KubeadmControlPlane",
            KCP,
            "now",
            &["DockerMachine is not up-to-date"],
        ),
        (
            "MachineDeployment",
            MD0,
            "now",
            &["DockerMachine is not up-to-date"],
        ),
    ],
    exit: 2,
    ..NONE
};

/// Scenario 6: A label on md-0's template object (not its spec): the generated template is patched
/// in place under its name; nothing rolls out.
const TEMPLATE_METADATA: Scenario = Scenario {
    edits: &[edit(
        "in/templates.yaml",
        "  name: docker-small-worker\n  namespace: fleet\n",
        "  name: docker-small-worker\n  namespace: fleet\n  labels:\n    image: stock\n",
    )],
    objects: &[obj("modified", "DockerMachineTemplate", MD0_DMT).diff(&["+    image: stock"])],
    exit: 2,
    ..NONE
};

/// Scenario 7: md-1 removed from the topology: the controller deletes its health check and the
/// MachineDeployment; the MachineDeployment topology controller then deletes its templates.
const MD_REMOVED: Scenario = Scenario {
    edits: &[edit(
        "in/cluster.yaml",
        "      - class: memory-heavy\n        name: md-1\n        replicas: 1\n        failureDomain: fd-2\n        deletion:\n          nodeDrainTimeoutSeconds: 120\n        healthCheck:\n          checks:\n            unhealthyNodeConditions:\n            - type: Ready\n              status: \"False\"\n              timeoutSeconds: 60\n",
        "",
    )],
    objects: &[
        obj("deleted", "MachineDeployment", MD1).note("removed"),
        obj("deleted", "MachineHealthCheck", MD1).note("removed"),
        obj("deleted", "DockerMachineTemplate", MD1_DMT)
            .note("MachineDeployment topology controller"),
        obj("deleted", "KubeadmConfigTemplate", MD1_KCT)
            .note("MachineDeployment topology controller"),
    ],
    cluster: ("modified", &["-        name: md-1"]),
    exit: 2,
    ..NONE
};

const REBASE_V2: Edit = edit(
    "in/cluster.yaml",
    "    classRef:\n      name: docker-small\n",
    "    classRef:\n      name: docker-small-v2\n",
);

/// Scenario 8: A rebase onto a compatible class: names are kept, the DockerCluster is updated in
/// place.
const REBASE: Scenario = Scenario {
    inputs: &[(
        "testdata/current/rebase/docker-small-v2.yaml",
        "docker-small-v2.yaml",
    )],
    edits: &[REBASE_V2],
    objects: &[obj("modified", "DockerCluster", DC).diff(&[
        "-    cluster.x-k8s.io/cloned-from-name: docker-small-cluster",
        "+    cluster.x-k8s.io/cloned-from-name: docker-small-v2-cluster",
        "-    imageRepository: kindest",
        "+    imageRepository: mirror.example.com/kindest",
    ])],
    cluster: (
        "modified",
        &["-      name: docker-small", "+      name: docker-small-v2"],
    ),
    exit: 2,
    ..NONE
};

/// A field the class no longer sets, which the topology controller owned (managedFields):
/// server-side apply removes it, so md-1's DockerMachineTemplate changes in spec and is
/// rotated. (Cluster API v1.10's offline plan merged two ways and missed this.)
const DROPPED_FIELD: Scenario = Scenario {
    overlays: &["dropped-field"],
    edits: &[edit(
        "in/templates.yaml",
        "      customImage: kindest/node:v1.34.1\n      extraMounts:\n      - containerPath: /data\n        hostPath: /mnt/data\n",
        "      customImage: kindest/node:v1.34.1\n",
    )],
    objects: &[
        obj("created", "DockerMachineTemplate", "dev-md-1-*").rotated_from(MD1_DMT),
        obj("deleted", "DockerMachineTemplate", MD1_DMT).note("MachineSet"),
        obj("modified", "MachineDeployment", MD1).diff(&["-        name: dev-md-1-b2vrj"]),
    ],
    rollouts: &[(
        "MachineDeployment",
        MD1,
        "now",
        &["DockerMachine is not up-to-date"],
    )],
    exit: 2,
    ..NONE
};

/// The Cluster controller has adopted the DockerCluster and the KubeadmControlPlane: the
/// topology controller deletes the shim (reconcileClusterShim), and keeps the ownerReferences
/// it does not own (a list map keyed by uid).
const SETTLED: Scenario = Scenario {
    overlays: &["settled"],
    objects: &[obj("deleted", "Secret", "dev-shim").note("owns")],
    exit: 2,
    ..NONE
};

/// md-1 is being deleted (someone deleted it) but is still in the topology: the controller
/// reconciles only its health check (`updateMachineDeployment` returns early), reads none of its
/// templates and creates none.
const MD_DELETING: Scenario = Scenario {
    overlays: &["md-deleting"],
    objects: &[obj("unchanged", "MachineDeployment", MD1)],
    unread: &[
        ("DockerMachineTemplate", MD1_DMT),
        ("KubeadmConfigTemplate", MD1_KCT),
    ],
    ..NONE
};

#[test]
fn no_op() {
    run_row(&NO_OP);
}

#[test]
fn replicas() {
    run_row(&REPLICAS);
}

#[test]
fn control_plane_still_upgrading() {
    run_row(&CP_UPGRADING);
}

#[test]
fn minor_upgrade() {
    run_row(&UPGRADE);
}

#[test]
fn workers_follow_the_control_plane() {
    run_row(&WORKERS_FOLLOW);
}

#[test]
fn machine_deployment_still_upgrading() {
    run_row(&MD_STILL_UPGRADING);
}

/// Without the unsafe annotation, the version changes of scenarios 3 and 4c never reach the
/// topology controller: Cluster API's Cluster webhook (`validateTopologyVersionUpdate`) refuses
/// them, naming what still rolls out; `plan` refuses them with its message, at the version.
#[test]
fn version_changes_during_a_rollout_are_refused() {
    for (sc, reasons) in [
        (
            &CP_UPGRADING,
            "[control plane is still completing a previous upgrade, \
             there are still MachineDeployments completing a previous upgrade: [dev-md-0-p7p2x, dev-mem-md-1-4xkpv], \
             there are still MachinePools completing a previous upgrade: [dev-mp-0-xgscx]]",
        ),
        (
            &MD_STILL_UPGRADING,
            "there are still MachineDeployments completing a previous upgrade: [dev-mem-md-1-4xkpv]",
        ),
    ] {
        let without = Scenario {
            edits: &[V1_35],
            ..*sc
        };
        let doc = run_json(setup(&without), &[], 1);
        let errors: Vec<(&str, u64, &str)> = doc["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                (
                    s(&e["file"]),
                    e["line"].as_u64().unwrap_or(0),
                    s(&e["message"]),
                )
            })
            .collect();
        assert_eq!(
            errors,
            [(
                "in/cluster.yaml",
                21,
                format!(
                    "Cluster.cluster.x-k8s.io \"dev\" is invalid: spec.topology.version: Invalid value: \"v1.35.0\": version cannot be changed: {reasons}"
                )
                .as_str()
            )],
            "{doc:#}"
        );
    }
}

#[test]
fn template_spec_change_rotates() {
    run_row(&TEMPLATE_SPEC);
}

#[test]
fn template_metadata_change_patches_in_place() {
    run_row(&TEMPLATE_METADATA);
}

#[test]
fn machine_deployment_removed() {
    run_row(&MD_REMOVED);
}

#[test]
fn rebase_to_compatible_class() {
    run_row(&REBASE);
}

#[test]
fn dropped_field_is_removed() {
    run_row(&DROPPED_FIELD);
}

/// The same drop without managedFields in --current: nothing tells that the topology controller
/// owned the field, so the plan cannot see its removal; it keeps the template and says so.
#[test]
fn dropped_field_without_managed_fields_warns() {
    let sc = Scenario {
        overlays: &[],
        objects: &[],
        rollouts: &[],
        exit: 0,
        ..DROPPED_FIELD
    };
    let doc = run_json(setup(&sc), &[], 0);
    check(&doc, &sc);
    let warnings = doc["warnings"].as_array().cloned().unwrap_or_default();
    assert!(
        warnings
            .iter()
            .any(|w| s(&w["message"]).contains("managedFields")),
        "{warnings:#?}"
    );
}

#[test]
fn machine_deployment_being_deleted() {
    run_row(&MD_DELETING);
}

#[test]
fn settled_cluster_deletes_shim() {
    run_row(&SETTLED);
}

// ---------------------------------------------------------------------------------------------
// Re-planning the examples against their own first reconcile.

/// Plan `example` from scratch into `out/`, then again with `--current out`: every object is
/// unchanged and the exit code is 0.
fn round_trip(example: &str) {
    let first = first_reconcile(example);
    let doc = run_json(against(example, &first), &[], 0);
    for c in doc["clusters"].as_array().expect("clusters") {
        let objs = c["objects"].as_array().expect("objects");
        assert!(objs.len() > 1, "{example}: {c}");
        for o in objs {
            assert_eq!(
                s(&o["action"]),
                "unchanged",
                "{example}: {} {}",
                s(&o["kind"]),
                s(&o["name"])
            );
        }
        assert!(c.get("rollouts").is_none() && c.get("deferred").is_none());
    }
}

#[test]
fn round_trip_quick_start() {
    round_trip("testdata/examples/quick-start");
}

#[test]
fn round_trip_quick_start_v1beta1() {
    round_trip("testdata/examples/quick-start-v1beta1");
}

#[test]
fn round_trip_patches_v1beta1() {
    round_trip("testdata/examples/patches-v1beta1");
}

#[test]
fn round_trip_patches_v1beta2() {
    round_trip("testdata/examples/patches-v1beta2");
}

#[test]
fn round_trip_variables() {
    round_trip("testdata/examples/variables");
}

/// The table of a rotation: NOTE column, rollouts, diffs.
#[test]
fn template_spec_change_table() {
    let out = plan_current(setup(&TEMPLATE_SPEC), &[]).run();
    insta::assert_snapshot!("current_template_spec_table", out.ok());
}

/// Unchanged objects are counted, not listed, unless asked for (as terraform's plan).
#[test]
fn unchanged_objects_are_listed_only_when_asked() {
    let hidden = plan_current(setup(&TEMPLATE_SPEC), &[])
        .stdout_contains("13 unchanged")
        .stdout_lacks("unchanged\n")
        .run();
    let shown = plan_current(setup(&TEMPLATE_SPEC), &["--show-unchanged"])
        .stdout_contains("team-a     Secret                 dev-shim            unchanged\n")
        .run();
    let rows = |o: &str| o.lines().filter(|l| l.starts_with("team-a ")).count();
    assert_eq!(rows(shown.ok()), rows(hidden.ok()) + 13);
}

// ---------------------------------------------------------------------------------------------
// Current state the controller would refuse, or that contradicts the input: exit 1.

/// Run the base scenario with edits of `cur/` (or `in/`) and removed files; it must fail with
/// nothing on stdout. Returns stderr.
#[track_caller]
fn refused(edits: &[Edit], remove: &[&str]) -> String {
    refused_row(&NONE, edits, remove)
}

/// Run scenario `sc` with more edits and files of it removed; it must fail with nothing on
/// stdout. Returns stderr.
#[track_caller]
fn refused_row(sc: &Scenario, edits: &[Edit], remove: &[&str]) -> String {
    let t = setup(sc);
    for e in edits {
        apply_edit(t.path(), e);
    }
    for r in remove {
        std::fs::remove_file(t.path().join(r)).expect("remove fixture file");
    }
    plan_current(t, &["--detailed-exitcode"])
        .status(1)
        .stdout("")
        .run()
        .stderr
}

const MD0_FILE: &str = "cur/MachineDeployment_team-a_dev-md-0-p7p2x.yaml";

#[test]
fn bad_referenced_object_missing() {
    let err = refused(
        &[],
        &["cur/DockerMachineTemplate_team-a_dev-md-0-2vxkw.yaml"],
    );
    assert!(
        err.contains("failed to read DockerMachineTemplate team-a/dev-md-0-2vxkw"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_missing_reference", err);
}

#[test]
fn bad_not_topology_owned() {
    let err = refused(
        &[edit(
            "cur/DockerCluster_team-a_dev-86xbh.yaml",
            "    topology.cluster.x-k8s.io/owned: \"\"\n",
            "",
        )],
        &[],
    );
    assert!(
        err.contains(
            "DockerCluster team-a/dev-86xbh referenced from Cluster team-a/dev is not topology owned"
        ),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_not_owned", err);
}

#[test]
fn bad_template_of_another_cluster() {
    let err = refused(
        &[edit(
            "cur/DockerMachineTemplate_team-a_dev-md-0-2vxkw.yaml",
            "    cluster.x-k8s.io/cluster-name: dev\n",
            "    cluster.x-k8s.io/cluster-name: prod\n",
        )],
        &[],
    );
    assert!(
        err.contains(
            "DockerMachineTemplate team-a/dev-md-0-2vxkw is labelled for Cluster team-a/prod"
        ),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_other_cluster", err);
}

/// A MachineDeployment whose cluster-name label names another Cluster, while its name, its
/// spec.clusterName and its templates are this Cluster's: the export contradicts itself.
#[test]
fn bad_machine_deployment_of_another_cluster() {
    let err = refused(
        &[edit(
            MD0_FILE,
            "\n    cluster.x-k8s.io/cluster-name: dev\n",
            "\n    cluster.x-k8s.io/cluster-name: prod\n",
        )],
        &[],
    );
    assert!(
        err.contains("MachineDeployment team-a/dev-md-0-p7p2x") && err.contains("prod"),
        "{err}"
    );
}

#[test]
fn bad_missing_topology_name_label() {
    let err = refused(
        &[edit(
            MD0_FILE,
            "\n    topology.cluster.x-k8s.io/deployment-name: md-0\n",
            "\n",
        )],
        &[],
    );
    assert!(
        err.contains("failed to find label topology.cluster.x-k8s.io/deployment-name in MachineDeployment team-a/dev-md-0-p7p2x"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_missing_label", err);
}

#[test]
fn bad_duplicate_topology_name() {
    let t = setup(&NONE);
    let md = std::fs::read_to_string(t.path().join(MD0_FILE)).expect("read MD");
    let t = t.file(
        "cur/MachineDeployment_team-a_dev-md-0-zzzzz.yaml",
        &md.replace("name: dev-md-0-p7p2x", "name: dev-md-0-zzzzz"),
    );
    let out = plan_current(t, &[])
        .status(1)
        .stderr_contains("duplicate MachineDeployment team-a/dev-md-0-zzzzz found for label topology.cluster.x-k8s.io/deployment-name: md-0")
        .run();
    let err = out.stderr;
    insta::assert_snapshot!("current_bad_duplicate", err);
}

#[test]
fn bad_core_object_of_another_api_version() {
    let err = refused(
        &[edit(
            MD0_FILE,
            "apiVersion: cluster.x-k8s.io/v1beta2\nkind: MachineDeployment",
            "apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineDeployment",
        )],
        &[],
    );
    assert!(
        err.contains("MachineDeployment team-a/dev-md-0-p7p2x is cluster.x-k8s.io/v1beta1, but the Cluster is cluster.x-k8s.io/v1beta2"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_api_version", err);
}

#[test]
fn bad_control_plane_ref_contradicts_stored_cluster() {
    let err = refused(
        &[edit(
            "in/cluster.yaml",
            "spec:\n  clusterNetwork:\n",
            "spec:\n  controlPlaneRef:\n    apiGroup: controlplane.cluster.x-k8s.io\n    kind: KubeadmControlPlane\n    name: dev-other\n  clusterNetwork:\n",
        )],
        &[],
    );
    assert!(
        err.contains("Cluster team-a/dev: spec.controlPlaneRef differs from the stored Cluster's"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_control_plane_ref", err);
}

#[test]
fn bad_objects_without_their_cluster() {
    let err = refused(&[], &["cur/Cluster_team-a_dev.yaml"]);
    assert!(
        err.contains("MachineDeployment team-a/dev-md-0-p7p2x belongs to Cluster team-a/dev, which the current objects do not contain"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_no_cluster", err);
}

/// md-0 switched to a class whose infrastructure is another kind: the controller refuses to
/// change the kind of md-0's existing template.
fn incompatible_rebase() -> String {
    let arm_class = Scenario {
        inputs: &[(
            "testdata/current/rebase/docker-small-arm.yaml",
            "docker-small-arm.yaml",
        )],
        ..NONE
    };
    refused_row(
        &arm_class,
        &[
            edit(
                "in/cluster.yaml",
                "    classRef:\n      name: docker-small\n",
                "    classRef:\n      name: docker-small-arm\n",
            ),
            edit(
                "in/cluster.yaml",
                "- class: general\n",
                "- class: general-arm\n",
            ),
        ],
        &[],
    )
}

#[test]
fn bad_incompatible_rebase() {
    let err = incompatible_rebase();
    assert!(
        err.contains("metadata.kind: Forbidden: apiVersion.kind of DockerMachineTemplate.infrastructure.cluster.x-k8s.io/dev-md-0-2vxkw cannot be changed from \"DockerMachineTemplate\" to \"DevMachineTemplate\" to prevent incompatible changes in the Cluster"),
        "{err}"
    );
    insta::assert_snapshot!("current_bad_incompatible_rebase", err);
}

/// Cluster API wraps the error of an MD template in the MachineDeployment's
/// (`updateMachineDeployment`: "failed to reconcile MachineDeployment <md>: …").
#[test]
fn incompatible_rebase_names_the_machine_deployment() {
    let err = incompatible_rebase();
    assert!(
        err.contains("failed to reconcile MachineDeployment team-a/dev-md-0-p7p2x: metadata.kind: Forbidden: apiVersion.kind of DockerMachineTemplate"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// `-o DIR` with --current.

/// Files per action: the rotated template under created/, the old one under deleted/, the
/// re-pointed MachineDeployment (as planned) under modified/, the rest under unchanged/.
#[test]
fn output_dir_with_current() {
    let out = plan_current(setup(&TEMPLATE_SPEC), &["--output-dir", "out"]).run();
    out.ok();
    let root = out.dir.path().join("out/team-a/dev");
    let list = |action: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(root.join(action))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let created = list("created");
    assert_eq!(created.len(), 2, "{created:?}");
    assert!(
        created
            .iter()
            .any(|f| f.starts_with("DockerMachineTemplate_team-a_dev-md-0-"))
    );
    assert_eq!(
        list("deleted"),
        [
            "DockerMachineTemplate_team-a_dev-md-0-2vxkw.yaml",
            "DockerMachineTemplate_team-a_dev-zdjdz.yaml"
        ]
    );
    let modified = list("modified");
    assert!(
        modified.contains(&"MachineDeployment_team-a_dev-md-0-p7p2x.yaml".to_string()),
        "{modified:?}"
    );
    let md =
        std::fs::read_to_string(root.join("modified/MachineDeployment_team-a_dev-md-0-p7p2x.yaml"))
            .expect("read MD");
    let new_template = created
        .iter()
        .find(|f| f.starts_with("DockerMachineTemplate_team-a_dev-md-0-"))
        .and_then(|f| f.strip_prefix("DockerMachineTemplate_team-a_"))
        .and_then(|f| f.strip_suffix(".yaml"))
        .expect("rotated template");
    assert!(md.contains(&format!("name: {new_template}")), "{md}");
    assert!(list("unchanged").len() >= 12, "{:?}", list("unchanged"));
}

/// For a modified object, modified/ holds the object as it is, as planned, and their diff (the
/// plan document's `diff`), so a reviewer can read all three.
#[test]
fn output_dir_modified_has_original_planned_and_diff() {
    let t = setup(&REPLICAS);
    let current = std::fs::read_to_string(t.path().join(MD0_FILE)).expect("read current");
    let out = plan_current(t, &["--output-dir", "out", "--output", "json"]).run();
    let doc: Value = serde_json::from_str(out.ok()).expect("plan document");
    let md = find(&doc, "MachineDeployment", MD0);
    let dir = out.dir.path().join("out/team-a/dev/modified");
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("modified/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("MachineDeployment_team-a_dev-md-0-p7p2x"))
        })
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    let parse = |p: &Path| -> Option<Value> {
        serde_saphyr::from_str::<Value>(&std::fs::read_to_string(p).ok()?).ok()
    };
    let diff = files
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "diff"))
        .expect("a .diff file");
    assert_eq!(
        std::fs::read_to_string(diff).expect("read diff"),
        s(&md["diff"])
    );
    let objects: Vec<Value> = files
        .iter()
        .filter(|p| *p != diff)
        .filter_map(|p| parse(p))
        .collect();
    let original: Value = serde_saphyr::from_str(&current).expect("parse current");
    assert!(objects.contains(&original), "the current object");
    assert!(objects.contains(&md["object"]), "the planned object");
}

/// With --current, the -f Cluster is an update of the stored one: the API server's admission
/// (as `validate --old`) refuses a version downgrade before any controller sees it.
#[test]
fn bad_version_downgrade() {
    let err = refused(
        &[edit(
            "in/cluster.yaml",
            "version: 1.34.1",
            "version: 1.33.2",
        )],
        &[],
    );
    assert!(
        err.contains(
            "spec.topology.version: Invalid value: \"v1.33.2\": version cannot be decreased from \"1.34.1\" to \"1.33.2\""
        ),
        "{err}"
    );
}

/// Cluster API v1.10 (v1beta1) sequences without plans: a stable control plane jumps to the
/// topology version; the workers wait until it is fully stable; the Cluster gets no
/// upgrade-step annotation (v1.10 does not manage it).
#[test]
fn v1beta1_minor_upgrade() {
    let example = "testdata/examples/quick-start-v1beta1";
    let first = first_reconcile(example);
    let created = first.dir.path().join("out/default/dev/created");
    let kcp = std::fs::read_dir(&created)
        .expect("created/")
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("KubeadmControlPlane_"))
        })
        .expect("a KubeadmControlPlane");
    // The control plane is provisioned and not upgrading.
    let mut text = std::fs::read_to_string(&kcp).expect("read KubeadmControlPlane");
    text.push_str("status:\n  version: v1.34.1\n");
    std::fs::write(&kcp, text).expect("write KubeadmControlPlane");
    let t = against(example, &first);
    apply_edit(
        t.path(),
        &edit("in/cluster.yaml", "version: v1.34.1", "version: v1.35.0"),
    );
    let doc = run_json(t, &[], 2);
    let by_kind = |kind: &str| -> Vec<&Value> {
        objects(&doc)
            .iter()
            .filter(|o| s(&o["kind"]) == kind)
            .collect()
    };
    let cp = by_kind("KubeadmControlPlane");
    assert_eq!(s(&cp[0]["action"]), "modified", "{}", summary(&doc));
    let workers: Vec<&Value> = by_kind("MachineDeployment")
        .into_iter()
        .chain(by_kind("MachinePool"))
        .collect();
    assert_eq!(workers.len(), 3);
    for w in &workers {
        assert_eq!(s(&w["action"]), "unchanged", "{}", summary(&doc));
        assert!(s(&w["note"]).starts_with("held: "), "{}", summary(&doc));
    }
    let rollouts = doc["clusters"][0]["rollouts"].as_array().expect("rollouts");
    let mut got: Vec<(String, String)> = rollouts
        .iter()
        .map(|r| {
            assert_eq!(
                r["reasons"],
                serde_json::json!(["Version v1.34.1, v1.35.0 required"]),
                "{r}"
            );
            (s(&r["kind"]).to_string(), s(&r["when"]).to_string())
        })
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("KubeadmControlPlane", "now"),
            ("MachineDeployment", "deferred"),
            ("MachineDeployment", "deferred"),
            ("MachinePool", "deferred"),
        ]
        .map(|(k, w)| (k.to_string(), w.to_string()))
    );
    let mut deferred: Vec<&str> = doc["clusters"][0]["deferred"]
        .as_array()
        .expect("deferred")
        .iter()
        .map(|d| s(&d["role"]))
        .collect();
    deferred.sort();
    assert_eq!(
        deferred,
        [
            "MachineDeployment/md-0",
            "MachineDeployment/md-1",
            "MachinePool/mp-0"
        ]
    );
    let cluster = find(&doc, "Cluster", "dev");
    assert!(
        !s(&cluster["diff"]).contains("upgrade-step"),
        "{}",
        s(&cluster["diff"])
    );
}

/// A Cluster only in --current is planned as stored: with the class unchanged nothing moves;
/// with a template changed, the change shows (drift against the class).
#[test]
fn cluster_only_in_current_is_planned_as_stored() {
    let ex = "testdata/examples/quick-start";
    let first = first_reconcile(ex);
    let without_cluster = |t: Test| {
        t.args([
            "plan",
            "-f",
            "in/clusterclass.yaml",
            "-f",
            "in/templates.yaml",
        ])
        .args(["--current", "cur", "--detailed-exitcode"])
    };
    without_cluster(against(ex, &first))
        .stdout_contains("Cluster team-a/dev (ClusterClass fleet/docker-small):")
        .stdout_contains("0 to create, 0 to modify, 17 unchanged, 0 to delete.")
        .run();

    let t = against(ex, &first);
    apply_edit(
        t.path(),
        &edit(
            "in/templates.yaml",
            "imageRepository: kindest",
            "imageRepository: mirror",
        ),
    );
    let drift = without_cluster(t)
        .status(2)
        .stdout_contains("+    imageRepository: mirror")
        .run();
    // (Unchanged objects are not listed, so the columns are as wide as the changed ones.)
    assert!(
        drift
            .stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == ["team-a", "DockerCluster", "dev-86xbh", "modified"]),
        "{}",
        drift.stdout
    );
}

/// The uid the API server gave Cluster dev in [`existing_cluster_as_exported`].
const DEV_UID: &str = "0d4c9a51-7e1b-4c3a-9f1e-2b6d8a4c7e10";

/// Clusterctl's own test case "Modifying an existing Cluster" (`TestClusterClient_TopologyPlan`),
/// on the quick-start: the stored Cluster carries no uid (written by hand, or trimmed by an
/// export tool), while every object it owns names it by uid, as the API server requires; it
/// also holds what its controllers wrote and the input never does (the control plane endpoint,
/// status). The input scales the control plane: the KubeadmControlPlane changes and nothing
/// else — no object differs by its owner reference's uid alone — and the Cluster's diff shows
/// the user's change, not the endpoint as removed.
const EXISTING_CLUSTER: Scenario = Scenario {
    edits: &[edit(
        "in/cluster.yaml",
        "controlPlane:\n      replicas: 3",
        "controlPlane:\n      replicas: 5",
    )],
    objects: &[
        obj("modified", "KubeadmControlPlane", KCP).diff(&["-  replicas: 3", "+  replicas: 5"])
    ],
    cluster: ("modified", &["-      replicas: 3", "+      replicas: 5"]),
    exit: 2,
    ..NONE
};

#[test]
fn existing_cluster_as_exported() {
    let t = setup(&EXISTING_CLUSTER);
    let cur = t.path().join("cur");
    let mut owned = 0;
    for entry in std::fs::read_dir(&cur).expect("cur") {
        let p = entry.expect("entry").path();
        let text = std::fs::read_to_string(&p).expect("read");
        let reference = "    kind: Cluster\n    name: dev\n";
        if text.contains(reference) {
            owned += 1;
            let with_uid = format!("{reference}    uid: {DEV_UID}\n");
            std::fs::write(&p, text.replace(reference, &with_uid)).expect("write");
        }
    }
    assert!(owned >= 10, "the base objects name their Cluster");
    apply_edit(
        t.path(),
        &edit(
            "cur/Cluster_team-a_dev.yaml",
            "spec:\n  clusterNetwork:\n",
            "spec:\n  controlPlaneEndpoint:\n    host: 172.18.0.3\n    port: 6443\n  clusterNetwork:\n",
        ),
    );
    let stored = cur.join("Cluster_team-a_dev.yaml");
    let text = std::fs::read_to_string(&stored).expect("read");
    std::fs::write(&stored, format!("{text}status:\n  phase: Provisioned\n")).expect("write");

    let doc = run_json(t, &[], EXISTING_CLUSTER.exit);
    check(&doc, &EXISTING_CLUSTER);
    let cluster = find(&doc, "Cluster", "dev");
    assert!(
        !s(&cluster["diff"]).contains("controlPlaneEndpoint"),
        "{}",
        s(&cluster["diff"])
    );
    assert_eq!(
        cluster["object"]["spec"]["controlPlaneEndpoint"],
        serde_json::json!({"host": "172.18.0.3", "port": 6443})
    );
    assert_eq!(cluster["object"]["status"]["phase"], "Provisioned");
    // The topology names the Cluster by the uid its objects carry.
    let template = find(&doc, "DockerMachineTemplate", CP_DMT);
    assert_eq!(
        template["object"]["metadata"]["ownerReferences"][0]["uid"],
        DEV_UID
    );
}

// ---------------------------------------------------------------------------------------------
// Rows on the `Plan` builder: the scenario before the change, planned from scratch with
// `--output-dir`, is the current state (the objects the first reconcile creates); the scenario
// after it is the input. For changes of the input alone, where no stored object has to differ
// from what the topology controller writes.

/// `after` (in `in/`) planned with `--detailed-exitcode` against the objects `before`'s first
/// plan writes (in `cur/`), expecting exit code `exit`.
#[track_caller]
fn replan(before: &Plan, after: &Plan, exit: i32) -> Planned {
    let first = before.plan_test(&["--output-dir", "out"]).run();
    let t = after
        .test_in("in")
        .copy(&first.dir.path().join("out"), "cur");
    let out = plan_current(t, &["--output", "json", "--detailed-exitcode"])
        .status(exit)
        .run();
    match serde_json::from_str(&out.stdout) {
        Ok(doc) => Planned { out, doc },
        Err(e) => panic!("plan -o json printed no JSON ({e}):\n{}", out.stdout),
    }
}

/// A Cluster with one MachineDeployment, before the class gains the `mirror` patch.
fn mirror_before() -> Plan {
    Plan::new().machine_deployment("md-0", WORKER_CLASS, 1)
}

/// [`mirror_before`]'s class plus a boolean variable `mirror` (default false) and a patch
/// enabled only when it is true: it points md-0's DockerMachineTemplate at a mirrored node image
/// and the DockerCluster's load balancer at the mirror. With the default the patch is off and
/// the class generates exactly what it did before.
fn mirror_after() -> Plan {
    mirror_before()
        .variable("mirror", json!({"type": "boolean", "default": false}))
        .raw_patch(json!({
            "name": "mirror",
            "enabledIf": "{{ .mirror }}",
            "definitions": [
                {"selector": md_infrastructure(&[WORKER_CLASS]), "jsonPatches": [
                    {"op": "add", "path": "/spec/template/spec/customImage",
                     "value": "mirror.example.com/kindest/node:v1.34.0"}]},
                {"selector": infrastructure_cluster(), "jsonPatches": [
                    {"op": "add", "path": "/spec/template/spec/loadBalancer",
                     "value": {"imageRepository": "mirror.example.com/kindest"}}]},
            ],
        }))
}

/// The `(action, kind)` of every object whose action is not `unchanged`.
fn changed(plan: &Planned) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = plan
        .objects()
        .iter()
        .filter(|o| o["action"] != "unchanged")
        .map(|o| (s(&o["action"]).to_string(), s(&o["kind"]).to_string()))
        .collect();
    v.sort();
    v
}

/// The patch is off (the variable's default): the class generates what the state holds. Only
/// the Cluster changes: admission adds the new variable's default to it.
#[test]
fn enabled_if_off_is_no_op() {
    let plan = replan(&mirror_before(), &mirror_after(), 2);
    assert_eq!(
        changed(&plan),
        [("modified".to_string(), "Cluster".to_string())],
        "{:#?}",
        plan.listing()
    );
    let diff = s(&plan.kind("Cluster")["diff"]);
    for line in ["+    - name: mirror", "+      value: false"] {
        assert!(diff.lines().any(|l| l == line), "{diff}");
    }
    assert!(
        plan.doc["clusters"][0]["rollouts"]
            .as_array()
            .is_none_or(Vec::is_empty)
    );
}

/// A variable flips the patch on: md-0's DockerMachineTemplate is rotated (and md-0 rolls out);
/// the DockerCluster, which is never rotated, is patched in place.
#[test]
fn enabled_if_flipped_on() {
    let before = mirror_before();
    let plan = replan(&before, &mirror_after().value("mirror", json!(true)), 2);
    let pair = |a: &str, k: &str| (a.to_string(), k.to_string());
    assert_eq!(
        changed(&plan),
        [
            pair("created", "DockerMachineTemplate"),
            pair("deleted", "DockerMachineTemplate"),
            pair("modified", "Cluster"),
            pair("modified", "DockerCluster"),
            pair("modified", "MachineDeployment"),
        ],
        "{:#?}",
        plan.listing()
    );
    let templates = plan.all_of_kind("DockerMachineTemplate");
    let of = |action: &str| {
        templates
            .iter()
            .find(|o| o["action"] == action)
            .unwrap_or_else(|| panic!("no {action} DockerMachineTemplate"))
    };
    let (created, deleted) = (of("created"), of("deleted"));
    let old = s(&deleted["name"]);
    assert_eq!(s(&created["rotatedFrom"]), old);
    assert!(s(&deleted["note"]).contains("MachineSet"), "{deleted}");
    assert!(
        s(&created["diff"])
            .lines()
            .any(|l| l == "+      customImage: mirror.example.com/kindest/node:v1.34.0"),
        "{}",
        s(&created["diff"])
    );
    let md = plan.kind("MachineDeployment");
    assert!(
        s(&md["diff"])
            .lines()
            .any(|l| l == format!("-        name: {old}")),
        "{}",
        s(&md["diff"])
    );
    let dc = s(&plan.kind("DockerCluster")["diff"]);
    assert!(
        dc.lines()
            .any(|l| l == "+    imageRepository: mirror.example.com/kindest"),
        "{dc}"
    );
    let diff = s(&plan.kind("Cluster")["diff"]);
    for line in ["+    - name: mirror", "+      value: true"] {
        assert!(diff.lines().any(|l| l == line), "{diff}");
    }
    let rollouts = &plan.doc["clusters"][0]["rollouts"];
    assert_eq!(
        rollouts,
        &json!([{"kind": "MachineDeployment", "name": md["name"], "role": "MachineDeployment/md-0", "when": "now",
                 "reasons": ["DockerMachine is not up-to-date"]}]),
        "{rollouts:#}"
    );
}
