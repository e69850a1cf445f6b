/*!
Reading a large input in rounds, parsing only the documents some round asks for.

Owns [`load_scoped`]: the files are read (and substituted) once, cut into documents at their
markers ([`yaml::Pieces`]), and parsed round by round. Each round's test looks at the text of
every document not parsed yet and says which to parse; the next round's test is built from the
objects parsed so far. The rounds end when the caller has no further test, at an error, or
after [`MAX_ROUNDS`]. A management cluster's export (`--current`) is tens of thousands of objects of which a
change concerns a few: what decides which is a handful of kinds (its Clusters and classes), and
the rest is found by name. Deciding from the text what to parse is safe only under a test that
keeps every document it cannot rule out; the plan's scope (`plan::scope`) holds those tests.

The objects come out in input order (file, then document), whatever round parsed them, so
everything after the load reads exactly as if the skipped documents had not been there. What
is never parsed is never checked: a syntax error or a duplicate among documents no round asked
for is not reported (the run does not read them).
*/

use std::sync::Arc;

use rayon::prelude::*;

use super::yaml::{Document, Pieces};
use super::{FileOut, FileWork, Inputs, LoadOptions, Parsed, Read, read_sets};
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::SourceFile;

/// Most rounds one load runs: each round after the first follows references one step further,
/// and a topology's objects are never more than a few references from its Cluster.
pub const MAX_ROUNDS: usize = 8;

/// A test on a document's text: parse it in this round, or leave it for a later one.
pub type Test = Box<dyn Fn(&str) -> bool + Send + Sync>;

/// Load `opts` in rounds. `next(round, objects)` gives round `round`'s test from the objects
/// parsed in earlier rounds (in no particular order), or `None` to stop; `None` in round 0
/// parses nothing. Errors are those [`super::load`] reports for the documents parsed.
pub fn load_scoped(
    opts: &LoadOptions,
    mut next: impl FnMut(usize, &[super::Object]) -> Option<Test>,
) -> Result<Inputs, Diagnostics> {
    let Read {
        files,
        errors,
        warnings,
    } = read_sets(std::slice::from_ref(opts));
    let mut errors: Vec<Diagnostic> = errors.into_iter().flatten().collect();
    let mut warnings: Vec<Diagnostic> = warnings.into_iter().flatten().collect();

    let mut streams: Vec<Stream> = Vec::with_capacity(files.len());
    for (_, file) in files {
        match file {
            Ok(f) => streams.push(Stream::new(&f)),
            Err(e) => errors.push(e),
        }
    }

    // Objects parsed so far, each with its place in the input (stream, piece, order within).
    let mut objects: Vec<super::Object> = Vec::new();
    let mut places: Vec<(usize, usize, usize)> = Vec::new();
    let mut runtime_messages = Vec::new();
    let mut foreign: Vec<(String, usize)> = Vec::new();
    let scan = opts.warn_unsubstituted && opts.substitute.is_none();
    for round in 0..MAX_ROUNDS {
        let Some(test) = next(round, &objects) else {
            break;
        };
        let parsed: Vec<(usize, Vec<(usize, FileOut)>)> = streams
            .par_iter_mut()
            .enumerate()
            .map(|(s, stream)| {
                let found = stream.round(&*test).into_iter().map(|(piece, work)| {
                    let out =
                        super::file_objects(work, &opts.default_namespace, scan, opts.skip_foreign);
                    (piece, out)
                });
                (s, found.collect())
            })
            .collect();
        for (s, pieces) in parsed {
            for (piece, mut out) in pieces {
                if let Some(name) = out.foreign.0.take() {
                    foreign.push((name, out.foreign.1));
                }
                let n = out.objects.len();
                places.extend((0..n).map(|i| (s, piece, i)));
                objects.append(&mut out.objects);
                runtime_messages.append(&mut out.runtime_messages);
                errors.append(&mut out.errors);
                warnings.append(&mut out.warnings);
            }
        }
        if !errors.is_empty() {
            break;
        }
    }

    // Input order, whatever round read each object.
    let mut ordered: Vec<((usize, usize, usize), super::Object)> =
        places.into_iter().zip(objects).collect();
    ordered.sort_by_key(|(place, _)| *place);
    let objects: Vec<super::Object> = ordered.into_iter().map(|(_, o)| o).collect();

    super::finish(
        opts,
        Inputs {
            objects,
            runtime_messages,
            warnings,
        },
        errors,
        &foreign,
    )
}

/// One file's documents, parsed piece by piece.
struct Stream {
    file: Arc<SourceFile>,
    pieces: Pieces,
    /// Which pieces have been parsed (or, after a fallback, all of them).
    done: Vec<bool>,
}

impl Stream {
    fn new(file: &Arc<SourceFile>) -> Stream {
        let pieces = Pieces::new(file);
        let done = vec![false; pieces.len()];
        Stream {
            file: Arc::clone(file),
            pieces,
            done,
        }
    }

    /// Parse the pieces not parsed yet that `test` accepts; each piece's documents as one
    /// [`FileWork`]. A piece that fails on its own makes the whole stream parse in one pass
    /// (the error then is the one a single pass reports, or, should the pass succeed, every
    /// document not parsed yet is taken).
    fn round(&mut self, test: &(dyn Fn(&str) -> bool + Send + Sync)) -> Vec<(usize, FileWork)> {
        let mut out = Vec::new();
        for i in 0..self.pieces.len() {
            if self.done.get(i) != Some(&false) || !test(self.pieces.text(i)) {
                continue;
            }
            match self.pieces.parse(i) {
                Ok(docs) => {
                    if let Some(d) = self.done.get_mut(i) {
                        *d = true;
                    }
                    out.push((i, self.work(docs)));
                }
                Err(Some(limit)) => {
                    self.done.fill(true);
                    out.push((i, FileWork::Failed(limit)));
                    return out;
                }
                Err(None) => return self.whole(out),
            }
        }
        out
    }

