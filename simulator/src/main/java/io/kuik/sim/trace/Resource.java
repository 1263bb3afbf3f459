package io.kuik.sim.trace;

import java.util.Objects;

/**
 * A kind of object by its plural resource name, as an API path names it ({@code secrets}, {@code
 * pods}). The constants are the resources the checkers and the DSL's queries ask about; any other
 * is made from the name the API server serves it under.
 */
public record Resource(String plural) {

  public static final Resource NAMESPACES = new Resource("namespaces");
  public static final Resource PODS = new Resource("pods");
  public static final Resource SECRETS = new Resource("secrets");
  public static final Resource EVENTS = new Resource("events");

  public Resource {
    Objects.requireNonNull(plural, "plural");
  }

  @Override
  public String toString() {
    return plural;
  }
}
