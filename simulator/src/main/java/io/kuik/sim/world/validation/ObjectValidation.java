package io.kuik.sim.world.validation;

import io.kuik.sim.world.admission.PolicyValidation;
import io.kuik.sim.world.api.ResourceType;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/**
 * The registry's validation step, per kind: ObjectMeta for everyone, then the kind's own rules
 * (Secrets in full, Pods and Namespaces lightly, ValidatingAdmissionPolicies' expressions compiled,
 * other kinds metadata only). Returns the field errors; empty means valid.
 */
public final class ObjectValidation {

  private ObjectValidation() {}

  public static List<String> validateCreate(ResourceType type, ObjectNode object) {
    FieldErrors errors = MetaValidation.validate(type, object);
    if (type.equals(ResourceType.SECRET)) {
      errors.addAll(SecretValidation.validate(object));
    } else if (type.equals(ResourceType.POD)) {
      errors.addAll(PodValidation.validateCreate(object));
    } else if (type.equals(ResourceType.VALIDATING_ADMISSION_POLICY)) {
      errors.addAll(PolicyValidation.validate(object));
    }
    return errors.list();
  }

  public static List<String> validateUpdate(ResourceType type, ObjectNode object, ObjectNode old) {
    FieldErrors errors = new FieldErrors();
    if (type.equals(ResourceType.SECRET)) {
      errors.addAll(MetaValidation.validateUpdate(type, object, old));
      // ValidateSecretUpdate checks type and immutability, then the whole new Secret.
      FieldErrors secret = SecretValidation.validateUpdate(object, old);
      errors.addAll(secret);
    } else if (type.equals(ResourceType.POD)) {
      errors.addAll(MetaValidation.validateUpdate(type, object, old));
      errors.addAll(PodValidation.validateUpdate(object, old));
    } else {
      errors.addAll(MetaValidation.validateUpdate(type, object, old));
      if (type.equals(ResourceType.VALIDATING_ADMISSION_POLICY)) {
        errors.addAll(PolicyValidation.validate(object));
      }
    }
    return errors.list();
  }
}
