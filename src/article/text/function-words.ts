/**
 * Function words: the articles, prepositions, conjunctions and possessive determiners of a
 * language that need a word after them, a subset of its `stopword` list (terms.ts), chosen
 * by hand because the lists also hold words that end a phrase well ("it", "them", "this").
 * Keyword matching skips them between a keyword's words ("season a cast iron skillet" holds
 * "season cast iron skillet"); no title or heading ends on one. Left out on purpose: words
 * that also end a phrase as particles or pronouns ("log in", "set up", "mach mit", "das"),
 * and auxiliaries, which end elliptic phrases ("What it is", "Yes, you can", "… gemacht wird").
 */
import { stem } from "./stem.js";
import { stopWords } from "./terms.js";
import { wordSpans } from "./text.js";

/** The chosen words per language; only those its stop-word list holds are kept. */
const CHOSEN: Record<string, string> = {
  en: "the a an and or but of to for with from into at than my your our their",
  de:
    "der die den dem des ein eine einen einem einer eines und oder aber denn sondern weil dass ob für von zum zur im am vom beim ins bei nach seit gegen " +
    "ohne durch",
  fr: "le la les un une des du de au aux et ou mais que avec pour dans sur par sans",
  es: "el la los las un una de del al a con para en por sin sobre y o pero que",
  it: "il lo la i gli le un uno una di del dello della dei degli delle al allo alla ai agli alle con per in su da tra e o ma che",
  pt: "o a os as um uma umas de do da dos das no na nos nas em com para por sem e ou mas que",
  nl: "de het een van met en of maar",
  ja: "を に が へ や と の で は から より まで",
};

const sets = new Map<string, ReadonlySet<string>>();

/** The function words of a language, lower-cased (none for a language without a choice). */
export function functionWords(language: string): ReadonlySet<string> {
  let set = sets.get(language);
  if (!set) {
    const stop = stopWords(language);
    set = new Set((CHOSEN[language] ?? "").split(" ").filter((word) => word && stop.has(word)));
    sets.set(language, set);
  }
  return set;
}

/** Whether a word is a function word of its language (case-insensitive). */
export const isFunctionWord = (word: string, language: string): boolean => functionWords(language).has(word.toLocaleLowerCase(language));

/**
 * The function word a title or heading ends on ("… realized that the", "… safe for?"), or
 * undefined when its last word can end a phrase. A word joined to the one before it by a
 * hyphen or an apostrophe ("Prends-le", "l'un") is part of that word, never a dangling one.
 */
export function danglingEnd(text: string, language: string): string | undefined {
  const last = wordSpans(text, language).at(-1);
  if (!last || /[-'’]$/u.test(text.slice(0, last.index))) return undefined;
  // A Latin word in the text of a language written otherwise ("… in the" in a Japanese heading) is read as English.
  const aside = /^\p{Script=Latin}+$/u.test(last.word) && ![...functionWords(language)].some((word) => /\p{Script=Latin}/u.test(word));
  return isFunctionWord(last.word, language) || (aside && isFunctionWord(last.word, "en")) ? last.word : undefined;
}

/**
 * Function words of a script without spaces that are one character (Japanese particles), as a
 * grammar can refuse them at a field's end without reading words: `always` never ends a field,
 * `afterKana` only after a kanji, katakana or Latin letter, since kana words end on it too
 * ("こと", "もの", "もっと"), while "水の" or "植物と" dangle.
 */
export function finalCharacters(language: string): { always: string; afterKana: string } | undefined {
  const single = [...functionWords(language)].filter((word) => [...word].length === 1);
  if (!single.length) return undefined;
  const ambiguous = KANA_ENDINGS[language] ?? "";
  return {
    always: single.filter((c) => !ambiguous.includes(c)).join(""),
    afterKana: single.filter((c) => ambiguous.includes(c)).join(""),
  };
}

/** Particles that also end words of a language's kana (ja: "こと", "もの", "ほかに", "そこで"). */
const KANA_ENDINGS: Record<string, string> = { ja: "のとにで" };

/** Numbering code puts before a listicle item or how-to step ("3. "), which is no opening word. */
const NUMBERING = /^\s*\d+[.)]\s+/u;

/**
 * A heading's first word as the outline grammar and the heading-openings check both read it:
 * `Intl.Segmenter`'s first word in the language (numbering skipped), so a script without spaces
 * opens with a word too ("観葉植物の水やり" with "観葉"), lower-cased, and its stem; undefined for none.
 */
export function openingWord(text: string, language: string): { word: string; stem: string } | undefined {
  const first = wordSpans(text.replace(NUMBERING, ""), language)[0];
  if (!first) return undefined;
  const word = first.word.toLocaleLowerCase(language);
  return { word, stem: stem(word, language) };
}

/** How a heading opens, as headings are compared: its first word's stem ({@link openingWord}); "" for none. */
export const openingOf = (text: string, language: string): string => openingWord(text, language)?.stem ?? "";
