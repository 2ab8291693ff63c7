package dev.lakerewrite.retrieval;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.ngram.NGramTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.QueryBuilder;
import org.jspecify.annotations.Nullable;

/**
 * The Lucene side of a {@link LakeIndex}: one document per table (its normalised name and column names, for BM25
 * over schemas) and one per distinct cell value of every column (folded words and character trigrams, for BM25
 * over values, typos included). Searchers are thread-safe; the index is written once and then only read.
 */
final class LuceneLake implements AutoCloseable {
  static final String KIND = "kind";
  static final String KIND_TABLE = "table";
  static final String KIND_VALUE = "value";
  static final String TABLE = "table";
  static final String COLUMN = "column";
  static final String COLUMN_ORDINAL = "ordinal";
  /** Table and column ordinal of a value, indexed so that one column's values are found without the table's. */
  static final String COLUMN_KEY = "column_key";
  static final String VALUE = "value";
  static final String COUNT = "count";
  static final String WORDS = "words";
  static final String GRAMS = "grams";
  static final String NAME = "name";
  static final String COLUMNS = "columns";

  private final Directory directory;
  private final DirectoryReader reader;
  private final IndexSearcher searcher;
  private final QueryBuilder wordQueries;
  private final QueryBuilder gramQueries;

  private LuceneLake(Directory directory) throws IOException {
    this.directory = directory;
    this.reader = DirectoryReader.open(directory);
    this.searcher = new IndexSearcher(reader);
    this.wordQueries = new QueryBuilder(words());
    this.gramQueries = new QueryBuilder(trigrams());
  }

  static LuceneLake open(Path path) throws IOException {
    return new LuceneLake(FSDirectory.open(path));
  }

