/**
 * Where a sentence can take a keyword, a noun phrase: right after a determiner or a preposition
 * ("went to the compost bin", "near a compost bin", "A guide for compost bins"), or a verb that
 * takes an object where the model wrote one before a slot word. Left out on purpose: an
 * infinitive marker ("happy to garden waste": en "to", de "zu", fr "de"/"pour", es "para", it
 * "per", pt "para"), which wants a verb, and a conjunction ("came home and compost bin"), which
 * joins two finite verbs as often as two nouns. The body steers an owed keyword into a sentence
 * after one; the outline steers the keyword into a title or heading the same way. A question
 * keyword ("does coffee go bad") is a sentence of its own, never a noun phrase.
 */
import { wordSpans } from "./text.js";

const SLOT_WORDS: Record<string, ReadonlySet<string>> = {
  en: new Set(
    (
      "the a an his her their my your our its this these those some every each of in on at for with from about into " +
      "near by under over like without through"
    ).split(" "),
  ),
  de: new Set("der die das den dem des ein eine einen einem einer mit für von zum zur im in auf über".split(" ")),
  fr: new Set("le la les un une des du au aux avec dans sur".split(" ")),
  es: new Set("el la los las un una del con en sobre".split(" ")),
  it: new Set("il lo la i gli le un una del della con in su".split(" ")),
  pt: new Set("o a os as um uma do da com em sobre".split(" ")),
  nl: new Set("de het een van met voor in op over".split(" ")),
};

/** Words a question keyword opens with, per language (a keyword ending in a question mark is one too). */
const QUESTION_OPENERS: Record<string, ReadonlySet<string>> = {
  en: new Set("how what why when where which who whose does do did is are can could should would will".split(" ")),
  de: new Set("wie was warum wann wo wer welche welcher welches ist sind kann darf soll".split(" ")),
  fr: new Set("comment pourquoi quand où qui quel quelle quels quelles est-ce".split(" ")),
  es: new Set("cómo qué por cuándo dónde quién cuál".split(" ")),
  it: new Set("come perché quando dove chi quale".split(" ")),
  pt: new Set("como porque quando onde quem qual".split(" ")),
  nl: new Set("hoe wat waarom wanneer waar wie welke is kan".split(" ")),
};

/** Whether a steered keyword may follow `word` in `language` (no word of a language without a list). */
export const isSlotWord = (word: string | undefined, language: string): boolean =>
  word !== undefined && (SLOT_WORDS[language]?.has(word.toLocaleLowerCase(language)) ?? false);

/** The slot words of a language, lower-case (none for a language without a list). */
export const slotWords = (language: string): readonly string[] => [...(SLOT_WORDS[language] ?? [])];

/** Whether the language has slot words: one without steers a keyword after the model's most lead words. */
export const hasSlotWords = (language: string): boolean => SLOT_WORDS[language] !== undefined;

/** Whether a keyword is a question ("does coffee go bad", "why do leaves curl?"): it is only ever a heading or a whole question. */
export function isQuestionKeyword(keyword: string, language: string): boolean {
  if (/[?？]\s*$/u.test(keyword)) return true;
  const first = wordSpans(keyword, language)[0]?.word.toLocaleLowerCase(language);
  return first !== undefined && (QUESTION_OPENERS[language]?.has(first) ?? false);
}

/**
 * Where a sentence holding `keyword` breaks the slot rules, or undefined where it keeps them:
 * "after WORD" when the keyword follows a word that is no slot word (it opening the sentence is
 * a slot), "mid-sentence" for a question keyword that is not the whole sentence. Languages
 * without slot words keep them always. For scripts/editor-measure.ts and the docs' examples.
 */
export function slotBreak(sentence: string, keyword: string, language: string): string | undefined {
  const words = wordSpans(sentence, language).map((w) => w.word.toLocaleLowerCase(language));
  const wanted = wordSpans(keyword, language).map((w) => w.word.toLocaleLowerCase(language));
  const at = words.findIndex((_, i) => wanted.length > 0 && wanted.every((w, j) => words[i + j] === w));
  if (at < 0 || !hasSlotWords(language)) return undefined;
  if (isQuestionKeyword(keyword, language)) return words.length === wanted.length ? undefined : "mid-sentence";
  const before = words[at - 1];
  return before === undefined || isSlotWord(before, language) ? undefined : `after “${before}”`;
}
