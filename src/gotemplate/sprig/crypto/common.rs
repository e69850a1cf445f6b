/*!
Helpers shared by the crypto functions: reading string arguments, hex encoding, and the OS
random generator.
*/

use crate::gotemplate::value::Value;

pub(super) fn arg_str(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Fill a buffer from the OS generator (Go's `crypto/rand.Reader`).
pub(super) fn random_bytes(buf: &mut [u8]) -> Result<(), String> {
    getrandom::fill(buf).map_err(|e| e.to_string())
}

/// Helpers for the tests of the crypto functions.
#[cfg(test)]
pub(super) mod tests {
    use crate::gotemplate::value::Value;

    pub(in crate::gotemplate::sprig::crypto) fn s(v: &str) -> Value {
        Value::str(v)
    }

    pub(in crate::gotemplate::sprig::crypto) fn text(
        r: Result<Value, String>,
    ) -> Result<String, String> {
        r.map(|v| v.as_str().unwrap_or("<not a string>").to_string())
    }
}
