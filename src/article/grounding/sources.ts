/**
 * Offline retrieval over the request's sources: they are split into excerpts of a few
 * sentences (Markdown stripped), ranked per planned section with BM25, and each section
 * is shown its best excerpts within a token budget. The citation measure says whether a
 * written sentence restates an excerpt beyond the request's own words. Pure: no model, no network.
 */
import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import { figureKey, figuresIn } from "../text/figures.js";
import { parseMarkdown } from "../text/markdown.js";
import { contentTerms, TermIndex } from "../text/terms.js";
import { endsSentence, splitSentences, wordSpans } from "../text/text.js";

/** A document the request hands the writer (the wire schema validates it): its text is split into excerpts. */
export interface Source {
  title: string;
  url?: string;
  text: string;
}

/** A few sentences of one source, the unit that is ranked, shown to the model and cited. */
export interface Excerpt {
  /** Position in {@link SourceIndex.excerpts}. */
  index: number;
  /** Position of its source in the request's `sources`. */
  source: number;
  /** Plain text: Markdown stripped, sentences joined by spaces. */
  text: string;
  /** The source heading it stands under, if any. */
  heading?: string;
  words: number;
}

/** How excerpts are cut. */
export interface ExcerptOptions {
  /**
   * Most sentences in an excerpt.
   * @default 3
   */
  sentences?: number;
  /**
   * Most words in an excerpt; a longer sentence is cut into parts of this many words.
   * @default 80
   */
  maxWords?: number;
}

/** One block of a source's text (a paragraph, a list item, a table row) and the heading above it. */
interface Block {
  text: string;
  heading?: string;
}

/** The text blocks of Markdown (GitHub's, tables included), in order; code, HTML and front matter are left out (they are not prose to restate). */
function blocksOf(markdown: string, field: string): Block[] {
  const blocks: Block[] = [];
  let heading: string | undefined;
  const text = (node: Nodes) => toString(node, { includeImageAlt: false }).replace(/\s+/g, " ").trim();
  const visit = (node: Nodes): void => {
    if (node.type === "heading") heading = text(node) || undefined;
    else if (node.type === "paragraph") blocks.push({ text: text(node), heading });
    else if (node.type === "tableRow") blocks.push({ text: node.children.map(text).filter(Boolean).join("; "), heading });
    else if (node.type !== "code" && node.type !== "html" && "children" in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown, field));
  return blocks.filter((block) => block.text);
}

/** A sentence with its word count; one longer than `maxWords` words is cut into parts of at most that many. */
function parts(sentence: string, maxWords: number, language: string): Array<{ text: string; words: number }> {
  const spans = wordSpans(sentence, language);
  if (spans.length <= maxWords) return [{ text: sentence, words: spans.length }];
  const out: Array<{ text: string; words: number }> = [];
  for (let start = 0; start < spans.length; start += maxWords) {
    const from = start === 0 ? 0 : spans[start]!.index;
    const to = start + maxWords < spans.length ? spans[start + maxWords]!.index : sentence.length;
    out.push({ text: sentence.slice(from, to).trim(), words: Math.min(maxWords, spans.length - start) });
  }
  return out;
}

/**
 * The sources as excerpts: consecutive sentences under the same heading of one source,
 * at most `sentences` of them and `maxWords` words. A block that does not end a sentence (a
 * list item, a table row) is closed with a full stop so excerpts read as prose.
 */
export function splitExcerpts(options: ExcerptOptions & { sources: readonly Source[]; language: string }): Excerpt[] {
  const { sources, language, sentences: most = 3, maxWords = 80 } = options;
  const excerpts: Excerpt[] = [];
  sources.forEach((source, sourceIndex) => {
    let run: string[] = [];
    let runWords = 0;
    let runHeading: string | undefined;
    const flush = () => {
      if (run.length)
        excerpts.push({
          index: excerpts.length,
          source: sourceIndex,
          text: run.join(" "),
          ...(runHeading ? { heading: runHeading } : {}),
          words: runWords,
        });
      run = [];
      runWords = 0;
    };
    for (const block of blocksOf(source.text, `sources[${sourceIndex}].text`)) {
      if (block.heading !== runHeading) flush();
      runHeading = block.heading;
      const text = endsSentence(block.text) ? block.text : `${block.text}.`;
      for (const { text: sentence, words } of splitSentences(text, language).flatMap((s) => parts(s, maxWords, language))) {
        if (run.length >= most || (run.length && runWords + words > maxWords)) flush();
        run.push(sentence);
        runWords += words;
      }
    }
    flush();
  });
  return excerpts;
}

