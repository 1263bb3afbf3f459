package io.kuik.sim.world;

import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.object.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * ServiceAccounts, in their two halves.
 *
 * <p>The admission plugin, read from kubernetes/kubernetes {@code
 * plugin/pkg/admission/serviceaccount/admission.go} ({@code Plugin.Admit}), runs in the mutating
 * stage after NamespaceLifecycle and before the webhooks, on pod creations only (no subresource,
 * mirror pods left alone): a pod without {@code spec.serviceAccountName} gets {@code default}; the
 * ServiceAccount must exist (403 {@code error looking up service account ...} otherwise); a pod
 * that lists no {@code imagePullSecrets} gets the ServiceAccount's. The token volume it also mounts
 * is not modelled: nothing here reads it.
 *
 * <p>The controller, as {@code pkg/controller/serviceaccount/serviceaccounts_controller.go} ({@code
 * syncNamespace}): every namespace that is not terminating has a ServiceAccount {@code default},
 * created again if deleted. Its write is immediate and untraced: on a real cluster it lands within
 * milliseconds, and the plugin retries the lookup of {@code default} for a second or two to cover
 * exactly that.
 */
final class ServiceAccounts implements Storage.Listener {

  static final String DEFAULT = "default";
  private static final String MIRROR_POD = "kubernetes.io/config.mirror";

  private final Storage storage;
  private final EventLoop loop;

  ServiceAccounts(Storage storage, EventLoop loop) {
    this.storage = storage;
    this.loop = loop;
  }

  /** Ensures the namespaces that exist already have their {@code default} ServiceAccount. */
  void bootstrap() {
    for (ObjectNode namespace : storage.storedList(ResourceType.NAMESPACE, null)) {
      ensureDefault(namespace);
    }
  }

  ObjectNode admit(RequestAttributes request, Operation operation, ObjectNode pod) {
    if (!request.type().equals(ResourceType.POD)
        || operation != Operation.CREATE
        || request.subresource() != null
        || pod == null
        || Meta.annotations(pod).containsKey(MIRROR_POD)) {
      return pod;
    }
    ObjectNode spec = Json.child(pod, "spec");
    String name = Json.text(spec, "serviceAccountName");
    if (name == null || name.isEmpty()) {
      name = DEFAULT;
      spec.put("serviceAccountName", name);
    }
    ObjectNode account = storage.stored(ResourceType.SERVICE_ACCOUNT, request.namespace(), name);
    if (account == null) {
      throw ApiException.forbidden(
          ResourceType.POD,
          Meta.name(pod),
          "error looking up service account "
              + request.namespace()
              + "/"
              + name
              + ": serviceaccount \""
              + name
              + "\" not found");
    }
    JsonNode own = spec.path("imagePullSecrets");
    JsonNode accounts = account.path("imagePullSecrets");
    if (own.isEmpty() && !accounts.isEmpty()) {
      ArrayNode copied = spec.putArray("imagePullSecrets");
      for (JsonNode ref : accounts) {
        copied.addObject().put("name", Json.text(ref, "name"));
      }
    }
    return pod;
  }

  @Override
  public void changed(Storage.Change change) {
    if (change.type().equals(ResourceType.NAMESPACE)
        && change.kind() != Storage.ChangeType.DELETED) {
      ensureDefault(change.object());
    } else if (change.type().equals(ResourceType.SERVICE_ACCOUNT)
        && change.kind() == Storage.ChangeType.DELETED
        && DEFAULT.equals(Meta.name(change.object()))) {
      ObjectNode namespace =
          storage.stored(ResourceType.NAMESPACE, null, Meta.namespace(change.object()));
      if (namespace != null) {
        ensureDefault(namespace);
      }
    }
  }

  private void ensureDefault(ObjectNode namespace) {
    String name = Meta.name(namespace);
    if (Meta.deleting(namespace)
        || storage.stored(ResourceType.SERVICE_ACCOUNT, name, DEFAULT) != null) {
      return;
    }
    ObjectNode account = Json.object();
    account.put("apiVersion", "v1");
    account.put("kind", "ServiceAccount");
    ObjectNode meta = account.putObject("metadata");
    meta.put("name", DEFAULT);
    meta.put("namespace", name);
    meta.put("uid", storage.newUid());
    meta.put("creationTimestamp", Timestamps.format(loop.now()));
    storage.insert(ResourceType.SERVICE_ACCOUNT, account);
  }
}
