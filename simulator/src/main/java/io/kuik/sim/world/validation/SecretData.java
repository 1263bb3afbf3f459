package io.kuik.sim.world.validation;

import java.util.Base64;

/**
 * Base64 as Go's StdEncoding reads a Secret's {@code data}: padding required, line breaks ignored,
 * anything else outside the alphabet refused with the offset of the first bad byte.
 */
public final class SecretData {

  private SecretData() {}

  /**
   * The decoded bytes.
   *
   * @throws IllegalArgumentException "illegal base64 data at input byte N"
   */
  public static byte[] decode(String encoded) {
    String clean = encoded.replace("\r", "").replace("\n", "");
    int padding = 0;
    for (int i = 0; i < clean.length(); i++) {
      char c = clean.charAt(i);
      boolean alphabet =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '+'
              || c == '/';
      if (c == '=') {
        padding++;
        if (padding > 2 || i < clean.length() - 2 && clean.charAt(i + 1) != '=') {
          throw illegal(i);
        }
      } else if (!alphabet || padding > 0) {
        throw illegal(i);
      }
    }
    if (clean.length() % 4 != 0) {
      throw illegal(clean.length() - clean.length() % 4);
    }
    return Base64.getDecoder().decode(clean);
  }

  public static String encode(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static IllegalArgumentException illegal(int offset) {
    return new IllegalArgumentException("illegal base64 data at input byte " + offset);
  }
}
