/*!
Go's `net.ParseIP` and `net.ParseCIDR`, and k8s.io/utils' `ParseIPSloppy` and `ParseCIDRSloppy`
(the Go ≤ 1.16 rules Kubernetes keeps for the `ipv4` and `cidr` formats): one parser with a
"sloppy" switch, and Go's error text for CIDRs (`invalid CIDR address: <s>`).

Strict, as Go ≥ 1.17: IPv4 parts are one to three decimal digits without leading zeros; IPv6
groups are one to four hex digits, `::` stands for at least one zero group, an embedded IPv4
address only fills the last 32 bits, and a zone (`%eth0`) is refused. Sloppy: IPv4 parts (also
embedded ones) may carry leading zeros, read as decimal, and IPv6 groups may too.

Text without a `:` parses as [`IpAddr::V4`], text with one as [`IpAddr::V6`] (also
`::ffff:a.b.c.d`, which [`is_to4`] then counts as IPv4, as Go's `IP.To4` does). The CIDR prefix
limit follows the text: 32 for IPv4, 128 for IPv6.
*/

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `net.ParseIP`; `None` where Go returns nil.
pub fn parse_ip(s: &str) -> Option<IpAddr> {
    parse(s, false)
}

/// k8s.io/utils `ParseIPSloppy`.
pub fn parse_ip_sloppy(s: &str) -> Option<IpAddr> {
    parse(s, true)
}

/// `net.ParseCIDR`: the address and the prefix length, or Go's error text.
pub fn parse_cidr(s: &str) -> Result<(IpAddr, u8), String> {
    cidr(s, false)
}

/// k8s.io/utils `ParseCIDRSloppy`.
pub fn parse_cidr_sloppy(s: &str) -> Result<(IpAddr, u8), String> {
    cidr(s, true)
}

/// Go's `IP.To4() != nil`: IPv4, or IPv6 of the form `::ffff:a.b.c.d`.
pub fn is_to4(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(_) => true,
        IpAddr::V6(v6) => v6.to_ipv4_mapped().is_some(),
    }
}

fn parse(s: &str, sloppy: bool) -> Option<IpAddr> {
    if s.contains(':') {
        parse_ipv6(s, sloppy).map(|b| IpAddr::V6(Ipv6Addr::from(b)))
    } else {
        parse_ipv4(s, sloppy).map(|b| IpAddr::V4(Ipv4Addr::from(b)))
    }
}

fn cidr(s: &str, sloppy: bool) -> Result<(IpAddr, u8), String> {
    let err = || format!("invalid CIDR address: {s}");
    // Go cuts at the first '/'.
    let (addr, mask) = s.split_once('/').ok_or_else(err)?;
    let ip = parse(addr, sloppy).ok_or_else(err)?;
    let bits = if ip.is_ipv4() { 32 } else { 128 };
    match dtoi(mask) {
        Some(n) if n <= bits => u8::try_from(n).map(|n| (ip, n)).map_err(|_| err()),
        _ => Err(err()),
    }
}

/// Go's `dtoi` over all of `s`: decimal digits only (at least one, leading zeros allowed), giving
/// up at 0xFFFFFF.
fn dtoi(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    let mut n: u32 = 0;
    for b in s.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(b - b'0');
        if n >= 0x00FF_FFFF {
            return None;
        }
    }
    Some(n)
}

fn parse_ipv4(s: &str, sloppy: bool) -> Option<[u8; 4]> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut out = [0u8; 4];
    for (i, p) in parts.iter().enumerate() {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !sloppy && (p.len() > 3 || (p.len() > 1 && p.starts_with('0'))) {
            return None;
        }
        let trimmed = p.trim_start_matches('0');
        if trimmed.len() > 3 {
            return None;
        }
        let v: u32 = if trimmed.is_empty() {
            0
        } else {
            trimmed.parse().ok()?
        };
        out[i] = u8::try_from(v).ok()?;
    }
    Some(out)
}

