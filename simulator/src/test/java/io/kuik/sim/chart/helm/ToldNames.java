package io.kuik.sim.chart.helm;

import io.kuik.cli.Main;
import io.kuik.cli.SelftestCommand;
import io.kuik.selftest.SelftestSettings;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import tools.jackson.databind.JsonNode;

/**
 * Every name a process of one render is told, and whether render made that object (or the process
 * makes it itself): the flags of the syncer, the webhook and the selftest pod as {@code kuik}'s own
 * command line parses them (defaults included, so a flag the chart leaves out still names what the
 * process will look for), the {@code resourceNames} of every RBAC rule, every binding's role and
 * subjects, every Deployment's ServiceAccount and TLS Secret, the webhook configuration's Service,
 * every policy binding's policy, and every selector's pods. A problem is one sentence naming the
 * object, the name it was told, and what render made instead.
 */
final class ToldNames {

  private final RenderedManifests manifests;
  private final ValueSet values;
  private final List<String> problems = new ArrayList<>();

  private ToldNames(RenderedManifests manifests, ValueSet values) {
    this.manifests = manifests;
    this.values = values;
  }

  /** The problems of one render, hooks included; empty when every told name resolves. */
  static List<String> problems(RenderedManifests manifests, ValueSet values) {
    ToldNames check = new ToldNames(manifests, values);
    check.syncer();
    check.webhook();
    check.selftest();
    check.rbac();
    check.workloads();
    check.policies();
    check.selectors();
    check.names();
    return check.problems;
  }

  // ---- what each process is told --------------------------------------------------------------

  /** What one command line of the chart tells its process, as {@code kuik} parses it. */
  record Told(String command, Map<String, String> options, Object settings) {
    String get(String flag) {
      return options.get(flag);
    }

    boolean on(String flag) {
      return "true".equals(options.get(flag));
    }
  }

  /** The command line of the Deployment or Pod that runs {@code command}; null if none does. */
  static Told told(RenderedManifests manifests, String command) {
    for (JsonNode object : manifests.all()) {
      JsonNode spec = podSpec(object);
      if (spec == null) {
        continue;
      }
      List<String> args = RenderedManifests.strings(spec.path("containers").path(0).path("args"));
      if (!args.isEmpty() && args.get(0).equals(command)) {
        return parse(args);
      }
    }
    return null;
  }

  static Told parse(List<String> args) {
    CommandLine kuik = Main.commandLine();
    ParseResult parsed = kuik.parseArgs(args.toArray(String[]::new));
    ParseResult sub = parsed.subcommand();
    Map<String, String> options = new TreeMap<>();
    for (OptionSpec option : sub.commandSpec().options()) {
      Object value = option.getValue();
      options.put(option.longestName(), value == null ? null : value.toString());
    }
    Object settings = null;
    if (sub.commandSpec().userObject() instanceof SelftestCommand selftest) {
      settings = selftest.settings();
    }
    return new Told(args.get(0), options, settings);
  }

  private void syncer() {
    Told syncer = told(manifests, "syncer");
    if (syncer == null) {
      problems.add("no Deployment runs kuik syncer");
      return;
    }
    JsonNode deployment = runner("syncer");
    String namespace = RenderedManifests.namespace(deployment);
    equal(
        "the syncer's --cluster-resource-namespace",
        syncer.get("--cluster-resource-namespace"),
        namespace);
    String policy = syncer.get("--admission-policy");
    String binding = syncer.get("--admission-policy-binding");
    rendered("the syncer's --admission-policy", "ValidatingAdmissionPolicy", null, policy);
    bindingOf("the syncer's --admission-policy-binding", binding, policy);
    String account = serviceAccount(deployment);
    grantedByName("the syncer", namespace, account, "validatingadmissionpolicies", null, policy);
    grantedByName(
        "the syncer", namespace, account, "validatingadmissionpolicybindings", null, binding);
    if (syncer.on("--leader-elect")) {
      String lease = syncer.get("--lease-name");
      grantedByName("the syncer", namespace, account, "leases", namespace, lease);
    }
    if (syncer.on("--release-gates") && syncer.options().containsKey("--pod-gates-policy")) {
      String gates = syncer.get("--pod-gates-policy");
      rendered("the syncer's --pod-gates-policy", "ValidatingAdmissionPolicy", null, gates);
      bindingOf(
          "the syncer's --pod-gates-policy-binding",
          syncer.get("--pod-gates-policy-binding"),
          gates);
      grantedByName("the syncer", namespace, account, "validatingadmissionpolicies", null, gates);
    }
    servedNamespaces("the syncer", syncer);
  }

