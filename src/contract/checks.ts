/**
 * Every check of the SEO report: its stable id, its label in words and its score weight,
 * in report order. The weights follow the emphasis of the two plugins users compare us
 * with: Yoast SEO's assessments (keyphrase and length ones decide the traffic light,
 * readability ones refine it) and Rank Math's 100-point test list ("Basic SEO" tests such
 * as keyword in title, meta, URL and content length weigh more than "Additional" and
 * "Readability" tests). 3 = core on-page signal or a fault a reader cannot miss, 2 = strong
 * signal, 1 = readability polish. Substance (on topic, no loops) comes first: a reader judges it
 * before any form. The voice checks (`voice-…`) come last, each weighing 1: they measure a house's
 * form, never its substance, so none caps the score.
 */
const CHECKS = {
  "on-topic": { weight: 3, label: "About its topic" },
  "no-loops": { weight: 3, label: "No loops" },
  language: { weight: 3, label: "Written in the requested language" },
  "keyword-in-title": { weight: 3, label: "Keyword in the title" },
  "keyword-in-introduction": { weight: 2, label: "Keyword in the introduction" },
  "keyword-in-subheadings": { weight: 1, label: "Keyword in subheadings" },
  "keyword-in-meta-description": { weight: 2, label: "Keyword in the meta description" },
  "keyword-in-slug": { weight: 2, label: "Keyword in the slug" },
  "keyword-density": { weight: 2, label: "Keyword density" },
  "secondary-keywords": { weight: 1, label: "Secondary keywords used" },
  "keyword-once-per-sentence": { weight: 1, label: "Keyword at most once a sentence" },
  "keyword-openings": { weight: 2, label: "Few sentences open with a keyword" },
  "meta-description-length": { weight: 2, label: "Meta description length" },
  "title-length": { weight: 2, label: "Title length" },
  "text-length": { weight: 3, label: "Text length" },
  "length-target": { weight: 2, label: "Length as asked" },
  "single-h1": { weight: 2, label: "One H1 heading" },
  "no-headings": { weight: 2, label: "No headings" },
  "heading-hierarchy": { weight: 1, label: "Heading levels in order" },
  "distinct-headings": { weight: 1, label: "Distinct headings" },
  "subheading-distribution": { weight: 1, label: "Subheadings spread evenly" },
  "promised-count": { weight: 2, label: "As many items as the title promises" },
  "heading-endings": { weight: 2, label: "Titles and headings end on a whole phrase" },
  "heading-openings": { weight: 1, label: "Varied heading openings" },
  outline: { weight: 2, label: "Written to the outline" },
  "paragraph-length": { weight: 1, label: "Paragraph length" },
  "sentence-length": { weight: 1, label: "Sentence length" },
  "consecutive-sentence-starts": { weight: 1, label: "Varied sentence openings" },
  "duplicate-sentences": { weight: 1, label: "No repeated sentences" },
  "transition-words": { weight: 1, label: "Transition words" },
  "passive-voice": { weight: 1, label: "Little passive voice" },
  cliches: { weight: 2, label: "No AI clichés" },
  avoid: { weight: 3, label: "No banned phrases" },
  "unsupported-figures": { weight: 2, label: "No figures without a source" },
  "sources-cited": { weight: 1, label: "Sources cited" },
  "internal-links": { weight: 1, label: "Internal links placed" },
  "voice-sentence-length": { weight: 1, label: "Sentence length of the house voice" },
  "voice-person": { weight: 1, label: "Person of the house voice" },
  "voice-contractions": { weight: 1, label: "Contractions as the house writes them" },
  "voice-spelling": { weight: 1, label: "Spelling of the house voice" },
  "voice-heading-case": { weight: 1, label: "Heading case of the house voice" },
  "voice-readability": { weight: 1, label: "Reading ease of the house voice" },
  "voice-lists": { weight: 1, label: "Lists as the house uses them" },
  "voice-questions": { weight: 1, label: "Questions as the house asks them" },
  "voice-exclamations": { weight: 1, label: "Exclamations as the house uses them" },
  "voice-numbers": { weight: 1, label: "Numbers as the house writes them" },
  "voice-vocabulary": { weight: 1, label: "Words the house never uses left out" },
} as const satisfies Record<string, { weight: number; label: string }>;

/** Id of a check; the report lists them in the order of {@link CHECKS}. */
export type CheckId = keyof typeof CHECKS;

/** Every check id, in report order. */
export const CHECK_IDS = Object.keys(CHECKS) as CheckId[];

/** Score weight of every check. */
export const CHECK_WEIGHTS = Object.fromEntries(CHECK_IDS.map((id) => [id, CHECKS[id].weight])) as Record<CheckId, number>;

/** How each check is named for people: words, not ids. */
export const CHECK_LABELS = Object.fromEntries(CHECK_IDS.map((id) => [id, CHECKS[id].label])) as Record<CheckId, string>;

/**
 * The highest score an article can have while one of these checks fails, whatever else
 * passes: an article off its topic or looping has no substance (below 50, never in the green
 * of 80 and over), text in the wrong language is not the article asked for (below 80), and a
 * phrase the request banned is a promise broken (below 90). Any other failure keeps it below 100.
 */
export const SCORE_CAPS: Partial<Record<CheckId, number>> = { "on-topic": 49, "no-loops": 49, language: 79, avoid: 89 };
