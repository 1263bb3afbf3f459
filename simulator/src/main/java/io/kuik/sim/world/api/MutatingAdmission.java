package io.kuik.sim.world.api;

import io.kuik.sim.world.object.LabelSelector;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * A mutating admission webhook registration: which resources and operations it intercepts, what
 * happens when it cannot answer ({@link FailurePolicy}), how long the API server waits, and the
 * handler (the real webhook code, called in process).
 *
 * <p>A handler that throws, that is marked down, or whose response reports a latency over {@code
 * timeout} has failed: with {@link FailurePolicy#IGNORE} the request goes on unchanged, with {@link
 * FailurePolicy#FAIL} it is refused with 500 InternalError. Requests take no virtual time: latency
 * only decides whether the call timed out.
 *
 * <p>{@code namespaceSelector} is the webhook's: a request in a namespace whose labels it does not
 * select never reaches the webhook (see {@code MutatingChain}).
 */
public record MutatingAdmission(
    String name,
    Set<ResourceType> resources,
    Set<Operation> operations,
    LabelSelector namespaceSelector,
    FailurePolicy failurePolicy,
    Duration timeout,
    Handler handler) {

  public MutatingAdmission {
    Objects.requireNonNull(name, "name");
    resources = Set.copyOf(resources);
    operations = Set.copyOf(operations);
    Objects.requireNonNull(namespaceSelector, "namespaceSelector");
    Objects.requireNonNull(failurePolicy, "failurePolicy");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(handler, "handler");
  }

  /** A webhook of every namespace (an empty namespaceSelector). */
  public MutatingAdmission(
      String name,
      Set<ResourceType> resources,
      Set<Operation> operations,
      FailurePolicy failurePolicy,
      Duration timeout,
      Handler handler) {
    this(name, resources, operations, LabelSelector.EVERYTHING, failurePolicy, timeout, handler);
  }

  public boolean intercepts(ResourceType type, Operation operation) {
    return resources.contains(type) && operations.contains(operation);
  }

  /** What the API server does when the webhook cannot be called or times out. */
  public enum FailurePolicy {
    IGNORE,
    FAIL
  }

  /** The webhook's code. It receives copies and may return a changed copy of the object. */
  @FunctionalInterface
  public interface Handler {
    Response admit(AdmissionRequest request);
  }

  /**
   * The webhook's answer: allowed (with the object to store, or null to leave it unchanged) or
   * denied with a message, and how long the call took.
   */
  public record Response(boolean allowed, ObjectNode patched, String message, Duration latency) {

    public Response {
      Objects.requireNonNull(latency, "latency");
    }

    public static Response allow() {
      return new Response(true, null, null, Duration.ZERO);
    }

    public static Response patch(ObjectNode patched) {
      return new Response(true, Objects.requireNonNull(patched, "patched"), null, Duration.ZERO);
    }

    public static Response deny(String message) {
      return new Response(false, null, message, Duration.ZERO);
    }

    public Response withLatency(Duration latency) {
      return new Response(allowed, patched, message, latency);
    }
  }
}
