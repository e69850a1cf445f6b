//! TEMPORARY stand-in for upgrade sequencing (being written on branch tpl-upgrade).
#![allow(missing_docs)]
use std::collections::BTreeMap;

#[derive(Debug, Default, Clone)]
pub struct WorkerDecision {
    pub version: String,
    pub pending_create: bool,
    pub pending_upgrade: bool,
    pub deferred: bool,
    pub reason: Option<String>,
}
#[derive(Debug, Default, Clone)]
pub struct ControlPlaneState;
impl ControlPlaneState {
    pub fn reason(&self) -> String {
        String::new()
    }
}
#[derive(Debug, Default, Clone)]
pub struct UpgradeDecision {
    pub topology_version: String,
    pub control_plane_version: String,
    pub control_plane: ControlPlaneState,
    pub control_plane_pending_upgrade: bool,
    pub machine_deployments: BTreeMap<String, WorkerDecision>,
    pub machine_pools: BTreeMap<String, WorkerDecision>,
}
