/*!
Loading: turns `-f` arguments into objects that remember where they came from.

Owns reading files, directories (recursive, sorted; see [`walk`] for the rules a walk keeps) and
stdin, under the run's byte budget ([`limit`]); optional clusterctl-style
variable substitution; YAML/JSON parsing with spans; flattening of `kind: List`; namespace
defaulting; and duplicate detection. It knows nothing about Cluster API semantics beyond
"every object needs apiVersion, kind and metadata.name".
*/

pub mod envfile;
pub mod envsubst;
pub mod git;
pub mod glob;
pub mod limit;
pub mod object;
pub mod scoped;
pub mod unsubstituted;
pub mod variable_values;
pub mod walk;
pub mod yaml;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{Origin, SourceFile, SpanTable};
use limit::{InputLimit, ReadError};
pub use object::Object;
pub use variable_values::VariableValues;
use walk::{Bound, Walk};

/// How to read the inputs; resolved from the command line by `cli`.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Files, directories or `-` (stdin), in the order given.
    pub paths: Vec<PathBuf>,
    /// Namespace for objects that have none.
    pub default_namespace: String,
    /// Variable values for `${VAR}` substitution; `None` disables substitution.
    pub substitute: Option<VariableValues>,
    /// Read `paths` as they are in this git revision (of the repository that holds each path)
    /// instead of from the working tree; see [`git`].
    pub git_rev: Option<String>,
    /// These paths are the working tree side of `--base-ref REV`: each path, and every link a
    /// walk meets, must stay inside the git repository holding the path (a pull request decides
    /// what is a link there), not only inside the directory given.
    pub working_tree_of: Option<String>,
    /// Directories a walk never enters (e.g. the output directory of the run), whatever path
    /// spells them; a directory that does not exist excludes nothing.
    pub exclude: Vec<PathBuf>,
    /// Directories written by `plan --output-dir` among `paths`: their `deleted` directories
    /// are never entered (what goes away is not part of the state after the plan).
    pub plan_outputs: Vec<PathBuf>,
    /// The byte budget every input of the run draws on (`--max-input-bytes`); clones share it.
    pub input_limit: InputLimit,
    /// (group, kind) of objects that may be defined once per file rather than once per input:
    /// alternative flavors of one object, planned side by side. Which kinds those are is the
    /// caller's business (for `plan`, Cluster API's Clusters: [`crate::plan::flavors`]).
    pub per_file: Vec<(String, String)>,
    /// Warn about `${VAR}` left in values (the input is read without substitution, and is not
    /// stored state, which may hold them legitimately).
    pub warn_unsubstituted: bool,
    /// Build each document's span table only when a diagnostic first asks for a location in it
    /// (see [`crate::source::SpanTable::on_demand`]): for large inputs read for reference, such as
    /// `--crds`, whose nodes are rarely reported.
    pub spans_on_demand: bool,
    /// Parse only the documents this accepts (by their text: one document's, or a whole
    /// stream's where it cannot be cut at its document markers, such as a file of one
    /// document); the rest are never parsed, so their syntax errors go unseen. For
    /// reference inputs read for a few documents among many (`--crds`). Applies only with
    /// `spans_on_demand`, and to a text read once (a text two inputs share is parsed whole),
    /// except that a file of a walked directory it keeps nothing of is dropped as it is read
    /// (see `read_listed`) whatever other inputs hold.
    pub keep_document: Option<KeepDocument>,
    /// Documents this accepts by their text are composed (syntax checked, located, counted
    /// against the run's node budget) but never become objects: for documents a command never
    /// reads (`plan`'s, [`crate::plan::unread`]). Ignored with `spans_on_demand`, and for a
    /// text two inputs share (it is parsed whole).
    pub pass_over: Option<KeepDocument>,
    /// With `keep_document`, on the same texts: values of the kept documents no reader looks
    /// at, left out where the span-free reader can ([`yaml::fast::SkipValue`]; a reader must
    /// not rely on them being left out).
    pub skip_value: Option<yaml::fast::SkipValue>,
    /// `default_namespace` came from `-n`: an object whose own namespace differs is refused
    /// (kubectl's rule), except for kinds without a namespace.
    pub namespace_from_flag: bool,
    /// Files a directory walk leaves out (`--exclude GLOB`), matched below the directory given.
    pub exclude_globs: Vec<glob::Glob>,
    /// Pass over documents that have neither `apiVersion` nor `kind` (`kustomization.yaml`,
    /// `mkdocs.yml` in a repository read whole), with one warning counting them, instead of
    /// failing on them.
    pub skip_foreign: bool,
    /// The set's objects are also read from a live management cluster (`--live`,
    /// `--kubeconfig`, `--context`; `crate::live` reads it, once the change is known).
    pub live: Option<LiveRequest>,
}

/// Where and how to read a live management cluster, resolved from the command line: the set's
/// files win over its objects (the reader is `crate::live`, which needs the plan's scope).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LiveRequest {
    /// `--kubeconfig`; `None`: `KUBECONFIG`, then `~/.kube/config`, as kubectl.
    pub kubeconfig: Option<PathBuf>,
    /// `--context`; `None`: the kubeconfig's current context.
    pub context: Option<String>,
    /// `--request-timeout`: the deadline of one request; `None`: no deadline of its own.
    pub request_timeout: Option<std::time::Duration>,
    /// `--live-deadline`: the deadline of the whole read.
    pub deadline: std::time::Duration,
    /// `--save-current`: write what was read there, as files `--current` reads back.
    pub save: Option<PathBuf>,
}

/// A test on a document's text: parse it, or pass over it ([`LoadOptions::keep_document`]).
#[derive(Clone)]
pub struct KeepDocument(pub Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl std::fmt::Debug for KeepDocument {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeepDocument(..)")
    }
}

