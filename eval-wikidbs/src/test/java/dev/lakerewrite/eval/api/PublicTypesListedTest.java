package dev.lakerewrite.eval.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every module's public surface is written down: each public top-level type of each package is listed, one line,
 * in its package-info ({@code <li>{@link Type}: what it is}) or in its module's README ({@code - `Type`: ...}).
 * Lives in eval-wikidbs because it depends on every module, so a change anywhere runs it.
 */
class PublicTypesListedTest {

  static final List<String> MODULES = List.of("sql", "retrieval", "joingraph", "noise-udf", "core", "eval-wikidbs");
  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "^public\\s+(?:(?:final|abstract|sealed|non-sealed|static|strictfp)\\s+)*(?:class|interface|enum|record|@interface)"
          + "\\s+(\\w+)", Pattern.MULTILINE);

  static Path projectRoot() {
    Path here = Path.of("").toAbsolutePath();
    Path root = Files.exists(here.resolve("sql")) ? here : here.getParent();
    assertThat(root.resolve("pom.xml")).as("the project's parent pom beside the modules").exists();
    return root;
  }

  /** Public top-level types per package folder, in the module's main sources. */
  static Map<Path, List<String>> publicTypes(Path module) throws IOException {
    Map<Path, List<String>> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        if (f.getFileName().toString().equals("package-info.java")) {
          continue;
        }
        Matcher m = PUBLIC_TYPE.matcher(Files.readString(f, StandardCharsets.UTF_8));
        if (m.find()) {
          out.computeIfAbsent(f.getParent(), k -> new ArrayList<>()).add(m.group(1));
        }
      }
    }
    return out;
  }

  static boolean listed(String type, String packageInfo, String readme) {
    Pattern inPackageInfo = Pattern.compile("^\\s*\\*\\s*<li>\\{@link (?:[\\w.]+\\.)?" + type + "\\}:\\s*\\S",
        Pattern.MULTILINE);
    Pattern inReadme = Pattern.compile("^\\s*[-*] `" + type + "`:\\s*\\S", Pattern.MULTILINE);
    return inPackageInfo.matcher(packageInfo).find() || inReadme.matcher(readme).find();
  }

  @Test
  void everyPublicTypeOfEveryModuleIsListedWithOneLine() throws IOException {
    Path root = projectRoot();
    List<String> unlisted = new ArrayList<>();
    int seen = 0;
    for (String module : MODULES) {
      Path dir = root.resolve(module);
      Path readmeFile = dir.resolve("README.md");
      String readme = Files.exists(readmeFile) ? Files.readString(readmeFile, StandardCharsets.UTF_8) : "";
      for (Map.Entry<Path, List<String>> pkg : publicTypes(dir).entrySet()) {
        Path infoFile = pkg.getKey().resolve("package-info.java");
        String info = Files.exists(infoFile) ? Files.readString(infoFile, StandardCharsets.UTF_8) : "";
        for (String type : pkg.getValue()) {
          seen++;
          if (!listed(type, info, readme)) {
            unlisted.add(module + ": " + root.relativize(pkg.getKey().resolve(type + ".java"))
                + " (add '<li>{@link " + type + "}: ...' to " + root.relativize(infoFile) + ")");
          }
        }
      }
    }
    assertThat(seen).as("public types found").isGreaterThan(100);
    assertThat(unlisted).as("public types not listed in their package-info or module README").isEmpty();
  }

  @Test
  void theCheckFindsAnUnlistedType() {
    String info = "/**\n * <ul>\n *   <li>{@link Listed}: a listed type.\n * </ul>\n */\npackage x;\n";
    assertThat(listed("Listed", info, "")).isTrue();
    assertThat(listed("Unlisted", info, "")).isFalse();
    assertThat(listed("List", info, "")).as("a prefix of a listed name").isFalse();
    assertThat(listed("Unlisted", "", "- `Unlisted`: in the README.\n")).isTrue();
  }
}
