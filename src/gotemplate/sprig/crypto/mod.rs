/*!
Sprig's crypto functions: digests (`sha1sum`, `sha256sum`, `sha512sum`, `adler32sum`),
password hashing (`bcrypt`, `htpasswd`, `derivePassword`), symmetric encryption
(`encryptAES`, `decryptAES`), keys (`genPrivateKey`) and certificates (`buildCustomCert`,
`genCA`, `genCAWithKey`, `genSelfSignedCert`, `genSelfSignedCertWithKey`, `genSignedCert`,
`genSignedCertWithKey`).

Deterministic functions match Go byte for byte, error texts and the texts of Go panics included
(`decryptAES` of a short input panics in Go with `runtime error: slice bounds out of range …`,
which text/template reports as the call's error). Random ones (`bcrypt` salts, AES IVs, keys,
serial numbers, validity times) produce output of the same shape that Go's counterparts
accept: a `bcrypt` hash verifies with Go's `CompareHashAndPassword`, `encryptAES` output
decrypts with Sprig's `decryptAES` and vice versa, keys and certificates parse in Go and carry
the same DER structure as `x509.CreateCertificate`'s (same extensions in the same order, subject
key id = SHA-1 of the public key, authority key id from the CA).

Keys are RSA (4096 bits from `genPrivateKey`, 2048 for generated certificates), ECDSA P-256,
Ed25519 and DSA (L2048N256; Go cannot sign with DSA, and neither do we). Keys read from
templates are limited to those kinds (EC keys to P-256) and RSA keys to 16384 bits, which
bounds the signing work a template can ask for. Certificates are assembled from `x509-cert`'s
types (names, extensions, serial numbers, public key infos) and written and read with `der`; the
two places where Go's bytes cannot come from those types say why (validity times before 1970,
and reading a CA certificate leniently, as Go does).

`sha512sum` arrived in Sprig 3.3.0 (what Cluster API links); the 3.2.3 oracle lacks it.

This file holds the function table; each concept has its file: `digest`, `password`, `aes_cbc`,
`keys`, `cert` (building and signing), `cert_funcs` (the template functions over keys and
certificates), `cert_value` (a certificate as a template value), and below them `pem`, `asn1`
(DER helpers) and `common`.
*/

mod aes_cbc;
mod asn1;
mod cert;
mod cert_funcs;
mod cert_value;
mod common;
mod digest;
mod keys;
mod password;
mod pem;

use crate::gotemplate::func::{Func, Param};

use aes_cbc::{decrypt_aes_fn, encrypt_aes_fn};
use cert_funcs::{
    build_custom_cert, gen_ca, gen_ca_with_key, gen_private_key, gen_self_signed,
    gen_self_signed_with_key, gen_signed, gen_signed_with_key,
};
use digest::{adler32sum, sha1sum, sha256sum, sha512sum};
use password::{bcrypt_fn, derive_password_fn, htpasswd};

/// The functions of this group.
pub const FUNCS: &[Func] = &[
    Func::fixed("sha1sum", &[Param::String], sha1sum),
    Func::fixed("sha256sum", &[Param::String], sha256sum),
    Func::fixed("sha512sum", &[Param::String], sha512sum),
    Func::fixed("adler32sum", &[Param::String], adler32sum),
    Func::fixed("bcrypt", &[Param::String], bcrypt_fn),
    Func::fixed("htpasswd", &[Param::String, Param::String], htpasswd),
    // The counter is a Go `uint32`; see `uint32_arg`.
    Func::fixed(
        "derivePassword",
        &[
            Param::Any,
            Param::String,
            Param::String,
            Param::String,
            Param::String,
        ],
        derive_password_fn,
    ),
    Func::fixed(
        "encryptAES",
        &[Param::String, Param::String],
        encrypt_aes_fn,
    ),
    Func::fixed(
        "decryptAES",
        &[Param::String, Param::String],
        decrypt_aes_fn,
    ),
    Func::fixed("genPrivateKey", &[Param::String], gen_private_key),
    Func::fixed(
        "buildCustomCert",
        &[Param::String, Param::String],
        build_custom_cert,
    ),
    Func::fixed("genCA", &[Param::String, Param::Int], gen_ca),
    Func::fixed(
        "genCAWithKey",
        &[Param::String, Param::Int, Param::String],
        gen_ca_with_key,
    ),
    Func::fixed(
        "genSelfSignedCert",
        &[Param::String, Param::List, Param::List, Param::Int],
        gen_self_signed,
    ),
    Func::fixed(
        "genSelfSignedCertWithKey",
        &[
            Param::String,
            Param::List,
            Param::List,
            Param::Int,
            Param::String,
        ],
        gen_self_signed_with_key,
    ),
    // The CA is Sprig's `certificate` struct; `Param::Any` until the value model has it.
    Func::fixed(
        "genSignedCert",
        &[
            Param::String,
            Param::List,
            Param::List,
            Param::Int,
            Param::Any,
        ],
        gen_signed,
    ),
    Func::fixed(
        "genSignedCertWithKey",
        &[
            Param::String,
            Param::List,
            Param::List,
            Param::Int,
            Param::Any,
            Param::String,
        ],
        gen_signed_with_key,
    ),
];