/// Every object of the input, in input order (files sorted within each directory).
#[derive(Debug, Default)]
pub struct Inputs {
    /// The objects.
    pub objects: Vec<Object>,
    /// Runtime SDK messages (`hooks.runtime.cluster.x-k8s.io`, e.g. a recorded
    /// DiscoverVariablesResponse): wire documents, not stored objects, so they have no name.
    pub runtime_messages: Vec<(serde_json::Value, Origin)>,
    /// Problems that did not stop the load (special files skipped in a walk).
    pub warnings: Vec<Diagnostic>,
}

/// API group of Runtime SDK hook requests and responses.
pub const RUNTIME_HOOKS_GROUP: &str = "hooks.runtime.cluster.x-k8s.io";

/// Read and parse every input. All problems found are returned together.
pub fn load(opts: &LoadOptions) -> Result<Inputs, Diagnostics> {
    load_many(std::slice::from_ref(opts))
        .pop()
        .unwrap_or_else(|| {
            Err(Diagnostic::error(Code::Internal, "internal error: no input was loaded").into())
        })
}

/// The files of every set with their text, substituted (steps 1 and 2 of [`load_many`]), and
/// each set's errors and warnings so far.
struct Read {
    files: Vec<(usize, Result<Arc<SourceFile>, Diagnostic>)>,
    errors: Vec<Vec<Diagnostic>>,
    warnings: Vec<Vec<Diagnostic>>,
}

fn read_sets(sets: &[LoadOptions]) -> Read {
    // 1. Which files, with their text: a directory walk or a git tree per set.
    let mut errors: Vec<Vec<Diagnostic>> = Vec::with_capacity(sets.len());
    let mut warnings: Vec<Vec<Diagnostic>> = Vec::with_capacity(sets.len());
    let mut read: Vec<(usize, String, String)> = Vec::new();
    for (set, opts) in sets.iter().enumerate() {
        let mut found = Collected::default();
        match &opts.git_rev {
            Some(rev) => {
                found.files = git::collect(rev, &opts.paths, &opts.input_limit, &mut found.errors);
            }
            None => {
                for path in &opts.paths {
                    if let Err(e) = collect_files(path, opts, &mut found) {
                        found.errors.push(e);
                    }
                }
            }
        }
        read.extend(
            found
                .files
                .into_iter()
                .map(|(name, text)| (set, name, text)),
        );
        errors.push(found.errors);
        warnings.push(found.warnings);
    }

    // 2. Substitution, per file and in parallel. What substitution adds is input too: no file
    //    may grow past the run's input budget, and the growth of all files together is charged
    //    to it. Files are charged as they finish, which bounds memory; which file is blamed is
    //    then settled in input order, so the error does not depend on thread scheduling.
    let used_before: Vec<u64> = sets.iter().map(|o| o.input_limit.used()).collect();
    let substituted: Vec<(usize, String, u64, Substituted)> = read
        .into_par_iter()
        .map(|(set, name, text)| {
            let Some(opts) = sets.get(set).filter(|o| o.substitute.is_some()) else {
                return (
                    set,
                    name.clone(),
                    0,
                    Substituted::Ok(SourceFile::new(name, text)),
                );
            };
            let vars = opts.substitute.as_ref();
            let lookup = |k: &str| vars.and_then(|v| v.get(k));
            let max = usize::try_from(opts.input_limit.max()).unwrap_or(usize::MAX);
            match envsubst::substitute_with_limit(&text, &lookup, max) {
                Ok(t) => {
                    let grown = t.len().saturating_sub(text.len()) as u64;
                    let file = match opts.input_limit.charge(grown, &name) {
                        Ok(()) => Substituted::Ok(SourceFile::new(name.clone(), t)),
                        Err(_) => Substituted::Unpaid,
                    };
                    (set, name, grown, file)
                }
                Err(e) => {
                    let d = envsubst::to_diagnostic(e, &SourceFile::new(name, text));
                    (set, String::new(), 0, Substituted::Failed(d))
                }
            }
        })
        .collect();
    let mut total = used_before.clone();
    let overflowed: Vec<bool> = sets
        .iter()
        .enumerate()
        .map(|(set, opts)| {
            let grown: u64 = substituted
                .iter()
                .filter(|(s, ..)| *s == set)
                .map(|(_, _, g, _)| *g)
                .sum();
            total.get(set).copied().unwrap_or(0).saturating_add(grown) > opts.input_limit.max()
        })
        .collect();
    let mut blamed = vec![false; sets.len()];
    let substituted: Vec<(usize, Result<Arc<SourceFile>, Diagnostic>)> = substituted
        .into_iter()
        .map(|(set, name, grown, file)| {
            let (Some(opts), Some(t)) = (sets.get(set), total.get_mut(set)) else {
                return (
                    set,
                    Err(Diagnostic::error(
                        Code::Internal,
                        "internal error: an unknown input set",
                    )),
                );
            };
            *t = t.saturating_add(grown);
            // Only growth is blamed here: a set whose reading alone overran (parallel reads
            // may together pass the cap) has its error from the reading, naming its file.
            let read_fit = used_before
                .get(set)
                .is_some_and(|&u| u <= opts.input_limit.max());
            let over = read_fit && *t > opts.input_limit.max();
            let file = match file {
                _ if over && blamed.get(set) == Some(&false) => {
                    if let Some(b) = blamed.get_mut(set) {
                        *b = true;
                    }
                    Err(opts.input_limit.too_large(&name))
                }
                Substituted::Ok(f) => Ok(f),
                Substituted::Failed(d) => Err(d),
                // Charged after the budget ran out, in whatever order the threads finished:
                // the set fails for the file blamed above, so this one is passed over as empty.
                Substituted::Unpaid if overflowed.get(set) == Some(&true) => {
                    Ok(SourceFile::new(name, String::new()))
                }
                Substituted::Unpaid => Err(opts.input_limit.too_large(&name)),
            };
            (set, file)
        })
        .collect();
    Read {
        files: substituted,
        errors,
        warnings,
    }
}

