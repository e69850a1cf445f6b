/*!
What a function call costs: the execution budget's price list.

Every execution has a budget of [`BUDGET`] units of work. Walking a node, evaluating a command
or starting a loop iteration costs [`STEP`] units; a function call costs [`STEP`] plus what
[`call_cost`] estimates from its name and its (already evaluated) arguments, charged *before*
the function runs, so one call that would take minutes (an RSA key, scrypt, a regex over a
50 MB string, `uniq` over a long list of lists) is refused without doing the work. The result's
size is charged after the call as well (allocating it was work too).

Calibration: one unit ≈ 1 ns, so the whole budget is about a second of work at most. Measured
with `topoplan eval` (best of three, less the time to build the input) on a build with this
crate at opt-level 3 and its dependencies at 1 — a debug build's dependencies are built at
opt-level 1, so scrypt, bcrypt, rsa and regex run at about that speed in tests too:
- a step (node, command, loop iteration): 25 ns (`{{range 1000000000}}` stops after 20M steps
  in 0.5 s); charged 50, which keeps the old limit of 20,000,000 steps per execution;
- `derivePassword` (scrypt N=32768, r=8: 32 MiB of memory traffic): 300 ms → 400,000,000, so
  two calls fit and the third is refused before it runs;
- `genPrivateKey "rsa"` (4096 bits: 0.3 s, more when the prime search is unlucky) and `"dsa"`
  (L=2048 parameters, 2.5 s in a debug build) → 600,000,000: one fits, a second never starts;
- RSA-2048 generators (`genCA`, `genSelfSignedCert`, `genSignedCert`): 20–100 ms →
  200,000,000; `bcrypt` / `htpasswd` (cost 10): 75 ms → 200,000,000;
- `"ecdsa"` / `"ed25519"` keys: 4 ms, charged a fixed 50,000,000, so a loop of them stops after
  twenty;
- strings: 2 units a byte (reading, copying, hashing, base64, JSON: 0.5–2 ns a byte measured);
  Go's case mapping and the other character-by-character functions 20 (`upper`: 18 ns a byte);
  `replace` 2 a byte plus 2 × (len(new) + 8) for each possible copy (12 ns a byte measured for
  one-byte `old`); output written 2 a byte;
- lists and maps: 16 units an item (`has`: 14 ns an item), `uniq` 128 a scalar (105 ns),
  `sortAlpha` 160 (130 ns);
- regular expressions: compiling 64 units a pattern byte; matching once 8 + len(pattern) a
  haystack byte (1 ns a byte for `regexReplaceAll "x+y|z"` without a match); the all-matches
  functions 64 + len(pattern) (+ 2 × len(replacement)) a byte, since a match can end at every
  byte (57–64 ns a match for `regexFindAll "x"` / `regexReplaceAll "x"` over `xxx…`).

What a legitimate template does fits: one `genPrivateKey "rsa"` or two `derivePassword`; a CA
and two certificates signed by it; string and list work over megabytes.

Run-wide ([`RunLimits`], set once per process by the CLI): the work of all executions together,
so a fleet of Clusters that each run a budget-sized template cannot run for an hour, and the
bytes all of them render, so 10,000 Clusters × 60 MB cannot exhaust memory.
*/

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::value::Value;

/// Units of work one execution may spend (≈ 1 s).
pub const BUDGET: u64 = 1_000_000_000;
/// One evaluation step (node, command, loop iteration); also the base cost of every call.
pub const STEP: u64 = 50;
/// Per byte of string input or output.
const BYTE: u64 = 2;
/// Per item of a list or entry of a map.
const ITEM: u64 = 16;

const SCRYPT: u64 = 400_000_000;
const RSA_4096: u64 = 600_000_000;
const RSA_2048: u64 = 200_000_000;
const BCRYPT: u64 = 200_000_000;
const SMALL_KEY: u64 = 50_000_000;
/// Go's fmt refuses widths and precisions above this (`%!(BADWIDTH)`).
const GO_MAX_WIDTH: u64 = 1_000_000;
/// Signing with a key given as PEM (parsing it, one signature).
const SIGN: u64 = 5_000_000;

/// The budget of one execution: the run's per-execution budget ([`BUDGET`] unless the CLI set
/// another), or what the run has left if that is less.
pub(crate) fn execution_budget() -> u64 {
    match run_limits() {
        None => BUDGET,
        Some(r) => r
            .limits
            .execution
            .min(r.limits.work.saturating_sub(r.work.load(Ordering::Relaxed))),
    }
}

