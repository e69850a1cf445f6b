/*!
Sprig's hermetic date functions — `toDate`, `mustToDate`, `unixEpoch`, `mustDateModify` (and its
alias `must_date_modify`), `duration`, `durationRound`, `ago` — and the part of Go's `time`
package they stand on: layouts (`2006-01-02T15:04:05Z07:00`), `time.ParseInLocation`,
`Time.Format` and `Time.String`, `time.ParseDuration` and `Duration.String`.

The process's local zone is taken to be UTC, as in a Cluster API controller container (and on
the oracle machine): `toDate` results print as `2024-03-05 00:00:00 +0000 UTC` and their
location is named `Local`.

`time.Time` is its own Go type (`%T` is `time.Time`, `toJson` gives RFC 3339, `.Year` and
`.Format` are methods), so [`GoTime`] models it exactly. Until the value model has a variant for
it, a time travels between functions as the string Go's `String()` prints — lossless (it keeps
nanoseconds, offset and zone name), and read back by [`time_of`]; only [`time_value`] and
[`time_of`] change when the variant lands (see their docs).

`ago` and a `durationRound` of a time read the system clock; everything else is deterministic.
*/

use std::cmp::Ordering;
use std::sync::Arc;

use crate::go::time::*;
use crate::gotemplate::func::{Func, Param};
use crate::gotemplate::value::Value;

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// A `time.Time` as a template value.
///
/// Interim: the value model has no time variant yet, so this is the `string` Go's `String()`
/// prints. What value.rs needs instead: `Value::Time(Arc<GoTime>)` with
/// `GoType::Time` (`%T` `time.Time`, kind `struct`, always true), printed by `%v`/`%s` through
/// [`GoTime::go_string`], marshalled by `toJson`/`toPrettyJson`/`toRawJson` as
/// `"` + [`GoTime::rfc3339_nano`] + `"`, with methods through [`time_method`], and a
/// `Param::Time` so `unixEpoch "x"` fails like Go (`can't handle "x" for arg of type
/// time.Time`). Then this returns that variant.
pub fn time_value(t: GoTime) -> Value {
    Value::str(t.go_string())
}

/// The `time.Time` inside a value (interim: parsed back from the `String()` form, which keeps
/// every field; see [`time_value`]).
pub fn time_of(v: &Value) -> Option<GoTime> {
    let s = v.as_str()?;
    // `<date> <clock> <offset> <zone>`; an unnamed zone prints its offset again as the name,
    // which Go's own parser would refuse (`-0730` is no abbreviation), so split it off here.
    let (rest, name) = s.rsplit_once(' ')?;
    let (_, offset_text) = rest.rsplit_once(' ')?;
    let t = parse_in_local("2006-01-02 15:04:05.999999999 -0700", rest).ok()?;
    let zone = match name {
        "UTC" if t.offset == 0 => Zone::Local,
        n if n == offset_text => Zone::Fixed(String::new()),
        n => Zone::Fixed(n.to_string()),
    };
    Some(GoTime { zone, ..t })
}

fn wrong_time(v: Option<&Value>) -> String {
    let got = v
        .and_then(Value::go_type)
        .map_or_else(|| "<nil>".to_string(), |t| t.name());
    format!("wrong type for value; expected time.Time; got {got}")
}

fn time_arg(args: &[Value], i: usize) -> Result<GoTime, String> {
    args.get(i)
        .and_then(time_of)
        .ok_or_else(|| wrong_time(args.get(i)))
}

fn arg_str(args: &[Value], i: usize) -> &str {
    args.get(i).and_then(Value::as_str).unwrap_or("")
}

/// Sprig's `toDate`: parse in the local zone; unparsable input gives the zero time.
fn to_date(args: &[Value]) -> Result<Value, String> {
    let t = parse_in_local(arg_str(args, 0), arg_str(args, 1)).unwrap_or_else(|_| GoTime::zero());
    Ok(time_value(t))
}

fn must_to_date(args: &[Value]) -> Result<Value, String> {
    parse_in_local(arg_str(args, 0), arg_str(args, 1)).map(time_value)
}

fn unix_epoch(args: &[Value]) -> Result<Value, String> {
    Ok(Value::str(time_arg(args, 0)?.unix.to_string()))
}

fn must_date_modify(args: &[Value]) -> Result<Value, String> {
    let t = time_arg(args, 1)?;
    let d = parse_duration(arg_str(args, 0))?;
    Ok(time_value(t.add(d)))
}

