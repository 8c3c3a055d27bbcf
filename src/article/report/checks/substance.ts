/**
 * Substance checks, what a reader judges first: does the article read as language rather
 * than a loop (whether it is about its topic is on-topic.ts). A failed one caps the score
 * (registry.ts SCORE_CAPS).
 */
import { LOOPS } from "../../plan/limits.js";
import { loops, repetition } from "../../text/repeats.js";
import { normaliseSentence } from "../../text/text.js";
import type { CheckId } from "./registry.js";
import { type Article, type Measure, type Verdict, na, percent, plural, quote, round, verdict } from "./article.js";

/** The substance checks by id (on-topic.ts holds the other). */
export const substanceChecks = {
  "no-loops": noLoops,
} satisfies Partial<Record<CheckId, Measure>>;

function noLoops(article: Article): Verdict {
  const { language } = article.input;
  const measured = repetition(article.sentences, { language, ...LOOPS, share: LOOPS.sentenceShare });
  if (measured.sentences === 0) return na("The article has no sentences to repeat.");
  const sentenceShare = percent(measured.repeats.length, measured.sentences);
  const gramShare = percent(measured.repeatedGrams, measured.grams);
  const looping = loops(measured, LOOPS);
  const summary =
    `${measured.repeats.length} of ${plural(measured.sentences, "sentence")} of ${LOOPS.words} words or more repeat an earlier one, whole or mostly ` +
    `(${round(sentenceShare, 1)}%; at most ${LOOPS.repeatedSentences}%), ${measured.longestRun} of them in a row at most (fewer than ${LOOPS.run}), ` +
    `and ${round(gramShare, 1)}% of the runs of ${LOOPS.n} words are said again (at most ${LOOPS.repeatedGrams}%)`;
  return verdict(
    !looping,
    `${summary}${looping && measured.repeats.length ? `; most repeated: ${mostRepeated(article, measured.repeats)}` : ""}.`,
  );
}

/** The repeated sentence said most often, quoted with its count and the paragraph it opens or stands in. */
function mostRepeated(article: Article, repeats: readonly string[]): string {
  const { language } = article.input;
  const counts = new Map<string, { sentence: string; count: number }>();
  for (const sentence of article.sentences) {
    const key = normaliseSentence(sentence, language);
    const entry = counts.get(key) ?? { sentence, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  const repeated = new Set(repeats.map((sentence) => normaliseSentence(sentence, language)));
  const top = [...counts.entries()].filter(([key]) => repeated.has(key)).sort((a, b) => b[1].count - a[1].count)[0]?.[1] ?? {
    sentence: repeats[0] ?? "",
    count: 1,
  };
  const paragraph = article.prose.find((block) => block.sentences.includes(top.sentence));
  const where = paragraph && paragraph.sentences[0] !== top.sentence ? ` in the paragraph ${quote(paragraph.sentences[0]!, language)}` : "";
  return `${quote(top.sentence, language)} (${plural(top.count, "time")})${where}`;
}
