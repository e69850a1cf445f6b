/*!
The input byte budget (`--max-input-bytes`): how many bytes all inputs of one run may hold
together.

Owns reading an input under that budget — `-f` files and stdin, `--current`, `--old`, diff's
OLD/NEW, git blobs of `--base-ref`, `--env-file`, `--ca-file`, `eval --vars` — and the one error
every overrun gives. The cap is enforced while reading: a reader is never asked for more than
what is left plus one byte, so `-f /dev/zero` or an endless stdin stops at the cap instead of
filling memory, and a regular file whose size already exceeds what is left is refused before a
byte of it is read.

The count is shared by every clone of an [`InputLimit`], so the options of one run (the input,
`--current`, both sides of a diff) draw on one budget. The caller decides what a run is: the
command line makes one limit per invocation.
*/

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::diag::{Code, Diagnostic};

/// Default cap on all inputs of one run: 256 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 256 << 20;

/// A cap on the bytes read from all inputs together, and the count read so far.
#[derive(Debug, Clone)]
pub struct InputLimit {
    max: u64,
    used: Arc<AtomicU64>,
}

impl Default for InputLimit {
    fn default() -> Self {
        InputLimit::new(DEFAULT_MAX_INPUT_BYTES)
    }
}

/// Why reading an input failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read; the caller words this in its own terms.
    Io(std::io::Error),
    /// The input would take the run past its budget.
    TooLarge(Diagnostic),
}

