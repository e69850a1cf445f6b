/*!
Sprig's key and certificate template functions: `genPrivateKey`, `buildCustomCert`, `genCA`,
`genCAWithKey`, `genSelfSignedCert`, `genSelfSignedCertWithKey`, `genSignedCert`,
`genSignedCertWithKey`.
*/

use super::cert::{cert_request, create_certificate, parse_certificate};
use super::cert_value::{certificate_of, certificate_value};
use super::common::arg_str;
use super::keys::{PrivateKey, generate_key, generate_rsa, key_pem, parse_private_key_pem};
use super::pem::pem_decode;
use crate::go::base64;
use crate::gotemplate::value::Value;

pub(super) fn gen_private_key(args: &[Value]) -> Result<Value, String> {
    let kind = arg_str(args, 0);
    let key = match generate_key(kind) {
        Ok(Some(k)) => k,
        Ok(None) => return Ok(Value::str(format!("Unknown type {kind}"))),
        Err(e) => return Ok(Value::str(format!("failed to generate private key: {e}"))),
    };
    // Sprig prints whatever pem.EncodeToMemory gives, even for a key it cannot encode.
    Ok(Value::str(key_pem(&key).unwrap_or_default()))
}

pub(super) fn build_custom_cert(args: &[Value]) -> Result<Value, String> {
    let cert = base64::decode(arg_str(args, 0).as_bytes())
        .map_err(|_| "unable to decode base64 certificate".to_string())?;
    let key = base64::decode(arg_str(args, 1).as_bytes())
        .map_err(|_| "unable to decode base64 private key".to_string())?;
    let cert_text = String::from_utf8_lossy(&cert).into_owned();
    let key_text = String::from_utf8_lossy(&key).into_owned();
    let (_, der) = pem_decode(&cert_text).ok_or("unable to decode certificate")?;
    parse_certificate(&der)
        .map_err(|e| format!("error parsing certificate: decodedCert.Bytes: {e}"))?;
    parse_private_key_pem(&key_text).map_err(|e| format!("error parsing private key: {e}"))?;
    Ok(certificate_value(cert_text, key_text))
}

fn key_from_pem_arg(args: &[Value], i: usize) -> Result<PrivateKey, String> {
    parse_private_key_pem(arg_str(args, i)).map_err(|e| format!("parsing private key: {e}"))
}

fn new_rsa_2048() -> Result<PrivateKey, String> {
    generate_rsa(2048).map_err(|e| format!("error generating rsa key: {e}"))
}

pub(super) fn gen_ca(args: &[Value]) -> Result<Value, String> {
    let req = cert_request(arg_str(args, 0), None, None, args.get(1), true)?;
    create_certificate(&req, &new_rsa_2048()?, None)
}

pub(super) fn gen_ca_with_key(args: &[Value]) -> Result<Value, String> {
    let key = key_from_pem_arg(args, 2)?;
    let req = cert_request(arg_str(args, 0), None, None, args.get(1), true)?;
    create_certificate(&req, &key, None)
}

pub(super) fn gen_self_signed(args: &[Value]) -> Result<Value, String> {
    let req = cert_request(
        arg_str(args, 0),
        args.get(1),
        args.get(2),
        args.get(3),
        false,
    )?;
    create_certificate(&req, &new_rsa_2048()?, None)
}

pub(super) fn gen_self_signed_with_key(args: &[Value]) -> Result<Value, String> {
    let key = key_from_pem_arg(args, 4)?;
    let req = cert_request(
        arg_str(args, 0),
        args.get(1),
        args.get(2),
        args.get(3),
        false,
    )?;
    create_certificate(&req, &key, None)
}

fn signed(args: &[Value], key: PrivateKey) -> Result<Value, String> {
    let (ca_cert, ca_key) = certificate_of(args.get(4).unwrap_or(&Value::Nil))?;
    let (_, der) = pem_decode(&ca_cert).ok_or("unable to decode certificate")?;
    let issuer = parse_certificate(&der)
        .map_err(|e| format!("error parsing certificate: decodedSignerCert.Bytes: {e}"))?;
    let signer =
        parse_private_key_pem(&ca_key).map_err(|e| format!("error parsing private key: {e}"))?;
    let req = cert_request(
        arg_str(args, 0),
        args.get(1),
        args.get(2),
        args.get(3),
        false,
    )?;
    create_certificate(&req, &key, Some((&issuer, &signer)))
}

