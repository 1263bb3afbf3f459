package io.kuik.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the cluster resource namespace comes from, first found wins: the flag (or its environment
 * variable, which picocli already folded into the flag), then the namespace of the pod's own
 * ServiceAccount, which is kuik's install namespace when it runs in a cluster.
 */
final class ClusterResourceNamespace {

  static final Path SERVICE_ACCOUNT_NAMESPACE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  private ClusterResourceNamespace() {}

  static Optional<String> resolve(String flag, Path serviceAccountNamespace) {
    if (flag != null && !flag.isBlank()) {
      return Optional.of(flag.trim());
    }
    try {
      String read = Files.readString(serviceAccountNamespace, StandardCharsets.UTF_8).trim();
      return read.isEmpty() ? Optional.empty() : Optional.of(read);
    } catch (IOException notInAPod) {
      return Optional.empty();
    }
  }
}
