/*!
`--exclude GLOB`: which input files a directory walk leaves out. A pattern without `/` matches a
file or directory name anywhere below the directory given (`kustomization.yaml`, `*.json`,
`docs`); one with a slash matches the path relative to that directory (see the tests for
examples). A star or `?` stays within one path component, a double star spans several.
Owns the pattern syntax and the match; the walk asks.
*/

use crate::diag::{Code, Diagnostic};

/// The longest pattern accepted (the regex it becomes is linear in it).
const MAX_PATTERN: usize = 1024;

/// One compiled pattern.
#[derive(Debug, Clone)]
pub struct Glob {
    /// As written.
    pub pattern: String,
    regex: regex::Regex,
    /// Whether it names a path (has a `/`) rather than a name.
    anchored: bool,
}

impl Glob {
    /// Compile `pattern`; a usage error when it is empty or too long.
    pub fn new(pattern: &str) -> Result<Glob, Diagnostic> {
        let usage = |why: &str| {
            Diagnostic::error(Code::Usage, format!("--exclude {pattern:?}: {why}"))
                .with_help("for example --exclude kustomization.yaml or --exclude 'docs/**'")
        };
        let trimmed = pattern.trim_start_matches("./").trim_end_matches('/');
        if trimmed.is_empty() {
            return Err(usage("an empty pattern"));
        }
        if pattern.len() > MAX_PATTERN {
            return Err(usage(&format!("longer than {MAX_PATTERN} bytes")));
        }
        let mut re = String::from("^");
        let mut chars = trimmed.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '*' if chars.peek() == Some(&'*') => {
                    chars.next();
                    if chars.peek() == Some(&'/') {
                        chars.next();
                        re.push_str("(?:.*/)?");
                    } else {
                        re.push_str(".*");
                    }
                }
                '*' => re.push_str("[^/]*"),
                '?' => re.push_str("[^/]"),
                c => re.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
            }
        }
        re.push('$');
        let regex = regex::Regex::new(&re).map_err(|e| usage(&e.to_string()))?;
        Ok(Glob {
            pattern: pattern.to_string(),
            regex,
            anchored: trimmed.contains('/'),
        })
    }

    /// Whether `relative` (a path below the directory given, `/`-separated) is excluded: the
    /// pattern matches it or one of the directories it is in.
    pub fn matches(&self, relative: &str) -> bool {
        let parts: Vec<&str> = relative.split('/').filter(|p| !p.is_empty()).collect();
        if self.anchored {
            (1..=parts.len()).any(|n| self.regex.is_match(&parts[..n].join("/")))
        } else {
            parts.iter().any(|p| self.regex.is_match(p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(p: &str) -> Glob {
        Glob::new(p).expect("a valid pattern")
    }

    #[test]
    fn names_match_anywhere_and_paths_from_the_top() {
        assert!(g("kustomization.yaml").matches("overlays/dev/kustomization.yaml"));
        assert!(g("*.json").matches("a/b.json"));
        assert!(!g("*.json").matches("a/b.yaml"));
        assert!(g("docs").matches("docs/x.yaml"));
        assert!(g("docs/**").matches("docs/a/b.yaml"));
        assert!(!g("docs/**").matches("src/docs.yaml"));
        assert!(g("overlays/*/patch.yaml").matches("overlays/dev/patch.yaml"));
        assert!(!g("overlays/*/patch.yaml").matches("overlays/dev/x/patch.yaml"));
        assert!(g("**/mkdocs.yml").matches("mkdocs.yml"));
        assert!(g("./site/").matches("site/a.yaml"));
        assert!(!g("a.b").matches("axb"));
    }

    #[test]
    fn an_empty_pattern_is_a_usage_error() {
        assert!(Glob::new("").is_err());
        assert!(Glob::new("./").is_err());
    }
}
