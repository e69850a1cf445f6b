/*!
Entry points for fuzzing: one function per target, each taking arbitrary bytes.

Owns how raw fuzzer input is cut into the arguments of the code under test, and the cheap
invariants checked on the way (a located error must point inside its file). The cargo-fuzz
targets in `fuzz/` and the stable corpus replay in `tests/fuzz_corpus.rs` both call these, so a
reproducer found by either runs the same code in the other. None of them may panic on any
input: an `Err` from the code under test is a fine outcome, a panic is a bug.

Input layouts (fields are separated by a NUL byte; missing fields are empty; invalid UTF-8
becomes U+FFFD, so every input reaches the code under test):

- [`yaml_load`]: the whole input is one file.
- [`envsubst`]: `text NUL vars`, `vars` being `NAME=value` lines.
- [`template`]: `mode template NUL data`, `mode` one byte (see [`template`]), `data` YAML/JSON.
- [`json_patch`]: `document NUL patch`, both JSON.
- [`diag_render`]: a 12-byte header, then `text NUL label NUL message NUL help`.

This module is hidden from the documentation: it is test support, not API.
*/

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use crate::diag::{self, Code, Diagnostic, Severity};
use crate::gotemplate::capi;
use crate::gotemplate::{MissingKey, sprig};
use crate::load::{envsubst as subst, yaml};
use crate::patches::jsonpatch;
use crate::source::{Origin, SourceFile, Span};

/// A fuzz target's body: any bytes in, no panic.
pub type Target = fn(&[u8]);

/// The fuzz targets by name, as `fuzz/fuzz_targets/<name>.rs` and `fuzz/corpus/<name>/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("yaml_load", yaml_load),
    ("envsubst", envsubst),
    ("template", template),
    ("json_patch", json_patch),
    ("diag_render", diag_render),
];

/// Text of a fuzzer input: bytes that are not UTF-8 become U+FFFD.
fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// The `n` NUL-separated fields of `data` (the last one keeps any further NULs).
fn fields(data: &[u8], n: usize) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = data.splitn(n, |&b| b == 0).collect();
    out.resize(n, &[]);
    out
}

/// A diagnostic's span must lie inside its file and on character boundaries: miette slices the
/// text with it, and a wrong span is a wrong `file:line:col` for the user.
fn check_location(d: &Diagnostic) {
    if let Some(loc) = &d.location {
        let t = &loc.file.text;
        let end = loc.span.offset.checked_add(loc.span.len);
        assert!(
            end.is_some_and(|e| e <= t.len()
                && t.is_char_boundary(loc.span.offset)
                && t.is_char_boundary(e)),
            "diagnostic {:?} has span {:?} outside its {}-byte file",
            d.message,
            loc.span,
            t.len()
        );
    }
    d.related.iter().for_each(check_location);
}

/// The loader on one file: YAML stream → documents → objects (as `-f` reads it), the one-value
/// readers templates and `eval` use, and the emitter's promise that what it writes reads back
/// as the same value.
pub fn yaml_load(data: &[u8]) {
    let file = SourceFile::new("fuzz.yaml", text(data));
    match yaml::parse_stream(&file) {
        Ok(docs) => {
            let (mut objects, mut errors) = (Vec::new(), Vec::new());
            for doc in docs {
                let origin = Origin {
                    file: Arc::clone(&file),
                    spans: Arc::new(doc.spans),
                };
                crate::load::flatten(doc.value, origin, "default", &mut objects, &mut errors);
            }
            errors.iter().for_each(check_location);
            for o in &objects {
                let _ = (o.key(), o.group(), o.version());
            }
        }
        Err(e) => check_location(&e),
    }
    if let Ok(v) = yaml::parse_value(&file.text) {
        let emitted = yaml::to_yaml(&v);
        match yaml::parse_value(&emitted) {
            Ok(back) => assert!(
                back == v,
                "to_yaml does not read back: {v} was written as {emitted:?}, read as {back}"
            ),
            Err(e) => panic!("to_yaml wrote unreadable YAML for {v}: {emitted:?}: {e}"),
        }
    }
    let _ = yaml::parse_value_go(&file.text);
}

