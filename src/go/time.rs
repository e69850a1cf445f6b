/*!
Go's `time` package as far as Sprig's date functions and the API's durations need it: the
proleptic Gregorian calendar, `time.Time` ([`GoTime`]: Unix seconds, nanoseconds, offset and
zone), layouts (`2006-01-02T15:04:05Z07:00`) with `time.ParseInLocation`, `Time.Format` and
`Time.String`, and durations: `time.ParseDuration`, `Duration.String` and `Duration.Round`,
error texts included.

The process's local zone is taken to be UTC, as in a Cluster API controller container (and on
the oracle machine): times parsed without a zone print as `+0000 UTC` and their location is
named `Local`.
*/

use std::time::{SystemTime, UNIX_EPOCH};

// ---------------------------------------------------------------------------------------------
// Civil calendar
// ---------------------------------------------------------------------------------------------

const SECONDS_PER_DAY: i64 = 86_400;
/// Unix time of Go's zero `time.Time` (January 1, year 1, UTC).
pub const ZERO_TIME_UNIX: i64 = -62_135_596_800;

const LONG_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const LONG_DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// Days since 1970-01-01 of a proleptic Gregorian date (month 1–12).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number from [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The proleptic Gregorian (year, month, day) of a day count since 1970-01-01, for other
/// groups that write dates (certificate validity).
pub(crate) fn civil_date(days: i64) -> (i64, i64, i64) {
    civil_from_days(days)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days before the first of `month` in a non-leap year.
fn days_before(month: i64) -> i64 {
    (1..month).map(|m| days_in_month(m, 1)).sum()
}

// ---------------------------------------------------------------------------------------------
// Times
// ---------------------------------------------------------------------------------------------

/// A `time.Time`'s location, as far as these functions can produce one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Zone {
    /// `time.UTC` (from a `Z` or `UTC` in the input, or the zero time).
    Utc,
    /// `time.Local`, which is UTC here (abbreviation `UTC`, name `Local`).
    Local,
    /// `time.FixedZone(name, offset)` made up by the parser for an unknown zone; the name may
    /// be empty.
    Fixed(String),
}

/// A `time.Time`: an instant (Unix seconds and nanoseconds) seen in a zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoTime {
    /// Seconds since the Unix epoch.
    pub unix: i64,
    /// Nanoseconds within the second (0..1e9).
    pub nsec: u32,
    /// Offset east of UTC in seconds.
    pub offset: i32,
    /// The location.
    pub zone: Zone,
}

/// Calendar fields of a time in its own zone.
pub struct Fields {
    pub year: i64,
    pub month: i64,
    pub day: i64,
    pub yday: i64,
    pub weekday: usize,
    pub hour: i64,
    pub minute: i64,
    pub second: i64,
}

impl GoTime {
    /// Go's zero `time.Time{}` (what `toDate` returns for unparsable input).
    pub fn zero() -> GoTime {
        GoTime {
            unix: ZERO_TIME_UNIX,
            nsec: 0,
            offset: 0,
            zone: Zone::Utc,
        }
    }

