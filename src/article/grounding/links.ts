/**
 * Internal links: which of the user's pages each section links, and the phrases its anchor
 * may be. Pages are ranked per section with the same BM25 as the source excerpts, over the
 * page's title and keywords. Pure: the engine steers a sentence to hold one of the phrases
 * and wraps it as the link.
 */
import { contentTerms, stopWords, TermIndex } from "../text/terms.js";
import { lowerFirst, wordSpans, type WordSpan } from "../text/text.js";
import { LINKING } from "../../contract/limits.js";

/** A page of the user's site the article may link (the wire schema validates it; `keywords` always a list). */
export interface Link {
  url: string;
  title: string;
  keywords: string[];
}

/** Anchors that say nothing of the page they link. */
const GENERIC_ANCHORS = new Set([
  "click",
  "click here",
  "here",
  "read",
  "read more",
  "more",
  "learn more",
  "visit",
  "this page",
  "page",
  "this article",
  "article",
  "post",
  "this link",
  "link",
  "website",
]);

/** A BM25 index of pages over their title and keywords. */
function linkIndex(links: readonly Link[], language: string): TermIndex {
  return new TermIndex({
    language,
    fields: { title: 1, keywords: 1 },
    documents: links.map((link, id) => ({ id, title: link.title, keywords: link.keywords.join(", ") })),
  });
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
    const ranked = index
      .rank(options.query)
      .map((r) => r.id)
      .filter((i) => kept.has(i));
    const chosen = new Set([...new Set([...ranked, ...keep])].slice(0, max));
    return keep.filter((i) => chosen.has(i)).map((i) => this.links[i]!);
  }
}

/**
 * Languages whose noun phrases put their modifiers, as words of their own, before the word they
 * modify ("compost bin"), and whose prepositions follow the head they modify ("tools for small
 * shops"): there a phrase after a preposition is no name for the page. Not German, whose
 * titles often end on a verb ("Kompost im Garten anlegen").
 */
const HEAD_LAST: ReadonlySet<string> = new Set(["en"]);

/** Words an anchor holds: a single word only when it is one of the page's own keywords. */
const ANCHOR_WORDS = { min: 2, max: 6 } as const;

/**
 * The articles of a {@link HEAD_LAST} language: a run of content words after one, ending the
 * title, is a noun phrase of its own ("compost bin" of "How to choose a compost bin"), where
 * one after a preposition only modifies the head before it ("small shops" of "Tools for small shops").
 */
const ARTICLES: Readonly<Record<string, ReadonlySet<string>>> = { en: new Set(["a", "an", "the"]) };

/**
 * Phrases an anchor for the page may be, best first: phrases that name what the page is
 * about. Its keywords (a single word only there), then phrases of 2–6 words from its title
 * that keep its head noun ("choose a compost bin", "compost bin", "garden soil"; never
 * "choose" alone, "tools every" or "choose a bin"), then the title whole when it is 2–6 plain
 * words ("Garden gloves"). Never a phrase of stop words only, a generic phrase ("click
 * here"), or a phrase equal to or inside the article's primary keyword (`primary`), which the
 * article itself is about; another of its keywords that is the page's own is a good anchor.
 * Phrases sharing words with the section's query come first. Never a phrase that holds a
 * banned one (`banned`, style.avoid): an anchor is words the article holds. Every phrase is
 * plain words, since the grammar offers it as it stands. Empty when the page has none: it is
 * then not linked.
 */
