package io.kuik.model.crd;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An ImageAlternative ({@code kuik.enix.io/v1alpha1}, cluster-scoped): other repositories that can
 * serve the images of some repositories (docs/behaviour.md#routing-resources). The typed form of
 * the resource as the API server stores it; {@link
 * io.kuik.model.RoutingResources#from(ImageAlternative)} turns it into the domain's {@link
 * io.kuik.model.RoutingResource}.
 */
@Group(ImageAlternative.GROUP)
@Version(ImageAlternative.VERSION)
@AdditionalPrinterColumn(
    name = "Policy",
    jsonPath = ".spec.rewritePolicy",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "OnFailure or Always")
@AdditionalPrinterColumn(
    name = "Repositories",
    jsonPath = ".spec.alternatives[*].repository",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "the entries given as repositories, in order")
@AdditionalPrinterColumn(
    name = "Groups",
    jsonPath = ".spec.alternatives[*].repositoryGroup",
    type = AdditionalPrinterColumn.Type.STRING,
    getDescription = "the entries given as repository groups, in order")
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
@ShortNames("imgalt")
@Categories("kuik")
@ValidationRule(value = "has(self.spec)", message = "spec is required")
public class ImageAlternative extends CustomResource<ImageAlternativeSpec, RoutingResourceStatus> {
  public static final String GROUP = "kuik.enix.io";
  public static final String VERSION = "v1alpha1";

  /** No status until the secret-syncer writes one. */
  @Override
  protected RoutingResourceStatus initStatus() {
    return null;
  }
}
