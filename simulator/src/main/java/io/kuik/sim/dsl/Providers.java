package io.kuik.sim.dsl;

import io.kuik.model.CredentialProvider;
import io.kuik.sim.check.ProviderCredentialsValid;
import io.kuik.sim.check.Violation;
import io.kuik.sim.check.WorldView;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.TraceRecord;
import io.kuik.sim.world.registry.CloudProvider;
import io.kuik.syncer.ProviderSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The DSL's credential providers (docs/behaviour.md#provider-credentials): the clouds whose tokens
 * registries take ({@link CloudProvider}), the chart's {@code providers} the syncer is started
 * with, a rotation of a provider's configuration, the plugins' outages, and a watch, every few
 * seconds of virtual time, of the bound: no pull with an expired token, no tenant Secret holding
 * one with less than {@code minValidity} left ({@link ProviderCredentialsValid}).
 */
public final class Providers {

  /** Each declared provider's defaultCacheDuration: the plugins state their own. */
  private static final Duration DEFAULT_CACHE_DURATION = Duration.ofHours(1);

  /** The image the chart's init container would copy the plugins from. */
  private static final String PLUGINS_IMAGE = "registry.example/kuik/credential-providers:1";

  /** How often the watch of the bound looks. */
  public static final Duration WATCH_EVERY = Duration.ofSeconds(10);

  private final KuikWorld world;
  private final Map<String, CredentialProvider> declared = new LinkedHashMap<>();
  private Duration minValidity = ProviderSettings.DEFAULT_MIN_VALIDITY;
  private final List<Violation> violations = new ArrayList<>();
  private ProviderCredentialsValid watch;
  private int cursor;

  Providers(KuikWorld world) {
    this.world = world;
  }

  /**
   * The cloud whose plugin is named {@code plugin}, issuing tokens the registry {@code host} takes.
   */
  public CloudProvider cloud(String plugin, String host) {
    return world.cluster().registries().provider(plugin, host);
  }

  /** The cloud whose plugin is named {@code plugin}. */
  public CloudProvider cloud(String plugin) {
    return world
        .cluster()
        .registries()
        .findProvider(plugin)
        .orElseThrow(() -> new IllegalArgumentException("no cloud provider " + plugin));
  }

  /** The cloud of {@code plugin} issues tokens valid {@code validity} that the registry takes. */
  public void issues(String plugin, String host, Duration validity) {
    cloud(plugin, host).validity(validity);
  }

  /** The cloud of {@code plugin} is down from now for {@code duration}: its plugin exits 1. */
  public void downFor(String plugin, Duration duration) {
    cloud(plugin).downFor(duration);
  }

  /**
   * The chart's {@code providers} gains the plugin {@code plugin} for {@code matchImages}, with the
   * argument {@code get-credentials} and a defaultCacheDuration of an hour (the plugin states its
   * own), as the chart renders it; the syncer starts with it from its next start.
   */
  public void declare(String plugin, String matchImages) {
    declared.put(plugin, provider(plugin, List.of(matchImages), List.of("get-credentials")));
  }

  /** The chart's {@code providerCredentials.minValidity}, from the syncer's next start. */
  public void minValidity(Duration value) {
    minValidity = value;
  }

  public Duration minValidity() {
    return minValidity;
  }

  /**
   * The chart's values for the providers declared so far, as {@code --set} writes them (none
   * without any): each provider, {@code providerCredentials.minValidity}, and an init container for
   * the plugins, which the chart asks for with providers (the simulator runs the cloud provider of
   * a plugin's name, not its executable).
   */
  public List<String> values() {
    List<String> values = new ArrayList<>();
    if (declared.isEmpty()) {
      return values;
    }
    int i = 0;
    for (CredentialProvider provider : declared.values()) {
      String at = "providers[" + i++ + "].";
      values.add(at + "name=" + provider.name());
      for (int j = 0; j < provider.matchImages().size(); j++) {
        values.add(at + "matchImages[" + j + "]=" + provider.matchImages().get(j));
      }
      values.add(at + "defaultCacheDuration=" + Install.chartDuration(DEFAULT_CACHE_DURATION));
      for (int j = 0; j < provider.args().size(); j++) {
        values.add(at + "args[" + j + "]=" + provider.args().get(j));
      }
    }
    values.add("providerCredentials.minValidity=" + Install.chartDuration(minValidity));
    values.add("providerCredentials.plugins.initContainer.image=" + PLUGINS_IMAGE);
    return values;
  }

