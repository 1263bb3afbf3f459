package io.kuik.routing;

import io.kuik.model.Entry;
import io.kuik.model.EntryForm;
import io.kuik.model.ImageReference;
import io.kuik.model.RoutingKind;
import io.kuik.model.RoutingResource;
import io.kuik.model.Validated;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The routing resources, indexed so that an admission never scans all of them for each image: a map
 * from a normalized repository to the ImageAlternatives with a {@code repository} entry for it, a
 * map from a normalized path to those with a {@code repositoryGroup} entry on it (an image is
 * looked up under its repository's parent, since a group matches exactly one level down), and the
 * list of ImageMirrors, which cover every image outside their destination (see {@link
 * Coverage#covers}). Resources with {@code rewritePolicy: None} are left out.
 *
 * <p>Immutable and thread-safe: the driver builds a new index when the resources change and swaps
 * it in whole. It keeps every entry's normalized path, so matching an image compares strings
 * instead of parsing paths again; a property test checks it against the model's own matching.
 */
public final class RoutingIndex implements Coverage {

  public static final RoutingIndex EMPTY = of(List.of());

  private static final String DOCKER_HUB = "docker.io";
  private static final String DOCKER_HUB_LEGACY = "index.docker.io";

  private final List<RoutingResource> resources;
  private final Map<String, List<RoutingResource>> byRepository;
  private final Map<String, List<RoutingResource>> byGroup;
  private final List<RoutingResource> mirrors;

  /** Each indexed entry's normalized path, by identity: matching without parsing paths again. */
  private final Map<Entry, String> keys;

  private RoutingIndex(Collection<RoutingResource> all) {
    List<RoutingResource> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparing((RoutingResource r) -> r.id().name()));
    Map<String, Set<RoutingResource>> repositories = new HashMap<>();
    Map<String, Set<RoutingResource>> groups = new HashMap<>();
    List<RoutingResource> mirrorList = new ArrayList<>();
    Map<Entry, String> entryKeys = new IdentityHashMap<>();
    for (RoutingResource resource : sorted) {
      if (Band.of(resource).isEmpty()) {
        continue;
      }
      for (Entry entry : resource.entries()) {
        entryKeys.put(entry, key(entry));
      }
      if (resource.id().kind() == RoutingKind.IMAGE_MIRROR) {
        mirrorList.add(resource);
        continue;
      }
      for (Entry entry : resource.entries()) {
        Map<String, Set<RoutingResource>> target =
            entry.form() == EntryForm.REPOSITORY ? repositories : groups;
        target.computeIfAbsent(key(entry), k -> new LinkedHashSet<>()).add(resource);
      }
    }
    this.resources = List.copyOf(sorted);
    this.byRepository = frozen(repositories);
    this.byGroup = frozen(groups);
    this.mirrors = List.copyOf(mirrorList);
    // Never written after construction, so concurrent reads are safe.
    this.keys = entryKeys;
  }

  /** An index of valid resources; duplicates by identity are the caller's concern. */
  public static RoutingIndex of(Collection<RoutingResource> resources) {
    return new RoutingIndex(resources);
  }

  /** An index of the valid ones among resources as the informers hold them. */
  public static RoutingIndex ofValidated(Collection<? extends Validated> resources) {
    List<RoutingResource> valid = new ArrayList<>();
    for (Validated validated : resources) {
      if (validated instanceof Validated.Valid) {
        valid.add(((Validated.Valid) validated).resource());
      }
    }
    return new RoutingIndex(valid);
  }

  /** Every resource given, None included, sorted by name. */
  public List<RoutingResource> resources() {
    return resources;
  }

  /**
   * The resources whose entry paths equal the image's repository or its parent (the maps hold
   * exactly the entries that match by whole segments, which a property test checks against {@link
   * Coverage#covers}), and the mirrors whose destination does not hold the image.
   */
  @Override
  public List<RoutingResource> covering(ImageReference image) {
    List<RoutingResource> found = new ArrayList<>();
    String repository = image.repository();
    List<RoutingResource> exact = byRepository.get(repository);
    if (exact != null) {
      found.addAll(exact);
    }
    // A normalized repository always has a '/' after its registry.
    List<RoutingResource> grouped = byGroup.get(parent(repository));
    if (grouped != null) {
      found.addAll(grouped);
    }
    for (RoutingResource mirror : mirrors) {
      if (!fallsUnder(mirror.entries().get(0), image)) {
        found.add(mirror);
      }
    }
    return found;
  }

  @Override
  public boolean fallsUnder(Entry entry, ImageReference image) {
    String key = keys.get(entry);
    if (key == null) {
      return entry.remainderOf(image).isPresent();
    }
    String repository = image.repository();
    switch (entry.form()) {
      case REPOSITORY:
        return repository.equals(key);
      case REPOSITORY_GROUP:
        return parent(repository).equals(key);
      default:
        return repository.length() > key.length() + 1
            && repository.startsWith(key)
            && repository.charAt(key.length()) == '/';
    }
  }

  private static String parent(String repository) {
    return repository.substring(0, repository.lastIndexOf('/'));
  }

  /**
   * An entry's path normalized as images are (Entry's own matching rule): the legacy Docker Hub
   * host is {@code docker.io}, and a Docker Hub {@code repository} of one segment is under {@code
   * library/}. A group is a namespace, never a repository, so it gets no {@code library/}.
   */
  static String key(Entry entry) {
    String path = entry.authsKey();
    int slash = path.indexOf('/');
    String host = slash < 0 ? path : path.substring(0, slash);
    String rest = slash < 0 ? "" : path.substring(slash + 1);
    if (host.equals(DOCKER_HUB_LEGACY)) {
      host = DOCKER_HUB;
    }
    if (entry.form() == EntryForm.REPOSITORY
        && host.equals(DOCKER_HUB)
        && !rest.isEmpty()
        && rest.indexOf('/') < 0) {
      rest = "library/" + rest;
    }
    return rest.isEmpty() ? host : host + "/" + rest;
  }

  private static Map<String, List<RoutingResource>> frozen(Map<String, Set<RoutingResource>> in) {
    Map<String, List<RoutingResource>> out = new HashMap<>();
    in.forEach((key, value) -> out.put(key, List.copyOf(value)));
    return Map.copyOf(out);
  }
}
