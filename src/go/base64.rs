/*!
Go's `encoding/base64` with the standard, padded alphabet (`base64.StdEncoding`): what Sprig's
`b64enc`/`b64dec`, its crypto functions, PEM and Go's JSON encoding of `[]byte` use. Decoding
reports errors as Go does (`illegal base64 data at input byte N`, with Go's offsets), which
crates' decoders do not: they neither skip newlines nor count offsets the same way.
*/

use std::fmt;

/// Go's `base64.CorruptInputError`: the offset of the first bad input byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorruptInputError(pub usize);

impl fmt::Display for CorruptInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base64 data at input byte {}", self.0)
    }
}

impl std::error::Error for CorruptInputError {}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64.StdEncoding.EncodeToString`.
pub fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(B64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn b64_value(c: u8) -> Option<u8> {
    B64.iter().position(|&x| x == c).map(|p| p as u8)
}

/// `base64.StdEncoding.DecodeString`, with Go's error offsets: newlines are skipped, padding is
/// required, a quantum cut short by the end of input or by bad padding is an error, bits after
/// the data are tolerated.
pub fn decode(src: &[u8]) -> Result<Vec<u8>, CorruptInputError> {
    decode_offsets(src).map_err(CorruptInputError)
}

fn decode_offsets(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    let is_nl = |c: u8| c == b'\n' || c == b'\r';
    while si < src.len() {
        let mut buf = [0u8; 4];
        let mut len = 4;
        let mut j = 0;
        let mut trailing: Option<usize> = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = b64_value(c) {
                buf[j] = v;
                j += 1;
                continue;
            }
            if is_nl(c) {
                continue;
            }
            if c != b'=' || j < 2 {
                return Err(si - 1);
            }
            // Padding: "==" after two symbols, "=" after three, then only newlines.
            if j == 2 {
                while si < src.len() && is_nl(src[si]) {
                    si += 1;
                }
                if si == src.len() {
                    return Err(src.len());
                }
                if src[si] != b'=' {
                    return Err(si - 1);
                }
                si += 1;
            }
            while si < src.len() && is_nl(src[si]) {
                si += 1;
            }
            if si < src.len() {
                trailing = Some(si);
            }
            len = j;
            break;
        }
        let n = (u32::from(buf[0]) << 18)
            | (u32::from(buf[1]) << 12)
            | (u32::from(buf[2]) << 6)
            | u32::from(buf[3]);
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..len - 1]);
        if let Some(at) = trailing {
            return Err(at);
        }
        if len < 4 {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_go() {
        assert_eq!(encode(b""), "");
        assert_eq!(encode(b"f"), "Zg==");
        assert_eq!(encode(b"fo"), "Zm8=");
        assert_eq!(encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(decode(b"Zm9v\r\nYmFy").as_deref(), Ok(&b"foobar"[..]));
        assert_eq!(decode(b"Zg==").as_deref(), Ok(&b"f"[..]));
        assert_eq!(decode(b"Zh==").as_deref(), Ok(&b"f"[..]));
        let err = |s: &str| decode(s.as_bytes()).map_err(|e| e.to_string());
        assert_eq!(err("Zg"), Err("illegal base64 data at input byte 0".into()));
        assert_eq!(err("Z"), Err("illegal base64 data at input byte 0".into()));
        assert_eq!(
            err("Zm9vY"),
            Err("illegal base64 data at input byte 4".into())
        );
    }

    proptest::proptest! {
        #[test]
        fn decode_never_panics_and_round_trips(c in "[A-Za-z0-9+/=\r\n]{0,80}", d in proptest::collection::vec(0u8.., 0..64)) {
            let _ = decode(c.as_bytes());
            proptest::prop_assert_eq!(decode(encode(&d).as_bytes()), Ok(d));
        }
    }
}
