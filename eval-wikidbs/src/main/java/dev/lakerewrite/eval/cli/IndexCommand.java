package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.core.IndexProgress;
import dev.lakerewrite.core.IndexStatus;
import dev.lakerewrite.eval.Lakes;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lakerewrite index}: builds a lake's indexes (or finds them up to date) before any rewrite needs them. */
@Command(name = "index", sortOptions = false,
    description = {"Loads a lake and builds (or refreshes, when its files changed) everything rewrites need in the "
        + "cache: the lake file, column profiles, the retrieval index, the join graph and value embeddings, so that "
        + "later rewrites start at once. After files were added, changed or removed only their tables are built "
        + "again; it says which and why. Progress goes to stderr.",
        "Exit code 0 when the lake is indexed, 2 for bad input (no such lake, unreadable files), 1 for internal "
            + "failures."})
final class IndexCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  LakeOptions lakeOptions;

  @Option(names = "--json", description = "Print the outcome as JSON.")
  boolean json;

  @Option(names = "--quiet", description = "No progress bar.")
  boolean quiet;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    Lakes.Layout layout = lakeOptions.layout();
    long t0 = System.nanoTime();
    PrintWriter err = spec.commandLine().getErr();
    if (!quiet) {
      err.println("loading the lake " + lakeOptions.lakePath() + " (" + layout.label() + ")");
      err.flush();
    }
    try (DataLake lake = lakeOptions.open(layout)) {
      IndexProgress progress = quiet ? IndexProgress.NONE
          : new IndexProgressBar(err, System.console() != null);
      IndexStatus status = lake.index(progress);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("lake", lakeOptions.lakePath().toString());
        o.put("layout", layout.label());
        o.put("storage", lake.storage().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        o.put("tables", status.tables());
        o.put("columns", status.columns());
        o.put("join_edges", status.joinEdges());
        o.put("up_to_date", status.upToDate());
        List<Map<String, Object>> changes = new ArrayList<>();
        for (IndexStatus.TableChange c : status.changes()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("table", c.table());
          m.put("change", c.kind().name().toLowerCase(Locale.ROOT));
          m.put("reason", c.reason());
          changes.add(m);
        }
        o.put("changes", changes);
        List<Map<String, Object>> stages = new ArrayList<>();
        for (IndexStatus.Stage s : status.stages()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("stage", s.stage().name().toLowerCase(Locale.ROOT));
          m.put("built", s.built());
          m.put("reused", s.reused());
          m.put("ms", s.time().toMillis());
          m.put("detail", s.detail());
          stages.add(m);
        }
        o.put("stages", stages);
        o.put("summary", status.summary());
        o.put("cache", lake.cacheDirectory().toString());
        o.put("warnings", lake.warnings());
        o.put("elapsed_ms", ms);
        out.println(CliJson.write(o));
      } else {
        out.println("lake " + lakeOptions.lakePath() + " (" + layout.label() + ", "
            + lake.storage().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")");
        describe(status).forEach(out::println);
        out.println("cache: " + lake.cacheDirectory());
        lake.warnings().forEach(w -> out.println("warning: " + w));
        out.println("done in " + ms + " ms (load included)");
      }
      out.flush();
      return LakeRewriteCli.OK;
    }
  }

  /** The status as several lines for people: the changes with their reasons, then each stage. */
  static List<String> describe(IndexStatus status) {
    List<String> lines = new ArrayList<>();
    lines.add(status.tables() + " tables, " + status.columns() + " columns, " + status.joinEdges() + " join edges");
    if (status.changes().isEmpty()) {
      lines.add("no table changed since the lake was last loaded");
    } else {
      long added = status.changes().stream().filter(c -> c.kind() == IndexStatus.TableChange.Kind.ADDED).count();
      long changed =
          status.changes().stream().filter(c -> c.kind() == IndexStatus.TableChange.Kind.CHANGED).count();
      long removed =
          status.changes().stream().filter(c -> c.kind() == IndexStatus.TableChange.Kind.REMOVED).count();
      lines.add(String.format(Locale.ROOT, "%d tables added, %d changed, %d removed since the lake was last loaded:",
          added, changed, removed));
      int shown = 0;
      for (IndexStatus.TableChange c : status.changes()) {
        if (shown++ == 20) {
          lines.add("  ... and " + (status.changes().size() - 20) + " more");
          break;
        }
        lines.add("  " + c.kind().name().toLowerCase(Locale.ROOT) + " " + c.table() + ": " + c.reason());
      }
    }
    for (IndexStatus.Stage s : status.stages()) {
      lines.add(String.format(Locale.ROOT, "%-11s built %d, reused %d in %.1f s%s", s.stage().label(), s.built(),
          s.reused(), s.time().toMillis() / 1000.0, s.detail().isEmpty() ? "" : " (" + s.detail() + ")"));
    }
    lines.add(String.format(Locale.ROOT, "indexed in %.1f s", status.elapsed().toMillis() / 1000.0));
    return lines;
  }
}
