package dev.lakerewrite.core.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.ErrorKind;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryError;
import dev.lakerewrite.core.ResultTable;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.noiseudf.CleaningFunctions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queries the binder rejects for their types, repaired and run in a real lake's session (cleaning functions in). */
class TypeRepairsTest {
  private DataLake lake;
  private LakeSession session;
  private Trees trees;

  @BeforeEach
  void lake(@TempDir Path tmp) throws IOException, SQLException {
    Path folder = tmp.resolve("lake");
    Files.createDirectories(folder);
    // Dates kept as integers; nation keys kept as text beside numbered supplier nations.
    Files.writeString(folder.resolve("orders.csv"), "id,placed,total\n1,19950305,12.50\n2,19961120,n/a\n3,19960101,7\n");
    Files.writeString(folder.resolve("nations.csv"), "nation,label\n1,FRANCE\n\" 2\",PERU\nx,NOWHERE\n");
    Files.writeString(folder.resolve("suppliers.csv"), "nation,balance\n1,10\n2,7000\n3,9000\n");
    lake = DataLake.builder().cacheDirectory(tmp.resolve("cache")).fromCsvFolder(folder);
    session = lake.openSession();
    CleaningFunctions.register(session.connection());
    trees = new Trees(session.parser());
  }

  @AfterEach
  void close() {
    session.close();
    lake.close();
  }

  @Test
  void aDateFunctionOverIntegersReadsThemAsDates() {
    String sql = "SELECT extract(year FROM o.placed) AS y, count(*) AS n FROM orders AS o GROUP BY y ORDER BY y";
    TypeRepairs.Repair r = repaired(sql);
    assertThat(r.note()).contains("date_part").contains("o.placed (BIGINT) as a date");
    assertThat(rows(r.sql())).containsExactly("1995|1", "1996|2");
  }

  @Test
  void anInSubqueryComparingTextWithNumbersReadsBothSidesAsNumbers() {
    String sql = "SELECT n.label FROM nations AS n WHERE n.nation IN (SELECT s.nation FROM suppliers AS s "
        + "WHERE s.balance > 5000) ORDER BY 1";
    TypeRepairs.Repair r = repaired(sql);
    assertThat(r.note()).contains("VARCHAR").contains("DOUBLE").contains("n.nation");
    // ' 2' reads as 2; 'x' as no number, so no match instead of a failed query.
    assertThat(rows(r.sql())).containsExactly("PERU");
    String any = "SELECT n.label FROM nations AS n WHERE n.nation = ANY(SELECT s.nation FROM suppliers AS s) ORDER BY 1";
    assertThat(rows(repaired(any).sql())).containsExactly("FRANCE", "PERU");
  }

  @Test
  void aSumOfTextReadsItsNumbers() {
    TypeRepairs.Repair r = repaired("SELECT sum(total) AS t FROM orders");
    assertThat(r.note()).contains("total (text) as a number");
    assertThat(rows(r.sql())).containsExactly("19.5");
  }

  @Test
  void otherErrorsAndErrorsWithoutAPositionAreLeftAlone() {
    assertThat(TypeRepairs.repair(trees, "SELECT nope FROM orders", error("SELECT nope FROM orders"))).isEmpty();
    assertThat(TypeRepairs.repair(trees, "SELECT sum(total) FROM orders", new QueryError(ErrorKind.BINDER,
        "Binder Error: No function matches the given name and argument types 'sum(VARCHAR)'", -1, ""))).isEmpty();
    assertThat(TypeRepairs.repair(trees, "SELECT 1", new QueryError(ErrorKind.RUNTIME, "Conversion Error", 0, "")))
        .isEmpty();
  }

  private TypeRepairs.Repair repaired(String sql) {
    Optional<TypeRepairs.Repair> r = TypeRepairs.repair(trees, sql, error(sql));
    assertThat(r).as("a repair of %s", sql).isPresent();
    return r.get();
  }

  /** The engine's own error for a query that fails. */
  private QueryError error(String sql) {
    Execution e = session.execute(sql);
    assertThat(e.isSuccess()).as("the binder rejects %s", sql).isFalse();
    return e.error().orElseThrow();
  }

  private List<String> rows(String sql) {
    Execution e = session.execute(sql);
    assertThat(e.error()).as("%s runs", sql).isEmpty();
    ResultTable t = e.table();
    List<String> out = new ArrayList<>();
    for (int r = 0; r < t.rowCount(); r++) {
      List<String> row = new ArrayList<>();
      for (int c = 0; c < t.columnCount(); c++) {
        row.add(String.valueOf(t.get(r, c)));
      }
      out.add(String.join("|", row));
    }
    return out;
  }
}
