/*
 * How much of a Java library's documentation reaches its generated pages.
 *
 * Reads every source file of SOURCE with javac's own parser (JavacTask.parse(), no
 * attribution) and each declaration's Javadoc with DocTrees, and takes the public documented
 * declarations: public or protected classes, interfaces, enums, records and annotation types
 * inside public types (a top-level type must be public), their public and protected methods,
 * constructors and fields, interface members unless private, and enum constants; nothing in a
 * package with an `internal` or `impl` segment, nothing in test, benchmark, example or sample
 * folders, no package-info.java or module-info.java. For each it checks that the summary
 * javadoc shows (DocCommentTree.getFirstSentence(), {@code x} as x, {@link a.b.Type#m(A)} as
 * Type.m(A), {@link #m(A)} as m(A), HTML tags dropped, entities decoded) is on the page
 * `docsd generate SOURCE --out OUT` wrote for its file; markup (links, backticks, asterisks)
 * and whitespace are ignored in the comparison. It also counts the rows of the pages' API
 * tables that name a declaration javac finds only in private places. Prints a JSON summary
 * and, with --misses, what was not found.
 *
 * Usage: java scripts/quality/JavaDocCoverage.java SOURCE OUT [--misses]
 */

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.doctree.DocTree;
import com.sun.source.doctree.EntityTree;
import com.sun.source.doctree.ErroneousTree;
import com.sun.source.doctree.LinkTree;
import com.sun.source.doctree.LiteralTree;
import com.sun.source.doctree.ReferenceTree;
import com.sun.source.doctree.TextTree;
import com.sun.source.doctree.UnknownInlineTagTree;
import com.sun.source.doctree.ValueTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaDocCoverage {
  static final Set<String> SKIP_PARTS = Set.of("test", "tests", "testing", "androidtest", "jmh", "benchmark",
      "benchmarks", "example", "examples", "sample", "samples");
  static final Set<String> IMPLEMENTATION = Set.of("internal", "impl");
  static final Pattern ROW = Pattern.compile("^\\| \\[`([^`]+)`\\]", Pattern.MULTILINE);
  static final Pattern MD_LINK = Pattern.compile("\\[([^\\[\\]]*)\\]\\([^)]*\\)");
  static final Pattern PACKAGE_PREFIX = Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+(?=[A-Za-z_$])");

  record Declaration(String name, String simpleName, long line, boolean open, DocCommentTree doc) {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.out.println("Usage: java scripts/quality/JavaDocCoverage.java SOURCE OUT [--misses]");
      System.exit(2);
    }
    Path source = Path.of(args[0]).toAbsolutePath().normalize();
    Path out = Path.of(args[1]);
    boolean showMisses = List.of(args).contains("--misses");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(source)) {
      files = walk.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
          .filter(p -> {
            Path relative = source.relativize(p);
            String name = relative.getFileName().toString();
            if (name.equals("package-info.java") || name.equals("module-info.java")) return false;
            for (int i = 0; i < relative.getNameCount() - 1; i++) {
              if (SKIP_PARTS.contains(relative.getName(i).toString().toLowerCase(Locale.ROOT))) return false;
            }
            return true;
          })
          .sorted().collect(Collectors.toList());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager manager = compiler.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8);
    Iterable<? extends JavaFileObject> units = manager.getJavaFileObjectsFromPaths(files);
    // Diagnostics (a syntax this javac does not know) go nowhere; the parser recovers.
    JavacTask task = (JavacTask) compiler.getTask(new StringWriter(), manager, d -> {}, List.of("-proc:none"),
        null, units);
    DocTrees docTrees = DocTrees.instance(task);
    SourcePositions positions = docTrees.getSourcePositions();
    int total = 0, found = 0, apiRows = 0, privateRows = 0;
    List<String> misses = new ArrayList<>();
    for (CompilationUnitTree unit : task.parse()) {
      Path path = Path.of(unit.getSourceFile().toUri()).toAbsolutePath().normalize();
      String relative = source.relativize(path).toString();
      boolean visible = true;
      if (unit.getPackageName() != null) {
        for (String segment : unit.getPackageName().toString().split("\\.")) {
          if (IMPLEMENTATION.contains(segment)) visible = false;
        }
      }
      List<Declaration> declarations = new ArrayList<>();
      for (Tree tree : unit.getTypeDecls()) {
        if (tree instanceof ClassTree type) {
          boolean open = visible && type.getModifiers().getFlags().contains(Modifier.PUBLIC);
          walk(new TreePath(new TreePath(unit), type), "", open, docTrees, positions, declarations);
        }
      }
      Path page = out.resolve("files").resolve(relative + ".md");
      String pageText = Files.exists(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
      String normalisedPage = normalise(pageText);
      for (Declaration d : declarations) {
        if (!d.open() || d.doc() == null) continue;
        String sentence = normalise(render(d.doc().getFirstSentence()));
        if (sentence.isEmpty()) continue;
        sentence = sentence.substring(0, Math.min(80, sentence.length()));
        total++;
        if (normalisedPage.contains(sentence)) {
          found++;
        } else {
          misses.add(relative + ":" + d.line() + ": " + d.name() + ": " + sentence);
        }
      }
      // API rows naming only private declarations.
      Set<String> publicNames = new HashSet<>();
      Set<String> privateNames = new HashSet<>();
      for (Declaration d : declarations) (d.open() ? publicNames : privateNames).add(d.simpleName());
      privateNames.removeAll(publicNames);
      int start = pageText.indexOf("\n## API\n");
      if (start >= 0) {
        String api = pageText.substring(start + 8);
        int end = api.indexOf("\n## ");
        if (end >= 0) api = api.substring(0, end);
        Matcher row = ROW.matcher(api);
        while (row.find()) {
          apiRows++;
          String name = row.group(1);
          String last = name.substring(name.lastIndexOf('.') + 1);
          if (privateNames.contains(last)) {
            privateRows++;
            misses.add(relative + ": private in the API table: " + name);
          }
        }
      }
    }
    String share = total == 0 ? "null" : String.valueOf(Math.round(found * 10000.0 / total) / 10000.0);
    System.out.println("{\"public_documented\": " + total + ", \"summary_on_page\": " + found + ", \"share\": "
        + share + ", \"api_rows\": " + apiRows + ", \"private_api_rows\": " + privateRows + "}");
    if (showMisses) misses.forEach(System.out::println);
  }

  /** Records the members of a type; open says whether the type itself is public by the rule. */
  static void walk(TreePath path, String scope, boolean open, DocTrees docTrees, SourcePositions positions,
      List<Declaration> found) {
    ClassTree type = (ClassTree) path.getLeaf();
    CompilationUnitTree unit = path.getCompilationUnit();
    String name = scope + type.getSimpleName();
    found.add(new Declaration(name, type.getSimpleName().toString(), line(unit, type, positions), open,
        docTrees.getDocCommentTree(path)));
    boolean inInterface = type.getKind() == Tree.Kind.INTERFACE || type.getKind() == Tree.Kind.ANNOTATION_TYPE;
    boolean inEnum = type.getKind() == Tree.Kind.ENUM;
    for (Tree member : type.getMembers()) {
      TreePath memberPath = new TreePath(path, member);
      if (member instanceof ClassTree nested) {
        walk(memberPath, name + ".", open && exposed(nested.getModifiers(), inInterface), docTrees, positions, found);
      } else if (member instanceof MethodTree method) {
        String simple = method.getName().contentEquals("<init>") ? type.getSimpleName().toString()
            : method.getName().toString();
        found.add(new Declaration(name + "." + simple, simple, line(unit, method, positions),
            open && exposed(method.getModifiers(), inInterface), docTrees.getDocCommentTree(memberPath)));
      } else if (member instanceof VariableTree field) {
        boolean constant = inEnum && field.getInitializer() != null
            && field.getInitializer().getKind() == Tree.Kind.NEW_CLASS
            && field.getType() != null && field.getType().toString().equals(type.getSimpleName().toString());
        found.add(new Declaration(name + "." + field.getName(), field.getName().toString(),
            line(unit, field, positions), open && (constant || exposed(field.getModifiers(), inInterface)),
            docTrees.getDocCommentTree(memberPath)));
      }
    }
  }

  static boolean exposed(ModifiersTree modifiers, boolean inInterface) {
    Set<Modifier> flags = modifiers.getFlags();
    if (inInterface) return !flags.contains(Modifier.PRIVATE);
    return flags.contains(Modifier.PUBLIC) || flags.contains(Modifier.PROTECTED);
  }

  static long line(CompilationUnitTree unit, Tree tree, SourcePositions positions) {
    long position = positions.getStartPosition(unit, tree);
    return position < 0 ? 0 : unit.getLineMap().getLineNumber(position);
  }

  /** The summary as javadoc shows it, in plain text. */
  static String render(List<? extends DocTree> trees) {
    StringBuilder text = new StringBuilder();
    for (DocTree tree : trees) {
      switch (tree.getKind()) {
        case TEXT -> text.append(((TextTree) tree).getBody());
        case CODE, LITERAL -> text.append(((LiteralTree) tree).getBody().getBody());
        case LINK, LINK_PLAIN -> {
          LinkTree link = (LinkTree) tree;
          String label = render(link.getLabel()).trim();
          text.append(label.isEmpty() ? reference(link.getReference()) : label);
        }
        case VALUE -> text.append(reference(((ValueTree) tree).getReference()));
        case ENTITY -> text.append(entity(((EntityTree) tree).getName().toString()));
        case ERRONEOUS -> text.append(((ErroneousTree) tree).getBody());
        case UNKNOWN_INLINE_TAG -> text.append(render(((UnknownInlineTagTree) tree).getContent()));
        default -> { } // HTML start and end tags, {@inheritDoc}, {@index}, comments
      }
    }
    return text.toString();
  }

  /** a.b.Type#m(c.D) -> Type.m(D); #m(A) -> m(A). */
  static String reference(ReferenceTree reference) {
    if (reference == null) return "";
    String signature = reference.getSignature().trim();
    if (signature.startsWith("#")) signature = signature.substring(1);
    signature = signature.replace('#', '.');
    return PACKAGE_PREFIX.matcher(signature).replaceAll("");
  }

  static String entity(String name) {
    return switch (name) {
      case "lt" -> "<";
      case "gt" -> ">";
      case "amp" -> "&";
      case "quot" -> "\"";
      case "apos" -> "'";
      case "nbsp" -> " ";
      default -> {
        try {
          if (name.startsWith("#x") || name.startsWith("#X")) {
            yield new String(Character.toChars(Integer.parseInt(name.substring(2), 16)));
          }
          if (name.startsWith("#")) yield new String(Character.toChars(Integer.parseInt(name.substring(1))));
        } catch (IllegalArgumentException e) {
          // not a number: keep it as written
        }
        yield "&" + name + ";";
      }
    };
  }

  static String normalise(String text) {
    text = MD_LINK.matcher(text).replaceAll("$1"); // [text](url) -> text
    text = text.replaceAll("[`*_\\\\|]", "");
    return text.replaceAll("\\s+", " ").trim().toLowerCase(Locale.ROOT);
  }
}
