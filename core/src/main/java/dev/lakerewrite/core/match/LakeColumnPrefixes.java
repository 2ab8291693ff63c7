package dev.lakerewrite.core.match;

import dev.lakerewrite.core.CatalogTable;
import dev.lakerewrite.retrieval.NameSignals;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/** The leading word a lake table's columns share, found once per catalog table (see {@link MatchLake#bareColumnName}). */
final class LakeColumnPrefixes {
  private static final Map<CatalogTable, Optional<String>> SHARED = Collections.synchronizedMap(new WeakHashMap<>());

  private LakeColumnPrefixes() {}

  static String bare(CatalogTable table, String column) {
    Optional<String> word = SHARED.computeIfAbsent(table,
        t -> NameSignals.sharedLeadingWord(t.columns().stream().map(CatalogTable.Column::name).toList()));
    return word.map(w -> NameSignals.withoutLeadingWord(column, w)).orElse(column);
  }
}
