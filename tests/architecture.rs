//! The house reads in stage order: a check of the imports between the library's modules.
//!
//! Every `crate::` and `super::` path in `src/` (outside comments and strings) is resolved to
//! the file that defines the module it names. Two rules hold:
//!
//! 1. No import cycles between files.
//! 2. Each top-level module imports only modules listed before it in [`STAGES`] (the pipeline's
//!    order, bottom up), except the few imports in [`UPWARD`], each with its reason.
//!
//! A failure lists the offending imports with file and line. ARCHITECTURE.md describes the
//! same order in words.
//!
//! A module with children is a folder with a `mod.rs` (never `foo.rs` beside `foo/`): one layout
//! to look for.
//!
//! A further check reads the same code for dead `pub` functions, which the compiler does not
//! report: every `pub fn` of `src/` must be named somewhere besides its definition (in `src/`,
//! `tests/`, `benches/` or `examples/`), or be listed in [`UNCALLED`] with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's top-level modules, bottom up: a module may import those above it in this
/// list, never those below.
const STAGES: &[&str] = &[
    // Shared below every stage.
    "escape",
    "go",
    "json",
    "source",
    "diag",
    "k8s",
    // The pipeline, in order.
    "load",
    "api",
    "provider",
    "gotemplate",
    "schema",
    "crd",
    "runtime",
    "topology",
    "variables",
    "lint",
    "validate",
    "patches",
    "plan",
    "output",
    "extension_check",
    "live",
    "pipeline",
    "cli",
    // Test and fuzzing support, above everything.
    "fuzzing",
];

/// Import cycles inside one folder (a `mod.rs` that uses its children while they import its
/// items with `super::`), known and not yet untangled: the check holds each exactly as it is
/// until it is. The last of them were untangled by moving the shared items into a child of
/// their own, which the siblings import; none is left, and a new one fails the check. Files
/// relative to `src/`, sorted.
const KNOWN_FOLDER_CYCLES: &[&[&str]] = &[];

/// Imports allowed to run up the pipeline: (importing file, imported module, why).
const UPWARD: &[(&str, &str, &str)] = &[];