pub(super) fn gen_signed(args: &[Value]) -> Result<Value, String> {
    // Go checks the CA argument's type before generating the key.
    certificate_of(args.get(4).unwrap_or(&Value::Nil))?;
    signed(args, new_rsa_2048()?)
}

pub(super) fn gen_signed_with_key(args: &[Value]) -> Result<Value, String> {
    certificate_of(args.get(4).unwrap_or(&Value::Nil))?;
    let key = key_from_pem_arg(args, 5)?;
    signed(args, key)
}

/// Certificates and keys: shapes, Go interoperability, errors.
#[cfg(test)]
mod cert_tests {
    use super::*;

    use sha1::Sha1;
    use sha2::Digest;

    use der::asn1::BitStringRef;
    use der::oid::AssociatedOid;
    use der::oid::db::{rfc5280, rfc5912, rfc8410};
    use der::{Decode, Encode};

    use x509_cert::ext::pkix::name::GeneralName;
    use x509_cert::ext::pkix::{
        AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectAltName,
        SubjectKeyIdentifier,
    };

    use crate::go::base64;

    use crate::gotemplate::sprig::crypto::asn1::*;
    use crate::gotemplate::sprig::crypto::cert::*;
    use crate::gotemplate::value::Value;

    use crate::gotemplate::sprig::crypto::keys::*;
    use crate::gotemplate::sprig::crypto::pem::*;

    /// An ECDSA CA made by Go Sprig (`genCAWithKey "go-ec-ca" 36500 (genPrivateKey "ecdsa")`).
    pub(super) const GO_CA_CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIBiDCCAS2gAwIBAgIQTPk8TowcyLWRRsgUjdQeUjAKBggqhkjOPQQDAjATMREw\nDwYDVQQDEwhnby1lYy1jYTAgFw0yNjExMjEyMTA2MjVaGA8yMTI2MTAyODIxMDYy\nNVowEzERMA8GA1UEAxMIZ28tZWMtY2EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC\nAAS//0wgIUsZ8K1r5Gpa4OMwKyE6QLO9Ok0sCzRwjj/MoxzpXZkez84OL/izCrpu\nb1egKvVHMf/Nr5dJljPfVge1o2EwXzAOBgNVHQ8BAf8EBAMCAqQwHQYDVR0lBBYw\nFAYIKwYBBQUHAwEGCCsGAQUFBwMCMA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYE\nFGrohM9Lev65Hn24//98k8wLpofrMAoGCCqGSM49BAMCA0kAMEYCIQCL1v7PzYF9\ncXFx2LhmD+ruA5FwtNXisLk1eQQVYcN3qwIhAJVVuz8Lp8Y/5XAIK0nnzyUCCGll\nVdfLVBA4QY2NrSgp\n-----END CERTIFICATE-----\n";
    pub(super) const GO_CA_KEY: &str = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIKmHlfNhhE52NmLPYyxL6SW4DJjSR2R2Kr3sWxNKdpZzoAoGCCqGSM49\nAwEHoUQDQgAEv/9MICFLGfCta+RqWuDjMCshOkCzvTpNLAs0cI4/zKMc6V2ZHs/O\nDi/4swq6bm9XoCr1RzH/za+XSZYz31YHtQ==\n-----END EC PRIVATE KEY-----\n";
    /// `genPrivateKey "ed25519"` from Go Sprig.
    pub(super) const GO_ED25519_KEY: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINFORiaMDda3kEMhJsdTzkFsHU6z4edLfKdgoZ92+um6\n-----END PRIVATE KEY-----\n";

    fn s(v: &str) -> Value {
        Value::str(v)
    }

    fn field(v: &Value, k: &str) -> String {
        match v {
            Value::Map(m) => m
                .entries
                .get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
            _ => String::new(),
        }
    }

    pub(super) fn cert_der(pem: &str) -> Vec<u8> {
        let (kind, der) = pem_decode(pem).expect("pem");
        assert_eq!(kind, "CERTIFICATE");
        der
    }

    /// The TBS bytes and signature bytes of a certificate.
    pub(super) fn tbs_and_signature(der: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let parts = sequence_items(der).expect("certificate");
        let signature: BitStringRef<'_> = parts[2].decode_as().expect("signature");
        (
            parts[0].to_der().expect("tbs"),
            signature.raw_bytes().to_vec(),
        )
    }

