/*!
How many threads a run uses: all the cores for a real input, the calling thread alone for a
small one.

Owns the choice, made once per process before any stage runs. A plan of one Cluster does about
3 ms of work; starting rayon's workers, each with its own allocator heap on fresh (zeroed) pages,
and handing every parallel stage to them cost more CPU than the stages themselves and added
about a millisecond to the run. Below [`SMALL_INPUT_BYTES`] of input files, rayon's global pool
is the calling thread alone: every parallel stage runs in place, in the same order of work.

The size is what the files weigh, counted by a walk bounded by [`MAX_ENTRIES`] (a larger input is
not small, whatever its bytes). Inputs of unknown size (standard input, a git revision, a live
cluster, `--provider-repo`) are never small. Output does not depend on the choice: every stage
gives the same result on one thread as on many (their results are collected in input order).

A thread that is not rayon's and calls into the pool while the caller waits on it would wait
forever, as the pool's one thread is busy waiting; [`super::ordered`], which starts such threads
(for extensions' concurrent calls), runs their rayon work on the waiting caller.
*/

use std::path::Path;

use super::validate::ValidateOptions;
use crate::load::LoadOptions;
use crate::plan::PlanOptions;
use crate::plan::review::ReviewOptions;

/// Input files up to this many bytes in all are planned on the calling thread alone: a few
/// milliseconds of work, of which a second core would save less than its start costs.
pub const SMALL_INPUT_BYTES: u64 = 128 * 1024;

/// A walk that meets more files and directories than this stops: the input is not small.
pub const MAX_ENTRIES: usize = 256;

/// Whether `sets` (a run's file inputs) are small: [`SMALL_INPUT_BYTES`] or less, in at most
/// [`MAX_ENTRIES`] files and directories, all of them local files read now.
pub fn is_small(sets: &[&LoadOptions]) -> bool {
    let mut left = Left {
        bytes: SMALL_INPUT_BYTES,
        entries: MAX_ENTRIES,
    };
    sets.iter().all(|set| {
        set.git_rev.is_none()
            && set.live.is_none()
            && set
                .paths
                .iter()
                .all(|p| p.as_os_str() != "-" && left.take(p))
    })
}

/// What a small input may still hold.
struct Left {
    bytes: u64,
    entries: usize,
}

impl Left {
    /// Count `path` (a file, or a directory and everything below it, links followed); `false`
    /// once the input is not small. Each call takes an entry, so a walk ends whatever links it
    /// meets.
    fn take(&mut self, path: &Path) -> bool {
        let Some(entries) = self.entries.checked_sub(1) else {
            return false;
        };
        self.entries = entries;
        // What cannot be read is the loader's to report; it weighs nothing here.
        let Ok(meta) = std::fs::metadata(path) else {
            return true;
        };
        if meta.is_dir() {
            let Ok(dir) = std::fs::read_dir(path) else {
                return true;
            };
            return dir.flatten().all(|e| self.take(&e.path()));
        }
        match self.bytes.checked_sub(meta.len()) {
            Some(b) => {
                self.bytes = b;
                true
            }
            None => false,
        }
    }
}

/// Whether `plan`'s inputs are small: its input, `--current` and `--crds` files together
/// ([`is_small`]), and no `--provider-repo`.
pub fn plan_is_small(o: &PlanOptions) -> bool {
    o.providers.is_none() && is_small(&sets(&[Some(&o.load), o.current.as_ref(), o.crds.as_ref()]))
}

/// Whether `diff`'s inputs are small: both sides and what `plan_is_small` counts.
pub fn review_is_small(o: &ReviewOptions) -> bool {
    let p = &o.plan;
    p.providers.is_none()
        && is_small(&sets(&[
            Some(&o.old),
            Some(&p.load),
            p.current.as_ref(),
            p.crds.as_ref(),
        ]))
}

/// Whether `validate`'s inputs are small, as [`plan_is_small`] counts them.
pub fn validate_is_small(o: &ValidateOptions) -> bool {
    o.providers.is_none() && is_small(&sets(&[Some(&o.load), o.current.as_ref(), o.crds.as_ref()]))
}

fn sets<'a>(given: &[Option<&'a LoadOptions>]) -> Vec<&'a LoadOptions> {
    given.iter().flatten().copied().collect()
}

/// Make rayon's global pool the calling thread alone when `small`; otherwise leave rayon's
/// default (a worker per core). Once per process: a pool already built stays as it is.
pub fn configure(small: bool) {
    if small {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build_global();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn set(paths: &[&Path]) -> LoadOptions {
        LoadOptions {
            paths: paths.iter().map(|p| p.to_path_buf()).collect(),
            ..LoadOptions::default()
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("topoplan-threads-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn bytes_decide_and_every_set_counts() {
        let d = scratch("bytes");
        let half = vec![b'a'; (SMALL_INPUT_BYTES / 2) as usize];
        std::fs::write(d.join("a.yaml"), &half).unwrap();
        std::fs::write(d.join("b.yaml"), &half).unwrap();
        std::fs::write(d.join("c.yaml"), b"x").unwrap();
        assert!(is_small(&[&set(&[&d.join("a.yaml")])]));
        assert!(is_small(&[&set(&[&d.join("a.yaml"), &d.join("b.yaml")])]));
        assert!(!is_small(&[&set(&[&d])]));
        assert!(!is_small(&[
            &set(&[&d.join("a.yaml"), &d.join("b.yaml")]),
            &set(&[&d.join("c.yaml")])
        ]));
        // What cannot be read weighs nothing: the loader reports it.
        assert!(is_small(&[&set(&[&d.join("missing.yaml")])]));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn many_entries_or_unknown_sizes_are_not_small() {
        let d = scratch("entries");
        for i in 0..MAX_ENTRIES {
            std::fs::write(d.join(format!("{i}.yaml")), b"").unwrap();
        }
        assert!(!is_small(&[&set(&[&d])]));
        assert!(!is_small(&[&set(&[Path::new("-")])]));
        let mut rev = set(&[]);
        rev.git_rev = Some("HEAD".into());
        assert!(!is_small(&[&rev]));
        let mut live = set(&[]);
        live.live = Some(Default::default());
        assert!(!is_small(&[&live]));
        assert!(is_small(&[&set(&[])]));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_cycle_ends_the_walk() {
        let d = scratch("cycle");
        std::fs::write(d.join("a.yaml"), vec![b'a'; 1024]).unwrap();
        std::os::unix::fs::symlink(&d, d.join("again")).unwrap();
        // Each round counts `a.yaml` again, until the entries run out (or the system refuses
        // a path of too many links, which then weighs nothing): the walk ends either way.
        let mut left = Left {
            bytes: u64::MAX,
            entries: MAX_ENTRIES,
        };
        let _ = left.take(&d);
        assert!(left.entries < MAX_ENTRIES - 20, "{}", left.entries);
        let _ = std::fs::remove_dir_all(&d);
    }
}
