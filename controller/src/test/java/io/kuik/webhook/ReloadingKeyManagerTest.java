package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kuik.LogLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key manager alone, on a clock the test moves: when it reads the files again, which generation
 * each alias names, and what it logs about a pair it cannot serve.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReloadingKeyManagerTest {

  private static final Duration INTERVAL = Duration.ofSeconds(10);

  /** A start below zero, as {@link System#nanoTime()} may be. */
  private static final long START = -Duration.ofHours(1).toNanos();

  private TestCertificates.Pair first;
  private TestCertificates.Pair second;
  private TestCertificates.Pair third;
  private Path directory;
  private Path certFile;
  private Path keyFile;
  private final AtomicLong clock = new AtomicLong();
  private LogLines log;
  private ReloadingKeyManager keys;

  @BeforeAll
  void generate(@TempDir Path directory) throws Exception {
    this.directory = directory;
    first = TestCertificates.generate(directory, "first", "RSA");
    second = TestCertificates.generate(directory, "second", "RSA");
    third = TestCertificates.generate(directory, "third", "RSA");
  }

  @BeforeEach
  void start() throws Exception {
    certFile = Files.createTempFile(directory, "tls", ".crt");
    keyFile = Files.createTempFile(directory, "tls", ".key");
    write(first);
    clock.set(START);
    keys = new ReloadingKeyManager(certFile, keyFile, INTERVAL, clock::get);
    log = LogLines.of(ReloadingKeyManager.class);
  }

  @AfterEach
  void stopCapturing() {
    log.close();
  }

  private void write(TestCertificates.Pair pair) throws Exception {
    TestCertificates.write(certFile, keyFile, pair, TestCertificates.pkcs8Pem(pair.key()));
  }

  private void later(Duration elapsed) {
    clock.addAndGet(elapsed.toNanos());
  }

  /** The alias a handshake over an engine gets now, which may read the files first. */
  private String handshake() {
    return keys.chooseEngineServerAlias("RSA", null, null);
  }

  private List<String> warnings() {
    return log.records().stream()
        .filter(r -> r.getLevel() == Level.WARNING)
        .map(LogRecord::getMessage)
        .toList();
  }

  @Test
  void readsTheFilesAgainOnceTheCheckIntervalHasPassedAndNotBefore() throws Exception {
    write(second);

    later(INTERVAL.minusNanos(1));
    assertEquals("kuik-webhook-1", handshake());
    assertEquals(first.certificate(), keys.servedCertificate());

    later(Duration.ofNanos(1));
    assertEquals("kuik-webhook-2", handshake());
    assertEquals(second.certificate(), keys.servedCertificate());
  }

  @Test
  void countsTheIntervalFromTheLastCheckNotFromTheStart() throws Exception {
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());

    write(second);
    later(INTERVAL.minusNanos(1));
    assertEquals("kuik-webhook-1", handshake());
    later(Duration.ofNanos(1));
    assertEquals("kuik-webhook-2", handshake());
  }

  @Test
  void keepsTheGenerationWhileTheFilesAreUnchanged() {
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());
    assertEquals(first.certificate(), keys.servedCertificate());
  }

  @Test
  void numbersEachGenerationOneAfterTheOther() throws Exception {
    write(second);
    later(INTERVAL);
    assertEquals("kuik-webhook-2", handshake());

    write(third);
    later(INTERVAL);
    assertEquals("kuik-webhook-3", handshake());
    assertEquals(third.certificate(), keys.servedCertificate());
  }

  @Test
  void servesAHandshakeThatChoseTheAliasBeforeAReloadFromItsOwnGeneration() throws Exception {
    String before = handshake();
    write(second);
    later(INTERVAL);
    String after = handshake();

    assertArrayEquals(
        new X509Certificate[] {first.certificate()}, keys.getCertificateChain(before));
    assertEquals(first.key(), keys.getPrivateKey(before));
    assertArrayEquals(
        new X509Certificate[] {second.certificate()}, keys.getCertificateChain(after));
    assertEquals(second.key(), keys.getPrivateKey(after));
  }

  @Test
  void knowsNoAliasOlderThanThePreviousGenerationNorAForeignOne() throws Exception {
    assertNull(keys.getCertificateChain("kuik-webhook-2"));
    assertNull(keys.getPrivateKey("elsewhere"));

    write(second);
    later(INTERVAL);
    handshake();
    write(third);
    later(INTERVAL);
    handshake();

    assertNull(keys.getCertificateChain("kuik-webhook-1"));
    assertNull(keys.getPrivateKey("kuik-webhook-1"));
    assertArrayEquals(
        new X509Certificate[] {second.certificate()}, keys.getCertificateChain("kuik-webhook-2"));
  }

  @Test
  void reloadsAtAHandshakeOverASocketToo() throws Exception {
    assertArrayEquals(new String[] {"kuik-webhook-1"}, keys.getServerAliases("RSA", null));

    write(second);
    later(INTERVAL);

    assertEquals("kuik-webhook-2", keys.chooseServerAlias("RSA", null, null));
    assertArrayEquals(new String[] {"kuik-webhook-2"}, keys.getServerAliases("RSA", null));
    assertNull(keys.getServerAliases("EC", null));
  }

  @Test
  void neverOffersAClientCertificate() {
    assertNull(keys.getClientAliases("RSA", null));
    assertNull(keys.chooseClientAlias(new String[] {"RSA"}, null, null));
  }

  @Test
  void warnsOnceAboutAPairItCannotServeAndAgainWhenItChanges() throws Exception {
    // The certificate is rotated first; its key follows later.
    Files.writeString(certFile, TestCertificates.certificatePem(second.certificate()));
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());

    assertEquals(List.of("TLS files changed but cannot be served yet: {0}"), warnings());

    // Then the key of yet another certificate: a new pair that cannot be served either.
    Files.writeString(keyFile, TestCertificates.pkcs8Pem(third.key()));
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());
    // And the certificate again, with the same key: still new.
    Files.writeString(certFile, TestCertificates.certificatePem(first.certificate()));
    later(INTERVAL);
    assertEquals("kuik-webhook-1", handshake());

    assertEquals(3, warnings().size(), warnings().toString());
    assertEquals(first.certificate(), keys.servedCertificate());
  }

  @Test
  void warnsAgainAboutAPairOnceAGoodOneWasServedBetween() throws Exception {
    Files.writeString(certFile, TestCertificates.certificatePem(second.certificate()));
    later(INTERVAL);
    handshake();
    write(second);
    later(INTERVAL);
    assertEquals("kuik-webhook-2", handshake());
    Files.writeString(keyFile, TestCertificates.pkcs8Pem(first.key()));
    Files.writeString(certFile, TestCertificates.certificatePem(second.certificate()));
    later(INTERVAL);
    assertEquals("kuik-webhook-2", handshake());

    assertEquals(2, warnings().size(), warnings().toString());
  }
}
