/*!
Go's `net/url`, the parts topoplan needs: `url.Parse` and `url.ParseRequestURI` (scheme, opaque,
authority with userinfo and host checks, percent-decoding of path and fragment) with Go's error
texts, `URL.String` with its escaping rules, `URL.Hostname` and `Userinfo.String`. The WHATWG
`url` crate normalises differently (it lowercases hosts, adds `/` paths, rejects other inputs), so
these rules are written out after Go's. Used by Sprig's `urlParse` / `urlJoin` and by the `uri`
string format.

Difference: Go strings may hold invalid UTF-8 after percent-decoding (`%ff`); here such bytes
become U+FFFD.
*/

use crate::go::strconv::{quote, quote_bytes};

/// A parsed URL: the fields of Go's `url.URL`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Url {
    pub scheme: String,
    pub opaque: String,
    pub user: Option<Userinfo>,
    pub host: String,
    pub path: String,
    pub raw_path: String,
    pub omit_host: bool,
    pub force_query: bool,
    pub raw_query: String,
    pub fragment: String,
    pub raw_fragment: String,
}

/// Go's `url.Userinfo`.
#[derive(Debug, Clone, PartialEq)]
pub struct Userinfo {
    pub username: String,
    pub password: Option<String>,
}

impl Userinfo {
    /// `Userinfo.String()`: `user[:password]`, escaped.
    pub fn to_escaped(&self) -> String {
        let mut s = escape(&self.username, Mode::UserPassword);
        if let Some(p) = &self.password {
            s.push(':');
            s.push_str(&escape(p, Mode::UserPassword));
        }
        s
    }
}

/// Which part of a URL is being escaped or unescaped (Go's `encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

/// Go's `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => return c == b'?',
            Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::Fragment => return false,
            Mode::Host | Mode::Zone => {}
        },
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

/// Go's `escape` (never in query mode here, so spaces become `%20`).
fn escape(s: &str, mode: Mode) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if should_escape(b, mode) {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        } else {
            out.push(char::from(b));
        }
    }
    out
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// Go's `unescape` (never in query mode here, so `+` stays `+`), with its error texts.
fn unescape(s: &str, mode: Mode) -> Result<String, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let (Some(&h), Some(&l)) = (b.get(i + 1), b.get(i + 2)) else {
                    return Err(escape_error(&b[i..]));
                };
                if !h.is_ascii_hexdigit() || !l.is_ascii_hexdigit() {
                    return Err(escape_error(&b[i..]));
                }
                let triple = &b[i..i + 3];
                // In a host, %-encoding is only for non-ASCII bytes (and %25 for zones).
                if mode == Mode::Host && unhex(h) < 8 && triple != b"%25" {
                    return Err(escape_error(triple));
                }
                let v = (unhex(h) << 4) | unhex(l);
                if mode == Mode::Zone
                    && triple != b"%25"
                    && v != b' '
                    && should_escape(v, Mode::Host)
                {
                    return Err(escape_error(triple));
                }
                out.push(v);
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!(
                        "invalid character {} in host name",
                        quote(&String::from_utf8_lossy(&[c]), false)
                    ));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `EscapeError`: the offending `%` and at most two following bytes, quoted.
fn escape_error(rest: &[u8]) -> String {
    // Three bytes, which may cut a character in half: Go quotes the stray bytes as `\xNN`.
    let cut = &rest[..rest.len().min(3)];
    format!("invalid URL escape {}", quote_bytes(cut))
}

/// Go's `url.Parse`, with the `*url.Error` text (`parse "…": reason`).
pub fn parse(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url =
        parse_no_fragment(u, false).map_err(|e| format!("parse {}: {e}", quote(u, false)))?;
    if !frag.is_empty() {
        url.fragment = unescape(frag, Mode::Fragment)
            .map_err(|e| format!("parse {}: {e}", quote(raw, false)))?;
        url.raw_fragment = if escape(&url.fragment, Mode::Fragment) == frag {
            String::new()
        } else {
            frag.to_string()
        };
    }
    Ok(url)
}

/// Go's `url.ParseRequestURI`: an absolute URI or an absolute path, no fragment, with the
/// `*url.Error` text.
pub fn parse_request_uri(raw: &str) -> Result<Url, String> {
    parse_no_fragment(raw, true).map_err(|e| format!("parse {}: {e}", quote(raw, false)))
}

