/*!
Tests of variable substitution through its public API: every expression form, syntax errors,
legacy spacing, the missing-variable report, the size cap, listing variables, real templates
and drone/envsubst's own cases.
*/

use super::*;
use proptest::prelude::*;

use crate::source::Span;

fn run(text: &str, vars: &[(&str, &str)]) -> Result<String, SubstError> {
    let lookup = |k: &str| {
        vars.iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| (*v).to_string())
    };
    substitute(text, &lookup)
}

#[track_caller]
fn ok(text: &str, vars: &[(&str, &str)]) -> String {
    match run(text, vars) {
        Ok(s) => s,
        Err(e) => panic!("{text:?}: {e:?}"),
    }
}

/// The names reported missing, in order of occurrence.
#[track_caller]
fn missing(text: &str, vars: &[(&str, &str)]) -> Vec<String> {
    match run(text, vars) {
        Err(SubstError::Missing(m)) => m.into_iter().map(|m| m.name).collect(),
        other => panic!("{text:?}: expected missing variables, got {other:?}"),
    }
}

/// The message and the text the span covers.
#[track_caller]
fn syntax(text: &str, vars: &[(&str, &str)]) -> (String, String) {
    match run(text, vars) {
        Err(SubstError::Syntax { message, span }) => {
            let covered = text[span.offset..span.offset + span.len].to_string();
            (message, covered)
        }
        other => panic!("{text:?}: expected a syntax error, got {other:?}"),
    }
}

const SET: &[(&str, &str)] = &[("A", "value"), ("E", "")];

#[test]
fn plain_variable_set_empty_unset() {
    assert_eq!(ok("x ${A} y", SET), "x value y");
    assert_eq!(ok("x ${E} y", SET), "x  y");
    assert_eq!(missing("x ${U} y", SET), ["U"]);
    assert_eq!(ok("${A}${A}", SET), "valuevalue");
}

#[test]
fn bare_dollar_name_is_text() {
    // clusterctl documents only ${VAR}; drone's scanner indeed opens nothing on a bare `$`.
    assert_eq!(ok("$A $U a$ $ $1 ${A}$", SET), "$A $U a$ $ $1 value$");
    assert_eq!(ok("$", &[]), "$");
    assert_eq!(ok("{A} }", &[]), "{A} }");
}