impl InputLimit {
    /// A fresh budget of `max` bytes.
    pub fn new(max: u64) -> InputLimit {
        InputLimit {
            max,
            used: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The same count of bytes read, under another cap (the command line sets the cap from a
    /// flag on a count it already shares).
    pub fn with_max(&self, max: u64) -> InputLimit {
        InputLimit {
            max,
            used: Arc::clone(&self.used),
        }
    }

    /// The cap, in bytes.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Bytes read so far.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    fn remaining(&self) -> u64 {
        self.max.saturating_sub(self.used())
    }

    /// The error for `name` not fitting in what is left.
    pub fn too_large(&self, name: &str) -> Diagnostic {
        self.too_large_after(name, self.used())
    }

    /// [`InputLimit::too_large`] for `name` read after `used` bytes of other inputs (files read
    /// in parallel are charged in whatever order threads finish; the message gives what came
    /// before `name` in input order).
    pub fn too_large_after(&self, name: &str, used: u64) -> Diagnostic {
        let help = if used == 0 {
            format!(
                "inputs are read up to {} bytes in all; raise the limit with --max-input-bytes (e.g. 1Gi)",
                self.max
            )
        } else {
            format!(
                "the limit is on all inputs of one run together, and {used} bytes were read before {name}; raise it with --max-input-bytes (e.g. 1Gi)"
            )
        };
        Diagnostic::error(
            Code::InputLimit,
            format!(
                "input too large: {name} exceeds the {}-byte limit on input (--max-input-bytes)",
                self.max
            ),
        )
        .with_help(help)
    }

    /// Count `n` bytes of `name` (an input whose size is known before it is read, such as a git
    /// blob), or refuse it when they do not fit.
    pub fn charge(&self, n: u64, name: &str) -> Result<(), Diagnostic> {
        if n > self.remaining() {
            return Err(self.too_large(name));
        }
        self.used.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }

    /// Read all of `reader` (the input shown as `name`), at most what is left of the budget.
    /// `size_hint`: the expected size, to allocate once (never more than what is left).
    pub fn read(
        &self,
        reader: impl Read,
        name: &str,
        size_hint: Option<u64>,
    ) -> Result<Vec<u8>, ReadError> {
        let mut buf = Vec::new();
        self.read_into(reader, name, size_hint, &mut buf)?;
        Ok(buf)
    }

    /// [`InputLimit::read`] into `buf` (cleared first).
    fn read_into(
        &self,
        reader: impl Read,
        name: &str,
        size_hint: Option<u64>,
        buf: &mut Vec<u8>,
    ) -> Result<(), ReadError> {
        buf.clear();
        let remaining = self.remaining();
        // One byte past what is left tells "exactly fits" from "too large".
        let mut reader = reader.take(remaining.saturating_add(1));
        match size_hint {
            Some(hint) => {
                let hint = hint.min(remaining).saturating_add(1);
                buf.reserve(usize::try_from(hint).unwrap_or(0));
                reader.read_to_end(buf).map_err(ReadError::Io)?;
            }
            None => match read_chunked(&mut reader, remaining)? {
                Some(read) => *buf = read,
                None => return Err(ReadError::TooLarge(self.too_large(name))),
            },
        }
        let n = buf.len() as u64;
        if n > remaining {
            return Err(ReadError::TooLarge(self.too_large(name)));
        }
        self.used.fetch_add(n, Ordering::Relaxed);
        Ok(())
    }

    /// Read the file at `path` (shown as `name`): a regular file larger than what is left is
    /// refused without reading it; anything else (a FIFO, a device, `/proc`) is read as a
    /// stream up to the cap.
    pub fn read_path(&self, path: &Path, name: &str) -> Result<Vec<u8>, ReadError> {
        let mut buf = Vec::new();
        self.read_path_into(path, name, &mut buf)?;
        Ok(buf)
    }

    /// [`InputLimit::read_path`] into `buf` (cleared first), whose memory a caller reading many
    /// files may reuse: a run that reads a provider's CRDs to keep a few of them would
    /// otherwise spend as much on fresh, zeroed pages for the others as on reading them.
    pub fn read_path_into(
        &self,
        path: &Path,
        name: &str,
        buf: &mut Vec<u8>,
    ) -> Result<(), ReadError> {
        buf.clear();
        let file = std::fs::File::open(path).map_err(ReadError::Io)?;
        let size = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        if let Some(len) = size
            && len > self.remaining()
        {
            return Err(ReadError::TooLarge(self.too_large(name)));
        }
        self.read_into(file, name, size, buf)
    }
}

/// Read a stream of unknown length in chunks, joined once at the end: growing one buffer would
/// copy it at every doubling (and hold old and new copies at once), so a stream that runs to the
/// cap would cost twice the cap before it is refused. `None`: more than `max` bytes.
fn read_chunked(reader: &mut impl Read, max: u64) -> Result<Option<Vec<u8>>, ReadError> {
    const FIRST: usize = 64 << 10;
    const LARGEST: usize = 8 << 20;
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    let mut size = FIRST;
    loop {
        let mut chunk = Vec::with_capacity(size);
        let n = reader
            .by_ref()
            .take(size as u64)
            .read_to_end(&mut chunk)
            .map_err(ReadError::Io)?;
        let done = n < size;
        chunks.push(chunk);
        if done {
            break;
        }
        size = (size * 2).min(LARGEST);
    }
    let total: usize = chunks.iter().map(Vec::len).sum();
    if total as u64 > max {
        return Ok(None);
    }
    if chunks.len() == 1 {
        return Ok(chunks.pop());
    }
    let mut out = Vec::with_capacity(total);
    for chunk in chunks {
        out.extend_from_slice(&chunk);
    }
    Ok(Some(out))
}

/// Parse a byte count: plain bytes, or a number with a binary (`Ki`, `Mi`, `Gi`, `Ti`) or
/// decimal (`k`, `M`, `G`, `T`) suffix, as Kubernetes writes quantities.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &s[digits.len()..];
    let multiplier: u64 = match suffix {
        "" => 1,
        "k" => 1_000,
        "M" => 1_000_000,
        "G" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        "Ti" => 1 << 40,
        _ => return Err(size_syntax(s)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(size_syntax(s));
    }
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(multiplier))
        .ok_or_else(|| format!("{s:?} is more bytes than topoplan can count"))
}

fn size_syntax(s: &str) -> String {
    format!(
        "{s:?} is not a byte count: expected a whole number of bytes, optionally with a suffix Ki, Mi, Gi, Ti (powers of 1024) or k, M, G, T (powers of 1000), e.g. 268435456 or 256Mi"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: ReadError) -> String {
        match e {
            ReadError::TooLarge(d) => d.message,
            ReadError::Io(e) => format!("io: {e}"),
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("256Mi"), Ok(DEFAULT_MAX_INPUT_BYTES));
        assert_eq!(parse_size("1Gi"), Ok(1 << 30));
        assert_eq!(parse_size("2k"), Ok(2000));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in [
            "",
            "Mi",
            "1.5Gi",
            "-1",
            "1 Mi",
            "1mi",
            "1KB",
            "99999999999999999999",
        ] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
        assert!(parse_size("20000000Ti").is_err());
    }

    #[test]
    fn a_stream_stops_one_byte_past_the_cap() {
        let limit = InputLimit::new(1000);
        // An endless reader: only the cap ends it.
        let err = limit
            .read(std::io::repeat(b'a'), "<stdin>", None)
            .err()
            .map(message);
        assert_eq!(
            err.as_deref(),
            Some(
                "input too large: <stdin> exceeds the 1000-byte limit on input (--max-input-bytes)"
            )
        );
        assert_eq!(limit.used(), 0);
    }

    #[test]
    fn the_budget_is_shared_by_clones() {
        let limit = InputLimit::new(10);
        let other = limit.clone();
        assert_eq!(
            limit.read(&b"123456"[..], "a", None).ok().map(|v| v.len()),
            Some(6)
        );
        assert_eq!(
            other.read(&b"1234"[..], "b", None).ok().map(|v| v.len()),
            Some(4)
        );
        assert_eq!(limit.used(), 10);
        let err = other.read(&b"x"[..], "c", None).err().map(message);
        assert_eq!(
            err.as_deref(),
            Some("input too large: c exceeds the 10-byte limit on input (--max-input-bytes)")
        );
        assert!(limit.charge(0, "d").is_ok());
        assert!(limit.charge(1, "d").is_err());
        assert_eq!(
            limit.with_max(11).charge(1, "d").map_err(|d| d.message),
            Ok(())
        );
    }

    #[test]
    fn a_large_regular_file_is_refused_before_reading() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("big.yaml");
        std::fs::write(&p, vec![b'a'; 2000]).expect("write");
        let limit = InputLimit::new(1999);
        assert!(matches!(
            limit.read_path(&p, "big.yaml"),
            Err(ReadError::TooLarge(_))
        ));
        assert_eq!(
            InputLimit::new(2000)
                .read_path(&p, "big.yaml")
                .ok()
                .map(|v| v.len()),
            Some(2000)
        );
    }
}
