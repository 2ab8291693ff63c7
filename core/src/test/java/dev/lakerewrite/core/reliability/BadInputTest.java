package dev.lakerewrite.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.LakeLoadException;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.RewriteResult;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.core.UnknownTableException;
import dev.lakerewrite.core.rewrite.StopReason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, bad input: missing, empty and wrong lake folders, unreadable CSV files, files that are not DuckDB
 * databases, user queries that are not SQL or not queries, and names that do not exist. Each fails with an error
 * that says what is wrong and where (the path, the offset, the nearest existing names), and nothing is half
 * loaded.
 */
class BadInputTest {

  private static DataLake.Builder builder(Path tmp) {
    return DataLake.builder().cacheDirectory(tmp.resolve("cache"));
  }

  @Test
  void aMissingLakeFolderIsNamed(@TempDir Path tmp) {
    Path missing = tmp.resolve("no-such-lake");
    assertThatThrownBy(() -> builder(tmp).fromCsvFolder(missing)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining(missing.toString()).hasMessageContaining("no such folder")
        .satisfies(e -> assertThat(((LakeLoadException) e).path()).isEqualTo(missing));
    assertThatThrownBy(() -> builder(tmp).fromWikiDbs(missing)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void anEmptyOrWronglyShapedFolderSaysWhatItExpected(@TempDir Path tmp) throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    Files.writeString(empty.resolve("README.txt"), "no tables here");
    assertThatThrownBy(() -> builder(tmp).fromCsvFolder(empty)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("empty lake").hasMessageContaining(".csv");
    assertThatThrownBy(() -> builder(tmp).fromWikiDbs(empty)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("databases/<db>/tables/<table>.csv");
    Path file = Files.writeString(tmp.resolve("lake.csv"), "a,b\n1,2\n");
    assertThatThrownBy(() -> builder(tmp).fromCsvFolder(file)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("not a folder");
  }

  @Test
  void unreadableCsvFilesAreNamedAndTheRestLoadsOnlyWhenAsked(@TempDir Path tmp) throws Exception {
    Path lake = Files.createDirectories(tmp.resolve("lake"));
    Files.writeString(lake.resolve("good.csv"), "name,population\nNorthland,179100\nAuckland,1717500\n");
    byte[] garbage = new byte[4096];
    new Random(9).nextBytes(garbage);
    garbage[0] = 0;
    Path binary = Files.write(lake.resolve("binary.csv"), garbage);
    assertThatThrownBy(() -> builder(tmp).fromCsvFolder(lake)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("could not be read").hasMessageContaining(binary.toString())
        .hasMessageContaining("skipUnreadableFiles(true)");
    try (DataLake loaded = builder(tmp).skipUnreadableFiles(true).fromCsvFolder(lake)) {
      assertThat(loaded.catalog().tableNames()).containsExactly("good");
      assertThat(loaded.warnings()).singleElement().asString().contains(binary.toString());
    }
  }

  @Test
  void aFileThatIsNotADuckDbDatabaseIsRefused(@TempDir Path tmp) throws Exception {
    Path fake = Files.writeString(tmp.resolve("fake.duckdb"), "SQLite format 3\u0000 but not really");
    assertThatThrownBy(() -> builder(tmp).open(fake)).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining(fake.toString()).hasMessageContaining("cannot open as a DuckDB database");
    assertThatThrownBy(() -> builder(tmp).open(tmp.resolve("missing.duckdb"))).isInstanceOf(LakeLoadException.class)
        .hasMessageContaining("no such DuckDB database file");
  }

  @Test
  void aUserQueryThatIsNotSqlOrNotAQueryIsRefusedWithWhereAndWhy() {
    DataLake lake = TestLakes.sample();
    RewriteResult prose = Rewriter.rewrite("please list all regions of new zealand", lake);
    assertThat(prose.stopReason()).isEqualTo(StopReason.INVALID_QUERY);
    QueryError e = prose.error().orElseThrow();
    assertThat(e.kind()).isEqualTo(ErrorKind.PARSE);
    assertThat(e.position()).isZero();
    assertThat(e.message()).contains("syntax error at or near \"please\"");
    assertThat(prose.candidates()).isEmpty();

    RewriteResult ddl = Rewriter.rewrite("DROP TABLE region_of_new_zealand", lake);
    assertThat(ddl.stopReason()).isEqualTo(StopReason.INVALID_QUERY);
    assertThat(ddl.error().orElseThrow().kind()).isEqualTo(ErrorKind.REJECTED);
    assertThat(ddl.error().orElseThrow().message()).contains("only SELECT and WITH statements are allowed, got DROP");

    String truncated = "SELECT name, population FROM nz_regions WHERE name = 'North";
    QueryError t = Rewriter.rewrite(truncated, lake).error().orElseThrow();
    assertThat(t.kind()).isEqualTo(ErrorKind.PARSE);
    assertThat(t.message()).contains("unterminated string literal");

    assertThat(Rewriter.rewrite("  ", lake).error().orElseThrow().message()).contains("empty SQL");
  }

  @Test
  void namesThatDoNotExistComeWithTheNearestOnes() {
    DataLake lake = TestLakes.sample();
    try (LakeSession s = lake.openSession()) {
      QueryError table = s.execute("SELECT label FROM region_of_new_zeeland").error().orElseThrow();
      assertThat(table.kind()).isEqualTo(ErrorKind.BINDER);
      assertThat(table.position()).isEqualTo("SELECT label FROM ".length());
      assertThat(table.message()).contains("region_of_new_zeeland").contains("region_of_new_zealand");
      QueryError column = s.execute("SELECT populaton FROM region_of_new_zealand").error().orElseThrow();
      assertThat(column.message()).contains("populaton").contains("population");
      assertThat(column.position()).isEqualTo("SELECT ".length());
    }
    assertThatThrownBy(() -> lake.catalog().requireTable("region_of_new_zeeland"))
        .isInstanceOf(UnknownTableException.class).hasMessageContaining("did you mean")
        .satisfies(e -> assertThat(((UnknownTableException) e).suggestions()).contains("region_of_new_zealand"));
  }

  @Test
  void aClosedLakeIsAClearStateError(@TempDir Path tmp) throws Exception {
    Path lakeFolder = Files.createDirectories(tmp.resolve("lake"));
    Files.writeString(lakeFolder.resolve("t.csv"), "a\n1\n");
    DataLake lake = builder(tmp).fromCsvFolder(lakeFolder);
    lake.close();
    assertThatThrownBy(() -> Rewriter.rewrite("SELECT a FROM t", lake))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    assertThatThrownBy(lake::openSession).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }
}
