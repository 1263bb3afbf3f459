package io.kuik.sim.explore;

/**
 * The rows of the explorer's action table, in table order: each kind of step by the name the banner
 * gives it, whether it is a person's action or a fault, and its base weight (even: a weight may be
 * halved). {@link ActionMix} draws each run's weights from them.
 */
enum Choice {
  CREATE_RESOURCE("create-resource", ActionMix.Kind.ACTION, 12),
  CHANGE_RESOURCE("change-resource", ActionMix.Kind.ACTION, 16),
  DELETE_RESOURCE("delete-resource", ActionMix.Kind.ACTION, 6),
  CREATE_NAMESPACE("create-namespace", ActionMix.Kind.ACTION, 6),
  LABEL_NAMESPACE("label-namespace", ActionMix.Kind.ACTION, 16),
  DELETE_NAMESPACE("delete-namespace", ActionMix.Kind.ACTION, 4),
  REWRITE_POD("rewrite-pod", ActionMix.Kind.ACTION, 36),
  DELETE_POD("delete-pod", ActionMix.Kind.ACTION, 16),
  CONTAINER_EXITS("container-exits", ActionMix.Kind.ACTION, 10),
  ROTATE_SOURCE("rotate-source", ActionMix.Kind.ACTION, 10),
  PERSON_DELETES_SECRET("person-deletes-secret", ActionMix.Kind.ACTION, 10),
  NOTHING("nothing", ActionMix.Kind.ACTION, 12),
  REGISTRY_DOWN_OR_UP("registry-down-or-up", ActionMix.Kind.FAULT, 6),
  // Under 2 % of steps crash the syncer on average, at most 4 %: more, and the restart-leftover
  // exemption hides most of what the safety checker is for.
  SYNCER_CRASHES("syncer-crashes", ActionMix.Kind.FAULT, 2),
  SYNCER_CRASHES_AND_RESTARTS("syncer-crashes-and-restarts", ActionMix.Kind.FAULT, 2),
  DROP_WATCH_EVENTS("drop-watch-events", ActionMix.Kind.FAULT, 10),
  DELAY_WATCH_EVENTS("delay-watch-events", ActionMix.Kind.FAULT, 8),
  EXPIRE_WATCHES("expire-watches", ActionMix.Kind.FAULT, 6),
  API_OUTAGE("api-outage", ActionMix.Kind.FAULT, 8),
  PROVIDER_DOWN("provider-down", ActionMix.Kind.FAULT, 6),
  POLICY_AWAY("policy-away", ActionMix.Kind.FAULT, 4);

  private final String label;
  private final ActionMix.Kind kind;
  private final int baseWeight;

  Choice(String label, ActionMix.Kind kind, int baseWeight) {
    if (baseWeight < 0 || baseWeight % 2 != 0) {
      throw new IllegalArgumentException(
          label + ": the base weight must be even, not " + baseWeight);
    }
    this.label = label;
    this.kind = kind;
    this.baseWeight = baseWeight;
  }

  /** The name in the banner. */
  String label() {
    return label;
  }

  ActionMix.Kind kind() {
    return kind;
  }

  int baseWeight() {
    return baseWeight;
  }
}
