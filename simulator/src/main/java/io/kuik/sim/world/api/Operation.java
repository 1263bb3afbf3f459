package io.kuik.sim.world.api;

/** Admission operations. Apply and patch arrive as CREATE (missing object) or UPDATE. */
public enum Operation {
  CREATE,
  UPDATE,
  DELETE
}
