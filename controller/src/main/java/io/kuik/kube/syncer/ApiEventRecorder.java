package io.kuik.kube.syncer;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuik.kube.RootCause;
import io.kuik.model.ResourceId;
import io.kuik.ports.Clock;
import io.kuik.syncer.Answer;
import io.kuik.syncer.Effect.RecordEvent;
import io.kuik.syncer.Effect.RecordEvent.Type;
import io.kuik.syncer.RepeatedFailures;
import java.time.Instant;

/**
 * One {@link RecordEvent} on fabric8: a core/v1 Event on the routing resource (cluster-scoped, so
 * in namespace {@code default}, where {@code kubectl describe} looks) or on a pod (in its
 * namespace). The core paid its write token.
 *
 * <p>Never throws: an Event that cannot be created is logged and dropped. Only the leader records
 * (a standby's core does not run, and a deposed leader's {@link io.kuik.syncer.WriteGate} is
 * closed). It blocks for the round trip, on the executor's thread for statuses and Events.
 */
final class ApiEventRecorder {

  static final String COMPONENT = "kuik-secret-syncer";
  static final String EVENT_NAMESPACE = "default";
  private static final String API_VERSION = "kuik.enix.io/v1alpha1";

  /** The events.k8s.io limit; a core/v1 Event has none, but tools cut long ones anyway. */
  private static final int MAX_MESSAGE = 1024;

  /** Leaves room in a 253-character name for the suffix that makes each Event's name unique. */
  private static final int MAX_NAME_PREFIX = 253 - 17;

  /** Events that could not be recorded (each is dropped), one story per outage. */
  private final RepeatedFailures failures =
      new RepeatedFailures(System.getLogger(ApiEventRecorder.class.getName()), "Events", "Events");

  private final KubernetesClient client;
  private final Clock clock;
  private final String instance;

  ApiEventRecorder(KubernetesClient client, Clock clock, String instance) {
    this.client = client;
    this.clock = clock;
    this.instance = instance;
  }

  void record(RecordEvent recorded) {
    if (recorded.target() instanceof RecordEvent.OnPod pod) {
      recordOnPod(
          pod.namespace(),
          pod.name(),
          recorded.uid(),
          recorded.type(),
          recorded.reason(),
          recorded.message());
    } else {
      record(
          recorded.resource(),
          recorded.uid(),
          recorded.type(),
          recorded.reason(),
          recorded.message());
    }
  }

  void record(ResourceId resource, String uid, Type type, String reason, String message) {
    create(
        resource.toString(),
        event(
            new Involved(
                API_VERSION, resource.kind().kind(), EVENT_NAMESPACE, null, resource.name(), uid),
            type,
            reason,
            message,
            clock.now()));
  }

  void recordOnPod(
      String namespace, String pod, String uid, Type type, String reason, String message) {
    create(
        "pod " + namespace + "/" + pod,
        event(
            new Involved("v1", "Pod", namespace, namespace, pod, uid),
            type,
            reason,
            message,
            clock.now()));
  }

  private void create(String on, Event event) {
    String what = "the " + event.getReason() + " event on " + on;
    try {
      client.v1().events().inNamespace(event.getMetadata().getNamespace()).resource(event).create();
      failures.anySucceeded(clock.now());
    } catch (KubernetesClientException e) {
      Answer.Refused refused = ApplyingSecretWriter.refusal(e);
      failures.failed(what, refused.summary(), refused.message(), clock.now(), null);
    } catch (RuntimeException broken) {
      failures.failed(what, "not sent", RootCause.of(broken), clock.now(), null);
    }
  }

  /**
   * The object an Event is about, and the namespace the Event goes to: a routing resource's go to
   * {@code default}, a pod's to its own namespace.
   */
  record Involved(
      String apiVersion,
      String kind,
      String eventNamespace,
      String namespace,
      String name,
      String uid) {}

  /** The Event on a routing resource, as {@link #record} sends it. */
  Event event(
      ResourceId resource, String uid, Type type, String reason, String message, Instant now) {
    return event(
        new Involved(
            API_VERSION, resource.kind().kind(), EVENT_NAMESPACE, null, resource.name(), uid),
        type,
        reason,
        message,
        now);
  }

  /** The Event, named as client-go names them: the object's name, a dot, the time in hex. */
  Event event(Involved object, Type type, String reason, String message, Instant now) {
    String prefix = object.name();
    if (prefix.length() > MAX_NAME_PREFIX) {
      // A cut name may end in '-' or '.', which cannot come before the '.' that follows.
      prefix = prefix.substring(0, MAX_NAME_PREFIX).replaceAll("[-.]+$", "");
    }
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    String timestamp = now.toString();
    return new EventBuilder()
        .withNewMetadata()
        .withName(prefix + "." + Long.toHexString(nanos))
        .withNamespace(object.eventNamespace())
        .endMetadata()
        .withNewInvolvedObject()
        .withApiVersion(object.apiVersion())
        .withKind(object.kind())
        .withNamespace(object.namespace())
        .withName(object.name())
        .withUid(object.uid())
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
