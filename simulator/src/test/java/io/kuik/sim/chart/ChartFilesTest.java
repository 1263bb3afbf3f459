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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

class ChartFilesTest {

  @TempDir Path temp;

  private ChartFiles chartWith(String file, String text) throws IOException {
    Path chart = temp.resolve("chart");
    Files.createDirectories(chart.resolve("files"));
    Files.writeString(chart.resolve(file), text);
    return ChartFiles.at(chart);
  }

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
    for (String crd : ChartFiles.CRDS) {
      assertEquals(
          repository.render(crd, Release.DEFAULT), bundled.render(crd, Release.DEFAULT), crd);
    }
  }

  @Test
  void aFileMissingFromTheCopyInTheJarIsAClearError() {
    var error =
        assertThrows(
            ChartException.class,
            () -> ChartFiles.bundled().render("files/missing.yaml", Release.DEFAULT));

    assertTrue(error.getMessage().contains("files/missing.yaml"), error.getMessage());
  }

  @Test
  void rendersTheReleaseNameAndNamespace() throws IOException {
    ChartFiles chart =
        chartWith(
            "files/x.yaml",
            "name: {{ .Release.Name }}-secret-syncer\nnamespace: {{.Release.Namespace}}\n");

    String text = chart.render("files/x.yaml", new Release("edge", "kuik-edge"));

    assertEquals("name: edge-secret-syncer\nnamespace: kuik-edge\n", text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{{ .Values.syncer.name }}",
        "{{ include \"kuik.labels\" . }}",
        "{{- .Release.Name }}",
        "{{ .Release.Name | quote }}",
        "{{ .Release.Name }",
        "{{ .Chart.Name }}"
      })
  void refusesAnyOtherTemplateActionNamingTheFileAndLine(String action) throws IOException {
    ChartFiles chart = chartWith("files/x.yaml", "a: 1\nb: " + action + "\n");

    var error =
        assertThrows(ChartException.class, () -> chart.render("files/x.yaml", Release.DEFAULT));

    assertTrue(error.getMessage().startsWith("files/x.yaml:2: unsupported template action"));
    assertTrue(error.getMessage().contains("{{ .Release.Namespace }}"), error.getMessage());
  }

  @Test
  void parsesEveryDocumentAndSkipsEmptyOnes() throws IOException {
    ChartFiles chart =
        chartWith("files/x.yaml", "---\nkind: A\n---\n# only a comment\n---\nkind: B\n---\n");

    List<ObjectNode> documents = chart.load("files/x.yaml", Release.DEFAULT);

    assertEquals(List.of("A", "B"), documents.stream().map(d -> d.get("kind").asString()).toList());
  }

  @Test
  void aDocumentThatIsNotAMappingIsRefused() throws IOException {
    ChartFiles chart = chartWith("files/x.yaml", "kind: A\n---\n- a list\n");

    var error =
        assertThrows(ChartException.class, () -> chart.load("files/x.yaml", Release.DEFAULT));

    assertTrue(error.getMessage().contains("document 2"), error.getMessage());
  }

  @Test
  void aMissingFileIsNamed() {
    var error =
        assertThrows(
            ChartException.class,
            () -> ChartFiles.locate().render("files/missing.yaml", Release.DEFAULT));

    assertTrue(error.getMessage().startsWith("files/missing.yaml not found"), error.getMessage());
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
    assertEquals("edge-pull-secrets", objects.get(1).at("/spec/policyName").asString());
  }
}
