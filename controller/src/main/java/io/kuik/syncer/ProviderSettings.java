package io.kuik.syncer;

import io.kuik.model.CredentialProvider;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The credential providers the syncer mints with, and the validity bound it keeps
 * (docs/decisions/0066-the-validity-bound-of-provider-credentials.md).
 *
 * @param providers by name, as the chart's {@code providers} declares them
 * @param minValidity no {@code kuik-inject-*} Secret holds a provider credential with less than
 *     this left: the longest a pull may take with it, and then some
 * @param retryBase the first wait after a mint failed, doubled at each failure in a row
 * @param retryCap the longest wait between two tries of a failing mint
 */
public record ProviderSettings(
    Map<String, CredentialProvider> providers,
    Duration minValidity,
    Duration retryBase,
    Duration retryCap) {

  /** The documented default of {@code providerCredentials.minValidity}. */
  public static final Duration DEFAULT_MIN_VALIDITY = Duration.ofMinutes(15);

  public static final Duration DEFAULT_RETRY_BASE = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETRY_CAP = Duration.ofMinutes(5);

  /**
   * How much sooner than the bound a credential leaves the Secrets: the write that takes it out
   * must land (debounce, write budget, round trip) before {@code minValidity} is left.
   */
  public static final Duration WRITE_LEAD = Duration.ofMinutes(1);

  /** No provider: every provider entry is left out, with the reason. */
  public static final ProviderSettings NONE =
      new ProviderSettings(Map.of(), DEFAULT_MIN_VALIDITY, DEFAULT_RETRY_BASE, DEFAULT_RETRY_CAP);

  public ProviderSettings {
    providers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(providers));
    Objects.requireNonNull(minValidity, "minValidity");
    Objects.requireNonNull(retryBase, "retryBase");
    Objects.requireNonNull(retryCap, "retryCap");
    if (minValidity.isNegative()) {
      throw new IllegalArgumentException("minValidity must be zero or more, got " + minValidity);
    }
    if ((retryBase.isNegative() || retryBase.isZero()) || retryCap.compareTo(retryBase) < 0) {
      throw new IllegalArgumentException(
          "the mint retry must start positive and its cap be no shorter, got "
              + retryBase
              + " and "
              + retryCap);
    }
  }

  /** These providers, with the default bound and retries. */
  public static ProviderSettings of(Map<String, CredentialProvider> providers) {
    return new ProviderSettings(
        providers, DEFAULT_MIN_VALIDITY, DEFAULT_RETRY_BASE, DEFAULT_RETRY_CAP);
  }

  public ProviderSettings withMinValidity(Duration value) {
    return new ProviderSettings(providers, value, retryBase, retryCap);
  }

  public Optional<CredentialProvider> provider(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /**
   * What a credential must have left to be written anywhere: {@link #minValidity} plus {@link
   * #WRITE_LEAD}. A credential minted for less than this is never used.
   */
  public Duration leaveBefore() {
    return minValidity.plus(WRITE_LEAD);
  }
}
