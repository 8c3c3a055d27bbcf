/** The focus keyword an article takes from its topic when the request gives none. */
import { lowerFirst, wordSpans } from "../text/text.js";

/** Longest focus keyword taken from a topic, in words. */
const FOCUS_WORDS = 4;

/**
 * A focus keyword from the topic when none is given: at most four words, never a whole
 * long topic or question. Leading question words and trailing small words go, so the
 * phrase reads naturally inside a sentence ("How do I start composting at home?" →
 * "start composting at home").
 */
export function focusKeyword(topic: string, language: string): string {
  // The first run of words not broken by punctuation ("Home composting <img …>" → "Home composting").
  const text =
    topic
      .split(/[^\p{L}\p{N}\p{M}\s'’-]+/u)
      .map((part) => part.trim())
      .find((part) => wordSpans(part, language).length > 0) ?? topic.trim();
  const spans = wordSpans(text, language);
  if (spans.length === 0) return lowerFirst(text, language);
  const small = SMALL_WORDS[language] ?? new Set<string>();
  const isSmall = (i: number) => small.has(spans[i]!.word.toLocaleLowerCase(language));
  let start = 0;
  while (start < spans.length - 1 && spans.length - start > FOCUS_WORDS && isSmall(start)) start++;
  let end = Math.min(spans.length, start + FOCUS_WORDS);
  while (end - start > 1 && isSmall(end - 1)) end--;
  const last = spans[end - 1]!;
  return lowerFirst(text.slice(spans[start]!.index, last.index + last.word.length), language);
}

/** Words a focus keyword should neither start nor end with (question words, articles, prepositions). */
const SMALL_WORDS: Record<string, Set<string>> = {
  en: new Set(
    "a an the and or but of in on at to for with by from about into over under than how what why when where which who whose is are was were do does did can could should would will i you we my your our it its this that these those best top ultimate guide small big".split(
      " ",
    ),
  ),
  de: new Set("der die das ein eine und oder von in im am an auf zu für mit wie was warum wann wo ist sind ich du wir".split(" ")),
  fr: new Set(
    "le la les un une des et ou de du en au aux à pour avec sur sous dans par comment quoi pourquoi quand est sont je vous nous".split(" "),
  ),
  es: new Set("el la los las un una y o de del en a al para con cómo qué por es son yo".split(" ")),
};
