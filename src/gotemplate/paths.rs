//! The data paths a template reads from its root: `.a.b` where the dot is the data passed in
//! (not inside `range` or `with`, which move it), and `$.a.b`. What a lint needs to tell a
//! misspelt variable from a declared one; nothing is executed.

use super::node::{Arg, ListNode, Node, PipeNode};

/// Each root path the template `text` reads, with its byte offset; none when it does not parse
/// (admission reports that).
pub fn root_paths(text: &str) -> Vec<(Vec<String>, usize)> {
    let Ok(set) = super::parse::parse("tpl", text, super::sprig::hermetic()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(tree) = set.get("tpl") {
        list(tree, true, &mut out);
    }
    out
}

fn list(l: &ListNode, root: bool, out: &mut Vec<(Vec<String>, usize)>) {
    for n in &l.nodes {
        match n {
            Node::Action { pipe: p, .. } => pipe(p, root, out),
            Node::If(b) => {
                pipe(&b.pipe, root, out);
                list(&b.list, root, out);
                if let Some(e) = &b.else_list {
                    list(e, root, out);
                }
            }
            // The body sees another dot; the else branch the same one.
            Node::Range(b) | Node::With(b) => {
                pipe(&b.pipe, root, out);
                list(&b.list, false, out);
                if let Some(e) = &b.else_list {
                    list(e, root, out);
                }
            }
            Node::Template { pipe: Some(p), .. } => pipe(p, root, out),
            _ => {}
        }
    }
}

fn pipe(p: &PipeNode, root: bool, out: &mut Vec<(Vec<String>, usize)>) {
    for c in &p.cmds {
        for a in &c.args {
            arg(a, root, out);
        }
    }
}

fn arg(a: &Arg, root: bool, out: &mut Vec<(Vec<String>, usize)>) {
    match a {
        Arg::Field { pos, ident } if root => out.push((ident.clone(), *pos)),
        Arg::Variable(v) if v.ident.first().is_some_and(|x| x == "$") && v.ident.len() > 1 => {
            out.push((v.ident[1..].to_vec(), v.pos));
        }
        Arg::Chain { node, fields, pos } => match node.as_ref() {
            Arg::Dot(_) if root => out.push((fields.clone(), *pos)),
            inner => arg(inner, root, out),
        },
        Arg::Pipe(p) => pipe(p, root, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(t: &str) -> Vec<String> {
        root_paths(t)
            .into_iter()
            .map(|(p, _)| p.join("."))
            .collect()
    }

    #[test]
    fn root_paths_outside_range_and_with() {
        assert_eq!(
            paths(
                "{{ .a.b }}-{{ if .c }}{{ .d }}{{ end }}{{ range .e }}{{ .f }}{{ $.g }}{{ end }}"
            ),
            ["a.b", "c", "d", "e", "g"]
        );
        assert_eq!(
            paths("{{ with .x }}{{ .y }}{{ else }}{{ .z }}{{ end }}"),
            ["x", "z"]
        );
        assert_eq!(paths("{{ printf \"%s\" (.p.q) | lower }}"), ["p.q"]);
        assert!(paths("{{ .unclosed").is_empty());
    }
}
