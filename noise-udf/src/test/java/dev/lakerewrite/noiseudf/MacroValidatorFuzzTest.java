package dev.lakerewrite.noiseudf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.duckdb.DuckDBConnection;

/**
 * Issue 9, fuzzing the macro validator: expression bodies generated from a small grammar over allow-listed and
 * other functions, and arbitrary text. The validator never throws, and never accepts a body that calls a
 * function off the allow-list (built-ins it lists, vetted {@code clean_*} functions).
 */
class MacroValidatorFuzzTest {
  static final List<String> ALLOWED = List.copyOf(new java.util.TreeSet<>(ExpressionChecker.ALLOWED_BUILTINS));
  static final List<String> OTHERS = List.of("read_text", "read_blob", "getenv", "getvariable", "now", "random",
      "query", "query_table", "glob", "version", "current_setting", "sleep_ms", "error", "md5", "hash", "uuid",
      "string_agg", "count", "sum", "list_aggregate", "json_serialize_sql", "duckdb_functions", "pragma_version",
      "setseed", "nextval", "system", "encode", "decode", "to_hex", "make_secret");
  static final List<String> VETTED = List.copyOf(new java.util.TreeSet<>(CleaningFunctions.names()));
  private final MacroValidator validator = MacroValidator.create();

  /** A generated body and the functions it calls. */
  record Body(String text, Set<String> calls) {
    @Override
    public String toString() {
      return text;
    }
  }

  @Property(tries = 250)
  void neverAcceptsACallOffTheAllowList(@ForAll("bodies") Body body) throws Exception {
    MacroValidator.MacroVerdict v = verdict(body.text());
    net.jqwik.api.statistics.Statistics.label("verdict").collect(v.accepted() ? "accepted" : "rejected");
    Set<String> offList = new LinkedHashSet<>(body.calls());
    offList.removeAll(ExpressionChecker.ALLOWED_BUILTINS);
    offList.removeAll(CleaningFunctions.names());
    if (!offList.isEmpty()) {
      assertThat(v.accepted()).as(body + " calls " + offList).isFalse();
      assertThat(v.rejections()).isNotEmpty();
    }
    if (v.accepted()) {
      assertThat(v.createStatement()).startsWith("CREATE OR REPLACE TEMP MACRO fuzz_macro(v) AS ");
    }
  }

  @Property(tries = 250)
  void neverThrowsOnArbitraryText(@ForAll("text") String body) throws Exception {
    MacroValidator.MacroVerdict v = verdict(body);
    assertThat(v.accepted() || !v.rejections().isEmpty()).isTrue();
  }

  /** Validates on a fresh duplicate of the shared lake, so accepted macros do not leak into later tries. */
  private MacroValidator.MacroVerdict verdict(String body) throws Exception {
    try (DuckDBConnection session = SharedLake.connection().duplicate()) {
      return validator.validateAndRegister(session, "capital",
          new GeneratedUdf("fuzz_macro", List.of("v"), body, "fuzz", List.of("label")));
    }
  }

  @Provide
  Arbitrary<Body> bodies() {
    return expression(3);
  }

  private Arbitrary<Body> expression(int depth) {
    Arbitrary<Body> leaf = Arbitraries.oneOf(
        Arbitraries.just(new Body("v", Set.of())),
        Arbitraries.of("'x'", "''", "1", "2.5", "NULL", "'Whangārei'", "'%'", "'\\s+'", "true")
            .map(t -> new Body(t, Set.of())));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Body> sub = Arbitraries.lazy(() -> expression(depth - 1));
    Arbitrary<String> function = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, Arbitraries.of(ALLOWED)), net.jqwik.api.Tuple.of(2, Arbitraries.of(OTHERS)),
        net.jqwik.api.Tuple.of(1, Arbitraries.of(VETTED)),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().withCharRange('a', 'z').withChars('_').ofMinLength(3)
            .ofMaxLength(12)));
    Arbitrary<Body> call = function.flatMap(f -> sub.list().ofMinSize(1).ofMaxSize(3).map(args -> {
      Set<String> calls = new LinkedHashSet<>();
      calls.add(f);
      List<String> texts = new ArrayList<>();
      for (Body a : args) {
        calls.addAll(a.calls());
        texts.add(a.text());
      }
      return new Body(f + "(" + String.join(", ", texts) + ")", calls);
    }));
    Arbitrary<Body> binary = net.jqwik.api.Combinators.combine(sub, Arbitraries.of("||", "+", "=", "AND", "LIKE"), sub)
        .as((a, op, b) -> new Body("(" + a.text() + " " + op + " " + b.text() + ")", union(a, b)));
    Arbitrary<Body> caseWhen = net.jqwik.api.Combinators.combine(sub, sub, sub)
        .as((c, a, b) -> new Body("CASE WHEN " + c.text() + " THEN " + a.text() + " ELSE " + b.text() + " END",
            union(new Body("", union(c, a)), b)));
    Arbitrary<Body> cast = net.jqwik.api.Combinators.combine(sub, Arbitraries.of("VARCHAR", "DOUBLE", "DATE", "BIGINT"))
        .as((a, t) -> new Body("CAST(" + a.text() + " AS " + t + ")", a.calls()));
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(2, leaf), net.jqwik.api.Tuple.of(5, call),
        net.jqwik.api.Tuple.of(2, binary), net.jqwik.api.Tuple.of(1, caseWhen), net.jqwik.api.Tuple.of(1, cast));
  }

  private static Set<String> union(Body a, Body b) {
    Set<String> s = new LinkedHashSet<>(a.calls());
    s.addAll(b.calls());
    return s;
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(60),
        Arbitraries.strings().withChars("v()'\";,-/*$#[]{}:=<>|\\ \n\tselectFROMdrop_12é\u0000\u200b\uff1b")
            .ofMaxLength(60));
  }
}
