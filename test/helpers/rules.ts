/**
 * An independent checker of the article rules, counted the way the project counts: words
 * are Intl.Segmenter word segments with isWordLike in the article's language, a keyword
 * matches as an exact phrase, case-insensitively, on word boundaries, and titles and
 * descriptions are measured in display columns. It reads only what the API returned (Markdown, HTML,
 * metadata) and what the test asked for; it uses nothing from src/ (not the analyser, not
 * the plan), so the engine cannot grade its own homework.
 *
 * `checkArticleRules` returns every broken rule as one line with its figures, so a
 * failing test lists all of them at once.
 */
import { createHash } from "node:crypto";
import slugify from "@sindresorhus/slugify";
import type { Heading, List, Nodes, Paragraph, Root, RootContent } from "mdast";
import { eastAsianWidth } from "get-east-asian-width";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { checkEditorRules } from "./editor-rules.js";
import { nearRepeats } from "./near-repeats.js";

export type Structure = "paragraphs" | "sections" | "detailed" | "listicle" | "how-to";

/** What the test asked for. */
export interface RuleRequest {
  length: number;
  structure: Structure;
  headingTags: boolean;
  /** Normalised keywords; the first is the primary keyword. */
  keywords: string[];
  language: string;
  /** The title was generated (not given as seo.title), so the title rules apply in full. */
  titleGenerated: boolean;
}

/** The parts of the JSON answer the rules read. */
export interface ArticleAnswer {
  article: {
    title: string;
    slug: string;
    metaDescription: string;
    markdown: string;
    html: string;
    outline: { level: number; text: string; shown?: boolean }[];
    wordCount: number;
  };
  seo: { score: number; checks: { id: string; passed: boolean | null; message: string }[] };
}

// --- counting -------------------------------------------------------------

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(language: string, granularity: "word" | "sentence"): Intl.Segmenter {
  const key = `${language}/${granularity}`;
  let s = segmenters.get(key);
  if (!s) segmenters.set(key, (s = new Intl.Segmenter(language, { granularity })));
  return s;
}

