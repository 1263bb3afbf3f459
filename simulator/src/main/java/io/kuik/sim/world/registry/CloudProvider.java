package io.kuik.sim.world.registry;

import io.kuik.model.RegistryCredential;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Note.ProviderEvent;
import io.kuik.sim.trace.Trace;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A cloud's short-lived registry credentials and the credential provider plugin that fetches them,
 * as one: what ECR's {@code GetAuthorizationToken} and cloud-provider-aws's {@code
 * ecr-credential-provider} do together
 * (https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_GetAuthorizationToken.html: a
 * token valid 12 hours). Each run of the plugin reads a {@code CredentialProviderRequest} and,
 * after {@link #latency}, answers a {@code CredentialProviderResponse} (the kubelet's exec
 * protocol, https://kubernetes.io/docs/reference/config-api/kubelet-credentialprovider.v1/) with a
 * new token for the request's registry, valid {@link #validity} from now, which it states as its
 * {@code cacheDuration}. The registries of {@link #registryHost} accept a token until it expires,
 * and refuse it after ({@link Registry#acceptTokensOf}).
 *
 * <p>Faults: down (the plugin exits 1, as when the cloud API refuses or cannot be reached), hanging
 * (it never answers: the runner's timeout kills it), answering garbage, answering for another
 * registry, or stating a validity longer than the token has (a lying plugin). Every run and outage
 * is a note in the trace; a token never is, only its number.
 *
 * <p>Independent of the product: it parses the request and writes the response itself.
 */
public final class CloudProvider {

  /** How the plugin answers now. */
  public enum Mode {
    ANSWERS,
    HANGS,
    GARBAGE,
    ELSEWHERE,
    /** States a cacheDuration twice the token's validity. */
    LIES
  }

  /** One run of the plugin: how long it took, its exit status and what it printed on stdout. */
  public record Run(Duration took, int exitStatus, String stdout) {}

  private record Token(int number, Instant issued, Instant expires) {}

  private static final Pattern IMAGE = Pattern.compile("\"image\"\\s*:\\s*\"([^\"]*)\"");

  private final String name;
  private final String registryHost;
  private final EventLoop loop;
  private final Trace trace;
  private final Map<String, Token> tokens = new LinkedHashMap<>();
  private Duration validity = Duration.ofHours(12);
  private Duration latency = Duration.ofSeconds(1);
  private Mode mode = Mode.ANSWERS;
  private boolean down;
  private Instant downUntil;

  CloudProvider(String name, String registryHost, EventLoop loop, Trace trace) {
    this.name = Objects.requireNonNull(name, "name");
    this.registryHost = Objects.requireNonNull(registryHost, "registryHost");
    this.loop = loop;
    this.trace = trace;
  }

  public String name() {
    return name;
  }

  public String registryHost() {
    return registryHost;
  }

  /** From now on each token is valid this long from its issue. */
  public CloudProvider validity(Duration value) {
    validity = value;
    return this;
  }

  public Duration validity() {
    return validity;
  }

  /** From now on each run takes this long. */
  public CloudProvider latency(Duration value) {
    latency = value;
    return this;
  }

  /** From now on the plugin answers so. */
  public CloudProvider mode(Mode value) {
    mode = value;
    return this;
  }

  // ---- outages --------------------------------------------------------------------------------

  /** Down from now until {@link #up()}: the plugin exits 1. */
  public void down() {
    down = true;
    note(ProviderEvent.DOWN, "", "");
  }

  public void up() {
    down = false;
    downUntil = null;
    note(ProviderEvent.UP, "", "");
  }

  /** Down from now for {@code duration}, then back by itself. */
  public void downFor(Duration duration) {
    Instant until = loop.now().plus(duration);
    if (downUntil == null || until.isAfter(downUntil)) {
      downUntil = until;
    }
    note(ProviderEvent.DOWN, "", "for " + duration);
    Instant mine = downUntil;
    loop.schedule(
        duration,
        "provider " + name + " back",
        () -> {
          if (mine.equals(downUntil) && !down) {
            downUntil = null;
            note(ProviderEvent.UP, "", "");
          }
        });
  }

  /** Down at {@code from} for {@code duration}. */
  public void downAt(Instant from, Duration duration) {
    loop.scheduleAt(from, "provider " + name + " down", () -> downFor(duration));
  }

  public boolean reachable() {
    return !down && (downUntil == null || !loop.now().isBefore(downUntil));
  }

  // ---- the plugin -----------------------------------------------------------------------------

  /**
   * One run of the plugin with {@code request} on its stdin, answered as it is when the run starts
   * (a token's validity counts from then).
   */
  public Run exec(String request) {
    Matcher image = IMAGE.matcher(request);
    String asked = image.find() ? image.group(1) : "";
    String registry = asked.split("/", 2)[0];
    if (!reachable()) {
      note(ProviderEvent.MINT, asked, "exit 1: the cloud's API is down");
      return new Run(latency, 1, "");
    }
    switch (mode) {
      case HANGS:
        note(ProviderEvent.MINT, asked, "hangs");
        return new Run(Duration.ofDays(1), -1, "");
      case GARBAGE:
        note(ProviderEvent.MINT, asked, "answers garbage");
        return new Run(latency, 0, "password: " + "x".repeat(20) + "\n");
      default:
        break;
    }
    Token token = new Token(tokens.size() + 1, loop.now(), loop.now().plus(validity));
    String value = name + "-token-" + token.number();
    tokens.put(value, token);
    String key = mode == Mode.ELSEWHERE ? "elsewhere.example.com" : registry;
    Duration stated = mode == Mode.LIES ? validity.multipliedBy(2) : validity;
    note(
        ProviderEvent.MINT,
        asked,
        "token #"
            + token.number()
            + " valid "
            + validity
            + (mode == Mode.ANSWERS ? "" : ", " + mode));
    String stdout =
        "{\"apiVersion\":\"credentialprovider.kubelet.k8s.io/v1\","
            + "\"kind\":\"CredentialProviderResponse\",\"cacheKeyType\":\"Registry\","
            + "\"cacheDuration\":\""
            + stated.toSeconds()
            + "s\",\"auth\":{\""
            + key
            + "\":{\"username\":\"AWS\",\"password\":\""
            + value
            + "\"}}}\n";
    return new Run(latency, 0, stdout);
  }

  // ---- the registry's side --------------------------------------------------------------------

  /** Whether {@code credential} is a token of this provider, unexpired at {@code at}. */
  public boolean accepts(RegistryCredential credential, Instant at) {
    return expiryOf(credential).map(at::isBefore).orElse(false);
  }

  /**
   * When the token {@code credential} expires; empty for a credential this provider never issued.
   */
  public Optional<Instant> expiryOf(RegistryCredential credential) {
    if (credential == null || credential.password() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(tokens.get(credential.password())).map(Token::expires);
  }

  /**
   * When the token named by {@code reference} expires: its password, or {@code #n} as the trace
   * names it; empty for a token this provider never issued.
   */
  public Optional<Instant> expiryOf(String reference) {
    if (reference.startsWith("#")) {
      return tokens.values().stream()
          .filter(t -> ("#" + t.number()).equals(reference))
          .findFirst()
          .map(Token::expires);
    }
    return Optional.ofNullable(tokens.get(reference)).map(Token::expires);
  }

  /** How the trace names the token {@code credential}: {@code #n}; empty if not one of these. */
  public Optional<String> traceName(RegistryCredential credential) {
    if (credential == null || credential.password() == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(tokens.get(credential.password())).map(t -> "#" + t.number());
  }

  /** How many tokens were issued. */
  public int issued() {
    return tokens.size();
  }

  private void note(ProviderEvent event, String subject, String outcome) {
    trace.add(new Note.ProviderNote(loop.now(), new Actor(name), event, subject, outcome));
  }
}
