/*!
Go's `path` package: `Clean`, `Base`, `Dir`, `Ext` and `IsAbs`, purely lexical on forward
slashes. On Linux, where Cluster API runs, `path/filepath` computes the same results.
*/

/// `path.Clean`: collapse repeated slashes, drop `.` elements, resolve `..` against the
/// preceding element (or drop it at the root), and answer `.` for an empty result.
pub fn clean(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|last| *last != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".into(),
        (false, false) => joined,
    }
}

/// `path.Base`: the last element after trailing slashes are removed; `.` for an empty path,
/// `/` for a path of slashes.
pub fn base(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let trimmed = p.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    match trimmed.rfind('/') {
        Some(i) => trimmed[i + 1..].to_string(),
        None => trimmed.to_string(),
    }
}

/// `path.Dir`: everything up to the last slash, cleaned.
pub fn dir(p: &str) -> String {
    let head = match p.rfind('/') {
        Some(i) => &p[..=i],
        None => "",
    };
    clean(head)
}

/// `path.Ext`: the suffix from the last dot of the last element, or empty.
pub fn ext(p: &str) -> String {
    for (i, c) in p.char_indices().rev() {
        match c {
            '/' => break,
            '.' => return p[i..].to_string(),
            _ => {}
        }
    }
    String::new()
}

/// `path.IsAbs`: whether the path starts with a slash.
pub fn is_abs(p: &str) -> bool {
    p.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_like_go() {
        let cases = [
            ("", "."),
            (".", "."),
            ("/", "/"),
            ("//", "/"),
            ("a/b/../c", "a/c"),
            ("a/../..", ".."),
            ("../a/..", ".."),
            ("/../a", "/a"),
            ("/..", "/"),
            ("a//b/./c/", "a/b/c"),
            ("./a", "a"),
            ("a/..", "."),
            ("../../x", "../../x"),
        ];
        for (input, want) in cases {
            assert_eq!(clean(input), want, "clean({input:?})");
        }
    }

    #[test]
    fn base_dir_ext_like_go() {
        assert_eq!(base(""), ".");
        assert_eq!(base("///"), "/");
        assert_eq!(base("a/b/"), "b");
        assert_eq!(base("/a/b.txt"), "b.txt");
        assert_eq!(base("noslash"), "noslash");
        assert_eq!(dir(""), ".");
        assert_eq!(dir("a"), ".");
        assert_eq!(dir("/a"), "/");
        assert_eq!(dir("a/b/"), "a/b");
        assert_eq!(dir("/a/b/../c/d"), "/a/c");
        assert_eq!(ext("a/b.tar.gz"), ".gz");
        assert_eq!(ext("a.d/b"), "");
        assert_eq!(ext("a."), ".");
        assert_eq!(ext(""), "");
        assert!(is_abs("/x") && !is_abs("x"));
    }
}
