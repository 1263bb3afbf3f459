import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * One {@code mutations.xml} from a whole run and the runs that came after it over some of its
 * classes, with tests added since: each mutation of the whole run, taken from a later run where that
 * one detected it. The mutations are matched by class, method, signature, line, mutator and index,
 * so the production code must be the same in every run; a mutation of a later run that the whole
 * run does not hold means it is not, and the merge stops.
 *
 * <p>{@code java scripts/pit/PitMerge.java WHOLE.xml LATER.xml... > merged.xml}, then {@code
 * PitTable} on {@code merged.xml}.
 */
public class PitMerge {

  public static void main(String[] args) throws Exception {
    Document whole = read(Path.of(args[0]));
    Map<String, Element> detectedLater = new HashMap<>();
    for (String later : List.of(args).subList(1, args.length)) {
      NodeList mutations = read(Path.of(later)).getElementsByTagName("mutation");
      for (int i = 0; i < mutations.getLength(); i++) {
        Element m = (Element) mutations.item(i);
        if (m.getAttribute("detected").equals("true")) {
          detectedLater.put(key(m), m);
        }
      }
    }
    NodeList mutations = whole.getElementsByTagName("mutation");
    Map<String, Element> byKey = new HashMap<>();
    for (int i = 0; i < mutations.getLength(); i++) {
      Element m = (Element) mutations.item(i);
      byKey.put(key(m), m);
    }
    int taken = 0;
    for (Map.Entry<String, Element> later : detectedLater.entrySet()) {
      Element m = byKey.get(later.getKey());
      if (m == null) {
        System.err.println("not in the whole run, the code differs: " + later.getKey());
        System.exit(1);
      }
      if (!m.getAttribute("detected").equals("true")) {
        Node replacement = whole.importNode(later.getValue(), true);
        m.getParentNode().replaceChild(replacement, m);
        taken++;
      }
    }
    System.err.println(taken + " mutations detected by the later runs only");
    StringWriter out = new StringWriter();
    var transformer = TransformerFactory.newInstance().newTransformer();
    transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
    transformer.transform(new DOMSource(whole), new StreamResult(out));
    System.out.println(out);
  }

  private static Document read(Path report) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile());
  }

  private static String key(Element m) {
    return String.join(
        " ",
        text(m, "mutatedClass"),
        text(m, "mutatedMethod"),
        text(m, "methodDescription"),
        text(m, "lineNumber"),
        text(m, "mutator"),
        text(m, "indexes"));
  }

  private static String text(Element m, String tag) {
    return m.getElementsByTagName(tag).item(0).getTextContent().trim();
  }
}
