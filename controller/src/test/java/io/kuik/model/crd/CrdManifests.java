package io.kuik.model.crd;

import io.fabric8.crdv2.generator.CRDGenerator;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CRD manifests of chart/files/crds, generated from the typed routing resources with fabric8's
 * CRD generator: the Java model is the source, the YAML is its output, and {@link CrdManifestsTest}
 * fails when the committed files differ from what the model generates.
 */
final class CrdManifests {

  /** The command that rewrites chart/files/crds from the model; printed by every drift failure. */
  static final String REGENERATE_COMMAND =
      "./mvnw -B -o -pl controller -am test -Dtest=CrdManifestsTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dkuik.crds.write=true";

  static final String HEADER =
      "# Generated from io.kuik.model.crd by CrdManifestsTest: do not edit, regenerate with\n"
          + "#   "
          + REGENERATE_COMMAND
          + "\n";

  private CrdManifests() {}

  /** chart/files/crds, seen from the controller module (where Maven runs its tests). */
  static Path chartCrds() {
    return Path.of(System.getProperty("basedir", ".")).resolve("../chart/files/crds").normalize();
  }

  /** File name in chart/files/crds → the manifest the model generates, header included. */
  static Map<String, String> generate() {
    Map<String, ByteArrayOutputStream> outputs = new TreeMap<>();
    CRDGenerator.CRDOutput<ByteArrayOutputStream> output =
        new CRDGenerator.CRDOutput<>() {
          @Override
          public ByteArrayOutputStream outputFor(String crdName) {
            return outputs.computeIfAbsent(crdName, name -> new ByteArrayOutputStream());
          }

          @Override
          public void close() {}
        };
    new CRDGenerator()
        .customResourceClasses(ImageAlternative.class, ImageMirror.class)
        .forCRDVersions("v1")
        .withMinQuotes(true)
        .withOutput(output)
        .generate();
    Map<String, String> manifests = new TreeMap<>();
    outputs.forEach(
        (crdName, bytes) ->
            manifests.put(
                fileName(crdName),
                HEADER + withoutGeneratorBanner(bytes.toString(StandardCharsets.UTF_8))));
    return manifests;
  }

  /** The generator names its outputs {@code <plural>.<group>-<crd api version>}. */
  private static String fileName(String crdName) {
    return crdName.replaceFirst("-v1$", "") + ".yaml";
  }

  /** Our header replaces the generator's own, which says "might get overwritten". */
  private static String withoutGeneratorBanner(String yaml) {
    return yaml.startsWith("#") ? yaml.substring(yaml.indexOf('\n') + 1) : yaml;
  }
}
