package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.Optional;
import java.util.Set;

/**
 * The syncer reads Secrets only in its install namespace, the cluster resource namespace (
 * docs/behaviour.md#what-the-syncer-may-read): no get, list or watch of Secrets anywhere else,
 * cluster-wide included.
 */
public final class SecretsReadOnlyInInstallNamespace extends SyncerRequestInvariant {

  private static final Set<String> READS = Set.of("GET", "LIST", "WATCH");

  private final String installNamespace;

  public SecretsReadOnlyInInstallNamespace(String syncerActor, String installNamespace) {
    super(syncerActor);
    this.installNamespace = installNamespace;
  }

  @Override
  public String name() {
    return "secrets-read-only-in-install-namespace";
  }

  @Override
  Optional<Violation> judge(TraceRecord.Request r) {
    if (!READS.contains(r.action())
        || !r.target().startsWith("secrets")
        || r.target().startsWith("secrets " + installNamespace + "/")) {
      return Optional.empty();
    }
    return Optional.of(
        new Violation(
            name(),
            "the syncer read " + r.target() + " outside its install namespace " + installNamespace,
            null));
  }
}