    /// The current time, in the local zone (UTC).
    pub fn now() -> GoTime {
        let (unix, nsec) = match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(d) => (
                i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                d.subsec_nanos(),
            ),
            Err(e) => {
                let d = e.duration();
                let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
                if d.subsec_nanos() == 0 {
                    (-secs, 0)
                } else {
                    (-secs - 1, 1_000_000_000 - d.subsec_nanos())
                }
            }
        };
        GoTime {
            unix,
            nsec,
            offset: 0,
            zone: Zone::Local,
        }
    }

    /// `time.Unix(sec, 0)` in the local zone.
    pub fn from_unix(sec: i64) -> GoTime {
        GoTime {
            unix: sec,
            nsec: 0,
            offset: 0,
            zone: Zone::Local,
        }
    }

    /// The zone abbreviation `MST` prints (empty for an unnamed fixed zone).
    fn abbreviation(&self) -> &str {
        match &self.zone {
            Zone::Utc | Zone::Local => "UTC",
            Zone::Fixed(name) => name,
        }
    }

    /// The location's name, as `.Location` prints it.
    pub fn location_name(&self) -> &str {
        match &self.zone {
            Zone::Utc => "UTC",
            Zone::Local => "Local",
            Zone::Fixed(name) => name,
        }
    }

    pub fn fields(&self) -> Fields {
        let local = self.unix.saturating_add(i64::from(self.offset));
        let days = local.div_euclid(SECONDS_PER_DAY);
        let secs = local.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        let yday = days - days_from_civil(year, 1, 1) + 1;
        // 1970-01-01 was a Thursday.
        let weekday = usize::try_from((days + 4).rem_euclid(7)).unwrap_or(0);
        Fields {
            year,
            month,
            day,
            yday,
            weekday,
            hour: secs / 3600,
            minute: secs % 3600 / 60,
            second: secs % 60,
        }
    }

    /// Nanoseconds since the epoch as i128 (never overflows).
    pub fn total_nanos(&self) -> i128 {
        i128::from(self.unix) * 1_000_000_000 + i128::from(self.nsec)
    }

    /// `Time.Add(d)`.
    pub fn add(&self, d: i64) -> GoTime {
        let total = self.total_nanos() + i128::from(d);
        let unix = total.div_euclid(1_000_000_000);
        let nsec = total.rem_euclid(1_000_000_000);
        GoTime {
            unix: i64::try_from(unix).unwrap_or(if unix < 0 { i64::MIN } else { i64::MAX }),
            nsec: u32::try_from(nsec).unwrap_or(0),
            offset: self.offset,
            zone: self.zone.clone(),
        }
    }

    /// `time.Since(t)` as a Go Duration (saturating like Go's `Sub`).
    pub fn since(&self) -> i64 {
        let diff = GoTime::now().total_nanos() - self.total_nanos();
        i64::try_from(diff).unwrap_or(if diff < 0 { i64::MIN } else { i64::MAX })
    }

    /// `Time.Format(layout)`.
    pub fn format(&self, layout: &str) -> String {
        let f = self.fields();
        let mut out = String::new();
        let mut rest = layout.as_bytes();
        loop {
            let chunk = next_chunk(rest);
            out.push_str(&String::from_utf8_lossy(&rest[..chunk.prefix_end]));
            let Some(std) = chunk.std else { break };
            rest = &rest[chunk.suffix_start..];
            self.format_std(&mut out, std, &f);
        }
        out
    }

    fn format_std(&self, out: &mut String, std: Std, f: &Fields) {
        let hour12 = match f.hour % 12 {
            0 => 12,
            h => h,
        };
        match std {
            Std::Year => push_int(out, f.year.abs() % 100, 2),
            Std::LongYear => push_int(out, f.year, 4),
            Std::Month => out.push_str(&month_name(f.month)[..3]),
            Std::LongMonth => out.push_str(month_name(f.month)),
            Std::NumMonth => push_int(out, f.month, 0),
            Std::ZeroMonth => push_int(out, f.month, 2),
            Std::WeekDay => out.push_str(&day_name(f.weekday)[..3]),
            Std::LongWeekDay => out.push_str(day_name(f.weekday)),
            Std::Day => push_int(out, f.day, 0),
            Std::UnderDay => {
                if f.day < 10 {
                    out.push(' ');
                }
                push_int(out, f.day, 0);
            }
            Std::ZeroDay => push_int(out, f.day, 2),
            Std::UnderYearDay => {
                if f.yday < 100 {
                    out.push(' ');
                    if f.yday < 10 {
                        out.push(' ');
                    }
                }
                push_int(out, f.yday, 0);
            }
            Std::ZeroYearDay => push_int(out, f.yday, 3),
            Std::Hour => push_int(out, f.hour, 2),
            Std::Hour12 => push_int(out, hour12, 0),
            Std::ZeroHour12 => push_int(out, hour12, 2),
            Std::Minute => push_int(out, f.minute, 0),
            Std::ZeroMinute => push_int(out, f.minute, 2),
            Std::Second => push_int(out, f.second, 0),
            Std::ZeroSecond => push_int(out, f.second, 2),
            Std::PM => out.push_str(if f.hour >= 12 { "PM" } else { "AM" }),
            Std::Pm => out.push_str(if f.hour >= 12 { "pm" } else { "am" }),
            Std::Tz(kind) => self.format_offset(out, kind),
            Std::Name => {
                let name = self.abbreviation();
                if name.is_empty() {
                    // An unnamed zone prints its offset as -0700.
                    self.format_offset(out, TzKind::num(TzShape::HourMinute, false));
                } else {
                    out.push_str(name);
                }
            }
            Std::Frac {
                digits,
                comma,
                trim,
            } => {
                push_nanos(out, self.nsec, digits, comma, trim);
            }
        }
    }

    fn format_offset(&self, out: &mut String, kind: TzKind) {
        let offset = i64::from(self.offset);
        if offset == 0 && kind.iso {
            out.push('Z');
            return;
        }
        let zone = offset / 60;
        out.push(if zone < 0 { '-' } else { '+' });
        let (zone, abs) = (zone.abs(), offset.abs());
        push_int(out, zone / 60, 2);
        if kind.shape.colon() {
            out.push(':');
        }
        if kind.shape != TzShape::Hour {
            push_int(out, zone % 60, 2);
        }
        if kind.shape.seconds() {
            if kind.shape == TzShape::ColonSeconds {
                out.push(':');
            }
            push_int(out, abs % 60, 2);
        }
    }

    /// `Time.String()`: `2006-01-02 15:04:05.999999999 -0700 MST` (no monotonic reading: these
    /// times never carry one).
    pub fn go_string(&self) -> String {
        self.format("2006-01-02 15:04:05.999999999 -0700 MST")
    }

    /// `Time.MarshalJSON` without the quotes (RFC 3339 with nanoseconds), what `toJson` shows.
    pub fn rfc3339_nano(&self) -> String {
        self.format("2006-01-02T15:04:05.999999999Z07:00")
    }
}

fn month_name(month: i64) -> &'static str {
    usize::try_from(month - 1)
        .ok()
        .and_then(|i| LONG_MONTHS.get(i))
        .copied()
        .unwrap_or("%!Month")
}

fn day_name(weekday: usize) -> &'static str {
    LONG_DAYS.get(weekday).copied().unwrap_or("%!Weekday")
}

/// Go's `appendInt`: sign, then at least `width` digits.
fn push_int(out: &mut String, x: i64, width: usize) {
    if x < 0 {
        out.push('-');
    }
    let digits = x.unsigned_abs().to_string();
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(&digits);
}

