/** The focus keyword an article takes from its topic when the request gives none. */
import { lowerFirst, wordSpans } from "../text/text.js";

/** Longest focus keyword taken from a topic, in words. */
const FOCUS_WORDS = 4;

/**
 * A focus keyword from the topic when none is given: the topic's longest noun phrase, at most
 * four words, never a whole long topic or question. A phrase is a run of words that no small
 * word breaks (an article, a question word, a pronoun…) but a lone preposition may join
 * ("indoor plants for beginners"), its small words at either end dropped, so the product or
 * subject stays ("Review of the Kindle Paperwhite" → "Kindle Paperwhite"; "How do I start
 * composting at home?" → "start composting at home"). The first of equally long phrases wins; a
 * topic with no phrase of two words keeps its first four words ("A day at the park" → "day at the park");
 * only a phrase that opens the topic has its first letter lowered (a name stays as written).
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
  const joining = JOINING[language] ?? new Set<string>();
  const lower = spans.map((span) => span.word.toLocaleLowerCase(language));
  let best: [number, number] = [0, 0];
  for (let start = 0; start < spans.length; ) {
    let end = start;
    while (end < spans.length && (!small.has(lower[end]!) || joining.has(lower[end]!))) end++;
    const phrase = trimmed(start, Math.min(end, start + FOCUS_WORDS), (i) => small.has(lower[i]!));
    if (phrase[1] - phrase[0] > best[1] - best[0]) best = phrase;
    start = end + 1;
  }
  // No phrase of two words or more ("A day at the park"): the topic's first words, small words at their ends
  // dropped while words are left (a topic of small words alone keeps them).
  if (best[1] - best[0] < 2) {
    const isSmall = (i: number) => small.has(lower[i]!);
    let start = 0;
    while (start < spans.length - 1 && spans.length - start > FOCUS_WORDS && isSmall(start)) start++;
    let end = Math.min(spans.length, start + FOCUS_WORDS);
    while (end - start > 1 && isSmall(end - 1)) end--;
    best = [start, end];
  }
  const last = spans[best[1] - 1]!;
  const phrase = text.slice(spans[best[0]]!.index, last.index + last.word.length);
  return best[0] === 0 ? lowerFirst(phrase, language) : phrase;
}

/** Words `start` to `end` (exclusive) without the small words at either end. */
function trimmed(start: number, end: number, isSmall: (i: number) => boolean): [number, number] {
  while (start < end && isSmall(start)) start++;
  while (end > start && isSmall(end - 1)) end--;
  return [start, end];
}

/** Small words that may join a phrase's words, one at a time (prepositions): "indoor plants for beginners". */
const JOINING: Record<string, Set<string>> = {
  en: new Set("of in on at to for with by from about into over under".split(" ")),
  de: new Set("von in im am an auf zu für mit".split(" ")),
  fr: new Set("de du en au aux à pour avec sur sous dans par".split(" ")),
  es: new Set("de del en a al para con".split(" ")),
};

/** Words a focus keyword should neither start nor end with (question words, articles, prepositions). */
const SMALL_WORDS: Record<string, Set<string>> = {
  en: new Set(
    (
      "a an the and or but of in on at to for with by from about into over under than how what why when where which " +
      "who whose is are was were do does did can could should would will i you we my your our it its this that these those best top ultimate guide small big"
    ).split(" "),
  ),
  de: new Set("der die das ein eine und oder von in im am an auf zu für mit wie was warum wann wo ist sind ich du wir".split(" ")),
  fr: new Set(
    "le la les un une des et ou de du en au aux à pour avec sur sous dans par comment quoi pourquoi quand est sont je vous nous".split(" "),
  ),
  es: new Set("el la los las un una y o de del en a al para con cómo qué por es son yo".split(" ")),
};
