package io.kuik.sim.check;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Resource;
import io.kuik.sim.trace.TraceRecord;
import java.util.Optional;

/**
 * The syncer reads Secrets only in its install namespace, the cluster resource namespace (
 * docs/behaviour.md#what-the-syncer-may-read): no get, list or watch of Secrets anywhere else,
 * cluster-wide included.
 */
public final class SecretsReadOnlyInInstallNamespace extends SyncerRequestInvariant {

  private final String installNamespace;

  public SecretsReadOnlyInInstallNamespace(Actor syncer, String installNamespace) {
    super(syncer);
    this.installNamespace = installNamespace;
  }

  @Override
  public String name() {
    return "secrets-read-only-in-install-namespace";
  }

  @Override
  Optional<Violation> judge(TraceRecord.Request r) {
    if (!r.kind().reads()
        || !r.target().isA(Resource.SECRETS)
        || r.target().isSecretIn(installNamespace)) {
      return Optional.empty();
    }
    return Optional.of(
        new Violation(
            name(),
            "the syncer read " + r.target() + " outside its install namespace " + installNamespace,
            null));
  }
}
