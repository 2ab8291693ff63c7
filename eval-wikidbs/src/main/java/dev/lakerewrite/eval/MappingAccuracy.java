package dev.lakerewrite.eval;

import dev.lakerewrite.core.RewriteResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The schema matcher's column-mapping accuracy against a pair's {@link GoldMapping}.
 *
 * <h2>Where the chosen mapping comes from</h2>
 * A rewrite reports the mapping it chose through a {@link ChosenMapping} (given to
 * {@code Evaluation.Builder.chosenMapping}): assumed {@code table.column} → the lake {@code table.column}s it
 * read for it. The offline rewriter reports it ({@code RewriteResult.mapping()}, read by {@link
 * ChosenMapping#REPORTED}, the default); LLM agents and baselines do not, and their accuracy is not computed
 * rather than guessed from the output SQL.
 *
 * <h2>The metric</h2>
 * Over the gold mapping's assumed columns: a column is mapped right when the chosen mapping has it, names at least
 * one lake column for it, and every lake column it names is one of the gold ones (a column split over a union's
 * parts may name any of them; a code-encoded column its code column or the lookup's label). Accuracy = right /
 * gold columns. Names compare ignoring case.
 *
 * <p>Beside it, {@link #goldColumnsRead} is a weaker figure any output SQL allows: the share of gold columns whose
 * lake column the output query mentions at all. It shows whether the right columns were reached, not that they
 * were mapped to the right assumed names.
 */
public final class MappingAccuracy {

  private MappingAccuracy() {}

  /** Reads the mapping a rewrite chose, when the rewriter reports one. */
  @FunctionalInterface
  public interface ChosenMapping {
    /** Assumed {@code table.column} (lower case) → lake {@code table.column}s; empty when not reported. */
    Optional<Map<String, Set<String>>> of(RewriteResult result);

    /** The rewriter reports no mapping. */
    ChosenMapping NOT_REPORTED = r -> Optional.empty();

    /** The mapping the rewrite reports ({@code RewriteResult.mapping()}), when its agent reports one. */
    ChosenMapping REPORTED = r -> r.mapping().isEmpty() ? Optional.empty() : Optional.of(r.mapping().columns());
  }

  /**
   * One pair's score.
   *
   * @param goldColumns assumed columns in the gold mapping
   * @param right those mapped right
   * @param misses the others: what was chosen for each, and where it is (assumed column order of the gold mapping)
   */
  public record Score(int goldColumns, int right, List<Miss> misses) {
    public Score {
      misses = List.copyOf(misses);
      if (right + misses.size() != goldColumns) {
        throw new IllegalArgumentException("right (" + right + ") and misses (" + misses.size()
            + ") must add up to the gold columns (" + goldColumns + ")");
      }
    }

    public double accuracy() {
      return goldColumns == 0 ? 1.0 : (double) right / goldColumns;
    }
  }

  /**
   * An assumed column mapped wrong.
   *
   * @param assumed the assumed {@code table.column}
   * @param chosen the lake {@code table.column}s the rewrite read for it (empty: it reported none)
   * @param gold where it is
   */
  public record Miss(String assumed, Set<String> chosen, List<String> gold) {
    public Miss {
      chosen = Set.copyOf(chosen);
      gold = List.copyOf(gold);
    }
  }

  /** Scores a chosen mapping; empty when the gold mapping has no columns. */
  public static Optional<Score> score(GoldMapping gold, Map<String, Set<String>> chosen) {
    if (gold.columns().isEmpty()) {
      return Optional.empty();
    }
    int right = 0;
    List<Miss> misses = new ArrayList<>();
    for (Map.Entry<String, GoldMapping.ColumnGold> e : gold.columns().entrySet()) {
      Set<String> picked = lookup(chosen, e.getKey());
      Set<String> allowed = lower(e.getValue().lake());
      if (!picked.isEmpty() && allowed.containsAll(picked)) {
        right++;
      } else {
        misses.add(new Miss(e.getKey(), new TreeSet<>(picked), e.getValue().lake()));
      }
    }
    return Optional.of(new Score(gold.columns().size(), right, misses));
  }

  /**
   * The share of gold columns whose lake column (table and column name) the output SQL mentions; empty when the
   * gold mapping has no columns or there is no SQL.
   */
  public static Optional<Double> goldColumnsRead(GoldMapping gold, String sql) {
    if (gold.columns().isEmpty() || sql == null || sql.isBlank()) {
      return Optional.empty();
    }
    String text = sql.toLowerCase(Locale.ROOT);
    int read = 0;
    for (GoldMapping.ColumnGold c : gold.columns().values()) {
      boolean any = false;
      for (String lakeColumn : c.lake()) {
        int dot = lakeColumn.indexOf('.');
        String table = lakeColumn.substring(0, dot).toLowerCase(Locale.ROOT);
        String column = lakeColumn.substring(dot + 1).toLowerCase(Locale.ROOT);
        any |= mentions(text, table) && mentions(text, column);
      }
      if (any) {
        read++;
      }
    }
    return Optional.of((double) read / gold.columns().size());
  }

  private static boolean mentions(String text, String name) {
    int i = text.indexOf(name);
    while (i >= 0) {
      boolean before = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) && text.charAt(i - 1) != '_';
      int end = i + name.length();
      boolean after = end >= text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_';
      if (before && after) {
        return true;
      }
      i = text.indexOf(name, i + 1);
    }
    return false;
  }

  private static Set<String> lookup(Map<String, Set<String>> chosen, String key) {
    for (Map.Entry<String, Set<String>> e : chosen.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return lower(List.copyOf(e.getValue()));
      }
    }
    return Set.of();
  }

  private static Set<String> lower(List<String> names) {
    Set<String> out = new HashSet<>();
    names.forEach(n -> out.add(n.toLowerCase(Locale.ROOT)));
    return out;
  }
}
