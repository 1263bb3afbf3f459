package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuik.kube.PodGates;
import io.kuik.model.ResourceId;
import io.kuik.model.WriteBounds;
import io.kuik.registry.CredentialTrier;
import io.kuik.syncer.Effect;
import io.kuik.syncer.Lane;
import io.kuik.syncer.Pair;
import io.kuik.syncer.RoutingStatus;
import io.kuik.syncer.WriteGate;
import java.time.Duration;
import java.util.Set;

/**
 * The production wire of one mock API server behind its {@link WriteGate}, as {@link SyncerRuntime}
 * builds it: the tests of each writer send through the gate, as the driver does.
 */
final class GatedWire {

  static final WriteBounds IN_PLACE = new WriteBounds(true, "in place");

  private GatedWire() {}

  static WriteGate over(
      KubernetesClient client,
      ApplyingSecretWriter secrets,
      ApplyingStatusWriter statuses,
      ApiEventRecorder events) {
    return new WriteGate(
        new FabricWire(
            secrets,
            statuses,
            events,
            new PodGates(client),
            new CredentialTrier(Duration.ofSeconds(1), Set.of())));
  }

  /** The gate of a leader whose policy is in place. */
  static WriteGate open(WriteGate gate) {
    gate.leading(true);
    gate.bounds(IN_PLACE);
    return gate;
  }

  static Effect.ApplySecret apply(Secret secret) {
    return new Effect.ApplySecret(
        secret,
        new Pair(
            ResourceId.parse("ImageAlternative/acme").orElseThrow(),
            secret.getMetadata().getNamespace()),
        Lane.EVENT,
        "uid",
        0,
        true);
  }

  static Effect.WriteStatus write(RoutingStatus status) {
    return new Effect.WriteStatus(status);
  }
}
