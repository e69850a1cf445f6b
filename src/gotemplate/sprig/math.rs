/*!
Sprig's arithmetic: the int64 helpers (`add`, `sub`, `mul`, `div`, `mod`, `add1`, `max`, `min`,
`biggest`), the float64 helpers (`addf`, `subf`, `mulf`, `divf`, `add1f`, `maxf`, `minf`, `ceil`,
`floor`, `round`), integer sequences (`until`, `untilStep`) and `randInt`.

Every operand goes through spf13/cast (`cast::to_int64` / `cast::to_float64`), so an
unconvertible value silently counts as 0, exactly as in Sprig.

Behaviours worth knowing, all taken from the Go originals:

- int64 arithmetic wraps on overflow (Go does not trap); `div`/`mod` by zero is Go's runtime
  panic `runtime error: integer divide by zero`.
- `addf` & co. do not add floats: Sprig converts each operand with shopspring/decimal's
  `NewFromFloat` (the shortest decimal that round-trips), computes exactly in decimal (`divf`
  rounds to 16 decimal places, half away from zero) and converts back to the nearest float64.
  That is why `addf 0.1 0.2` is `0.3`. This file carries a small exact decimal type for that,
  and [`go_shortest`], Go's shortest-decimal rule (Rust's `{:e}` breaks exact ties the other
  way: Go prints 678002113398406.25 as `…406.2`, Rust as `…406.3`).
- `round` is Sprig's own algorithm (not half-away-from-zero for negatives: `round -2.4 0` is -3),
  with Go's `math.Pow` and `math.Modf` reproduced bit for bit.
- `until`/`untilStep` return `[]int`. Deliberate difference: a result longer than
  [`MAX_SEQUENCE`] items is an error instead of an allocation that could exhaust memory.
- `randInt` is random in Go (`rand.Intn(max-min) + min`); it stays random here (seeded by
  std's `RandomState`, no dependency).
*/

use crate::go::bignum::{BigUint, go_shortest};
use std::cmp::Ordering;
use std::sync::Arc;

use super::cast::{to_float64, to_int64};
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::{GoType, Slice, Value};

/// The most items `until`/`untilStep` will produce (a deliberate bound; Go has none).
pub const MAX_SEQUENCE: u64 = 10_000_000;

/// Go's runtime panic text for integer division by zero.
const DIVIDE_BY_ZERO: &str = "runtime error: integer divide by zero";

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "until",
        params: &[Param::Int],
        variadic: None,
        imp: until,
    },
    Func {
        name: "untilStep",
        params: &[Param::Int, Param::Int, Param::Int],
        variadic: None,
        imp: until_step,
    },
    Func {
        name: "add1",
        params: &[Param::Any],
        variadic: None,
        imp: add1,
    },
    Func {
        name: "add",
        params: &[],
        variadic: Some(Param::Any),
        imp: add,
    },
    Func {
        name: "sub",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: sub,
    },
    Func {
        name: "div",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: div,
    },
    Func {
        name: "mod",
        params: &[Param::Any, Param::Any],
        variadic: None,
        imp: modulo,
    },
    Func {
        name: "mul",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: mul,
    },
    Func {
        name: "randInt",
        params: &[Param::Int, Param::Int],
        variadic: None,
        imp: rand_int,
    },
    Func {
        name: "add1f",
        params: &[Param::Any],
        variadic: None,
        imp: add1f,
    },
    Func {
        name: "addf",
        params: &[],
        variadic: Some(Param::Any),
        imp: addf,
    },
    Func {
        name: "subf",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: subf,
    },
    Func {
        name: "divf",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: divf,
    },
    Func {
        name: "mulf",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: mulf,
    },
    Func {
        name: "biggest",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: max,
    },
    Func {
        name: "max",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: max,
    },
    Func {
        name: "min",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: min,
    },
    Func {
        name: "maxf",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: maxf,
    },
    Func {
        name: "minf",
        params: &[Param::Any],
        variadic: Some(Param::Any),
        imp: minf,
    },
    Func {
        name: "ceil",
        params: &[Param::Any],
        variadic: None,
        imp: ceil,
    },
    Func {
        name: "floor",
        params: &[Param::Any],
        variadic: None,
        imp: floor,
    },
    Func {
        name: "round",
        params: &[Param::Any, Param::Int],
        variadic: Some(Param::Float64),
        imp: round,
    },
];

