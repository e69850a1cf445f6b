/*!
Sprig's `urlParse` and `urlJoin`, on top of Go's `net/url` ([`crate::go::url`]): `url.Parse`,
`URL.String`, `Hostname` and `Userinfo.String`.
*/

use std::collections::BTreeMap;

use crate::go::url::{Url, Userinfo, parse};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "urlParse",
        params: &[Param::String],
        variadic: None,
        imp: url_parse,
    },
    Func {
        name: "urlJoin",
        params: &[Param::Dict],
        variadic: None,
        imp: url_join,
    },
];

fn url_parse(args: &[Value]) -> Result<Value, String> {
    let raw = args.first().and_then(Value::as_str).unwrap_or("");
    let u = parse(raw).map_err(|e| format!("unable to parse url: {e}"))?;
    let mut m = BTreeMap::new();
    let hostname = u.hostname();
    let userinfo = u
        .user
        .as_ref()
        .map(Userinfo::to_escaped)
        .unwrap_or_default();
    for (k, v) in [
        ("scheme", u.scheme),
        ("host", u.host),
        ("hostname", hostname),
        ("path", u.path),
        ("query", u.raw_query),
        ("opaque", u.opaque),
        ("fragment", u.fragment),
        ("userinfo", userinfo),
    ] {
        m.insert(k.to_string(), Value::str(v));
    }
    Ok(Value::dict(m))
}

fn url_join(args: &[Value]) -> Result<Value, String> {
    let empty = BTreeMap::new();
    let d = match args.first() {
        Some(Value::Map(m)) => &m.entries,
        _ => &empty,
    };
    // Sprig reads the keys in this order and panics on the first non-string value.
    let field = |key: &str| -> Result<String, String> {
        match d.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.to_string()),
            Some(Value::Nil | Value::Invalid) => Err(super::lists::NIL_DEREF.to_string()),
            Some(other) => Err(format!(
                "unable to parse {key} key, must be of type string, but {} found",
                other.go_type().map_or("invalid", |t| t.kind_name())
            )),
        }
    };
    let mut u = Url {
        scheme: field("scheme")?,
        host: field("host")?,
        path: field("path")?,
        raw_query: field("query")?,
        opaque: field("opaque")?,
        fragment: field("fragment")?,
        ..Url::default()
    };
    let userinfo = field("userinfo")?;
    if !userinfo.is_empty() {
        let temp = parse(&format!("proto://{userinfo}@host"))
            .map_err(|e| format!("unable to parse userinfo in dict: {e}"))?;
        u.user = temp.user;
    }
    Ok(Value::str(u.to_string_go()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_from_go() {
        assert!(super::super::regex::golden::check(FUNCS) > 30);
    }

    fn parsed(raw: &str) -> BTreeMap<String, String> {
        let Value::Map(m) = url_parse(&[Value::str(raw)]).expect("parses") else {
            panic!("not a map")
        };
        m.entries
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("?").to_string()))
            .collect()
    }

    fn join(pairs: &[(&str, Value)]) -> Result<Value, String> {
        url_join(&[Value::dict(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )])
    }

    #[test]
    fn parse_full_url() {
        let m = parsed("HTTPS://user:p%40ss@Example.com:8443/a%20b/c?x=1&y=2#frag%21");
        assert_eq!(m["scheme"], "https");
        assert_eq!(m["host"], "Example.com:8443");
        assert_eq!(m["hostname"], "Example.com");
        assert_eq!(m["path"], "/a b/c");
        assert_eq!(m["query"], "x=1&y=2");
        assert_eq!(m["fragment"], "frag!");
        assert_eq!(m["userinfo"], "user:p%40ss");
        assert_eq!(m["opaque"], "");
        assert_eq!(m.len(), 8);
    }

    #[test]
    fn parse_variants() {
        let m = parsed("mailto:joe@example.com?subject=hi");
        assert_eq!(
            (
                m["scheme"].as_str(),
                m["opaque"].as_str(),
                m["query"].as_str()
            ),
            ("mailto", "joe@example.com", "subject=hi")
        );
        let m = parsed("http://[fe80::1%25en0]:8080/x");
        assert_eq!(
            (m["host"].as_str(), m["hostname"].as_str()),
            ("[fe80::1%en0]:8080", "fe80::1%en0")
        );
        let m = parsed("/just/a/path");
        assert_eq!(
            (m["scheme"].as_str(), m["path"].as_str()),
            ("", "/just/a/path")
        );
        let m = parsed("");
        assert!(m.values().all(String::is_empty));
    }

    #[test]
    fn parse_errors() {
        let e = |raw: &str| url_parse(&[Value::str(raw)]).unwrap_err();
        assert_eq!(
            e("http://[::1"),
            "unable to parse url: parse \"http://[::1\": missing ']' in host"
        );
        assert_eq!(
            e(":foo"),
            "unable to parse url: parse \":foo\": missing protocol scheme"
        );
        assert_eq!(
            e("http://a b.com/"),
            "unable to parse url: parse \"http://a b.com/\": invalid character \" \" in host name"
        );
        assert_eq!(
            e("http://x:abc/"),
            "unable to parse url: parse \"http://x:abc/\": invalid port \":abc\" after host"
        );
        assert_eq!(
            e("/a%zzb"),
            "unable to parse url: parse \"/a%zzb\": invalid URL escape \"%zz\""
        );
        assert_eq!(
            e("1a:b/c"),
            "unable to parse url: parse \"1a:b/c\": first path segment in URL cannot contain colon"
        );
        assert_eq!(
            e("http://x/#%zz"),
            "unable to parse url: parse \"http://x/#%zz\": invalid URL escape \"%zz\""
        );
        assert_eq!(
            e("http://a\nb"),
            "unable to parse url: parse \"http://a\\nb\": net/url: invalid control character in URL"
        );
        assert_eq!(
            e("http://us er@host"),
            "unable to parse url: parse \"http://us er@host\": net/url: invalid userinfo"
        );
    }

    #[test]
    fn join_like_go() {
        let s = Value::str;
        assert_eq!(
            join(&[
                ("scheme", s("https")),
                ("host", s("example.com")),
                ("path", s("/a b")),
                ("query", s("x=1")),
                ("fragment", s("f g")),
                ("userinfo", s("u:p"))
            ])
            .unwrap(),
            s("https://u:p@example.com/a%20b?x=1#f%20g")
        );
        assert_eq!(join(&[("path", s("a:b"))]).unwrap(), s("./a:b"));
        assert_eq!(
            join(&[("host", s("h")), ("path", s("rel"))]).unwrap(),
            s("//h/rel")
        );
        assert_eq!(
            join(&[("scheme", s("mailto")), ("opaque", s("a@b"))]).unwrap(),
            s("mailto:a@b")
        );
        assert_eq!(join(&[]).unwrap(), s(""));
        assert_eq!(
            join(&[("host", Value::Float(1.0))]).unwrap_err(),
            "unable to parse host key, must be of type string, but float64 found"
        );
        assert_eq!(
            join(&[("path", Value::Nil)]).unwrap_err(),
            super::super::lists::NIL_DEREF
        );
        assert_eq!(
            join(&[("userinfo", s("a b"))]).unwrap_err(),
            "unable to parse userinfo in dict: parse \"proto://a b@host\": net/url: invalid userinfo"
        );
    }
}
