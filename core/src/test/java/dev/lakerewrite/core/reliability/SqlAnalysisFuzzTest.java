package dev.lakerewrite.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.Execution;
import dev.lakerewrite.core.LakeSession;
import dev.lakerewrite.core.QueryLimits;
import dev.lakerewrite.core.TestLakes;
import dev.lakerewrite.core.sql.QueryAnalysis;
import dev.lakerewrite.core.sql.SqlAnalyzer;
import dev.lakerewrite.core.sql.SqlParser;
import dev.lakerewrite.core.sql.SqlSyntaxException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Issue 9, fuzzing the SQL analysis: queries generated from a grammar over the dev set's vocabulary, and the dev
 * set's user queries mutated (cut, spliced, with tokens and odd characters inserted). The analyser never throws
 * anything but {@link SqlSyntaxException}; on grammatical queries it never throws and finds the FROM table; the
 * safe executor never throws at all.
 */
class SqlAnalysisFuzzTest {
  static final List<String> SEEDS = devQueries();
  static final List<String> NAMES = vocabulary(SEEDS, Pattern.compile("\\b([a-z_][a-z0-9_]*)\\b"));
  static final List<String> LITERALS = vocabulary(SEEDS, Pattern.compile("('(?:[^']|'')*'|\\b\\d+(?:\\.\\d+)?\\b)"));
  static final List<String> TOKENS = List.of("SELECT", "FROM", "WHERE", "JOIN", "ON", "GROUP BY", "ORDER BY",
      "HAVING", "LIMIT", "UNION", "WITH", "AS", "(", ")", ",", ";", "'", "\"", "*", "=", "<>", "--", "/*", "*/",
      "NULL", "NOT", "IN", "LIKE", "CASE", "WHEN", "END", "::", "[", "]", "{", "}", "$1", "?", "#1", "\\",
      "\u0000", "\u00a0", "\u200b", "\uff1b", "\u0405ELECT", "\ud83d\ude00", "\ud800", "é", "DROP TABLE x",
      "COPY x TO 'y'", "read_csv('/etc/passwd')", "(((", ")))", "'unterminated", "1e999", "-9223372036854775809");

  private static DataLake lake;
  private static LakeSession session;
  private static SqlAnalyzer analyzer;

  @BeforeContainer
  static void open() {
    lake = TestLakes.sample();
    session = lake.openSession();
    analyzer = new SqlAnalyzer(SqlParser.standalone());
  }

  @AfterContainer
  static void close() {
    session.close();
  }

  @Property(tries = 600)
  void mutatedQueriesFailOnlyAsSyntaxErrors(@ForAll("mutated") String sql) {
    try {
      QueryAnalysis a = analyzer.analyze(sql);
      assertThat(a).isNotNull();
    } catch (SqlSyntaxException expected) {
      assertThat(expected.getMessage()).isNotBlank();
      assertThat(expected.position()).isGreaterThanOrEqualTo(-1);
    }
  }

  @Property(tries = 400)
  void grammaticalQueriesAreAnalysedAndTheirTablesFound(@ForAll("grammatical") Generated q) {
    QueryAnalysis a = analyzer.analyze(q.sql());
    assertThat(a.tableNames().stream().map(t -> t.toLowerCase(Locale.ROOT)))
        .as(q.sql()).contains(q.table().toLowerCase(Locale.ROOT));
  }

  @Property(tries = 300)
  void theExecutorNeverThrows(@ForAll("mutated") String sql) {
    Execution e = session.execute(sql, new QueryLimits(Duration.ofSeconds(2), 50));
    assertThat(e.isSuccess() || e.error().isPresent()).isTrue();
    e.error().ifPresent(err -> assertThat(err.message()).isNotBlank());
  }

  /** A generated query and the table its FROM names. */
  record Generated(String sql, String table) {
    @Override
    public String toString() {
      return sql;
    }
  }

  @Provide
  Arbitrary<String> mutated() {
    Arbitrary<String> seed = Arbitraries.of(SEEDS);
    Arbitrary<List<Mutation>> mutations = mutation().list().ofMinSize(1).ofMaxSize(6);
    return Combinators.combine(seed, mutations).as((s, ms) -> {
      String out = s;
      for (Mutation m : ms) {
        out = m.apply(out);
      }
      return out;
    });
  }

  /** One edit at a relative position (0..1) of the text. */
  record Mutation(int kind, double at, double to, String token) {
    String apply(String s) {
      int n = s.length();
      int i = (int) (at * n);
      int j = Math.min(n, i + (int) (to * Math.max(1, n - i)));
      return switch (kind) {
        case 0 -> s.substring(0, i) + s.substring(j); // delete a range
        case 1 -> s.substring(0, i) + " " + token + " " + s.substring(i); // insert a token
        case 2 -> s.substring(0, i); // truncate
        case 3 -> s.substring(0, j) + s.substring(i, j) + s.substring(j); // duplicate a slice
        case 4 -> s.substring(0, i) + token + s.substring(Math.min(n, i + 1)); // replace one character
        case 5 -> s.substring(0, i) + s.substring(i, j).toUpperCase(Locale.ROOT) + s.substring(j);
        default -> s + " " + token + " " + SEEDS.get((int) (to * (SEEDS.size() - 1))); // splice another query
      };
    }
  }

