package io.kuik.sim.world.apply;

import io.kuik.sim.world.object.Json;
import io.kuik.sim.world.object.Meta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code metadata.managedFields}: one entry per (manager, operation), each with the fields it owns
 * in fieldsV1 form, the apiVersion it wrote with, and when its fields last changed.
 */
public final class ManagedFields {

  public static final String APPLY = "Apply";
  public static final String UPDATE = "Update";

  /** One manager's ownership. */
  public record Entry(
      String manager, String operation, String apiVersion, String time, FieldSet fields) {
    public Entry {
      Objects.requireNonNull(manager, "manager");
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(fields, "fields");
    }

    public boolean sameOwner(String manager, String operation) {
      return this.manager.equals(manager) && this.operation.equals(operation);
    }

    Entry withFields(FieldSet fields) {
      return new Entry(manager, operation, apiVersion, time, fields);
    }

    Entry withTime(String time) {
      return new Entry(manager, operation, apiVersion, time, fields);
    }
  }

  private ManagedFields() {}

  public static List<Entry> read(JsonNode object) {
    List<Entry> out = new ArrayList<>();
    for (JsonNode e : object.path("metadata").path("managedFields")) {
      out.add(
          new Entry(
              e.path("manager").asString(""),
              e.path("operation").asString(UPDATE),
              Json.text(e, "apiVersion"),
              Json.text(e, "time"),
              FieldSet.fromFieldsV1(e.path("fieldsV1"))));
    }
    return out;
  }

  /** Writes the entries, dropping those that own nothing; no entry left removes the field. */
  public static void write(ObjectNode object, List<Entry> entries) {
    ArrayNode array = Json.MAPPER.createArrayNode();
    for (Entry e : entries) {
      if (e.fields().isEmpty()) {
        continue;
      }
      ObjectNode node = array.addObject();
      node.put("manager", e.manager());
      node.put("operation", e.operation());
      if (e.apiVersion() != null) {
        node.put("apiVersion", e.apiVersion());
      }
      if (e.time() != null) {
        node.put("time", e.time());
      }
      node.put("fieldsType", "FieldsV1");
      node.set("fieldsV1", e.fields().toFieldsV1());
    }
    if (array.isEmpty()) {
      Meta.metadata(object).remove("managedFields");
    } else {
      Meta.metadata(object).set("managedFields", array);
    }
  }
}
