/*!
Output a GitHub Actions runner would run. The runner reads every line a step prints, on stdout
and stderr alike, and takes a line that starts with `::` once its leading whitespace is trimmed
as a workflow command: `::error file=…::…` puts an annotation anywhere, `::stop-commands::T`
silences every later command, topoplan's own annotations included. topoplan prints text that
comes from the input (diffs, YAML, snippets of diagnostics, file names), so under
`GITHUB_ACTIONS=true` every such line is neutralised here: a `\` goes before its `::`. A reader
still sees what was there (Markdown even renders `\:` as `:`); the runner sees no command.
topoplan's own annotations are written beside this filter, never through it.

The runner also still reads GitHub's legacy form, `##[name]…`, and finds it *anywhere* in a line
(not only at its start) for every registered command (`error`, `warning`, `add-mask`,
`stop-commands`, …). So every `##[` of such text gets a `\` before its `[`: `##\[error]` is no
command and still reads as what it was.

The rule is per line and works on a stream ([`Neutral`]), so nothing is held but the leading
whitespace of the line being written. JSON never needs it (every string is quoted), and the YAML
emitter never writes such a line ([`crate::load::yaml::to_yaml`] double-quotes the string
instead), so documents read back unchanged.

Owns the rule and the writer; whether a run is in Actions mode is the command line's business.
*/

use std::borrow::Cow;
use std::io::Write;

/// What the start of a line says so far.
enum Start {
    /// Only whitespace (or a lone `:` after it) yet: wait for more.
    Wait,
    /// Not a command: write it as it is.
    Plain,
    /// A command after this many bytes of whitespace: neutralise it.
    Command(usize),
}

fn start(line: &[u8]) -> Start {
    let s = match std::str::from_utf8(line) {
        Ok(s) => s,
        // A character cut by the end of a write: its end comes with the next.
        Err(e) if e.error_len().is_none() => return Start::Wait,
        // The runner reads invalid bytes as U+FFFD, which is no whitespace.
        Err(_) => return Start::Plain,
    };
    let trimmed = s.trim_start();
    if trimmed.is_empty() || trimmed == ":" {
        Start::Wait
    } else if trimmed.starts_with("::") {
        Start::Command(s.len() - trimmed.len())
    } else {
        Start::Plain
    }
}

/// A writer that neutralises, when on, every line the runner would read as a command.
pub struct Neutral<W: Write> {
    inner: W,
    on: bool,
    /// The start of the current line, while it is undecided.
    pending: Vec<u8>,
    /// Whether the current line's start is still undecided.
    deciding: bool,
    /// How many `#` the output ended with (at most 2), across writes.
    hashes: u8,
}

impl<W: Write> Neutral<W> {
    /// Wrap `inner`; `on` is whether the run is in Actions mode (off, it passes bytes through).
    pub fn new(inner: W, on: bool) -> Neutral<W> {
        Neutral {
            inner,
            on,
            pending: Vec::new(),
            deciding: true,
            hashes: 0,
        }
    }

    /// `out` with a `\` before every `[` that follows `##` in the output stream (the legacy
    /// command prefix, read anywhere in a line), given how the output so far ended.
    fn unhash(&mut self, out: Vec<u8>) -> Vec<u8> {
        unhash(out, &mut self.hashes, b"\\[")
    }

    /// The bytes to write for `buf`, given what came before.
    fn feed(&mut self, buf: &[u8], out: &mut Vec<u8>) {
        let mut i = 0;
        while i < buf.len() {
            if self.deciding {
                let b = buf[i];
                i += 1;
                self.pending.push(b);
                // .NET's ReadLine (the runner's) ends a line at CR as well as LF.
                if b == b'\n' || b == b'\r' {
                    out.append(&mut self.pending);
                    continue;
                }
                match start(&self.pending) {
                    Start::Wait => {}
                    Start::Plain => {
                        out.append(&mut self.pending);
                        self.deciding = false;
                    }
                    Start::Command(ws) => {
                        out.extend_from_slice(&self.pending[..ws]);
                        out.push(b'\\');
                        out.extend_from_slice(&self.pending[ws..]);
                        self.pending.clear();
                        self.deciding = false;
                    }
                }
            } else {
                match buf[i..].iter().position(|&b| b == b'\n' || b == b'\r') {
                    Some(p) => {
                        out.extend_from_slice(&buf[i..=i + p]);
                        i += p + 1;
                        self.deciding = true;
                    }
                    None => {
                        out.extend_from_slice(&buf[i..]);
                        i = buf.len();
                    }
                }
            }
        }
    }
}

impl<W: Write> Write for Neutral<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.on {
            return self.inner.write(buf);
        }
        let mut out = Vec::with_capacity(buf.len() + 1);
        self.feed(buf, &mut out);
        let out = self.unhash(out);
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write> Drop for Neutral<W> {
    fn drop(&mut self) {
        // A last line of only whitespace (or `:`) is no command: write it as it is.
        if !self.pending.is_empty() {
            let _ = self.inner.write_all(&self.pending);
            let _ = self.inner.flush();
        }
    }
}

/// `out` with every `[` that follows `##` (counting the `hashes` the stream ended with before
/// it) written as `escape`.
fn unhash(out: Vec<u8>, hashes: &mut u8, escape: &[u8]) -> Vec<u8> {
    if !out.contains(&b'[') {
        *hashes = trailing_hashes(&out, *hashes);
        return out;
    }
    let mut safe = Vec::with_capacity(out.len() + 8);
    for b in out {
        if b == b'[' && *hashes >= 2 {
            safe.extend_from_slice(escape);
        } else {
            safe.push(b);
        }
        *hashes = if b == b'#' { (*hashes + 1).min(2) } else { 0 };
    }
    safe
}

