package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LakesTest {

  @TempDir
  Path dir;

  @Test
  void aNoisyCopysRecordOfChangedCellsLeavesItACsvFolderLikeTheLakeItCopies() throws IOException {
    Files.writeString(dir.resolve("orders.csv"), "id,total\n1,2.5\n");
    Files.writeString(dir.resolve(NoisyLakes.RECORD_FILE), "{\"file\":\"orders.csv\",\"row\":1}\n");

    assertThat(Lakes.detect(dir)).isEqualTo(Lakes.Layout.CSV_FOLDER);

    // Any other JSON lines file is a table of a mixed folder.
    Files.writeString(dir.resolve("events.jsonl"), "{\"id\":1}\n");
    assertThat(Lakes.detect(dir)).isEqualTo(Lakes.Layout.FOLDER);
  }
}
