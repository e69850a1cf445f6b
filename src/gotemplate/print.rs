/*!
Go's `fmt` for template values: `%v` printing and `Sprintf` with every verb and flag.

text/template prints every action result with `fmt.Fprint`, and `print`, `printf`, `println`
and many Sprig functions go through `fmt` too, so this is where `1e+06`, `map[a:1 b:2]`,
`%!d(float64=3)` and `%!(EXTRA …)` come from. The structure follows Go's printer: a verb is
dispatched on the value's Go type (`print_arg`), containers recurse element by element
(`print_value`), and the low-level formatting (padding, integers, floats, quoting) honours the
flags `+ - # 0 space`, width and precision exactly as Go does.

Differences, all deliberate: `%p` and pointers nested in containers print a fixed fake address
(Go prints a real, run-dependent one); the printer stops appending once the output passes a size
limit (the executor turns an over-long result into an error instead of exhausting memory).
*/

use super::value::{GoType, Map, Slice, Value, Version};
use crate::go::strconv::{append_float, append_quoted, can_backquote, quote_rune};
use crate::go::unicode::is_print;

/// Output size after which printing stops appending (the executor reports an error past it).
pub const DEFAULT_LIMIT: usize = 64 << 20;

/// `fmt.Sprint(v)` of one value (`%v`). A missing value (`Invalid`) prints like a nil
/// interface, `<nil>`; the executor prints `<no value>` for missing action results itself.
pub fn sprint_value(v: &Value) -> String {
    let mut p = Printer::new(DEFAULT_LIMIT);
    p.print_arg(v, 'v');
    p.buf
}

/// `fmt.Sprint(args...)`: spaces between operands when neither side is a string.
pub fn sprint(args: &[Value]) -> String {
    sprint_limited(args, DEFAULT_LIMIT)
}

/// `fmt.Sprintln(args...)`: always spaces, newline at the end.
pub fn sprintln(args: &[Value]) -> String {
    sprintln_limited(args, DEFAULT_LIMIT)
}

/// `fmt.Sprintf(format, args...)`.
pub fn sprintf(format: &str, args: &[Value]) -> String {
    sprintf_limited(format, args, DEFAULT_LIMIT)
}

/// [`sprint`] that stops appending once the output exceeds `limit` bytes.
pub fn sprint_limited(args: &[Value], limit: usize) -> String {
    let mut p = Printer::new(limit);
    p.do_print(args);
    p.buf
}

/// [`sprintln`] that stops appending once the output exceeds `limit` bytes.
pub fn sprintln_limited(args: &[Value], limit: usize) -> String {
    let mut p = Printer::new(limit);
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            p.buf.push(' ');
        }
        p.print_arg(a, 'v');
        if p.full() {
            return p.buf;
        }
    }
    p.buf.push('\n');
    p.buf
}

/// [`sprintf`] that stops appending once the output exceeds `limit` bytes.
pub fn sprintf_limited(format: &str, args: &[Value], limit: usize) -> String {
    let mut p = Printer::new(limit);
    p.do_printf(format, args);
    p.buf
}

/// Append `fmt.Sprint(v)` of one value to `out` (the executor's action printing).
pub(crate) fn fprint_value(out: &mut String, v: &Value, limit: usize) {
    let mut p = Printer {
        buf: std::mem::take(out),
        ..Printer::new(limit)
    };
    p.print_arg(v, 'v');
    *out = p.buf;
}

/// Masterminds semver's `Version.String()`: `MAJOR.MINOR.PATCH[-PRE][+META]`, no `v`.
pub fn version_string(v: &Version) -> String {
    let mut s = format!("{}.{}.{}", v.major, v.minor, v.patch);
    if !v.pre.is_empty() {
        s.push('-');
        s.push_str(&v.pre);
    }
    if !v.metadata.is_empty() {
        s.push('+');
        s.push_str(&v.metadata);
    }
    s
}

/// The `%T` name of a value (`<nil>` for nil and missing values).
pub fn type_name(v: &Value) -> String {
    match v.go_type() {
        Some(t) => t.name(),
        None => "<nil>".into(),
    }
}

/// What `%p` and nested pointers print in place of a real address.
const FAKE_ADDRESS: u64 = 0xc000010000;

const LDIGITS: &[u8; 17] = b"0123456789abcdefx";
const UDIGITS: &[u8; 17] = b"0123456789ABCDEFX";

#[derive(Debug, Default, Clone, Copy)]
struct Flags {
    wid_present: bool,
    prec_present: bool,
    minus: bool,
    plus: bool,
    sharp: bool,
    space: bool,
    zero: bool,
    plus_v: bool,
    sharp_v: bool,
}

/// Go's `pp` + `fmt`: one formatting run.
struct Printer {
    buf: String,
    f: Flags,
    wid: i64,
    prec: i64,
    limit: usize,
    /// Printing the operand of a `%!verb(type=value)` error: no Stringer calls.
    erroring: bool,
    reordered: bool,
    good_arg_num: bool,
}

