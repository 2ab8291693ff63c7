package dev.lakerewrite.noiseudf;

import dev.lakerewrite.testing.SampleLake;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoiseInjectorTest {

  @TempDir Path dir;

  private Path flatLake() throws Exception {
    Path lake = dir.resolve("flat");
    Files.createDirectories(lake);
    StringBuilder sb = new StringBuilder("name,flag,born,population,code,note\n");
    String[] names = {"Whangārei", "Hamilton", "Ōpōtiki", "Manawatū-Whanganui", "Blenheim", "Toy Story, the film"};
    for (int i = 0; i < 120; i++) {
      sb.append(NoiseInjector.csvField(names[i % names.length])).append(',')
          .append(i % 3 == 0 ? "true" : "false").append(',')
          .append(String.format("+%04d-%02d-%02dT00:00:00Z", 1900 + i % 100, 1 + i % 12, 1 + i % 28)).append(',')
          .append(i % 2 == 0 ? "+" + (1000 + i * 7919) : "+" + (i * 31) + "." + (10 + i)).append(',')
          .append(String.format("%04d", i)).append(',')
          .append(i % 7 == 0 ? "" : "said \"\"hi\"\" & left".replace("\"\"", "\"")).append('\n');
    }
    // fix the quoting of the note column (it contains quotes)
    List<String> lines = new ArrayList<>();
    for (String line : sb.toString().split("\n")) {
      lines.add(line.replace("said \"hi\" & left", NoiseInjector.csvField("said \"hi\" & left")));
    }
    Files.writeString(lake.resolve("towns.csv"), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return lake;
  }


  @Test
  void sameSeedGivesByteIdenticalOutputAndEveryChangeIsRecorded() throws Exception {
    Path lake = flatLake();
    NoiseInjector injector = NoiseInjector.builder().seed(7).rate(0.08).build();
    NoiseInjector.InjectionReport a = injector.inject(lake, dir.resolve("a"));
    NoiseInjector.InjectionReport b = injector.inject(lake, dir.resolve("b"));
    assertThat(Files.readAllBytes(dir.resolve("a/towns.csv"))).isEqualTo(Files.readAllBytes(dir.resolve("b/towns.csv")));
    assertThat(Files.readAllBytes(a.record())).isEqualTo(Files.readAllBytes(b.record()));
    assertThat(a.changed()).isNotEmpty();
    assertThat(a.perKind().keySet()).containsAll(EnumSet.allOf(NoiseKind.class));
    assertThat(a.perKind()).allSatisfy((kind, n) -> assertThat(n).as(kind.name()).isPositive());
    assertThat(NoiseInjector.readRecord(a.record())).isEqualTo(a.changed());

    NoiseInjector.InjectionReport c = NoiseInjector.builder().seed(8).rate(0.08).build().inject(lake, dir.resolve("c"));
    assertThat(Files.readAllBytes(dir.resolve("c/towns.csv"))).isNotEqualTo(Files.readAllBytes(dir.resolve("a/towns.csv")));

    List<String[]> original = SharedLake.readCsv(lake.resolve("towns.csv"));
    List<String[]> noisy = SharedLake.readCsv(dir.resolve("a/towns.csv"));
    assertThat(noisy.get(0)).isEqualTo(original.get(0));
    int changedCells = 0;
    for (int r = 1; r < original.size(); r++) {
      for (int col = 0; col < original.get(0).length; col++) {
        if (!original.get(r)[col].equals(noisy.get(r)[col])) {
          changedCells++;
        }
      }
    }
    assertThat(changedCells).isEqualTo(a.changed().size());
    for (NoiseInjector.InjectedCell cell : a.changed()) {
      int col = List.of(original.get(0)).indexOf(cell.column());
      assertThat(original.get((int) cell.row())[col]).isEqualTo(cell.original());
      assertThat(noisy.get((int) cell.row())[col]).isEqualTo(cell.noisy());
      assertThat(cell.table()).isEqualTo("towns");
      String o = cell.original();
      String n = cell.noisy();
      switch (cell.kind()) {
        case ENCODING -> assertThat(Cleaners.fixMojibake(n)).isEqualTo(o);
        case MARKUP -> assertThat(Cleaners.stripMarkup(n)).isEqualTo(o);
        case WHITESPACE -> assertThat(Cleaners.collapseWhitespace(n)).isEqualTo(o);
        case CASING -> assertThat(Cleaners.casefold(n)).isEqualTo(Cleaners.casefold(o));
        case DIACRITICS -> assertThat(Cleaners.textKey(n)).isEqualTo(Cleaners.textKey(o));
        case BOOLEAN -> assertThat(Cleaners.parseBoolean(n)).isEqualTo(Cleaners.parseBoolean(o));
        case DATE_FORMAT -> assertThat(Cleaners.isoDate(n)).isEqualTo(Cleaners.isoDate(o));
        case NUMBER_FORMAT -> {
          assertThat(Cleaners.parseNumber(n)).isEqualTo(Cleaners.parseNumber(o));
          assertThat(Cleaners.parseNumber(n, ',')).isEqualTo(Cleaners.parseNumber(o));
        }
      }
    }
    // typed kinds only where the column holds that type; codes with leading zeros are never numbers
    assertThat(a.changed()).filteredOn(x -> x.kind() == NoiseKind.BOOLEAN).allSatisfy(x -> assertThat(x.column()).isEqualTo("flag"));
    assertThat(a.changed()).filteredOn(x -> x.kind() == NoiseKind.DATE_FORMAT).allSatisfy(x -> assertThat(x.column()).isEqualTo("born"));
    assertThat(a.changed()).filteredOn(x -> x.kind() == NoiseKind.NUMBER_FORMAT).allSatisfy(x -> assertThat(x.column()).isEqualTo("population"));
  }

  @Test
  void noiseNeverSplitsACharacterOutsideTheBmp() {
    String value = "\uD83D\uDE00 Grin \uD835\uDC00x\uD83D\uDE00";
    NoiseInjector.ColumnClass text = new NoiseInjector.ColumnClass(false, false, false);
    for (NoiseKind kind : java.util.EnumSet.of(NoiseKind.ENCODING, NoiseKind.DIACRITICS, NoiseKind.WHITESPACE,
        NoiseKind.CASING, NoiseKind.MARKUP)) { // the kinds that apply to any text
      for (long seed = 0; seed < 300; seed++) {
        String noisy = NoiseInjector.apply(kind, value, text, new java.util.SplittableRandom(seed));
        if (noisy == null) {
          continue;
        }
        for (int i = 0; i < noisy.length(); i++) {
          char c = noisy.charAt(i);
          boolean paired = Character.isHighSurrogate(c) ? i + 1 < noisy.length()
              && Character.isLowSurrogate(noisy.charAt(i + 1))
              : !Character.isLowSurrogate(c) || (i > 0 && Character.isHighSurrogate(noisy.charAt(i - 1)));
          assertThat(paired).as("%s with seed %d gave %s", kind, seed, noisy).isTrue();
        }
      }
    }
  }

  @Test
  void zeroRateCopiesTheWikiDbsLayoutByteForByte() throws Exception {
    Path target = dir.resolve("copy");
    NoiseInjector.InjectionReport report = NoiseInjector.builder().rate(0).build().inject(SampleLake.folder(), target);
    assertThat(report.changed()).isEmpty();
    assertThat(report.tables()).isEqualTo(29);
    List<Path> files;
    try (Stream<Path> s = Files.walk(SampleLake.folder())) {
      files = s.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      Path copy = target.resolve(SampleLake.folder().relativize(f).toString());
      assertThat(Files.readAllBytes(copy)).as(f.toString()).isEqualTo(Files.readAllBytes(f));
    }
    assertThat(Files.readString(report.record())).isEmpty();
  }

  @Test
  void kindsTablesAndColumnRatesRestrictTheNoise() throws Exception {
    NoiseInjector.InjectionReport r = NoiseInjector.builder().seed(3).rate(0)
        .rate(NoiseKind.NUMBER_FORMAT, 0.5).tables(Set.of("capital")).build()
        .inject(SampleLake.folder(), dir.resolve("numbers"));
    assertThat(r.changed()).isNotEmpty().allSatisfy(c -> {
      assertThat(c.kind()).isEqualTo(NoiseKind.NUMBER_FORMAT);
      assertThat(c.table()).isEqualTo("capital");
      assertThat(c.file()).isEqualTo("databases/region-of-new-zealand/tables/capital.csv");
    });
    assertThat(r.changed()).extracting(NoiseInjector.InjectedCell::column).doesNotContain("postal code", "GeoNames ID");

    NoiseInjector.InjectionReport one = NoiseInjector.builder().seed(3).rate(0)
        .columnRate("capital", "label", NoiseKind.CASING, 1.0).build().inject(SampleLake.folder(), dir.resolve("one"));
    assertThat(one.changed()).hasSize(16).allSatisfy(c -> assertThat(c.column()).isEqualTo("label"));

    assertThatThrownBy(() -> NoiseInjector.builder().build().inject(SampleLake.folder(), dir.resolve("one")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not empty");
    assertThatThrownBy(() -> NoiseInjector.builder().rate(1.5)).hasMessageContaining("[0, 1]");
    assertThat(Map.of()).isEmpty();
  }
}
