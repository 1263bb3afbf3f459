package io.kuik.webhook;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM as Kubernetes TLS Secrets hold it, with the JDK only: a certificate chain ({@code
 * CERTIFICATE} blocks, leaf first) and an unencrypted private key as {@code PRIVATE KEY} (PKCS#8:
 * RSA, EC, Ed25519), {@code RSA PRIVATE KEY} (PKCS#1, what Helm's {@code genSignedCert} writes) or
 * {@code EC PRIVATE KEY} (SEC1 with a named curve, what cert-manager writes for an ECDSA key with
 * its default encoding). Messages name what is wrong, never the key material.
 */
final class PemFiles {

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);

  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0D,
    0x06,
    0x09,
    0x2A,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xF7,
    0x0D,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };
  private static final byte[] EC_PUBLIC_KEY_OID = {
    0x06, 0x07, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01
  };
  private static final byte[] VERSION_0 = {0x02, 0x01, 0x00};
  private static final String[] PKCS8_ALGORITHMS = {"RSA", "EC", "Ed25519"};

  private PemFiles() {}

  /** Every certificate of {@code pem}, in file order. */
  static List<X509Certificate> certificates(String pem) throws GeneralSecurityException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<X509Certificate> chain = new ArrayList<>();
    Matcher block = BLOCK.matcher(pem);
    while (block.find()) {
      if (block.group(1).equals("CERTIFICATE")) {
        chain.add(
            (X509Certificate)
                factory.generateCertificate(new ByteArrayInputStream(decode(block.group(2)))));
      }
    }
    if (chain.isEmpty()) {
      throw new CertificateException("no CERTIFICATE block found");
    }
    return chain;
  }

  /** The first private key of {@code pem}. */
  static PrivateKey privateKey(String pem) throws GeneralSecurityException {
    Matcher block = BLOCK.matcher(pem);
    while (block.find()) {
      String type = block.group(1);
      if (!type.endsWith("PRIVATE KEY")) {
        continue;
      }
      if (block.group(2).contains("ENCRYPTED") || type.startsWith("ENCRYPTED")) {
        throw new GeneralSecurityException(
            "the private key is encrypted: give an unencrypted PKCS#8, PKCS#1 or SEC1 key");
      }
      byte[] der = decode(block.group(2));
      try {
        switch (type) {
          case "PRIVATE KEY":
            return pkcs8(der);
          case "RSA PRIVATE KEY":
            return KeyFactory.getInstance("RSA")
                .generatePrivate(
                    new PKCS8EncodedKeySpec(
                        Der.encode(
                            Der.SEQUENCE,
                            VERSION_0,
                            RSA_ALGORITHM,
                            Der.encode(Der.OCTET_STRING, der))));
          case "EC PRIVATE KEY":
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(sec1(der)));
          default:
            throw new GeneralSecurityException("unsupported key block \"" + type + "\"");
        }
      } catch (IllegalArgumentException malformed) {
        throw new GeneralSecurityException("malformed " + type + ": " + malformed.getMessage());
      }
    }
    throw new GeneralSecurityException("no PRIVATE KEY block found");
  }

  private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : PKCS8_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException notThisOne) {
        // try the next algorithm
      }
    }
    throw new GeneralSecurityException(
        "PRIVATE KEY is not an RSA, EC or Ed25519 key the JDK can read");
  }

  /** SEC1 {@code ECPrivateKey} wrapped as PKCS#8, its named curve moved to the algorithm. */
  private static byte[] sec1(byte[] der) throws GeneralSecurityException {
    byte[] curve = null;
    for (Der.Element element : Der.sequence(der)) {
      if (element.tag() == Der.CONTEXT_0) {
        curve = element.content();
      }
    }
    if (curve == null || curve.length == 0 || curve[0] != 0x06) {
      throw new GeneralSecurityException(
          "EC PRIVATE KEY names no curve: give it as PKCS#8 (BEGIN PRIVATE KEY) instead");
    }
    return Der.encode(
        Der.SEQUENCE,
        VERSION_0,
        Der.encode(Der.SEQUENCE, EC_PUBLIC_KEY_OID, curve),
        Der.encode(Der.OCTET_STRING, der));
  }

  private static byte[] decode(String base64) throws GeneralSecurityException {
    try {
      return Base64.getMimeDecoder().decode(base64.strip());
    } catch (IllegalArgumentException notBase64) {
      throw new GeneralSecurityException("a PEM block is not valid base64");
    }
  }
}