/// A module's file and what it imports: (line, the module path it names).
struct Source {
    /// `["plan", "fleet"]` for `src/plan/fleet.rs` (and `["plan"]` for `src/plan/mod.rs`).
    module: Vec<String>,
    imports: Vec<(usize, Vec<String>)>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// The text with comments, string and char literals blanked (newlines kept for line numbers).
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !b[..i]
                .last()
                .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let end = if next == Some('\\') {
                (i + 2..b.len()).find(|&k| b[k] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(e) => {
                    for _ in i..=e {
                        out.push(' ');
                    }
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parse the path starting at `chars[i]` (after `crate::` or `super::`), expanding `{a, b::c}`
/// groups; returns the paths (segments) and where parsing stopped.
fn parse_path(
    chars: &[char],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut segs = prefix;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if chars.get(i) == Some(&'{') {
            i += 1;
            loop {
                while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                    i += 1;
                }
                if i >= chars.len() || chars[i] == '}' {
                    return i + 1;
                }
                i = parse_path(chars, i, segs.clone(), out);
                // Skip `as name` and anything up to the next item.
                while i < chars.len() && chars[i] != ',' && chars[i] != '}' {
                    i += 1;
                }
            }
        }
        let start = i;
        while i < chars.len() && is_ident(chars[i]) {
            i += 1;
        }
        if start == i {
            out.push(segs);
            return i;
        }
        segs.push(chars[start..i].iter().collect());
        if chars.get(i) == Some(&':') && chars.get(i + 1) == Some(&':') {
            i += 2;
        } else {
            out.push(segs);
            return i;
        }
    }
}

fn read_sources() -> Vec<(PathBuf, Source)> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&root).expect("under src").to_path_buf();
        if rel == Path::new("main.rs") {
            continue;
        }
        let module = module_of(&rel);
        let text = std::fs::read_to_string(&f).expect("read source");
        let code: Vec<char> = code_only(&text).chars().collect();
        let children = child_modules(&code);
        let mut imports = Vec::new();
        let mut line = 1;
        let mut i = 0;
        // Inline modules (`mod tests { … }`) open at this brace depth: inside one, `super::` is
        // the file's own module, not its parent.
        let mut depth = 0usize;
        let mut inline: Vec<(usize, bool)> = Vec::new();
        while i < code.len() {
            match code[i] {
                '\n' => {
                    line += 1;
                    i += 1;
                    continue;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if inline.last().is_some_and(|(d, _)| *d == depth) {
                        inline.pop();
                    }
                }
                _ => {}
            }
            let at_word = i == 0 || !is_ident(code[i - 1]) && code[i - 1] != ':';
            let word = |w: &str| code[i..].iter().take(w.len()).copied().eq(w.chars());
            if at_word && word("mod ") {
                let rest: String = code[i + 4..].iter().take(200).collect();
                let name_len = rest.chars().take_while(|c| is_ident(*c)).count();
                if name_len > 0 && rest[name_len..].trim_start().starts_with('{') {
                    // Unit tests (`#[cfg(test)] mod … { … }`) may use anything of their crate:
                    // what they import is not the module's own dependency.
                    let before: String = code[i.saturating_sub(64)..i].iter().collect();
                    let before = before
                        .trim_end()
                        .trim_end_matches("pub(crate)")
                        .trim_end_matches("pub(super)")
                        .trim_end_matches("pub")
                        .trim_end();
                    inline.push((depth, before.ends_with("#[cfg(test)]")));
                }
            }
            // A path may also start at the module itself (`self::x`) or at one of its own
            // child modules (`rollout::Rollout` in `plan/mod.rs`): those are imports too.
            let child = at_word
                .then(|| children.iter().find(|c| word(&format!("{c}::"))))
                .flatten();
            if at_word && (word("crate::") || word("super::") || word("self::") || child.is_some())
            {
                let mut base: Vec<String> = Vec::new();
                let mut j = i;
                if word("crate::") {
                    j += "crate::".len();
                } else if word("self::") {
                    base = module.clone();
                    j += "self::".len();
                } else if child.is_some() {
                    base = module.clone();
                } else {
                    base = module.clone();
                    // In `a/b.rs` (module a::b) and in `a/mod.rs` (module a), `super` is the
                    // parent module; in an inline module of the file, the first `super` is
                    // the file's module itself.
                    let mut inside = inline.len();
                    while code[j..].iter().take(7).copied().eq("super::".chars()) {
                        if inside > 0 {
                            inside -= 1;
                        } else {
                            base.pop();
                        }
                        j += "super::".len();
                    }
                }
                let mut paths = Vec::new();
                let end = parse_path(&code, j, base, &mut paths);
                if !inline.iter().any(|(_, tests)| *tests) {
                    for p in paths {
                        imports.push((line, p));
                    }
                }
                for &c in &code[i..end.min(code.len())] {
                    if c == '\n' {
                        line += 1;
                    }
                }
                i = end.max(i + 1);
                continue;
            }
            i += 1;
        }
        out.push((rel, Source { module, imports }));
    }
    out
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn child_modules(code: &[char]) -> Vec<String> {
    let text: String = code.iter().collect();
    let mut out = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace().peekable();
        while let Some(w) = words.peek() {
            if w.starts_with("pub") || w.starts_with("#[") {
                words.next();
            } else {
                break;
            }
        }
        if words.next() == Some("mod")
            && let Some(name) = words.next()
            && let Some(name) = name.strip_suffix(';')
        {
            out.push(name.to_string());
        }
    }
    out
}

