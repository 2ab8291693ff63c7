package dev.lakerewrite.core.optimize;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.sql.Trees;
import dev.lakerewrite.retrieval.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * E3-Rewrite's demonstration pool: verified rewrites with a significant speedup (at least 1.5x by default), kept
 * for reuse and retrieved by a hybrid similarity {@code alpha * structural + (1 - alpha) * semantic} (eq. 5):
 * structural similarity from the tree edit distance of the parsed queries (eq. 6), semantic similarity as the
 * cosine of sentence embeddings (eq. 7) when an embedder is available. A pool opened on a file is saved (JSON)
 * after every addition. Thread-safe.
 */
public final class DemonstrationPool {
  /**
   * A verified rewrite.
   *
   * @param originalSql the query as it was given
   * @param rewrittenSql the verified, faster rewrite
   * @param speedup the measured speedup
   * @param label the recipe or step that produced it
   * @param explanation what the rewrite does
   */
  public record Demonstration(String originalSql, String rewrittenSql, double speedup, String label,
      String explanation) {
    public Demonstration {
      Objects.requireNonNull(originalSql, "originalSql");
      Objects.requireNonNull(rewrittenSql, "rewrittenSql");
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(explanation, "explanation");
    }
  }

  /** A retrieved demonstration with its similarities. */
  record Scored(Demonstration demonstration, double similarity, double structural, double semantic) {}

  private final List<Demonstration> demonstrations = new ArrayList<>();
  private final @Nullable Path file;
  private final Map<String, TreeEditDistance.Node> trees = new HashMap<>();
  private final Map<String, float[]> embeddings = new HashMap<>();

  private DemonstrationPool(@Nullable Path file, List<Demonstration> initial) {
    this.file = file;
    this.demonstrations.addAll(initial);
  }

  /** An empty pool that lives as long as the object. */
  public static DemonstrationPool inMemory() {
    return new DemonstrationPool(null, List.of());
  }

  /**
   * A pool stored in a JSON file: loaded if the file exists, saved after every addition.
   *
   * @throws LakeRewriteException if the file exists but cannot be read as a pool
   */
  public static DemonstrationPool open(Path file) {
    Objects.requireNonNull(file, "file");
    if (!Files.exists(file)) {
      return new DemonstrationPool(file, List.of());
    }
    try {
      List<Demonstration> loaded = Trees.JSON.readValue(file.toFile(), new TypeReference<List<Demonstration>>() { });
      return new DemonstrationPool(file, loaded);
    } catch (IOException e) {
      throw new LakeRewriteException("cannot read the demonstration pool " + file + ": " + e.getMessage(), e);
    }
  }

  /** Adds a demonstration (and saves the pool when it has a file). */
  public synchronized void add(Demonstration d) {
    Objects.requireNonNull(d, "d");
    demonstrations.add(d);
    if (file != null) {
      try {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        if (file.getParent() != null) {
          Files.createDirectories(file.getParent());
        }
        Trees.JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), demonstrations);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        throw new LakeRewriteException("cannot save the demonstration pool " + file + ": " + e.getMessage(), e);
      }
    }
  }

  public synchronized List<Demonstration> all() {
    return List.copyOf(demonstrations);
  }

  public synchronized int size() {
    return demonstrations.size();
  }

  /** The file the pool is saved to, if any. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * The {@code k} most similar demonstrations to a query.
   *
   * @param alpha weight of structural similarity; 1 when there is no embedder
   */
  synchronized List<Scored> retrieve(String sql, Trees parser, @Nullable Embedder embedder, int k, double alpha) {
    if (demonstrations.isEmpty() || k <= 0) {
      return List.of();
    }
    TreeEditDistance.Node query = tree(sql, parser);
    float[] queryEmbedding = embedder == null ? null : embedding(sql, embedder);
    double a = embedder == null ? 1.0 : alpha;
    List<Scored> scored = new ArrayList<>();
    for (Demonstration d : demonstrations) {
      TreeEditDistance.Node t = tree(d.originalSql(), parser);
      if (t == null || query == null) {
        continue;
      }
      double structural = TreeEditDistance.similarity(query, t);
      double semantic = queryEmbedding == null ? 0 : Embedder.cosine(queryEmbedding, embedding(d.originalSql(), embedder));
      scored.add(new Scored(d, a * structural + (1 - a) * semantic, structural, semantic));
    }
    scored.sort(Comparator.comparingDouble(Scored::similarity).reversed());
    return scored.size() > k ? List.copyOf(scored.subList(0, k)) : List.copyOf(scored);
  }

  private TreeEditDistance.@Nullable Node tree(String sql, Trees parser) {
    return trees.computeIfAbsent(sql, s -> {
      try {
        return TreeEditDistance.of(parser.statement(s));
      } catch (RuntimeException e) {
        return null;
      }
    });
  }

  private float[] embedding(String sql, Embedder embedder) {
    return embeddings.computeIfAbsent(embedder.modelId() + "\n" + sql, k -> embedder.embed(sql));
  }
}
