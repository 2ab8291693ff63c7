package dev.lakerewrite.core.rewrite;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The shared memory of one rewrite (thesis §4.2): table previews, join previews, value-search previews, UDF
 * metadata, CTE previews, union partners and the checker's notes, each entry timestamped. When a section grows
 * past its limit the oldest entries go (time-based eviction), alternatives first ({@link #addAlternative});
 * EVICT_TABLE removes a table for good, and basic retrieval never brings an evicted table back. Not thread-safe: one
 * rewrite, one thread.
 */
public final class Scratchpad {

  /** Scratchpad sections, in prompt order. */
  public enum Section {
    TABLES("Table previews"),
    JOINS("Join previews"),
    VALUES("Value-search previews"),
    UNIONS("Union partners"),
    UDFS("UDF metadata"),
    CTES("CTE previews"),
    NOTES("Checker notes");

    private final String title;

    Section(String title) {
      this.title = title;
    }

    public String title() {
      return title;
    }
  }

  /**
   * One entry.
   *
   * @param section where it lives
   * @param key identity within the section (a table name, "a|b" for a join...); re-adding a key replaces it
   * @param iteration the iteration that added it
   * @param sequence insertion order across the scratchpad (the eviction timestamp)
   * @param text what prompts show
   * @param payload the typed evidence behind the text, for the offline agents
   */
  public record Entry(Section section, String key, int iteration, long sequence, String text, Object payload) {}

  private final Map<Section, Integer> limits;
  private final Map<Section, LinkedHashMap<String, Entry>> sections = new EnumMap<>(Section.class);
  private final Set<String> evicted = new LinkedHashSet<>();
  private final List<Entry> timeEvicted = new ArrayList<>();
  private final Map<Section, Set<String>> alternatives = new EnumMap<>(Section.class);
  private long sequence;
  private long version;

  /** A scratchpad with a maximum number of entries per section. */
  public Scratchpad(Map<Section, Integer> limits) {
    this.limits = new EnumMap<>(Section.class);
    for (Section s : Section.values()) {
      int limit = limits.getOrDefault(s, 8);
      if (limit < 1) {
        throw new IllegalArgumentException("the limit of section " + s + " must be at least 1, was " + limit);
      }
      this.limits.put(s, limit);
      sections.put(s, new LinkedHashMap<>());
      alternatives.put(s, new LinkedHashSet<>());
    }
  }

  /** Adds (or refreshes) an entry; returns the entries evicted to respect the section's limit. */
  public List<Entry> add(Section section, String key, int iteration, String text, Object payload) {
    return add(section, key, iteration, text, payload, false);
  }

  /**
   * Adds (or refreshes) an entry that is an alternative to another one (a join path ranked below the best one
   * between the same tables); returns the entries evicted to respect the section's limit. When a section is full,
   * its oldest alternative goes before any other entry: three paths found per table pair would otherwise push the
   * first pair's only path out of a section of six by the third search (a query over seven tables searches six).
   */
  public List<Entry> addAlternative(Section section, String key, int iteration, String text, Object payload) {
    return add(section, key, iteration, text, payload, true);
  }

  private List<Entry> add(Section section, String key, int iteration, String text, Object payload,
      boolean alternative) {
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(key, "key");
    LinkedHashMap<String, Entry> entries = sections.get(section);
    Entry previous = entries.remove(key);
    if (previous == null || !previous.text().equals(text)) {
      version++;
    }
    entries.put(key, new Entry(section, key, iteration, ++sequence, text, payload));
    Set<String> alternatives = this.alternatives.get(section);
    if (alternative) {
      alternatives.add(key);
    } else {
      alternatives.remove(key);
    }
    List<Entry> out = new ArrayList<>();
    while (entries.size() > limits.get(section)) {
      Entry oldest = entries.values().stream().filter(e -> alternatives.contains(e.key())).findFirst()
          .orElse(entries.values().iterator().next());
      entries.remove(oldest.key());
      alternatives.remove(oldest.key());
      timeEvicted.add(oldest);
      out.add(oldest);
    }
    return out;
  }

  /** Entries of a section, oldest first. */
  public List<Entry> entries(Section section) {
    return List.copyOf(sections.get(section).values());
  }

  public Optional<Entry> entry(Section section, String key) {
    return Optional.ofNullable(sections.get(section).get(key));
  }

  /** Payloads of a section of the given type, oldest first. */
  public <T> List<T> payloads(Section section, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (Entry e : sections.get(section).values()) {
      if (type.isInstance(e.payload())) {
        out.add(type.cast(e.payload()));
      }
    }
    return out;
  }

  /** Tables whose previews are in the scratchpad: the context C_k of table–table relevance. */
  public Set<String> contextTables() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(sections.get(Section.TABLES).keySet()));
  }

  public boolean hasTable(String table) {
    return sections.get(Section.TABLES).containsKey(table);
  }

  /**
   * EVICT_TABLE: removes the table's preview and every join, value and union entry that involves it, and bars
   * it from basic retrieval from now on. Specialised actions may still reach it.
   */
  public void evictTable(String table) {
    // Evicting an evicted table changes nothing: it must not count as progress (a model repeating the action
    // would otherwise keep the loop going until its iteration limit).
    boolean changed = evicted.add(table.toLowerCase(Locale.ROOT));
    changed |= sections.get(Section.TABLES).remove(table) != null;
    for (Section s : List.of(Section.JOINS, Section.VALUES, Section.UNIONS)) {
      changed |= sections.get(s).values().removeIf(e -> mentions(e.key(), table));
    }
    if (changed) {
      version++;
    }
  }

  private static boolean mentions(String key, String table) {
    for (String part : key.split("\\|")) {
      if (part.equalsIgnoreCase(table)) {
        return true;
      }
    }
    return false;
  }

  public boolean isEvicted(String table) {
    return evicted.contains(table.toLowerCase(Locale.ROOT));
  }

  public Set<String> evictedTables() {
    return Collections.unmodifiableSet(evicted);
  }

  /** Entries that left because their section was full (they may still show in the rewrite history). */
  public List<Entry> timeEvicted() {
    return List.copyOf(timeEvicted);
  }

  /** The scratchpad as prompts show it: one block per non-empty section. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    for (Section s : Section.values()) {
      Map<String, Entry> entries = sections.get(s);
      if (entries.isEmpty()) {
        continue;
      }
      sb.append("### ").append(s.title()).append('\n');
      for (Entry e : entries.values()) {
        sb.append(e.text().strip()).append("\n\n");
      }
    }
    return sb.length() == 0 ? "(empty)" : sb.toString().strip();
  }

  /** Changes whenever content changes (a new key, a new text for a key, an eviction); for progress checks. */
  public long version() {
    return version;
  }

  public boolean isEmpty() {
    return sections.values().stream().allMatch(Map::isEmpty);
  }
}