    fn go_ca() -> Value {
        certificate_value(GO_CA_CERT.to_string(), GO_CA_KEY.to_string())
    }

    #[test]
    fn private_keys_round_trip() {
        for (kind, header) in [
            ("ecdsa", "-----BEGIN EC PRIVATE KEY-----\n"),
            ("ed25519", "-----BEGIN PRIVATE KEY-----\n"),
        ] {
            let pem = gen_private_key(&[s(kind)]).expect("key");
            let pem = pem.as_str().expect("string");
            assert!(pem.starts_with(header), "{pem}");
            assert!(pem.ends_with("PRIVATE KEY-----\n"));
            let parsed = parse_private_key_pem(pem).expect("parses");
            assert_eq!(key_pem(&parsed).as_deref(), Ok(pem));
        }
        assert_eq!(gen_private_key(&[s("foo")]), Ok(s("Unknown type foo")));
        let ed = parse_private_key_pem(GO_ED25519_KEY).expect("go ed25519");
        assert_eq!(key_pem(&ed).as_deref(), Ok(GO_ED25519_KEY));
        let ec = parse_private_key_pem(GO_CA_KEY).expect("go ec");
        assert_eq!(key_pem(&ec).as_deref(), Ok(GO_CA_KEY));
    }

    #[test]
    fn dsa_key_format() {
        let key = PrivateKey::Dsa(Box::new(DsaKey {
            p: vec![0x80, 1],
            q: vec![3],
            g: vec![2],
            y: vec![5],
            x: vec![0, 0, 7],
        }));
        let pem = key_pem(&key).expect("pem");
        let (kind, der) = pem_decode(&pem).expect("decodes");
        assert_eq!(kind, "DSA PRIVATE KEY");
        // SEQUENCE { 0, p, q, g, y, x } with minimal positive INTEGERs.
        assert_eq!(
            der,
            [
                0x30, 0x14, 2, 1, 0, 2, 3, 0, 0x80, 1, 2, 1, 3, 2, 1, 2, 2, 1, 5, 2, 1, 7
            ]
        );
        assert!(matches!(
            parse_private_key_pem(&pem),
            Ok(PrivateKey::Dsa(_))
        ));
        assert_eq!(
            gen_ca_with_key(&[s("x"), Value::Int(3), s(&pem)]),
            Err(
                "error creating certificate: x509: certificate private key does not implement crypto.Signer"
                    .into()
            )
        );
        assert_eq!(
            gen_signed_with_key(&[
                s("x"),
                Value::Nil,
                Value::Nil,
                Value::Int(3),
                go_ca(),
                s(&pem)
            ]),
            Err(
                "error creating certificate: x509: unsupported public key type: *dsa.PublicKey"
                    .into()
            )
        );
    }

    #[test]
    fn go_ca_signs_our_leaf() {
        let ips = Value::list(vec![s("10.0.0.1"), s("::1")]);
        let dns = Value::list(vec![s("a.example.com")]);
        let leaf = gen_signed_with_key(&[
            s("leaf"),
            ips,
            dns,
            Value::Int(30),
            go_ca(),
            s(GO_ED25519_KEY),
        ])
        .expect("signed");
        assert_eq!(field(&leaf, "Key"), GO_ED25519_KEY);
        let ca = parse_certificate(&cert_der(GO_CA_CERT)).expect("go ca");
        let der = cert_der(&field(&leaf, "Cert"));
        let leaf_info = parse_certificate(&der).expect("leaf parses");
        assert_eq!(leaf_info.key_id, None);
        // Issuer is the CA's subject; the authority key id is the CA's subject key id.
        let kid = ca.key_id.clone().expect("go CA has a key id");
        let subject = ca.subject.to_der().expect("subject");
        assert!(der.windows(subject.len()).any(|w| w == subject));
        assert!(der.windows(kid.len()).any(|w| w == kid.as_slice()));
        // The ECDSA signature verifies with the CA's public key.
        let PrivateKey::Ec(ca_key) = parse_private_key_pem(GO_CA_KEY).expect("key") else {
            panic!("ec key")
        };
        let (tbs, sig) = tbs_and_signature(&der);
        use p256::ecdsa::signature::Verifier;
        let vk = p256::ecdsa::VerifyingKey::from(ca_key.public_key());
        let sig = p256::ecdsa::Signature::from_der(&sig).expect("der signature");
        assert!(vk.verify(&tbs, &sig).is_ok());
    }