  private void webhook() {
    Told webhook = told(manifests, "webhook");
    if (webhook == null) {
      problems.add("no Deployment runs kuik webhook");
      return;
    }
    JsonNode deployment = runner("webhook");
    String namespace = RenderedManifests.namespace(deployment);
    equal(
        "the webhook's --cluster-resource-namespace",
        webhook.get("--cluster-resource-namespace"),
        namespace);
    Told syncer = told(manifests, "syncer");
    String account = serviceAccount(deployment);
    if (webhook.on("--pull-secret-first")) {
      String lease = webhook.get("--syncer-lease");
      if (syncer != null) {
        equal(
            "the webhook's --syncer-lease (the syncer's --lease-name)",
            lease,
            syncer.get("--lease-name"));
      }
      grantedByName("the webhook", namespace, account, "leases", namespace, lease);
      if (webhook.options().containsKey("--pod-gates-policy")) {
        String gates = webhook.get("--pod-gates-policy");
        rendered("the webhook's --pod-gates-policy", "ValidatingAdmissionPolicy", null, gates);
        bindingOf(
            "the webhook's --pod-gates-policy-binding",
            webhook.get("--pod-gates-policy-binding"),
            gates);
        grantedByName(
            "the webhook", namespace, account, "validatingadmissionpolicies", null, gates);
      }
    }
    servedNamespaces("the webhook", webhook);
    // The TLS files it is told come from the volume mounted at their folder.
    String certFile = webhook.get("--tls-cert-file");
    String secret = mountedSecret(deployment, certFile);
    if (secret == null) {
      problems.add("the webhook's --tls-cert-file " + certFile + " is on no Secret volume");
    } else if (!secretProvided(secret, namespace)) {
      problems.add(
          "the webhook mounts its TLS from the Secret "
              + secret
              + ", which neither render, cert-manager nor webhook.tls.secretName provides");
    }
  }

  /**
   * The namespaces kuik serves, one definition: what each process is told it must leave out is what
   * the webhook configuration leaves out (the install namespace, kube-system and
   * webhook.excludedNamespaces).
   */
  private void servedNamespaces(String who, Told told) {
    if (!told.options().containsKey("--excluded-namespaces")) {
      problems.add(who + " is told nothing of the namespaces the webhook configuration leaves out");
      return;
    }
    Set<String> toldExcluded = new TreeSet<>();
    String list = told.get("--excluded-namespaces");
    if (list != null && !list.isBlank()) {
      for (String name : list.split(",")) {
        toldExcluded.add(name.strip());
      }
    }
    toldExcluded.add("kube-system");
    toldExcluded.add(told.get("--cluster-resource-namespace"));
    Set<String> configured = new TreeSet<>(webhookExcludes());
    if (!configured.equals(toldExcluded)) {
      problems.add(
          who
              + " leaves out "
              + toldExcluded
              + " but the MutatingWebhookConfiguration leaves out "
              + configured);
    }
  }

  private List<String> webhookExcludes() {
    List<String> names = new ArrayList<>();
    for (JsonNode config : manifests.ofKind("MutatingWebhookConfiguration")) {
      for (JsonNode expression :
          config.path("webhooks").path(0).path("namespaceSelector").path("matchExpressions")) {
        if (expression.path("key").asString().equals("kubernetes.io/metadata.name")
            && expression.path("operator").asString().equals("NotIn")) {
          names.addAll(RenderedManifests.strings(expression.path("values")));
        }
      }
    }
    return names;
  }

