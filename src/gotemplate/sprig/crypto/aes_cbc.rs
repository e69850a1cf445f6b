/*!
Sprig's symmetric encryption: `encryptAES` and `decryptAES` (AES-256-CBC, PKCS#7 padding, the IV
in front, base64), including the texts of the Go panics `decryptAES` raises on short input.

(Named for the mode, not `aes`, so it does not shadow the `aes` crate it uses.)
*/

use aes::Aes256;
use aes::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};

use super::common::{arg_str, random_bytes};
use crate::go::base64;
use crate::gotemplate::value::Value;

/// Sprig's key: the password's first 32 bytes, zero-padded.
fn aes_key(password: &str) -> Aes256 {
    let mut key = [0u8; 32];
    let bytes = password.as_bytes();
    let n = bytes.len().min(32);
    key[..n].copy_from_slice(&bytes[..n]);
    Aes256::new(&Array(key))
}

/// AES-256-CBC with PKCS#7 padding and a random IV in front, base64-encoded.
pub fn encrypt_aes(password: &str, plaintext: &str) -> Result<String, String> {
    if plaintext.is_empty() {
        return Ok(String::new());
    }
    let cipher = aes_key(password);
    let mut content = plaintext.as_bytes().to_vec();
    let pad = 16 - content.len() % 16;
    content.extend(std::iter::repeat_n(pad as u8, pad));
    let mut out = vec![0u8; 16];
    random_bytes(&mut out)?;
    let mut prev = [0u8; 16];
    prev.copy_from_slice(&out);
    for block in content.chunks(16) {
        let mut b = [0u8; 16];
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = block.get(i).copied().unwrap_or(0) ^ prev[i];
        }
        let mut arr = Array(b);
        cipher.encrypt_block(&mut arr);
        prev = arr.0;
        out.extend_from_slice(&prev);
    }
    Ok(base64::encode(&out))
}

/// Sprig's `decryptAES`, failing where Go fails or panics, with the same texts. The padding
/// is not checked beyond its length byte, as in Sprig.
pub fn decrypt_aes(password: &str, crypt64: &str) -> Result<String, String> {
    if crypt64.is_empty() {
        return Ok(String::new());
    }
    let crypt = base64::decode(crypt64.as_bytes()).map_err(|e| e.to_string())?;
    if crypt.len() < 16 {
        // Go's capacity is that of DecodeString's buffer, sized from the input length.
        return Err(format!(
            "runtime error: slice bounds out of range [:16] with capacity {}",
            crypt64.len() / 4 * 3
        ));
    }
    let (iv, body) = crypt.split_at(16);
    if body.len() % 16 != 0 {
        return Err("crypto/cipher: input not full blocks".to_string());
    }
    let cipher = aes_key(password);
    let mut prev = [0u8; 16];
    prev.copy_from_slice(iv);
    let mut plain = Vec::with_capacity(body.len());
    for block in body.chunks(16) {
        let mut b = [0u8; 16];
        b.copy_from_slice(block);
        let mut arr = Array(b);
        cipher.decrypt_block(&mut arr);
        for (i, byte) in arr.0.iter().enumerate() {
            plain.push(byte ^ prev[i]);
        }
        prev = b;
    }
    let Some(&pad) = plain.last() else {
        return Err("runtime error: index out of range [-1]".to_string());
    };
    let keep = plain.len() as i64 - i64::from(pad);
    if keep < 0 {
        return Err(format!(
            "runtime error: slice bounds out of range [:{keep}]"
        ));
    }
    plain.truncate(keep as usize);
    // Go strings may hold any bytes; ours are UTF-8, so garbage keys yield U+FFFD.
    Ok(String::from_utf8_lossy(&plain).into_owned())
}

pub(super) fn encrypt_aes_fn(args: &[Value]) -> Result<Value, String> {
    encrypt_aes(arg_str(args, 0), arg_str(args, 1)).map(Value::str)
}

pub(super) fn decrypt_aes_fn(args: &[Value]) -> Result<Value, String> {
    decrypt_aes(arg_str(args, 0), arg_str(args, 1)).map(Value::str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aes_round_trip_and_go_vectors() {
        let c = encrypt_aes("secret", "hello world").expect("encrypt");
        assert_eq!(c.len(), 44);
        assert_eq!(decrypt_aes("secret", &c).as_deref(), Ok("hello world"));
        assert_eq!(encrypt_aes("k", "").as_deref(), Ok(""));
        assert_eq!(decrypt_aes("k", "").as_deref(), Ok(""));
        // Ciphertexts produced by Go Sprig.
        assert_eq!(
            decrypt_aes(
                "secret",
                "C9tUsT/jT7E9bwayAiYQy6aIhsApwRE2M0avapAURSFKykVxoyHKXavF8sxLhAkARjKhCAVYPLYmnWkGUQC39w=="
            )
            .as_deref(),
            Ok("hello world, this is longer than a block")
        );
        let long_key = "0123456789012345678901234567890123456789";
        assert_eq!(
            decrypt_aes(long_key, "17FPW4MvgtxCrbwIlPjGvtfeHrpn9Oj9chLNVZwsPPA=").as_deref(),
            Ok("x")
        );
        let errors = [
            ("abc", "illegal base64 data at input byte 0"),
            (
                "YWJj",
                "runtime error: slice bounds out of range [:16] with capacity 3",
            ),
            (
                "MDEyMzQ1Njc4OWFiY2RlZg==",
                "runtime error: index out of range [-1]",
            ),
            (
                "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "runtime error: slice bounds out of range [:-233]",
            ),
            (
                "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZQ==",
                "crypto/cipher: input not full blocks",
            ),
        ];
        for (input, want) in errors {
            assert_eq!(decrypt_aes("k", input), Err(want.to_string()), "{input}");
        }
    }

    proptest::proptest! {
        #[test]
        fn decrypt_never_panics(k in ".{0,40}", c in "[A-Za-z0-9+/=\r\n]{0,80}") {
            let _ = decrypt_aes(&k, &c);
        }

        #[test]
        fn aes_round_trips(k in ".{0,40}", p in ".{1,64}") {
            let c = encrypt_aes(&k, &p).expect("encrypt");
            proptest::prop_assert_eq!(decrypt_aes(&k, &c), Ok(p));
        }
    }
}
