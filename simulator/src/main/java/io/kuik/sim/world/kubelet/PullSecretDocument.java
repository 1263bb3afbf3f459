package io.kuik.sim.world.kubelet;

import io.kuik.sim.world.object.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * A pull Secret's docker config as the kubelet decodes it: Go's {@code encoding/json} {@code
 * Unmarshal} into the types of kubernetes/kubernetes {@code pkg/credentialprovider/config.go}
 * ({@code DockerConfigJSON}, {@code DockerConfig}, {@code DockerConfigEntry.UnmarshalJSON}, {@code
 * decodeDockerConfigFieldAuth}). What that accepts and refuses, from the {@code encoding/json}
 * documentation (https://pkg.go.dev/encoding/json#Unmarshal):
 *
 * <ul>
 *   <li>object keys match struct fields case-insensitively ({@code Auths}, {@code USERNAME}); other
 *       keys are ignored, whatever their value ({@code email}, {@code identitytoken}, {@code
 *       credsStore}); so only a user name and a password survive;
 *   <li>{@code null} leaves a field as it was: a {@code null} document or {@code auths} holds
 *       nothing, a {@code null} entry is an entry without credential, a later {@code "username":
 *       null} keeps the earlier user name;
 *   <li>a value of the wrong JSON type ({@code "auths": []}, {@code "username": 1}, an entry that
 *       is a string, an {@code HttpHeaders} value that is not a string) is an error, and so is any
 *       syntax error or text after the document;
 *   <li>a key given twice: the later entry replaces the earlier; a second {@code auths} object adds
 *       its keys to the first;
 *   <li>a non-empty {@code auth} replaces user name and password: standard base64 (padded when it
 *       ends with {@code =} once trimmed, unpadded otherwise; line breaks skipped) of {@code
 *       user:password}, split at the first colon; anything else is an error;
 *   <li>invalid UTF-8 becomes U+FFFD instead of failing.
 * </ul>
 *
 * One error fails the whole document, as {@code MakeDockerKeyring} then returns it. Keys come back
 * in the order the document first lists them (Go's map has none; this is one of its orders).
 */
final class PullSecretDocument {

  private PullSecretDocument() {}

  /** One {@code auths} key as written, and the user name and password it holds (maybe empty). */
  record Credential(String key, String username, String password) {}

  /** Why Go's decoder refuses the document, in words that never hold a credential. */
  static final class Undecodable extends Exception {
    private static final long serialVersionUID = 1L;

    Undecodable(String message) {
      super(message, null, false, false);
    }
  }

  /** A {@code .dockerconfigjson}: {@code {"auths": {...}, "HttpHeaders": {...}}}. */
  static List<Credential> dockerConfigJson(byte[] document) throws Undecodable {
    return read(document, false);
  }

  /** A legacy {@code .dockercfg}: the {@code auths} object alone. */
  static List<Credential> dockercfg(byte[] document) throws Undecodable {
    return read(document, true);
  }

  private static List<Credential> read(byte[] document, boolean legacy) throws Undecodable {
    Map<String, Credential> auths = new LinkedHashMap<>();
    String text = new String(document, StandardCharsets.UTF_8);
    try (JsonParser parser = Json.MAPPER.createParser(text)) {
      JsonToken root = parser.nextToken();
      if (root == null) {
        throw new Undecodable("unexpected end of JSON input");
      }
      if (legacy) {
        readAuths(parser, auths, "the document");
      } else if (root == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          if (field.equalsIgnoreCase("auths")) {
            readAuths(parser, auths, "auths");
          } else if (field.equalsIgnoreCase("HttpHeaders")) {
            readHeaders(parser);
          } else {
            parser.skipChildren();
          }
        }
      } else if (root != JsonToken.VALUE_NULL) {
        throw new Undecodable("cannot unmarshal " + kind(root) + " into DockerConfigJSON");
      }
      if (parser.nextToken() != null) {
        throw new Undecodable("invalid character after top-level value");
      }
    } catch (JacksonException e) {
      // Jackson's message may quote the text it stopped at, which may be a password.
      throw new Undecodable("not valid JSON");
    }
    return new ArrayList<>(auths.values());
  }

  private static void readAuths(JsonParser parser, Map<String, Credential> auths, String where)
      throws Undecodable {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return;
    }
    if (token != JsonToken.START_OBJECT) {
      throw new Undecodable("cannot unmarshal " + kind(token) + " into " + where);
    }
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      String key = parser.currentName();
      parser.nextToken();
      auths.put(key, entry(parser, key));
    }
  }

  /** {@code DockerConfigEntry.UnmarshalJSON}: the entry's own fields, then its {@code auth}. */
  private static Credential entry(JsonParser parser, String key) throws Undecodable {
    JsonToken token = parser.currentToken();
    String username = "";
    String password = "";
    String auth = "";
    if (token == JsonToken.START_OBJECT) {
      while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        boolean known =
            field.equalsIgnoreCase("username")
                || field.equalsIgnoreCase("password")
                || field.equalsIgnoreCase("email")
                || field.equalsIgnoreCase("auth");
        if (!known) {
          parser.skipChildren();
          continue;
        }
        if (value == JsonToken.VALUE_NULL) {
          continue;
        }
        if (value != JsonToken.VALUE_STRING) {
          throw new Undecodable(
              "cannot unmarshal " + kind(value) + " into " + field.toLowerCase() + " of " + key);
        }
        String text = parser.getString();
        if (field.equalsIgnoreCase("username")) {
          username = text;
        } else if (field.equalsIgnoreCase("password")) {
          password = text;
        } else if (field.equalsIgnoreCase("auth")) {
          auth = text;
        }
      }
    } else if (token != JsonToken.VALUE_NULL) {
      throw new Undecodable("cannot unmarshal " + kind(token) + " into the entry " + key);
    }
    if (auth.isEmpty()) {
      return new Credential(key, username, password);
    }
    String pair = decodeAuth(auth, key);
    int colon = pair.indexOf(':');
    if (colon < 0) {
      throw new Undecodable("unable to parse auth field of " + key);
    }
    return new Credential(key, pair.substring(0, colon), pair.substring(colon + 1));
  }

  /** Padded base64 when the trimmed field ends with {@code =}, unpadded otherwise. */
  private static String decodeAuth(String auth, String key) throws Undecodable {
    String data = auth.replace("\r", "").replace("\n", "");
    boolean padded = auth.strip().endsWith("=");
    boolean shaped = padded ? data.length() % 4 == 0 : data.indexOf('=') < 0;
    try {
      if (!shaped) {
        throw new IllegalArgumentException();
      }
      return new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Undecodable("illegal base64 data in the auth field of " + key);
    }
  }

  private static void readHeaders(JsonParser parser) throws Undecodable {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return;
    }
    if (token != JsonToken.START_OBJECT) {
      throw new Undecodable("cannot unmarshal " + kind(token) + " into HttpHeaders");
    }
    while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
      JsonToken value = parser.nextToken();
      if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL) {
        throw new Undecodable("cannot unmarshal " + kind(value) + " into an HttpHeaders value");
      }
    }
  }

  /** The JSON kind as Go's errors name it. */
  private static String kind(JsonToken token) {
    switch (token) {
      case START_OBJECT:
        return "object";
      case START_ARRAY:
        return "array";
      case VALUE_STRING:
        return "string";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "bool";
      default:
        return "number";
    }
  }
}
