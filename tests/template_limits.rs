//! The template engine must never panic, overflow its stack or run unbounded, whatever the
//! template: deep nesting, huge ranges, runaway recursion, giant outputs (property tests plus
//! targeted cases). Stack-hungry cases run on threads with a 2 MiB stack, the default for
//! spawned threads (rayon workers, test threads).

use std::collections::BTreeMap;

use proptest::prelude::*;
use topoplan::gotemplate::func::FuncMap;
use topoplan::gotemplate::value::Value;
use topoplan::gotemplate::{self, ErrorKind, MissingKey, Options};

fn render(text: &str, data: &Value) -> Result<String, gotemplate::Error> {
    let funcs = FuncMap::new();
    let opts = Options {
        name: "tpl",
        funcs: &funcs,
        missing_key: MissingKey::Default,
    };
    gotemplate::parse(text, &opts)?.execute(data)
}

/// Run `f` on a thread with a 2 MiB stack (what rayon and the test harness give).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic or overflow")
}

fn data() -> Value {
    Value::from_json(&serde_json::json!({
        "s": "hello", "n": 3, "l": [1, "a", null, {"k": [true]}], "m": {"a": 1, "b": {"c": "x"}},
        "nul": null, "e": ""
    }))
}

#[test]
fn deepest_accepted_nesting_fits_a_small_stack() {
    on_small_stack(|| {
        let n = topoplan::gotemplate::parse::MAX_NESTING;
        let parens = format!("{{{{{}1{}}}}}", "(".repeat(n), ")".repeat(n));
        assert_eq!(render(&parens, &Value::Nil).as_deref(), Ok("1"));
        let calls = format!("{{{{{}1{}}}}}", "(printf \"%v\" ".repeat(n), ")".repeat(n));
        assert_eq!(render(&calls, &Value::Nil).as_deref(), Ok("1"));
        let ifs = format!("{}x{}", "{{if 1}}".repeat(n), "{{end}}".repeat(n));
        assert_eq!(render(&ifs, &Value::Nil).as_deref(), Ok("x"));
        let elses = format!("{{{{if 0}}}}{}x{{{{end}}}}", "{{else if 0}}".repeat(n - 1));
        assert_eq!(render(&elses, &Value::Nil).as_deref(), Ok(""));
        let ranges = format!("{}x{}", "{{range 1}}".repeat(n), "{{end}}".repeat(n));
        assert_eq!(render(&ranges, &Value::Nil).as_deref(), Ok("x"));
        let withs = format!("{}{{{{.}}}}{}", "{{with .}}".repeat(n), "{{end}}".repeat(n));
        assert_eq!(render(&withs, &Value::Int(5)).as_deref(), Ok("5"));
    });
}

#[test]
fn too_deep_nesting_is_a_parse_error() {
    on_small_stack(|| {
        for text in [
            format!("{{{{{}1{}}}}}", "(".repeat(100_000), ")".repeat(100_000)),
            "{{if 1}}".repeat(100_000),
            format!("{{{{if 0}}}}{}", "{{else if 0}}".repeat(100_000)),
            "{{block \"a\" .}}".repeat(100_000),
            "{{(".repeat(100_000),
        ] {
            let e = render(&text, &Value::Nil).expect_err("too deep");
            assert_eq!(e.kind, ErrorKind::Parse, "{}", e.message);
        }
    });
}

#[test]
fn deep_values_print_and_drop_on_a_small_stack() {
    on_small_stack(|| {
        let mut v = Value::str("leaf");
        let mut m = Value::Nil;
        for _ in 0..topoplan::gotemplate::exec::MAX_VALUE_DEPTH {
            v = Value::list(vec![v]);
            let mut e = BTreeMap::new();
            e.insert("k".to_string(), m);
            m = Value::dict(e);
        }
        let out = render("{{.}}", &v).expect("prints");
        assert!(out.starts_with("[[[[") && out.contains("leaf"));
        let out = render("{{printf \"%#v\" .}}", &m).expect("prints");
        assert!(out.starts_with("map[string]interface {}{\"k\":map"));
        drop(v);
        drop(m);
    });
}

#[test]
fn runaway_template_recursion_stops_with_go_error() {
    let e = on_small_stack(|| {
        render(
            "{{define \"r\"}}{{template \"r\" .}}{{end}}{{template \"r\" .}}",
            &Value::Nil,
        )
    })
    .expect_err("recursion");
    assert!(
        e.message
            .ends_with("exceeded maximum template depth (100000)"),
        "{}",
        e.message
    );
    // Mutual recursion through nested control structures uses no native stack either.
    let e = on_small_stack(|| {
        render(
            "{{define \"a\"}}{{range 1}}{{with 1}}{{template \"b\"}}{{end}}{{end}}{{end}}\
             {{define \"b\"}}{{if 1}}{{template \"a\"}}{{end}}{{end}}{{template \"a\"}}",
            &Value::Nil,
        )
    })
    .expect_err("recursion");
    assert!(
        e.message
            .ends_with("exceeded maximum template depth (100000)"),
        "{}",
        e.message
    );
}

