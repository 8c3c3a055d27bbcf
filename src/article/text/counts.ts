/**
 * The count a title or topic promises: "Ten tips for a tidy shed", "7 ways to …", "Top 5 …".
 * A number counts when "top" stands before it, or a list noun ("tips", "ways", "ideas", …)
 * is one of the three words after it ("7 easy ways"); other numbers ("lose 5 kg", "in 2024") promise
 * nothing. Numbers in digits (2 to 50) or, in English, German, French and Spanish, in words.
 */
import { wordSpans } from "./text.js";

/** Most items a title may promise: "100 days of …" is no list. */
const MOST = 50;

/** Number words per language, 2 to 20 (index + 2; "-" where the word is hyphenated, which the reader splits). */
const NUMBER_WORDS: Record<string, readonly string[]> = {
  en: "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  ),
  de: "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn zwanzig".split(
    " ",
  ),
  fr: "deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize - - - vingt".split(" "),
  es: "dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince dieciséis diecisiete dieciocho diecinueve veinte".split(
    " ",
  ),
};

/** Words that say a list follows a number, per language ("top" before it, list nouns after it). */
const LIST_WORDS: Record<string, { top: readonly string[]; nouns: ReadonlySet<string> }> = {
  en: {
    top: ["top"],
    nouns: new Set(
      (
        "tips ways ideas reasons things steps mistakes rules tricks secrets signs facts questions examples tools " +
        "habits hacks lessons myths plants books recipes places benefits"
      ).split(" "),
    ),
  },
  de: { top: ["top"], nouns: new Set("tipps wege ideen gründe dinge schritte fehler tricks regeln fragen beispiele".split(" ")) },
  fr: { top: ["top"], nouns: new Set("astuces conseils façons idées raisons choses étapes erreurs règles questions exemples".split(" ")) },
  es: {
    top: ["top"],
    nouns: new Set("consejos formas maneras ideas razones cosas pasos errores trucos reglas preguntas ejemplos".split(" ")),
  },
};

/** A word as a count: digits or a number word of the language; undefined otherwise. */
function asCount(word: string, language: string): number | undefined {
  if (/^\d+$/u.test(word)) return Number(word);
  const index = NUMBER_WORDS[language]?.indexOf(word) ?? -1;
  return index < 0 ? undefined : index + 2;
}

/** The count a text promises as a list's length, or undefined when it promises none. */
export function promisedCount(text: string, language: string): number | undefined {
  const list = LIST_WORDS[language] ?? LIST_WORDS.en!;
  const words = wordSpans(text, language).map((span) => span.word.toLocaleLowerCase(language));
  for (const [i, word] of words.entries()) {
    const count = asCount(word, language);
    if (count === undefined || count < 2 || count > MOST) continue;
    const topped = i > 0 && list.top.includes(words[i - 1]!);
    if (topped || words.slice(i + 1, i + 4).some((next) => list.nouns.has(next))) return count;
  }
  return undefined;
}
