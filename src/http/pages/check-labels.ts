import type { CheckId } from "../../article/analyse.js";

/**
 * How the playground names each SEO check: words a person reads, not ids. Typed by the
 * checks themselves, so a new check cannot ship without a name (the page still falls back
 * to its id in words for a server newer than the page).
 */
export const CHECK_LABELS: Record<CheckId, string> = {
  "keyword-in-title": "Keyword in the title",
  "keyword-in-introduction": "Keyword in the introduction",
  "keyword-in-subheadings": "Keyword in subheadings",
  "keyword-in-meta-description": "Keyword in the meta description",
  "keyword-in-slug": "Keyword in the slug",
  "keyword-density": "Keyword density",
  "secondary-keywords": "Secondary keywords used",
  "keyword-once-per-sentence": "Keyword at most once a sentence",
  "meta-description-length": "Meta description length",
  "title-length": "Title length",
  "text-length": "Text length",
  "length-target": "Length as asked",
  "single-h1": "One H1 heading",
  "no-headings": "No headings",
  "heading-hierarchy": "Heading levels in order",
  "distinct-headings": "Distinct headings",
  "subheading-distribution": "Subheadings spread evenly",
  "paragraph-length": "Paragraph length",
  "sentence-length": "Sentence length",
  "consecutive-sentence-starts": "Varied sentence openings",
  "duplicate-sentences": "No repeated sentences",
};
