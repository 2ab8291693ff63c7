package dev.lakerewrite.eval;

import java.util.Locale;

/** Lenient matching of labels typed on the command line or in pair files ({@code No-Build CTE} = {@code no_build_cte}). */
final class LabelKeys {

  private LabelKeys() {}

  /** A name for lenient comparison: lower case, without spaces, underscores and hyphens. */
  static String key(String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[\\s_\\-]+", "");
  }
}
