/**
 * Internal links: which of the user's pages each section links, and the phrases its anchor
 * may be. Pages are ranked per section with the same BM25 as the source passages, over the
 * page's title and keywords. Pure: the engine steers a sentence to hold one of the phrases
 * and wraps it as the link.
 */
import { contentTerms, stopWords, TermIndex } from "../text/terms.js";
import { lowerFirst, wordSpans, type WordSpan } from "../text/text.js";

/** A page of the user's site the article may link (the wire schema validates it; `keywords` always a list). */
export interface Link {
  url: string;
  title: string;
  keywords: string[];
}

/** How densely an article links. */
export const LINKING = {
  /** About one link per this many words of the article. */
  wordsPerLink: 200,
  /** A section's paragraphs, when not given, are its words over this (a paragraph holds about 90 words): at most one link each. */
  paragraphWords: 90,
  /** Most anchor phrases offered per link. */
  anchors: 6,
} as const;

/** Anchors that say nothing of the page they link. */
const GENERIC_ANCHORS = new Set(["click", "click here", "here", "read", "read more", "more", "learn more", "visit", "this page", "page", "this article", "article", "post", "this link", "link", "website"]);

/** A BM25 index of pages over their title and keywords. */
function linkIndex(links: readonly Link[], language: string): TermIndex {
  return new TermIndex({ language, fields: { title: 1, keywords: 1 }, documents: links.map((link, id) => ({ id, title: link.title, keywords: link.keywords.join(", ") })) });
}

/** Two addresses of the same page: a site path matches any host's page of that path; trailing slashes do not count. */
export function sameAddress(a: string, b: string): boolean {
  const parse = (url: string) => {
    const parsed = new URL(url, "https://site.invalid");
    const path = decodeURI(parsed.pathname).replace(/\/+$/, "") + parsed.search;
    return { host: url.startsWith("/") ? undefined : parsed.host.toLowerCase(), path };
  };
  try {
    const [x, y] = [parse(a), parse(b)];
    return x.path === y.path && (x.host === undefined || y.host === undefined || x.host === y.host);
  } catch {
    return a === b;
  }
}

/**
 * A link set shared by many articles (a batch's sitemap), indexed once per language: each
 * article takes the pages most relevant to it.
 */
export class LinkSet {
  private readonly indexes = new Map<string, TermIndex>();

  constructor(readonly links: readonly Link[]) {}

  /**
   * The pages one article may link: never its own page (`own`), and when more than `max`
   * are left, the `max` most relevant to `query` (its topic and keywords), then the rest in order.
   */
  for(options: {
    query: string;
    language: string;
    max: number;
    /**
     * The article's own address.
     * @default none: every page may be linked
     */
    own?: string;
  }): Link[] {
    const { own, max, language } = options;
    const keep = this.links.map((_, i) => i).filter((i) => own === undefined || !sameAddress(this.links[i]!.url, own));
    if (keep.length <= max) return keep.map((i) => this.links[i]!);
    let index = this.indexes.get(language);
    if (!index) this.indexes.set(language, (index = linkIndex(this.links, language)));
    const kept = new Set(keep);
    const ranked = index.rank(options.query).map((r) => r.id).filter((i) => kept.has(i));
    const chosen = new Set([...new Set([...ranked, ...keep])].slice(0, max));
    return keep.filter((i) => chosen.has(i)).map((i) => this.links[i]!);
  }
}

/**
 * Phrases an anchor for the page may be, best first: its keywords, then runs of content
 * words from its title (whole runs of up to four words, and their two-word parts). Never
 * the whole title of more than two words, a generic phrase ("click here"), or one of
 * `avoid` (the article's primary keyword, so links do not all share one anchor). Phrases
 * sharing words with the section's query come first, so anchors vary with the article.
 */
export function anchorPhrases(options: {
  link: Link;
  query: string;
  language: string;
  /**
   * Phrases the anchor never is.
   * @default none
   */
  avoid?: readonly string[];
}): string[] {
  const { link, language } = options;
  const key = (phrase: string) => phrase.toLocaleLowerCase(language).replace(/\s+/g, " ").trim();
  const title = key(link.title);
  const refused = new Set([...GENERIC_ANCHORS, ...(options.avoid ?? []).map(key)]);
  if (wordSpans(link.title, language).length > 2) refused.add(title);
  const candidates = [...link.keywords, ...titlePhrases(link.title, language)];
  const seen = new Set<string>();
  const phrases = candidates.filter((phrase) => {
    const phraseKey = key(phrase);
    if (!phraseKey || refused.has(phraseKey) || seen.has(phraseKey)) return false;
    seen.add(phraseKey);
    return true;
  });
  const query = new Set(contentTerms(options.query, language));
  const overlap = (phrase: string) => contentTerms(phrase, language).filter((w) => query.has(w)).length;
  // A stable sort: equal overlap keeps keywords before title phrases, longer runs before their parts.
  return phrases.map((phrase, order) => ({ phrase, order, overlap: overlap(phrase) }))
    .sort((a, b) => b.overlap - a.overlap || a.order - b.order)
    .slice(0, LINKING.anchors)
    .map((p) => p.phrase);
}