impl Printer {
    fn new(limit: usize) -> Printer {
        Printer {
            buf: String::new(),
            f: Flags::default(),
            wid: 0,
            prec: 0,
            limit,
            erroring: false,
            reordered: false,
            good_arg_num: true,
        }
    }

    fn full(&self) -> bool {
        self.buf.len() > self.limit
    }

    fn clear_flags(&mut self) {
        self.f = Flags::default();
        self.wid = 0;
        self.prec = 0;
    }

    // ---- padding ----------------------------------------------------------------------------

    fn write_padding(&mut self, n: i64) {
        if n <= 0 {
            return;
        }
        let c = if self.f.zero && !self.f.minus {
            '0'
        } else {
            ' '
        };
        for _ in 0..n {
            self.buf.push(c);
        }
    }

    fn pad(&mut self, s: &str) {
        if !self.f.wid_present || self.wid == 0 {
            self.buf.push_str(s);
            return;
        }
        let width = self.wid - s.chars().count() as i64;
        if !self.f.minus {
            self.write_padding(width);
            self.buf.push_str(s);
        } else {
            self.buf.push_str(s);
            self.write_padding(width);
        }
    }

    // ---- basic formatters ---------------------------------------------------------------------

    fn fmt_boolean(&mut self, v: bool) {
        self.pad(if v { "true" } else { "false" });
    }

    fn fmt_unicode(&mut self, u: u64) {
        let mut prec = 4i64;
        if self.f.prec_present && self.prec > 4 {
            prec = self.prec;
        }
        let mut hex = String::new();
        let mut x = u;
        loop {
            hex.insert(0, UDIGITS[(x & 0xF) as usize] as char);
            prec -= 1;
            x >>= 4;
            if x == 0 {
                break;
            }
        }
        let mut s = String::from("U+");
        while prec > 0 {
            s.push('0');
            prec -= 1;
        }
        s.push_str(&hex);
        if self.f.sharp
            && let Some(c) = u32::try_from(u).ok().and_then(char::from_u32)
            && is_print(c)
        {
            s.push_str(" '");
            s.push(c);
            s.push('\'');
        }
        let old_zero = self.f.zero;
        self.f.zero = false;
        self.pad(&s);
        self.f.zero = old_zero;
    }

    fn fmt_integer(&mut self, u: u64, base: u64, signed: bool, verb: char, digits: &[u8; 17]) {
        let negative = signed && (u as i64) < 0;
        let mut u = if negative {
            (u as i64).unsigned_abs()
        } else {
            u
        };
        let mut prec = 0i64;
        if self.f.prec_present {
            prec = self.prec;
            if prec == 0 && u == 0 {
                let old_zero = self.f.zero;
                self.f.zero = false;
                self.write_padding(self.wid);
                self.f.zero = old_zero;
                return;
            }
        } else if self.f.zero && !self.f.minus && self.f.wid_present {
            prec = self.wid;
            if negative || self.f.plus || self.f.space {
                prec -= 1;
            }
        }
        // Digits right to left.
        let mut rev: Vec<u8> = Vec::with_capacity(24);
        match base {
            10 => {
                while u >= 10 {
                    rev.push(b'0' + (u % 10) as u8);
                    u /= 10;
                }
            }
            16 => {
                while u >= 16 {
                    rev.push(digits[(u & 0xF) as usize]);
                    u >>= 4;
                }
            }
            8 => {
                while u >= 8 {
                    rev.push(b'0' + (u & 7) as u8);
                    u >>= 3;
                }
            }
            _ => {
                while u >= 2 {
                    rev.push(b'0' + (u & 1) as u8);
                    u >>= 1;
                }
            }
        }
        rev.push(digits[u as usize]);
        while (rev.len() as i64) < prec {
            rev.push(b'0');
        }
        if self.f.sharp {
            match base {
                2 => rev.extend_from_slice(b"b0"),
                8 if rev.last() != Some(&b'0') => rev.push(b'0'),
                16 => {
                    rev.push(digits[16]);
                    rev.push(b'0');
                }
                _ => {}
            }
        }
        if verb == 'O' {
            rev.extend_from_slice(b"o0");
        }
        if negative {
            rev.push(b'-');
        } else if self.f.plus {
            rev.push(b'+');
        } else if self.f.space {
            rev.push(b' ');
        }
        rev.reverse();
        let s: String = rev.into_iter().map(char::from).collect();
        let old_zero = self.f.zero;
        self.f.zero = false;
        self.pad(&s);
        self.f.zero = old_zero;
    }