/** An excerpt and how well it answers a query. */
export interface RankedExcerpt {
  excerpt: Excerpt;
  score: number;
}

/**
 * The request's sources, split into excerpts and indexed once per article. An excerpt's
 * own words weigh most; its heading and its source's title help it match a section.
 */
export class SourceIndex {
  /** Every excerpt of every source, in source order. */
  readonly excerpts: readonly Excerpt[];
  private readonly index: TermIndex;

  constructor(options: ExcerptOptions & { sources: readonly Source[]; language: string }) {
    this.excerpts = splitExcerpts(options);
    this.index = new TermIndex({
      language: options.language,
      fields: { text: 1, context: 0.5 },
      documents: this.excerpts.map((p) => ({
        id: p.index,
        text: p.text,
        context: `${options.sources[p.source]!.title} ${p.heading ?? ""}`,
      })),
    });
  }

  /** The excerpts that share a word with the query (a section's heading and keywords), best first. */
  rank(query: string): RankedExcerpt[] {
    return this.index.rank(query).map(({ id, score }) => ({ excerpt: this.excerpts[id]!, score }));
  }
}

/** Tokens per word when no tokenizer is given: about what BPE vocabularies spend on English prose. */
const TOKENS_PER_WORD = 1.4;

/**
 * The best excerpts that fit a token budget, in rank order: each is taken when it still
 * fits, so a long excerpt that does not leaves room for a shorter one after it. Excerpts in
 * `exclude` (shown to an earlier section of the same answer, so still in context) are skipped.
 */
export function pickExcerpts(options: {
  ranked: readonly RankedExcerpt[];
  budget: number;
  /**
   * Tokens of an excerpt's text as the model will read it.
   * @default words × {@link TOKENS_PER_WORD}
   */
  tokens?: (excerpt: Excerpt) => number;
  /** Excerpts not to take again (by index). */
  exclude?: ReadonlySet<number>;
}): Excerpt[] {
  const { ranked, exclude } = options;
  const tokens = options.tokens ?? ((excerpt: Excerpt) => Math.ceil(excerpt.words * TOKENS_PER_WORD));
  let left = options.budget;
  const picked: Excerpt[] = [];
  for (const { excerpt } of ranked) {
    if (exclude?.has(excerpt.index)) continue;
    const cost = tokens(excerpt);
    if (cost > left) continue;
    picked.push(excerpt);
    left -= cost;
  }
  return picked;
}

/**
 * Each section's excerpts: ranked by the section's query and picked within its budget,
 * an excerpt shown to one section never shown again (one continuing answer keeps it in context).
 */
export function excerptsForSections(options: {
  index: SourceIndex;
  sections: ReadonlyArray<{ query: string; budget: number }>;
  tokens?: (excerpt: Excerpt) => number;
}): Excerpt[][] {
  const shown = new Set<number>();
  return options.sections.map(({ query, budget }) => {
    const picked = pickExcerpts({ ranked: options.index.rank(query), budget, tokens: options.tokens, exclude: shown });
    for (const excerpt of picked) shown.add(excerpt.index);
    return picked;
  });
}

/**
 * When a sentence restates an excerpt. Words the request supplied ({@link givenWords}) are
 * never evidence: code steers keywords and anchors into sentences, so they prove nothing.
 * Beyond them, the sentence shares at least `minShared` content words with the excerpt (stems,
 * stop words left out, numbers included), at least `minShare` of its own such words, and
 * either a run of `run` consecutive content words or a figure that the excerpt also has.
 */
