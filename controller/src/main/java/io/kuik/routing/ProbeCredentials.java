package io.kuik.routing;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.Entry;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderSecrets;
import io.kuik.model.RegistryCredential;
import io.kuik.ports.CredentialSource;
import java.time.Instant;
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
 * <p>A provider entry is probed with the credential the syncer minted for it and keeps in the
 * install namespace ({@link ProviderSecrets}), until it leaves the pods' Secrets (its expiry less
 * the validity bound): the one its pods will pull with (docs/behaviour.md#provider-credentials).
 *
 * <p>Anonymous ({@code null}) for the original, an entry without auth, a provider entry with no
 * credential kept (or without a clock to judge its expiry by), and a Secret that is missing, not a
 * {@code kubernetes.io/dockerconfigjson}, malformed or without a credential for the path: the
 * syncer reports those on the resource; the probe then usually answers {@code UNAUTHORIZED}.
 *
 * <p>One instance serves one admission: it remembers each Secret it parsed. Not thread-safe.
 */
public final class ProbeCredentials {

  private final CredentialSource source;
  private final Instant now;
  private final Map<String, Optional<DockerConfig.Keyring>> parsed = new HashMap<>();

  /** Provider entries probed anonymously: no time to judge a kept credential's expiry by. */
  public ProbeCredentials(CredentialSource source) {
    this(source, null);
  }

  /** Provider entries probed with their kept credential while it is unexpired at {@code now}. */
  public ProbeCredentials(CredentialSource source, Instant now) {
    this.source = source;
    this.now = now;
  }

  /** The credential for {@code candidate}, or {@code null} to probe anonymously. */
  public RegistryCredential credentialFor(Candidate candidate) {
    Entry entry = candidate.entry();
    if (entry == null || entry.auth() == null) {
      return null;
    }
    if (entry.auth().provider() != null) {
      return now == null ? null : minted(entry);
    }
    Optional<DockerConfig.Keyring> config =
        parsed.computeIfAbsent(entry.auth().secretRefName(), this::dockerConfig);
    return config
        .flatMap(c -> c.credentialFor(entry))
        .map(DockerConfig.CredentialMatch::credential)
        .filter(credential -> !credential.isEmpty())
        .orElse(null);
  }

  private RegistryCredential minted(Entry entry) {
    for (ProviderCredential.Slot slot : ProviderCredential.Slot.of(entry.providerImage())) {
      Optional<RegistryCredential> credential =
          source
              .clusterSecret(ProviderSecrets.name(entry.auth().provider(), slot))
              .filter(s -> ProviderSecrets.leavesAt(s).filter(now::isBefore).isPresent())
              .flatMap(ProviderSecrets::read)
              .flatMap(kept -> kept.credentialFor(entry.keyringImage()));
      if (credential.isPresent()) {
        return credential.get();
      }
    }
    return null;
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
