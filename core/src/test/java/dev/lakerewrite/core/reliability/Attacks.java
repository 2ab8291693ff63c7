package dev.lakerewrite.core.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The attack files of the reliability suite: one attack a line, tab-separated {@code outcome category text}, where
 * outcome may list alternatives with '|'. The text understands backslash escapes (n, t, a backslash, and u followed by four hex digits) and
 * {@code {{N*text}}} repetition, so that megabyte literals and thousands of parentheses stay one short line.
 */
final class Attacks {
  /**
   * One attack.
   *
   * @param line line number in the file, for messages
   * @param outcomes what may stop it
   * @param category what it tries
   * @param text the attack, expanded
   * @param source the line as written (short)
   */
  record Attack(int line, Set<String> outcomes, String category, String text, String source) {
    @Override
    public String toString() {
      String s = source.length() > 90 ? source.substring(0, 90) + "…" : source;
      return "line " + line + " [" + category + "] " + s;
    }
  }

  private static final Pattern REPEAT = Pattern.compile("\\{\\{(\\d+)\\*(.*?)}}");

  private Attacks() {}

  static List<Attack> load(String resource) {
    InputStream in = Attacks.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("no attack file " + resource + " on the test classpath");
    }
    List<Attack> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", 3);
        if (f.length != 3) {
          throw new IllegalStateException(resource + " line " + n + ": expected outcome<TAB>category<TAB>text, got "
              + line);
        }
        out.add(new Attack(n, new TreeSet<>(Arrays.asList(f[0].split("\\|"))), f[1], expand(f[2]), f[2]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Expands repetitions first (their text may hold escapes), then escapes. */
  static String expand(String text) {
    Matcher m = REPEAT.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(m.group(2).repeat(Integer.parseInt(m.group(1)))));
    }
    m.appendTail(sb);
    return unescape(sb.toString());
  }

  static String unescape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        out.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case '\\' -> out.append('\\');
        case 'u' -> {
          out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> out.append('\\').append(e);
      }
    }
    return out.toString();
  }
}
