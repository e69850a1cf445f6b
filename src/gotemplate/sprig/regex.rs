/*!
Sprig's regular-expression functions (`regexMatch`, `regexFind`, `regexFindAll`,
`regexReplaceAll`, `regexReplaceAllLiteral`, `regexSplit`, their `must*` twins, and
`regexQuoteMeta`) with Go's `regexp` semantics.

Everything Go-specific (the pattern syntax, its error texts and the matching loops) is
[`crate::go::regexp`]; this file is the function table. Sprig's plain variants answer a pattern
Go rejects with `regexp.MustCompile`'s panic text, the `must*` ones with `Compile`'s error;
`regexMatch` ignores the error and answers false.
*/

use std::sync::Arc;

use crate::go::regexp::{GoRegex, compile, must_compile_error, quote_meta};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "regexMatch",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: regex_match,
    },
    Func {
        name: "mustRegexMatch",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: must_regex_match,
    },
    Func {
        name: "regexFindAll",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: regex_find_all,
    },
    Func {
        name: "mustRegexFindAll",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: must_regex_find_all,
    },
    Func {
        name: "regexFind",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: regex_find,
    },
    Func {
        name: "mustRegexFind",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: must_regex_find,
    },
    Func {
        name: "regexReplaceAll",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: regex_replace_all,
    },
    Func {
        name: "mustRegexReplaceAll",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: must_regex_replace_all,
    },
    Func {
        name: "regexReplaceAllLiteral",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: regex_replace_all_literal,
    },
    Func {
        name: "mustRegexReplaceAllLiteral",
        params: &[Param::String, Param::String, Param::String],
        variadic: None,
        imp: must_regex_replace_all_literal,
    },
    Func {
        name: "regexSplit",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: regex_split,
    },
    Func {
        name: "mustRegexSplit",
        params: &[Param::String, Param::String, Param::Int],
        variadic: None,
        imp: must_regex_split,
    },
    Func {
        name: "regexQuoteMeta",
        params: &[Param::String],
        variadic: None,
        imp: regex_quote_meta,
    },
];

// ---- the template functions ----

fn str_arg(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

/// `regexp.Compile`'s error for `must*`; `regexp.MustCompile`'s panic for the plain variants.
fn compiled(args: &[Value], must: bool) -> Result<Arc<GoRegex>, String> {
    let expr = str_arg(args, 0);
    compile(expr).map_err(|e| {
        if must {
            e
        } else {
            must_compile_error(expr, &e)
        }
    })
}

fn regex_match(args: &[Value]) -> Result<Value, String> {
    // Sprig ignores the compile error and answers false.
    Ok(Value::Bool(
        compile(str_arg(args, 0)).is_ok_and(|re| re.is_match(str_arg(args, 1))),
    ))
}

fn must_regex_match(args: &[Value]) -> Result<Value, String> {
    let re = compiled(args, true)?;
    Ok(Value::Bool(re.is_match(str_arg(args, 1))))
}

fn find_all(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    let n = super::math::int_arg(args, 2);
    let found: Vec<&str> = re
        .find_all(s, n)
        .into_iter()
        .filter_map(|(a, b)| s.get(a..b))
        .collect();
    Ok(Value::string_list(found))
}

fn regex_find_all(args: &[Value]) -> Result<Value, String> {
    find_all(args, false)
}

fn must_regex_find_all(args: &[Value]) -> Result<Value, String> {
    find_all(args, true)
}

fn find(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    Ok(Value::str(
        re.find(s).and_then(|(a, b)| s.get(a..b)).unwrap_or(""),
    ))
}

fn regex_find(args: &[Value]) -> Result<Value, String> {
    find(args, false)
}

fn must_regex_find(args: &[Value]) -> Result<Value, String> {
    find(args, true)
}

fn replace(args: &[Value], must: bool, literal: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let (s, repl) = (str_arg(args, 1), str_arg(args, 2));
    Ok(Value::str(re.replace_all(s, repl, literal)))
}

fn regex_replace_all(args: &[Value]) -> Result<Value, String> {
    replace(args, false, false)
}

fn must_regex_replace_all(args: &[Value]) -> Result<Value, String> {
    replace(args, true, false)
}

fn regex_replace_all_literal(args: &[Value]) -> Result<Value, String> {
    replace(args, false, true)
}

fn must_regex_replace_all_literal(args: &[Value]) -> Result<Value, String> {
    replace(args, true, true)
}

fn split(args: &[Value], must: bool) -> Result<Value, String> {
    let re = compiled(args, must)?;
    let s = str_arg(args, 1);
    let n = super::math::int_arg(args, 2);
    Ok(Value::string_list(re.split(s, n)))
}

fn regex_split(args: &[Value]) -> Result<Value, String> {
    split(args, false)
}

fn must_regex_split(args: &[Value]) -> Result<Value, String> {
    split(args, true)
}

fn regex_quote_meta(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(quote_meta(str_arg(args, 0))))
}