    #[test]
    fn self_signed_ed25519_verifies() {
        let cert = gen_self_signed_with_key(&[
            s(""),
            Value::Nil,
            Value::list(vec![s("x.example")]),
            Value::Int(1),
            s(GO_ED25519_KEY),
        ])
        .expect("self-signed");
        let der = cert_der(&field(&cert, "Cert"));
        let (tbs, sig) = tbs_and_signature(&der);
        let PrivateKey::Ed25519(seed) = parse_private_key_pem(GO_ED25519_KEY).expect("key") else {
            panic!("ed25519")
        };
        let vk = ed25519_dalek::SigningKey::from_bytes(&seed).verifying_key();
        let sig = ed25519_dalek::Signature::from_slice(&sig).expect("64 bytes");
        assert!(vk.verify_strict(&tbs, &sig).is_ok());
    }

    #[test]
    fn rsa_ca_and_leaf() {
        let ca = gen_ca(&[s("my-ca"), Value::Int(365)]).expect("ca");
        assert!(field(&ca, "Cert").starts_with("-----BEGIN CERTIFICATE-----\n"));
        assert!(field(&ca, "Key").starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
        let info = parse_certificate(&cert_der(&field(&ca, "Cert"))).expect("parses");
        assert_eq!(info.key_id.map(|k| k.len()), Some(20));
        let leaf = gen_signed(&[s("leaf"), Value::Nil, Value::Nil, Value::Int(1), ca.clone()])
            .expect("leaf");
        assert!(parse_certificate(&cert_der(&field(&leaf, "Cert"))).is_ok());
        let custom = build_custom_cert(&[
            s(&base64::encode(field(&ca, "Cert").as_bytes())),
            s(&base64::encode(field(&ca, "Key").as_bytes())),
        ])
        .expect("custom");
        assert_eq!(custom, ca);
        // A CA key that does not belong to the CA certificate.
        let wrong = certificate_value(GO_CA_CERT.to_string(), field(&ca, "Key"));
        assert_eq!(
            gen_signed_with_key(&[s("x"), Value::Nil, Value::Nil, Value::Int(3), wrong, s(GO_ED25519_KEY)]),
            Err("error creating certificate: x509: provided PrivateKey doesn't match parent's PublicKey".into())
        );
    }

    #[test]
    fn certificate_errors_like_sprig() {
        let err = |r: Result<Value, String>| r.expect_err("error");
        assert_eq!(
            err(build_custom_cert(&[s("x"), s("y")])),
            "unable to decode base64 certificate"
        );
        assert_eq!(
            err(build_custom_cert(&[s("eA=="), s("y")])),
            "unable to decode base64 private key"
        );
        assert_eq!(
            err(build_custom_cert(&[s("eA=="), s("eQ==")])),
            "unable to decode certificate"
        );
        let b64 = |t: &str| s(&base64::encode(t.as_bytes()));
        assert_eq!(
            err(build_custom_cert(&[b64(GO_CA_CERT), b64("junk")])),
            "error parsing private key: no PEM data in input"
        );
        assert_eq!(
            err(build_custom_cert(&[b64(GO_CA_CERT), b64(GO_CA_CERT)])),
            "error parsing private key: no private key data in PEM block of type CERTIFICATE"
        );
        assert_eq!(
            err(gen_ca_with_key(&[s("x"), Value::Int(3), s("junk")])),
            "parsing private key: no PEM data in input"
        );
        let key = s(GO_ED25519_KEY);
        let list = |v: Vec<Value>| Value::list(v);
        assert_eq!(
            err(gen_self_signed_with_key(&[
                s("b"),
                list(vec![s("1.2.3.x")]),
                Value::Nil,
                Value::Int(1),
                key.clone()
            ])),
            "error parsing ip: 1.2.3.x"
        );
        // The item prints with `%v` (the fmt module's job; checked here only up to it).
        let dns_err = err(gen_self_signed_with_key(&[
            s("b"),
            Value::Nil,
            list(vec![Value::Bool(true)]),
            Value::Int(1),
            key.clone(),
        ]));
        assert!(
            dns_err.starts_with("error processing alternate dns name: ")
                && dns_err.ends_with(" is not a string")
        );
        assert_eq!(
            err(gen_self_signed_with_key(&[
                s("b"),
                Value::Nil,
                list(vec![s("ü.example")]),
                Value::Int(1),
                key
            ])),
            "error creating certificate: x509: \"ü.example\" cannot be encoded as an IA5String"
        );
        assert_eq!(
            err(gen_signed(&[
                s("x"),
                Value::Nil,
                Value::Nil,
                Value::Int(1),
                s("ca")
            ])),
            "wrong type for value; expected sprig.certificate; got string"
        );
    }

    /// What a generated CA and leaf hold, as `x509-cert` decodes them.
    #[test]
    fn generated_certificates_decode_with_x509_cert() {
        use x509_cert::Certificate as X509;
        let decode = |v: &Value| X509::from_der(&cert_der(&field(v, "Cert"))).expect("decodes");
        let cn = |name: &x509_cert::name::Name| {
            name.common_name()
                .expect("name")
                .map(|d| d.value().into_owned())
        };
        let days = |c: &X509| {
            let v = c.tbs_certificate().validity();
            (v.not_after.to_unix_duration() - v.not_before.to_unix_duration()).as_secs() / 86_400
        };
        let now = GoTimeNow::get().unix.unsigned_abs();

        let ca = gen_ca_with_key(&[s("test-ca"), Value::Int(365), s(GO_CA_KEY)]).expect("ca");
        let ca_cert = decode(&ca);
        let tbs = ca_cert.tbs_certificate();
        assert_eq!(tbs.version(), x509_cert::Version::V3);
        assert_eq!(cn(tbs.subject()).as_deref(), Some("test-ca"));
        assert_eq!(tbs.issuer(), tbs.subject());
        assert_eq!(days(&ca_cert), 365);
        let not_before = tbs.validity().not_before.to_unix_duration().as_secs();
        assert!(now.abs_diff(not_before) < 60, "{not_before} vs {now}");
        assert_eq!(
            ca_cert.signature_algorithm().oid,
            rfc5912::ECDSA_WITH_SHA_256
        );
        let (critical, basic) = tbs
            .get_extension::<BasicConstraints>()
            .expect("decodes")
            .expect("basic constraints");
        assert!(critical && basic.ca && basic.path_len_constraint.is_none());
        let (critical, usage) = tbs
            .get_extension::<KeyUsage>()
            .expect("decodes")
            .expect("key usage");
        assert!(
            critical
                && usage.digital_signature()
                && usage.key_encipherment()
                && usage.key_cert_sign()
        );
        assert!(!usage.crl_sign());
        let (critical, eku) = tbs
            .get_extension::<ExtendedKeyUsage>()
            .expect("decodes")
            .expect("extended key usage");
        assert!(!critical);
        assert_eq!(
            eku.0,
            [rfc5280::ID_KP_SERVER_AUTH, rfc5280::ID_KP_CLIENT_AUTH]
        );
        let (_, ski) = tbs
            .get_extension::<SubjectKeyIdentifier>()
            .expect("decodes")
            .expect("subject key id");
        let spki_bits = tbs.subject_public_key_info().subject_public_key.raw_bytes();
        assert_eq!(ski.0.as_bytes(), Sha1::digest(spki_bits).as_slice());
        assert_eq!(
            tbs.get_extension::<SubjectAltName>().expect("decodes"),
            None
        );

        let leaf = gen_signed_with_key(&[
            s("leaf.example"),
            Value::list(vec![s("10.0.0.1"), s("::1")]),
            Value::list(vec![s("a.example.com"), s("b.example.com")]),
            Value::Int(30),
            ca,
            s(GO_ED25519_KEY),
        ])
        .expect("leaf");
        let leaf_cert = decode(&leaf);
        let tbs = leaf_cert.tbs_certificate();
        assert_eq!(cn(tbs.subject()).as_deref(), Some("leaf.example"));
        assert_eq!(tbs.issuer(), ca_cert.tbs_certificate().subject());
        assert_eq!(days(&leaf_cert), 30);
        assert!(!tbs.serial_number().as_bytes().is_empty());
        assert!(tbs.serial_number().as_bytes().len() <= 17);
        assert_eq!(
            tbs.subject_public_key_info().algorithm.oid,
            rfc8410::ID_ED_25519
        );
        let (critical, basic) = tbs
            .get_extension::<BasicConstraints>()
            .expect("decodes")
            .expect("basic constraints");
        assert!(critical && !basic.ca);
        let (_, usage) = tbs
            .get_extension::<KeyUsage>()
            .expect("decodes")
            .expect("key usage");
        assert!(usage.digital_signature() && usage.key_encipherment() && !usage.key_cert_sign());
        let (_, aki) = tbs
            .get_extension::<AuthorityKeyIdentifier>()
            .expect("decodes")
            .expect("authority key id");
        assert_eq!(aki.key_identifier, Some(ski.0));
        assert_eq!(
            tbs.get_extension::<SubjectKeyIdentifier>()
                .expect("decodes"),
            None
        );
        let (critical, san) = tbs
            .get_extension::<SubjectAltName>()
            .expect("decodes")
            .expect("alternative names");
        assert!(!critical);
        let names: Vec<String> = san
            .0
            .iter()
            .map(|n| match n {
                GeneralName::DnsName(d) => d.to_string(),
                GeneralName::IpAddress(ip) => format!("{:?}", ip.as_bytes()),
                other => format!("{other:?}"),
            })
            .collect();
        let mut v6 = [0u8; 16];
        v6[15] = 1;
        assert_eq!(
            names,
            [
                "a.example.com".to_string(),
                "b.example.com".to_string(),
                format!("{:?}", [10u8, 0, 0, 1]),
                format!("{v6:?}"),
            ]
        );
        // Extensions in Go's order.
        let oids: Vec<_> = tbs
            .extensions()
            .expect("extensions")
            .iter()
            .map(|e| e.extn_id)
            .collect();
        assert_eq!(
            oids,
            [
                KeyUsage::OID,
                ExtendedKeyUsage::OID,
                BasicConstraints::OID,
                AuthorityKeyIdentifier::OID,
                SubjectAltName::OID
            ]
        );
    }

    /// A CA that expired before 1970 (Go writes it; `x509-cert`'s times cannot hold it) still
    /// signs, as it does in Go.
    #[test]
    fn pre_1970_ca_signs() {
        let old = gen_ca_with_key(&[s("old"), Value::Int(-25_000), s(GO_CA_KEY)]).expect("ca");
        let leaf = gen_signed_with_key(&[
            s("x"),
            Value::Nil,
            Value::Nil,
            Value::Int(1),
            old,
            s(GO_ED25519_KEY),
        ]);
        assert!(leaf.is_ok(), "{leaf:?}");
    }

    #[test]
    fn der_details() {
        let name = |cn: &str| {
            common_name(cn)
                .and_then(|n| n.to_der().map_err(der_error))
                .expect("name")
        };
        assert_eq!(name(""), vec![0x30, 0]);
        assert_eq!(name("a*b")[11], 0x13);
        assert_eq!(name("a&b")[11], 0x0c);
        assert_eq!(name("ü")[11], 0x0c);
        let time = |unix: i64| {
            validity_time(unix)
                .and_then(|t| t.to_der().map_err(der_error))
                .expect("time")
        };
        let element = |tag: u8, text: &[u8]| [&[tag, text.len() as u8], text].concat();
        assert_eq!(time(0), element(0x17, b"700101000000Z"));
        assert_eq!(time(4_102_444_800), element(0x18, b"21000101000000Z"));
        // Before 1970, written by hand: UTCTime back to 1950, GeneralizedTime before.
        assert_eq!(time(-1), element(0x17, b"691231235959Z"));
        assert_eq!(time(-631_152_000), element(0x17, b"500101000000Z"));
        assert_eq!(time(-631_152_001), element(0x18, b"19491231235959Z"));
        assert!(validity_time(400_000_000_000).is_err());
        assert!(validity_time(-100_000_000_000).is_err());
        assert_eq!(
            uint(&[0, 0, 0x7f]).and_then(|u| u.to_der().map_err(der_error)),
            Ok(vec![2, 1, 0x7f])
        );
        assert_eq!(
            uint(&[0x80]).and_then(|u| u.to_der().map_err(der_error)),
            Ok(vec![2, 2, 0, 0x80])
        );
        assert_eq!(
            uint(&[]).and_then(|u| u.to_der().map_err(der_error)),
            Ok(vec![2, 1, 0])
        );
        assert_eq!(parse_ip("1.2.3.4"), Some(vec![1, 2, 3, 4]));
        assert_eq!(parse_ip("01.2.3.4"), None);
        // x509 writes IPv4-mapped addresses in their 4-byte form (`To4`).
        assert_eq!(parse_ip("::ffff:1.2.3.4"), Some(vec![1, 2, 3, 4]));
        assert_eq!(parse_ip("::1").map(|v| v.len()), Some(16));
    }

    #[test]
    #[ignore = "DSA parameter generation takes tens of seconds in debug builds"]
    fn dsa_generation() {
        let pem = gen_private_key(&[s("dsa")]).expect("key");
        assert!(
            pem.as_str()
                .is_some_and(|p| p.starts_with("-----BEGIN DSA PRIVATE KEY-----"))
        );
    }

    proptest::proptest! {
        #[test]
        fn key_and_cert_parsers_never_panic(text in ".{0,200}", bytes in proptest::collection::vec(0u8..=255, 0..200)) {
            let _ = parse_private_key_pem(&text);
            let _ = pem_decode(&text);
            let _ = parse_certificate(&bytes);
            let _ = parse_pkcs8(&bytes);
            let _ = parse_dsa(&bytes);
            let pem = pem_encode("CERTIFICATE", &bytes);
            let _ = build_custom_cert(&[s(&base64::encode(pem.as_bytes())), s(&base64::encode(text.as_bytes()))]);
        }
    }
}

/// Certificates built with fixed serials and clocks, pinned byte for byte: the layout Go's
/// `x509.CreateCertificate` writes for Sprig's templates (the Go-made CA's to-be-signed part is
/// reproduced exactly), for every key kind, name string type and time encoding.
#[cfg(test)]
mod layout_tests {
    use super::*;

