package io.kuik.model;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The annotations the webhook leaves on a pod it rewrote (docs/behaviour.md#routing-pods), which
 * the syncer follows under OnFailure.
 */
public final class RewriteAnnotations {

  /** The images as the pod was submitted: {@code {"<container>":"<image>"}}. */
  public static final String ORIGINAL_IMAGES = "kuik.enix.io/original-images";

  /** The resource that rewrote each container: {@code {"<container>":"<Kind>/<name>"}}. */
  public static final String REWRITTEN_BY = "kuik.enix.io/rewritten-by";

  /** Why each container was rewritten, for people reading the pod. */
  public static final String REASON = "kuik.enix.io/reason";

  /**
   * The label of every pod the webhook rewrote, with value {@link #REWRITTEN_LABEL_VALUE}: the
   * syncer's pod informer selects it on the API server, so pods kuik left alone cost it nothing
   * (docs/decisions/0032-only-rewritten-pods-and-slim-records.md). The name is kube-image-keeper
   * v1's for the same fact.
   */
  public static final String REWRITTEN_LABEL = "kuik.enix.io/images-rewritten";

  public static final String REWRITTEN_LABEL_VALUE = "true";

  /** The label selector of the syncer's pod list and watch. */
  public static final String REWRITTEN_SELECTOR = REWRITTEN_LABEL + "=" + REWRITTEN_LABEL_VALUE;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private RewriteAnnotations() {}

  /**
   * Reads a {@code {"<container>":"<value>"}} annotation. A missing or malformed annotation reads
   * as empty: a pod someone annotated by hand must not stop the syncer.
   */
  public static Map<String, String> readMap(Map<String, String> annotations, String key) {
    String text = annotations == null ? null : annotations.get(key);
    if (text == null || text.isBlank()) {
      return Map.of();
    }
    try {
      Map<String, String> parsed =
          JSON.readValue(text, new TypeReference<LinkedHashMap<String, String>>() {});
      return parsed == null ? Map.of() : parsed;
    } catch (JacksonException notAMap) {
      return Map.of();
    }
  }

  public static String writeMap(Map<String, String> values) {
    return JSON.writeValueAsString(values);
  }
}
