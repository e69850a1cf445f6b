/*!
The IP family of a Cluster's networks, as Cluster API v1.10.0's `Cluster.GetIPFamily` computes it.

Only the deprecated builtin `builtin.cluster.network.ipFamily` reads it, and only for Clusters
written in `cluster.x-k8s.io/v1beta1` (Cluster API v1.10.0); main dropped both the method's use
and the builtin. CIDRs are parsed by Go's `net.ParseCIDR` ([`crate::go::ip`]); an IPv4-mapped
IPv6 address counts as IPv4, as Go's `IP.To4` says.
*/

use crate::go::ip::{is_to4, parse_cidr};

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
        let (ip, _) = parse_cidr(cidr).map_err(|e| format!("could not parse CIDR: {e}"))?;
        if is_to4(ip) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