/// Argument `i`, or nil when the executor passed fewer (it never should).
fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Nil)
}

/// An `int` parameter: the executor already converted it; anything else goes through cast.
pub(crate) fn int_arg(args: &[Value], i: usize) -> i64 {
    match arg(args, i) {
        Value::Int(n) | Value::Int64(n) => *n,
        other => to_int64(other),
    }
}

/// A `float64` parameter (the executor already converted it).
fn float_arg(v: &Value) -> f64 {
    match v {
        Value::Float(f) => *f,
        other => to_float64(other),
    }
}

fn until(args: &[Value]) -> Result<Value, String> {
    let count = int_arg(args, 0);
    let step = if count < 0 { -1 } else { 1 };
    int_sequence(0, count, step)
}

fn until_step(args: &[Value]) -> Result<Value, String> {
    int_sequence(int_arg(args, 0), int_arg(args, 1), int_arg(args, 2))
}

/// Sprig's `untilStep` as a `[]int`: counting from `start` towards `stop` (exclusive) by
/// `step`; empty when the step points the wrong way or is zero.
pub(crate) fn int_sequence(start: i64, stop: i64, step: i64) -> Result<Value, String> {
    let descending = stop < start;
    if (descending && step >= 0) || (!descending && step <= 0) {
        return Ok(int_slice(Vec::new()));
    }
    let span = (i128::from(stop) - i128::from(start)).unsigned_abs();
    let stride = i128::from(step).unsigned_abs();
    let count = span.div_ceil(stride);
    // Go's loop variable is an int: if stepping past the last item overflows, Go wraps around
    // and keeps appending until memory runs out. Treat that like any oversized result.
    let last = i128::from(start) + (count as i128 - 1) * i128::from(step);
    let wraps = i64::try_from(last + i128::from(step)).is_err();
    if count > u128::from(MAX_SEQUENCE) || wraps {
        return Err(format!(
            "sequence from {start} to {stop} by {step} would exceed {MAX_SEQUENCE} items \
             (limit of this implementation)"
        ));
    }
    let items = (0..count as i64)
        .map(|k| Value::Int(start.wrapping_add(k.wrapping_mul(step))))
        .collect();
    Ok(int_slice(items))
}

fn int_slice(items: Vec<Value>) -> Value {
    Value::Slice(Arc::new(Slice {
        elem: GoType::Int,
        items,
    }))
}

fn add1(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(to_int64(arg(args, 0)).wrapping_add(1)))
}

fn add(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(
        args.iter()
            .fold(0i64, |acc, v| acc.wrapping_add(to_int64(v))),
    ))
}

fn sub(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(
        to_int64(arg(args, 0)).wrapping_sub(to_int64(arg(args, 1))),
    ))
}

fn div(args: &[Value]) -> Result<Value, String> {
    let (a, b) = (to_int64(arg(args, 0)), to_int64(arg(args, 1)));
    if b == 0 {
        return Err(DIVIDE_BY_ZERO.into());
    }
    // Go defines MinInt64 / -1 as MinInt64 (no panic); wrapping_div does the same.
    Ok(Value::Int64(a.wrapping_div(b)))
}

fn modulo(args: &[Value]) -> Result<Value, String> {
    let (a, b) = (to_int64(arg(args, 0)), to_int64(arg(args, 1)));
    if b == 0 {
        return Err(DIVIDE_BY_ZERO.into());
    }
    Ok(Value::Int64(a.wrapping_rem(b)))
}

fn mul(args: &[Value]) -> Result<Value, String> {
    let first = to_int64(arg(args, 0));
    let rest = args.get(1..).unwrap_or(&[]);
    Ok(Value::Int64(
        rest.iter()
            .fold(first, |acc, v| acc.wrapping_mul(to_int64(v))),
    ))
}

fn rand_int(args: &[Value]) -> Result<Value, String> {
    let (lo, hi) = (int_arg(args, 0), int_arg(args, 1));
    let n = hi.wrapping_sub(lo);
    if n <= 0 {
        // math/rand's Intn panics on a non-positive bound.
        return Err("invalid argument to Intn".into());
    }
    let r = (random_u64() % n as u64) as i64;
    Ok(Value::Int(r.wrapping_add(lo)))
}

/// A random u64 without a dependency: std's `RandomState` is seeded from the OS per instance,
/// and a counter keeps successive calls distinct.
fn random_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, AtomicOrdering::Relaxed));
    h.finish()
}

