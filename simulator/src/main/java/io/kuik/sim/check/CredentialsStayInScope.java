package io.kuik.sim.check;

import io.kuik.sim.check.WorldView.InjectSecret;
import io.kuik.sim.check.WorldView.NamespaceView;
import io.kuik.sim.check.WorldView.ResourceView;
import io.kuik.sim.trace.TraceRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Safety: a {@code kuik-inject-*} Secret holds a credential only for an entry that its pair needs
 * now, or needed recently enough (DESIGN.md §2.4.1, §2.4.3). "Recently enough" is the grace
 * (OnFailure) plus a slack: the longest the syncer can honestly take to learn of the change under
 * the explorer's faults (a resync period, the retry cap, the longest fault windows, a margin).
 *
 * <p>The documented restart leftovers (§2.4.6) are modelled by who wrote the Secret last: a Secret
 * is checked only when the syncer's last successful apply of it came after the syncer's last START,
 * i.e. the running incarnation wrote it and so keeps it in its written set. A Secret last written
 * by an earlier incarnation is a possible leftover: it may keep its content until its pair is
 * needed again, when the running incarnation writes it and it is checked again. This is weaker than
 * modelling each leftover, but it never accuses the syncer of a documented behaviour.
 */
public final class CredentialsStayInScope implements Invariant {

  private final String syncerActor;
  private final Duration grace;
  private final Duration slack;

  /** "ns/secret|key" to the last instant the key was seen needed. */
  private final Map<String, Instant> lastNeeded = new HashMap<>();

  /** Target to the trace position of the syncer's last successful apply. */
  private final Map<String, Long> lastApply = new HashMap<>();

  private long lastStart = -1;
  private long position;

  public CredentialsStayInScope(String syncerActor, Duration grace, Duration slack) {
    this.syncerActor = syncerActor;
    this.grace = grace;
    this.slack = slack;
  }

  @Override
  public String name() {
    return "credentials-stay-in-scope";
  }

  @Override
  public List<Violation> check(WorldView view, List<TraceRecord> newRecords) {
    for (TraceRecord record : newRecords) {
      position++;
      if (!record.actor().equals(syncerActor)) {
        continue;
      }
      if (record instanceof TraceRecord.Note && record.action().equals("START")) {
        lastStart = position;
      } else if (record instanceof TraceRecord.Request r
          && r.action().equals("APPLY")
          && r.succeeded()) {
        lastApply.put(r.target(), position);
      }
    }
    for (ResourceView resource : view.resources().values()) {
      for (NamespaceView namespace : view.namespaces().values()) {
        for (String key : Scope.neededKeys(resource, namespace, view)) {
          lastNeeded.put(namespace.name() + "/" + resource.secretName() + "|" + key, view.now());
        }
      }
    }
    List<Violation> out = new ArrayList<>();
    Duration allowed = grace.plus(slack);
    for (InjectSecret secret : view.injectSecrets().values()) {
      if (secret.auths().isEmpty() || lastApply.getOrDefault(secret.target(), -1L) < lastStart) {
        continue; // holds nothing, or a possible leftover of an earlier incarnation
      }
      for (String key : secret.auths().keySet()) {
        Instant needed = lastNeeded.get(secret.namespace() + "/" + secret.name() + "|" + key);
        if (needed == null || Duration.between(needed, view.now()).compareTo(allowed) > 0) {
          out.add(
              new Violation(
                  name(),
                  secret.namespace()
                      + "/"
                      + secret.name()
                      + " holds a credential for "
                      + key
                      + (needed == null
                          ? ", which its pair never needed"
                          : ", which its pair last needed "
                              + Duration.between(needed, view.now())
                              + " ago (allowed: grace "
                              + grace
                              + " + slack "
                              + slack
                              + ")"),
                  secret.target()));
        }
      }
    }
    return out;
  }
}
