package io.kuik.sim.world.api;

import io.kuik.sim.trace.Principal;
import java.util.List;
import java.util.Objects;

/** Who makes a request: a user name and its groups, as the API server's authenticator sees them. */
public record Identity(String user, List<String> groups) implements Principal {

  public static final Identity GARBAGE_COLLECTOR =
      serviceAccount("kube-system", "generic-garbage-collector");
  public static final Identity NAMESPACE_CONTROLLER =
      serviceAccount("kube-system", "namespace-controller");

  public Identity {
    Objects.requireNonNull(user, "user");
    groups = List.copyOf(groups);
  }

  public static Identity serviceAccount(String namespace, String name) {
    return new Identity(
        "system:serviceaccount:" + namespace + ":" + name,
        List.of(
            "system:serviceaccounts",
            "system:serviceaccounts:" + namespace,
            "system:authenticated"));
  }

  /**
   * A person or bot authenticated by certificate or OIDC, e.g. {@code person("alice",
   * "system:masters")}.
   */
  public static Identity person(String name, String... groups) {
    var all = new java.util.ArrayList<>(List.of(groups));
    all.add("system:authenticated");
    return new Identity(name, all);
  }

  public static Identity node(String nodeName) {
    return new Identity("system:node:" + nodeName, List.of("system:nodes", "system:authenticated"));
  }

  @Override
  public String toString() {
    return user;
  }
}
