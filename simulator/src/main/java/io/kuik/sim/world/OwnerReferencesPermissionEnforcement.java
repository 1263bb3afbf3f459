package io.kuik.sim.world;

import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OwnerReferencesPermissionEnforcement admission plugin, read from kubernetes/kubernetes {@code
 * plugin/pkg/admission/gc/gc_admission.go}: off in a default kube-apiserver, on in OpenShift. On a
 * create or update (not {@code pods/status}) that changes {@code metadata.ownerReferences}, the
 * writer must be allowed to {@code delete} the object itself; for each reference it makes blocking
 * ({@code blockOwnerDeletion: true}, new or newly true) it must also be allowed to {@code update}
 * the owner's {@code finalizers} subresource, asked in the object's namespace. It runs in the
 * validating stage, before the ValidatingAdmissionPolicies.
 */
final class OwnerReferencesPermissionEnforcement {

  private OwnerReferencesPermissionEnforcement() {}

  static void admit(
      Authorizer authorizer,
      RequestAttributes request,
      Operation operation,
      ObjectNode object,
      ObjectNode old) {
    if (operation != Operation.CREATE && operation != Operation.UPDATE || object == null) {
      return;
    }
    if (request.type().equals(ResourceType.POD) && "status".equals(request.subresource())) {
      return; // whitelisted: the pod status strategy keeps owner references as they were
    }
    if (!changesOwnerReferences(object, old)) {
      return;
    }
    Authorizer.Decision delete = authorizer.authorize(request.withVerb(Verb.DELETE));
    if (!delete.allowed()) {
      throw refusal(
          request,
          object,
          "cannot set an ownerRef on a resource you can't delete: " + delete.reason() + ", <nil>");
    }
    for (ObjectNode ref : newBlockingReferences(object, old)) {
      Optional<ResourceType> owner =
          ResourceType.ofKind(Json.text(ref, "apiVersion"), Json.text(ref, "kind"));
      if (owner.isEmpty()) {
        throw refusal(
            request,
            object,
            "cannot set blockOwnerDeletion in this case because cannot find RESTMapping for"
                + " APIVersion "
                + Json.text(ref, "apiVersion")
                + " Kind "
                + Json.text(ref, "kind")
                + ": "
                + delete.reason()
                + ", no matches for kind");
      }
      RequestAttributes finalizers =
          new RequestAttributes(
              request.identity(),
              Verb.UPDATE,
              owner.get(),
              request.namespace(),
              Json.text(ref, "name"),
              "finalizers");
      Authorizer.Decision update = authorizer.authorize(finalizers);
      if (!update.allowed()) {
        throw refusal(
            request,
            object,
            "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set"
                + " finalizers on: "
                + update.reason()
                + ", <nil>");
      }
    }
  }

  /** Whether the owner references differ in length or in any element, in order. */
  static boolean changesOwnerReferences(ObjectNode object, ObjectNode old) {
    List<ObjectNode> now = Meta.ownerReferences(object);
    return old == null ? !now.isEmpty() : !now.equals(Meta.ownerReferences(old));
  }

  /** References that block and were absent (by uid) or did not block before. */
  private static List<ObjectNode> newBlockingReferences(ObjectNode object, ObjectNode old) {
    List<ObjectNode> blocking = new ArrayList<>();
    for (ObjectNode ref : Meta.ownerReferences(object)) {
      if (!ref.path("blockOwnerDeletion").asBoolean()) {
        continue;
      }
      boolean blockedBefore = false;
      if (old != null) {
        for (ObjectNode before : Meta.ownerReferences(old)) {
          blockedBefore |=
              Json.text(before, "uid") != null
                  && Json.text(before, "uid").equals(Json.text(ref, "uid"))
                  && before.path("blockOwnerDeletion").asBoolean();
        }
      }
      if (!blockedBefore) {
        blocking.add(ref);
      }
    }
    return blocking;
  }

  private static ApiException refusal(RequestAttributes request, ObjectNode object, String why) {
    return ApiException.forbidden(request.type(), Pipeline.subjectName(request, object), why);
  }
}
