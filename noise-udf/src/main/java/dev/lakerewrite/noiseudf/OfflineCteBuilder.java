package dev.lakerewrite.noiseudf;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.lakerewrite.sql.DidYouMean;
import dev.lakerewrite.sql.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * BUILD_CTE without an LLM (DESIGN principle 1): {@link NoiseDetector} looks at the requested columns and the
 * CTE applies vetted functions chosen by what it found, column by column:
 *
 * <ul>
 *   <li>encoding, markup or whitespace noise: {@code clean_text} (lossless: repairs mojibake, strips markup,
 *       collapses whitespace);
 *   <li>number formats: {@code clean_number} (DOUBLE) with the column's decimal separator, only when every sampled
 *       value is a number (a cleaner never turns a value into NULL);
 *   <li>date formats: ISO text via {@code clean_iso_date} with the column's day/month order, falling back to the
 *       value itself where it is not a date;
 *   <li>a boolean zoo: {@code clean_boolean} (BOOLEAN), only when every sampled value is a boolean;
 *   <li>diacritic or case variants of one value within the column: {@code clean_category} against a vocabulary
 *       of the column's own majority spellings, so 'WHANGAREI' becomes the 'Whangārei' the column uses
 *       elsewhere; values seen in one spelling only stay as they are (their key is offered as {@code matchKey}).
 * </ul>
 *
 * The CTE ({@code SELECT * REPLACE (...) FROM base}) then goes through {@link MacroValidator#validateCte}, like a
 * model's. Cost: one scan per cleaned column for the sample, one for the preview.
 */
public final class OfflineCteBuilder implements CteBuilder {

  private final NoiseDetector detector;
  private final MacroValidator validator;
  private final int previewRows;
  private final int maxDistinctValues;
  private final int maxVocabularyChars;

  private OfflineCteBuilder(Builder b) {
    this.detector = b.detector;
    this.validator = b.validator;
    this.previewRows = b.previewRows;
    this.maxDistinctValues = b.maxDistinctValues;
    this.maxVocabularyChars = b.maxVocabularyChars;
  }

  /** An offline builder with default settings. */
  public static OfflineCteBuilder create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder; all settings have defaults. */
  public static final class Builder {
    private NoiseDetector detector = NoiseDetector.create();
    private MacroValidator validator = MacroValidator.create();
    private int previewRows = 5;
    private int maxDistinctValues = 5000;
    private int maxVocabularyChars = 3500;

    private Builder() {}

    public Builder detector(NoiseDetector detector) {
      this.detector = Objects.requireNonNull(detector, "detector");
      return this;
    }

    public Builder validator(MacroValidator validator) {
      this.validator = Objects.requireNonNull(validator, "validator");
      return this;
    }

    /** Rows of cleaned data in the result's preview (default 5; the thesis keeps scratchpad previews small). */
    public Builder previewRows(int n) {
      this.previewRows = Args.atLeast("previewRows", n, 0);
      return this;
    }

    /** Distinct values sampled per column (default 5000). */
    public Builder maxDistinctValues(int n) {
      this.maxDistinctValues = Args.atLeast("maxDistinctValues", n, 1);
      return this;
    }

    /** Characters of one canonicalisation vocabulary literal (default 3500). */
    public Builder maxVocabularyChars(int n) {
      this.maxVocabularyChars = Args.atLeast("maxVocabularyChars", n, 2);
      return this;
    }

    public OfflineCteBuilder build() {
      return new OfflineCteBuilder(this);
    }
  }

  @Override
  public CteBuildResult build(Connection session, CteRequest request) {
    Objects.requireNonNull(session, "session");
    Objects.requireNonNull(request, "request");
    try {
      Optional<CteBuildResult> bad = checkNames(session, request, "offline");
      if (bad.isPresent()) {
        return bad.get();
      }
      List<ColumnSample> samples = NoiseDetector.samples(session, request.baseTable(), request.columns(), maxDistinctValues);
      List<NoiseFinding> evidence = new ArrayList<>();
      List<ColumnPlan> plans = new ArrayList<>();
      for (ColumnSample s : samples) {
        List<NoiseFinding> findings = detector.detect(s);
        evidence.addAll(findings);
        ColumnPlan plan = plan(s, findings);
        if (plan != null) {
          plans.add(plan);
        }
      }
      if (plans.isEmpty()) {
        return CteBuildResult.failed(request, "offline", CteBuildFailure.Kind.NO_NOISE_FOUND,
            "no cleanable noise in " + request.baseTable() + (request.columns().isEmpty() ? "" : " " + request.columns())
                + (evidence.isEmpty() ? "" : "; evidence only: " + evidence.get(0).summary()),
            evidence, List.of(), 0);
      }
      StringBuilder sql = new StringBuilder("SELECT * REPLACE (");
      for (int i = 0; i < plans.size(); i++) {
        ColumnPlan p = plans.get(i);
        sql.append(i == 0 ? "" : ", ").append(p.sql(Sql.quoted(p.column()))).append(" AS ")
            .append(Sql.quoted(p.column()));
      }
      sql.append(") FROM ").append(Sql.quoted(request.baseTable()));
      MacroValidator.CteVerdict verdict = validator.validateCte(session, request.baseTable(), sql.toString(), previewRows);
      if (!verdict.accepted()) {
        return CteBuildResult.failed(request, "offline", CteBuildFailure.Kind.REJECTED,
            "the composed CTE did not pass validation", evidence, verdict.rejections(), 0);
      }
      List<CleanedColumn> cleaned = new ArrayList<>();
      Set<String> used = new LinkedHashSet<>();
      for (ColumnPlan p : plans) {
        cleaned.add(new CleanedColumn(p.column(), p.sql(Sql.quoted(p.column())), p.resultType(), p.kinds(),
            p.typed() == ColumnPlan.Typed.NONE ? "clean_key(%s)" : null));
        used.addAll(p.functions());
      }
      List<UdfInfo> udfs = new ArrayList<>();
      for (FunctionSpec f : CleaningFunctions.catalogue()) {
        if (used.contains(f.name() + "/" + f.arity())) {
          udfs.add(new UdfInfo(f.name(), f.signature(), f.returnType(), f.description(), null, UdfInfo.Origin.VETTED));
        }
      }
      return new CteBuildResult(request, "offline", cteName(session, request.baseTable()), verdict.cteSql(), udfs,
          cleaned, verdict.preview(), evidence, List.of(), Optional.empty(), 0);
    } catch (SQLException e) {
      return CteBuildResult.failed(request, "offline", CteBuildFailure.Kind.SQL_ERROR,
          MacroValidator.firstLine(e.getMessage()), List.of(), List.of(), 0);
    }
  }

  /** Typed failures for unknown tables and columns (with "did you mean"), shared by both builders. */
  static Optional<CteBuildResult> checkNames(Connection session, CteRequest request, String builder) throws SQLException {
    List<String[]> described = Jdbc.describeTable(session, request.baseTable());
    if (described.isEmpty()) {
      return Optional.of(CteBuildResult.failed(request, builder, CteBuildFailure.Kind.UNKNOWN_TABLE,
          "no table '" + request.baseTable() + "'" + DidYouMean.hint(request.baseTable(), Jdbc.tableNames(session)),
          List.of(), List.of(), 0));
    }
    List<String> names = described.stream().map(d -> d[0]).toList();
    for (String c : request.columns()) {
      if (!names.contains(c)) {
        return Optional.of(CteBuildResult.failed(request, builder, CteBuildFailure.Kind.UNKNOWN_COLUMN,
            "no column '" + c + "' in " + request.baseTable() + DidYouMean.hint(c, names),
            List.of(), List.of(), 0));
      }
    }
    return Optional.empty();
  }

  /** {@code <table>_clean}, or {@code <table>_clean_cte} if the lake has a table of that name. */
  static String cteName(Connection session, String table) throws SQLException {
    String base = table.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "_") + "_clean";
    if (!Character.isLetter(base.charAt(0))) {
      base = "t_" + base;
    }
    return MacroValidator.cteNameProblems(session, base).isEmpty() ? base : base + "_cte";
  }

  // ---------------------------------------------------------------------------------------------------------

  /** The cleaning chosen for one column; also applies it in Java (the benchmark and tests compare both). */
  record ColumnPlan(
      String column, boolean textRepair, Typed typed, @Nullable Character decimalSeparator, Cleaners.DateOrder dateOrder,
      List<String> vocabulary, List<NoiseKind> kinds) {

    enum Typed { NONE, NUMBER, DATE, BOOLEAN }

    String sql(String ref) {
      String text = textRepair ? "clean_text(" + ref + ")" : ref;
      String e = switch (typed) {
        case NUMBER -> "clean_number(" + text + (decimalSeparator == null ? "" : ", " + Sql.literal(decimalSeparator.toString())) + ")";
        case DATE -> "coalesce(clean_iso_date(" + text + ", " + Sql.literal(dateOrder.name()) + "), " + text + ")";
        case BOOLEAN -> "clean_boolean(" + text + ")";
        case NONE -> text;
      };
      if (!vocabulary.isEmpty()) {
        try {
          e = "clean_category(" + e + ", " + Sql.literal(SqlAst.JSON.writeValueAsString(vocabulary)) + ")";
        } catch (JsonProcessingException ex) {
          throw new IllegalStateException(ex);
        }
      }
      return e;
    }

    @Nullable Object apply(@Nullable String value) {
      if (value == null) {
        return null;
      }
      String text = textRepair ? Cleaners.cleanText(value) : value;
      Object out = switch (typed) {
        case NUMBER -> Cleaners.parseNumber(text, decimalSeparator);
        case DATE -> {
          String iso = Cleaners.isoDate(text, dateOrder);
          yield iso == null ? text : iso;
        }
        case BOOLEAN -> Cleaners.parseBoolean(text);
        case NONE -> text;
      };
      if (!vocabulary.isEmpty() && out instanceof String s) {
        out = Cleaners.canonicalize(s, vocabulary);
      }
      return out;
    }

    String resultType() {
      return switch (typed) {
        case NUMBER -> "DOUBLE";
        case BOOLEAN -> "BOOLEAN";
        default -> "VARCHAR";
      };
    }

    /** Vetted functions used, as {@code name/arity}. */
    Set<String> functions() {
      Set<String> out = new LinkedHashSet<>();
      if (textRepair) {
        out.add("clean_text/1");
      }
      switch (typed) {
        case NUMBER -> out.add(decimalSeparator == null ? "clean_number/1" : "clean_number/2");
        case DATE -> out.add("clean_iso_date/2");
        case BOOLEAN -> out.add("clean_boolean/1");
        default -> { }
      }
      if (!vocabulary.isEmpty()) {
        out.add("clean_category/1");
      }
      return out;
    }
  }

  /** The plan for one column given its findings, or null when nothing should change. */
  @Nullable ColumnPlan plan(ColumnSample sample, List<NoiseFinding> findings) {
    Set<NoiseKind> kinds = EnumSet.noneOf(NoiseKind.class);
    Map<NoiseKind, NoiseFinding> byKind = new LinkedHashMap<>();
    for (NoiseFinding f : findings) {
      boolean actionable = !"false".equals(f.parameters().get("repairable"))
          && !"style".equals(f.parameters().get("scope")) && !"cross-column".equals(f.parameters().get("scope"));
      if (actionable) {
        kinds.add(f.kind());
        byKind.putIfAbsent(f.kind(), f);
      }
    }
    if (kinds.isEmpty()) {
      return null;
    }
    boolean textRepair = kinds.contains(NoiseKind.ENCODING) || kinds.contains(NoiseKind.MARKUP) || kinds.contains(NoiseKind.WHITESPACE);
    List<String> repaired = new ArrayList<>();
    for (ValueCount v : sample.values()) {
      repaired.add(textRepair ? Cleaners.cleanText(v.value()) : v.value());
    }
    ColumnPlan.Typed typed = ColumnPlan.Typed.NONE;
    Character separator = null;
    Cleaners.DateOrder order = Cleaners.DateOrder.DMY;
    if (kinds.contains(NoiseKind.NUMBER_FORMAT)) {
      String sep = byKind.get(NoiseKind.NUMBER_FORMAT).parameters().get("decimal_separator");
      separator = sep == null ? null : sep.charAt(0);
      Character s = separator;
      if (repaired.stream().allMatch(v -> Cleaners.parseNumber(v, s) != null)) {
        typed = ColumnPlan.Typed.NUMBER;
      }
    } else if (kinds.contains(NoiseKind.DATE_FORMAT)) {
      order = "MDY".equals(byKind.get(NoiseKind.DATE_FORMAT).parameters().get("date_order"))
          ? Cleaners.DateOrder.MDY : Cleaners.DateOrder.DMY;
      typed = ColumnPlan.Typed.DATE;
    } else if (kinds.contains(NoiseKind.BOOLEAN)) {
      if (repaired.stream().allMatch(v -> Cleaners.parseBoolean(v) != null)) {
        typed = ColumnPlan.Typed.BOOLEAN;
      }
    }
    List<String> vocabulary = List.of();
    if (typed == ColumnPlan.Typed.NONE && (kinds.contains(NoiseKind.CASING) || kinds.contains(NoiseKind.DIACRITICS))) {
      vocabulary = vocabulary(sample, textRepair);
    }
    if (!textRepair && typed == ColumnPlan.Typed.NONE && vocabulary.isEmpty()) {
      return null;
    }
    List<NoiseKind> addressed = new ArrayList<>();
    for (NoiseKind k : kinds) {
      boolean done = switch (k) {
        case ENCODING, MARKUP, WHITESPACE -> textRepair;
        case NUMBER_FORMAT -> typed == ColumnPlan.Typed.NUMBER;
        case DATE_FORMAT -> typed == ColumnPlan.Typed.DATE;
        case BOOLEAN -> typed == ColumnPlan.Typed.BOOLEAN;
        case CASING, DIACRITICS -> !vocabulary.isEmpty();
      };
      if (done) {
        addressed.add(k);
      }
    }
    return new ColumnPlan(sample.column(), textRepair, typed, separator, order, vocabulary, addressed);
  }

  /**
   * The column's majority spelling of every value that occurs in several spellings (strictly most frequent;
   * groups without a majority are left alone), capped at {@link Builder#maxVocabularyChars}, largest groups
   * first.
   */
  private List<String> vocabulary(ColumnSample sample, boolean textRepair) {
    Map<String, Map<String, Long>> byKey = new LinkedHashMap<>();
    for (ValueCount v : sample.values()) {
      String spelling = textRepair ? Cleaners.cleanText(v.value()) : v.value();
      byKey.computeIfAbsent(Cleaners.textKey(spelling), k -> new LinkedHashMap<>()).merge(spelling, v.count(), Long::sum);
    }
    record Group(String representative, long variantRows) {}
    List<Group> groups = new ArrayList<>();
    for (Map<String, Long> spellings : byKey.values()) {
      if (spellings.size() < 2) {
        continue;
      }
      List<Map.Entry<String, Long>> ranked = spellings.entrySet().stream()
          .sorted(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).reversed()
              .thenComparing(Map.Entry::getKey))
          .toList();
      if (ranked.get(0).getValue().equals(ranked.get(1).getValue())) {
        continue; // no majority spelling: leave the group alone rather than guess
      }
      String best = ranked.get(0).getKey();
      long variants = spellings.values().stream().mapToLong(Long::longValue).sum() - spellings.get(best);
      groups.add(new Group(best, variants));
    }
    groups.sort(Comparator.comparingLong(Group::variantRows).reversed().thenComparing(Group::representative));
    List<String> out = new ArrayList<>();
    int chars = 2;
    for (Group g : groups) {
      chars += g.representative().length() + 4;
      if (chars > maxVocabularyChars) {
        break;
      }
      out.add(g.representative());
    }
    return out;
  }
}
