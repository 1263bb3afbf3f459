package io.kuik.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates for the HTTPS tests, made by the JDK's {@code keytool} (for {@code
 * localhost}, {@code 127.0.0.1} and {@code 127.0.0.2}) and written out as PEM in each encoding the
 * webhook reads. Public for the webhook load harness ({@code io.kuik.load}).
 */
public final class TestCertificates {

  private static final String PASSWORD = "changeit";

  public record Pair(X509Certificate certificate, PrivateKey key) {}

  private TestCertificates() {}

  /** A new key pair and certificate; {@code keyAlgorithm} is {@code RSA} or {@code EC}. */
  public static Pair generate(Path directory, String name, String keyAlgorithm)
      throws IOException, InterruptedException, GeneralSecurityException {
    Path store = directory.resolve(name + ".p12");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                name,
                "-keyalg",
                keyAlgorithm,
                "-dname",
                "CN=kuik-webhook-" + name,
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1,ip:127.0.0.2",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD,
                "-noprompt"));
    if (keyAlgorithm.equals("EC")) {
      command.addAll(List.of("-groupname", "secp256r1"));
    } else {
      command.addAll(List.of("-keysize", "2048"));
    }
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (keytool.waitFor() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    return new Pair(
        (X509Certificate) keys.getCertificate(name),
        (PrivateKey) keys.getKey(name, PASSWORD.toCharArray()));
  }

  static String certificatePem(X509Certificate certificate) throws GeneralSecurityException {
    return pem("CERTIFICATE", certificate.getEncoded());
  }

  static String pkcs8Pem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  /** An RSA key as {@code RSA PRIVATE KEY}: the PKCS#1 structure inside its PKCS#8 encoding. */
  public static String pkcs1Pem(PrivateKey rsa) {
    try {
      return pem("RSA PRIVATE KEY", inner(rsa).toASN1Primitive().getEncoded());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An EC key as {@code EC PRIVATE KEY} (SEC1) with its named curve, as OpenSSL and cert-manager
   * write it: the JDK's inner SEC1 structure, with the curve from the PKCS#8 algorithm added.
   */
  public static String sec1Pem(PrivateKey ec) {
    try {
      org.bouncycastle.asn1.pkcs.PrivateKeyInfo info =
          org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(ec.getEncoded());
      org.bouncycastle.asn1.sec.ECPrivateKey sec1 =
          org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
      org.bouncycastle.asn1.sec.ECPrivateKey named =
          new org.bouncycastle.asn1.sec.ECPrivateKey(
              256,
              sec1.getKey(),
              sec1.getPublicKey(),
              info.getPrivateKeyAlgorithm().getParameters());
      return pem("EC PRIVATE KEY", named.getEncoded());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static org.bouncycastle.asn1.ASN1Encodable inner(PrivateKey key)
      throws java.io.IOException {
    return org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded())
        .parsePrivateKey();
  }

  /** Writes the certificate and the key (in the given PEM text) where the server reads them. */
  public static void write(Path certFile, Path keyFile, Pair pair, String keyPem)
      throws IOException, GeneralSecurityException {
    Files.writeString(certFile, certificatePem(pair.certificate()));
    Files.writeString(keyFile, keyPem);
  }

  /** A fresh client TLS context trusting exactly these certificates (no session to resume). */
  public static SSLContext trusting(X509Certificate... certificates)
      throws IOException, GeneralSecurityException {
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    for (int i = 0; i < certificates.length; i++) {
      trusted.setCertificateEntry("trusted-" + i, certificates[i]);
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }
}
