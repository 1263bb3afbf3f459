package io.kuik;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.kuik.sim.world.ApiException;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dependency direction of docs/architecture.md#module-layout: the sans-IO core (model, routing,
 * syncer, ports) never touches fabric8's client, the edges, threads, sleeps or any clock; the
 * syncer's core acts only through its effects; the production edge is split by process; no class in
 * a controller package depends on the simulator; every production package is one the rules name;
 * and the simulator's packages are layers, each depending only on those below it ({@link
 * #SIMULATOR_LAYERS}).
 *
 * <p>It lives in the simulator's tests because only here are the controller's classes and the
 * simulator's on one classpath: in the controller module the simulator is absent, so a rule about
 * it could not fail. Here it also sees a simulator class declared in a controller package (a split
 * package, the usual way to reach package-private code), which is how such a dependency would
 * actually arrive. Every rule fails when its subject is empty, and {@link
 * #everyPackageTheRulesNameHoldsClasses} fails when one package of a list is renamed while the
 * others still match.
 */
class ArchitectureTest {

  static final String[] CORE = {
    "io.kuik.model..", "io.kuik.routing..", "io.kuik.syncer..", "io.kuik.ports.."
  };
  static final String[] EDGES = {
    "io.kuik.kube..",
    "io.kuik.webhook..",
    "io.kuik.registry..",
    "io.kuik.selftest..",
    "io.kuik.cli..",
    "io.kuik.explain.."
  };

  /** The production edge, split by process, and what both processes share. */
  static final String KUBE_SHARED = "io.kuik.kube";

  static final String KUBE_SYNCER = "io.kuik.kube.syncer..";
  static final String KUBE_WEBHOOK = "io.kuik.kube.webhook..";
  static final String SIMULATOR = "io.kuik.sim..";

  /** The simulator's layers, bottom to top, as {@link #SIMULATOR_LAYERS} names them. */
  static final String[] SIMULATOR_PACKAGES = {
    "io.kuik.sim.time..",
    "io.kuik.sim.trace..",
    "io.kuik.sim.world..",
    "io.kuik.sim.client..",
    "io.kuik.sim.chart..",
    "io.kuik.sim.actors..",
    "io.kuik.sim.hosts..",
    "io.kuik.sim.faults..",
    "io.kuik.sim.check..",
    "io.kuik.sim",
    "io.kuik.sim.dsl..",
    "io.kuik.sim.explore..",
    "io.kuik.sim.plan..",
    "io.kuik.sim.bench..",
    "io.kuik.sim.cli.."
  };

  /**
   * Which simulator package may depend on which, bottom to top:
   *
   * <ul>
   *   <li>time and trace: the virtual clock and the record of what happened; the trace knows no
   *       identity of the world (it takes a {@code Principal});
   *   <li>world: the API server, admission, storage, watches, the kubelet, registries; on time and
   *       trace only (the kubelet is handed a {@code PodFeed}, it builds no informer);
   *   <li>client (informers), chart (the Helm chart's files), actors (people and controllers),
   *       hosts (the production syncer and webhook as processes): on the world;
   *   <li>faults: the fault modules, on the world's seams and the hosts;
   *   <li>check: the checkers, which read the trace and the stored objects and nothing that acts;
   *   <li>the root package's Cluster, which assembles a world; the DSL on top of it;
   *   <li>the explorer, on the DSL and the checkers only; plan and bench, tools on the DSL and the
   *       cluster; the command line over them all.
   * </ul>
   */
  static final ArchRule SIMULATOR_LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("time")
          .definedBy(SIMULATOR_PACKAGES[0])
          .layer("trace")
          .definedBy(SIMULATOR_PACKAGES[1])
          .layer("world")
          .definedBy(SIMULATOR_PACKAGES[2])
          .layer("client")
          .definedBy(SIMULATOR_PACKAGES[3])
          .layer("chart")
          .definedBy(SIMULATOR_PACKAGES[4])
          .layer("actors")
          .definedBy(SIMULATOR_PACKAGES[5])
          .layer("hosts")
          .definedBy(SIMULATOR_PACKAGES[6])
          .layer("faults")
          .definedBy(SIMULATOR_PACKAGES[7])
          .layer("check")
          .definedBy(SIMULATOR_PACKAGES[8])
          .layer("cluster")
          .definedBy(SIMULATOR_PACKAGES[9])
          .layer("dsl")
          .definedBy(SIMULATOR_PACKAGES[10])
          .layer("explore")
          .definedBy(SIMULATOR_PACKAGES[11])
          .layer("tools")
          .definedBy(SIMULATOR_PACKAGES[12], SIMULATOR_PACKAGES[13])
          .layer("cli")
          .definedBy(SIMULATOR_PACKAGES[14])
          .whereLayer("cli")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("tools")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("explore")
          .mayOnlyBeAccessedByLayers("cli")
          .whereLayer("dsl")
          .mayOnlyBeAccessedByLayers("explore", "tools")
          .whereLayer("cluster")
          .mayOnlyBeAccessedByLayers("dsl", "tools")
          .whereLayer("check")
          .mayOnlyBeAccessedByLayers("dsl", "explore")
          .whereLayer("faults")
          .mayOnlyBeAccessedByLayers("cluster", "dsl")
          .whereLayer("hosts")
          .mayOnlyBeAccessedByLayers("faults", "dsl", "tools")
          .whereLayer("actors")
          .mayOnlyBeAccessedByLayers("cluster", "dsl", "tools")
          .whereLayer("chart")
          .mayOnlyBeAccessedByLayers("faults", "cluster", "dsl", "tools")
          .whereLayer("client")
          .mayOnlyBeAccessedByLayers("actors", "hosts", "cluster", "tools")
          .whereLayer("world")
          .mayOnlyBeAccessedByLayers(
              "client", "chart", "actors", "hosts", "faults", "check", "cluster", "dsl", "explore",
              "tools")
          .whereLayer("trace")
          .mayOnlyBeAccessedByLayers(
              "world", "client", "hosts", "faults", "check", "cluster", "dsl", "explore", "tools")
          .because("a backward import ties a lower layer to what is built on it");

  /**
   * The explorer acts through the DSL: of the world it may only catch the refusals the DSL's verbs
   * throw.
   */
  static final ArchRule EXPLORER_USES_ONLY_THE_DSL =
      noClasses()
          .that()
          .resideInAPackage("io.kuik.sim.explore..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("io.kuik.sim.world..").and(not(equivalentTo(ApiException.class))))
          .orShould()
          .callMethod(io.kuik.sim.dsl.KuikWorld.class, "cluster")
          .because("the explorer calls only the DSL");

  /** Production classes of both modules (the controller's come from its jar or its classes). */
  private static final JavaClasses PRODUCTION =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.kuik");

  /**
   * The one class of fabric8's client package the core may use: {@code CustomResource} is the base
   * class of fabric8's typed custom resources (our ImageAlternative and ImageMirror), a model class
   * that happens to live in the client-api jar. Anything else there (clients, informers, utils)
   * stays at the edges.
   */
  private static final DescribedPredicate<JavaClass> FABRIC8_CLIENT_BUT_CUSTOM_RESOURCE =
      resideInAPackage("io.fabric8.kubernetes.client..")
          .and(not(equivalentTo(CustomResource.class)))
          .as("are fabric8 client classes other than CustomResource");

  /** Every way Java reads the time: the core gets it from {@link io.kuik.ports.Clock} only. */
  private static final DescribedPredicate<JavaMethodCall> READS_A_CLOCK =
      new DescribedPredicate<>(
          "read a clock (System.currentTimeMillis/nanoTime, any java.time now(), Clock.system*)") {
        @Override
        public boolean test(JavaMethodCall call) {
          String owner = call.getTargetOwner().getName();
          String name = call.getName();
          return (owner.equals("java.lang.System")
                  && Set.of("currentTimeMillis", "nanoTime").contains(name))
              || (owner.startsWith("java.time.") && name.equals("now"))
              || (owner.equals("java.time.Clock") && name.startsWith("system"));
        }
      };

  static Stream<String> packagesTheRulesName() {
    return Stream.of(
            Stream.of(CORE),
            Stream.of(EDGES),
            Stream.of(KUBE_SHARED, KUBE_SYNCER, KUBE_WEBHOOK, SIMULATOR),
            Stream.of(SIMULATOR_PACKAGES))
        .flatMap(s -> s);
  }

  /**
   * Every production package is one the rules name: a new package (a split, a rename) must be
   * placed in the core or at an edge, or no rule would cover it.
   */
  @Test
  void everyProductionPackageIsOneTheRulesName() {
    Set<String> unnamed = new java.util.TreeSet<>();
    for (JavaClass c : PRODUCTION) {
      String pkg = c.getPackageName();
      boolean named =
          packagesTheRulesName()
              .anyMatch(
                  rule ->
                      rule.endsWith("..")
                          ? (pkg + ".").startsWith(rule.substring(0, rule.length() - 1))
                          : pkg.equals(rule));
      if (!named) {
        unnamed.add(pkg);
      }
    }
    assertTrue(unnamed.isEmpty(), "packages no rule covers: " + unnamed);
  }

  /** The syncer's edge and the webhook's never reach into each other; what both use is shared. */
  @Test
  void theSyncersEdgeAndTheWebhooksAreApart() {
    noClasses()
        .that()
        .resideInAPackage(KUBE_SYNCER)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(KUBE_WEBHOOK, "io.kuik.webhook..", "io.kuik.routing..")
        .check(PRODUCTION);
    noClasses()
        .that()
        .resideInAPackage(KUBE_WEBHOOK)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(KUBE_SYNCER, "io.kuik.syncer..")
        .check(PRODUCTION);
    noClasses()
        .that()
        .resideInAPackage(KUBE_SHARED)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(KUBE_SYNCER, KUBE_WEBHOOK)
        .check(PRODUCTION);
  }

  /**
   * The syncer's core acts only through the effects it returns: of the ports it may use the
   * informers' read-only view alone, and nothing of the webhook's (a prober, a credential source).
   */
  @Test
  void theSyncerCoreReadsOnlyTheInformersView() {
    noClasses()
        .that()
        .resideInAPackage("io.kuik.syncer..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.kuik.ports..")
                .and(not(equivalentTo(io.kuik.ports.InformerView.class)))
                .as("ports other than InformerView"))
        .check(PRODUCTION);
  }

  /** {@code kuik explain} reads the cluster and decides with the core; it never writes. */
  @Test
  void explainUsesTheCoreAndTheSyncersRecordsButNoProcess() {
    noClasses()
        .that()
        .resideInAPackage("io.kuik.explain..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(KUBE_WEBHOOK, "io.kuik.cli..", "io.kuik.webhook..")
        .orShould()
        .dependOnClassesThat()
        .haveNameMatching("io\\.kuik\\.kube\\.syncer\\.(?!Records$).*")
        .check(PRODUCTION);
  }

  @ParameterizedTest(name = "{0} holds classes")
  @MethodSource("packagesTheRulesName")
  void everyPackageTheRulesNameHoldsClasses(String pkg) {
    assertFalse(
        PRODUCTION.that(resideInAPackage(pkg)).isEmpty(),
        pkg + " holds no production class: was it renamed? Update the rules of this test.");
  }

  @Test
  void coreNeverImportsTheFabric8Client() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat(FABRIC8_CLIENT_BUT_CUSTOM_RESOURCE)
        .check(PRODUCTION);
  }

  /**
   * The syncer reads the core's own records of pods and namespaces, so a driver keeps of them only
   * what the core needs (docs/decisions/0032-only-rewritten-pods-and-slim-records.md); the
   * webhook's routing still reads a Pod.
   */
  @Test
  void theSyncerCoreNeverReadsFabric8sPodsOrNamespaces() {
    noClasses()
        .that()
        .resideInAnyPackage("io.kuik.syncer..", "io.kuik.ports..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.fabric8.kubernetes.api.model.Pod")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("io.fabric8.kubernetes.api.model.Namespace")
        .check(PRODUCTION);
  }

  @Test
  void coreNeverDependsOnTheEdges() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(EDGES)
        .check(PRODUCTION);
  }

  /** A sleep is a call on {@link Thread}, so the Thread clause covers it too. */
  @Test
  void coreHasNoThreadsNoSleepsAndReadsNoClock() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .callMethodWhere(READS_A_CLOCK)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.Clock")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.time.InstantSource")
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(Thread.class)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("java.util.concurrent..")
        .check(PRODUCTION);
  }

  @Test
  void controllerNeverDependsOnTheSimulator() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .or()
        .resideInAnyPackage(EDGES)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SIMULATOR)
        .check(PRODUCTION);
  }

  @Test
  void simulatorPackagesDependOnlyOnTheLayersBelowThem() {
    SIMULATOR_LAYERS.check(PRODUCTION);
  }

  @Test
  void theLayerRuleCatchesAWorldClassThatReachesUpToAnInformer() {
    JavaClasses backward =
        new ClassFileImporter()
            .importClasses(
                io.kuik.sim.world.BackwardWorldClass.class, io.kuik.sim.client.Informer.class);

    AssertionError caught =
        assertThrows(AssertionError.class, () -> SIMULATOR_LAYERS.check(backward));
    assertTrue(caught.getMessage().contains("BackwardWorldClass"), caught.getMessage());
  }

  @Test
  void theExplorerCallsOnlyTheDsl() {
    EXPLORER_USES_ONLY_THE_DSL.check(PRODUCTION);
  }
}
