/**
 * Phrase checks: the built-in AI clichés and the request's banned phrases (`style.avoid`),
 * looked for everywhere a reader sees text: the title, the meta description, every heading
 * and the body. A phrase matches as the writer refuses it (plan/avoid.ts): as written,
 * case-insensitively, with any apostrophe, its last word also with letters glued on.
 */
import { countBanned } from "../../plan/avoid.js";
import { clichesFor } from "../../plan/cliches.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Article, type Measure, listFound, na, plural, sum, verdict } from "./article.js";

/** A phrase found, with how often. */
export interface Found {
  phrase: string;
  count: number;
}

/** The phrase checks by id. */
export const phraseChecks = {
  // Counted also when the request allows clichés (`style.cliches: false`), but then not scored.
  cliches: (article) => {
    const found = findPhrases(article, clichesFor(article.input.language));
    const total = sum(found.map((hit) => hit.count));
    const summary = found.length ? `Found ${plural(total, "AI cliché")}: ${listFound(found)}.` : "Found no AI cliché.";
    if (article.input.style?.cliches === false)
      return na(`${summary} The request allows clichés (style.cliches is false), so this check does not apply.`);
    return verdict(found.length === 0, `${summary}${found.length ? " Target: none." : ""}`);
  },

  avoid: (article) => {
    const banned = article.input.style?.avoid ?? [];
    if (banned.length === 0) return na("The request bans no phrases (style.avoid is empty).");
    const found = findPhrases(article, banned);
    const total = sum(found.map((hit) => hit.count));
    return verdict(
      found.length === 0,
      found.length
        ? `Found ${plural(total, "banned phrase")}: ${listFound(found)} (target none of the ${banned.length} in style.avoid).`
        : `None of the ${plural(banned.length, "phrase")} in style.avoid appears.`,
    );
  },
} satisfies Partial<Record<CheckId, Measure>>;

/** The phrases that appear in the article's title, meta description, headings or body, with their counts, in the list's order. */
function findPhrases(article: Article, phrases: readonly string[]): Found[] {
  const texts = [article.input.title, article.input.metaDescription, ...article.body.map((block) => block.text)];
  const counts = countBanned(texts, phrases);
  return phrases.flatMap((phrase) => (counts.has(phrase) ? [{ phrase, count: counts.get(phrase)! }] : []));
}
