package io.kuik.model;

import static io.kuik.model.ReferenceGrammar.NAME_MAX_LENGTH;

import java.util.Objects;

/**
 * A container image reference, normalized as Docker does (docs/behaviour.md#routing-resources):
 * {@code nginx} is {@code docker.io/library/nginx:latest}, {@code acme/app:1} is {@code
 * docker.io/acme/app:1}, {@code index.docker.io} is {@code docker.io}. The first segment of a name
 * is a registry when it has a {@code .} or {@code :} or is {@code localhost}.
 *
 * <p>{@code registry} is {@code host[:port]}; {@code path} the repository path below it; {@code
 * tag} and {@code digest} are each {@code null} when absent, but never both: a reference written
 * without either gets the tag {@code latest}. A digest is always {@code sha256:<64 hex>}. Both a
 * tag and a digest are kept when both are written. {@link #toString()} is the canonical form, and
 * {@code parse(r.toString()).equals(r)} holds for every reference.
 */
public record ImageReference(String registry, String path, String tag, String digest) {

  static final String DEFAULT_TAG = "latest";
  private static final String WHAT = "image reference";

  /**
   * @throws IllegalArgumentException when a component breaks the grammar; use {@link #parse} for
   *     text from users
   */
  public ImageReference {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(path, "path");
    if (tag == null && digest == null) {
      throw new IllegalArgumentException("an image reference has a tag, a digest or both");
    }
    String problem = ReferenceGrammar.registryProblem(registry);
    if (problem == null) {
      problem = path.isEmpty() ? "has no repository path" : ReferenceGrammar.pathProblem(path);
    }
    if (problem == null && tag != null) {
      problem = ReferenceGrammar.tagProblem(tag);
    }
    if (problem == null && digest != null) {
      problem = ReferenceGrammar.digestProblem(digest);
    }
    if (problem != null) {
      throw new IllegalArgumentException(
          "invalid image reference " + registry + "/" + path + ": " + problem);
    }
  }

  /**
   * Parses and normalizes a reference as a pod spec or a user writes it.
   *
   * @throws InvalidImageReferenceException naming the input and what is wrong in it
   */
  public static ImageReference parse(String reference) throws InvalidImageReferenceException {
    if (reference == null || reference.isEmpty()) {
      throw invalid(String.valueOf(reference), "is empty");
    }
    String whitespace = ReferenceGrammar.whitespaceIn(reference);
    if (whitespace != null) {
      throw invalid(reference, whitespace);
    }
    String nameAndTag = reference;
    String digest = null;
    int at = reference.indexOf('@');
    if (at >= 0) {
      nameAndTag = reference.substring(0, at);
      digest = reference.substring(at + 1);
      if (digest.isEmpty()) {
        throw invalid(reference, "ends with '@' but no digest follows");
      }
      if (digest.indexOf('@') >= 0) {
        throw invalid(reference, "has more than one '@'");
      }
      String problem = ReferenceGrammar.digestProblem(digest);
      if (problem != null) {
        throw invalid(reference, problem);
      }
    }
    String name = nameAndTag;
    String tag = null;
    int colon = nameAndTag.lastIndexOf(':');
    if (colon > nameAndTag.lastIndexOf('/')) {
      name = nameAndTag.substring(0, colon);
      tag = nameAndTag.substring(colon + 1);
      if (tag.isEmpty()) {
        throw invalid(
            reference, digest == null ? "ends with ':' but no tag follows" : "has ':' but no tag");
      }
      String problem = ReferenceGrammar.tagProblem(tag);
      if (problem != null) {
        throw invalid(reference, problem);
      }
    }
    if (name.isEmpty()) {
      throw invalid(reference, "has no repository name");
    }
    if (name.length() > NAME_MAX_LENGTH) {
      throw invalid(reference, "has a name longer than " + NAME_MAX_LENGTH + " characters");
    }
    RegistryPath repository = splitName(reference, name);
    if (tag == null && digest == null) {
      tag = DEFAULT_TAG;
    }
    return new ImageReference(repository.registry(), repository.path(), tag, digest);
  }

  /** Docker's split of a name into registry and path, with Docker Hub's defaults applied. */
  private static RegistryPath splitName(String input, String name)
      throws InvalidImageReferenceException {
    int slash = name.indexOf('/');
    String registry = ReferenceGrammar.DOCKER_HUB;
    String path = name;
    if (slash >= 0 && ReferenceGrammar.looksLikeRegistry(name.substring(0, slash))) {
      registry = name.substring(0, slash);
      path = name.substring(slash + 1);
      String problem = ReferenceGrammar.registryProblem(registry);
      if (problem != null) {
        throw invalid(input, problem);
      }
    } else if (ReferenceGrammar.isBareImageId(name)) {
      throw invalid(
          input, "is 64 hex digits, which reads as an image ID; name the repository instead");
    }
    if (path.isEmpty()) {
      throw invalid(input, "has no repository path after the registry");
    }
    String problem = ReferenceGrammar.pathProblem(path);
    if (problem != null) {
      throw invalid(input, problem);
    }
    return new RegistryPath(ReferenceGrammar.canonicalRegistry(registry), path).asRepository();
  }

  private static InvalidImageReferenceException invalid(String input, String reason) {
    return new InvalidImageReferenceException(WHAT, input, reason);
  }

  /** {@code registry/path}, e.g. {@code docker.io/library/nginx}: what routing entries match. */
  public String repository() {
    return registry + "/" + path;
  }

  /**
   * The same tag and digest in another repository, normalized as an image name is: how a container
   * is rewritten to an alternative or a mirror.
   *
   * @throws IllegalArgumentException when {@code repository} is not a repository name (it has a tag
   *     or a digest, or breaks the grammar)
   */
  public ImageReference withRepository(String repository) {
    String name = Objects.requireNonNull(repository, "repository");
    try {
      RegistryPath target = splitName(name, name);
      return new ImageReference(target.registry(), target.path(), tag, digest);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** The canonical form, {@code registry/path[:tag][@digest]}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(repository());
    if (tag != null) {
      text.append(':').append(tag);
    }
    if (digest != null) {
      text.append('@').append(digest);
    }
    return text.toString();
  }
}