/// The text of the budget error for an execution that had `budget` units (the executor adds
/// Go's `template: tpl:1:3: executing …` prefix).
pub(crate) fn exceeded_message(budget: u64) -> String {
    let per_execution = run_limits().map_or(BUDGET, |r| r.limits.execution);
    if budget < per_execution {
        format!(
            "template execution budget exceeded: the templates of this run have used up their \
             {} units of work (a limit of this engine)",
            run_limits().map_or(0, |r| r.limits.work)
        )
    } else {
        format!(
            "template execution budget exceeded: more than {per_execution} units of work \
             (a limit of this engine)"
        )
    }
}

// ---- run-wide limits ----------------------------------------------------------------------------

/// Totals for all template executions of one run (one CLI invocation): value templates of all
/// patches and Clusters, `enabledIf`, naming templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunLimits {
    /// Units of work of one execution ([`BUDGET`]).
    pub execution: u64,
    /// Units of work, summed over executions.
    pub work: u64,
    /// Bytes of rendered output, summed over executions.
    pub rendered_bytes: u64,
}

impl Default for RunLimits {
    /// 256 MiB of output; 300 executions' worth of work (≈ 5 min of one core at worst, less
    /// on the rayon workers). Planning 1,000 Clusters of the bundled example class with the
    /// most templates (`patches-v1beta2`, 20 patches) spends 14.6M units and renders 1.4 MB, so
    /// a fleet of 10,000 such Clusters uses 1/2000 of the work and 1/20 of the output allowed.
    /// What the work cap can refuse is a class that calls scrypt (`derivePassword`, 0.4 of a
    /// budget) in every one of 750 or more Clusters.
    fn default() -> Self {
        RunLimits {
            execution: BUDGET,
            work: 300 * BUDGET,
            rendered_bytes: 256 << 20,
        }
    }
}

struct RunState {
    limits: RunLimits,
    work: AtomicU64,
    rendered: AtomicU64,
}

/// Process-wide, because one process is one run and the renderers are reached from three
/// unrelated places (the patch engine, desired-state naming, validation) deep inside call
/// chains shared with everything else, on rayon workers; threading a handle through all of
/// them would change a dozen signatures for two counters. Set once by the CLI; library users
/// and unit tests that never set it have no run-wide limits (each execution keeps its own).
static RUN: OnceLock<RunState> = OnceLock::new();

/// Limit the totals of this process's template executions. The first call wins (one run per
/// process); returns false if limits were already set.
pub fn limit_run(limits: RunLimits) -> bool {
    RUN.set(RunState {
        limits,
        work: AtomicU64::new(0),
        rendered: AtomicU64::new(0),
    })
    .is_ok()
}

fn run_limits() -> Option<&'static RunState> {
    RUN.get()
}

/// Add one execution's work and output to the run's totals. Output that would take the total
/// past its cap is refused and not counted, so the template that does not fit is the one that
/// fails, and later small ones still render. (Work is counted whatever happens — it was done;
/// once the run's total is spent, the next executions start with a budget of nothing.)
pub(crate) fn charge_run(work: u64, rendered: u64) -> Result<(), String> {
    let Some(r) = run_limits() else {
        return Ok(());
    };
    r.work.fetch_add(work, Ordering::Relaxed);
    let cap = r.limits.rendered_bytes;
    r.rendered
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |total| {
            total.checked_add(rendered).filter(|t| *t <= cap)
        })
        .map(|_| ())
        .map_err(|_| format!("rendered template output exceeds the {cap}-byte limit for one run"))
}

/// How a function's work grows with its arguments.
enum Work {
    /// Constant time whatever the arguments (`len`, `index`, `hasKey`).
    Constant,
    /// Proportional to the top-level size of the arguments: string bytes, item counts.
    Shallow(u64),
    /// Proportional to the whole size of the arguments, nested values included.
    Deep(u64),
    /// Priced by [`special`].
    Special,
}

