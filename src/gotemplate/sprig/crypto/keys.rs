/*!
Private keys: generating them (RSA, ECDSA P-256, Ed25519, DSA), writing them as Go's PEM, reading
them back from templates within bounds, their public key infos, and signing.
*/

use sha2::{Digest, Sha256};

use der::asn1::{Any, BitString, Null, OctetString, Uint};
use der::oid::db::{rfc5912, rfc8410};
use der::{Encode, Sequence, Tag, Tagged};
use x509_cert::spki::{
    AlgorithmIdentifierOwned, AlgorithmIdentifierRef, SubjectPublicKeyInfoOwned,
};

use super::asn1::{der_error, first_element, sequence_items, uint};
use super::common::random_bytes;
use super::pem::{pem_decode, pem_encode};

/// The largest RSA modulus accepted from template input: signing with bigger keys is slow,
/// and Go's own tooling treats them as abuse too.
const MAX_RSA_BITS: usize = 16_384;

/// DSA domain parameters and key, as Sprig's `DSAKeyFormat` holds them (big-endian).
#[derive(Debug, Clone)]
pub(super) struct DsaKey {
    pub(super) p: Vec<u8>,
    pub(super) q: Vec<u8>,
    pub(super) g: Vec<u8>,
    pub(super) y: Vec<u8>,
    pub(super) x: Vec<u8>,
}

/// A private key of a kind Sprig can produce or read.
#[derive(Debug, Clone)]
pub(super) enum PrivateKey {
    Rsa(Box<rsa::RsaPrivateKey>),
    Ec(Box<p256::SecretKey>),
    Ed25519([u8; 32]),
    Dsa(Box<DsaKey>),
}

fn rng() -> getrandom::rand_core::UnwrapErr<getrandom::SysRng> {
    getrandom::rand_core::UnwrapErr(getrandom::SysRng)
}

pub(super) fn generate_rsa(bits: usize) -> Result<PrivateKey, String> {
    rsa::RsaPrivateKey::new(&mut rng(), bits)
        .map(|k| PrivateKey::Rsa(Box::new(k)))
        .map_err(|e| e.to_string())
}

pub(super) fn generate_key(kind: &str) -> Result<Option<PrivateKey>, String> {
    Ok(Some(match kind {
        "" | "rsa" => generate_rsa(4096)?,
        "dsa" => {
            let components = dsa::Components::try_generate_from_rng_with_key_size(
                &mut getrandom::SysRng,
                dsa::KeySize::DSA_2048_256,
            )
            .map_err(|e| format!("failed to generate dsa params: {e}"))?;
            let key = dsa::SigningKey::try_generate_from_rng_with_components(
                &mut getrandom::SysRng,
                components,
            )
            .map_err(|e| e.to_string())?;
            let vk = key.verifying_key();
            let c = vk.components();
            PrivateKey::Dsa(Box::new(DsaKey {
                p: c.p().to_be_bytes().to_vec(),
                q: c.q().to_be_bytes().to_vec(),
                g: c.g().to_be_bytes().to_vec(),
                y: vk.y().to_be_bytes().to_vec(),
                x: key.x().to_be_bytes().to_vec(),
            }))
        }
        "ecdsa" => PrivateKey::Ec(Box::new(
            <p256::SecretKey as p256::elliptic_curve::Generate>::generate_from_rng(&mut rng()),
        )),
        "ed25519" => {
            let mut seed = [0u8; 32];
            random_bytes(&mut seed)?;
            PrivateKey::Ed25519(seed)
        }
        _ => return Ok(None),
    }))
}

/// Sprig's `pemBlockForKey`: PKCS#1 for RSA, SEC 1 for EC, its own sequence for DSA, PKCS#8
/// for Ed25519.
pub(super) fn key_pem(key: &PrivateKey) -> Result<String, String> {
    Ok(match key {
        PrivateKey::Rsa(k) => {
            use rsa::pkcs1::EncodeRsaPrivateKey;
            let der = k.to_pkcs1_der().map_err(|e| e.to_string())?;
            pem_encode("RSA PRIVATE KEY", der.as_bytes())
        }
        PrivateKey::Ec(k) => {
            let der = k.to_sec1_der().map_err(|e| e.to_string())?;
            pem_encode("EC PRIVATE KEY", &der)
        }
        PrivateKey::Dsa(k) => {
            let der = DsaKeyFormat {
                version: 0,
                p: uint(&k.p)?,
                q: uint(&k.q)?,
                g: uint(&k.g)?,
                y: uint(&k.y)?,
                x: uint(&k.x)?,
            }
            .to_der()
            .map_err(der_error)?;
            pem_encode("DSA PRIVATE KEY", &der)
        }
        PrivateKey::Ed25519(seed) => pem_encode("PRIVATE KEY", &ed25519_pkcs8(seed)?),
    })
}

/// Sprig's `DSAKeyFormat`.
#[derive(Sequence)]
struct DsaKeyFormat {
    version: u8,
    p: Uint,
    q: Uint,
    g: Uint,
    y: Uint,
    x: Uint,
}