    use sha2::{Digest, Sha256};

    use crate::gotemplate::value::Value;

    use crate::gotemplate::sprig::crypto::cert::*;

    use crate::gotemplate::sprig::crypto::common::*;
    use crate::gotemplate::sprig::crypto::keys::*;

    /// A 1024-bit RSA key (small, to keep the test fast; the layout does not depend on size).
    const RSA_KEY: &str = "-----BEGIN RSA PRIVATE KEY-----\nMIICXQIBAAKBgQDvjJvc1ZMJnW1fVN+OHOjg2AWlatN0KixPv1g22RARKR9pcVRI\n7fmkxDo3keOIVgsf1ky2Y70Nm6vJxZoG3TlFInB6bkgxMF5UmJ1WHaDOB8Q3gzv1\nOjHUuDbfQ1cNeimfjthmScOHCXS3SpK1HbmnuYyj88gV1H0hcPjUGUXZewIDAQAB\nAoGBAMrM1GtaGLhsIdsyZGzQxssLt4P6c3gF+Cuvh4Qvse2FTgWbn0p6xf2a7tp6\n1RFoHtTePWWv/K6XmxEgDC1BfqgIhZ2swQx2wPHqPcgRFPtdcRODy57WMuQU3LuB\nADSAPIwq96LYSi2I+DvAzz2fbNrSRCx/KCUXK8cdk8CnRB2ZAkEA/HaKTWID66c/\n6iEcKaV2hjJYrPo7iRUSiOaE+P/PuuSGE4G9wA8XQu9fXuj0O55xBMqW13Y1PMd8\nPn1rbOwbzQJBAPLnwNLlS2dN++miRIGGq2RL4DnyXtQjf5LBl9HVP3iDe+H7qCMH\nX+JTeMIlaEgY3l64ZSiXFij1rpqCsFHbUmcCQF7rMpRlhZPUDfO4/x2pWCacRzrB\n2iBwC8fs45G6nB9oTACJhw3unpBL709/xlOj/loO0SexCdMQLWZRQVJycwECQQCB\n6ZdEdCQW9St1Mjcne0oxUy9yboFvPikd6XJ0ZHQU1WWtYHX1fh03I+OjGnSiksJj\nsIVR5zSP5Y5jzt/Ud9OjAkBpKdTiqCv+q/cV6FXhhuhajmra6keo/SywRvEA+t1z\nH99RGfwXkZIESD5iIWzCm/OI/GEQN4ndsMhTHpmY4WZo\n-----END RSA PRIVATE KEY-----\n";