fn work(name: &str) -> Work {
    match name {
        // Numbers cost nothing under Deep below, but Sprig's arithmetic, dates and semver
        // parse strings too, so only what never looks at a string's bytes is listed here.
        "and" | "or" | "not" | "call" | "index" | "len" | "first" | "last" | "mustFirst"
        | "mustLast" | "get" | "hasKey" | "dig" | "default" | "empty" | "coalesce" | "ternary"
        | "kindOf" | "typeOf" | "randInt" | "now" | "hello" | "eq" | "ne" | "lt" | "le" | "gt"
        | "ge" => Work::Constant,
        // Go's case mapping, character by character: ~18 ns a byte.
        "upper" | "lower" | "title" | "untitle" | "camelcase" | "snakecase" | "kebabcase"
        | "swapcase" | "initials" | "wrap" | "wrapWith" | "abbrev" | "abbrevboth" | "trunc"
        | "substr" | "nospace" | "plural" | "shuffle" => Work::Deep(10),
        "sha1sum" | "sha256sum" | "sha512sum" | "adler32sum" | "b64enc" | "b64dec" | "b32enc"
        | "b32dec" | "encryptAES" | "decryptAES" => Work::Shallow(2),
        "keys" | "values" | "set" | "unset" | "pick" | "omit" | "pluck" | "list" | "tuple"
        | "dict" | "append" | "push" | "mustAppend" | "mustPush" | "prepend" | "mustPrepend"
        | "rest" | "mustRest" | "initial" | "mustInitial" | "reverse" | "mustReverse" | "slice"
        | "mustSlice" | "compact" | "mustCompact" | "chunk" | "mustChunk" | "all" | "any" => {
            Work::Shallow(1)
        }
        // Escaping writes up to six bytes for one (`\u003C`).
        "html" | "js" | "urlquery" => Work::Deep(6),
        // Encoding and decoding JSON: a few nanoseconds a byte.
        "toJson" | "mustToJson" | "toPrettyJson" | "mustToPrettyJson" | "toRawJson"
        | "mustToRawJson" | "fromJson" | "mustFromJson" => Work::Deep(4),
        // Sorting: every item printed, then n log n comparisons: ~130 ns an item.
        "sortAlpha" | "mustSortAlpha" => Work::Deep(10),
        _ if is_special(name) => Work::Special,
        // Everything else (string functions, printing, JSON, merging, deep copies and
        // comparisons) reads its arguments in full, nested values included.
        _ => Work::Deep(1),
    }
}

fn is_special(name: &str) -> bool {
    matches!(
        name,
        "derivePassword"
            | "bcrypt"
            | "htpasswd"
            | "genPrivateKey"
            | "genCA"
            | "genSelfSignedCert"
            | "genSignedCert"
            | "genCAWithKey"
            | "genSelfSignedCertWithKey"
            | "genSignedCertWithKey"
            | "buildCustomCert"
            | "repeat"
            | "until"
            | "untilStep"
            | "seq"
            | "has"
            | "mustHas"
            | "without"
            | "mustWithout"
            | "uniq"
            | "mustUniq"
            | "replace"
            | "printf"
            | "indent"
            | "nindent"
    ) || name.starts_with("regex")
        || name.starts_with("mustRegex")
}

/// Units a call of `name` with `args` costs before it runs, beyond the [`STEP`] every call
/// pays. Sizes are measured no further than `limit` (the budget left), so pricing a huge
/// argument is itself bounded.
pub fn call_cost(name: &str, args: &[&Value], limit: u64) -> u64 {
    match work(name) {
        Work::Constant => 0,
        Work::Shallow(k) => k.saturating_mul(args.iter().map(|a| shallow(a)).sum::<u64>()),
        Work::Deep(k) => {
            let mut total = 0u64;
            for a in args {
                total = total.saturating_add(deep(a, limit.saturating_sub(total)));
            }
            k.saturating_mul(total)
        }
        Work::Special => special(name, args, limit),
    }
}

/// Units charged for `bytes` written to the output.
pub fn output_cost(bytes: usize) -> u64 {
    BYTE.saturating_mul(bytes as u64)
}

/// Units charged for a value a call of `name` returned: building it was work, unless the
/// function only hands back (a shared reference to) part of its arguments.
pub fn result_cost(name: &str, v: &Value) -> u64 {
    match work(name) {
        Work::Constant => 0,
        _ => shallow(v),
    }
}

