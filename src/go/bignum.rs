/*!
Exact decimal arithmetic on natural numbers, for the two places Go's answers depend on exact
values: Go's choice among equally short float digits (`go_shortest`, used by fmt, strconv and
JSON) and shopspring/decimal's arithmetic behind Sprig's `addf`/`subf`/`mulf`/`divf`.
*/

use std::cmp::Ordering;

use num_traits::{ToPrimitive, Zero};

/// The shortest decimal that rounds back to the positive finite `f`, as Go's strconv (and
/// decimal's `NewFromFloat`) picks it: its digits and the exponent of the last digit
/// (`0.3` → `("3", -1)`).
///
/// Among the shortest candidates Go takes the nearer one, and on an exact tie the even one;
/// Rust's `{:e}` agrees on the length but not always on the tie (`678002113398406.25` is
/// `…406.2` in Go, `…406.3` in Rust). So the length comes from Rust, and the digits from the
/// exact binary value, rounded like Go.
pub(crate) fn go_shortest(f: f64) -> (String, i32) {
    let text = format!("{f:e}");
    let length = text
        .split('e')
        .next()
        .map_or(1, |m| m.chars().filter(char::is_ascii_digit).count());
    // Exact value: mantissa * 2^e2, as an integer times a power of ten.
    let bits = f.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, e2) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let (exact, exp10) = if e2 >= 0 {
        (
            BigUint::from_u64(mantissa).mul(&small_power(2, e2.unsigned_abs())),
            0,
        )
    } else {
        (
            BigUint::from_u64(mantissa).mul(&small_power(5, e2.unsigned_abs())),
            e2,
        )
    };
    let all = exact.to_decimal_string();
    if all.len() <= length {
        let trimmed = all.trim_end_matches('0');
        let zeros = (all.len() - trimmed.len()) as i32;
        return (trimmed.to_string(), exp10 + zeros);
    }
    let (head, rest) = all.split_at(length);
    let exp = exp10 + rest.len() as i32;
    let down = head.to_string();
    let up = BigUint::from_u64(head.parse().unwrap_or(0))
        .add(&BigUint::from_u64(1))
        .to_decimal_string();
    let round_trips = |digits: &str| format!("{digits}e{exp}").parse::<f64>().ok() == Some(f);
    let nearest_up = match rest.as_bytes().first() {
        Some(b'5') if rest[1..].bytes().all(|b| b == b'0') => {
            head.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1)
        }
        Some(d) => *d >= b'5',
        None => false,
    };
    let (down_ok, up_ok) = (round_trips(&down), round_trips(&up));
    let choice = match (down_ok, up_ok) {
        (true, true) if nearest_up => up,
        (true, _) => down,
        (false, true) => up,
        // Unreachable when the length is right; fall back to Rust's digits.
        (false, false) => {
            let mantissa = text.split('e').next().unwrap_or("0");
            let e: i32 = text
                .split('e')
                .nth(1)
                .and_then(|e| e.parse().ok())
                .unwrap_or(0);
            let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
            let e = e - (digits.len() as i32 - 1);
            return (digits, e);
        }
    };
    // Rounding up may carry into a trailing zero (`9…` → `10…`).
    let trimmed = choice.trim_end_matches('0');
    let zeros = (choice.len() - trimmed.len()) as i32;
    (trimmed.to_string(), exp + zeros)
}

/// `base^k`.
pub(crate) fn small_power(base: u64, k: u32) -> BigUint {
    BigUint(num_bigint::BigUint::from(base).pow(k))
}

/// A natural number of any size: `num-bigint`'s, behind the few operations the decimal code
/// and `go_shortest` use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BigUint(num_bigint::BigUint);

impl BigUint {
    pub(crate) fn zero() -> BigUint {
        BigUint(num_bigint::BigUint::ZERO)
    }

    pub(crate) fn from_u64(v: u64) -> BigUint {
        BigUint(num_bigint::BigUint::from(v))
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.is_zero()
    }

    pub(crate) fn to_u64(&self) -> Option<u64> {
        self.0.to_u64()
    }

    pub(crate) fn cmp(&self, other: &BigUint) -> Ordering {
        self.0.cmp(&other.0)
    }

    pub(crate) fn add(&self, other: &BigUint) -> BigUint {
        BigUint(&self.0 + &other.0)
    }

    /// `self - other`, saturating at zero (callers subtract the smaller from the larger).
    pub(crate) fn sub(&self, other: &BigUint) -> BigUint {
        if self.0 <= other.0 {
            BigUint::zero()
        } else {
            BigUint(&self.0 - &other.0)
        }
    }

    pub(crate) fn mul(&self, other: &BigUint) -> BigUint {
        BigUint(&self.0 * &other.0)
    }

    /// `self * 10^k`.
    pub(crate) fn mul_pow10(&self, k: usize) -> BigUint {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        BigUint(&self.0 * num_bigint::BigUint::from(10u32).pow(k))
    }

    /// `floor(self / 10^k)`.
    pub(crate) fn div_pow10(&self, k: usize) -> BigUint {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        BigUint(&self.0 / num_bigint::BigUint::from(10u32).pow(k))
    }

    /// `(self / d, self % d)`; `(0, 0)` for `d == 0`.
    pub(crate) fn div_rem_small(&self, d: u64) -> (BigUint, u64) {
        if d == 0 {
            return (BigUint::zero(), 0);
        }
        let d = num_bigint::BigUint::from(d);
        let r = &self.0 % &d;
        (BigUint(&self.0 / d), r.to_u64().unwrap_or(0))
    }

    pub(crate) fn to_decimal_string(&self) -> String {
        self.0.to_str_radix(10)
    }
}