/// Go's `getScheme`: `[a-zA-Z][a-zA-Z0-9+.-]*:`, or no scheme.
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// Go's `parse(rawURL, viaRequest)`.
fn parse_no_fragment(raw: &str, via_request: bool) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    if raw.is_empty() && via_request {
        return Err("empty url".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        rest = before;
        url.raw_query = query.to_string();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless path after a scheme is opaque.
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if via_request {
            return Err("invalid URI for request".into());
        }
        let segment = rest.split('/').next().unwrap_or("");
        if segment.contains(':') {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    let mut path = rest;
    if (!url.scheme.is_empty() || !via_request && !rest.starts_with("///"))
        && rest.starts_with("//")
    {
        let authority_and_path = &rest[2..];
        let (authority, tail) = match authority_and_path.find('/') {
            Some(i) => authority_and_path.split_at(i),
            None => (authority_and_path, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        path = tail;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    url.path = unescape(path, Mode::Path)?;
    url.raw_path = if escape(&url.path, Mode::Path) == path {
        String::new()
    } else {
        path.to_string()
    };
    Ok(url)
}

/// Go's `validUserinfo`: RFC 3986 userinfo characters (percent escapes checked later).
fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

/// Go's `parseAuthority`: `[userinfo@]host`, split at the last `@`.
fn parse_authority(authority: &str) -> Result<(Option<Userinfo>, String), String> {
    let (userinfo, host) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let host = parse_host(host)?;
    let Some(userinfo) = userinfo else {
        return Ok((None, host));
    };
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.split_once(':') {
        None => Userinfo {
            username: unescape(userinfo, Mode::UserPassword)?,
            password: None,
        },
        Some((name, password)) => Userinfo {
            username: unescape(name, Mode::UserPassword)?,
            password: Some(unescape(password, Mode::UserPassword)?),
        },
    };
    Ok((Some(user), host))
}

/// Go's `validOptionalPort`: empty, or `:` followed by digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `parseHost`: bracketed IP literals with an optional `%25` zone, a numeric port.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                quote(colon_port, false)
            ));
        }
        if let Some(zone) = host[..i].find("%25") {
            let h1 = unescape(&host[..zone], Mode::Host)?;
            let h2 = unescape(&host[zone..i], Mode::Zone)?;
            let h3 = unescape(&host[i..], Mode::Host)?;
            return Ok(h1 + &h2 + &h3);
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!(
                "invalid port {} after host",
                quote(colon_port, false)
            ));
        }
    }
    unescape(host, Mode::Host)
}

impl Url {
    /// `URL.Hostname()`: the host without a valid port and without IPv6 brackets.
    pub fn hostname(&self) -> String {
        let mut host = self.host.as_str();
        if let Some(colon) = host.rfind(':')
            && valid_optional_port(&host[colon..])
        {
            host = &host[..colon];
        }
        if host.len() >= 2 && host.starts_with('[') && host.ends_with(']') {
            host = &host[1..host.len() - 1];
        }
        host.to_string()
    }

    /// `URL.EscapedPath()`.
    fn escaped_path(&self) -> String {
        if !self.raw_path.is_empty()
            && valid_encoded(&self.raw_path, Mode::Path)
            && unescape(&self.raw_path, Mode::Path).is_ok_and(|p| p == self.path)
        {
            return self.raw_path.clone();
        }
        if self.path == "*" {
            return "*".into();
        }
        escape(&self.path, Mode::Path)
    }

    /// `URL.EscapedFragment()`.
    fn escaped_fragment(&self) -> String {
        if !self.raw_fragment.is_empty()
            && valid_encoded(&self.raw_fragment, Mode::Fragment)
            && unescape(&self.raw_fragment, Mode::Fragment).is_ok_and(|f| f == self.fragment)
        {
            return self.raw_fragment.clone();
        }
        escape(&self.fragment, Mode::Fragment)
    }

    /// `URL.String()`.
    pub fn to_string_go(&self) -> String {
        let mut buf = String::new();
        if !self.scheme.is_empty() {
            buf.push_str(&self.scheme);
            buf.push(':');
        }
        if !self.opaque.is_empty() {
            buf.push_str(&self.opaque);
        } else {
            let has_authority =
                !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some();
            let omit_empty_host = self.omit_host && self.host.is_empty() && self.user.is_none();
            if has_authority && !omit_empty_host {
                if !self.host.is_empty() || !self.path.is_empty() || self.user.is_some() {
                    buf.push_str("//");
                }
                if let Some(user) = &self.user {
                    buf.push_str(&user.to_escaped());
                    buf.push('@');
                }
                if !self.host.is_empty() {
                    buf.push_str(&escape(&self.host, Mode::Host));
                }
            }
            let path = self.escaped_path();
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                buf.push('/');
            }
            if buf.is_empty() {
                // A first segment with a colon would read as a scheme: prefix "./".
                let segment = path.split('/').next().unwrap_or("");
                if segment.contains(':') {
                    buf.push_str("./");
                }
            }
            buf.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            buf.push('?');
            buf.push_str(&self.raw_query);
        }
        if !self.fragment.is_empty() {
            buf.push('#');
            buf.push_str(&self.escaped_fragment());
        }
        buf
    }
}

/// Go's `validEncoded`.
fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|b| {
        matches!(
            b,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(b, mode)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_uris_need_a_scheme_or_an_absolute_path() {
        assert!(parse_request_uri("https://example.com/a?b").is_ok());
        assert!(parse_request_uri("mailto:x@y").is_ok());
        assert!(parse_request_uri("*").is_ok());
        // No authority without a scheme: the whole text is the path.
        let u = parse_request_uri("//host/x").expect("absolute path");
        assert_eq!((u.host.as_str(), u.path.as_str()), ("", "//host/x"));
        // No fragment either: `#` stays in the path.
        assert_eq!(parse_request_uri("/a#b").map(|u| u.path), Ok("/a#b".into()));
        assert_eq!(
            parse_request_uri("rel/path"),
            Err("parse \"rel/path\": invalid URI for request".into())
        );
        assert_eq!(parse_request_uri(""), Err("parse \"\": empty url".into()));
        assert_eq!(
            parse_request_uri("http://host:port/"),
            Err("parse \"http://host:port/\": invalid port \":port\" after host".into())
        );
        let u = parse("//host/x").expect("network-path reference");
        assert_eq!((u.host.as_str(), u.path.as_str()), ("host", "/x"));
    }
}
