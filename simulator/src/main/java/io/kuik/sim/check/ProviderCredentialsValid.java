package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.RequestKind;
import io.kuik.sim.trace.Target;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Safety of provider credentials (docs/behaviour.md#provider-credentials): no pull with an expired
 * provider token, and no {@code kuik-inject-*} Secret of a tenant namespace holding a provider
 * token with less than {@code minValidity} left. Which credential is a provider token, and when it
 * expires, comes from the simulated cloud providers' own ledger ({@code expiry}), never from what
 * the syncer wrote beside it.
 *
 * <p>What the syncer cannot help is not held against it: a Secret last written by an earlier
 * incarnation (a restart leftover, which a stopped syncer cannot empty), and a Secret or a pull at
 * a time the syncer was stopped, or its writes failing (an API outage, the policy failing, a 429 or
 * 5xx), since the credential had to leave: its writes could not take it out. A plugin outage longer
 * than the margin between a refresh and the bound takes the credential out of the Secrets: that is
 * no violation here (the namespace has no credential, and the Event and condition say why).
 */
public final class ProviderCredentialsValid implements Invariant {

  private static final Pattern EXPIRED_TOKEN = Pattern.compile("\\(token (.+) expired\\)");

  private final Actor syncer;
  private final Duration minValidity;
  private final Duration lead;
  private final Function<String, Optional<Instant>> expiry;
  private final Disturbances disturbances;
  private final Map<Target, Long> lastApply = new HashMap<>();
  private long lastStart = -1;
  private long position;
  private Instant stoppedSince;

  /** Each Secret, key and token reported, so that a token below the bound is reported once. */
  private final java.util.Set<String> reported = new java.util.HashSet<>();

  private Instant lastStop;

  /**
   * @param minValidity what a written credential must have left, as documented
   * @param lead how much before the bound the syncer takes a credential out (its write lead)
   * @param expiry when the token whose number or password this is expires; empty for any other
   * @param retry how long after a write failure the syncer may still be waiting to try again
   */
  public ProviderCredentialsValid(
      Actor syncer,
      Duration minValidity,
      Duration lead,
      Function<String, Optional<Instant>> expiry,
      Duration retry) {
    this.syncer = syncer;
    this.minValidity = minValidity;
    this.lead = lead;
    this.expiry = expiry;
    this.disturbances = new Disturbances(syncer, Duration.ZERO, retry);
  }

  @Override
  public String name() {
    return "provider-credentials-valid";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    disturbances.read(newRecords, view.now());
    List<Violation> out = new ArrayList<>();
    for (TraceRecord record : newRecords) {
      position++;
      if (record instanceof Note.Incarnation edge && edge.actor().equals(syncer)) {
        lastStart = position;
        if (edge.edge() == Note.Edge.START) {
          stoppedSince = null;
        } else {
          stoppedSince = edge.at();
          lastStop = edge.at();
        }
      } else if (record instanceof TraceRecord.Request r
          && r.actor().equals(syncer)
          && r.kind() == RequestKind.APPLY
          && r.succeeded()) {
        lastApply.put(r.target(), position);
      } else if (record instanceof Note.RegistryNote pull
          && pull.event() == Note.RegistryEvent.PULL) {
        Matcher expired = EXPIRED_TOKEN.matcher(pull.outcome());
        if (expired.find()) {
          Instant expires = expiry.apply(expired.group(1)).orElse(pull.at());
          if (!excused(expires.minus(minValidity).minus(lead), pull.at())
              && reported.add(pull.subject() + "|" + pull.at())) {
            out.add(
                new Violation(
                    name(),
                    "a pull of "
                        + pull.subject()
                        + " at "
                        + pull.at()
                        + " was sent with the provider token "
                        + expired.group(1)
                        + ", expired at "
                        + expires,
                    null));
          }
        }
      }
    }
    for (InjectSecret secret : view.injectSecrets().values()) {
      if (lastApply.getOrDefault(secret.target(), -1L) < lastStart) {
        continue; // a possible leftover of an earlier incarnation
      }
      for (Map.Entry<String, String> auth : secret.auths().entrySet()) {
        String password = auth.getValue().substring(auth.getValue().indexOf(':') + 1);
        Optional<Instant> expires = expiry.apply(password);
        if (expires.isEmpty()) {
          continue; // not a provider token
        }
        Duration left = Duration.between(view.now(), expires.get());
        Instant bound = expires.get().minus(minValidity).minus(lead);
        if (left.compareTo(minValidity) < 0
            && !excused(bound, view.now())
            && reported.add(secret.target() + "|" + auth.getKey() + "|" + password)) {
          out.add(
              new Violation(
                  name(),
                  secret.namespace()
                      + "/"
                      + secret.name()
                      + " holds a provider token for "
                      + auth.getKey()
                      + " with "
                      + left
                      + " left, less than minValidity "
                      + minValidity,
                  secret.target()));
        }
      }
    }
    return out;
  }

  /** Whether the syncer was stopped, restarted or failing to write at some time in the span. */
  private boolean excused(Instant from, Instant to) {
    return stoppedSince != null
        || (lastStop != null && !lastStop.isBefore(from))
        || disturbances.restartedSince(from)
        || disturbances.failingDuring(from, to);
  }

  /**
   * Liveness, once every fault has healed: every Always resource's provider entry, in every
   * namespace its selector takes, holds a token with more than {@code minValidity} left.
   */
  public static List<Violation> pending(
      WorldView view, Function<String, Optional<Instant>> expiry, Duration minValidity) {
    List<Violation> out = new ArrayList<>();
    for (WorldView.ResourceView resource : view.resources().values()) {
      if (resource.rewritePolicy() != WorldView.Policy.ALWAYS) {
        continue;
      }
      for (WorldView.NamespaceView ns : view.namespaces().values()) {
        if (ns.terminating() || !resource.namespaceSelector().matches(ns.labels())) {
          continue;
        }
        Target target = Target.secret(ns.name(), resource.secretName());
        InjectSecret secret = view.injectSecrets().get(target);
        for (WorldView.EntryView entry : resource.entries()) {
          if (entry.provider() == null) {
            continue;
          }
          String held = secret == null ? null : secret.auths().get(entry.repository());
          boolean valid =
              held != null
                  && expiry
                      .apply(held.substring(held.indexOf(':') + 1))
                      .filter(e -> Duration.between(view.now(), e).compareTo(minValidity) > 0)
                      .isPresent();
          if (!valid) {
            out.add(
                new Violation(
                    Convergence.NAME,
                    ns.name()
                        + "/"
                        + resource.secretName()
                        + " lacks a valid provider token for "
                        + entry.repository(),
                    target));
          }
        }
      }
    }
    return out;
  }
}
