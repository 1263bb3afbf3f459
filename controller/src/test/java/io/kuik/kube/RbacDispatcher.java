package io.kuik.kube;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A mock API server's dispatcher behind the chart's RBAC, as a cluster would enforce it for one
 * ServiceAccount: a request carrying that account's bearer token is authorized by {@link ChartRbac}
 * before anything else and answered 403 Forbidden, worded as the API server words it, when no rule
 * allows it; a request without it is an administrator's (the test's own client). Every request is
 * recorded with its attributes and status, so a test can say what the account asked for.
 */
public final class RbacDispatcher extends Dispatcher {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** One request as the API server saw it, and the status it got. */
  public record Observed(
      boolean byServiceAccount,
      String method,
      ChartRbac.Attributes attributes,
      String query,
      int code) {

    /** The RBAC verb the API server read from the request: get, list, create... */
    public String verb() {
      return attributes.verb();
    }

    /** The request's path, without its query. */
    public String path() {
      return attributes.path();
    }

    @Override
    public String toString() {
      return (byServiceAccount ? "" : "(admin) ")
          + attributes.verb()
          + " "
          + attributes.path()
          + " -> "
          + code;
    }
  }

  private final Dispatcher delegate;
  private final ChartRbac rbac;
  private final String token;
  private final String user;
  private final List<Observed> observed = new CopyOnWriteArrayList<>();

  RbacDispatcher(Dispatcher delegate, ChartRbac rbac, String token, String user) {
    this.delegate = delegate;
    this.rbac = rbac;
    this.token = token;
    this.user = user;
  }

  /** The user the account's token authenticates as, e.g. {@code system:serviceaccount:ns:name}. */
  String user() {
    return user;
  }

  /** Every request so far, in arrival order. */
  List<Observed> observed() {
    return List.copyOf(observed);
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    boolean byAccount = ("Bearer " + token).equals(request.getHeader("Authorization"));
    ChartRbac.Attributes attributes =
        ChartRbac.attributesOf(request.getMethod(), request.getPath());
    MockResponse response =
        byAccount && !rbac.allows(user, attributes)
            ? forbidden(attributes)
            : delegate.dispatch(request);
    String path = request.getPath();
    String query = path.indexOf('?') < 0 ? "" : path.substring(path.indexOf('?') + 1);
    observed.add(new Observed(byAccount, request.getMethod(), attributes, query, response.code()));
    return response;
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  @Override
  public void releaseResources() {
    delegate.releaseResources();
  }

  /** The Status the API server answers when the authorizer says no (its wording). */
  private MockResponse forbidden(ChartRbac.Attributes a) {
    String qualified = a.group().isEmpty() ? a.resource() : a.resource() + "." + a.group();
    String resource =
        a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
    String message =
        (a.name().isEmpty() ? qualified : qualified + " \"" + a.name() + "\"")
            + " is forbidden: User \""
            + user
            + "\" cannot "
            + a.verb()
            + " resource \""
            + resource
            + "\" in API group \""
            + a.group()
            + "\""
            + (a.namespace().isEmpty()
                ? " at the cluster scope"
                : " in the namespace \"" + a.namespace() + "\"");
    ObjectNode status = JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message);
    status.put("reason", "Forbidden");
    ObjectNode details = status.putObject("details");
    if (!a.name().isEmpty()) {
      details.put("name", a.name());
    }
    details.put("group", a.group());
    details.put("kind", a.resource());
    status.put("code", 403);
    return new MockResponse()
        .setResponseCode(403)
        .setHeader("Content-Type", "application/json")
        .setBody(JSON.writeValueAsString(status));
  }
}
