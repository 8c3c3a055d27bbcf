/**
 * What an editor would see, checked the way a client reads the answer: the Markdown, the
 * outline and the request only, nothing from src/. Keywords that open sentences or
 * sections too often, a lower-case keyword capitalised mid-sentence, an outline entry the
 * article lacks, a missing introduction, a paragraph with a quotation left open.
 */
import type { Heading, Paragraph, RootContent } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { occurrences, sentences, words } from "./rules.js";

/** The parts of the answer these rules read. */
export interface EditorAnswer {
  article: { title: string; metaDescription: string; markdown: string; outline: { level: number; text: string; shown?: boolean }[] };
}

/** What the test asked for. */
export interface EditorRequest {
  keywords: string[];
  language: string;
  headingTags: boolean;
  structure: string;
  /** Banned phrases (the request's style.avoid). */
  avoid?: string[];
}

/** Share of keyword sentences (the introduction's first apart) that may open with a keyword. */
const OPENING_SHARE = 0.4;

const clean = (text: string) => text.replace(/\s+/g, " ").trim();

/** Whether a sentence's first words are one of the keywords. */
function opensWithKeyword(sentence: string, keywords: string[], language: string): boolean {
  const first = words(sentence, language);
  return keywords.some((k) => {
    const n = words(k, language).length;
    return n > 0 && first.slice(0, n).join(" ").toLocaleLowerCase(language) === words(k, language).join(" ").toLocaleLowerCase(language);
  });
}

/** A paragraph's quotation marks and brackets, counted: straight quotes in pairs, curly and round ones matched. */
function unbalanced(paragraph: string): boolean {
  const count = (c: string) => [...paragraph].filter((x) => x === c).length;
  return count('"') % 2 !== 0 || count("\u201c") !== count("\u201d") || count("(") !== count(")");
}

/** Every editor rule the article breaks, one line each with its figures; empty when all hold. */
export function checkEditorRules(answer: EditorAnswer, request: EditorRequest): string[] {
  const { language, keywords } = request;
  const tree = unified().use(remarkParse).parse(answer.article.markdown);
  const body = tree.children[0]?.type === "heading" && tree.children[0].depth === 1 ? tree.children.slice(1) : tree.children;
  const paragraphs = body.flatMap(function all(n: RootContent): Paragraph[] {
    return n.type === "paragraph" ? [n] : "children" in n ? (n.children as RootContent[]).flatMap(all) : [];
  });
  const proseSentences = paragraphs.flatMap((p) => sentences(clean(toString(p)), language));
  const broken: string[] = [];
  const rule = (ok: boolean, message: () => string) => {
    if (!ok) broken.push(message());
  };

  // Keyword openings: the introduction's first sentence apart.
  const rest = body[0]?.type === "paragraph" ? proseSentences.slice(1) : proseSentences;
  const bearing = rest.filter((s) => keywords.some((k) => occurrences(s, k, language) > 0));
  const opening = bearing.filter((s) => opensWithKeyword(s, keywords, language));
  rule(
    opening.length <= OPENING_SHARE * bearing.length,
    () =>
      `keyword-first-sentences: ${opening.length} of ${bearing.length} keyword sentences open with a keyword (want ≤ 40%; first: “${opening[0]?.slice(0, 70)}”)`,
  );
  const h2s = body.filter((n): n is Heading => n.type === "heading" && n.depth === 2);
  const sectionOpenings = h2s.filter((h) => {
    const next = body.slice(body.indexOf(h) + 1).find((n): n is Paragraph => n.type === "paragraph");
    return next !== undefined && opensWithKeyword(sentences(clean(toString(next)), language)[0] ?? "", keywords, language);
  });
  rule(
    sectionOpenings.length <= h2s.length / 3,
    () => `keyword-first-sections: ${sectionOpenings.length} of ${h2s.length} sections open with a keyword (want ≤ a third)`,
  );

  // A keyword keeps the request's case mid-sentence.
  const capitalised = proseSentences.flatMap((s) =>
    keywords
      .filter((k) => /^\p{Ll}/u.test(k))
      .flatMap((k) => {
        const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "giu");
        return [...s.matchAll(pattern)].filter((m) => m.index > 0 && m[0] !== k).map((m) => `“${m[0]}” in “${s.slice(0, 70)}”`);
      }),
  );
  rule(capitalised.length === 0, () => `keyword-case: ${capitalised.length} mid-sentence keywords capitalised (first: ${capitalised[0]})`);

  // The outline lists what the article shows.
  const shownHeadings = body
    .filter((n): n is Heading => n.type === "heading" && (n.depth === 2 || n.depth === 3))
    .map((h) => `${h.depth} ${clean(toString(h))}`);
  const visible = request.headingTags && request.structure !== "paragraphs";
  if (visible) {
    const outline = answer.article.outline.map((e) => `${e.level} ${e.text}`);
    rule(
      outline.join("\n") === shownHeadings.join("\n"),
      () => `outline: article.outline [${outline.join(" | ")}] ≠ the headings shown [${shownHeadings.join(" | ")}]`,
    );
    rule(
      answer.article.outline.every((e) => e.shown === true),
      () => "outline-shown: an entry of a shown heading is not marked shown",
    );
  } else {
    rule(
      answer.article.outline.every((e) => e.shown === false),
      () => "outline-shown: an article without section headings lists an entry as shown",
    );
    rule(shownHeadings.length === 0, () => `outline: ${shownHeadings.length} H2/H3 headings in an article that shows none`);
  }

  // An introduction before the first H2.
  const firstH2 = body.findIndex((n) => n.type === "heading" && n.depth === 2);
  if (firstH2 >= 0)
    rule(
      firstH2 > 0 && body[0]!.type === "paragraph",
      () => `introduction: the article opens with ${body[0]?.type === "heading" ? `the H2 “${toString(body[0])}”` : body[0]?.type}`,
    );

  const open = paragraphs.map((p) => clean(toString(p))).filter(unbalanced);
  rule(open.length === 0, () => `quotes: ${open.length} paragraphs leave a quotation or bracket open (first: “${open[0]?.slice(0, 90)}”)`);

  const texts = [answer.article.title, answer.article.metaDescription, answer.article.markdown];
  for (const phrase of request.avoid ?? []) {
    const found = texts.reduce((n, t) => n + occurrences(t, phrase, request.language), 0);
    rule(found === 0, () => `avoid: “${phrase}” appears ${found} times`);
  }
  return broken;
}
