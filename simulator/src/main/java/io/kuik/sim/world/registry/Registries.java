package io.kuik.sim.world.registry;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Note.RegistryEvent;
import io.kuik.sim.trace.Trace;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every registry of the simulated world, one per {@code host[:port]}. A pull or probe is sent to
 * the image's host; a host with no registry is {@link Availability#UNREACHABLE} (no such host), and
 * that request is traced too.
 */
public final class Registries {

  private final EventLoop loop;
  private final Trace trace;
  private final Map<String, Registry> registries = new TreeMap<>();
  private final Map<String, CloudProvider> providers = new TreeMap<>();
  private boolean servesEverything;

  public Registries(EventLoop loop, Trace trace) {
    this.loop = Objects.requireNonNull(loop, "loop");
    this.trace = Objects.requireNonNull(trace, "trace");
  }

  /** The registry of {@code host} ({@code quay.io}, {@code localhost:5000}), created empty. */
  public Registry registry(String host) {
    return registries.computeIfAbsent(
        host,
        h -> {
          Registry registry = new Registry(h, loop, trace);
          return servesEverything ? registry.serveEverything() : registry;
        });
  }

  /**
   * From now on every host has a registry that serves every image to anyone ({@link
   * Registry#serveEverything()}), unless it or the repository is down: the world {@code kuik plan}
   * assumes, where nothing but outages is said about registries.
   */
  public void serveEverything() {
    servesEverything = true;
    registries.values().forEach(Registry::serveEverything);
  }

  /**
   * The cloud provider whose plugin is named {@code name}, serving the registry {@code host}, whose
   * repositories from now on take its tokens (created once; later calls return it).
   */
  public CloudProvider provider(String name, String host) {
    return providers.computeIfAbsent(
        name,
        n -> {
          CloudProvider provider = new CloudProvider(n, host, loop, trace);
          registry(host).acceptTokensOf(provider, "");
          return provider;
        });
  }

  /** The cloud provider whose plugin is named {@code name}, if the world has one. */
  public Optional<CloudProvider> findProvider(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /** Every cloud provider of the world, by plugin name. */
  public Map<String, CloudProvider> providers() {
    return java.util.Collections.unmodifiableMap(providers);
  }

  public Optional<Registry> find(String host) {
    return Optional.ofNullable(registries.get(host));
  }

  /**
   * Pushes an image given as a pod would name it ({@code nginx:1.27} lands in {@code
   * docker.io/library/nginx}) and returns its digest.
   *
   * @throws IllegalArgumentException for a reference that does not parse or has no tag
   */
  public String push(String reference) {
    ImageReference image = parse(reference);
    if (image.tag() == null) {
      throw new IllegalArgumentException("push a tag, not a bare digest: " + reference);
    }
    return registry(image.registry()).push(image.path(), image.tag());
  }

  public Availability pull(ImageReference image, RegistryCredential credentialOrNull) {
    Registry registry =
        servesEverything ? registry(image.registry()) : registries.get(image.registry());
    if (registry == null) {
      return unknownHost(RegistryEvent.PULL, image, credentialOrNull);
    }
    return registry.pull(image, credentialOrNull);
  }

  /**
   * A pull as a container runtime sends it: basic authentication, or anonymous when {@code
   * usernameOrNull} is null.
   */
  public Availability pull(ImageReference image, String usernameOrNull, String password) {
    return pull(
        image, usernameOrNull == null ? null : RegistryCredential.basic(usernameOrNull, password));
  }

  public Availability probe(ImageReference image, RegistryCredential credentialOrNull) {
    Registry registry =
        servesEverything ? registry(image.registry()) : registries.get(image.registry());
    if (registry == null) {
      return unknownHost(RegistryEvent.PROBE, image, credentialOrNull);
    }
    return registry.probe(image, credentialOrNull);
  }

  /** {@link Registry#login} at {@code host}; a host with no registry is unreachable. */
  public Registry.Login login(
      String host, java.util.Collection<String> paths, RegistryCredential credential) {
    Registry registry = servesEverything ? registry(host) : registries.get(host);
    if (registry == null) {
      trace.add(
          new Note.RegistryNote(
              loop.now(),
              new Actor(host),
              RegistryEvent.LOGIN,
              String.join(",", new java.util.TreeSet<>(paths)),
              "unreachable as " + Registry.who(credential) + " (no such host)"));
      return new Registry.Login(Registry.Login.Outcome.UNREACHABLE, host + ": no such host");
    }
    return registry.login(paths, credential);
  }

  private Availability unknownHost(
      RegistryEvent event, ImageReference image, RegistryCredential credential) {
    trace.add(
        new Note.RegistryNote(
            loop.now(),
            new Actor(image.registry()),
            event,
            image.toString(),
            Availability.UNREACHABLE.specName()
                + " as "
                + Registry.who(credential)
                + " (no such host)"));
    return Availability.UNREACHABLE;
  }

  private static ImageReference parse(String reference) {
    try {
      return ImageReference.parse(reference);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }
}
