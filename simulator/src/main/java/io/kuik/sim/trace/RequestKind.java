package io.kuik.sim.trace;

/** What a request asked for: the RBAC verbs, with a server-side apply told apart from a patch. */
public enum RequestKind {
  GET,
  LIST,
  WATCH,
  CREATE,
  UPDATE,
  PATCH,
  APPLY,
  DELETE;

  /** Whether it only reads: get, list or watch. */
  public boolean reads() {
    return this == GET || this == LIST || this == WATCH;
  }
}
