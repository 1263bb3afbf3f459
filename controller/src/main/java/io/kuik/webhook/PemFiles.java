package io.kuik.webhook;

import java.io.IOException;
import java.io.StringReader;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads PEM as Kubernetes TLS Secrets hold it, with BouncyCastle's PEM parser: a certificate chain
 * ({@code CERTIFICATE} blocks, leaf first) and an unencrypted private key as {@code PRIVATE KEY}
 * (PKCS#8: RSA, EC, Ed25519), {@code RSA PRIVATE KEY} (PKCS#1, what Helm's {@code genSignedCert}
 * writes) or {@code EC PRIVATE KEY} (SEC1, what cert-manager writes for an ECDSA key with its
 * default encoding). The keys become the JDK's own (BouncyCastle is not installed as a provider).
 * Messages name what is wrong, never the key material.
 */
final class PemFiles {

  private PemFiles() {}

  /** Every certificate of {@code pem}, in file order. */
  static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    List<X509Certificate> chain = new ArrayList<>();
    for (Object block : blocks(pem)) {
      if (block instanceof X509CertificateHolder certificate) {
        chain.add(converter.getCertificate(certificate));
      }
    }
    if (chain.isEmpty()) {
      throw new CertificateException("no CERTIFICATE block found");
    }
    return chain;
  }

  /** The first private key of {@code pem}. */
  static PrivateKey privateKey(String pem) throws GeneralSecurityException {
    JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
    for (Object block : blocks(pem)) {
      try {
        if (block instanceof PrivateKeyInfo pkcs8) {
          return converter.getPrivateKey(pkcs8);
        }
        if (block instanceof PEMKeyPair traditional) {
          // A SEC1 key may leave out its public key: only the private part is read.
          return converter.getPrivateKey(traditional.getPrivateKeyInfo());
        }
      } catch (IOException unsupported) {
        throw new GeneralSecurityException(
            "the private key is not an RSA, EC or Ed25519 key the JDK can read: "
                + unsupported.getMessage());
      }
      if (block instanceof PEMEncryptedKeyPair || block instanceof PKCS8EncryptedPrivateKeyInfo) {
        throw new GeneralSecurityException(
            "the private key is encrypted: give an unencrypted PKCS#8, PKCS#1 or SEC1 key");
      }
    }
    throw new GeneralSecurityException("no PRIVATE KEY block found");
  }

  private static List<Object> blocks(String pem) throws GeneralSecurityException {
    List<Object> blocks = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
        blocks.add(block);
      }
    } catch (IOException | RuntimeException unreadable) {
      // BouncyCastle says which block it could not read; the block itself is never repeated.
      throw new GeneralSecurityException(
          "unreadable PEM (" + unreadable.getClass().getSimpleName() + ")");
    }
    return blocks;
  }
}
