//! Table-driven tests of [`decide`]. Expected values were worked out from Cluster API's code
//! (main and v1.10.0) and cross-checked against the shapes of its own unit tests.

use serde_json::{Map, Value, json};

use super::*;

/// An owned worker, turned into a [`Worker`] by reference.
struct W {
    name: &'static str,
    in_topology: bool,
    annotations: Option<Map<String, Value>>,
    current: Option<Value>,
    machines: Vec<Value>,
    nodes: Vec<Value>,
}

/// A topology entry whose object does not exist yet.
fn new(name: &'static str) -> W {
    W {
        name,
        in_topology: true,
        annotations: None,
        current: None,
        machines: Vec::new(),
        nodes: Vec::new(),
    }
}

/// A topology entry with a current object at `version` and no Machines.
fn at(name: &'static str, version: &str) -> W {
    W {
        current: Some(json!({
            "metadata": {"name": format!("c-{name}-x7k2p")},
            "spec": {"template": {"spec": {"version": version}}}
        })),
        ..new(name)
    }
}

impl W {
    fn annotated(mut self, key: &str) -> W {
        let mut m = Map::new();
        m.insert(key.into(), json!(""));
        self.annotations = Some(m);
        self
    }

    /// Give it one Machine at `spec` version (kubelet reporting `kubelet`).
    fn machine(mut self, spec: &str, kubelet: &str) -> W {
        self.machines.push(json!({
            "metadata": {"name": format!("{}-m", self.name)},
            "spec": {"version": spec},
            "status": {"nodeInfo": {"kubeletVersion": kubelet}}
        }));
        self
    }

    fn removed(mut self) -> W {
        self.in_topology = false;
        self
    }

    /// A MachinePool whose single node runs `kubelet`.
    fn pool_node(mut self, kubelet: &str) -> W {
        if let Some(Value::Object(obj)) = self.current.as_mut() {
            obj.insert("status".into(), json!({"nodeRefs": [{"name": "node-1"}]}));
        }
        self.nodes.push(json!({
            "metadata": {"name": "node-1"},
            "status": {"nodeInfo": {"kubeletVersion": kubelet}}
        }));
        self
    }

    fn worker(&self) -> Worker<'_> {
        Worker {
            name: self.name,
            in_topology: self.in_topology,
            topology_annotations: self.annotations.as_ref(),
            current: self.current.as_ref(),
            machines: self.machines.iter().collect(),
            nodes: self.nodes.iter().collect(),
        }
    }
}

fn cp(spec: &str, status: Option<&str>) -> Option<Value> {
    Some(match status {
        Some(s) => json!({"spec": {"version": spec}, "status": {"version": s}}),
        None => json!({"spec": {"version": spec}}),
    })
}

/// What is expected of a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flag {
    /// Nothing held back, nothing started.
    Plain,
    PendingCreate,
    PendingUpgrade,
    Deferred,
    Starting,
}

struct Expect {
    cp_version: &'static str,
    cp_state: ControlPlaneState,
    cp_pending: bool,
    cp_plan: &'static [&'static str],
    workers_plan: &'static [&'static str],
    mds: &'static [(&'static str, &'static str, Flag)],
    mps: &'static [(&'static str, &'static str, Flag)],
    step: UpgradeStep,
}

struct Case {
    name: &'static str,
    api: ApiVersion,
    topology: &'static str,
    class_versions: &'static [&'static str],
    concurrency: Option<&'static str>,
    cp: Option<Value>,
    mds: Vec<W>,
    mps: Vec<W>,
    want: Result<Expect, &'static str>,
}

fn base(
    name: &'static str,
    topology: &'static str,
    cp: Option<Value>,
    want: Result<Expect, &'static str>,
) -> Case {
    Case {
        name,
        api: ApiVersion::V1Beta2,
        topology,
        class_versions: &[],
        concurrency: None,
        cp,
        mds: Vec::new(),
        mps: Vec::new(),
        want,
    }
}

fn s(v: &str) -> String {
    v.to_string()
}

fn stable(v: &str) -> ControlPlaneState {
    ControlPlaneState::Stable { version: s(v) }
}

fn starting(from: &str, to: &str) -> ControlPlaneState {
    ControlPlaneState::StartingUpgrade {
        from: s(from),
        to: s(to),
    }
}

