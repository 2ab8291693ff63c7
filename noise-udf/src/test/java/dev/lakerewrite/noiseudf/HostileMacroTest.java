package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 9, hostile input for the cleaning validator: every macro body and CTE of {@code macro-attacks.tsv} is
 * rejected at the expected stage with a reason, nothing is registered (neither the macro nor a probe), and the
 * sandboxed lake file and the source CSV folder hash the same afterwards.
 */
class HostileMacroTest {
  static final String RESOURCE = "/dev/lakerewrite/noiseudf/macro-attacks.tsv";
  static final Map<String, Integer> STAGES = new ConcurrentHashMap<>();

  /**
   * One attack.
   *
   * @param line line in the file
   * @param kind MACRO or CTE
   * @param stages stages that may reject it
   * @param name macro name or base table
   * @param text body or CTE, expanded
   */
  record Attack(int line, String kind, Set<String> stages, String name, String text) {
    @Override
    public String toString() {
      String t = text.length() > 80 ? text.substring(0, 80) + "…" : text;
      return "line " + line + " " + kind + " " + name + ": " + t.replace('\n', ' ');
    }
  }

  private static Path lakeFile;
  private static String lakeBefore;
  private static String sourceBefore;
  private final MacroValidator validator = MacroValidator.create();
  private DuckDBConnection session;

  @BeforeAll
  static void fingerprint() throws Exception {
    SharedLake.connection();
    lakeFile = SampleLake.file();
    lakeBefore = sha256(lakeFile);
    sourceBefore = sha256Tree(SampleLake.folder());
  }

  @AfterAll
  static void nothingChanged() throws Exception {
    assertThat(sha256(lakeFile)).as("lake file").isEqualTo(lakeBefore);
    assertThat(sha256Tree(SampleLake.folder())).as("source folder").isEqualTo(sourceBefore);
    try (Stream<Path> tmp = Files.list(Path.of("/tmp"))) {
      assertThat(tmp.filter(p -> p.getFileName().toString().startsWith("lakerewrite-attack"))).isEmpty();
    }
    System.out.println("[reliability] hostile macros and CTEs rejected, by stage: " + new TreeMap<>(STAGES));
  }

  @BeforeEach
  void openSession() throws Exception {
    session = SharedLake.connection().duplicate();
  }

  @AfterEach
  void closeSession() throws Exception {
    session.close();
  }

  static List<Attack> attacks() throws Exception {
    List<Attack> out = new ArrayList<>();
    try (InputStream in = HostileMacroTest.class.getResourceAsStream(RESOURCE);
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", 4);
        if (f.length != 4) {
          throw new IllegalStateException(RESOURCE + " line " + n + ": expected 4 tab-separated fields: " + line);
        }
        out.add(new Attack(n, f[0], new TreeSet<>(Arrays.asList(f[1].split("\\|"))), f[2], expand(f[3])));
      }
    }
    return out;
  }

  @Test
  void theSuiteIsBigEnough() throws Exception {
    assertThat(attacks().stream().filter(a -> a.kind().equals("MACRO"))).hasSizeGreaterThanOrEqualTo(20);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void theValidatorRejectsIt(Attack attack) throws Exception {
    Set<String> before = MacroValidator.sessionMacros(session).keySet();
    List<Rejection> rejections;
    if (attack.kind().equals("MACRO")) {
      MacroValidator.MacroVerdict v = validator.validateAndRegister(session, "capital",
          new GeneratedUdf(attack.name(), List.of("v"), attack.text(), "attack", List.of("label")));
      assertThat(v.accepted()).as(attack.toString()).isFalse();
      assertThat(v.createStatement()).isNull();
      rejections = v.rejections();
    } else {
      MacroValidator.CteVerdict v = validator.validateCte(session, attack.name(), attack.text(), 5);
      assertThat(v.accepted()).as(attack.toString()).isFalse();
      rejections = v.rejections();
    }
    assertThat(rejections).as(attack.toString()).isNotEmpty();
    assertThat(rejections).as(attack + " → " + rejections)
        .anySatisfy(r -> assertThat(r.stage().name()).isIn(attack.stages()));
    assertThat(rejections).allSatisfy(r -> assertThat(r.reason()).hasSizeGreaterThan(10));
    rejections.forEach(r -> STAGES.merge(r.stage().name(), 1, Integer::sum));
    // Nothing was registered: no new macro, no probe left behind, and the session still works.
    assertThat(MacroValidator.sessionMacros(session).keySet()).isEqualTo(before);
    assertThat(Jdbc.query(session, "SELECT count(*) FROM capital").get(0).get(0)).isEqualTo("16");
  }

  static String expand(String text) {
    Matcher m = Pattern.compile("\\{\\{(\\d+)\\*(.*?)}}").matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(m.group(2).repeat(Integer.parseInt(m.group(1)))));
    }
    m.appendTail(sb);
    String s = sb.toString();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        char e = s.charAt(++i);
        switch (e) {
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'u' -> {
            out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
            i += 4;
          }
          default -> out.append(e);
        }
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static String sha256(Path file) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }

  static String sha256Tree(Path folder) throws Exception {
    try (Stream<Path> walk = Files.walk(folder)) {
      List<Path> files = walk.filter(Files::isRegularFile).sorted().toList();
      StringBuilder sb = new StringBuilder();
      for (Path f : files) {
        sb.append(folder.relativize(f)).append('\0').append(sha256(f)).append('\n');
      }
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(sb.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }

  static String summary(List<Rejection> rs) {
    return rs.stream().map(r -> r.stage() + ": " + r.reason()).collect(Collectors.joining("; "));
  }
}
