package io.kuik.sim.faults;

import io.kuik.sim.chart.ChartFiles;
import io.kuik.sim.chart.Release;
import io.kuik.sim.hosts.Told;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Trace;
import io.kuik.sim.world.admission.PolicyAdmission;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The admission policy failing to evaluate. Fault model: the API server cannot evaluate a
 * ValidatingAdmissionPolicy's validations (a CEL runtime error, a cost limit, a broken upgrade)
 * while its match conditions still work; under the chart's {@code failurePolicy: Fail} the writes
 * it applies to are refused, and only those: a Secret outside its match conditions (a Helm release
 * Secret) must still be written. See {@link PolicyAdmission#setEvaluationFailure}.
 */
public final class PolicyFailure {

  private final PolicyAdmission admission;
  private final EventLoop loop;
  private final Trace trace;
  private final Set<String> failing = new TreeSet<>();
  // Bumped by every fail and heal, so that a timed failure's end is ignored once overtaken.
  private final Map<String, Integer> generation = new HashMap<>();

  public PolicyFailure(PolicyAdmission admission, EventLoop loop, Trace trace) {
    this.admission = Objects.requireNonNull(admission, "admission");
    this.loop = Objects.requireNonNull(loop, "loop");
    this.trace = Objects.requireNonNull(trace, "trace");
  }

  /**
   * The name of the pull-secret policy the chart installs for a release, as its syncer is told it
   * ({@code --admission-policy} of the render's syncer Deployment).
   */
  public static String policyOf(ChartFiles chart, Release release) {
    io.kuik.sim.chart.RenderedRelease rendered = chart.render(release);
    return Told.syncer(rendered.args("syncer"), rendered.mountedFiles("syncer"))
        .bounds()
        .secrets()
        .policy();
  }

  public void fail(String policy) {
    set(policy, true);
  }

  public void heal(String policy) {
    set(policy, false);
  }

  /** Fails now, heals after {@code window} unless healed or failed again in between. */
  public void failFor(String policy, Duration window) {
    int mine = set(policy, true);
    loop.schedule(
        window,
        "policy " + policy + " heals",
        () -> {
          if (generation.get(policy) == mine) {
            set(policy, false);
          }
        });
  }

  public boolean failing(String policy) {
    return failing.contains(policy);
  }

  private int set(String policy, boolean fail) {
    admission.setEvaluationFailure(policy, fail);
    if (fail) {
      failing.add(policy);
    } else {
      failing.remove(policy);
    }
    trace.add(new Note.FaultWindow(loop.now(), Note.Fault.POLICY_FAILURE, fail, policy, ""));
    return generation.merge(policy, 1, Integer::sum);
  }
}