const CLASS: &[&str] = &[
    "v1.30.4", "v1.31.2", "v1.32.0", "v1.32.3", "v1.33.1", "v1.34.1",
];

fn cases() -> Vec<Case> {
    vec![
        Case {
            mds: vec![new("md-0")],
            mps: vec![new("mp-0")],
            ..base(
                "new cluster: everything at topology.version, nothing pending",
                "v1.31.0",
                None,
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::Creating {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.31.0", Flag::Plain)],
                    mps: &[("mp-0", "v1.31.0", Flag::Plain)],
                    step: UpgradeStep::Remove,
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.31.0").machine("v1.31.0", "v1.31.0")],
            ..base(
                "control plane and workers at desired: stable",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: stable("v1.31.0"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.31.0", Flag::Plain)],
                    mps: &[],
                    step: UpgradeStep::Remove,
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.31.0"), new("md-new")],
            ..base(
                "CP still upgrading while topology.version moves on: CP held, pending upgrade",
                "v1.32.0",
                cp("v1.31.0", Some("v1.30.2")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::Upgrading {
                        version: s("v1.31.0"),
                        status_version: s("v1.30.2"),
                        status_field: "status.version",
                    },
                    cp_pending: true,
                    cp_plan: &["v1.32.0"],
                    workers_plan: &["v1.32.0"],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::PendingUpgrade),
                        ("md-new", "v1.32.0", Flag::PendingCreate),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2"), at("md-1", "v1.30.2")],
            ..base(
                "CP stable, one minor up: CP starts, workers wait",
                "v1.31.0",
                cp("v1.30.2", Some("v1.30.2")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: starting("v1.30.2", "v1.31.0"),
                    cp_pending: false,
                    cp_plan: &["v1.31.0"],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.30.2", Flag::PendingUpgrade),
                        ("md-1", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2")],
            ..base(
                "two minors up without class versions: Cluster API's error",
                "v1.32.0",
                cp("v1.30.2", Some("v1.30.2")),
                Err("cannot compute an upgrade plan from v1.30.2 to v1.32.0"),
            )
        },
        Case {
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.30.4")],
            ..base(
                "chained plan from class versions: CP takes the first step",
                "v1.34.1",
                cp("v1.30.4", Some("v1.30.4")),
                Ok(Expect {
                    cp_version: "v1.31.2",
                    cp_state: starting("v1.30.4", "v1.31.2"),
                    cp_pending: false,
                    cp_plan: &["v1.31.2", "v1.32.3", "v1.33.1", "v1.34.1"],
                    workers_plan: &["v1.33.1", "v1.34.1"],
                    mds: &[("md-0", "v1.30.4", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.2")),
                }),
            )
        },
        Case {
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.30.4"), at("md-1", "v1.30.4")],
            ..base(
                "chained plan at v1.33: CP waits for the workers, first MD moves to v1.33.1",
                "v1.34.1",
                cp("v1.33.1", Some("v1.33.1")),
                Ok(Expect {
                    cp_version: "v1.33.1",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.33.1"),
                    },
                    cp_pending: true,
                    cp_plan: &["v1.34.1"],
                    workers_plan: &["v1.33.1", "v1.34.1"],
                    mds: &[
                        ("md-0", "v1.33.1", Flag::Starting),
                        ("md-1", "v1.30.4", Flag::PendingUpgrade),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.33.1")),
                }),
            )
        },
        Case {
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.33.1").machine("v1.30.4", "v1.30.4")],
            ..base(
                "chained plan: workers still rolling to v1.33.1 hold the CP's last step",
                "v1.34.1",
                cp("v1.33.1", Some("v1.33.1")),
                Ok(Expect {
                    cp_version: "v1.33.1",
                    cp_state: ControlPlaneState::WaitingForUpgradingWorkers {
                        version: s("v1.33.1"),
                        upgrading: vec![s("md-0")],
                    },
                    cp_pending: true,
                    cp_plan: &["v1.34.1"],
                    workers_plan: &["v1.34.1"],
                    mds: &[("md-0", "v1.33.1", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.33.1")),
                }),
            )
        },
        Case {
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.33.1"), at("md-1", "v1.30.4")],
            ..base(
                "chained plan: an MD already at the workers' step waits, a lagging one moves",
                "v1.34.1",
                cp("v1.33.1", Some("v1.33.1")),
                Ok(Expect {
                    cp_version: "v1.33.1",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.33.1"),
                    },
                    cp_pending: true,
                    cp_plan: &["v1.34.1"],
                    workers_plan: &["v1.33.1", "v1.34.1"],
                    mds: &[
                        ("md-0", "v1.33.1", Flag::PendingUpgrade),
                        ("md-1", "v1.33.1", Flag::Starting),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.33.1")),
                }),
            )
        },
        Case {
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.33.1")],
            ..base(
                "chained plan: CP rolling out its last step, MDs wait",
                "v1.34.1",
                cp("v1.34.1", Some("v1.33.1")),
                Ok(Expect {
                    cp_version: "v1.34.1",
                    cp_state: ControlPlaneState::Upgrading {
                        version: s("v1.34.1"),
                        status_version: s("v1.33.1"),
                        status_field: "status.version",
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.34.1"],
                    mds: &[("md-0", "v1.33.1", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.34.1")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2"), at("md-1", "v1.30.2")],
            ..base(
                "CP at desired, two MDs behind, default concurrency 1: only the first moves",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::Starting),
                        ("md-1", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            concurrency: Some("2"),
            mds: vec![
                at("md-0", "v1.30.2"),
                at("md-1", "v1.30.2"),
                at("md-2", "v1.30.2"),
            ],
            ..base(
                "upgrade-concurrency 2: two MDs move, the third waits",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::Starting),
                        ("md-1", "v1.31.0", Flag::Starting),
                        ("md-2", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            concurrency: Some("0"),
            mds: vec![at("md-0", "v1.30.2"), at("md-1", "v1.30.2")],
            ..base(
                "upgrade-concurrency below 1 counts as 1",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::Starting),
                        ("md-1", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![
                at("md-0", "v1.30.2"),
                at("md-old", "v1.30.2")
                    .machine("v1.29.9", "v1.29.9")
                    .removed(),
            ],
            ..base(
                "a removed MD still rolling counts against the concurrency",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[("md-0", "v1.30.2", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            concurrency: Some("5"),
            mds: vec![
                at("md-0", "v1.30.2").annotated(DEFER_UPGRADE),
                at("md-1", "v1.30.2"),
            ],
            ..base(
                "defer-upgrade holds only its own entry",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.30.2", Flag::Deferred),
                        ("md-1", "v1.31.0", Flag::Starting),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            concurrency: Some("5"),
            mds: vec![
                at("md-0", "v1.30.2"),
                at("md-1", "v1.30.2").annotated(HOLD_UPGRADE_SEQUENCE),
                at("md-2", "v1.30.2"),
            ],
            ..base(
                "hold-upgrade-sequence holds its entry and every later one",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::Starting),
                        ("md-1", "v1.30.2", Flag::Deferred),
                        ("md-2", "v1.30.2", Flag::Deferred),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2"), new("md-new")],
            ..base(
                "new MD while the CP is upgrading: pending create",
                "v1.31.0",
                cp("v1.31.0", Some("v1.30.2")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::Upgrading {
                        version: s("v1.31.0"),
                        status_version: s("v1.30.2"),
                        status_field: "status.version",
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[
                        ("md-0", "v1.30.2", Flag::PendingUpgrade),
                        ("md-new", "v1.31.0", Flag::PendingCreate),
                    ],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![new("md-new")],
            ..base(
                "provisioning CP: keeps its version, new MDs wait",
                "v1.31.0",
                cp("v1.30.2", None),
                Ok(Expect {
                    cp_version: "v1.30.2",
                    cp_state: ControlPlaneState::Provisioning {
                        version: s("v1.30.2"),
                    },
                    cp_pending: true,
                    cp_plan: &["v1.31.0"],
                    workers_plan: &[],
                    mds: &[("md-new", "v1.31.0", Flag::PendingCreate)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.30.2")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.31.0").machine("v1.30.2", "v1.30.2")],
            ..base(
                "MD still rolling holds the CP's next minor",
                "v1.32.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForUpgradingWorkers {
                        version: s("v1.31.0"),
                        upgrading: vec![s("md-0")],
                    },
                    cp_pending: true,
                    cp_plan: &["v1.32.0"],
                    workers_plan: &["v1.32.0"],
                    mds: &[("md-0", "v1.31.0", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.31.0").machine("v1.31.0", "v1.30.2")],
            ..base(
                "main: an in-place kubelet lag counts as upgrading",
                "v1.32.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForUpgradingWorkers {
                        version: s("v1.31.0"),
                        upgrading: vec![s("md-0")],
                    },
                    cp_pending: true,
                    cp_plan: &["v1.32.0"],
                    workers_plan: &["v1.32.0"],
                    mds: &[("md-0", "v1.31.0", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            api: ApiVersion::V1Beta1,
            mds: vec![at("md-0", "v1.31.0").machine("v1.31.0", "v1.30.2")],
            ..base(
                "v1.10: kubelet lag is not looked at; CP jumps to topology.version",
                "v1.32.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.32.0",
                    cp_state: starting("v1.31.0", "v1.32.0"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.31.0", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::NotManaged,
                }),
            )
        },
        Case {
            api: ApiVersion::V1Beta1,
            mds: vec![at("md-0", "v1.30.2")],
            ..base(
                "v1.10: no plans, a two-minor jump is not refused here",
                "v1.32.0",
                cp("v1.30.2", Some("v1.30.2")),
                Ok(Expect {
                    cp_version: "v1.32.0",
                    cp_state: starting("v1.30.2", "v1.32.0"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.30.2", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::NotManaged,
                }),
            )
        },
        Case {
            api: ApiVersion::V1Beta1,
            mds: vec![at("md-0", "v1.30.2"), at("md-1", "v1.30.2")],
            mps: vec![at("mp-0", "v1.30.2")],
            ..base(
                "v1.10: CP at desired, workers go straight to topology.version",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: stable("v1.31.0"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[
                        ("md-0", "v1.31.0", Flag::Starting),
                        ("md-1", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    mps: &[("mp-0", "v1.31.0", Flag::Starting)],
                    step: UpgradeStep::NotManaged,
                }),
            )
        },
        Case {
            api: ApiVersion::V1Beta1,
            class_versions: CLASS,
            mds: vec![at("md-0", "v1.33.1")],
            ..base(
                "v1.10: workers wait for a fully stable CP (no waiting-for-workers state)",
                "v1.34.1",
                cp("v1.33.1", Some("v1.33.1")),
                Ok(Expect {
                    cp_version: "v1.34.1",
                    cp_state: starting("v1.33.1", "v1.34.1"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.33.1", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::NotManaged,
                }),
            )
        },
        Case {
            mps: vec![
                at("mp-0", "v1.31.0").pool_node("v1.30.2"),
                at("mp-1", "v1.30.2"),
            ],
            ..base(
                "MachinePool whose Node lags counts as upgrading and uses up the MP concurrency",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[],
                    mps: &[
                        ("mp-0", "v1.31.0", Flag::Plain),
                        ("mp-1", "v1.30.2", Flag::PendingUpgrade),
                    ],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2")],
            mps: vec![at("mp-0", "v1.30.2")],
            ..base(
                "MD and MP concurrency are counted separately",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[("md-0", "v1.31.0", Flag::Starting)],
                    mps: &[("mp-0", "v1.31.0", Flag::Starting)],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.31.0").machine("", "")],
            ..base(
                "a Machine without version is Cluster API's error",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Err(
                    "failed to check if any MachineDeployment is upgrading: failed to list upgrading MachineDeployments: failed to check if MachineDeployment c-md-0-x7k2p is upgrading: Machine md-0-m has no version",
                ),
            )
        },
        base(
            "CP version differs from topology.version only by the v prefix: Cluster API's plan error",
            "v1.31.0",
            cp("1.31.0", Some("1.31.0")),
            Err(
                "failed to compute ControlPlane: failed to compute version of ControlPlane: cannot compute the control plane version if the control plane is pending upgrade and the upgrade plan is not set",
            ),
        ),
        base(
            "ControlPlane without spec.version",
            "v1.31.0",
            Some(json!({"spec": {}})),
            Err(
                "failed to get the version from control plane spec: path .spec.version: field not found",
            ),
        ),
        Case {
            api: ApiVersion::V1Beta1,
            ..base(
                "v1.10: ControlPlane without spec.version",
                "v1.31.0",
                Some(json!({"spec": {}})),
                Err(
                    "failed to compute ControlPlane: failed to compute version of ControlPlane: failed to get the version from control plane spec: path .spec.version: field not found",
                ),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.2")],
            ..base(
                "CP already at desired by string: no plan needed",
                "v1.30.2",
                cp("v1.30.2", Some("v1.30.2")),
                Ok(Expect {
                    cp_version: "v1.30.2",
                    cp_state: stable("v1.30.2"),
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &[],
                    mds: &[("md-0", "v1.30.2", Flag::Plain)],
                    mps: &[],
                    step: UpgradeStep::Remove,
                }),
            )
        },
        Case {
            mds: vec![at("md-0", "v1.30.0+a")],
            ..base(
                "build metadata only: an unordered build tag is still an upgrade step",
                "v1.30.0+b",
                cp("v1.30.0+a", Some("v1.30.0+a")),
                Ok(Expect {
                    cp_version: "v1.30.0+b",
                    cp_state: starting("v1.30.0+a", "v1.30.0+b"),
                    cp_pending: false,
                    cp_plan: &["v1.30.0+b"],
                    workers_plan: &["v1.30.0+b"],
                    mds: &[("md-0", "v1.30.0+a", Flag::PendingUpgrade)],
                    mps: &[],
                    step: UpgradeStep::Set(s("v1.30.0+b")),
                }),
            )
        },
        Case {
            concurrency: Some("3"),
            mps: vec![
                at("mp-0", "v1.30.2").annotated(HOLD_UPGRADE_SEQUENCE),
                at("mp-1", "v1.30.2"),
            ],
            mds: vec![at("md-0", "v1.30.2")],
            ..base(
                "hold-upgrade-sequence on a MachinePool holds later pools only, not MDs",
                "v1.31.0",
                cp("v1.31.0", Some("v1.31.0")),
                Ok(Expect {
                    cp_version: "v1.31.0",
                    cp_state: ControlPlaneState::WaitingForWorkers {
                        version: s("v1.31.0"),
                    },
                    cp_pending: false,
                    cp_plan: &[],
                    workers_plan: &["v1.31.0"],
                    mds: &[("md-0", "v1.31.0", Flag::Starting)],
                    mps: &[
                        ("mp-0", "v1.30.2", Flag::Deferred),
                        ("mp-1", "v1.30.2", Flag::Deferred),
                    ],
                    step: UpgradeStep::Set(s("v1.31.0")),
                }),
            )
        },
        base(
            "status.versions: an older replica keeps the CP upgrading",
            "v1.32.0",
            Some(
                json!({"spec": {"version": "v1.31.0"}, "status": {"version": "v1.31.0", "versions": [
                {"version": "v1.30.2", "replicas": 1}, {"version": "v1.31.0", "replicas": 2}]}}),
            ),
            Ok(Expect {
                cp_version: "v1.31.0",
                cp_state: ControlPlaneState::Upgrading {
                    version: s("v1.31.0"),
                    status_version: s("v1.30.2"),
                    status_field: "status.versions",
                },
                cp_pending: true,
                cp_plan: &["v1.32.0"],
                workers_plan: &[],
                mds: &[],
                mps: &[],
                step: UpgradeStep::Set(s("v1.31.0")),
            }),
        ),
    ]
}

fn check(case: &Case, got: Result<UpgradeDecision, String>) {
    let name = case.name;
    let want = match &case.want {
        Err(e) => {
            assert_eq!(got, Err(s(e)), "{name}");
            return;
        }
        Ok(w) => w,
    };
    let got = match got {
        Ok(g) => g,
        Err(e) => panic!("{name}: unexpected error {e}"),
    };
    assert_eq!(
        got.control_plane_version, want.cp_version,
        "{name}: CP version"
    );
    assert_eq!(got.control_plane, want.cp_state, "{name}: CP state");
    assert_eq!(
        got.control_plane_pending_upgrade, want.cp_pending,
        "{name}: CP pending"
    );
    assert_eq!(
        got.control_plane_plan,
        want.cp_plan.iter().map(|v| s(v)).collect::<Vec<_>>(),
        "{name}: CP plan"
    );
    assert_eq!(
        got.workers_plan,
        want.workers_plan.iter().map(|v| s(v)).collect::<Vec<_>>(),
        "{name}: workers plan"
    );
    assert_eq!(got.upgrade_step, want.step, "{name}: upgrade step");
    for (label, decisions, expected) in [
        ("MD", &got.machine_deployments, want.mds),
        ("MP", &got.machine_pools, want.mps),
    ] {
        let names: Vec<&str> = expected.iter().map(|(n, _, _)| *n).collect();
        let mut got_names: Vec<&str> = decisions.keys().map(String::as_str).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        got_names.sort_unstable();
        assert_eq!(got_names, sorted, "{name}: {label} entries");
        for (n, version, flag) in expected {
            let Some(d) = decisions.get(*n) else {
                panic!("{name}: {label} {n} missing");
            };
            assert_eq!(d.version, *version, "{name}: {label} {n} version");
            let flags = (
                d.pending_create,
                d.pending_upgrade,
                d.deferred,
                d.starting_upgrade,
            );
            let want_flags = match flag {
                Flag::Plain => (false, false, false, false),
                Flag::PendingCreate => (true, false, false, false),
                Flag::PendingUpgrade => (false, true, false, false),
                Flag::Deferred => (false, true, true, false),
                Flag::Starting => (false, false, false, true),
            };
            assert_eq!(
                flags, want_flags,
                "{name}: {label} {n} flags (create, upgrade, deferred, starting)"
            );
            // Held-back and starting entries always explain themselves; plain ones do not.
            assert_eq!(
                d.reason.is_some(),
                *flag != Flag::Plain,
                "{name}: {label} {n} reason {:?}",
                d.reason
            );
        }
    }
}

#[test]
fn decide_table() {
    for case in cases() {
        let annotations = case.concurrency.map(|c| {
            let mut m = Map::new();
            m.insert(UPGRADE_CONCURRENCY.into(), json!(c));
            m
        });
        let class_versions: Vec<String> = case.class_versions.iter().map(|v| s(v)).collect();
        let input = UpgradeInput {
            api: case.api,
            topology_version: case.topology,
            class_versions: &class_versions,
            plan_extension: None,
            cluster_annotations: annotations.as_ref(),
            control_plane: case.cp.as_ref(),
            machine_deployments: case.mds.iter().map(W::worker).collect(),
            machine_pools: case.mps.iter().map(W::worker).collect(),
        };
        check(&case, decide(&input));
    }
}

#[test]
fn reasons_name_the_cause() {
    let mds = [
        at("md-0", "v1.30.2"),
        at("md-1", "v1.30.2").annotated(HOLD_UPGRADE_SEQUENCE),
        at("md-2", "v1.30.2"),
        at("md-3", "v1.30.2").annotated(DEFER_UPGRADE),
    ];
    let control_plane = cp("v1.31.0", Some("v1.31.0"));
    let input = UpgradeInput {
        api: ApiVersion::V1Beta2,
        topology_version: "v1.31.0",
        class_versions: &[],
        plan_extension: None,
        cluster_annotations: None,
        control_plane: control_plane.as_ref(),
        machine_deployments: mds.iter().map(W::worker).collect(),
        machine_pools: Vec::new(),
    };
    let got = decide(&input).map(|d| {
        d.machine_deployments
            .into_iter()
            .map(|(k, v)| (k, v.reason.unwrap_or_default()))
            .collect::<Vec<_>>()
    });
    let want = vec![
        (s("md-0"), s("upgrading from v1.30.2 to v1.31.0")),
        (
            s("md-1"),
            format!("upgrade held by its {HOLD_UPGRADE_SEQUENCE} annotation"),
        ),
        (
            s("md-2"),
            format!("upgrade held by the {HOLD_UPGRADE_SEQUENCE} annotation on md-1"),
        ),
        // Defer is checked before the earlier hold.
        (
            s("md-3"),
            format!("upgrade deferred by its {DEFER_UPGRADE} annotation"),
        ),
    ];
    assert_eq!(got, Ok(want));

    // Concurrency and control-plane reasons.
    let mds = [at("md-0", "v1.30.2"), at("md-1", "v1.30.2"), new("md-new")];
    let control_plane = cp("v1.31.0", Some("v1.30.2"));
    let input = UpgradeInput {
        control_plane: control_plane.as_ref(),
        machine_deployments: mds.iter().map(W::worker).collect(),
        ..input
    };
    let got = decide(&input).map(|d| {
        d.machine_deployments
            .into_iter()
            .map(|(k, v)| (k, v.reason.unwrap_or_default()))
            .collect::<Vec<_>>()
    });
    let cp_reason = "control plane is upgrading to v1.31.0 (status.version v1.30.2)";
    assert_eq!(
        got,
        Ok(vec![
            (
                s("md-0"),
                format!("waiting for the control plane: {cp_reason}")
            ),
            (
                s("md-1"),
                format!("waiting for the control plane: {cp_reason}")
            ),
            (
                s("md-new"),
                format!("not created until the control plane is stable: {cp_reason}")
            ),
        ])
    );
}

#[test]
fn concurrency_reason_lists_the_upgrading_workers() {
    let mds = [
        at("md-0", "v1.31.0").machine("v1.30.2", "v1.30.2"),
        at("md-1", "v1.30.2"),
    ];
    let control_plane = cp("v1.31.0", Some("v1.31.0"));
    let input = UpgradeInput {
        api: ApiVersion::V1Beta2,
        topology_version: "v1.31.0",
        class_versions: &[],
        plan_extension: None,
        cluster_annotations: None,
        control_plane: control_plane.as_ref(),
        machine_deployments: mds.iter().map(W::worker).collect(),
        machine_pools: Vec::new(),
    };
    let got = decide(&input).map(|d| {
        d.machine_deployments
            .get("md-1")
            .and_then(|m| m.reason.clone())
    });
    assert_eq!(
        got,
        Ok(Some(s("upgrade concurrency 1 reached (md-0 upgrading)")))
    );
}

#[test]
fn plan_extension() {
    let mds = [at("md-0", "v1.30.4")];
    let control_plane = cp("v1.30.4", Some("v1.30.4"));
    let call = |req: &PlanRequest<'_>| -> Result<PlanResponse, String> {
        assert_eq!(
            (
                req.extension,
                req.desired_version,
                req.control_plane_version,
                req.min_workers_version
            ),
            ("plans.my-ext", "v1.32.3", "v1.30.4", "v1.30.4")
        );
        Ok(PlanResponse {
            control_plane: vec![s("v1.31.9"), s("v1.32.3")],
            workers: Vec::new(),
        })
    };
    let call: &PlanCallback<'_> = &call;
    let with = PlanExtension {
        name: "plans.my-ext",
        call,
    };
    let mut input = UpgradeInput {
        api: ApiVersion::V1Beta2,
        topology_version: "v1.32.3",
        class_versions: &[],
        plan_extension: Some(&with),
        cluster_annotations: None,
        control_plane: control_plane.as_ref(),
        machine_deployments: mds.iter().map(W::worker).collect(),
        machine_pools: Vec::new(),
    };
    let got = decide(&input).map(|d| {
        (
            d.control_plane_version,
            d.control_plane_plan,
            d.workers_plan,
        )
    });
    assert_eq!(
        got,
        Ok((
            s("v1.31.9"),
            vec![s("v1.31.9"), s("v1.32.3")],
            vec![s("v1.32.3")]
        ))
    );

    // The extension's plan is validated like any other.
    let bad = |_: &PlanRequest<'_>| -> Result<PlanResponse, String> {
        Ok(PlanResponse {
            control_plane: vec![s("v1.32.3")],
            workers: Vec::new(),
        })
    };
    let bad: &PlanCallback<'_> = &bad;
    let with_bad = PlanExtension {
        name: "plans.my-ext",
        call: bad,
    };
    input.plan_extension = Some(&with_bad);
    assert_eq!(
        decide(&input).map(|d| d.control_plane_version),
        Err(s(
            "invalid ControlPlane upgrade plan: item 0; expecting a version with minor 30 or 31, found version v1.32.3"
        ))
    );

    // The callback's error is passed on as it is: it says what failed.
    let failing = |_: &PlanRequest<'_>| -> Result<PlanResponse, String> {
        Err(s(
            "failed to get upgrade plan from extension: connection refused",
        ))
    };
    let failing: &PlanCallback<'_> = &failing;
    let with_failing = PlanExtension {
        name: "plans.my-ext",
        call: failing,
    };
    input.plan_extension = Some(&with_failing);
    assert_eq!(
        decide(&input).map(|d| d.control_plane_version),
        Err(s(
            "failed to get upgrade plan from extension: connection refused"
        ))
    );

    // Nothing to upgrade: the extension is not called, so a failing one is no error.
    let calls = std::cell::Cell::new(0);
    let counting = |_: &PlanRequest<'_>| -> Result<PlanResponse, String> {
        calls.set(calls.get() + 1);
        Err(s("unreachable"))
    };
    let counting: &PlanCallback<'_> = &counting;
    let with_counting = PlanExtension {
        name: "plans.my-ext",
        call: counting,
    };
    input.plan_extension = Some(&with_counting);
    input.topology_version = "v1.30.4";
    assert_eq!(
        decide(&input).map(|d| d.control_plane_version),
        Ok(s("v1.30.4"))
    );
    assert_eq!(calls.get(), 0);
}

#[test]
fn concurrency_annotation_parsing() {
    let cases: &[(Option<Value>, i64)] = &[
        (None, 1),
        (Some(json!("3")), 3),
        (Some(json!("+2")), 2),
        (Some(json!("-4")), 1),
        (Some(json!("abc")), 1),
        (Some(json!("")), 1),
        (Some(json!(7)), 1),
        (Some(json!("99999999999999999999")), i64::MAX),
    ];
    for (value, want) in cases {
        let mut m = Map::new();
        if let Some(v) = value {
            m.insert(UPGRADE_CONCURRENCY.into(), v.clone());
        }
        assert_eq!(concurrency(Some(&m)), *want, "{value:?}");
    }
    assert_eq!(concurrency(None), 1);
}

#[test]
fn control_plane_state_reasons() {
    let cases = [
        (
            ControlPlaneState::Creating {
                version: s("v1.31.0"),
            },
            "control plane is created at v1.31.0",
        ),
        (
            ControlPlaneState::Provisioning {
                version: s("v1.31.0"),
            },
            "control plane is provisioning at v1.31.0 (no status version yet)",
        ),
        (
            ControlPlaneState::Upgrading {
                version: s("v1.31.0"),
                status_version: s("v1.30.2"),
                status_field: "status.version",
            },
            "control plane is upgrading to v1.31.0 (status.version v1.30.2)",
        ),
        (
            ControlPlaneState::WaitingForWorkers {
                version: s("v1.33.1"),
            },
            "control plane waits at v1.33.1 until the workers are upgraded to it",
        ),
        (
            ControlPlaneState::WaitingForUpgradingWorkers {
                version: s("v1.31.0"),
                upgrading: vec![s("md-0"), s("mp-0")],
            },
            "control plane waits at v1.31.0 until upgrading workers finish (md-0, mp-0)",
        ),
        (
            starting("v1.30.4", "v1.31.2"),
            "control plane starts upgrading from v1.30.4 to v1.31.2",
        ),
        (stable("v1.31.0"), "control plane is stable at v1.31.0"),
    ];
    for (state, want) in cases {
        assert_eq!(state.reason(), want);
    }
}

/// [`Holds`] answers what a scan of the list before each entry answered (the first held entry
/// in the topology holds back every entry not listed before it), for holds at every position,
/// entries only current, and a name listed twice.
#[test]
fn holds_agree_with_a_scan_of_the_entries_before() {
    fn scan<'a>(w: &Worker<'a>, all: &[Worker<'a>]) -> Option<&'a str> {
        for other in all.iter().filter(|o| o.in_topology) {
            if has(other, HOLD_UPGRADE_SEQUENCE) {
                return Some(other.name);
            }
            if other.name == w.name {
                return None;
            }
        }
        None
    }
    let held: Map<String, Value> = [(HOLD_UPGRADE_SEQUENCE.to_string(), json!(""))]
        .into_iter()
        .collect();
    let names = ["a", "b", "c", "b", "d"];
    for hold_at in [None, Some(0), Some(1), Some(2), Some(3), Some(4)] {
        for gone in [None, Some(1), Some(4)] {
            let all: Vec<Worker<'_>> = names
                .iter()
                .enumerate()
                .map(|(i, name)| Worker {
                    name,
                    in_topology: gone != Some(i),
                    topology_annotations: (hold_at == Some(i)).then_some(&held),
                    ..Worker::default()
                })
                .collect();
            let holds = Holds::of(&all);
            for w in all.iter().chain([&Worker {
                name: "unlisted",
                ..Worker::default()
            }]) {
                if has(w, HOLD_UPGRADE_SEQUENCE) {
                    continue;
                }
                assert_eq!(
                    holds.holding(w.name),
                    scan(w, &all),
                    "{} with a hold at {hold_at:?}, {gone:?} gone",
                    w.name
                );
            }
        }
    }
}