  /**
   * {@code helm upgrade} with other arguments for the plugin: the chart's checksum of the provider
   * configuration changes, and the syncer's pod is replaced, starting with it.
   */
  public void rotate(String plugin, List<String> args) {
    CredentialProvider before = declared.get(plugin);
    declared.put(plugin, provider(plugin, before.matchImages(), args));
    world.install().upgradeWithTheProviders();
  }

  // ---- what happened --------------------------------------------------------------------------

  /** Runs of the plugin {@code plugin} so far. */
  public long runs(String plugin) {
    return world.history().records().stream()
        .filter(
            r ->
                r instanceof Note.ProviderNote note
                    && note.event() == Note.ProviderEvent.MINT
                    && note.provider().name().equals(plugin))
        .count();
  }

  /**
   * Pulls from {@code host} the registry refused for want of a valid credential: an expired token,
   * or none at all.
   */
  public List<Note.RegistryNote> refusedPulls(String host) {
    List<Note.RegistryNote> refused = new ArrayList<>();
    for (TraceRecord record : world.history().records()) {
      if (record instanceof Note.RegistryNote note
          && note.event() == Note.RegistryEvent.PULL
          && note.host().name().equals(host)
          && note.outcome().startsWith("Unauthorized")) {
        refused.add(note);
      }
    }
    return refused;
  }

  /**
   * The credential the syncer keeps in {@code namespace} for {@code plugin} and the whole registry
   * {@code registry} (its kuik-provider-* Secret, read as the production class reads it).
   */
  public Optional<io.kuik.model.ProviderCredential> kept(
      String namespace, String plugin, String registry) {
    String name =
        io.kuik.model.ProviderSecrets.name(
            plugin,
            new io.kuik.model.ProviderCredential.Slot(
                io.kuik.model.ProviderExchange.CacheKeyType.Registry, registry));
    return world
        .views()
        .secret(namespace, name)
        .map(
            s ->
                io.kuik.sim.world.object.Json.MAPPER.convertValue(
                    s, io.fabric8.kubernetes.api.model.Secret.class))
        .flatMap(io.kuik.model.ProviderSecrets::read);
  }

  /** When the provider token named so (its password, or {@code #n}) expires. */
  public Optional<Instant> expiryOf(String token) {
    for (CloudProvider cloud : world.cluster().registries().providers().values()) {
      Optional<Instant> found = cloud.expiryOf(token);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  // ---- the watch of the bound -----------------------------------------------------------------

  /** From now on, every {@link #WATCH_EVERY}, the bound is checked and what breaks it kept. */
  public void watchTheBound() {
    if (watch != null) {
      return;
    }
    watch =
        new ProviderCredentialsValid(
            History.SYNCER,
            minValidity,
            ProviderSettings.WRITE_LEAD,
            this::expiryOf,
            ProviderSettings.DEFAULT_RETRY_CAP);
    cursor = world.history().records().size();
    scheduleLook();
  }

  /** What broke the bound since the watch began. */
  public List<Violation> boundBroken() {
    look();
    return List.copyOf(violations);
  }

  private void look() {
    List<TraceRecord> records = world.history().records();
    List<TraceRecord> fresh = List.copyOf(records.subList(cursor, records.size()));
    cursor = records.size();
    WorldView view = world.views().adminView(world.install().installNamespace());
    for (Violation v : watch.check(view, fresh)) {
      if (violations.stream().noneMatch(known -> known.message().equals(v.message()))) {
        violations.add(v);
      }
    }
  }

  private void scheduleLook() {
    world.cluster().loop().schedule(WATCH_EVERY, "the watch of the bound", this::lookAgain);
  }

  private void lookAgain() {
    look();
    scheduleLook();
  }

  private static CredentialProvider provider(String name, List<String> match, List<String> args) {
    return new CredentialProvider(
        name, match, DEFAULT_CACHE_DURATION, CredentialProvider.PROTOCOL_V1, args, List.of());
  }
}
