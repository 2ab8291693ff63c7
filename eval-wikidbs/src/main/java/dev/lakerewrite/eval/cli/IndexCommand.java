package dev.lakerewrite.eval.cli;

import dev.lakerewrite.core.DataLake;
import dev.lakerewrite.eval.Lakes;
import java.io.PrintWriter;
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
    description = {"Loads a lake and builds (or refreshes, when its files changed) its DuckDB file, retrieval index "
        + "and join graph in the cache, so that later rewrites start at once.",
        "Exit code 0 when the lake is indexed, 2 for bad input (no such lake, unreadable files), 1 for internal "
            + "failures."})
final class IndexCommand implements Callable<Integer> {

  @Spec
  CommandLine.Model.CommandSpec spec;

  @Mixin
  LakeOptions lakeOptions;

  @Option(names = "--json", description = "Print the outcome as JSON.")
  boolean json;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    Lakes.Layout layout = lakeOptions.layout();
    long t0 = System.nanoTime();
    try (DataLake lake = lakeOptions.open(layout)) {
      String summary = lake.index();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("lake", lakeOptions.lakePath().toString());
        o.put("layout", layout.label());
        o.put("tables", lake.catalog().tableNames().size());
        o.put("summary", summary);
        o.put("cache", lake.cacheDirectory().toString());
        o.put("warnings", lake.warnings());
        o.put("elapsed_ms", ms);
        out.println(CliJson.write(o));
      } else {
        out.println("lake " + lakeOptions.lakePath() + " (" + layout.label() + "): " + summary);
        out.println("cache: " + lake.cacheDirectory());
        lake.warnings().forEach(w -> out.println("warning: " + w));
        out.println("done in " + ms + " ms");
      }
      out.flush();
      return LakeRewriteCli.OK;
    }
  }
}
