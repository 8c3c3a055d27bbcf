import { distinctSentences } from "../../scripts/fixtures/fake-writer.js";
import type { RefreshRequestInput } from "../../src/refresh/schema.js";

/**
 * An article with the refresh's planted failures: no keyword in the introduction's first two
 * sentences, a 220-word paragraph, a 500-word run without a subheading, a banned phrase, an
 * 80-character title, and no links while three pages are given. Its sentences are ten words
 * each and distinct (the scripted model writes others), its description passes. The request
 * asks for the title and headings to be mended, so every mend is tried.
 */
export function plantedArticle(): { markdown: string; request: RefreshRequestInput } {
  const sentences = distinctSentences(5000);
  const take = (n: number) => Array.from({ length: n }, () => sentences.next().value as string);
  const title = "Compost bin basics: everything a beginner needs to know before starting out today";
  const intro = [...take(2), "A compost bin turns kitchen scraps into soil for the garden.", ...take(2)].join(" ");
  const long = take(22).join(" ");
  const banned = "The rotating drum is a real game-changer for busy cooks who compost.";
  // The section says what it is about in a sentence of its own, not only in the one a mend rewrites.
  const about = "Compost needs green scraps, brown leaves, air and water to break down.";
  const run = [0, 1, 2, 3, 4].map((i) => (i === 0 ? `${about} ` : "") + take(10).join(" ") + (i === 2 ? ` ${banned}` : "")).join("\n\n");
  const markdown = [
    "---",
    `title: "${title}"`,
    "description: A compost bin turns kitchen scraps and garden waste into rich soil; this guide shows how to start one, feed it and use what it makes.",
    "tags: [garden, compost]",
    "---",
    "",
    `# ${title}`,
    "",
    intro,
    "",
    "## Choosing a compost bin",
    "",
    long,
    "",
    "## Feeding the heap",
    "",
    run,
    "",
    "## Using finished compost",
    "",
    `${take(5).join(" ")} Finished compost from a compost bin feeds raised beds.`,
    "",
  ].join("\n");
  return {
    markdown,
    request: {
      markdown,
      seo: { keywords: "compost bin" },
      style: { avoid: ["game-changer"] },
      links: [
        { url: "/guides/heap-feeding/", title: "What to put on a compost heap", keywords: ["compost heap"] },
        { url: "/guides/finished-compost/", title: "How to tell finished compost is ready", keywords: ["finished compost"] },
        { url: "https://example.com/guides/bin-sizes/", title: "Choosing bin sizes for small gardens", keywords: ["bin sizes"] },
      ],
      mend: ["title", "headings"],
      seed: 7,
    },
  };
}

/** The checks the planted failures fail. */
export const PLANTED_CHECKS = [
  "keyword-in-introduction",
  "paragraph-length",
  "subheading-distribution",
  "avoid",
  "title-length",
  "internal-links",
] as const;
