package io.kuik.sim.check;

import io.kuik.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The syncer reads Secrets only in its install namespace, the cluster resource namespace (
 * docs/behaviour.md#what-the-syncer-may-read): no get, list or watch of Secrets anywhere else,
 * cluster-wide included.
 */
public final class SecretsReadOnlyInInstallNamespace implements Invariant {

  private static final Set<String> READS = Set.of("GET", "LIST", "WATCH");

  private final String syncerActor;
  private final String installNamespace;

  public SecretsReadOnlyInInstallNamespace(String syncerActor, String installNamespace) {
    this.syncerActor = syncerActor;
    this.installNamespace = installNamespace;
  }

  @Override
  public String name() {
    return "secrets-read-only-in-install-namespace";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncerActor)
          && READS.contains(r.action())
          && r.target().startsWith("secrets")
          && !r.target().startsWith("secrets " + installNamespace + "/")) {
        out.add(
            new Violation(
                name(),
                "the syncer read "
                    + r.target()
                    + " outside its install namespace "
                    + installNamespace,
                null));
      }
    }
    return out;
  }
}
