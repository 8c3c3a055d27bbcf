/**
 * The checks a refresh leaves failing, each with why: the reason a mend noted, or what a
 * refresh does not mend at all. The answer never claims a pass the report does not have.
 */
import type { CheckId } from "../../contract/checks.js";
import type { RefreshState } from "./state.js";

/** Why a refresh leaves these checks as they are. */
const NOT_MENDED: Partial<Record<CheckId, string>> = {
  language: "a refresh keeps the article's language; it never translates",
  "keyword-in-slug": "the slug is the page's address, which a refresh does not change",
  "keyword-density": "a refresh rewrites only the sentences a check points at; it does not add or remove keyword uses across the article",
  "secondary-keywords": "a refresh does not add keyword uses across the article",
  "keyword-once-per-sentence": "a refresh does not rewrite sentences for keyword repetition",
  "keyword-openings": "a refresh does not rewrite sentence openings",
  "keyword-in-subheadings":
    'a refresh rewrites headings only where they hold a banned phrase, and only when the request\'s `mend` holds "headings"',
  "length-target": "a refresh adds text to a short article, never cuts a long one",
  "text-length": "a refresh extends an article only towards a requested `length`",
  "single-h1": "a refresh does not change the article's headings' levels",
  "no-headings": "a refresh does not remove headings",
  "heading-hierarchy": "a refresh does not change the article's headings' levels",
  "distinct-headings": "a refresh does not rewrite repeated headings",
  "promised-count": "a refresh does not add or remove items; change the title or the items",
  "heading-endings":
    'a refresh rewrites headings only where they hold a banned phrase, and only when the request\'s `mend` holds "headings"',
  "heading-openings": "a refresh does not rewrite heading openings",
  "sentence-length": "a refresh does not rewrite sentences for their length",
  "consecutive-sentence-starts": "a refresh does not rewrite sentence openings",
  "duplicate-sentences": "a refresh never removes a sentence",
  "transition-words": "a refresh does not rewrite sentences for transition words",
  "passive-voice": "a refresh does not rewrite sentences for their voice",
  "unsupported-figures": "a refresh does not rewrite figures; give the sources that hold them",
};

/** Every check that fails after the refresh, with why it was not mended. */
export function unmended(state: RefreshState, failedBefore: ReadonlySet<CheckId>): Array<{ check: CheckId; reason: string }> {
  return state.report.checks
    .filter((check) => check.passed === false)
    .map((check) => {
      const why = state.notes.get(check.id) ?? NOT_MENDED[check.id] ?? "no mend of the refresh applied to what it found";
      const reason = failedBefore.has(check.id)
        ? why
        : `it passed before; a change kept for another check (the score rose or held) made it fail`;
      return { check: check.id, reason: `${check.message} Not mended: ${reason}.` };
    });
}