  private void selftest() {
    Told selftest = told(manifests, "selftest");
    if (selftest == null) {
      if (!values.sets().contains("selftest.enabled=false")) {
        problems.add("no test hook runs kuik selftest");
      }
      return;
    }
    SelftestSettings settings = (SelftestSettings) selftest.settings();
    equal("the selftest's --release", settings.release(), values.release());
    equal("the selftest's --cluster-resource-namespace", settings.namespace(), values.namespace());
    rendered("the selftest's policy", "ValidatingAdmissionPolicy", null, settings.policyName());
    bindingOf("the selftest's policy binding", settings.policyBindingName(), settings.policyName());
    rendered(
        "the selftest's syncer", "Deployment", values.namespace(), settings.syncerDeployment());
    rendered(
        "the selftest's webhook", "Deployment", values.namespace(), settings.webhookDeployment());
    readyz("the selftest's syncer /readyz", settings.syncerReadyz(), settings.syncerDeployment());
    readyz(
        "the selftest's webhook /readyz", settings.webhookReadyz(), settings.webhookDeployment());
    JsonNode pod = runner("selftest");
    String account = serviceAccount(pod);
    String namespace = values.namespace();
    grantedByName(
        "the selftest",
        namespace,
        account,
        "validatingadmissionpolicies",
        null,
        settings.policyName());
    grantedByName(
        "the selftest", namespace, account, "deployments", namespace, settings.syncerDeployment());
    grantedByName(
        "the selftest", namespace, account, "deployments", namespace, settings.webhookDeployment());
  }

  /** A /readyz URL names a Service of render, on a port it serves, selecting the component. */
  private void readyz(String what, URI url, String deployment) {
    if (url == null) {
      return;
    }
    String[] host = url.getHost().split("\\.");
    if (host.length < 3 || !host[2].equals("svc")) {
      problems.add(what + " " + url + " is not a Service's name");
      return;
    }
    JsonNode service = find("Service", host[1], host[0]);
    if (service == null) {
      problems.add(
          what
              + " "
              + url
              + " names the Service "
              + host[1]
              + "/"
              + host[0]
              + ", which render does not create");
      return;
    }
    boolean port = false;
    for (JsonNode served : service.path("spec").path("ports")) {
      port |= served.path("port").asInt() == url.getPort();
    }
    if (!port) {
      problems.add(what + " " + url + ": the Service serves no port " + url.getPort());
    }
    JsonNode target = find("Deployment", host[1], deployment);
    if (target != null && !selects(service.path("spec").path("selector"), podLabels(target))) {
      problems.add(what + " " + url + ": the Service does not select the pods of " + deployment);
    }
  }

  // ---- RBAC -------------------------------------------------------------------------------------

  /**
   * Whether {@code account} in {@code namespace} holds some verb on {@code resource} named {@code
   * name} ({@code where} the namespace of a namespaced resource) through a rule that names it.
   */
  private void grantedByName(
      String who, String namespace, String account, String resource, String where, String name) {
    for (JsonNode binding : bindingsOf(namespace, account)) {
      JsonNode role = roleOf(binding);
      if (role == null) {
        continue;
      }
      boolean namespaced = binding.path("kind").asString().equals("RoleBinding");
      if (namespaced && !Objects.equals(RenderedManifests.namespace(binding), where)) {
        continue;
      }
      for (JsonNode rule : role.path("rules")) {
        if (RenderedManifests.strings(rule.path("resources")).contains(resource)
            && RenderedManifests.strings(rule.path("resourceNames")).contains(name)) {
          return;
        }
      }
    }
    problems.add(
        who
            + " ("
            + account
            + ") is told of "
            + resource
            + " "
            + name
            + " but no rule of its RBAC names it");
  }

