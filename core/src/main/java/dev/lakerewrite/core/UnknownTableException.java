package dev.lakerewrite.core;

import dev.lakerewrite.sql.DidYouMean;
import java.util.Collection;
import java.util.List;

/** A table name the lake does not have; the message names the nearest ones that exist. */
public final class UnknownTableException extends LakeRewriteException {
  private static final long serialVersionUID = 1L;
  private final String table;
  private final List<String> suggestions;

  UnknownTableException(String table, Collection<String> known) {
    this(table, DidYouMean.suggest(table, known, 3));
  }

  private UnknownTableException(String table, List<String> suggestions) {
    super("the lake has no table \"" + table + "\"" + DidYouMean.format(suggestions));
    this.table = table;
    this.suggestions = List.copyOf(suggestions);
  }

  public String table() {
    return table;
  }

  /** The nearest existing table names, best first. */
  public List<String> suggestions() {
    return suggestions;
  }
}
