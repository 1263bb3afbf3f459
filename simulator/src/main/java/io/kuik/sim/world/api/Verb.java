package io.kuik.sim.world.api;

/** The API server's request verbs, as RBAC names them. A server-side apply is a {@link #PATCH}. */
public enum Verb {
  GET,
  LIST,
  WATCH,
  CREATE,
  UPDATE,
  PATCH,
  DELETE;

  /** The lower-case name RBAC rules use. */
  public String rbacName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
