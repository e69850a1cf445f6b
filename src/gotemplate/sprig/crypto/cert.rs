/*!
Certificates: parsing a CA certificate leniently as Go does, names, validity times, requests, and
assembling and signing the DER that Go's `x509.CreateCertificate` writes.
*/

use sha1::Sha1;
use sha2::Digest;
use std::time::Duration;

use der::asn1::{Any, AnyRef, BitString, BitStringRef, Ia5String, OctetString};
use der::oid::AssociatedOid;
use der::oid::db::{rfc4519, rfc5280};
use der::{DateTime, Decode, Encode, Sequence, Tag, Tagged};
use x509_cert::Version;
use x509_cert::attr::AttributeTypeAndValue;
use x509_cert::ext::Extension;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsages,
    SubjectAltName, SubjectKeyIdentifier,
};
use x509_cert::name::{RdnSequence, RelativeDistinguishedName};
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};
use x509_cert::time::Time;

use super::asn1::der_error;
use super::cert_value::certificate_value;
use super::common::random_bytes;
use super::keys::{PrivateKey, key_pem, public_key_info, sign, signature_algorithm};
use super::pem::pem_encode;
use crate::gotemplate::value::Value;

/// What `genSignedCert` needs from the CA certificate.
pub(super) struct Issuer {
    /// Its subject Name, as it is encoded there (our issuer).
    pub(super) subject: Any,
    /// Its subject key identifier, if any.
    pub(super) key_id: Option<Vec<u8>>,
    /// Its SubjectPublicKeyInfo, to check the CA key against.
    spki: SubjectPublicKeyInfoOwned,
}

/// A certificate as `genSignedCert` reads it: the parts it uses decoded, the rest only
/// delimited. Not `x509_cert::Certificate`, which is stricter than Go's `x509.ParseCertificate`
/// in ways a template can meet: its times start in 1970 (a CA made here with a negative day
/// count expires earlier) and its names must have their SET OF members in DER order.
#[derive(Sequence)]
struct CertificateView<'a> {
    tbs_certificate: TbsCertificateView<'a>,
    _signature_algorithm: AnyRef<'a>,
    _signature: BitStringRef<'a>,
}

#[derive(Sequence)]
struct TbsCertificateView<'a> {
    #[asn1(context_specific = "0", optional = "true")]
    _version: Option<AnyRef<'a>>,
    _serial_number: AnyRef<'a>,
    _signature: AnyRef<'a>,
    _issuer: AnyRef<'a>,
    _validity: AnyRef<'a>,
    subject: AnyRef<'a>,
    subject_public_key_info: SubjectPublicKeyInfoOwned,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    _issuer_unique_id: Option<BitStringRef<'a>>,
    #[asn1(context_specific = "2", tag_mode = "IMPLICIT", optional = "true")]
    _subject_unique_id: Option<BitStringRef<'a>>,
    #[asn1(context_specific = "3", optional = "true")]
    extensions: Option<Vec<Extension>>,
}

/// Enough of `x509.ParseCertificate` to find the fields Sprig uses and to refuse what is not
/// a certificate.
pub(super) fn parse_certificate(der: &[u8]) -> Result<Issuer, String> {
    let malformed = || "x509: malformed certificate".to_string();
    let cert = CertificateView::from_der(der).map_err(|_| malformed())?;
    let tbs = cert.tbs_certificate;
    if tbs.subject.tag() != Tag::Sequence {
        return Err(malformed());
    }
    let mut key_id = None;
    for e in tbs.extensions.iter().flatten() {
        if e.extn_id == SubjectKeyIdentifier::OID {
            let ski =
                SubjectKeyIdentifier::from_der(e.extn_value.as_bytes()).map_err(|_| malformed())?;
            key_id = Some(ski.0.as_bytes().to_vec());
        }
    }
    Ok(Issuer {
        subject: tbs.subject.into(),
        key_id,
        spki: tbs.subject_public_key_info,
    })
}