/// The price of a call whose work follows its arguments' values rather than their size
/// ([`Work::Special`]): one arm per function, kept whole as a table read by function name.
fn special(name: &str, args: &[&Value], limit: u64) -> u64 {
    let s = |i: usize| match args.get(i) {
        Some(Value::String(s)) => s.len() as u64,
        _ => 0,
    };
    let n = |i: usize| match args.get(i).copied() {
        Some(Value::Int(v) | Value::Int64(v)) => (*v).max(0) as u64,
        Some(Value::Uint64(v)) => *v,
        Some(Value::Float(f)) if *f > 0.0 => *f as u64,
        _ => 0,
    };
    let deep_all = |from: usize| {
        let mut total = 0u64;
        for a in args.iter().skip(from) {
            total = total.saturating_add(deep(a, limit.saturating_sub(total)));
        }
        total
    };
    match name {
        // PBKDF2 inside scrypt reads the password and salt (the user and site) once more.
        "derivePassword" => SCRYPT.saturating_add(deep_all(0)),
        "bcrypt" | "htpasswd" => BCRYPT,
        "genPrivateKey" => match args.first().copied() {
            Some(Value::String(k)) if &**k == "rsa" || &**k == "dsa" => RSA_4096,
            Some(Value::String(k)) if &**k == "ecdsa" || &**k == "ed25519" => SMALL_KEY,
            // Anything else is an error without key generation.
            _ => 0,
        },
        "genCA" | "genSelfSignedCert" | "genSignedCert" => RSA_2048.saturating_add(deep_all(0)),
        "genCAWithKey" | "genSelfSignedCertWithKey" | "genSignedCertWithKey" => {
            SIGN.saturating_add(deep_all(0))
        }
        "buildCustomCert" => deep_all(0),
        // What these build is priced before it is built; each refuses by itself (cheaply) a
        // result past its own limit, so the estimate stops there.
        "repeat" => BYTE.saturating_mul(
            n(0).saturating_mul(s(1))
                .min(super::sprig::cast::MAX_STRING_BYTES as u64 + 1),
        ),
        // indent N S: N spaces before every line.
        "indent" | "nindent" => {
            let text = match args.get(1).copied() {
                Some(Value::String(t)) => t.as_bytes(),
                _ => &[],
            };
            let lines = text.iter().filter(|b| **b == b'\n').count() as u64 + 1;
            BYTE.saturating_mul(
                n(0).saturating_mul(lines)
                    .saturating_add(text.len() as u64)
                    .min(super::sprig::cast::MAX_STRING_BYTES as u64 + 1),
            )
        }
        "until" | "untilStep" | "seq" => {
            let ints: Vec<i64> = args
                .iter()
                .map(|a| match a {
                    Value::Int(v) | Value::Int64(v) => *v,
                    _ => 0,
                })
                .collect();
            let (start, stop, step) = match (name, ints.as_slice()) {
                ("until", [n, ..]) => (0, *n, 1),
                ("untilStep", [a, b, s, ..]) => (*a, *b, *s),
                ("seq", [end]) => (1, *end, 1),
                ("seq", [a, b]) => (*a, *b, 1),
                ("seq", [a, s, b]) => (*a, *b, *s),
                _ => (0, 0, 1),
            };
            let span = (i128::from(stop) - i128::from(start)).unsigned_abs();
            let count = span / i128::from(step).unsigned_abs().max(1);
            let count = u64::try_from(count)
                .unwrap_or(u64::MAX)
                .min(super::sprig::math::MAX_SEQUENCE + 1);
            // seq writes ~8 bytes a number, untilStep keeps a list item.
            ITEM.saturating_mul(count)
        }
        // has NEEDLE LIST / without LIST ITEMS…: each item compared with the needle(s).
        "has" | "mustHas" => {
            let needle = args.first().map_or(0, |n| deep(n, limit)).max(1);
            let items = args.get(1).map_or(0, |l| items_of(l));
            items.saturating_mul(needle.saturating_add(ITEM))
        }
        "without" | "mustWithout" => {
            let omit = deep_all(1).max(1);
            let items = args.first().map_or(0, |l| items_of(l));
            let list = args.first().map_or(0, |l| deep(l, limit));
            items.saturating_mul(omit).saturating_add(list)
        }
        // Scalars go through a hash set; every other item is compared with each kept one
        // (Sprig's quadratic loop), so n non-scalar items cost n × their total size.
        "uniq" | "mustUniq" => {
            let Some(&first) = args.first() else {
                return 0;
            };
            let Value::Slice(list) = first else {
                return deep(first, limit);
            };
            let mut scalars = 0u64;
            let mut others = 0u64;
            let mut others_size = 0u64;
            for item in &list.items {
                match item {
                    Value::Slice(_) | Value::Map(_) | Value::Semver(..) | Value::Bytes(_) => {
                        others += 1;
                        others_size = others_size
                            .saturating_add(deep(item, limit.saturating_sub(others_size)));
                    }
                    _ => scalars += 1,
                }
                if others_size >= limit {
                    break;
                }
            }
            (8 * ITEM)
                .saturating_mul(scalars)
                .saturating_add(others.saturating_mul(others_size))
                .saturating_add(deep(first, limit))
        }
        // replace OLD NEW S: the output has up to len(S) / len(OLD) × len(NEW) bytes (every
        // position when OLD is empty).
        "replace" => {
            let (old, new, hay) = (s(0), s(1), s(2));
            let copies = hay / old.max(1) + 1;
            BYTE.saturating_mul(hay.saturating_add(copies.saturating_mul(new.saturating_add(8))))
        }
        // printf FORMAT ARGS…: the output is the format, each argument formatted, and the
        // padding its widths and precisions ask for (Go caps each at 1e6; `*` takes them from
        // the arguments). Every run of digits in the format counts as one, an overestimate.
        "printf" => {
            let Some(Value::String(format)) = args.first().copied() else {
                return deep_all(0);
            };
            let mut pad = 0u64;
            let mut run = 0u64;
            for c in format.bytes().chain(std::iter::once(b' ')) {
                if c.is_ascii_digit() {
                    run = (run * 10 + u64::from(c - b'0')).min(GO_MAX_WIDTH);
                } else {
                    pad = pad.saturating_add(run);
                    run = 0;
                }
            }
            if format.contains('*') {
                for a in args.iter().skip(1) {
                    if let Value::Int(v) | Value::Int64(v) = a {
                        pad = pad.saturating_add(v.unsigned_abs().min(GO_MAX_WIDTH));
                    }
                }
            }
            BYTE.saturating_mul(pad).saturating_add(deep_all(0))
        }
        _ => regex_cost(name, &s),
    }
}

