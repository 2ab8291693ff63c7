package dev.lakerewrite.core.rewrite;

import static dev.lakerewrite.core.match.EntityNames.isNameLike;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.key;
import static dev.lakerewrite.core.rewrite.OfflinePlanner.literalKey;

import dev.lakerewrite.core.ColumnProfile;
import dev.lakerewrite.core.match.EntityNames;
import dev.lakerewrite.core.rewrite.OfflinePlanner.ColumnTarget;
import dev.lakerewrite.core.rewrite.OfflinePlanner.LiteralFix;
import dev.lakerewrite.core.rewrite.OfflinePlanner.TableChoice;
import dev.lakerewrite.core.sql.QueryAnalysis.ColumnReference;
import dev.lakerewrite.core.sql.QueryAnalysis.Predicate;
import dev.lakerewrite.retrieval.NameSignals;
import dev.lakerewrite.retrieval.TypeFamily;
import dev.lakerewrite.retrieval.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.jspecify.annotations.Nullable;

/**
 * Filter literals (thesis error type Filter Mismatch): a literal the lake spells otherwise ('USD' → 'US Dollar',
 * 'Whangarei' → 'Whangārei') is replaced by the lake's spelling, found in the filtered column or, where the column
 * has no counterpart, in the table's categorical column that holds it; a literal that exists with noisy variants is
 * compared by the cleaned matching key. Asks for SEARCH_VALUE where the scratchpad has no value evidence yet.
 */
final class FilterLiterals extends PlannerPart {
  /** A value-search hit at or above this score replaces a filter literal. */
  static final double VALUE_THRESHOLD = 0.55;

  FilterLiterals(PlanningContext context) {
    super(context);
  }

  Map<String, LiteralFix> literalFixes(Map<String, TableChoice> tables, List<Action> wanted,
      List<String> notes, Set<String> keyed) {
    return literalFixes(tables, Map.of(), wanted, notes, keyed);
  }