fn parse_ipv6(s: &str, sloppy: bool) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    let mut rest = s;
    if let Some(r) = rest.strip_prefix("::") {
        ellipsis = Some(0);
        rest = r;
        if rest.is_empty() {
            return Some(ip);
        }
    }
    let mut j = 0;
    while j < 16 {
        let n = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        if n == 0 || (!sloppy && n > 4) {
            return None;
        }
        let digits = rest[..n].trim_start_matches('0');
        if digits.len() > 4 {
            return None;
        }
        let v = if digits.is_empty() {
            0
        } else {
            u32::from_str_radix(digits, 16).ok()?
        };
        if rest.as_bytes().get(n) == Some(&b'.') {
            if (ellipsis.is_none() && j != 12) || j + 4 > 16 {
                return None;
            }
            let v4 = parse_ipv4(rest, sloppy)?;
            ip[j..j + 4].copy_from_slice(&v4);
            j += 4;
            rest = "";
            break;
        }
        ip[j] = (v >> 8) as u8;
        ip[j + 1] = v as u8;
        j += 2;
        rest = &rest[n..];
        if rest.is_empty() {
            break;
        }
        rest = rest.strip_prefix(':')?;
        if rest.is_empty() {
            return None;
        }
        if let Some(r) = rest.strip_prefix(':') {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(j);
            rest = r;
            if rest.is_empty() {
                break;
            }
        }
    }
    if !rest.is_empty() {
        return None;
    }
    if j < 16 {
        let e = ellipsis?;
        let n = 16 - j;
        for k in (e..j).rev() {
            ip[k + n] = ip[k];
        }
        for b in ip.iter_mut().skip(e).take(n) {
            *b = 0;
        }
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_agrees_with_std() {
        // Rust's parsers follow the same RFC 4291 / no-leading-zero rules as Go ≥ 1.17.
        for s in [
            "1.2.3.4",
            "0.0.0.0",
            "255.255.255.255",
            "256.1.1.1",
            "01.2.3.4",
            "00.2.3.4",
            "1.2.3",
            "1.2.3.4.5",
            "1..2.3",
            "1.2.3.4 ",
            "+1.2.3.4",
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7::",
            "1:2:3:4:5:6:7:8::",
            "::1:2:3:4:5:6:7:8",
            "1::2::3",
            "12345::",
            "0001::",
            "00001::",
            ":1",
            "1:",
            ":::",
            "::ffff:1.2.3.4",
            "::1.2.3.4",
            "1:2:3:4:5:6:1.2.3.4",
            "1:2:3:4:5:1.2.3.4",
            "1:2:3:4:5:6:7:1.2.3.4",
            "::ffff:01.2.3.4",
            "::1.2.3.4:5",
            "fe80::1%eth0",
            "FE80::ABCD",
            "g::",
            "",
        ] {
            assert_eq!(parse_ip(s), s.parse::<IpAddr>().ok(), "{s:?}");
        }
    }

    #[test]
    fn sloppy_allows_leading_zeros() {
        assert_eq!(parse_ip("01.2.3.4"), None);
        assert_eq!(
            parse_ip_sloppy("010.002.3.4"),
            Some(IpAddr::V4(Ipv4Addr::new(10, 2, 3, 4)))
        );
        assert_eq!(parse_ip_sloppy("0256.1.1.1"), None);
        assert!(parse_ip_sloppy("00001::").is_some());
        assert!(parse_ip_sloppy("::ffff:01.2.3.4").is_some());
        assert_eq!(parse_ip_sloppy("1.2.3"), None);
    }

    #[test]
    fn cidr_parsing_follows_go() {
        for (s, ok) in [
            ("10.0.0.0/8", true),
            ("10.0.0.0/008", true),
            ("10.0.0.0/000000008", true),
            ("10.0.0.0/33", false),
            ("10.0.0.0/", false),
            ("10.0.0.0/+8", false),
            ("10.0.0.0", false),
            ("010.0.0.0/8", false),
            ("fd00::/8", true),
            ("fd00::/129", false),
            ("fe80::1%eth0/64", false),
            ("::ffff:10.0.0.0/104", true),
            ("::ffff:10.0.0.0/120", true),
            ("10.0.0.0/8/8", false),
        ] {
            assert_eq!(parse_cidr(s).is_ok(), ok, "{s}");
        }
        assert_eq!(
            parse_cidr("10.0.0.0/16"),
            Ok((IpAddr::V4(Ipv4Addr::new(10, 0, 0, 0)), 16))
        );
        assert_eq!(
            parse_cidr("x/1"),
            Err("invalid CIDR address: x/1".to_string())
        );
        assert!(parse_cidr_sloppy("010.0.0.0/8").is_ok());
        assert!(parse_cidr_sloppy("10.0.0.0/33").is_err());
        assert!(is_to4(
            parse_cidr("::ffff:10.0.0.0/104").map_or(IpAddr::V6(Ipv6Addr::LOCALHOST), |c| c.0)
        ));
        assert!(!is_to4(IpAddr::V6(Ipv6Addr::LOCALHOST)));
    }
}