#[test]
fn huge_loops_hit_the_step_budget() {
    for text in [
        "{{range 1000000000}}{{end}}",
        "{{range 100000}}{{range 100000}}{{end}}{{end}}",
        "{{define \"a\"}}{{range 10}}{{template \"a\"}}{{end}}{{end}}{{template \"a\"}}",
    ] {
        let e = render(text, &Value::Nil).expect_err("budget");
        assert_eq!(e.kind, ErrorKind::Exec);
        assert!(
            e.message.contains("template execution budget exceeded")
                || e.message.contains("maximum template depth"),
            "{}",
            e.message
        );
    }
}

#[test]
fn giant_outputs_hit_the_output_cap() {
    let text = "{{range 100000}}{{printf \"%1000000d\" 1}}{{end}}";
    let e = render(text, &Value::Nil).expect_err("cap");
    assert!(
        e.message.contains("bytes (a limit of this engine)"),
        "{}",
        e.message
    );
    // Doubling a variable: each intermediate string is checked too.
    let text =
        "{{$x := \"xxxxxxxxxxxxxxxx\"}}{{range 40}}{{$x = printf \"%s%s\" $x $x}}{{end}}{{len $x}}";
    let e = render(text, &Value::Nil).expect_err("cap");
    assert!(
        e.message.contains("a limit of this engine"),
        "{}",
        e.message
    );
}

#[test]
fn template_is_shareable_across_threads() {
    let funcs = FuncMap::new();
    let opts = Options {
        name: "tpl",
        funcs: &funcs,
        missing_key: MissingKey::Default,
    };
    let tpl = std::sync::Arc::new(gotemplate::parse("{{.s}}-{{len .l}}", &opts).expect("parse"));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let t = tpl.clone();
            std::thread::spawn(move || t.execute(&data()).expect("execute"))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("join"), "hello-4");
    }
}

/// Template-ish text: actions, keywords, literals and junk, to reach deep into the parser.
fn template_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("{{".to_string()),
        Just("}}".to_string()),
        Just("{{- ".to_string()),
        Just(" -}}".to_string()),
        Just("{{/*".to_string()),
        Just("*/}}".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("|".to_string()),
        Just(" ".to_string()),
        Just("\n".to_string()),
        Just(".".to_string()),
        Just(".s".to_string()),
        Just(".l".to_string()),
        Just(".m.b.c".to_string()),
        Just(".nul.x".to_string()),
        Just("$".to_string()),
        Just("$x".to_string()),
        Just(":=".to_string()),
        Just("=".to_string()),
        Just(",".to_string()),
        Just("if".to_string()),
        Just("else".to_string()),
        Just("end".to_string()),
        Just("range".to_string()),
        Just("with".to_string()),
        Just("break".to_string()),
        Just("continue".to_string()),
        Just("define \"a\"".to_string()),
        Just("template \"a\"".to_string()),
        Just("block \"b\"".to_string()),
        Just("nil".to_string()),
        Just("true".to_string()),
        Just("printf \"%v %d %s\"".to_string()),
        Just("print".to_string()),
        Just("index".to_string()),
        Just("slice".to_string()),
        Just("len".to_string()),
        Just("eq".to_string()),
        Just("lt".to_string()),
        Just("and".to_string()),
        Just("or".to_string()),
        Just("not".to_string()),
        Just("call".to_string()),
        Just("html".to_string()),
        Just("js".to_string()),
        Just("urlquery".to_string()),
        Just("3".to_string()),
        Just("-1".to_string()),
        Just("1.5e3".to_string()),
        Just("0x1F".to_string()),
        Just("'a'".to_string()),
        Just("1i".to_string()),
        Just("\"s\\n\"".to_string()),
        Just("`raw`".to_string()),
        "[ -~]{0,3}".prop_map(|s| s),
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_on_template_like_input(text in template_text()) {
        let _ = render(&text, &data());
    }

    #[test]
    fn never_panics_on_arbitrary_input(text in "\\PC{0,60}") {
        let _ = render(&text, &data());
        let _ = render(&format!("{{{{{text}}}}}"), &data());
    }

    #[test]
    fn printf_never_panics(format in "[%#+\\- 0-9.*\\[\\]a-zA-Z!é]{0,16}", n in any::<f64>(), i in any::<i64>()) {
        let text = format!("{{{{printf {:?} .f .i .s .l .m .nul 7 -3 \"x\"}}}}", format);
        let d = Value::from_json(&serde_json::json!({
            "f": if n.is_finite() { serde_json::json!(n) } else { serde_json::json!(0) },
            "i": i, "s": "é", "l": [1, "a"], "m": {"k": null}, "nul": null
        }));
        let _ = render(&text, &d);
    }
}
