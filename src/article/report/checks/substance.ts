/**
 * Substance checks, what a reader judges first: does the article read as language rather
 * than a loop (whether it is about its topic is on-topic.ts). A failed one caps the score
 * (src/contract/checks.ts SCORE_CAPS).
 */
import { LOOPS } from "../../plan/limits.js";
import { loops, type Repetition } from "../../text/repeats.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Article, type Measure, type Verdict, na, percent, plural, quote, round, verdict } from "./article.js";

/** The substance checks by id (on-topic.ts holds the other). */
export const substanceChecks = {
  "no-loops": noLoops,
} satisfies Partial<Record<CheckId, Measure>>;

function noLoops(article: Article): Verdict {
  const measured = article.repetition;
  if (measured.sentences === 0) return na("The article has no sentences to repeat.");
  const sentenceShare = percent(measured.repeats.length, measured.sentences);
  const gramShare = percent(measured.repeatedGrams, measured.grams);
  const looping = loops(measured, LOOPS);
  const summary =
    `${measured.repeats.length} of ${plural(measured.sentences, "sentence")} of ${LOOPS.words} words or more repeat an earlier one, whole, nearly or mostly ` +
    `(${round(sentenceShare, 1)}%; at most ${LOOPS.repeatedSentences}%), ${measured.longestRun} of them in a row at most (fewer than ${LOOPS.run}), ` +
    `the same sentence ${plural(measured.burst, "time")} at most among ${LOOPS.window + 1} in a row (fewer than ${LOOPS.said}), ` +
    `and ${round(gramShare, 1)}% of the runs of ${LOOPS.n} words are said again (at most ${LOOPS.repeatedGrams}%)`;
  return verdict(!looping, `${summary}${looping ? named(article, measured) : ""}.`);
}

/** The sentence said most often, quoted with its count and the paragraph it opens or stands in; else the first repeat. */
function named(article: Article, measured: Repetition): string {
  const { language } = article.input;
  const top = measured.mostSaid;
  if (!top) return measured.repeats[0] ? `; first repeat: ${quote(measured.repeats[0].sentence, language)}` : "";
  const nearly = top.nearly ? `, ${top.nearly} of them with a word or two changed` : "";
  const paragraph = article.prose.find((block) => block.sentences.includes(top.sentence));
  const where = paragraph && paragraph.sentences[0] !== top.sentence ? ` in the paragraph ${quote(paragraph.sentences[0]!, language)}` : "";
  return `; most repeated: ${quote(top.sentence, language)} (${plural(top.times, "time")}${nearly})${where}`;
}
