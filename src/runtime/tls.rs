/*!
TLS for extension calls: a rustls client configuration on the `ring` provider (no C TLS
library, no `aws-lc-sys`).

As `transport.TLSConfigFor` does for Cluster API: a CA bundle (PEM) replaces the system roots;
without one the platform's roots apply; the server name is the URL's host. Insecure mode skips
certificate verification (but still checks handshake signatures) and cannot be combined with a
CA, as client-go refuses that combination too.
*/

use std::sync::Arc;

use rustls::DigitallySignedStruct;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName, UnixTime};

/// How to verify extension servers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum TlsVerify {
    /// The platform's trusted roots.
    #[default]
    System,
    /// Only these CAs (PEM, one or more certificates).
    Ca(Vec<u8>),
    /// No verification (`--insecure-skip-tls-verify`).
    Insecure,
    /// Plain HTTP: no TLS session is ever made (redirects are not followed), so no roots are
    /// loaded — loading the system's costs ~20 ms per run. Any certificate would be rejected.
    PlainHttp,
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Parse a PEM bundle into certificates, as `x509.CertPool.AppendCertsFromPEM` would accept it.
pub fn parse_ca_bundle(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, String> {
    let mut certs = Vec::new();
    for c in CertificateDer::pem_slice_iter(pem) {
        match c {
            Ok(c) => certs.push(c),
            Err(e) => return Err(format!("unable to load root certificates: {e}")),
        }
    }
    if certs.is_empty() {
        return Err("unable to load root certificates: unable to parse bytes as PEM block".into());
    }
    Ok(certs)
}

/// The rustls configuration for one verification mode.
pub fn client_config(verify: &TlsVerify) -> Result<rustls::ClientConfig, String> {
    let provider = provider();
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("failed to set up TLS: {e}"))?;
    let verifier: Arc<dyn ServerCertVerifier> = match verify {
        TlsVerify::System => Arc::new(
            rustls_platform_verifier::Verifier::new(provider)
                .map_err(|e| format!("failed to load the system's trusted roots: {e}"))?,
        ),
        TlsVerify::Ca(pem) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in parse_ca_bundle(pem)? {
                roots
                    .add(c)
                    .map_err(|e| format!("unable to load root certificates: {e}"))?;
            }
            rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .map_err(|e| format!("unable to load root certificates: {e}"))?
        }
        TlsVerify::Insecure => Arc::new(NoVerify(provider, true)),
        TlsVerify::PlainHttp => Arc::new(NoVerify(provider, false)),
    };
    Ok(builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// Accepts any certificate (`true`) or none (`false`); handshake signatures are still checked.
#[derive(Debug)]
struct NoVerify(Arc<CryptoProvider>, bool);

impl ServerCertVerifier for NoVerify {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if self.1 {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "a plain-HTTP extension client does not speak TLS".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
