/** What an editor sees at a glance: the count a title promises. */
import { promisedCount } from "../../text/counts.js";
import type { CheckId } from "./registry.js";
import { type Article, type Measure, type Verdict, na, numbered, plural, verdict, withHeadings } from "./article.js";

/** The editor's checks by id. */
export const editorChecks = {
  "promised-count": withHeadings(promisedCountCheck),
} satisfies Partial<Record<CheckId, Measure>>;

/**
 * A title (else the topic) that names a count ("Ten tips", "7 ways", "Top 5") holds that many
 * items: numbered headings when it has any, exactly; otherwise its H2 sections, an introduction
 * and a conclusion heading besides them allowed.
 */
function promisedCountCheck(article: Article): Verdict {
  const { title, about = [], language } = article.input;
  const [where, count] =
    [title, ...about].map((text) => [text, promisedCount(text, language)] as const).find(([, n]) => n !== undefined) ?? [];
  if (where === undefined || count === undefined) return na("Neither the title nor the topic names a count of items.");
  const items = numbered(article);
  if (items.length > 0)
    return verdict(items.length === count, `“${where}” promises ${count}; the article has ${plural(items.length, "numbered item")}.`);
  const sections = article.headings.filter((heading) => heading.depth === 2).length;
  return verdict(
    sections >= count && sections <= count + 2,
    `“${where}” promises ${count}; the article has no numbered items and ${plural(sections, "H2 section")} (target ${count}, or up to 2 more for an introduction and a conclusion).`,
  );
}
