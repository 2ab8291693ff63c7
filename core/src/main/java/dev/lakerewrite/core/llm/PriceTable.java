package dev.lakerewrite.core.llm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Prices per model name, for estimated cost. Immutable. Lookup is by exact name, then by the longest known
 * prefix ({@code gpt-5-mini-2025-08-07} is priced as {@code gpt-5-mini}). Models it does not know cost 0 and are
 * reported as unpriced, so an estimate is never silently wrong: add them with {@link #with}.
 */
public final class PriceTable {
  /** List prices (USD per million input/output tokens) of common OpenAI-compatible models, November 2026. */
  public static final PriceTable DEFAULT = new PriceTable(Map.ofEntries(
      Map.entry("gpt-5", new Price(1.25, 10.00)),
      Map.entry("gpt-5-mini", new Price(0.25, 2.00)),
      Map.entry("gpt-5-nano", new Price(0.05, 0.40)),
      Map.entry("gpt-4.1", new Price(2.00, 8.00)),
      Map.entry("gpt-4.1-mini", new Price(0.40, 1.60)),
      Map.entry("gpt-4.1-nano", new Price(0.10, 0.40)),
      Map.entry("gpt-4o", new Price(2.50, 10.00)),
      Map.entry("gpt-4o-mini", new Price(0.15, 0.60)),
      Map.entry("o4-mini", new Price(1.10, 4.40))));

  private final Map<String, Price> prices;

  private PriceTable(Map<String, Price> prices) {
    this.prices = Map.copyOf(prices);
  }

  /** An empty table: every model is unpriced. */
  public static PriceTable empty() {
    return new PriceTable(Map.of());
  }

  /** A copy with one more (or a replaced) model price. */
  public PriceTable with(String model, Price price) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(price, "price");
    Map<String, Price> copy = new LinkedHashMap<>(prices);
    copy.put(model.toLowerCase(Locale.ROOT), price);
    return new PriceTable(copy);
  }

  /** The price of a model, if known. */
  public Optional<Price> price(String model) {
    if (model == null) {
      return Optional.empty();
    }
    String m = model.toLowerCase(Locale.ROOT);
    Price exact = prices.get(m);
    if (exact != null) {
      return Optional.of(exact);
    }
    String best = null;
    for (String known : prices.keySet()) {
      if (m.startsWith(known + "-") && (best == null || known.length() > best.length())) {
        best = known;
      }
    }
    return Optional.ofNullable(best == null ? null : prices.get(best));
  }
}