/// Sprig's regex functions take the pattern first, then the haystack, then (for the replace
/// functions) the replacement; `regexQuoteMeta` takes only a string.
fn regex_cost(name: &str, s: &dyn Fn(usize) -> u64) -> u64 {
    if name == "regexQuoteMeta" {
        return 4 * BYTE * s(0);
    }
    let (pattern, hay) = (s(0), s(1));
    let compile = 64u64.saturating_mul(pattern);
    // One match: a scan of the haystack. Every match (FindAll, ReplaceAll, Split): up to one a
    // byte, ~60 ns each with Go's iteration rules, plus the replacement written for each.
    let per_byte = if name.ends_with("Match") || name.ends_with("Find") {
        8
    } else if name.contains("Replace") {
        64u64.saturating_add(BYTE.saturating_mul(s(2)))
    } else {
        64
    };
    compile.saturating_add(hay.saturating_mul(per_byte.saturating_add(pattern)))
}

/// Top-level size: bytes of a string, items of a list or map (with the map's key bytes).
fn shallow(v: &Value) -> u64 {
    match v {
        Value::String(s) => BYTE * s.len() as u64,
        Value::Bytes(b) => BYTE * b.len() as u64,
        Value::Slice(l) => ITEM * l.items.len() as u64,
        Value::Map(m) => ITEM * m.entries.len() as u64,
        _ => 0,
    }
}

fn items_of(v: &Value) -> u64 {
    match v {
        Value::Slice(l) => l.items.len() as u64,
        Value::Map(m) => m.entries.len() as u64,
        _ => 0,
    }
}