/// Load several input sets at once (`diff`: the old and the new inputs), one result per set
/// in the same order, each exactly what [`load`] returns for it.
///
/// Sets usually share most files. A text that occurs in several sets (after substitution) is
/// parsed once: each set gets its own copy of the values (objects own their JSON, which later
/// stages default in place), shares the span tables, and keeps its own file names, so every
/// diagnostic names the file of its own set.
pub fn load_many(sets: &[LoadOptions]) -> Vec<Result<Inputs, Diagnostics>> {
    let Read {
        files: substituted,
        errors,
        warnings,
    } = read_sets(sets);

    // 3. Each distinct text once, in parallel (large streams are split further by the parser).
    let Texts {
        unique,
        mut uses,
        on_demand,
        keep,
        pass_over,
        slot_of,
    } = distinct_texts(sets, &substituted);
    let mut parsed = parse_texts(&unique, &on_demand, &keep, &pass_over);

    // 4. Hand each file its documents (the last file with a text takes them), then turn
    //    documents into objects, per file in parallel, in input order.
    let mut work: Vec<Vec<FileWork>> = sets.iter().map(|_| Vec::new()).collect();
    for ((set, file), slot) in substituted.into_iter().zip(slot_of) {
        let item = match (file, slot) {
            (Err(e), _) => FileWork::Failed(e),
            (Ok(file), None) => FileWork::Failed(Diagnostic::error(
                Code::Internal,
                format!("internal error: {} was read but not parsed", file.name),
            )),
            (Ok(file), Some(i)) => documents_of(file, i, &unique, &mut uses, &mut parsed),
        };
        if let Some(w) = work.get_mut(set) {
            w.push(item);
        }
    }
    drop(unique);

    sets.iter()
        .zip(work)
        .zip(errors.into_iter().zip(warnings))
        .map(|((opts, work), (errors, warnings))| set_inputs(opts, work, errors, warnings))
        .collect()
}

/// The distinct texts of the sets' files, each with what parsing it needs; every column is
/// indexed by the text's slot.
struct Texts<'s> {
    unique: Vec<Arc<SourceFile>>,
    /// How many files have the text.
    uses: Vec<usize>,
    /// A text's span tables are left to build on demand only when every set reading it says
    /// so.
    on_demand: Vec<bool>,
    /// The document filter of the one set reading a text (none once a second set reads it).
    keep: Vec<Option<(&'s KeepDocument, Option<&'s yaml::fast::SkipValue>)>>,
    /// The pass-over test of the one set reading a text, likewise.
    pass_over: Vec<Option<&'s KeepDocument>>,
    /// Each file's slot (none for a file that failed to read).
    slot_of: Vec<Option<usize>>,
}

/// Find the texts the files of `sets` share (`substituted`: each file's set and text).
fn distinct_texts<'s>(
    sets: &'s [LoadOptions],
    substituted: &[(usize, Result<Arc<SourceFile>, Diagnostic>)],
) -> Texts<'s> {
    let mut t = Texts {
        unique: Vec::new(),
        uses: Vec::new(),
        on_demand: Vec::new(),
        keep: Vec::new(),
        pass_over: Vec::new(),
        slot_of: Vec::with_capacity(substituted.len()),
    };
    let mut index: HashMap<TextKey<'_>, usize> = HashMap::new();
    for (set, file) in substituted {
        let lazy = sets.get(*set).is_some_and(|o| o.spans_on_demand);
        let slot = file.as_ref().ok().map(|f| {
            let i = *index.entry(TextKey(f.text.as_str())).or_insert_with(|| {
                t.unique.push(Arc::clone(f));
                t.uses.push(0);
                t.on_demand.push(true);
                t.keep
                    .push(sets.get(*set).and_then(|o| {
                        o.keep_document.as_ref().map(|k| (k, o.skip_value.as_ref()))
                    }));
                t.pass_over
                    .push(sets.get(*set).and_then(|o| o.pass_over.as_ref()));
                t.unique.len() - 1
            });
            if let Some(n) = t.uses.get_mut(i) {
                *n += 1;
            }
            if let Some(l) = t.on_demand.get_mut(i) {
                *l &= lazy;
            }
            if t.uses.get(i).is_some_and(|&n| n > 1) {
                if let Some(k) = t.keep.get_mut(i) {
                    *k = None;
                }
                if let Some(p) = t.pass_over.get_mut(i) {
                    *p = None;
                }
            }
            i
        });
        t.slot_of.push(slot);
    }
    t
}

/// Parse each distinct text, in parallel, the way its readers asked for.
fn parse_texts(
    unique: &[Arc<SourceFile>],
    on_demand: &[bool],
    keep: &[Option<(&KeepDocument, Option<&yaml::fast::SkipValue>)>],
    pass_over: &[Option<&KeepDocument>],
) -> Vec<Option<ParseResult>> {
    unique
        .par_iter()
        .zip(on_demand.par_iter())
        .zip(keep.par_iter())
        .zip(pass_over.par_iter())
        .map(|(((f, &lazy), keep), pass_over)| {
            let docs = match (lazy, keep, pass_over) {
                (true, Some((k, skip)), _) => yaml::parse_stream_kept(f, &*k.0, *skip),
                (true, None, _) => yaml::parse_stream_spans_on_demand(f),
                (false, _, Some(p)) => yaml::parse_stream_passing_over(f, &*p.0),
                (false, _, None) => yaml::parse_stream(f),
            };
            Some(docs.map(|docs| {
                Arc::new(
                    docs.into_iter()
                        .map(|d| Parsed {
                            value: d.value,
                            spans: Arc::new(d.spans),
                        })
                        .collect(),
                )
            }))
        })
        .collect()
}

