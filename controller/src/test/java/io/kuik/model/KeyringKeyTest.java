package io.kuik.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How the kubelet files an {@code auths} key (kubernetes/kubernetes
 * pkg/credentialprovider/keyring.go, {@code BasicDockerKeyring.Add}: the key read by Go's {@code
 * net/url.Parse}, then host and decoded path) and which images it serves ({@code URLsMatchStr},
 * {@code SplitURL}), down to the characters Go's parser accepts at each edge of its ranges.
 */
class KeyringKeyTest {

  @ParameterizedTest(name = "{0} is filed under {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      nullValues = "none",
      textBlock =
          """
          # auths key                         | filed under (none: Go refuses the URL)
          quay.io                             | quay.io
          quay.io/                            | quay.io
          https://quay.io/v1/                 | quay.io
          quay.io/v2/acme                     | quay.io/acme
          quay.io/acme?tag=1                  | quay.io/acme
          quay.io/acme#part                   | quay.io/acme
          quay.io/acme#%41                    | quay.io/acme
          quay.io/acme#%4                     | none
          quay.io/%30%39                      | quay.io/09
          quay.io/%6a%6f%6A%6F                | quay.io/jojo
          quay.io/%7a%41%5A                   | quay.io/zAZ
          quay.io/%6g                         | none
          quay.io/%G6                         | none
          quay.io/%6                          | none
          quay.io/%                           | none
          azAZ09@quay.io                      | quay.io
          -._:~!$&'()*+,;=%41@quay.io         | quay.io
          a{b@quay.io                         | none
          a%4@quay.io                         | none
          a@b@quay.io                         | quay.io
          quay.io:5000                        | quay.io:5000
          quay.io:                            | quay.io:
          quay.io:50a0                        | none
          [::1]:5000                          | [::1]:5000
          [::1]                               | [::1]
          [::1:5000                           | none
          azAZ09-._~.example.com              | azAZ09-._~.example.com
          a{b.example.com                     | none
          a`b.example.com                     | none
          %C3%A9.example.com                  | é.example.com
          %c3%a9.example.com                  | é.example.com
          %25.example.com                     | %.example.com
          %41.example.com                     | none
          %7F.example.com                     | none
          %C3.example.com%                    | none
          x%C.example.com                     | none
          quay.io/acme?tag=%#1                | quay.io/acme
          quay.io/acme#%0A                    | quay.io/acme
          quay.io/a b                         | quay.io/a b
          ?tag=1                              | ""
          /acme                               | /acme
          @quay.io                            | quay.io
          :abc                                | none
          example.com%C                       | none
          %C3%A0.example.com                  | à.example.com
          %C4%81.example.com                  | ā.example.com
          """)
  void isFiledAsTheKubeletFilesIt(String authsKey, String filed) {
    assertEquals(
        Optional.ofNullable(filed), KeyringKey.of(authsKey).map(KeyringKey::filed), authsKey);
  }

  @ParameterizedTest(name = "{0} serves {1}: {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # filed under                 | image                      | serves
          [::1]:5000                    | [::1]:5000/app             | true
          [::1]:5000                    | [::1]:5001/app             | false
          [::1]:5000                    | [::1]/app                  | false
          a:b:5000                      | a:b:5000/app               | true
          a:b                           | a:c/app                    | false
          quay.io:5000                  | quay.io:5000/app           | true
          quay.io:5000                  | quay.io:50000/app          | false
          quay.io/acme                  | quay.io/acme               | true
          quay.io/acme                  | quay.io/acm                | false
          quay.i*:5000                  | quay.io:5000/app           | true
          quay.io                       | a.quay.io/app              | false
          quay.io                       | docker.io/app              | false
          reg[0-9].example.com          | reg1.example.com/app       | true
          reg[0-9].example.com:5000     | reg1.example.com:5000/app  | false
          """)
  void servesTheImagesTheKubeletMatchesToIt(String filed, String image, boolean serves) {
    assertEquals(serves, new KeyringKey(filed).serves(image));
  }

  @ParameterizedTest(name = "{0} goes to Docker Hub: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          nginx                         | true
          library/nginx                 | true
          docker.io/library/nginx       | true
          index.docker.io/acme/app      | true
          localhost/app                 | true
          quay.io/acme/app              | false
          localhost:5000/app            | false
          """)
  void imagesOfDockerHubByTheKubeletsReading(String image, boolean hub) {
    assertEquals(hub, KeyringKey.goesToDockerHub(image));
  }

  @Test
  void aHostCharacterJustAboveAsciiIsTakenAsAnyOtherNonAsciiOne() {
    assertEquals(
        Optional.of("\u0080.example.com"),
        KeyringKey.of("\u0080.example.com").map(KeyringKey::filed));
  }

  @ParameterizedTest(name = "{0} matches the one host {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      nullValues = "none",
      textBlock =
          """
          # filed under                 | exact host (none: a glob)
          quay.io                       | quay.io
          quay.io:5000                  | quay.io
          :5000                         | ""
          [::1]:5000                    | ::1
          ]a:5000                       | ]a:5000
          *.example.com                 | none
          reg[0-9].example.com          | none
          reg[0-9].example.com:5000     | none
          """)
  void aKeyWithoutAGlobMatchesItsHostWithoutThePort(String filed, String exactHost) {
    assertEquals(exactHost, new KeyringKey(filed).matcher().orElseThrow().exactHost());
  }

  @Test
  void theKubeletTriesKeysInReverseByteOrderOfTheirFiling() {
    List<String> tried =
        Stream.of("*.example.com", "quay.io", "é.example.com", "a.example.com", "quay.io/acme")
            .map(KeyringKey::new)
            .sorted(Comparator.reverseOrder())
            .map(KeyringKey::filed)
            .toList();

    assertEquals(
        List.of("é.example.com", "quay.io/acme", "quay.io", "a.example.com", "*.example.com"),
        tried);
  }
}
