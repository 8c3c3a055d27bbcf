/**
 * Link proposals between a site's existing pages. For each page, the other pages ranked by
 * relevance to its prose (the BM25 of grounding, over each target's title and keywords, word
 * forms through the stemmer), then, best first, a target whose anchor phrase (as grounding
 * offers one: its keywords, its title's phrases that keep the head noun, 2–6 words) the page's
 * prose already holds, in any word form: the anchor is those words as written. No self link,
 * no target the page already links, one link per target, at most `max` a page, anchors varied
 * across the pages that link one target.
 */
import { anchorPhrases, stem, TermIndex, wordSpans } from "../article/index.js";
import { linkedPages } from "../site/addresses.js";
import { placesCleanly, type Placement } from "./markup.js";
import type { SitePageFile } from "./site.js";

/** A word of a text and where it stands, as the engine reads words. */
type WordSpan = ReturnType<typeof wordSpans>[number];

/** One proposed link: a line of the review file. */
export interface Proposal {
  /** The linking page, relative to the folder. */
  file: string;
  line: number;
  /** The words of the page the link is placed on, as written. */
  anchor: string;
  /** The target's URL, as the link will hold it. */
  target: string;
  targetFile: string;
  /** How relevant the target is to the page (BM25). */
  score: number;
  reason: string;
}

/** How links are proposed. */
export interface ProposeOptions {
  /** Most new links a page. @default {@link MAX_LINKS} */
  max?: number;
  /** The site's origin (`https://example.com`): links are written as full URLs on it. @default none: site paths */
  baseUrl?: string;
  /** The path the folder is served under, as the audit reads it. @default "/" */
  basePath?: string;
}

/** Most new links a page by default. */
export const MAX_LINKS = 3;

/** A phrase that names a target: its words' stems, and whether it is one of the target's keywords. */
interface TargetPhrase {
  target: number;
  text: string;
  order: number;
  stems: string[];
  keyword: boolean;
}

/** A place in a page's prose where a phrase of a target stands. */
interface Occurrence extends Placement {
  target: number;
  line: number;
  phrase: TargetPhrase;
}

/** Characters that, right before an anchor, would make its markup something else (an image, an escape, a nested bracket). */
const BEFORE = new Set(["!", "\\", "[", "]"]);

const lower = (word: string, language: string) => word.toLocaleLowerCase(language);

/** Propose links between the pages, page by page in file order. */
export function proposeLinks(pages: readonly SitePageFile[], options: ProposeOptions = {}): Proposal[] {
  const max = options.max ?? MAX_LINKS;
  const urls = pages.map((page) => (options.baseUrl ? `${options.baseUrl.replace(/\/+$/u, "")}${page.url}` : page.url));
  const linked = linkedPages(pages, { basePath: options.basePath ?? "/" });
  const phrases = pages.map((page, target) => targetPhrases(page, target));
  const byFirst = new Map<string, TargetPhrase[]>();
  for (const phrase of phrases.flat()) byFirst.set(phrase.stems[0]!, [...(byFirst.get(phrase.stems[0]!) ?? []), phrase]);
  const indexes = new Map<string, TermIndex>();
  const used = pages.map(() => new Map<string, number>());
  // Pages share most of their words: each is stemmed once.
  const stems = new Map<string, string>();
  const proposals: Proposal[] = [];
  pages.forEach((page, from) => {
    let index = indexes.get(page.language);
    if (!index) {
      const documents = pages.map((p, id) => ({ id, title: p.title, keywords: p.keywords.join(", ") }));
      indexes.set(page.language, (index = new TermIndex({ language: page.language, fields: { title: 1, keywords: 1 }, documents })));
    }
    const words = page.stretches.map((s) => wordSpans(s.text, page.language));
    const query = [...new Set(words.flatMap((spans) => spans.map((w) => lower(w.word, page.language))))];
    const scores = new Map(index.rank(query.join(" ")).map((r) => [r.id, r.score]));
    const primary = page.keywords[0] ? ` ${stemsOf(page.keywords[0], page.language).join(" ")} ` : undefined;
    const found = occurrences(page, words, byFirst, urls, stemmer(page.language, stems)).filter(
      (o) =>
        o.target !== from && !linked[from]!.has(o.target) && scores.has(o.target) && !primary?.includes(` ${o.phrase.stems.join(" ")} `),
    );
    const targets = [...new Set(found.map((o) => o.target))].sort((a, b) => scores.get(b)! - scores.get(a)! || a - b);
    const chosen: Occurrence[] = [];
    for (const target of targets) {
      if (chosen.length >= max) break;
      const pick = bestOccurrence(
        found.filter((o) => o.target === target && chosen.every((c) => !overlaps(c, o))),
        used[target]!,
        page.language,
      );
      if (pick) chosen.push(pick);
    }
    // One reading of the page checks them all; only a page where one misplaces is read link by link.
    let clean = chosen;
    if (!placesCleanly(page.text, chosen)) {
      clean = [];
      for (const o of chosen) if (placesCleanly(page.text, [...clean, o])) clean.push(o);
    }
    for (const o of clean.sort((a, b) => a.offset - b.offset)) {
      const key = lower(o.anchor, page.language);
      used[o.target]!.set(key, (used[o.target]!.get(key) ?? 0) + 1);
      proposals.push(proposal(page, pages[o.target]!, o, scores.get(o.target)!));
    }
  });
  return proposals;
}