/// Whole size, nested values included; stops counting once past `limit`, so a value shared
/// many times over (`$l = list $l $l`, 40 deep) costs no more than the budget to price.
fn deep(v: &Value, limit: u64) -> u64 {
    let mut total = 0u64;
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        total = total.saturating_add(shallow(v));
        match v {
            Value::Slice(l) => todo.extend(l.items.iter()),
            Value::Map(m) => {
                for (k, v) in &m.entries {
                    total = total.saturating_add(BYTE * k.len() as u64);
                    todo.push(v);
                }
            }
            _ => {}
        }
        if total > limit {
            break;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::str(v)
    }

    fn call_cost(name: &str, args: &[Value], limit: u64) -> u64 {
        let args: Vec<&Value> = args.iter().collect();
        STEP + super::call_cost(name, &args, limit)
    }

    #[test]
    fn constant_functions_cost_a_step_whatever_their_arguments() {
        let big = Value::list((0..100_000).map(Value::Int).collect());
        assert_eq!(call_cost("len", std::slice::from_ref(&big), BUDGET), STEP);
        assert_eq!(call_cost("index", &[big, Value::Int(3)], BUDGET), STEP);
    }

    #[test]
    fn handing_back_part_of_an_argument_is_free() {
        let big = Value::list((0..100_000).map(Value::Int).collect());
        assert_eq!(result_cost("index", &big), 0);
        assert_eq!(result_cost("default", &big), 0);
        assert_eq!(result_cost("until", &big), 1_600_000);
    }

    #[test]
    fn string_functions_pay_per_byte() {
        let short = call_cost("upper", &[s("abc")], BUDGET);
        let long = call_cost("upper", &[s(&"a".repeat(1_000_000))], BUDGET);
        assert!(short < 200, "{short}");
        assert!(long >= 20_000_000, "{long}");
        assert!(call_cost("toJson", &[s(&"a".repeat(1000))], BUDGET) >= 2000);
    }

    #[test]
    fn generators_and_key_derivation_cost_a_large_share_of_the_budget() {
        let rsa = call_cost("genPrivateKey", &[s("rsa")], BUDGET);
        assert!(
            rsa > BUDGET / 2 && rsa < BUDGET,
            "one RSA key fits, two do not: {rsa}"
        );
        let scrypt = call_cost(
            "derivePassword",
            &[Value::Int(1), s("long"), s("p"), s("u"), s("example.com")],
            BUDGET,
        );
        assert!(scrypt > BUDGET / 3 && scrypt < BUDGET / 2, "{scrypt}");
        assert!(call_cost("bcrypt", &[s("x")], BUDGET) >= BUDGET / 10);
        assert!(call_cost("genPrivateKey", &[s("ed25519")], BUDGET) >= BUDGET / 50);
        assert_eq!(call_cost("genPrivateKey", &[s("nope")], BUDGET), STEP);
    }

    #[test]
    fn output_size_is_priced_from_the_arguments() {
        let r = call_cost("repeat", &[Value::Int(20_000_000), s("xy")], BUDGET);
        assert!(r >= 80_000_000, "{r}");
        // Past its own limit repeat refuses without building anything: priced at the limit.
        let r = call_cost("repeat", &[Value::Int(i64::MAX), s("xy")], BUDGET);
        assert!(r < BUDGET / 4, "{r}");
        let r = call_cost(
            "untilStep",
            &[
                Value::Int(i64::MAX - 1),
                Value::Int(i64::MAX),
                Value::Int(1),
            ],
            BUDGET,
        );
        assert!(r < 100, "{r}");
        assert!(call_cost("until", &[Value::Int(1_000_000)], BUDGET) >= 16_000_000);
        let rep = call_cost("replace", &[s(""), s("abcd"), s(&"x".repeat(1000))], BUDGET);
        assert!(rep >= 8000, "{rep}");
    }

    #[test]
    fn indent_pays_for_every_line() {
        let lines = s(&"\n".repeat(1000));
        let c = call_cost("nindent", &[Value::Int(10_000), lines], BUDGET);
        assert!(c >= 20_000_000, "{c}");
        assert!(call_cost("indent", &[Value::Int(2), s("a: 1")], BUDGET) < 100);
    }

    #[test]
    fn regex_cost_grows_with_haystack_and_pattern() {
        let hay = s(&"x".repeat(10_000_000));
        let c = call_cost(
            "regexReplaceAll",
            &[s("x+y|z"), hay.clone(), s("w")],
            BUDGET,
        );
        assert!(c >= 140_000_000, "{c}");
        let small = call_cost("regexMatch", &[s("^a$"), s("a")], BUDGET);
        assert!(small < 1000, "{small}");
    }

    #[test]
    fn uniq_of_lists_is_quadratic_and_has_is_linear() {
        let lists = Value::list(
            (0..20_000)
                .map(|i| Value::list(vec![Value::Int(i)]))
                .collect(),
        );
        assert!(call_cost("uniq", &[lists], BUDGET) > BUDGET);
        let ints = Value::list((0..1000).map(Value::Int).collect());
        let c = call_cost("uniq", std::slice::from_ref(&ints), BUDGET);
        assert!((64_000..200_000).contains(&c), "{c}");
        let h = call_cost("has", &[Value::Int(3), ints], BUDGET);
        assert!((16_000..100_000).contains(&h), "{h}");
    }

    #[test]
    fn pricing_a_shared_value_stops_at_the_limit() {
        // 2^40 leaves if walked in full: pricing must stop at the limit instead.
        let mut v = Value::list(vec![Value::Int(1)]);
        for _ in 0..40 {
            v = Value::list(vec![v.clone(), v]);
        }
        let c = call_cost("cat", &[v], 1_000_000);
        assert!(c > 1_000_000 && c < 2_000_000, "{c}");
    }
}
