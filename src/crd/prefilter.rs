/*!
Which YAML documents of `--crds` are worth parsing: a test on a document's text, before any
parse, that passes over the CustomResourceDefinitions of kinds a run never meets.

Owns the rule that makes skipping safe: a document is passed over only when no kind the run
wants can be spelled in it. YAML spells a scalar's text literally except in three ways, and a
document that uses any of them is kept: escapes and escaped line breaks in double-quoted
scalars (a `\` on a line with a `"`), and `!!binary` (base64; any tag naming it contains
`binary`). Folding a multi-line scalar puts a space in it, which no kind holds, and a scalar equal to a
kind has no letter or digit beside it, so only whole words count. Anchors and
aliases copy text from within the same document, where the literal test sees it. A test that
keeps too much only costs a parse; the group is not looked at, for the same reason.
*/

/// Whether the YAML document `text` may define one of `kinds` (see the module docs).
pub fn may_define(text: &str, kinds: &[String]) -> bool {
    if kinds.iter().any(|k| spelled(text, k)) {
        return true;
    }
    text.contains("binary") || escaped_in_quotes(text)
}

/// Whether a line holds both a `\` and a `"`, found from the backslashes (most CRD lines have
/// neither; scanning every line cost more than the parse it saved on small documents).
fn escaped_in_quotes(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        memchr::memchr(b'"', &bytes[start..end]).is_some()
    })
}

/// Whether `kind` occurs in `text` as a whole word: a scalar equal to it has no letter or digit
/// beside it (`Cluster` is in every `AWSCluster` document, and a run always wants `Cluster`).
fn spelled(text: &str, kind: &str) -> bool {
    if kind.is_empty() {
        return false;
    }
    let bytes = text.as_bytes();
    let word = |i: Option<usize>| {
        i.and_then(|i| bytes.get(i))
            .is_some_and(u8::is_ascii_alphanumeric)
    };
    memchr::memmem::find_iter(bytes, kind.as_bytes())
        .any(|at| !word(at.checked_sub(1)) && !word(Some(at + kind.len())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_document_naming_a_wanted_kind_is_kept() {
        let doc = "kind: CustomResourceDefinition\nspec:\n  names:\n    kind: DockerCluster\n";
        assert!(may_define(doc, &kinds(&["DockerCluster"])));
        assert!(!may_define(doc, &kinds(&["AWSCluster"])));
        // Whole words only: `Cluster` is inside every infrastructure cluster's kind.
        assert!(!may_define(doc, &kinds(&["Cluster", "Docker"])));
        assert!(may_define("kind: Cluster\n", &kinds(&["Cluster"])));
        assert!(may_define("names: {kind: Cluster}", &kinds(&["Cluster"])));
        assert!(may_define(
            "kind: 'DockerCluster'",
            &kinds(&["DockerCluster"])
        ));
    }

    #[test]
    fn spellings_that_hide_a_kind_keep_the_document() {
        let want = kinds(&["DockerCluster"]);
        // An escape in a double-quoted scalar.
        assert!(may_define(
            "spec:\n  names:\n    kind: \"\\x44ockerCluster\"\n",
            &want
        ));
        // An escaped line break joins the halves without a space.
        assert!(may_define("kind: \"Docker\\\n  Cluster\"\n", &want));
        // Base64, by the standard tag or a verbatim one.
        assert!(may_define("kind: !!binary RG9ja2VyQ2x1c3Rlcg==\n", &want));
        assert!(may_define(
            "kind: !<tag:yaml.org,2002:binary> RG9ja2VyQ2x1c3Rlcg==\n",
            &want
        ));
        // A backslash alone (a regular expression pattern) hides nothing, nor beside a quote
        // on another line.
        assert!(!may_define("a: \"x\"\npattern: ^a\\.b$\nb: 'y'\n", &want));
        assert!(!may_define("pattern: ^[a-z](\\.[a-z])*$\n", &want));
    }

    #[test]
    fn no_wanted_kind_keeps_nothing_plain() {
        assert!(!may_define("kind: CustomResourceDefinition\n", &[]));
        assert!(!may_define("kind: X\n", &kinds(&[""])));
    }
}
