package io.kuik.syncer;

import io.kuik.model.CredentialProvider;
import io.kuik.model.Durations;
import io.kuik.model.MintResult;
import io.kuik.model.ProviderCredential;
import io.kuik.model.ProviderExchange;
import java.time.Duration;
import java.time.Instant;

/**
 * Whether a plugin's answer is a credential kuik can write
 * (docs/behaviour.md#provider-credentials): it states a validity (its {@code cacheDuration}, else
 * the provider's {@code defaultCacheDuration}), longer than {@code minValidity} plus the write
 * lead, counted from when it was asked for; and it holds a credential for the image it was asked
 * about. Pure.
 */
final class MintAnswers {

  /** A credential, or the failure that says why there is none. */
  record Judged(ProviderCredential credential, MintResult.Failed failure) {}

  private MintAnswers() {}

  static Judged judge(
      CredentialProvider provider,
      String image,
      ProviderExchange.Response response,
      Instant sentAt,
      ProviderSettings settings) {
    Duration validity =
        response.cacheDuration() != null
            ? response.cacheDuration()
            : provider.defaultCacheDuration();
    if (validity.isZero()) {
      return unusable(
          "the plugin gave its credential no validity (cacheDuration 0 and no"
              + " defaultCacheDuration): kuik writes only a credential whose expiry it knows");
    }
    if (validity.compareTo(settings.leaveBefore()) <= 0) {
      return unusable(
          "the plugin's credential is valid for "
              + Durations.text(validity)
              + ", no more than"
              + " minValidity plus the write lead ("
              + Durations.text(settings.leaveBefore())
              + "): it could never be written");
    }
    ProviderCredential credential =
        new ProviderCredential(
            provider.name(),
            ProviderCredential.Slot.answering(response.cacheKeyType(), image),
            provider.configDigest(),
            response.auth(),
            sentAt,
            sentAt.plus(validity));
    if (credential.credentialFor(image).isEmpty()) {
      return unusable(
          "the plugin answered for "
              + response.auth().keySet()
              + ", none of which serves "
              + image);
    }
    return new Judged(credential, null);
  }

  private static Judged unusable(String why) {
    return new Judged(null, new MintResult.Failed(MintResult.Failure.UNUSABLE, why));
  }
}