export function anchorPhrases(options: {
  link: Link;
  query: string;
  language: string;
  /**
   * The article's primary keyword: an anchor is never it or a part of it.
   * @default none
   */
  primary?: string;
  /**
   * Whether a text holds a banned phrase.
   * @default nothing is banned
   */
  banned?: (text: string) => boolean;
}): string[] {
  const { link, language, banned } = options;
  const key = (phrase: string) => lowerWords(phrase, language).join(" ");
  const primary = options.primary === undefined ? undefined : ` ${key(options.primary)} `;
  const usable = (phrase: string, words: number) =>
    words >= 1 &&
    words <= ANCHOR_WORDS.max &&
    contentTerms(phrase, language).length > 0 &&
    !GENERIC_ANCHORS.has(key(phrase)) &&
    !primary?.includes(` ${key(phrase)} `) &&
    !banned?.(phrase);
  const candidates = [
    ...link.keywords.filter((k) => plainWords(k, language) && usable(k, wordSpans(k, language).length)),
    ...titlePhrases(link.title, language).filter((p) => usable(p, 2)),
  ];
  const seen = new Set<string>();
  const phrases = candidates.filter((phrase) => !seen.has(key(phrase)) && seen.add(key(phrase)));
  const query = new Set(contentTerms(options.query, language));
  const overlap = (phrase: string) => contentTerms(phrase, language).filter((w) => query.has(w)).length;
  // A stable sort: equal overlap keeps keywords before title phrases, shorter phrases before longer ones.
  return phrases
    .map((phrase, order) => ({ phrase, order, overlap: overlap(phrase) }))
    .sort((a, b) => b.overlap - a.overlap || a.order - b.order)
    .slice(0, LINKING.anchors)
    .map((p) => p.phrase);
}

/**
 * Whether a keyword is words alone, joined by spaces (a hyphen or an apostrophe inside a word
 * aside): the model writes an anchor under a grammar that offers it as it stands, and symbols
 * such as `<|im_start|>` there could be written as a model's control token, not as text.
 */
