package io.kuik.cli;

import io.kuik.model.ServedNamespaces;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The namespaces kuik never serves beside kube-system and the cluster resource namespace, one
 * definition for every command: the chart's {@code webhook.excludedNamespaces}, which it also
 * renders into the webhook configuration's namespaceSelector.
 */
final class ExcludedNamespacesOption {

  @Option(
      names = "--excluded-namespaces",
      paramLabel = "<namespace,...>",
      defaultValue = "${env:KUIK_EXCLUDED_NAMESPACES:-}",
      description = {
        "Namespaces kuik never serves beside kube-system and the cluster resource namespace,"
            + " comma-separated (the chart's webhook.excludedNamespaces, which the webhook"
            + " configuration leaves out too): no pod there is routed, no claim of a rewrite there"
            + " counts, and no Secret is written there.",
        "Env: KUIK_EXCLUDED_NAMESPACES. Default: none."
      })
  String excluded;

  /** The namespaces kuik serves, for an install in {@code installNamespace}. */
  ServedNamespaces served(String installNamespace, CommandSpec spec) {
    try {
      return ServedNamespaces.parse(installNamespace, excluded);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(
          spec.commandLine(), "Invalid --excluded-namespaces: " + invalid.getMessage());
    }
  }
}
