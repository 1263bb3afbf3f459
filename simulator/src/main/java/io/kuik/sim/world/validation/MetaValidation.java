package io.kuik.sim.world.validation;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Kinds;
import io.kuik.sim.world.object.Meta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** ObjectMeta rules every kind shares: name, namespace, labels, annotations, owners, finalizers. */
public final class MetaValidation {

  private static final Set<String> STANDARD_FINALIZERS =
      Set.of("kubernetes", "orphan", "foregroundDeletion");
  private static final int MAX_ANNOTATIONS_BYTES = 256 * 1024;

  private MetaValidation() {}

  public static FieldErrors validate(ResourceType type, ObjectNode object) {
    FieldErrors errors = new FieldErrors();
    String name = Meta.name(object);
    if (name == null || name.isEmpty()) {
      errors.required("metadata.name", "name or generateName is required");
    } else {
      nameMessages(type, name).forEach(m -> errors.invalid("metadata.name", name, m));
    }
    String namespace = Meta.namespace(object);
    if (type.namespaced()) {
      if (namespace == null || namespace.isEmpty()) {
        errors.required("metadata.namespace", "");
      } else {
        Names.dnsLabel(namespace).forEach(m -> errors.invalid("metadata.namespace", namespace, m));
      }
    } else if (namespace != null && !namespace.isEmpty()) {
      errors.forbidden("metadata.namespace", "not allowed on this type");
    }
    for (Map.Entry<String, String> label : Meta.labels(object).entrySet()) {
      Names.qualifiedName(label.getKey())
          .forEach(m -> errors.invalid("metadata.labels", label.getKey(), m));
      Names.labelValue(label.getValue())
          .forEach(m -> errors.invalid("metadata.labels", label.getValue(), m));
    }
    long annotationBytes = 0;
    for (Map.Entry<String, String> a : Meta.annotations(object).entrySet()) {
      Names.qualifiedName(a.getKey().toLowerCase(java.util.Locale.ROOT))
          .forEach(m -> errors.invalid("metadata.annotations", a.getKey(), m));
      annotationBytes += a.getKey().length() + a.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (annotationBytes > MAX_ANNOTATIONS_BYTES) {
      errors.tooLong("metadata.annotations", MAX_ANNOTATIONS_BYTES);
    }
    ownerReferences(object, errors);
    List<String> finalizers = Meta.finalizers(object);
    for (int i = 0; i < finalizers.size(); i++) {
      String f = finalizers.get(i);
      if (!f.contains("/") && !STANDARD_FINALIZERS.contains(f)) {
        errors.invalid(
            "metadata.finalizers[" + i + "]",
            f,
            "name is neither a standard finalizer name nor is it fully qualified");
      }
    }
    return errors;
  }

  public static FieldErrors validateUpdate(ResourceType type, ObjectNode object, ObjectNode old) {
    FieldErrors errors = validate(type, object);
    String uid = Meta.uid(object);
    if (uid != null && !uid.equals(Meta.uid(old))) {
      errors.immutable("metadata.uid", uid);
    }
    if (Meta.deleting(old)) {
      List<String> added =
          Meta.finalizers(object).stream().filter(f -> !Meta.finalizers(old).contains(f)).toList();
      if (!added.isEmpty()) {
        errors.forbidden(
            "metadata.finalizers",
            "no new finalizers can be added if the object is being deleted, found new finalizers "
                + added);
      }
    }
    return errors;
  }

  static List<String> nameMessages(ResourceType type, String name) {
    switch (Kinds.nameRule(type)) {
      case DNS_LABEL:
        return Names.dnsLabel(name);
      case PATH_SEGMENT:
        return Names.pathSegment(name);
      default:
        return Names.dnsSubdomain(name);
    }
  }

  private static void ownerReferences(ObjectNode object, FieldErrors errors) {
    int controllers = 0;
    for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
      for (String field : List.of("apiVersion", "kind", "name", "uid")) {
        String value = Json.text(ref, field);
        if (value == null || value.isEmpty()) {
          errors.invalid("metadata.ownerReferences." + field, "", field + " must not be empty");
        }
      }
      if (ref.path("controller").asBoolean(false)) {
        controllers++;
      }
    }
    if (controllers > 1) {
      errors.invalid(
          "metadata.ownerReferences",
          Meta.name(object),
          "Only one reference can have Controller set to true");
    }
  }
}