fn push_nanos(out: &mut String, nsec: u32, digits: usize, comma: bool, trim: bool) {
    if trim && (digits == 0 || nsec == 0) {
        return;
    }
    let sep = if comma { ',' } else { '.' };
    let mut frac = format!("{nsec:09}");
    frac.truncate(digits.min(9));
    if trim {
        let kept = frac.trim_end_matches('0').len();
        frac.truncate(kept);
        if frac.is_empty() {
            return;
        }
    }
    out.push(sep);
    out.push_str(&frac);
}

// ---------------------------------------------------------------------------------------------
// Layout elements
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TzShape {
    /// `-07`
    Hour,
    /// `-0700`
    HourMinute,
    /// `-07:00`
    Colon,
    /// `-070000`
    Seconds,
    /// `-07:00:00`
    ColonSeconds,
}

impl TzShape {
    fn colon(self) -> bool {
        matches!(self, TzShape::Colon | TzShape::ColonSeconds)
    }

    fn seconds(self) -> bool {
        matches!(self, TzShape::Seconds | TzShape::ColonSeconds)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TzKind {
    shape: TzShape,
    /// The `Z…` spellings: `Z` for UTC.
    iso: bool,
}

impl TzKind {
    fn num(shape: TzShape, iso: bool) -> TzKind {
        TzKind { shape, iso }
    }
}

/// One layout element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Std {
    LongMonth,
    Month,
    NumMonth,
    ZeroMonth,
    LongWeekDay,
    WeekDay,
    Day,
    UnderDay,
    ZeroDay,
    UnderYearDay,
    ZeroYearDay,
    Hour,
    Hour12,
    ZeroHour12,
    Minute,
    ZeroMinute,
    Second,
    ZeroSecond,
    LongYear,
    Year,
    PM,
    Pm,
    /// `MST`.
    Name,
    Tz(TzKind),
    /// `.000` (exact digits) or `.999` (`trim`: optional, trailing zeros dropped).
    Frac {
        digits: usize,
        comma: bool,
        trim: bool,
    },
}

struct Chunk {
    /// Literal text before the element.
    prefix_end: usize,
    /// The element, if any (none: the whole rest is literal).
    std: Option<Std>,
    /// Where the text after the element starts.
    suffix_start: usize,
}

fn starts_with_lower(s: &[u8]) -> bool {
    s.first().is_some_and(u8::is_ascii_lowercase)
}

fn at(s: &[u8], i: usize, lit: &str) -> bool {
    s.get(i..)
        .is_some_and(|rest| rest.starts_with(lit.as_bytes()))
}

/// Find the next layout element, as Go's `nextStdChunk` does (same precedence, same
/// lookahead rules such as `Jan` not matching in `Janet`).
fn next_chunk(layout: &[u8]) -> Chunk {
    let found = |i: usize, std: Std, len: usize| Chunk {
        prefix_end: i,
        std: Some(std),
        suffix_start: i + len,
    };
    for (i, &c) in layout.iter().enumerate() {
        let next = layout.get(i + 1).copied();
        match c {
            b'J' if at(layout, i, "Jan") => {
                if at(layout, i, "January") {
                    return found(i, Std::LongMonth, 7);
                }
                if !starts_with_lower(&layout[i + 3..]) {
                    return found(i, Std::Month, 3);
                }
            }
            b'M' => {
                if at(layout, i, "Mon") {
                    if at(layout, i, "Monday") {
                        return found(i, Std::LongWeekDay, 6);
                    }
                    if !starts_with_lower(&layout[i + 3..]) {
                        return found(i, Std::WeekDay, 3);
                    }
                }
                if at(layout, i, "MST") {
                    return found(i, Std::Name, 3);
                }
            }
            b'0' => {
                let std = match next {
                    Some(b'1') => Some(Std::ZeroMonth),
                    Some(b'2') => Some(Std::ZeroDay),
                    Some(b'3') => Some(Std::ZeroHour12),
                    Some(b'4') => Some(Std::ZeroMinute),
                    Some(b'5') => Some(Std::ZeroSecond),
                    Some(b'6') => Some(Std::Year),
                    _ => None,
                };
                if let Some(std) = std {
                    return found(i, std, 2);
                }
                if at(layout, i, "002") {
                    return found(i, Std::ZeroYearDay, 3);
                }
            }
            b'1' => {
                if next == Some(b'5') {
                    return found(i, Std::Hour, 2);
                }
                return found(i, Std::NumMonth, 1);
            }
            b'2' => {
                if at(layout, i, "2006") {
                    return found(i, Std::LongYear, 4);
                }
                return found(i, Std::Day, 1);
            }
            b'_' => {
                if next == Some(b'2') {
                    // `_2006` is a literal underscore and a long year.
                    if at(layout, i + 1, "2006") {
                        return found(i + 1, Std::LongYear, 4);
                    }
                    return found(i, Std::UnderDay, 2);
                }
                if at(layout, i, "__2") {
                    return found(i, Std::UnderYearDay, 3);
                }
            }
            b'3' => return found(i, Std::Hour12, 1),
            b'4' => return found(i, Std::Minute, 1),
            b'5' => return found(i, Std::Second, 1),
            b'P' if next == Some(b'M') => return found(i, Std::PM, 2),
            b'p' if next == Some(b'm') => return found(i, Std::Pm, 2),
            b'-' | b'Z' => {
                let iso = c == b'Z';
                let lead = if iso { "Z" } else { "-" };
                let shapes = [
                    ("070000", TzShape::Seconds),
                    ("07:00:00", TzShape::ColonSeconds),
                    ("0700", TzShape::HourMinute),
                    ("07:00", TzShape::Colon),
                    ("07", TzShape::Hour),
                ];
                for (tail, shape) in shapes {
                    if at(layout, i, &format!("{lead}{tail}")) {
                        return found(i, Std::Tz(TzKind::num(shape, iso)), 1 + tail.len());
                    }
                }
            }
            b'.' | b',' if matches!(next, Some(b'0') | Some(b'9')) => {
                let ch = next.unwrap_or(b'0');
                let mut j = i + 1;
                while layout.get(j) == Some(&ch) {
                    j += 1;
                }
                // Only a run of digits that ends here is a fractional second.
                if !layout.get(j).is_some_and(u8::is_ascii_digit) {
                    let std = Std::Frac {
                        digits: j - (i + 1),
                        comma: c == b',',
                        trim: ch == b'9',
                    };
                    return found(i, std, j - i);
                }
            }
            _ => {}
        }
    }
    Chunk {
        prefix_end: layout.len(),
        std: None,
        suffix_start: layout.len(),
    }
}

/// The layout text of an element, for error messages.
fn std_text(layout: &[u8], chunk: &Chunk) -> Vec<u8> {
    layout[chunk.prefix_end..chunk.suffix_start].to_vec()
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Go's `time.quote`: ASCII printable text in quotes, everything else as `\xNN` bytes.
fn quote(s: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in s {
        if !(b' '..0x80).contains(&b) {
            out.push_str(&format!("\\x{b:02x}"));
        } else {
            if b == b'"' || b == b'\\' {
                out.push('\\');
            }
            out.push(char::from(b));
        }
    }
    out.push('"');
    out
}

struct ParseErr {
    elem: Option<(Vec<u8>, Vec<u8>)>,
    message: String,
}

impl ParseErr {
    fn cannot(layout_elem: &[u8], value_elem: &[u8]) -> ParseErr {
        ParseErr {
            elem: Some((layout_elem.to_vec(), value_elem.to_vec())),
            message: String::new(),
        }
    }

    fn message(m: impl Into<String>) -> ParseErr {
        ParseErr {
            elem: None,
            message: m.into(),
        }
    }

    fn render(&self, layout: &str, value: &str) -> String {
        match &self.elem {
            Some((le, ve)) => format!(
                "parsing time {} as {}: cannot parse {} as {}",
                quote(value.as_bytes()),
                quote(layout.as_bytes()),
                quote(ve),
                quote(le)
            ),
            None => format!("parsing time {}{}", quote(value.as_bytes()), self.message),
        }
    }
}

fn is_digit_at(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

fn digit(s: &[u8], i: usize) -> i64 {
    s.get(i).map_or(0, |b| i64::from(b.wrapping_sub(b'0')))
}

/// One or two digits (`fixed`: exactly two).
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    if !is_digit_at(s, 0) {
        return None;
    }
    if !is_digit_at(s, 1) {
        if fixed {
            return None;
        }
        return Some((digit(s, 0), &s[1..]));
    }
    Some((digit(s, 0) * 10 + digit(s, 1), &s[2..]))
}

/// One to three digits (`fixed`: exactly three).
fn getnum3(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let mut n = 0;
    let mut i = 0;
    while i < 3 && is_digit_at(s, i) {
        n = n * 10 + digit(s, i);
        i += 1;
    }
    if i == 0 || (fixed && i != 3) {
        return None;
    }
    Some((n, &s[i..]))
}

/// Go's `leadingInt`: digits as u64, refusing values above 2^63.
fn leading_int(s: &[u8]) -> Option<(u64, &[u8])> {
    let mut x: u64 = 0;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        if x > (1 << 63) / 10 {
            return None;
        }
        x = x * 10 + u64::from(c - b'0');
        if x > 1 << 63 {
            return None;
        }
        i += 1;
    }
    Some((x, &s[i..]))
}

/// Go's time `atoi`: optional sign, digits, nothing else.
fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, body) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (q, rem) = leading_int(body)?;
    if !rem.is_empty() {
        return None;
    }
    // Go converts with int(q), wrapping 2^63 to MinInt64.
    let x = q as i64;
    Some(if neg { x.wrapping_neg() } else { x })
}