    fn req(cn: &str, ips: &[&str], dns: &[&str], days: i64, is_ca: bool) -> CertRequest {
        let list = |items: &[&str]| Value::list(items.iter().map(|s| Value::str(*s)).collect());
        cert_request(
            cn,
            Some(&list(ips)),
            Some(&list(dns)),
            Some(&Value::Int(days)),
            is_ca,
        )
        .expect("request")
    }

    fn key(pem: &str) -> PrivateKey {
        parse_private_key_pem(pem).expect("key")
    }

    fn at(unix: i64) -> GoTimeNow {
        GoTimeNow { unix }
    }

    fn digest(der: &[u8]) -> String {
        hex(&Sha256::digest(der))
    }

    #[test]
    fn go_ca_to_be_signed_is_reproduced() {
        use super::cert_tests::{GO_CA_CERT, GO_CA_KEY, cert_der, tbs_and_signature};
        let go = cert_der(GO_CA_CERT);
        let serial = [
            0x4c, 0xf9, 0x3c, 0x4e, 0x8c, 0x1c, 0xc8, 0xb5, 0x91, 0x46, 0xc8, 0x14, 0x8d, 0xd4,
            0x1e, 0x52,
        ];
        // Not before 2026-11-21T21:06:25Z, 36500 days of validity.
        let ours = build_certificate_at(
            &req("go-ec-ca", &[], &[], 36_500, true),
            &key(GO_CA_KEY),
            None,
            &serial,
            at(1_795_295_185),
        )
        .expect("certificate");
        assert_eq!(tbs_and_signature(&ours).0, tbs_and_signature(&go).0);
    }

