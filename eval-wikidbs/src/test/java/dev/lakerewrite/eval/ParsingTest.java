package dev.lakerewrite.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakerewrite.core.LakeRewriter;
import dev.lakerewrite.core.Rewriter;
import dev.lakerewrite.core.rewrite.ActionType;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Methods, ablations, models and variants: spellings, names, and what they configure. */
class ParsingTest {

  @Test
  void methodsAndAblationsParseLeniently() {
    assertThat(EvalMethod.parse("one_step")).isEqualTo(EvalMethod.ONE_STEP);
    assertThat(EvalMethod.parse("Retriever Reader")).isEqualTo(EvalMethod.RETRIEVER_READER);
    assertThat(Ablation.parse("BUILD_CTE")).isEqualTo(Ablation.NO_BUILD_CTE);
    assertThat(Ablation.parse("no JOIN_GRAPH")).isEqualTo(Ablation.NO_JOIN_GRAPH);
    assertThat(Ablation.parse("no-search-value")).isEqualTo(Ablation.NO_SEARCH_VALUE);
    assertThatThrownBy(() -> EvalMethod.parse("itertive")).hasMessageContaining("did you mean 'iterative'?")
        .hasMessageContaining("known: iterative, one-step, retriever-rewriter, retriever-reader");
    assertThatThrownBy(() -> Ablation.parse("no-cache")).hasMessageContaining("unknown ablation 'no-cache'");
  }

  @Test
  void ablationsSwitchTheirCapabilityOff() {
    LakeRewriter noCte = Variant.ablated(Ablation.NO_BUILD_CTE, EvalModel.OFFLINE).rewriter(5, Duration.ofSeconds(9));
    assertThat(noCte.config().enabledActions()).doesNotContain(ActionType.BUILD_CTE).contains(ActionType.SEARCH_VALUE);
    assertThat(noCte.config().joinGraph()).isTrue();
    LakeRewriter noGraph = Variant.ablated(Ablation.NO_JOIN_GRAPH, EvalModel.OFFLINE).rewriter(5, Duration.ofSeconds(9));
    assertThat(noGraph.config().joinGraph()).isFalse();
    assertThat(noGraph.config().enabledActions()).doesNotContain(ActionType.FIND_JOIN_PATH);
    LakeRewriter oneStep = Variant.of(EvalMethod.ONE_STEP, EvalModel.OFFLINE).rewriter(5, Duration.ofSeconds(9));
    assertThat(oneStep.method()).isEqualTo(Rewriter.Method.ONE_STEP);
    assertThat(oneStep.config().budget().maxWallTime()).isEqualTo(Duration.ofSeconds(9));
    assertThat(oneStep.usesModel()).isFalse();
  }

  @Test
  void variantNamesAreUniqueAndSayWhatRan() {
    assertThat(Variant.of(EvalMethod.ITERATIVE, EvalModel.OFFLINE).name()).isEqualTo("iterative");
    assertThat(Variant.ablated(Ablation.NO_UNION_SEARCH, EvalModel.OFFLINE).name())
        .isEqualTo("iterative-no-union-search");
    assertThat(Variant.ablated(Ablation.NO_UNION_SEARCH, EvalModel.OFFLINE).title())
        .isEqualTo("Iterative Rewriter (no UNION_SEARCH)");
    EvalModel gpt = EvalModel.fromEnvironment("gpt-5-mini", Map.of("LAKEREWRITE_LLM_BASE_URL", "http://localhost:1/v1"));
    assertThat(Variant.of(EvalMethod.RETRIEVER_READER, gpt).name()).isEqualTo("retriever-reader@gpt-5-mini");
    assertThat(Variant.of(EvalMethod.RETRIEVER_READER, gpt).unavailableReason()).isEmpty();
    assertThat(Variant.of(EvalMethod.RETRIEVER_READER, EvalModel.OFFLINE).unavailableReason()).get()
        .asString().contains("needs a chat model");
    assertThat(Variant.of(EvalMethod.ITERATIVE, gpt).rewriter(5, Duration.ofSeconds(9)).usesModel()).isTrue();
    assertThatThrownBy(() -> new Variant(EvalMethod.ONE_STEP, Optional.of(Ablation.NO_BUILD_CTE), EvalModel.OFFLINE))
        .hasMessageContaining("iterative method only");
    assertThat(EvalModel.fromEnvironment("offline", Map.of())).isSameAs(EvalModel.OFFLINE);
    assertThatThrownBy(() -> EvalModel.fromEnvironment("m", Map.of("LAKEREWRITE_LLM_BASE_URL", "ftp://x")))
        .hasMessageContaining("LAKEREWRITE_LLM_BASE_URL");
  }
}