fn max(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(
        args.iter()
            .skip(1)
            .fold(to_int64(arg(args, 0)), |acc, v| acc.max(to_int64(v))),
    ))
}

fn min(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Int64(
        args.iter()
            .skip(1)
            .fold(to_int64(arg(args, 0)), |acc, v| acc.min(to_int64(v))),
    ))
}

fn maxf(args: &[Value]) -> Result<Value, String> {
    let first = to_float64(arg(args, 0));
    Ok(Value::Float(
        args.iter()
            .skip(1)
            .fold(first, |acc, v| go_max(acc, to_float64(v))),
    ))
}

fn minf(args: &[Value]) -> Result<Value, String> {
    let first = to_float64(arg(args, 0));
    Ok(Value::Float(
        args.iter()
            .skip(1)
            .fold(first, |acc, v| go_min(acc, to_float64(v))),
    ))
}

/// Go's `math.Max`: +Inf wins over NaN, NaN over everything else, +0 over -0.
fn go_max(x: f64, y: f64) -> f64 {
    if x == f64::INFINITY || y == f64::INFINITY {
        f64::INFINITY
    } else if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == 0.0 && y == 0.0 {
        if x.is_sign_negative() { y } else { x }
    } else if x > y {
        x
    } else {
        y
    }
}

/// Go's `math.Min`: -Inf wins over NaN, NaN over everything else, -0 over +0.
fn go_min(x: f64, y: f64) -> f64 {
    if x == f64::NEG_INFINITY || y == f64::NEG_INFINITY {
        f64::NEG_INFINITY
    } else if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == 0.0 && y == 0.0 {
        if x.is_sign_negative() { x } else { y }
    } else if x < y {
        x
    } else {
        y
    }
}

fn ceil(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Float(to_float64(arg(args, 0)).ceil()))
}

fn floor(args: &[Value]) -> Result<Value, String> {
    Ok(Value::Float(to_float64(arg(args, 0)).floor()))
}

fn round(args: &[Value]) -> Result<Value, String> {
    let round_on = args.get(2).map(float_arg).unwrap_or(0.5);
    let val = to_float64(arg(args, 0));
    let places = int_arg(args, 1) as f64;
    let pow = go_pow10(places);
    let digit = pow * val;
    // Go's math.Modf fraction is `f - trunc(f)` (NaN for infinities), as is Rust's `fract`.
    let frac = digit.fract();
    let rounded = if frac >= round_on {
        digit.ceil()
    } else {
        digit.floor()
    };
    Ok(Value::Float(rounded / pow))
}

/// Go's `math.Pow(10, y)` for an integral `y` (what `round` needs), following Go's algorithm on
/// amd64: repeated squaring of the frexp mantissa, then a reciprocal for negative powers. It
/// is not always the correctly rounded result, and `round` must match Go bit for bit.
fn go_pow10(y: f64) -> f64 {
    if y == 0.0 {
        return 1.0;
    }
    if y == 1.0 {
        return 10.0;
    }
    let yi = y.abs();
    if yi >= (1u64 << 63) as f64 {
        return if y > 0.0 { f64::INFINITY } else { 0.0 };
    }
    // frexp(10) = 0.625 * 2^4.
    let (mut x1, mut xe) = (0.625f64, 4i64);
    let (mut a1, mut ae) = (1.0f64, 0i64);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            // The exponent is already far outside float64's range: Ldexp gives 0 or Inf.
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    go_ldexp(a1, ae)
}

/// Go's `math.Ldexp`: `frac * 2^exp` with Go's underflow threshold and a single rounding for
/// subnormal results.
fn go_ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || !frac.is_finite() {
        return frac;
    }
    let (mut frac, mut exp) = (frac, exp);
    if frac.abs() < f64::MIN_POSITIVE {
        frac *= (1u64 << 52) as f64;
        exp -= 52;
    }
    let bits = frac.to_bits();
    exp += ((bits >> 52) & 0x7ff) as i64 - 1023;
    if exp < -1075 {
        return 0.0f64.copysign(frac);
    }
    if exp > 1023 {
        return f64::INFINITY.copysign(frac);
    }
    let mut m = 1.0;
    if exp < -1022 {
        exp += 53;
        m = 1.0 / (1u64 << 53) as f64;
    }
    let bits = (bits & !(0x7ffu64 << 52)) | (((exp + 1023) as u64) << 52);
    m * f64::from_bits(bits)
}