/// `pkix.Name{CommonName: cn}`: PrintableString when Go's `encoding/asn1` allows it (with
/// `*`), UTF8String otherwise; no RDN at all for an empty name. The value is written as a raw
/// element because `der`'s PrintableString refuses the `*` that Go's accepts.
pub(super) fn common_name(cn: &str) -> Result<RdnSequence, String> {
    let mut name = RdnSequence::default();
    if cn.is_empty() {
        return Ok(name);
    }
    let printable = cn.bytes().all(|b| {
        b.is_ascii_alphanumeric()
            || matches!(
                b,
                b' ' | b'\''
                    | b'('
                    | b')'
                    | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b'/'
                    | b':'
                    | b'='
                    | b'?'
                    | b'*'
            )
    });
    let tag = if printable {
        Tag::PrintableString
    } else {
        Tag::Utf8String
    };
    let mut rdn = RelativeDistinguishedName::default();
    rdn.insert(AttributeTypeAndValue {
        oid: rfc4519::CN,
        value: Any::new(tag, cn.as_bytes()).map_err(der_error)?,
    })
    .map_err(der_error)?;
    name.push(rdn);
    Ok(name)
}

fn generalized_time_error() -> String {
    "asn1: structure error: cannot represent time as GeneralizedTime".to_string()
}

/// A validity time as Go writes it: UTCTime for 1950–2049, GeneralizedTime otherwise
/// (RFC 5280). From 1970 on that is `x509-cert`'s `Time`; `der`'s dates start in 1970, and Go's
/// day count (negative, or wrapped around) reaches back to the 18th century, so earlier times
/// are written here.
pub(super) fn validity_time(unix: i64) -> Result<Any, String> {
    if let Ok(secs) = u64::try_from(unix) {
        let date = DateTime::from_unix_duration(Duration::from_secs(secs))
            .map_err(|_| generalized_time_error())?;
        return Any::encode_from(&Time::from(date)).map_err(der_error);
    }
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (y, m, d) = crate::go::time::civil_date(days);
    let clock = format!(
        "{m:02}{d:02}{:02}{:02}{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    );
    let (tag, text) = if (1950..2050).contains(&y) {
        (Tag::UtcTime, format!("{:02}{clock}", y % 100))
    } else if (0..=9999).contains(&y) {
        (Tag::GeneralizedTime, format!("{y:04}{clock}"))
    } else {
        return Err(generalized_time_error());
    };
    Any::new(tag, text.into_bytes()).map_err(der_error)
}

/// Go's `net.ParseIP`, in the form the certificate gets: x509's `marshalSANs` writes every
/// address that has an IPv4 form (`To4`, which includes IPv4-mapped IPv6) as 4 bytes, others
/// as 16.
pub(super) fn parse_ip(s: &str) -> Option<Vec<u8>> {
    Some(match crate::go::ip::parse_ip(s)? {
        std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
        std::net::IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.octets().to_vec(),
            None => v6.octets().to_vec(),
        },
    })
}

/// The `[]interface{}` arguments of the certificate functions: nil is "none".
fn list_items(v: Option<&Value>) -> Result<Vec<Value>, String> {
    match v {
        None | Some(Value::Nil) | Some(Value::Invalid) => Ok(Vec::new()),
        Some(Value::Slice(s)) => Ok(s.items.clone()),
        Some(other) => Err(format!(
            "wrong type for value; expected []interface {{}}; got {}",
            other
                .go_type()
                .map_or_else(|| "<nil>".to_string(), |t| t.name())
        )),
    }
}

/// `%v` of a non-string list item, for Sprig's "is not a string" errors.
fn show(v: &Value) -> String {
    crate::gotemplate::print::sprint_value(v)
}

pub(super) struct CertRequest {
    cn: String,
    ips: Vec<Vec<u8>>,
    dns: Vec<String>,
    days: i64,
    is_ca: bool,
}