  /** Every resourceNames entry names an object of render, or one its holder is told to make. */
  private void rbac() {
    Told syncer = told(manifests, "syncer");
    Set<String> leases = new TreeSet<>();
    if (syncer != null && syncer.on("--leader-elect")) {
      leases.add(syncer.get("--lease-name"));
    }
    for (JsonNode role : roles()) {
      for (JsonNode rule : role.path("rules")) {
        for (String resource : RenderedManifests.strings(rule.path("resources"))) {
          for (String name : RenderedManifests.strings(rule.path("resourceNames"))) {
            String kind = KINDS.get(resource);
            if (resource.equals("leases")) {
              if (!leases.contains(name)) {
                problems.add(
                    RenderedManifests.kind(role)
                        + " "
                        + RenderedManifests.name(role)
                        + " names the Lease "
                        + name
                        + ", which no process is told to hold (the syncer holds "
                        + leases
                        + ")");
              }
            } else if (kind == null) {
              problems.add(
                  RenderedManifests.kind(role)
                      + " "
                      + RenderedManifests.name(role)
                      + " names "
                      + resource
                      + " "
                      + name
                      + ", a kind this check does not know");
            } else if (manifests.ofKind(kind).stream()
                .noneMatch(o -> RenderedManifests.name(o).equals(name))) {
              problems.add(
                  RenderedManifests.kind(role)
                      + " "
                      + RenderedManifests.name(role)
                      + " grants "
                      + resource
                      + " "
                      + name
                      + ", which render does not create");
            }
          }
        }
      }
    }
    for (JsonNode binding : bindings()) {
      if (roleOf(binding) == null) {
        problems.add(
            RenderedManifests.kind(binding)
                + " "
                + RenderedManifests.name(binding)
                + " binds "
                + binding.path("roleRef").path("kind").asString()
                + " "
                + binding.path("roleRef").path("name").asString()
                + ", which render does not create");
      }
      for (JsonNode subject : binding.path("subjects")) {
        String account = subject.path("name").asString();
        if (!accountProvided(subject.path("namespace").asString(), account)) {
          problems.add(
              RenderedManifests.kind(binding)
                  + " "
                  + RenderedManifests.name(binding)
                  + " binds the ServiceAccount "
                  + account
                  + ", which render does not create nor the values name");
        }
      }
    }
  }

  private static final Map<String, String> KINDS =
      Map.of(
          "validatingadmissionpolicies", "ValidatingAdmissionPolicy",
          "validatingadmissionpolicybindings", "ValidatingAdmissionPolicyBinding",
          "deployments", "Deployment",
          "secrets", "Secret",
          "configmaps", "ConfigMap");

  private List<JsonNode> roles() {
    List<JsonNode> roles = new ArrayList<>(manifests.ofKind("Role"));
    roles.addAll(manifests.ofKind("ClusterRole"));
    return roles;
  }

  private List<JsonNode> bindings() {
    List<JsonNode> bindings = new ArrayList<>(manifests.ofKind("RoleBinding"));
    bindings.addAll(manifests.ofKind("ClusterRoleBinding"));
    return bindings;
  }

