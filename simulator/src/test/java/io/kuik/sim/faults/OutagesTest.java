package io.kuik.sim.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kuik.sim.Cluster;
import io.kuik.sim.actors.People;
import io.kuik.sim.trace.Note;
import io.kuik.sim.world.ApiException;
import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.kubelet.Kubelet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutagesTest {

  private final Cluster cluster = Cluster.create(23);

  private String answerAt(long second, io.kuik.sim.world.api.Identity who) {
    cluster.loop().runUntil(cluster.loop().start().plusSeconds(second));
    try {
      cluster.api().get(who, ResourceType.NAMESPACE, null, "default");
      return "200";
    } catch (ApiException e) {
      return e.code() + " " + e.reason();
    }
  }

  @Test
  void anOutageAnswers503ToEveryoneDuringTheWindowOnly() {
    cluster
        .outages()
        .apiServerUnavailableAt(cluster.loop().start().plusSeconds(10), Duration.ofSeconds(30));

    List<String> answers = new ArrayList<>();
    for (long second : new long[] {9, 10, 25, 39}) {
      answers.add(answerAt(second, People.ALICE));
    }
    answers.add(answerAt(39, Kubelet.IDENTITY));
    answers.add(answerAt(40, People.ALICE));

    assertEquals(
        List.of(
            "200",
            "503 ServiceUnavailable",
            "503 ServiceUnavailable",
            "503 ServiceUnavailable",
            "503 ServiceUnavailable",
            "200"),
        answers);
    assertEquals(
        List.of(true, false),
        cluster.trace().records().stream()
            .filter(r -> r instanceof Note.FaultWindow w && w.fault() == Note.Fault.API_OUTAGE)
            .map(r -> ((Note.FaultWindow) r).opens())
            .toList(),
        "the window opens, then heals");
    assertEquals(
        List.of("OUTAGE", "RECOVERED"),
        cluster.trace().where(r -> r instanceof Note).stream()
            .map(r -> r.columns().action())
            .toList(),
        "as the timeline says it");
  }
}
