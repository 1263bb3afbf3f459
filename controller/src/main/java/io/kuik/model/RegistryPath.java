package io.kuik.model;

import static io.kuik.model.ReferenceGrammar.NAME_MAX_LENGTH;

import java.util.Objects;
import java.util.Optional;

/**
 * A registry host followed by a repository path that may be empty, with no tag or digest: what a
 * routing entry writes in {@code repository}, {@code repositoryGroup} or {@code destination.path}.
 * Unlike an image name, the host is never implied: the path is also the {@code auths} key the
 * kubelet matches by host (docs/behaviour.md#what-a-secret-holds), so it must name one.
 */
record RegistryPath(String registry, String path) {

  private static final String WHAT = "registry path";

  RegistryPath {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(path, "path");
  }

  /**
   * Parses a registry path as written, normalizing only the legacy Docker Hub host.
   *
   * @throws InvalidImageReferenceException saying what is wrong and what to write instead
   */
  static RegistryPath parse(String written) throws InvalidImageReferenceException {
    if (written == null || written.isEmpty()) {
      throw invalid(String.valueOf(written), "is empty");
    }
    String whitespace = ReferenceGrammar.whitespaceIn(written);
    if (whitespace != null) {
      throw invalid(written, whitespace);
    }
    int at = written.indexOf('@');
    if (at >= 0) {
      throw invalid(
          written,
          "has a digest (\""
              + written.substring(at)
              + "\"); write the repository alone, without a tag or digest");
    }
    int slash = written.indexOf('/');
    String host = slash < 0 ? written : written.substring(0, slash);
    String rest = slash < 0 ? "" : written.substring(slash + 1);
    int colon = slash < 0 ? host.lastIndexOf(':') : rest.lastIndexOf(':');
    if (colon >= 0 && (slash >= 0 || !host.substring(colon + 1).matches("[0-9]+"))) {
      String tag = slash < 0 ? host.substring(colon) : rest.substring(colon);
      throw invalid(
          written,
          "has a tag (\"" + tag + "\"); write the repository alone, without a tag or digest");
    }
    if (slash >= 0 && rest.isEmpty()) {
      throw invalid(written, "ends with '/'; write the path without it");
    }
    if (!ReferenceGrammar.looksLikeRegistry(host)) {
      throw invalid(
          written,
          "does not start with a registry host (\""
              + host
              + "\" has no '.' or ':' and is not localhost); write the host first, e.g."
              + " registry.example.com/"
              + written);
    }
    String registryProblem = ReferenceGrammar.registryProblem(host);
    if (registryProblem != null) {
      throw invalid(written, registryProblem);
    }
    String pathProblem = ReferenceGrammar.pathProblem(rest);
    if (pathProblem != null) {
      throw invalid(written, pathProblem);
    }
    if (written.length() > NAME_MAX_LENGTH) {
      throw invalid(written, "is longer than " + NAME_MAX_LENGTH + " characters");
    }
    return new RegistryPath(ReferenceGrammar.canonicalRegistry(host), rest);
  }

  private static InvalidImageReferenceException invalid(String input, String reason) {
    return new InvalidImageReferenceException(WHAT, input, reason);
  }

  /** Number of path segments below the registry host. */
  int depth() {
    return path.isEmpty() ? 0 : path.split("/", -1).length;
  }

  /**
   * The path as Docker names a repository: {@code docker.io/nginx} is {@code
   * docker.io/library/nginx}.
   */
  RegistryPath asRepository() {
    if (registry.equals(ReferenceGrammar.DOCKER_HUB) && depth() == 1) {
      return new RegistryPath(registry, ReferenceGrammar.OFFICIAL_NAMESPACE + "/" + path);
    }
    return this;
  }

  /**
   * The part of {@code repository} (a canonical {@code registry/path}) below this path, by whole
   * segments; empty when the repository is not strictly under it.
   */
  Optional<String> remainderOf(String repository) {
    String prefix = toString() + "/";
    if (repository.startsWith(prefix) && repository.length() > prefix.length()) {
      return Optional.of(repository.substring(prefix.length()));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return path.isEmpty() ? registry : registry + "/" + path;
  }
}
