package io.kuik.model.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An ImageMirror ({@code kuik.enix.io/v1alpha1}, cluster-scoped): a registry path that holds copies
 * of images, and the credential to pull them from it (docs/behaviour.md#routing-resources). The
 * typed form of the resource as the API server stores it; {@link
 * io.kuik.model.RoutingResources#from(ImageMirror)} turns it into the domain's {@link
 * io.kuik.model.RoutingResource}.
 */
@Group(ImageAlternative.GROUP)
@Version(ImageAlternative.VERSION)
@AdditionalPrinterColumn(
    name = "Policy",
    jsonPath = ".spec.rewritePolicy",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "OnFailure, Always or None")
@AdditionalPrinterColumn(
    name = "Destination",
    jsonPath = ".spec.destination.path",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "the registry path images are mirrored under")
@AdditionalPrinterColumn(
    name = "Valid",
    jsonPath = RoutingResourceStatus.VALID_STATUS_PATH,
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "True when the controllers can use it; False with a reason otherwise")
@AdditionalPrinterColumn(
    name = "Credentials",
    jsonPath = RoutingResourceStatus.CREDENTIALS_STATUS_PATH,
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription =
        "True when the registries accept every credential it injects; False when one refused")
@AdditionalPrinterColumn(
    name = "Reason",
    jsonPath = RoutingResourceStatus.VALID_REASON_PATH,
    type = AdditionalPrinterColumn.Type.STRING,
    priority = 1,
    getDescription = "why it is valid or not")
@AdditionalPrinterColumn(
    name = "Namespaces",
    jsonPath = RoutingResourceStatus.NAMESPACES_PATH,
    type = AdditionalPrinterColumn.Type.INTEGER,
    getDescription = "namespaces where the syncer's last apply of its Secret holds a credential")
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
@ShortNames("imgmirror")
@Categories("kuik")
@ValidationRule(value = "has(self.spec)", message = "spec is required")
public class ImageMirror extends CustomResource<ImageMirrorSpec, RoutingResourceStatus> {

  /** No status until the secret-syncer writes one. */
  @Override
  protected RoutingResourceStatus initStatus() {
    return null;
  }
}
