package io.kuik.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.RegistryProber.Availability;
import io.kuik.ports.RegistryProber.Probe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production prober against a real registry ({@link LocalRegistry}) with htpasswd Basic auth;
 * each test is skipped, saying which script installs it, when the registry is not installed. The
 * assumption sits in {@code @BeforeEach}, so that Surefire counts every test as skipped (in
 * {@code @BeforeAll} it would report the class with no test at all).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RegistryProbeTest {

  private static final RegistryCredential ALICE = RegistryCredential.basic("alice", "s3cret");

  /** The registry's data, one directory for the whole class. */
  @TempDir static Path registryDirectory;

  private LocalRegistry registry;
  private String digest;
  private OciRegistryProber prober;

  /** Started by the first test that runs, shared by the others. */
  @BeforeEach
  void startRegistry() throws Exception {
    LocalRegistry.assumeInstalled();
    if (registry == null) {
      registry = LocalRegistry.start(registryDirectory, "alice", "s3cret");
      digest = registry.push("acme/app", "1");
    }
  }

  @AfterAll
  void stopRegistry() {
    if (registry != null) {
      registry.close();
    }
  }

  @BeforeEach
  void newProber() {
    prober =
        new OciRegistryProber(ProberSettings.defaults().withProbeTimeout(Duration.ofSeconds(5)));
  }

  @AfterEach
  void closeProber() {
    prober.close();
  }

  private static Probe probe(String host, String repositoryAndReference, RegistryCredential c) {
    try {
      return new Probe(ImageReference.parse(host + "/" + repositoryAndReference), c);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private Availability answer(String repositoryAndReference, RegistryCredential credential) {
    return prober.probe(List.of(probe(registry.host(), repositoryAndReference, credential))).get(0);
  }

  @Test
  void findsAPushedImageByTagAndByDigest() {
    assertEquals(Availability.AVAILABLE, answer("acme/app:1", ALICE));
    assertEquals(Availability.AVAILABLE, answer("acme/app@" + digest, ALICE));
  }

  @Test
  void answersNotFoundForAMissingTagOrRepository() {
    assertEquals(Availability.NOT_FOUND, answer("acme/app:2", ALICE));
    assertEquals(Availability.NOT_FOUND, answer("acme/nothing:1", ALICE));
  }

  @Test
  void answersUnauthorizedWithoutACredential() {
    assertEquals(Availability.UNAUTHORIZED, answer("acme/app:1", null));
  }

  @Test
  void answersUnauthorizedWithAWrongCredential() {
    assertEquals(
        Availability.UNAUTHORIZED, answer("acme/app:1", RegistryCredential.basic("alice", "no")));
    assertEquals(
        Availability.UNAUTHORIZED, answer("acme/app:1", RegistryCredential.basic("bob", "s3cret")));
  }

  @Test
  void answersUnreachableOnceTheRegistryStopped(@TempDir Path directory) throws Exception {
    String host;
    try (LocalRegistry stopped = LocalRegistry.start(directory, "alice", "s3cret")) {
      host = stopped.host();
      stopped.push("acme/app", "1");
      assertEquals(
          List.of(Availability.AVAILABLE), prober.probe(List.of(probe(host, "acme/app:1", ALICE))));
    }

    assertEquals(
        List.of(Availability.UNREACHABLE), prober.probe(List.of(probe(host, "acme/app:2", ALICE))));
  }

  @Test
  void answersARepeatedProbeFromTheCache() throws Exception {
    try (CountingProxy proxy = new CountingProxy(registry.host())) {
      Probe probe = probe(proxy.host(), "acme/app:1", ALICE);
      assertEquals(List.of(Availability.AVAILABLE), prober.probe(List.of(probe)));
      int requests = proxy.requests.get();

      assertEquals(List.of(Availability.AVAILABLE), prober.probe(List.of(probe)));

      assertEquals(requests, proxy.requests.get());
      assertEquals(1, prober.cacheHits());
    }
  }

  @Test
  void collapsesConcurrentProbesOfOneImageIntoOneRequest() throws Exception {
    int callers = 20;
    int requestsOfOneProbe;
    try (CountingProxy proxy = new CountingProxy(registry.host());
        OciRegistryProber alone = new OciRegistryProber(ProberSettings.defaults())) {
      alone.probe(List.of(probe(proxy.host(), "acme/app:1", ALICE)));
      requestsOfOneProbe = proxy.requests.get();
    }
    assertTrue(requestsOfOneProbe >= 1);

    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try (CountingProxy proxy = new CountingProxy(registry.host())) {
      proxy.hold();
      Probe probe = probe(proxy.host(), "acme/app:1", ALICE);
      List<Future<List<Availability>>> answers = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        answers.add(pool.submit(() -> prober.probe(List.of(probe))));
      }
      // Every caller but the first must have joined the probe in flight before it is let through.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (prober.collapsed() < callers - 1 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      proxy.open();

      for (Future<List<Availability>> answer : answers) {
        assertEquals(List.of(Availability.AVAILABLE), answer.get(10, TimeUnit.SECONDS));
      }
      assertEquals(callers - 1, prober.collapsed());
      assertEquals(requestsOfOneProbe, proxy.requests.get());
    } finally {
      pool.shutdownNow();
    }
  }
}
