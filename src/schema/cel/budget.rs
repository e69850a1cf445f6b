/*!
The CEL cost of a whole run: every rule evaluated, in every schema (variable schemas, provider
CRDs, Cluster API's own), for every Cluster and generated object, counted together.

Kubernetes bounds one call (`PerCallLimit`) and one object's validation
(`RuntimeCELCostBudget`), and topoplan applies both as the API server does; but an API server
validates one object per request, while a run validates a fleet, so rules that each stay within
Kubernetes' limits could still keep a run busy for minutes. This budget is topoplan's own, set
once per process by the CLI (`--max-cel-cost`). Only evaluations count: a value the per-thread
memory ([`super::memo`]) already saw pass costs nothing, as it does no work. Library users and
unit tests that never set it have no run-wide limit.
*/

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default run-wide budget, in Kubernetes cost units. Measured on a debug build of the
/// evaluator, 10⁶ units of list comprehension take about 50 ms; 2 × 10⁹ is at most a couple of
/// minutes of one core in the worst case and far less in practice, where planning 1,000 Clusters
/// of the bundled examples spends a few million.
pub const DEFAULT_RUN_COST: u64 = 2_000_000_000;

struct Run {
    limit: u64,
    spent: AtomicU64,
}

/// Process-wide: one process is one run, and CEL is evaluated deep inside admission on rayon
/// workers, where a handle would have to pass through every schema walk.
static RUN: OnceLock<Run> = OnceLock::new();

/// Limit the CEL cost of this process's run. The first call wins; false if already set.
pub fn limit_run(limit: u64) -> bool {
    RUN.set(Run {
        limit,
        spent: AtomicU64::new(0),
    })
    .is_ok()
}

/// Charge `cost` units of an evaluation about to run; the message when the run's budget
/// cannot pay for it (the evaluation must not run then).
pub(super) fn charge(cost: u64) -> Result<(), String> {
    let Some(run) = RUN.get() else {
        return Ok(());
    };
    run.spent
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
            spent.checked_add(cost).filter(|t| *t <= run.limit)
        })
        .map(|_| ())
        .map_err(|_| {
            format!(
                "validation failed: the CEL rules of this run have used up their cost budget of {} \
                 (--max-cel-cost), no further validation rules will be run",
                run.limit
            )
        })
}
