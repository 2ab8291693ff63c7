package dev.lakerewrite.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 9, fuzzing name normalisation: arbitrary Unicode (surrogates, combining marks, control characters,
 * right-to-left text, ligatures) and name-like strings never crash it; it is idempotent, lower case, trimmed, and
 * keeps no run of spaces.
 */
class NamesFuzzTest {

  @Property(tries = 1000)
  void normalisationIsIdempotentOnArbitraryUnicode(@ForAll("anyText") String name) {
    String once = Names.normalize(name);
    assertThat(Names.normalize(once)).as("normalize(normalize(%s))", name).isEqualTo(once);
    assertThat(once).isEqualTo(once.strip());
    assertThat(once).doesNotContain("  ");
  }

  @Property(tries = 1000)
  void nameLikeStringsNormaliseToLowerCaseWords(@ForAll("nameLike") String name) {
    String n = Names.normalize(name);
    assertThat(Names.normalize(n)).isEqualTo(n);
    assertThat(n).matches("[\\p{L}\\p{N} ]*");
    assertThat(n).isEqualTo(n.toLowerCase(java.util.Locale.ROOT));
  }

  /** Exhaustive over single code points (with a letter on each side): found the capital sharp s (ẞ → ß → ss). */
  @Example
  void everyCodePointNormalisesIdempotently() {
    java.util.List<String> broken = new java.util.ArrayList<>();
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      String s = "a" + new String(Character.toChars(cp)) + "B";
      String once = Names.normalize(s);
      if (!Names.normalize(once).equals(once)) {
        broken.add(String.format("U+%04X", cp));
      }
    }
    assertThat(broken).isEmpty();
  }

  @Provide
  Arbitrary<String> anyText() {
    return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(40),
        Arbitraries.strings().withChars("aAzZ_ .'’`´-éÉæÆßẞıİŁ\u0301\u0308\u200b\u202e\u00a0ﬁ１Ａ").ofMaxLength(30),
        Arbitraries.strings().withCharRange('\u0300', '\u036f').withCharRange('a', 'z').withCharRange('A', 'Z')
            .ofMaxLength(30));
  }

  @Provide
  Arbitrary<String> nameLike() {
    Arbitrary<String> word = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z')
        .withChars("ÀéüøÆ0123456789").ofMinLength(1).ofMaxLength(10);
    return word.list().ofMinSize(1).ofMaxSize(5).flatMap(ws -> Arbitraries.of("_", " ", "-", "", ".", "'s ")
        .map(sep -> String.join(sep, ws) + (ws.size() % 3 == 0 ? ".csv" : "")));
  }
}
