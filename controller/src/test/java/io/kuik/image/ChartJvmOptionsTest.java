package io.kuik.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartJvmOptionsTest {

  @Test
  void standsInForTheMemoryLimitBeforeTheChartsOptions() {
    List<String> expected = new ArrayList<>(List.of("-XX:MaxRAM=512m"));
    expected.addAll(List.of(ChartJvmOptions.written("syncer").split(" ")));

    assertEquals(expected, ChartJvmOptions.of("syncer"));
  }

  @Test
  void readsMebibytesAndGibibytesAsJvmSizes() {
    assertEquals("512m", ChartJvmOptions.jvmSize("512Mi"));
    assertEquals("2g", ChartJvmOptions.jvmSize("2Gi"));
    assertThrows(IllegalArgumentException.class, () -> ChartJvmOptions.jvmSize("512M"));
  }
}