  private List<JsonNode> bindingsOf(String namespace, String account) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode binding : bindings()) {
      for (JsonNode subject : binding.path("subjects")) {
        if (subject.path("kind").asString().equals("ServiceAccount")
            && subject.path("name").asString().equals(account)
            && subject.path("namespace").asString().equals(namespace)) {
          found.add(binding);
        }
      }
    }
    return found;
  }

  private JsonNode roleOf(JsonNode binding) {
    String kind = binding.path("roleRef").path("kind").asString();
    String name = binding.path("roleRef").path("name").asString();
    String namespace = kind.equals("Role") ? RenderedManifests.namespace(binding) : null;
    return find(kind, namespace, name);
  }

  // ---- workloads ----------------------------------------------------------------------------

  private void workloads() {
    for (JsonNode object : manifests.all()) {
      JsonNode spec = podSpec(object);
      if (spec == null) {
        continue;
      }
      String account = spec.path("serviceAccountName").asString();
      if (!accountProvided(RenderedManifests.namespace(object), account)) {
        problems.add(
            RenderedManifests.kind(object)
                + " "
                + RenderedManifests.name(object)
                + " runs as the ServiceAccount "
                + account
                + ", which render does not create nor the values name");
      }
      global(object, spec);
    }
  }

  /** global.* reaches every pod the chart runs, under the chart's own values of a component. */
  private void global(JsonNode object, JsonNode spec) {
    String what = RenderedManifests.kind(object) + " " + RenderedManifests.name(object);
    String pullSecret = value("global.imagePullSecrets[0].name");
    if (pullSecret != null) {
      List<String> names = new ArrayList<>();
      spec.path("imagePullSecrets").values().forEach(s -> names.add(s.path("name").asString()));
      if (!names.contains(pullSecret)) {
        problems.add(what + " ignores global.imagePullSecrets: it pulls with " + names);
      }
    }
    String priority = value("global.priorityClassName");
    String component = component(object);
    String own = component == null ? null : value(component + ".priorityClassName");
    if (priority != null) {
      String expected = own != null ? own : priority;
      equal(
          what + "'s priorityClassName (global.priorityClassName)",
          spec.path("priorityClassName").asString(null),
          expected);
    }
    for (Map.Entry<String, String> selector : prefixed("global.nodeSelector.").entrySet()) {
      String ownValue =
          component == null
              ? null
              : value(component + ".nodeSelector." + selector.getKey().replace(".", "\\."));
      String expected = ownValue != null ? ownValue : selector.getValue();
      equal(
          what + "'s nodeSelector " + selector.getKey() + " (global.nodeSelector)",
          spec.path("nodeSelector").path(selector.getKey()).asString(null),
          expected);
    }
    for (Map.Entry<String, String> label : prefixed("global.commonLabels.").entrySet()) {
      equal(
          what + "'s label " + label.getKey() + " (global.commonLabels)",
          object.path("metadata").path("labels").path(label.getKey()).asString(null),
          label.getValue());
    }
  }

  private static String component(JsonNode object) {
    String label =
        object.path("metadata").path("labels").path("app.kubernetes.io/component").asString("");
    return switch (label) {
      case "secret-syncer" -> "syncer";
      case "webhook" -> "webhook";
      case "selftest" -> "selftest";
      default -> null;
    };
  }

  // ---- policies, Services, selectors --------------------------------------------------------

  private void policies() {
    for (JsonNode binding : manifests.ofKind("ValidatingAdmissionPolicyBinding")) {
      String policy = binding.path("spec").path("policyName").asString();
      rendered(
          "ValidatingAdmissionPolicyBinding " + RenderedManifests.name(binding) + "'s policyName",
          "ValidatingAdmissionPolicy",
          null,
          policy);
    }
    for (JsonNode config : manifests.ofKind("MutatingWebhookConfiguration")) {
      JsonNode service = config.path("webhooks").path(0).path("clientConfig").path("service");
      rendered(
          "the MutatingWebhookConfiguration's Service",
          "Service",
          service.path("namespace").asString(),
          service.path("name").asString());
      List<String> excluded = webhookExcludes();
      if (!excluded.contains(values.namespace()) || !excluded.contains("kube-system")) {
        problems.add(
            "the webhook configuration serves kube-system or the install namespace: " + excluded);
      }
    }
    for (JsonNode certificate : manifests.ofKind("Certificate")) {
      JsonNode issuer = certificate.path("spec").path("issuerRef");
      if (value("certManager.issuerRef.name") == null) {
        rendered(
            "the Certificate's issuer",
            issuer.path("kind").asString(),
            values.namespace(),
            issuer.path("name").asString());
      }
    }
  }

  /** Every selector of render selects pods of render: Services, PDBs, NetworkPolicies, monitors. */
  private void selectors() {
    for (String kind : List.of("Service", "PodDisruptionBudget", "NetworkPolicy")) {
      for (JsonNode object : manifests.ofKind(kind)) {
        JsonNode selector =
            kind.equals("Service")
                ? object.path("spec").path("selector")
                : object
                    .path("spec")
                    .path(kind.equals("NetworkPolicy") ? "podSelector" : "selector")
                    .path("matchLabels");
        boolean any = false;
        for (JsonNode deployment : manifests.ofKind("Deployment")) {
          any |=
              Objects.equals(
                      RenderedManifests.namespace(deployment), RenderedManifests.namespace(object))
                  && selects(selector, podLabels(deployment));
        }
        if (!any) {
          problems.add(
              kind
                  + " "
                  + RenderedManifests.name(object)
                  + " selects no pod of render: "
                  + selector);
        }
      }
    }
    for (JsonNode monitor : manifests.ofKind("ServiceMonitor")) {
      JsonNode selector = monitor.path("spec").path("selector").path("matchLabels");
      if (manifests.ofKind("Service").stream()
          .noneMatch(s -> selects(selector, s.path("metadata").path("labels")))) {
        problems.add("the ServiceMonitor selects no Service of render: " + selector);
      }
    }
  }

  /** Every name is one its kind takes: a Service's a DNS-1035 label, the others' a subdomain. */
  private void names() {
    for (JsonNode object : manifests.all()) {
      String name = RenderedManifests.name(object);
      boolean label = RenderedManifests.kind(object).equals("Service");
      int max = label ? 63 : 253;
      if (name.length() > max
          || !name.matches(
              label ? "[a-z]([-a-z0-9]*[a-z0-9])?" : "[a-z0-9]([-a-z0-9.]*[a-z0-9])?")) {
        problems.add(
            RenderedManifests.kind(object) + " " + name + " is not a valid name for its kind");
      }
    }
  }

  // ---- side by side -------------------------------------------------------------------------

  /**
   * What two releases installed in one cluster share: no object (the CRDs left to one), no Lease
   * when they share a namespace, and no selector of one selects the other's pods.
   */
  static List<String> clashes(RenderedManifests first, RenderedManifests second) {
    List<String> clashes = new ArrayList<>();
    Set<String> keys = new LinkedHashSet<>();
    for (JsonNode object : first.all()) {
      keys.add(key(object));
    }
    for (JsonNode object : second.all()) {
      if (!RenderedManifests.kind(object).equals("CustomResourceDefinition")
          && keys.contains(key(object))) {
        clashes.add("both releases render " + key(object));
      }
    }
    Told a = told(first, "syncer");
    Told b = told(second, "syncer");
    if (a != null
        && b != null
        && a.get("--cluster-resource-namespace").equals(b.get("--cluster-resource-namespace"))
        && a.get("--lease-name").equals(b.get("--lease-name"))
        && a.on("--leader-elect")
        && b.on("--leader-elect")) {
      clashes.add("both syncers elect their leader on the Lease " + a.get("--lease-name"));
    }
    Told webhook = told(second, "webhook");
    if (webhook != null
        && a != null
        && webhook.on("--pull-secret-first")
        && webhook.get("--syncer-lease").equals(a.get("--lease-name"))
        && webhook.get("--cluster-resource-namespace").equals(a.get("--cluster-resource-namespace"))
        && (b == null || !b.get("--lease-name").equals(a.get("--lease-name")))) {
      clashes.add("the second release's webhook gates pods on the first release's Lease");
    }
    for (RenderedManifests[] pair : new RenderedManifests[][] {{first, second}, {second, first}}) {
      for (JsonNode service : pair[0].ofKind("Service")) {
        for (JsonNode deployment : pair[1].ofKind("Deployment")) {
          if (Objects.equals(
                  RenderedManifests.namespace(service), RenderedManifests.namespace(deployment))
              && selects(service.path("spec").path("selector"), podLabels(deployment))) {
            clashes.add(
                "the Service "
                    + RenderedManifests.name(service)
                    + " selects the other release's "
                    + RenderedManifests.name(deployment));
          }
        }
      }
    }
    return clashes;
  }

  private static String key(JsonNode object) {
    String namespace = RenderedManifests.namespace(object);
    return RenderedManifests.kind(object)
        + " "
        + (namespace == null ? "" : namespace + "/")
        + RenderedManifests.name(object);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private void rendered(String what, String kind, String namespace, String name) {
    if (name == null || find(kind, namespace, name) == null) {
      problems.add(
          what
              + " names the "
              + kind
              + " "
              + name
              + ", which render does not create; it creates "
              + manifests.ofKind(kind).stream().map(RenderedManifests::name).toList());
    }
  }

  private void bindingOf(String what, String binding, String policy) {
    rendered(what, "ValidatingAdmissionPolicyBinding", null, binding);
    JsonNode found = find("ValidatingAdmissionPolicyBinding", null, binding);
    if (found != null) {
      equal(what + "'s policyName", found.path("spec").path("policyName").asString(), policy);
    }
  }

  private void equal(String what, String actual, String expected) {
    if (!Objects.equals(actual, expected)) {
      problems.add(what + " is " + actual + ", not " + expected);
    }
  }

  private JsonNode find(String kind, String namespace, String name) {
    for (JsonNode object : manifests.ofKind(kind)) {
      if (RenderedManifests.name(object).equals(name)
          && (namespace == null || namespace.equals(RenderedManifests.namespace(object)))) {
        return object;
      }
    }
    return null;
  }

  /** The Deployment or Pod whose first argument is {@code command}. */
  private JsonNode runner(String command) {
    for (JsonNode object : manifests.all()) {
      JsonNode spec = podSpec(object);
      if (spec != null
          && RenderedManifests.strings(spec.path("containers").path(0).path("args")).stream()
              .findFirst()
              .filter(command::equals)
              .isPresent()) {
        return object;
      }
    }
    throw new AssertionError("nothing runs " + command);
  }

  private static JsonNode podSpec(JsonNode object) {
    return switch (RenderedManifests.kind(object)) {
      case "Deployment" -> object.path("spec").path("template").path("spec");
      case "Pod" -> object.path("spec");
      default -> null;
    };
  }

  private static JsonNode podLabels(JsonNode object) {
    return RenderedManifests.kind(object).equals("Pod")
        ? object.path("metadata").path("labels")
        : object.path("spec").path("template").path("metadata").path("labels");
  }

  private static String serviceAccount(JsonNode object) {
    return podSpec(object).path("serviceAccountName").asString();
  }

  private static boolean selects(JsonNode selector, JsonNode labels) {
    if (selector.isMissingNode() || selector.isEmpty()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> wanted : selector.properties()) {
      if (!wanted.getValue().asString().equals(labels.path(wanted.getKey()).asString(null))) {
        return false;
      }
    }
    return true;
  }

  private boolean accountProvided(String namespace, String account) {
    if (find("ServiceAccount", namespace, account) != null) {
      return true;
    }
    // One the user brings: serviceAccount.create=false with its name.
    for (String component : List.of("syncer", "webhook")) {
      if ("false".equals(value(component + ".serviceAccount.create"))
          && account.equals(value(component + ".serviceAccount.name"))
          && namespace.equals(values.namespace())) {
        return true;
      }
    }
    return false;
  }

  private boolean secretProvided(String secret, String namespace) {
    if (find("Secret", namespace, secret) != null
        || secret.equals(value("webhook.tls.secretName"))) {
      return true;
    }
    return manifests.ofKind("Certificate").stream()
        .anyMatch(c -> c.path("spec").path("secretName").asString().equals(secret));
  }

  private static String mountedSecret(JsonNode deployment, String file) {
    JsonNode spec = podSpec(deployment);
    for (JsonNode mount : spec.path("containers").path(0).path("volumeMounts")) {
      String path = mount.path("mountPath").asString();
      if (file != null && file.startsWith(path.endsWith("/") ? path : path + "/")) {
        for (JsonNode volume : spec.path("volumes")) {
          if (volume.path("name").asString().equals(mount.path("name").asString())) {
            return volume.path("secret").path("secretName").asString(null);
          }
        }
      }
    }
    return null;
  }

  private String value(String key) {
    for (String set : values.sets()) {
      if (set.startsWith(key + "=")) {
        return set.substring(key.length() + 1);
      }
    }
    return null;
  }

  /** The values under a prefix, keys unescaped. */
  private Map<String, String> prefixed(String prefix) {
    Map<String, String> found = new TreeMap<>();
    for (String set : values.sets()) {
      if (set.startsWith(prefix)) {
        int equals = set.indexOf('=');
        found.put(
            set.substring(prefix.length(), equals).replace("\\.", "."), set.substring(equals + 1));
      }
    }
    return found;
  }
}
