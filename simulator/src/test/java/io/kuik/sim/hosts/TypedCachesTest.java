package io.kuik.sim.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuik.kube.Records;
import io.kuik.sim.world.object.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * The simulated syncer host reads a pod's record from the JSON the simulated API server sends, the
 * production driver from fabric8's Pod: both must give the core the same record, so that features
 * see what production sees.
 */
class TypedCachesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{metadata: {namespace: team-a, name: web, annotations: {kuik.enix.io/rewritten-by:"
            + " '{\"app\":\"ImageAlternative/acme\"}'}}, spec: {containers: [{name: app, image:"
            + " 'quay.io/acme/app:1'}, {name: side, image: envoy}]}, status: {phase: Running}}",
        "{metadata: {namespace: team-a, name: web, deletionTimestamp: '2026-01-01T00:00:00Z',"
            + " annotations: {kuik.enix.io/rewritten-by: '{\"init\":\"ImageMirror/m\",\"dbg\":"
            + "\"ImageAlternative/a\"}'}}, spec: {initContainers: [{name: init, image: 'busybox:1'}],"
            + " containers: [{name: app, image: nginx}], ephemeralContainers: [{name: dbg, image:"
            + " 'alpine:3'}]}, status: {phase: Succeeded}}",
        "{metadata: {namespace: team-a, name: web, annotations: {kuik.enix.io/rewritten-by: 'not"
            + " json'}}, spec: {containers: [{name: app, image: nginx}]}}",
        "{metadata: {namespace: team-a, name: web}, spec: {containers: [{name: app, image:"
            + " nginx}]}, status: {phase: Pending}}",
      })
  void theHostReadsThePodRecordTheProductionDriverReads(String yaml) {
    ObjectNode pod = Json.yaml(yaml);

    assertEquals(Records.pod(Json.MAPPER.treeToValue(pod, Pod.class)), TypedCaches.podRecord(pod));
  }
}
