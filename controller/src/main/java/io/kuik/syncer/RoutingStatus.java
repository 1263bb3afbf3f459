package io.kuik.syncer;

import io.kuik.model.Redactor;
import io.kuik.model.ResourceId;
import io.kuik.model.crd.ImageAlternative;
import io.kuik.model.crd.RoutingResourceStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code kubectl get} shows of a routing resource: the condition {@code Valid} (from the
 * validation: {@code reason} and {@code message} say why not), the generation it was decided from,
 * in how many namespaces the syncer's last apply of its Secret holds a credential, and, when it has
 * injecting entries, the condition {@code CredentialsAccepted} with what each registry answered
 * ({@code credentials}, null without such entries), and, when it has injecting provider entries,
 * the condition {@code ProviderCredentialsValid} ({@code providers}, null without).
 */
public record RoutingStatus(
    ResourceId resource,
    long observedGeneration,
    boolean valid,
    String reason,
    String message,
    int secretNamespaces,
    Instant lastTransitionTime,
    Credentials credentials,
    Condition providers) {

  /** One more condition, in metav1.Condition's shape. */
  public record Condition(
      String type, String status, String reason, String message, Instant lastTransitionTime) {
    public Condition {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    }

    /** The same but for the transition time. */
    boolean sameAs(Condition other) {
      return other != null
          && type.equals(other.type)
          && status.equals(other.status)
          && reason.equals(other.reason)
          && message.equals(other.message);
    }
  }

  /**
   * The condition {@code CredentialsAccepted} ({@code True}, {@code False} or {@code Unknown}) and
   * each injecting entry's answer, in the resource's order.
   */
  public record Credentials(
      String status,
      String reason,
      String message,
      Instant lastTransitionTime,
      List<Tried> entries) {
    public Credentials {
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
      entries = List.copyOf(entries);
    }

    /** The same but for the transition time. */
    boolean sameAs(Credentials other) {
      return other != null
          && status.equals(other.status)
          && reason.equals(other.reason)
          && message.equals(other.message)
          && entries.equals(other.entries);
    }
  }

  /**
   * One entry's credential as its registry last answered: {@code outcome} Accepted, Refused,
   * Unreachable or NotTriedYet; {@code answer} the registry's words, never a credential; {@code
   * lastTryTime} null when not tried yet.
   */
  public record Tried(
      String entry, String registry, String outcome, String answer, Instant lastTryTime) {
    public Tried {
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(registry, "registry");
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /** A status without injecting entries. */
  public RoutingStatus(
      ResourceId resource,
      long observedGeneration,
      boolean valid,
      String reason,
      String message,
      int secretNamespaces,
      Instant lastTransitionTime) {
    this(
        resource,
        observedGeneration,
        valid,
        reason,
        message,
        secretNamespaces,
        lastTransitionTime,
        null,
        null);
  }

  /** The routing kinds' API version. */
  public static final String API_VERSION = ImageAlternative.GROUP + "/" + ImageAlternative.VERSION;

  public RoutingStatus {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    if (secretNamespaces < 0 || observedGeneration < 0) {
      throw new IllegalArgumentException("counts are never negative");
    }
  }

  /**
   * The body of the server-side apply: the object's identity and the status fields this manager
   * owns, the condition in metav1.Condition's shape.
   */
  public Map<String, Object> applyConfiguration() {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", RoutingResourceStatus.VALID);
    condition.put("status", valid ? "True" : "False");
    condition.put("observedGeneration", observedGeneration);
    condition.put("lastTransitionTime", lastTransitionTime.toString());
    condition.put("reason", reason);
    condition.put("message", message);
    List<Map<String, Object>> conditions = new ArrayList<>(List.of(condition));
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("observedGeneration", observedGeneration);
    fields.put("secretNamespaces", secretNamespaces);
    fields.put("conditions", conditions);
    if (credentials != null) {
      Map<String, Object> accepted = new LinkedHashMap<>();
      accepted.put("type", RoutingResourceStatus.CREDENTIALS_ACCEPTED);
      accepted.put("status", credentials.status());
      accepted.put("observedGeneration", observedGeneration);
      accepted.put("lastTransitionTime", credentials.lastTransitionTime().toString());
      accepted.put("reason", credentials.reason());
      accepted.put("message", credentials.message());
      conditions.add(accepted);
      List<Map<String, Object>> entries = new ArrayList<>();
      for (Tried tried : credentials.entries()) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("entry", tried.entry());
        entry.put("registry", tried.registry());
        entry.put("outcome", tried.outcome());
        if (tried.answer() != null) {
          entry.put("answer", tried.answer());
        }
        if (tried.lastTryTime() != null) {
          entry.put("lastTryTime", tried.lastTryTime().toString());
        }
        entries.add(entry);
      }
      fields.put("credentials", entries);
    }
    if (providers != null) {
      Map<String, Object> minted = new LinkedHashMap<>();
      minted.put("type", providers.type());
      minted.put("status", providers.status());
      minted.put("observedGeneration", observedGeneration);
      minted.put("lastTransitionTime", providers.lastTransitionTime().toString());
      minted.put("reason", providers.reason());
      minted.put("message", providers.message());
      conditions.add(minted);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("apiVersion", API_VERSION);
    body.put("kind", resource.kind().kind());
    body.put("metadata", Map.of("name", resource.name()));
    body.put("status", fields);
    return body;
  }

  /** The same status, every text of it without any form of the redactor's credentials. */
  public RoutingStatus redacted(Redactor redactor) {
    if (redactor.isEmpty()) {
      return this;
    }
    Credentials shown = credentials;
    if (credentials != null) {
      List<Tried> entries = new ArrayList<>();
      for (Tried tried : credentials.entries()) {
        entries.add(
            new Tried(
                tried.entry(),
                tried.registry(),
                tried.outcome(),
                redactor.redact(tried.answer()),
                tried.lastTryTime()));
      }
      shown =
          new Credentials(
              credentials.status(),
              credentials.reason(),
              redactor.redact(credentials.message()),
              credentials.lastTransitionTime(),
              entries);
    }
    RoutingStatus redacted =
        new RoutingStatus(
            resource,
            observedGeneration,
            valid,
            reason,
            redactor.redact(message),
            secretNamespaces,
            lastTransitionTime,
            shown,
            providers == null
                ? null
                : new Condition(
                    providers.type(),
                    providers.status(),
                    providers.reason(),
                    redactor.redact(providers.message()),
                    providers.lastTransitionTime()));
    return redacted.equals(this) ? this : redacted;
  }

  /** The same status but for the transition time: whether writing it would change anything. */
  public boolean sameAs(RoutingStatus other) {
    return other != null
        && resource.equals(other.resource)
        && observedGeneration == other.observedGeneration
        && valid == other.valid
        && reason.equals(other.reason)
        && message.equals(other.message)
        && secretNamespaces == other.secretNamespaces
        && (credentials == null ? other.credentials == null : credentials.sameAs(other.credentials))
        && (providers == null ? other.providers == null : providers.sameAs(other.providers));
  }
}
