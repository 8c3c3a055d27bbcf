import { expect } from "vitest";

/**
 * Reading JSON-LD back out of an HTML document, and judging it, without sharing code with
 * the server.
 *
 * `scriptsOf` tokenises the document as far as the HTML Standard needs to find script
 * elements: comments, doctypes and end tags are skipped; a start tag's attributes are read
 * with their quoted values (a `<script` inside an attribute value is no tag); the text of a
 * raw-text or RCDATA element (`script`, `style`, `title`, `textarea`…) runs to its first
 * `</name` followed by whitespace, `/` or `>`. That is where the "script data state" ends a
 * script unless its text opened a `<!--` first (the escaped states, where a `<script` inside
 * delays the end): each of those needs a `<`, so the tests also require the JSON-LD text to
 * hold no `<`, and what they read is then exactly what a browser or a crawler reads.
 */

export interface ScriptElement {
  /** The start tag as written. */
  tag: string;
  /** The element's text. */
  text: string;
  /** Offset of the start tag in the document. */
  start: number;
  /** Offset just after the end tag. */
  end: number;
}

/** Elements whose text is not markup: it runs to their end tag. */
const RAW = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript"]);

/** Every `<script>` element of a document, in order. */
export function scriptsOf(html: string): ScriptElement[] {
  const scripts: ScriptElement[] = [];
  const after = (needle: string, from: number) => {
    const at = html.indexOf(needle, from);
    return at < 0 ? html.length : at + needle.length;
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      i = after("-->", lt + 4);
      continue;
    }
    if (/^<[!?/]/.test(html.slice(lt, lt + 2))) {
      i = after(">", lt);
      continue;
    }
    const name = /^<([a-zA-Z][^\s/>]*)/.exec(html.slice(lt))?.[1]?.toLowerCase();
    if (!name) {
      i = lt + 1;
      continue;
    }
    // Attributes: a name, then optionally `=` and a value, quoted or not.
    let j = lt + 1 + name.length;
    const attribute = /[\s/]*(?:([^\s/>=][^\s/>=]*)\s*(?:=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)?/y;
    for (;;) {
      attribute.lastIndex = j;
      const m = attribute.exec(html)!;
      if (m[0] === "") break;
      j += m[0].length;
    }
    if (html[j] !== ">") throw new Error(`unreadable start tag at ${lt}`);
    const tag = html.slice(lt, j + 1);
    i = j + 1;
    if (!RAW.has(name)) continue;
    const close = new RegExp(`</${name}(?=[\\s/>])[^>]*>`, "gi");
    close.lastIndex = i;
    const end = close.exec(html);
    if (!end) throw new Error(`a ${name} element is never closed`);
    if (name === "script") scripts.push({ tag, text: html.slice(i, end.index), start: lt, end: end.index + end[0].length });
    i = end.index + end[0].length;
  }
  return scripts;
}

/**
 * The document's one `application/ld+json` script: it must be the only script, sit in the
 * head and hold no character that could close or confuse it. Returns its parsed JSON.
 */
export function jsonLdOf(html: string): unknown {
  const scripts = scriptsOf(html);
  expect(scripts.map((s) => s.tag)).toEqual(['<script type="application/ld+json">']);
  const [script] = scripts;
  expect(script!.start).toBeGreaterThan(html.indexOf("<head>"));
  expect(script!.end).toBeLessThan(html.indexOf("</head>"));
  expect(html.indexOf("</head>")).toBe(html.lastIndexOf("</head>"));
  expect(script!.text).not.toMatch(/[<>&\u2028\u2029]/u);
  return JSON.parse(script!.text);
}

type Node = Record<string, any>;

const nonEmpty = (value: unknown) => typeof value === "string" && value.trim() !== "";
const isoDate = (value: unknown) => typeof value === "string" && !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value);

/**
 * What schema.org and Google's structured-data guidelines require of each node, checked by
 * hand: an `Article` with its headline (at most 110 characters), language, word count and
 * publication date; a `FAQPage` whose `mainEntity` are `Question`s each with an `Answer`
 * text; a `HowTo` with a name and `HowToStep`s each with a name and text. Returns the nodes by type.
 */
export function expectValidJsonLd(value: unknown): Record<string, Node> {
  const doc = value as Node;
  expect(doc["@context"]).toBe("https://schema.org");
  const graph = doc["@graph"] as Node[];
  expect(Array.isArray(graph)).toBe(true);
  const types = graph.map((n) => n["@type"]);
  expect(new Set(types).size, "each type once").toBe(types.length);
  expect(types[0]).toBe("Article");
  const byType = Object.fromEntries(graph.map((n) => [n["@type"] as string, n]));

  const article = byType.Article!;
  expect(nonEmpty(article.headline)).toBe(true);
  expect((article.headline as string).length).toBeLessThanOrEqual(110);
  expect(article.inLanguage).toMatch(/^[a-z]{2}$/);
  expect(Number.isInteger(article.wordCount) && (article.wordCount as number) > 0).toBe(true);
  expect(isoDate(article.datePublished)).toBe(true);
  expect(isoDate(article.dateModified)).toBe(true);

  const faq = byType.FAQPage;
  if (faq) {
    const questions = faq.mainEntity as Node[];
    expect(questions.length).toBeGreaterThan(0);
    for (const q of questions) {
      expect(q["@type"]).toBe("Question");
      expect(nonEmpty(q.name)).toBe(true);
      const answer = q.acceptedAnswer as Node;
      expect(answer["@type"]).toBe("Answer");
      expect(nonEmpty(answer.text)).toBe(true);
    }
  }

  const howTo = byType.HowTo;
  if (howTo) {
    expect(nonEmpty(howTo.name)).toBe(true);
    const steps = howTo.step as Node[];
    expect(steps.length).toBeGreaterThan(0);
    for (const [i, step] of steps.entries()) {
      expect(step["@type"]).toBe("HowToStep");
      expect(nonEmpty(step.name)).toBe(true);
      expect(nonEmpty(step.text)).toBe(true);
      if (i > 0) expect(step.position as number).toBeGreaterThan(steps[i - 1]!.position as number);
    }
  }
  for (const type of types) expect(["Article", "FAQPage", "HowTo"]).toContain(type);
  return byType;
}

/**
 * An answer's article without what depends on when it was written: the JSON-LD dates,
 * which come from `created`. Two requests for the same seeded article compare equal through it.
 */
export function timeless<T>(article: T): T {
  const copy = structuredClone(article) as { jsonLd?: { "@graph"?: Node[] } };
  for (const node of copy.jsonLd?.["@graph"] ?? []) {
    delete node.datePublished;
    delete node.dateModified;
  }
  return copy as T;
}
