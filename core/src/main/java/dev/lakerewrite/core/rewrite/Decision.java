package dev.lakerewrite.core.rewrite;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The self-checker's answer (thesis §4.1): the next actions, its reasoning, and its ranking of the candidates so
 * far, which decides the result when the loop ends without OUTPUT_QUERY.
 *
 * @param actions actions to run next, possibly several of one kind; OUTPUT_QUERY ends the loop
 * @param reasoning the structured justification (added to the scratchpad's notes)
 * @param scores the checker's score in [0, 1] per candidate index, for those it judged
 * @param best the candidate it currently considers best, if any
 */
record Decision(List<Action> actions, Reasoning reasoning, Map<Integer, Double> scores, OptionalInt best) {
  public Decision {
    actions = List.copyOf(actions);
    Objects.requireNonNull(reasoning, "reasoning");
    scores = Map.copyOf(scores);
    Objects.requireNonNull(best, "best");
  }

  /** The reasoning block of the checker's JSON contract. */
  public record Reasoning(String intentCoverage, String outputQuality, String missingInformation,
      String suggestedImprovement) {
    public static final Reasoning NONE = new Reasoning("", "", "", "");

    public Reasoning {
      intentCoverage = intentCoverage == null ? "" : intentCoverage;
      outputQuality = outputQuality == null ? "" : outputQuality;
      missingInformation = missingInformation == null ? "" : missingInformation;
      suggestedImprovement = suggestedImprovement == null ? "" : suggestedImprovement;
    }

    public String render() {
      StringBuilder sb = new StringBuilder();
      if (!intentCoverage.isBlank()) {
        sb.append("intent coverage: ").append(intentCoverage).append('\n');
      }
      if (!outputQuality.isBlank()) {
        sb.append("output quality: ").append(outputQuality).append('\n');
      }
      if (!missingInformation.isBlank()) {
        sb.append("missing information: ").append(missingInformation).append('\n');
      }
      if (!suggestedImprovement.isBlank()) {
        sb.append("suggested improvement: ").append(suggestedImprovement).append('\n');
      }
      return sb.toString().strip();
    }
  }
}
