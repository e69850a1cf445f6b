/*!
Exact decimal arithmetic on natural numbers, for the two places Go's answers depend on exact
values: Go's choice among equally short float digits (`go_shortest`, used by fmt, strconv and
JSON) and shopspring/decimal's arithmetic behind Sprig's `addf`/`subf`/`mulf`/`divf`.
*/

use std::cmp::Ordering;

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

/// `base^k` for a small base.
pub(crate) fn small_power(base: u64, k: u32) -> BigUint {
    let mut out = BigUint::from_u64(1);
    let step = base.pow(if base == 2 { 62 } else { 26 });
    let chunk = if base == 2 { 62 } else { 26 };
    let mut left = k;
    while left >= chunk {
        out = out.mul(&BigUint::from_u64(step));
        left -= chunk;
    }
    out.mul(&BigUint::from_u64(base.pow(left)))
}

/// Base of [`BigUint`] limbs.
pub(crate) const LIMB: u64 = 1_000_000_000;

/// A minimal arbitrary-precision natural number (base 10^9 limbs, least significant first,
/// no trailing zero limbs), enough for decimal's add/sub/mul and division by a u64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    pub(crate) fn zero() -> BigUint {
        BigUint { limbs: Vec::new() }
    }

    pub(crate) fn from_u64(mut v: u64) -> BigUint {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % LIMB) as u32);
            v /= LIMB;
        }
        BigUint { limbs }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    pub(crate) fn trim(mut self) -> BigUint {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
        self
    }

    pub(crate) fn to_u64(&self) -> Option<u64> {
        self.limbs.iter().rev().try_fold(0u64, |acc, l| {
            acc.checked_mul(LIMB)
                .and_then(|a| a.checked_add(u64::from(*l)))
        })
    }

    pub(crate) fn cmp(&self, other: &BigUint) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }

    pub(crate) fn add(&self, other: &BigUint) -> BigUint {
        let n = self.limbs.len().max(other.limbs.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(self.limbs.get(i).copied().unwrap_or(0))
                + u64::from(other.limbs.get(i).copied().unwrap_or(0))
                + carry;
            out.push((s % LIMB) as u32);
            carry = s / LIMB;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        BigUint { limbs: out }.trim()
    }

    /// `self - other`, saturating at zero (callers only subtract a smaller number).
    pub(crate) fn sub(&self, other: &BigUint) -> BigUint {
        if self.cmp(other) != Ordering::Greater {
            return BigUint::zero();
        }
        let mut out = Vec::with_capacity(self.limbs.len());
        let mut borrow = 0i64;
        for (i, limb) in self.limbs.iter().enumerate() {
            let mut d = i64::from(*limb) - i64::from(other.limbs.get(i).copied().unwrap_or(0));
            d -= borrow;
            if d < 0 {
                d += LIMB as i64;
                borrow = 1;
            } else {
                borrow = 0;
            }
            out.push(d as u32);
        }
        BigUint { limbs: out }.trim()
    }

    pub(crate) fn mul(&self, other: &BigUint) -> BigUint {
        if self.is_zero() || other.is_zero() {
            return BigUint::zero();
        }
        let mut acc = vec![0u64; self.limbs.len() + other.limbs.len() + 1];
        for (i, a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (j, b) in other.limbs.iter().enumerate() {
                let cur = acc[i + j] + u64::from(*a) * u64::from(*b) + carry;
                acc[i + j] = cur % LIMB;
                carry = cur / LIMB;
            }
            let mut k = i + other.limbs.len();
            while carry > 0 {
                let cur = acc[k] + carry;
                acc[k] = cur % LIMB;
                carry = cur / LIMB;
                k += 1;
            }
        }
        BigUint {
            limbs: acc.into_iter().map(|l| l as u32).collect(),
        }
        .trim()
    }

    /// `self * 10^k`.
    pub(crate) fn mul_pow10(&self, k: usize) -> BigUint {
        if self.is_zero() {
            return BigUint::zero();
        }
        let mut limbs = vec![0u32; k / 9];
        limbs.extend_from_slice(&self.limbs);
        BigUint { limbs }.mul(&BigUint::from_u64(10u64.pow((k % 9) as u32)))
    }

    /// `floor(self / 10^k)`.
    pub(crate) fn div_pow10(&self, k: usize) -> BigUint {
        let whole = k / 9;
        if whole >= self.limbs.len() {
            return BigUint::zero();
        }
        let shifted = BigUint {
            limbs: self.limbs[whole..].to_vec(),
        };
        shifted.div_rem_small(10u64.pow((k % 9) as u32)).0
    }

    /// `(self / d, self % d)` for a non-zero `d` below 2^64.
    pub(crate) fn div_rem_small(&self, d: u64) -> (BigUint, u64) {
        if d == 0 {
            return (BigUint::zero(), 0);
        }
        let d = u128::from(d);
        let mut out = vec![0u32; self.limbs.len()];
        let mut rem = 0u128;
        for i in (0..self.limbs.len()).rev() {
            let cur = rem * u128::from(LIMB) + u128::from(self.limbs[i]);
            out[i] = (cur / d) as u32;
            rem = cur % d;
        }
        (BigUint { limbs: out }.trim(), rem as u64)
    }

    pub(crate) fn to_decimal_string(&self) -> String {
        let Some((top, rest)) = self.limbs.split_last() else {
            return "0".into();
        };
        let mut s = top.to_string();
        for limb in rest.iter().rev() {
            s.push_str(&format!("{limb:09}"));
        }
        s
    }
}
