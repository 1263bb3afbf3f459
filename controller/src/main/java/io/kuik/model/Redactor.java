package io.kuik.model;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Takes every form of a set of credentials out of a text (docs/decisions/
 * 0060-redaction-as-a-property.md): each text kuik writes (status, Events, log lines) passes one,
 * so that a registry that echoes what it was sent leaks nothing through kuik. The forms of a
 * credential: the password, {@code user:password} in base64 (padded or not, standard or URL-safe),
 * the identity and registry tokens, each also URL-encoded (as a form or a path encodes it) and
 * JSON-escaped; any other secret added (a Bearer token a realm gave). A text cut short ({@code ...}
 * or {@code …} at its end) loses the start of a form cut there too. Immutable, thread-safe.
 */
public final class Redactor {

  /** What a form is replaced with. */
  public static final String MARK = "<redacted>";

  /** The shortest form looked for. */
  public static final int SHORTEST = 4;

  /** A form cut at the end of a text is taken out from this many characters on. */
  static final int CUT_PREFIX = 4;

  private static final Redactor NONE = new Redactor(List.of());

  /** Longest first, so that a form inside a longer one never leaves the rest of that one. */
  private final List<String> forms;

  private Redactor(List<String> forms) {
    this.forms = forms;
  }

  public static Redactor none() {
    return NONE;
  }

  /** A redactor of every form of each credential. */
  public static Redactor of(Collection<RegistryCredential> credentials) {
    return NONE.with(credentials);
  }

  /** This redactor and every form of each credential. */
  public Redactor with(Collection<RegistryCredential> credentials) {
    Set<String> more = new LinkedHashSet<>(forms);
    for (RegistryCredential credential : credentials) {
      if (credential != null) {
        more.addAll(formsOf(credential));
      }
    }
    return of(more);
  }

  /** This redactor and {@code secret} (a token a realm gave), in each of its forms. */
  public Redactor withSecret(String secret) {
    Set<String> more = new LinkedHashSet<>(forms);
    more.addAll(encodings(secret));
    return of(more);
  }

  public boolean isEmpty() {
    return forms.isEmpty();
  }

  /** The text without any form of the credentials; null stays null. */
  public String redact(String text) {
    if (text == null || text.isEmpty() || forms.isEmpty()) {
      return text;
    }
    String out = text;
    for (String form : forms) {
      if (out.contains(form)) {
        out = out.replace(form, MARK);
      }
    }
    return cutAtTheEnd(out);
  }

  /** The verdict with its answer redacted. */
  public TrialVerdict redact(TrialVerdict verdict) {
    String answer = redact(verdict.answer());
    return answer.equals(verdict.answer()) ? verdict : new TrialVerdict(verdict.outcome(), answer);
  }

  /** Whether any form shows in the text, whole: what a test asserts never happens. */
  public boolean shows(String text) {
    return text != null && forms.stream().anyMatch(text::contains);
  }

  /** Every form of the credential this redactor takes out, for tests. */
  public static Set<String> formsOf(RegistryCredential credential) {
    Set<String> forms = new LinkedHashSet<>();
    if (credential.password() != null) {
      forms.addAll(encodings(credential.password()));
      String pair =
          (credential.username() == null ? "" : credential.username())
              + ":"
              + credential.password();
      byte[] bytes = pair.getBytes(StandardCharsets.UTF_8);
      String padded = Base64.getEncoder().encodeToString(bytes);
      String urlSafe = Base64.getUrlEncoder().encodeToString(bytes);
      forms.add(padded);
      forms.add(strip(padded));
      forms.add(urlSafe);
      forms.add(strip(urlSafe));
    }
    if (credential.identityToken() != null) {
      forms.addAll(encodings(credential.identityToken()));
    }
    if (credential.registryToken() != null) {
      forms.addAll(encodings(credential.registryToken()));
    }
    forms.removeIf(form -> form.length() < SHORTEST);
    return forms;
  }

  private static Redactor of(Set<String> forms) {
    List<String> sorted = new ArrayList<>(forms);
    sorted.removeIf(form -> form.length() < SHORTEST);
    sorted.sort(Comparator.comparingInt(String::length).reversed().thenComparing(s -> s));
    return sorted.isEmpty() ? NONE : new Redactor(List.copyOf(sorted));
  }

  /** The secret as is, URL-encoded as a form and as a path, and JSON-escaped. */
  private static Set<String> encodings(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    if (secret == null || secret.isEmpty()) {
      return forms;
    }
    forms.add(secret);
    String form = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    forms.add(form);
    forms.add(form.replace("+", "%20"));
    forms.add(json(secret));
    return forms;
  }

  private static String json(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  private static String strip(String base64) {
    int end = base64.length();
    while (end > 0 && base64.charAt(end - 1) == '=') {
      end--;
    }
    return base64.substring(0, end);
  }

  /**
   * A text cut short ends with {@code ...} or {@code …}: a form may have been cut there, its start
   * left. The longest start of a form (at least {@value #CUT_PREFIX} characters, or the whole of a
   * shorter form) the text ends with before that mark goes.
   */
  private String cutAtTheEnd(String text) {
    String mark = text.endsWith("...") ? "..." : text.endsWith("…") ? "…" : null;
    if (mark == null) {
      return text;
    }
    String body = text.substring(0, text.length() - mark.length());
    if (body.isEmpty()) {
      return text;
    }
    char last = body.charAt(body.length() - 1);
    int longest = 0;
    for (String form : forms) {
      int least = Math.max(longest + 1, Math.min(CUT_PREFIX, form.length()));
      for (int n = Math.min(form.length() - 1, body.length()); n >= least; n--) {
        if (form.charAt(n - 1) == last && body.regionMatches(body.length() - n, form, 0, n)) {
          longest = n;
          break;
        }
      }
    }
    return longest == 0 ? text : body.substring(0, body.length() - longest) + MARK + mark;
  }
}
