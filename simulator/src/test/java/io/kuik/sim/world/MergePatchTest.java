package io.kuik.sim.world;

import static io.kuik.sim.world.Fixture.ADMIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kuik.sim.world.api.ResourceType;
import io.kuik.sim.world.apply.MergePatch;
import io.kuik.sim.world.object.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

class MergePatchTest {

  // The examples of RFC 7386, appendix A: if the target is ..., and the patch is ..., expect ...
  @ParameterizedTest(name = "{0} patched by {1} is {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":\"b\"}|{\"a\":\"c\"}|{\"a\":\"c\"}",
        "{\"a\":\"b\"}|{\"b\":\"c\"}|{\"a\":\"b\",\"b\":\"c\"}",
        "{\"a\":\"b\"}|{\"a\":null}|{}",
        "{\"a\":\"b\",\"b\":\"c\"}|{\"a\":null}|{\"b\":\"c\"}",
        "{\"a\":[\"b\"]}|{\"a\":\"c\"}|{\"a\":\"c\"}",
        "{\"a\":\"c\"}|{\"a\":[\"b\"]}|{\"a\":[\"b\"]}",
        "{\"a\":{\"b\":\"c\"}}|{\"a\":{\"b\":\"d\",\"c\":null}}|{\"a\":{\"b\":\"d\"}}",
        "{\"a\":[{\"b\":\"c\"}]}|{\"a\":[1]}|{\"a\":[1]}",
        "[\"a\",\"b\"]|[\"c\",\"d\"]|[\"c\",\"d\"]",
        "{\"a\":\"b\"}|[\"c\"]|[\"c\"]",
        "{\"e\":null}|{\"a\":1}|{\"e\":null,\"a\":1}",
        "[1,2]|{\"a\":\"b\",\"c\":null}|{\"a\":\"b\"}",
        "{}|{\"a\":{\"bb\":{\"ccc\":null}}}|{\"a\":{\"bb\":{}}}"
      })
  void followsTheRfcExamples(String target, String patch, String expected) {
    assertEquals(
        Json.MAPPER.readTree(expected),
        MergePatch.apply(Json.MAPPER.readTree(target), Json.MAPPER.readTree(patch)));
  }

  @Test
  void aNullInAPatchDeletesTheKeyOfTheStoredObject() {
    Fixture f = new Fixture();
    f.namespace("team-a");
    ObjectNode secret = Fixture.opaque("team-a", "s", "keep", "1");
    secret.withObjectProperty("data").put("drop", Fixture.b64("2"));
    secret.withObjectProperty("metadata").putObject("labels").put("tier", "prod");
    f.api.create(ADMIN, secret);
    ObjectNode patched =
        f.api.mergePatch(
            ADMIN,
            ResourceType.SECRET,
            "team-a",
            "s",
            Json.parse("{\"data\":{\"drop\":null},\"metadata\":{\"labels\":{\"tier\":null}}}"),
            "kubectl-patch");
    assertEquals("1", Fixture.decoded(patched, "keep"));
    assertFalse(patched.path("data").has("drop"));
    assertFalse(patched.path("metadata").has("labels"), "an emptied label map is omitted");
  }
}
