/**
 * The `unsupported-figures` check: a figure (a number, percentage, year or amount written
 * in digits) that neither a source nor the request gives is a fact no one supplied, so it
 * is listed. Structure the engine adds is not a figure: the numbering of listicle items and
 * how-to steps ("## 3. Turn the pile") and citation markers ("[2]"); nor is a measurement in
 * instructions ("230 °C", "20 minutes", "500 g": claimsIn), which no source needs to give.
 */
import type { CheckId } from "../../../contract/checks.js";
import { claimsIn, figureKey, figuresIn } from "../../text/figures.js";
import { type Article, type Measure, NUMBERING, numbered, plural, verdict } from "./article.js";

/** Every string in a value, however deeply nested (a request's fields, its sources). */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The figure check by id. */
export const figureChecks = {
  "unsupported-figures": (article) => {
    const given = [...(article.input.given ?? []), ...(article.input.sources ?? []).flatMap(stringsIn)].flatMap(figuresIn);
    // The number of numbered items is the article's own structure ("7 tips" over seven items).
    const supported = new Set([...given, String(numbered(article).length)].map(figureKey));
    const figures = articleFigures(article);
    const unsupported = distinct(figures.filter((figure) => !supported.has(figureKey(figure))));
    const sources = Boolean(article.input.sources?.length);
    if (unsupported.length) {
      const list = unsupported.map((figure) => `“${figure}”`).join(", ");
      return verdict(
        false,
        sources
          ? `Found ${plural(unsupported.length, "figure")} in neither the sources nor the request: ${list}.`
          : `Found ${plural(unsupported.length, "figure")} that the request does not give (there are no sources): ${list}.`,
      );
    }
    if (figures.length === 0) return verdict(true, "The article states no figures.");
    return verdict(true, `Every figure (${figures.length}) appears in ${sources ? "the sources or the request" : "the request"}.`);
  },
} satisfies Partial<Record<CheckId, Measure>>;

/** Figures that differ as numbers, each as first written. */
function distinct(figures: readonly string[]): string[] {
  const seen = new Set<string>();
  return figures.filter((figure) => !seen.has(figureKey(figure)) && seen.add(figureKey(figure)));
}

/** The figures a reader sees stated as facts (measurements are not): title, meta description, headings (numbering removed) and body. */
function articleFigures(article: Article): string[] {
  const texts = [
    article.input.title,
    article.input.metaDescription,
    ...article.body.map((block) => (block.kind === "heading" ? block.text.replace(NUMBERING, "") : block.text)),
  ];
  return texts.flatMap(claimsIn);
}
