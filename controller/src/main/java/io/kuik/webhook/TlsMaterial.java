package io.kuik.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A certificate chain and its private key, read from PEM files and checked to belong together (a
 * signature by the key verifies with the leaf certificate), so that a half-rotated pair of files is
 * never served.
 */
record TlsMaterial(List<X509Certificate> chain, PrivateKey key) {

  TlsMaterial {
    chain = List.copyOf(chain);
  }

  static TlsMaterial parse(byte[] certPem, byte[] keyPem, String where)
      throws GeneralSecurityException {
    List<X509Certificate> chain;
    PrivateKey key;
    try {
      chain = PemFiles.certificates(new String(certPem, StandardCharsets.US_ASCII));
      key = PemFiles.privateKey(new String(keyPem, StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException unreadable) {
      throw new GeneralSecurityException(where + ": " + unreadable.getMessage());
    }
    if (!belongTogether(chain.get(0), key)) {
      throw new GeneralSecurityException(
          where + ": the private key does not match the first certificate");
    }
    return new TlsMaterial(chain, key);
  }

  private static boolean belongTogether(X509Certificate leaf, PrivateKey key)
      throws GeneralSecurityException {
    String algorithm;
    switch (key.getAlgorithm()) {
      case "RSA":
        algorithm = "SHA256withRSA";
        break;
      case "EC":
        algorithm = "SHA256withECDSA";
        break;
      case "EdDSA":
      case "Ed25519":
        algorithm = "Ed25519";
        break;
      default:
        throw new GeneralSecurityException("unsupported key algorithm " + key.getAlgorithm());
    }
    byte[] challenge = new byte[32];
    new SecureRandom().nextBytes(challenge);
    try {
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(leaf.getPublicKey());
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException mismatch) {
      // e.g. an EC key against an RSA certificate: the verifier refuses the public key.
      return false;
    }
  }
}
