package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.Trees;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The optimizer's own rule recipes as a source of rewrites for tests and benchmarks of other modules (the
 * equivalence corpus): every proposal of every recipe for a query, on a DuckDB connection holding the schema.
 */
public final class RecipeRewrites {
  /** One proposal: the recipe's label and the rewritten query. */
  public record Rewrite(String label, String sql) {}

  private RecipeRewrites() {}

  public static List<Rewrite> propose(String sql, Connection duckdb, int max) throws SQLException {
    RuleProposer rules = new RuleProposer(new Trees(SqlParser.on(duckdb)), Catalog.read(duckdb),
        new java.util.LinkedHashSet<>(RuleProposer.RECIPES));
    List<Rewrite> out = new ArrayList<>();
    for (RuleProposer.Proposal p : rules.propose(sql, max)) {
      out.add(new Rewrite(p.label(), p.sql()));
    }
    return out;
  }
}
