package io.kuik.sim.world.admission;

import io.kuik.sim.world.api.AdmissionRequest;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.Operation;
import io.kuik.sim.world.api.RequestAttributes;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.api.Verb;
import io.kuik.sim.world.object.YamlDocuments;
import tools.jackson.databind.node.ObjectNode;

/** Admission requests for Secrets, as the fake API server hands them to validating admission. */
final class AdmissionRequests {

  private AdmissionRequests() {}

  static ObjectNode yaml(String text) {
    return YamlDocuments.parse(text, "test").get(0);
  }

  static AdmissionRequest create(Identity who, ObjectNode secret) {
    return request(who, Verb.CREATE, Operation.CREATE, secret, null);
  }

  /**
   * A create that asked for a generated name: the request names nothing (its attributes were taken
   * from the body as sent), while the object already carries the name the registry generated.
   */
  static AdmissionRequest createWithGeneratedName(Identity who, ObjectNode secret) {
    String namespace = secret.path("metadata").path("namespace").asString();
    return new AdmissionRequest(
        new RequestAttributes(who, Verb.CREATE, ResourceType.SECRET, namespace, null, null),
        Operation.CREATE,
        secret,
        null);
  }

  static AdmissionRequest update(Identity who, ObjectNode oldSecret, ObjectNode newSecret) {
    return request(who, Verb.UPDATE, Operation.UPDATE, newSecret, oldSecret);
  }

  /** A server-side apply of an existing object reaches admission as an UPDATE. */
  static AdmissionRequest applyAsUpdate(Identity who, ObjectNode oldSecret, ObjectNode newSecret) {
    return request(who, Verb.PATCH, Operation.UPDATE, newSecret, oldSecret);
  }

  static AdmissionRequest delete(Identity who, ObjectNode oldSecret) {
    return request(who, Verb.DELETE, Operation.DELETE, null, oldSecret);
  }

  private static AdmissionRequest request(
      Identity who, Verb verb, Operation operation, ObjectNode object, ObjectNode oldObject) {
    ObjectNode any = object != null ? object : oldObject;
    String namespace = any.path("metadata").path("namespace").asString();
    String name = any.path("metadata").path("name").asString();
    return new AdmissionRequest(
        new RequestAttributes(who, verb, ResourceType.SECRET, namespace, name, null),
        operation,
        object,
        oldObject);
  }
}
