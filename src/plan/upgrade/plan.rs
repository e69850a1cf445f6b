/*!
Upgrade plans: the intermediate versions the control plane and the workers go through to reach
`spec.topology.version` (Cluster API main, `exp/topology/desiredstate/upgrade_plan.go`).

Owns the plan sources (one minor at a time, or chained through the ClusterClass's
`kubernetesVersions`), the defaulting of the workers plan (at most three minors per step, the
kubelet skew rule) and the validation of both plans, with Cluster API's error strings. The caller
(`super::decide`) owns when a plan is needed and how it is used.
*/

use std::collections::{BTreeMap, HashMap};

use crate::k8s::version::capi::{Cmp, Version, compare, compare_with_build_tags, parse_tolerant};

/// Where the plan comes from (`Generate`'s choice of `GetUpgradePlanFunc`).
pub(crate) enum Source<'a> {
    /// `GetUpgradePlanOneMinor`: no class versions, no extension.
    OneMinor,
    /// `GetUpgradePlanFromClusterClassVersions`.
    ClassVersions(&'a [String]),
    /// `GetUpgradePlanFromExtension`: a GenerateUpgradePlan extension, through the caller's
    /// callback.
    Extension(&'a super::extension::PlanExtension<'a>),
}

/// What `ComputeUpgradePlan` leaves in the upgrade tracker.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Plans {
    pub control_plane: Vec<String>,
    /// The workers plan; Cluster API copies it to the MachineDeployments' and MachinePools'
    /// trackers only when current objects of that kind exist.
    pub workers: Vec<String>,
    /// `v` + the lowest current MD/MP version; empty when no worker has a version.
    pub min_workers_version: String,
}

/// A current worker's name and `spec.template.spec.version` (empty when unset).
pub(crate) struct WorkerVersion<'a> {
    pub kind: &'a str,
    pub name: &'a str,
    pub version: &'a str,
}

