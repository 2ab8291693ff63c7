package dev.lakerewrite.retrieval;

import java.util.List;
import java.util.Set;

/**
 * Queries on assumed schemas of the sample lake, each with the lake tables that answer it: the yardstick for the
 * table rankings (tests and {@link RetrievalBenchmark}). Names are what a user would guess, not the lake's.
 */
final class LabelledQueries {
  record Labelled(List<QueryTable> query, Set<String> relevant) {
    static Labelled of(QueryTable q, String... relevant) {
      return new Labelled(List.of(q), Set.of(relevant));
    }
  }

  static final List<Labelled> ALL = List.of(
      Labelled.of(QueryTable.of("nz_regions", "name", "population", "capital"),
          "region_of_new_zealand", "capital_of", "shares_border_with"),
      Labelled.of(QueryTable.of("films", "title", "duration", "publication_date"), "computer_animated_film"),
      Labelled.of(QueryTable.of("countries", "gini_index", "emergency_number"), "country_of_origin"),
      Labelled.of(QueryTable.of("proteins", "uniprot_id", "refseq_id"), "acetyltransferase_ypea", "encodes"),
      Labelled.of(QueryTable.of("genes", "locus_tag", "start", "end", "strand"), "encoded_by"),
      Labelled.of(QueryTable.of("taxa", "taxon_name", "parent", "ncbi_id"), "found_in_taxon"),
      Labelled.of(QueryTable.of("software", "name", "programming_language", "license"), "xml_editor"),
      Labelled.of(QueryTable.of("licenses", "name", "spdx_id", "approved_by"), "copyright_license"),
      Labelled.of(QueryTable.of("presidents", "name", "birth_date", "spouse", "position"), "head_of_state"),
      Labelled.of(QueryTable.of("languages", "name", "iso639_code", "glottolog"),
          "original_language_of_film_or_tv_show"),
      Labelled.of(QueryTable.of("monsters", "name", "appears_in"), "fictional_creature"),
      Labelled.of(QueryTable.of("works", "title", "genre"), "present_in_work"),
      Labelled.of(QueryTable.of("olympic_games", "name", "sport", "location", "date"), "1992_winter_olympics"),
      Labelled.of(QueryTable.of("councils", "name", "website", "jurisdiction"), "authority"),
      Labelled.of(QueryTable.of("districts", "name", "area", "population", "neighbours"),
          "located_in_the_administrative_territorial_entity", "applies_to_jurisdiction"),
      Labelled.of(QueryTable.of("cities", "name", "postcode", "dialing_code", "elevation"), "capital"),
      Labelled.of(QueryTable.of("sports", "name", "practiced_by", "iptc_code"), "sport", "field_of_this_occupation"),
      Labelled.of(QueryTable.of("political_offices", "title", "officeholder", "inception"),
          "office_held_by_head_of_state"),
      Labelled.of(QueryTable.of("occupations", "name", "female_form", "field"), "practiced_by"),
      Labelled.of(QueryTable.of("people_categories", "name", "contains", "combines_topics"),
          "region_of_new_zealand_category_of_associated_people",
          "computer_animated_film_category_of_associated_people"));

  /**
   * Queries that name rare identifier columns under a vague table name: the words are exact, their meaning is
   * opaque to a sentence embedding. This is where lexical evidence should help.
   */
  static final List<Labelled> IDENTIFIERS = List.of(
      Labelled.of(QueryTable.of("items", "spdx"), "copyright_license"),
      Labelled.of(QueryTable.of("entities", "glottolog_code"), "original_language_of_film_or_tv_show"),
      Labelled.of(QueryTable.of("records", "fips_code", "iso_3166_2"),
          "region_of_new_zealand", "capital_of", "shares_border_with"),
      Labelled.of(QueryTable.of("data", "curlie_id", "postal_code"), "capital"),
      Labelled.of(QueryTable.of("t", "ncbi_locus_tag"), "encoded_by"),
      Labelled.of(QueryTable.of("t", "gram_staining"), "found_in_taxon"),
      Labelled.of(QueryTable.of("entries", "kbpedia_id"), "field_of_this_occupation"),
      Labelled.of(QueryTable.of("t", "plug_type", "licence_plate"), "country_of_origin"),
      Labelled.of(QueryTable.of("rows", "officeholder"), "office_held_by_head_of_state"),
      Labelled.of(QueryTable.of("t", "strand_orientation"), "encoded_by"),
      Labelled.of(QueryTable.of("objects", "copyright_status"), "xml_editor"),
      Labelled.of(QueryTable.of("persons", "isni", "spouse"), "head_of_state"),
      Labelled.of(QueryTable.of("t", "musicbrainz_area", "archinform"),
          "region_of_new_zealand", "capital_of", "shares_border_with"),
      Labelled.of(QueryTable.of("t", "gazetteer_id", "inaturalist"),
          "applies_to_jurisdiction", "located_in_the_administrative_territorial_entity", "region_of_new_zealand",
          "capital_of", "shares_border_with", "capital"),
      Labelled.of(QueryTable.of("t", "uniprot", "refseq"), "acetyltransferase_ypea", "encodes"));

  private LabelledQueries() {}

  /** Rank (1-based) of the first relevant table, or 0 when none is ranked. */
  static int firstRelevantRank(List<TableMatch> ranking, Set<String> relevant) {
    for (int i = 0; i < ranking.size(); i++) {
      if (relevant.contains(ranking.get(i).table())) {
        return i + 1;
      }
    }
    return 0;
  }

  /** Hit@1, Hit@3 and MRR of a scoring over {@link #ALL}. */
  record Quality(double hitAt1, double hitAt3, double mrr) {}

  static Quality measure(LakeIndex index, TableScoring scoring, List<Labelled> set) {
    double h1 = 0;
    double h3 = 0;
    double rr = 0;
    for (Labelled l : set) {
      int rank = firstRelevantRank(index.queryRelevance(l.query(), scoring).ranking(), l.relevant());
      h1 += rank == 1 ? 1 : 0;
      h3 += rank >= 1 && rank <= 3 ? 1 : 0;
      rr += rank == 0 ? 0 : 1.0 / rank;
    }
    int n = set.size();
    return new Quality(h1 / n, h3 / n, rr / n);
  }
}
