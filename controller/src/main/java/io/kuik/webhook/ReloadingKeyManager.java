package io.kuik.webhook;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongSupplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;

/**
 * The webhook's server certificate, read from the PEM files a Kubernetes TLS Secret mounts and read
 * again when they change: at a handshake, at most once per check interval, the files are read and
 * compared with what is being served (their content, since a Secret volume swaps files through a
 * symlink and modification times can tie within a second). New content that does not parse, or
 * whose key does not match its certificate (a rotation caught half-way), is logged and the previous
 * certificate stays in service until the next check.
 *
 * <p>Each loaded pair is a generation whose number is in its alias, so a handshake that picked an
 * alias before a reload still gets the chain and key of that same generation.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {

  private static final System.Logger LOG = System.getLogger(ReloadingKeyManager.class.getName());
  private static final String ALIAS_PREFIX = "kuik-webhook-";
  private static final char[] NO_PASSWORD = new char[0];

  private record Generation(int number, X509KeyManager manager, byte[] cert, byte[] key) {
    String alias() {
      return ALIAS_PREFIX + number;
    }
  }

  private final Path certFile;
  private final Path keyFile;
  private final long checkIntervalNanos;
  private final LongSupplier nanoTime;
  private volatile Generation current;
  private volatile Generation previous;
  private volatile long lastCheck;
  private byte[] lastRefusedCert;
  private byte[] lastRefusedKey;

  /**
   * @throws GeneralSecurityException naming the files when the first pair cannot be served: the
   *     webhook must not start without a certificate
   */
  ReloadingKeyManager(Path certFile, Path keyFile, Duration checkInterval, LongSupplier nanoTime)
      throws IOException, GeneralSecurityException {
    this.certFile = certFile;
    this.keyFile = keyFile;
    this.checkIntervalNanos = checkInterval.toNanos();
    this.nanoTime = nanoTime;
    byte[] cert = Files.readAllBytes(certFile);
    byte[] key = Files.readAllBytes(keyFile);
    this.current = load(1, cert, key);
    this.lastCheck = nanoTime.getAsLong();
  }

  /** The leaf certificate being served now. */
  X509Certificate servedCertificate() {
    return current.manager.getCertificateChain(current.alias())[0];
  }

  /** Reads the files again if the check interval has passed; never throws. */
  void reloadIfChanged() {
    long now = nanoTime.getAsLong();
    if (now - lastCheck < checkIntervalNanos) {
      return;
    }
    synchronized (this) {
      if (now - lastCheck < checkIntervalNanos) {
        return;
      }
      lastCheck = now;
      Generation serving = current;
      byte[] cert;
      byte[] key;
      try {
        cert = Files.readAllBytes(certFile);
        key = Files.readAllBytes(keyFile);
      } catch (IOException unreadable) {
        LOG.log(
            Level.WARNING,
            "TLS files unreadable, serving the previous certificate: {0}",
            unreadable.getMessage());
        return;
      }
      if (Arrays.equals(cert, serving.cert) && Arrays.equals(key, serving.key)) {
        return;
      }
      try {
        Generation next = load(serving.number + 1, cert, key);
        previous = serving;
        current = next;
        lastRefusedCert = null;
        lastRefusedKey = null;
        LOG.log(
            Level.INFO,
            "TLS certificate reloaded from {0}: subject {1}, valid until {2}",
            certFile,
            servedCertificate().getSubjectX500Principal().getName(),
            servedCertificate().getNotAfter().toInstant());
      } catch (GeneralSecurityException refused) {
        if (!Arrays.equals(cert, lastRefusedCert) || !Arrays.equals(key, lastRefusedKey)) {
          LOG.log(
              Level.WARNING,
              "TLS files changed but cannot be served yet: {0}",
              refused.getMessage());
          lastRefusedCert = cert;
          lastRefusedKey = key;
        }
      }
    }
  }

  private Generation load(int number, byte[] cert, byte[] key) throws GeneralSecurityException {
    TlsMaterial material = TlsMaterial.parse(cert, key, certFile + " and " + keyFile);
    KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (IOException impossible) {
      throw new GeneralSecurityException("cannot create an in-memory key store", impossible);
    }
    String alias = ALIAS_PREFIX + number;
    store.setKeyEntry(
        alias, material.key(), NO_PASSWORD, material.chain().toArray(new X509Certificate[0]));
    // SunX509 returns the key store's own aliases, which carry the generation number.
    KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
    factory.init(store, NO_PASSWORD);
    for (KeyManager manager : factory.getKeyManagers()) {
      if (manager instanceof X509KeyManager) {
        return new Generation(number, (X509KeyManager) manager, cert, key);
      }
    }
    throw new GeneralSecurityException("the JDK offers no X509 key manager");
  }

  private Generation generationOf(String alias) {
    Generation serving = current;
    if (serving.alias().equals(alias)) {
      return serving;
    }
    Generation before = previous;
    return before != null && before.alias().equals(alias) ? before : serving;
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    reloadIfChanged();
    return current.manager.chooseServerAlias(keyType, issuers, null);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    reloadIfChanged();
    return current.manager.chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return current.manager.getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return generationOf(alias).manager.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return generationOf(alias).manager.getPrivateKey(alias);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }
}