/// The documents of `file`, whose text is in slot `i`: the last file with the text takes
/// the parse result, the others share a copy.
fn documents_of(
    file: Arc<SourceFile>,
    i: usize,
    unique: &[Arc<SourceFile>],
    uses: &mut [usize],
    parsed: &mut [Option<ParseResult>],
) -> FileWork {
    let last = uses.get_mut(i).is_none_or(|n| {
        *n = n.saturating_sub(1);
        *n == 0
    });
    let result = match parsed.get_mut(i) {
        Some(entry) if last => entry.take(),
        Some(Some(r)) => Some(r.clone()),
        _ => None,
    };
    let parsed_as = unique.get(i).map(|u| u.name.as_str());
    match result {
        Some(Ok(docs)) => FileWork::Parsed(file, docs),
        // The error names the file first parsed with this text; parse again (an error path)
        // so that it names this one.
        Some(Err(e)) if parsed_as == Some(file.name.as_str()) => FileWork::Failed(e),
        Some(Err(e)) => FileWork::Failed(yaml::parse_stream(&file).err().unwrap_or(e)),
        None => FileWork::Failed(Diagnostic::error(
            Code::Internal,
            format!("internal error: no parse result for {}", file.name),
        )),
    }
}

/// One set's inputs from its files' documents (objects per file in parallel, in input order)
/// and what reading it found.
fn set_inputs(
    opts: &LoadOptions,
    work: Vec<FileWork>,
    mut errors: Vec<Diagnostic>,
    mut warnings: Vec<Diagnostic>,
) -> Result<Inputs, Diagnostics> {
    let files: Vec<FileOut> = work
        .into_par_iter()
        .map(|w| {
            let scan = opts.warn_unsubstituted && opts.substitute.is_none();
            file_objects(w, &opts.default_namespace, scan, opts.skip_foreign)
        })
        .collect();
    let mut objects = Vec::with_capacity(files.iter().map(|f| f.objects.len()).sum());
    let mut runtime_messages = Vec::new();
    let mut foreign: Vec<(String, usize)> = Vec::new();
    for mut f in files {
        if let Some(name) = f.foreign.0.take() {
            foreign.push((name, f.foreign.1));
        }
        objects.append(&mut f.objects);
        runtime_messages.append(&mut f.runtime_messages);
        errors.append(&mut f.errors);
        warnings.append(&mut f.warnings);
    }
    finish(
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

/// A text as the key of the map that finds texts read twice: hashed by its length and its
/// ends only (hashing every byte of a provider's CRDs cost more than reading them), compared
/// whole.
#[derive(PartialEq, Eq)]
struct TextKey<'a>(&'a str);

impl std::hash::Hash for TextKey<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        const ENDS: usize = 512;
        let b = self.0.as_bytes();
        b.len().hash(state);
        b[..b.len().min(ENDS)].hash(state);
        b[b.len().saturating_sub(ENDS)..].hash(state);
    }
}

/// The checks on a set's objects as a whole (duplicates, `-n`, documents that are no objects),
/// then the set's result: its inputs, or every error with the warnings after them.
fn finish(
    opts: &LoadOptions,
    mut inputs: Inputs,
    mut errors: Vec<Diagnostic>,
    foreign: &[(String, usize)],
) -> Result<Inputs, Diagnostics> {
    check_duplicates(&inputs.objects, &opts.per_file, &mut errors);
    if opts.namespace_from_flag {
        check_namespaces(&inputs.objects, &opts.default_namespace, &mut errors);
    }
    inputs.warnings.extend(foreign_note(foreign));
    if errors.is_empty() {
        Ok(inputs)
    } else {
        errors.append(&mut inputs.warnings);
        Err(Diagnostics(errors))
    }
}

/// One parsed document, its span table ready to be shared by every object read from it.
#[derive(Debug, Clone)]
struct Parsed {
    value: serde_json::Value,
    spans: Arc<SpanTable>,
}

/// The documents of one distinct text, or its error.
type ParseResult = Result<Arc<Vec<Parsed>>, Diagnostic>;

/// One file on its way to objects.
enum FileWork {
    /// Substitution or parsing failed.
    Failed(Diagnostic),
    /// Its documents (shared when other files have the same text).
    Parsed(Arc<SourceFile>, Arc<Vec<Parsed>>),
}

/// What one file contributes to [`Inputs`].
#[derive(Default)]
struct FileOut {
    objects: Vec<Object>,
    runtime_messages: Vec<(serde_json::Value, Origin)>,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    /// With [`LoadOptions::skip_foreign`]: the file's name when it held documents that are not
    /// Kubernetes objects, and how many.
    foreign: (Option<String>, usize),
}

/// Whether `value` is no Kubernetes object at all: a mapping with neither `apiVersion` nor
/// `kind` (a half-written object, with one of them, is still reported).
fn is_foreign(value: &serde_json::Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| !m.contains_key("apiVersion") && !m.contains_key("kind"))
}

/// The one warning for every document [`LoadOptions::skip_foreign`] passed over: how many,
/// and the first files holding them.
fn foreign_note(foreign: &[(String, usize)]) -> Option<Diagnostic> {
    const NAMED: usize = 5;
    let total: usize = foreign.iter().map(|(_, n)| n).sum();
    if total == 0 {
        return None;
    }
    let mut files: Vec<&str> = foreign
        .iter()
        .take(NAMED)
        .map(|(f, _)| f.as_str())
        .collect();
    let more = foreign.len().saturating_sub(NAMED);
    let more = if more > 0 {
        files.push("…");
        format!(" and {more} more files")
    } else {
        String::new()
    };
    let documents = if total == 1 { "document" } else { "documents" };
    Some(
        Diagnostic::warning(
            Code::InputSkipped,
            format!(
                "skipped {total} {documents} without apiVersion and kind (not Kubernetes objects) in {}{more}",
                files.join(", ")
            ),
        )
        .with_help("leave such files out with --exclude GLOB (e.g. --exclude kustomization.yaml)"),
    )
}

