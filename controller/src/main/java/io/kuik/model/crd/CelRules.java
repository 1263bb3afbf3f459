package io.kuik.model.crd;

/**
 * The CEL rules of the routing resources' schemas. They refuse at admission what {@link
 * io.kuik.model.RoutingResources} refuses in the controllers; the controllers check again because a
 * resource may predate the CRD or come from elsewhere.
 *
 * <p>CEL's {@code matches} searches (it is not anchored), as RE2 does; the regular expressions are
 * kept apart so that a test can check them against the controllers' own parser.
 */
public final class CelRules {

  /**
   * A digest ({@code @}), a tag after the host ({@code :} after the first {@code /}), or a host
   * alone followed by something that is not a port ({@code nginx:1.27}).
   */
  public static final String TAG_OR_DIGEST = "@|^[^/]*/.*:|^[^/]*:[^/]*[^0-9/][^/]*$";

  /** Docker's rule: the first segment is a host when it has a '.' or ':' or is localhost. */
  public static final String STARTS_WITH_HOST = "^(localhost|[^/]*[.:][^/]*)(/|$)";

  /** A host followed by at least one path segment. */
  public static final String HOST_AND_REPOSITORY = "^(localhost|[^/]*[.:][^/]*)/[^/]";

  static final String NO_TAG_OR_DIGEST_MESSAGE =
      "must not have a tag or digest: write the repository alone, e.g. quay.io/acme/foo";

  static final String STARTS_WITH_HOST_MESSAGE =
      "must start with a registry host (a first segment with '.' or ':', or localhost),"
          + " e.g. registry.example.com/mirror/";

  static final String HOST_AND_REPOSITORY_MESSAGE =
      "must be a registry host followed by a repository path, e.g. quay.io/acme/foo";

  static final String NOT_NONE = "!has(self.rewritePolicy) || self.rewritePolicy != 'None'";

  static final String NOT_NONE_MESSAGE =
      "rewritePolicy None is only valid on an ImageMirror: use OnFailure or Always";

  private CelRules() {}
}
