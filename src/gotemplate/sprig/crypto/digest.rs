/*!
Sprig's digests: `sha1sum`, `sha256sum`, `sha512sum` and `adler32sum`, hex-encoded as Go prints
them.
*/

use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

use super::common::{arg_str, hex};
use crate::gotemplate::value::Value;

pub(super) fn sha1sum(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(hex(&Sha1::digest(arg_str(args, 0).as_bytes()))))
}

pub(super) fn sha256sum(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(hex(&Sha256::digest(
        arg_str(args, 0).as_bytes(),
    ))))
}

pub(super) fn sha512sum(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(hex(&Sha512::digest(
        arg_str(args, 0).as_bytes(),
    ))))
}

/// Adler-32 (RFC 1950), printed in decimal as Sprig does.
fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65_521;
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that can be summed before the u32 accumulators could overflow.
    for chunk in data.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

pub(super) fn adler32sum(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(adler32(arg_str(args, 0).as_bytes()).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::gotemplate::sprig::crypto::common::tests::{s, text};

    #[test]
    fn digests() {
        assert_eq!(
            text(sha1sum(&[s("abc")])).as_deref(),
            Ok("a9993e364706816aba3e25717850c26c9cd0d89d")
        );
        assert_eq!(
            text(sha256sum(&[s("héllo")])).as_deref(),
            Ok("3c48591d8d098a4538f5e013dfcf406e948eac4d3277b10bf614e295d6068179")
        );
        assert!(text(sha512sum(&[s("abc")])).is_ok_and(|h| h.starts_with("ddaf35a193617aba")));
        assert_eq!(
            text(adler32sum(&[s("Wikipedia")])).as_deref(),
            Ok("300286872")
        );
        assert_eq!(text(adler32sum(&[s("")])).as_deref(), Ok("1"));
        assert_eq!(
            text(adler32sum(&[s(
                "The quick brown fox jumps over the lazy dog"
            )]))
            .as_deref(),
            Ok("1541148634")
        );
        let long = "x".repeat(100_000);
        // zlib's value for 100000 'x' bytes, computed independently of the chunking above.
        let naive = {
            let (mut a, mut b) = (1u64, 0u64);
            for c in long.bytes() {
                a = (a + u64::from(c)) % 65_521;
                b = (b + a) % 65_521;
            }
            (b << 16) | a
        };
        assert_eq!(u64::from(adler32(long.as_bytes())), naive);
    }
}