/// `ComputeUpgradePlan` once a control plane exists.
pub(crate) fn compute(
    desired: &str,
    control_plane_version: &str,
    workers: &[WorkerVersion<'_>],
    source: &Source<'_>,
) -> Result<Plans, String> {
    let desired_sv = parse_tolerant(desired)
        .map_err(|e| format!("failed to parse Cluster version {desired}: {e}"))?;
    let cp_sv = parse_tolerant(control_plane_version).map_err(|e| {
        format!("failed to parse ControlPlane version {control_plane_version}: {e}")
    })?;

    // MachineDeployments first, then MachinePools, as Cluster API scans them; only the order of
    // errors depends on it.
    let mut min_workers: Option<Version> = None;
    for w in workers.iter().filter(|w| !w.version.is_empty()) {
        let v = parse_tolerant(w.version).map_err(|e| {
            format!(
                "failed to parse version {} of {} {}: {e}",
                w.version, w.kind, w.name
            )
        })?;
        let lower = match &min_workers {
            None => true,
            Some(min) => is_lower_than_min_version(&v, min, &cp_sv),
        };
        if lower {
            min_workers = Some(v);
        }
    }
    let min_workers_version = min_workers.as_ref().map(Version::v).unwrap_or_default();

    // Up to date (compared on String(), so build metadata counts): no plan at all.
    if cp_sv.to_string() == desired_sv.to_string()
        && min_workers
            .as_ref()
            .is_none_or(|m| m.to_string() == desired_sv.to_string())
    {
        return Ok(Plans {
            min_workers_version,
            ..Plans::default()
        });
    }

    let (cp_plan, workers_plan) = match source {
        Source::OneMinor => one_minor(desired, control_plane_version)?,
        Source::ClassVersions(versions) => {
            from_class_versions(versions, desired, control_plane_version)?
        }
        Source::Extension(ext) => (ext.call)(&super::extension::PlanRequest {
            extension: ext.name,
            desired_version: desired,
            control_plane_version,
            min_workers_version: &min_workers_version,
        })
        .map(|r| (r.control_plane, r.workers))?,
    };
    let workers = default_and_validate(
        desired,
        control_plane_version,
        &min_workers_version,
        &cp_plan,
        workers_plan,
    )?;
    Ok(Plans {
        control_plane: cp_plan,
        workers,
        min_workers_version,
    })
}

/// `isLowerThanMinVersion`: when build tags make the order unknowable, a worker version that
/// differs from the control plane's is taken as the older one (workers never lead the CP).
fn is_lower_than_min_version(v: &Version, min: &Version, cp: &Version) -> bool {
    match compare_with_build_tags(v, min) {
        Cmp::Less => true,
        Cmp::Unordered => v.to_string() != cp.to_string(),
        Cmp::Equal | Cmp::Greater => false,
    }
}

type PlanPair = (Vec<String>, Vec<String>);

/// `GetUpgradePlanOneMinor`: without class versions only a one-minor jump is possible.
fn one_minor(desired: &str, cp: &str) -> Result<PlanPair, String> {
    let d = parse_tolerant(desired).map_err(|e| format!("failed to parse desired version: {e}"))?;
    let c = parse_tolerant(cp)
        .map_err(|e| format!("failed to parse current ControlPlane version: {e}"))?;
    if c.to_string() == d.to_string() {
        return Ok((Vec::new(), Vec::new()));
    }
    // Only the minor is compared, as in Cluster API (a major change is not caught here).
    if d.minor > c.minor.saturating_add(1) {
        return Err(format!(
            "cannot compute an upgrade plan from {cp} to {desired}"
        ));
    }
    Ok((vec![desired.to_string()], Vec::new()))
}

/// `GetUpgradePlanFromClusterClassVersions`: the last listed version of every minor between the
/// control plane's (excluded) and the desired one.
fn from_class_versions(versions: &[String], desired: &str, cp: &str) -> Result<PlanPair, String> {
    let d = parse_tolerant(desired).map_err(|e| format!("failed to parse desired version: {e}"))?;
    let c = parse_tolerant(cp)
        .map_err(|e| format!("failed to parse current ControlPlane version: {e}"))?;
    if c.to_string() == d.to_string() {
        return Ok((Vec::new(), Vec::new()));
    }

    let mut candidates: Vec<(&str, Version)> = Vec::new();
    for v in versions {
        let sv = parse_tolerant(v).map_err(|e| format!("failed to parse version {v}: {e}"))?;
        // Versions up to the CP's (build metadata ignored) are behind us.
        if compare(&sv, &c).go() <= 0 {
            continue;
        }
        // Past the desired version (the webhook normally prevents a list without it).
        if compare_with_build_tags(&sv, &d) == Cmp::Greater {
            break;
        }
        let reached = sv.to_string() == d.to_string();
        candidates.push((v, sv));
        if reached {
            break;
        }
    }
    let Some((first, _)) = candidates.first() else {
        return Ok((Vec::new(), Vec::new()));
    };

    let mut simplified: Vec<String> = Vec::new();
    let mut current_minor = c.minor;
    // A patch-only upgrade: seed with the first candidate so the loop below can replace it with
    // the last patch of the same minor.
    if current_minor == d.minor {
        simplified.push((*first).to_string());
    }
    for (v, sv) in &candidates {
        if sv.minor > current_minor {
            simplified.push((*v).to_string());
        }
        if sv.minor == current_minor
            && let Some(last) = simplified.last_mut()
        {
            *last = (*v).to_string();
        }
        current_minor = sv.minor;
    }
    Ok((simplified, Vec::new()))
}

/// `DefaultAndValidateUpgradePlans`: validate the control plane plan; default the workers plan
/// when the source left it empty; validate it. Returns the workers plan.
pub(crate) fn default_and_validate(
    desired: &str,
    cp: &str,
    min_workers: &str,
    cp_plan: &[String],
    mut workers_plan: Vec<String>,
) -> Result<Vec<String>, String> {
    let d = parse_tolerant(desired)
        .map_err(|e| format!("failed to parse Cluster version {desired}: {e}"))?;
    let c = parse_tolerant(cp)
        .map_err(|e| format!("failed to parse ControlPlane version {cp}: {e}"))?;
    let min = if min_workers.is_empty() {
        None
    } else {
        Some(
            parse_tolerant(min_workers)
                .map_err(|e| format!("failed to parse min workers version {min_workers}: {e}"))?,
        )
    };
    let steps = validate_control_plane_plan(&d, &c, desired, cp, cp_plan)?;

    let Some(min) = min.filter(|m| compare_with_build_tags(m, &d) != Cmp::Equal) else {
        if !workers_plan.is_empty() {
            return Err(
                "invalid worker upgrade plan; there are no workers or workers already at the desired version"
                    .into(),
            );
        }
        return Ok(workers_plan);
    };
    if !cp_plan.is_empty() {
        workers_stop_at_control_plane_versions(&workers_plan, cp, cp_plan)?;
    }
    if workers_plan.is_empty() {
        match default_workers_plan(&min, &d, desired, &steps.minors) {
            Some(plan) => workers_plan = plan,
            // Cluster API wraps a nil error here (pkgerrors.Wrapf(nil, …) is nil), so this
            // "should never happen" case silently yields no workers plan at all.
            None => return Ok(Vec::new()),
        }
    }
    validate_workers_plan(&workers_plan, min, &d, desired, &steps.order)?;
    Ok(workers_plan)
}

/// What the control plane's plan tells the workers' one.
struct ControlPlaneSteps {
    /// A known version for every minor the control plane goes through (its current one
    /// included), used to place the intermediate worker steps.
    minors: BTreeMap<u64, String>,
    /// Position of each version in the control plane's sequence, to order versions that
    /// differ only in non-numeric build identifiers.
    order: HashMap<String, i64>,
}

/// The control plane's plan (from `c`, at `cp`, to `d`, `desired`) must go up one minor at a
/// time and end at the desired version; none when it is already there.
fn validate_control_plane_plan(
    d: &Version,
    c: &Version,
    desired: &str,
    cp: &str,
    cp_plan: &[String],
) -> Result<ControlPlaneSteps, String> {
    let mut minors: BTreeMap<u64, String> = BTreeMap::new();
    minors.insert(c.minor, cp.to_string());
    let mut order: HashMap<String, i64> = HashMap::new();
    order.insert(cp.to_string(), -1);
    if compare_with_build_tags(c, d) == Cmp::Equal {
        if !cp_plan.is_empty() {
            return Err(
                "invalid ControlPlane upgrade plan: control plane is already at the desired version"
                    .into(),
            );
        }
        return Ok(ControlPlaneSteps { minors, order });
    }
    let mut current = c.clone();
    for (i, target) in cp_plan.iter().enumerate() {
        order.insert(target.clone(), i64::try_from(i).unwrap_or(i64::MAX));
        let t = parse_tolerant(target).map_err(|e| {
            format!(
                "invalid ControlPlane upgrade plan: item {i}; failed to parse version {target}: {e}"
            )
        })?;
        // Same major.minor.patch with different build tags (unordered) is tolerated.
        if compare_with_build_tags(&t, &current).go() <= 0 {
            return Err(format!(
                "invalid ControlPlane upgrade plan: item {i}; version {target} must be greater than {}",
                current.v()
            ));
        }
        if current.minor != t.minor && current.minor.wrapping_add(1) != t.minor {
            return Err(format!(
                "invalid ControlPlane upgrade plan: item {i}; expecting a version with minor {} or {}, found version {target}",
                current.minor,
                current.minor.wrapping_add(1)
            ));
        }
        minors.insert(t.minor, target.clone());
        current = t;
    }
    if compare_with_build_tags(&current, d) != Cmp::Equal {
        return Err(format!(
            "invalid ControlPlane upgrade plan: control plane upgrade plan must end with version {desired}, ends with {} instead",
            current.v()
        ));
    }
    Ok(ControlPlaneSteps { minors, order })
}

/// Workers may only stop at versions the control plane goes through (or is at).
fn workers_stop_at_control_plane_versions(
    workers_plan: &[String],
    cp: &str,
    cp_plan: &[String],
) -> Result<(), String> {
    let mut unknown: Vec<&str> = Vec::new();
    for v in workers_plan {
        if v != cp && !cp_plan.contains(v) && !unknown.contains(&v.as_str()) {
            unknown.push(v);
        }
    }
    if unknown.is_empty() {
        return Ok(());
    }
    Err(format!(
        "invalid workers upgrade plan: versions {} doesn't match any versions in the control plane upgrade plan nor the control plane version",
        unknown.join(",")
    ))
}

/// The default workers plan from `min` to `d` (`desired`): a step every three minors (the
/// kubelet may trail the API server by three), at the control plane's version of that minor
/// (`minors`), then the desired version. The count wraps like Go's uint64 when workers are
/// ahead of it. `None`: a step's minor has no known version.
fn default_workers_plan(
    min: &Version,
    d: &Version,
    desired: &str,
    minors: &BTreeMap<u64, String>,
) -> Option<Vec<String>> {
    let mut workers_plan = Vec::new();
    let from = min.minor;
    let steps = d.minor.wrapping_sub(from);
    let mut i: u64 = 0;
    while i < steps {
        if i > 0 && i.is_multiple_of(3) {
            workers_plan.push(minors.get(&from.wrapping_add(i))?.clone());
        }
        i += 1;
    }
    if workers_plan.last().is_none_or(|last| last != desired) {
        workers_plan.push(desired.to_string());
    }
    Some(workers_plan)
}

/// The workers plan must go up from `min`, by at most three minors a step (Kubernetes'
/// version skew), and end at `d` (`desired`); `order` places versions that differ only in
/// build identifiers.
fn validate_workers_plan(
    workers_plan: &[String],
    min: Version,
    d: &Version,
    desired: &str,
    order: &HashMap<String, i64>,
) -> Result<(), String> {
    let mut current = min;
    for (i, target) in workers_plan.iter().enumerate() {
        let t = parse_tolerant(target).map_err(|e| {
            format!("invalid workers upgrade plan, item {i}; failed to parse version {target}: {e}")
        })?;
        match compare_with_build_tags(&t, &current) {
            Cmp::Less | Cmp::Equal => {
                return Err(format!(
                    "invalid workers upgrade plan, item {i}; version {target} must be greater than {}",
                    current.v()
                ));
            }
            Cmp::Unordered => {
                let Some(target_order) = order.get(target.as_str()) else {
                    return Err(format!(
                        "invalid workers upgrade plan, item {i}; failer to determine version {target} order"
                    ));
                };
                let Some(current_order) = order.get(&current.v()) else {
                    return Err(format!("failer to determine version {} order", current.v()));
                };
                if target_order < current_order {
                    return Err(format!(
                        "invalid workers upgrade plan, item {i}; version {target} must be before {}",
                        current.v()
                    ));
                }
            }
            Cmp::Greater => {}
        }
        // Go subtracts uint64s: a lower target wraps to a huge number and fails the check.
        if t.minor.wrapping_sub(current.minor) > 3 {
            return Err(format!(
                "invalid workers upgrade plan, item {i}; workers cannot go from minor {} ({}) to minor {} ({target}), an intermediate step is required to comply with Kubernetes version skew rules",
                current.minor,
                current.v(),
                t.minor
            ));
        }
        current = t;
    }
    if compare_with_build_tags(&current, d) != Cmp::Equal {
        return Err(format!(
            "invalid workers upgrade plan; workers upgrade plan must end with version {desired}, ends with {} instead",
            current.v()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn class_versions_plan() {
        let class = strings(&[
            "v1.30.4", "v1.31.2", "v1.32.0", "v1.32.3", "v1.33.1", "v1.34.1",
        ]);
        // (desired, cp, want cp plan)
        let cases: &[(&str, &str, &[&str])] = &[
            // A class offering several minors: each step is the newest patch of the next minor.
            (
                "v1.34.1",
                "v1.30.4",
                &["v1.31.2", "v1.32.3", "v1.33.1", "v1.34.1"],
            ),
            ("v1.34.1", "v1.32.0", &["v1.33.1", "v1.34.1"]),
            // Patch-only upgrade within a minor: the last matching patch.
            ("v1.32.3", "v1.32.0", &["v1.32.3"]),
            ("v1.33.1", "v1.33.1", &[]),
            // Stops at desired even if more versions are listed.
            ("v1.32.3", "v1.30.4", &["v1.31.2", "v1.32.3"]),
        ];
        for (desired, cp, want) in cases {
            let got = from_class_versions(&class, desired, cp);
            assert_eq!(got, Ok((strings(want), Vec::new())), "{cp} → {desired}");
        }
        // A CP patch behind the class list's patch of the same minor is dropped when crossing
        // minors: only the later minors appear.
        let class = strings(&["v1.30.4", "v1.30.5", "v1.31.2"]);
        assert_eq!(
            from_class_versions(&class, "v1.31.2", "v1.30.4"),
            Ok((strings(&["v1.31.2"]), Vec::new()))
        );
        assert_eq!(
            from_class_versions(&strings(&["vX"]), "v1.31.2", "v1.30.4"),
            Err(
                "failed to parse version vX: Invalid character(s) found in major number \"X\""
                    .into()
            )
        );
    }

    #[test]
    fn one_minor_plan() {
        assert_eq!(
            one_minor("v1.31.0", "v1.30.2"),
            Ok((strings(&["v1.31.0"]), Vec::new()))
        );
        assert_eq!(
            one_minor("v1.30.2", "v1.30.2"),
            Ok((Vec::new(), Vec::new()))
        );
        assert_eq!(
            one_minor("v1.32.0", "v1.30.2"),
            Err("cannot compute an upgrade plan from v1.30.2 to v1.32.0".into())
        );
    }

    #[test]
    fn default_and_validate_cases() {
        // (desired, cp, min workers, cp plan, given workers plan, want)
        type Case<'a> = (
            &'a str,
            &'a str,
            &'a str,
            &'a [&'a str],
            &'a [&'a str],
            Result<&'a [&'a str], &'a str>,
        );
        let cases: &[Case] = &[
            // Workers defaulted to every third minor, then desired.
            (
                "v1.34.1",
                "v1.30.0",
                "v1.30.0",
                &["v1.31.1", "v1.32.0", "v1.33.1", "v1.34.1"],
                &[],
                Ok(&["v1.33.1", "v1.34.1"]),
            ),
            // CP already moved: the CP's current version is known for its minor.
            (
                "v1.34.1",
                "v1.33.1",
                "v1.30.0",
                &["v1.34.1"],
                &[],
                Ok(&["v1.33.1", "v1.34.1"]),
            ),
            (
                "v1.32.0",
                "v1.30.0",
                "v1.30.0",
                &["v1.31.1", "v1.32.0"],
                &[],
                Ok(&["v1.32.0"]),
            ),
            // No workers: no workers plan.
            ("v1.31.0", "v1.30.0", "", &["v1.31.0"], &[], Ok(&[])),
            (
                "v1.33.1",
                "v1.30.0",
                "",
                &["v1.31.1", "v1.32.0", "v1.33.1"],
                &["v1.33.1"],
                Err(
                    "invalid worker upgrade plan; there are no workers or workers already at the desired version",
                ),
            ),
            (
                "v1.33.1",
                "v1.30.0",
                "v1.30.0",
                &["v1.30.0"],
                &[],
                Err(
                    "invalid ControlPlane upgrade plan: item 0; version v1.30.0 must be greater than v1.30.0",
                ),
            ),
            (
                "v1.33.1",
                "v1.30.0",
                "v1.30.0",
                &["v1.32.1"],
                &[],
                Err(
                    "invalid ControlPlane upgrade plan: item 0; expecting a version with minor 30 or 31, found version v1.32.1",
                ),
            ),
            (
                "v1.33.1",
                "v1.30.0",
                "v1.30.0",
                &["v1.31.1", "v1.32.0"],
                &[],
                Err(
                    "invalid ControlPlane upgrade plan: control plane upgrade plan must end with version v1.33.1, ends with v1.32.0 instead",
                ),
            ),
            (
                "v1.33.1",
                "v1.33.1",
                "v1.30.0",
                &["v1.33.1"],
                &[],
                Err(
                    "invalid ControlPlane upgrade plan: control plane is already at the desired version",
                ),
            ),
            (
                "v1.33.1",
                "v1.30.0",
                "v1.30.0",
                &["v1.31.1", "v1.32.0", "v1.33.1"],
                &["v1.32.2", "v1.33.1"],
                Err(
                    "invalid workers upgrade plan: versions v1.32.2 doesn't match any versions in the control plane upgrade plan nor the control plane version",
                ),
            ),
            (
                "v1.34.1",
                "v1.34.1",
                "v1.30.0",
                &[],
                &["v1.34.1"],
                Err(
                    "invalid workers upgrade plan, item 0; workers cannot go from minor 30 (v1.30.0) to minor 34 (v1.34.1), an intermediate step is required to comply with Kubernetes version skew rules",
                ),
            ),
            (
                "v1.33.1",
                "v1.33.1",
                "v1.30.0",
                &[],
                &["v1.32.1"],
                Err(
                    "invalid workers upgrade plan; workers upgrade plan must end with version v1.33.1, ends with v1.32.1 instead",
                ),
            ),
            // CP at desired, workers four minors behind: Cluster API finds no version for the
            // intermediate minor and (through a nil-wrapping bug) returns an empty plan.
            ("v1.34.1", "v1.34.1", "v1.30.0", &[], &[], Ok(&[])),
        ];
        for (desired, cp, min, cp_plan, given, want) in cases {
            let got = default_and_validate(desired, cp, min, &strings(cp_plan), strings(given));
            let want = want.map(strings).map_err(str::to_string);
            assert_eq!(
                got, want,
                "{cp} (workers {min}) → {desired}, cp plan {cp_plan:?}"
            );
        }
    }

    #[test]
    fn compute_cases() {
        let class = strings(&[
            "v1.30.4", "v1.31.2", "v1.32.0", "v1.32.3", "v1.33.1", "v1.34.1",
        ]);
        let w = |version| WorkerVersion {
            kind: "MachineDeployment",
            name: "c-md-0",
            version,
        };
        // (desired, cp, worker versions, class?, want cp plan, want workers plan, want min)
        type Case<'a> = (
            &'a str,
            &'a str,
            Vec<WorkerVersion<'a>>,
            bool,
            Result<(&'a [&'a str], &'a [&'a str], &'a str), &'a str>,
        );
        let cases: Vec<Case> = vec![
            (
                "v1.34.1",
                "v1.30.4",
                vec![w("v1.30.4")],
                true,
                Ok((
                    &["v1.31.2", "v1.32.3", "v1.33.1", "v1.34.1"],
                    &["v1.33.1", "v1.34.1"],
                    "v1.30.4",
                )),
            ),
            (
                "v1.31.0",
                "v1.31.0",
                vec![w("v1.31.0")],
                false,
                Ok((&[], &[], "v1.31.0")),
            ),
            ("v1.31.0", "v1.31.0", vec![], false, Ok((&[], &[], ""))),
            // Only workers lag: no CP plan, workers go straight to desired.
            (
                "v1.31.0",
                "v1.31.0",
                vec![w("v1.30.2")],
                false,
                Ok((&[], &["v1.31.0"], "v1.30.2")),
            ),
            // The lowest worker counts; empty versions are skipped.
            (
                "v1.31.0",
                "v1.30.2",
                vec![w("v1.30.2"), w(""), w("v1.29.5")],
                false,
                Ok((&["v1.31.0"], &["v1.31.0"], "v1.29.5")),
            ),
            (
                "v1.32.0",
                "v1.30.2",
                vec![w("v1.30.2")],
                false,
                Err("cannot compute an upgrade plan from v1.30.2 to v1.32.0"),
            ),
            (
                "v1.31.0",
                "v1.30.2",
                vec![w("bad")],
                false,
                Err(
                    "failed to parse version bad of MachineDeployment c-md-0: Invalid character(s) found in major number \"0bad\"",
                ),
            ),
            (
                "x",
                "v1.30.2",
                vec![],
                false,
                Err(
                    "failed to parse Cluster version x: Invalid character(s) found in major number \"x\"",
                ),
            ),
        ];
        for (desired, cp, workers, use_class, want) in cases {
            let source = if use_class {
                Source::ClassVersions(&class)
            } else {
                Source::OneMinor
            };
            let got = compute(desired, cp, &workers, &source);
            let want = want
                .map(|(c, w, m)| Plans {
                    control_plane: strings(c),
                    workers: strings(w),
                    min_workers_version: m.into(),
                })
                .map_err(str::to_string);
            assert_eq!(got, want, "{cp} → {desired}");
        }
    }

    #[test]
    fn unordered_build_tags_use_the_cp_to_pick_the_minimum() {
        let (Ok(a), Ok(b), Ok(cp)) = (
            parse_tolerant("v1.30.0+abc"),
            parse_tolerant("v1.30.0+def"),
            parse_tolerant("v1.30.0+def"),
        ) else {
            panic!("test versions must parse");
        };
        assert!(is_lower_than_min_version(&a, &b, &cp));
        assert!(!is_lower_than_min_version(&b, &a, &cp));
    }
}
