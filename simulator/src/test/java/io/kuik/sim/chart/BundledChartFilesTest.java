package io.kuik.sim.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The chart files bundled in the simulator's jar are the repository's chart files. */
class BundledChartFilesTest {

  @Test
  void theBundledFilesRenderExactlyAsTheChartFolder() {
    ChartFiles folder = ChartFiles.locate();
    ChartFiles bundled = ChartFiles.bundled();
    for (String file :
        List.of(ChartFiles.ADMISSION_POLICY, ChartFiles.SYNCER_RBAC, ChartFiles.WEBHOOK_RBAC)) {
      assertEquals(folder.render(file, Release.DEFAULT), bundled.render(file, Release.DEFAULT));
    }
    assertNull(bundled.directory(), "the bundled copy is no folder");
  }

  @Test
  void aFileOutsideTheBundleIsRefused() {
    assertThrows(
        ChartException.class,
        () -> ChartFiles.bundled().render("files/missing.yaml", Release.DEFAULT));
  }
}