/// Sprig's `duration`: seconds from a decimal string or an `int64`; anything else (float64
/// from JSON, an `int` literal) counts as 0. Go multiplies with wrap-around.
fn duration(args: &[Value]) -> Result<Value, String> {
    let n = match args.first() {
        Some(Value::String(s)) => s.parse::<i64>().unwrap_or(0),
        Some(Value::Int64(n)) => *n,
        _ => 0,
    };
    Ok(Value::str(format_duration(n.wrapping_mul(SECOND as i64))))
}

/// Sprig's `durationRound`: the largest whole unit (`y` = 365 days, `mo` = 30 days, `d`, `h`,
/// `m`, `s`) strictly exceeded, truncated.
fn duration_round(args: &[Value]) -> Result<Value, String> {
    let d: i64 = match args.first() {
        Some(Value::String(s)) => parse_duration(s).unwrap_or(0),
        Some(Value::Int64(n)) => *n,
        Some(v) => time_of(v).map_or(0, |t| t.since()),
        None => 0,
    };
    let u = d.unsigned_abs();
    let day = 24 * HOUR;
    let units = [
        (365 * day, "y"),
        (30 * day, "mo"),
        (day, "d"),
        (HOUR, "h"),
        (MINUTE, "m"),
        (SECOND, "s"),
    ];
    for (size, suffix) in units {
        if u > size {
            return Ok(Value::str(format!("{}{suffix}", u / size)));
        }
    }
    Ok(Value::str("0s"))
}

/// Sprig's `ago`: time since a `time.Time`, or Unix seconds given as `int`/`int64`, rounded
/// to the second; anything else is "now", so `0s`.
fn ago(args: &[Value]) -> Result<Value, String> {
    let t = match args.first() {
        Some(Value::Int(n)) | Some(Value::Int64(n)) => Some(GoTime::from_unix(*n)),
        Some(v) => time_of(v),
        None => None,
    };
    let d = t.map_or(0, |t| round_duration(t.since(), SECOND as i64));
    Ok(Value::str(format_duration(d)))
}

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func {
        name: "ago",
        params: &[Param::Any],
        variadic: None,
        imp: ago,
    },
    Func {
        name: "duration",
        params: &[Param::Any],
        variadic: None,
        imp: duration,
    },
    Func {
        name: "durationRound",
        params: &[Param::Any],
        variadic: None,
        imp: duration_round,
    },
    Func {
        name: "toDate",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: to_date,
    },
    Func {
        name: "mustToDate",
        params: &[Param::String, Param::String],
        variadic: None,
        imp: must_to_date,
    },
    // `time.Time` parameters: `Param::Any` until the value model has a time type.
    Func {
        name: "unixEpoch",
        params: &[Param::Any],
        variadic: None,
        imp: unix_epoch,
    },
    Func {
        name: "mustDateModify",
        params: &[Param::String, Param::Any],
        variadic: None,
        imp: must_date_modify,
    },
    Func {
        name: "must_date_modify",
        params: &[Param::String, Param::Any],
        variadic: None,
        imp: must_date_modify,
    },
];

// ---------------------------------------------------------------------------------------------
// Methods
// ---------------------------------------------------------------------------------------------

