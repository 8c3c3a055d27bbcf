/**
 * Substance checks, what a reader judges first: is the article about its topic, and does it
 * read as language rather than a loop. A failed one caps the score (registry.ts SCORE_CAPS).
 * Both measure the article's own words: the words code steered into it (keywords, anchors,
 * prefilled openings; `AnalyseInput.steered`) are never evidence that it is on topic.
 */
import { LOOPS, ON_TOPIC } from "../../plan/limits.js";
import { loops, type Repetition } from "../../text/repeats.js";
import { contentTerms } from "../../text/terms.js";
import type { CheckId } from "./registry.js";
import { type Article, type Measure, type Verdict, na, percent, plural, quote, round, sum, verdict } from "./article.js";

/** The substance checks by id. */
export const substanceChecks = {
  "on-topic": onTopic,
  "no-loops": noLoops,
} satisfies Partial<Record<CheckId, Measure>>;

/** A part of the article as the on-topic check reads it: its name for a message, its text, its words. */
interface Part {
  name: string;
  text: string;
  words: number;
}

/** The introduction and every section (its heading and the prose under it). */
function partsOf(article: Article): Part[] {
  const intro = article.introduction;
  const parts: Part[] = intro.length
    ? [{ name: "the introduction", text: intro.map((p) => p.text).join("\n"), words: sum(intro.map((p) => p.words)) }]
    : [];
  for (const { heading, prose } of article.sections) {
    parts.push({
      name: `“${heading.text}”`,
      text: [heading.text, ...prose.map((p) => p.text)].join("\n"),
      words: heading.words + sum(prose.map((p) => p.words)),
    });
  }
  return parts;
}

/** The words that say what the article is about: the subject's texts, the keywords, and each source's most frequent content words. */
function subjectTerms(article: Article): Set<string> {
  const { about = [], keywords, sources = [], language } = article.input;
  const terms = new Set([...about, ...keywords].flatMap((text) => contentTerms(text, language)));
  for (const source of sources) {
    const counts = new Map<string, number>();
    for (const term of contentTerms(`${source.title}\n${source.text}`, language)) counts.set(term, (counts.get(term) ?? 0) + 1);
    const salient = [...counts].filter(([term, count]) => count >= 2 && !/^\d/u.test(term)).sort((a, b) => b[1] - a[1]);
    for (const [term] of salient.slice(0, ON_TOPIC.salient)) terms.add(term);
  }
  return terms;
}

/** A text's content words with every run of a steered phrase's words taken out. */
function ownTerms(text: string, steered: readonly string[][], language: string): string[] {
  const terms = contentTerms(text, language);
  const own: string[] = [];
  for (let i = 0; i < terms.length; i++) {
    const run = steered.find((phrase) => phrase.length > 0 && phrase.every((term, j) => terms[i + j] === term));
    if (run) i += run.length - 1;
    else own.push(terms[i]!);
  }
  return own;
}

/** Whether a part's own words relate to the subject: enough distinct words of it, or one said densely. */
function relates(own: readonly string[], subject: ReadonlySet<string>, needed: number): boolean {
  const hits = own.filter((term) => subject.has(term));
  return new Set(hits).size >= needed || (hits.length >= 2 && percent(hits.length, own.length) >= ON_TOPIC.density);
}

function onTopic(article: Article): Verdict {
  const { language, steered = [] } = article.input;
  const subject = subjectTerms(article);
  if (subject.size === 0) return na("There is no topic, keyword, title or source to tell the subject by, so this check does not apply.");
  const parts = partsOf(article).filter((part) => part.words > 0);
  if (parts.length === 0) return verdict(false, "The article has no text to be about its topic.");
  const phrases = steered.map((phrase) => contentTerms(phrase, language)).sort((a, b) => b.length - a.length);
  const needed = Math.min(ON_TOPIC.terms, subject.size);
  const off = parts.filter((part) => !relates(ownTerms(part.text, phrases, language), subject, needed));
  const total = sum(parts.map((part) => part.words));
  const share = 100 - percent(sum(off.map((part) => part.words)), total);
  const steeredNote = steered.length ? "; the words code steered in are not counted" : "";
  const named = off.length ? `; not about it: ${off.map((part) => part.name).join(", ")}` : "";
  return verdict(
    share >= ON_TOPIC.share,
    `${parts.length - off.length} of ${plural(parts.length, "section")} use at least ${plural(needed, "word")} of the subject in their own words, or one as ${ON_TOPIC.density}% of them, ` +
      `holding ${round(share, 1)}% of the text (target at least ${ON_TOPIC.share}%${steeredNote})${named}.`,
  );
}

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