    fn truncate_string<'s>(&self, s: &'s str) -> &'s str {
        if self.f.prec_present {
            let mut n = self.prec;
            for (i, _) in s.char_indices() {
                n -= 1;
                if n < 0 {
                    return &s[..i];
                }
            }
        }
        s
    }

    fn fmt_s(&mut self, s: &str) {
        let s = self.truncate_string(s);
        self.pad(s);
    }

    fn fmt_sbx(&mut self, b: &[u8], digits: &[u8; 17]) {
        let mut length = b.len() as i64;
        if self.f.prec_present && self.prec < length {
            length = self.prec;
        }
        let mut width = 2 * length;
        if width > 0 {
            if self.f.space {
                if self.f.sharp {
                    width *= 2;
                }
                width += length - 1;
            } else if self.f.sharp {
                width += 2;
            }
        } else {
            if self.f.wid_present {
                self.write_padding(self.wid);
            }
            return;
        }
        if self.f.wid_present && self.wid > width && !self.f.minus {
            self.write_padding(self.wid - width);
        }
        if self.f.sharp {
            self.buf.push('0');
            self.buf.push(digits[16] as char);
        }
        for (i, &c) in b.iter().take(length as usize).enumerate() {
            if self.f.space && i > 0 {
                self.buf.push(' ');
                if self.f.sharp {
                    self.buf.push('0');
                    self.buf.push(digits[16] as char);
                }
            }
            self.buf.push(digits[(c >> 4) as usize] as char);
            self.buf.push(digits[(c & 0xF) as usize] as char);
        }
        if self.f.wid_present && self.wid > width && self.f.minus {
            self.write_padding(self.wid - width);
        }
    }

    fn fmt_q(&mut self, s: &str) {
        let s = self.truncate_string(s);
        if self.f.sharp && can_backquote(s) {
            let q = format!("`{s}`");
            self.pad(&q);
            return;
        }
        let mut q = String::with_capacity(s.len() + 2);
        append_quoted(&mut q, s, '"', self.f.plus);
        self.pad(&q);
    }

    fn fmt_c(&mut self, c: u64) {
        let ch = u32::try_from(c)
            .ok()
            .and_then(char::from_u32)
            .unwrap_or('\u{FFFD}');
        let mut tmp = [0u8; 4];
        let s: &str = ch.encode_utf8(&mut tmp);
        self.pad(s);
    }

    fn fmt_qc(&mut self, c: u64) {
        let r = u32::try_from(c).unwrap_or(0xFFFD);
        let r = if r > 0x10FFFF { 0xFFFD } else { r };
        let q = quote_rune(r, self.f.plus);
        self.pad(&q);
    }

    fn fmt_float(&mut self, v: f64, verb: u8, prec: i64) {
        let prec = if self.f.prec_present { self.prec } else { prec };
        let mut num = String::with_capacity(24);
        append_float(&mut num, v, verb, prec);
        let mut num: Vec<u8> = if num.starts_with('-') || num.starts_with('+') {
            num.into_bytes()
        } else {
            let mut b = Vec::with_capacity(num.len() + 1);
            b.push(b'+');
            b.extend_from_slice(num.as_bytes());
            b
        };
        if self.f.space && num[0] == b'+' && !self.f.plus {
            num[0] = b' ';
        }
        if num.get(1) == Some(&b'I') || num.get(1) == Some(&b'N') {
            let old_zero = self.f.zero;
            self.f.zero = false;
            if num[1] == b'N' && !self.f.space && !self.f.plus {
                num.remove(0);
            }
            self.pad(&String::from_utf8_lossy(&num));
            self.f.zero = old_zero;
            return;
        }
        if self.f.sharp && verb != b'b' {
            let mut digits: i64 = 0;
            if matches!(verb, b'v' | b'g' | b'G' | b'x') {
                digits = prec;
                if digits == -1 {
                    digits = 6;
                }
            }
            let mut tail: Vec<u8> = Vec::new();
            let mut has_dot = false;
            let mut saw_nonzero = false;
            let mut i = 1;
            while i < num.len() {
                match num[i] {
                    b'.' => has_dot = true,
                    b'p' | b'P' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    b'e' | b'E' if verb != b'x' && verb != b'X' => {
                        tail.extend_from_slice(&num[i..]);
                        num.truncate(i);
                        break;
                    }
                    c => {
                        if c != b'0' {
                            saw_nonzero = true;
                        }
                        if saw_nonzero {
                            digits -= 1;
                        }
                    }
                }
                i += 1;
            }
            if !has_dot {
                if num.len() == 2 && num[1] == b'0' {
                    digits -= 1;
                }
                num.push(b'.');
            }
            while digits > 0 {
                num.push(b'0');
                digits -= 1;
            }
            num.extend_from_slice(&tail);
        }
        let s = String::from_utf8_lossy(&num).into_owned();
        if self.f.plus || num[0] != b'+' {
            if self.f.zero && !self.f.minus && self.f.wid_present && self.wid > num.len() as i64 {
                self.buf.push(num[0] as char);
                self.write_padding(self.wid - num.len() as i64);
                self.buf.push_str(&s[1..]);
                return;
            }
            self.pad(&s);
            return;
        }
        self.pad(&s[1..]);
    }

    // ---- verbs by type ------------------------------------------------------------------------

    fn bad_verb(&mut self, verb: char, v: Option<&Value>) {
        self.erroring = true;
        self.buf.push_str("%!");
        self.buf.push(verb);
        self.buf.push('(');
        match v {
            Some(v) if !matches!(v, Value::Nil | Value::Invalid) => {
                self.buf.push_str(&type_name(v));
                self.buf.push('=');
                self.print_arg(v, 'v');
            }
            _ => self.buf.push_str("<nil>"),
        }
        self.buf.push(')');
        self.erroring = false;
    }

    fn fmt_bool(&mut self, b: bool, verb: char, v: &Value) {
        match verb {
            't' | 'v' => self.fmt_boolean(b),
            _ => self.bad_verb(verb, Some(v)),
        }
    }

    fn fmt_0x64(&mut self, u: u64, leading0x: bool) {
        let sharp = self.f.sharp;
        self.f.sharp = leading0x;
        self.fmt_integer(u, 16, false, 'v', LDIGITS);
        self.f.sharp = sharp;
    }

    fn fmt_int(&mut self, u: u64, signed: bool, verb: char, v: &Value) {
        match verb {
            'v' => {
                if self.f.sharp_v && !signed {
                    self.fmt_0x64(u, true);
                } else {
                    self.fmt_integer(u, 10, signed, verb, LDIGITS);
                }
            }
            'd' => self.fmt_integer(u, 10, signed, verb, LDIGITS),
            'b' => self.fmt_integer(u, 2, signed, verb, LDIGITS),
            'o' | 'O' => self.fmt_integer(u, 8, signed, verb, LDIGITS),
            'x' => self.fmt_integer(u, 16, signed, verb, LDIGITS),
            'X' => self.fmt_integer(u, 16, signed, verb, UDIGITS),
            'c' => self.fmt_c(u),
            'q' => self.fmt_qc(u),
            'U' => self.fmt_unicode(u),
            _ => self.bad_verb(verb, Some(v)),
        }
    }

    fn fmt_flt(&mut self, f: f64, verb: char, v: &Value) {
        match verb {
            'v' => self.fmt_float(f, b'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt_float(f, verb as u8, -1),
            'f' | 'e' | 'E' => self.fmt_float(f, verb as u8, 6),
            'F' => self.fmt_float(f, b'f', 6),
            _ => self.bad_verb(verb, Some(v)),
        }
    }

    fn fmt_string(&mut self, s: &str, verb: char, v: Option<&Value>) {
        match verb {
            'v' => {
                if self.f.sharp_v {
                    self.fmt_q(s);
                } else {
                    self.fmt_s(s);
                }
            }
            's' => self.fmt_s(s),
            'x' => self.fmt_sbx(s.as_bytes(), LDIGITS),
            'X' => self.fmt_sbx(s.as_bytes(), UDIGITS),
            'q' => self.fmt_q(s),
            _ => {
                let owned;
                let v = match v {
                    Some(v) => v,
                    None => {
                        owned = Value::str(s);
                        &owned
                    }
                };
                self.bad_verb(verb, Some(v));
            }
        }
    }

    fn fmt_bytes(&mut self, b: &[u8], verb: char, type_string: &str) {
        match verb {
            'v' | 'd' => {
                if self.f.sharp_v {
                    self.buf.push_str(type_string);
                    self.buf.push('{');
                    for (i, &c) in b.iter().enumerate() {
                        if i > 0 {
                            self.buf.push_str(", ");
                        }
                        self.fmt_0x64(u64::from(c), true);
                    }
                    self.buf.push('}');
                } else {
                    self.buf.push('[');
                    for (i, &c) in b.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(' ');
                        }
                        self.fmt_integer(u64::from(c), 10, false, verb, LDIGITS);
                    }
                    self.buf.push(']');
                }
            }
            's' => {
                let s = crate::go::strconv::bytes_to_string(b.to_vec());
                self.fmt_s(&s);
            }
            'x' => self.fmt_sbx(b, LDIGITS),
            'X' => self.fmt_sbx(b, UDIGITS),
            'q' => {
                let s = crate::go::strconv::bytes_to_string(b.to_vec());
                self.fmt_q(&s);
            }
            _ => {
                // Element by element, as Go's reflection path does for other verbs.
                self.buf.push('[');
                for (i, &c) in b.iter().enumerate() {
                    if i > 0 {
                        self.buf.push(' ');
                    }
                    let e = Value::Uint64(u64::from(c));
                    self.fmt_int(u64::from(c), false, verb, &e);
                }
                self.buf.push(']');
            }
        }
    }

    fn fmt_pointer(&mut self, v: &Value, verb: char) {
        let addressable = matches!(v, Value::Map(_) | Value::Slice(_) | Value::Semver(_, true));
        if !addressable {
            self.bad_verb(verb, Some(v));
            return;
        }
        let u = FAKE_ADDRESS;
        match verb {
            'v' => {
                if self.f.sharp_v {
                    self.buf.push('(');
                    self.buf.push_str(&type_name(v));
                    self.buf.push_str(")(");
                    self.fmt_0x64(u, true);
                    self.buf.push(')');
                } else {
                    let sharp = self.f.sharp;
                    self.fmt_0x64(u, !sharp);
                }
            }
            'p' => {
                let sharp = self.f.sharp;
                self.fmt_0x64(u, !sharp);
            }
            'b' | 'o' | 'd' | 'x' | 'X' => {
                let e = Value::Uint64(u);
                self.fmt_int(u, false, verb, &e);
            }
            _ => self.bad_verb(verb, Some(v)),
        }
    }

    /// Stringer handling: only `*semver.Version` / `semver.Version` have a `String` method.
    fn handle_methods(&mut self, v: &Value, verb: char) -> bool {
        if self.erroring || self.f.sharp_v {
            return false;
        }
        if let Value::Semver(ver, _) = v
            && matches!(verb, 'v' | 's' | 'x' | 'X' | 'q')
        {
            let s = version_string(ver);
            self.fmt_string(&s, verb, None);
            return true;
        }
        false
    }

    /// Go's `printArg`: one top-level operand.
    fn print_arg(&mut self, v: &Value, verb: char) {
        if matches!(v, Value::Nil | Value::Invalid) {
            match verb {
                'T' | 'v' => self.pad("<nil>"),
                _ => self.bad_verb(verb, None),
            }
            return;
        }
        match verb {
            'T' => {
                let t = type_name(v);
                self.fmt_s(&t);
                return;
            }
            'p' => {
                self.fmt_pointer(v, 'p');
                return;
            }
            _ => {}
        }
        match v {
            Value::Bool(b) => self.fmt_bool(*b, verb, v),
            Value::Float(f) => self.fmt_flt(*f, verb, v),
            Value::Int(i) | Value::Int64(i) => self.fmt_int(*i as u64, true, verb, v),
            Value::Uint64(u) => self.fmt_int(*u, false, verb, v),
            Value::String(s) => self.fmt_string(s, verb, Some(v)),
            Value::Bytes(b) => self.fmt_bytes(b, verb, "[]byte"),
            _ => {
                if !self.handle_methods(v, verb) {
                    self.print_value(v, verb, 0);
                }
            }
        }
    }

    /// An element of an `interface{}`-typed container: nil prints as `<nil>` whatever the verb.
    fn print_iface_elem(&mut self, v: &Value, verb: char, depth: usize) {
        match v {
            Value::Nil | Value::Invalid => {
                if self.f.sharp_v {
                    self.buf.push_str("interface {}(nil)");
                } else {
                    self.buf.push_str("<nil>");
                }
            }
            _ => self.print_value(v, verb, depth + 1),
        }
    }

    fn print_elem(&mut self, elem_type: &GoType, v: &Value, verb: char, depth: usize) {
        if *elem_type == GoType::Interface {
            self.print_iface_elem(v, verb, depth);
        } else {
            self.print_value(v, verb, depth);
        }
    }

    /// Go's `printValue`: a value reached by reflection (inside a container when `depth > 0`).
    fn print_value(&mut self, v: &Value, verb: char, depth: usize) {
        if depth > 0 && self.handle_methods(v, verb) {
            return;
        }
        match v {
            Value::Invalid | Value::Nil => {
                if depth == 0 {
                    self.buf.push_str("<invalid reflect.Value>");
                } else if verb == 'v' {
                    self.buf.push_str("<nil>");
                } else {
                    self.bad_verb(verb, None);
                }
            }
            Value::Bool(b) => self.fmt_bool(*b, verb, v),
            Value::Int(i) | Value::Int64(i) => self.fmt_int(*i as u64, true, verb, v),
            Value::Uint64(u) => self.fmt_int(*u, false, verb, v),
            Value::Float(f) => self.fmt_flt(*f, verb, v),
            Value::String(s) => self.fmt_string(s, verb, Some(v)),
            Value::Bytes(b) => {
                if matches!(verb, 's' | 'q' | 'x' | 'X') {
                    self.fmt_bytes(b, verb, "[]uint8");
                } else if self.f.sharp_v {
                    self.buf.push_str("[]uint8{");
                    for (i, &c) in b.iter().enumerate() {
                        if i > 0 {
                            self.buf.push_str(", ");
                        }
                        self.fmt_0x64(u64::from(c), true);
                    }
                    self.buf.push('}');
                } else {
                    self.buf.push('[');
                    for (i, &c) in b.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(' ');
                        }
                        let e = Value::Uint64(u64::from(c));
                        self.fmt_int(u64::from(c), false, verb, &e);
                    }
                    self.buf.push(']');
                }
            }
            Value::Map(m) => self.print_map(v, m, verb, depth),
            Value::Slice(s) => self.print_slice(v, s, verb, depth),
            Value::Semver(ver, ptr) => {
                if *ptr && depth > 0 {
                    self.fmt_pointer(v, verb);
                    return;
                }
                if *ptr {
                    self.buf.push('&');
                }
                self.print_version_struct(ver, verb, depth + usize::from(*ptr));
            }
        }
    }

    fn print_map(&mut self, v: &Value, m: &Map, verb: char, depth: usize) {
        if self.f.sharp_v {
            self.buf.push_str(&type_name(v));
            self.buf.push('{');
        } else {
            self.buf.push_str("map[");
        }
        for (i, (k, e)) in m.entries.iter().enumerate() {
            if self.full() {
                return;
            }
            if i > 0 {
                if self.f.sharp_v {
                    self.buf.push_str(", ");
                } else {
                    self.buf.push(' ');
                }
            }
            self.fmt_string(k, verb, None);
            self.buf.push(':');
            self.print_elem(&m.elem, e, verb, depth + 1);
        }
        self.buf.push(if self.f.sharp_v { '}' } else { ']' });
    }

    fn print_slice(&mut self, v: &Value, s: &Slice, verb: char, depth: usize) {
        if self.f.sharp_v {
            self.buf.push_str(&type_name(v));
            self.buf.push('{');
            for (i, e) in s.items.iter().enumerate() {
                if self.full() {
                    return;
                }
                if i > 0 {
                    self.buf.push_str(", ");
                }
                self.print_elem(&s.elem, e, verb, depth + 1);
            }
            self.buf.push('}');
        } else {
            self.buf.push('[');
            for (i, e) in s.items.iter().enumerate() {
                if self.full() {
                    return;
                }
                if i > 0 {
                    self.buf.push(' ');
                }
                self.print_elem(&s.elem, e, verb, depth + 1);
            }
            self.buf.push(']');
        }
    }

    /// The `semver.Version` struct by reflection (its fields are unexported, so no methods).
    fn print_version_struct(&mut self, ver: &Version, verb: char, depth: usize) {
        let names = ["major", "minor", "patch", "pre", "metadata", "original"];
        if self.f.sharp_v {
            self.buf.push_str("semver.Version");
        }
        self.buf.push('{');
        let fields = [
            Value::Uint64(ver.major),
            Value::Uint64(ver.minor),
            Value::Uint64(ver.patch),
            Value::str(ver.pre.as_str()),
            Value::str(ver.metadata.as_str()),
            Value::str(ver.original.as_str()),
        ];
        let erroring = self.erroring;
        // Unexported fields cannot be interfaced: Go does not call methods on them.
        self.erroring = true;
        for (i, (name, f)) in names.iter().zip(fields.iter()).enumerate() {
            if i > 0 {
                if self.f.sharp_v {
                    self.buf.push_str(", ");
                } else {
                    self.buf.push(' ');
                }
            }
            if self.f.plus_v || self.f.sharp_v {
                self.buf.push_str(name);
                self.buf.push(':');
            }
            self.print_value(f, verb, depth + 1);
        }
        self.erroring = erroring;
        self.buf.push('}');
    }

    // ---- Print / Printf -----------------------------------------------------------------------

    fn do_print(&mut self, args: &[Value]) {
        let mut prev_string = false;
        for (i, a) in args.iter().enumerate() {
            let is_string = matches!(a, Value::String(_));
            if i > 0 && !is_string && !prev_string {
                self.buf.push(' ');
            }
            self.print_arg(a, 'v');
            prev_string = is_string;
            if self.full() {
                return;
            }
        }
    }

    fn arg_number(
        &mut self,
        arg_num: usize,
        format: &[u8],
        i: usize,
        num_args: usize,
    ) -> (usize, usize, bool) {
        if format.len() <= i || format[i] != b'[' {
            return (arg_num, i, false);
        }
        self.reordered = true;
        let (index, wid, ok) = parse_arg_number(&format[i..]);
        if ok && 0 <= index && (index as usize) < num_args {
            return (index as usize, i + wid, true);
        }
        self.good_arg_num = false;
        (arg_num, i + wid, ok)
    }

    fn do_printf(&mut self, format: &str, a: &[Value]) {
        let fb = format.as_bytes();
        let end = fb.len();
        let mut arg_num = 0usize;
        let mut after_index;
        self.reordered = false;
        let mut i = 0usize;
        'format: while i < end {
            if self.full() {
                return;
            }
            self.good_arg_num = true;
            let lasti = i;
            while i < end && fb[i] != b'%' {
                i += 1;
            }
            if i > lasti {
                self.buf.push_str(&format[lasti..i]);
            }
            if i >= end {
                break;
            }
            i += 1;
            self.clear_flags();
            while i < end {
                let c = fb[i];
                match c {
                    b'#' => self.f.sharp = true,
                    b'0' => self.f.zero = true,
                    b'+' => self.f.plus = true,
                    b'-' => self.f.minus = true,
                    b' ' => self.f.space = true,
                    _ => {
                        if c.is_ascii_lowercase() && arg_num < a.len() {
                            if c == b'v' {
                                self.f.sharp_v = self.f.sharp;
                                self.f.sharp = false;
                                self.f.plus_v = self.f.plus;
                                self.f.plus = false;
                            }
                            self.print_verb(&a[arg_num], c as char);
                            arg_num += 1;
                            i += 1;
                            continue 'format;
                        }
                        break;
                    }
                }
                i += 1;
            }
            (arg_num, i, after_index) = self.arg_number(arg_num, fb, i, a.len());
            if i < end && fb[i] == b'*' {
                i += 1;
                let (n, ok, na) = int_from_arg(a, arg_num);
                self.wid = n;
                self.f.wid_present = ok;
                arg_num = na;
                if !ok {
                    self.buf.push_str("%!(BADWIDTH)");
                }
                if self.wid < 0 {
                    self.wid = -self.wid;
                    self.f.minus = true;
                    self.f.zero = false;
                }
                after_index = false;
            } else {
                let (n, ok, ni) = parse_num(fb, i, end);
                self.wid = n;
                self.f.wid_present = ok;
                i = ni;
                if after_index && self.f.wid_present {
                    self.good_arg_num = false;
                }
            }
            if i + 1 < end && fb[i] == b'.' {
                i += 1;
                if after_index {
                    self.good_arg_num = false;
                }
                (arg_num, i, after_index) = self.arg_number(arg_num, fb, i, a.len());
                if i < end && fb[i] == b'*' {
                    i += 1;
                    let (n, ok, na) = int_from_arg(a, arg_num);
                    self.prec = n;
                    self.f.prec_present = ok;
                    arg_num = na;
                    if self.prec < 0 {
                        self.prec = 0;
                        self.f.prec_present = false;
                    }
                    if !self.f.prec_present {
                        self.buf.push_str("%!(BADPREC)");
                    }
                    after_index = false;
                } else {
                    let (n, ok, ni) = parse_num(fb, i, end);
                    self.prec = n;
                    self.f.prec_present = ok;
                    i = ni;
                    if !self.f.prec_present {
                        self.prec = 0;
                        self.f.prec_present = true;
                    }
                }
            }
            if !after_index {
                (arg_num, i, _) = self.arg_number(arg_num, fb, i, a.len());
            }
            if i >= end {
                self.buf.push_str("%!(NOVERB)");
                break;
            }
            let verb = format[i..].chars().next().unwrap_or('\u{FFFD}');
            i += verb.len_utf8();
            if verb == '%' {
                self.buf.push('%');
            } else if !self.good_arg_num {
                self.buf.push_str("%!");
                self.buf.push(verb);
                self.buf.push_str("(BADINDEX)");
            } else if arg_num >= a.len() {
                self.buf.push_str("%!");
                self.buf.push(verb);
                self.buf.push_str("(MISSING)");
            } else {
                if verb == 'v' {
                    self.f.sharp_v = self.f.sharp;
                    self.f.sharp = false;
                    self.f.plus_v = self.f.plus;
                    self.f.plus = false;
                }
                self.print_verb(&a[arg_num], verb);
                arg_num += 1;
            }
        }
        if !self.reordered && arg_num < a.len() {
            self.clear_flags();
            self.buf.push_str("%!(EXTRA ");
            for (i, arg) in a[arg_num..].iter().enumerate() {
                if i > 0 {
                    self.buf.push_str(", ");
                }
                if matches!(arg, Value::Nil | Value::Invalid) {
                    self.buf.push_str("<nil>");
                } else {
                    self.buf.push_str(&type_name(arg));
                    self.buf.push('=');
                    self.print_arg(arg, 'v');
                }
                if self.full() {
                    return;
                }
            }
            self.buf.push(')');
        }
    }

    /// One verb applied to one operand (`%w` is only valid in `Errorf`: a bad verb here).
    fn print_verb(&mut self, v: &Value, verb: char) {
        if verb == 'w' {
            self.bad_verb('w', Some(v));
            return;
        }
        self.print_arg(v, verb);
    }
}

