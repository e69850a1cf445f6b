//! Calling functions from a function map: argument counting, conversion of literals and data
//! to the declared Go parameter types, variadics, pipelines, and error wrapping, against what
//! Go's text/template does for Sprig functions with the same signatures (expected texts taken
//! from the Go oracle; the stubs below only mimic the functions' results). In this branch the
//! Sprig map is still empty, so these checks use local stand-ins.

use topoplan::gotemplate::func::{Func, FuncMap, Param};
use topoplan::gotemplate::value::Value;
use topoplan::gotemplate::{self, MissingKey, Options};

fn s(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn int(v: &Value) -> i64 {
    match v {
        Value::Int(i) | Value::Int64(i) => *i,
        _ => 0,
    }
}

const FUNCS: &[Func] = &[
    Func {
        name: "upper",
        params: &[Param::String],
        variadic: None,
        imp: |a| Ok(Value::str(s(&a[0]).to_uppercase())),
    },
    Func {
        name: "repeat",
        params: &[Param::Int, Param::String],
        variadic: None,
        imp: |a| Ok(Value::str(s(&a[1]).repeat(int(&a[0]).max(0) as usize))),
    },
    Func {
        name: "hasKey",
        params: &[Param::Dict, Param::String],
        variadic: None,
        imp: |a| match &a[0] {
            Value::Map(m) => Ok(Value::Bool(m.entries.contains_key(&s(&a[1])))),
            _ => Ok(Value::Bool(false)),
        },
    },
    Func {
        name: "keys",
        params: &[],
        variadic: Some(Param::Dict),
        imp: |a| {
            let mut k = Vec::new();
            for m in a {
                if let Value::Map(m) = m {
                    k.extend(m.entries.keys().cloned());
                }
            }
            Ok(Value::string_list(k))
        },
    },
    Func {
        name: "default",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: |a| Ok(a[a.len() - 1].clone()),
    },
    Func {
        name: "ternary",
        params: &[Param::Any, Param::Any, Param::Bool],
        variadic: None,
        imp: |a| {
            Ok(if a[2] == Value::Bool(true) {
                a[0].clone()
            } else {
                a[1].clone()
            })
        },
    },
    Func {
        name: "until",
        params: &[Param::Int],
        variadic: None,
        imp: |a| Ok(Value::list((0..int(&a[0])).map(Value::Int).collect())),
    },
    Func {
        name: "seq",
        params: &[],
        variadic: Some(Param::Int),
        imp: |a| {
            Ok(Value::str(
                a.iter()
                    .map(|v| int(v).to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ))
        },
    },
    Func {
        name: "fail",
        params: &[Param::String],
        variadic: None,
        imp: |a| Err(s(&a[0])),
    },
    Func {
        name: "toString",
        params: &[Param::Any],
        variadic: None,
        imp: |a| Ok(Value::str(topoplan::gotemplate::print::sprint_value(&a[0]))),
    },
    Func {
        name: "join",
        params: &[Param::String, Param::Any],
        variadic: None,
        imp: |a| match &a[1] {
            Value::Slice(l) => Ok(Value::str(
                l.items
                    .iter()
                    .map(topoplan::gotemplate::print::sprint_value)
                    .collect::<Vec<_>>()
                    .join(&s(&a[0])),
            )),
            _ => Ok(Value::str("")),
        },
    },
    Func {
        name: "list",
        params: &[],
        variadic: Some(Param::Any),
        imp: |a| Ok(Value::list(a.to_vec())),
    },
    Func {
        name: "trunc",
        params: &[Param::Int, Param::String],
        variadic: None,
        imp: |a| {
            Ok(Value::str(
                s(&a[1])
                    .chars()
                    .take(int(&a[0]).max(0) as usize)
                    .collect::<String>(),
            ))
        },
    },
    Func {
        name: "add1",
        params: &[Param::Any],
        variadic: None,
        imp: |a| {
            Ok(Value::Int64(
                match &a[0] {
                    Value::Float(f) => *f as i64,
                    v => int(v),
                } + 1,
            ))
        },
    },
    Func {
        name: "splitList",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: |_| Ok(Value::Nil),
    },
    // Shadows the built-in `slice`, as Sprig's does.
    Func {
        name: "slice",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: |_| Ok(Value::str("sprig slice")),
    },
];

fn render(text: &str) -> String {
    let mut funcs = FuncMap::new();
    funcs.extend(FUNCS);
    let opts = Options {
        name: "tpl",
        funcs: &funcs,
        missing_key: MissingKey::Default,
    };
    let data = Value::from_json(&serde_json::json!({
        "s": "hello", "n": 3, "t": true, "nul": null, "l": [1, "a"], "m": {"a": 1}, "e": ""
    }));
    match gotemplate::parse(text, &opts).and_then(|t| t.execute(&data)) {
        Ok(out) => out,
        Err(e) => e.message,
    }
}

/// (template, Go's output or error text)
const CASES: &[(&str, &str)] = &[
    (
        "{{upper 1}}",
        "template: tpl:1:8: executing \"tpl\" at <1>: expected string; found 1",
    ),
    (
        "{{upper .n}}",
        "template: tpl:1:8: executing \"tpl\" at <.n>: wrong type for value; expected string; got float64",
    ),
    (
        "{{upper .nul}}",
        "template: tpl:1:8: executing \"tpl\" at <.nul>: wrong type for value; expected string; got interface {}",
    ),
    (
        "{{upper .missing}}",
        "template: tpl:1:8: executing \"tpl\" at <.missing>: invalid value; expected string",
    ),
    (
        "{{.missing | upper}}",
        "template: tpl:1:13: executing \"tpl\" at <upper>: invalid value; expected string",
    ),
    (
        "{{.nul | upper}}",
        "template: tpl:1:9: executing \"tpl\" at <upper>: invalid value; expected string",
    ),
    (
        "{{upper}}",
        "template: tpl:1:2: executing \"tpl\" at <upper>: wrong number of args for upper: want 1 got 0",
    ),
    (
        "{{upper \"a\" \"b\"}}",
        "template: tpl:1:2: executing \"tpl\" at <upper>: wrong number of args for upper: want 1 got 2",
    ),
    (
        "{{\"a\" | upper \"b\"}}",
        "template: tpl:1:8: executing \"tpl\" at <upper>: wrong number of args for upper: want 1 got 2",
    ),
    ("{{upper .s}}", "HELLO"),
    ("{{.s | upper}}", "HELLO"),
    (
        "{{repeat \"x\" 2}}",
        "template: tpl:1:9: executing \"tpl\" at <\"x\">: expected integer; found \"x\"",
    ),
    (
        "{{repeat 2.5 \"x\"}}",
        "template: tpl:1:9: executing \"tpl\" at <2.5>: expected integer; found 2.5",
    ),
    ("{{repeat 2.0 \"x\"}}", "xx"),
    (
        "{{repeat .n \"x\"}}",
        "template: tpl:1:9: executing \"tpl\" at <.n>: wrong type for value; expected int; got float64",
    ),
    (
        "{{repeat nil \"x\"}}",
        "template: tpl:1:9: executing \"tpl\" at <nil>: cannot assign nil to int",
    ),
    ("{{\"x\" | repeat 2}}", "xx"),
    (
        "{{2 | repeat \"x\"}}",
        "template: tpl:1:13: executing \"tpl\" at <\"x\">: expected integer; found \"x\"",
    ),
    (
        "{{repeat 2 | upper}}",
        "template: tpl:1:2: executing \"tpl\" at <repeat>: wrong number of args for repeat: want 2 got 1",
    ),
    ("{{hasKey .m \"a\"}}", "true"),
    (
        "{{hasKey .l \"a\"}}",
        "template: tpl:1:9: executing \"tpl\" at <.l>: wrong type for value; expected map[string]interface {}; got []interface {}",
    ),
    ("{{hasKey nil \"a\"}}", "false"),
    (
        "{{hasKey \"x\" \"a\"}}",
        "template: tpl:1:9: executing \"tpl\" at <\"x\">: can't handle \"x\" for arg of type map[string]interface {}",
    ),
    ("{{hasKey .missing \"a\"}}", "false"),
    (
        "{{hasKey .nul \"a\"}}",
        "template: tpl:1:9: executing \"tpl\" at <.nul>: wrong type for value; expected map[string]interface {}; got interface {}",
    ),
    ("{{keys .m .m}}", "[a a]"),
    ("{{keys}}", "[]"),
    (
        "{{keys .m .l}}",
        "template: tpl:1:10: executing \"tpl\" at <.l>: wrong type for value; expected map[string]interface {}; got []interface {}",
    ),
    (
        "{{keys .m 1}}",
        "template: tpl:1:10: executing \"tpl\" at <1>: can't handle 1 for arg of type map[string]interface {}",
    ),
    (
        "{{default}}",
        "template: tpl:1:2: executing \"tpl\" at <default>: wrong number of args for default: want at least 1 got 0",
    ),
    ("{{default 1}}", "1"),
    ("{{ternary 1 2 .t}}", "1"),
    (
        "{{ternary 1 2 1}}",
        "template: tpl:1:14: executing \"tpl\" at <1>: expected bool; found 1",
    ),
    (
        "{{ternary 1 2 \"true\"}}",
        "template: tpl:1:14: executing \"tpl\" at <\"true\">: expected bool; found \"true\"",
    ),
    (
        "{{ternary 1 2 .n}}",
        "template: tpl:1:14: executing \"tpl\" at <.n>: wrong type for value; expected bool; got float64",
    ),
    (
        "{{ternary 1 2 nil}}",
        "template: tpl:1:14: executing \"tpl\" at <nil>: cannot assign nil to bool",
    ),
    ("{{until 3}}", "[0 1 2]"),
    (
        "{{until 3.5}}",
        "template: tpl:1:8: executing \"tpl\" at <3.5>: expected integer; found 3.5",
    ),
    (
        "{{until .n}}",
        "template: tpl:1:8: executing \"tpl\" at <.n>: wrong type for value; expected int; got float64",
    ),
    ("{{until 0x10 | len}}", "16"),
    ("{{until 1e2 | len}}", "100"),
    ("{{seq 1 2}}", "1 2"),
    (
        "{{seq 1.5}}",
        "template: tpl:1:6: executing \"tpl\" at <1.5>: expected integer; found 1.5",
    ),
    (
        "{{seq 1 .n}}",
        "template: tpl:1:8: executing \"tpl\" at <.n>: wrong type for value; expected int; got float64",
    ),
    (
        "{{fail \"boom\"}}",
        "template: tpl:1:2: executing \"tpl\" at <fail \"boom\">: error calling fail: boom",
    ),
    (
        "{{fail .n}}",
        "template: tpl:1:7: executing \"tpl\" at <.n>: wrong type for value; expected string; got float64",
    ),
    ("{{toString nil}}", "<nil>"),
    ("{{toString .missing}}", "<nil>"),
    ("{{join \",\" .l}}", "1,a"),
    (
        "{{join 1 .l}}",
        "template: tpl:1:7: executing \"tpl\" at <1>: expected string; found 1",
    ),
    (
        "{{list 1 \"a\" nil .missing .nul}}",
        "[1 a <nil> <nil> <nil>]",
    ),
    ("{{trunc 2 \"hello\" | upper}}", "HE"),
    ("{{\"hello\" | trunc 2}}", "he"),
    (
        "{{2 | trunc \"hello\"}}",
        "template: tpl:1:12: executing \"tpl\" at <\"hello\">: expected integer; found \"hello\"",
    ),
    ("{{add1 .missing}}", "1"),
    (
        "{{splitList \",\" nil}}",
        "template: tpl:1:16: executing \"tpl\" at <nil>: cannot assign nil to string",
    ),
    ("{{slice \"abc\" 1}}", "sprig slice"),
];

#[test]
fn function_calls_match_go() {
    let mut failures = Vec::new();
    for (text, want) in CASES {
        let got = render(text);
        if got != *want {
            failures.push(format!("{text}\n    want {want:?}\n    got  {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn unknown_functions_are_parse_errors() {
    assert_eq!(
        render("{{nope 1}}"),
        "template: tpl:1: function \"nope\" not defined"
    );
}

/// Method calls on `*semver.Version` values, with Go's texts. These need Sprig's `semver`
/// function and the semver method hook; until both exist (they are written separately) the
/// test only reports that it was skipped.
#[test]
fn semver_methods_match_go() {
    let funcs = gotemplate::sprig::hermetic();
    let probe = Value::Semver(
        std::sync::Arc::new(topoplan::gotemplate::value::Version {
            major: 1,
            minor: 2,
            patch: 3,
            pre: String::new(),
            metadata: String::new(),
            original: "1.2.3".into(),
        }),
        true,
    );
    if funcs.get("semver").is_none()
        || gotemplate::sprig::semver::method(&probe, "Major", &[]).is_none()
    {
        eprintln!("semver_methods_match_go: skipped (no Sprig semver function or method hook yet)");
        return;
    }
    let opts = Options {
        name: "tpl",
        funcs,
        missing_key: MissingKey::Default,
    };
    let cases: &[(&str, &str)] = &[
        ("{{(semver \"1.2.3\").Major}}", "1"),
        (
            "{{printf \"%T %v\" (semver \"1.2.3\").Major (semver \"1.2.3\").IncMinor}}",
            "uint64 1.3.0",
        ),
        (
            "{{(semver \"1.2.3\").major}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: major is an unexported field of struct type *semver.Version",
        ),
        (
            "{{(semver \"1.2.3\").Nope}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: can't evaluate field Nope in type *semver.Version",
        ),
        (
            "{{(semver \"1.2.3\").Major 1}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: wrong number of args for Major: want 0 got 1",
        ),
        ("{{(semver \"1.2.3\").LessThan (semver \"1.3.0\")}}", "true"),
        (
            "{{(semver \"1.2.3\").LessThan \"x\"}}",
            "template: tpl:1:28: executing \"tpl\" at <\"x\">: can't handle \"x\" for arg of type *semver.Version",
        ),
        (
            "{{(semver \"1.2.3\").LessThan}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: wrong number of args for LessThan: want 1 got 0",
        ),
        ("{{(semver \"1.2.3\").IncMinor.Minor}}", "3"),
        (
            "{{(semver \"1.2.3\").IncMinor.LessThan (semver \"2.0.0\")}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: can't evaluate field LessThan in type semver.Version",
        ),
        ("{{(semver \"v1.2.3\").Original}}", "v1.2.3"),
        (
            "{{(semver \"1.2.3\").SetPrerelease \"alpha\"}}",
            "1.2.3-alpha",
        ),
        (
            "{{(semver \"1.2.3\").SetPrerelease 1}}",
            "template: tpl:1:33: executing \"tpl\" at <1>: expected string; found 1",
        ),
        ("{{(semver \"1.2.3\").Compare (semver \"1.2.3\")}}", "0"),
        (
            "{{(semver \"1.2.3\").LessThan nil}}",
            "template: tpl:1:18: executing \"tpl\" at <(semver \"1.2.3\").LessThan>: error calling LessThan: runtime error: invalid memory address or nil pointer dereference",
        ),
        (
            "{{$v := semver \"1.2.3\"}}{{$v.Major}} {{$v.String}} {{$v.Major | printf \"%d\"}}",
            "1 1.2.3 1",
        ),
        (
            "{{$v := semver \"1.2.3\"}}{{\"alpha\" | $v.SetPrerelease}}",
            "1.2.3-alpha",
        ),
        (
            "{{with semver \"1.2.3\"}}{{.Minor}}{{.x}}{{end}}",
            "template: tpl:1:35: executing \"tpl\" at <.x>: can't evaluate field x in type *semver.Version",
        ),
        (
            "{{(semver \"1.2.3\").String 1}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: wrong number of args for String: want 0 got 1",
        ),
        (
            "{{(semver \"1.2.3\").Major.x}}",
            "template: tpl:1:10: executing \"tpl\" at <\"1.2.3\">: can't evaluate field x in type uint64",
        ),
        (
            "{{printf \"%v|%s|%d|%+v|%#v|%T|%q|%x\" (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\") (semver \"v1.2.3-rc.1+b\")}}",
            "1.2.3-rc.1+b|1.2.3-rc.1+b|&{1 2 3 %!d(string=rc.1) %!d(string=b) %!d(string=v1.2.3-rc.1+b)}|1.2.3-rc.1+b|&semver.Version{major:0x1, minor:0x2, patch:0x3, pre:\"rc.1\", metadata:\"b\", original:\"v1.2.3-rc.1+b\"}|*semver.Version|\"1.2.3-rc.1+b\"|312e322e332d72632e312b62",
        ),
        ("{{eq (semver \"1.2.3\") (semver \"1.2.3\")}}", "false"),
        ("{{$v := semver \"1.2.3\"}}{{eq $v $v}}", "true"),
        (
            "{{len (semver \"1.2.3\")}}",
            "template: tpl:1:2: executing \"tpl\" at <len (semver \"1.2.3\")>: error calling len: len of type semver.Version",
        ),
        (
            "{{range (semver \"1.2.3\")}}{{end}}",
            "template: tpl:1:16: executing \"tpl\" at <\"1.2.3\">: range can't iterate over 1.2.3",
        ),
        (
            "{{print (semver \"1.2.3\") (semver \"1.2.3\")}}",
            "1.2.3 1.2.3",
        ),
        (
            "{{printf \"%5.1v|%-8s|\" (semver \"1.2.3\") (semver \"1.2.3\")}}",
            "    1|1.2.3   |",
        ),
    ];
    let mut failures = Vec::new();
    for (text, want) in cases {
        let got = match gotemplate::parse(text, &opts).and_then(|t| t.execute(&Value::Nil)) {
            Ok(out) => out,
            Err(e) => e.message,
        };
        if got != *want {
            failures.push(format!("{text}\n    want {want:?}\n    got  {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_panicking_function_is_an_error_not_a_crash() {
    const BAD: &[Func] = &[Func {
        name: "boom",
        params: &[],
        variadic: None,
        imp: |a| Ok(a[5].clone()),
    }];
    let mut funcs = FuncMap::new();
    funcs.extend(BAD);
    let opts = Options {
        name: "tpl",
        funcs: &funcs,
        missing_key: MissingKey::Default,
    };
    let e = gotemplate::parse("{{boom}}", &opts)
        .and_then(|t| t.execute(&Value::Nil))
        .expect_err("error");
    assert!(
        e.message.starts_with("template: tpl:1:2: executing \"tpl\" at <boom>: error calling boom: internal error: function panicked"),
        "{}",
        e.message
    );
}
