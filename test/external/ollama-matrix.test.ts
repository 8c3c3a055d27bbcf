import { describe, expect, it } from "vitest";
import { bannedIn, readerText } from "../helpers/bans.js";
import { citedSentences, restatedEvidence, STORIES } from "../helpers/citations.js";
import { expectLeftOutNamed, linksOf, type Page } from "../helpers/links.js";
import { MATRIX_TOPICS, type MatrixCase, matrixCases, matrixRequest, matrixRules } from "../helpers/matrix.js";
import { checkArticleRules, type ArticleAnswer } from "../helpers/rules.js";
import { ollamaStack } from "../helpers/ollama-stack.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";

// The engine matrix through `inkpress serve --backend` on Ollama's own API, lean: every preset
// once, headings off, banned phrases, sources, links and an edited outline, one 300-word
// stories260K article each, all through one Ollama STAND-IN (scripts/ollama-stand-in.ts: Ollama's
// documented API in front of a real llama-server) and one inkpress. Each article is checked by the
// independent rule checker, as in backend-matrix.test.ts; the grounded ones by what a client reads.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the Ollama matrix needs ${STORIES_MODEL}, which is not there.`);

/** Every preset with headings, and one without: the matrix's own 300-word cases and seeds, in English. */
const CASES = matrixCases(["en"]).filter((c) => c.length === 300 && (c.headingTags || c.structure === "how-to"));

/** A case beside the matrix's, for the grounded and banned articles. */
const SECTIONS: MatrixCase = {
  name: "sections, 300 words",
  structure: "sections",
  headingTags: true,
  length: 300,
  seed: 5301,
  language: "en",
};

/** Phrases stories260K writes often. */
const BANNED = ["little girl", "once upon", "very happy", "big tree", "the park", "her mom", "a time", "lily", "said", "wanted to"];

/** Pages of a plant site, two of them on the matrix's keywords. */
const PAGES: Page[] = [
  { url: "/guides/watering", title: "A watering schedule for every plant", keywords: ["watering schedule"] },
  { url: "/guides/soil", title: "Choosing potting soil", keywords: ["potting soil"] },
  { url: "https://plants.example/light", title: "Light for houseplants", keywords: ["window light"] },
];

describe.skipIf(!HAS_STORIES_MODEL)("engine matrix through inkpress → Ollama (a stand-in on llama-server, stories260K)", () => {
  const stack = ollamaStack();

  async function post(path: string, body: object): Promise<any> {
    const response = await fetch(`${stack().inkpress.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, text.slice(0, 400)).toBe(200);
    return JSON.parse(text);
  }
  /** An article of a case, with more of the request; it keeps every rule the checker knows. */
  async function article(c: MatrixCase, more: object = {}): Promise<ArticleAnswer & { usage: { promptTokens: number } }> {
    const answer = await post("/api/v1/generate", { ...matrixRequest(c), ...more });
    const broken = checkArticleRules(answer, matrixRules(c));
    expect(broken, `${c.name} (seed ${c.seed}) breaks ${broken.length} rules:\n  ${broken.join("\n  ")}`).toEqual([]);
    expect(answer.usage.promptTokens).toBeGreaterThan(0);
    return answer;
  }
  const check = (answer: ArticleAnswer, id: string) => answer.seo.checks.find((c) => c.id === id)!;

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    await article(c);
  });

  it("ten banned phrases: none in the article", async () => {
    const answer = await article({ ...SECTIONS, seed: 5302 }, { style: { avoid: BANNED } });
    expect(bannedIn(readerText(answer), BANNED)).toEqual([]);
  });

  it("sources: each cited sentence restates its source, and the report counts the sources the Markdown cites", async () => {
    // Not the rule checker: it reads the Sources list as a section of prose. Seed 5306 cites one of the stories.
    const answer = await post("/api/v1/generate", { ...matrixRequest({ ...SECTIONS, seed: 5306 }), sources: STORIES });
    const cited = citedSentences(answer.article.markdown);
    for (const c of cited) {
      const source = STORIES.find((s) => s.title === c.title);
      expect(source, `[${c.n}] is listed as “${c.title}”`).toBeDefined();
      expect(
        restatedEvidence({ sentence: c.sentence, source: source!.text, request: [MATRIX_TOPICS.en!.topic, MATRIX_TOPICS.en!.keywords] }),
      ).not.toEqual([]);
    }
    const titles = new Set(cited.map((c) => c.title));
    expect(check(answer, "sources-cited")).toMatchObject({
      passed: titles.size > 0,
      message: expect.stringMatching(new RegExp(`^${titles.size} sources? of ${STORIES.length} cited`)),
    });
  });

  it("links: each page at most once, never in a heading, and the report names the pages left out", async () => {
    const answer = await article({ ...SECTIONS, seed: 5304 }, { links: PAGES });
    const urls = linksOf(answer.article.markdown).map((l) => l.url);
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of urls) expect(PAGES.map((p) => p.url)).toContain(url);
    for (const heading of answer.article.markdown.split("\n").filter((line) => line.startsWith("#"))) expect(heading).not.toMatch(/\]\(/);
    const { message } = check(answer, "internal-links");
    // None placed may be because none could be: the report says which.
    expect(message).toMatch(
      new RegExp(urls.length ? `^${urls.length} links? placed` : "^(0 links placed|None of the request's pages can be linked)"),
    );
    expectLeftOutNamed(answer, PAGES, urls);
  });

  it("an edited outline: the article has exactly its headings, an H2 reworded and a new one added beside it", async () => {
    const request = matrixRequest({ ...SECTIONS, seed: 5305 });
    const { outline } = await post("/api/v1/outline", request);
    type Heading = { level: number; text: string; words: number; kind?: string };
    const at = outline.headings.findIndex((h: Heading) => h.level === 2 && (h.kind ?? "body") === "body");
    expect(at).toBeGreaterThanOrEqual(0);
    const first: Heading = outline.headings[at];
    // The new H2 takes half the reworded one's words: the outline still plans the same length.
    const half = Math.floor(first.words / 2);
    const headings: Heading[] = [...outline.headings];
    headings.splice(
      at,
      1,
      { ...first, text: "Where indoor plants like to stand", words: first.words - half },
      { level: 2, text: "A watering can for every shelf", words: half },
    );
    const answer = await post("/api/v1/generate", { ...request, outline: { ...outline, headings } });
    const written = [...answer.article.markdown.matchAll(/^(#{2,3}) (.*)$/gmu)].map((m) => `H${m[1]!.length} ${m[2]}`);
    expect(written).toEqual(headings.map((h) => `H${h.level} ${h.text}`));
    expect(check(answer, "outline")).toMatchObject({ passed: true });
  });
});
