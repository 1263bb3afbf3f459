package io.kuik.sim.world.registry;

import io.kuik.model.ImageReference;
import io.kuik.model.RegistryCredential;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.trace.Actor;
import io.kuik.sim.trace.Note;
import io.kuik.sim.trace.Note.RegistryEvent;
import io.kuik.sim.trace.Trace;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One registry host ({@code host[:port]}): repositories holding tags and digests, credentials
 * required per path prefix, and outages.
 *
 * <p>How it answers a pull or a probe (a {@code HEAD} of the manifest, the same answers):
 *
 * <ol>
 *   <li>down: {@link Availability#UNREACHABLE};
 *   <li>a credential that is not one of this registry's users: {@link Availability#UNAUTHORIZED},
 *       whatever the repository, as a token server refuses a wrong password before looking at the
 *       scope;
 *   <li>a repository under a prefix that requires a credential, asked anonymously or by a user not
 *       granted that prefix: {@link Availability#UNAUTHORIZED}, whether the repository exists or
 *       not, so that a registry never tells a stranger what it holds;
 *   <li>no such repository, tag or digest: {@link Availability#NOT_FOUND} (a reference with a
 *       digest is looked up by its digest alone, as containerd pulls it);
 *   <li>otherwise {@link Availability#AVAILABLE}.
 * </ol>
 *
 * A registry that {@linkplain #serveEverything() serves everything} skips steps 2 to 4: any image,
 * to anyone. A {@linkplain #downRepository repository that is down} is unreachable in step 1.
 *
 * <p>A path with no required credential is public: anyone may pull it, and a known credential is
 * accepted there too. Prefixes compare by whole path segments ({@code acme} covers {@code
 * acme/foo}, never {@code acme-bar}). Every pull and probe is a note in the trace; credential
 * values never appear there, only the user name.
 */
public final class Registry {

  private record Grant(List<String> prefix, String username, String password) {
    boolean covers(List<String> path) {
      return prefix.size() <= path.size() && prefix.equals(path.subList(0, prefix.size()));
    }

    boolean accepts(RegistryCredential credential) {
      return username.equals(credential.username()) && password.equals(credential.password());
    }
  }

  private final String host;
  private final EventLoop loop;
  private final Trace trace;
  private final Map<String, Map<String, String>> tags = new TreeMap<>();
  private final Map<String, Set<String>> digests = new TreeMap<>();
  private final List<Grant> grants = new ArrayList<>();

  /** Paths whose pulls take a cloud provider's tokens, while unexpired. */
  private record TokenGrant(List<String> prefix, CloudProvider provider) {
    boolean covers(List<String> path) {
      return prefix.size() <= path.size() && prefix.equals(path.subList(0, prefix.size()));
    }
  }

  private final List<TokenGrant> tokenGrants = new ArrayList<>();
  private final Set<String> downRepositories = new TreeSet<>();
  private boolean servesEverything;
  private boolean echoes;
  private boolean down;
  // A timed outage ends by itself: reachability is decided by the clock, so nothing is cancelled.
  private Instant downUntil;

  Registry(String host, EventLoop loop, Trace trace) {
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("a registry needs a host");
    }
    this.host = host;
    this.loop = Objects.requireNonNull(loop, "loop");
    this.trace = Objects.requireNonNull(trace, "trace");
  }

  /** {@code host[:port]}, as normalized image references name it (Docker Hub is docker.io). */
  public String host() {
    return host;
  }

  // ---- content ------------------------------------------------------------------------------

  /**
   * Pushes {@code path:tag} (e.g. {@code acme/foo:1.0}) and returns its manifest digest, which is
   * derived from the host, path and tag only, so the same push gives the same digest in every run.
   */
  public String push(String path, String tag) {
    String repository = normalizedPath(path);
    Objects.requireNonNull(tag, "tag");
    String digest = digestOf(host + "/" + repository + ":" + tag);
    tags.computeIfAbsent(repository, r -> new TreeMap<>()).put(tag, digest);
    digests.computeIfAbsent(repository, r -> new TreeSet<>()).add(digest);
    return digest;
  }

  /** Removes a tag (its manifest stays reachable by digest), as {@code crane delete} of a tag. */
  public void untag(String path, String tag) {
    Map<String, String> repository = tags.get(normalizedPath(path));
    if (repository != null) {
      repository.remove(tag);
    }
  }

  /**
   * From now on, repositories under {@code pathPrefix} (whole segments; empty for the whole
   * registry) need this user's credential. Several users may be granted one prefix.
   */
  public Registry requireCredential(String pathPrefix, String username, String password) {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
    grants.add(new Grant(segments(pathPrefix), username, password));
    return this;
  }

  /**
   * From now on repositories under {@code pathPrefix} (whole segments; empty for the whole
   * registry) need a token of {@code provider}, and take one until it expires, as ECR takes its
   * authorization tokens.
   */
  public Registry acceptTokensOf(CloudProvider provider, String pathPrefix) {
    tokenGrants.add(new TokenGrant(segments(pathPrefix), Objects.requireNonNull(provider)));
    return this;
  }

  /** From now on the registry refuses this credential (it was revoked, or rotated). */
  public Registry revokeCredential(String username, String password) {
    grants.removeIf(g -> g.username().equals(username) && g.password().equals(password));
    return this;
  }

  /**
   * From now on every image is available to anyone, with any credential or none: the registry of a
   * world that is told nothing about its registries but their outages ({@code kuik plan}).
   */
  /**
   * From now on a refused login's answer quotes what it was sent, as some registries' error pages
   * do: the {@code Authorization} header's {@code Basic} pair and the password URL-encoded. A
   * hostile registry for kuik's redaction.
   */
  public Registry echoWhatItRefuses() {
    echoes = true;
    return this;
  }

  public Registry serveEverything() {
    servesEverything = true;
    return this;
  }

  // ---- outages ------------------------------------------------------------------------------

  /**
   * One repository (every tag and digest) unreachable from now on while the rest of the registry
   * answers, as when one image's storage is lost; {@code kuik plan --original-down} takes each
   * original image down this way, so that an alternative on the same host stays up.
   */
  public void downRepository(String path) {
    String repository = normalizedPath(path);
    downRepositories.add(repository);
    note(RegistryEvent.DOWN, host + "/" + repository, "");
  }

  /** Down from now until {@link #up()}. */
  public void down() {
    down = true;
    note(RegistryEvent.DOWN, "", "");
  }

  /** Back now, ending any outage, timed or not. */
  public void up() {
    down = false;
    downUntil = null;
    note(RegistryEvent.UP, "", "");
  }

  /** Down from now for {@code duration}, then back by itself (an earlier {@link #up()} ends it). */
  public void downFor(Duration duration) {
    Instant until = loop.now().plus(duration);
    if (downUntil == null || until.isAfter(downUntil)) {
      downUntil = until;
    }
    note(RegistryEvent.DOWN, "", "for " + duration);
    Instant mine = downUntil;
    loop.schedule(
        duration,
        "registry " + host + " back",
        () -> {
          // Only the outage that set this end notes it; a later up() or a longer outage owns it.
          if (mine.equals(downUntil) && !down) {
            downUntil = null;
            note(RegistryEvent.UP, "", "");
          }
        });
  }

  /** Down at the virtual time {@code from}, for {@code duration}. */
  public void downAt(Instant from, Duration duration) {
    loop.scheduleAt(from, "registry " + host + " down", () -> downFor(duration));
  }

  public boolean reachable() {
    return !down && (downUntil == null || !loop.now().isBefore(downUntil));
  }

  // ---- requests -----------------------------------------------------------------------------

  /**
   * A pull of the image's manifest with a credential (null or empty: anonymous).
   *
   * @throws IllegalArgumentException when the image is on another host
   */
  public Availability pull(ImageReference image, RegistryCredential credentialOrNull) {
    return traced(RegistryEvent.PULL, image, credentialOrNull);
  }

  /** A {@code HEAD} of the image's manifest: the same answers as {@link #pull}. */
  public Availability probe(ImageReference image, RegistryCredential credentialOrNull) {
    return traced(RegistryEvent.PROBE, image, credentialOrNull);
  }

  private Availability traced(
      RegistryEvent action, ImageReference image, RegistryCredential credential) {
    if (!image.registry().equals(host)) {
      throw new IllegalArgumentException(image + " is not on " + host);
    }
    Availability answer = answer(image, credential);
    note(
        action,
        image.toString(),
        answer.specName()
            + " as "
            + who(credential)
            + (answer == Availability.UNAUTHORIZED ? expired(credential) : ""));
    return answer;
  }

  private Availability answer(ImageReference image, RegistryCredential credential) {
    if (!reachable() || downRepositories.contains(image.path())) {
      return Availability.UNREACHABLE;
    }
    if (servesEverything) {
      return Availability.AVAILABLE;
    }
    boolean anonymous = credential == null || credential.isEmpty();
    if (!anonymous && !accepted(credential)) {
      return Availability.UNAUTHORIZED;
    }
    List<String> path = segments(image.path());
    List<Grant> covering = grants.stream().filter(g -> g.covers(path)).toList();
    List<TokenGrant> tokensCovering = tokenGrants.stream().filter(g -> g.covers(path)).toList();
    boolean coveredAndTaken =
        covering.stream().anyMatch(g -> !anonymous && g.accepts(credential))
            || tokensCovering.stream()
                .anyMatch(g -> !anonymous && g.provider().accepts(credential, loop.now()));
    if ((!covering.isEmpty() || !tokensCovering.isEmpty()) && !coveredAndTaken) {
      return Availability.UNAUTHORIZED;
    }
    String repository = image.path();
    boolean found =
        image.digest() != null
            ? digests.getOrDefault(repository, Set.of()).contains(image.digest())
            : tags.getOrDefault(repository, Map.of()).containsKey(image.tag());
    return found ? Availability.AVAILABLE : Availability.NOT_FOUND;
  }

  /**
   * A credential tried ahead of any pull, as the token flow tries it ({@code GET /v2/}, then Basic
   * or a token of the realm for the paths' pull scope): unreachable while down; refused, with the
   * distribution spec's answer, when no user of this registry has that credential (a registry that
   * serves everything refuses none); accepted otherwise. A realm grants a known user its token
   * whatever the paths, as Basic auth takes it whatever the path, so the paths a user may not pull
   * are found at the pull, not here.
   */
  public Login login(Collection<String> paths, RegistryCredential credential) {
    Login answer;
    if (!reachable()) {
      answer = new Login(Login.Outcome.UNREACHABLE, host + ": connection refused");
    } else if (servesEverything || credential != null && accepted(credential)) {
      answer = new Login(Login.Outcome.ACCEPTED, "GET /v2/ answered 200");
    } else {
      answer =
          new Login(
              Login.Outcome.REFUSED,
              "GET /v2/ answered 401 UNAUTHORIZED: authentication required" + echo(credential));
    }
    note(
        RegistryEvent.LOGIN,
        String.join(",", new TreeSet<>(paths)),
        answer.outcome().name().toLowerCase(java.util.Locale.ROOT) + " as " + who(credential));
    return answer;
  }

  /** What a login at the registry came to, and the registry's words. */
  public record Login(Outcome outcome, String answer) {
    public enum Outcome {
      ACCEPTED,
      REFUSED,
      UNREACHABLE
    }
  }

  private String echo(RegistryCredential credential) {
    if (!echoes || credential == null || credential.password() == null) {
      return "";
    }
    String pair = credential.username() + ":" + credential.password();
    return ", bad credentials in header Basic "
        + java.util.Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8))
        + " (password="
        + java.net.URLEncoder.encode(credential.password(), StandardCharsets.UTF_8)
        + ")";
  }

  /** Whether one of this registry's users or unexpired tokens is {@code credential}. */
  private boolean accepted(RegistryCredential credential) {
    return grants.stream().anyMatch(g -> g.accepts(credential))
        || tokenGrants.stream().anyMatch(g -> g.provider().accepts(credential, loop.now()));
  }

  /**
   * {@code " (token #n expired)"} when {@code credential} is a token one of the providers issued,
   * expired now; else empty.
   */
  private String expired(RegistryCredential credential) {
    for (TokenGrant grant : tokenGrants) {
      if (grant.provider().expiryOf(credential).filter(e -> !loop.now().isBefore(e)).isPresent()) {
        return " (token " + grant.provider().traceName(credential).orElseThrow() + " expired)";
      }
    }
    return "";
  }

  static String who(RegistryCredential credential) {
    if (credential == null || credential.isEmpty()) {
      return "anonymous";
    }
    return credential.username() == null ? "a token" : credential.username();
  }

  private void note(RegistryEvent event, String subject, String outcome) {
    trace.add(new Note.RegistryNote(loop.now(), new Actor(host), event, subject, outcome));
  }

  private static String normalizedPath(String path) {
    List<String> segments = segments(path);
    if (segments.isEmpty()) {
      throw new IllegalArgumentException("a repository needs a path below the host");
    }
    return String.join("/", segments);
  }

  private static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    for (String segment : Objects.requireNonNull(path, "path").split("/")) {
      if (!segment.isEmpty()) {
        out.add(segment);
      }
    }
    return out;
  }

  private static String digestOf(String text) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return "sha256:"
          + HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