fn lookup<'a>(table: &[&str], val: &'a [u8]) -> Option<(usize, &'a [u8])> {
    table.iter().enumerate().find_map(|(i, name)| {
        let n = name.len();
        let head = val.get(..n)?;
        head.eq_ignore_ascii_case(name.as_bytes())
            .then(|| (i, &val[n..]))
    })
}

/// Skip the literal `prefix` in `value`; a space in the prefix matches any run of spaces.
fn skip<'a>(mut value: &'a [u8], mut prefix: &[u8]) -> Result<&'a [u8], &'a [u8]> {
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if value.first().is_some_and(|&v| v != b' ') {
                return Err(value);
            }
            prefix = trim_spaces(prefix);
            value = trim_spaces(value);
            continue;
        }
        if value.first() != Some(&p) {
            return Err(value);
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Ok(value)
}

fn trim_spaces(mut s: &[u8]) -> &[u8] {
    while s.first() == Some(&b' ') {
        s = &s[1..];
    }
    s
}

/// Length of a zone abbreviation at the start of `value` (Go's `parseTimeZone`).
fn parse_zone_name(value: &[u8]) -> Option<usize> {
    if value.len() < 3 {
        return None;
    }
    if value.starts_with(b"ChST") || value.starts_with(b"MeST") {
        return Some(4);
    }
    if value.starts_with(b"GMT") {
        let rest = &value[3..];
        return Some(if rest.is_empty() {
            3
        } else {
            3 + signed_offset_len(rest)
        });
    }
    if value[0] == b'+' || value[0] == b'-' {
        let n = signed_offset_len(value);
        return (n > 0).then_some(n);
    }
    let upper = value
        .iter()
        .take(6)
        .take_while(|b| b.is_ascii_uppercase())
        .count();
    match upper {
        3 => Some(3),
        4 if value[3] == b'T' || value.starts_with(b"WITA") => Some(4),
        5 if value[4] == b'T' => Some(5),
        _ => None,
    }
}

