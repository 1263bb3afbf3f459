package io.kuik.sim.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

class ChartFilesTest {

  @TempDir Path temp;

  @Test
  void findsTheRepositoryChartByWalkingUpFromTheWorkingDirectory() {
    Path deep = Path.of(System.getProperty("user.dir"), "src", "test", "java");

    ChartFiles chart = ChartFiles.locate(deep, null);

    Path directory = chart.directory();
    assertEquals("chart", directory.getFileName().toString());
    assertTrue(Files.isRegularFile(directory.resolve(ChartFiles.ADMISSION_POLICY)));
  }

  @Test
  void theSystemPropertyOverridesTheSearch() throws IOException {
    Path elsewhere = temp.resolve("elsewhere");
    Files.createDirectories(elsewhere.resolve("files"));

    ChartFiles chart =
        ChartFiles.locate(Path.of(System.getProperty("user.dir")), elsewhere.toString());

    assertEquals(elsewhere.toAbsolutePath().normalize(), chart.directory());
  }

  @Test
  void aPropertyPointingAtNoChartIsRefusedNamingTheProperty() {
    var error =
        assertThrows(
            ChartException.class, () -> ChartFiles.locate(temp, temp.resolve("nope").toString()));

    assertTrue(error.getMessage().contains(ChartFiles.CHART_DIR_PROPERTY), error.getMessage());
  }

  @Test
  void withNoChartAboveTheStartTheCopyInTheJarIsReadAndEqualsTheRepositorysChart()
      throws IOException {
    Path lonely = Files.createDirectories(temp.resolve("a/b"));

    // Only a folder with no chart/ anywhere above it can show this; the temp folder may sit
    // inside a checkout on some machines, so check the premise first.
    boolean chartAbove = false;
    for (Path dir = lonely; dir != null; dir = dir.getParent()) {
      chartAbove |= Files.isDirectory(dir.resolve("chart/files"));
      chartAbove |= Files.isRegularFile(dir.resolve("chart/Chart.yaml"));
    }
    org.junit.jupiter.api.Assumptions.assumeFalse(chartAbove);

    ChartFiles bundled = ChartFiles.locate(lonely, null);

    assertNull(bundled.directory(), "read from the classpath");
    ChartFiles repository = ChartFiles.locate();
    for (String file :
        List.of(ChartFiles.ADMISSION_POLICY, ChartFiles.SYNCER_RBAC, ChartFiles.WEBHOOK_RBAC)) {
      assertEquals(
          repository.render(file, Release.DEFAULT), bundled.render(file, Release.DEFAULT), file);
    }
    assertEquals(repository.crds(), bundled.crds());
  }

  @Test
  void aFileThatIsNotOneOfTheChartsFilesIsNamed() {
    var error =
        assertThrows(
            ChartException.class,
            () -> ChartFiles.locate().render("files/missing.yaml", Release.DEFAULT));

    assertTrue(error.getMessage().startsWith("files/missing.yaml is not"), error.getMessage());
  }

  @Test
  void valuesHelmRefusesAreAClearErrorNamingThem() {
    var error =
        assertThrows(
            ChartException.class,
            () -> ChartFiles.locate().render(Release.DEFAULT.withValues("syncer.notAValue=1")));

    assertTrue(error.getMessage().contains("syncer.notAValue=1"), error.getMessage());
  }

  @Test
  void theRenderGivesEachProcessTheCommandLineOfItsDeployment() {
    RenderedRelease rendered =
        ChartFiles.locate().render(Release.withFullname("kuik", "kuik-system", "acme"));

    assertTrue(rendered.args("syncer").contains("--admission-policy=acme-pull-secrets"));
    assertTrue(rendered.args("webhook").contains("--cluster-resource-namespace=kuik-system"));
    assertTrue(rendered.args("selftest").contains("--syncer-deployment=acme-secret-syncer"));
    assertEquals(
        "acme-selftest", rendered.runner("selftest").orElseThrow().at("/metadata/name").asString());
    assertTrue(
        rendered.hooks().stream().allMatch(h -> h.at("/metadata/annotations").has("helm.sh/hook")));
    assertFalse(rendered.objects().isEmpty());
  }

  @Test
  void everyIncludedFileOfTheChartRendersForAnyRelease() {
    ChartFiles chart = ChartFiles.locate();
    var release = new Release("edge", "kuik-edge");

    for (String file :
        List.of(ChartFiles.ADMISSION_POLICY, ChartFiles.SYNCER_RBAC, ChartFiles.WEBHOOK_RBAC)) {
      String text = chart.render(file, release);
      assertFalse(text.contains("{{"), file);
      assertFalse(text.contains("kuik-system"), file + " must not hard-code the install namespace");
      assertFalse(chart.load(file, release).isEmpty(), file);
    }
  }

  @Test
  void thePolicyAndItsBindingCarryTheReleaseName() {
    List<ObjectNode> objects =
        ChartFiles.locate().load(ChartFiles.ADMISSION_POLICY, new Release("edge", "kuik-edge"));

    assertEquals(
        List.of("ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"),
        objects.stream().map(o -> o.get("kind").asString()).toList());
    assertEquals("edge-pull-secrets", objects.get(0).at("/metadata/name").asString());
    assertEquals(
        "acme-pull-secrets",
        ChartFiles.locate()
            .load(ChartFiles.ADMISSION_POLICY, Release.withFullname("edge", "kuik-edge", "acme"))
            .get(0)
            .at("/metadata/name")
            .asString());
    assertEquals("edge-pull-secrets", objects.get(1).at("/spec/policyName").asString());
  }
}