/// The objects and Runtime SDK messages of one file.
/// With `scan`, values holding clusterctl variables are reported (a warning per file); with
/// `skip_foreign`, documents that are not Kubernetes objects are counted and passed over.
fn file_objects(
    work: FileWork,
    default_namespace: &str,
    scan: bool,
    skip_foreign: bool,
) -> FileOut {
    let mut out = FileOut::default();
    let (file, docs) = match work {
        FileWork::Failed(e) => {
            out.errors.push(e);
            return out;
        }
        FileWork::Parsed(file, docs) => (file, docs),
    };
    // Other files with the same text may still hold the documents: then copy the values.
    // Either way the values are the same; only the cost differs.
    let docs: Vec<Parsed> = Arc::try_unwrap(docs).unwrap_or_else(|shared| (*shared).clone());
    let mut variables = unsubstituted::Scan::default();
    for doc in docs {
        let origin = Origin {
            file: Arc::clone(&file),
            spans: doc.spans,
        };
        if skip_foreign && is_foreign(&doc.value) {
            out.foreign.0 = Some(file.name.clone());
            out.foreign.1 += 1;
            continue;
        }
        if scan {
            variables.document(&doc.value, &origin);
        }
        let is_runtime_message = doc
            .value
            .get("apiVersion")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|v| object::group_of(v) == RUNTIME_HOOKS_GROUP);
        if is_runtime_message {
            out.runtime_messages.push((doc.value, origin));
        } else {
            flatten(
                doc.value,
                origin,
                default_namespace,
                &mut out.objects,
                &mut out.errors,
            );
        }
    }
    out.warnings.extend(variables.warning());
    out
}

/// Objects from texts held in memory (`name`, YAML text), each read as a file of that name
/// would be with `opts` (its paths are not read): what a live read hands to the loader, so
/// that its objects are exactly those its saved files give back. The texts were charged to
/// the byte budget when they were received.
pub fn load_texts(opts: &LoadOptions, texts: Vec<(String, String)>) -> Result<Inputs, Diagnostics> {
    let files: Vec<FileOut> = texts
        .into_par_iter()
        .map(|(name, text)| {
            let file = SourceFile::new(name, text);
            let work = match yaml::parse_stream(&file) {
                Ok(docs) => FileWork::Parsed(
                    Arc::clone(&file),
                    Arc::new(
                        docs.into_iter()
                            .map(|d| Parsed {
                                value: d.value,
                                spans: Arc::new(d.spans),
                            })
                            .collect(),
                    ),
                ),
                Err(e) => FileWork::Failed(e),
            };
            file_objects(work, &opts.default_namespace, false, false)
        })
        .collect();
    let mut inputs = Inputs::default();
    let mut errors = Vec::new();
    for mut f in files {
        inputs.objects.append(&mut f.objects);
        inputs.runtime_messages.append(&mut f.runtime_messages);
        errors.append(&mut f.errors);
        inputs.warnings.append(&mut f.warnings);
    }
    finish(opts, inputs, errors, &[])
}

/// Name of the marker file `plan --output-dir` writes at the top of its directory (what it
/// holds is `output::files`'s business; here it only tells a plan's directory from others).
pub const PLAN_MARKER: &str = ".topoplan-plan";

/// Whether `dir` was written by `plan --output-dir`.
pub fn is_plan_output(dir: &Path) -> bool {
    dir.join(PLAN_MARKER).is_file()
}

/// Refuse `path` when it is not hidden as written but leads, through a link, to a hidden entry
/// below `base` (`fleet/a.yaml` → `../.env`, `fleet` → `.git`): that is a pull request's doing,
/// and the file's first lines would appear in an error's snippet. A path the user writes hidden
/// (`.github/fleet`) is read: they named it.
fn refuse_hidden_target(path: &Path, target: &Path, base: &Path) -> Result<(), Diagnostic> {
    let named_hidden = path.components().any(
        |c| matches!(c, std::path::Component::Normal(n) if n.to_string_lossy().starts_with('.')),
    );
    if !named_hidden && walk::hidden_below(target, base) {
        return Err(Bound::link_hidden(path, target));
    }
    Ok(())
}

/// One file after substitution (step 2 of [`load_many`]).
enum Substituted {
    /// Substituted, and its growth paid for.
    Ok(Arc<SourceFile>),
    /// Substitution failed.
    Failed(Diagnostic),
    /// Substituted, but its growth found the input budget spent; its text is dropped.
    Unpaid,
}

/// What the arguments of one input set expand to.
#[derive(Default)]
struct Collected {
    /// (display name, text) pairs, in input order.
    files: Vec<(String, String)>,
    warnings: Vec<Diagnostic>,
    errors: Vec<Diagnostic>,
}