    #[test]
    fn pinned_layouts() {
        use super::cert_tests::{GO_CA_CERT, GO_CA_KEY, GO_ED25519_KEY, cert_der};
        let go_ca = parse_certificate(&cert_der(GO_CA_CERT)).expect("go ca");
        let ed = key(GO_ED25519_KEY);
        let ec = key(GO_CA_KEY);
        let rsa = key(RSA_KEY);
        let high = [0x80u8; 16];
        let short = [0u8, 0, 1];
        let build = |req: CertRequest,
                     key: &PrivateKey,
                     issuer: Option<(&Issuer, &PrivateKey)>,
                     serial: &[u8],
                     unix: i64| {
            build_certificate_at(&req, key, issuer, serial, at(unix)).expect("certificate")
        };
        let (ips, dns) = (
            ["10.0.0.1", "::1", "::ffff:1.2.3.4"],
            ["a.example.com", "*.b"],
        );
        let leaf = build(
            req("leaf", &ips, &dns, 30, false),
            &ed,
            Some((&go_ca, &ec)),
            &high,
            1_700_000_000,
        );
        // Expires in 1955.
        let nameless = build(
            req("", &[], &["x.example"], -25_000, false),
            &ed,
            None,
            &short,
            1_700_000_000,
        );
        // Expires in 2275.
        let rsa_ca = build(
            req("ü CA & co", &[], &[], 100_000, true),
            &rsa,
            None,
            &high,
            1_000_000_000,
        );
        let rsa_issuer = parse_certificate(&rsa_ca).expect("ours");
        let rsa_leaf = build(
            req("a*b", &["192.168.0.1"], &[], 1, false),
            &ec,
            Some((&rsa_issuer, &rsa)),
            &[0x7f; 16],
            1_000_000_000,
        );
        // Expires in 1914.
        let old_ca = build(
            req("old", &[], &[], -40_000, true),
            &ec,
            None,
            &short,
            1_700_000_000,
        );
        // The day count wraps around (Go's Duration arithmetic) to 1839.
        let wrapped = build(
            req("w", &[], &[], 1_000_000, false),
            &ec,
            None,
            &short,
            1_700_000_000,
        );
        let got: Vec<String> = [leaf, nameless, rsa_ca, rsa_leaf, old_ca, wrapped]
            .iter()
            .map(|d| digest(d))
            .collect();
        // SHA-256 of each DER (the signatures are deterministic: Ed25519, RFC 6979 ECDSA,
        // PKCS#1 v1.5).
        assert_eq!(
            got,
            [
                "33d2c357a593571b5ca5e3a7ce1cc75a497d2116c127d00099196145ab1840b5",
                "e6fc5fdd0e344801af29d8e3b848b96288b408a2504d5dc0faead85d7304ef00",
                "35ee3934df46854b9d30f31561f28fd2e7138dfe1e4858217ae24cf8dc3b03f8",
                "853b2d08caa7595310cec1288840c242262743a70a0a2e2b42bab0ebbf20ef18",
                "fc22cfcb2ebba83643893843e28058fe8d484f20278f2719595d85db48df5d09",
                "b098d5c8b40e4b6ed1e8d188c8c6271215c8187e4ccef1c6cb3b6925b89c2284",
            ]
        );
    }
}
