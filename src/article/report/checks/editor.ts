/** What an editor sees at a glance: the count a title promises, headings that dangle or open alike. */
import { promisedCount } from "../../text/counts.js";
import { danglingEnd, openingOf } from "../../text/function-words.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Article, type Measure, type Verdict, na, numbered, plural, verdict, withHeadings } from "./article.js";

/** The editor's checks by id. */
export const editorChecks = {
  "promised-count": withHeadings(promisedCountCheck),

  "heading-endings": (article) => {
    const { title, language } = article.input;
    const texts = [title, ...article.headings.map((heading) => heading.text)].filter(Boolean);
    const dangling = texts.flatMap((text) => {
      const word = danglingEnd(text, language);
      return word === undefined ? [] : [{ text, word }];
    });
    const first = dangling[0];
    return verdict(
      first === undefined,
      first === undefined
        ? `The title and every heading end on a word that can end a phrase (${plural(texts.length, "line")} checked).`
        : `Found ${plural(dangling.length, "title or heading", "titles or headings")} ending on a function word (first: “${first.text}”, ending on ` +
            `“${first.word}”).`,
    );
  },

  "heading-openings": withHeadings(headingOpenings),
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
    `“${where}” promises ${count}; the article has no numbered items and ${plural(sections, "H2 section")} (target ${count}, or up to 2 more for an ` +
      `introduction and a conclusion).`,
  );
}

/** Headings opening alike three times or more: numbering skipped, first words compared by stem; questions (an FAQ's) left out. */
function headingOpenings(article: Article): Verdict {
  const { language } = article.input;
  const headings = article.headings.filter((heading) => !heading.text.trimEnd().endsWith("?"));
  if (headings.length < 3) return na("There are fewer than 3 subheadings (questions aside) to compare.");
  const byOpening = new Map<string, string[]>();
  for (const heading of headings) {
    const key = openingOf(heading.text, language);
    if (key) byOpening.set(key, [...(byOpening.get(key) ?? []), heading.text]);
  }
  const alike = [...byOpening.values()].filter((texts) => texts.length >= 3).sort((a, b) => b.length - a.length);
  const most = alike[0];
  return verdict(
    most === undefined,
    most === undefined
      ? `No three subheadings open alike (${plural(headings.length, "subheading")} checked).`
      : `${most.length} of ${plural(headings.length, "subheading")} open alike (${most
          .slice(0, 3)
          .map((text) => `“${text}”`)
          .join(", ")}${most.length > 3 ? "…" : ""}; target at most 2).`,
  );
}