export const RESTATES = { minShared: 3, minShare: 0.4, run: 2 } as const;

/** What the request itself supplied, as compared: content words (stems) and figures. */
export interface GivenWords {
  terms: ReadonlySet<string>;
  figures: ReadonlySet<string>;
}

/** The words and figures of the request's own texts (topic, keywords, link titles and keywords, voice…). */
export function givenWords(texts: readonly string[], language: string): GivenWords {
  return {
    terms: new Set(texts.flatMap((text) => contentTerms(text, language))),
    figures: new Set(texts.flatMap(figuresIn).map(figureKey)),
  };
}

/** Which excerpt a sentence restates, its source, the content words they share and the evidence (a run of words, or a figure). */
export interface Citation {
  excerpt: number;
  source: number;
  shared: string[];
  evidence: string[];
}

/** A text as the citation measure reads it: its content words, its runs of two, its figures. */
interface Reading {
  terms: ReadonlySet<string>;
  runs: ReadonlySet<string>;
  figures: ReadonlySet<string>;
}

/** Two consecutive content words as one key. */
const runKey = (a: string, b: string) => `${a}\u0000${b}`;

/** The content-word runs of each sentence of a text (a run never spans two sentences). */
function runsOf(text: string, language: string): string[][] {
  return splitSentences(text, language).map((sentence) => contentTerms(sentence, language));
}

const excerptReadings = new WeakMap<Excerpt, Reading>();

function readExcerpt(excerpt: Excerpt, language: string): Reading {
  let reading = excerptReadings.get(excerpt);
  if (!reading) {
    const sentences = runsOf(excerpt.text, language);
    const runs = sentences.flatMap((terms) => terms.slice(1).map((term, i) => runKey(terms[i]!, term)));
    reading = { terms: new Set(sentences.flat()), runs: new Set(runs), figures: new Set(figuresIn(excerpt.text).map(figureKey)) };
    excerptReadings.set(excerpt, reading);
  }
  return reading;
}

/** Evidence a sentence restates an excerpt: a run of two of its own words, or one of its own figures, that the excerpt has too. */
function evidence(terms: readonly string[], figures: readonly string[], excerpt: Reading, given: GivenWords): string[] | undefined {
  for (let i = 0; i + 1 < terms.length; i++) {
    const [a, b] = [terms[i]!, terms[i + 1]!];
    if (!given.terms.has(a) && !given.terms.has(b) && excerpt.runs.has(runKey(a, b))) return [a, b];
  }
  const figure = figures.find((f) => excerpt.figures.has(f));
  return figure === undefined ? undefined : [figure];
}

/**
 * The excerpt a sentence restates, by {@link RESTATES}: of those that qualify, the one
 * sharing the most content words (then the larger share of the excerpt, then the first).
 * Undefined when none does: the sentence then carries no citation marker.
 */
export function restates(options: {
  sentence: string;
  excerpts: readonly Excerpt[];
  language: string;
  given: GivenWords;
}): Citation | undefined {
  const { sentence, excerpts, language, given } = options;
  const terms = contentTerms(sentence, language);
  const own = new Set(terms.filter((term) => !given.terms.has(term)));
  if (own.size < RESTATES.minShared) return undefined;
  const figures = figuresIn(sentence)
    .map(figureKey)
    .filter((figure) => !given.figures.has(figure));
  let best: (Citation & { share: number }) | undefined;
  for (const excerpt of excerpts) {
    const reading = readExcerpt(excerpt, language);
    const shared = [...own].filter((term) => reading.terms.has(term));
    if (shared.length < RESTATES.minShared || shared.length / own.size < RESTATES.minShare) continue;
    const proof = evidence(terms, figures, reading, given);
    if (!proof) continue;
    const share = shared.length / reading.terms.size;
    if (!best || shared.length > best.shared.length || (shared.length === best.shared.length && share > best.share)) {
      best = { excerpt: excerpt.index, source: excerpt.source, shared, evidence: proof, share };
    }
  }
  return best && { excerpt: best.excerpt, source: best.source, shared: best.shared, evidence: best.evidence };
}
