/*!
How many threads a run uses: all the cores for a real input, the calling thread alone for the
stages of a small one.

Owns the choice, made once per process before any stage runs. A plan of one Cluster does about
3 ms of work; starting rayon's workers, each with its own allocator heap on fresh (zeroed) pages,
and handing every parallel stage to them cost more CPU than the stages themselves and added
about a millisecond to the run. Below [`SMALL_INPUT_BYTES`] of input files, rayon's global pool
is the calling thread alone: reading, admission and the other parallel stages run in place, in
the same order of work. `RAYON_NUM_THREADS`, rayon's own setting, overrides the choice.

Planning the Clusters is not one of those stages: it has threads of its own
([`super::ordered`]), one per core ([`cores`]) whatever the input's size, and none for a single
Cluster. A thread that is not rayon's and calls into a pool whose one thread is waiting for it
would wait forever; [`super::ordered`] therefore runs the pool's work while it waits.

The size is what the files weigh, counted by a walk bounded by [`MAX_ENTRIES`] (a larger input
is not small, whatever its bytes). Inputs of unknown size (standard input, a git revision, a
live cluster, `--provider-repo`) are never small. Output does not depend on the choice: every
stage gives the same result on one thread as on many (results are collected in input order).
*/

use std::path::Path;

use crate::load::LoadOptions;

/// Input files up to this many bytes in all are planned on the calling thread alone: a Cluster
/// with its class and templates (5 to 20 KB), or a few. Measured on two cores: one Cluster ran
/// 30 % faster on one thread, 10 Clusters (22 KB) as fast, 60 Clusters (68 KB) 6 % slower.
pub const SMALL_INPUT_BYTES: u64 = 32 * 1024;

/// A walk that meets more files and directories than this stops: the input is not small.
pub const MAX_ENTRIES: usize = 256;

/// Whether `sets` (a run's file inputs; `None`: a set not given) are small:
/// [`SMALL_INPUT_BYTES`] or less, in at most [`MAX_ENTRIES`] files and directories, all of them
/// local files read now. `repository`: a `--provider-repo` is read too, which is never small.
pub fn is_small(sets: &[Option<&LoadOptions>], repository: bool) -> bool {
    let mut left = Left {
        bytes: SMALL_INPUT_BYTES,
        entries: MAX_ENTRIES,
    };
    !repository
        && sets.iter().flatten().all(|set| {
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

/// How many threads rayon's pool has by default: `RAYON_NUM_THREADS` when set to a number
/// above 0, else the cores available. Planning Clusters ([`super::ordered`]) uses this many
/// whatever the pool is: a Cluster is worth a thread's start, and one Cluster starts none.
pub fn cores() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Make rayon's global pool the calling thread alone when `small`; otherwise leave rayon's
/// default (a worker per core). `RAYON_NUM_THREADS` in the environment wins: whoever set it
/// chose the threads. Once per process: a pool already built stays as it is.
pub fn configure(small: bool) {
    if small && std::env::var_os("RAYON_NUM_THREADS").is_none() {
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
        assert!(is_small(&[Some(&set(&[&d.join("a.yaml")]))], false));
        assert!(is_small(
            &[Some(&set(&[&d.join("a.yaml"), &d.join("b.yaml")]))],
            false
        ));
        assert!(!is_small(&[Some(&set(&[&d]))], false));
        assert!(!is_small(
            &[
                Some(&set(&[&d.join("a.yaml"), &d.join("b.yaml")])),
                None,
                Some(&set(&[&d.join("c.yaml")]))
            ],
            false
        ));
        assert!(!is_small(&[Some(&set(&[&d.join("c.yaml")]))], true));
        // What cannot be read weighs nothing: the loader reports it.
        assert!(is_small(&[Some(&set(&[&d.join("missing.yaml")]))], false));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn many_entries_or_unknown_sizes_are_not_small() {
        let d = scratch("entries");
        for i in 0..MAX_ENTRIES {
            std::fs::write(d.join(format!("{i}.yaml")), b"").unwrap();
        }
        assert!(!is_small(&[Some(&set(&[&d]))], false));
        assert!(!is_small(&[Some(&set(&[Path::new("-")]))], false));
        let mut rev = set(&[]);
        rev.git_rev = Some("HEAD".into());
        assert!(!is_small(&[Some(&rev)], false));
        let mut live = set(&[]);
        live.live = Some(Default::default());
        assert!(!is_small(&[Some(&live)], false));
        assert!(is_small(&[Some(&set(&[]))], false));
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
