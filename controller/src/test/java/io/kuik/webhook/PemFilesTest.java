package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.interfaces.ECPrivateKey;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PemFilesTest {

  private TestCertificates.Pair rsa;
  private TestCertificates.Pair ec;
  private TestCertificates.Pair otherRsa;

  @BeforeAll
  void generate(@TempDir Path directory) throws Exception {
    rsa = TestCertificates.generate(directory, "rsa", "RSA");
    ec = TestCertificates.generate(directory, "ec", "EC");
    otherRsa = TestCertificates.generate(directory, "other-rsa", "RSA");
  }

  private static TlsMaterial parse(TestCertificates.Pair pair, String keyPem)
      throws GeneralSecurityException {
    return TlsMaterial.parse(
        TestCertificates.certificatePem(pair.certificate()).getBytes(StandardCharsets.US_ASCII),
        keyPem.getBytes(StandardCharsets.US_ASCII),
        "tls.crt and tls.key");
  }

  @Test
  void readsRsaKeysAsPkcs8AndPkcs1() throws GeneralSecurityException {
    assertEquals(rsa.key(), parse(rsa, TestCertificates.pkcs8Pem(rsa.key())).key());
    assertEquals(rsa.key(), parse(rsa, TestCertificates.pkcs1Pem(rsa.key())).key());
  }

  @Test
  void readsEcKeysAsPkcs8AndSec1() throws GeneralSecurityException {
    BigInteger secret = ((ECPrivateKey) ec.key()).getS();

    assertEquals(
        secret, ((ECPrivateKey) parse(ec, TestCertificates.pkcs8Pem(ec.key())).key()).getS());
    assertEquals(
        secret, ((ECPrivateKey) parse(ec, TestCertificates.sec1Pem(ec.key())).key()).getS());
  }

  @Test
  void readsAChainLeafFirst() throws GeneralSecurityException {
    String chain =
        TestCertificates.certificatePem(rsa.certificate())
            + TestCertificates.certificatePem(ec.certificate());

    assertEquals(
        java.util.List.of(rsa.certificate(), ec.certificate()), PemFiles.certificates(chain));
  }

  @Test
  void refusesAKeyThatIsNotTheCertificatesWithoutShowingIt() {
    String otherKey = TestCertificates.pkcs8Pem(ec.key());

    GeneralSecurityException refused =
        assertThrows(GeneralSecurityException.class, () -> parse(rsa, otherKey));

    assertTrue(refused.getMessage().contains("does not match"), refused.getMessage());
    String keyBase64 = Base64.getEncoder().encodeToString(ec.key().getEncoded());
    assertFalse(refused.getMessage().contains(keyBase64.substring(0, 20)));
  }

  @Test
  void refusesAKeyOfTheSameAlgorithmThatIsNotTheCertificates() {
    GeneralSecurityException refused =
        assertThrows(
            GeneralSecurityException.class,
            () -> parse(rsa, TestCertificates.pkcs8Pem(otherRsa.key())));

    assertEquals(
        "tls.crt and tls.key: the private key does not match the first certificate",
        refused.getMessage());
  }

  @Test
  void refusesEncryptedMissingAndGarbledKeys() {
    assertThrows(
        GeneralSecurityException.class,
        () ->
            parse(
                rsa,
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"));
    assertThrows(GeneralSecurityException.class, () -> parse(rsa, "no key here"));
    assertThrows(
        GeneralSecurityException.class,
        () -> parse(rsa, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"));
    assertThrows(GeneralSecurityException.class, () -> PemFiles.certificates("nothing"));
  }

  @Test
  void anEncryptedKeyIsNamedAsEncrypted() throws Exception {
    java.io.StringWriter pem = new java.io.StringWriter();
    try (org.bouncycastle.openssl.jcajce.JcaPEMWriter writer =
        new org.bouncycastle.openssl.jcajce.JcaPEMWriter(pem)) {
      writer.writeObject(
          new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(
              ec.key(),
              new org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder(
                      org.bouncycastle.openssl.PKCS8Generator.AES_256_CBC)
                  .setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider())
                  .setPassword("secret".toCharArray())
                  .build()));
    }

    GeneralSecurityException refused =
        assertThrows(GeneralSecurityException.class, () -> PemFiles.privateKey(pem.toString()));
    assertEquals(
        "the private key is encrypted: give an unencrypted PKCS#8, PKCS#1 or SEC1 key",
        refused.getMessage());
  }
}
