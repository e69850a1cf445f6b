/*!
DER helpers for reading what Go's `asn1.Unmarshal` reads leniently and building integers, shared
by keys and certificates. (Named `asn1`, not `der`, so it does not shadow the `der` crate.)
*/

use der::asn1::{AnyRef, Uint};
use der::{Reader, SliceReader};

/// The elements of the SEQUENCE at the front of `der`. Bytes after it are left alone, as Go's
/// `asn1.Unmarshal` leaves them to its caller.
pub(super) fn sequence_items(der: &[u8]) -> Option<Vec<AnyRef<'_>>> {
    let mut reader = SliceReader::new(der).ok()?;
    let sequence: AnyRef<'_> = reader.decode().ok()?;
    sequence.decode_as::<Vec<AnyRef<'_>>>().ok()
}

/// The element at the front of `der`, whatever follows it.
pub(super) fn first_element(der: &[u8]) -> Option<AnyRef<'_>> {
    SliceReader::new(der).ok()?.decode().ok()
}

/// A `der` failure as an error text (only over-long values get here, which nothing that
/// passes the input bounds produces).
pub(super) fn der_error(e: der::Error) -> String {
    e.to_string()
}

/// A non-negative INTEGER from big-endian magnitude bytes (an empty slice is zero).
pub(super) fn uint(magnitude: &[u8]) -> Result<Uint, String> {
    Uint::new(if magnitude.is_empty() {
        &[0]
    } else {
        magnitude
    })
    .map_err(der_error)
}
