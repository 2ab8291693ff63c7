package dev.lakerewrite.core.equivalence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.equivalence.EquivalenceResult.Verdict;
import dev.lakerewrite.core.testing.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The checker on a real PostgreSQL server (embedded): the schema and constraints read from its catalog, instances
 * in temporary tables rolled back afterwards, PostgreSQL's own semantics (integer division), counterexamples that
 * PostgreSQL itself tells apart, and the database left exactly as it was.
 */
class PostgresEquivalenceTest {
  static Connection pg;
  static EquivalenceChecker checker;

  @BeforeAll
  static void setUp() throws SQLException {
    pg = PostgresServer.shared().freshDatabase("equivalence");
    try (Statement st = pg.createStatement()) {
      st.execute("CREATE TABLE customers (c_id integer PRIMARY KEY, name varchar(40) NOT NULL, region text)");
      st.execute("CREATE TABLE orders (o_id integer PRIMARY KEY, cust_id integer REFERENCES customers (c_id), "
          + "amount numeric(10,2) NOT NULL CHECK (amount >= 0), qty integer, status text)");
      st.execute("CREATE VIEW big_orders AS SELECT o_id, amount FROM orders WHERE amount > 100");
      st.execute("INSERT INTO customers VALUES (1, 'ann', 'north'), (2, 'bob', NULL)");
      st.execute("INSERT INTO orders VALUES (10, 1, 150.00, 3, 'open'), (11, 2, 20.00, 4, NULL)");
    }
    // A generous budget: the suite runs on loaded machines, where 5 s may cover only a few instances.
    checker = EquivalenceChecker.builder().connection(pg).timeBudget(java.time.Duration.ofSeconds(60)).build();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    checker.close();
    pg.close();
  }

  @Test
  void readsTheSchemaAndProvesTrivialRewrites() {
    assertThat(checker.relations()).contains("customers", "orders", "big_orders");
    EquivalenceResult r = checker.check("SELECT c.name FROM customers c JOIN orders o ON o.cust_id = c.c_id",
        "SELECT x.name FROM orders y JOIN customers x ON x.c_id = y.cust_id");
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(r.engine()).isEqualTo("PostgreSQL");
  }

  @Test
  void findsDifferencesWithPostgresSemanticsAndTheyReplayOnPostgres() throws SQLException {
    // Integer division truncates in PostgreSQL (DuckDB's / would not): qty / 2 * 2 differs from qty for odd qty.
    String left = "SELECT o_id FROM orders WHERE qty / 2 * 2 = qty";
    String right = "SELECT o_id FROM orders WHERE qty IS NOT NULL";
    EquivalenceResult r = checker.check(left, right);
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
    Counterexample ce = r.counterexample().orElseThrow();
    assertThat(ce.createStatements()).as(r.summary() + "\n" + r.evidence().summary()).isNotEmpty();
    try (Connection fresh = PostgresServer.shared().freshDatabase("replay"); Statement st = fresh.createStatement()) {
      for (String s : ce.createStatements()) {
        st.execute(s);
      }
      for (String s : ce.insertStatements()) {
        st.execute(s);
      }
      assertThat(rows(st, left)).isNotEqualTo(rows(st, right));
    }

    EquivalenceResult view = checker.check("SELECT o_id FROM big_orders", "SELECT o_id FROM orders WHERE amount >= 100");
    assertThat(view.verdict()).as(view.summary()).isEqualTo(Verdict.NOT_EQUIVALENT);
  }

  @Test
  void honoursTheForeignKeyAndTheDataAndLeavesTheDatabaseAsItWas() throws SQLException {
    EquivalenceResult r = checker.check("SELECT o.o_id FROM orders o JOIN customers c ON c.c_id = o.cust_id",
        "SELECT o_id FROM orders WHERE cust_id IS NOT NULL");
    assertThat(r.verdict()).as(r.summary()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(r.evidence().checks()).extracting(InstanceCheck::instance).contains("the database itself");
    try (Statement st = pg.createStatement()) {
      assertThat(rows(st, "SELECT count(*) FROM orders")).containsExactly("2|");
      assertThat(rows(st, "SELECT count(*) FROM pg_class WHERE relpersistence = 't'")).containsExactly("0|");
    }
    assertThat(pg.getAutoCommit()).isTrue();
  }

  @Test
  void badInputOnPostgres() {
    assertThatThrownBy(() -> checker.check("SELECT nme FROM customers", "SELECT name FROM customers"))
        .isInstanceOf(EquivalenceInputException.class).hasMessageContaining("the left query").hasMessageContaining("nme");
    assertThatThrownBy(() -> checker.check("SELECT 1", "DELETE FROM orders"))
        .isInstanceOf(EquivalenceInputException.class).hasMessageContaining("the right query");
  }

  static List<String> rows(Statement st, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          sb.append(rs.getString(i)).append('|');
        }
        out.add(sb.toString());
      }
    }
    out.sort(null);
    return out;
  }
}
