/**
 * What an editor sees in the answers `DIGESTS_ANSWERS=DIR npx tsx scripts/digests.ts` kept:
 * `npx tsx scripts/editor-measure.ts DIR` counts titles and headings ending on a function word,
 * articles with three headings or more opening alike, and slugs holding a stop word or a lone
 * letter, as the report's heading-endings and heading-openings checks judge them, and the
 * sentences holding a keyword that break a slot rule (text/slot-words.ts: a keyword after a word
 * that is no determiner or preposition, a question keyword mid-sentence). The 5,000-word articles
 * `scripts/editor-long.ts` writes are read the same way.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { danglingEnd, openingOf } from "../src/article/text/function-words.js";
import { slotBreak } from "../src/article/text/slot-words.js";
import { slugify } from "../src/article/text/slug.js";
import { stopWords } from "../src/article/text/terms.js";
import { hasPhrase, splitSentences } from "../src/article/text/text.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: npx tsx scripts/editor-measure.ts DIR");

let lines = 0;
const dangling: string[] = [];
const alike: string[] = [];
const slugs: string[] = [];
const slots: string[] = [];
let keywordSentences = 0;
for (const file of (await readdir(dir)).filter((name) => name.endsWith(".json")).sort()) {
  const { article, request } = JSON.parse(await readFile(path.join(dir, file), "utf8")) as {
    article: { title: string; slug: string; markdown: string; language: string };
    request: { seo: { keywords: string[] } };
  };
  const { title, slug, markdown, language } = article;
  const headings = [...markdown.matchAll(/^#{2,6} (.+)$/gmu)].map((match) => match[1]!.trim());
  for (const text of [title, ...headings]) {
    lines++;
    const word = danglingEnd(text, language);
    if (word) dangling.push(`${file}: “${text}” (${word})`);
  }
  const openings = new Map<string, number>();
  for (const text of headings.filter((heading) => !heading.endsWith("?"))) {
    const key = openingOf(text, language);
    openings.set(key, (openings.get(key) ?? 0) + 1);
  }
  const most = Math.max(0, ...openings.values());
  if (most >= 3) alike.push(`${file}: ${most} headings open with “${[...openings].find(([, n]) => n === most)![0]}”`);
  // The keyword's own slug stands whole at the slug's start ("plants-de-tomates"): only the words after it are judged.
  const own = new Set(request.seo.keywords[0] ? slugify(request.seo.keywords[0]).split("-") : []);
  const bad = slug
    .split("-")
    .filter((part) => !own.has(part) && (stopWords(language).has(part) || (part.length === 1 && !/\d/u.test(part))));
  if (bad.length) slugs.push(`${file}: ${slug} (${bad.join(", ")})`);
  const prose = markdown.split("\n").filter((line) => line.trim() && !/^(#|\||```)/u.test(line));
  for (const sentence of prose.flatMap((line) => splitSentences(line.replace(/^\s*(?:[-*]|\d+\.)\s+/u, ""), language)))
    for (const keyword of request.seo.keywords) {
      if (!hasPhrase(sentence, keyword, language)) continue;
      keywordSentences++;
      const broken = slotBreak(sentence, keyword, language);
      if (broken) slots.push(`${file}: “${sentence}” (${keyword}: ${broken})`);
    }
}
console.log(`titles and headings: ${lines}; ending on a function word: ${dangling.length}`);
for (const line of dangling) console.log(`  ${line}`);
console.log(`articles with 3 headings or more opening alike: ${alike.length}`);
for (const line of alike) console.log(`  ${line}`);
console.log(`slugs with a stop word or a lone letter: ${slugs.length}`);
for (const line of slugs) console.log(`  ${line}`);
console.log(`keyword sentences: ${keywordSentences}; breaking a slot rule: ${slots.length}`);
for (const line of slots) console.log(`  ${line}`);
