package io.kuik.sim.world;

import io.kuik.sim.trace.Stage;
import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Authorizer;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.ValidatingAdmission;
import io.kuik.sim.world.crd.CustomResources;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.validation.ObjectValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * The request stages in the API server's order: faults, authorization, mutating admission
 * (namespace lifecycle first, then the ServiceAccount plugin, then the webhooks), object
 * validation, validating admission. The write flows in {@link Writes} call them and end in storage.
 * Each stage marks its refusals with its {@link Stage}, so that the trace tells who refused.
 */
final class Pipeline {

  private final RequestFaults faults;
  private final NamespaceLifecycle namespaces;
  private final ServiceAccounts serviceAccounts;
  private final MutatingChain mutating;
  private final CustomResources customResources;
  private Authorizer authorizer = Authorizer.ALLOW_ALL;
  private boolean ownerReferencesEnforced;
  private ValidatingAdmission validating = ValidatingAdmission.ADMIT_ALL;

  Pipeline(
      RequestFaults faults,
      NamespaceLifecycle namespaces,
      ServiceAccounts serviceAccounts,
      MutatingChain mutating,
      CustomResources customResources) {
    this.faults = faults;
    this.namespaces = namespaces;
    this.serviceAccounts = serviceAccounts;
    this.mutating = mutating;
    this.customResources = customResources;
  }

  void setAuthorizer(Authorizer authorizer) {
    this.authorizer = Objects.requireNonNull(authorizer, "authorizer");
  }

  /** Switches the OwnerReferencesPermissionEnforcement plugin on (OpenShift) or off (upstream). */
  void setOwnerReferencesPermissionEnforcement(boolean enforced) {
    this.ownerReferencesEnforced = enforced;
  }

  void setValidating(ValidatingAdmission validating) {
    this.validating = Objects.requireNonNull(validating, "validating");
  }

  /** Faults, then RBAC: 429/503 before anything, 403 before the body is even read. */
  void authorize(RequestAttributes request) {
    faults
        .check(request)
        .ifPresent(
            e -> {
              throw e.at(Stage.SERVER_FAULT);
            });
    checkAccess(request);
    if (!customResources.served(request.type())) {
      // Past the filters, a group and version no CRD serves falls through to the 404 handler.
      throw new ApiException(
          StatusReason.NOT_FOUND, "the server could not find the requested resource");
    }
  }

  /** A custom resource's body pruned and defaulted by its CRD's schema, as decoding does. */
  void coerce(ResourceType type, ObjectNode object) {
    customResources.coerce(type, object);
  }

  /**
   * RBAC alone, for the questions the handlers ask later in a request: a server-side apply that
   * creates must also be allowed to create (patch.go, {@code createAuthorizerAttributes}).
   */
  void checkAccess(RequestAttributes request) {
    Authorizer.Decision decision = authorizer.authorize(request);
    if (!decision.allowed()) {
      String reason = decision.reason();
      throw ApiException.forbidden(
              request.type(),
              request.name(),
              forbiddenMessage(request) + (reason == null || reason.isEmpty() ? "" : ": " + reason))
          .at(Stage.AUTHORIZATION);
    }
  }

  ObjectNode admitMutating(
      RequestAttributes request, Operation operation, ObjectNode object, ObjectNode old) {
    return admitMutating(request, operation, object, old, false);
  }

  ObjectNode admitMutating(
      RequestAttributes request,
      Operation operation,
      ObjectNode object,
      ObjectNode old,
      boolean dryRun) {
    try {
      namespaces.admit(request, operation);
      if (request.subresource() != null) {
        return object;
      }
      object = serviceAccounts.admit(request, operation, object);
    } catch (ApiException refused) {
      throw refused.at(Stage.ADMISSION_PLUGIN);
    }
    try {
      return mutating.admit(new AdmissionRequest(request, operation, object, old, dryRun));
    } catch (ApiException refused) {
      throw refused.at(Stage.ADMISSION_WEBHOOK);
    }
  }

  void validate(ResourceType type, ObjectNode object, ObjectNode old) {
    validate(type, object, old, null);
  }

