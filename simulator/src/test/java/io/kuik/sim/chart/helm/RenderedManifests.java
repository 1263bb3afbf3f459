package io.kuik.sim.chart.helm;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The objects of one {@code helm template} output, parsed, in output order. */
final class RenderedManifests {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private final String text;
  private final List<JsonNode> objects;

  private RenderedManifests(String text, List<JsonNode> objects) {
    this.text = text;
    this.objects = List.copyOf(objects);
  }

  /** Parses a multi-document YAML stream; empty documents (comments only) are dropped. */
  static RenderedManifests parse(String text) {
    List<JsonNode> objects = new ArrayList<>();
    try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(text)) {
      while (documents.hasNext()) {
        JsonNode document = documents.next();
        if (document != null && document.isObject() && !document.isEmpty()) {
          objects.add(document);
        }
      }
    }
    return new RenderedManifests(text, objects);
  }

  /** The raw output, as helm printed it. */
  String text() {
    return text;
  }

  List<JsonNode> all() {
    return objects;
  }

  Set<String> kinds() {
    return objects.stream()
        .map(RenderedManifests::kind)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  List<JsonNode> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(kind(o))).toList();
  }

  /** The only object of that kind and name; fails naming what is there instead. */
  JsonNode one(String kind, String name) {
    List<JsonNode> found = ofKind(kind).stream().filter(o -> name.equals(name(o))).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          "expected exactly one "
              + kind
              + " named "
              + name
              + ", found "
              + found.size()
              + " among "
              + ofKind(kind).stream().map(RenderedManifests::name).toList());
    }
    return found.get(0);
  }

  /** The only object of that kind; fails when there are none or several. */
  JsonNode only(String kind) {
    List<JsonNode> found = ofKind(kind);
    if (found.size() != 1) {
      throw new AssertionError(
          "expected exactly one "
              + kind
              + ", found "
              + found.stream().map(RenderedManifests::name).toList());
    }
    return found.get(0);
  }

  /** The one object of that kind named {@code <fullname>-pull-secrets}: the Secrets' policy. */
  JsonNode pullSecrets(String kind) {
    List<JsonNode> found =
        ofKind(kind).stream().filter(o -> name(o).endsWith("-pull-secrets")).toList();
    if (found.size() != 1) {
      throw new AssertionError(
          "expected exactly one "
              + kind
              + " *-pull-secrets, found "
              + ofKind(kind).stream().map(RenderedManifests::name).toList());
    }
    return found.get(0);
  }

  static String kind(JsonNode object) {
    return object.path("kind").asString("");
  }

  static String name(JsonNode object) {
    return object.path("metadata").path("name").asString("");
  }

  /** The object's namespace, or {@code null} when the manifest names none. */
  static String namespace(JsonNode object) {
    JsonNode ns = object.path("metadata").path("namespace");
    return ns.isMissingNode() || ns.isNull() ? null : ns.asString();
  }

  static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    for (JsonNode value : array.values()) {
      values.add(value.asString());
    }
    return values;
  }
}