/// Call a `time.Time` method from a template (`$t.Year`, `$t.Format "Jan 2"`, `$t.Unix`, …).
///
/// `None`: no such method here. Covered: `String`, `Format`, `Unix`, `UnixMilli`, `UnixMicro`,
/// `UnixNano`, `Year`, `Day`, `Hour`, `Minute`, `Second`, `Nanosecond`, `YearDay`, `IsZero`,
/// `UTC`, `Local`, `Before`, `After`, `Equal`, `Compare`, `MarshalJSON`, `MarshalText`,
/// `Location` (as its name). Not covered, because their results are Go types the value model
/// lacks (`time.Month`, `time.Weekday`, `time.Duration` print through `String()` but format
/// `%d` as numbers): `Month`, `Weekday`, `Sub`, `Round`, `Truncate`, `Add`, `AddDate`.
pub fn time_method(t: &GoTime, name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let want = match name {
        "Format" | "Before" | "After" | "Equal" | "Compare" => 1,
        "String" | "Unix" | "UnixMilli" | "UnixMicro" | "UnixNano" | "Year" | "Day" | "Hour"
        | "Minute" | "Second" | "Nanosecond" | "YearDay" | "IsZero" | "UTC" | "Local"
        | "MarshalJSON" | "MarshalText" | "Location" => 0,
        _ => return None,
    };
    if args.len() != want {
        return Some(Err(format!(
            "wrong number of args for {name}: want {want} got {}",
            args.len()
        )));
    }
    let f = t.fields();
    let nanos = t.total_nanos();
    let int = |x: i64| Value::Int(x);
    // Go's UnixNano wraps outside ±292 years; the others cannot overflow for parsed years.
    let wrap = |x: i128| Value::Int64(x as i64);
    Some(Ok(match name {
        "String" => Value::str(t.go_string()),
        "Format" => match args.first() {
            Some(Value::String(layout)) => Value::str(t.format(layout)),
            other => {
                let got = other
                    .and_then(Value::go_type)
                    .map_or_else(|| "<nil>".to_string(), |t| t.name());
                return Some(Err(format!(
                    "wrong type for value; expected string; got {got}"
                )));
            }
        },
        "Unix" => Value::Int64(t.unix),
        "UnixMilli" => wrap(nanos.div_euclid(1_000_000)),
        "UnixMicro" => wrap(nanos.div_euclid(1_000)),
        "UnixNano" => wrap(nanos),
        "Year" => int(f.year),
        "Day" => int(f.day),
        "Hour" => int(f.hour),
        "Minute" => int(f.minute),
        "Second" => int(f.second),
        "Nanosecond" => int(i64::from(t.nsec)),
        "YearDay" => int(f.yday),
        "IsZero" => Value::Bool(t.unix == ZERO_TIME_UNIX && t.nsec == 0),
        "UTC" => time_value(GoTime {
            offset: 0,
            zone: Zone::Utc,
            ..t.clone()
        }),
        "Local" => time_value(GoTime {
            offset: 0,
            zone: Zone::Local,
            ..t.clone()
        }),
        "MarshalJSON" => Value::Bytes(Arc::from(format!("\"{}\"", t.rfc3339_nano()).into_bytes())),
        "MarshalText" => Value::Bytes(Arc::from(t.rfc3339_nano().into_bytes())),
        "Location" => Value::str(t.location_name()),
        _ => {
            let other = match args.first().and_then(time_of) {
                Some(o) => o,
                None => return Some(Err(wrong_time(args.first()))),
            };
            let ord = nanos.cmp(&other.total_nanos());
            match name {
                "Before" => Value::Bool(ord == Ordering::Less),
                "After" => Value::Bool(ord == Ordering::Greater),
                "Equal" => Value::Bool(ord == Ordering::Equal),
                _ => int(match ord {
                    Ordering::Less => -1,
                    Ordering::Equal => 0,
                    Ordering::Greater => 1,
                }),
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::str(v)
    }

    fn call(f: fn(&[Value]) -> Result<Value, String>, args: &[Value]) -> Result<String, String> {
        f(args).map(|v| v.as_str().unwrap_or("<not a string>").to_string())
    }

    #[test]
    fn to_date_like_go() {
        let cases = [
            ("2006-01-02", "2024-03-05", "2024-03-05 00:00:00 +0000 UTC"),
            ("2006-01-02", "junk", "0001-01-01 00:00:00 +0000 UTC"),
            (
                "2006-01-02T15:04:05Z07:00",
                "2024-03-05T10:11:12+02:00",
                "2024-03-05 10:11:12 +0200 +0200",
            ),
            (
                "2006-01-02T15:04:05Z07:00",
                "2024-03-05T10:11:12Z",
                "2024-03-05 10:11:12 +0000 UTC",
            ),
            (
                "2006-01-02 MST",
                "2024-03-05 CEST",
                "2024-03-05 00:00:00 +0000 CEST",
            ),
            (
                "2006-01-02 MST",
                "2024-03-05 GMT+3",
                "2024-03-05 03:00:00 +0300 GMT+3",
            ),
            (
                "2006-01-02 15:04:05.999999999 -0700 MST",
                "2024-03-05 00:00:00.5 +0200 UTC",
                "2024-03-05 00:00:00.5 +0000 UTC",
            ),
            (
                "Jan _2 15:04:05.000",
                "Mar  5 10:11:12.123",
                "0000-03-05 10:11:12.123 +0000 UTC",
            ),
            (
                "02/01/06 3:04PM",
                "05/03/24 1:04AM",
                "2024-03-05 01:04:00 +0000 UTC",
            ),
            ("2006-002", "2024-060", "2024-02-29 00:00:00 +0000 UTC"),
            ("2006-01-02", "2024-02-30", "0001-01-01 00:00:00 +0000 UTC"),
        ];
        for (layout, value, want) in cases {
            assert_eq!(
                call(to_date, &[s(layout), s(value)]).as_deref(),
                Ok(want),
                "{layout} {value}"
            );
        }
    }

    #[test]
    fn parse_errors_like_go() {
        let cases = [
            (
                "2006-01-02",
                "junk",
                r#"parsing time "junk" as "2006-01-02": cannot parse "junk" as "2006""#,
            ),
            (
                "15:04",
                "25:00",
                r#"parsing time "25:00": hour out of range"#,
            ),
            (
                "2006-01-02",
                "2024-02-30",
                r#"parsing time "2024-02-30": day out of range"#,
            ),
            (
                "2006-01-02",
                "2024-02-03x",
                r#"parsing time "2024-02-03x": extra text: "x""#,
            ),
            (
                "2006-01-02",
                "2024-2-03",
                r#"parsing time "2024-2-03" as "2006-01-02": cannot parse "2-03" as "01""#,
            ),
        ];
        for (layout, value, want) in cases {
            assert_eq!(
                call(must_to_date, &[s(layout), s(value)]),
                Err(want.to_string())
            );
        }
    }

    #[test]
    fn epoch_and_modify() {
        let t = to_date(&[s("2006-01-02"), s("2024-03-05")]).expect("date");
        assert_eq!(
            call(unix_epoch, std::slice::from_ref(&t)).as_deref(),
            Ok("1709596800")
        );
        let zero = to_date(&[s("2006-01-02"), s("x")]).expect("date");
        assert_eq!(call(unix_epoch, &[zero]).as_deref(), Ok("-62135596800"));
        assert_eq!(
            call(must_date_modify, &[s("1h30m"), t.clone()]).as_deref(),
            Ok("2024-03-05 01:30:00 +0000 UTC")
        );
        assert_eq!(
            call(must_date_modify, &[s("-1.5h"), t.clone()]).as_deref(),
            Ok("2024-03-04 22:30:00 +0000 UTC")
        );
        assert_eq!(
            call(must_date_modify, &[s("1d"), t.clone()]),
            Err(r#"time: unknown unit "d" in duration "1d""#.into())
        );
        assert_eq!(
            call(must_date_modify, &[s(""), t.clone()]),
            Err(r#"time: invalid duration """#.into())
        );
        assert_eq!(
            call(must_date_modify, &[s("1"), t]),
            Err(r#"time: missing unit in duration "1""#.into())
        );
    }

    #[test]
    fn durations_like_sprig() {
        assert_eq!(call(duration, &[Value::Int(60)]).as_deref(), Ok("0s"));
        assert_eq!(call(duration, &[s("60")]).as_deref(), Ok("1m0s"));
        assert_eq!(call(duration, &[Value::Float(60.0)]).as_deref(), Ok("0s"));
        assert_eq!(
            call(duration, &[Value::Int64(3661)]).as_deref(),
            Ok("1h1m1s")
        );
        assert_eq!(call(duration, &[s("-90")]).as_deref(), Ok("-1m30s"));
        assert_eq!(
            call(duration, &[s("9223372036854775807")]).as_deref(),
            Ok("-1s")
        );
        assert_eq!(
            call(duration, &[s("90000000000")]).as_deref(),
            Ok("-620477h52m48.54775808s")
        );
        let round = |v: Value| call(duration_round, &[v]);
        assert_eq!(round(s("2h30m")).as_deref(), Ok("2h"));
        assert_eq!(round(s("1h")).as_deref(), Ok("60m"));
        assert_eq!(round(s("-49h")).as_deref(), Ok("2d"));
        assert_eq!(round(s("9000h")).as_deref(), Ok("1y"));
        assert_eq!(round(s("800h")).as_deref(), Ok("1mo"));
        assert_eq!(round(Value::Int64(1_000_000_000)).as_deref(), Ok("0s"));
        assert_eq!(round(Value::Int(5)).as_deref(), Ok("0s"));
        assert_eq!(call(ago, &[s("x")]).as_deref(), Ok("0s"));
        assert_eq!(call(ago, &[Value::Float(5.0)]).as_deref(), Ok("0s"));
        assert!(call(ago, &[Value::Int(0)]).is_ok_and(|s| s.ends_with('s') && s.contains('h')));
    }

    #[test]
    fn time_methods() {
        let t = parse_in_local(
            "2006-01-02T15:04:05.999999999Z07:00",
            "2024-03-05T13:04:05.120-07:30",
        )
        .expect("valid");
        assert_eq!(time_method(&t, "Year", &[]), Some(Ok(Value::Int(2024))));
        assert_eq!(time_method(&t, "YearDay", &[]), Some(Ok(Value::Int(65))));
        assert_eq!(
            time_method(&t, "Format", &[s("Jan 2, 2006 at 3:04pm (MST)")]),
            Some(Ok(s("Mar 5, 2024 at 1:04pm (-0730)")))
        );
        assert!(time_method(&t, "Month", &[]).is_none());
        let back = time_of(&time_value(t.clone())).expect("round trip");
        assert_eq!(back.unix, t.unix);
        assert_eq!(back.nsec, t.nsec);
    }
}
