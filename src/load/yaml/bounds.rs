/*!
What both readers of YAML ([`super::compose`] with spans, [`super::fast`] without) keep to: the
node bounds of one document and of the run, and the checks of the text itself that YAML 1.1 (as
Kubernetes reads it) makes where granit's YAML 1.2 does not. Plain answers here; each reader words
its errors (the fast reader has none: it leaves the input to the other).
*/

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most nodes (scalars, aliases, collections) one document may have. Every node costs a few
/// hundred bytes by the time it is a value with a span, so this keeps one document near 300 MB
/// whatever its form: a block sequence and a one-line flow sequence stop at the same count, while
/// they are read. etcd stores objects of at most 1.5 MiB, well under this.
pub const MAX_DOCUMENT_NODES: usize = 1_000_000;

/// The most nodes all documents of a run may have together, unless `--max-yaml-nodes` says
/// otherwise: the per-document bound alone let twenty one-million-item documents (40 MB, within
/// the byte budget) take 2 GB. A 10,000-Cluster fleet in one file has under a million nodes.
pub const DEFAULT_RUN_NODES: u64 = 4_000_000;

/// Nodes are charged to the run in batches of this many (and at each document's end), so the
/// shared counter is touched rarely.
pub(super) const RUN_BATCH: usize = 4096;

struct RunNodes {
    limit: u64,
    used: AtomicU64,
}

/// Process-wide: one process is one run, and its files are read on rayon workers. Set once by
/// the CLI; without it there is no run-wide bound (the per-document one stays).
static RUN_NODES: OnceLock<RunNodes> = OnceLock::new();

/// Bound the YAML nodes of this process's run. The first call wins; false if already set.
pub fn limit_run(limit: u64) -> bool {
    RUN_NODES
        .set(RunNodes {
            limit,
            used: AtomicU64::new(0),
        })
        .is_ok()
}

/// Charge `n` more nodes to the run; `Err(limit)` once the run's total passes its bound.
pub(super) fn charge(n: usize) -> Result<(), u64> {
    let Some(run) = RUN_NODES.get() else {
        return Ok(());
    };
    let n = n as u64;
    let used = run.used.fetch_add(n, Ordering::Relaxed).saturating_add(n);
    if used <= run.limit {
        Ok(())
    } else {
        Err(run.limit)
    }
}

/// Charge `n` nodes to the run only if they fit its bound; whether they did (nothing is charged
/// when they do not, so that a reader falling back to the other fails where it alone would).
pub(super) fn try_charge(n: usize) -> bool {
    let Some(run) = RUN_NODES.get() else {
        return true;
    };
    let n = n as u64;
    run.used
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
            used.checked_add(n).filter(|&u| u <= run.limit)
        })
        .is_ok()
}

/// Whether the text ends in a line with content but no line break.
pub(super) fn ends_in_unterminated_line(text: &str) -> bool {
    if text.ends_with(['\n', '\r']) {
        return false;
    }
    let last = text
        .rfind('\n')
        .map_or(text, |i| text.get(i + 1..).unwrap_or(""));
    last.chars().any(|c| !matches!(c, ' ' | '\t'))
}

/// The first of NEL, LS and PS in `region` and its byte offset: YAML 1.1 (libyaml, yaml.v2) reads
/// them as line breaks, granit (YAML 1.2) as ordinary characters.
pub(super) fn yaml11_line_break(region: &str) -> Option<(usize, char)> {
    // Each of them starts with byte C2 or E2 in UTF-8: only there is a character decoded.
    memchr::memchr2_iter(0xC2, 0xE2, region.as_bytes()).find_map(|i| {
        region
            .get(i..)
            .and_then(|r| r.chars().next())
            .filter(|c| matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}'))
            .map(|c| (i, c))
    })
}

/// The byte offset of a `\/` escape in the raw text of a double-quoted scalar: YAML 1.1 has no
/// such escape (JSON and YAML 1.2 do), and yaml.v2 rejects it.
pub(super) fn slash_escape(raw: &str) -> Option<usize> {
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            continue;
        }
        if let Some((_, '/')) = chars.next() {
            return Some(i);
        }
    }
    None
}
