import { readFileSync } from "node:fs";
import { expect } from "vitest";

/**
 * Checks of banned phrases made apart from the engine's own matcher: a phrase after a
 * non-word character, case-insensitively, any run of spaces between its words, and nothing
 * asked of what follows it (a last word with letters glued on, "Lilych", is the phrase).
 */
export function bannedIn(text: string, phrases: readonly string[]): Array<{ phrase: string; found: string }> {
  const hits: Array<{ phrase: string; found: string }> = [];
  for (const phrase of phrases) {
    const words = phrase
      .trim()
      .split(/\s+/u)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(/['\u2019]/gu, "['\u2019]"));
    const opensOnWord = /^[\p{L}\p{N}]/u.test(phrase);
    const pattern = new RegExp(`${opensOnWord ? "(?<![\\p{L}\\p{N}\\p{M}])" : ""}${words.join("\\s+")}[\\p{L}\\p{N}\\p{M}]*`, "giu");
    for (const match of text.matchAll(pattern)) hits.push({ phrase, found: match[0] });
  }
  return hits;
}

/** Every text a reader sees in an answer: title, description and the Markdown body. */
export const readerText = (body: any): string => [body.article.title, body.article.metaDescription, body.article.markdown].join("\n");

/** The title, the description and every heading of an answer hold words. */
export function expectNoEmptyText(body: any): void {
  const word = /[\p{L}\p{N}]/u;
  expect(body.article.title, "title").toMatch(word);
  expect(body.article.metaDescription, "description").toMatch(word);
  const headings = [...(body.article.markdown as string).matchAll(/^#+\s*(.*)$/gmu)].map((m) => m[1]!);
  for (const heading of headings) expect(heading, "heading").toMatch(word);
  expect(body.article.slug).not.toBe("");
}

/** Debian's `wamerican` word list, lower-cased (apostrophes straight). */
let dictionary: Set<string> | undefined;

/** The words of a body (headings left out) that are not English words by Debian's `wamerican` list, and how many words there are. */
export function nonWords(markdown: string): { words: number; odd: string[] } {
  dictionary ??= new Set(
    readFileSync("/usr/share/dict/american-english", "utf8")
      .split("\n")
      .map((w) => w.toLowerCase()),
  );
  const prose = markdown.replace(/^#.*$/gmu, "");
  const words = [...new Intl.Segmenter("en", { granularity: "word" }).segment(prose)]
    .filter((s) => s.isWordLike && !/^\d+$/u.test(s.segment))
    .map((s) => s.segment.replace(/\u2019/gu, "'"));
  return { words: words.length, odd: words.filter((w) => !dictionary!.has(w.toLowerCase())) };
}