  /**
   * A custom resource's status subresource validates status alone, by the schema's {@code status}
   * (apiextensions-apiserver customresource/validator.go, ValidateStatusUpdate with the status
   * schema validator): a resource stored with a spec its CRD now refuses still gets its status.
   */
  void validate(ResourceType type, ObjectNode object, ObjectNode old, String subresource) {
    List<String> errors =
        new ArrayList<>(
            old == null
                ? ObjectValidation.validateCreate(type, object)
                : ObjectValidation.validateUpdate(type, object, old));
    errors.addAll(
        "status".equals(subresource) && CustomResources.isCustom(type)
            ? customResources.validateStatus(type, object)
            : customResources.validate(type, object, old));
    if (type.equals(ResourceType.CUSTOM_RESOURCE_DEFINITION)) {
      errors.addAll(customResources.validateDefinition(object));
    }
    if (!errors.isEmpty()) {
      throw ApiException.invalid(type, Meta.name(object), errors).at(Stage.OBJECT_VALIDATION);
    }
  }

  void admitValidating(
      RequestAttributes request, Operation operation, ObjectNode object, ObjectNode old) {
    admitValidating(request, operation, object, old, false);
  }

  void admitValidating(
      RequestAttributes request,
      Operation operation,
      ObjectNode object,
      ObjectNode old,
      boolean dryRun) {
    if (ownerReferencesEnforced) {
      try {
        OwnerReferencesPermissionEnforcement.admit(authorizer, request, operation, object, old);
      } catch (ApiException refused) {
        throw refused.at(Stage.ADMISSION_PLUGIN);
      }
    }
    ValidatingAdmission.Verdict verdict =
        validating.validate(
            new AdmissionRequest(
                request,
                operation,
                object == null ? null : object.deepCopy(),
                old == null ? null : old.deepCopy(),
                dryRun));
    if (!verdict.admitted()) {
      // dispatcher.go (Dispatch): the denial is admission.NewForbidden's message, with the
      // validation's reason and the code reasonToCode (policy_decision.go) gives it.
      String name = subjectName(request, object == null ? old : object);
      throw new ApiException(
              statusOf(verdict.reason()),
              Kinds.qualifiedResource(request.type())
                  + " \""
                  + name
                  + "\" is forbidden: "
                  + verdict.message())
          .at(Stage.ADMISSION_POLICY);
    }
  }

  /**
   * The name admission errors give (errors.go, extractResourceName): the request's, else the
   * object's name or generateName, else "Unknown".
   */
  static String subjectName(RequestAttributes request, ObjectNode object) {
    if (request.name() != null && !request.name().isEmpty()) {
      return request.name();
    }
    String name = object == null ? null : Meta.name(object);
    if (name != null && !name.isEmpty()) {
      return name;
    }
    String generate = object == null ? null : Json.text(object, "metadata", "generateName");
    return generate != null && !generate.isEmpty() ? generate : "Unknown";
  }

  /** reasonToCode: the reasons a validation may name, anything else 422 like Invalid. */
  static StatusReason statusOf(String reason) {
    if (reason == null) {
      return StatusReason.INVALID;
    }
    switch (reason) {
      case "Forbidden":
        return StatusReason.FORBIDDEN;
      case "Unauthorized":
        return StatusReason.UNAUTHORIZED;
      case "RequestEntityTooLarge":
        return StatusReason.REQUEST_ENTITY_TOO_LARGE;
      default:
        return StatusReason.INVALID;
    }
  }

  static String forbiddenMessage(RequestAttributes r) {
    String resource = r.type().resource();
    if (r.subresource() != null && !r.subresource().isEmpty()) {
      resource += "/" + r.subresource();
    }
    String subject =
        "User \""
            + r.identity().user()
            + "\" cannot "
            + r.verb().rbacName()
            + " resource \""
            + resource
            + "\" in API group \""
            + r.type().group()
            + "\"";
    return r.namespace() == null || r.namespace().isEmpty()
        ? subject + " at the cluster scope"
        : subject + " in the namespace \"" + r.namespace() + "\"";
  }
}
