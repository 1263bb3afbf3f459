package io.kuik.sim.trace;

import java.util.Objects;

/**
 * What a request or a watch event was about: a resource, a subresource ({@code status}, {@code
 * finalize}; null for none), a namespace (null: cluster-scoped, or every namespace), a name ({@code
 * *} for a list or watch of a collection, {@code prefix*} for a generateName, null for a watch as a
 * whole) and a list's label selector (null: everything). Renders as the timeline shows it, e.g.
 * {@code secrets team-a/kuik-inject-imagealternative-r1} or {@code pods * kuik=on}.
 */
public record Target(
    Resource resource, String subresource, String namespace, String name, String selector) {

  public Target {
    Objects.requireNonNull(resource, "resource");
  }

  /** One object, e.g. {@code secrets team-a/x}; {@code namespace} null for a cluster-scoped one. */
  public static Target object(Resource resource, String namespace, String name) {
    return new Target(resource, null, namespace, name, null);
  }

  /** A Secret, the target the checkers ask about most. */
  public static Target secret(String namespace, String name) {
    return object(Resource.SECRETS, namespace, name);
  }

  /** A watch as a whole, in one namespace or (null) in all of them. */
  public static Target watch(Resource resource, String namespace) {
    return new Target(resource, null, namespace, null, null);
  }

  public boolean isA(Resource kind) {
    return resource.equals(kind);
  }

  /** Whether this is a Secret of {@code namespace} (a Secret of no namespace never is). */
  public boolean isSecretIn(String namespace) {
    return isA(Resource.SECRETS) && this.namespace != null && this.namespace.equals(namespace);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder(resource.plural());
    if (subresource != null) {
      out.append('/').append(subresource);
    }
    if (name != null) {
      out.append(' ').append(namespace == null ? name : namespace + "/" + name);
    } else if (namespace != null) {
      out.append(' ').append(namespace).append('/');
    }
    if (selector != null) {
      out.append(' ').append(selector);
    }
    return out.toString();
  }
}
