/**
 * The on-topic check: is each part of the article (the introduction, each section) about its
 * subject, by meaning rather than by shared words. Every keyword phrase is taken out first, in
 * analyse and generate alike (generate also takes out the link anchors it steered in,
 * `AnalyseInput.steered`): a phrase placed in the text proves nothing, so a story with the keyword
 * pushed into every paragraph fails, and the same text gets the same verdict from both. A failed
 * check caps the score (src/contract/checks.ts SCORE_CAPS). Calibrated in docs/guarantees.md
 * (`npx tsx scripts/calibrate-topic.ts`).
 */
import { ON_TOPIC } from "../../plan/limits.js";
import { closeness, hasVectors, nearestOf, nearestOfAll, type Reference, referenceOf, vectorRows } from "../../text/meaning.js";
import { TOPICS } from "../../text/space.js";
import { stem } from "../../text/stem.js";
import { stopWords } from "../../text/terms.js";
import { wordSpans } from "../../text/text.js";
import { type Article, type Verdict, na, percent, plural, round, sum, verdict } from "./article.js";

/** A word as the check reads it: lower-cased as written (for its vector) and its stem (to match phrases and the subject). */
interface Word {
  word: string;
  term: string;
}

/** A part of the article: its name for a message and its own words (stop words and keyword phrases out). */
interface Part {
  name: string;
  words: Word[];
}

/** A text's content words: stop words left out, numbers kept. */
function wordsOf(text: string, language: string): Word[] {
  const stops = stopWords(language);
  const out: Word[] = [];
  for (const span of wordSpans(text, language)) {
    const word = span.word.toLocaleLowerCase(language);
    if (!stops.has(word)) out.push({ word, term: stem(word, language) });
  }
  return out;
}

/** A text's words with every run of a phrase's words (any word form) taken out; the longest phrase first. */
function ownWords(text: string, phrases: readonly string[][], language: string): Word[] {
  const words = wordsOf(text, language);
  const own: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const run = phrases.find((phrase) => phrase.every((term, j) => words[i + j]?.term === term));
    if (run) i += run.length - 1;
    else own.push(words[i]!);
  }
  return own;
}

/** The introduction and every section (its heading and the prose under it), each as its own words. */
function partsOf(article: Article, phrases: readonly string[][]): Part[] {
  const { language } = article.input;
  const own = (texts: readonly string[]) => ownWords(texts.join("\n"), phrases, language);
  const intro = article.introduction;
  const parts: Part[] = intro.length ? [{ name: "the introduction", words: own(intro.map((p) => p.text)) }] : [];
  for (const { heading, prose } of article.sections) {
    parts.push({ name: `“${heading.text}”`, words: own([heading.text, ...prose.map((p) => p.text)]) });
  }
  return parts;
}

/** The words that say what the article is about: the subject's texts, the keywords, and each source's most frequent content words. */
function subjectWords(article: Article): Word[] {
  const { about = [], keywords, sources = [], language } = article.input;
  const words = [...about, ...keywords].flatMap((text) => wordsOf(text, language));
  for (const source of sources) {
    const counts = new Map<string, { word: Word; count: number }>();
    for (const word of wordsOf(`${source.title}\n${source.text}`, language)) {
      if (/^\d/u.test(word.word)) continue;
      const entry = counts.get(word.term) ?? { word, count: 0 };
      entry.count++;
      counts.set(word.term, entry);
    }
    const salient = [...counts.values()].filter((entry) => entry.count >= 2).sort((a, b) => b.count - a.count);
    words.push(...salient.slice(0, ON_TOPIC.salient).map((entry) => entry.word));
  }
  return words;
}

function onTopic(article: Article): Verdict {
  const { language, keywords, steered = [] } = article.input;
  const subject = subjectWords(article);
  if (subject.length === 0) return na("There is no topic, keyword, title or source to tell the subject by, so this check does not apply.");
  const phrases = [...new Set([...keywords, ...steered])]
    .map((phrase) => wordsOf(phrase, language).map((word) => word.term))
    .filter((terms) => terms.length > 0)
    .sort((a, b) => b.length - a.length);
  const parts = partsOf(article, phrases);
  if (sum(parts.map((part) => part.words.length)) === 0) {
    return verdict(false, "The article has no words of its own to be about its topic: keyword phrases are not counted.");
  }
  const rows = vectorRows(subject.map((word) => word.word));
  if (!hasVectors(language)) return lexical(parts, subject, `there are no word vectors for “${language}”`);
  if (rows.length === 0) return lexical(parts, subject, "no word of the subject has a word vector");
  return byMeaning(parts, referenceOf(rows));
}