pub(super) fn cert_request(
    cn: &str,
    ips: Option<&Value>,
    dns: Option<&Value>,
    days: Option<&Value>,
    is_ca: bool,
) -> Result<CertRequest, String> {
    let mut ip_bytes = Vec::new();
    for ip in list_items(ips)? {
        let Value::String(s) = &ip else {
            return Err(format!("error parsing ip: {} is not a string", show(&ip)));
        };
        ip_bytes.push(parse_ip(s).ok_or_else(|| format!("error parsing ip: {s}"))?);
    }
    let mut names = Vec::new();
    for name in list_items(dns)? {
        let Value::String(s) = &name else {
            return Err(format!(
                "error processing alternate dns name: {} is not a string",
                show(&name)
            ));
        };
        names.push(s.to_string());
    }
    Ok(CertRequest {
        cn: cn.to_string(),
        ips: ip_bytes,
        dns: names,
        days: int_arg(days)?,
        is_ca,
    })
}

/// An `int` parameter (Go converts literals; JSON numbers are float64 and refused).
fn int_arg(v: Option<&Value>) -> Result<i64, String> {
    match v {
        Some(Value::Int(n)) => Ok(*n),
        other => Err(format!(
            "wrong type for value; expected int; got {}",
            other
                .and_then(Value::go_type)
                .map_or_else(|| "<nil>".to_string(), |t| t.name())
        )),
    }
}

/// `x509.CreateCertificate` for Sprig's template, then PEM of certificate and subject key.
pub(super) fn create_certificate(
    req: &CertRequest,
    subject_key: &PrivateKey,
    issuer: Option<(&Issuer, &PrivateKey)>,
) -> Result<Value, String> {
    let created = build_certificate(req, subject_key, issuer)
        .map_err(|e| format!("error creating certificate: {e}"))?;
    let key = key_pem(subject_key).map_err(|e| format!("error pem-encoding key: {e}"))?;
    Ok(certificate_value(pem_encode("CERTIFICATE", &created), key))
}

/// RFC 5280's TBSCertificate with Go's field types. `x509-cert`'s own can only be built by its
/// certificate builder, whose validity cannot hold the times before 1970 that Go writes.
#[derive(Sequence)]
struct TbsCertificate {
    #[asn1(context_specific = "0", default = "Default::default")]
    version: Version,
    serial_number: SerialNumber,
    signature: AlgorithmIdentifierOwned,
    /// The issuer's subject as the issuer's certificate encodes it (Go copies `RawSubject`).
    issuer: Any,
    validity: Validity,
    subject: RdnSequence,
    subject_public_key_info: SubjectPublicKeyInfoOwned,
    #[asn1(context_specific = "3", optional = "true")]
    extensions: Option<Vec<Extension>>,
}

/// Not before and not after, each from [`validity_time`].
#[derive(Sequence)]
struct Validity {
    not_before: Any,
    not_after: Any,
}

#[derive(Sequence)]
struct Certificate {
    tbs_certificate: TbsCertificate,
    signature_algorithm: AlgorithmIdentifierOwned,
    signature: BitString,
}

fn build_certificate(
    req: &CertRequest,
    subject_key: &PrivateKey,
    issuer: Option<(&Issuer, &PrivateKey)>,
) -> Result<Vec<u8>, String> {
    // A random positive serial below 2^128.
    let mut serial = [0u8; 16];
    random_bytes(&mut serial)?;
    build_certificate_at(req, subject_key, issuer, &serial, GoTimeNow::get())
}

