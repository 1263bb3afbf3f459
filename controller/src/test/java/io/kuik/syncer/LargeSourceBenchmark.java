package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.Entry;
import io.kuik.model.RewritePolicy;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * What one read of a source Secret of about 50,000 auths entries within 1 MiB costs: the parse, and
 * resolving every entry of a resource with the most entries the CRD allows (64) against it, as the
 * syncer does once per change and the webhook's prober once per admission. Not a test: a timing
 * claim belongs here (docs/architecture.md#how-it-is-tested); {@link LargeSourcesTest} shows the
 * syncer reads it once per change, not once per pair.
 *
 * <p>Run from the repository root:
 *
 * <pre>
 * ./mvnw -B -o -q -pl controller test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=io.kuik.syncer.LargeSourceBenchmark
 * </pre>
 */
public final class LargeSourceBenchmark {

  private LargeSourceBenchmark() {}

  public static void main(String[] args) throws Exception {
    String json =
        LargeSourcesTest.fiftyThousandEntries(
            "quay.io/acme", Base64.getEncoder().encodeToString("acme:s3cret".getBytes()));
    Secret source = SyncerHarness.dockerConfigSecret("big", json);
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      entries.add(SyncerHarness.repository(i, "quay.io/acme/app-" + i, "big"));
    }
    RoutingResource resource =
        SyncerHarness.alternative(
            "acme", RewritePolicy.ALWAYS, null, entries.toArray(Entry[]::new));
    int rounds = 30;
    for (int warm = 0; warm < 10; warm++) {
      DockerConfig.parse(json);
      EntryCredentials.resolve(
          resource, "kuik-system", name -> Optional.of(source), ProviderLookup.NONE);
    }
    long parse = 0;
    long resolve = 0;
    for (int i = 0; i < rounds; i++) {
      long t0 = System.nanoTime();
      DockerConfig.parse(json);
      long t1 = System.nanoTime();
      EntryCredentials credentials =
          EntryCredentials.resolve(
              resource, "kuik-system", name -> Optional.of(source), ProviderLookup.NONE);
      long t2 = System.nanoTime();
      parse += t1 - t0;
      resolve += t2 - t1;
      if (credentials.credentials().size() != 64) {
        throw new AssertionError("every entry resolves: " + credentials.credentials().size());
      }
    }
    System.out.printf(
        "source of %,d bytes, 50,001 auths entries: parse %.1f ms; resolving 64 entries (parse"
            + " included) %.1f ms; mean of %d rounds%n",
        json.length(), parse / 1e6 / rounds, resolve / 1e6 / rounds, rounds);
  }
}
