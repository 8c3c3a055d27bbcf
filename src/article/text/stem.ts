/**
 * Word stems, so "composting", "composted" and "compost" compare as one word: the Snowball
 * stemmers of the `@orama/stemmers` package, loaded on first use per language. A language it
 * has no stemmer for keeps its words as they are (lower-cased by the caller).
 */
import { createRequire } from "node:module";
import { LRUCache } from "lru-cache";

/** The package's module for an ISO 639-1 code (it names them in English). */
const STEMMERS: Record<string, string> = {
  ar: "arabic",
  bg: "bulgarian",
  da: "danish",
  de: "german",
  el: "greek",
  en: "english",
  es: "spanish",
  fi: "finnish",
  fr: "french",
  ga: "irish",
  hi: "indian",
  hu: "hungarian",
  hy: "armenian",
  id: "indonesian",
  it: "italian",
  lt: "lithuanian",
  nb: "norwegian",
  ne: "nepali",
  nl: "dutch",
  no: "norwegian",
  pt: "portuguese",
  ro: "romanian",
  ru: "russian",
  sa: "sanskrit",
  sr: "serbian",
  sv: "swedish",
  ta: "tamil",
  tr: "turkish",
  uk: "ukrainian",
};

// The package's CommonJS build loads synchronously, one language at a time, when first asked for.
const require = createRequire(import.meta.url);
/** Each language's stemmer once loaded (false: the package has none), in the engine's one bounded cache. */
const loaded = new LRUCache<string, ((word: string) => string) | false>({ max: 64 });

/** The stemmer of a language, or null where the package has none. */
function stemmerOf(language: string): ((word: string) => string) | null {
  let stemmer = loaded.get(language);
  if (stemmer === undefined) {
    const name = STEMMERS[language];
    stemmer = name ? (require(`@orama/stemmers/${name}`) as { stemmer: (word: string) => string }).stemmer : false;
    loaded.set(language, stemmer);
  }
  return stemmer || null;
}

/** Whether words of the language are stemmed (otherwise {@link stem} returns them unchanged). */
export function stems(language: string): boolean {
  return stemmerOf(language) !== null;
}

/** A lower-cased word's stem in its language; the word itself where the language has no stemmer. */
export function stem(word: string, language: string): string {
  const stemmer = stemmerOf(language);
  return stemmer ? stemmer(word) || word : word;
}