    /// The fallback of [`Stream::round`]: the stream in one pass. The pieces parsed so far
    /// keep their documents; every other piece's documents are taken from the pass, each under
    /// its own piece, so input order holds.
    fn whole(&mut self, mut out: Vec<(usize, FileWork)>) -> Vec<(usize, FileWork)> {
        let before = std::mem::replace(&mut self.done, vec![true; self.pieces.len()]);
        let first_open = before.iter().position(|d| !d).unwrap_or(0);
        match self.pieces.parse_whole() {
            Err(e) => out.push((first_open, FileWork::Failed(e))),
            Ok(docs) => {
                let mut by_piece: std::collections::BTreeMap<usize, Vec<Document>> =
                    std::collections::BTreeMap::new();
                for d in docs {
                    let piece = self.pieces.piece_at(d.span.offset);
                    if before.get(piece) == Some(&false) {
                        by_piece.entry(piece).or_default().push(d);
                    }
                }
                for (piece, docs) in by_piece {
                    out.push((piece, self.work(docs)));
                }
            }
        }
        out
    }

    fn work(&self, docs: Vec<Document>) -> FileWork {
        let parsed: Vec<Parsed> = docs
            .into_iter()
            .map(|d| Parsed {
                value: d.value,
                spans: Arc::new(d.spans),
            })
            .collect();
        FileWork::Parsed(Arc::clone(&self.file), Arc::new(parsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{Object, load};

    fn cm(name: &str, extra: &str) -> String {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  ref: {extra}\n"
        )
    }

    fn setup(files: &[(&str, String)]) -> (tempfile::TempDir, LoadOptions) {
        let dir = tempfile::tempdir().expect("tempdir");
        for (f, text) in files {
            std::fs::write(dir.path().join(f), text).expect("write");
        }
        let opts = LoadOptions {
            paths: vec![dir.path().to_path_buf()],
            default_namespace: "default".into(),
            ..LoadOptions::default()
        };
        (dir, opts)
    }

    fn names(objects: &[Object]) -> Vec<&str> {
        objects.iter().map(|o| o.name.as_str()).collect()
    }

    #[test]
    fn rounds_follow_what_was_read_and_keep_input_order() {
        // a → c → e by `ref`; b and d are never asked for.
        let stream = [cm("a", "c"), cm("b", "x"), cm("c", "e"), cm("d", "x")].join("---\n");
        let (_dir, opts) = setup(&[("1.yaml", stream), ("2.yaml", cm("e", "x"))]);
        let mut rounds_seen = Vec::new();
        let loaded = load_scoped(&opts, |round, objects| {
            rounds_seen.push(names(objects).len());
            let wanted: Vec<String> = match round {
                0 => vec!["a".to_string()],
                _ => objects
                    .iter()
                    .filter_map(|o| o.value.pointer("/data/ref").and_then(|v| v.as_str()))
                    .map(str::to_string)
                    .collect(),
            };
            if round > 3 {
                return None;
            }
            Some(Box::new(move |text: &str| {
                wanted
                    .iter()
                    .any(|w| text.contains(&format!("name: {w}\n")))
            }))
        })
        .expect("loads");
        assert_eq!(names(&loaded.objects), ["a", "c", "e"]);
        assert_eq!(rounds_seen, [0, 1, 2, 3, 3]);
        // The same objects, spans and all, as a whole load reads.
        let whole = load(&opts).expect("loads");
        for o in &loaded.objects {
            let same = whole
                .objects
                .iter()
                .find(|w| w.name == o.name)
                .expect("in the whole load");
            assert_eq!(o.value, same.value);
            assert_eq!(
                o.origin.location("/data/ref"),
                same.origin.location("/data/ref")
            );
        }
    }

    #[test]
    fn a_document_never_asked_for_is_never_parsed() {
        let broken = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broken\ndata: [\n";
        let stream = [cm("a", "x"), broken.to_string()].join("---\n");
        let (_dir, opts) = setup(&[("1.yaml", stream)]);
        let only_a = |round: usize, _: &[Object]| -> Option<Test> {
            (round == 0).then(|| Box::new(|t: &str| t.contains("name: a\n")) as Test)
        };
        let loaded = load_scoped(&opts, only_a).expect("the broken document is not read");
        assert_eq!(names(&loaded.objects), ["a"]);
        // Asked for, it is reported where a whole load reports it.
        let all = |round: usize, _: &[Object]| -> Option<Test> {
            (round == 0).then(|| Box::new(|_: &str| true) as Test)
        };
        let err = load_scoped(&opts, all).expect_err("broken");
        let whole = load(&opts).expect_err("broken");
        assert_eq!(format!("{err:?}"), format!("{whole:?}"));
    }

    #[test]
    fn rounds_are_bounded() {
        let (_dir, opts) = setup(&[("1.yaml", cm("a", "x"))]);
        let mut calls = 0;
        let _ = load_scoped(&opts, |_, _| {
            calls += 1;
            Some(Box::new(|_: &str| false))
        });
        assert_eq!(calls, MAX_ROUNDS);
    }
}
