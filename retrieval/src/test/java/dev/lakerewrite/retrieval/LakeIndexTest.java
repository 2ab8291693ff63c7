package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LakeIndexTest {
  static LakeIndex index;
  static Connection connection;

  @BeforeAll
  static void buildIndex() throws Exception {
    connection = SampleLake.duplicate();
    Path cache = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "lake-index");
    index = LakeIndex.builder().connection(connection).cacheDirectory(cache).embedder(MiniLmEmbedder.shared()).build();
  }

  @AfterAll
  static void close() throws Exception {
    index.close();
    connection.close();
  }

  @Test
  void smoke() {
    System.out.println(index.tables().size() + " tables, built in " + index.buildMillis());
    for (TableScoring s : TableScoring.values()) {
      QueryRelevance r = index.queryRelevance(List.of(QueryTable.of("nz_regions", "name", "population", "capital")), s);
      r.top(5, List.of()).forEach(m -> System.out.println(s + " " + m.why()));
    }
    index.searchValue("capital", "Whangarei", 5).forEach(m -> System.out.println(m.why()));
    index.searchValue(connection, "region_of_new_zealand", "Wellington", 5).forEach(m -> System.out.println(m.why() + " " + m.exampleRows()));
    index.searchValueInLake("Welington", 5).forEach(m -> System.out.println(m.why()));
    index.unionSearch("region_of_new_zealand", 10).forEach(m -> System.out.println(m.why() + " " + m.table()));
    index.searchTable("countries", List.of("head of state"), 5).forEach(m -> System.out.println(m.why()));
  }
}