/// The certificate for a given serial (big-endian magnitude) and clock reading; the signature
/// is the only other input, and it is deterministic for every key kind we sign with.
pub(super) fn build_certificate_at(
    req: &CertRequest,
    subject_key: &PrivateKey,
    issuer: Option<(&Issuer, &PrivateKey)>,
    serial: &[u8],
    now: GoTimeNow,
) -> Result<Vec<u8>, String> {
    let signing_key = issuer.map_or(subject_key, |(_, k)| k);
    let sig_alg = signature_algorithm(signing_key)?;
    let public = public_key_info(subject_key)?;
    let subject = common_name(&req.cn)?;
    let subject_der = Any::encode_from(&subject).map_err(der_error)?;
    let issuer_name = issuer.map_or_else(|| subject_der.clone(), |(i, _)| i.subject.clone());
    if let Some((i, k)) = issuer {
        let signer_public = public_key_info(k)?;
        if signer_public.spki != i.spki {
            return Err("x509: provided PrivateKey doesn't match parent's PublicKey".to_string());
        }
    }
    let not_after = now.wrapping_add_days(req.days);
    let validity = Validity {
        not_before: validity_time(now.unix)?,
        not_after: validity_time(not_after)?,
    };

    // Go's order and criticality: key usage, extended key usage, basic constraints, subject
    // key id (CAs), authority key id (when the issuer is another certificate), alternative
    // names.
    let mut usage = KeyUsages::DigitalSignature | KeyUsages::KeyEncipherment;
    if req.is_ca {
        usage |= KeyUsages::KeyCertSign;
    }
    let mut extensions = vec![
        extension(&KeyUsage(usage), true)?,
        extension(
            &ExtendedKeyUsage(vec![rfc5280::ID_KP_SERVER_AUTH, rfc5280::ID_KP_CLIENT_AUTH]),
            false,
        )?,
        extension(
            &BasicConstraints {
                ca: req.is_ca,
                path_len_constraint: None,
            },
            true,
        )?,
    ];
    if req.is_ca {
        let ski = Sha1::digest(&public.key_bits);
        extensions.push(extension(
            &SubjectKeyIdentifier(OctetString::new(ski.as_slice()).map_err(der_error)?),
            false,
        )?);
    }
    if let Some((i, _)) = issuer
        && i.subject != subject_der
        && let Some(kid) = &i.key_id
        && !kid.is_empty()
    {
        let aki = AuthorityKeyIdentifier {
            key_identifier: Some(OctetString::new(kid.as_slice()).map_err(der_error)?),
            authority_cert_issuer: None,
            authority_cert_serial_number: None,
        };
        extensions.push(extension(&aki, false)?);
    }
    if !req.dns.is_empty() || !req.ips.is_empty() {
        let mut names = Vec::new();
        for name in &req.dns {
            if !name.is_ascii() {
                return Err(format!("x509: {name:?} cannot be encoded as an IA5String"));
            }
            names.push(GeneralName::DnsName(
                Ia5String::new(name).map_err(der_error)?,
            ));
        }
        for ip in &req.ips {
            names.push(GeneralName::IpAddress(
                OctetString::new(ip.as_slice()).map_err(der_error)?,
            ));
        }
        // RFC 5280: critical when the subject is empty.
        extensions.push(extension(&SubjectAltName(names), req.cn.is_empty())?);
    }

    let tbs = TbsCertificate {
        version: Version::V3,
        serial_number: SerialNumber::new(serial).map_err(der_error)?,
        signature: sig_alg.clone(),
        issuer: issuer_name,
        validity,
        subject,
        subject_public_key_info: public.spki,
        extensions: Some(extensions),
    };
    let signature = sign(signing_key, &tbs.to_der().map_err(der_error)?)?;
    Certificate {
        tbs_certificate: tbs,
        signature_algorithm: sig_alg,
        signature: BitString::from_bytes(&signature).map_err(der_error)?,
    }
    .to_der()
    .map_err(der_error)
}

/// An extension holding `value`'s DER.
fn extension<T: Encode + AssociatedOid>(value: &T, critical: bool) -> Result<Extension, String> {
    Ok(Extension {
        extn_id: T::OID,
        critical,
        extn_value: OctetString::new(value.to_der().map_err(der_error)?).map_err(der_error)?,
    })
}

/// The clock, for validity periods.
pub(super) struct GoTimeNow {
    pub(super) unix: i64,
}

impl GoTimeNow {
    pub(super) fn get() -> GoTimeNow {
        let unix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        GoTimeNow { unix }
    }

    /// `now.Add(time.Hour * 24 * time.Duration(days))`, with Go's wrapping multiplication.
    fn wrapping_add_days(&self, days: i64) -> i64 {
        let nanos = 86_400_000_000_000i64.wrapping_mul(days);
        self.unix + nanos / 1_000_000_000
    }
}
