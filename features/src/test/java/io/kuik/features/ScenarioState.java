package io.kuik.features;

import io.kuik.sim.dsl.KuikWorld;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What one scenario shares between its step classes: the simulated world, and the values a step
 * noted for a later one to compare with. A new instance per scenario (picocontainer).
 */
public final class ScenarioState {

  /** Every scenario runs on the same seed: the same script gives the same trace. */
  static final long SEED = 20261129L;

  private KuikWorld world;
  final Map<String, String> noted = new HashMap<>();
  long notedApplies;

  /** The syncer instances' work when a step noted it, by install namespace. */
  final Map<String, SyncerWork.Mark> syncerMarks = new HashMap<>();

  /** The install namespaces of the syncer instances installed after the first. */
  final List<String> otherInstances = new ArrayList<>();

  Instant namespaceDeletedAt;
  Instant restartedAt;
  Instant outageStart;

  /** DELETEs a step sent under the syncer's identity, which the syncer itself never sends. */
  int deletesSentAsTheSyncer;

  Instant outageEnd;

  /** Manifest sets by name, each a folder, for kuik plan and for applying. */
  final Map<String, Path> manifests = new HashMap<>();

  /** What the last kuik plan printed, with -o json. */
  JsonNode plan;

  KuikWorld world() {
    if (world == null) {
      world = new KuikWorld(SEED);
    }
    return world;
  }

  boolean started() {
    return world != null;
  }
}
