import { expect } from "vitest";

/** A page of a request's `links`. */
export type Page = { url: string; title: string; keywords: string[] };

/** The links of an answer's Markdown (citation markers are not links to pages). */
export const linksOf = (markdown: string) =>
  [...markdown.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)]
    .filter((m) => !/^\\?\[\d+\\?\]$/.test(m[1]!))
    .map((m) => ({ anchor: m[1]!, url: m[2]! }));

/** Every page the article does not link is named in the internal-links check, with why. */
export function expectLeftOutNamed(
  answer: { seo: { checks: Array<{ id: string; message: string }> } },
  pages: readonly Page[],
  linked: readonly string[],
): void {
  const message = answer.seo.checks.find((c) => c.id === "internal-links")?.message ?? "";
  for (const page of pages.filter((p) => !linked.includes(p.url)))
    expect(message, page.url).toMatch(new RegExp(`Not linked: [^.]*${page.url.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}[^.]*\\(`));
}
