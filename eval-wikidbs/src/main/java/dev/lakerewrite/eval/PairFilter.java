package dev.lakerewrite.eval;

import dev.lakerewrite.sql.DidYouMean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Which pairs of a file to run: by id, by tag (any of them), then the first {@code limit}, in file order.
 *
 * @param ids pair ids to keep (empty: all)
 * @param tags keep pairs with at least one of these tags (empty: all)
 * @param limit keep at most this many (empty: no limit)
 */
public record PairFilter(Set<String> ids, Set<DifficultyTag> tags, OptionalInt limit) {

  /** Every pair. */
  public static final PairFilter ALL = new PairFilter(Set.of(), Set.of(), OptionalInt.empty());

  public PairFilter {
    ids = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(Objects.requireNonNull(ids, "ids")));
    tags = tags.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(tags));
    Objects.requireNonNull(limit, "limit");
    if (limit.isPresent() && limit.getAsInt() < 1) {
      throw new IllegalArgumentException("the limit must be at least 1, was " + limit.getAsInt());
    }
  }

  /**
   * The selected pairs, in file order.
   *
   * @throws IllegalArgumentException when an id is not in {@code pairs} (with the closest one) or nothing is left
   */
  public List<QueryResultPair> apply(List<QueryResultPair> pairs) {
    Collection<String> known = pairs.stream().map(QueryResultPair::id).toList();
    for (String id : ids) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException("no pair '" + id + "'" + DidYouMean.hint(id, known, 1));
      }
    }
    List<QueryResultPair> out = new ArrayList<>();
    for (QueryResultPair p : pairs) {
      boolean idOk = ids.isEmpty() || ids.contains(p.id());
      boolean tagOk = tags.isEmpty() || p.difficultyTags().stream().anyMatch(tags::contains);
      if (idOk && tagOk && (limit.isEmpty() || out.size() < limit.getAsInt())) {
        out.add(p);
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no pair has " + (ids.isEmpty() ? "" : "one of the ids " + ids
          + (tags.isEmpty() ? "" : " and ")) + (tags.isEmpty() ? "" : "one of the tags " + tags));
    }
    return out;
  }
}
