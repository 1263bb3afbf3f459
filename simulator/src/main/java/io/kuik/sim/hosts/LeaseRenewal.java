package io.kuik.sim.hosts;

import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The leader-election Lease the production syncer's leader renews every retry period (2 s, for 15
 * s), by the name it is told ({@code --lease-name}): the webhook gates pods only while it is fresh.
 * The simulator runs one syncer, always the leader; a halted one stops renewing, and the Lease goes
 * stale after its duration.
 */
final class LeaseRenewal {

  /** The production defaults of the leader election: the Lease renewed every 2 s for 15 s. */
  static final Duration RENEW = Duration.ofSeconds(2);

  static final Duration DURATION = Duration.ofSeconds(15);

  /** A Lease's MicroTime. */
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

  private final ApiServer api;
  private final Identity identity;
  private final String namespace;
  private final String lease;
  private final String holder;
  private final BooleanSupplier alive;

  LeaseRenewal(
      ApiServer api,
      Identity identity,
      String namespace,
      String lease,
      String holder,
      BooleanSupplier alive) {
    this.api = api;
    this.identity = identity;
    this.namespace = namespace;
    this.lease = lease;
    this.holder = holder;
    this.alive = alive;
  }

  /** Renews now and every {@link #RENEW} while the process is alive. */
  void renew() {
    if (!alive.getAsBoolean()) {
      return;
    }
    String renewed = TIME.format(api.loop().now());
    try {
      try {
        api.mergePatch(
            identity,
            ResourceType.LEASE,
            namespace,
            lease,
            Json.MAPPER.readTree(
                "{\"spec\":{\"holderIdentity\":\""
                    + holder
                    + "\",\"renewTime\":\""
                    + renewed
                    + "\"}}"),
            "kuik-secret-syncer-lease");
      } catch (ApiException missing) {
        if (missing.code() != 404) {
          throw missing;
        }
        ObjectNode object = Json.object();
        object.put("apiVersion", "coordination.k8s.io/v1");
        object.put("kind", "Lease");
        object.putObject("metadata").put("name", lease).put("namespace", namespace);
        object
            .putObject("spec")
            .put("holderIdentity", holder)
            .put("leaseDurationSeconds", DURATION.toSeconds())
            .put("acquireTime", renewed)
            .put("renewTime", renewed);
        api.create(identity, object);
      }
    } catch (ApiException refused) {
      // As fabric8's elector: a renewal that fails is tried again at the next period.
    }
    api.loop().schedule(RENEW, holder + " renews its lease", this::renew);
  }
}
