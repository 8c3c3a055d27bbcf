/** Keyword checks: where the keywords stand, how often, and how sentences carry them. */
import { slugify } from "../slug.js";
import { countPhrase, firstWords, wordSpans } from "../text.js";
import type { CheckId } from "./registry.js";
import { type Article, type Measure, type Verdict, na, occurrences, percent, plural, quote, round, verdict, withHeadings, withKeyword } from "./article.js";

/** The keyword checks by id. */
export const keywordChecks = {
  "keyword-in-title": withKeyword((a, k) => presence(k, a.input.title, "the title", a.input.language)),

  "keyword-in-introduction": withKeyword((a, k) => {
    if (a.introduction.length === 0) return verdict(false, "The article has no introduction before its first subheading.");
    const opening = a.introduction.flatMap((p) => p.sentences).slice(0, 2).join(" ");
    return presence(k, opening, "the first two sentences of the introduction", a.input.language);
  }),

  // Yoast: the keyphrase belongs in 30–75% of subheadings; a lone subheading should hold it.
  "keyword-in-subheadings": withHeadings(
    withKeyword((a, k) => {
      const subheadings = a.headings.filter((h) => h.depth === 2 || h.depth === 3);
      if (subheadings.length === 0) return na("There are no H2 or H3 subheadings to hold the keyword.");
      const holding = subheadings.filter((h) => countPhrase(h.text, k, a.input.language) > 0).length;
      const share = percent(holding, subheadings.length);
      const oneOfOne = subheadings.length === 1 && holding === 1;
      return verdict(
        oneOfOne || (share >= 30 && share <= 75),
        `The primary keyword “${k}” is in ${holding} of ${plural(subheadings.length, "subheading")} (${round(share, 1)}%; target 30–75%).`,
      );
    }),
  ),

  "keyword-in-meta-description": withKeyword((a, k) =>
    presence(k, a.input.metaDescription, "the meta description", a.input.language),
  ),

  "keyword-in-slug": withKeyword((a, k) => {
    const wanted = slugify(k);
    const found = `-${a.input.slug}-`.includes(`-${wanted}-`);
    return verdict(found, `The slug “${a.input.slug}” ${found ? "contains" : "does not contain"} the keyword slug “${wanted}”.`);
  }),

  "keyword-density": withKeyword((a, k) => {
    const density = a.keywordDensity[k] ?? 0;
    const count = occurrences(a.body, k, a.input.language);
    return verdict(
      density >= 0.5 && density <= 2.5,
      `Keyword density is ${density}% (“${k}” ${plural(count, "time")} in ${plural(a.wordCount, "word")}; target 0.5–2.5%).`,
    );
  }),

  "secondary-keywords": withKeyword((a) => {
    const secondary = a.input.keywords.slice(1);
    if (secondary.length === 0) return na("There are no secondary keywords to look for.");
    const missing = secondary.filter((k) => occurrences(a.body, k, a.input.language) === 0);
    const list = missing.map((k) => `“${k}”`).join(", ");
    return verdict(
      missing.length === 0,
      `Secondary keywords found in the body: ${secondary.length - missing.length} of ${secondary.length}${list && `; missing: ${list}`}.`,
    );
  }),

  "keyword-once-per-sentence": withKeyword((a) => {
    const { keywords, language } = a.input;
    const stuffed = a.sentences.filter((s) => keywords.some((k) => countPhrase(s, k, language) > 1));
    return verdict(
      stuffed.length === 0,
      stuffed[0] === undefined
        ? `No sentence holds the same keyword twice (${plural(a.sentences.length, "sentence")} checked).`
        : `Found ${plural(stuffed.length, "sentence")} holding the same keyword twice (first: ${quote(stuffed[0], language)}).`,
    );
  }),

  "keyword-openings": withKeyword(keywordOpenings),
} satisfies Partial<Record<CheckId, Measure>>;

/**
 * Keyword-first sentences read as stuffing. Apart from the introduction's first sentence
 * (which may open with the primary keyword), at most 40% of the sentences that hold a
 * keyword may open with one, and at most a third of the sections (a heading and the prose
 * under it) may open with one.
 */
function keywordOpenings(a: Article): Verdict {
  const { keywords, language } = a.input;
  const opens = (sentence: string) => keywords.some((k) => opensWith(sentence, k, language));
  // The introduction's first sentence is the article's first sentence when there is an introduction.
  const counted = a.introduction.length > 0 ? a.sentences.slice(1) : a.sentences;
  const bearing = counted.filter((s) => keywords.some((k) => countPhrase(s, k, language) > 0));
  const opening = bearing.filter(opens);
  const sentenceShare = percent(opening.length, bearing.length);
  const sections = a.sections.filter((s) => s.prose.length > 0);
  const openingSections = sections.filter((s) => opens(s.prose[0]!.sentences[0] ?? "")).length;
  const sectionsOk = openingSections * 3 <= sections.length;
  const sectionPart = sections.length
    ? `${openingSections} of ${plural(sections.length, "section")} open${openingSections === 1 ? "s" : ""} with one (target at most a third)`
    : "there are no sections to open";
  return verdict(
    sentenceShare <= 40 && sectionsOk,
    `${opening.length} of ${plural(bearing.length, "sentence")} holding a keyword open with one (${round(sentenceShare, 1)}%; target at most 40%), ` +
      `and ${sectionPart}; the introduction's first sentence is not counted` +
      `${opening[0] === undefined ? "" : ` (first: ${quote(opening[0], language)})`}.`,
  );
}

/** Whether a sentence's first words are the keyword (case-insensitive, as countPhrase matches). */
function opensWith(sentence: string, keyword: string, language: string): boolean {
  const words = wordSpans(keyword, language).length;
  return words > 0 && countPhrase(firstWords(sentence, words, language), keyword, language) > 0;
}

function presence(keyword: string, text: string, where: string, language: string): Verdict {
  const count = countPhrase(text, keyword, language);
  return verdict(count > 0, `The primary keyword “${keyword}” appears ${plural(count, "time")} in ${where}.`);
}