/// Expand one argument into (display name, text) pairs. A path given here is followed
/// wherever it points (the user named it), except in the working tree of `--base-ref`, where
/// it must stay inside its repository; a directory is walked under [`walk`]'s rules; a FIFO,
/// a device or `-` is read as a stream. Every read draws on the run's byte budget.
fn collect_files(path: &Path, opts: &LoadOptions, out: &mut Collected) -> Result<(), Diagnostic> {
    let limit = &opts.input_limit;
    if path.as_os_str() == "-" {
        let bytes = limit
            .read(std::io::stdin().lock(), "<stdin>", None)
            .map_err(|e| match e {
                ReadError::Io(e) => {
                    Diagnostic::error(Code::InputRead, format!("cannot read standard input: {e}"))
                }
                ReadError::TooLarge(d) => d,
            })?;
        out.files
            .push(("<stdin>".to_string(), utf8(bytes, "<stdin>")?));
        return Ok(());
    }
    let meta = std::fs::metadata(path).map_err(|e| {
        Diagnostic::error(
            Code::InputRead,
            format!("cannot read {}: {e}", path.display()),
        )
        .with_help("-f takes a file, a directory or - for standard input")
    })?;
    let bound = match &opts.working_tree_of {
        Some(rev) => {
            let top = git::working_tree_top(rev, path)?;
            let target = std::fs::canonicalize(path).map_err(|e| {
                Diagnostic::error(
                    Code::InputRead,
                    format!("cannot read {}: {e}", path.display()),
                )
            })?;
            let bound = Bound::Repository(top);
            if !target.starts_with(bound.root()) {
                return Err(bound.link_out(path, &target));
            }
            refuse_hidden_target(path, &target, bound.root())?;
            Some(bound)
        }
        None => {
            // Below the working directory (a checkout, in CI), judged as in a walk.
            if let (Ok(target), Ok(cwd)) = (
                std::fs::canonicalize(path),
                std::env::current_dir().and_then(std::fs::canonicalize),
            ) && target.starts_with(&cwd)
            {
                refuse_hidden_target(path, &target, &cwd)?;
            }
            None
        }
    };
    if meta.is_dir() {
        let bound = match bound {
            Some(b) => b,
            None => Bound::Directory(std::fs::canonicalize(path).map_err(|e| {
                Diagnostic::error(
                    Code::InputRead,
                    format!("cannot read {}: {e}", path.display()),
                )
            })?),
        };
        let skip_dir_names = if opts.plan_outputs.iter().any(|p| p == path) {
            vec!["deleted".into()]
        } else {
            Vec::new()
        };
        let walk = Walk {
            exclude: opts.exclude.clone(),
            skip_dir_names,
            ..Walk::new(bound)
        };
        let walked = walk.run(path)?;
        out.warnings.extend(walked.warnings);
        let refused = !walked.errors.is_empty();
        out.errors.extend(walked.errors);
        if walked.files.is_empty() && !refused {
            return Err(Diagnostic::error(
                Code::InputRead,
                format!(
                    "directory {} holds no .yaml, .yml or .json file",
                    path.display()
                ),
            ));
        }
        let mut listed: Vec<(PathBuf, String)> = Vec::with_capacity(walked.files.len());
        for f in walked.files {
            if !opts.exclude_globs.is_empty() {
                let relative = f.strip_prefix(path).unwrap_or(&f);
                let relative = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                if opts.exclude_globs.iter().any(|g| g.matches(&relative)) {
                    continue;
                }
            }
            // `-f .` lists `./a.yaml`; the short form reads better in diagnostics and paths.
            let shown = f.strip_prefix(".").unwrap_or(&f).display().to_string();
            listed.push((f, shown));
        }
        // A set that parses only some documents (`--crds`) drops the files holding none of
        // them as it reads them, exactly where its parser would have passed over them all.
        let keep = opts
            .keep_document
            .as_ref()
            .filter(|_| opts.spans_on_demand && opts.substitute.is_none());
        read_listed(listed, limit, keep, &mut out.files)?;
    } else {
        let shown = path.display().to_string();
        let text = read_text(path, &shown, limit)?;
        out.files.push((shown, text));
    }
    Ok(())
}

/// Read the files a walk listed, in parallel (opening and reading tens of thousands of small
/// files is most of what reading an export costs, and it is the kernel's work, which spreads
/// over cores), appending them to `out` in walk order. The error is the one a sequential read
/// gives: the first failure in walk order, and the byte budget spent at the first file whose
/// size, added to those before it, passes it, whichever thread read first. (A file the budget
/// refused in the race implies the files together pass it: a read is refused only for what
/// other files of the set already used.)
///
/// With `keep`, a file of which it keeps no document ([`yaml::keeps_any`]) is read into memory
/// its thread reuses and is given on as an empty text (a provider's CRDs are mostly of kinds
/// a run never meets, and fresh pages for all of them cost as much as reading them); it still
/// draws on the budget, and must still be UTF-8.
fn read_listed(
    listed: Vec<(PathBuf, String)>,
    limit: &InputLimit,
    keep: Option<&KeepDocument>,
    out: &mut Vec<(String, String)>,
) -> Result<(), Diagnostic> {
    let mut total = limit.used();
    /// A file's bytes (none when dropped) and its size.
    type Got = Result<(Vec<u8>, u64), ReadError>;
    let read: Vec<(PathBuf, String, Got)> = listed
        .into_par_iter()
        .map(|(f, shown)| {
            let bytes = match keep {
                None => limit.read_path(&f, &shown).map(|b| {
                    let n = b.len() as u64;
                    (b, n)
                }),
                Some(k) => read_kept(&f, &shown, limit, k),
            };
            (f, shown, bytes)
        })
        .collect();
    out.reserve(read.len());
    for (f, shown, bytes) in read {
        let size = match &bytes {
            Ok((_, n)) => *n,
            Err(ReadError::TooLarge(_)) => std::fs::metadata(&f).map_or(u64::MAX, |m| m.len()),
            Err(ReadError::Io(_)) => 0,
        };
        if total.saturating_add(size) > limit.max() {
            return Err(limit.too_large_after(&shown, total));
        }
        total = total.saturating_add(size);
        let bytes = bytes.map_err(|e| match e {
            ReadError::Io(e) => {
                Diagnostic::error(Code::InputRead, format!("cannot read {shown}: {e}"))
            }
            ReadError::TooLarge(d) => d,
        })?;
        let text = utf8(bytes.0, &shown)?;
        out.push((shown, text));
    }
    Ok(())
}