fn too_large(x: i64) -> bool {
    !(-1_000_000..=1_000_000).contains(&x)
}

/// Go's `parsenum`: (number, present, new index).
fn parse_num(s: &[u8], start: usize, end: usize) -> (i64, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let mut num: i64 = 0;
    let mut isnum = false;
    let mut i = start;
    while i < end && s[i].is_ascii_digit() {
        if too_large(num) {
            return (0, false, end);
        }
        num = num * 10 + i64::from(s[i] - b'0');
        isnum = true;
        i += 1;
    }
    (num, isnum, i)
}

/// Go's `parseArgNumber`: (zero-based index, bytes consumed, ok) for `[n]` at the start.
fn parse_arg_number(format: &[u8]) -> (i64, usize, bool) {
    if format.len() < 3 {
        return (0, 1, false);
    }
    for i in 1..format.len() {
        if format[i] == b']' {
            let (width, ok, newi) = parse_num(format, 1, i);
            if !ok || newi != i {
                return (0, i + 1, false);
            }
            return (width - 1, i + 1, true);
        }
    }
    (0, 1, false)
}

/// Go's `intFromArg` for `*` widths and precisions: only integer types count.
fn int_from_arg(a: &[Value], arg_num: usize) -> (i64, bool, usize) {
    let Some(v) = a.get(arg_num) else {
        return (0, false, arg_num);
    };
    let (mut num, mut ok) = match v {
        Value::Int(i) | Value::Int64(i) => (*i, true),
        Value::Uint64(u) => match i64::try_from(*u) {
            Ok(i) => (i, true),
            Err(_) => (0, false),
        },
        _ => (0, false),
    };
    if too_large(num) {
        num = 0;
        ok = false;
    }
    (num, ok, arg_num + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn f(v: f64) -> Value {
        Value::Float(v)
    }

    #[test]
    fn sprint_floats() {
        assert_eq!(sprint_value(&f(1e6)), "1e+06");
        assert_eq!(sprint_value(&f(3.0)), "3");
        assert_eq!(sprint_value(&f(-0.0)), "-0");
        assert_eq!(sprint_value(&f(f64::INFINITY)), "+Inf");
    }

    #[test]
    fn sprint_collections() {
        let mut m = BTreeMap::new();
        m.insert("b".to_string(), f(2.0));
        m.insert(
            "a".to_string(),
            Value::list(vec![f(1.0), Value::Nil, Value::str("x")]),
        );
        let v = Value::dict(m);
        assert_eq!(sprint_value(&v), "map[a:[1 <nil> x] b:2]");
        assert_eq!(
            sprintf("%#v", std::slice::from_ref(&v)),
            "map[string]interface {}{\"a\":[]interface {}{1, interface {}(nil), \"x\"}, \"b\":2}"
        );
    }

    #[test]
    fn sprint_spacing() {
        assert_eq!(sprint(&[f(1.0), f(2.0), Value::str("a"), f(3.0)]), "1 2a3");
        assert_eq!(sprintln(&[Value::str("a"), Value::str("b")]), "a b\n");
    }

    #[test]
    fn printf_verbs() {
        let p = |fmt: &str, args: &[Value]| sprintf(fmt, args);
        assert_eq!(p("%d", &[f(3.0)]), "%!d(float64=3)");
        assert_eq!(p("%s", &[]), "%!s(MISSING)");
        assert_eq!(
            p("x", &[f(1.0), Value::str("a")]),
            "x%!(EXTRA float64=1, string=a)"
        );
        assert_eq!(p("%", &[]), "%!(NOVERB)");
        assert_eq!(
            p(
                "%5.2f|%-6d|%06d",
                &[f(3.25159), Value::Int(42), Value::Int(-42)]
            ),
            " 3.25|42    |-00042"
        );
        assert_eq!(
            p(
                "%x %X %o %O %b",
                &[
                    Value::Int(255),
                    Value::Int(255),
                    Value::Int(8),
                    Value::Int(8),
                    Value::Int(5)
                ]
            ),
            "ff FF 10 0o10 101"
        );
        assert_eq!(
            p(
                "%q %c %U %#U",
                &[
                    Value::Int(65),
                    Value::Int(0x263A),
                    Value::Int(0x263A),
                    Value::Int(0x263A)
                ]
            ),
            "'A' ☺ U+263A U+263A '☺'"
        );
        assert_eq!(p("%[2]d %[1]d", &[Value::Int(1), Value::Int(2)]), "2 1");
        assert_eq!(p("%[3]d", &[Value::Int(1)]), "%!d(BADINDEX)");
        assert_eq!(p("%*d", &[Value::Int(4), Value::Int(7)]), "   7");
        assert_eq!(p("%*d", &[f(4.0), Value::Int(7)]), "%!(BADWIDTH)7");
        assert_eq!(p("%.*d", &[f(4.0), Value::Int(7)]), "%!(BADPREC)7");
        assert_eq!(p("%t %v", &[Value::Bool(true), Value::Nil]), "true <nil>");
        assert_eq!(p("%d", &[Value::Nil]), "%!d(<nil>)");
        assert_eq!(
            p(
                "%e %E %.3g %G",
                &[f(1234.5678), f(0.000012), f(1234.5678), f(1e-10)]
            ),
            "1.234568e+03 1.200000E-05 1.23e+03 1E-10"
        );
        assert_eq!(p("%#g %#.3x", &[f(1.0), f(1.0)]), "1.00000 0x1.000p+00");
        assert_eq!(p("%+.1e % f", &[f(5.0), f(1.0)]), "+5.0e+00  1.000000");
        assert_eq!(
            p(
                "%08.3f|%-8.3f|%+08d",
                &[f(-3.25159), f(3.25159), Value::Int(5)]
            ),
            "-003.252|3.252   |+0000005"
        );
        assert_eq!(
            p(
                "%x % x %#x",
                &[Value::str("hi"), Value::str("hi"), Value::str("hi")]
            ),
            "6869 68 69 0x6869"
        );
        assert_eq!(
            p(
                "%.2s|%5s|%-5s|",
                &[Value::str("héllo"), Value::str("ab"), Value::str("ab")]
            ),
            "hé|   ab|ab   |"
        );
        assert_eq!(
            p(
                "%q %+q %#q",
                &[Value::str("é\n"), Value::str("é"), Value::str("a")]
            ),
            "\"é\\n\" \"\\u00e9\" `a`"
        );
        assert_eq!(
            p("%T %T %T", &[f(1.0), Value::Nil, Value::list(vec![])]),
            "float64 <nil> []interface {}"
        );
    }
}
