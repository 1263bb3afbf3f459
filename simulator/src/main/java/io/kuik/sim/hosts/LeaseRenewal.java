package io.kuik.sim.hosts;

import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.node.ObjectNode;

/** The leader-election Lease a syncer incarnation renews while it is alive. */
final class LeaseRenewal {

  /** The production defaults of the leader election: its Lease, renewed every 2 s for 15 s. */
  static final String LEASE_NAME = "kuik-secret-syncer";

  static final Duration LEASE_RENEW = Duration.ofSeconds(2);
  static final Duration LEASE_DURATION = Duration.ofSeconds(15);

  /** A Lease's MicroTime. */
  private static final java.time.format.DateTimeFormatter LEASE_TIME =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
          .withZone(java.time.ZoneOffset.UTC);

  private final ApiServer api;
  private final Identity identity;
  private final String namespace;
  private final String name;
  private final BooleanSupplier alive;

  LeaseRenewal(
      ApiServer api, Identity identity, String namespace, String name, BooleanSupplier alive) {
    this.api = api;
    this.identity = identity;
    this.namespace = namespace;
    this.name = name;
    this.alive = alive;
  }

  /**
   * The leader-election Lease the production syncer's leader renews every retry period (2 s, for 15
   * s): the webhook gates pods only while it is fresh. The simulator runs one syncer, always the
   * leader; a halted one stops renewing, and the Lease goes stale after its duration.
   */
  void renew() {
    if (!alive.getAsBoolean()) {
      return;
    }
    String renewed = LEASE_TIME.format(api.loop().now());
    try {
      try {
        api.mergePatch(
            identity,
            ResourceType.LEASE,
            namespace,
            LEASE_NAME,
            Json.MAPPER.readTree(
                "{\"spec\":{\"holderIdentity\":\""
                    + name
                    + "\",\"renewTime\":\""
                    + renewed
                    + "\"}}"),
            "kuik-secret-syncer-lease");
      } catch (ApiException missing) {
        if (missing.code() != 404) {
          throw missing;
        }
        ObjectNode lease = Json.object();
        lease.put("apiVersion", "coordination.k8s.io/v1");
        lease.put("kind", "Lease");
        lease.putObject("metadata").put("name", LEASE_NAME).put("namespace", namespace);
        lease
            .putObject("spec")
            .put("holderIdentity", name)
            .put("leaseDurationSeconds", LEASE_DURATION.toSeconds())
            .put("acquireTime", renewed)
            .put("renewTime", renewed);
        api.create(identity, lease);
      }
    } catch (ApiException refused) {
      // As fabric8's elector: a renewal that fails is tried again at the next period.
    }
    api.loop().schedule(LEASE_RENEW, name + " renews its lease", this::renew);
  }
}