/// Read `path` for [`read_listed`] with `keep`: its bytes and size, or no bytes and its size
/// when `keep` keeps nothing of it.
fn read_kept(
    path: &Path,
    shown: &str,
    limit: &InputLimit,
    keep: &KeepDocument,
) -> Result<(Vec<u8>, u64), ReadError> {
    /// What a thread reuses longer than this is given back: one large file must not pin its
    /// size for the rest of the run.
    const SPARE_MAX: usize = 4 << 20;
    thread_local! {
        static SPARE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SPARE.with_borrow_mut(|buf| {
        limit.read_path_into(path, shown, buf)?;
        let n = buf.len() as u64;
        let dropped = std::str::from_utf8(buf).is_ok_and(|t| !yaml::keeps_any(t, &*keep.0));
        if !dropped {
            // Kept, or not UTF-8 (which the caller reports): the bytes go on as they are.
            return Ok((std::mem::take(buf), n));
        }
        if buf.capacity() > SPARE_MAX {
            *buf = Vec::new();
        }
        Ok((Vec::new(), n))
    })
}

/// Read `path` (shown as `shown`, the name diagnostics give it) under the budget.
fn read_text(path: &Path, shown: &str, limit: &InputLimit) -> Result<String, Diagnostic> {
    let bytes = limit.read_path(path, shown).map_err(|e| match e {
        ReadError::Io(e) => Diagnostic::error(Code::InputRead, format!("cannot read {shown}: {e}")),
        ReadError::TooLarge(d) => d,
    })?;
    utf8(bytes, shown)
}

fn utf8(bytes: Vec<u8>, shown: &str) -> Result<String, Diagnostic> {
    String::from_utf8(bytes).map_err(|e| {
        Diagnostic::error(
            Code::InputRead,
            format!(
                "{shown} is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Turn one document into objects: `kind: List` (and `*List`) documents yield their items.
pub(crate) fn flatten(
    value: serde_json::Value,
    origin: Origin,
    default_namespace: &str,
    out: &mut Vec<Object>,
    errors: &mut Vec<Diagnostic>,
) {
    let is_list = value
        .get("kind")
        .and_then(|k| k.as_str())
        .is_some_and(|k| k == "List" || (k.ends_with("List") && value.get("items").is_some()));
    if is_list {
        if let serde_json::Value::Object(mut map) = value {
            match map.remove("items") {
                Some(serde_json::Value::Array(items)) => {
                    for (i, item) in items.into_iter().enumerate() {
                        let item_origin = Origin {
                            file: Arc::clone(&origin.file),
                            spans: Arc::new(origin.spans.subtree(&format!("/items/{i}"))),
                        };
                        match Object::new(item, item_origin, default_namespace)
                            .and_then(|o| o.check_names().map(|()| o))
                        {
                            Ok(o) => out.push(o),
                            Err(e) => errors.push(e),
                        }
                    }
                }
                Some(serde_json::Value::Null) | None => {}
                Some(_) => errors.push(
                    Diagnostic::error(
                        Code::InputObject,
                        "a List's items must be a sequence of objects",
                    )
                    .at(&origin, "/items", "expected a sequence"),
                ),
            }
        }
        return;
    }
    match Object::new(value, origin, default_namespace).and_then(|o| o.check_names().map(|()| o)) {
        Ok(o) => out.push(o),
        Err(e) => errors.push(e),
    }
}

/// Kinds the API server stores without a namespace: `-n` says nothing about them, as kubectl
/// ignores it for them. (Cluster API's own cluster-scoped kind, ExtensionConfig, included.)
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
    ),
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
    ),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("storage.k8s.io", "StorageClass"),
    ("runtime.cluster.x-k8s.io", "ExtensionConfig"),
];

/// `-n` given explicitly: an object whose own namespace differs is refused with kubectl's
/// words (`kubectl apply -n B -f` of an object in A fails the same way), not silently planned
/// in its own namespace.
fn check_namespaces(objects: &[Object], namespace: &str, errors: &mut Vec<Diagnostic>) {
    for o in objects {
        if o.namespace == namespace || CLUSTER_SCOPED.contains(&(o.group(), o.kind.as_str())) {
            continue;
        }
        errors.push(
            Diagnostic::error(
                Code::InputNamespace,
                format!(
                    "the namespace from the provided object {:?} does not match the namespace {:?}. You must pass '--namespace={}' to perform this operation.",
                    o.namespace, namespace, o.namespace
                ),
            )
            .at(&o.origin, "/metadata/namespace", "the object's own namespace")
            .with_help("drop -n to plan each object in its own namespace"),
        );
    }
}

/// Two objects with the same group, kind, namespace and name cannot both be meant.
///
/// Exception: kinds listed in `per_file` may repeat across files (alternative flavors, such as
/// clusterctl's `cluster-template*.yaml` Clusters, planned side by side).
fn check_duplicates(
    objects: &[Object],
    per_file: &[(String, String)],
    errors: &mut Vec<Diagnostic>,
) {
    type Key<'o> = (&'o str, &'o str, &'o str, &'o str, Option<&'o str>);
    let mut seen: BTreeMap<Key<'_>, &Object> = BTreeMap::new();
    for o in objects {
        let flavor = per_file
            .iter()
            .any(|(g, k)| *k == o.kind && g == o.group())
            .then_some(o.origin.file.name.as_str());
        let key = (
            o.group(),
            o.kind.as_str(),
            o.namespace.as_str(),
            o.name.as_str(),
            flavor,
        );
        if let Some(first) = seen.get(&key) {
            errors.push(
                Diagnostic::error(
                    Code::InputDuplicate,
                    format!(
                        "duplicate object: {} {}/{} is defined twice (first at {})",
                        o.kind,
                        o.namespace,
                        o.name,
                        first.origin.location("/metadata/name")
                    ),
                )
                .at(&o.origin, "/metadata/name", "defined again here")
                .with_help("each object may appear once in the input"),
            );
        } else {
            seen.insert(key, o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overrun_of_the_reading_is_not_blamed_again_on_a_file_that_grew_nothing() {
        // Files read in parallel may together pass the cap (each checks only what is left
        // before it reads); the reading reports that, naming its file. The budget was once
        // checked again after substitution, which then blamed a file of the set that grew
        // nothing, under no name ("input too large:  exceeds ..."). Here the budget is spent
        // before the set is read, and its one file is empty.
        let dir = tempfile::tempdir().expect("temporary directory");
        let p = dir.path().join("empty.yaml");
        std::fs::write(&p, "").expect("write input");
        let limit = InputLimit::new(1000);
        limit.charge(900, "other").expect("within the budget");
        let opts = LoadOptions {
            paths: vec![p],
            input_limit: limit.with_max(800),
            ..LoadOptions::default()
        };
        let messages: Vec<String> = match load(&opts) {
            Ok(_) => Vec::new(),
            Err(d) => d.0.iter().map(|d| d.message.clone()).collect(),
        };
        assert!(
            messages.iter().all(|m| !m.starts_with("input too large")),
            "{messages:?}"
        );
    }

    fn load_str(text: &str) -> Result<Inputs, Diagnostics> {
        let dir =
            tempfile::tempdir().map_err(|e| Diagnostic::error(Code::Internal, e.to_string()))?;
        let p = dir.path().join("in.yaml");
        std::fs::write(&p, text).map_err(|e| Diagnostic::error(Code::Internal, e.to_string()))?;
        load(&LoadOptions {
            paths: vec![p],
            default_namespace: "default".into(),
            substitute: None,
            ..LoadOptions::default()
        })
    }

    #[test]
    fn load_many_shares_texts_but_not_names() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cm = |n: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {n}\n");
        for (d, files) in [
            ("old", [("a.yaml", cm("a")), ("b.yaml", cm("b-old"))]),
            ("new", [("a.yaml", cm("a")), ("b.yaml", cm("b-new"))]),
        ] {
            std::fs::create_dir_all(dir.path().join(d)).expect("mkdir");
            for (f, text) in files {
                std::fs::write(dir.path().join(d).join(f), text).expect("write");
            }
        }
        let set = |d: &str, ns: &str| LoadOptions {
            paths: vec![dir.path().join(d)],
            default_namespace: ns.into(),
            ..LoadOptions::default()
        };
        let sets = [set("old", "x"), set("new", "y")];
        let many = load_many(&sets);
        assert_eq!(many.len(), 2);
        for (got, opts) in many.iter().zip(&sets) {
            let got = got.as_ref().expect("loads");
            let alone = load(opts).expect("loads");
            let show = |i: &Inputs| {
                i.objects
                    .iter()
                    .map(|o| {
                        (
                            o.key(),
                            o.origin.location("/metadata/name"),
                            o.value.clone(),
                        )
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(show(got), show(&alone));
        }
        let old = many[0].as_ref().expect("loads");
        assert!(old.objects[0].origin.file.name.ends_with("old/a.yaml"));
        assert_eq!(old.objects[0].namespace, "x");

        // A shared text that does not parse: each set's error names its own file.
        for d in ["old", "new"] {
            std::fs::write(dir.path().join(d).join("a.yaml"), "a: [1\n").expect("write");
        }
        let many = load_many(&sets);
        for (r, d) in many.iter().zip(["old", "new"]) {
            let e = r.as_ref().expect_err("fails");
            assert_eq!(e.0.len(), 1);
            let (file, line, _) = e.0[0].position().expect("located");
            assert!(file.ends_with(&format!("{d}/a.yaml")), "{file}");
            assert_eq!(line, 1);
        }
    }

    #[test]
    fn list_items_are_flattened_with_spans() {
        let inputs = load_str(
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n",
        )
        .map_err(|d| d.0[0].message.clone())
        .unwrap_or_else(|m| panic!("{m}"));
        assert_eq!(inputs.objects.len(), 2);
        assert_eq!(inputs.objects[1].name, "b");
        assert_eq!(inputs.objects[1].origin.location("/metadata/name"), {
            let f = &inputs.objects[1].origin.file.name;
            format!("{f}:11:11")
        });
        assert_eq!(inputs.objects[0].namespace, "default");
    }

    #[test]
    fn excluded_directories_are_not_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cm = |n: &str| format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {n}\n");
        for (f, n) in [("in/a.yaml", "a"), ("out/b.yaml", "b")] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, cm(n)).expect("write");
        }
        let opts = LoadOptions {
            paths: vec![dir.path().to_path_buf()],
            default_namespace: "default".into(),
            ..LoadOptions::default()
        };
        assert!(opts.exclude.is_empty());
        let names = |o: &LoadOptions| -> Vec<String> {
            load(o)
                .expect("loads")
                .objects
                .into_iter()
                .map(|o| o.name)
                .collect()
        };
        assert_eq!(names(&opts), ["a", "b"]);
        let opts = LoadOptions {
            exclude: vec![dir.path().join("in/../out")],
            ..opts
        };
        assert_eq!(names(&opts), ["a"]);
    }

    #[test]
    fn special_files_skipped_are_warnings_of_the_load() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("a.yaml"),
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        )
        .expect("write");
        let fifo = dir.path().join("b.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let inputs = load(&LoadOptions {
            paths: vec![dir.path().to_path_buf()],
            default_namespace: "default".into(),
            ..LoadOptions::default()
        })
        .expect("loads");
        assert_eq!(inputs.objects.len(), 1);
        assert_eq!(inputs.warnings.len(), 1);
        assert!(!inputs.warnings[0].is_error());
    }

    #[test]
    fn duplicates_are_reported_at_the_second() {
        let err = load_str(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
        )
        .err()
        .unwrap_or_default();
        assert_eq!(err.0.len(), 1);
        assert!(
            err.0[0]
                .message
                .starts_with("duplicate object: ConfigMap default/a")
        );
        assert_eq!(err.0[0].position().map(|p| p.1), Some(9));
    }
}
