/*!
PEM encoding and decoding, as Go's `encoding/pem` writes and reads blocks.
*/

use crate::go::base64;

/// `pem.EncodeToMemory`: 64-column base64 between BEGIN and END lines.
pub(crate) fn pem_encode(kind: &str, der: &[u8]) -> String {
    let body = base64::encode(der);
    let mut out = format!("-----BEGIN {kind}-----\n");
    for line in body.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {kind}-----\n"));
    out
}

/// The first well-formed PEM block (`pem.Decode`): type and DER bytes. Blocks whose body does
/// not decode are skipped, as Go does; headers (`Proc-Type: …`) are ignored.
pub(super) fn pem_decode(text: &str) -> Option<(String, Vec<u8>)> {
    let mut rest = text;
    loop {
        let start = if rest.starts_with("-----BEGIN ") {
            0
        } else {
            rest.find("\n-----BEGIN ")? + 1
        };
        let after = &rest[start + "-----BEGIN ".len()..];
        let line_end = after.find('\n').unwrap_or(after.len());
        let type_line = after[..line_end].trim_end_matches([' ', '\t', '\r']);
        let Some(kind) = type_line.strip_suffix("-----") else {
            rest = after;
            continue;
        };
        let body_start = (line_end + 1).min(after.len());
        let body_and_rest = &after[body_start..];
        let end_marker = format!("-----END {kind}-----");
        let Some(end) = body_and_rest.find(&end_marker) else {
            rest = after;
            continue;
        };
        let body = &body_and_rest[..end];
        // Headers end at the first blank line when the block starts with one.
        let body = match body.split_once(':') {
            Some((first, _)) if !first.contains('\n') => body
                .split_once("\n\n")
                .or_else(|| body.split_once("\r\n\r\n"))
                .map_or("", |(_, b)| b),
            _ => body,
        };
        let compact: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        match base64::decode(compact.as_bytes()) {
            Ok(der) => return Some((kind.to_string(), der)),
            Err(_) => rest = after,
        }
    }
}