/// PKCS#8 `PrivateKeyInfo` as Go's `MarshalPKCS8PrivateKey` writes it: version 0, no
/// attributes.
#[derive(Sequence)]
struct PrivateKeyInfo {
    version: u8,
    algorithm: AlgorithmIdentifierOwned,
    private_key: OctetString,
}

/// An Ed25519 key in PKCS#8: the private key is the 32-byte seed in an OCTET STRING of its own.
fn ed25519_pkcs8(seed: &[u8; 32]) -> Result<Vec<u8>, String> {
    let curve_private_key = OctetString::new(seed.as_slice())
        .and_then(|o| o.to_der())
        .map_err(der_error)?;
    PrivateKeyInfo {
        version: 0,
        algorithm: AlgorithmIdentifierOwned {
            oid: rfc8410::ID_ED_25519,
            parameters: None,
        },
        private_key: OctetString::new(curve_private_key).map_err(der_error)?,
    }
    .to_der()
    .map_err(der_error)
}

/// Sprig's `parsePrivateKeyPEM`, with its error texts (the inner parser messages are Go's
/// where they matter, generic otherwise).
pub(super) fn parse_private_key_pem(text: &str) -> Result<PrivateKey, String> {
    let (kind, der) = pem_decode(text).ok_or("no PEM data in input")?;
    if kind == "PRIVATE KEY" {
        return parse_pkcs8(&der).map_err(|e| format!("decoding PEM as PKCS#8: {e}"));
    }
    let Some(algo) = kind.strip_suffix(" PRIVATE KEY") else {
        return Err(format!("no private key data in PEM block of type {kind}"));
    };
    match algo {
        "RSA" => {
            parse_rsa_pkcs1(&der).map_err(|e| format!("parsing RSA private key from PEM: {e}"))
        }
        "EC" => p256::SecretKey::from_sec1_der(&der)
            .map(|k| PrivateKey::Ec(Box::new(k)))
            .map_err(|_| {
                "parsing EC private key from PEM: x509: failed to parse EC private key".to_string()
            }),
        "DSA" => parse_dsa(&der).ok_or_else(|| {
            "parsing DSA private key from PEM: asn1: structure error: malformed key".to_string()
        }),
        _ => Err(format!("invalid private key type {kind}")),
    }
}

/// Whether a PKCS#1 RSAPrivateKey's modulus is over [`MAX_RSA_BITS`], checked before any
/// big-number work is done on it.
fn rsa_modulus_too_big(pkcs1: &[u8]) -> bool {
    sequence_items(pkcs1)
        .and_then(|items| items.get(1).map(|m| m.value().len()))
        .is_some_and(|len| len > MAX_RSA_BITS / 8 + 1)
}

fn rsa_too_big_error() -> String {
    format!("rsa: keys larger than {MAX_RSA_BITS} bits are refused")
}

fn parse_rsa_pkcs1(der: &[u8]) -> Result<PrivateKey, String> {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    if rsa_modulus_too_big(der) {
        return Err(rsa_too_big_error());
    }
    let key = rsa::RsaPrivateKey::from_pkcs1_der(der)
        .map_err(|_| "x509: failed to parse private key".to_string())?;
    Ok(PrivateKey::Rsa(Box::new(key)))
}

pub(super) fn parse_pkcs8(der: &[u8]) -> Result<PrivateKey, String> {
    let malformed = || "x509: failed to parse private key".to_string();
    let fields = sequence_items(der).ok_or_else(malformed)?;
    let (Some(algorithm), Some(private)) = (fields.get(1), fields.get(2)) else {
        return Err(malformed());
    };
    let algorithm: AlgorithmIdentifierRef<'_> = algorithm.decode_as().map_err(|_| malformed())?;
    if private.tag() != Tag::OctetString {
        return Err(malformed());
    }
    if algorithm.oid == rfc5912::RSA_ENCRYPTION {
        if rsa_modulus_too_big(private.value()) {
            return Err(rsa_too_big_error());
        }
        let key = <rsa::RsaPrivateKey as rsa::pkcs8::DecodePrivateKey>::from_pkcs8_der(der)
            .map_err(|_| "x509: failed to parse RSA private key embedded in PKCS#8".to_string())?;
        return Ok(PrivateKey::Rsa(Box::new(key)));
    }
    if algorithm.oid == rfc5912::ID_EC_PUBLIC_KEY {
        return <p256::SecretKey as p256::pkcs8::DecodePrivateKey>::from_pkcs8_der(der)
            .map(|k| PrivateKey::Ec(Box::new(k)))
            .map_err(|_| "x509: failed to parse EC private key embedded in PKCS#8".to_string());
    }
    if algorithm.oid == rfc8410::ID_ED_25519 {
        let inner = first_element(private.value())
            .filter(|e| e.tag() == Tag::OctetString)
            .ok_or_else(malformed)?;
        let seed: [u8; 32] = inner.value().try_into().map_err(|_| {
            format!(
                "x509: invalid Ed25519 private key length: {}",
                inner.value().len()
            )
        })?;
        return Ok(PrivateKey::Ed25519(seed));
    }
    Err("x509: PKCS#8 wrapping contained private key with unknown algorithm".to_string())
}

