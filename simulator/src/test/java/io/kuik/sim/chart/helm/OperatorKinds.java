package io.kuik.sim.chart.helm;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/**
 * The fields of the cert-manager and prometheus-operator kinds the chart renders, as their API
 * references name them, for {@link StrictManifests}: fabric8 8.0.0 publishes no model of these
 * extensions. Only the fields the chart may use are declared, so a field outside them fails too.
 *
 * <p>Sources: https://cert-manager.io/docs/reference/api-docs/ (Certificate, Issuer),
 * https://prometheus-operator.dev/docs/api-reference/api/ (ServiceMonitor, PodMonitor,
 * PrometheusRule) and https://docs.cilium.io/en/stable/security/policy/language/
 * (CiliumNetworkPolicy: an endpoint selector, ingress from entities to ports).
 */
final class OperatorKinds {

  private OperatorKinds() {}

  record IssuerReference(String name, String kind, String group) {}

  record PrivateKey(String algorithm, Integer size, String rotationPolicy) {}

  record CertificateSpec(
      String secretName,
      String commonName,
      List<String> dnsNames,
      PrivateKey privateKey,
      IssuerReference issuerRef) {}

  record Certificate(String apiVersion, String kind, ObjectMeta metadata, CertificateSpec spec) {}

  record IssuerSpec(Map<String, Object> selfSigned) {}

  record Issuer(String apiVersion, String kind, ObjectMeta metadata, IssuerSpec spec) {}

  record NamespaceSelector(Boolean any, List<String> matchNames) {}

  /**
   * A ServiceMonitor endpoint: the chart's fields, and those its tests pass through
   * endpointAdditionalProperties (RelabelConfig is left untyped).
   */
  record Endpoint(
      String port,
      String path,
      String interval,
      String scrapeTimeout,
      Boolean honorLabels,
      List<Map<String, Object>> relabelings,
      List<Map<String, Object>> metricRelabelings) {}

  record ServiceMonitorSpec(
      LabelSelector selector, NamespaceSelector namespaceSelector, List<Endpoint> endpoints) {}

  record ServiceMonitor(
      String apiVersion, String kind, ObjectMeta metadata, ServiceMonitorSpec spec) {}

  record PodMonitorSpec(
      LabelSelector selector,
      NamespaceSelector namespaceSelector,
      List<Endpoint> podMetricsEndpoints) {}

  record PodMonitor(String apiVersion, String kind, ObjectMeta metadata, PodMonitorSpec spec) {}

  record Rule(
      String alert,
      String record,
      String expr,
      @JsonProperty("for") String forDuration,
      Map<String, String> labels,
      Map<String, String> annotations) {}

  record RuleGroup(String name, String interval, List<Rule> rules) {}

  record PrometheusRuleSpec(List<RuleGroup> groups) {}

  record PrometheusRule(
      String apiVersion, String kind, ObjectMeta metadata, PrometheusRuleSpec spec) {}

  record CiliumPort(String port, String protocol) {}

  record CiliumPortRule(List<CiliumPort> ports) {}

  record CiliumIngress(List<String> fromEntities, List<CiliumPortRule> toPorts) {}

  record CiliumNetworkPolicySpec(LabelSelector endpointSelector, List<CiliumIngress> ingress) {}

  record CiliumNetworkPolicy(
      String apiVersion, String kind, ObjectMeta metadata, CiliumNetworkPolicySpec spec) {}
}
