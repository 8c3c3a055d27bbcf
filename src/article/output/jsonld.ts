import type { Block } from "../body/document.js";
import type { Outline } from "../outline/outline.js";
import type { Plan } from "../plan/plan.js";
import { cutAtWord } from "../text/text.js";
import { HEADLINE_MAX, type JsonLd, type JsonLdFaqPage, type JsonLdHowTo } from "../../contract/jsonld.js";
import type { Publisher } from "../../contract/request.js";

/**
 * schema.org structured data of an article, as JSON-LD: an `Article` always, a `FAQPage`
 * when the article has an FAQ, a `HowTo` when it is a how-to with its steps as headings.
 * Built from what the engine already holds (the plan, the outline the model wrote and the
 * document's blocks), never by reading the Markdown back. It only restates the article's
 * own text: every name and answer is a heading or paragraph of the article as written.
 */

/** Who wrote an article, as the request names them: never invented. */
export interface Author {
  name: string;
  url?: string;
}

/** What the structured data is built from: the engine's plan, outline and document, and the answer's metadata. */
export interface JsonLdSource {
  plan: Plan;
  outline: Outline;
  /** The document's body blocks, in order. */
  blocks: readonly Block[];
  title: string;
  metaDescription: string;
  language: string;
  keywords: readonly string[];
  wordCount: number;
  readingTimeMinutes: number;
  /** Unix time in seconds, as in the answer's `created`. */
  created: number;
  /**
   * The sources the article cites, in marker order.
   * @default []
   */
  cited?: ReadonlyArray<{ title: string; url?: string }>;
  /**
   * The article's author, as the request gives it.
   * @default none (no `author` node)
   */
  author?: Author;
  /**
   * The article's publisher.
   * @default none (no `publisher` node)
   */
  publisher?: Publisher;
}

/** The article's JSON-LD: `@graph` holds the Article, then the FAQPage and the HowTo where the article has them. */
export function articleJsonLd(source: JsonLdSource): JsonLd {
  const { language, metaDescription } = source;
  const date = new Date(source.created * 1000).toISOString();
  const description = metaDescription ? { description: metaDescription } : {};
  const graph: JsonLd["@graph"] = [
    {
      "@type": "Article",
      headline: headline(source.title, language),
      ...description,
      inLanguage: language,
      keywords: [...source.keywords],
      wordCount: source.wordCount,
      timeRequired: `PT${source.readingTimeMinutes}M`,
      datePublished: date,
      dateModified: date,
      ...(source.cited?.length
        ? { citation: source.cited.map((c) => ({ "@type": "CreativeWork" as const, name: c.title, ...(c.url ? { url: c.url } : {}) })) }
        : {}),
      ...(source.author
        ? { author: { "@type": "Person" as const, name: source.author.name, ...(source.author.url ? { url: source.author.url } : {}) } }
        : {}),
      ...(source.publisher ? { publisher: publisherNode(source.publisher) } : {}),
    },
  ];
  const faq = faqPage(source);
  if (faq) graph.push(faq);
  const howTo = howToOf(source);
  if (howTo) graph.push({ "@type": "HowTo", name: source.title, ...description, inLanguage: language, step: howTo });
  return { "@context": "https://schema.org", "@graph": graph };
}

/** The title as a headline: whole when it fits, else cut on a word end (or, without one, on a character). */
function publisherNode({ name, url, logo }: Publisher) {
  return {
    "@type": "Organization" as const,
    name,
    ...(url ? { url } : {}),
    ...(logo ? { logo: { "@type": "ImageObject" as const, url: logo } } : {}),
  };
}

function headline(title: string, language: string): string {
  if (title.length <= HEADLINE_MAX) return title;
  const cut = cutAtWord(title, HEADLINE_MAX, language);
  if (cut) return cut;
  let out = "";
  for (const char of title) {
    if (out.length + char.length > HEADLINE_MAX) break;
    out += char;
  }
  return out;
}

/** Paragraphs of prose as one text. */
const proseText = (blocks: readonly Block[]) =>
  blocks
    .filter((b) => b.kind === "prose")
    .map((b) => b.text)
    .join("\n\n");

/**
 * The FAQ's questions with their answers. Each question is a block of its own: an H3, or
 * a paragraph when headings are off. They are found from the end (the FAQ closes the
 * article, and no later sentence may repeat a question); an answer is the prose from its
 * question to the next question or heading. A question left without an answer is not listed.
 */
function faqPage(source: JsonLdSource): JsonLdFaqPage | undefined {
  const section = source.plan.sections.findIndex((s) => s.kind === "faq");
  if (section < 0) return undefined;
  const questions = source.outline.sections[section]?.subheadings.filter((q): q is string => typeof q === "string" && q !== "") ?? [];
  const { blocks } = source;
  const found: { name: string; at: number }[] = [];
  let before = blocks.length;
  for (const name of [...questions].reverse()) {
    let at = before - 1;
    while (at >= 0 && !isQuestion(blocks[at]!, name)) at--;
    if (at < 0) continue;
    found.unshift({ name, at });
    before = at;
  }
  const entities: JsonLdFaqPage["mainEntity"] = [];
  for (const [i, { name, at }] of found.entries()) {
    const end = found[i + 1]?.at ?? blocks.length;
    let stop = at + 1;
    while (stop < end && blocks[stop]!.kind !== "heading") stop++;
    const text = proseText(blocks.slice(at + 1, stop));
    if (text) entities.push({ "@type": "Question", name, acceptedAnswer: { "@type": "Answer", text } });
  }
  return entities.length ? { "@type": "FAQPage", inLanguage: source.language, mainEntity: entities } : undefined;
}

const isQuestion = (block: Block, name: string) => block.text === name && (block.kind === "prose" || block.depth === 3);

/**
 * The steps of a how-to: each numbered H2 the model wrote, with the prose under it. Only
 * with heading tags: without them the article does not show its steps, and structured
 * data must describe what a reader sees. A step without text is not listed.
 */
function howToOf(source: JsonLdSource): JsonLdHowTo["step"] | undefined {
  const { plan, outline, blocks } = source;
  if (plan.preset !== "how-to" || !plan.headings) return undefined;
  const steps: JsonLdHowTo["step"] = [];
  let from = 0;
  for (const [i, section] of plan.sections.entries()) {
    const name = outline.sections[i]?.heading;
    if (section.number === null || !name) continue;
    const shown = `${section.number}. ${name}`;
    let at = from;
    while (at < blocks.length && !(blocks[at]!.kind === "heading" && blocks[at]!.text === shown)) at++;
    if (at >= blocks.length) continue;
    let end = at + 1;
    while (end < blocks.length && blocks[end]!.kind !== "heading") end++;
    from = end;
    const text = proseText(blocks.slice(at + 1, end));
    if (text) steps.push({ "@type": "HowToStep", position: section.number, name, text });
  }
  return steps.length ? steps : undefined;
}

const UNSAFE: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/**
 * JSON-LD as the text of a `<script type="application/ld+json">`: JSON with `<`, `>`, `&`,
 * U+2028 and U+2029 written as `\u` escapes (which only occur inside strings, where JSON
 * allows them). The text then holds no `<` at all, so no value can end the element
 * (`</script>`), open a comment (`<!--`) or enter the script-data escape states, and
 * `JSON.parse` of the text gives back the same object.
 */
export function serialiseJsonLd(value: JsonLd): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => UNSAFE[c]!);
}
