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
    "pipeline",
    "cli",
    // Test and fuzzing support, above everything.
    "fuzzing",
];

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
        let mut imports = Vec::new();
        let mut line = 1;
        let mut i = 0;
        while i < code.len() {
            if code[i] == '\n' {
                line += 1;
                i += 1;
                continue;
            }
            let at_word = i == 0 || !is_ident(code[i - 1]) && code[i - 1] != ':';
            let word = |w: &str| code[i..].iter().take(w.len()).copied().eq(w.chars());
            if at_word && (word("crate::") || word("super::")) {
                let mut base: Vec<String> = Vec::new();
                let mut j = i;
                if word("crate::") {
                    j += "crate::".len();
                } else {
                    base = module.clone();
                    // In `a/b.rs` (module a::b) and in `a/mod.rs` (module a), `super` is the
                    // parent module.
                    while code[j..].iter().take(7).copied().eq("super::".chars()) {
                        base.pop();
                        j += "super::".len();
                    }
                }
                let mut paths = Vec::new();
                let end = parse_path(&code, j, base, &mut paths);
                for p in paths {
                    imports.push((line, p));
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
    let cycles: Vec<String> = t
        .sccs
        .iter()
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