/** Words: Intl.Segmenter word segments with isWordLike, in the article language. */
export function words(text: string, language: string): string[] {
  return [...segmenter(language, "word").segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

/** Sentences: Intl.Segmenter sentence segments, trimmed, empty ones dropped. */
export function sentences(text: string, language: string): string[] {
  return [...segmenter(language, "sentence").segment(text)].map((s) => s.segment.trim()).filter(Boolean);
}

/** Languages written without spaces between words: a word's boundary there is only a Latin letter or digit. */
const UNSPACED = new Set(["ja", "zh", "th", "lo", "km", "my"]);

function phrasePattern(phrase: string, language: string): RegExp {
  const escaped = phrase
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+");
  const letter = UNSPACED.has(language) ? "\\p{Script=Latin}\\p{N}" : "\\p{L}\\p{N}\\p{M}";
  return new RegExp(`(?<![${letter}])${escaped}(?![${letter}])`, "giu");
}

/** Keyword occurrences: exact phrase, case-insensitive, on word boundaries (of its language). */
export function occurrences(text: string, phrase: string, language = "en"): number {
  return [...text.matchAll(phrasePattern(phrase, language))].length;
}

/** Index of the first occurrence of a phrase, -1 when absent. */
function firstIndex(text: string, phrase: string, language: string): number {
  return text.search(new RegExp(phrasePattern(phrase, language).source, "iu"));
}

/** A keyword in slug form: ASCII, lower-case, hyphen-separated. */
export function slugForm(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The slug a keyword must stand in: its transliteration (Cyrillic, Greek, accents), or, for a
 * script without one (Japanese, Chinese, Korean), the documented stand-in: the first 10 hex digits
 * of its SHA-256.
 */
function keywordSlugForm(keyword: string): string {
  return slugify(keyword, { lowercase: true, decamelize: false }) || createHash("sha256").update(keyword).digest("hex").slice(0, 10);
}

/** Most words of a sentence before it counts as long, per language (20 elsewhere). */
const LONG_SENTENCE: Record<string, number> = { es: 25, it: 25, pt: 25, ru: 15, he: 15, tr: 15 };

/** A sentence or heading as the uniqueness rules compare it: no case, punctuation or spacing. */
const normalised = (text: string, language: string) =>
  text
    .toLocaleLowerCase(language)
    .replace(/[\p{P}\p{S}\s]+/gu, " ")
    .trim();

/** Length as search results lay it out: display columns, a wide (CJK) character counting as two. */
const chars = (text: string) => [...text].reduce((n, c) => n + eastAsianWidth(c.codePointAt(0)!), 0);
const pct = (n: number) => `${(Math.round(n * 100) / 100).toString()}%`;
const TERMINATED = /[.!?。！？।؟…]["'”’»)\]]*$/u;
const clean = (text: string) => text.replace(/\s+/g, " ").trim();

// --- the article as blocks -----------------------------------------------------------------

interface Parsed {
  tree: Root;
  /** Top-level nodes except the H1 title. */
  body: RootContent[];
  /** Every heading, in document order (the H1 included). */
  headings: { depth: number; text: string }[];
  /** Text blocks of the body (headings H2+ and paragraphs, list items' too), for counting. */
  blocks: string[];
  /** Paragraphs of the body, list items' included, in document order. */
  paragraphs: string[];
  /** Sentences of the paragraphs, in document order (headings excluded). */
  sentences: string[];
  wordCount: number;
}

function allNodes(node: Nodes): Nodes[] {
  return [node, ...("children" in node ? node.children.flatMap((child) => allNodes(child)) : [])];
}

/** Leaf text blocks of a node: each heading, paragraph and table cell on its own, so list items never run together. */
function textBlocks(node: Nodes): string[] {
  if (node.type === "heading" || node.type === "paragraph" || node.type === "tableCell") return [clean(toString(node))];
  if (node.type === "code" || node.type === "html") return [node.value];
  return "children" in node ? node.children.flatMap((child) => textBlocks(child)) : [];
}

function parse(markdown: string, language: string): Parsed {
  const tree = unified().use(remarkParse).parse(markdown);
  const first = tree.children[0];
  const hasTitle = first?.type === "heading" && first.depth === 1;
  const body = hasTitle ? tree.children.slice(1) : tree.children;
  const headings = allNodes(tree)
    .filter((n): n is Heading => n.type === "heading")
    .map((h) => ({ depth: h.depth, text: clean(toString(h)) }));
  const blocks = body.flatMap((n) => textBlocks(n));
  const paragraphs = body
    .flatMap((n) => allNodes(n))
    .filter((n): n is Paragraph => n.type === "paragraph")
    .map((n) => clean(toString(n)));
  return {
    tree,
    body,
    headings,
    blocks,
    paragraphs,
    sentences: paragraphs.flatMap((p) => sentences(p, language)),
    wordCount: blocks.reduce((n, b) => n + words(b, language).length, 0),
  };
}

// --- the rules -----------------------------------------------------------------------------

/** The report's checks of what the engine steers: each must pass on every model. */
const STEERED_CHECKS = new Set([
  "keyword-in-title",
  "keyword-in-introduction",
  "keyword-in-subheadings",
  "keyword-in-meta-description",
  "keyword-in-slug",
  "keyword-density",
  "secondary-keywords",
  "keyword-once-per-sentence",
  "keyword-openings",
  "meta-description-length",
  "title-length",
  "text-length",
  "length-target",
  "single-h1",
  "no-headings",
  "heading-hierarchy",
  "distinct-headings",
  "subheading-distribution",
  "paragraph-length",
  "sentence-length",
  "consecutive-sentence-starts",
  "duplicate-sentences",
  "avoid",
]);

/** Every rule the article breaks, one line each with its figures; empty when all hold. */
export function checkArticleRules(answer: ArticleAnswer, request: RuleRequest): string[] {
  const { article } = answer;
  const { language } = request;
  const a = parse(article.markdown, language);
  const broken: string[] = [];
  const rule = (ok: boolean, message: () => string) => {
    if (!ok) broken.push(message());
  };

  // Length and word count.
  const { length } = request;
  const off = ((a.wordCount - length) / length) * 100;
  rule(
    Math.abs(a.wordCount - length) <= length * 0.1,
    () =>
      `length: body has ${a.wordCount} words, ${pct(Math.abs(off))} ${off < 0 ? "under" : "over"} the ${length} requested (allowed ${Math.ceil(length * 0.9)}–${Math.floor(length * 1.1)})`,
  );
  rule(article.wordCount === a.wordCount, () => `word-count: article.wordCount is ${article.wordCount}, the body has ${a.wordCount} words`);

  // Headings.
  const htmlHeadings = [...article.html.matchAll(/<h([1-6])[\s>]/gi)].map((m) => Number(m[1]));
  const subheadings = a.headings.filter((h) => h.depth === 2 || h.depth === 3);
  if (request.headingTags) {
    const h1s = a.headings.filter((h) => h.depth === 1);
    const first = a.tree.children[0];
    rule(h1s.length === 1, () => `single-h1: ${h1s.length} H1 headings (want exactly 1)`);
    rule(
      first?.type === "heading" && first.depth === 1,
      () => `h1-first: the first node is ${first ? describeNode(first) : "missing"}, not the H1`,
    );
    rule(h1s[0]?.text === article.title, () => `h1-is-title: H1 “${h1s[0]?.text ?? ""}” ≠ article.title “${article.title}”`);
    const deep = a.headings.filter((h) => h.depth > 3);
    rule(deep.length === 0, () => `h2-h3-only: ${deep.length} headings deeper than H3 (first: H${deep[0]!.depth} “${deep[0]!.text}”)`);
    const skips: string[] = [];
    a.headings.forEach((h, i) => {
      const previous = a.headings[i - 1]?.depth ?? 0;
      if (h.depth > previous + 1) skips.push(`H${h.depth} “${h.text}” after ${previous ? `H${previous}` : "the start"}`);
    });
    rule(skips.length === 0, () => `heading-levels: ${skips.length} headings skip a level (${skips.slice(0, 3).join("; ")})`);
    const mdLevels = a.headings.map((h) => h.depth);
    rule(
      htmlHeadings.join(",") === mdLevels.join(","),
      () => `html-headings: HTML heading levels [${htmlHeadings.join(",")}] ≠ Markdown's [${mdLevels.join(",")}]`,
    );
  } else {
    rule(
      a.headings.length === 0,
      () => `no-headings: ${a.headings.length} heading nodes (first: H${a.headings[0]!.depth} “${a.headings[0]!.text}”)`,
    );
    const hashLines = article.markdown.split("\n").filter((line) => /^ {0,3}#{1,6}(?:[ \t]|$)/.test(line));
    rule(hashLines.length === 0, () => `no-hash-lines: ${hashLines.length} Markdown lines start with # (first: “${hashLines[0]}”)`);
    rule(htmlHeadings.length === 0, () => `no-html-headings: article.html has ${htmlHeadings.length} <h1>–<h6> elements`);
    rule(article.outline.length > 0, () => "outline: article.outline is empty although the article has sections");
  }

  // Structure of the preset.
  if (request.structure === "paragraphs") {
    rule(subheadings.length === 0, () => `paragraphs-no-subheadings: ${subheadings.length} H2/H3 headings (want none)`);
  }
  const h2s = a.body.filter((n): n is Heading => n.type === "heading" && n.depth === 2);
  if (request.structure === "sections" && request.headingTags) {
    const low = Math.max(1, Math.floor(length / 300));
    const high = Math.max(1, Math.ceil(length / 150));
    rule(
      h2s.length >= low && h2s.length <= high,
      () => `sections-h2-count: ${h2s.length} H2 sections for ${length} words (want ${low}–${high}, one per 150–300 words)`,
    );
  }
  if (request.structure === "detailed") broken.push(...detailedStructure(a, request, h2s));
  if ((request.structure === "listicle" || request.structure === "how-to") && request.headingTags) {
    // Numbered items (or steps) as H2s, 1, 2, 3… in order, then the conclusion.
    const numbers = h2s
      .map((h) => /^(\d+)\. \S/.exec(toString(h))?.[1])
      .filter((n) => n !== undefined)
      .map(Number);
    rule(
      numbers.length >= 3 && numbers.every((n, i) => n === i + 1),
      () => `numbered-items: H2 numbers [${numbers.join(",")}] (want 1, 2, 3… at least 3)`,
    );
    rule(
      numbers.length === h2s.length - 1,
      () => `numbered-items-all: ${numbers.length} of ${h2s.length} H2s are numbered (want all but the conclusion)`,
    );
  }
  const distinct = new Set(subheadings.map((h) => normalised(h.text, language)));
  rule(distinct.size === subheadings.length, () => `distinct-headings: ${subheadings.length - distinct.size} subheadings repeat another`);

  // The primary keyword.
  const [primary, ...secondary] = request.keywords;
  if (primary !== undefined) {
    const at = firstIndex(article.title, primary, language);
    rule(at >= 0, () => `keyword-in-title: “${primary}” is not in the title “${article.title}”`);
    if (request.titleGenerated && at >= 0) {
      rule(
        at <= article.title.length / 2,
        () =>
          `keyword-title-first-half: “${primary}” starts at character ${at} of a ${article.title.length}-character title (want ≤ ${article.title.length / 2})`,
      );
    }
    const opening = sentences(a.paragraphs[0] ?? "", language)
      .slice(0, 2)
      .join(" ");
    rule(
      occurrences(opening, primary, language) > 0,
      () => `keyword-in-introduction: “${primary}” is not in the first two sentences of the first paragraph (“${opening.slice(0, 120)}”)`,
    );
    if (subheadings.length > 0) {
      const holding = subheadings.filter((h) => occurrences(h.text, primary, language) > 0).length;
      const share = (holding / subheadings.length) * 100;
      rule(
        share >= 30 && share <= 75,
        () =>
          `keyword-in-subheadings: “${primary}” is in ${holding} of ${subheadings.length} H2/H3 subheadings (${pct(share)}; want 30–75%)`,
      );
    }
    rule(
      occurrences(article.metaDescription, primary, language) > 0,
      () => `keyword-in-meta-description: “${primary}” is not in “${article.metaDescription}”`,
    );
    const keywordSlug = keywordSlugForm(primary);
    rule(
      `-${article.slug}-`.includes(`-${keywordSlug}-`),
      () => `keyword-in-slug: slug “${article.slug}” does not contain “${keywordSlug}”`,
    );
    const count = a.blocks.reduce((n, b) => n + occurrences(b, primary, language), 0);
    const density = a.wordCount === 0 ? 0 : (count / a.wordCount) * 100;
    rule(
      density >= 0.5 && density <= 2.5,
      () => `keyword-density: “${primary}” ${count} times in ${a.wordCount} words = ${pct(density)} (want 0.5–2.5%)`,
    );
  }
  for (const keyword of secondary) {
    const count = a.blocks.reduce((n, b) => n + occurrences(b, keyword, language), 0);
    rule(count > 0, () => `secondary-keyword: “${keyword}” is not in the body`);
  }
  const stuffed = a.sentences.flatMap((s) =>
    request.keywords.filter((k) => occurrences(s, k, language) > 1).map((k) => `“${k}” in “${s.slice(0, 80)}”`),
  );
  rule(stuffed.length === 0, () => `keyword-once-per-sentence: ${stuffed.length} sentences hold a keyword twice (first: ${stuffed[0]})`);

  // Title, meta description and slug.
  rule(chars(article.title) <= 60, () => `title-length: the title has ${chars(article.title)} characters (want ≤ 60): “${article.title}”`);
  const meta = article.metaDescription;
  rule(chars(meta) >= 120 && chars(meta) <= 156, () => `meta-description-length: ${chars(meta)} characters (want 120–156): “${meta}”`);
  rule(
    !/(?:[\s,;:\-–—(«“‘]|\s["'])$/u.test(meta) && meta.length > 0,
    () => `meta-description-whole-word: it ends on “${meta.slice(-12)}”, not on a whole word`,
  );
  rule(/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(article.slug), () => `slug-form: “${article.slug}” is not lower-case ASCII [a-z0-9-]`);
  rule(article.slug.length <= 75, () => `slug-length: the slug has ${article.slug.length} characters (want ≤ 75)`);

  // Readability.
  const paragraphWords = a.paragraphs.map((p) => words(p, language).length);
  const longParagraphs = paragraphWords.filter((n) => n > 150);
  rule(
    longParagraphs.length === 0,
    () => `paragraph-length: ${longParagraphs.length} paragraphs over 150 words (longest ${Math.max(...paragraphWords)})`,
  );
  const most = LONG_SENTENCE[language] ?? 20;
  const long = a.sentences.filter((s) => words(s, language).length > most).length;
  const longShare = a.sentences.length ? (long / a.sentences.length) * 100 : 0;
  rule(
    longShare <= 25,
    () => `sentence-length: ${long} of ${a.sentences.length} sentences over ${most} words (${pct(longShare)}; want ≤ 25%)`,
  );
  const seen = new Set<string>();
  const repeated = a.sentences.filter((s) => {
    const key = normalised(s, language);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  rule(repeated.length === 0, () => `duplicate-sentences: ${repeated.length} sentences appear twice (first: “${repeated[0]}”)`);
  const near = nearRepeats(a.sentences, (s) => words(s, language));
  rule(
    near.length === 0,
    () =>
      `duplicate-sentences: ${near.length} sentences repeat an earlier one with a word or two changed (first: “${near[0]?.sentence}” ~ “${near[0]?.of}”)`,
  );
  const runs = sameStartRuns(a.sentences, language);
  rule(runs.length === 0, () => `consecutive-starts: ${runs.length} runs of 3+ sentences start with the same word (first: ${runs[0]})`);
  const cut = a.paragraphs.filter((p) => !TERMINATED.test(p));
  rule(
    cut.length === 0,
    () => `paragraph-ends-sentence: ${cut.length} paragraphs do not end with a sentence terminator (first ends “…${cut[0]!.slice(-40)}”)`,
  );

  // The server's own report: every check the engine steers for passes. The editor's checks of the model's own
  // prose (language, transition words, passive voice, clichés, figures) measure what a tiny or random-weight
  // model writes, so they may fail honestly; the score then says so.
  const failing = answer.seo.checks.filter((c) => STEERED_CHECKS.has(c.id) && c.passed === false);
  rule(failing.length === 0, () => `seo-checks: ${failing.length} failing: ${failing.map((c) => `${c.id} (${c.message})`).join("; ")}`);
  const anyFailing = answer.seo.checks.some((c) => c.passed === false);
  rule(
    anyFailing ? answer.seo.score < 100 : answer.seo.score === 100,
    () => `seo-score: ${answer.seo.score} with ${anyFailing ? "a failing check (want < 100)" : "every check passing (want 100)"}`,
  );

  broken.push(...checkEditorRules(answer, request));

  return broken;
}

/** The `detailed` preset: takeaways list after the introduction, H3s under body H2s, a last FAQ H2 of 3–5 questions. */
function detailedStructure(a: Parsed, request: RuleRequest, h2s: Heading[]): string[] {
  const broken: string[] = [];
  const { body } = a;
  const listAt = body.findIndex((n) => n.type === "list");
  if (listAt < 0) {
    broken.push("detailed-takeaways: no bullet list in the article");
  } else {
    const list = body[listAt] as List;
    const before = body.slice(0, listAt);
    const intro = request.headingTags ? before.slice(0, -1) : before;
    const label = request.headingTags ? before.at(-1) : undefined;
    const introOk = intro.length > 0 && intro.every((n) => n.type === "paragraph");
    const labelOk = !request.headingTags || (label?.type === "heading" && label.depth === 2);
    if (!introOk || !labelOk || list.ordered || list.children.length === 0) {
      broken.push(
        `detailed-takeaways: the first bullet list is not right after the introduction (before it: ${before.map(describeNode).join(", ") || "nothing"}; ${list.ordered ? "ordered" : "unordered"}, ${list.children.length} items)`,
      );
    }
  }
  if (request.headingTags) {
    if (h2s.length < 4) {
      broken.push(`detailed-sections: ${h2s.length} H2s (want takeaways, at least one body section, conclusion and FAQ)`);
      return broken;
    }
    const sectionOf = (h2: Heading) => {
      const start = body.indexOf(h2) + 1;
      const next = body.findIndex((n, i) => i >= start && n.type === "heading" && n.depth <= 2);
      return body.slice(start, next < 0 ? body.length : next);
    };
    const bodyH2s = h2s.slice(1, -2);
    const bare = bodyH2s.filter((h) => !sectionOf(h).some((n) => n.type === "heading" && n.depth === 3));
    if (bare.length)
      broken.push(`detailed-subsections: ${bare.length} of ${bodyH2s.length} body H2s have no H3 (first: “${toString(bare[0]!)}”)`);
    const faq = sectionOf(h2s.at(-1)!);
    const questions = faq.filter((n): n is Heading => n.type === "heading" && n.depth === 3);
    if (questions.length < 3 || questions.length > 5) {
      broken.push(`detailed-faq: the last H2 “${toString(h2s.at(-1)!)}” has ${questions.length} H3 questions (want 3–5)`);
    }
    const unanswered = questions.filter((q) => faq[faq.indexOf(q) + 1]?.type !== "paragraph").map((q) => toString(q));
    const notQuestions = questions.map((q) => toString(q)).filter((q) => !/[?？؟]$/u.test(q));
    if (unanswered.length)
      broken.push(`detailed-faq-answers: ${unanswered.length} FAQ questions have no answer paragraph (first: “${unanswered[0]}”)`);
    if (notQuestions.length)
      broken.push(`detailed-faq-questions: ${notQuestions.length} FAQ H3s are not questions (first: “${notQuestions[0]}”)`);
  } else {
    // Without headings the FAQ questions stay as paragraphs of their own: one sentence, a question.
    const isQuestion = (n: RootContent) => {
      if (n.type !== "paragraph") return false;
      const text = clean(toString(n));
      return /[?？؟]$/u.test(text) && sentences(text, request.language).length === 1;
    };
    const at = body.map((n, i) => (isQuestion(n) ? i : -1)).filter((i) => i >= 0);
    if (at.length < 3 || at.length > 5) broken.push(`detailed-faq: ${at.length} FAQ question paragraphs (want 3–5)`);
    const unanswered = at.filter((i) => body[i + 1]?.type !== "paragraph" || isQuestion(body[i + 1]!));
    if (unanswered.length)
      broken.push(
        `detailed-faq-answers: ${unanswered.length} FAQ questions have no answer paragraph (first: “${toString(body[unanswered[0]!]!)}”)`,
      );
    const after = at.length ? body.slice(at.at(-1)! + 1).filter((n) => n.type !== "paragraph") : [];
    if (after.length) broken.push(`detailed-faq-last: the FAQ is not at the end (followed by ${after.map(describeNode).join(", ")})`);
  }
  return broken;
}

/** Runs of three or more consecutive sentences starting with the same word. */
function sameStartRuns(list: string[], language: string): string[] {
  const runs: string[] = [];
  let word = "";
  let run = 0;
  let start = 0;
  const flush = () => {
    if (run >= 3) runs.push(`${run} × “${word}” from “${list[start]!.slice(0, 60)}”`);
  };
  list.forEach((sentence, i) => {
    const first = words(sentence, language)[0]?.toLocaleLowerCase(language) ?? "";
    if (first && first === word) {
      run++;
    } else {
      flush();
      word = first;
      run = first ? 1 : 0;
      start = i;
    }
  });
  flush();
  return runs;
}

function describeNode(node: RootContent): string {
  return node.type === "heading" ? `H${node.depth} “${toString(node)}”` : node.type;
}