/// Replays `testdata/golden/template/sprig-b.direct.jsonl` (Go's results for direct calls,
/// produced by `scripts/gen-golden-sprig-b.sh`) against the implementations, without the
/// template engine: arguments arrive with the Go types a template literal has, results are
/// printed the way the vector recorded them (`%#v`, or `%b` for exact float bits).
#[cfg(test)]
pub(crate) mod golden {
    use crate::gotemplate::func::Func;
    use crate::gotemplate::value::{GoType, Value};

    const VECTORS: &str = include_str!("../../../testdata/golden/template/sprig-b.direct.jsonl");

    fn arg(a: &serde_json::Value) -> Value {
        let v = &a["value"];
        let items = || {
            v.as_array()
                .map(|l| l.iter().map(arg).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        match a["type"].as_str() {
            Some("string") => Value::str(v.as_str().unwrap_or_default()),
            Some("int") => Value::Int(v.as_i64().expect("int")),
            // text/template parses number literals with strconv, so `-0.0` is negative zero.
            Some("float64") => Value::Float(
                a["text"]
                    .as_str()
                    .and_then(|t| t.parse().ok())
                    .expect("float text"),
            ),
            Some("bool") => Value::Bool(v.as_bool().unwrap_or_default()),
            Some("json") => Value::from_json(v),
            Some("list") => Value::list(items()),
            Some("dict") => {
                // Sprig's dict: keys through strval, odd trailing key maps to "".
                let (mut m, l) = (std::collections::BTreeMap::new(), items());
                for pair in l.chunks(2) {
                    let key = super::super::cast::strval(&pair[0]);
                    m.insert(key, pair.get(1).cloned().unwrap_or_else(|| Value::str("")));
                }
                Value::dict(m)
            }
            Some("strings") => Value::string_list(
                v.as_array()
                    .map(|l| {
                        l.iter()
                            .map(|x| x.as_str().unwrap_or_default().to_string())
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default(),
            ),
            Some("ints") => Value::Slice(std::sync::Arc::new(crate::gotemplate::value::Slice {
                elem: GoType::Int,
                items: (0..v.as_i64().unwrap_or(0)).map(Value::Int).collect(),
            })),
            _ => Value::Nil,
        }
    }

    /// fmt's `%v` for a float64: shortest digits, `%e` form below 1e-4 and from 1e6 (Go's
    /// rule for `%g` with the shortest precision).
    fn go_float(f: f64) -> String {
        if f.is_nan() {
            return "NaN".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                "+Inf".into()
            } else {
                "-Inf".into()
            };
        }
        let sign = if f.is_sign_negative() { "-" } else { "" };
        if f == 0.0 {
            return format!("{sign}0");
        }
        let text = format!("{:e}", f.abs());
        let (mantissa, exp) = text.split_once('e').expect("exponent");
        let exp: i64 = exp.parse().expect("exponent");
        let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
        if !(-4..6).contains(&exp) {
            let (first, rest) = digits.split_at(1);
            let frac = if rest.is_empty() {
                String::new()
            } else {
                format!(".{rest}")
            };
            let esign = if exp < 0 { '-' } else { '+' };
            return format!("{sign}{first}{frac}e{esign}{:02}", exp.abs());
        }
        let dp = exp + 1;
        let nd = digits.len() as i64;
        let body = if dp <= 0 {
            format!("0.{}{digits}", "0".repeat((-dp) as usize))
        } else if dp >= nd {
            format!("{digits}{}", "0".repeat((dp - nd) as usize))
        } else {
            format!("{}.{}", &digits[..dp as usize], &digits[dp as usize..])
        };
        format!("{sign}{body}")
    }

    /// `strconv.FormatFloat(f, 'b', -1, 64)` as fmt's `%b` prints it.
    fn float_bits(f: f64) -> String {
        if f.is_nan() {
            return "NaN".into();
        }
        if f.is_infinite() {
            return if f > 0.0 {
                "+Inf".into()
            } else {
                "-Inf".into()
            };
        }
        let bits = f.to_bits();
        let neg = bits >> 63 == 1;
        let mut exp = ((bits >> 52) & 0x7ff) as i64;
        let mut mant = bits & ((1 << 52) - 1);
        if exp == 0 {
            exp = 1;
        } else {
            mant |= 1 << 52;
        }
        let e = exp - 1023 - 52;
        format!(
            "{}{}p{}{}",
            if neg { "-" } else { "" },
            mant,
            if e >= 0 { "+" } else { "" },
            e
        )
    }

    /// fmt's `%#v` for the result types these functions return (`top`: not inside a
    /// collection, where a nil interface prints as `<nil>`).
    fn sharp_v(v: &Value, top: bool) -> String {
        match v {
            Value::Nil | Value::Invalid if top => "<nil>".into(),
            Value::Nil | Value::Invalid => "interface {}(nil)".into(),
            Value::String(s) => crate::go::strconv::quote(s, false),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) | Value::Int64(i) => i.to_string(),
            Value::Float(f) => go_float(*f),
            Value::Slice(s) => {
                let items: Vec<String> = s.items.iter().map(|i| sharp_v(i, false)).collect();
                format!("[]{}{{{}}}", s.elem.name(), items.join(", "))
            }
            Value::Map(m) => {
                let items: Vec<String> = m
                    .entries
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{}:{}",
                            crate::go::strconv::quote(k, false),
                            sharp_v(v, false)
                        )
                    })
                    .collect();
                format!("map[string]{}{{{}}}", m.elem.name(), items.join(", "))
            }
            other => format!("{other:?}"),
        }
    }

    /// Go's nil slices and maps print as `[]T(nil)`; the value model only has empty ones.
    fn nil_slices_as_empty(s: &str) -> String {
        let nil =
            ::regex::Regex::new(r"((?:\[\]|map\[string\])+(?:interface \{\}|[a-z0-9]+))\(nil\)")
                .expect("valid pattern");
        nil.replace_all(s, "${1}{}").into_owned()
    }

    /// Whether a dependency named by a vector's `needs` mark behaves like Go yet: the shared
    /// cast module (float64 → int64 overflow) and fmt (`%v` of non-strings) are written
    /// elsewhere; their vectors are enforced as soon as they do.
    fn dependency_ready(needs: &str) -> bool {
        if needs.starts_with("cast") {
            super::super::cast::to_int64(&Value::Float(1e20)) == i64::MIN
        } else if needs.starts_with("fmt") {
            crate::gotemplate::print::sprint_value(&Value::Int(1)) == "1"
        } else {
            false
        }
    }

    /// Check every vector whose function is in `funcs`; returns how many were checked. Vectors
    /// marked `needs` depend on code outside this group and wait until it is ready.
    pub(crate) fn check(funcs: &[Func]) -> usize {
        let mut checked = 0;
        let mut failures = Vec::new();
        for line in VECTORS.lines() {
            let rec: serde_json::Value = serde_json::from_str(line).expect("vector is JSON");
            let name = rec["func"].as_str().unwrap_or_default();
            let Some(f) = funcs.iter().find(|f| f.name == name) else {
                continue;
            };
            if rec
                .get("needs")
                .and_then(|n| n.as_str())
                .is_some_and(|n| !dependency_ready(n))
            {
                continue;
            }
            let args: Vec<Value> = rec["args"]
                .as_array()
                .map(|a| a.iter().map(arg).collect())
                .unwrap_or_default();
            let got = match (f.imp)(&args) {
                Ok(v) if rec["verb"] == "%b" => match v {
                    Value::Float(x) => Ok(float_bits(x)),
                    other => Ok(format!("{other:?}")),
                },
                Ok(v) => Ok(sharp_v(&v, true)),
                Err(e) => Err(e),
            };
            let want = match rec.get("error") {
                Some(e) => Err(e.as_str().unwrap_or_default().to_string()),
                None => Ok(rec["print"].as_str().unwrap_or_default().to_string()),
            };
            let same = got == want
                || got.as_deref().map(nil_slices_as_empty)
                    == want.as_deref().map(nil_slices_as_empty);
            if !same {
                failures.push(format!("{line}\n   got: {got:?}"));
            }
            checked += 1;
        }
        assert!(
            failures.is_empty(),
            "{} of {checked} vectors differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
        checked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::str(x)
    }

    fn strings(v: &Value) -> Vec<String> {
        match v {
            Value::Slice(sl) => {
                assert_eq!(sl.elem, crate::gotemplate::value::GoType::String);
                sl.items
                    .iter()
                    .map(|i| i.as_str().unwrap_or("?").to_string())
                    .collect()
            }
            other => panic!("not a slice: {other:?}"),
        }
    }

    #[test]
    fn find_all_function() {
        let v = regex_find_all(&[s("[0-9]+"), s("a1b22c333"), Value::Int(-1)]).unwrap();
        assert_eq!(strings(&v), ["1", "22", "333"]);
        let v = regex_find_all(&[s("x"), s("abc"), Value::Int(-1)]).unwrap();
        assert!(strings(&v).is_empty());
    }

    #[test]
    fn replace_like_go() {
        let r = |p: &str, src: &str, repl: &str| {
            regex_replace_all(&[s(p), s(src), s(repl)])
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(r("a(x*)b", "-ab-axxb-", "${1}W"), "-W-xxW-");
        assert_eq!(r("a(x*)b", "-ab-axxb-", "$1W"), "---");
        assert_eq!(r("a(?P<n>x*)b", "-axb-", "[$n]"), "-[x]-");
        assert_eq!(r("(a)", "a", "$01|$$|$|${1"), "|$|$|${1");
        assert_eq!(r("a*", "baaac", "-"), "-b-c-");
        assert_eq!(r("", "abc", "-"), "-a-b-c-");
        assert_eq!(r("x*", "", "-"), "-");
        let lit = regex_replace_all_literal(&[s("a(x*)b"), s("-axb-"), s("$1")]).unwrap();
        assert_eq!(lit, s("-$1-"));
    }

    #[test]
    fn split_like_go() {
        let sp = |p: &str, src: &str, n: i64| {
            strings(&regex_split(&[s(p), s(src), Value::Int(n)]).unwrap())
        };
        assert_eq!(sp("a", "banana", -1), ["b", "n", "n", ""]);
        assert_eq!(sp("a", "banana", 2), ["b", "nana"]);
        assert!(sp("a", "banana", 0).is_empty());
        assert_eq!(sp("", "abc", -1), ["a", "b", "c"]);
        assert_eq!(sp("x*", "axbc", -1), ["a", "b", "c"]);
        assert_eq!(sp("a", "", -1), [""]);
        assert!(sp("", "", -1).is_empty());
    }

    #[test]
    fn errors_of_plain_and_must_variants() {
        assert_eq!(regex_match(&[s("("), s("x")]).unwrap(), Value::Bool(false));
        assert_eq!(
            must_regex_match(&[s("("), s("x")]).unwrap_err(),
            "error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            regex_find(&[s("("), s("x")]).unwrap_err(),
            "regexp: Compile(`(`): error parsing regexp: missing closing ): `(`"
        );
        assert_eq!(
            regex_find(&[s("(\n"), s("x")]).unwrap_err(),
            "regexp: Compile(\"(\\n\"): error parsing regexp: missing closing ): `(\n`"
        );
        assert_eq!(regex_find(&[s("b+"), s("abbbc")]).unwrap(), s("bbb"));
        assert_eq!(must_regex_find(&[s("z"), s("abc")]).unwrap(), s(""));
    }

    #[test]
    fn golden_vectors_from_go() {
        assert!(golden::check(FUNCS) > 300);
    }
}
