package io.kuik.sim.world.kubelet;

import io.kuik.model.ImageReference;
import io.kuik.model.InvalidImageReferenceException;
import io.kuik.sim.time.EventLoop;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.ApiServer;
import io.kuik.sim.world.EventRecorder;
import io.kuik.sim.world.api.Identity;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.object.Meta;
import io.kuik.sim.world.registry.Availability;
import io.kuik.sim.world.registry.Registries;
import io.kuik.sim.world.validation.PodValidation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kubelet of the one node {@value #NODE_NAME}, as far as image pulls go. It watches every pod
 * through a {@link PodFeed} (an informer) under its node identity (a pod counts as scheduled here
 * once it exists without scheduling gates, {@link #gated}) and syncs each one:
 *
 * <ul>
 *   <li>init containers one at a time, in order, each started only when the previous one has; then
 *       every container that has not started;
 *   <li>a container pulls unless its policy lets the node's copy of the image serve ({@code
 *       IfNotPresent}, the default except for {@code :latest}, skips an image already pulled;
 *       {@code Always} pulls at every start; {@code Never} waits with ErrImageNeverPull while the
 *       image is absent);
 *   <li>for each sync that pulls, the pod's {@code imagePullSecrets} are read again from the API
 *       server (a GET as the node per Secret); any that cannot be read gives one Warning Event
 *       {@code FailedToRetrieveImagePullSecret} and the pull goes on without it. The readable ones
 *       form a {@link PullKeyring}; its matching credentials are tried in turn, in the keyring's
 *       order, and the image is pulled anonymously only when none matches;
 *   <li>a failed pull: the container waits with ErrImagePull, Warning Events {@code Failed} say
 *       why, and the image is in back-off for this pod (10 s, doubling, at most 5 min); a sync
 *       during the back-off shows ImagePullBackOff with a {@code BackOff} Event, and the pull is
 *       tried again at the first sync after the back-off;
 *   <li>while a pod is not running, the pod worker syncs it again every {@link #SYNC_RETRY}; once
 *       every container has started the pod is Running with its containers ready. Every status
 *       change is written through the status subresource as the node (GET, then PUT), retried at
 *       the next sync when the write fails;
 *   <li>a container runs until its process exits ({@link #containerExits}); the pod's restart
 *       policy then restarts it or leaves it terminated, and a pod whose containers have all
 *       terminated is Succeeded or Failed for good.
 * </ul>
 *
 * A deleted pod stops being synced: its pending sync finds it gone and does nothing. The node's
 * images stay pulled for good (no image garbage collection).
 */
public final class Kubelet {

  public static final String NODE_NAME = "node-1";
  public static final Identity IDENTITY = Identity.node(NODE_NAME);
  static final String COMPONENT = "kubelet";

  /** The name of the watch its pod feed opens, as the trace shows it. */
  public static final String WATCHER = COMPONENT + "/pods";

  /** The pod worker's requeue after a sync that left the pod short of running. */
  public static final Duration SYNC_RETRY = Duration.ofSeconds(10);

  private final ApiServer api;
  private final EventLoop loop;
  private final Registries registries;
  private final EventRecorder events;
  private final PodFeed informer;
  private final ImageBackoff backoff = new ImageBackoff();
  private final Set<String> images = new TreeSet<>();
  private final Map<String, PodWork> pods = new TreeMap<>();
  private final List<PullAttempt> attempts = new ArrayList<>();
  private Duration firstPullDelay = Duration.ZERO;

  /**
   * @param informer every pod, kept by an informer under {@link #IDENTITY} that watches as {@link
   *     #WATCHER}
   */
  public Kubelet(ApiServer api, Registries registries, PodFeed informer) {
    this.api = Objects.requireNonNull(api, "api");
    this.loop = api.loop();
    this.registries = Objects.requireNonNull(registries, "registries");
    this.events = new EventRecorder(api, loop);
    this.informer = Objects.requireNonNull(informer, "informer");
    informer.listen(
        new PodFeed.Listener() {
          @Override
          public void added(ObjectNode pod) {
            if (!gated(pod)) {
              track(pod);
            }
          }

          @Override
          public void updated(ObjectNode pod) {
            if (gated(pod)) {
              return;
            }
            PodWork work = pods.get(Meta.key(pod));
            if (work == null || !work.uid.equals(Meta.uid(pod))) {
              track(pod);
            } else if (Meta.deleting(pod)) {
              pods.remove(work.key());
            } else {
              work.pod = pod;
            }
          }

          @Override
          public void deleted(ObjectNode last) {
            PodWork work = pods.get(Meta.key(last));
            if (work != null && work.uid.equals(Meta.uid(last))) {
              pods.remove(work.key());
            }
          }
        });
    api.trace().alias(IDENTITY, COMPONENT);
  }

  /** How long after a pod appears its first sync waits (default zero). */
  public void setFirstPullDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay " + delay);
    }
    this.firstPullDelay = delay;
  }

  public void start() {
    informer.start();
  }

  public boolean hasSynced() {
    return informer.hasSynced();
  }

  /** An image the node already has, as if pulled before the story began. */
  public void preload(String image) {
    images.add(parse(image).toString());
  }

  /** The normalized references of the images on the node. */
  public Set<String> images() {
    return Collections.unmodifiableSet(images);
  }

  /** Every request the kubelet made to a registry, in order. */
  public List<PullAttempt> pullAttempts() {
    return Collections.unmodifiableList(attempts);
  }

  public List<PullAttempt> pullAttempts(String namespace, String pod) {
    return attempts.stream()
        .filter(a -> a.namespace().equals(namespace) && a.pod().equals(pod))
        .toList();
  }

  /**
   * The pod's phase as the kubelet sees it ({@code Pending}, {@code Running}, {@code Succeeded},
   * {@code Failed}); null if unknown.
   */
  public String phase(String namespace, String pod) {
    PodWork work = pods.get(namespace + "/" + pod);
    return work == null ? null : work.phase();
  }

  /**
   * The process of a running container exits with {@code exitCode}. The pod's restart policy
   * decides what follows (pkg/kubelet/kubelet_pods.go, {@code getPhase}): under {@code Always}, and
   * under {@code OnFailure} after a non-zero code, the container starts again at once and the pod
   * stays Running; otherwise it stays terminated, and once every container has, the pod is
   * Succeeded (all exited 0) or Failed. The status is written at once.
   *
   * <p>Simplified: a restart neither waits out CrashLoopBackOff nor pulls the image again.
   *
   * @throws IllegalStateException when the container is not running
   */
  public void containerExits(String namespace, String pod, String container, int exitCode) {
    PodWork work = pods.get(namespace + "/" + pod);
    ContainerWork c = runningContainer(work, container);
    if (c == null) {
      throw new IllegalStateException(
          "the container " + container + " of " + namespace + "/" + pod + " is not running");
    }
    c.exit(exitCode, loop.now(), work.restarts(exitCode));
    if (!writeStatus(work)) {
      schedule(work, SYNC_RETRY);
    }
  }

  /** Whether the container has started and not terminated since, as the kubelet has it. */
  public boolean running(String namespace, String pod, String container) {
    return runningContainer(pods.get(namespace + "/" + pod), container) != null;
  }

  private static ContainerWork runningContainer(PodWork work, String container) {
    if (work == null) {
      return null;
    }
    return work.containers.stream()
        .filter(c -> c.name.equals(container) && c.started() && !c.terminated())
        .findFirst()
        .orElse(null);
  }

  /** The waiting reason of a container (e.g. {@code ImagePullBackOff}); null once started. */
  public String waitingReason(String namespace, String pod, String container) {
    PodWork work = pods.get(namespace + "/" + pod);
    if (work == null) {
      return null;
    }
    List<ContainerWork> all = new ArrayList<>(work.initContainers);
    all.addAll(work.containers);
    return all.stream()
        .filter(c -> c.name.equals(container))
        .findFirst()
        .map(ContainerWork::reason)
        .orElse(null);
  }

  // ---- syncing ------------------------------------------------------------------------------

  /**
   * A pod with scheduling gates is never bound to a node: the scheduler's SchedulingGates plugin
   * keeps it out of the scheduling queue until its last gate is gone
   * (https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go),
   * so no kubelet syncs it, and none pulls its images. The one node takes it when the gates are
   * gone, as if the scheduler bound it then.
   */
  static boolean gated(ObjectNode pod) {
    return !PodValidation.gates(pod).isEmpty();
  }

  private void track(ObjectNode pod) {
    if (Meta.deleting(pod)) {
      return;
    }
    PodWork work = new PodWork(pod);
    pods.put(work.key(), work);
    schedule(work, firstPullDelay);
  }

  private void schedule(PodWork work, Duration delay) {
    int token = ++work.token;
    String key = work.key();
    String uid = work.uid;
    loop.schedule(delay, "kubelet sync " + key, () -> sync(key, uid, token));
  }

  private void sync(String key, String uid, int token) {
    PodWork work = pods.get(key);
    if (work == null || !work.uid.equals(uid) || work.token != token) {
      return; // deleted, replaced, or synced again since
    }
    if (work.startTime == null) {
      work.startTime = loop.now();
    }
    PullSecrets secrets = new PullSecrets(work);
    boolean initialized = true;
    for (ContainerWork c : work.initContainers) {
      if (!c.started() && !start(work, c, secrets)) {
        initialized = false;
        break;
      }
    }
    if (initialized) {
      for (ContainerWork c : work.containers) {
        if (!c.started()) {
          start(work, c, secrets);
        }
      }
    }
    boolean written = writeStatus(work);
    if (!work.running() || !written) {
      schedule(work, SYNC_RETRY);
    }
  }

  /** Ensures the container's image and starts it; false when it must wait. */
  private boolean start(PodWork work, ContainerWork c, PullSecrets secrets) {
    if (c.reference == null) {
      transition(
          work,
          c,
          "InvalidImageName",
          "Failed to apply default image tag \""
              + c.image
              + "\": couldn't parse image name \""
              + c.image
              + "\": invalid reference format",
          EventRecorder.Type.WARNING,
          "InspectFailed");
      return false;
    }
    boolean present = images.contains(c.reference.toString());
    if (c.policy == PullPolicy.NEVER && !present) {
      String message =
          "Container image \"" + c.image + "\" is not present with pull policy of Never";
      transition(
          work, c, "ErrImageNeverPull", message, EventRecorder.Type.WARNING, "ErrImageNeverPull");
      return false;
    }
    if (c.policy != PullPolicy.ALWAYS && present) {
      event(
          work,
          EventRecorder.Type.NORMAL,
          "Pulled",
          "Container image \"" + c.image + "\" already present on machine");
      c.start(loop.now());
      return true;
    }
    String backoffKey = work.uid + "_" + c.image;
    if (backoff.inBackoff(backoffKey, loop.now())) {
      if (transition(
          work,
          c,
          "ImagePullBackOff",
          "Back-off pulling image \"" + c.image + "\"",
          EventRecorder.Type.NORMAL,
          "BackOff")) {
        event(work, EventRecorder.Type.WARNING, "Failed", "Error: ImagePullBackOff");
      }
      return false;
    }
    // The pod's pull Secrets are read before the pull starts, as SyncPod reads them first.
    secrets.read();
    event(work, EventRecorder.Type.NORMAL, "Pulling", "Pulling image \"" + c.image + "\"");
    String failure = pull(work, c, secrets);
    if (failure == null) {
      images.add(c.reference.toString());
      event(
          work,
          EventRecorder.Type.NORMAL,
          "Pulled",
          "Successfully pulled image \"" + c.image + "\" in 0s (0s including waiting)");
      c.start(loop.now());
      return true;
    }
    backoff.next(backoffKey, loop.now());
    String message = "Failed to pull image \"" + c.image + "\": " + failure;
    c.waiting("ErrImagePull", message);
    event(work, EventRecorder.Type.WARNING, "Failed", message);
    event(work, EventRecorder.Type.WARNING, "Failed", "Error: ErrImagePull");
    return false;
  }

  /**
   * Pulls with the keyring's credentials in turn, as kuberuntime_image.go's {@code PullImage} does:
   * anonymously only when no key matched; otherwise each matching credential once, stopping at the
   * first that pulls, never falling back to anonymous. Null on success, else the runtime's error,
   * several aggregated as {@code [a, b]} ({@code utilerrors.NewAggregate}).
   */
  private String pull(PodWork work, ContainerWork c, PullSecrets secrets) {
    PullKeyring keyring;
    try {
      keyring = secrets.keyring();
    } catch (PullKeyring.InvalidPullSecret e) {
      return e.getMessage();
    }
    List<PullKeyring.Credential> credentials = keyring.lookup(c.reference.repository());
    if (credentials.isEmpty()) {
      Availability outcome = attempt(work, c, null, null);
      return outcome == Availability.AVAILABLE ? null : PullErrors.of(c.reference, outcome);
    }
    List<String> errors = new ArrayList<>();
    for (PullKeyring.Credential credential : credentials) {
      // containerd's ParseAuth sends no credential for an empty user name.
      boolean basic = !credential.username().isEmpty();
      Availability outcome =
          attempt(
              work, c, basic ? credential.username() : null, basic ? credential.password() : null);
      if (outcome == Availability.AVAILABLE) {
        return null;
      }
      errors.add(PullErrors.of(c.reference, outcome));
    }
    return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
  }

  private Availability attempt(PodWork work, ContainerWork c, String username, String password) {
    Availability outcome = registries.pull(c.reference, username, password);
    attempts.add(
        new PullAttempt(loop.now(), work.namespace, work.name, c.image, username, outcome));
    return outcome;
  }

  /**
   * Sets a waiting reason; the Event is recorded only when the reason changes, standing for the
   * event recorder's aggregation of repeated identical Events. Returns whether it changed.
   */
  private boolean transition(
      PodWork work,
      ContainerWork c,
      String reason,
      String message,
      EventRecorder.Type type,
      String eventReason) {
    boolean changed = !reason.equals(c.reason());
    c.waiting(reason, message);
    if (changed) {
      event(work, type, eventReason, message);
    }
    return changed;
  }

  private boolean writeStatus(PodWork work) {
    ObjectNode status = work.status();
    if (status.equals(work.written)) {
      return true;
    }
    try {
      ObjectNode live = api.get(IDENTITY, ResourceType.POD, work.namespace, work.name);
      if (!work.uid.equals(Meta.uid(live))) {
        return true; // another pod under the same name; the informer will say so
      }
      live.set("status", status);
      api.updateStatus(IDENTITY, live);
      work.written = status;
      return true;
    } catch (ApiException e) {
      return e.code() == 404; // a deleted pod needs no status
    }
  }

  private void event(PodWork work, EventRecorder.Type type, String reason, String message) {
    try {
      events.record(IDENTITY, COMPONENT, work.pod, type, reason, message);
    } catch (ApiException e) {
      // An Event the API server refuses is dropped, as the kubelet's recorder does in the end.
    }
  }

  private static ImageReference parse(String image) {
    try {
      return ImageReference.parse(image);
    } catch (InvalidImageReferenceException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /**
   * The pod's pull Secrets for one sync, read from the API server the first time a pull needs them,
   * then kept for the rest of the sync.
   */
  private final class PullSecrets {
    private final PodWork work;
    private PullKeyring keyring;
    private PullKeyring.InvalidPullSecret invalid;
    private boolean read;

    PullSecrets(PodWork work) {
      this.work = work;
    }

    void read() {
      if (!read) {
        read = true;
        List<ObjectNode> found = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : work.pullSecretNames()) {
          try {
            found.add(api.get(IDENTITY, ResourceType.SECRET, work.namespace, name));
          } catch (ApiException e) {
            failed.add(name);
          }
        }
        if (!failed.isEmpty()) {
          event(
              work,
              EventRecorder.Type.WARNING,
              "FailedToRetrieveImagePullSecret",
              "Unable to retrieve some image pull secrets ("
                  + String.join(", ", failed)
                  + "); attempting to pull the image may not succeed.");
        }
        try {
          keyring = PullKeyring.of(found);
        } catch (PullKeyring.InvalidPullSecret e) {
          invalid = e;
        }
      }
    }

    PullKeyring keyring() throws PullKeyring.InvalidPullSecret {
      read();
      if (invalid != null) {
        throw invalid;
      }
      return keyring;
    }
  }
}
