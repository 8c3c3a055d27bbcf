/**
 * The one door into the article engine: every module outside src/article/ imports the engine
 * from here (test/unit/structure.test.ts holds it to that), and the request and answer contract
 * from src/contract/. Each export is here because a feature outside needs it, and says which.
 */

/** The requests the engine answers: write an article, measure one as it is, refresh one, draft an outline. */
export { writeArticle, type WrittenArticle } from "./article.js";
/** Where writing and drafting start: a request whose bans contradict it is refused once, as the key's style leaves it. */
export { acceptRequest, conflictingFields, type AcceptedRequest } from "./accept.js";
export { analyseExisting } from "./answer.js";
export { refreshArticle, type RefreshedArticle, type RefreshOptions } from "./refresh.js";
/** The outline a user edits before the article is written (`POST /api/v1/outline`, `inkpress outline`, a site plan's rows), and what it is charged. */
export { draftOutline, outlineCharge } from "./draft.js";
/** A refresh's readings and render of its article, which the server does on its text pool's workers. */
export { textsHere, type RefreshTexts } from "./mend/reading.js";
/** The on-topic check's word vectors: the server loads them (building the cache the first time) before it listens. */
export { wordVectors } from "./text/vectors.js";

/** A Markdown file read and rendered as the engine reads and renders its own (publishing a file). */
export { readMarkdown } from "./existing/markdown.js";
export { renderArticle } from "./output/render.js";

/** Counting and naming as the engine counts and names: slugs, words, terms (batch, planning, audit, publish). */
export { articleSlug, slugify } from "./text/slug.js";
export { capitalise, countWords, wordSpans } from "./text/text.js";
export { contentTerms } from "./text/terms.js";
/** Markdown parsed as the engine parses it (batch reads a row's links and sources with it). */
export { parseMarkdown } from "./text/markdown.js";
/** Links to place, as batch and its CLI gather them, matched as the grounding matches them. */
export { LinkSet, sameAddress } from "./grounding/links.js";
/** A page's descriptive anchor phrases and word stems, as grounding finds them (`inkpress links` places them on existing prose). */
export { anchorPhrases } from "./grounding/links.js";
export { stem } from "./text/stem.js";
export { TermIndex } from "./text/terms.js";
/** The length promise, so a key's daily words are reserved as the engine will write them. */
export { mostWords } from "./plan/limits.js";
/** A house voice learnt from example articles (`POST /api/v1/voice`, `inkpress voice`), measured as analyse measures an article. */
export { learnVoice } from "./answer.js";