/** A target's descriptive phrases of 2–6 words, as grounding offers them, best first. */
function targetPhrases(page: SitePageFile, target: number): TargetPhrase[] {
  const keywords = new Set(page.keywords.map((k) => lower(k, page.language)));
  return anchorPhrases({ link: { url: page.url, title: page.title, keywords: page.keywords }, query: "", language: page.language })
    .map((phrase, order) => ({
      target,
      text: phrase,
      order,
      stems: stemsOf(phrase, page.language),
      keyword: keywords.has(lower(phrase, page.language)),
    }))
    .filter((phrase) => phrase.stems.length >= 2);
}

/** A word's lower-cased stem, through a cache of the words already stemmed. */
function stemmer(language: string, cache: Map<string, string>): (word: string) => string {
  return (word) => {
    const lowered = lower(word, language);
    const key = `${language} ${lowered}`;
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = stem(lowered, language)));
    return value;
  };
}

const stemsOf = (text: string, language: string) => wordSpans(text, language).map((w) => stem(lower(w.word, language), language));

/** Every place in the page's prose where a phrase of some target stands, its words joined by spaces only. */
function occurrences(
  page: SitePageFile,
  words: readonly (readonly WordSpan[])[],
  byFirst: ReadonlyMap<string, TargetPhrase[]>,
  urls: readonly string[],
  stemOf: (word: string) => string,
): Occurrence[] {
  const out: Occurrence[] = [];
  const text = page.text;
  for (const [s, stretch] of page.stretches.entries()) {
    const spans = words[s]!;
    const stems = spans.map((w) => stemOf(w.word));
    spans.forEach((first, i) => {
      for (const phrase of byFirst.get(stems[i]!) ?? []) {
        const n = phrase.stems.length;
        if (i + n > spans.length || phrase.stems.some((s, k) => stems[i + k] !== s)) continue;
        const last = spans[i + n - 1]!;
        const run = spans.slice(i, i + n);
        if (run.some((w, k) => k > 0 && !/^ +$/u.test(stretch.text.slice(run[k - 1]!.index + run[k - 1]!.word.length, w.index)))) continue;
        const offset = stretch.offset + first.index;
        if (BEFORE.has(text[offset - 1] ?? "")) continue;
        const anchor = stretch.text.slice(first.index, last.index + last.word.length);
        out.push({ offset, anchor, url: urls[phrase.target]!, target: phrase.target, line: stretch.line, phrase });
      }
    });
  }
  return out;
}

/** The occurrence to link: the anchor the target's other links use least, then its best phrase, then the first. */
function bestOccurrence(candidates: Occurrence[], used: ReadonlyMap<string, number>, language: string): Occurrence | undefined {
  const uses = (o: Occurrence) => used.get(lower(o.anchor, language)) ?? 0;
  return [...candidates].sort((a, b) => uses(a) - uses(b) || a.phrase.order - b.phrase.order || a.offset - b.offset)[0];
}

const overlaps = (a: Placement, b: Placement) => a.offset < b.offset + b.anchor.length && b.offset < a.offset + a.anchor.length;

function proposal(page: SitePageFile, target: SitePageFile, o: Occurrence, score: number): Proposal {
  const names = `${o.phrase.keyword ? "the keyword" : "from the title"} of ${target.file} ("${target.title}")`;
  const form = lower(o.anchor, page.language) === lower(o.phrase.text, page.language) ? "" : `a form of "${o.phrase.text}", `;
  return {
    file: page.file,
    line: o.line,
    anchor: o.anchor,
    target: o.url,
    targetFile: target.file,
    score: Math.round(score * 100) / 100,
    reason: `"${o.anchor}" is ${form}${names}`,
  };
}
