package io.kuik.sim.explore;

import io.kuik.sim.time.SimRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * The chart's values a run installs kuik with, drawn from its seed (its own stream, so the actions
 * drawn after stay the same for a given mix): the release's name, another prefix for every name
 * ({@code fullnameOverride}) or another name label, a namespace left out of the webhook, and a
 * second release beside the first, in its namespace or in one of its own, listing each other as
 * peers and serving no namespace by default. The invariants are the same whatever is drawn: a
 * rewrite gets its Secret, no write of the syncer is refused, {@code helm test} passes.
 *
 * @param release the first release's name
 * @param values its {@code --set key=value}
 * @param beside the second release's name, or null for none
 * @param besideNamespace its namespace
 * @param besideValues its values
 */
record Installation(
    String release,
    List<String> values,
    String beside,
    String besideNamespace,
    List<String> besideValues) {

  Installation {
    values = List.copyOf(values);
    besideValues = List.copyOf(besideValues);
  }

  /** The namespace left out of the webhook, when one is drawn. */
  static final String EXCLUDED = "team-d";

  static Installation draw(SimRandom random) {
    String release = random.pick(List.of("kuik", "edge", "image-routing"));
    List<String> values = new ArrayList<>();
    if (random.chance(0.3)) {
      values.add("fullnameOverride=" + random.pick(List.of("acme", "kuik-eu-1")));
    }
    if (random.chance(0.2)) {
      values.add("nameOverride=image-routing");
    }
    List<String> shared = new ArrayList<>();
    if (random.chance(0.3)) {
      // Every release sharing a cluster leaves out the same namespaces.
      shared.add("webhook.excludedNamespaces[0]=" + EXCLUDED);
    }
    values.addAll(shared);
    if (!random.chance(0.4)) {
      return new Installation(release, values, null, null, List.of());
    }
    String beside = "core";
    String besideNamespace = random.pick(List.of(Explorer.INSTALL, "kuik-b"));
    values.add("syncer.peers[0].namespace=" + besideNamespace);
    values.add("syncer.peers[0].release=" + beside);
    List<String> besideValues = new ArrayList<>(shared);
    besideValues.add("syncer.namespacesByDefault=false");
    besideValues.add("syncer.peers[0].namespace=" + Explorer.INSTALL);
    besideValues.add(
        "syncer.peers[0].serviceAccount="
            + values.stream()
                .filter(v -> v.startsWith("fullnameOverride="))
                .map(v -> v.substring("fullnameOverride=".length()))
                .findFirst()
                .orElse(release)
            + "-secret-syncer");
    return new Installation(release, values, beside, besideNamespace, besideValues);
  }

  /** One line for the run's banner. */
  String describe() {
    String first = "release " + release + (values.isEmpty() ? "" : " " + values);
    return beside == null
        ? first
        : first + "; beside it, release " + beside + " in " + besideNamespace + " " + besideValues;
  }
}
