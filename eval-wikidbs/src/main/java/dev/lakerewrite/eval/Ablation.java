package dev.lakerewrite.eval;

import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.rewrite.ActionType;
import dev.lakerewrite.sql.DidYouMean;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The ablations of thesis §7.4.2: the iterative rewriter with one capability switched off, in both the offline
 * and the LLM agents.
 */
public enum Ablation {
  /** No cleaning CTEs: noisy values cannot be normalised. */
  NO_BUILD_CTE("no-build-cte", "no BUILD_CTE", ActionType.BUILD_CTE),
  /** No tailored table search beyond basic retrieval. */
  NO_SEARCH_TABLE("no-search-table", "no SEARCH_TABLE", ActionType.SEARCH_TABLE),
  /** No search for unionable tables. */
  NO_UNION_SEARCH("no-union-search", "no UNION_SEARCH", ActionType.UNION_SEARCH),
  /** No value lookups for filter predicates and join keys. */
  NO_SEARCH_VALUE("no-search-value", "no SEARCH_VALUE", ActionType.SEARCH_VALUE),
  /** No table–table relevance in basic retrieval and no FIND_JOIN_PATH. */
  NO_JOIN_GRAPH("no-join-graph", "no JOIN_GRAPH", null);

  private final String label;
  private final String title;
  private final @Nullable ActionType action;

  Ablation(String label, String title, @Nullable ActionType action) {
    this.label = label;
    this.title = title;
    this.action = action;
  }

  /** The command-line spelling, e.g. {@code no-build-cte}. */
  public String label() {
    return label;
  }

  /** The name in reports, e.g. {@code no BUILD_CTE}. */
  public String title() {
    return title;
  }

  /** Switches the capability off on a rewriter builder. */
  public Rewriter.Builder apply(Rewriter.Builder builder) {
    return action == null ? builder.joinGraph(false) : builder.disable(action);
  }

  public static List<String> labels() {
    return Arrays.stream(values()).map(Ablation::label).toList();
  }

  /**
   * The ablation with this label; case and separators are ignored and the {@code no} prefix is optional
   * ({@code no-build-cte}, {@code BUILD_CTE}, {@code no BUILD_CTE} are the same).
   */
  public static Optional<Ablation> fromLabel(String label) {
    if (label == null) {
      return Optional.empty();
    }
    String key = LabelKeys.key(label);
    String bare = key.startsWith("no") ? key.substring(2) : key;
    return Arrays.stream(values())
        .filter(a -> LabelKeys.key(a.label).equals(key) || LabelKeys.key(a.label).substring(2).equals(bare))
        .findFirst();
  }

  /**
   * The ablation with this label.
   *
   * @throws IllegalArgumentException naming the known labels (and the closest one) when there is none
   */
  public static Ablation parse(String label) {
    return fromLabel(label).orElseThrow(() -> new IllegalArgumentException("unknown ablation '" + label + "'"
        + DidYouMean.hint(String.valueOf(label), labels(), 1) + " (known: " + String.join(", ", labels()) + ")"));
  }
}