/// `+3`, `-11`: a sign and an hour up to 23; 0 if there is none.
fn signed_offset_len(value: &[u8]) -> usize {
    let Some(&sign) = value.first() else { return 0 };
    if sign != b'-' && sign != b'+' {
        return 0;
    }
    let body = &value[1..];
    match leading_int(body) {
        Some((x, rem)) if rem.len() != body.len() && x <= 23 => value.len() - rem.len(),
        _ => 0,
    }
}

/// Nanoseconds from `.123…` (`nbytes` includes the separator); Go's `parseNanoseconds`.
fn parse_nanos(value: &[u8], nbytes: usize) -> Result<i64, Option<&'static str>> {
    if !matches!(value.first(), Some(b'.') | Some(b',')) {
        return Err(None);
    }
    let n = nbytes.min(10);
    let digits = value.get(1..n).ok_or(None)?;
    let mut ns = atoi(digits).ok_or(None)?;
    if ns < 0 {
        return Err(Some("fractional second"));
    }
    for _ in 0..(10 - n) {
        ns = ns.saturating_mul(10);
    }
    Ok(ns)
}

/// `time.ParseInLocation(layout, value, time.Local)` with Local = UTC.
pub fn parse_in_local(layout: &str, value: &str) -> Result<GoTime, String> {
    parse_time(layout.as_bytes(), value.as_bytes()).map_err(|e| e.render(layout, value))
}

#[derive(Default)]
struct Parsed {
    year: i64,
    month: Option<i64>,
    day: Option<i64>,
    yday: Option<i64>,
    hour: i64,
    min: i64,
    sec: i64,
    nsec: i64,
    utc: bool,
    offset: Option<i64>,
    zone_name: Vec<u8>,
    am: bool,
    pm: bool,
}

fn parse_time(full_layout: &[u8], full_value: &[u8]) -> Result<GoTime, ParseErr> {
    let mut p = Parsed::default();
    let mut layout = full_layout;
    let mut value = full_value;
    loop {
        let chunk = next_chunk(layout);
        let prefix = &layout[..chunk.prefix_end];
        value = skip(value, prefix).map_err(|rest| ParseErr::cannot(prefix, rest))?;
        let Some(std) = chunk.std else {
            if !value.is_empty() {
                return Err(ParseErr::message(format!(": extra text: {}", quote(value))));
            }
            break;
        };
        let elem = std_text(layout, &chunk);
        layout = &layout[chunk.suffix_start..];
        let hold = value;
        match parse_element(&mut p, std, value, layout) {
            Ok((rest, None)) => value = rest,
            Ok((_, Some(range))) | Err(Some(range)) => {
                return Err(ParseErr::message(format!(": {range} out of range")));
            }
            Err(None) => return Err(ParseErr::cannot(&elem, hold)),
        }
    }
    finish(p)
}

type ElemResult<'a> = Result<(&'a [u8], Option<&'static str>), Option<&'static str>>;

