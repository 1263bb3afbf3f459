package io.kuik;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The dependency direction of docs/architecture.md#module-layout: the sans-IO core (model, routing,
 * syncer, ports) never touches fabric8's client, the edges, threads, sleeps or any clock; and no
 * class in a controller package depends on the simulator.
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
  static final String[] EDGES = {"io.kuik.kube..", "io.kuik.webhook..", "io.kuik.cli.."};
  static final String SIMULATOR = "io.kuik.sim..";

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
    return Stream.concat(Stream.of(CORE), Stream.concat(Stream.of(EDGES), Stream.of(SIMULATOR)));
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
}
