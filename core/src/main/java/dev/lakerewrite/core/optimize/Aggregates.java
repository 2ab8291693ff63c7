package dev.lakerewrite.core.optimize;

import java.util.Locale;
import java.util.Set;

/** Which functions aggregate, and which of those can be combined from partial aggregates. */
final class Aggregates {
  private static final Set<String> AGGREGATES = Set.of(
      "count", "count_star", "sum", "avg", "mean", "min", "max", "median", "mode", "string_agg", "group_concat",
      "list", "array_agg", "first", "last", "any_value", "arbitrary", "stddev", "stddev_pop", "stddev_samp",
      "variance", "var_pop", "var_samp", "approx_count_distinct", "approx_quantile", "quantile", "quantile_cont",
      "quantile_disc", "bool_and", "bool_or", "bit_and", "bit_or", "product", "arg_max", "arg_min", "max_by",
      "min_by", "histogram", "entropy", "kurtosis", "skewness", "corr", "covar_pop", "covar_samp", "fsum",
      "favg", "sumkahan", "count_if", "countif", "sum_no_overflow");

  private Aggregates() {}

  static boolean isAggregate(String functionName) {
    return AGGREGATES.contains(functionName.toLowerCase(Locale.ROOT));
  }
}