/// The file (relative to src/) defining the longest prefix of `path` that is a module.
fn resolve<'a>(
    path: &[String],
    modules: &'a BTreeMap<Vec<String>, PathBuf>,
) -> Option<&'a PathBuf> {
    (1..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

struct Edge {
    from: PathBuf,
    line: usize,
    to: PathBuf,
}

fn edges() -> (Vec<(PathBuf, Source)>, Vec<Edge>) {
    let sources = read_sources();
    let modules: BTreeMap<Vec<String>, PathBuf> = sources
        .iter()
        .filter(|(_, s)| !s.module.is_empty())
        .map(|(p, s)| (s.module.clone(), p.clone()))
        .collect();
    let mut edges = Vec::new();
    for (file, s) in &sources {
        for (line, path) in &s.imports {
            let Some(to) = resolve(path, &modules) else {
                continue;
            };
            // A module's own items, and its ancestors' modules declaring it, are not imports.
            let to_module = &sources
                .iter()
                .find(|(p, _)| p == to)
                .map(|(_, s)| s.module.clone())
                .unwrap_or_default();
            if to == file
                || s.module.starts_with(to_module)
                    && to_module.len() < s.module.len()
                    && path.len() == to_module.len()
            {
                continue;
            }
            edges.push(Edge {
                from: file.clone(),
                line: *line,
                to: to.clone(),
            });
        }
    }
    (sources, edges)
}

fn top(p: &Path) -> String {
    let first = p
        .iter()
        .next()
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// A module with children is `foo/mod.rs`: no `foo.rs` stands beside a folder `foo/`.
#[test]
fn one_module_layout() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let beside: Vec<String> = files
        .iter()
        .filter(|f| f.with_extension("").is_dir())
        .map(|f| f.strip_prefix(src()).unwrap_or(f).display().to_string())
        .collect();
    assert!(
        beside.is_empty(),
        "move each to its folder's mod.rs: {beside:?}"
    );
}

#[test]
fn every_top_level_module_has_a_stage() {
    let (sources, _) = edges();
    let missing: BTreeSet<String> = sources
        .iter()
        .map(|(p, _)| top(p))
        .filter(|m| m != "lib" && !STAGES.contains(&m.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "modules missing from STAGES: {missing:?}"
    );
}

#[test]
fn no_import_runs_up_the_pipeline() {
    let (_, edges) = edges();
    let rank = |m: &str| STAGES.iter().position(|s| *s == m);
    let mut upward: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for e in &edges {
        let (from, to) = (top(&e.from), top(&e.to));
        if let (Some(a), Some(b)) = (rank(&from), rank(&to))
            && b > a
        {
            let file = e.from.to_string_lossy().into_owned();
            upward
                .entry((file.clone(), to.clone()))
                .or_default()
                .push(format!("src/{file}:{}", e.line));
        }
    }
    let allowed: BTreeSet<(String, String)> = UPWARD
        .iter()
        .map(|(f, m, _)| (f.to_string(), m.to_string()))
        .collect();
    let unexplained: Vec<String> = upward
        .iter()
        .filter(|(k, _)| !allowed.contains(k))
        .map(|((f, m), at)| format!("src/{f} imports {m} (a later stage) at {}", at.join(", ")))
        .collect();
    assert!(
        unexplained.is_empty(),
        "imports that run up the pipeline:\n{}",
        unexplained.join("\n")
    );
    let stale: Vec<&(&str, &str, &str)> = UPWARD
        .iter()
        .filter(|(f, m, _)| !upward.contains_key(&(f.to_string(), m.to_string())))
        .collect();
    assert!(
        stale.is_empty(),
        "UPWARD lists imports that no longer exist: {stale:?}"
    );
    assert!(
        UPWARD.len() <= 2,
        "at most two imports may run up the pipeline"
    );
}

#[test]
fn no_import_cycles() {
    let (sources, edges) = edges();
    let files: Vec<&PathBuf> = sources.iter().map(|(p, _)| p).collect();
    let index: BTreeMap<&PathBuf, usize> = files.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    let mut adj: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for e in &edges {
        if let (Some(&a), Some(&b)) = (index.get(&e.from), index.get(&e.to)) {
            adj[a].insert(b);
        }
    }
    // Tarjan's strongly connected components.
    struct T<'a> {
        adj: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        sccs: Vec<Vec<usize>>,
    }
    fn visit(t: &mut T<'_>, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in t.adj[v].iter() {
            match t.index[w] {
                None => {
                    visit(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                scc.push(w);
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                t.sccs.push(scc);
            }
        }
    }
    let mut t = T {
        adj: &adj,
        index: vec![None; files.len()],
        low: vec![0; files.len()],
        on: vec![false; files.len()],
        stack: Vec::new(),
        next: 0,
        sccs: Vec::new(),
    };
    for v in 0..files.len() {
        if t.index[v].is_none() {
            visit(&mut t, v);
        }
    }
    // Cycles inside one folder that are known and not yet untangled (see KNOWN_FOLDER_CYCLES):
    // each must stay exactly as listed, so none grows and a fixed one is struck off.
    let member_names = |scc: &Vec<usize>| -> Vec<String> {
        let mut m: Vec<String> = scc
            .iter()
            .map(|&i| files[i].to_string_lossy().into_owned())
            .collect();
        m.sort();
        m
    };
    let known: BTreeSet<Vec<String>> = KNOWN_FOLDER_CYCLES
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let found: BTreeSet<Vec<String>> = t.sccs.iter().map(member_names).collect();
    let fixed: Vec<&Vec<String>> = known.difference(&found).collect();
    assert!(
        fixed.is_empty(),
        "KNOWN_FOLDER_CYCLES lists cycles that no longer exist (strike them off): {fixed:?}"
    );
    let cycles: Vec<String> = t
        .sccs
        .iter()
        .filter(|scc| !known.contains(&member_names(scc)))
        .map(|scc| {
            let members: BTreeSet<usize> = scc.iter().copied().collect();
            let ties: Vec<String> = edges
                .iter()
                .filter(|e| members.contains(&index[&e.from]) && members.contains(&index[&e.to]))
                .map(|e| {
                    format!(
                        "  src/{}:{} -> src/{}",
                        e.from.display(),
                        e.line,
                        e.to.display()
                    )
                })
                .collect();
            format!("cycle of {} files:\n{}", scc.len(), ties.join("\n"))
        })
        .collect();
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_reader_sees_through_comments_strings_and_groups() {
    let code = code_only(
        "let s = \"crate::x\"; // crate::y\n/* crate::z */ use crate::a::{b, c::{d, e as f}};\nlet c = 'x'; fn f<'a>() {}",
    );
    assert!(!code.contains("crate::x") && !code.contains("crate::y") && !code.contains("crate::z"));
    let chars: Vec<char> = "a::{b, c::{d, e as f}};".chars().collect();
    let mut out = Vec::new();
    parse_path(&chars, 0, vec![], &mut out);
    let got: Vec<String> = out.iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["a::b", "a::c::d", "a::c::e"]);
}

#[test]
fn the_reader_knows_a_module_s_children() {
    let code: Vec<char> = code_only(
        "pub mod a;\nmod b;\n#[cfg(test)]\nmod tests;\npub(crate) mod c;\nmod inline {}\n",
    )
    .chars()
    .collect();
    assert_eq!(child_modules(&code), ["a", "b", "tests", "c"]);
}

/// `pub` functions of `src/` no code names besides their definition, allowed: (file under
/// `src/`, function, why it exists).
const UNCALLED: &[(&str, &str, &str)] = &[(
    "runtime/types.rs",
    "serialize",
    "serde's `#[serde(with = \"base64_bytes\")]` calls `base64_bytes::serialize` by convention",
)];

/// The code (comments and strings left out) of every Rust file of `src/`, `tests/`,
/// `benches/` and `examples/`, read on all cores (this check must stay cheap).
fn all_code() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "examples"] {
        let dir = root.join(dir);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|f| {
                            let text = std::fs::read_to_string(f).expect("read source");
                            (f.clone(), code_only(&text))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("reader thread"))
            .collect()
    })
}