/** Runs of content words in a title (broken at stop words and punctuation), in title order, cased for use mid-sentence. */
function titlePhrases(title: string, language: string): string[] {
  const spans = wordSpans(title, language);
  const titleCase = spans.length > 1 && spans.every((s) => /^\p{Lu}/u.test(s.word) || stopWords(language).has(s.word.toLocaleLowerCase(language)));
  const runs: WordSpan[][] = [];
  let run: WordSpan[] = [];
  spans.forEach((span, i) => {
    const joined = i > 0 && /^\s+$/u.test(title.slice(spans[i - 1]!.index + spans[i - 1]!.word.length, span.index));
    const stop = stopWords(language).has(span.word.toLocaleLowerCase(language));
    if (stop || !joined) {
      if (run.length) runs.push(run);
      run = [];
    }
    if (!stop) run.push(span);
  });
  if (run.length) runs.push(run);
  const text = (words: readonly WordSpan[]) => {
    const phrase = title.slice(words[0]!.index, words.at(-1)!.index + words.at(-1)!.word.length);
    // Title Case and a sentence-case title's first capital are positional, not the word's own (acronyms stay).
    if (titleCase) return phrase.split(/(\s+)/u).map((word) => lowerFirst(word, language)).join("");
    return words[0]!.index === 0 ? lowerFirst(phrase, language) : phrase;
  };
  const phrases: string[] = [];
  for (const words of runs) {
    if (words.length <= 4) phrases.push(text(words));
    for (let i = 0; words.length > 2 && i + 1 < words.length; i++) phrases.push(text(words.slice(i, i + 2)));
    if (words.length === 1 && [...words[0]!.word].length < 4) phrases.pop();
  }
  return phrases;
}

/** One section as the link plan sees it. */
export interface LinkSection {
  /** What the section is about: its heading and keywords (the intro and conclusion: the title). */
  query: string;
  /** Its word budget. */
  words: number;
  /**
   * Paragraphs that may hold a link (one each); 0 for a section that takes none.
   * @default words / {@link LINKING.paragraphWords}, at least 1
   */
  paragraphs?: number;
}

/** A link a section places, and the phrases its anchor may be. */
export interface PlannedLink {
  url: string;
  title: string;
  /** Candidate anchors, best first; never empty. */
  anchors: string[];
}

/**
 * Which page each section links: about one link per 200 words of the article, at most one
 * per paragraph, each URL once, spread over the sections (every section gets its best page
 * before any gets a second). A section takes the pages that rank for its own query first;
 * pages that rank only for the whole article (`article`: its topic and keywords) fill
 * sections with room after that; pages that match neither are not linked. A page with no
 * usable anchor phrase is skipped.
 */
export function planLinks(options: {
  links: readonly Link[];
  sections: readonly LinkSection[];
  /** The article's requested length in words. */
  length: number;
  language: string;
  /** The article's topic and keywords. */
  article: string;
  /**
   * Phrases anchors never are: the primary keyword.
   * @default none
   */
  avoid?: readonly string[];
}): PlannedLink[][] {
  const { sections, language } = options;
  const plan: PlannedLink[][] = sections.map(() => []);
  const used = new Set<string>();
  const unique = options.links.filter((link, i) => options.links.findIndex((other) => sameAddress(other.url, link.url)) === i);
  let want = Math.min(unique.length, Math.max(1, Math.round(options.length / LINKING.wordsPerLink)));
  const room = sections.map((s) => s.paragraphs ?? Math.max(1, Math.floor(s.words / LINKING.paragraphWords)));
  const place = (s: number, link: Link): boolean => {
    if (want === 0 || used.has(link.url) || plan[s]!.length >= room[s]!) return false;
    const anchors = anchorPhrases({ link, query: sections[s]!.query, language, avoid: options.avoid });
    if (!anchors.length) return false;
    plan[s]!.push({ url: link.url, title: link.title, anchors });
    used.add(link.url);
    want--;
    return true;
  };
  const index = linkIndex(unique, language);
  const pairs = sections
    .flatMap((section, s) => index.rank(section.query).map((r) => ({ s, link: unique[r.id]!, score: r.score })))
    .sort((a, b) => b.score - a.score || a.s - b.s);
  for (let round = 1; want > 0 && round <= Math.max(0, ...room); round++) {
    for (const { s, link } of pairs) if (plan[s]!.length < round) place(s, link);
  }
  for (const link of index.rank(options.article).map((r) => unique[r.id]!)) {
    // The section with the fewest links and room left, the longer one on a tie.
    const order = sections.map((_, s) => s).sort((a, b) => plan[a]!.length - plan[b]!.length || sections[b]!.words - sections[a]!.words || a - b);
    for (const s of order) if (place(s, link)) break;
  }
  return plan;
}
