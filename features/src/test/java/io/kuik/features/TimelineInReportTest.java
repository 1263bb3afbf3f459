package io.kuik.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Cucumber's HTML report carries each scenario's timeline: one feature run through the Cucumber
 * engine with the HTML plugin alone, into a folder of this test's own (the build's report, {@code
 * features/target/cucumber-report.html}, is left to the suite).
 */
class TimelineInReportTest {

  @Test
  void everyScenarioOfTheReportCarriesItsTimelineAsAPlainTextAttachment(@TempDir Path dir)
      throws IOException {
    Path report = dir.resolve("report.html");
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathResource("features/status-of-routing-resources.feature"))
                .configurationParameter("cucumber.plugin", "html:" + report)
                .configurationParameter("cucumber.glue", "io.kuik.features")
                .build(),
            summary);

    assertEquals(3, summary.getSummary().getTestsSucceededCount(), "the feature's scenarios");
    String html = Files.readString(report);
    int attachments = html.split("\"fileName\":\"" + ClusterSteps.TIMELINE + "\"", -1).length - 1;
    assertEquals(3, attachments, "one timeline per scenario");
    assertTrue(html.contains("text/plain"), "attached as plain text");
    assertTrue(html.contains("SETUP"), "the storyline's first line");
    assertTrue(html.contains("imagealternatives/status"), "the status writes of the timeline");
  }
}
