package io.kuik.syncer;

import io.fabric8.kubernetes.api.model.Secret;
import io.kuik.model.DockerConfig;
import io.kuik.model.DockerConfigSecret;
import io.kuik.model.Entry;
import io.kuik.model.InvalidDockerConfigException;
import io.kuik.model.ProviderCredential;
import io.kuik.model.RegistryCredential;
import io.kuik.model.RoutingResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The credential of each injecting entry of a resource: the one the kubelet would pick for the
 * entry's path from the entry's secretRef Secret (docs/behaviour.md#what-a-secret-holds), or the
 * reason it is left out.
 *
 * @param credentials by auths key, for the entries that resolved
 * @param problems the entries left out, each with the reason, for a PullSecretInjectionFailed event
 * @param unminted the auths keys of provider entries that have no credential with more than the
 *     validity bound left (none minted yet, or the plugin fails): a pod gated on them waits
 * @param minted the provider credential each provider entry's key holds, for its expiry
 */
record EntryCredentials(
    Map<String, RegistryCredential> credentials,
    List<Problem> problems,
    Set<String> unminted,
    Map<String, ProviderCredential> minted) {

  /** An entry left out of the Secret, and why, in words a user can act on. */
  record Problem(Entry entry, String reason) {
    String message() {
      return entry.field()
          + " ("
          + entry.authsKey()
          + ") is left out of the pull secret: "
          + reason;
    }
  }

  /**
   * Resolves every entry whose auth injects: a secretRef's from its Secret, a provider's from what
   * {@code providers} has minted (docs/behaviour.md#provider-credentials).
   */
  static EntryCredentials resolve(
      RoutingResource resource,
      String clusterResourceNamespace,
      Function<String, Optional<Secret>> sources,
      ProviderLookup providers) {
    Map<String, RegistryCredential> credentials = new LinkedHashMap<>();
    List<Problem> problems = new ArrayList<>();
    Set<String> unminted = new LinkedHashSet<>();
    Map<String, ProviderCredential> minted = new LinkedHashMap<>();
    // Each source read once, however many entries it serves: it may hold a megabyte of auths.
    Map<String, Object> keyrings = new java.util.HashMap<>();
    for (Entry entry : resource.entries()) {
      if (entry.auth() == null || !entry.auth().injects()) {
        continue;
      }
      if (entry.auth().provider() != null) {
        ProviderLookup.Answer answer = providers.lookup(entry);
        if (answer instanceof ProviderLookup.Usable usable) {
          credentials.putIfAbsent(entry.authsKey(), usable.credential());
          minted.putIfAbsent(entry.authsKey(), usable.minted());
        } else {
          unminted.add(entry.authsKey());
          if (answer instanceof ProviderLookup.Unavailable unavailable) {
            problems.add(new Problem(entry, unavailable.reason()));
          }
        }
        continue;
      }
      String sourceName = entry.auth().secretRefName();
      Optional<Secret> source = sources.apply(sourceName);
      String where = "Secret " + clusterResourceNamespace + "/" + sourceName;
      if (source.isEmpty()) {
        problems.add(new Problem(entry, where + " does not exist"));
        continue;
      }
      Object read =
          keyrings.computeIfAbsent(
              sourceName,
              name -> {
                try {
                  return dockerConfigOf(source.get(), where).keyring();
                } catch (InvalidSource invalid) {
                  return invalid;
                }
              });
      try {
        if (read instanceof InvalidSource invalid) {
          throw invalid;
        }
        Optional<DockerConfig.CredentialMatch> match =
            ((DockerConfig.Keyring) read).credentialFor(entry);
        if (match.isEmpty() || match.get().credential().isEmpty()) {
          problems.add(new Problem(entry, where + " holds no credential for " + entry.authsKey()));
        } else {
          credentials.putIfAbsent(entry.authsKey(), match.get().credential());
        }
      } catch (InvalidSource invalid) {
        problems.add(new Problem(entry, invalid.getMessage()));
      }
    }
    unminted.removeAll(credentials.keySet()); // another entry of the key resolved it
    return new EntryCredentials(
        Map.copyOf(credentials), List.copyOf(problems), Set.copyOf(unminted), Map.copyOf(minted));
  }

  private static DockerConfig dockerConfigOf(Secret source, String where) throws InvalidSource {
    try {
      return DockerConfigSecret.read(source, where);
    } catch (InvalidDockerConfigException unusable) {
      throw new InvalidSource(unusable.getMessage());
    }
  }

  private static final class InvalidSource extends Exception {
    InvalidSource(String message) {
      super(message, null, false, false);
    }
  }
}