/// Parse one element; `Ok((rest, Some(what)))` and `Err(Some(what))` are range errors,
/// `Err(None)` a mismatch.
fn parse_element<'a>(
    p: &mut Parsed,
    std: Std,
    value: &'a [u8],
    layout_rest: &[u8],
) -> ElemResult<'a> {
    let none = |rest: &'a [u8]| Ok((rest, None));
    match std {
        Std::Year => {
            let two = value.get(..2).ok_or(None)?;
            let y = atoi(two).ok_or(None)?;
            p.year = if y >= 69 { y + 1900 } else { y + 2000 };
            none(&value[2..])
        }
        Std::LongYear => {
            if value.len() < 4 || !is_digit_at(value, 0) {
                return Err(None);
            }
            p.year = atoi(&value[..4]).ok_or(None)?;
            none(&value[4..])
        }
        Std::Month | Std::LongMonth => {
            let table: Vec<&str> = if std == Std::Month {
                LONG_MONTHS.iter().map(|m| &m[..3]).collect()
            } else {
                LONG_MONTHS.to_vec()
            };
            let (i, rest) = lookup(&table, value).ok_or(None)?;
            p.month = Some(i64::try_from(i).unwrap_or(0) + 1);
            none(rest)
        }
        Std::NumMonth | Std::ZeroMonth => {
            let (m, rest) = getnum(value, std == Std::ZeroMonth).ok_or(None)?;
            p.month = Some(m);
            let range = (!(1..=12).contains(&m)).then_some("month");
            Ok((rest, range))
        }
        Std::WeekDay | Std::LongWeekDay => {
            let table: Vec<&str> = if std == Std::WeekDay {
                LONG_DAYS.iter().map(|d| &d[..3]).collect()
            } else {
                LONG_DAYS.to_vec()
            };
            let (_, rest) = lookup(&table, value).ok_or(None)?;
            none(rest)
        }
        Std::Day | Std::UnderDay | Std::ZeroDay => {
            let mut v = value;
            if std == Std::UnderDay && v.first() == Some(&b' ') {
                v = &v[1..];
            }
            let (d, rest) = getnum(v, std == Std::ZeroDay).ok_or(None)?;
            p.day = Some(d);
            none(rest)
        }
        Std::UnderYearDay | Std::ZeroYearDay => {
            let mut v = value;
            for _ in 0..2 {
                if std == Std::UnderYearDay && v.first() == Some(&b' ') {
                    v = &v[1..];
                }
            }
            let (d, rest) = getnum3(v, std == Std::ZeroYearDay).ok_or(None)?;
            p.yday = Some(d);
            none(rest)
        }
        Std::Hour => {
            let (h, rest) = getnum(value, false).ok_or(None)?;
            p.hour = h;
            Ok((rest, (h >= 24).then_some("hour")))
        }
        Std::Hour12 | Std::ZeroHour12 => {
            let (h, rest) = getnum(value, std == Std::ZeroHour12).ok_or(None)?;
            p.hour = h;
            Ok((rest, (h > 12).then_some("hour")))
        }
        Std::Minute | Std::ZeroMinute => {
            let (m, rest) = getnum(value, std == Std::ZeroMinute).ok_or(None)?;
            p.min = m;
            Ok((rest, (m >= 60).then_some("minute")))
        }
        Std::Second | Std::ZeroSecond => {
            let (s, mut rest) = getnum(value, std == Std::ZeroSecond).ok_or(None)?;
            p.sec = s;
            if s >= 60 {
                return Ok((rest, Some("second")));
            }
            // A fraction in the input with none in the layout is still accepted.
            if rest.len() >= 2 && matches!(rest[0], b'.' | b',') && is_digit_at(rest, 1) {
                let next_is_frac = matches!(next_chunk(layout_rest).std, Some(Std::Frac { .. }));
                if !next_is_frac {
                    let mut n = 2;
                    while is_digit_at(rest, n) {
                        n += 1;
                    }
                    p.nsec = parse_nanos(rest, n)?;
                    rest = &rest[n..];
                }
            }
            none(rest)
        }
        Std::PM | Std::Pm => {
            let two = value.get(..2).ok_or(None)?;
            let (am, pm) = if std == Std::PM {
                (&b"AM"[..], &b"PM"[..])
            } else {
                (&b"am"[..], &b"pm"[..])
            };
            if two == pm {
                p.pm = true;
            } else if two == am {
                p.am = true;
            } else {
                return Err(None);
            }
            none(&value[2..])
        }
        Std::Tz(kind) => {
            if kind.iso && value.first() == Some(&b'Z') {
                p.utc = true;
                return none(&value[1..]);
            }
            parse_offset(p, kind.shape, value)
        }
        Std::Name => {
            if value.starts_with(b"UTC") {
                p.utc = true;
                return none(&value[3..]);
            }
            let n = parse_zone_name(value).ok_or(None)?;
            p.zone_name = value[..n].to_vec();
            none(&value[n..])
        }
        Std::Frac { digits, trim, .. } => {
            if !trim {
                let n = 1 + digits;
                if value.len() < n {
                    return Err(None);
                }
                p.nsec = parse_nanos(value, n)?;
                return none(&value[n..]);
            }
            if value.len() < 2 || !matches!(value[0], b'.' | b',') || !value[1].is_ascii_digit() {
                return none(value);
            }
            let mut i = 0;
            while is_digit_at(value, i + 1) {
                i += 1;
            }
            p.nsec = parse_nanos(value, 1 + i)?;
            none(&value[1 + i..])
        }
    }
}

fn parse_offset<'a>(p: &mut Parsed, shape: TzShape, value: &'a [u8]) -> ElemResult<'a> {
    let need = match shape {
        TzShape::Hour => 3,
        TzShape::HourMinute => 5,
        TzShape::Colon => 6,
        TzShape::Seconds => 7,
        TzShape::ColonSeconds => 9,
    };
    if value.len() < need {
        return Err(None);
    }
    if shape.colon() && value[3] != b':' {
        return Err(None);
    }
    if shape == TzShape::ColonSeconds && value[6] != b':' {
        return Err(None);
    }
    let (h, m, s): (&[u8], &[u8], &[u8]) = match shape {
        TzShape::Hour => (&value[1..3], b"00", b"00"),
        TzShape::HourMinute => (&value[1..3], &value[3..5], b"00"),
        TzShape::Colon => (&value[1..3], &value[4..6], b"00"),
        TzShape::Seconds => (&value[1..3], &value[3..5], &value[5..7]),
        TzShape::ColonSeconds => (&value[1..3], &value[4..6], &value[7..9]),
    };
    let rest = &value[need..];
    // Go parses the numbers in turn, stopping at the first bad one, but still range-checks
    // what it got, and a range error wins over any other.
    let mut bad = false;
    let (mut hr, mut mm, mut ss) = (0, 0, 0);
    match getnum(h, true) {
        Some((x, _)) => {
            hr = x;
            match getnum(m, true) {
                Some((x, _)) => {
                    mm = x;
                    match getnum(s, true) {
                        Some((x, _)) => ss = x,
                        None => bad = true,
                    }
                }
                None => bad = true,
            }
        }
        None => bad = true,
    }
    let mut range = None;
    if hr > 24 {
        range = Some("time zone offset hour");
    }
    if mm > 60 {
        range = Some("time zone offset minute");
    }
    if ss > 60 {
        range = Some("time zone offset second");
    }
    if range.is_some() {
        return Err(range);
    }
    if bad {
        return Err(None);
    }
    let magnitude = (hr * 60 + mm) * 60 + ss;
    p.offset = Some(match value[0] {
        b'+' => magnitude,
        b'-' => -magnitude,
        _ => return Err(None),
    });
    Ok((rest, None))
}