#[test]
fn default_forms_set_empty_unset() {
    for op in [":=", "=", ":-", ":?", ":+"] {
        let t = format!("${{A{op}d}}|${{E{op}d}}|${{U{op}d}}");
        // drone maps every one of them to "the default when the value is empty", and
        // clusterctl's lookup turns unset into empty.
        assert_eq!(ok(&t, SET), "value|d|d", "{op}");
    }
    // An empty default is no default: the variable is required.
    assert_eq!(missing("${U:-}", SET), ["U"]);
    assert_eq!(missing("${U=}", SET), ["U"]);
    assert_eq!(ok("${E:-}", SET), "");
    // The default runs to the first `}` and may hold any other character.
    assert_eq!(ok("${U:-a:b=c-d #e %f /g ,^}", &[]), "a:b=c-d #e %f /g ,^");
    assert_eq!(ok(r#"${U:=""}"#, &[]), r#""""#);
    assert_eq!(ok("${U:-line1\nline2}", &[]), "line1\nline2");
    // `$$` is not an escape inside a default.
    assert_eq!(ok("${U:-$$}", &[]), "$$");
}

#[test]
fn shell_defaults_without_colon_are_errors() {
    for (t, hint) in [
        ("${A-d}", "${A:-…}"),
        ("${A+d}", "${A:+…}"),
        ("${A?d}", "${A:?…}"),
    ] {
        let (msg, covered) = syntax(t, SET);
        assert!(msg.starts_with("missing closing brace"), "{msg}");
        assert!(msg.contains(hint), "{msg}");
        assert_eq!(covered, &t[..4]);
    }
}

#[test]
fn nested_defaults() {
    let t = "${A:-${B}}";
    assert_eq!(ok(t, &[("A", "a"), ("B", "b")]), "a");
    assert_eq!(ok(t, &[("B", "b")]), "b");
    assert_eq!(ok(t, &[("A", ""), ("B", "b")]), "b");
    // clusterctl never looks inside a default, so an unset nested variable is not reported
    // and expands to nothing.
    assert_eq!(ok(t, &[]), "");
    assert_eq!(ok("${A:-${B:-${C:-deep}}}", &[]), "deep");
    assert_eq!(ok("${A:-${B:-${C:-deep}}}", &[("B", "b")]), "b");
    // Text and expressions mix in a default (clusterctl's own test case).
    assert_eq!(
        ok(
            "foo ${BAR=default_bar} ${BAZ:=prefix${DEF}-suffix} ${CAZ=${DEF}}",
            &[("BAR", "ba$r"), ("DEF", "football")]
        ),
        "foo ba$r prefixfootball-suffix football"
    );
    // Any function may be nested.
    assert_eq!(ok("${U:-${A^^}}", SET), "VALUE");
    assert_eq!(ok("${U:-$${A}}", SET), "$value");
}

#[test]
fn length() {
    assert_eq!(ok("${#A}", SET), "5");
    assert_eq!(ok("${#E}", SET), "0");
    // Bytes, as Go's len.
    assert_eq!(ok("${#V}", &[("V", "héllo")]), "6");
    assert_eq!(missing("${#U}", SET), ["U"]);
    assert!(syntax("${#}", SET).0.starts_with("bad substitution"));
    assert!(syntax("${#A:-x}", SET).0.starts_with("bad substitution"));
    assert!(syntax("${##A}", SET).0.starts_with("bad substitution"));
}

#[test]
fn case_changes() {
    let v = &[("V", "élan Vital"), ("W", "ÉLAN"), ("S", "straße")];
    assert_eq!(ok("${V^}", v), "Élan Vital");
    assert_eq!(ok("${V^^}", v), "ÉLAN VITAL");
    assert_eq!(ok("${W,}", v), "éLAN");
    assert_eq!(ok("${W,,}", v), "élan");
    // One-to-one mappings as Go: ß stays, İ lowers to i.
    assert_eq!(ok("${S^^}", v), "STRAßE");
    assert_eq!(ok("${I,,}", &[("I", "İ")]), "i");
    // Mixed marks name no function: the value is kept.
    assert_eq!(ok("${V,^}|${V^,}", v), "élan Vital|élan Vital");
    assert_eq!(ok("${E^}", SET), "");
    assert_eq!(missing("${U^^}", SET), ["U"]);
    assert!(syntax("${V^^^}", v).0.starts_with("bad substitution"));
}

#[test]
fn substrings() {
    let p = &[("P", "/home/bozo/ideas/thoughts.for.today"), ("N", "-5")];
    assert_eq!(ok("${P:11}", p), "ideas/thoughts.for.today");
    assert_eq!(ok("${P:11:5}", p), "ideas");
    assert_eq!(ok("${P:11:500}", p), "ideas/thoughts.for.today");
    assert_eq!(ok("${P:500}", p), "");
    assert_eq!(ok("${P:500:1}", p), "");
    assert_eq!(ok("${P:0:0}", p), "");
    // A negative offset is only reachable through a nested expression: `${P:-5}` is a
    // default and `${P: -5}` does not parse as a number, which returns the value.
    assert_eq!(ok("${P:${N}}", p), "today");
    assert_eq!(ok("${P:-5}", p), "/home/bozo/ideas/thoughts.for.today");
    assert_eq!(ok("${P: -5}", p), "/home/bozo/ideas/thoughts.for.today");
    assert_eq!(ok("${P:x}", p), "/home/bozo/ideas/thoughts.for.today");
    assert_eq!(ok("${P:+3}", p), "/home/bozo/ideas/thoughts.for.today");
    // Any run of colons separates offset and length.
    assert_eq!(ok("${P:1::4}", p), "home");
    // Bytes: a cut inside a character leaves U+FFFD.
    assert_eq!(ok("${V:0:1}|${V:1}", &[("V", "éa")]), "\u{fffd}|\u{fffd}a");
    assert_eq!(ok("${V:0:1}${V:1}", &[("V", "éa")]), "éa");
    // An argument counts as a default for clusterctl: no missing variable, empty result.
    assert_eq!(ok("${U:1}", &[]), "");
    // drone panics on a length that ends before the offset; that is an error here.
    let (msg, covered) = syntax("x ${P:0:-1} y", p);
    assert!(msg.contains("crashes"), "{msg}");
    assert_eq!(covered, "${P:0:-1}");
    assert!(
        syntax("${P:}", p)
            .0
            .starts_with("unable to parse substitution")
    );
    assert!(
        syntax("${P:1:}", p)
            .0
            .starts_with("unable to parse substitution")
    );
    assert_eq!(ok("${P:1x}", p), "/home/bozo/ideas/thoughts.for.today");
    assert!(syntax("${P:é}", p).0.starts_with("bad substitution"));
    assert!(syntax("${P:", p).0.starts_with("bad substitution"));
}

#[test]
fn trims() {
    let f = &[("F", "bash.string.txt"), ("D", "/path/to/file")];
    assert_eq!(ok("${F#*.}", f), "string.txt");
    assert_eq!(ok("${F##*.}", f), "txt");
    assert_eq!(ok("${F%.*}", f), "bash.string");
    assert_eq!(ok("${F%%.*}", f), "bash");
    assert_eq!(ok("${D#*/}", f), "path/to/file");
    assert_eq!(ok("${D##*/}", f), "file");
    assert_eq!(ok("${F#nomatch}", f), "bash.string.txt");
    assert_eq!(ok("${F#b?sh.}", f), "string.txt");
    assert_eq!(ok("${F#[a-c]}", f), "ash.string.txt");
    assert_eq!(ok("${F#[^a-c]}", f), "bash.string.txt");
    assert_eq!(ok("${F#\\b}", f), "ash.string.txt");
    // A malformed pattern leaves the value alone.
    assert_eq!(ok("${F#[}", f), "bash.string.txt");
    // The pattern may be an expression.
    assert_eq!(ok("${F#${P}}", &[("F", "v1.2"), ("P", "v")]), "1.2");
    assert_eq!(ok("${U#x}", &[]), "");
    assert!(
        syntax("${F#}", f)
            .0
            .starts_with("unable to parse substitution")
    );
    assert!(syntax("${F#a${P}}", f).0.starts_with("bad substitution"));
}

#[test]
fn replacements() {
    let z = &[
        ("Z", "abcABC123ABCabc"),
        ("S", "foo/bar/baz"),
        ("D", "foo.bar"),
    ];
    assert_eq!(ok("${Z/abc/xyz}", z), "xyzABC123ABCabc");
    assert_eq!(ok("${Z//abc/xyz}", z), "xyzABC123ABCxyz");
    assert_eq!(ok("${Z/#abc/XYZ}", z), "XYZABC123ABCabc");
    assert_eq!(ok("${Z/%abc/XYZ}", z), "abcABC123ABCXYZ");
    assert_eq!(ok("${Z/#ABC/XYZ}", z), "abcABC123ABCabc");
    assert_eq!(ok("${D/./}", z), "foobar");
    assert_eq!(ok("${Z//abc/}", z), "ABC123ABC");
    // Prefix and suffix forms need a replacement to do anything.
    assert_eq!(ok("${Z/#abc/}", z), "abcABC123ABCabc");
    // Escapes: `\/`, `\\` and `$$`; other backslashes are literal.
    assert_eq!(ok(r"${S/\//-}", z), "foo-bar/baz");
    assert_eq!(ok(r"${S//\//-}", z), "foo-bar-baz");
    assert_eq!(ok(r"${S//\//\\}", z), r"foo\bar\baz");
    assert_eq!(ok(r"${D/./\n}", z), r"foo\nbar");
    assert_eq!(ok("${D/./$$}", z), "foo$bar");
    // Patterns are literal here, not globs.
    assert_eq!(ok("${D/*/x}", z), "foo.bar");
    // Any run of slashes separates pattern and replacement.
    assert_eq!(ok("${D/.//x}", z), "fooxbar");
    assert_eq!(ok("${D/${P}/-}", &[("D", "a.b"), ("P", ".")]), "a-b");
    assert!(syntax("${D/x}", z).0.starts_with("bad substitution"));
    // `}` is a pattern character, so this runs out of text looking for the separator.
    assert!(syntax("${D//}", z).0.starts_with("bad substitution"));
    assert!(syntax("${D/a${P}/b}", z).0.starts_with("bad substitution"));
}

#[test]
fn dollar_escapes() {
    assert_eq!(ok("$${A}", SET), "${A}");
    assert_eq!(ok("$$A", SET), "$A");
    assert_eq!(ok("$$$A", SET), "$$A");
    assert_eq!(ok("$$$${A}", SET), "$${A}");
    assert_eq!(ok("$$${A}", SET), "$value");
    assert_eq!(ok("$$", SET), "$");
    assert_eq!(ok("$$$", SET), "$$");
    // drone's own example.
    assert_eq!(
        ok(
            "some text ${V}$${var$${V}$var01${V}",
            &[("V", "abcdEFGH28ij")]
        ),
        "some text abcdEFGH28ij${var${V}$var01abcdEFGH28ij"
    );
    assert_eq!(
        ok("something $${var=${D}}", &[("D", "foo")]),
        "something ${var=foo}"
    );
    // Backslashes are not escapes outside `/…/…`.
    assert_eq!(ok(r"\\something ${A}", SET), r"\\something value");
    // An escaped expression is never looked up, so it cannot be missing.
    assert_eq!(ok("$${UNSET}", &[]), "${UNSET}");
}

#[test]
fn unterminated_and_malformed() {
    let (msg, covered) = syntax("a: ${A\nb: c\n", SET);
    assert!(msg.starts_with("missing closing brace"), "{msg}");
    assert_eq!(covered, "${A\n");
    let (msg, covered) = syntax("a: ${A", SET);
    assert!(msg.contains("ends inside"), "{msg}");
    assert_eq!(covered, "${A");
    let (msg, covered) = syntax("a: ${", SET);
    assert!(msg.starts_with("unable to parse variable name"), "{msg}");
    assert_eq!(covered, "${");
    let (msg, _) = syntax("${}", SET);
    assert!(msg.starts_with("unable to parse variable name"), "{msg}");
    let (msg, _) = syntax("${A:-x", SET);
    assert!(
        msg.starts_with("unable to parse substitution within function"),
        "{msg}"
    );
    let (msg, _) = syntax("${A.B}", SET);
    assert!(msg.starts_with("missing closing brace"), "{msg}");
    assert!(msg.contains("`.`"), "{msg}");
    let (msg, _) = syntax("${ A:-x }", SET);
    assert!(msg.contains("spaces"), "{msg}");
    let (msg, _) = syntax("${A :-x}", SET);
    assert!(msg.contains("space"), "{msg}");
    // The innermost open expression is the one reported.
    let (_, covered) = syntax("${A:-${B!}}", SET);
    assert_eq!(covered, "${B!");
    // A default may span lines, so an unclosed one runs to the end of the text.
    assert_eq!(ok("${U:-a\nb}", &[]), "a\nb");
}

#[test]
fn nesting_is_bounded() {
    let deep = "${A:-".repeat(100) + &"}".repeat(100);
    let (msg, _) = syntax(&deep, &[]);
    assert!(msg.contains("nested"), "{msg}");
    let fine = "${A:-".repeat(20) + "x" + &"}".repeat(20);
    assert_eq!(ok(&fine, &[]), "x");
}

#[test]
fn legacy_spacing() {
    assert_eq!(
        ok("${ A } ${A } ${ A} ${\tA\n}", SET),
        "value value value value"
    );
    assert_eq!(
        missing("foo ${ BAR} ${BAZ} ${CAR }", &[]),
        ["BAR", "BAZ", "CAR"]
    );
    // The rewrite is textual, so it reaches into escapes too.
    assert_eq!(ok("$${ A }", SET), "${A}");
    // `$` is a name character for the rewrite; drone then rejects the name.
    assert!(
        syntax("${ BA$R }", SET)
            .0
            .starts_with("missing closing brace")
    );
    // Spans point into the original text.
    let t = "x: ${  U  }\ny: ${U}";
    match run(t, &[]) {
        Err(SubstError::Missing(m)) => {
            assert_eq!(
                &t[m[0].span.offset..m[0].span.offset + m[0].span.len],
                "${  U  }"
            );
            assert_eq!(
                &t[m[1].span.offset..m[1].span.offset + m[1].span.len],
                "${U}"
            );
        }
        other => panic!("{other:?}"),
    }
    let (_, covered) = syntax("${ A } ${ B }${C-x}", SET);
    assert_eq!(covered, "${C-");
}

#[test]
fn missing_report_order_and_spans() {
    let text = "a: ${B}\nb: ${A}\nc: ${B:-x} ${B}\nd: ${C:-x} ${C}\né: «${D}»\n";
    let file = SourceFile::new("t.yaml", text);
    let err = run(text, &[]).unwrap_err();
    let SubstError::Missing(list) = &err else {
        panic!("{err:?}");
    };
    // C is not missing: its first occurrence has a default. B's occurrence with a default
    // is not listed, the others are, in order of appearance.
    let got: Vec<(String, usize, usize)> = list
        .iter()
        .map(|m| {
            let (l, c) = file.line_col(m.span.offset);
            (m.name.clone(), l, c)
        })
        .collect();
    assert_eq!(
        got,
        [
            ("B".to_string(), 1, 4),
            ("A".to_string(), 2, 4),
            ("B".to_string(), 3, 12),
            ("D".to_string(), 5, 5),
        ]
    );
    assert!(list.iter().all(|m| text[m.span.offset..].starts_with("${")));
    assert_eq!(list[3].span.len, "${D}".len());

    let d = to_diagnostic(err, &file);
    assert_eq!(
        d.message,
        "value for variables [A, B, D] is not set. Please set the value using os environment \
         variables, the clusterctl config file or a file passed with --env-file"
    );
    assert_eq!(d.position(), Some(("t.yaml".to_string(), 1, 4)));
    assert_eq!(d.related.len(), 4);
    assert_eq!(d.related[2].position(), Some(("t.yaml".to_string(), 3, 12)));
    assert!(d.help.as_deref().is_some_and(|h| h.contains("--env-file")));
    assert!(d.is_error());
}

#[test]
fn expansion_is_capped_at_the_expression_that_crosses_it() {
    let lookup = |k: &str| match k {
        "BIG" => Some("x".repeat(10)),
        "R" => Some("y".repeat(30)),
        _ => None,
    };
    let limit = |text: &str, max| substitute_with_limit(text, &lookup, max);
    assert_eq!(limit("${BIG}${BIG}", 20).unwrap().len(), 20);
    let err = limit("a ${BIG} ${BIG}${BIG}", 25).unwrap_err();
    let SubstError::TooLarge { limit: 25, span } = err else {
        panic!("{err:?}");
    };
    // 2 + 10 + 1 + 10 = 23 fit; the third `${BIG}` does not.
    assert_eq!((span.offset, span.len), (15, 6));
    // Literal text that tips it over is blamed on the expression before it.
    let SubstError::TooLarge { span, .. } = limit("${BIG}${BIG}-----", 22).unwrap_err() else {
        panic!()
    };
    assert_eq!((span.offset, span.len), (6, 6));
    // A replacement that multiplies the value stops while it is built.
    let err = limit("v: ${BIG//x/${R}}", 200).unwrap_err();
    let SubstError::TooLarge { span, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!(span.offset, 3);
    assert!(limit("v: ${BIG//x/${R}}", 400).is_ok());
    // An argument that alone is too large blames its expression.
    let err = limit("${U:-${BIG}${BIG}}", 15).unwrap_err();
    let SubstError::TooLarge { span, .. } = err else {
        panic!("{err:?}")
    };
    assert_eq!((span.offset, span.len), (0, 18));
    let file = SourceFile::new("t.yaml", "${BIG}${BIG}");
    let d = to_diagnostic(limit("${BIG}${BIG}", 15).unwrap_err(), &file);
    assert_eq!(
        d.message,
        "cannot substitute variables: the substituted text would exceed 15 bytes"
    );
    assert_eq!(d.position(), Some(("t.yaml".to_string(), 1, 7)));
}

#[test]
fn missing_report_is_bounded() {
    let n = MAX_MISSING_REPORTED + 50;
    let text: String = (0..n).map(|i| format!("${{V{i}}}${{V{i}}}")).collect();
    let file = SourceFile::new("t.yaml", text.as_str());
    let err = run(&text, &[]).unwrap_err();
    let d = to_diagnostic(err, &file);
    assert!(
        d.message.contains("V0, V1, V10, V100, V101,"),
        "{}",
        d.message
    );
    assert!(
        d.message.contains(", … and 50 more] is not set"),
        "{}",
        d.message
    );
    assert_eq!(d.related.len(), crate::diag::MAX_RELATED);
    assert_eq!(d.omitted_related, 2 * n - crate::diag::MAX_RELATED);
}

#[test]
fn first_occurrence_decides_default() {
    // clusterctl keeps the first occurrence's default for each name.
    assert_eq!(missing("${A} ${A:-x}", &[]), ["A"]);
    assert_eq!(ok("${A:-x} ${A}", &[]), "x ");
    // Syntax errors win over missing variables.
    assert!(
        syntax("${A} ${", &[])
            .0
            .starts_with("unable to parse variable name")
    );
}

#[test]
fn syntax_diagnostic_locations() {
    let text = "kind: X\nname: ${NAME-x}\n";
    let file = SourceFile::new("f.yaml", text);
    let d = to_diagnostic(run(text, &[]).unwrap_err(), &file);
    assert!(
        d.message
            .starts_with("cannot substitute variables: missing closing brace")
    );
    assert_eq!(d.position(), Some(("f.yaml".to_string(), 2, 7)));
    assert!(d.related.is_empty());
    let loc = d.location.as_ref().map(|l| l.span);
    assert_eq!(loc, Some(Span::new(14, "${NAME-".len())));

    // An error several lines below its `${` points at both places.
    let text = "a: ${U:-one\ntwo\n";
    let file = SourceFile::new("g.yaml", text);
    let d = to_diagnostic(run(text, &[]).unwrap_err(), &file);
    assert_eq!(d.position(), Some(("g.yaml".to_string(), 1, 4)));
    assert_eq!(d.related.len(), 1);
    assert_eq!(d.related[0].position().map(|p| p.1), Some(2));
}

#[test]
fn unicode_around_expressions() {
    let v = &[("A", "ü"), ("日本", "語")];
    assert_eq!(ok("日本${A}語é${A}", v), "日本ü語éü");
    assert_eq!(ok("«${U:-défaut}»", v), "«défaut»");
    // drone's names are Unicode letters and digits.
    assert_eq!(ok("${日本}", v), "語");
    let text = "ß: «${X}»";
    let file = SourceFile::new("u", text);
    let err = run(text, v).unwrap_err();
    let d = to_diagnostic(err, &file);
    assert_eq!(d.position(), Some(("u".to_string(), 1, 5)));
    let (_, covered) = syntax("é${A:-${B€}}", v);
    assert_eq!(covered, "${B€");
}

#[test]
fn variables_lists_top_level_names() {
    assert_eq!(
        variables("${C:=default}\n${B}\n${A=foobar}\n${ D }\n${B}"),
        ["A", "B", "C", "D"]
    );
    // Nested names and escaped expressions are not listed, as in clusterctl.
    assert_eq!(variables("${X:-${NESTED}} $${ESCAPED} $BARE"), ["X"]);
    assert_eq!(
        variables("${A} ${B:0:1} ${#C} ${D^^} ${E/a/b}"),
        ["A", "B", "C", "D", "E"]
    );
    // Up to a syntax error.
    assert_eq!(variables("${B} ${A} ${"), ["A", "B"]);
    assert!(variables("no variables $here").is_empty());

    let d = variable_defaults(r#"${C:=default} ${B} ${A=foobar} ${E=""} ${D:=${A}} ${B:-x}"#);
    let want: BTreeMap<String, Option<String>> = [
        ("A", Some("foobar")),
        ("B", None),
        ("C", Some("default")),
        ("D", Some("${A}")),
        ("E", Some(r#""""#)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.map(str::to_string)))
    .collect();
    assert_eq!(d, want);
}

#[test]
fn real_template_snippets() {
    let vars = &[
        ("CLUSTER_CLASS_NAMESPACE", "cc-ns"),
        ("NAMESPACE", "ns"),
        ("EXTENSION_CONFIG_NAME", "ext"),
    ];
    let t = "      namespace: '${CLUSTER_CLASS_NAMESPACE:-${NAMESPACE}}'";
    assert_eq!(ok(t, vars), "      namespace: 'cc-ns'");
    assert_eq!(ok(t, &vars[1..]), "      namespace: 'ns'");
    let t = "generatePatchesExtension: generate-patches.${EXTENSION_CONFIG_NAME:-k8s-upgrade-with-runtimesdk}";
    assert_eq!(
        ok(t, vars),
        "generatePatchesExtension: generate-patches.ext"
    );
    assert_eq!(
        ok(t, &[]),
        "generatePatchesExtension: generate-patches.k8s-upgrade-with-runtimesdk"
    );
    assert_eq!(
        ok("cidrBlocks: ${SERVICE_CIDR:=[\"10.128.0.0/12\"]}", &[]),
        "cidrBlocks: [\"10.128.0.0/12\"]"
    );
    assert_eq!(
        ok("preLoadImages: ${DOCKER_PRELOAD_IMAGES:-[]}", &[]),
        "preLoadImages: []"
    );
    assert_eq!(
        ok(
            r#"echo "fetch-kubeadm.sh: raw version from template: '$$version'""#,
            &[]
        ),
        r#"echo "fetch-kubeadm.sh: raw version from template: '$version'""#
    );
    assert_eq!(
        ok(
            "current_version=$$($$KUBEADM_INSTALL version -o short 2>/dev/null || true)",
            &[]
        ),
        "current_version=$($KUBEADM_INSTALL version -o short 2>/dev/null || true)"
    );
    assert_eq!(
        ok(
            r#"if [[ "$${version}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then"#,
            &[]
        ),
        r#"if [[ "${version}" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then"#
    );
    assert_eq!(
        ok(
            r#"url="$${BASE_URL}/$${version}/bin/linux/$${arch}/kubeadm""#,
            &[]
        ),
        r#"url="${BASE_URL}/${version}/bin/linux/${arch}/kubeadm""#
    );
    assert_eq!(ok("rc=$$?", &[]), "rc=$?");
}

/// The example folders shipped beside the repository (`shared/examples`), if present.
fn examples_dir() -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/examples");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} not found", dir.display());
        None
    }
}

fn example(dir: &std::path::Path, folder: &str, file: &str) -> (String, BTreeMap<String, String>) {
    let read = |name: &str| std::fs::read_to_string(dir.join(folder).join(name)).unwrap();
    let env = SourceFile::new("vars.env", read("vars.env"));
    let vars = crate::load::envfile::parse(&env).unwrap();
    (read(file), vars)
}

fn subst_with(text: &str, vars: &BTreeMap<String, String>) -> Result<String, SubstError> {
    substitute(text, &|k: &str| vars.get(k).cloned())
}

#[test]
fn example_runtimesdk_kubeadm_version() {
    let Some(dir) = examples_dir() else { return };
    let (text, vars) = example(
        &dir,
        "e2e-quick-start-runtimesdk",
        "cluster-topology-kubeadm-version.yaml",
    );
    let out = subst_with(&text, &vars).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), text.lines().count());
    assert_eq!(lines[3], "  name: 'k8s-upgrade-with-runtimesdk-x1y2z3'");
    assert_eq!(
        lines[6],
        "    cni: \"k8s-upgrade-with-runtimesdk-x1y2z3-crs-0\""
    );
    assert_eq!(lines[10], "      cidrBlocks: ['10.128.0.0/12']");
    assert_eq!(
        lines[17],
        "      namespace: 'k8s-upgrade-with-runtimesdk-ns'"
    );
    assert_eq!(lines[18], "    version: \"v1.34.1\"");
    assert_eq!(
        lines[45].trim(),
        "echo \"fetch-kubeadm.sh: raw version from template: '$version'\""
    );
    assert_eq!(
        lines[56].trim(),
        "current_version=$($KUBEADM_INSTALL version -o short 2>/dev/null || true)"
    );
    assert_eq!(
        lines[69].trim(),
        "if [[ \"${version}\" =~ ^v[0-9]+\\.[0-9]+\\.[0-9]+$ ]] || \
         [[ \"${version}\" =~ ^v[0-9]+\\.[0-9]+\\.[0-9]+-(beta|rc).[0-9]+$ ]]; then"
    );
    assert_eq!(
        lines[72].trim(),
        "url=\"${BASE_URL}/${version}/bin/linux/${arch}/kubeadm\""
    );
    assert_eq!(lines[82].trim(), "rc=$?");
    assert!(!out.contains("$$"));

    // Without values: the top-level required names, sorted in the message. NAMESPACE only
    // appears inside a default and CLUSTER_CLASS_NAMESPACE has one, so neither is missing.
    let err = subst_with(&text, &BTreeMap::new()).unwrap_err();
    let file = SourceFile::new("cluster-topology-kubeadm-version.yaml", text.clone());
    let d = to_diagnostic(err, &file);
    assert_eq!(
        d.message,
        "value for variables [CLUSTER_NAME, CONTROL_PLANE_MACHINE_COUNT, DOCKER_POD_CIDRS, \
         DOCKER_SERVICE_CIDRS, DOCKER_SERVICE_DOMAIN, KUBERNETES_VERSION, \
         WORKER_MACHINE_COUNT] is not set. Please set the value using os environment \
         variables, the clusterctl config file or a file passed with --env-file"
    );
    assert_eq!(
        d.position(),
        Some(("cluster-topology-kubeadm-version.yaml".to_string(), 4, 10))
    );
    assert_eq!(d.related.len(), 8);
}

#[test]
fn example_dev_quick_start() {
    let Some(dir) = examples_dir() else { return };
    let (text, vars) = example(&dir, "dev-quick-start", "cluster-template-development.yaml");
    let out = subst_with(&text, &vars).unwrap();
    assert!(out.contains("\n      cidrBlocks: [\"192.168.0.0/16\"]\n"));
    assert!(out.contains("\n    serviceDomain: \"cluster.local\"\n"));
    assert!(out.contains("\n  name: \"capi-quickstart\"\n"));
    // The defaults apply when the variables are unset.
    let required: BTreeMap<String, String> = vars
        .into_iter()
        .filter(|(k, _)| !["POD_CIDR", "SERVICE_DOMAIN"].contains(&k.as_str()))
        .collect();
    let out = subst_with(&text, &required).unwrap();
    assert!(out.contains("\n    serviceDomain: \"cluster.local\"\n"));
    assert_eq!(
        variables(&text),
        [
            "CLUSTER_NAME",
            "CONTROL_PLANE_MACHINE_COUNT",
            "KUBERNETES_VERSION",
            "NAMESPACE",
            "POD_CIDR",
            "POD_SECURITY_STANDARD_ENABLED",
            "SERVICE_CIDR",
            "SERVICE_DOMAIN",
            "WORKER_MACHINE_COUNT"
        ]
    );
}

#[test]
fn every_example_substitutes_with_its_env_file() {
    let Some(dir) = examples_dir() else { return };
    let mut seen = 0;
    for folder in std::fs::read_dir(&dir).unwrap() {
        let folder = folder.unwrap().path();
        let Ok(env) = std::fs::read_to_string(folder.join("vars.env")) else {
            continue;
        };
        let vars = crate::load::envfile::parse(&SourceFile::new("vars.env", env)).unwrap();
        for f in std::fs::read_dir(&folder).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&f).unwrap();
                let out = subst_with(&text, &vars);
                assert!(out.is_ok(), "{}: {out:?}", f.display());
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "{seen}");
}

/// Cases from drone/envsubst's own table (eval_test.go), rewritten.
#[test]
fn drone_reference_cases() {
    type Vars = &'static [(&'static str, &'static str)];
    let cases: &[(Vars, &str, &str)] = &[
        (&[], "abcdEFGH28ij", "abcdEFGH28ij"),
        (&[("v", "abcdEFGH28ij")], "${#v}", "12"),
        (&[("v", "abcdEFGH28ij")], "${v^}", "AbcdEFGH28ij"),
        (&[("v", "abcdEFGH28ij")], "${v^^}", "ABCDEFGH28IJ"),
        (&[("v", "ABCDEFGH28IJ")], "${v,}", "aBCDEFGH28IJ"),
        (&[("v", "ABCDEFGH28IJ")], "${v,,}", "abcdefgh28ij"),
        (&[("v", "abc")], "${v=xyz}", "abc"),
        (
            &[("d", "foo1")],
            "foo: ${v=${d}-suffix}",
            "foo: foo1-suffix",
        ),
        (
            &[("d", "foo1")],
            "foo: ${v=prefix${d}-suffix}",
            "foo: prefixfoo1-suffix",
        ),
        (&[("v", "abcdEFGH28ij")], "${x=${v^^}}", "ABCDEFGH28IJ"),
        (&[("f", "path/to/file")], "${f#*/}", "to/file"),
        (&[("f", "path/to/file")], "${f##*/}", "file"),
    ];
    for (vars, input, want) in cases {
        // drone's table treats unset as empty, which clusterctl's check would reject.
        let lookup = |k: &str| {
            Some(
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map_or(String::new(), |(_, v)| (*v).to_string()),
            )
        };
        assert_eq!(substitute(input, &lookup).as_deref(), Ok(*want), "{input}");
    }
}

fn special_text() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "$", "${", "}", "{", ":", "=", "-", "?", "+", "#", "%", "/", "\\", ",", "^", "*", "[", "]",
        "A", "B", "0", "-1", " ", "\n", "é", "日", "${A}", "${B:-", "$$", "${ A }",
    ]);
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn never_panics(text in any::<String>(), other in special_text()) {
        for t in [&text, &other] {
            let _ = substitute(t, &|_: &str| None);
            let _ = substitute(t, &|k: &str| Some(format!("<{k}>")));
            let _ = variables(t);
            if let Err(e) = substitute(t, &|_: &str| None) {
                let file = SourceFile::new("p", t.clone());
                let d = to_diagnostic(e, &file);
                let spans = d.location.iter().map(|l| l.span)
                    .chain(d.related.iter().filter_map(|r| r.location.as_ref().map(|l| l.span)));
                for s in spans {
                    prop_assert!(t.get(s.offset..s.offset + s.len).is_some(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn text_without_dollar_is_unchanged(text in "[^$]*") {
        prop_assert_eq!(substitute(&text, &|_: &str| None), Ok(text.clone()));
    }

    #[test]
    fn doubled_dollars_give_the_text_back(text in "[^ \t\n\r\x0c]*") {
        // With every `$` doubled nothing is an expression any more. (Without ASCII spaces,
        // as clusterctl's legacy rewrite would edit `$${ A }`.)
        let doubled = text.replace('$', "$$");
        prop_assert_eq!(substitute(&doubled, &|_: &str| None), Ok(text.clone()));
    }
}
