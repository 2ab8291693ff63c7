package dev.lakerewrite.eval.cli;

import dev.lakerewrite.eval.perturb.Corpora;
import dev.lakerewrite.eval.perturb.PerturbedCorpus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** The harness's suites: the dev set and the perturbed corpora, by name. */
final class Suites {

  private Suites() {}

  /** A suite. */
  enum Suite {
    /** The 118 hand-written pairs on the WikiDBs sample. */
    DEV("dev"),
    /** The WikiDBs sample's databases, disorganized. */
    WIKIDBS_PERTURBED("wikidbs-perturbed"),
    /** TPC-H (scale factor 0.01) and its standard queries, disorganized. */
    TPCH("tpch"),
    /** TPC-DS (scale factor 0.01) and its standard queries, disorganized. */
    TPCDS("tpcds");

    final String label;

    Suite(String label) {
      this.label = label;
    }

    boolean perturbed() {
      return this != DEV;
    }
  }

  /**
   * A suite to run: a named one, or a corpus folder built elsewhere (with its {@code corpus.json}).
   *
   * @param label the name in reports
   * @param suite the named suite, or null for a folder
   * @param folder the corpus folder, or null for a named suite
   */
  record Ref(String label, @Nullable Suite suite, @Nullable Path folder) {
    boolean perturbed() {
      return suite == null || suite.perturbed();
    }
  }

  /**
   * Parses a comma list of suite names ({@code all} = every named suite) or corpus folders (a folder with a
   * {@code corpus.json}, as {@link PerturbedCorpus#build} writes it).
   */
  static List<Ref> refs(List<String> names) {
    Set<Ref> out = new LinkedHashSet<>();
    for (String n : names) {
      Path folder = Path.of(n.strip());
      if (!n.isBlank() && java.nio.file.Files.isRegularFile(folder.resolve("corpus.json"))) {
        String name;
        try {
          name = PerturbedCorpus.read(folder).map(PerturbedCorpus.Index::name).orElse(folder.getFileName().toString());
        } catch (IOException e) {
          throw new BadInputException("cannot read " + folder.resolve("corpus.json") + ": " + e.getMessage(), e);
        }
        out.add(new Ref(name, null, folder.toAbsolutePath().normalize()));
      } else {
        parse(List.of(n)).forEach(s -> out.add(new Ref(s.label, s, null)));
      }
    }
    return List.copyOf(out);
  }

  /** Parses a comma list of suite names ({@code all} = every suite). */
  static List<Suite> parse(List<String> names) {
    Set<Suite> out = new LinkedHashSet<>();
    for (String n : names) {
      String name = n.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      if (name.equals("all")) {
        out.addAll(List.of(Suite.values()));
        continue;
      }
      Suite match = null;
      for (Suite s : Suite.values()) {
        if (s.label.equals(name)) {
          match = s;
        }
      }
      if (match == null) {
        List<String> labels = new ArrayList<>();
        for (Suite s : Suite.values()) {
          labels.add(s.label);
        }
        throw new BadInputException("unknown suite '" + n.strip() + "' (the suites are " + String.join(", ", labels)
            + ", all, or a corpus folder with a corpus.json)");
      }
      out.add(match);
    }
    return List.copyOf(out);
  }

  /** The corpus of a suite: read from its folder, or built under {@code root} unless an up-to-date one is there. */
  static PerturbedCorpus.Index corpus(Ref ref, Path root, Path sample, Path cache, Consumer<String> progress)
      throws IOException {
    if (ref.folder() != null) {
      return PerturbedCorpus.read(ref.folder()).orElseThrow(() -> new BadInputException("no corpus.json in "
          + ref.folder()));
    }
    return corpus(ref.suite(), root, sample, cache, progress);
  }

  /** The corpus of a perturbed suite, built under {@code root} unless an up-to-date one is there. */
  static PerturbedCorpus.Index corpus(Suite suite, Path root, Path sample, Path cache, Consumer<String> progress)
      throws IOException {
    try {
      PerturbedCorpus.Spec spec = switch (suite) {
        case WIKIDBS_PERTURBED -> Corpora.wikidbs(sample, cache);
        case TPCH -> Corpora.tpch(cache);
        case TPCDS -> Corpora.tpcds(cache);
        case DEV -> throw new IllegalArgumentException("the dev suite has no corpus");
      };
      return PerturbedCorpus.build(spec, root, cache, progress);
    } catch (SQLException e) {
      throw new IOException("cannot build the corpus " + suite.label + ": " + e.getMessage(), e);
    }
  }

  /** Builds the corpora named (a suite name or {@code all}). */
  static List<PerturbedCorpus.Index> buildCorpora(String names, Path root, Path sample, Path cache,
      Consumer<String> progress) throws IOException {
    List<PerturbedCorpus.Index> out = new ArrayList<>();
    for (Suite s : parse(List.of(names.split(",")))) {
      if (s.perturbed()) {
        out.add(corpus(s, root, sampleOrDefault(sample), cache, progress));
      }
    }
    if (out.isEmpty()) {
      throw new BadInputException("'" + names + "' names no perturbed corpus");
    }
    return out;
  }

  static Path sampleOrDefault(Path sample) {
    return sample != null ? sample : LakeRewriteCli.home().resolve("../shared/data/wikidbs-sample").normalize();
  }

  static void printCorpus(PrintWriter out, PerturbedCorpus.Index index) {
    out.printf(Locale.ROOT, "corpus %s in %s: %d lakes, %d fit pairs, %d validation pairs, %d held-out pairs%n",
        index.name(), index.folder(), index.lakes().size(), index.pairs(PerturbedCorpus.Split.FIT),
        index.pairs(PerturbedCorpus.Split.VALIDATION), index.pairs(PerturbedCorpus.Split.HELD_OUT));
    for (PerturbedCorpus.Lake l : index.lakes()) {
      out.printf(Locale.ROOT, "  %-40s %-10s %4d pairs, %3d dropped%n", l.name(), l.split().label(), l.pairs(),
          l.dropped());
    }
    out.flush();
  }
}
