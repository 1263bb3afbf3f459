package io.kuik.model;

import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a routing resource: where it sends images and with which credential. An
 * ImageAlternative has one entry per {@code spec.alternatives} item, in declared order; an
 * ImageMirror has one, its {@code spec.destination}.
 *
 * <p>{@code path} is the registry path exactly as written ({@code repository}, {@code
 * repositoryGroup} or {@code destination.path}); matching normalizes it as images are normalized,
 * and always goes by whole path segments, never by string prefix. {@code auth} is {@code null} for
 * an entry that pulls without a credential.
 */
public record Entry(int index, EntryForm form, String path, Auth auth) {

  /**
   * @throws IllegalArgumentException when {@code path} is not a registry path for {@code form}
   *     ({@link RoutingResources} reports the same problems without throwing)
   */
  public Entry {
    Objects.requireNonNull(form, "form");
    Objects.requireNonNull(path, "path");
    if (index < 0 || (form == EntryForm.MIRROR && index != 0)) {
      throw new IllegalArgumentException("bad index " + index + " for a " + form + " entry");
    }
    try {
      RegistryPath parsed = RegistryPath.parse(withoutTrailingSlash(form, path));
      if (form == EntryForm.REPOSITORY && parsed.depth() == 0) {
        throw new IllegalArgumentException("a repository entry needs a path below the registry");
      }
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The key of this entry in an injected Secret's {@code auths}
   * (docs/behaviour.md#what-a-secret-holds): the path as written, and for a mirror its {@code
   * destination.path} without the trailing slash.
   */
  public String authsKey() {
    return withoutTrailingSlash(form, path);
  }

  /**
   * What the kubelet's keyring is asked about when a node pulls this entry's images, for picking
   * the credential of the entry from its secretRef Secret: a repository entry's repository as a
   * node names it ({@code docker.io/nginx} is {@code docker.io/library/nginx}); for a
   * repositoryGroup or a mirror, which serve many repositories, their path followed by {@code /}. A
   * key matches that only when it matches every repository the entry can serve (the kubelet
   * compares paths as strings), so {@code quay.io/acme} and {@code quay.io/acme/} count for the
   * group {@code quay.io/acme}, and {@code quay.io/acme/app}, which serves one member, does not.
   */
  public String keyringImage() {
    RegistryPath own = registryPath();
    return form == EntryForm.REPOSITORY ? own.asRepository().toString() : own + "/";
  }

  /**
   * The image a credential provider plugin is asked about for this entry (its {@code
   * CredentialProviderRequest}): {@link #keyringImage()} without a trailing {@code /}, e.g. {@code
   * 123456789012.dkr.ecr.us-east-1.amazonaws.com/team/app}.
   */
  public String providerImage() {
    String image = keyringImage();
    return image.endsWith("/") ? image.substring(0, image.length() - 1) : image;
  }

  /**
   * The registry this entry's images are pulled from, as image references name it ({@code
   * docker.io}, {@code quay.io}, {@code registry.local:5000}): where its credential is tried.
   */
  public String registry() {
    return registryPath().registry();
  }

  /**
   * The repository path below the registry whose pull a trial of the credential asks a token for: a
   * repository entry's repository as the registry names it ({@code library/nginx} for {@code
   * docker.io/nginx}), a group's or a mirror's own path, empty for a whole registry.
   */
  public String pathInRegistry() {
    RegistryPath own = registryPath();
    return form == EntryForm.REPOSITORY ? own.asRepository().path() : own.path();
  }

  /** Where the entry is written, e.g. {@code spec.alternatives[1]} or {@code spec.destination}. */
  public String field() {
    return form == EntryForm.MIRROR ? "spec.destination" : "spec.alternatives[" + index + "]";
  }

  /**
   * Whether routing a pod through this entry injects its credential, see {@link Auth#injects()}.
   */
  public boolean injects() {
    return auth != null && auth.injects();
  }

  /**
   * Whether {@code image} falls under this entry, and what of its repository lies below the entry's
   * path: for {@code REPOSITORY}, the same repository (remainder empty); for {@code
   * REPOSITORY_GROUP}, a repository exactly one segment below (remainder that segment); for {@code
   * MIRROR}, any repository below the destination path (remainder the rest, e.g. {@code
   * docker.io/library/nginx} for {@code registry.example.com/mirror/docker.io/library/nginx}).
   */
  public Optional<String> remainderOf(ImageReference image) {
    String repository = image.repository();
    RegistryPath own = registryPath();
    switch (form) {
      case REPOSITORY:
        return own.asRepository().toString().equals(repository)
            ? Optional.of("")
            : Optional.empty();
      case REPOSITORY_GROUP:
        return own.remainderOf(repository).filter(rest -> rest.indexOf('/') < 0);
      case MIRROR:
        return own.remainderOf(repository);
      default:
        throw new IllegalStateException("unknown form " + form);
    }
  }

  private RegistryPath registryPath() {
    try {
      return RegistryPath.parse(authsKey());
    } catch (InvalidImageReferenceException e) {
      throw new IllegalStateException("checked in the constructor", e);
    }
  }

  private static String withoutTrailingSlash(EntryForm form, String path) {
    return form == EntryForm.MIRROR && path.endsWith("/")
        ? path.substring(0, path.length() - 1)
        : path;
  }
}