/** A part as measured: how many of its words have vectors, and their best cosines with the reference's words. */
interface Judged {
  part: Part;
  known: number;
  nearest: Float32Array;
}

/**
 * By meaning: the article relates when its own words come `whole` standard deviations closer to
 * the subject's words than to unrelated subjects' (meaning.ts), and its parts long enough to judge
 * ({@link ON_TOPIC}.least words with vectors) that come `z` closer hold `share` percent of the
 * judged words: the whole, with more words, is the steadier measure, and the parts keep an
 * article with one paragraph on the subject and the rest elsewhere from passing. Parts too short
 * to judge alone are judged together, as one; an article too short to judge at all is not judged.
 */
function byMeaning(parts: readonly Part[], reference: Reference): Verdict {
  const rows = parts.map((part) => vectorRows(part.words.map((word) => word.word)));
  const nearest = nearestOf(reference, rows);
  const all = parts.map((part, i): Judged => ({ part, known: rows[i]!.length, nearest: nearest[i]! }));
  const joined = (name: string, some: readonly Judged[]): Judged => ({
    part: { name, words: [] },
    known: sum(some.map((entry) => entry.known)),
    nearest: nearestOfAll(some.map((entry) => entry.nearest)),
  });
  const short = all.filter((entry) => entry.known < ON_TOPIC.least);
  const judged = all.filter((entry) => entry.known >= ON_TOPIC.least);
  const together = joined(short.length === 1 ? short[0]!.part.name : "the short sections together", short);
  if (short.length > 0 && together.known >= ON_TOPIC.least) judged.push(together);
  if (judged.length === 0) {
    return na(`Too few words (fewer than ${ON_TOPIC.least} with a word vector, keyword phrases out) to judge by meaning.`);
  }
  const z = (entry: Judged) => closeness(reference, entry.nearest);
  const whole = z(joined("the article", all));
  const off = judged.map((entry) => ({ entry, z: z(entry) })).filter((scored) => scored.z < ON_TOPIC.z);
  const total = sum(judged.map((entry) => entry.known));
  const share = 100 - percent(sum(off.map((scored) => scored.entry.known)), total);
  const named = off.length ? `; not about it: ${off.map((scored) => `${scored.entry.part.name} (${round(scored.z, 1)})`).join(", ")}` : "";
  return verdict(
    whole >= ON_TOPIC.whole && share >= ON_TOPIC.share,
    `Measured by meaning (English word vectors, word by word, keyword phrases taken out): the article's own words come ${round(whole, 1)} ` +
      `standard deviations closer in meaning to the subject's words than to those of ${plural(TOPICS, "unrelated subject")} ` +
      `(target at least ${ON_TOPIC.whole}); ${judged.length - off.length} of ${plural(judged.length, "part")} come at least ${ON_TOPIC.z} closer, ` +
      `holding ${round(share, 1)}% of the measured words (target at least ${ON_TOPIC.share}%)${named}.`,
  );
}

/**
 * Lexically, where meaning cannot be measured: the check fails only when no word of the subject
 * occurs outside keyword phrases anywhere in the article, and names no part, since a part's
 * vocabulary proves nothing without meaning.
 */
function lexical(parts: readonly Part[], subject: readonly Word[], why: string): Verdict {
  const terms = new Set(subject.map((word) => word.term));
  const found = new Set(parts.flatMap((part) => part.words.filter((word) => terms.has(word.term)).map((word) => word.term)));
  const how = `Measured lexically (${why}, so no part is judged by its vocabulary)`;
  return found.size > 0
    ? verdict(true, `${how}: ${plural(found.size, "word")} of the subject occur outside keyword phrases.`)
    : verdict(false, `${how}: no word of the subject occurs outside keyword phrases.`);
}

/** The on-topic check by id. */
export const onTopicCheck = { "on-topic": onTopic } as const;
