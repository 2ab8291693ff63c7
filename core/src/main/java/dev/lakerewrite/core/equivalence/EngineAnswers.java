package dev.lakerewrite.core.equivalence;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's answers to the checker's own questions while it plans instances — a constant cast to a column's
 * type, whether a function of a value meets a comparison, a derived comparison at given values, the base row that
 * passes most row filters — kept by their SQL text for the whole process. Each question reads only constants (the
 * workspace holds the empty instance while planning, a PostgreSQL check asks a scratch DuckDB), so its answer is a
 * function of its text; checks of one query (the optimizer's candidates, the corpus's pairs) ask the same ones
 * again and again, each an engine round trip. Bounded: emptied when it holds {@value #CAP} answers.
 */
final class EngineAnswers {
  private static final int CAP = 50_000;
  /** A question the engine refused, kept as such. */
  private static final List<List<String>> FAILED = List.of();
  private static final Map<String, List<List<String>>> ANSWERS = new ConcurrentHashMap<>();

  private EngineAnswers() {}

  /**
   * The rows of a query that reads no table's data, every value as the engine prints it ({@code getString}, null
   * for NULL).
   *
   * @throws SQLException when the engine refuses it (now or the first time it was asked)
   */
  static List<List<String>> rows(Connection c, String sql) throws SQLException {
    List<List<String>> known = ANSWERS.get(sql);
    if (known == FAILED) {
      throw new SQLException("refused before: " + sql);
    }
    if (known != null) {
      return known;
    }
    List<List<String>> answer;
    try {
      answer = Collections.unmodifiableList(fetch(c, sql));
    } catch (SQLException e) {
      remember(sql, FAILED);
      throw e;
    }
    remember(sql, answer);
    return answer;
  }

  /** The rows of a query, every value as the engine prints it (null for NULL), asked now (not kept). */
  static List<List<String>> fetch(Connection c, String sql) throws SQLException {
    List<List<String>> rows = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int width = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>(width);
        for (int i = 1; i <= width; i++) {
          row.add(rs.getString(i));
        }
        rows.add(Collections.unmodifiableList(row));
      }
    }
    return rows;
  }

  private static void remember(String sql, List<List<String>> answer) {
    if (ANSWERS.size() >= CAP) {
      ANSWERS.clear();
    }
    ANSWERS.put(sql, answer);
  }
}