// ---- addf, subf, mulf, divf, add1f: shopspring/decimal arithmetic ----

fn add1f(args: &[Value]) -> Result<Value, String> {
    decimal_op(arg(args, 0), &[Value::Int(1)], DecOp::Add)
}

fn addf(args: &[Value]) -> Result<Value, String> {
    decimal_op(&Value::Float(0.0), args, DecOp::Add)
}

fn subf(args: &[Value]) -> Result<Value, String> {
    decimal_op(arg(args, 0), args.get(1..).unwrap_or(&[]), DecOp::Sub)
}

fn mulf(args: &[Value]) -> Result<Value, String> {
    decimal_op(arg(args, 0), args.get(1..).unwrap_or(&[]), DecOp::Mul)
}

fn divf(args: &[Value]) -> Result<Value, String> {
    decimal_op(arg(args, 0), args.get(1..).unwrap_or(&[]), DecOp::Div)
}

#[derive(Clone, Copy)]
enum DecOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// Sprig's `execDecimalOp`: fold the operands left to right in exact decimal arithmetic.
fn decimal_op(first: &Value, rest: &[Value], op: DecOp) -> Result<Value, String> {
    let mut acc = Decimal::from_f64(to_float64(first))?;
    for v in rest {
        let x = Decimal::from_f64(to_float64(v))?;
        acc = match op {
            DecOp::Add => acc.add(&x),
            DecOp::Sub => acc.add(&x.neg()),
            DecOp::Mul => acc.mul(&x)?,
            DecOp::Div => acc.div(&x)?,
        };
    }
    Ok(Value::Float(acc.to_f64()))
}

/// shopspring/decimal's `DivisionPrecision`: digits after the point of an inexact quotient.
const DIVISION_PRECISION: i32 = 16;

/// An exact decimal `(-1)^neg * mag * 10^exp`, as shopspring/decimal represents it (the
/// exponent is not normalised: it follows decimal's own rescaling rules).
#[derive(Debug, Clone, PartialEq)]
struct Decimal {
    neg: bool,
    mag: BigUint,
    exp: i32,
}

impl Decimal {
    /// `decimal.NewFromFloat`: the shortest decimal that rounds back to `f`; 0 is `0e0`.
    fn from_f64(f: f64) -> Result<Decimal, String> {
        if !f.is_finite() {
            let shown = if f.is_nan() {
                "NaN"
            } else if f > 0.0 {
                "+Inf"
            } else {
                "-Inf"
            };
            return Err(format!("Cannot create a Decimal from {shown}"));
        }
        if f == 0.0 {
            return Ok(Decimal {
                neg: false,
                mag: BigUint::zero(),
                exp: 0,
            });
        }
        let (digits, exp) = go_shortest(f.abs());
        Ok(Decimal {
            neg: f < 0.0,
            mag: BigUint::from_u64(digits.parse().unwrap_or(0)),
            exp,
        })
    }

    fn neg(&self) -> Decimal {
        let mut d = self.clone();
        d.neg = !d.neg && !d.mag.is_zero();
        d
    }

    /// `mag` expressed at the (lower) exponent `exp`.
    fn mag_at(&self, exp: i32) -> BigUint {
        let shift = (i64::from(self.exp) - i64::from(exp)).max(0) as usize;
        self.mag.mul_pow10(shift)
    }

    /// `Add`: both operands rescaled to the smaller exponent.
    fn add(&self, other: &Decimal) -> Decimal {
        let exp = self.exp.min(other.exp);
        let (a, b) = (self.mag_at(exp), other.mag_at(exp));
        let (neg, mag) = if self.neg == other.neg {
            (self.neg, a.add(&b))
        } else {
            match a.cmp(&b) {
                Ordering::Less => (other.neg, b.sub(&a)),
                _ => (self.neg, a.sub(&b)),
            }
        };
        Decimal {
            neg: neg && !mag.is_zero(),
            mag,
            exp,
        }
    }

    /// `Mul`: exact product; decimal panics when the exponent leaves int32.
    fn mul(&self, other: &Decimal) -> Result<Decimal, String> {
        let exp = i64::from(self.exp) + i64::from(other.exp);
        let exp = i32::try_from(exp).map_err(|_| format!("exponent {exp} overflows an int32!"))?;
        let mag = self.mag.mul(&other.mag);
        Ok(Decimal {
            neg: self.neg != other.neg && !mag.is_zero(),
            mag,
            exp,
        })
    }