  /**
   * The literal fixes, with the union partners of each lake table ({@link UnionsAndNoise#unions}): a literal that a
   * partner's column holds ('RUSSIA' in the archived part of a nation table split by rows) is a value of the union
   * the query reads, not a spelling to replace by the nearest value of the first part ('GERMANY').
   */
  Map<String, LiteralFix> literalFixes(Map<String, TableChoice> tables,
      Map<String, List<Evidence.UnionPartner>> unions, List<Action> wanted, List<String> notes, Set<String> keyed) {
    Map<String, LiteralFix> fixes = new LinkedHashMap<>();
    for (Predicate p : analysis.predicates()) {
      boolean like = p.operator().contains("LIKE");
      boolean equality = p.operator().equals("=") || p.operator().equals("<>") || p.operator().contains("IN");
      if (!like && !equality) {
        continue;
      }
      Optional<TableChoice> owner = owner(p.column(), tables);
      if (owner.isEmpty()) {
        continue;
      }
      TableChoice t = owner.get();
      ColumnTarget target = t.columns().get(key(p.column().column()));
      // A literal of the list the column holds as written says the column spells the query's values as the query
      // does: another literal of the list it lacks is a value absent from the data (TPC-H q19's 'AIR REG' beside
      // 'AIR'; the data says 'REG AIR'), replaced only by a value equal to it up to case, spaces and diacritics.
      // Each literal's lookup runs once: the list's check and the literal's own read the same answer.
      Map<String, Boolean> asWritten = new HashMap<>();
      java.util.function.Predicate<String> held = l -> asWritten.computeIfAbsent(l,
          x -> lake.valueExists(target.lakeTable(), target.lakeColumn(), x));
      boolean siblingAsWritten = !like && target != null && p.literals().size() > 1
          && p.literals().stream().anyMatch(l -> l != null && held.test(l));
      for (int i = 0; i < p.literals().size(); i++) {
        String lit = p.literals().get(i);
        String kind = i < p.literalKinds().size() ? p.literalKinds().get(i) : "STRING";
        if (lit == null || !kind.equals("STRING") && !kind.equals("VARCHAR")) {
          continue;
        }
        String table = target == null ? t.lake() : target.lakeTable();
        if (target != null) {
          boolean found = like ? lake.patternExists(table, target.lakeColumn(), lit) : held.test(lit);
          if (found) {
            // Noisy spellings of a value that exists ('JAVA', ' java') are rows the filter should keep: compare by
            // the vetted matching key (part of cleaning, so off with BUILD_CTE).
            if (!like && state.enabled(ActionType.BUILD_CTE)) {
              long[] counts = lake.variantCounts(table, target.lakeColumn(), lit);
              if (counts[1] > counts[0]) {
                keyed.add(literalKey(t.assumed(), p.column().column(), lit));
                notes.add("'" + lit + "' also appears as " + (counts[1] - counts[0]) + " noisy spelling(s) in " + table
                    + "." + target.lakeColumn() + ": compared by clean_key");
              }
            }
            continue;
          }
          if (inUnionPartner(unions.getOrDefault(table, List.of()), target.lakeColumn(), lit, like)) {
            continue;
          }
        }
        String probe = like ? lit.replace("%", " ").replace("_", " ").strip() : lit;
        if (probe.isEmpty()) {
          continue;
        }
        if (siblingAsWritten) {
          Optional<String> same = equalSpelling(table, target.lakeColumn(), lit);
          if (same.isPresent()) {
            fixes.put(literalKey(t.assumed(), p.column().column(), lit),
                new LiteralFix(table, target.lakeColumn(), same.get(), 1.0));
            notes.add("'" + lit + "' is spelled '" + same.get() + "' in " + table + "." + target.lakeColumn());
          } else {
            notes.add("'" + lit + "' kept as written: " + table + "." + target.lakeColumn()
                + " holds other literals of its list as written and not this one");
          }
          continue;
        }
        Optional<Scratchpad.Entry> e = pad.entry(Scratchpad.Section.VALUES, table + "|" + probe);
        if (e.isEmpty()) {
          if (state.enabled(ActionType.SEARCH_VALUE)) {
            wanted.add(new Action.SearchValue(table, probe));
          }
          continue;
        }
        Evidence.ValueSearch vs = (Evidence.ValueSearch) e.get().payload();
        Optional<String[]> spelled = like ? Optional.empty() : target != null && !target.weak()
            ? spelling(table, target.lakeColumn(), lit).map(v -> new String[] {target.lakeColumn(), v})
            : categorySpelling(table, lit);
        if (spelled.isPresent()) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, spelled.get()[0], spelled.get()[1], 1.0));
          notes.add("'" + lit + "' is spelled '" + spelled.get()[1] + "' in " + table + "." + spelled.get()[0]);
          continue;
        }
        Optional<Evidence.ValueHit> hit = pickHit(vs, target, p.column().column(), t);
        if (hit.isPresent() && !like) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, hit.get().column(), hit.get().value(), hit.get().score()));
          notes.add("'" + lit + "' is spelled '" + hit.get().value() + "' in " + table + "." + hit.get().column());
        } else if (hit.isPresent() && target == null) {
          fixes.put(literalKey(t.assumed(), p.column().column(), lit),
              new LiteralFix(table, hit.get().column(), lit, hit.get().score()));
        }
      }
    }
    return fixes;
  }

  /** Whether a union partner holds the literal (or a value the pattern matches) in the column it unions with. */
  private boolean inUnionPartner(List<Evidence.UnionPartner> partners, String column, String literal, boolean like) {
    for (Evidence.UnionPartner partner : partners) {
      String theirs = partner.columnMapping().get(column);
      if (theirs != null && (like ? lake.patternExists(partner.table(), theirs, literal)
          : lake.valueExists(partner.table(), theirs, literal))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The hit to use for a filter literal: the best one in the mapped column if it is good enough; else an exact
   * or normalised match anywhere (the literal names a value of another column); else, when the column mapping
   * itself is weak, a strong match in a categorical column (filters usually select a category). Hits in
   * categorical columns get a small bonus in the ranking unless the filtered column names the rows' entity.
   */
  Optional<Evidence.ValueHit> pickHit(Evidence.ValueSearch vs, @Nullable ColumnTarget mapped,
      String assumedColumn) {
    return pickHit(vs, mapped, assumedColumn, null);
  }

  Optional<Evidence.ValueHit> pickHit(Evidence.ValueSearch vs, @Nullable ColumnTarget mapped,
      String assumedColumn, @Nullable TableChoice owner) {
    ColumnTarget target = mapped == null || mapped.weak() ? null : mapped;
    for (Evidence.ValueHit h : vs.hits()) {
      if (target != null && h.column().equals(target.lakeColumn()) && h.score() >= VALUE_THRESHOLD - 0.05
          && respells(vs, h)) {
        return Optional.of(h);
      }
    }
    for (Evidence.ValueHit h : vs.hits()) {
      if (h.score() >= EXACT_HIT) {
        return Optional.of(h);
      }
    }
    if (target == null || target.score() < 0.8) {
      // A filter on the rows' own name is not a category; an obsolete table's name column is (its entities are
      // a category of the rows).
      boolean entityFilter = assumedColumn != null && (owner != null
          ? owner.mergedInto() == null && isNameLike(assumedColumn, owner.assumed())
          : analysis.tableNames().stream().anyMatch(t -> isNameLike(assumedColumn, t)));
      Evidence.ValueHit best = null;
      double bestScore = 0;
      for (Evidence.ValueHit h : vs.hits()) {
        double u = lake.profile(vs.table()).column(h.column()).map(c -> c.uniqueness()).orElse(1.0);
        double s = h.score() + (entityFilter ? 0 : CATEGORICAL_BONUS * (1 - u));
        if (s > bestScore && respells(vs, h)) {
          best = h;
          bestScore = s;
        }
      }
      if (best != null && best.score() >= 0.75) {
        return Optional.of(best);
      }
    }
    return Optional.empty();
  }

  /**
   * The lake's spelling of a literal in the column it filters, once SEARCH_VALUE has looked into the table:
   * the unique value equal to it up to case, spaces and diacritics ('Whangarei' → 'Whangārei'); else the unique
   * value it abbreviates ('US' → 'United States of America'); else the unique shortest value containing all its
   * words ('Northland' → 'Northland Region'). Empty when none, or when several fit equally.
   */
  Optional<String> spelling(String table, String column, String literal) {
    return spellings.computeIfAbsent(table + "|" + column + "|" + literal, k -> findSpelling(table, column, literal));
  }

  /** The unique value of the column equal to the literal up to case, spaces and diacritics. */
  private Optional<String> equalSpelling(String table, String column, String literal) {
    return equalSpelling(lake.distinctValues(table, column, SPELLING_VALUES), literal);
  }

  private static Optional<String> equalSpelling(List<String> values, String literal) {
    String norm = dev.lakerewrite.retrieval.Values.normalize(literal);
    List<String> equal = values.stream().filter(v -> norm.equals(dev.lakerewrite.retrieval.Values.normalize(v)))
        .toList();
    return equal.size() == 1 ? Optional.of(equal.get(0)) : Optional.empty();
  }

  private Optional<String> findSpelling(String table, String column, String literal) {
    List<String> values = lake.distinctValues(table, column, SPELLING_VALUES);
    Optional<String> equal = equalSpelling(values, literal);
    if (equal.isPresent()) {
      return equal;
    }
    String norm = dev.lakerewrite.retrieval.Values.normalize(literal);
    String acronym = literal.replace(".", "").strip();
    if (acronym.length() >= 2 && acronym.length() <= 5 && acronym.chars().allMatch(Character::isUpperCase)) {
      List<String> abbreviated = values.stream().filter(v -> {
        String initials = initials(v);
        return initials.length() >= acronym.length() && initials.startsWith(acronym);
      }).toList();
      if (abbreviated.size() == 1) {
        return Optional.of(abbreviated.get(0));
      }
      // A code that spells each word's start in turn: 'USD' → 'US Dollar', 'NZD' → 'New Zealand dollar', 'EUR' →
      // 'Euro'.
      List<String> spelled = abbreviated.isEmpty()
          ? values.stream().filter(v -> spellsWordStarts(acronym, v)).toList() : List.of();
      if (spelled.size() == 1) {
        return Optional.of(spelled.get(0));
      }
    }
    Set<String> words = Set.of(norm.split("[^\\p{L}\\p{N}]+"));
    String best = null;
    int bestExtra = Integer.MAX_VALUE;
    boolean tie = false;
    for (String v : values) {
      List<String> vw = List.of(dev.lakerewrite.retrieval.Values.normalize(v).split("[^\\p{L}\\p{N}]+"));
      if (!vw.containsAll(words)) {
        continue;
      }
      int extra = vw.size() - words.size();
      if (extra < bestExtra) {
        best = v;
        bestExtra = extra;
        tie = false;
      } else if (extra == bestExtra) {
        tie = true;
      }
    }
    return best == null || tie || bestExtra > 3 ? Optional.empty() : Optional.of(best);
  }

  /**
   * When the filtered column has no counterpart: the literal's spelling in the table's one categorical column
   * (few distinct values) that has it ('district' → "instance of" = 'district of New Zealand'). Empty when no
   * or several columns have it. Returns {column, value}.
   */
  Optional<String[]> categorySpelling(String table, String literal) {
    return categorySpellings.computeIfAbsent(table + "|" + literal, k -> findCategorySpelling(table, literal));
  }

  private final Map<String, Optional<String[]>> categorySpellings = new java.util.HashMap<>();
  private final Map<String, Optional<String>> spellings = new java.util.HashMap<>();

  private Optional<String[]> findCategorySpelling(String table, String literal) {
    String[] found = null;
    for (ColumnProfile c : lake.profile(table).columns()) {
      if (c.typeFamily() != TypeFamily.STRING || c.uniqueness() > 0.3 || c.nonNullCount() == 0) {
        continue;
      }
      Optional<String> v = spelling(table, c.column(), literal);
      if (v.isPresent()) {
        if (found != null) {
          return Optional.empty();
        }
        found = new String[] {c.column(), v.get()};
      }
    }
    return Optional.ofNullable(found);
  }

  /** Distinct values of a column read to find a literal's spelling. */
  static final int SPELLING_VALUES = 5_000;

  private static final Set<String> STOPWORDS = Set.of("of", "the", "and", "de", "la", "del", "du", "des", "le");

  /** Initials of the significant words, upper case: "United States of America" → "USA". */
  static String initials(String value) {
    StringBuilder sb = new StringBuilder();
    for (String w : value.split("[\\s\\-]+")) {
      if (!w.isEmpty() && !STOPWORDS.contains(w.toLowerCase(Locale.ROOT)) && Character.isLetter(w.charAt(0))) {
        sb.append(Character.toUpperCase(w.charAt(0)));
      }
    }
    return sb.toString();
  }

  /**
   * Whether a code spells the starts of a value's significant words in order, every word giving at least one letter
   * and the code's letters all used ({@code USD}: {@code US} of "US", {@code D} of "Dollar"). Case is ignored.
   * Backtracks over at most five letters.
   */
  static boolean spellsWordStarts(String code, String value) {
    List<String> words = new ArrayList<>();
    for (String w : value.split("[\\s\\-]+")) {
      if (!w.isEmpty() && !STOPWORDS.contains(w.toLowerCase(Locale.ROOT)) && Character.isLetter(w.charAt(0))) {
        words.add(w.toUpperCase(Locale.ROOT));
      }
    }
    return !words.isEmpty() && spells(code.toUpperCase(Locale.ROOT), 0, words, 0);
  }

  private static boolean spells(String code, int at, List<String> words, int word) {
    if (word == words.size()) {
      return at == code.length();
    }
    String w = words.get(word);
    for (int n = 1; n <= w.length() && at + n <= code.length(); n++) {
      if (!code.regionMatches(at, w, 0, n)) {
        break;
      }
      if (spells(code, at + n, words, word + 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a hit may stand for the searched literal: in a column whose values tell rows apart (unique names,
   * comments), only a value written nearly alike is the literal's spelling ({@link #plausibleRespelling}); a value
   * merely close in meaning is another row ('unts. unusual, final asymptotes' for 's. ironic, unusual asymptotes
   * wake blithely r'). In a category column a value close in meaning is the lake's word for the literal's.
   */
  private boolean respells(Evidence.ValueSearch vs, Evidence.ValueHit h) {
    double uniqueness = lake.profile(vs.table()).column(h.column()).map(c -> c.uniqueness()).orElse(1.0);
    return uniqueness < EntityNames.UNIQUE || plausibleRespelling(vs.searched(), h.value());
  }

  /**
   * Whether two texts can be one value written two ways, by their letters and words alone: equal once normalised
   * (case, accents, spaces, markup), mostly the same words (Jaccard of the word sets at least a half: 'AIR REG' and
   * 'REG AIR', 'Northland' and 'Northland Region'), one abbreviating the other ('US' and 'United States'), or a
   * few letters apart with the same digits (edit distance at most a quarter of the longer: 'Brasil' and 'Brazil').
   * O(n·m) for the edit distance of texts of n and m letters.
   */
  static boolean plausibleRespelling(String literal, String value) {
    String a = Values.normalize(literal);
    String b = Values.normalize(value);
    if (a.equals(b)) {
      return true;
    }
    Set<String> wa = new HashSet<>(NameSignals.tokens(a));
    Set<String> wb = new HashSet<>(NameSignals.tokens(b));
    Set<String> both = new HashSet<>(wa);
    both.retainAll(wb);
    Set<String> either = new HashSet<>(wa);
    either.addAll(wb);
    if (!either.isEmpty() && 2 * both.size() >= either.size()) {
      return true;
    }
    if (NameSignals.wholeAbbreviation(a, b) > 0 || initials(value).startsWith(
        literal.replace(".", "").strip().toUpperCase(Locale.ROOT)) && literal.strip().length() >= 2) {
      return true;
    }
    // Digits are no spelling: Customer#000000042 and Customer#000000917 are two customers.
    int longer = Math.max(a.length(), b.length());
    return longer > 0 && a.replaceAll("\\D", "").equals(b.replaceAll("\\D", ""))
        && 4 * LevenshteinDistance.getDefaultInstance().apply(a, b) <= longer;
  }

  /** Ranking bonus of a value hit in a column with few distinct values (a category), scaled by 1 − uniqueness. */
  static final double CATEGORICAL_BONUS = 0.3;

  /** Literal bonus of an exact or normalised match (retrieval's {@code LiteralMatch}) puts a hit above this. */
  static final double EXACT_HIT = 1.35;

  /** The assumed table a column reference belongs to (its own, or the one whose lake table has it). */
  Optional<TableChoice> owner(ColumnReference ref, Map<String, TableChoice> tables) {
    if (ref.table().isPresent()) {
      TableChoice t = tables.get(key(ref.table().get()));
      return Optional.ofNullable(t);
    }
    return tables.values().stream().filter(t -> t.columns().containsKey(key(ref.column())))
        .max(Comparator.comparingDouble(t -> t.columns().get(key(ref.column())).score()))
        .or(() -> tables.values().stream().findFirst());
  }
}
