package io.kuik.sim.world.object;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Parses a multi-document YAML text into one object per non-empty document, in order. */
public final class YamlDocuments {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private YamlDocuments() {}

  /**
   * @param source names the text in error messages
   * @throws IllegalArgumentException when the text is not YAML, or a document is not a mapping
   */
  public static List<ObjectNode> parse(String text, String source) {
    var documents = new ArrayList<ObjectNode>();
    try (var values = YAML.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
      int index = 0;
      while (values.hasNextValue()) {
        JsonNode document = values.nextValue();
        index++;
        if (document == null || document.isNull() || document.isMissingNode()) {
          continue; // an empty document, e.g. after a trailing "---"
        }
        if (!document.isObject()) {
          throw new IllegalArgumentException(
              source + ": document " + index + " is not a mapping but " + document.getNodeType());
        }
        documents.add((ObjectNode) document);
      }
    } catch (JacksonException e) {
      throw new IllegalArgumentException(source + ": not valid YAML: " + e.getOriginalMessage(), e);
    }
    return List.copyOf(documents);
  }
}