  /** Folded words: standard tokenizer, lower case, diacritics folded to ASCII ({@code Whangārei} → {@code whangarei}). */
  static Analyzer words() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new StandardTokenizer();
        TokenStream sink = new ASCIIFoldingFilter(new LowerCaseFilter(source));
        return new TokenStreamComponents(source, sink);
      }
    };
  }

  /** Character trigrams of the value's comparison form: recall for typos and partial words. */
  static Analyzer trigrams() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new NGramTokenizer(3, 3);
        return new TokenStreamComponents(source, source);
      }
    };
  }

  /**
   * Writes an index of tables and their values at {@code path}: a fresh one, or (append) one that adds to and
   * deletes from the index already there. Segments stay small (at most {@value #MAX_SEGMENT_MB} MB merged), and
   * closing an appended index rewrites the segments that lost more than {@value #DELETES_PCT_ALLOWED} % of their
   * documents: a refresh of a few tables of a large lake rewrites (almost) nothing, while the statistics BM25 scores
   * with stay within that share of a fresh index's (Lucene counts a deleted document until its segment is merged).
   * Thread-safe.
   */
  static final class Writer implements AutoCloseable {
    static final double MAX_SEGMENT_MB = 64;
    /** Lucene's default for forced merges of deletions. */
    static final double DELETES_PCT_ALLOWED = 10;
    private final Directory directory;
    private final IndexWriter writer;
    private final boolean append;

    Writer(Path path) throws IOException {
      this(path, false);
    }

    Writer(Path path, boolean append) throws IOException {
      this.directory = FSDirectory.open(path);
      this.append = append;
      Analyzer analyzer = new PerFieldAnalyzerWrapper(words(), Map.of(GRAMS, trigrams()));
      org.apache.lucene.index.TieredMergePolicy merges = new org.apache.lucene.index.TieredMergePolicy();
      merges.setMaxMergedSegmentMB(MAX_SEGMENT_MB);
      merges.setForceMergeDeletesPctAllowed(DELETES_PCT_ALLOWED);
      IndexWriterConfig config = new IndexWriterConfig(analyzer)
          .setOpenMode(append ? IndexWriterConfig.OpenMode.APPEND : IndexWriterConfig.OpenMode.CREATE)
          .setMergePolicy(merges)
          .setRAMBufferSizeMB(64);
      this.writer = new IndexWriter(directory, config);
    }

    /** Deletes the table's document and those of its values. */
    void deleteTable(String table) throws IOException {
      writer.deleteDocuments(new Term(TABLE, table));
    }

    void addTable(LakeTable table) throws IOException {
      Document d = new Document();
      d.add(new StringField(KIND, KIND_TABLE, Field.Store.NO));
      d.add(new StringField(TABLE, table.name(), Field.Store.YES));
      d.add(new TextField(NAME, Names.normalize(table.table()), Field.Store.NO));
      StringBuilder columns = new StringBuilder();
      for (LakeColumn c : table.columns()) {
        columns.append(c.normalizedName()).append(" . ");
      }
      d.add(new TextField(COLUMNS, columns.toString(), Field.Store.NO));
      writer.addDocument(d);
    }

    void addValue(String table, int ordinal, String column, String value, long count) throws IOException {
      Document d = new Document();
      d.add(new StringField(KIND, KIND_VALUE, Field.Store.NO));
      d.add(new StringField(TABLE, table, Field.Store.YES));
      d.add(new StoredField(COLUMN, column));
      d.add(new StoredField(COLUMN_ORDINAL, ordinal));
      d.add(new StringField(COLUMN_KEY, columnKey(table, ordinal), Field.Store.NO));
      d.add(new StoredField(VALUE, value));
      d.add(new StoredField(COUNT, count));
      d.add(new TextField(WORDS, value, Field.Store.NO));
      String comparable = Values.normalize(value);
      d.add(new TextField(GRAMS, comparable, Field.Store.NO));
      writer.addDocument(d);
    }

    @Override
    public void close() throws IOException {
      try {
        if (append) {
          writer.forceMergeDeletes();
        }
        writer.commit();
      } finally {
        writer.close();
        directory.close();
      }
    }
  }

  /** A distinct value of a column as indexed. */
  record IndexedValue(String table, int ordinal, String column, String value, long count) {}

  /** A hit with its BM25 score. */
  record Hit<T>(T item, double score) {}

  /** Above this many columns a table's values are read whole (a query holds at most 1,024 clauses). */
  private static final int MAX_COLUMN_CLAUSES = 512;

  private static String columnKey(String table, int ordinal) {
    return table + '\u0001' + ordinal;
  }

  /** All indexed values of {@code table}, in column order then by descending frequency. */
  List<IndexedValue> values(String table) throws IOException {
    return values(new BooleanQuery.Builder()
        .add(new TermQuery(new Term(KIND, KIND_VALUE)), Occur.FILTER)
        .add(new TermQuery(new Term(TABLE, table)), Occur.FILTER)
        .build());
  }

  /** The indexed values of these columns of {@code table} (by ordinal), in column order then by descending frequency. */
  List<IndexedValue> values(String table, java.util.Collection<Integer> ordinals) throws IOException {
    if (ordinals.isEmpty()) {
      return List.of();
    }
    if (ordinals.size() > MAX_COLUMN_CLAUSES) {
      Set<Integer> wanted = new HashSet<>(ordinals);
      return values(table).stream().filter(v -> wanted.contains(v.ordinal())).toList();
    }
    BooleanQuery.Builder columns = new BooleanQuery.Builder();
    for (int ordinal : ordinals) {
      columns.add(new TermQuery(new Term(COLUMN_KEY, columnKey(table, ordinal))), Occur.SHOULD);
    }
    return values(new BooleanQuery.Builder()
        .add(new TermQuery(new Term(KIND, KIND_VALUE)), Occur.FILTER)
        .add(new org.apache.lucene.search.ConstantScoreQuery(columns.build()), Occur.FILTER)
        .build());
  }

  private List<IndexedValue> values(Query q) throws IOException {
    int n = Math.max(1, searcher.count(q));
    TopDocs top = searcher.search(q, n);
    StoredFields fields = searcher.storedFields();
    List<IndexedValue> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(value(fields.document(sd.doc)));
    }
    out.sort((a, b) -> a.ordinal() != b.ordinal() ? Integer.compare(a.ordinal(), b.ordinal())
        : Long.compare(b.count(), a.count()));
    return out;
  }

  private static IndexedValue value(Document d) {
    return new IndexedValue(d.get(TABLE), d.getField(COLUMN_ORDINAL).numericValue().intValue(), d.get(COLUMN),
        d.get(VALUE), d.getField(COUNT).numericValue().longValue());
  }

  /**
   * BM25 over values (folded words, plus trigrams at half weight for typos), optionally within one table.
   * Returns at most {@code limit} hits, best first.
   */
  List<Hit<IndexedValue>> searchValues(String text, @Nullable String tableOrNull, int limit) throws IOException {
    BooleanQuery.Builder match = new BooleanQuery.Builder();
    Query words = wordQueries.createBooleanQuery(WORDS, text, Occur.SHOULD);
    if (words != null) {
      match.add(words, Occur.SHOULD);
    }
    String comparable = Values.normalize(text);
    Query grams = comparable == null ? null : gramQueries.createBooleanQuery(GRAMS, comparable, Occur.SHOULD);
    if (grams != null) {
      match.add(new BoostQuery(grams, 0.5f), Occur.SHOULD);
    }
    if (words == null && grams == null) {
      return List.of();
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(KIND, KIND_VALUE)), Occur.FILTER)
        .add(match.build(), Occur.MUST);
    if (tableOrNull != null) {
      q.add(new TermQuery(new Term(TABLE, tableOrNull)), Occur.FILTER);
    }
    TopDocs top = searcher.search(q.build(), limit);
    StoredFields fields = searcher.storedFields();
    List<Hit<IndexedValue>> out = new ArrayList<>(top.scoreDocs.length);
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(new Hit<>(value(fields.document(sd.doc)), sd.score));
    }
    return out;
  }

  /** BM25 of every table whose name or column names share a word with {@code text}: table → score. */
  Map<String, Double> searchTables(String text) throws IOException {
    Query name = wordQueries.createBooleanQuery(NAME, text, Occur.SHOULD);
    Query columns = wordQueries.createBooleanQuery(COLUMNS, text, Occur.SHOULD);
    Map<String, Double> out = new HashMap<>();
    if (name == null && columns == null) {
      return out;
    }
    BooleanQuery.Builder match = new BooleanQuery.Builder();
    if (name != null) {
      match.add(name, Occur.SHOULD);
    }
    if (columns != null) {
      match.add(columns, Occur.SHOULD);
    }
    Query q = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(KIND, KIND_TABLE)), Occur.FILTER)
        .add(match.build(), Occur.MUST)
        .build();
    int n = Math.max(1, searcher.count(new TermQuery(new Term(KIND, KIND_TABLE))));
    TopDocs top = searcher.search(q, n);
    StoredFields fields = searcher.storedFields();
    for (ScoreDoc sd : top.scoreDocs) {
      out.put(fields.document(sd.doc).get(TABLE), (double) sd.score);
    }
    return out;
  }

  int documents() {
    return reader.numDocs();
  }

  /** Whether the index holds anything at all (a sanity check after loading). */
  boolean isEmpty() throws IOException {
    return searcher.count(new MatchAllDocsQuery()) == 0;
  }

  @Override
  public void close() throws IOException {
    try {
      reader.close();
    } finally {
      directory.close();
    }
  }
}