    /// `Div` = `DivRound(d2, 16)`: the quotient truncated to 16 decimal places, then rounded
    /// half away from zero by comparing twice the remainder with the divisor.
    fn div(&self, other: &Decimal) -> Result<Decimal, String> {
        if other.mag.is_zero() {
            return Err("decimal division by 0".into());
        }
        // The divisor always comes from NewFromFloat, so it has at most 17 digits.
        let divisor = other
            .mag
            .to_u64()
            .ok_or("decimal division: divisor too large")?;
        let scale = -DIVISION_PRECISION;
        let e = i64::from(self.exp) - i64::from(other.exp) - i64::from(scale);
        if i32::try_from(e).is_err() {
            return Err("overflow in decimal QuoRem".into());
        }
        // QuoRem: |q| = |aa| / |bb| truncated, |r| = |aa| - |q|*|bb|, r taking the dividend's
        // sign and exponent `rest_exp`.
        let (q, r, rest_exp) = if e < 0 {
            let k = e.unsigned_abs() as usize;
            // floor(a / (b * 10^k)) == floor(floor(a / 10^k) / b)
            let (q, _) = self.mag.div_pow10(k).div_rem_small(divisor);
            let r = self
                .mag
                .sub(&q.mul(&BigUint::from_u64(divisor)).mul_pow10(k));
            (q, r, self.exp)
        } else {
            let (q, r) = self.mag.mul_pow10(e as usize).div_rem_small(divisor);
            (q, BigUint::from_u64(r), scale + other.exp)
        };
        // Round away from zero when 2*|r|*10^16 >= |divisor| (compared at a common exponent).
        let twice_r = Decimal {
            neg: false,
            mag: r.add(&r),
            exp: rest_exp.saturating_add(DIVISION_PRECISION),
        };
        let abs_divisor = Decimal {
            neg: false,
            mag: other.mag.clone(),
            exp: other.exp,
        };
        let common = twice_r.exp.min(abs_divisor.exp);
        let round_up = twice_r.mag_at(common).cmp(&abs_divisor.mag_at(common)) != Ordering::Less;
        let q_neg = self.neg != other.neg;
        let mut quotient = Decimal {
            neg: q_neg && !q.is_zero(),
            mag: q,
            exp: scale,
        };
        if round_up {
            let ulp = Decimal {
                neg: q_neg,
                mag: BigUint::from_u64(1),
                exp: scale,
            };
            quotient = quotient.add(&ulp);
        }
        Ok(quotient)
    }

