/** Keyword checks: where the keywords stand, how often, and how sentences carry them. */
import { KEYWORD_DENSITY, KEYWORD_OPENINGS } from "../../plan/limits.js";
import { slugify } from "../../text/slug.js";
import { countPhrase, opensWith } from "../../text/text.js";
import { countForms, formsNote } from "../../text/forms.js";
import type { CheckId } from "../../../contract/checks.js";
import {
  type Article,
  type Measure,
  type Verdict,
  na,
  occurrences,
  percent,
  plural,
  quote,
  round,
  verdict,
  withHeadings,
  withKeyword,
} from "./article.js";

/** The keyword checks by id. */
export const keywordChecks = {
  "keyword-in-title": withKeyword((article, keyword) => presence(keyword, article.input.title, "the title", article.input.language)),

  "keyword-in-introduction": withKeyword((article, keyword) => {
    if (article.introduction.length === 0) return verdict(false, "The article has no introduction before its first subheading.");
    const opening = article.introduction
      .flatMap((paragraph) => paragraph.sentences)
      .slice(0, 2)
      .join(" ");
    return presence(keyword, opening, "the first two sentences of the introduction", article.input.language);
  }),

  // Yoast: the keyphrase belongs in 30–75% of subheadings; a lone subheading should hold it.
  "keyword-in-subheadings": withHeadings(
    withKeyword((article, keyword) => {
      const subheadings = article.headings.filter((heading) => heading.depth === 2 || heading.depth === 3);
      if (subheadings.length === 0) return na("There are no H2 or H3 subheadings to hold the keyword.");
      const holding = subheadings.filter((heading) => countForms(heading.text, keyword, article.input.language) > 0).length;
      const share = percent(holding, subheadings.length);
      const oneOfOne = subheadings.length === 1 && holding === 1;
      return verdict(
        oneOfOne || (share >= 30 && share <= 75),
        `The primary keyword “${keyword}” is in ${holding} of ${plural(subheadings.length, "subheading")} (${round(share, 1)}%; target 30–75%).`,
      );
    }),
  ),

  "keyword-in-meta-description": withKeyword((article, keyword) =>
    presence(keyword, article.input.metaDescription, "the meta description", article.input.language),
  ),

  "keyword-in-slug": withKeyword((article, keyword) => {
    const wanted = slugify(keyword);
    const found = `-${article.input.slug}-`.includes(`-${wanted}-`);
    return verdict(found, `The slug “${article.input.slug}” ${found ? "contains" : "does not contain"} the keyword slug “${wanted}”.`);
  }),

  "keyword-density": withKeyword((article, keyword) => {
    const density = article.keywordDensity[keyword] ?? 0;
    const count = occurrences(article.body, keyword, article.input.language);
    return verdict(
      density >= KEYWORD_DENSITY.min && density <= KEYWORD_DENSITY.max,
      `Keyword density is ${density}% (“${keyword}” ${plural(count, "time")} in ${plural(article.wordCount, "word")}, ${formsNote(article.input.language)}; ` +
        `target ${KEYWORD_DENSITY.min}–${KEYWORD_DENSITY.max}%).`,
    );
  }),

  "secondary-keywords": withKeyword((article) => {
    const secondary = article.input.keywords.slice(1);
    if (secondary.length === 0) return na("There are no secondary keywords to look for.");
    const missing = secondary.filter((keyword) => occurrences(article.body, keyword, article.input.language) === 0);
    const list = missing.map((keyword) => `“${keyword}”`).join(", ");
    return verdict(
      missing.length === 0,
      `Secondary keywords found in the body: ${secondary.length - missing.length} of ${secondary.length}${list && `; missing: ${list}`}.`,
    );
  }),

  "keyword-once-per-sentence": withKeyword((article) => {
    const { keywords, language } = article.input;
    const stuffed = article.sentences.filter((sentence) => keywords.some((keyword) => countForms(sentence, keyword, language) > 1));
    return verdict(
      stuffed.length === 0,
      stuffed[0] === undefined
        ? `No sentence holds the same keyword twice (${plural(article.sentences.length, "sentence")} checked).`
        : `Found ${plural(stuffed.length, "sentence")} holding the same keyword twice (first: ${quote(stuffed[0], language)}).`,
    );
  }),

  "keyword-openings": withKeyword(keywordOpenings),
} satisfies Partial<Record<CheckId, Measure>>;

/**
 * Keyword-first sentences read as stuffing. Apart from the introduction's first sentence
 * (which may open with the primary keyword), at most 40% of the sentences that hold a
 * keyword may open with one, and at most a third of the sections (a heading and the prose
 * under it) may open with one ({@link KEYWORD_OPENINGS}, which the sentence gate steers below).
 */
function keywordOpenings(article: Article): Verdict {
  const { keywords, language } = article.input;
  const opens = (sentence: string) => keywords.some((keyword) => opensWith(sentence, keyword, language));
  // The introduction's first sentence is the article's first sentence when there is an introduction.
  const counted = article.introduction.length > 0 ? article.sentences.slice(1) : article.sentences;
  const bearing = counted.filter((sentence) => keywords.some((keyword) => countForms(sentence, keyword, language) > 0));
  const opening = bearing.filter(opens);
  const sentenceShare = percent(opening.length, bearing.length);
  const sections = article.sections.filter((section) => section.prose.length > 0);
  const openingSections = sections.filter((section) => opens(section.prose[0]!.sentences[0] ?? "")).length;
  const sectionsOk = openingSections * KEYWORD_OPENINGS.sectionsPer <= sections.length;
  const sectionPart = sections.length
    ? `${openingSections} of ${plural(sections.length, "section")} open${openingSections === 1 ? "s" : ""} with one (target at most a third)`
    : "there are no sections to open";
  return verdict(
    sentenceShare <= KEYWORD_OPENINGS.sentences && sectionsOk,
    `${opening.length} of ${plural(bearing.length, "sentence")} holding a keyword open with one (${round(sentenceShare, 1)}%; target at most ` +
      `${KEYWORD_OPENINGS.sentences}%), ` +
      `and ${sectionPart}; the introduction's first sentence is not counted` +
      `${opening[0] === undefined ? "" : ` (first: ${quote(opening[0], language)})`}.`,
  );
}

/** Whether a place holds the keyword as editors match it; the message adds the exact count (the stronger verdict) where it differs. */
function presence(keyword: string, text: string, where: string, language: string): Verdict {
  const count = countForms(text, keyword, language);
  const exact = countPhrase(text, keyword, language);
  const exactly = exact === count ? "" : `; ${exact} exact`;
  return verdict(
    count > 0,
    `The primary keyword “${keyword}” appears ${plural(count, "time")} in ${where} (${formsNote(language)}${exactly}).`,
  );
}
