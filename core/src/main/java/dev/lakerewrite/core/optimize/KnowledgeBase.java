package dev.lakerewrite.core.optimize;

import dev.lakerewrite.core.LakeRewriteException;
import dev.lakerewrite.core.sql.Trees;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * QUITE's structured knowledge base (§5.1), for DuckDB: rewrite recipes, each a question (the problem, with an
 * example query) and an answer (the strategy, with the rewritten example), including what DuckDB already does
 * well and must be left alone. Retrieved with Lucene's BM25 over title, problem, strategy and keywords. The
 * entries are generated from {@link RecipeRegistry}; the index is built in memory once per process (a few
 * milliseconds).
 */
final class KnowledgeBase {
  /** One recipe. */
  record Recipe(String id, String category, String title, String problem, String strategy, String engines,
      String keywords, String before, String after) {
    /** The recipe as prompt text. */
    String format() {
      return "### " + title + " [" + id + "]\nProblem: " + problem + "\nStrategy: " + strategy + "\nEngines: "
          + engines + "\nExample:\n  " + before + "\n=>\n  " + after;
    }
  }

  /** A retrieved recipe and its BM25 score. */
  record Hit(Recipe recipe, double score) {}

  private static volatile KnowledgeBase shared;

  private final List<Recipe> recipes;
  private final Analyzer analyzer = new EnglishAnalyzer();
  private final IndexSearcher searcher;

  private KnowledgeBase(List<Recipe> recipes) {
    this.recipes = List.copyOf(recipes);
    try {
      ByteBuffersDirectory dir = new ByteBuffersDirectory();
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity()))) {
        for (int i = 0; i < recipes.size(); i++) {
          Recipe r = recipes.get(i);
          Document d = new Document();
          d.add(new StringField("id", r.id(), Field.Store.YES));
          d.add(new StoredField("index", i));
          d.add(new TextField("text", String.join(" ", r.title(), r.problem(), r.strategy(), r.keywords(),
              r.keywords()), Field.Store.NO));
          w.addDocument(d);
        }
      }
      this.searcher = new IndexSearcher(DirectoryReader.open(dir));
      this.searcher.setSimilarity(new BM25Similarity());
    } catch (IOException e) {
      throw new LakeRewriteException("cannot index the optimizer's recipes: " + e.getMessage(), e);
    }
  }

  /** The recipes shipped with the library. */
  static KnowledgeBase shared() {
    KnowledgeBase kb = shared;
    if (kb == null) {
      synchronized (KnowledgeBase.class) {
        kb = shared;
        if (kb == null) {
          kb = new KnowledgeBase(RecipeRegistry.ALL.stream().map(dev.lakerewrite.core.optimize.Recipe::knowledge)
              .toList());
          shared = kb;
        }
      }
    }
    return kb;
  }

  static KnowledgeBase of(List<Recipe> recipes) {
    return new KnowledgeBase(recipes);
  }

  List<Recipe> recipes() {
    return recipes;
  }

  Optional<Recipe> recipe(String id) {
    return recipes.stream().filter(r -> r.id().equals(id)).findFirst();
  }

  /** The top {@code k} recipes for a free-text description of the query (its features, plan, feedback). */
  List<Hit> search(String text, int k) {
    List<String> terms = analyze(text);
    if (terms.isEmpty() || k <= 0) {
      return List.of();
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    for (String t : new java.util.LinkedHashSet<>(terms)) {
      q.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
    }
    try {
      List<Hit> out = new ArrayList<>();
      for (ScoreDoc sd : searcher.search(q.build(), k).scoreDocs) {
        int index = searcher.storedFields().document(sd.doc).getField("index").numericValue().intValue();
        out.add(new Hit(recipes.get(index), sd.score));
      }
      return out;
    } catch (IOException e) {
      throw new LakeRewriteException("recipe search failed: " + e.getMessage(), e);
    }
  }

  private List<String> analyze(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("text", text.toLowerCase(Locale.ROOT))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new LakeRewriteException("cannot analyse the recipe query: " + e.getMessage(), e);
    }
    return out;
  }
}