/// Each `pub`, `pub(crate)` or `pub(super)` function of `src/` in `code`: (file under `src/`,
/// line, name).
fn pub_fns(code: &[(PathBuf, String)]) -> Vec<(PathBuf, usize, &str)> {
    let mut defs = Vec::new();
    for (f, code) in code {
        let Ok(rel) = f.strip_prefix(src()) else {
            continue;
        };
        for (i, line) in code.lines().enumerate() {
            let Some(rest) = [
                "pub fn ",
                "pub(crate) fn ",
                "pub(super) fn ",
                "pub const fn ",
                "pub(crate) const fn ",
                "pub async fn ",
            ]
            .iter()
            .find_map(|p| line.trim_start().strip_prefix(p)) else {
                continue;
            };
            let len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            defs.push((rel.to_path_buf(), i + 1, &rest[..len]));
        }
    }
    defs
}

/// A `pub` function nothing calls is dead code the compiler does not report (it may be called
/// from outside the crate): a name that occurs only where such functions are defined.
#[test]
fn every_pub_fn_has_a_caller() {
    let code = all_code();
    let defs = pub_fns(&code);
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (_, code) in &code {
        for word in code.split(|c: char| !is_ident(c)) {
            if word.starts_with(|c: char| c.is_alphabetic() || c == '_') {
                *counts.entry(word).or_insert(0) += 1;
            }
        }
    }
    let mut defined: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, _, name) in &defs {
        *defined.entry(name).or_insert(0) += 1;
    }
    let uncalled: Vec<(String, &str, usize)> = defs
        .iter()
        .filter(|(_, _, name)| counts.get(name).copied().unwrap_or(0) <= defined[name])
        .map(|(file, line, name)| (file.to_string_lossy().into_owned(), *name, *line))
        .collect();
    let unexplained: Vec<String> = uncalled
        .iter()
        .filter(|(f, n, _)| !UNCALLED.iter().any(|(af, an, _)| af == f && an == n))
        .map(|(f, n, line)| format!("src/{f}:{line}: {n}"))
        .collect();
    assert!(
        unexplained.is_empty(),
        "pub functions nothing calls (delete them, or list them in UNCALLED with the reason):\n{}",
        unexplained.join("\n")
    );
    let stale: Vec<&(&str, &str, &str)> = UNCALLED
        .iter()
        .filter(|(af, an, _)| !uncalled.iter().any(|(f, n, _)| af == f && an == n))
        .collect();
    assert!(
        stale.is_empty(),
        "UNCALLED lists functions that are called: {stale:?}"
    );
}
