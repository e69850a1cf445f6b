/*!
Go's `encoding/base32` with the standard, padded alphabet (`base32.StdEncoding`), for Sprig's
`b32enc`/`b32dec`, with Go's error offsets (`illegal base32 data at input byte N`).
*/

use std::fmt;

/// Go's `base32.CorruptInputError`: the offset of the first bad input byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CorruptInputError(pub usize);

impl fmt::Display for CorruptInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal base32 data at input byte {}", self.0)
    }
}

impl std::error::Error for CorruptInputError {}

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// `base32.StdEncoding.EncodeToString`.
pub fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut b = [0u8; 5];
        b[..chunk.len()].copy_from_slice(chunk);
        let n = b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
        // Symbols that carry input bits: 2, 4, 5, 7 or 8 for 1 to 5 bytes.
        let symbols = [0, 2, 4, 5, 7, 8][chunk.len()];
        for k in 0..8 {
            if k < symbols {
                out.push(char::from(B32[((n >> (35 - 5 * k)) & 31) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base32.StdEncoding.DecodeString`: newlines are removed first (error offsets count the
/// input without them), then 8-symbol quanta with Go's padding rules.
pub fn decode(src: &[u8]) -> Result<Vec<u8>, CorruptInputError> {
    decode_offsets(src).map_err(CorruptInputError)
}

fn decode_offsets(src: &[u8]) -> Result<Vec<u8>, usize> {
    let src: Vec<u8> = src
        .iter()
        .copied()
        .filter(|c| *c != b'\n' && *c != b'\r')
        .collect();
    let olen = src.len();
    let mut rest = &src[..];
    let mut out = Vec::with_capacity(olen / 8 * 5);
    let mut end = false;
    while !rest.is_empty() && !end {
        let mut buf = [0u8; 8];
        let mut len = 8;
        let mut j = 0;
        while j < 8 {
            let Some((&c, tail)) = rest.split_first() else {
                return Err(olen - j);
            };
            rest = tail;
            if c == b'=' && j >= 2 && rest.len() < 8 {
                if rest.len() + j < 7 {
                    return Err(olen);
                }
                for k in 0..7 - j {
                    if rest.len() > k && rest[k] != b'=' {
                        return Err(olen - rest.len() + k - 1);
                    }
                }
                len = j;
                end = true;
                if matches!(len, 1 | 3 | 6) {
                    return Err(olen - rest.len() - 1);
                }
                break;
            }
            match B32.iter().position(|&x| x == c) {
                Some(v) => buf[j] = v as u8,
                None => return Err(olen - rest.len() - 1),
            }
            j += 1;
        }
        let n = buf.iter().fold(0u64, |acc, &x| (acc << 5) | u64::from(x));
        let bytes = [
            (n >> 32) as u8,
            (n >> 24) as u8,
            (n >> 16) as u8,
            (n >> 8) as u8,
            n as u8,
        ];
        let take = match len {
            8 => 5,
            7 => 4,
            5 => 3,
            4 => 2,
            2 => 1,
            _ => 0,
        };
        out.extend_from_slice(&bytes[..take]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn decode_never_panics_and_round_trips(c in "[A-Z2-7=\r\n]{0,80}", d in proptest::collection::vec(0u8.., 0..64)) {
            let _ = decode(c.as_bytes());
            proptest::prop_assert_eq!(decode(encode(&d).as_bytes()), Ok(d));
        }
    }
}
