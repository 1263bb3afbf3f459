package io.kuik.model;

/**
 * How an entry of a routing resource names the images it serves
 * (docs/behaviour.md#routing-resources): one repository, the repositories directly under a path, or
 * everything under a mirror's destination path.
 */
public enum EntryForm {
  /** {@code spec.alternatives[i].repository}: exactly that repository, any tag or digest. */
  REPOSITORY,
  /** {@code spec.alternatives[i].repositoryGroup}: repositories exactly one segment below it. */
  REPOSITORY_GROUP,
  /** {@code spec.destination.path} of an ImageMirror: any repository under it. */
  MIRROR
}