fn finish(mut p: Parsed) -> Result<GoTime, ParseErr> {
    if p.pm && p.hour < 12 {
        p.hour += 12;
    } else if p.am && p.hour == 12 {
        p.hour = 0;
    }
    let (month, day) = if let Some(mut yday) = p.yday {
        let mut fixed: Option<(i64, i64)> = None;
        if is_leap(p.year) {
            if yday == 31 + 29 {
                fixed = Some((2, 29));
            } else if yday > 31 + 29 {
                yday -= 1;
            }
        }
        if !(1..=365).contains(&yday) {
            return Err(ParseErr::message(": day-of-year out of range"));
        }
        let (m, d) = fixed.unwrap_or_else(|| {
            let mut m = (yday - 1) / 31 + 1;
            if days_before(m + 1) < yday {
                m += 1;
            }
            (m, yday - days_before(m))
        });
        if p.month.is_some_and(|pm| pm != m) {
            return Err(ParseErr::message(": day-of-year does not match month"));
        }
        if p.day.is_some_and(|pd| pd != d) {
            return Err(ParseErr::message(": day-of-year does not match day"));
        }
        (m, d)
    } else {
        (p.month.unwrap_or(1), p.day.unwrap_or(1))
    };
    if day < 1 || day > days_in_month(month, p.year) {
        return Err(ParseErr::message(": day out of range"));
    }
    let wall =
        days_from_civil(p.year, month, day) * SECONDS_PER_DAY + p.hour * 3600 + p.min * 60 + p.sec;
    let nsec = u32::try_from(p.nsec.clamp(0, 999_999_999)).unwrap_or(0);
    if p.utc {
        return Ok(GoTime {
            unix: wall,
            nsec,
            offset: 0,
            zone: Zone::Utc,
        });
    }
    let name = String::from_utf8_lossy(&p.zone_name).into_owned();
    if let Some(offset) = p.offset {
        // The local zone (UTC) is used when it has this offset (and name, if one was given).
        let zone = if offset == 0 && (name.is_empty() || name == "UTC") {
            Zone::Local
        } else {
            Zone::Fixed(name)
        };
        return Ok(GoTime {
            unix: wall - offset,
            nsec,
            offset: i32::try_from(offset).unwrap_or(0),
            zone,
        });
    }
    if !name.is_empty() {
        // An unknown abbreviation keeps the wall clock as UTC; only `GMT+h` gets an offset.
        let offset = match name.strip_prefix("GMT") {
            Some(hours) if !hours.is_empty() => atoi(hours.as_bytes()).unwrap_or(0) * 3600,
            _ => 0,
        };
        return Ok(GoTime {
            unix: wall,
            nsec,
            offset: i32::try_from(offset).unwrap_or(0),
            zone: Zone::Fixed(name),
        });
    }
    Ok(GoTime {
        unix: wall,
        nsec,
        offset: 0,
        zone: Zone::Local,
    })
}

// ---------------------------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------------------------

pub const NANOSECOND: u64 = 1;
pub const MICROSECOND: u64 = 1_000;
pub const MILLISECOND: u64 = 1_000_000;
pub const SECOND: u64 = 1_000_000_000;
pub const MINUTE: u64 = 60 * SECOND;
pub const HOUR: u64 = 60 * MINUTE;

/// `time.Duration.String()`: `1h2m3.5s`, `1.5ms`, `0s`.
pub fn format_duration(d: i64) -> String {
    let neg = d < 0;
    let mut u = d.unsigned_abs();
    let mut out = String::new();
    if u < SECOND {
        let (prec, unit) = match u {
            0 => return "0s".to_string(),
            u if u < MICROSECOND => (0, "ns"),
            u if u < MILLISECOND => (3, "µs"),
            _ => (6, "ms"),
        };
        let frac = take_fraction(&mut u, prec);
        out.push_str(&u.to_string());
        out.push_str(&frac);
        out.push_str(unit);
    } else {
        let frac = take_fraction(&mut u, 9);
        let secs = u % 60;
        u /= 60;
        if u > 0 {
            let mins = u % 60;
            u /= 60;
            if u > 0 {
                out.push_str(&format!("{u}h"));
            }
            out.push_str(&format!("{mins}m"));
        }
        out.push_str(&format!("{secs}{frac}s"));
    }
    if neg {
        out.insert(0, '-');
    }
    out
}

/// Split off `prec` decimal digits of `u`, rendered as `.ddd` without trailing zeros.
fn take_fraction(u: &mut u64, prec: u32) -> String {
    let scale = 10u64.pow(prec);
    let frac = *u % scale;
    *u /= scale;
    if frac == 0 {
        return String::new();
    }
    let digits = format!("{frac:0width$}", width = prec as usize);
    format!(".{}", digits.trim_end_matches('0'))
}

