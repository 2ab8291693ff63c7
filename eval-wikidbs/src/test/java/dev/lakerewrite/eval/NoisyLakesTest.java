package dev.lakerewrite.eval;

import dev.lakerewrite.core.TestLakes;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The noisy copies of the sample lake: deterministic per seed, built once, only the chosen tables changed. */
class NoisyLakesTest {

  private static final NoisyLakes.Spec SPEC =
      new NoisyLakes.Spec(42, 0.05, Set.of("region_of_new_zealand", "xml_editor"));

  @TempDir
  Path dir;

  @Test
  void theSameSeedGivesTheSameFilesAndOnlyTheChosenTablesChange() throws IOException {
    Path source = TestLakes.sampleFolder();
    NoisyLakes.Prepared a = NoisyLakes.prepare(source, "fingerprint", SPEC, dir.resolve("a"));
    NoisyLakes.Prepared b = NoisyLakes.prepare(source, "fingerprint", SPEC, dir.resolve("b"));
    assertThat(a.reused()).isFalse();
    assertThat(b.reused()).isFalse();
    Map<String, byte[]> filesA = files(a.folder());
    Map<String, byte[]> filesB = files(b.folder());
    assertThat(filesA.keySet()).isEqualTo(filesB.keySet());
    filesA.forEach((f, bytes) -> assertThat(Arrays.equals(filesB.get(f), bytes)).as("same bytes in " + f).isTrue());

    assertThat(a.changedCells().keySet()).containsExactlyInAnyOrder("region_of_new_zealand", "xml_editor");
    Map<String, byte[]> original = files(source);
    for (Map.Entry<String, byte[]> e : original.entrySet()) {
      // Table files are databases/<db>/tables/<table>.csv; anything else (tables_with_ids/...) is copied as is.
      boolean noisy = e.getKey().endsWith("/tables/region-of-new-zealand.csv")
          || e.getKey().endsWith("/tables/xml-editor.csv");
      assertThat(Arrays.equals(filesA.get(e.getKey()), e.getValue())).as("unchanged: " + e.getKey()).isEqualTo(!noisy);
    }
  }

  @Test
  void anotherSeedGivesOtherNoise() throws IOException {
    Path source = TestLakes.sampleFolder();
    NoisyLakes.Prepared a = NoisyLakes.prepare(source, "fingerprint", SPEC, dir);
    NoisyLakes.Prepared c = NoisyLakes.prepare(source, "fingerprint",
        new NoisyLakes.Spec(43, SPEC.rate(), SPEC.tables()), dir);
    assertThat(c.folder()).isNotEqualTo(a.folder());
    String region = "databases/region-of-new-zealand/tables/region-of-new-zealand.csv";
    assertThat(Arrays.equals(Files.readAllBytes(c.folder().resolve(region)),
        Files.readAllBytes(a.folder().resolve(region)))).as("same bytes with seeds 42 and 43").isFalse();
  }

  @Test
  void aCopyIsBuiltOnceAndReusedAndHalfBuiltOnesAreNot() throws IOException {
    Path source = TestLakes.sampleFolder();
    String name = NoisyLakes.folderName(source, "fingerprint", SPEC);
    Files.createDirectories(dir.resolve(name + ".tmp-interrupted").resolve("databases"));
    NoisyLakes.Prepared first = NoisyLakes.prepare(source, "fingerprint", SPEC, dir);
    NoisyLakes.Prepared again = NoisyLakes.prepare(source, "fingerprint", SPEC, dir);
    assertThat(first.reused()).isFalse();
    assertThat(again.reused()).isTrue();
    assertThat(again.folder()).isEqualTo(first.folder());
    assertThat(again.changedCells()).isEqualTo(first.changedCells());
    assertThat(first.folder().getFileName().toString()).isEqualTo(name).startsWith("wikidbs-sample-seed42-");
    NoisyLakes.Prepared otherSource = NoisyLakes.prepare(source, "changed fingerprint", SPEC, dir);
    assertThat(otherSource.folder()).as("a changed source gets a new copy").isNotEqualTo(first.folder());
  }

  private static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        String rel = root.relativize(p).toString().replace('\\', '/');
        if (!rel.equals(NoisyLakes.RECORD_FILE)) {
          out.put(rel, Files.readAllBytes(p));
        }
      }
    }
    return out;
  }
}
