package dev.lakerewrite.joingraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConfigTest {

  @Test
  void defaultsAreDocumentedValues() {
    JoinGraphConfig c = JoinGraphConfig.defaults();
    assertThat(c.instanceMeasure()).isEqualTo(JoinGraphConfig.InstanceMeasure.CONTAINMENT);
    assertThat(c.omegaScope()).isEqualTo(JoinGraphConfig.OmegaScope.EVIDENCE_PAIRS);
    assertThat(c.minKeyUniqueness()).isEqualTo(0.9);
    assertThat(c.tableAwareNames()).isTrue();
    assertThat(c.hopPenalty()).isEqualTo(0.25);
    assertThat(c.epsilon()).isEqualTo(1e-3);
    assertThat(c.fanOutExponent()).isEqualTo(1.0);
    assertThat(c.paths()).isEqualTo(3);
    assertThat(c.resolvedSearch(100)).isEqualTo(JoinGraphConfig.CandidateSearch.INVERTED_INDEX);
    assertThat(c.resolvedSearch(1_000_000)).isEqualTo(JoinGraphConfig.CandidateSearch.SKETCH);
  }

  @Test
  void thesisPresetIsTheLiteralFormula() {
    JoinGraphConfig t = JoinGraphConfig.thesis();
    assertThat(t.instanceMeasure()).isEqualTo(JoinGraphConfig.InstanceMeasure.JACCARD);
    assertThat(t.omegaScope()).isEqualTo(JoinGraphConfig.OmegaScope.ALL_COLUMN_PAIRS);
    assertThat(t.minSharedValues()).isEqualTo(1);
    assertThat(t.minKeyUniqueness()).isZero();
    assertThat(t.tableAwareNames()).isFalse();
    assertThat(t.skipBooleanColumns()).isFalse();
  }

  @Test
  void toBuilderRoundTripsAndOnlyBuildSettingsChangeTheSignature() {
    JoinGraphConfig c = JoinGraphConfig.builder().hopPenalty(1.5).minSharedValues(3).build();
    assertThat(c.toBuilder().build()).isEqualTo(c).hasSameHashCodeAs(c);
    assertThat(c.toBuilder().hopPenalty(0).paths(9).parallelism(1).build().buildSignature())
        .isEqualTo(c.buildSignature());
    assertThat(c.toBuilder().minSharedValues(4).build().buildSignature()).isNotEqualTo(c.buildSignature());
  }

  @Test
  void badValuesAreRejectedWithTheirName() {
    assertThatThrownBy(() -> JoinGraphConfig.builder().epsilon(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epsilon (ε) must be in (0, 1), was 0.0");
    assertThatThrownBy(() -> JoinGraphConfig.builder().hopPenalty(-1))
        .hasMessageContaining("hopPenalty (λ) must be a finite number ≥ 0, was -1.0");
    assertThatThrownBy(() -> JoinGraphConfig.builder().fanOutExponent(Double.NaN)).hasMessageContaining("α");
    assertThatThrownBy(() -> JoinGraphConfig.builder().valueCap(1000)).hasMessageContaining("power of two");
    assertThatThrownBy(() -> JoinGraphConfig.builder().minKeyUniqueness(1.5)).hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> JoinGraphConfig.builder().paths(0)).hasMessageContaining("paths must be at least 1");
    assertThatThrownBy(() -> JoinGraphConfig.builder().topPairs(2).keysPerHop(3).build())
        .hasMessageContaining("keysPerHop (3) cannot exceed topPairs (2)");
    assertThatThrownBy(() -> JoinGraphConfig.builder().instanceMeasure(null)).isInstanceOf(NullPointerException.class);
  }
}