function plainWords(text: string, language: string): boolean {
  const spans = wordSpans(text, language);
  const trimmed = text.trim();
  if (spans.length === 0 || trimmed !== text.slice(spans[0]!.index, spans.at(-1)!.index + spans.at(-1)!.word.length)) return false;
  return spans.every(
    (span, i) => i === 0 || /^(\s+|[-'’]?)$/u.test(text.slice(spans[i - 1]!.index + spans[i - 1]!.word.length, span.index)),
  );
}

/** A text's words, lower-cased. */
function lowerWords(text: string, language: string): string[] {
  return wordSpans(text, language).map((w) => w.word.toLocaleLowerCase(language));
}

/**
 * Phrases of a title's words (2–6 of them, none across punctuation) that keep its head noun,
 * shortest first, then the title whole when it is 2–6 words with no punctuation between them,
 * each cased for use mid-sentence. A phrase ends where a run of content words ends (a
 * compound's head comes last: "garden soil"), and begins at its stretch's first content word
 * ("choose a compost bin"), inside a run ("garden soil" of "healthy garden soil"), or, in a
 * {@link HEAD_LAST} language, at the last run when an article stands before it ("compost
 * bin"). Never a phrase with a word left out of its middle ("choose a bin"), nor one after a
 * preposition, which drops the head it modifies ("18 days" of "Compost in 18 days").
 */
function titlePhrases(title: string, language: string): string[] {
  const spans = wordSpans(title, language);
  const stop = (span: WordSpan) => stopWords(language).has(span.word.toLocaleLowerCase(language));
  const titleCase = spans.length > 1 && spans.every((s) => /^(\p{Lu}|\P{L})/u.test(s.word) || stop(s));
  // Words joined by spaces only (or nothing, in a language written without them) form one stretch.
  const stretches: WordSpan[][] = [];
  spans.forEach((span, i) => {
    const before = spans[i - 1];
    if (!before || !/^\s*$/u.test(title.slice(before.index + before.word.length, span.index))) stretches.push([]);
    stretches.at(-1)!.push(span);
  });
  const text = (words: readonly WordSpan[]) => {
    const phrase = title.slice(words[0]!.index, words.at(-1)!.index + words.at(-1)!.word.length);
    // Title Case and a sentence-case title's first capital are positional, not the word's own (acronyms stay).
    // A capital on a stop word ("A Guide") is Title Case's, never the word's own.
    const lower = (word: string) =>
      stopWords(language).has(word.toLocaleLowerCase(language)) && language !== "de"
        ? word.toLocaleLowerCase(language)
        : lowerFirst(word, language);
    if (titleCase) return phrase.split(/(\s+)/u).map(lower).join("");
    return words[0]!.index === 0 ? lowerFirst(phrase, language) : phrase;
  };
  const articles = ARTICLES[language];
  const phrases: Array<{ text: string; words: number }> = [];
  for (const words of stretches) {
    const content = (i: number) => i >= 0 && i < words.length && !stop(words[i]!);
    const first = words.findIndex((_, i) => content(i));
    const lastRun = (from: number) => words.slice(from).every((_, i) => content(from + i));
    for (let from = 0; from < words.length; from++) {
      // A run's start, or a later word of it that still leaves two: "garden soil" of "healthy garden soil".
      if (!content(from) || (content(from - 1) && !content(from + 1))) continue;
      const opens =
        from === first ||
        content(from - 1) ||
        !HEAD_LAST.has(language) ||
        (articles?.has(words[from - 1]!.word.toLocaleLowerCase(language)) && lastRun(from));
      if (!opens) continue;
      for (let to = from + 1; to < words.length && to - from < ANCHOR_WORDS.max; to++) {
        if (content(to) && !content(to + 1)) phrases.push({ text: text(words.slice(from, to + 1)), words: to - from + 1 });
      }
    }
  }
  const whole = stretches.length === 1 && spans.length >= ANCHOR_WORDS.min && spans.length <= ANCHOR_WORDS.max ? [text(spans)] : [];
  return [...phrases.sort((a, b) => a.words - b.words).map((p) => p.text), ...whole];
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

/** Why a page of the request is not linked. */
export type UnlinkedReason = "duplicate" | "no-anchor" | "banned" | "irrelevant" | "budget" | "not-written";

/** A page the article does not link, and why. */
export interface UnlinkedPage {
  url: string;
  reason: UnlinkedReason;
}

/** Which page each section links, and the pages left out. */
export interface LinkPlan {
  sections: PlannedLink[][];
  unlinked: UnlinkedPage[];
}

/**
 * Which page each section links: about one link per 200 words of the article, at most one
 * per paragraph, each URL once, spread over the sections (every section gets its best page
 * before any gets a second). A section takes the pages that rank for its own query first;
 * pages that rank only for the whole article (`article`: its topic and keywords) fill
 * sections with room after that. A page with no descriptive anchor phrase (or only phrases
 * that hold a banned one), or that matches neither, is not linked; `unlinked` says which and why.
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
   * The article's primary keyword, which an anchor never is (nor a part of it).
   * @default none
   */
  primary?: string;
  /**
   * Whether a text holds a banned phrase: an anchor never does.
   * @default nothing is banned
   */
  banned?: (text: string) => boolean;
}): LinkPlan {
  const { sections, language, banned } = options;
  const primary = options.primary === undefined ? {} : { primary: options.primary };
  const plan: PlannedLink[][] = sections.map(() => []);
  const unlinked: UnlinkedPage[] = [];
  const used = new Set<string>();
  const unique = options.links.filter((link, i) => {
    const first = options.links.findIndex((other) => sameAddress(other.url, link.url)) === i;
    if (!first) unlinked.push({ url: link.url, reason: "duplicate" });
    else if (!anchorPhrases({ link, query: "", language, ...primary }).length) unlinked.push({ url: link.url, reason: "no-anchor" });
    else if (banned && !anchorPhrases({ link, query: "", language, ...primary, banned }).length)
      unlinked.push({ url: link.url, reason: "banned" });
    else return true;
    return false;
  });
  let want = Math.min(unique.length, Math.max(1, Math.round(options.length / LINKING.wordsPerLink)));
  const room = sections.map((s) => s.paragraphs ?? Math.max(1, Math.floor(s.words / LINKING.paragraphWords)));
  const place = (s: number, link: Link): boolean => {
    if (want === 0 || used.has(link.url) || plan[s]!.length >= room[s]!) return false;
    plan[s]!.push({
      url: link.url,
      title: link.title,
      anchors: anchorPhrases({ link, query: sections[s]!.query, language, ...primary, ...(banned ? { banned } : {}) }),
    });
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
  const relevant = new Set(pairs.map((p) => p.link.url));
  for (const link of index.rank(options.article).map((r) => unique[r.id]!)) {
    relevant.add(link.url);
    // The section with the fewest links and room left, the longer one on a tie.
    const order = sections
      .map((_, s) => s)
      .sort((a, b) => plan[a]!.length - plan[b]!.length || sections[b]!.words - sections[a]!.words || a - b);
    for (const s of order) if (place(s, link)) break;
  }
  for (const link of unique)
    if (!used.has(link.url)) unlinked.push({ url: link.url, reason: relevant.has(link.url) ? "budget" : "irrelevant" });
  return { sections: plan, unlinked };
}
