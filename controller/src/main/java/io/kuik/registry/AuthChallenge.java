package io.kuik.registry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One challenge of a {@code WWW-Authenticate} header (RFC 7235): a scheme and its parameters, e.g.
 * {@code Bearer realm="https://auth.docker.io/token",service="registry.docker.io"}. Parameter names
 * are lower-cased; values unquoted.
 */
public record AuthChallenge(String scheme, Map<String, String> parameters) {

  public AuthChallenge {
    scheme = scheme.toLowerCase(Locale.ROOT);
    parameters = Map.copyOf(parameters);
  }

  public boolean isBearer() {
    return scheme.equals("bearer");
  }

  public boolean isBasic() {
    return scheme.equals("basic");
  }

  public String parameter(String name) {
    return parameters.get(name);
  }

  /** The challenge to answer among a response's headers: Bearer first, then Basic. */
  public static Optional<AuthChallenge> select(List<String> headerValues) {
    List<AuthChallenge> all = new ArrayList<>();
    for (String value : headerValues) {
      all.addAll(parse(value));
    }
    Optional<AuthChallenge> bearer = all.stream().filter(AuthChallenge::isBearer).findFirst();
    return bearer.isPresent() ? bearer : all.stream().filter(AuthChallenge::isBasic).findFirst();
  }

  /**
   * Every challenge in one header value. Tolerant: a malformed parameter ends the parse of its
   * challenge, never the request.
   */
  public static List<AuthChallenge> parse(String header) {
    List<AuthChallenge> challenges = new ArrayList<>();
    Cursor cursor = new Cursor(header);
    while (cursor.skipSeparators()) {
      String scheme = cursor.token();
      if (scheme.isEmpty()) {
        break;
      }
      Map<String, String> parameters = new LinkedHashMap<>();
      while (true) {
        int mark = cursor.position;
        cursor.skipSpaces();
        String name = cursor.token();
        cursor.skipSpaces();
        if (name.isEmpty() || !cursor.consume('=')) {
          // Not "name=": the next challenge's scheme (or token68, which registries do not use).
          cursor.position = mark;
          break;
        }
        cursor.skipSpaces();
        parameters.put(name.toLowerCase(Locale.ROOT), cursor.value());
        cursor.skipSpaces();
        if (!cursor.consume(',')) {
          break;
        }
      }
      challenges.add(new AuthChallenge(scheme, parameters));
    }
    return challenges;
  }

  private static final class Cursor {
    private final String text;
    private int position;

    Cursor(String text) {
      this.text = text == null ? "" : text;
    }

    boolean skipSeparators() {
      while (position < text.length()
          && (text.charAt(position) == ',' || Character.isWhitespace(text.charAt(position)))) {
        position++;
      }
      return position < text.length();
    }

    void skipSpaces() {
      while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
        position++;
      }
    }

    boolean consume(char c) {
      if (position < text.length() && text.charAt(position) == c) {
        position++;
        return true;
      }
      return false;
    }

    String token() {
      int start = position;
      while (position < text.length()) {
        char c = text.charAt(position);
        if (Character.isWhitespace(c) || c == '=' || c == ',' || c == '"') {
          break;
        }
        position++;
      }
      return text.substring(start, position);
    }

    String value() {
      if (!consume('"')) {
        return token();
      }
      StringBuilder value = new StringBuilder();
      while (position < text.length()) {
        char c = text.charAt(position++);
        if (c == '"') {
          return value.toString();
        }
        if (c == '\\' && position < text.length()) {
          c = text.charAt(position++);
        }
        value.append(c);
      }
      return value.toString();
    }
  }
}