    /// `Float64()`: the nearest float64 (ties to even); Rust's parser rounds correctly for any
    /// number of digits.
    fn to_f64(&self) -> f64 {
        let text = format!("{}e{}", self.mag.to_decimal_string(), self.exp);
        let v: f64 = text.parse().unwrap_or(0.0);
        if self.neg { -v } else { v }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_vectors_from_go() {
        assert!(super::super::regex::golden::check(FUNCS) > 50);
    }

    fn call(f: fn(&[Value]) -> Result<Value, String>, args: &[Value]) -> Value {
        f(args).expect("call succeeds")
    }

    fn fl(f: f64) -> Value {
        Value::Float(f)
    }

    fn ints(v: &Value) -> Vec<i64> {
        match v {
            Value::Slice(s) => {
                assert_eq!(s.elem, GoType::Int);
                s.items
                    .iter()
                    .map(|i| match i {
                        Value::Int(n) => *n,
                        other => panic!("not an int: {other:?}"),
                    })
                    .collect()
            }
            other => panic!("not a slice: {other:?}"),
        }
    }

    #[test]
    fn int_arithmetic_like_sprig() {
        assert_eq!(
            call(add, &[fl(1.0), Value::Int(2), Value::str("3")]),
            Value::Int64(6)
        );
        assert_eq!(call(add, &[]), Value::Int64(0));
        assert_eq!(call(add1, &[fl(2.9)]), Value::Int64(3));
        assert_eq!(call(add1, &[Value::Nil]), Value::Int64(1));
        assert_eq!(call(sub, &[Value::Int(1), Value::Int(5)]), Value::Int64(-4));
        assert_eq!(call(div, &[Value::Int(7), Value::Int(2)]), Value::Int64(3));
        assert_eq!(
            call(div, &[Value::Int(-7), Value::Int(2)]),
            Value::Int64(-3)
        );
        assert_eq!(
            call(modulo, &[Value::Int(-7), Value::Int(3)]),
            Value::Int64(-1)
        );
        assert_eq!(
            call(mul, &[Value::Int(2), fl(3.5), Value::str("4")]),
            Value::Int64(24)
        );
        assert_eq!(call(mul, &[Value::Int(5)]), Value::Int64(5));
        assert_eq!(
            div(&[Value::Int(1), Value::Int(0)]),
            Err(DIVIDE_BY_ZERO.to_string())
        );
        assert_eq!(
            modulo(&[Value::Int(1), Value::Nil]),
            Err(DIVIDE_BY_ZERO.to_string())
        );
    }

    #[test]
    fn int_arithmetic_wraps() {
        let big = Value::Int64(i64::MAX);
        assert_eq!(
            call(add1, std::slice::from_ref(&big)),
            Value::Int64(i64::MIN)
        );
        assert_eq!(call(mul, &[big.clone(), Value::Int(2)]), Value::Int64(-2));
        assert_eq!(
            call(div, &[Value::Int64(i64::MIN), Value::Int(-1)]),
            Value::Int64(i64::MIN)
        );
        assert_eq!(
            call(modulo, &[Value::Int64(i64::MIN), Value::Int(-1)]),
            Value::Int64(0)
        );
    }

    #[test]
    fn max_min() {
        assert_eq!(
            call(max, &[Value::Int(1), fl(7.9), Value::str("3")]),
            Value::Int64(7)
        );
        assert_eq!(
            call(min, &[Value::Int(1), fl(-7.9), Value::str("x")]),
            Value::Int64(-7)
        );
        assert_eq!(call(max, &[Value::str("5")]), Value::Int64(5));
        assert_eq!(call(maxf, &[Value::Int(1), fl(2.5)]), fl(2.5));
        assert_eq!(
            call(minf, &[Value::Int(1), fl(2.5), Value::str("-3")]),
            fl(-3.0)
        );
        let Value::Float(n) = call(maxf, &[Value::Int(1), Value::str("nan")]) else {
            panic!()
        };
        assert!(n.is_nan());
        assert_eq!(
            call(maxf, &[Value::str("nan"), Value::str("inf")]),
            fl(f64::INFINITY)
        );
    }

    #[test]
    fn sequences() {
        assert_eq!(ints(&call(until, &[Value::Int(5)])), vec![0, 1, 2, 3, 4]);
        assert_eq!(ints(&call(until, &[Value::Int(-3)])), vec![0, -1, -2]);
        assert_eq!(ints(&call(until, &[Value::Int(0)])), Vec::<i64>::new());
        let step = |a, b, c| call(until_step, &[Value::Int(a), Value::Int(b), Value::Int(c)]);
        assert_eq!(ints(&step(0, 10, 3)), vec![0, 3, 6, 9]);
        assert_eq!(ints(&step(10, 0, -4)), vec![10, 6, 2]);
        assert_eq!(ints(&step(0, 10, -1)), Vec::<i64>::new());
        assert_eq!(ints(&step(0, 10, 0)), Vec::<i64>::new());
        assert_eq!(ints(&step(5, 5, 1)), Vec::<i64>::new());
        assert!(until(&[Value::Int(1_000_000_000)]).is_err());
        assert!(
            until_step(&[
                Value::Int(i64::MAX - 1),
                Value::Int(i64::MAX),
                Value::Int(10)
            ])
            .is_err()
        );
        assert_eq!(
            ints(&step(i64::MAX - 2, i64::MAX, 1)),
            vec![i64::MAX - 2, i64::MAX - 1]
        );
    }

    #[test]
    fn rand_int_in_range() {
        for _ in 0..100 {
            let Value::Int(n) = call(rand_int, &[Value::Int(3), Value::Int(6)]) else {
                panic!()
            };
            assert!((3..6).contains(&n));
        }
        assert_eq!(
            rand_int(&[Value::Int(5), Value::Int(5)]),
            Err("invalid argument to Intn".into())
        );
    }

    #[test]
    fn decimal_arithmetic_like_shopspring() {
        assert_eq!(call(addf, &[fl(0.1), fl(0.2)]), fl(0.3));
        assert_eq!(call(addf, &[]), fl(0.0));
        assert_eq!(
            call(divf, &[Value::Int(2), Value::Int(3)]),
            fl(0.6666666666666667)
        );
        // 1/3 rounded to 16 places is 0.3333333333333333, whose nearest float prints like this.
        assert_eq!(
            call(divf, &[Value::Int(1), Value::Int(3)]),
            fl(0.3333333333333333)
        );
        assert_eq!(
            call(divf, &[Value::Int(-2), Value::Int(3)]),
            fl(-0.6666666666666667)
        );
        assert_eq!(call(mulf, &[fl(1.1), fl(1.1)]), fl(1.21));
        assert_eq!(call(subf, &[Value::Int(1)]), fl(1.0));
        assert_eq!(call(subf, &[fl(1.5), fl(0.25), Value::str("1")]), fl(0.25));
        assert_eq!(call(add1f, &[fl(1.5)]), fl(2.5));
        assert_eq!(call(divf, &[fl(1e300), fl(1e-300)]), fl(f64::INFINITY));
        assert_eq!(call(divf, &[fl(1.0), fl(8.0)]), fl(0.125));
        assert_eq!(
            call(divf, &[Value::Int(10), Value::Int(4), Value::Int(5)]),
            fl(0.5)
        );
        assert_eq!(call(addf, &[fl(1e20), fl(1e-20)]), fl(1e20));
        assert_eq!(
            divf(&[Value::Int(1), Value::Int(0)]),
            Err("decimal division by 0".into())
        );
        assert_eq!(
            addf(&[Value::str("inf"), Value::Int(1)]),
            Err("Cannot create a Decimal from +Inf".into())
        );
        assert_eq!(
            addf(&[Value::str("nan")]),
            Err("Cannot create a Decimal from NaN".into())
        );
    }

    #[test]
    fn rounding_like_sprig() {
        let r = |v: f64, p: i64| call(round, &[fl(v), Value::Int(p)]);
        assert_eq!(r(-2.4, 0), fl(-3.0));
        assert_eq!(r(2.5, 0), fl(3.0));
        assert_eq!(r(1.005, 2), fl(1.0));
        assert_eq!(r(1.23456, 2), fl(1.23));
        assert_eq!(r(1234.5, -2), fl(1200.0));
        assert_eq!(call(round, &[fl(2.3), Value::Int(0), fl(0.3)]), fl(2.0));
        assert_eq!(call(ceil, &[Value::str("1.2")]), fl(2.0));
        assert_eq!(call(floor, &[fl(-1.2)]), fl(-2.0));
        assert_eq!(go_pow10(-1.0), 0.1);
        assert_eq!(go_pow10(22.0), 1e22);
        assert_eq!(go_pow10(400.0), f64::INFINITY);
        assert_eq!(go_pow10(-400.0), 0.0);
    }

    #[test]
    fn shortest_digits_like_go() {
        assert_eq!(go_shortest(0.3), ("3".to_string(), -1));
        assert_eq!(
            go_shortest("678002113398406.25".parse().unwrap()),
            ("6780021133984062".to_string(), -1)
        );
        assert_eq!(go_shortest(5e-324), ("5".to_string(), -324));
        assert_eq!(go_shortest(1e23), ("1".to_string(), 23));
        assert_eq!(go_shortest(100.0), ("1".to_string(), 2));
        assert_eq!(
            go_shortest(9007199254740993.0),
            ("9007199254740992".to_string(), 0)
        );
        assert_eq!(
            go_shortest(f64::MAX),
            ("17976931348623157".to_string(), 292)
        );
    }

    #[test]
    fn biguint_basics() {
        let a = BigUint::from_u64(123_456_789_012_345_678);
        assert_eq!(a.to_decimal_string(), "123456789012345678");
        assert_eq!(
            a.mul_pow10(10).to_decimal_string(),
            "1234567890123456780000000000"
        );
        assert_eq!(
            a.mul_pow10(10).div_pow10(12).to_decimal_string(),
            "1234567890123456"
        );
        let (q, r) = a.div_rem_small(1000);
        assert_eq!(
            (q.to_decimal_string().as_str(), r),
            ("123456789012345", 678)
        );
        assert_eq!(
            a.sub(&BigUint::from_u64(678)).to_decimal_string(),
            "123456789012345000"
        );
        assert_eq!(
            a.mul(&a).to_decimal_string(),
            "15241578753238836527968299765279684"
        );
    }
}
