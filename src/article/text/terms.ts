/**
 * Content words and BM25 ranking, shared by the sources (excerpts per section, citations)
 * and the links (pages per section). Words are the engine's word segments (text.ts), so
 * CJK text ranks as well as English; stop words come from the `stopword` package's list
 * for the language (none where it has no list); words compare by their stem (stem.ts), so
 * "composting" and "compost" match both ways; ranking is MiniSearch's BM25.
 */
import { LRUCache } from "lru-cache";
import MiniSearch from "minisearch";
import * as stopword from "stopword";
import { stem, stems } from "./stem.js";
import { wordSpans } from "./text.js";

/** The `stopword` list of an ISO 639-1 code (the package names its lists by ISO 639-3 code). */
const STOPWORD_LISTS: Record<string, string> = {
  af: "afr",
  ar: "ara",
  bg: "bul",
  bn: "ben",
  br: "bre",
  ca: "cat",
  cs: "ces",
  da: "dan",
  de: "deu",
  el: "ell",
  en: "eng",
  eo: "epo",
  es: "spa",
  et: "est",
  eu: "eus",
  fa: "fas",
  fi: "fin",
  fr: "fra",
  ga: "gle",
  gl: "glg",
  gu: "guj",
  ha: "hau",
  he: "heb",
  hi: "hin",
  hr: "hrv",
  hu: "hun",
  hy: "hye",
  id: "ind",
  it: "ita",
  ja: "jpn",
  ko: "kor",
  ku: "kur",
  la: "lat",
  lg: "lgg",
  lt: "lit",
  lv: "lav",
  mr: "mar",
  ms: "msa",
  my: "mya",
  nb: "nob",
  nl: "nld",
  no: "nob",
  pa: "panGu",
  pl: "pol",
  pt: "por",
  ro: "ron",
  ru: "rus",
  sk: "slk",
  sl: "slv",
  so: "som",
  st: "sot",
  sv: "swe",
  sw: "swa",
  th: "tha",
  tl: "tgl",
  tr: "tur",
  uk: "ukr",
  ur: "urd",
  vi: "vie",
  yo: "yor",
  zh: "zho",
  zu: "zul",
};

/** Each language's stop words, read once. */
const stopSets = new LRUCache<string, ReadonlySet<string>>({ max: 64 });

/** The stop words of a language, lower-cased; empty for a language without a list. */
export function stopWords(language: string): ReadonlySet<string> {
  let set = stopSets.get(language);
  if (!set) {
    const list = (stopword as unknown as Record<string, string[] | undefined>)[STOPWORD_LISTS[language] ?? ""] ?? [];
    set = new Set(list.map((word) => word.toLocaleLowerCase(language)));
    stopSets.set(language, set);
  }
  return set;
}

/** A word as compared: its lower-cased stem, or undefined for a stop word. */
function contentTerm(word: string, language: string): string | undefined {
  const lower = word.toLocaleLowerCase(language);
  return stopWords(language).has(lower) ? undefined : stem(lower, language);
}

/** The content words of a text as compared (lower-cased stems), in order: stop words left out, numbers kept. */
export function contentTerms(text: string, language: string): string[] {
  const out: string[] = [];
  for (const { word } of wordSpans(text, language)) {
    const term = contentTerm(word, language);
    if (term) out.push(term);
  }
  return out;
}

/** A document to index: its id (its position in the caller's list) and its text fields. */
export type TermDocument = { id: number; [field: string]: string | number };

/** A document's id and its BM25 score for a query. */
export type Ranked = { id: number; score: number };

/** In a language without a stemmer, query terms of at least this many letters also match words they begin ("compost" finds "composting"). */
const PREFIX_MIN = 4;

/**
 * A BM25 index over documents of named text fields, in one language. `boost` weighs a
 * field's matches (an excerpt's own text over its source's title, say).
 */
export class TermIndex {
  private readonly search: MiniSearch<TermDocument>;

  constructor(options: { language: string; fields: Record<string, number>; documents: TermDocument[] }) {
    const { language, fields } = options;
    const stemmed = stems(language);
    this.search = new MiniSearch({
      fields: Object.keys(fields),
      tokenize: (text) => wordSpans(text, language).map((span) => span.word),
      processTerm: (word) => contentTerm(word, language) ?? null,
      searchOptions: { boost: fields, prefix: (term) => !stemmed && [...term].length >= PREFIX_MIN, combineWith: "OR" },
    });
    this.search.addAll(options.documents);
  }

  /** The documents that share a term with the query, best first (ties in document order). */
  rank(query: string): Ranked[] {
    return this.search
      .search(query)
      .map((hit) => ({ id: hit.id as number, score: hit.score }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
