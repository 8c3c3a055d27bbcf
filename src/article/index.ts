/**
 * The one door into the article engine: every module outside src/article/ imports the engine
 * from here (test/unit/structure.test.ts holds it to that), and the request and answer contract
 * from src/article/wire/. Each export is here because a feature outside needs it, and says which.
 */

/** The three requests the engine answers: write an article, measure one as it is, refresh one. */
export { writeArticle, type WriteArticleOptions, type WrittenArticle } from "./article.js";
export { analyseExisting, type AnalyseExistingOptions, type ExistingAnalysis } from "./existing/analyse.js";
export { refreshArticle, type RefreshedArticle, type RefreshOptions } from "./mend/refresh.js";
/** The on-topic check's word vectors: the server loads them (building the cache the first time) before it listens. */
export { wordVectors } from "./text/vectors.js";

/** The report's checks by name: the audit's table, the playground's labels. */
export { CHECK_LABELS, type CheckId } from "./report/analyse.js";
/** Who publishes an article, for its structured data: a key's own or the server's. */
export type { Publisher } from "./output/jsonld.js";
/** A Markdown file read and rendered as the engine reads and renders its own (publishing a file). */
export { readMarkdown } from "./existing/markdown.js";
export { renderArticle } from "./output/render.js";

/** Counting and naming as the engine counts and names: slugs, words, terms (batch, planning, audit, publish). */
export { articleSlug, slugify } from "./text/slug.js";
export { capitalise, countWords, type WordSpan, wordSpans } from "./text/text.js";
export { contentTerms } from "./text/terms.js";
/** Markdown parsed as the engine parses it (batch reads a row's links and sources with it). */
export { parseMarkdown } from "./text/markdown.js";
/** Links to place, as batch and its CLI gather them, matched as the grounding matches them. */
export { LINKING, LinkSet, sameAddress } from "./grounding/links.js";
/** A page's descriptive anchor phrases and word stems, as grounding finds them (`inkpress links` places them on existing prose). */
export { anchorPhrases } from "./grounding/links.js";
export { stem } from "./text/stem.js";
export { TermIndex } from "./text/terms.js";
/** The length promise, so a key's daily words are reserved as the engine will write them. */
export { mostWords, SECTION_MIN_WORDS } from "./plan/limits.js";
/** The presets and languages the CLI's help and the playground offer. */
export { PRESETS } from "./plan/presets.js";
export { LABELLED_LANGUAGES, languageName } from "./plan/labels.js";

/** The outline a user edits (src/planning) is drafted by the engine's own plan, prompt and outline stage. */
export { plan, planAvoidList, type Plan } from "./plan/plan.js";
export { AvoidList } from "./plan/avoid.js";
export { articlePrompt } from "./plan/prompts.js";
export { headingText, writeOutline, type Outline } from "./outline/outline.js";
export { outlineFormat } from "./outline/opening.js";
export { Grounding } from "./grounding/grounding.js";
export { TokenLedger } from "./ledger.js";
