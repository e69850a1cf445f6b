/*!
The IP family of a Cluster's networks, as Cluster API v1.10.0's `Cluster.GetIPFamily` computes it.

Only the deprecated builtin `builtin.cluster.network.ipFamily` reads it, and only for Clusters
written in `cluster.x-k8s.io/v1beta1` (Cluster API v1.10.0); main dropped both the method's use
and the builtin. CIDRs are parsed the way Go's `net.ParseCIDR` does: the address must be a
plain IPv4 or IPv6 address (no zone, no leading zeros in IPv4 octets) and the prefix a run of
decimal digits no larger than the address length. An IPv4-mapped IPv6 address counts as IPv4,
as Go's `IP.To4` says.
*/

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `ClusterIPFamily` of Cluster API v1.10.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IpFamily {
    /// The CIDRs could not be parsed, are too many, or disagree.
    Invalid,
    /// IPv4 only (also the answer when no CIDR is given).
    IPv4,
    /// IPv6 only.
    IPv6,
    /// Both IPv4 and IPv6.
    DualStack,
}

impl IpFamily {
    /// The string the builtin carries (`ipFamilyToString`).
    pub fn as_str(self) -> &'static str {
        match self {
            IpFamily::Invalid => "Invalid",
            IpFamily::IPv4 => "IPv4",
            IpFamily::IPv6 => "IPv6",
            IpFamily::DualStack => "DualStack",
        }
    }
}

/// `GetIPFamily` over the pod and service CIDR blocks. The error says why the family is
/// [`IpFamily::Invalid`]; the builtin ignores it and uses `Invalid`.
pub fn cluster_ip_family(pods: &[&str], services: &[&str]) -> Result<IpFamily, String> {
    if pods.is_empty() && services.is_empty() {
        return Ok(IpFamily::IPv4);
    }
    let pods_family = family_of(pods).map_err(|e| format!("pods: {e}"))?;
    if services.is_empty() {
        return Ok(pods_family);
    }
    let services_family = family_of(services).map_err(|e| format!("services: {e}"))?;
    if pods.is_empty() {
        return Ok(services_family);
    }
    if pods_family == IpFamily::DualStack {
        Ok(IpFamily::DualStack)
    } else if pods_family != services_family {
        Err("pods and services IP family mismatch".into())
    } else {
        Ok(pods_family)
    }
}

/// `ipFamilyForCIDRStrings`: at most two CIDRs; the family of the addresses found.
fn family_of(cidrs: &[&str]) -> Result<IpFamily, String> {
    if cidrs.len() > 2 {
        return Err("too many CIDRs specified".into());
    }
    let (mut v4, mut v6) = (false, false);
    for cidr in cidrs {
        let ip = parse_cidr_ip(cidr)
            .ok_or_else(|| format!("could not parse CIDR: invalid CIDR address: {cidr}"))?;
        if is_v4(ip) {
            v4 = true;
        } else {
            v6 = true;
        }
    }
    Ok(match (v4, v6) {
        (true, true) => IpFamily::DualStack,
        (true, false) => IpFamily::IPv4,
        (false, true) => IpFamily::IPv6,
        (false, false) => IpFamily::Invalid,
    })
}

/// Go's `IP.To4() != nil`: IPv4, or IPv6 of the form `::ffff:a.b.c.d`.
fn is_v4(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(_) => true,
        IpAddr::V6(v6) => v6.to_ipv4_mapped().is_some(),
    }
}

/// The address part of `net.ParseCIDR(s)`, or `None` where Go returns an error.
fn parse_cidr_ip(s: &str) -> Option<IpAddr> {
    // Go cuts at the first '/'.
    let (addr, mask) = s.split_once('/')?;
    let (ip, bits) = if let Ok(v4) = addr.parse::<Ipv4Addr>() {
        (IpAddr::V4(v4), 32)
    } else {
        (IpAddr::V6(addr.parse::<Ipv6Addr>().ok()?), 128)
    };
    // `dtoi`: at least one digit, digits only, no sign.
    if mask.is_empty() || !mask.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Leading zeros are allowed; anything longer than a few digits is out of range anyway.
    let trimmed = mask.trim_start_matches('0');
    if trimmed.len() > 3 {
        return None;
    }
    let n: u32 = if trimmed.is_empty() {
        0
    } else {
        trimmed.parse().ok()?
    };
    (n <= bits).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidr_parsing_follows_go() {
        for (s, ok) in [
            ("10.0.0.0/8", true),
            ("10.0.0.0/008", true),
            ("10.0.0.0/33", false),
            ("10.0.0.0/", false),
            ("10.0.0.0/+8", false),
            ("10.0.0.0", false),
            ("010.0.0.0/8", false),
            ("fd00::/8", true),
            ("fd00::/129", false),
            ("fe80::1%eth0/64", false),
            ("::ffff:10.0.0.0/104", true),
            ("10.0.0.0/8/8", false),
        ] {
            assert_eq!(parse_cidr_ip(s).is_some(), ok, "{s}");
        }
    }

    #[test]
    fn families() {
        use IpFamily::*;
        let cases: &[(&[&str], &[&str], IpFamily)] = &[
            (&[], &[], IPv4),
            (&["192.168.0.0/16"], &[], IPv4),
            (&[], &["fd00::/108"], IPv6),
            (&["192.168.0.0/16"], &["10.128.0.0/12"], IPv4),
            (&["fd00:100::/64"], &["fd00::/108"], IPv6),
            (
                &["192.168.0.0/16", "fd00:100::/64"],
                &["10.128.0.0/12"],
                DualStack,
            ),
            (&["192.168.0.0/16", "fd00:100::/64"], &[], DualStack),
            (&[], &["10.0.0.0/8", "fd00::/108"], DualStack),
            (&["192.168.0.0/16"], &["fd00::/108"], Invalid),
            (&["a", "b", "c"], &[], Invalid),
            (&["bad"], &["10.0.0.0/8"], Invalid),
            (&["10.0.0.0/8"], &["bad"], Invalid),
            // A mapped address is IPv4 to Go.
            (&["::ffff:10.0.0.0/104"], &["10.128.0.0/12"], IPv4),
        ];
        for (pods, services, want) in cases {
            let got = cluster_ip_family(pods, services).unwrap_or(Invalid);
            assert_eq!(got, *want, "{pods:?} {services:?}");
        }
        assert_eq!(
            cluster_ip_family(&["192.168.0.0/16"], &["fd00::/108"]),
            Err("pods and services IP family mismatch".to_string())
        );
        assert_eq!(
            cluster_ip_family(&["x/1"], &[]),
            Err("pods: could not parse CIDR: invalid CIDR address: x/1".to_string())
        );
    }
}
