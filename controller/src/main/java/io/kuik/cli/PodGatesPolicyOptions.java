package io.kuik.cli;

import io.kuik.model.Dns1123;
import io.kuik.model.WriteBounds;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The pod-gates admission policy of pull secret first, as the syncer and the webhook are told it:
 * each patches pods only while this policy and its binding are in place (the chart's {@code
 * <fullname>-pod-gates}, passed from the helper that names it).
 */
final class PodGatesPolicyOptions {

  static final String DEFAULT_NAME = "kuik-pod-gates";

  @Option(
      names = "--pod-gates-policy",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_POD_GATES_POLICY:-" + DEFAULT_NAME + "}",
      description = {
        "With pull secret first: the ValidatingAdmissionPolicy that bounds this process's pod"
            + " patches (the chart's <fullname>-pod-gates). No pod is patched while it or its"
            + " binding is missing.",
        "Env: KUIK_POD_GATES_POLICY. Default: ${DEFAULT-VALUE}."
      })
  String policy;

  @Option(
      names = "--pod-gates-policy-binding",
      paramLabel = "<name>",
      defaultValue = "${env:KUIK_POD_GATES_POLICY_BINDING:-" + DEFAULT_NAME + "}",
      description = {
        "The ValidatingAdmissionPolicyBinding of --pod-gates-policy, which must bind it with Deny.",
        "Env: KUIK_POD_GATES_POLICY_BINDING. Default: ${DEFAULT-VALUE}."
      })
  String binding;

  /** The policy and its binding, their names checked. */
  WriteBounds.Policy policy(CommandSpec spec) {
    for (String[] name :
        new String[][] {{"--pod-gates-policy", policy}, {"--pod-gates-policy-binding", binding}}) {
      if (!Dns1123.isSubdomain(name[1])) {
        throw new ParameterException(
            spec.commandLine(), "Invalid " + name[0] + " '" + name[1] + "': not an object name");
      }
    }
    return new WriteBounds.Policy(policy, binding);
  }
}