/// JSON text with every `[` after `##` written `\\u005b`: in JSON `##[` can only be inside a
/// string, where the escape reads back as the same value, so a JSON document never holds the
/// runner's legacy command prefix and passes [`Neutral`] unchanged. Applied to every JSON
/// document, in Actions mode or not, so the bytes do not depend on it.
pub fn json_safe(text: String) -> String {
    if !text.contains("##[") {
        return text;
    }
    text.replace("##[", "##\\u005b")
}

/// A writer applying [`json_safe`] to a JSON stream, across writes.
pub struct JsonSafe<W: Write> {
    inner: W,
    hashes: u8,
}

impl<W: Write> JsonSafe<W> {
    /// Wrap `inner`.
    pub fn new(inner: W) -> JsonSafe<W> {
        JsonSafe { inner, hashes: 0 }
    }
}

impl<W: Write> Write for JsonSafe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // Most writes hold no `[`: passed through without a copy.
        if !buf.contains(&b'[') {
            self.hashes = trailing_hashes(buf, self.hashes);
            self.inner.write_all(buf)?;
        } else {
            let out = unhash(buf.to_vec(), &mut self.hashes, b"\\u005b");
            self.inner.write_all(&out)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// How many `#` (at most 2) the output ends with, given how it ended before `out`.
fn trailing_hashes(out: &[u8], before: u8) -> u8 {
    let n = out.iter().rev().take(2).take_while(|&&b| b == b'#').count();
    if n == out.len() {
        (before as usize + n).min(2) as u8
    } else {
        n as u8
    }
}

/// `text` with every line the runner would read as a command neutralised.
pub fn neutralise(text: &str) -> Cow<'_, str> {
    if !text.contains("##[")
        && !text
            .lines()
            .any(|l| l.split('\r').any(|l| l.trim_start().starts_with("::")))
    {
        return Cow::Borrowed(text);
    }
    let mut n = Neutral::new(Vec::new(), true);
    let mut out = Vec::with_capacity(text.len() + 16);
    n.feed(text.as_bytes(), &mut out);
    out.append(&mut n.pending);
    let out = n.unhash(out);
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn through(chunks: &[&str]) -> String {
        let mut buf = Vec::new();
        {
            let mut n = Neutral::new(&mut buf, true);
            for c in chunks {
                n.write_all(c.as_bytes()).expect("write");
            }
        }
        String::from_utf8(buf).expect("utf-8")
    }

    #[test]
    fn command_lines_are_neutralised_wherever_writes_cut_them() {
        let text = "a\n    ::stop-commands::x\n::error file=a::b\r::warning::c\n\u{a0}\u{2003}::d\nx::y\n: :\n";
        let want = "a\n    \\::stop-commands::x\n\\::error file=a::b\r\\::warning::c\n\u{a0}\u{2003}\\::d\nx::y\n: :\n";
        assert_eq!(neutralise(text), want);
        assert_eq!(through(&[text]), want);
        // Cut at every byte: the same.
        let mut buf = Vec::new();
        {
            let mut n = Neutral::new(&mut buf, true);
            for b in text.as_bytes() {
                n.write_all(std::slice::from_ref(b)).expect("write");
            }
        }
        assert_eq!(String::from_utf8(buf).expect("utf-8"), want);
        // A trailing line of whitespace and a lone colon survive the end of the stream.
        assert_eq!(through(&["x\n  :"]), "x\n  :");
        assert_eq!(neutralise("plain\n"), "plain\n");
    }

    #[test]
    fn legacy_commands_are_neutralised_anywhere_in_a_line() {
        let text = "##[error]x\n  ##[add-mask]Failed\nsee ##[stop-commands]t\n#[a] ###[b] ## [c]\n##\n[d]\n";
        let want = "##\\[error]x\n  ##\\[add-mask]Failed\nsee ##\\[stop-commands]t\n#[a] ###\\[b] ## [c]\n##\n[d]\n";
        assert_eq!(neutralise(text), want);
        assert_eq!(through(&[text]), want);
        let mut buf = Vec::new();
        {
            let mut n = Neutral::new(&mut buf, true);
            for b in text.as_bytes() {
                n.write_all(std::slice::from_ref(b)).expect("write");
            }
        }
        assert_eq!(String::from_utf8(buf).expect("utf-8"), want);
        assert_eq!(neutralise("# [x] #x[\n"), "# [x] #x[\n");
    }

    #[test]
    fn json_keeps_its_values_without_the_legacy_prefix() {
        let v = serde_json::json!({"a": "##[error]x ###[b]", "##[k]": 1});
        let text = serde_json::to_string(&v).unwrap_or_default();
        let safe = json_safe(text.clone());
        assert!(!safe.contains("##["), "{safe}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&safe).ok(),
            Some(v)
        );
        let mut buf = Vec::new();
        {
            let mut w = JsonSafe::new(&mut buf);
            for b in text.as_bytes() {
                w.write_all(std::slice::from_ref(b)).expect("write");
            }
        }
        assert_eq!(String::from_utf8(buf).expect("utf-8"), safe);
    }

    #[test]
    fn off_it_passes_bytes_through() {
        let mut buf = Vec::new();
        {
            let mut n = Neutral::new(&mut buf, false);
            n.write_all(b"::error::x\n").expect("write");
        }
        assert_eq!(buf, b"::error::x\n");
    }
}
