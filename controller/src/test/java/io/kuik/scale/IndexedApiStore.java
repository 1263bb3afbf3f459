package io.kuik.scale;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesResponseComposer;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.http.MockResponse;
import io.kuik.kube.ServerSideApplyDispatcher;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@link ServerSideApplyDispatcher} with its stored objects also indexed by resource (plural),
 * namespace and name, for clusters of hundreds of thousands of objects.
 *
 * <p>fabric8's CRUD store answers every get, list, create, patch and update by matching each stored
 * object against the request ({@code KubernetesCrudDispatcher.handle} and {@code findResource}), on
 * the mock server's one event-loop thread: at 310,000 objects a request costs a whole scan. Here a
 * get, an apply or a list of one namespace looks only at that namespace's objects of that resource,
 * and a cluster-wide list (label selector or not) only at that resource's objects; the candidates
 * are then matched by fabric8's own {@code AttributeSet.matches}, so selectors mean what they
 * meant. Writes still go through fabric8's handlers and {@code processEvent} (resourceVersion,
 * generation, status subresource, watch events ADDED/MODIFIED/DELETED to its watchers); the index
 * follows each write there, under the dispatcher's write lock. Lists come sorted by namespace and
 * name, as the API server sends them, where fabric8's come in insertion order.
 *
 * <p>A watch from a resourceVersion opens as the API server opens it: with the changes after that
 * version only ({@link #handleWatch}).
 *
 * <p>Still scanned, as fabric8 does: a watch's opening, deletes, and any path that is not an object
 * or a collection (discovery, subresources).
 */
final class IndexedApiStore extends ServerSideApplyDispatcher {

  private static final String PLURAL = KubernetesAttributesExtractor.PLURAL;
  private static final String NAMESPACE = KubernetesAttributesExtractor.NAMESPACE;
  private static final String NAME = KubernetesAttributesExtractor.NAME;
  private static final String CLUSTER_SCOPED = "";
  private static final NavigableMap<String, NavigableMap<String, Map.Entry<AttributeSet, String>>>
      NONE = new ConcurrentSkipListMap<>();

  /** plural → namespace ({@value #CLUSTER_SCOPED} for cluster-scoped) → name → stored entry. */
  private final Map<
          String, NavigableMap<String, NavigableMap<String, Map.Entry<AttributeSet, String>>>>
      index = new ConcurrentHashMap<>();

  private final AtomicLong resourceVersion = new AtomicLong();
  private final LongAdder examined = new LongAdder();

  IndexedApiStore(List<CustomResourceDefinitionContext> customResources) {
    super(customResources);
  }

  @Override
  public void seed(String collection, String json) {
    AttributeSet key =
        AttributeSet.merge(
            attributeExtractor.fromPath(collection), attributeExtractor.fromResource(json));
    map.put(key, json);
    index(key, json);
  }

  @Override
  protected MockResponse unpaged(String path) {
    if (!isObjectOrCollection(path) || isWatch(path)) {
      return super.unpaged(path);
    }
    AttributeSet query = attributeExtractor.fromPath(path);
    Stream<Map.Entry<AttributeSet, String>> candidates = candidates(query);
    if (candidates == null) {
      return super.unpaged(path);
    }
    List<String> items =
        matching(candidates, query).map(Map.Entry::getValue).collect(Collectors.toList());
    MockResponse response = new MockResponse();
    if (query.containsKey(NAME)) {
      return items.isEmpty()
          ? response.setResponseCode(404)
          : response.setResponseCode(200).setBody(items.get(0));
    }
    return response
        .setResponseCode(200)
        .setBody(
            ((KubernetesResponseComposer) responseComposer)
                .compose(items, String.valueOf(resourceVersion.get())));
  }

  /**
   * A watch from a resourceVersion other than 0 starts at that version, as the API server serves it
   * ("Start at Exact",
   * https://kubernetes.io/docs/reference/using-api/api-concepts/#semantics-for-watch): an informer
   * that listed at that version hears only what changed since. fabric8's mock opens every watch
   * with an ADDED event for each object it matches, whatever the version; at 100,000 pods that puts
   * the 5,000 rewritten pods (33 MB) the syncer has just listed in front of the first new pod, in
   * the same stream. Here the opening sends only the objects written after the version, as ADDED
   * (the store keeps no history to tell a creation from a change, and an informer takes an ADDED of
   * an object it holds as an update). Without a version, or from 0, fabric8's opening stays: the
   * API server too starts those with the whole state.
   */
  @Override
  public MockResponse handleWatch(String path) {
    MockResponse response = super.handleWatch(path);
    String from = query(path).getOrDefault("resourceVersion", "");
    if (!from.isEmpty() && !from.equals("0")) {
      WatchOpening.onlyAfter(response.getWebSocketListener(), Long.parseLong(from), map);
    }
    return response;
  }

  @Override
  public Map.Entry<AttributeSet, String> findResource(AttributeSet attributes) {
    Stream<Map.Entry<AttributeSet, String>> candidates = candidates(attributes);
    if (candidates == null) {
      return super.findResource(attributes);
    }
    return matching(candidates, attributes).findFirst().orElse(null);
  }

  /** How many stored objects were matched against a request so far: what a request costs. */
  long examined() {
    return examined.sum();
  }

  private Stream<Map.Entry<AttributeSet, String>> matching(
      Stream<Map.Entry<AttributeSet, String>> candidates, AttributeSet query) {
    return candidates.filter(
        e -> {
          examined.increment();
          return e.getKey().matches(query);
        });
  }

  @Override
  public long requestResourceVersion() {
    long next = super.requestResourceVersion();
    resourceVersion.accumulateAndGet(next, Math::max);
    return next;
  }

  @Override
  public void processEvent(
      String path,
      AttributeSet pathAttributes,
      AttributeSet oldAttributes,
      GenericKubernetesResource resource,
      String newState) {
    super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
    Position after = null;
    if (newState != null) {
      // The key fabric8's processEvent stored newState under, computed as it computes it.
      KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
      AttributeSet key =
          resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
      if (!key.containsKey(PLURAL)) {
        key = AttributeSet.merge(pathAttributes, key);
      }
      after = index(key, newState);
    }
    // A modification replaces the entry in one step, so that a get never misses the object.
    Position before = oldAttributes == null ? null : Position.of(oldAttributes);
    if (before != null && !before.equals(after)) {
      var names = index.getOrDefault(before.plural(), NONE).get(before.namespace());
      if (names != null) {
        names.remove(before.name());
      }
    }
  }

  @Override
  public void reset() {
    super.reset();
    index.clear();
  }

  private Position index(AttributeSet key, String json) {
    Position at = Position.of(key);
    index
        .computeIfAbsent(at.plural(), p -> new ConcurrentSkipListMap<>())
        .computeIfAbsent(at.namespace(), n -> new ConcurrentSkipListMap<>())
        .put(at.name(), Map.entry(key, json));
    return at;
  }

  /** Where a stored key sits in the index. */
  private record Position(String plural, String namespace, String name) {

    static Position of(AttributeSet key) {
      String plural = value(key, PLURAL);
      String name = value(key, NAME);
      if (plural == null || name == null) {
        // Every key fabric8 stores has both (processEvent takes the plural from the path).
        throw new IllegalStateException("an object without resource or name: " + key);
      }
      String namespace = value(key, NAMESPACE);
      return new Position(plural, namespace == null ? CLUSTER_SCOPED : namespace, name);
    }
  }

  /**
   * The stored objects that can match {@code query}: those of its resource, in its namespace and of
   * its name where it names them; null where the query names no resource exactly.
   */
  private Stream<Map.Entry<AttributeSet, String>> candidates(AttributeSet query) {
    String plural = exact(query, PLURAL);
    if (plural == null) {
      return null;
    }
    var byNamespace = index.get(plural);
    if (byNamespace == null) {
      return Stream.empty();
    }
    String namespace = exact(query, NAMESPACE);
    Stream<NavigableMap<String, Map.Entry<AttributeSet, String>>> spaces =
        namespace == null
            ? byNamespace.values().stream()
            : Stream.ofNullable(byNamespace.get(namespace));
    String name = exact(query, NAME);
    return name == null
        ? spaces.flatMap(names -> names.values().stream())
        : spaces.flatMap(names -> Stream.ofNullable(names.get(name)));
  }

  /** The one value a query requires of {@code key}, or null where it requires none exactly. */
  private static String exact(AttributeSet query, String key) {
    Attribute attribute = query.getAttribute(key);
    if (attribute == null
        || attribute.getType() != AttributeType.WITH
        || attribute.getValues().size() != 1) {
      return null;
    }
    String value = attribute.getValues().get(0).toString();
    return "*".equals(value) ? null : value; // fabric8's Value: "*" equals every value
  }

  private static String value(AttributeSet key, String name) {
    Attribute attribute = key.getAttribute(name);
    return attribute == null || attribute.getValues().isEmpty()
        ? null
        : attribute.getValues().get(0).toString();
  }

  /** As fabric8's CRUD dispatcher tells a watch from a list. */
  private static boolean isWatch(String path) {
    int q = path.indexOf('?');
    return q >= 0 && path.substring(q + 1).contains("watch=true");
  }

  /**
   * {@code /api/v1/[namespaces/<namespace>/]<plural>[/<name>]} or the same under {@code
   * /apis/<group>/<version>}: the paths that name a resource, not discovery or a subresource.
   */
  static boolean isObjectOrCollection(String path) {
    int q = path.indexOf('?');
    String[] parts = (q < 0 ? path : path.substring(0, q)).replaceAll("^/+", "").split("/");
    int rest;
    if (parts.length >= 2 && parts[0].equals("api")) {
      rest = parts.length - 2;
    } else if (parts.length >= 3 && parts[0].equals("apis")) {
      rest = parts.length - 3;
    } else {
      return false;
    }
    boolean namespaced = rest >= 3 && parts[parts.length - rest].equals("namespaces");
    return namespaced ? rest == 3 || rest == 4 : rest == 1 || rest == 2;
  }
}
