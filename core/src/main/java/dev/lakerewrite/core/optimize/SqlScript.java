package dev.lakerewrite.core.optimize;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into its statements at the semicolons that end them: not inside string literals, quoted
 * identifiers, dollar-quoted strings or comments. Comment-only and empty pieces are dropped. Linear in the text.
 */
final class SqlScript {
  private SqlScript() {}

  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    int n = script.length();
    while (i < n) {
      char c = script.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(script, i, c);
      } else if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
        int eol = script.indexOf('\n', i);
        i = eol < 0 ? n : eol + 1;
      } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
        int end = script.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '$') {
        int tagEnd = script.indexOf('$', i + 1);
        String tag = tagEnd < 0 ? null : script.substring(i, tagEnd + 1);
        if (tag != null && tag.matches("\\$[A-Za-z_0-9]*\\$")) {
          int end = script.indexOf(tag, tagEnd + 1);
          i = end < 0 ? n : end + tag.length();
        } else {
          i++;
        }
      } else if (c == ';') {
        add(out, script.substring(start, i));
        start = ++i;
      } else {
        i++;
      }
    }
    add(out, script.substring(start));
    return out;
  }

  private static int skipQuoted(String s, int i, char q) {
    int j = i + 1;
    while (j < s.length()) {
      if (s.charAt(j) == q) {
        if (j + 1 < s.length() && s.charAt(j + 1) == q) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return s.length();
  }

  private static void add(List<String> out, String piece) {
    String withoutComments = piece.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)--.*$", " ");
    if (!withoutComments.isBlank()) {
      out.add(piece.strip());
    }
  }
}
