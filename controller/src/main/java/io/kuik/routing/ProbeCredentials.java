package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.Entry;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.CredentialSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The credential a candidate is probed with: the one the kubelet would use for the entry's path,
 * picked from the entry's {@code secretRef} Secret by {@link DockerConfig#credentialFor(Entry)},
 * exactly as the syncer fills the injected Secret
 * (docs/decisions/0002-credential-the-kubelet-uses.md). So the probe asks with the credential the
 * pod will pull with.
 *
 * <p>Anonymous ({@code null}) for the original, an entry without auth, a provider entry (providers
 * are not implemented, docs/behaviour.md#provider-credentials), and a Secret that is missing, not a
 * {@code kubernetes.io/dockerconfigjson}, malformed or without a credential for the path: the
 * syncer reports those on the resource; the probe then usually answers {@code UNAUTHORIZED}.
 *
 * <p>One instance serves one admission: it remembers each Secret it parsed. Not thread-safe.
 */
public final class ProbeCredentials {

  private final CredentialSource source;
  private final Map<String, Optional<DockerConfig.Keyring>> parsed = new HashMap<>();

  public ProbeCredentials(CredentialSource source) {
    this.source = source;
  }

  /** The credential for {@code candidate}, or {@code null} to probe anonymously. */
  public RegistryCredential credentialFor(Candidate candidate) {
    Entry entry = candidate.entry();
    if (entry == null || entry.auth() == null || entry.auth().secretRefName() == null) {
      return null;
    }
    Optional<DockerConfig.Keyring> config =
        parsed.computeIfAbsent(entry.auth().secretRefName(), this::dockerConfig);
    return config
        .flatMap(c -> c.credentialFor(entry))
        .map(DockerConfig.CredentialMatch::credential)
        .filter(credential -> !credential.isEmpty())
        .orElse(null);
  }

  private Optional<DockerConfig.Keyring> dockerConfig(String secretName) {
    Optional<Secret> secret = source.clusterSecret(secretName);
    if (secret.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(DockerConfigSecret.read(secret.get(), "Secret " + secretName).keyring());
    } catch (InvalidDockerConfigException unusable) {
      return Optional.empty(); // the syncer reports it on the resource
    }
  }
}