pub(super) fn parse_dsa(der: &[u8]) -> Option<PrivateKey> {
    let ints = sequence_items(der)?;
    if ints.len() < 6 || ints.iter().any(|t| t.tag() != Tag::Integer) {
        return None;
    }
    let num = |i: usize| ints.get(i).map(|t| t.value().to_vec()).unwrap_or_default();
    Some(PrivateKey::Dsa(Box::new(DsaKey {
        p: num(1),
        q: num(2),
        g: num(3),
        y: num(4),
        x: num(5),
    })))
}

/// A public key as it appears in a certificate: the SubjectPublicKeyInfo and the bytes of its
/// BIT STRING (hashed for the subject key identifier).
pub(super) struct PublicKeyInfo {
    pub(super) spki: SubjectPublicKeyInfoOwned,
    pub(super) key_bits: Vec<u8>,
}

pub(super) fn public_key_info(key: &PrivateKey) -> Result<PublicKeyInfo, String> {
    let (oid, parameters, key_bits) = match key {
        PrivateKey::Rsa(k) => {
            use rsa::pkcs1::EncodeRsaPublicKey;
            let der = k
                .to_public_key()
                .to_pkcs1_der()
                .map_err(|e| e.to_string())?;
            (
                rfc5912::RSA_ENCRYPTION,
                Some(Any::from(Null)),
                der.as_bytes().to_vec(),
            )
        }
        PrivateKey::Ec(k) => (
            rfc5912::ID_EC_PUBLIC_KEY,
            Some(Any::encode_from(&rfc5912::SECP_256_R_1).map_err(der_error)?),
            k.public_key().to_sec1_bytes().to_vec(),
        ),
        PrivateKey::Ed25519(seed) => (
            rfc8410::ID_ED_25519,
            None,
            ed25519_dalek::SigningKey::from_bytes(seed)
                .verifying_key()
                .to_bytes()
                .to_vec(),
        ),
        PrivateKey::Dsa(_) => {
            return Err("x509: unsupported public key type: *dsa.PublicKey".to_string());
        }
    };
    Ok(PublicKeyInfo {
        spki: SubjectPublicKeyInfoOwned {
            algorithm: AlgorithmIdentifierOwned { oid, parameters },
            subject_public_key: BitString::from_bytes(&key_bits).map_err(der_error)?,
        },
        key_bits,
    })
}

/// The signature AlgorithmIdentifier Go picks for a signing key, or Go's refusal.
pub(super) fn signature_algorithm(key: &PrivateKey) -> Result<AlgorithmIdentifierOwned, String> {
    let (oid, parameters) = match key {
        PrivateKey::Rsa(_) => (rfc5912::SHA_256_WITH_RSA_ENCRYPTION, Some(Any::from(Null))),
        PrivateKey::Ec(_) => (rfc5912::ECDSA_WITH_SHA_256, None),
        PrivateKey::Ed25519(_) => (rfc8410::ID_ED_25519, None),
        PrivateKey::Dsa(_) => {
            return Err(
                "x509: certificate private key does not implement crypto.Signer".to_string(),
            );
        }
    };
    Ok(AlgorithmIdentifierOwned { oid, parameters })
}

pub(super) fn sign(key: &PrivateKey, message: &[u8]) -> Result<Vec<u8>, String> {
    match key {
        PrivateKey::Rsa(k) => {
            let digest = Sha256::digest(message);
            k.sign(rsa::Pkcs1v15Sign::new::<rsa::sha2::Sha256>(), &digest)
                .map_err(|e| e.to_string())
        }
        PrivateKey::Ec(k) => {
            use p256::ecdsa::signature::Signer;
            let signer = p256::ecdsa::SigningKey::from(k.as_ref());
            let sig: p256::ecdsa::Signature =
                signer.try_sign(message).map_err(|e| e.to_string())?;
            Ok(sig.to_der().as_bytes().to_vec())
        }
        PrivateKey::Ed25519(seed) => {
            use ed25519_dalek::Signer;
            Ok(ed25519_dalek::SigningKey::from_bytes(seed)
                .sign(message)
                .to_bytes()
                .to_vec())
        }
        PrivateKey::Dsa(_) => {
            Err("x509: certificate private key does not implement crypto.Signer".to_string())
        }
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    use der::asn1::Any;

    use der::{Encode, Tag};

    #[test]
    fn huge_rsa_keys_are_refused_before_any_math() {
        // A PKCS#1 sequence whose modulus claims 32768 bits (content is never inspected).
        let modulus = vec![0x7fu8; 4096];
        let der = vec![
            Any::new(Tag::Integer, vec![0]).expect("version"),
            Any::new(Tag::Integer, modulus).expect("modulus"),
            Any::new(Tag::Integer, vec![3]).expect("exponent"),
        ]
        .to_der()
        .expect("sequence");
        let pem = pem_encode("RSA PRIVATE KEY", &der);
        assert_eq!(
            parse_private_key_pem(&pem).err().as_deref(),
            Some("parsing RSA private key from PEM: rsa: keys larger than 16384 bits are refused")
        );
    }
}