/// `time.ParseDuration`.
pub fn parse_duration(orig: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {}", quote(orig.as_bytes()));
    let mut s = orig.as_bytes();
    let mut neg = false;
    if let Some(&c) = s.first()
        && (c == b'-' || c == b'+')
    {
        neg = c == b'-';
        s = &s[1..];
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let before = s.len();
        let (mut v, rest) = leading_int(s).ok_or_else(invalid)?;
        s = rest;
        let pre = before != s.len();
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let before = s.len();
            let (ff, sc, rest) = leading_fraction(s);
            f = ff;
            scale = sc;
            s = rest;
            post = before != s.len();
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .iter()
            .position(|&c| c == b'.' || c.is_ascii_digit())
            .unwrap_or(s.len());
        if unit_len == 0 {
            return Err(format!(
                "time: missing unit in duration {}",
                quote(orig.as_bytes())
            ));
        }
        let unit_text = &s[..unit_len];
        s = &s[unit_len..];
        let unit = match unit_text {
            b"ns" => NANOSECOND,
            // `µs` (micro sign) and `μs` (Greek mu) in UTF-8.
            b"us" | [0xC2, 0xB5, b's'] | [0xCE, 0xBC, b's'] => MICROSECOND,
            b"ms" => MILLISECOND,
            b"s" => SECOND,
            b"m" => MINUTE,
            b"h" => HOUR,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(unit_text),
                    quote(orig.as_bytes())
                ));
            }
        };
        if v > (1 << 63) / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // Go goes through float64 here, nanosecond-exact for fractions of an hour.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > 1 << 63 {
                return Err(invalid());
            }
        }
        total += v;
        if total > 1 << 63 {
            return Err(invalid());
        }
    }
    if neg {
        // -(2^63) is representable.
        return Ok((total as i64).wrapping_neg());
    }
    i64::try_from(total).map_err(|_| invalid())
}

/// Go's `leadingFraction`: digits after the point, ignoring those past overflow.
fn leading_fraction(s: &[u8]) -> (u64, f64, &[u8]) {
    let mut x: u64 = 0;
    let mut scale = 1f64;
    let mut overflow = false;
    let mut i = 0;
    while let Some(&c) = s.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        i += 1;
        if overflow {
            continue;
        }
        if x > ((1u64 << 63) - 1) / 10 {
            overflow = true;
            continue;
        }
        let y = x * 10 + u64::from(c - b'0');
        if y > 1 << 63 {
            overflow = true;
            continue;
        }
        x = y;
        scale *= 10.0;
    }
    (x, scale, &s[i..])
}

/// `Duration.Round(m)` for positive `m`.
pub fn round_duration(d: i64, m: i64) -> i64 {
    if m <= 0 {
        return d;
    }
    let less_than_half = |r: i64| (r as u64).wrapping_add(r as u64) < m as u64;
    let r = d % m;
    if d < 0 {
        let r = -r;
        if less_than_half(r) {
            return d + r;
        }
        return match (d - m).checked_add(r) {
            Some(d1) if d1 < d => d1,
            _ => i64::MIN,
        };
    }
    if less_than_half(r) {
        return d - r;
    }
    match (d + r.wrapping_neg()).checked_add(m) {
        Some(d1) if d1 > d => d1,
        _ => i64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip() {
        for days in [-719_162, -1, 0, 1, 11_016, 19_787, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(19_787), (2024, 3, 5));
        assert_eq!(GoTime::zero().go_string(), "0001-01-01 00:00:00 +0000 UTC");
    }

    #[test]
    fn duration_strings() {
        for (d, want) in [
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (1_500_000, "1.5ms"),
            (1_500_000_000, "1.5s"),
            (3_600_000_000_000, "1h0m0s"),
            (-61_000_000_000, "-1m1s"),
            (i64::MIN, "-2562047h47m16.854775808s"),
        ] {
            assert_eq!(format_duration(d), want);
        }
        assert_eq!(parse_duration("1h2m3.5s"), Ok(3_723_500_000_000));
        assert_eq!(parse_duration("-1.5µs"), Ok(-1_500));
        assert_eq!(parse_duration(".5m"), Ok(30_000_000_000));
        assert_eq!(parse_duration("-0"), Ok(0));
        assert_eq!(parse_duration("-9223372036854775808ns"), Ok(i64::MIN));
        assert!(parse_duration("9223372036854775808ns").is_err());
        assert!(parse_duration(".s").is_err());
    }

    #[test]
    fn formatting() {
        let t = parse_in_local(
            "2006-01-02T15:04:05.999999999Z07:00",
            "2024-03-05T13:04:05.120-07:30",
        )
        .expect("valid");
        assert_eq!(
            t.format("Monday Jan _2 3:04:05.000 PM -07:00:00 Z0700 __2 002"),
            "Tuesday Mar  5 1:04:05.120 PM -07:30:00 -0730  65 065"
        );
        assert_eq!(t.rfc3339_nano(), "2024-03-05T13:04:05.12-07:30");
    }

    proptest::proptest! {
        #[test]
        fn parsing_never_panics(layout in ".{0,24}", value in ".{0,24}") {
            let _ = parse_in_local(&layout, &value);
            let _ = parse_duration(&value);
        }

        #[test]
        fn layout_soup_never_panics(layout in "[0-9JanMonMSTZ_:.,PpmT -]{0,20}", value in "[0-9a-zA-Z_:.,+ -]{0,20}") {
            if let Ok(t) = parse_in_local(&layout, &value) {
                let _ = t.format(&layout);
            }
        }
    }
}
