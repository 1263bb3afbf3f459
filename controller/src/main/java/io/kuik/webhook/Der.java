package io.kuik.webhook;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The few ASN.1 DER operations needed to turn PKCS#1 RSA and SEC1 EC private keys into PKCS#8,
 * which is all the JDK's key factories read: reading the elements of a SEQUENCE and encoding a tag,
 * length and content.
 */
final class Der {

  static final int INTEGER = 0x02;
  static final int OCTET_STRING = 0x04;
  static final int SEQUENCE = 0x30;
  static final int CONTEXT_0 = 0xA0;

  /** One element: its tag, its content, and the whole encoding (tag and length included). */
  record Element(int tag, byte[] content, byte[] encoded) {}

  private Der() {}

  /** The elements inside a SEQUENCE whose whole encoding is {@code der}. */
  static List<Element> sequence(byte[] der) {
    Element outer = read(der, 0);
    if (outer.tag != SEQUENCE) {
      throw new IllegalArgumentException("not a DER SEQUENCE");
    }
    List<Element> elements = new ArrayList<>();
    int offset = 0;
    byte[] content = outer.content;
    while (offset < content.length) {
      Element element = read(content, offset);
      elements.add(element);
      offset += element.encoded.length;
    }
    return elements;
  }

  static Element read(byte[] der, int offset) {
    if (offset + 2 > der.length) {
      throw new IllegalArgumentException("truncated DER");
    }
    int tag = der[offset] & 0xFF;
    int length = der[offset + 1] & 0xFF;
    int header = 2;
    if (length >= 0x80) {
      int bytes = length & 0x7F;
      if (bytes == 0 || bytes > 3 || offset + 2 + bytes > der.length) {
        throw new IllegalArgumentException("unsupported DER length");
      }
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (der[offset + 2 + i] & 0xFF);
      }
      header += bytes;
    }
    int end = offset + header + length;
    if (end > der.length) {
      throw new IllegalArgumentException("truncated DER");
    }
    return new Element(
        tag, Arrays.copyOfRange(der, offset + header, end), Arrays.copyOfRange(der, offset, end));
  }

  /** Tag, length and the concatenation of {@code parts}. */
  static byte[] encode(int tag, byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      content.writeBytes(part);
    }
    int length = content.size();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    if (length < 0x80) {
      out.write(length);
    } else if (length < 0x100) {
      out.write(0x81);
      out.write(length);
    } else if (length < 0x10000) {
      out.write(0x82);
      out.write(length >> 8);
      out.write(length & 0xFF);
    } else {
      out.write(0x83);
      out.write(length >> 16);
      out.write((length >> 8) & 0xFF);
      out.write(length & 0xFF);
    }
    out.writeBytes(content.toByteArray());
    return out.toByteArray();
  }
}