  Arbitrary<Mutation> mutation() {
    return Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.doubles().between(0, 1),
        Arbitraries.doubles().between(0, 1), Arbitraries.oneOf(Arbitraries.of(TOKENS), Arbitraries.of(NAMES),
            Arbitraries.of(LITERALS), Arbitraries.strings().all().ofMaxLength(4))).as(Mutation::new);
  }

  @Provide
  Arbitrary<Generated> grammatical() {
    Arbitrary<String> name = Arbitraries.of(NAMES).map(SqlAnalysisFuzzTest::quoted);
    Arbitrary<String> literal = Arbitraries.of(LITERALS);
    Arbitrary<String> column = Combinators.combine(Arbitraries.of("", "t.", "u."), name).as((q, c) -> q + c);
    Arbitrary<String> item = Arbitraries.oneOf(column,
        Combinators.combine(Arbitraries.of("count", "sum", "min", "max", "avg"), column, name)
            .as((f, c, alias) -> f + "(" + c + ") AS " + alias),
        Arbitraries.just("count(*)"), Combinators.combine(column, name).as((c, a) -> c + " AS " + a));
    Arbitrary<String> selectList = Arbitraries.oneOf(Arbitraries.just("*"),
        item.list().ofMinSize(1).ofMaxSize(4).map(l -> String.join(", ", l)));
    Arbitrary<String> predicate = Arbitraries.oneOf(
        Combinators.combine(column, Arbitraries.of("=", "<>", "<", ">=", "LIKE", "ILIKE"), literal)
            .as((c, op, v) -> c + " " + op + " " + v),
        Combinators.combine(column, literal.list().ofMinSize(1).ofMaxSize(4))
            .as((c, vs) -> c + " IN (" + String.join(", ", vs) + ")"),
        Combinators.combine(column, literal, literal).as((c, a, b) -> c + " BETWEEN " + a + " AND " + b),
        column.map(c -> c + " IS NOT NULL"),
        Combinators.combine(column, name, name).as((c, x, t) -> c + " IN (SELECT " + x + " FROM " + t + ")"));
    Arbitrary<String> where = predicate.list().ofMinSize(0).ofMaxSize(3).map(ps -> ps.isEmpty() ? ""
        : " WHERE " + String.join(ps.size() % 2 == 0 ? " AND " : " OR ", ps));
    Arbitrary<String> join = Combinators.combine(Arbitraries.of("JOIN", "LEFT JOIN", "INNER JOIN"), name, column,
        column).as((j, t, a, b) -> " " + j + " " + t + " AS u ON " + a + " = " + b);
    Arbitrary<String> joins = join.list().ofMaxSize(1).map(l -> String.join("", l));
    Arbitrary<String> tail = Combinators.combine(column.list().ofMaxSize(2), column.list().ofMaxSize(2),
        Arbitraries.of("", " DESC", " ASC"), Arbitraries.integers().between(-1, 100)).as((g, o, dir, lim) ->
        (g.isEmpty() ? "" : " GROUP BY " + String.join(", ", g))
            + (o.isEmpty() ? "" : " ORDER BY " + String.join(", ", o) + dir)
            + (lim < 0 ? "" : " LIMIT " + lim));
    return Combinators.combine(Arbitraries.of("", "DISTINCT "), selectList, name, joins, where, tail,
        Arbitraries.of(false, true)).as((d, s, t, j, w, tl, cte) -> {
          String body = "SELECT " + d + s + " FROM " + t + " AS t" + j + w + tl;
          return cte ? new Generated("WITH base AS (SELECT * FROM " + t + ") " + body.replace(" FROM " + t + " AS t",
              " FROM base AS t"), t.replace("\"", "")) : new Generated(body, t.replace("\"", ""));
        });
  }

  static String quoted(String name) {
    return '"' + name + '"';
  }

  static List<String> devQueries() {
    try (InputStream in = SqlAnalysisFuzzTest.class.getResourceAsStream(
        "/dev/lakerewrite/core/reliability/dev-user-queries.sql")) {
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("--")) {
          out.add(line.strip());
        }
      }
      return List.copyOf(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> vocabulary(List<String> queries, Pattern p) {
    Set<String> out = new TreeSet<>();
    for (String q : queries) {
      Matcher m = p.matcher(q);
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return List.copyOf(out);
  }
}
