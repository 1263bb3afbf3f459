package io.kuik.sim.chart.helm;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.Map;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a rendered object into its Kubernetes type (fabric8's model; {@link OperatorKinds} for the
 * cert-manager and prometheus-operator kinds), strictly: fabric8's model classes keep unknown
 * fields in an "additional properties" map (an any-setter), so this reader ignores any-setters and
 * fails on every field the type does not declare, as {@code kubectl apply --validate=strict} would.
 * A misspelt or misplaced field in a template is then an error, not a field dropped at install.
 */
final class StrictManifests {

  /** apiVersion/kind → the model class of every kind the chart may render. */
  static final Map<String, Class<?>> TYPES =
      Map.ofEntries(
          Map.entry("v1/ServiceAccount", ServiceAccount.class),
          Map.entry("v1/Service", Service.class),
          Map.entry("v1/Secret", Secret.class),
          Map.entry("v1/ConfigMap", ConfigMap.class),
          Map.entry("v1/Pod", Pod.class),
          Map.entry("apps/v1/Deployment", Deployment.class),
          Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
          Map.entry(
              "networking.k8s.io/v1/NetworkPolicy",
              io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class),
          Map.entry("rbac.authorization.k8s.io/v1/ClusterRole", ClusterRole.class),
          Map.entry("rbac.authorization.k8s.io/v1/ClusterRoleBinding", ClusterRoleBinding.class),
          Map.entry("rbac.authorization.k8s.io/v1/Role", Role.class),
          Map.entry("rbac.authorization.k8s.io/v1/RoleBinding", RoleBinding.class),
          Map.entry(
              "admissionregistration.k8s.io/v1/MutatingWebhookConfiguration",
              MutatingWebhookConfiguration.class),
          Map.entry(
              "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy",
              ValidatingAdmissionPolicy.class),
          Map.entry(
              "admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding",
              ValidatingAdmissionPolicyBinding.class),
          Map.entry(
              "apiextensions.k8s.io/v1/CustomResourceDefinition", CustomResourceDefinition.class),
          Map.entry("cert-manager.io/v1/Issuer", OperatorKinds.Issuer.class),
          Map.entry("cert-manager.io/v1/Certificate", OperatorKinds.Certificate.class),
          Map.entry("monitoring.coreos.com/v1/ServiceMonitor", OperatorKinds.ServiceMonitor.class),
          Map.entry("monitoring.coreos.com/v1/PodMonitor", OperatorKinds.PodMonitor.class),
          Map.entry("monitoring.coreos.com/v1/PrometheusRule", OperatorKinds.PrometheusRule.class),
          Map.entry("cilium.io/v2/CiliumNetworkPolicy", OperatorKinds.CiliumNetworkPolicy.class));

  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .annotationIntrospector(
              new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
                  return Boolean.FALSE;
                }
              })
          .build();

  private StrictManifests() {}

  /**
   * The object as its model class.
   *
   * @throws AssertionError naming the object and the field the type does not know, or a kind
   *     without a model class here
   */
  static Object read(JsonNode object) {
    String type = object.path("apiVersion").asString() + "/" + object.path("kind").asString();
    Class<?> model = TYPES.get(type);
    String name = type + " " + RenderedManifests.name(object);
    if (model == null) {
      throw new AssertionError(name + ": no model class for this kind in StrictManifests.TYPES");
    }
    try {
      return STRICT.treeToValue(object, model);
    } catch (RuntimeException unknown) {
      throw new AssertionError(
          name + " is not a valid " + model.getSimpleName() + ": " + unknown.getMessage(), unknown);
    }
  }
}
