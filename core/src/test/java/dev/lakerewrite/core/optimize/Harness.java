package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.equivalence.EquivalenceEvidence;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Small databases and a verifier over them, for the optimizer's tests. */
final class Harness implements AutoCloseable {
  final Connection connection;
  final Trees trees;
  final Catalog catalog;
  private final List<Instance> owned = new ArrayList<>();
  private final boolean ownsConnection;

  private Harness(Connection connection, boolean ownsConnection) throws SQLException {
    this.connection = connection;
    this.ownsConnection = ownsConnection;
    this.trees = new Trees(SqlParser.on(connection));
    this.catalog = Catalog.read(connection);
  }

  /** A fresh in-memory database set up by these statements. */
  static Harness of(String... ddl) throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement st = c.createStatement()) {
      for (String s : ddl) {
        st.execute(s);
      }
    }
    return new Harness(c, true);
  }

  /** A harness on someone else's connection (left open on close). */
  static Harness on(Connection c) throws SQLException {
    return new Harness(c, false);
  }

  /** A verifier for {@code original} on the target, a sample and a generated instance. */
  Verifier verifier(String original) throws SQLException {
    return verifier(original, true);
  }

  Verifier verifier(String original, boolean furtherInstances) throws SQLException {
    List<Instance> further = new ArrayList<>();
    if (furtherInstances) {
      InstanceBuilder b = new InstanceBuilder(connection, catalog, new SqlAnalyzer(trees.parser()).analyze(original));
      Instance sample = b.sample(500, 7);
      Instance generated = b.generated(40, 7);
      owned.add(sample);
      owned.add(generated);
      further.add(sample);
      further.add(generated);
    }
    Verifier.Prepared p = Verifier.prepare(trees, new Instance("target", "test", connection, false), further,
        new Verifier.Settings(Duration.ofSeconds(30), 100_000, 0), original);
    if (p.verifier() == null) {
      throw new IllegalStateException(p.failure());
    }
    return p.verifier();
  }

  EquivalenceEvidence check(String original, String candidate) throws SQLException {
    return verifier(original).equivalent(candidate).evidence();
  }

  RuleProposer rules() {
    return new RuleProposer(trees, catalog, new java.util.LinkedHashSet<>(RuleProposer.RECIPES));
  }

  List<RuleProposer.Proposal> propose(String sql, String label) {
    return rules().propose(sql, 100).stream().filter(p -> p.label().equals(label)).toList();
  }

  @Override
  public void close() throws SQLException {
    owned.forEach(Instance::close);
    if (ownsConnection) {
      connection.close();
    }
  }
}
