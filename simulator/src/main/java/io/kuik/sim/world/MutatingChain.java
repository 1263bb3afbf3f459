package io.kuik.sim.world;

import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.MutatingAdmission;
import io.kuik.sim.world.api.MutatingAdmission.FailurePolicy;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.ObjectRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.node.ObjectNode;

/**
 * The mutating admission webhooks, called in registration order, each seeing the object as the
 * previous one left it. A webhook that is down, throws, or answers later than its timeout has
 * failed: Ignore goes on (and leaves a note in the trace), Fail refuses with 500. Dry runs call
 * them too: admissionregistration.k8s.io/v1 only registers webhooks whose sideEffects are None or
 * NoneOnDryRun, so the API server never refuses a dry run for a webhook's sake.
 *
 * <p>A webhook is called only for a request its namespaceSelector selects, as the API server's
 * matcher decides it (kubernetes/kubernetes {@code
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/namespace/matcher.go},
 * {@code MatchNamespaceSelector}): a cluster-scoped object other than a namespace always matches,
 * an empty selector matches everything, a namespace's own create or update is judged by the labels
 * it carries, and anything else by the labels of the namespace it is in.
 */
public final class MutatingChain {

  private final List<MutatingAdmission> webhooks = new ArrayList<>();
  private final Set<String> down = new TreeSet<>();
  private final Trace trace;
  private final Supplier<Instant> clock;
  private final Function<String, Map<String, String>> namespaceLabels;

  MutatingChain(
      Trace trace, Supplier<Instant> clock, Function<String, Map<String, String>> namespaceLabels) {
    this.trace = trace;
    this.clock = clock;
    this.namespaceLabels = namespaceLabels;
  }

  /** Registers a webhook, replacing one of the same name. */
  public void register(MutatingAdmission webhook) {
    webhooks.removeIf(w -> w.name().equals(webhook.name()));
    webhooks.add(webhook);
  }

  public void unregister(String name) {
    webhooks.removeIf(w -> w.name().equals(name));
  }

  /** A webhook marked down cannot be reached: its failure policy decides. */
  public void markDown(String name, boolean isDown) {
    if (isDown) {
      down.add(name);
    } else {
      down.remove(name);
    }
  }

  ObjectNode admit(AdmissionRequest request) {
    ObjectNode object = request.object();
    for (MutatingAdmission w : webhooks) {
      if (!w.intercepts(request.attributes().type(), request.operation())
          || !namespaceSelected(w, request, object)) {
        continue;
      }
      AdmissionRequest call =
          new AdmissionRequest(
              request.attributes(),
              request.operation(),
              object == null ? null : object.deepCopy(),
              request.oldObject() == null ? null : request.oldObject().deepCopy(),
              request.dryRun());
      String failure = null;
      MutatingAdmission.Response response = null;
      if (down.contains(w.name())) {
        failure = "dial tcp: connect: connection refused";
      } else {
        try {
          response = w.handler().admit(call);
          if (response.latency().compareTo(w.timeout()) > 0) {
            failure = "context deadline exceeded";
            response = null;
          }
        } catch (RuntimeException e) {
          failure = "the webhook failed: " + e.getClass().getSimpleName();
        }
      }
      if (failure != null) {
        String message =
            "failed calling webhook \""
                + w.name()
                + "\": failed to call webhook: Post \"https://"
                + w.name()
                + "/mutate?timeout="
                + w.timeout().toSeconds()
                + "s\": "
                + failure;
        if (w.failurePolicy() == FailurePolicy.FAIL) {
          throw ApiException.internal(message);
        }
        trace.add(new Note.FailedOpen(clock.get(), new Actor(w.name()), target(request), message));
        continue;
      }
      if (!response.allowed()) {
        throw new ApiException(
            StatusReason.FORBIDDEN,
            "admission webhook \""
                + w.name()
                + "\" denied the request"
                + (response.message() == null
                    ? " without explanation"
                    : ": " + response.message()));
      }
      if (response.patched() != null) {
        object = response.patched().deepCopy();
      }
    }
    return object;
  }

  private boolean namespaceSelected(
      MutatingAdmission webhook, AdmissionRequest request, ObjectNode object) {
    var attributes = request.attributes();
    boolean isNamespace = attributes.type().equals(ResourceType.NAMESPACE);
    String namespace = attributes.namespace();
    if ((namespace == null || namespace.isEmpty()) && !isNamespace) {
      return true;
    }
    if (webhook.namespaceSelector().isEverything()) {
      return true;
    }
    if (isNamespace && attributes.subresource() == null && object != null) {
      return webhook.namespaceSelector().matches(Meta.labels(object));
    }
    return webhook.namespaceSelector().matches(namespaceLabels.apply(namespace));
  }

  private static String target(AdmissionRequest request) {
    var a = request.attributes();
    return a.name() == null
        ? a.type().resource()
        : new ObjectRef(a.type(), a.namespace(), a.name()).toString();
  }
}
