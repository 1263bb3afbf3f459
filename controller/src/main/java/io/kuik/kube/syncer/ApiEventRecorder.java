package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.model.ResourceId;
import io.kuik.ports.Clock;
import io.kuik.syncer.Effect.RecordEvent;
import io.kuik.syncer.Effect.RecordEvent.Type;
import java.time.Instant;
import java.util.logging.Logger;

/**
 * One {@link RecordEvent} on fabric8: a core/v1 Event on the routing resource (cluster-scoped, so
 * in namespace {@code default}, where {@code kubectl describe} looks). The core paid its write
 * token.
 *
 * <p>Never throws: an Event that cannot be created is logged and dropped. Only the leader records
 * (a standby's core does not run, and a deposed leader's fence is closed). It blocks for the round
 * trip, on the driver's thread for statuses and Events.
 */
final class ApiEventRecorder {

  static final String COMPONENT = "kuik-secret-syncer";
  static final String EVENT_NAMESPACE = "default";
  private static final String API_VERSION = "kuik.enix.io/v1alpha1";

  /** The events.k8s.io limit; a core/v1 Event has none, but tools cut long ones anyway. */
  private static final int MAX_MESSAGE = 1024;

  /** Leaves room in a 253-character name for the suffix that makes each Event's name unique. */
  private static final int MAX_NAME_PREFIX = 253 - 17;

  private static final Logger LOG = Logger.getLogger(ApiEventRecorder.class.getName());

  private final KubernetesClient client;
  private final WriteFence fence;
  private final Clock clock;
  private final String instance;

  ApiEventRecorder(KubernetesClient client, WriteFence fence, Clock clock, String instance) {
    this.client = client;
    this.fence = fence;
    this.clock = clock;
    this.instance = instance;
  }

  void record(RecordEvent recorded) {
    if (!fence.isOpen()) {
      return;
    }
    ResourceId resource = recorded.resource();
    String reason = recorded.reason();
    try {
      client
          .v1()
          .events()
          .inNamespace(EVENT_NAMESPACE)
          .resource(
              event(
                  resource,
                  recorded.uid(),
                  recorded.type(),
                  reason,
                  recorded.message(),
                  clock.now()))
          .create();
    } catch (KubernetesClientException e) {
      LOG.warning(
          "could not record the "
              + reason
              + " event on "
              + resource
              + ": "
              + ApplyingSecretWriter.refusal(e).reason()
              + " ("
              + e.getCode()
              + ")");
    } catch (RuntimeException broken) {
      LOG.warning(
          "could not record the " + reason + " event on " + resource + ": " + broken.getClass());
    }
  }

  /** The Event, named as client-go names them: the object's name, a dot, the time in hex. */
  Event event(
      ResourceId resource, String uid, Type type, String reason, String message, Instant now) {
    String prefix = resource.name();
    if (prefix.length() > MAX_NAME_PREFIX) {
      // A cut name may end in '-' or '.', which cannot come before the '.' that follows.
      prefix = prefix.substring(0, MAX_NAME_PREFIX).replaceAll("[-.]+$", "");
    }
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    String timestamp = now.toString();
    return new EventBuilder()
        .withNewMetadata()
        .withName(prefix + "." + Long.toHexString(nanos))
        .withNamespace(EVENT_NAMESPACE)
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(API_VERSION)
        .withKind(resource.kind().kind())
        .withName(resource.name())
        .withUid(uid)
        .endInvolvedObject()
        .withType(type.name())
        .withReason(reason)
        .withMessage(message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message)
        .withNewSource()
        .withComponent(COMPONENT)
        .endSource()
        .withReportingComponent(COMPONENT)
        .withReportingInstance(instance)
        .withFirstTimestamp(timestamp)
        .withLastTimestamp(timestamp)
        .withCount(1)
        .build();
  }
}