/// clusterctl's variable substitution, with the variables given after the first NUL.
pub fn envsubst(data: &[u8]) {
    let f = fields(data, 2);
    let input = text(f[0]);
    let vars: BTreeMap<String, String> = text(f[1])
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let lookup = |k: &str| vars.get(k).cloned();
    if let Err(e) = subst::substitute(&input, &lookup) {
        let file = SourceFile::new("fuzz.yaml", input.as_ref());
        check_location(&subst::to_diagnostic(e, &file));
    }
    let _ = subst::variable_defaults(&input);
}

/// Go text/template with Sprig: parse and execute. The first byte picks how Cluster API would
/// run it (low two bits): 0 a `valueFrom.template` (hermetic Sprig, output read as YAML), 1 a
/// naming template (no Sprig, `missingkey=error`), 2 text with hermetic Sprig and
/// `missingkey=zero`, 3 text with `missingkey=error`. The data is read as YAML (so JSON too);
/// if it is not valid, the template gets it as one string.
pub fn template(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let f = fields(rest, 2);
    let tpl = text(f[0]);
    let raw = text(f[1]);
    let vars = yaml::parse_value(&raw).unwrap_or_else(|_| serde_json::Value::String(raw.into()));
    let _ = match mode & 3 {
        0 => capi::render_value_template(&tpl, &vars).map(|r| r.json),
        1 => capi::render_name(&tpl, &vars),
        2 => capi::render_text(&tpl, &vars, sprig::hermetic(), MissingKey::Zero),
        _ => capi::render_text(&tpl, &vars, sprig::hermetic(), MissingKey::Error),
    };
    let _ = capi::non_deterministic_functions(&tpl);
}

/// RFC 6902 patch (evanphx/json-patch) and RFC 7386 merge patch on one document.
pub fn json_patch(data: &[u8]) {
    let f = fields(data, 2);
    let doc: serde_json::Value = serde_json::from_slice(f[0]).unwrap_or(serde_json::Value::Null);
    if let Ok(patch) = jsonpatch::decode_patch(f[1]) {
        let _ = jsonpatch::apply(&patch, &doc);
    }
    if let Ok(p) = serde_json::from_slice::<serde_json::Value>(f[1]) {
        let _ = jsonpatch::merge_patch(&doc, &p);
    }
}

/// Rendering a located diagnostic, with any span (past the end, inside a character, zero or
/// huge length) on any text (very long lines, control bytes, no final newline).
///
/// Header, 12 bytes: flags (bit 0 terminal, bit 1 warning, bit 2 no location, bit 3 a related
/// diagnostic at the same place, bit 4 help, bit 5 pad), a pad count (u16 LE; with bit 5 the
/// text is prefixed with twice that many copies of the pad byte, so that lines past column
/// 65535 cost few input bytes, while inputs without it stay small and fast), the pad byte, span
/// offset (u32 LE) and span length (u32 LE; both may point anywhere).
pub fn diag_render(data: &[u8]) {
    let header = |i: usize| data.get(i).copied().unwrap_or(0);
    let u32_at =
        |i: usize| u32::from_le_bytes([header(i), header(i + 1), header(i + 2), header(i + 3)]);
    let flags = header(0);
    let pad = if flags & 32 != 0 {
        usize::from(u16::from_le_bytes([header(1), header(2)])) * 2
    } else {
        0
    };
    let pad_byte = header(3);
    let span = Span::new(u32_at(4) as usize, u32_at(8) as usize);
    let f = fields(data.get(12..).unwrap_or(&[]), 4);
    let mut body = vec![pad_byte; pad];
    body.extend_from_slice(f[0]);
    let file = SourceFile::new("fuzz.yaml", text(&body));
    let mut d = Diagnostic::error(Code::Internal, text(f[2]));
    if flags & 2 != 0 {
        d.severity = Severity::Warning;
    }
    if flags & 4 == 0 {
        d = d.with_span(&file, span, text(f[1]));
    }
    if flags & 16 != 0 {
        d = d.with_help(text(f[3]));
    }
    if flags & 8 != 0 {
        let related =
            Diagnostic::error(Code::Internal, text(f[3])).with_span(&file, span, text(f[1]));
        d = d.with_related(vec![related]);
    }
    let _ = d.position();
    let _ = diag::render(&d, flags & 1 != 0);
}
