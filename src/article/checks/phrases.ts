/**
 * Phrase checks: the built-in AI clichés and the request's banned phrases (`style.avoid`),
 * looked for everywhere a reader sees text: the title, the meta description, every heading
 * and the body. A phrase matches as the writer refuses it: case-insensitively, on word
 * boundaries, with either apostrophe.
 */
import { clichesFor } from "../cliches.js";
import { countPhrase } from "../text.js";
import type { CheckId } from "./registry.js";
import { type Article, type Measure, listFound, na, plural, sum, verdict } from "./article.js";

/** A phrase found, with how often. */
export interface Found {
  phrase: string;
  count: number;
}

/** The phrase checks by id. */
export const phraseChecks = {
  // Counted also when the request allows clichés (`style.cliches: false`), but then not scored.
  cliches: (a) => {
    const found = findPhrases(a, clichesFor(a.input.language));
    const total = sum(found.map((f) => f.count));
    const summary = found.length ? `Found ${plural(total, "AI cliché")}: ${listFound(found)}.` : "Found no AI cliché.";
    if (a.input.style?.cliches === false) return na(`${summary} The request allows clichés (style.cliches is false), so this check does not apply.`);
    return verdict(found.length === 0, `${summary}${found.length ? " Target: none." : ""}`);
  },

  avoid: (a) => {
    const banned = a.input.style?.avoid ?? [];
    if (banned.length === 0) return na("The request bans no phrases (style.avoid is empty).");
    const found = findPhrases(a, banned);
    const total = sum(found.map((f) => f.count));
    return verdict(
      found.length === 0,
      found.length
        ? `Found ${plural(total, "banned phrase")}: ${listFound(found)} (target none of the ${banned.length} in style.avoid).`
        : `None of the ${plural(banned.length, "phrase")} in style.avoid appears.`,
    );
  },
} satisfies Partial<Record<CheckId, Measure>>;

/** Apostrophes compared in one form, so "it’s" matches "it's". */
const straight = (text: string) => text.replace(/[\u2019\u02bc]/gu, "'");

/** The phrases that appear in the article's title, meta description, headings or body, with their counts. */
function findPhrases(a: Article, phrases: readonly string[]): Found[] {
  const { language } = a.input;
  const texts = [a.input.title, a.input.metaDescription, ...a.body.map((b) => b.text)].map((text) => {
    const plain = straight(text);
    return { plain, lower: plain.toLocaleLowerCase(language) };
  });
  return phrases
    .map((phrase) => {
      const wanted = straight(phrase);
      // A text without the phrase's longest word cannot hold it: skip segmenting it (a hundred phrases a text).
      const longest = wanted.split(/\s+/u).reduce((a, b) => (b.length > a.length ? b : a), "").toLocaleLowerCase(language);
      const holding = texts.filter((t) => t.lower.includes(longest));
      return { phrase, count: sum(holding.map((t) => countPhrase(t.plain, wanted, language))) };
    })
    .filter((f) => f.count > 0);
}
